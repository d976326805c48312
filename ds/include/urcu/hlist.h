/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/hlist.h - doubly linked list with a one-pointer head, the usual
 * bucket of a hash table (struct cds_hlist_node embedded in the user's
 * objects).
 *
 * The head holds only a pointer to the first node, so an empty table of
 * heads costs one pointer per bucket; the list is NULL-terminated, not
 * circular.  Each node's "prev" points to the node before it or, for the
 * first node, to the head itself (cast to struct cds_hlist_node *): both
 * structures begin with their "next" field, which is all "prev" is used
 * for.  Nodes can therefore be unlinked without knowing their head.
 *
 * This list is NOT safe for concurrent use: callers provide mutual
 * exclusion.  <urcu/rcuhlist.h> adds the variants that RCU readers may
 * traverse while an updater modifies the list.  Removed nodes keep stale
 * pointers.
 */
#ifndef _KCOMPAT_HLIST_H
#define _KCOMPAT_HLIST_H

#include <urcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cds_hlist_node;

struct cds_hlist_head {
	struct cds_hlist_node *next;	/* first node, NULL when empty */
};

struct cds_hlist_node {
	struct cds_hlist_node *next;	/* NULL on the last node */
	struct cds_hlist_node *prev;	/* previous node, or the head */
};

/* Static initializer for an empty list (name is unused). */
#define CDS_HLIST_HEAD_INIT(name)	{ NULL }

/* Define and initialize an empty list head called name. */
#define CDS_HLIST_HEAD(name)	\
	struct cds_hlist_head name = CDS_HLIST_HEAD_INIT(name)

/* Make *ptr an empty list (run-time initialization). */
static inline void CDS_INIT_HLIST_HEAD(struct cds_hlist_head *ptr)
{
	ptr->next = NULL;
}

/* Object of type "type" containing the list node ptr in field member. */
#define cds_hlist_entry(ptr, type, member)	\
	caa_container_of(ptr, type, member)

/* Like cds_hlist_entry(), but a NULL ptr gives NULL. */
#define cds_hlist_entry_safe(ptr, type, member)				\
	__extension__ ({						\
		__typeof__(ptr) _cds_hlist_es_p = (ptr);		\
		_cds_hlist_es_p ?					\
			cds_hlist_entry(_cds_hlist_es_p, type, member) : NULL; \
	})

/*
 * The pointer that points at node: the "next" field of node's
 * predecessor, which is a node or the head.  Either way that field is the
 * first member of the structure node->prev points to, and a pointer to a
 * structure converted to a pointer to its first member points to that
 * member, so this is valid whichever of the two it is.
 */
static inline struct cds_hlist_node **_cds_hlist_link_to(
		struct cds_hlist_node *node)
{
	return (struct cds_hlist_node **) node->prev;
}

/* Insert newp at the front of the list. */
static inline void cds_hlist_add_head(struct cds_hlist_node *newp,
		struct cds_hlist_head *head)
{
	struct cds_hlist_node *first = head->next;

	newp->next = first;
	newp->prev = (struct cds_hlist_node *) head;
	if (first)
		first->prev = newp;
	head->next = newp;
}

/* Unlink elem; its own pointers are left unchanged (stale). */
static inline void cds_hlist_del(struct cds_hlist_node *elem)
{
	struct cds_hlist_node *next = elem->next;

	if (next)
		next->prev = elem->prev;
	*_cds_hlist_link_to(elem) = next;
}

/*
 * Iteration.  pos (and p) are caller variables of type
 * struct cds_hlist_node *; entry (and e) point to the containing type.
 * The _safe forms fetch the next node before running the body, so the
 * body may remove (and free) the current one.
 *
 * The 4- and 5-argument _entry forms are liburcu's; the _2 forms take
 * the arguments of the Linux kernel's hlist_for_each_entry().  entry is
 * only computed from a non-NULL node.
 */
#define cds_hlist_for_each(pos, head)					\
	for ((pos) = (head)->next; (pos) != NULL; (pos) = (pos)->next)

#define cds_hlist_for_each_safe(pos, p, head)				\
	for ((pos) = (head)->next;					\
	     (pos) != NULL && ((p) = (pos)->next, 1);			\
	     (pos) = (p))

#define cds_hlist_for_each_entry(entry, pos, head, member)		\
	for ((pos) = (head)->next;					\
	     (pos) != NULL &&						\
		((entry) = cds_hlist_entry(pos, __typeof__(*(entry)),	\
					   member), 1);			\
	     (pos) = (pos)->next)

#define cds_hlist_for_each_entry_safe(entry, pos, p, head, member)	\
	for ((pos) = (head)->next;					\
	     (pos) != NULL &&						\
		((p) = (pos)->next,					\
		 (entry) = cds_hlist_entry(pos, __typeof__(*(entry)),	\
					   member), 1);			\
	     (pos) = (p))

#define cds_hlist_for_each_entry_2(entry, head, member)		\
	for ((entry) = cds_hlist_entry_safe((head)->next,		\
					    __typeof__(*(entry)), member); \
	     (entry) != NULL;						\
	     (entry) = cds_hlist_entry_safe((entry)->member.next,	\
					    __typeof__(*(entry)), member))

#define cds_hlist_for_each_entry_safe_2(entry, e, head, member)	\
	for ((entry) = cds_hlist_entry_safe((head)->next,		\
					    __typeof__(*(entry)), member); \
	     (entry) != NULL &&						\
		((e) = cds_hlist_entry_safe((entry)->member.next,	\
					    __typeof__(*(entry)), member), 1); \
	     (entry) = (e))

#ifdef __cplusplus
}
#endif

#endif /* _KCOMPAT_HLIST_H */
