/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/rcuhlist.h - RCU variants of the one-pointer-head list of
 * <urcu/hlist.h>.
 *
 * Readers walk the list forward, inside an RCU read-side critical section,
 * while one updater at a time adds or removes nodes.  Readers only follow
 * "next" pointers: "prev" pointers belong to the updaters.
 *
 * Rules for the caller:
 *   - cds_hlist_for_each_rcu() and the cds_hlist_for_each_entry_rcu*()
 *     forms run inside rcu_read_lock()/rcu_read_unlock() of any flavor
 *     (QSBR: in an online registered thread).  A node reached this way
 *     stays valid until the reader leaves its critical section.
 *   - cds_hlist_add_head_rcu() and cds_hlist_del_rcu() need mutual
 *     exclusion among themselves and with the non-RCU calls of
 *     <urcu/hlist.h> on the same list; they may run concurrently with any
 *     number of readers.
 *   - A node removed by cds_hlist_del_rcu() may still be in use by
 *     readers: free or reuse it only after a grace period
 *     (synchronize_rcu() or call_rcu()).
 *
 * Ordering: every store that makes a node reachable from the list is a
 * release store (rcu_assign_pointer/rcu_set_pointer) paired with the
 * readers' rcu_dereference(), so a reader that reaches a node also sees
 * everything written to it before that store.
 *
 * This header works with every flavor: it uses only <urcu/pointer.h>.
 */
#ifndef _URCU_RCUHLIST_H
#define _URCU_RCUHLIST_H

#include <urcu/compiler.h>
#include <urcu/hlist.h>
#include <urcu/pointer.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Insert newp at the front of the list. */
static inline void cds_hlist_add_head_rcu(struct cds_hlist_node *newp,
		struct cds_hlist_head *head)
{
	struct cds_hlist_node *first = head->next;

	/* newp is not visible yet: plain stores. */
	newp->next = first;
	newp->prev = (struct cds_hlist_node *) head;
	if (first)
		first->prev = newp;
	/*
	 * Publish newp.  Release: orders the initialization of newp (its
	 * links above and whatever the caller stored in the enclosing
	 * object) before newp becomes reachable; pairs with the readers'
	 * rcu_dereference() of head->next.
	 */
	rcu_assign_pointer(head->next, newp);
}

/*
 * Unlink elem.  elem->next is left intact (and elem->prev too): a reader
 * standing on elem continues to the rest of the list.  Wait for a grace
 * period before freeing or reusing elem.
 */
static inline void cds_hlist_del_rcu(struct cds_hlist_node *elem)
{
	struct cds_hlist_node *next = elem->next;

	if (next)
		next->prev = elem->prev;
	/*
	 * Release, although next was published before: a reader reaching
	 * next through this new link may never have read that earlier
	 * publishing store.  This store orders what the updater knows of
	 * next (its initialization, seen through the updaters' mutual
	 * exclusion) before the link; pairs with the readers'
	 * rcu_dereference() of the predecessor's next.
	 */
	rcu_set_pointer(_cds_hlist_link_to(elem), next);
}

/*
 * Forward traversal for readers, inside a read-side critical section.
 * Arguments as for the matching forms of <urcu/hlist.h>.  Each "next" is
 * read with rcu_dereference(), pairing with the updaters' release stores.
 * No _safe forms: readers never remove nodes.
 */
#define cds_hlist_for_each_rcu(pos, head)				\
	for ((pos) = rcu_dereference((head)->next);			\
	     (pos) != NULL;						\
	     (pos) = rcu_dereference((pos)->next))

#define cds_hlist_for_each_entry_rcu(entry, pos, head, member)	\
	for ((pos) = rcu_dereference((head)->next);			\
	     (pos) != NULL &&						\
		((entry) = cds_hlist_entry(pos, __typeof__(*(entry)),	\
					   member), 1);			\
	     (pos) = rcu_dereference((pos)->next))

#define cds_hlist_for_each_entry_rcu_2(entry, head, member)		\
	for ((entry) = cds_hlist_entry_safe(rcu_dereference((head)->next), \
					    __typeof__(*(entry)), member); \
	     (entry) != NULL;						\
	     (entry) = cds_hlist_entry_safe(				\
			rcu_dereference((entry)->member.next),		\
			__typeof__(*(entry)), member))

#ifdef __cplusplus
}
#endif

#endif /* _URCU_RCUHLIST_H */
