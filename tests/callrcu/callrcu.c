/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the files of the call_rcu suite share; see callrcu.h. */
#include <stdlib.h>

#include "callrcu.h"

const struct test_flavor *flavor;

void caller_enter(void)
{
	flavor->fl->register_thread();
}

void caller_exit(void)
{
	flavor->fl->unregister_thread();
}

void caller_quiescent(void)
{
	flavor->fl->read_quiescent_state();
}

void caller_offline(void)
{
	flavor->fl->thread_offline();
}

void caller_online(void)
{
	flavor->fl->thread_online();
}

struct tracked *objs;
atomic_int *runs;
long n_objs;
atomic_long ran;

void track_alloc(long n)
{
	long i;

	objs = calloc((size_t) n, sizeof(*objs));
	runs = calloc((size_t) n, sizeof(*runs));
	ck_assert(objs && runs);
	for (i = 0; i < n; i++)
		objs[i].idx = i;
	n_objs = n;
	atomic_store(&ran, 0);
}

void track_free(void)
{
	free(objs);
	free(runs);
	objs = NULL;
	runs = NULL;
	n_objs = 0;
}

static void track_run(const struct tracked *t)
{
	atomic_fetch_add(&runs[t->idx], 1);
	atomic_fetch_add(&ran, 1);
}

void track_cb(struct rcu_head *head)
{
	track_run(caa_container_of(head, struct tracked, head));
}

void track_defer_cb(void *p)
{
	track_run(p);
}

long track_first_bad(long begin, long end, int want)
{
	long i;

	for (i = begin; i < end; i++)
		if (atomic_load(&runs[i]) != want)
			return i;
	return -1;
}

void queue_range(long begin, long end)
{
	long i;

	for (i = begin; i < end; i++) {
		flavor->call_rcu(&objs[i].head, track_cb);
		if ((i & 63) == 0)
			caller_quiescent();
	}
}

void *queue_range_thread(void *arg)
{
	struct range *r = arg;

	caller_enter();
	queue_range(r->begin, r->end);
	caller_exit();
	return NULL;
}
