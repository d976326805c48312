/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Check suite "rculist": the RCU list headers <urcu/rculist.h>,
 * <urcu/hlist.h> and <urcu/rcuhlist.h>.
 *
 * TCases "rculist", "hlist", "rcuhlist": single-threaded semantics of
 * each function and macro, one test per property.  Properties shared by
 * several calls or macros (adding at the front, unlinking, traversing)
 * are tested once, looped over a table of those calls (list_adds[],
 * hlist_updates[], list_walks[], hlist_walks[]).  The RCU ones run in a
 * thread registered with the memb flavor (checked fixture) and traverse
 * inside read-side sections.
 * TCase "concurrent": for each RCU list type and each of the five
 * flavors (tests/flavors/flavors.h), two readers traverse the list with
 * the _rcu macros while
 * the test thread, the only updater, adds, deletes and (for rculist)
 * replaces nodes for a time budget.  Removed nodes are poisoned after
 * synchronize_rcu() and then freed, so a reader that still saw one would
 * notice (and ASan would too).  Readers also check that a node that is
 * never removed, and the node that is replaced over and over, are each
 * seen exactly once per traversal.
 *
 * Conventions: fork mode; reader threads never call ck_assert, they
 * record failures (tests/harness/harness.h) and the test thread asserts
 * after pthread_join; the stress phase lasts a time budget scaled by
 * CK_TIMEOUT_MULTIPLIER and never asserts on speed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include <urcu/compiler.h>
#include <urcu/list.h>
#include <urcu/rculist.h>
#include <urcu/hlist.h>
#include <urcu/rcuhlist.h>

#include "flavors/flavors.h"
#include "harness/harness.h"

/* Stress budget per run, before scaling by CK_TIMEOUT_MULTIPLIER. */
#define STRESS_S	0.5
#define NR_READERS	2
/* Removable nodes the updater keeps in a list at most. */
#define NR_SLOTS	32

#define ITEM_LIVE	0x11fe11feU
#define ITEM_DEAD	0xdeaddeadU

enum role { ROLE_PLAIN, ROLE_PINNED, ROLE_REPLACED };

/*
 * A listed object.  Over-aligned, with its links away from offset 0, so
 * that a macro turning the list head (or an hlist's terminating NULL)
 * into an entry and dereferencing it would be caught by UBSan.
 */
struct item {
	unsigned int magic;	/* ITEM_LIVE until retired */
	int key;
	int check;		/* ~key */
	int role;
	struct cds_list_head list;
	struct cds_hlist_node hnode;
} __attribute__((aligned(16)));

static void item_init(struct item *it, int key)
{
	it->magic = ITEM_LIVE;
	it->key = key;
	it->check = ~key;
	it->role = ROLE_PLAIN;
}

static void items_init(struct item *it, int n)
{
	int i;

	for (i = 0; i < n; i++)
		item_init(&it[i], i);
}

static void assert_keys(const int *got, int n_got, const int *want, int n)
{
	int i;

	ck_assert_int_eq(n_got, n);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(got[i], want[i]);
}

/*
 * Asserts that head's list holds the items with keys want[0..n-1], in
 * order, and that the prev links mirror the next links.
 */
static void assert_list(struct cds_list_head *head, const int *want, int n)
{
	struct cds_list_head *p = head;
	int i;

	for (i = 0; i < n; i++) {
		ck_assert_ptr_eq(p->next->prev, p);
		p = p->next;
		ck_assert_ptr_ne(p, head);
		ck_assert_int_eq(cds_list_entry(p, struct item, list)->key,
				 want[i]);
	}
	ck_assert_ptr_eq(p->next, head);
	ck_assert_ptr_eq(head->prev, p);
}

/* The same for an hlist: the first node's prev is the head itself. */
static void assert_hlist(struct cds_hlist_head *head, const int *want, int n)
{
	struct cds_hlist_node *prev = (struct cds_hlist_node *) head;
	struct cds_hlist_node *p = head->next;
	int i;

	for (i = 0; i < n; i++) {
		ck_assert_ptr_nonnull(p);
		ck_assert_ptr_eq(p->prev, prev);
		ck_assert_int_eq(cds_hlist_entry(p, struct item, hnode)->key,
				 want[i]);
		prev = p;
		p = p->next;
	}
	ck_assert_ptr_null(p);
}

/* ------------------------------------------------------------------------
 * The reader of the single-threaded tests: the test thread, registered
 * with the memb flavor by the checked fixture of the RCU test cases (the
 * list calls do not depend on the flavor; the concurrent tests run them
 * under every flavor).
 */

static const struct rcu_flavor_struct *api_fl(void)
{
	return test_flavors[TF_MEMB].fl;
}

static void api_setup(void)
{
	api_fl()->register_thread();
}

static void api_teardown(void)
{
	api_fl()->unregister_thread();
}

/*
 * Records the key of an item a traversal reached; with @unlink, also
 * unlinks the item from its hlist and scribbles over its links, which a
 * "safe" traversal must not read again.
 */
static void visit(struct item *it, int *out, int *n, int max, bool unlink)
{
	ck_assert_int_lt(*n, max);
	out[(*n)++] = it->key;
	if (unlink) {
		cds_hlist_del(&it->hnode);
		it->hnode.next = it->hnode.prev = NULL;
	}
}

/* ------------------------------------------------------------------------
 * TCase "rculist".
 */

/* The two ways to add: each node goes to the front, or to the back. */
static const struct list_add {
	const char *name;
	void (*add)(struct cds_list_head *newp, struct cds_list_head *head);
	int want[3];
} list_adds[] = {
	{ "cds_list_add_rcu", cds_list_add_rcu, { 2, 1, 0 } },
	{ "cds_list_add_tail_rcu", cds_list_add_tail_rcu, { 0, 1, 2 } },
};

START_TEST(test_list_add)
{
	const struct list_add *a = &list_adds[_i];
	CDS_LIST_HEAD(head);
	struct item it[3];
	int i;

	items_init(it, 3);
	for (i = 0; i < 3; i++)
		a->add(&it[i].list, &head);
	assert_list(&head, a->want, 3);
}
END_TEST

/* Removal from the middle, the front, the back, and of the last node. */
START_TEST(test_list_del_rcu_unlinks)
{
	CDS_LIST_HEAD(head);
	struct item it[4];
	const int want1[] = { 0, 2, 3 }, want2[] = { 2, 3 }, want3[] = { 2 };
	int i;

	items_init(it, 4);
	for (i = 0; i < 4; i++)
		cds_list_add_tail_rcu(&it[i].list, &head);
	cds_list_del_rcu(&it[1].list);
	assert_list(&head, want1, 3);
	cds_list_del_rcu(&it[0].list);
	assert_list(&head, want2, 2);
	cds_list_del_rcu(&it[3].list);
	assert_list(&head, want3, 1);
	cds_list_del_rcu(&it[2].list);
	ck_assert(cds_list_empty(&head));
	assert_list(&head, NULL, 0);
}
END_TEST

/* A reader standing on a removed node still reaches its old successor. */
START_TEST(test_list_del_rcu_keeps_links)
{
	CDS_LIST_HEAD(head);
	struct item it[3];
	int i;

	items_init(it, 3);
	for (i = 0; i < 3; i++)
		cds_list_add_tail_rcu(&it[i].list, &head);
	cds_list_del_rcu(&it[1].list);
	ck_assert_ptr_eq(it[1].list.next, &it[2].list);
	ck_assert_ptr_eq(it[1].list.prev, &it[0].list);
	cds_list_del_rcu(&it[2].list);
	ck_assert_ptr_eq(it[2].list.next, &head);
}
END_TEST

/* Replacement of the middle, first, last and only node. */
START_TEST(test_list_replace_rcu_in_place)
{
	CDS_LIST_HEAD(head);
	struct item it[3], nw[4];
	const int want1[] = { 0, 11, 2 }, want2[] = { 10, 11, 2 },
		  want3[] = { 10, 11, 12 }, want4[] = { 13 };
	int i;

	items_init(it, 3);
	for (i = 0; i < 4; i++)
		item_init(&nw[i], 10 + i);
	for (i = 0; i < 3; i++)
		cds_list_add_tail_rcu(&it[i].list, &head);
	cds_list_replace_rcu(&it[1].list, &nw[1].list);
	assert_list(&head, want1, 3);
	cds_list_replace_rcu(&it[0].list, &nw[0].list);
	assert_list(&head, want2, 3);
	cds_list_replace_rcu(&it[2].list, &nw[2].list);
	assert_list(&head, want3, 3);

	cds_list_del_rcu(&nw[0].list);
	cds_list_del_rcu(&nw[1].list);
	cds_list_replace_rcu(&nw[2].list, &nw[3].list);
	assert_list(&head, want4, 1);
}
END_TEST

/* The replaced node keeps its links, for readers standing on it. */
START_TEST(test_list_replace_rcu_keeps_links)
{
	CDS_LIST_HEAD(head);
	struct item it[3], nw;
	int i;

	items_init(it, 3);
	item_init(&nw, 10);
	for (i = 0; i < 3; i++)
		cds_list_add_tail_rcu(&it[i].list, &head);
	cds_list_replace_rcu(&it[1].list, &nw.list);
	ck_assert_ptr_eq(it[1].list.next, &it[2].list);
	ck_assert_ptr_eq(it[1].list.prev, &it[0].list);
}
END_TEST

/*
 * The reader's traversals of an rculist, one function per macro: each
 * returns the keys it saw, in order, and asserts where the macro leaves
 * its cursor.
 */
static int list_walk_for_each_rcu(struct cds_list_head *head, int *out,
				  int max)
{
	struct cds_list_head *pos;
	int n = 0;

	api_fl()->read_lock();
	cds_list_for_each_rcu(pos, head)
		visit(cds_list_entry(pos, struct item, list), out, &n, max,
		      false);
	ck_assert_ptr_eq(pos, head);
	api_fl()->read_unlock();
	return n;
}

static int list_walk_for_each_entry_rcu(struct cds_list_head *head,
					int *out, int max)
{
	struct item *it;
	int n = 0;

	api_fl()->read_lock();
	cds_list_for_each_entry_rcu(it, head, list)
		visit(it, out, &n, max, false);
	api_fl()->read_unlock();
	return n;
}

static const struct list_walk {
	const char *name;
	int (*walk)(struct cds_list_head *head, int *out, int max);
} list_walks[] = {
	{ "cds_list_for_each_rcu", list_walk_for_each_rcu },
	{ "cds_list_for_each_entry_rcu", list_walk_for_each_entry_rcu },
};

/* Nothing on an empty list; the nodes in list order on a full one. */
START_TEST(test_list_walk)
{
	const struct list_walk *w = &list_walks[_i];
	CDS_LIST_HEAD(head);
	struct item it[3];
	int got[3], n, i;
	const int want[] = { 0, 1, 2 };

	ck_assert_msg(w->walk(&head, got, 3) == 0,
		      "%s: iteration over an empty list", w->name);
	items_init(it, 3);
	for (i = 0; i < 3; i++)
		cds_list_add_tail_rcu(&it[i].list, &head);
	n = w->walk(&head, got, 3);
	assert_keys(got, n, want, 3);
}
END_TEST

/*
 * The head sits where its would-be containing item is misaligned: the
 * loop must end without accessing that non-object (UBSan checks).
 */
START_TEST(test_list_for_each_entry_rcu_misaligned_head)
{
	struct {
		void *pad;
		struct cds_list_head head;
	} __attribute__((aligned(16))) holder;
	struct item it[2];
	int got[2], n;
	const int want[] = { 0, 1 };

	ck_assert_uint_ne(((uintptr_t) &holder.head
			   - offsetof(struct item, list))
			  % __alignof__(struct item), 0);
	CDS_INIT_LIST_HEAD(&holder.head);
	ck_assert_int_eq(list_walk_for_each_entry_rcu(&holder.head, got, 2),
			 0);
	items_init(it, 2);
	cds_list_add_tail_rcu(&it[0].list, &holder.head);
	cds_list_add_tail_rcu(&it[1].list, &holder.head);
	n = list_walk_for_each_entry_rcu(&holder.head, got, 2);
	assert_keys(got, n, want, 2);
}
END_TEST

/* RCU updates and the plain <urcu/list.h> calls work on the same list. */
START_TEST(test_list_rcu_mixes_with_plain)
{
	CDS_LIST_HEAD(head);
	struct item it[4], *pos, *p;
	const int want[] = { 3, 0, 2 };
	int got[4], n = 0;

	items_init(it, 4);
	cds_list_add_tail_rcu(&it[0].list, &head);
	cds_list_add_tail(&it[1].list, &head);
	cds_list_add_tail_rcu(&it[2].list, &head);
	cds_list_add(&it[3].list, &head);
	cds_list_del_rcu(&it[1].list);
	assert_list(&head, want, 3);
	cds_list_for_each_entry(pos, &head, list)
		got[n++] = pos->key;
	assert_keys(got, n, want, 3);
	cds_list_for_each_entry_safe(pos, p, &head, list)
		cds_list_del(&pos->list);
	ck_assert(cds_list_empty(&head));
}
END_TEST

/* ------------------------------------------------------------------------
 * TCases "hlist" (<urcu/hlist.h>) and "rcuhlist" (<urcu/rcuhlist.h>):
 * the same properties, through the tables below, index 0 for the plain
 * calls and macros, the rest for the RCU ones.
 */

static CDS_HLIST_HEAD(file_scope_head);

START_TEST(test_hlist_init_empty)
{
	CDS_HLIST_HEAD(defined);
	struct cds_hlist_head initialized = CDS_HLIST_HEAD_INIT(initialized);
	struct cds_hlist_head runtime;
	struct cds_hlist_node *pos;

	ck_assert_ptr_null(file_scope_head.next);
	ck_assert_ptr_null(defined.next);
	ck_assert_ptr_null(initialized.next);
	memset(&runtime, 0xa5, sizeof(runtime));
	CDS_INIT_HLIST_HEAD(&runtime);
	ck_assert_ptr_null(runtime.next);
	cds_hlist_for_each(pos, &runtime)
		ck_abort_msg("iteration over an empty list");
	ck_assert_ptr_null(pos);
}
END_TEST

START_TEST(test_hlist_entry)
{
	struct item it;
	struct cds_hlist_node *null_node = NULL;

	ck_assert_ptr_eq(cds_hlist_entry(&it.hnode, struct item, hnode), &it);
	ck_assert_ptr_eq(cds_hlist_entry_safe(&it.hnode, struct item, hnode),
			 &it);
	ck_assert_ptr_null(cds_hlist_entry_safe(null_node, struct item, hnode));
}
END_TEST

/* The updates: <urcu/hlist.h>'s, then <urcu/rcuhlist.h>'s. */
static const struct hlist_update {
	const char *name;
	void (*add_head)(struct cds_hlist_node *newp,
			 struct cds_hlist_head *head);
	void (*del)(struct cds_hlist_node *elem);
} hlist_updates[] = {
	{ "hlist", cds_hlist_add_head, cds_hlist_del },
	{ "rcuhlist", cds_hlist_add_head_rcu, cds_hlist_del_rcu },
};

enum { HLIST_PLAIN, HLIST_RCU };

START_TEST(test_hlist_add_head_front)
{
	const struct hlist_update *u = &hlist_updates[_i];
	CDS_HLIST_HEAD(head);
	struct item it[3];
	const int want[] = { 2, 1, 0 };
	int i;

	items_init(it, 3);
	for (i = 0; i < 3; i++)
		u->add_head(&it[i].hnode, &head);
	assert_hlist(&head, want, 3);
}
END_TEST

/* Removal from the middle, the front, the back, and of the last node. */
START_TEST(test_hlist_del_unlinks)
{
	const struct hlist_update *u = &hlist_updates[_i];
	CDS_HLIST_HEAD(head);
	struct item it[4];
	const int want1[] = { 3, 1, 0 }, want2[] = { 1, 0 }, want3[] = { 1 };
	int i;

	items_init(it, 4);
	for (i = 0; i < 4; i++)
		u->add_head(&it[i].hnode, &head);
	u->del(&it[2].hnode);
	assert_hlist(&head, want1, 3);
	u->del(&it[3].hnode);
	assert_hlist(&head, want2, 2);
	u->del(&it[0].hnode);
	assert_hlist(&head, want3, 1);
	u->del(&it[1].hnode);
	ck_assert_ptr_null(head.next);
}
END_TEST

/* A reader standing on a removed node still reaches its old successor. */
START_TEST(test_hlist_del_rcu_keeps_links)
{
	CDS_HLIST_HEAD(head);
	struct item it[3];
	int i;

	items_init(it, 3);
	for (i = 0; i < 3; i++)
		cds_hlist_add_head_rcu(&it[i].hnode, &head);
	/* List: 2, 1, 0. */
	cds_hlist_del_rcu(&it[1].hnode);
	ck_assert_ptr_eq(it[1].hnode.next, &it[0].hnode);
	ck_assert_ptr_eq(it[1].hnode.prev, &it[2].hnode);
	cds_hlist_del_rcu(&it[2].hnode);
	ck_assert_ptr_eq(it[2].hnode.next, &it[0].hnode);
	ck_assert_ptr_eq(it[2].hnode.prev, (struct cds_hlist_node *) &head);
}
END_TEST

/*
 * The traversals of an hlist, one function per macro, as list_walks[]:
 * each returns the keys it saw and asserts where the macro leaves its
 * cursors.  The "safe" ones unlink every node they reach (visit()).
 */
static int hlist_walk_for_each(struct cds_hlist_head *head, int *out,
			       int max)
{
	struct cds_hlist_node *pos;
	int n = 0;

	cds_hlist_for_each(pos, head)
		visit(cds_hlist_entry(pos, struct item, hnode), out, &n, max,
		      false);
	ck_assert_ptr_null(pos);
	return n;
}

static int hlist_walk_for_each_safe(struct cds_hlist_head *head, int *out,
				    int max)
{
	struct cds_hlist_node *pos, *p;
	int n = 0;

	cds_hlist_for_each_safe(pos, p, head)
		visit(cds_hlist_entry(pos, struct item, hnode), out, &n, max,
		      true);
	ck_assert_ptr_null(pos);
	return n;
}

static int hlist_walk_for_each_entry(struct cds_hlist_head *head, int *out,
				     int max)
{
	struct cds_hlist_node *pos;
	struct item *e;
	int n = 0;

	cds_hlist_for_each_entry(e, pos, head, hnode) {
		ck_assert_ptr_eq(&e->hnode, pos);
		visit(e, out, &n, max, false);
	}
	ck_assert_ptr_null(pos);
	return n;
}

static int hlist_walk_for_each_entry_safe(struct cds_hlist_head *head,
					  int *out, int max)
{
	struct cds_hlist_node *pos, *p;
	struct item *e;
	int n = 0;

	cds_hlist_for_each_entry_safe(e, pos, p, head, hnode) {
		ck_assert_ptr_eq(&e->hnode, pos);
		visit(e, out, &n, max, true);
	}
	ck_assert_ptr_null(pos);
	return n;
}

static int hlist_walk_for_each_entry_2(struct cds_hlist_head *head, int *out,
				       int max)
{
	struct item *e;
	int n = 0;

	cds_hlist_for_each_entry_2(e, head, hnode)
		visit(e, out, &n, max, false);
	ck_assert_ptr_null(e);
	return n;
}

static int hlist_walk_for_each_entry_safe_2(struct cds_hlist_head *head,
					    int *out, int max)
{
	struct item *e, *next;
	int n = 0;

	cds_hlist_for_each_entry_safe_2(e, next, head, hnode)
		visit(e, out, &n, max, true);
	ck_assert_ptr_null(e);
	return n;
}

static int hlist_walk_for_each_rcu(struct cds_hlist_head *head, int *out,
				   int max)
{
	struct cds_hlist_node *pos;
	int n = 0;

	api_fl()->read_lock();
	cds_hlist_for_each_rcu(pos, head)
		visit(cds_hlist_entry(pos, struct item, hnode), out, &n, max,
		      false);
	ck_assert_ptr_null(pos);
	api_fl()->read_unlock();
	return n;
}

static int hlist_walk_for_each_entry_rcu(struct cds_hlist_head *head,
					 int *out, int max)
{
	struct cds_hlist_node *pos;
	struct item *e;
	int n = 0;

	api_fl()->read_lock();
	cds_hlist_for_each_entry_rcu(e, pos, head, hnode) {
		ck_assert_ptr_eq(&e->hnode, pos);
		visit(e, out, &n, max, false);
	}
	ck_assert_ptr_null(pos);
	api_fl()->read_unlock();
	return n;
}

static int hlist_walk_for_each_entry_rcu_2(struct cds_hlist_head *head,
					   int *out, int max)
{
	struct item *e;
	int n = 0;

	api_fl()->read_lock();
	cds_hlist_for_each_entry_rcu_2(e, head, hnode)
		visit(e, out, &n, max, false);
	ck_assert_ptr_null(e);
	api_fl()->read_unlock();
	return n;
}

static const struct hlist_walk {
	const char *name;
	int (*walk)(struct cds_hlist_head *head, int *out, int max);
	/* The walk unlinks every node it reaches. */
	bool unlinks;
	/* Index in hlist_updates[] of the calls that build the list. */
	int updates;
} hlist_walks[] = {
	{ "cds_hlist_for_each", hlist_walk_for_each, false, HLIST_PLAIN },
	{ "cds_hlist_for_each_safe", hlist_walk_for_each_safe, true,
	  HLIST_PLAIN },
	{ "cds_hlist_for_each_entry", hlist_walk_for_each_entry, false,
	  HLIST_PLAIN },
	{ "cds_hlist_for_each_entry_safe", hlist_walk_for_each_entry_safe,
	  true, HLIST_PLAIN },
	{ "cds_hlist_for_each_entry_2", hlist_walk_for_each_entry_2, false,
	  HLIST_PLAIN },
	{ "cds_hlist_for_each_entry_safe_2", hlist_walk_for_each_entry_safe_2,
	  true, HLIST_PLAIN },
	/* From here on: RCU (the "rcuhlist" test case). */
	{ "cds_hlist_for_each_rcu", hlist_walk_for_each_rcu, false, HLIST_RCU },
	{ "cds_hlist_for_each_entry_rcu", hlist_walk_for_each_entry_rcu,
	  false, HLIST_RCU },
	{ "cds_hlist_for_each_entry_rcu_2", hlist_walk_for_each_entry_rcu_2,
	  false, HLIST_RCU },
};

enum { HLIST_WALKS_RCU = 6, N_HLIST_WALKS = CAA_ARRAY_SIZE(hlist_walks) };

/*
 * Nothing on an empty list; every node, most recently added first, on a
 * full one; an empty list after a walk that unlinks them.
 */
START_TEST(test_hlist_walk)
{
	const struct hlist_walk *w = &hlist_walks[_i];
	const struct hlist_update *u = &hlist_updates[w->updates];
	CDS_HLIST_HEAD(head);
	struct item it[3];
	int got[3], n, i;
	const int want[] = { 2, 1, 0 };

	ck_assert_msg(w->walk(&head, got, 3) == 0,
		      "%s: iteration over an empty list", w->name);
	items_init(it, 3);
	for (i = 0; i < 3; i++)
		u->add_head(&it[i].hnode, &head);
	n = w->walk(&head, got, 3);
	assert_keys(got, n, want, 3);
	if (w->unlinks)
		ck_assert_ptr_null(head.next);
	else
		assert_hlist(&head, want, 3);
}
END_TEST

/* ------------------------------------------------------------------------
 * TCase "concurrent".
 */

struct stress {
	const struct rcu_flavor_struct *fl;
	int is_hlist;		/* s->hlist, else s->list */
	struct cds_list_head list;
	struct cds_hlist_head hlist;
	atomic_int started;	/* readers registered and about to read */
	atomic_int stop;	/* set by the updater when it is done */
	/* Updater only. */
	struct item *slots[NR_SLOTS];	/* the removable nodes */
	int nr_slots;
	int next_key;
	unsigned int seed;
};

struct reader {
	pthread_t thread;
	struct stress *s;
	unsigned long traversals;
};

/* Reader side: checks one node reached by a traversal. */
static void reader_saw(const struct item *it, int *pinned, int *replaced)
{
	if (it->magic != ITEM_LIVE || it->check != ~it->key) {
		harness_fail("reader saw a retired or uninitialized node: "
			     "magic %#x key %d check %d",
			     it->magic, it->key, it->check);
		return;
	}
	if (it->role == ROLE_PINNED)
		(*pinned)++;
	else if (it->role == ROLE_REPLACED)
		(*replaced)++;
}

/* One traversal of s->list, alternating between the two _rcu macros. */
static void list_traverse(struct reader *r, int *pinned, int *replaced)
{
	struct cds_list_head *pos;
	struct item *it;

	if (r->traversals & 1) {
		cds_list_for_each_rcu(pos, &r->s->list)
			reader_saw(cds_list_entry(pos, struct item, list),
				   pinned, replaced);
	} else {
		cds_list_for_each_entry_rcu(it, &r->s->list, list)
			reader_saw(it, pinned, replaced);
	}
}

/* The same for s->hlist, with the two _entry_rcu macros. */
static void hlist_traverse(struct reader *r, int *pinned, int *replaced)
{
	struct cds_hlist_node *pos;
	struct item *it;

	if (r->traversals & 1) {
		cds_hlist_for_each_entry_rcu(it, pos, &r->s->hlist, hnode)
			reader_saw(it, pinned, replaced);
	} else {
		cds_hlist_for_each_entry_rcu_2(it, &r->s->hlist, hnode)
			reader_saw(it, pinned, replaced);
	}
}

/*
 * Traverses until stopped: each traversal must see the pinned node once,
 * and the replaced node (rculist only) once.
 */
static void *reader_thread(void *arg)
{
	struct reader *r = arg;
	struct stress *s = r->s;
	int pinned, replaced;

	s->fl->register_thread();
	atomic_fetch_add(&s->started, 1);
	do {
		pinned = replaced = 0;
		s->fl->read_lock();
		if (s->is_hlist)
			hlist_traverse(r, &pinned, &replaced);
		else
			list_traverse(r, &pinned, &replaced);
		s->fl->read_unlock();
		HARNESS_CHECK(pinned == 1);
		HARNESS_CHECK(replaced == !s->is_hlist);
		r->traversals++;
		/* QSBR: a reader between traversals; the others: nothing. */
		s->fl->read_quiescent_state();
	} while (!atomic_load(&s->stop));
	s->fl->unregister_thread();
	return NULL;
}

/* Updater side. */

static struct item *new_item(struct stress *s, int role)
{
	struct item *it = malloc(sizeof(*it));

	ck_assert_ptr_nonnull(it);
	item_init(it, s->next_key++);
	it->role = role;
	return it;
}

/* Frees a node that was removed from the list, once readers are done. */
static void retire(struct stress *s, struct item *it)
{
	s->fl->update_synchronize_rcu();
	/* Visible to a reader only if the grace period failed to cover it. */
	it->magic = ITEM_DEAD;
	it->check = it->key;
	free(it);
}

/* Index of a random removable node; there must be one. */
static int random_slot(struct stress *s)
{
	return rand_r(&s->seed) % s->nr_slots;
}

/* Takes slot i out of the table of removable nodes. */
static struct item *take_slot(struct stress *s, int i)
{
	struct item *it = s->slots[i];

	s->slots[i] = s->slots[--s->nr_slots];
	return it;
}

/*
 * One random update of s->list: add (front or back), delete, or replace
 * (a removable node, or the ROLE_REPLACED node *replaced).
 */
static void list_update(struct stress *s, struct item **replaced)
{
	int op = rand_r(&s->seed) % 4;	/* 0, 1: add; 2: delete; 3: replace */
	struct item *it, *old;
	int i;

	if (op <= 1 && s->nr_slots == NR_SLOTS)
		op = 2;
	if (op == 2 && s->nr_slots == 0)
		op = 3;
	if (op <= 1) {
		it = new_item(s, ROLE_PLAIN);
		if (op == 0)
			cds_list_add_rcu(&it->list, &s->list);
		else
			cds_list_add_tail_rcu(&it->list, &s->list);
		s->slots[s->nr_slots++] = it;
	} else if (op == 2) {
		it = take_slot(s, random_slot(s));
		cds_list_del_rcu(&it->list);
		retire(s, it);
	} else if (s->nr_slots == 0 || (rand_r(&s->seed) & 1)) {
		old = *replaced;
		*replaced = new_item(s, ROLE_REPLACED);
		cds_list_replace_rcu(&old->list, &(*replaced)->list);
		retire(s, old);
	} else {
		i = random_slot(s);
		old = s->slots[i];
		s->slots[i] = new_item(s, ROLE_PLAIN);
		cds_list_replace_rcu(&old->list, &s->slots[i]->list);
		retire(s, old);
	}
}

/* One random update of s->hlist. */
static void hlist_update(struct stress *s)
{
	struct item *it;

	if (s->nr_slots < NR_SLOTS
	    && (s->nr_slots == 0 || (rand_r(&s->seed) & 1))) {
		it = new_item(s, ROLE_PLAIN);
		cds_hlist_add_head_rcu(&it->hnode, &s->hlist);
		s->slots[s->nr_slots++] = it;
	} else {
		it = take_slot(s, random_slot(s));
		cds_hlist_del_rcu(&it->hnode);
		retire(s, it);
	}
}

static void wait_readers_started(struct stress *s)
{
	double limit = harness_deadline(HARNESS_WAIT_S);

	while (atomic_load(&s->started) < NR_READERS) {
		ck_assert_msg(!harness_past(limit), "readers did not start");
		harness_sleep_ms(1);
	}
}

/*
 * Runs the readers against the test thread's updates of an rculist (is_hlist
 * false) or an rcuhlist, under flavor @tf.
 */
static void run_stress(const struct test_flavor *tf, int is_hlist)
{
	const char *who = tf->name;
	struct stress s;
	struct reader rd[NR_READERS];
	struct item *pinned, *replaced = NULL;
	double deadline;
	int i;

	memset(&s, 0, sizeof(s));
	s.fl = tf->fl;
	s.is_hlist = is_hlist;
	s.seed = 1;
	CDS_INIT_LIST_HEAD(&s.list);
	CDS_INIT_HLIST_HEAD(&s.hlist);
	atomic_init(&s.started, 0);
	atomic_init(&s.stop, 0);

	pinned = new_item(&s, ROLE_PINNED);
	if (is_hlist) {
		cds_hlist_add_head_rcu(&pinned->hnode, &s.hlist);
	} else {
		replaced = new_item(&s, ROLE_REPLACED);
		cds_list_add_rcu(&pinned->list, &s.list);
		cds_list_add_tail_rcu(&replaced->list, &s.list);
	}
	for (i = 0; i < NR_READERS; i++) {
		rd[i] = (struct reader) { .s = &s };
		harness_spawn(&rd[i].thread, reader_thread, &rd[i]);
	}
	wait_readers_started(&s);

	deadline = harness_deadline(STRESS_S);
	do {
		if (is_hlist)
			hlist_update(&s);
		else
			list_update(&s, &replaced);
	} while (!harness_past(deadline));

	atomic_store(&s.stop, 1);
	for (i = 0; i < NR_READERS; i++)
		harness_join(rd[i].thread);
	harness_assert_no_failures(who);
	for (i = 0; i < NR_READERS; i++)
		ck_assert_uint_gt(rd[i].traversals, 0);

	/* No reader left: empty the list with the plain calls. */
	while (s.nr_slots > 0) {
		if (is_hlist)
			cds_hlist_del(&s.slots[s.nr_slots - 1]->hnode);
		else
			cds_list_del(&s.slots[s.nr_slots - 1]->list);
		free(s.slots[--s.nr_slots]);
	}
	if (is_hlist) {
		cds_hlist_del(&pinned->hnode);
		ck_assert_ptr_null(s.hlist.next);
	} else {
		cds_list_del(&pinned->list);
		cds_list_del(&replaced->list);
		ck_assert(cds_list_empty(&s.list));
		free(replaced);
	}
	free(pinned);
}

/* Loop tests over test_flavors[]. */
START_TEST(test_rculist_stress)
{
	run_stress(&test_flavors[_i], 0);
}
END_TEST

START_TEST(test_rcuhlist_stress)
{
	run_stress(&test_flavors[_i], 1);
}
END_TEST

/* ------------------------------------------------------------------------
 * Suite.
 */

static Suite *rculist_suite(void)
{
	Suite *s = suite_create("rculist");
	TCase *rl = harness_tcase(s, "rculist", 0);
	TCase *hl = harness_tcase(s, "hlist", 0);
	TCase *rhl = harness_tcase(s, "rcuhlist", 0);
	TCase *conc = harness_tcase(s, "concurrent", 30);

	tcase_add_checked_fixture(rl, api_setup, api_teardown);
	tcase_add_loop_test(rl, test_list_add, 0,
			    (int) CAA_ARRAY_SIZE(list_adds));
	tcase_add_test(rl, test_list_del_rcu_unlinks);
	tcase_add_test(rl, test_list_del_rcu_keeps_links);
	tcase_add_test(rl, test_list_replace_rcu_in_place);
	tcase_add_test(rl, test_list_replace_rcu_keeps_links);
	tcase_add_loop_test(rl, test_list_walk, 0,
			    (int) CAA_ARRAY_SIZE(list_walks));
	tcase_add_test(rl, test_list_for_each_entry_rcu_misaligned_head);
	tcase_add_test(rl, test_list_rcu_mixes_with_plain);

	tcase_add_test(hl, test_hlist_init_empty);
	tcase_add_test(hl, test_hlist_entry);
	tcase_add_loop_test(hl, test_hlist_add_head_front, HLIST_PLAIN,
			    HLIST_PLAIN + 1);
	tcase_add_loop_test(hl, test_hlist_del_unlinks, HLIST_PLAIN,
			    HLIST_PLAIN + 1);
	tcase_add_loop_test(hl, test_hlist_walk, 0, HLIST_WALKS_RCU);

	tcase_add_checked_fixture(rhl, api_setup, api_teardown);
	tcase_add_loop_test(rhl, test_hlist_add_head_front, HLIST_RCU,
			    HLIST_RCU + 1);
	tcase_add_loop_test(rhl, test_hlist_del_unlinks, HLIST_RCU,
			    HLIST_RCU + 1);
	tcase_add_test(rhl, test_hlist_del_rcu_keeps_links);
	tcase_add_loop_test(rhl, test_hlist_walk, HLIST_WALKS_RCU,
			    N_HLIST_WALKS);

	tcase_add_loop_test(conc, test_rculist_stress, 0, N_TEST_FLAVORS);
	tcase_add_loop_test(conc, test_rcuhlist_stress, 0, N_TEST_FLAVORS);
	return s;
}

int main(void)
{
	return harness_run_suite(rculist_suite());
}
