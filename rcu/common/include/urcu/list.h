/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/list.h - circular doubly linked list with a sentinel head
 * (struct cds_list_head embedded in the user's objects).
 *
 * This list is NOT safe for concurrent use: callers provide mutual
 * exclusion.  <urcu/rculist.h> adds the variants that RCU readers may
 * traverse while an updater modifies the list.
 *
 * An empty list is a head whose next and prev point to itself.  Nodes
 * removed with cds_list_del() keep stale pointers; use
 * cds_list_del_init() to make them empty lists again.
 */
#ifndef _CDS_LIST_H
#define _CDS_LIST_H	1

#include <urcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cds_list_head {
	struct cds_list_head *next, *prev;
};

/* Static initializer for an empty list whose head is the variable name. */
#define CDS_LIST_HEAD_INIT(name)	{ &(name), &(name) }

/* Define and initialize an empty list head called name. */
#define CDS_LIST_HEAD(name)	\
	struct cds_list_head name = CDS_LIST_HEAD_INIT(name)

/* Make *ptr an empty list (run-time initialization). */
#define CDS_INIT_LIST_HEAD(ptr)	\
	((ptr)->next = (ptr)->prev = (ptr))

/* Link newp between two adjacent nodes. */
static inline void _cds_list_link_between(struct cds_list_head *newp,
		struct cds_list_head *before, struct cds_list_head *after)
{
	newp->prev = before;
	newp->next = after;
	after->prev = newp;
	before->next = newp;
}

/* Insert newp right after head (at the front of the list). */
static inline void cds_list_add(struct cds_list_head *newp,
		struct cds_list_head *head)
{
	_cds_list_link_between(newp, head, head->next);
}

/* Insert newp right before head (at the back of the list). */
static inline void cds_list_add_tail(struct cds_list_head *newp,
		struct cds_list_head *head)
{
	_cds_list_link_between(newp, head->prev, head);
}

/* Make prev and next adjacent, unlinking whatever was between them. */
static inline void __cds_list_del(struct cds_list_head *prev,
		struct cds_list_head *next)
{
	prev->next = next;
	next->prev = prev;
}

/* Unlink elem; its own pointers are left unchanged (stale). */
static inline void cds_list_del(struct cds_list_head *elem)
{
	__cds_list_del(elem->prev, elem->next);
}

/* Unlink elem and turn it into an empty list. */
static inline void cds_list_del_init(struct cds_list_head *elem)
{
	cds_list_del(elem);
	CDS_INIT_LIST_HEAD(elem);
}

/* Unlink elem from its list and insert it at the front of head. */
static inline void cds_list_move(struct cds_list_head *elem,
		struct cds_list_head *head)
{
	cds_list_del(elem);
	cds_list_add(elem, head);
}

/* Put _new in old's place; old's pointers are left unchanged (stale). */
static inline void cds_list_replace(struct cds_list_head *old,
		struct cds_list_head *_new)
{
	_cds_list_link_between(_new, old->prev, old->next);
}

/* Put _new in old's place and turn old into an empty list. */
static inline void cds_list_replace_init(struct cds_list_head *old,
		struct cds_list_head *_new)
{
	cds_list_replace(old, _new);
	CDS_INIT_LIST_HEAD(old);
}

/*
 * Move every node of the list headed by add to the front of head,
 * keeping their order.  The head "add" itself is left untouched, so it
 * still points at the moved nodes: reinitialize it before reusing it.
 */
static inline void cds_list_splice(struct cds_list_head *add,
		struct cds_list_head *head)
{
	struct cds_list_head *first = add->next;
	struct cds_list_head *last = add->prev;

	if (first == add)	/* Nothing to move. */
		return;
	last->next = head->next;
	head->next->prev = last;
	first->prev = head;
	head->next = first;
}

/* Nonzero when the list headed by head has no nodes. */
static inline int cds_list_empty(struct cds_list_head *head)
{
	return head->next == head;
}

/* Object of type "type" containing the list node ptr in field member. */
#define cds_list_entry(ptr, type, member)	\
	caa_container_of(ptr, type, member)

/* First object of a non-empty list. */
#define cds_list_first_entry(head, type, member)	\
	cds_list_entry((head)->next, type, member)

/*
 * Iteration.  pos (and p for the _safe forms) are caller variables of
 * type struct cds_list_head * or, for the _entry forms, pointers to the
 * containing type.  The _safe forms fetch the next node before running
 * the body, so the body may remove (and free) pos.
 */
#define cds_list_for_each(pos, head)					\
	for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)

#define cds_list_for_each_prev(pos, head)				\
	for ((pos) = (head)->prev; (pos) != (head); (pos) = (pos)->prev)

#define cds_list_for_each_safe(pos, p, head)				\
	for ((pos) = (head)->next, (p) = (pos)->next;			\
	     (pos) != (head);						\
	     (pos) = (p), (p) = (pos)->next)

#define cds_list_for_each_prev_safe(pos, p, head)			\
	for ((pos) = (head)->prev, (p) = (pos)->prev;			\
	     (pos) != (head);						\
	     (pos) = (p), (p) = (pos)->prev)

/*
 * The list node inside entry pos, computed without dereferencing pos.
 * When an iteration ends, pos is the head's would-be container, which is
 * not an object (and may be misaligned for the entry type): only its node
 * address, which is the head itself, may be used.
 */
#define _cds_list_node(pos, member)					\
	((struct cds_list_head *) ((char *) (pos) +			\
		offsetof(__typeof__(*(pos)), member)))

/* Entry at the node following/preceding the node of entry pos. */
#define _cds_list_next_entry(pos, member)				\
	cds_list_entry(_cds_list_node(pos, member)->next,		\
		       __typeof__(*(pos)), member)
#define _cds_list_prev_entry(pos, member)				\
	cds_list_entry(_cds_list_node(pos, member)->prev,		\
		       __typeof__(*(pos)), member)

#define cds_list_for_each_entry(pos, head, member)			\
	for ((pos) = cds_list_entry((head)->next, __typeof__(*(pos)), member); \
	     _cds_list_node(pos, member) != (head);					\
	     (pos) = _cds_list_next_entry(pos, member))

#define cds_list_for_each_entry_reverse(pos, head, member)		\
	for ((pos) = cds_list_entry((head)->prev, __typeof__(*(pos)), member); \
	     _cds_list_node(pos, member) != (head);					\
	     (pos) = _cds_list_prev_entry(pos, member))

#define cds_list_for_each_entry_safe(pos, p, head, member)		\
	for ((pos) = cds_list_entry((head)->next, __typeof__(*(pos)), member), \
	     (p) = _cds_list_next_entry(pos, member);			\
	     _cds_list_node(pos, member) != (head);					\
	     (pos) = (p), (p) = _cds_list_next_entry(pos, member))

/*
 * Like cds_list_for_each_entry_safe(), but starts at the entry pos that
 * the caller has already set (pos must be an entry of the list, or the
 * head's container to iterate over nothing).
 */
#define cds_list_for_each_entry_safe_from(pos, p, head, member)	\
	for ((p) = _cds_list_next_entry(pos, member);			\
	     _cds_list_node(pos, member) != (head);					\
	     (pos) = (p), (p) = _cds_list_next_entry(pos, member))

#ifdef __cplusplus
}
#endif

#endif /* _CDS_LIST_H */
