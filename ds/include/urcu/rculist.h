/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/rculist.h - RCU variants of the doubly linked list of <urcu/list.h>.
 *
 * Readers walk the list forward, inside an RCU read-side critical section,
 * while one updater at a time adds, removes or replaces nodes.  Readers
 * only follow "next" pointers: "prev" pointers belong to the updaters.
 *
 * Rules for the caller:
 *   - cds_list_for_each_rcu() and cds_list_for_each_entry_rcu() run inside
 *     rcu_read_lock()/rcu_read_unlock() of any flavor (QSBR: in an online
 *     registered thread).  A node reached this way stays valid until the
 *     reader leaves its critical section.
 *   - The updating functions need mutual exclusion among themselves and
 *     with the non-RCU calls of <urcu/list.h> on the same list (e.g. a
 *     mutex); they may run concurrently with any number of readers.
 *   - A node removed by cds_list_del_rcu() or replaced by
 *     cds_list_replace_rcu() may still be in use by readers: free or reuse
 *     it only after a grace period (synchronize_rcu() or call_rcu()).
 *
 * Ordering: every store that makes a node reachable from the list is a
 * release store (rcu_assign_pointer/rcu_set_pointer) paired with the
 * readers' rcu_dereference(), so a reader that reaches a node also sees
 * everything written to it before that store.
 *
 * This header works with every flavor: it uses only <urcu/pointer.h>.
 */
#ifndef _URCU_RCULIST_H
#define _URCU_RCULIST_H

#include <urcu/compiler.h>
#include <urcu/list.h>
#include <urcu/pointer.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Insert newp right after head (at the front of the list). */
static inline void cds_list_add_rcu(struct cds_list_head *newp,
		struct cds_list_head *head)
{
	struct cds_list_head *first = head->next;

	/* newp is not visible yet: plain stores. */
	newp->next = first;
	newp->prev = head;
	first->prev = newp;
	/*
	 * Publish newp.  Release: orders the initialization of newp (its
	 * links above and whatever the caller stored in the enclosing
	 * object) before newp becomes reachable; pairs with the readers'
	 * rcu_dereference() of head->next.
	 */
	rcu_assign_pointer(head->next, newp);
}

/* Insert newp right before head (at the back of the list). */
static inline void cds_list_add_tail_rcu(struct cds_list_head *newp,
		struct cds_list_head *head)
{
	struct cds_list_head *last = head->prev;

	newp->next = head;
	newp->prev = last;
	/*
	 * Publish newp.  Release: orders newp's initialization before it
	 * becomes reachable; pairs with the readers' rcu_dereference() of
	 * last->next.
	 */
	rcu_assign_pointer(last->next, newp);
	head->prev = newp;
}

/*
 * Unlink elem.  elem->next is left intact (and elem->prev too): a reader
 * standing on elem continues to the rest of the list.  Wait for a grace
 * period before freeing or reusing elem.
 */
static inline void cds_list_del_rcu(struct cds_list_head *elem)
{
	struct cds_list_head *prev = elem->prev;
	struct cds_list_head *next = elem->next;

	next->prev = prev;
	/*
	 * Release, although next was published before: a reader reaching
	 * next through this new link may never have read that earlier
	 * publishing store.  This store orders what the updater knows of
	 * next (its initialization, seen through the updaters' mutual
	 * exclusion) before the link; pairs with the readers'
	 * rcu_dereference() of prev->next.
	 */
	rcu_assign_pointer(prev->next, next);
}

/*
 * Put _new in old's place, in one step as readers see it: a reader finds
 * either old or _new, never neither.  old's pointers are left intact so
 * that readers standing on it continue; wait for a grace period before
 * freeing or reusing old.
 */
static inline void cds_list_replace_rcu(struct cds_list_head *old,
		struct cds_list_head *_new)
{
	struct cds_list_head *prev = old->prev;
	struct cds_list_head *next = old->next;

	_new->next = next;
	_new->prev = prev;
	/*
	 * Publish _new.  Release: orders _new's initialization before it
	 * becomes reachable; pairs with the readers' rcu_dereference() of
	 * prev->next.
	 */
	rcu_assign_pointer(prev->next, _new);
	next->prev = _new;
}

/*
 * Forward traversal for readers, inside a read-side critical section.
 * pos is a struct cds_list_head * (or, for the _entry form, a pointer to
 * the containing type) owned by the caller.  Each "next" is read with
 * rcu_dereference(), pairing with the updaters' release stores.  No
 * reverse or _safe forms: readers may not use "prev", and they never
 * remove nodes.
 */
#define cds_list_for_each_rcu(pos, head)				\
	for ((pos) = rcu_dereference((head)->next);			\
	     (pos) != (head);						\
	     (pos) = rcu_dereference((pos)->next))

/*
 * The loop test and step go through _cds_list_node() (<urcu/list.h>), so
 * the final pos, which is the head's would-be container and not an
 * object, is never dereferenced.
 */
#define cds_list_for_each_entry_rcu(pos, head, member)			\
	for ((pos) = cds_list_entry(rcu_dereference((head)->next),	\
				    __typeof__(*(pos)), member);	\
	     _cds_list_node(pos, member) != (head);			\
	     (pos) = cds_list_entry(					\
			rcu_dereference(_cds_list_node(pos, member)->next), \
			__typeof__(*(pos)), member))

#ifdef __cplusplus
}
#endif

#endif /* _URCU_RCULIST_H */
