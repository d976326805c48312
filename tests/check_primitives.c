/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * check_primitives.c - Check suite "primitives": unit tests for the
 * low-level public headers (compiler.h, arch.h, system.h, uatomic.h,
 * pointer.h, list.h, tls-compat.h, futex.h, assert.h, annotate.h,
 * ref.h).
 *
 * One test per property.  Multi-threaded tests let workers record what
 * they saw in plain per-thread results; the test thread asserts after
 * pthread_join(), because Check assertions must not run on workers.
 *
 * Build (example):
 *   gcc -std=gnu11 -Wall -Wextra -Werror -I rcu/common/include -I rcu/include \
 *       tests/check_primitives.c tests/harness/harness.c \
 *       $(pkg-config --cflags --libs check) -pthread -o /tmp/check_primitives
 */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>
#include <urcu/pointer.h>
#include <urcu-pointer.h>
#include <urcu/list.h>
#include <urcu/tls-compat.h>
#include <urcu/futex.h>
#include <urcu/config.h>
#include <urcu/debug.h>
#include <urcu/assert.h>
#include <urcu/annotate.h>
#include <urcu/ref.h>

#include "harness/harness.h"

/* File-scope use of the static assertion. */
urcu_static_assert(sizeof(struct cds_list_head) == 2 * sizeof(void *),
		   "list head is two pointers", list_head_size);

/* ------------------------------------------------------------------ */
/* compiler.h                                                          */
/* ------------------------------------------------------------------ */

struct outer {
	int a;
	char pad[13];
	long inner;
	struct cds_list_head node;
};

START_TEST(test_container_of)
{
	struct outer o;
	long *ip = &o.inner;
	const struct cds_list_head *np = &o.node;

	ck_assert_ptr_eq(caa_container_of(ip, struct outer, inner), &o);
	ck_assert_ptr_eq(caa_container_of(np, struct outer, node), &o);
	ck_assert_ptr_eq(cds_list_entry(&o.node, struct outer, node), &o);
}
END_TEST

START_TEST(test_compiler_helpers)
{
	int arr[7];
	int x = 3, y = 9;
	int hits = 0;
	void *vp = &x;
	int *ipp = URCU_FORCE_CAST(int *, vp);

	(void) arr;
	ck_assert_uint_eq(CAA_ARRAY_SIZE(arr), 7);
	ck_assert_int_eq(caa_max(x, y), 9);
	ck_assert_int_eq(caa_min(x, y), 3);
	ck_assert_uint_eq(CAA_BUILD_BUG_ON_ZERO(sizeof(int) > 64), 0);
	CAA_BUILD_BUG_ON(sizeof(char) != 1);
	ck_assert(caa_is_signed_type(int));
	ck_assert(!caa_is_signed_type(unsigned int));
	ck_assert_uint_eq(caa_cast_long_keep_sign((int) -1), (unsigned long) -1L);
	ck_assert_uint_eq(caa_cast_long_keep_sign((unsigned int) 0xffffffffu),
			  0xffffffffUL);
	ck_assert_int_eq(CAA_BITS_PER_LONG, (int) (sizeof(long) * 8));
	ck_assert_ptr_eq(ipp, &x);
	if (caa_likely(x == 3))
		hits++;
	if (caa_unlikely(x != 3))
		hits += 10;
	ck_assert_int_eq(hits, 1);
	{
		/* Block-scope use of the static assertion. */
		urcu_static_assert(CAA_CACHE_LINE_SIZE >= 32,
				   "cache line size is sane", cls_sane);
	}
	ck_assert_int_eq(CAA_CACHE_LINE_SIZE & (CAA_CACHE_LINE_SIZE - 1), 0);
	CMM_ACCESS_ONCE(x) = 5;
	ck_assert_int_eq(CMM_ACCESS_ONCE(x), 5);
}
END_TEST

/* ------------------------------------------------------------------ */
/* arch.h: every barrier macro compiles and runs in statement context. */
/* ------------------------------------------------------------------ */

START_TEST(test_barriers_callable)
{
	int v = 0;

	cmm_barrier();
	cmm_mb();
	cmm_rmb();
	cmm_wmb();
	cmm_smp_mb();
	cmm_smp_rmb();
	cmm_smp_wmb();
	cmm_mc();
	cmm_rmc();
	cmm_wmc();
	cmm_smp_mc();
	cmm_smp_rmc();
	cmm_smp_wmc();
	cmm_read_barrier_depends();
	cmm_smp_read_barrier_depends();
	caa_cpu_relax();
	cmm_smp_mb__before_uatomic_add();
	uatomic_add(&v, 1);
	cmm_smp_mb__after_uatomic_add();
	cmm_smp_mb__before_uatomic_sub();
	uatomic_sub(&v, 1);
	cmm_smp_mb__after_uatomic_sub();
	cmm_smp_mb__before_uatomic_inc();
	uatomic_inc(&v);
	cmm_smp_mb__after_uatomic_inc();
	cmm_smp_mb__before_uatomic_dec();
	uatomic_dec(&v);
	cmm_smp_mb__after_uatomic_dec();
	cmm_smp_mb__before_uatomic_or();
	uatomic_or(&v, 6);
	cmm_smp_mb__after_uatomic_or();
	cmm_smp_mb__before_uatomic_and();
	uatomic_and(&v, 2);
	cmm_smp_mb__after_uatomic_and();
	ck_assert_int_eq(v, 2);
#ifdef HAS_CAA_GET_CYCLES
	{
		caa_cycles_t c0 = caa_get_cycles();
		caa_cycles_t c1 = caa_get_cycles();

		(void) c0;
		(void) c1;
	}
#endif
}
END_TEST

/* ------------------------------------------------------------------ */
/* system.h                                                            */
/* ------------------------------------------------------------------ */

START_TEST(test_load_store_shared)
{
	int i = 1;
	const int ci = 42;
	bool b = false;
	unsigned char uc = 0;
	long *lp = NULL;
	long l = 7;
	int big = 0x1ff;
	int r;

	ck_assert_int_eq(CMM_LOAD_SHARED(i), 1);
	ck_assert_int_eq(CMM_LOAD_SHARED(ci), 42);
	r = CMM_STORE_SHARED(i, 5);
	ck_assert_int_eq(r, 5);
	ck_assert_int_eq(i, 5);
	/* The yielded value has the type of the destination. */
	ck_assert_int_eq(CMM_STORE_SHARED(uc, big), 0xff);
	ck_assert_int_eq(CMM_LOAD_SHARED(uc), 0xff);
	CMM_STORE_SHARED(b, true);
	ck_assert(CMM_LOAD_SHARED(b));
	ck_assert_ptr_eq(CMM_STORE_SHARED(lp, &l), &l);
	ck_assert_ptr_eq(CMM_LOAD_SHARED(lp), &l);
	CMM_STORE_SHARED(lp, NULL);
	ck_assert_ptr_null(CMM_LOAD_SHARED(lp));
	ck_assert_int_eq(_CMM_STORE_SHARED(i, 9), 9);
	ck_assert_int_eq(_CMM_LOAD_SHARED(i), 9);
}
END_TEST

/* ------------------------------------------------------------------ */
/* uatomic.h, single-threaded semantics                                */
/* ------------------------------------------------------------------ */

START_TEST(test_memorder_values)
{
	ck_assert_int_eq(CMM_RELAXED, __ATOMIC_RELAXED);
	ck_assert_int_eq(CMM_CONSUME, __ATOMIC_CONSUME);
	ck_assert_int_eq(CMM_ACQUIRE, __ATOMIC_ACQUIRE);
	ck_assert_int_eq(CMM_RELEASE, __ATOMIC_RELEASE);
	ck_assert_int_eq(CMM_ACQ_REL, __ATOMIC_ACQ_REL);
	ck_assert_int_eq(CMM_SEQ_CST, __ATOMIC_SEQ_CST);
	ck_assert_int_eq(CMM_SEQ_CST_FENCE, 6);
}
END_TEST

START_TEST(test_uatomic_load_store)
{
	int i = 3;
	const int ci = 11;
	long l = -4;
	unsigned long ul = 0;
	int *ip = NULL;

	ck_assert_int_eq(uatomic_load(&i), 3);
	ck_assert_int_eq(uatomic_load(&i, CMM_ACQUIRE), 3);
	ck_assert_int_eq(uatomic_load(&i, CMM_SEQ_CST), 3);
	ck_assert_int_eq(uatomic_load(&i, CMM_SEQ_CST_FENCE), 3);
	ck_assert_int_eq(uatomic_load_mo(&i, CMM_RELAXED), 3);
	ck_assert_int_eq(uatomic_read(&i), 3);
	ck_assert_int_eq(uatomic_read(&i, CMM_CONSUME), 3);
	ck_assert_int_eq(uatomic_load(&ci), 11);

	uatomic_store(&i, 4);
	ck_assert_int_eq(i, 4);
	uatomic_store(&i, 5, CMM_RELEASE);
	ck_assert_int_eq(i, 5);
	uatomic_store(&i, 6, CMM_SEQ_CST_FENCE);
	ck_assert_int_eq(i, 6);
	uatomic_store_mo(&i, 7, CMM_SEQ_CST);
	ck_assert_int_eq(i, 7);
	uatomic_set(&i, 8);
	ck_assert_int_eq(i, 8);
	uatomic_set(&i, 9, CMM_RELEASE);
	ck_assert_int_eq(i, 9);

	uatomic_set(&l, -40L);
	ck_assert_int_eq(uatomic_read(&l), -40L);
	uatomic_set(&ul, ~0UL);
	ck_assert_uint_eq(uatomic_read(&ul), ~0UL);
	uatomic_set(&ip, &i);
	ck_assert_ptr_eq(uatomic_load(&ip, CMM_ACQUIRE), &i);
	uatomic_set(&ip, NULL);
	ck_assert_ptr_null(uatomic_read(&ip));
}
END_TEST

START_TEST(test_uatomic_add_sub_inc_dec)
{
	long v = 10;

	uatomic_add(&v, 5);
	ck_assert_int_eq(v, 15);
	uatomic_add(&v, 5, CMM_SEQ_CST);
	ck_assert_int_eq(v, 20);
	uatomic_add_mo(&v, -1, CMM_RELAXED);
	ck_assert_int_eq(v, 19);
	uatomic_sub(&v, 9);
	ck_assert_int_eq(v, 10);
	uatomic_sub(&v, 2, CMM_RELEASE);
	ck_assert_int_eq(v, 8);
	uatomic_sub_mo(&v, 3, CMM_SEQ_CST_FENCE);
	ck_assert_int_eq(v, 5);
	uatomic_inc(&v);
	uatomic_inc(&v, CMM_ACQ_REL);
	uatomic_inc_mo(&v, CMM_RELAXED);
	ck_assert_int_eq(v, 8);
	uatomic_dec(&v);
	uatomic_dec(&v, CMM_SEQ_CST_FENCE);
	uatomic_dec_mo(&v, CMM_RELAXED);
	ck_assert_int_eq(v, 5);
}
END_TEST

START_TEST(test_uatomic_add_sub_return)
{
	int v = 0;
	unsigned int u = 1;

	ck_assert_int_eq(uatomic_add_return(&v, 3), 3);
	ck_assert_int_eq(uatomic_add_return(&v, 4, CMM_RELAXED), 7);
	ck_assert_int_eq(uatomic_add_return_mo(&v, -7, CMM_ACQ_REL), 0);
	ck_assert_int_eq(uatomic_sub_return(&v, 2), -2);
	ck_assert_int_eq(uatomic_sub_return(&v, -3, CMM_SEQ_CST), 1);
	ck_assert_int_eq(uatomic_sub_return_mo(&v, 1, CMM_SEQ_CST_FENCE), 0);
	ck_assert_int_eq(v, 0);
	/* Unsigned wrap-around is well defined. */
	ck_assert_uint_eq(uatomic_sub_return(&u, 2), 0xffffffffu);
	ck_assert_uint_eq(uatomic_add_return(&u, 1), 0);
}
END_TEST

START_TEST(test_uatomic_xchg)
{
	long v = 1;
	int a, b;
	int *p = &a;

	ck_assert_int_eq(uatomic_xchg(&v, 2), 1);
	ck_assert_int_eq(uatomic_xchg(&v, 3, CMM_ACQ_REL), 2);
	ck_assert_int_eq(uatomic_xchg_mo(&v, 4, CMM_RELAXED), 3);
	ck_assert_int_eq(v, 4);
	ck_assert_ptr_eq(uatomic_xchg(&p, &b), &a);
	ck_assert_ptr_eq(uatomic_xchg(&p, NULL), &b);
	ck_assert_ptr_null(p);
}
END_TEST

START_TEST(test_uatomic_cmpxchg_success)
{
	int v = 5;
	long l = 100;

	ck_assert_int_eq(uatomic_cmpxchg(&v, 5, 6), 5);
	ck_assert_int_eq(v, 6);
	ck_assert_int_eq(uatomic_cmpxchg(&v, 6, 7, CMM_ACQ_REL), 6);
	ck_assert_int_eq(v, 7);
	ck_assert_int_eq(uatomic_cmpxchg(&v, 7, 8, CMM_RELEASE), 7);
	ck_assert_int_eq(uatomic_cmpxchg(&v, 8, 9, CMM_SEQ_CST, CMM_ACQUIRE), 8);
	ck_assert_int_eq(uatomic_cmpxchg_mo(&v, 9, 10, CMM_SEQ_CST_FENCE,
					    CMM_RELAXED), 9);
	ck_assert_int_eq(v, 10);
	ck_assert_int_eq(uatomic_cmpxchg(&l, 100L, -1L), 100L);
	ck_assert_int_eq(l, -1L);
}
END_TEST

START_TEST(test_uatomic_cmpxchg_failure)
{
	int v = 5;

	/* Failure yields the current value and leaves it unchanged. */
	ck_assert_int_eq(uatomic_cmpxchg(&v, 4, 6), 5);
	ck_assert_int_eq(v, 5);
	ck_assert_int_eq(uatomic_cmpxchg(&v, 4, 6, CMM_ACQUIRE), 5);
	ck_assert_int_eq(uatomic_cmpxchg(&v, 4, 6, CMM_SEQ_CST, CMM_RELAXED), 5);
	ck_assert_int_eq(uatomic_cmpxchg_mo(&v, 0, 1, CMM_RELAXED,
					    CMM_RELAXED), 5);
	ck_assert_int_eq(v, 5);
}
END_TEST

START_TEST(test_uatomic_and_or)
{
	unsigned long v = 0xf0;

	uatomic_or(&v, 0x0f);
	ck_assert_uint_eq(v, 0xff);
	uatomic_and(&v, 0x3c);
	ck_assert_uint_eq(v, 0x3c);
	uatomic_or(&v, 0x100, CMM_RELEASE);
	uatomic_and(&v, 0x13c, CMM_RELAXED);
	ck_assert_uint_eq(v, 0x13c);
	uatomic_or_mo(&v, 0x1, CMM_SEQ_CST_FENCE);
	uatomic_and_mo(&v, 0x101, CMM_SEQ_CST_FENCE);
	ck_assert_uint_eq(v, 0x101);
}
END_TEST

START_TEST(test_uatomic_small_types)
{
#ifdef UATOMIC_HAS_ATOMIC_BYTE
	unsigned char c = 250;

	ck_assert_uint_eq(uatomic_add_return(&c, 10), 4);
	ck_assert_uint_eq(uatomic_cmpxchg(&c, 4, 7), 4);
	ck_assert_uint_eq(uatomic_xchg(&c, 1), 7);
	ck_assert_uint_eq(uatomic_read(&c), 1);
#endif
#ifdef UATOMIC_HAS_ATOMIC_SHORT
	short s = -1;

	uatomic_inc(&s);
	ck_assert_int_eq(uatomic_load(&s), 0);
	ck_assert_int_eq(uatomic_sub_return(&s, 2), -2);
#endif
}
END_TEST

/* ------------------------------------------------------------------ */
/* uatomic.h, concurrent exactness                                     */
/* ------------------------------------------------------------------ */

#define CONC_OPS	100000

static unsigned long conc_counter;

struct conc_worker {
	pthread_t tid;
	unsigned long bad_order;	/* add_return not strictly increasing */
	unsigned long bad_range;	/* add_return out of [1, total] */
};

static void *conc_worker_fn(void *arg)
{
	struct conc_worker *w = (struct conc_worker *) arg;
	unsigned long prev = 0, cur;
	int n;

	for (n = 0; n < CONC_OPS; n++) {
		cur = uatomic_add_return(&conc_counter, 1);
		if (cur <= prev)
			w->bad_order++;
		if (cur < 1 || cur > 4UL * CONC_OPS)
			w->bad_range++;
		prev = cur;
		uatomic_inc(&conc_counter);
	}
	return NULL;
}

START_TEST(test_uatomic_concurrent_exact)
{
	struct conc_worker w[2];
	int i;

	memset(w, 0, sizeof(w));
	uatomic_set(&conc_counter, 0);
	for (i = 0; i < 2; i++)
		harness_spawn(&w[i].tid, conc_worker_fn, &w[i]);
	for (i = 0; i < 2; i++)
		harness_join(w[i].tid);
	for (i = 0; i < 2; i++) {
		ck_assert_uint_eq(w[i].bad_order, 0);
		ck_assert_uint_eq(w[i].bad_range, 0);
	}
	ck_assert_uint_eq(uatomic_read(&conc_counter), 4UL * CONC_OPS);
}
END_TEST

/* ------------------------------------------------------------------ */
/* pointer.h                                                           */
/* ------------------------------------------------------------------ */

struct obj {
	int a;
	long b;
};

static struct obj *gp;

START_TEST(test_rcu_dereference_assign)
{
	struct obj o1 = { 1, 10 }, o2 = { 2, 20 };
	struct obj *p;
	struct obj *const *cpp = &gp;

	gp = NULL;
	ck_assert_ptr_null(rcu_dereference(gp));
	rcu_assign_pointer(gp, &o1);
	p = rcu_dereference(gp);
	ck_assert_ptr_eq(p, &o1);
	ck_assert_int_eq(p->a, 1);
	ck_assert_ptr_eq(rcu_dereference(*cpp), &o1);
	rcu_set_pointer(&gp, &o2);
	ck_assert_ptr_eq(_rcu_dereference(gp), &o2);
	_rcu_assign_pointer(gp, &o1);
	ck_assert_ptr_eq(gp, &o1);
	_rcu_set_pointer(&gp, &o2);
	ck_assert_ptr_eq(gp, &o2);
	rcu_assign_pointer(gp, NULL);
	ck_assert_ptr_null(gp);
}
END_TEST

START_TEST(test_rcu_xchg_pointer)
{
	struct obj o1, o2;

	gp = &o1;
	ck_assert_ptr_eq(rcu_xchg_pointer(&gp, &o2), &o1);
	ck_assert_ptr_eq(gp, &o2);
	ck_assert_ptr_eq(_rcu_xchg_pointer(&gp, NULL), &o2);
	ck_assert_ptr_null(gp);
}
END_TEST

START_TEST(test_rcu_cmpxchg_pointer)
{
	struct obj o1, o2, o3;

	gp = &o1;
	/* Success: yields old, stores new. */
	ck_assert_ptr_eq(rcu_cmpxchg_pointer(&gp, &o1, &o2), &o1);
	ck_assert_ptr_eq(gp, &o2);
	/* Failure: yields current value, no store. */
	ck_assert_ptr_eq(rcu_cmpxchg_pointer(&gp, &o1, &o3), &o2);
	ck_assert_ptr_eq(gp, &o2);
	ck_assert_ptr_eq(_rcu_cmpxchg_pointer(&gp, &o2, NULL), &o2);
	ck_assert_ptr_null(gp);
	ck_assert_ptr_null(rcu_cmpxchg_pointer(&gp, NULL, &o3));
	ck_assert_ptr_eq(gp, &o3);
}
END_TEST

/*
 * Publication across threads: the writer initializes plain (non-atomic)
 * fields, then publishes with rcu_assign_pointer(); the reader spins on
 * rcu_dereference() and reads the fields plainly.  The values must be
 * complete, and under ThreadSanitizer the release/consume pair must be
 * recognised (no race report on the plain fields).
 */
static struct obj *pub_ptr;
static struct obj pub_obj;

struct pub_reader {
	pthread_t tid;
	int seen_a;
	long seen_b;
	int timed_out;
};

static void *pub_reader_fn(void *arg)
{
	struct pub_reader *r = (struct pub_reader *) arg;
	struct obj *p;
	double deadline = harness_now() + 10.0;

	while (!(p = rcu_dereference(pub_ptr))) {
		if (harness_past(deadline)) {
			r->timed_out = 1;
			return NULL;
		}
		caa_cpu_relax();
	}
	r->seen_a = p->a;
	r->seen_b = p->b;
	return NULL;
}

START_TEST(test_pointer_publish_concurrent)
{
	struct pub_reader r;

	memset(&r, 0, sizeof(r));
	pub_ptr = NULL;
	harness_spawn(&r.tid, pub_reader_fn, &r);
	pub_obj.a = 1234;
	pub_obj.b = 56789L;
	rcu_assign_pointer(pub_ptr, &pub_obj);
	harness_join(r.tid);
	ck_assert_int_eq(r.timed_out, 0);
	ck_assert_int_eq(r.seen_a, 1234);
	ck_assert_int_eq(r.seen_b, 56789L);
}
END_TEST

/* ------------------------------------------------------------------ */
/* list.h                                                              */
/* ------------------------------------------------------------------ */

struct item {
	int v;
	struct cds_list_head node;
};

/* Collect the values of list "head" (forward) into out[]; return count. */
static int list_values(struct cds_list_head *head, int *out, int max)
{
	struct item *it;
	int n = 0;

	cds_list_for_each_entry(it, head, node) {
		if (n < max)
			out[n] = it->v;
		n++;
	}
	return n;
}

/* Check that next/prev links of the list are mutually consistent. */
static int list_consistent(struct cds_list_head *head)
{
	struct cds_list_head *pos;

	if (head->next->prev != head || head->prev->next != head)
		return 0;
	cds_list_for_each(pos, head) {
		if (pos->next->prev != pos || pos->prev->next != pos)
			return 0;
	}
	return 1;
}

#define ck_assert_list(head, ...)					\
	do {								\
		const int _exp[] = { __VA_ARGS__ };			\
		int _got[16];						\
		int _n = list_values(head, _got, 16);			\
		int _k;							\
		ck_assert_int_eq(_n, (int) CAA_ARRAY_SIZE(_exp));	\
		for (_k = 0; _k < _n; _k++)				\
			ck_assert_int_eq(_got[_k], _exp[_k]);		\
		ck_assert(list_consistent(head));			\
	} while (0)

START_TEST(test_list_init_empty)
{
	CDS_LIST_HEAD(h1);
	struct cds_list_head h2 = CDS_LIST_HEAD_INIT(h2);
	struct cds_list_head h3;
	struct item a = { 1, { NULL, NULL } };

	CDS_INIT_LIST_HEAD(&h3);
	ck_assert(cds_list_empty(&h1));
	ck_assert(cds_list_empty(&h2));
	ck_assert(cds_list_empty(&h3));
	cds_list_add(&a.node, &h3);
	ck_assert(!cds_list_empty(&h3));
	ck_assert_ptr_eq(cds_list_first_entry(&h3, struct item, node), &a);
}
END_TEST

START_TEST(test_list_add_add_tail)
{
	CDS_LIST_HEAD(h);
	struct item a = { 1, { NULL, NULL } }, b = { 2, { NULL, NULL } };
	struct item c = { 3, { NULL, NULL } };

	cds_list_add(&a.node, &h);
	cds_list_add(&b.node, &h);		/* front */
	cds_list_add_tail(&c.node, &h);		/* back */
	ck_assert_list(&h, 2, 1, 3);
	ck_assert_ptr_eq(cds_list_first_entry(&h, struct item, node), &b);
}
END_TEST

START_TEST(test_list_del)
{
	CDS_LIST_HEAD(h);
	struct item a = { 1, { NULL, NULL } }, b = { 2, { NULL, NULL } };
	struct item c = { 3, { NULL, NULL } };

	cds_list_add_tail(&a.node, &h);
	cds_list_add_tail(&b.node, &h);
	cds_list_add_tail(&c.node, &h);
	cds_list_del(&b.node);
	ck_assert_list(&h, 1, 3);
	cds_list_del_init(&a.node);
	ck_assert_list(&h, 3);
	ck_assert(cds_list_empty(&a.node));
	cds_list_del(&c.node);
	ck_assert(cds_list_empty(&h));
}
END_TEST

START_TEST(test_list_move)
{
	CDS_LIST_HEAD(h1);
	CDS_LIST_HEAD(h2);
	struct item a = { 1, { NULL, NULL } }, b = { 2, { NULL, NULL } };
	struct item c = { 3, { NULL, NULL } };

	cds_list_add_tail(&a.node, &h1);
	cds_list_add_tail(&b.node, &h1);
	cds_list_add_tail(&c.node, &h2);
	cds_list_move(&b.node, &h2);
	ck_assert_list(&h1, 1);
	ck_assert_list(&h2, 2, 3);
	cds_list_move(&c.node, &h2);		/* within the same list */
	ck_assert_list(&h2, 3, 2);
}
END_TEST

START_TEST(test_list_splice)
{
	CDS_LIST_HEAD(h1);
	CDS_LIST_HEAD(h2);
	CDS_LIST_HEAD(empty);
	struct item it[5];
	int i;

	for (i = 0; i < 5; i++) {
		it[i].v = i + 1;
		if (i < 2)
			cds_list_add_tail(&it[i].node, &h1);
		else
			cds_list_add_tail(&it[i].node, &h2);
	}
	cds_list_splice(&empty, &h1);		/* empty source: no-op */
	ck_assert_list(&h1, 1, 2);
	cds_list_splice(&h2, &h1);		/* h2's nodes go to the front */
	ck_assert_list(&h1, 3, 4, 5, 1, 2);
	CDS_INIT_LIST_HEAD(&h2);
	ck_assert(cds_list_empty(&h2));
}
END_TEST

START_TEST(test_list_replace)
{
	CDS_LIST_HEAD(h);
	struct item a = { 1, { NULL, NULL } }, b = { 2, { NULL, NULL } };
	struct item c = { 3, { NULL, NULL } }, x = { 9, { NULL, NULL } };
	struct item y = { 8, { NULL, NULL } };

	cds_list_add_tail(&a.node, &h);
	cds_list_add_tail(&b.node, &h);
	cds_list_add_tail(&c.node, &h);
	cds_list_replace(&b.node, &x.node);
	ck_assert_list(&h, 1, 9, 3);
	cds_list_replace_init(&a.node, &y.node);
	ck_assert_list(&h, 8, 9, 3);
	ck_assert(cds_list_empty(&a.node));
}
END_TEST

START_TEST(test_list_iteration)
{
	CDS_LIST_HEAD(h);
	struct item it[4];
	struct cds_list_head *pos, *tmp;
	struct item *e, *n;
	int i, k;

	for (i = 0; i < 4; i++) {
		it[i].v = i;
		cds_list_add_tail(&it[i].node, &h);
	}
	k = 0;
	cds_list_for_each(pos, &h)
		ck_assert_int_eq(cds_list_entry(pos, struct item, node)->v, k++);
	ck_assert_int_eq(k, 4);
	k = 3;
	cds_list_for_each_prev(pos, &h)
		ck_assert_int_eq(cds_list_entry(pos, struct item, node)->v, k--);
	ck_assert_int_eq(k, -1);
	k = 3;
	cds_list_for_each_entry_reverse(e, &h, node)
		ck_assert_int_eq(e->v, k--);
	ck_assert_int_eq(k, -1);
	k = 0;
	cds_list_for_each_safe(pos, tmp, &h)
		k++;
	cds_list_for_each_prev_safe(pos, tmp, &h)
		k++;
	cds_list_for_each_entry_safe(e, n, &h, node)
		k++;
	ck_assert_int_eq(k, 12);
	/* safe_from starting at the third entry visits entries 2 and 3. */
	e = &it[2];
	k = 0;
	cds_list_for_each_entry_safe_from(e, n, &h, node)
		k += e->v;
	ck_assert_int_eq(k, 5);
}
END_TEST

START_TEST(test_list_safe_deletion)
{
	CDS_LIST_HEAD(h);
	struct item *e, *n;
	struct cds_list_head *pos, *tmp;
	int i;

	for (i = 0; i < 8; i++) {
		struct item *it = (struct item *) malloc(sizeof(*it));

		ck_assert_ptr_nonnull(it);
		it->v = i;
		cds_list_add_tail(&it->node, &h);
	}
	/* Delete and free the odd entries while iterating forward. */
	cds_list_for_each_entry_safe(e, n, &h, node) {
		if (e->v & 1) {
			cds_list_del(&e->node);
			free(e);
		}
	}
	ck_assert_list(&h, 0, 2, 4, 6);
	/* Delete entry 4 and everything after it, starting from it. */
	cds_list_for_each_entry(e, &h, node)
		if (e->v == 4)
			break;
	cds_list_for_each_entry_safe_from(e, n, &h, node) {
		cds_list_del(&e->node);
		free(e);
	}
	ck_assert_list(&h, 0, 2);
	/* Free the rest backwards through the raw-node iterator. */
	cds_list_for_each_prev_safe(pos, tmp, &h) {
		cds_list_del(pos);
		free(cds_list_entry(pos, struct item, node));
	}
	ck_assert(cds_list_empty(&h));
}
END_TEST

/* ------------------------------------------------------------------ */
/* tls-compat.h                                                        */
/* ------------------------------------------------------------------ */

static DEFINE_URCU_TLS(int, tls_plain);
static DEFINE_URCU_TLS_INIT(long, tls_init, 77);

struct tls_result {
	int plain_at_start;
	long init_at_start;
	int plain_after;
};

static void *tls_worker(void *arg)
{
	struct tls_result *res = (struct tls_result *) arg;

	res->plain_at_start = URCU_TLS(tls_plain);
	res->init_at_start = URCU_TLS(tls_init);
	URCU_TLS(tls_plain) = 555;
	res->plain_after = URCU_TLS(tls_plain);
	return NULL;
}

START_TEST(test_tls_per_thread)
{
	pthread_t t;
	struct tls_result res;

	ck_assert_int_eq(URCU_TLS(tls_init), 77);
	URCU_TLS(tls_plain) = 1;
	URCU_TLS(tls_init) = 2;
	harness_spawn(&t, tls_worker, &res);
	harness_join(t);
	ck_assert_int_eq(res.plain_at_start, 0);
	ck_assert_int_eq(res.init_at_start, 77);
	ck_assert_int_eq(res.plain_after, 555);
	ck_assert_int_eq(URCU_TLS(tls_plain), 1);
	ck_assert_int_eq(URCU_TLS(tls_init), 2);
}
END_TEST

/* ------------------------------------------------------------------ */
/* futex.h                                                             */
/* ------------------------------------------------------------------ */

START_TEST(test_futex_basic)
{
	int32_t word = 1;
	struct timespec ts = { 0, 1000000 };	/* 1 ms */

	/* Wake with no waiter: success, nobody woken. */
	ck_assert_int_eq(futex_async(&word, FUTEX_WAKE, 1, NULL, NULL, 0), 0);
	ck_assert_int_eq(futex_noasync(&word, FUTEX_WAKE, 1, NULL, NULL, 0), 0);
	/* Wait on a stale value: fails at once with EAGAIN. */
	errno = 0;
	ck_assert_int_eq(futex_async(&word, FUTEX_WAIT, 0, NULL, NULL, 0), -1);
	ck_assert_int_eq(errno, EAGAIN);
	/* Wait on the current value with a timeout: ETIMEDOUT. */
	errno = 0;
	ck_assert_int_eq(futex_noasync(&word, FUTEX_WAIT, 1, &ts, NULL, 0), -1);
	ck_assert(errno == ETIMEDOUT || errno == EINTR);
}
END_TEST

/* A waiter sleeps until the word changes; the test thread wakes it. */
static int32_t fx_word;

struct fx_waiter {
	pthread_t tid;
	int unexpected_errno;
	int32_t seen;
};

static void *fx_waiter_fn(void *arg)
{
	struct fx_waiter *w = (struct fx_waiter *) arg;
	struct timespec ts = { 0, 50000000 };	/* 50 ms per sleep */
	double deadline = harness_now() + 10.0;

	while (uatomic_load(&fx_word, CMM_ACQUIRE) == 0) {
		if (futex_async(&fx_word, FUTEX_WAIT, 0, &ts, NULL, 0) < 0 &&
		    errno != EAGAIN && errno != EINTR && errno != ETIMEDOUT)
			w->unexpected_errno = errno;
		if (harness_past(deadline))
			break;
	}
	w->seen = uatomic_load(&fx_word, CMM_ACQUIRE);
	return NULL;
}

START_TEST(test_futex_wake_waiter)
{
	struct fx_waiter w;

	memset(&w, 0, sizeof(w));
	uatomic_set(&fx_word, 0);
	harness_spawn(&w.tid, fx_waiter_fn, &w);
	/* Release store; paired with the waiter's acquire load. */
	uatomic_store(&fx_word, 1, CMM_RELEASE);
	ck_assert_int_ge(futex_async(&fx_word, FUTEX_WAKE, 1, NULL, NULL, 0), 0);
	harness_join(w.tid);
	ck_assert_int_eq(w.unexpected_errno, 0);
	ck_assert_int_eq(w.seen, 1);
}
END_TEST

/* ------------------------------------------------------------------ */
/* config.h, assert.h                                                  */
/* ------------------------------------------------------------------ */

START_TEST(test_config_macros)
{
	ck_assert_int_eq(CONFIG_RCU_SMP, 1);
	ck_assert_int_eq(CONFIG_RCU_TLS, 1);
	ck_assert_int_eq(CONFIG_RCU_USE_ATOMIC_BUILTINS, 1);
	ck_assert_int_eq(CONFIG_RCU_HAVE_FUTEX, 1);
#ifdef CONFIG_RCU_FORCE_SYS_MEMBARRIER
	ck_abort_msg("CONFIG_RCU_FORCE_SYS_MEMBARRIER must not be defined");
#endif
#ifdef CONFIG_RCU_DEBUG
	ck_abort_msg("CONFIG_RCU_DEBUG must not be defined");
#endif
}
END_TEST

START_TEST(test_assert_evaluation)
{
	int evaluated = 0;

	/* Debug builds (URCU_DEBUG) evaluate the checks; others must not. */
	urcu_assert(++evaluated > 0);
	urcu_assert_debug(++evaluated > 0);
#if defined(URCU_DEBUG) || defined(DEBUG_RCU)
	ck_assert_int_eq(evaluated, 2);
#else
	ck_assert_int_eq(evaluated, 0);
#endif
	urcu_posix_assert(evaluated >= 0);
}
END_TEST

/* ------------------------------------------------------------------
 * ref.h: reference counts.
 */

static int releases;
static struct urcu_ref *released_ref;

static void ref_release(struct urcu_ref *ref)
{
	releases++;
	released_ref = ref;
}

START_TEST(test_urcu_ref)
{
	static struct urcu_ref ref;

	urcu_ref_init(&ref);
	ck_assert_int_eq(ref.refcount, 1);
	urcu_ref_get(&ref);
	ck_assert_int_eq(ref.refcount, 2);
	ck_assert(urcu_ref_get_unless_zero(&ref));
	ck_assert_int_eq(ref.refcount, 3);
	ck_assert(urcu_ref_get_safe(&ref));
	ck_assert_int_eq(ref.refcount, 4);
	urcu_ref_put(&ref, ref_release);
	urcu_ref_put(&ref, ref_release);
	urcu_ref_put(&ref, ref_release);
	ck_assert_int_eq(releases, 0);
	ck_assert_int_eq(ref.refcount, 1);
	urcu_ref_put(&ref, ref_release);
	ck_assert_int_eq(releases, 1);
	ck_assert_ptr_eq(released_ref, &ref);
	ck_assert_int_eq(ref.refcount, 0);
	/* A dead object is never revived. */
	ck_assert(!urcu_ref_get_unless_zero(&ref));
	ck_assert_int_eq(ref.refcount, 0);
	ck_assert_int_eq(releases, 1);

	/* Saturation: get_safe refuses, get_unless_zero too. */
	urcu_ref_set(&ref, LONG_MAX);
	ck_assert(!urcu_ref_get_safe(&ref));
	ck_assert(!urcu_ref_get_unless_zero(&ref));
	ck_assert_int_eq(ref.refcount, LONG_MAX);
}
END_TEST

/* urcu_ref_get() aborts instead of overflowing. */
START_TEST(test_urcu_ref_get_overflow_aborts)
{
	static struct urcu_ref ref;

	urcu_ref_set(&ref, LONG_MAX);
	urcu_ref_get(&ref);
}
END_TEST

/* urcu_ref_put() past zero aborts. */
START_TEST(test_urcu_ref_put_underflow_aborts)
{
	static struct urcu_ref ref;

	urcu_ref_set(&ref, 0);
	urcu_ref_put(&ref, ref_release);
}
END_TEST

/* Concurrent get/put pairs on top of one held reference: one release. */
#define REF_ITERS 200000L

static struct urcu_ref shared_ref;
static atomic_int shared_releases;

static void shared_release(struct urcu_ref *ref)
{
	(void) ref;
	atomic_fetch_add(&shared_releases, 1);
}

static void *ref_churn_thread(void *arg)
{
	long i;

	(void) arg;
	for (i = 0; i < REF_ITERS; i++) {
		if (!urcu_ref_get_unless_zero(&shared_ref)) {
			harness_fail("get_unless_zero failed on a live object");
			break;
		}
		urcu_ref_put(&shared_ref, shared_release);
	}
	return NULL;
}

START_TEST(test_urcu_ref_concurrent)
{
	pthread_t tids[2];
	int t;

	urcu_ref_init(&shared_ref);
	for (t = 0; t < 2; t++)
		harness_spawn(&tids[t], ref_churn_thread, NULL);
	for (t = 0; t < 2; t++)
		harness_join(tids[t]);
	harness_assert_no_failures("urcu_ref");
	ck_assert_int_eq(atomic_load(&shared_releases), 0);
	ck_assert_int_eq(__atomic_load_n(&shared_ref.refcount,
					 __ATOMIC_RELAXED), 1);
	urcu_ref_put(&shared_ref, shared_release);
	ck_assert_int_eq(atomic_load(&shared_releases), 1);
}
END_TEST

/* ------------------------------------------------------------------ */
/* annotate.h                                                          */
/* ------------------------------------------------------------------ */

/*
 * Message passing with relaxed accesses and fences: plain data written
 * before the producer's flag store is read once the consumer saw the
 * flag.  Correct in every build; under ThreadSanitizer (sanitize=thread),
 * which does not model the fences, the annotations are what keep the
 * plain data from being reported as raced, and a report fails the test.
 */
#define ANNOTATE_WORDS	4

static struct {
	int data[ANNOTATE_WORDS];	/* plain accesses */
	int ready;			/* relaxed atomics only */
} annotate_msg;

/* Producer of the group variant: fence, then the annotated store. */
static void *annotate_group_producer(void *arg)
{
	cmm_annotate_define(release);
	int i;

	(void) arg;
	for (i = 0; i < ANNOTATE_WORDS; i++)
		annotate_msg.data[i] = i + 1;
	/* Orders the data before the flag; paired with the consumer's. */
	cmm_smp_mb();
	cmm_annotate_group_mb_release(&release);
	cmm_annotate_group_mem_release(&release, &annotate_msg.ready);
	uatomic_store(&annotate_msg.ready, 1, CMM_RELAXED);
	return NULL;
}

/* Producer of the single-access variant. */
static void *annotate_mem_producer(void *arg)
{
	int i;

	(void) arg;
	for (i = 0; i < ANNOTATE_WORDS; i++)
		annotate_msg.data[i] = i + 1;
	/* Orders the data before the flag; paired with the consumer's. */
	cmm_smp_mb();
	cmm_annotate_mem_release(&annotate_msg.ready);
	uatomic_store(&annotate_msg.ready, 1, CMM_RELAXED);
	return NULL;
}

/* Wait for the flag, then sum the data (before joining the producer). */
static int annotate_consume(bool group)
{
	cmm_annotate_define(acquire);
	int i, sum = 0;

	while (!uatomic_load(&annotate_msg.ready, CMM_RELAXED))
		caa_cpu_relax();
	if (group)
		cmm_annotate_group_mem_acquire(&acquire, &annotate_msg.ready);
	/* Orders the flag before the data; paired with the producer's. */
	cmm_smp_mb();
	if (group)
		cmm_annotate_group_mb_acquire(&acquire);
	else
		cmm_annotate_mem_acquire(&annotate_msg.ready);
	for (i = 0; i < ANNOTATE_WORDS; i++)
		sum += annotate_msg.data[i];
	return sum;
}

START_TEST(test_annotate_group_message)
{
	pthread_t tid;

	harness_spawn(&tid, annotate_group_producer, NULL);
	ck_assert_int_eq(annotate_consume(true), 10);
	harness_join(tid);
}
END_TEST

START_TEST(test_annotate_mem_message)
{
	pthread_t tid;

	harness_spawn(&tid, annotate_mem_producer, NULL);
	ck_assert_int_eq(annotate_consume(false), 10);
	harness_join(tid);
}
END_TEST

#ifdef CMM_SANITIZE_THREAD
/* TSan builds check a group's order: a store before its release fence. */
START_TEST(test_annotate_misplaced_store)
{
	cmm_annotate_define(release);

	cmm_annotate_group_mem_release(&release, &annotate_msg.ready);
}
END_TEST
#else
/* Without TSan the annotations evaluate nothing. */
START_TEST(test_annotate_evaluates_nothing)
{
	cmm_annotate_define(group);
	int evaluated = 0;

	cmm_annotate_mem_acquire((evaluated++, &annotate_msg.ready));
	cmm_annotate_mem_release((evaluated++, &annotate_msg.ready));
	cmm_annotate_group_mem_acquire((evaluated++, &group),
				       (evaluated++, &annotate_msg.ready));
	cmm_annotate_group_mb_acquire((evaluated++, &group));
	ck_assert_int_eq(evaluated, 0);
	ck_assert_int_eq(group, CMM_ANNOTATE_VOID);
}
END_TEST
#endif

/* ------------------------------------------------------------------ */

static Suite *primitives_suite(void)
{
	Suite *s = suite_create("primitives");
	TCase *tc;

	tc = harness_tcase(s, "compiler", 0);
	tcase_add_test(tc, test_container_of);
	tcase_add_test(tc, test_compiler_helpers);
	tcase_add_test(tc, test_barriers_callable);
	tcase_add_test(tc, test_config_macros);
	tcase_add_test(tc, test_assert_evaluation);

	tc = harness_tcase(s, "system", 0);
	tcase_add_test(tc, test_load_store_shared);

	tc = harness_tcase(s, "uatomic", 0);
	tcase_add_test(tc, test_memorder_values);
	tcase_add_test(tc, test_uatomic_load_store);
	tcase_add_test(tc, test_uatomic_add_sub_inc_dec);
	tcase_add_test(tc, test_uatomic_add_sub_return);
	tcase_add_test(tc, test_uatomic_xchg);
	tcase_add_test(tc, test_uatomic_cmpxchg_success);
	tcase_add_test(tc, test_uatomic_cmpxchg_failure);
	tcase_add_test(tc, test_uatomic_and_or);
	tcase_add_test(tc, test_uatomic_small_types);

	tc = harness_tcase(s, "concurrent", 20);
	tcase_add_test(tc, test_uatomic_concurrent_exact);
	tcase_add_test(tc, test_pointer_publish_concurrent);
	tcase_add_test(tc, test_futex_wake_waiter);

	tc = harness_tcase(s, "pointer", 0);
	tcase_add_test(tc, test_rcu_dereference_assign);
	tcase_add_test(tc, test_rcu_xchg_pointer);
	tcase_add_test(tc, test_rcu_cmpxchg_pointer);

	tc = harness_tcase(s, "list", 0);
	tcase_add_test(tc, test_list_init_empty);
	tcase_add_test(tc, test_list_add_add_tail);
	tcase_add_test(tc, test_list_del);
	tcase_add_test(tc, test_list_move);
	tcase_add_test(tc, test_list_splice);
	tcase_add_test(tc, test_list_replace);
	tcase_add_test(tc, test_list_iteration);
	tcase_add_test(tc, test_list_safe_deletion);

	tc = harness_tcase(s, "annotate", 20);
	tcase_add_test(tc, test_annotate_group_message);
	tcase_add_test(tc, test_annotate_mem_message);
#ifdef CMM_SANITIZE_THREAD
	tcase_add_test_raise_signal(tc, test_annotate_misplaced_store, SIGABRT);
#else
	tcase_add_test(tc, test_annotate_evaluates_nothing);
#endif

	tc = harness_tcase(s, "misc", 0);
	tcase_add_test(tc, test_tls_per_thread);
	tcase_add_test(tc, test_futex_basic);

	tc = harness_tcase(s, "ref", 0);
	tcase_add_test(tc, test_urcu_ref);
	tcase_add_test_raise_signal(tc, test_urcu_ref_get_overflow_aborts,
				    SIGABRT);
	tcase_add_test_raise_signal(tc, test_urcu_ref_put_underflow_aborts,
				    SIGABRT);
	tcase_add_test(tc, test_urcu_ref_concurrent);

	return s;
}

int main(void)
{
	return harness_run_suite(primitives_suite());
}
