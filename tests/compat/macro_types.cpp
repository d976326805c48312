/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The public macros that yield a pointer or a constant, each assigned to
 * a variable of the type a liburcu user would write, in C++: there a void
 * pointer does not convert implicitly and an enumerator only converts to
 * integers, so a macro whose type differs from liburcu's fails here
 * (CDS_WFS_END used to be a void pointer).  Compiled by `scons
 * check-headers` with -Wall -Wextra -Werror; never linked or run.
 */
#define _LGPL_SOURCE
#include <urcu.h>
#include <urcu/annotate.h>
#include <urcu/arch.h>
#include <urcu/call-rcu.h>
#include <urcu/compiler.h>
#include <urcu/futex.h>
#include <urcu/hlist.h>
#include <urcu/lfstack.h>
#include <urcu/list.h>
#include <urcu/rcuhlist.h>
#include <urcu/rculfhash.h>
#include <urcu/rculfqueue.h>
#include <urcu/rculist.h>
#include <urcu/stats.h>
#include <urcu/system.h>
#include <urcu/tls-compat.h>
#include <urcu/uatomic.h>
#include <urcu/urcu-poll.h>
#include <urcu/wfcqueue.h>
#include <urcu/wfstack.h>
#include <urcu/static/urcu-qsbr.h>
#include <urcu/static/urcu-signal-nr.h>

#define USE(x)	((void) (x))

struct item {
	int key;
	struct cds_list_head list;
	struct cds_hlist_node hlist;
	struct cds_lfht_node ht;
	struct cds_wfs_node wfs;
};

static DEFINE_URCU_TLS(int, tls_counter);

/* Object-like macros: end markers, "would block" results, constants. */
static void constants(void)
{
	struct cds_wfs_head *end = CDS_WFS_END;
	struct cds_wfs_node *wfs_wouldblock = CDS_WFS_WOULDBLOCK;
	struct cds_wfcq_node *wfcq_wouldblock = CDS_WFCQ_WOULDBLOCK;
	size_t line = CAA_CACHE_LINE_SIZE;
	int bits = CAA_BITS_PER_LONG;
	unsigned long crdp_flags = URCU_CALL_RCU_RT | URCU_CALL_RCU_RUNNING |
		URCU_CALL_RCU_STOP | URCU_CALL_RCU_STOPPED |
		URCU_CALL_RCU_PAUSE | URCU_CALL_RCU_PAUSED;
	unsigned int worker_flags = URCU_STATS_WORKER_DEFAULT |
		URCU_STATS_WORKER_RT;
	int sig = SIGRCU;
	int futex_ops[] = { FUTEX_WAIT, FUTEX_WAKE };
	unsigned long gp_bits[] = { URCU_GP_COUNT, URCU_GP_CTR_NEST_MASK,
				    URCU_QSBR_GP_ONLINE, URCU_QSBR_GP_CTR };

	/* This one also compares with what the stack calls return. */
	USE(end == CDS_WFS_END && wfs_wouldblock == CDS_WFS_WOULDBLOCK);
	USE(wfcq_wouldblock);
	USE(line);
	USE(bits);
	USE(crdp_flags);
	USE(worker_flags);
	USE(sig);
	USE(futex_ops);
	USE(gp_bits);
}

/* Enumerators, into the variables the API takes or fills in. */
static void enumerators(void)
{
	int lfht_flags = CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING;
	int wfs_state = CDS_WFS_STATE_LAST;
	int wfcq_state = CDS_WFCQ_STATE_LAST;
	enum cds_wfcq_ret rets[] = { CDS_WFCQ_RET_WOULDBLOCK,
				     CDS_WFCQ_RET_DEST_EMPTY,
				     CDS_WFCQ_RET_DEST_NON_EMPTY,
				     CDS_WFCQ_RET_SRC_EMPTY };
	enum cmm_memorder orders[] = { CMM_RELAXED, CMM_CONSUME, CMM_ACQUIRE,
				       CMM_RELEASE, CMM_ACQ_REL, CMM_SEQ_CST,
				       CMM_SEQ_CST_FENCE };
	cmm_annotate_t group_states[] = { CMM_ANNOTATE_VOID, CMM_ANNOTATE_LOAD,
					  CMM_ANNOTATE_STORE, CMM_ANNOTATE_MB };
	cmm_annotate_define(group);

	USE(group_states);
	cmm_annotate_group_mb_release(&group);
	USE(lfht_flags);
	USE(wfs_state);
	USE(wfcq_state);
	USE(rets);
	USE(orders);
}

/* Function-like macros that yield a value, into typed variables. */
static void values(struct item *it, struct item **slot, struct cds_wfs_stack *s,
		   struct cds_lfht_iter *iter)
{
	static char c;
	static short sh;
	static int i;
	static long l;
	static unsigned long ul;
	static const int four[4] = { 1, 2, 3, 4 };
	struct cds_list_head head = CDS_LIST_HEAD_INIT(head);
	struct item *from_list = cds_list_entry(&it->list, struct item, list);
	struct item *first = cds_list_first_entry(&head, struct item, list);
	struct item *from_hlist = cds_hlist_entry(&it->hlist, struct item,
						  hlist);
	struct item *from_node = caa_container_of(&it->wfs, struct item, wfs);
	struct item *deref = rcu_dereference(*slot);
	struct item *old = rcu_xchg_pointer(slot, it);
	struct item *prev = rcu_cmpxchg_pointer(slot, NULL, it);
	struct cds_lfht_node *node = cds_lfht_iter_get_node(iter);
	struct cds_wfs_node *popped = cds_wfs_pop_blocking(s);
	bool empty = cds_wfs_empty(s);
	char c2 = uatomic_cmpxchg(&c, 'a', 'b');
	short sh2 = uatomic_xchg(&sh, 2);
	int i2 = uatomic_add_return(&i, 1);
	long l2 = uatomic_sub_return(&l, 1);
	unsigned long ul2 = uatomic_read(&ul);
	int i3 = uatomic_load(&i, CMM_ACQUIRE);
	struct item *p2 = uatomic_load(slot, CMM_CONSUME);
	struct item *p3 = uatomic_cmpxchg(slot, it, NULL);
	int shared = CMM_LOAD_SHARED(i);
	long stored = CMM_STORE_SHARED(l, 3L);
	int &tls = URCU_TLS(tls_counter);
	size_t n = CAA_ARRAY_SIZE(four);
	caa_cycles_t t = caa_get_cycles();

	USE(from_list);
	USE(first);
	USE(from_hlist);
	USE(from_node);
	USE(deref);
	USE(old);
	USE(prev);
	USE(node);
	USE(popped);
	USE(empty);
	USE(c2);
	USE(sh2);
	USE(i2);
	USE(l2);
	USE(ul2);
	USE(i3);
	USE(p2);
	USE(p3);
	USE(shared);
	USE(stored);
	USE(tls);
	USE(n);
	USE(t);
}

void macro_types(struct item *it, struct item **slot,
		 struct cds_wfs_stack *s, struct cds_lfht_iter *iter);

void macro_types(struct item *it, struct item **slot,
		 struct cds_wfs_stack *s, struct cds_lfht_iter *iter)
{
	constants();
	enumerators();
	values(it, slot, s, iter);
}
