/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ck_sq.c: the Concurrency Kit peers of cmp_sq.c: ck_stack (lock-free
 * multi-producer, multi-consumer push and pop with a generation counter)
 * and ck_fifo_mpmc (lock-free multi-producer, multi-consumer queue).
 *
 * Usage: ck_sq stack|fifo THREADS SECONDS
 *
 * Same loop as cmp_sq.c: PREFILL elements first, then each thread pushes
 * (enqueues) one element and pops (dequeues) one, two operations per
 * iteration.  Elements are never freed while threads run, so popped
 * stack entries and the "garbage" entries ck_fifo_mpmc_dequeue() hands
 * back are reused at once, as both structures allow for type-stable
 * memory.
 *
 * RESULT ops <operations/s>
 */
#include <stdbool.h>
#include <ck_fifo.h>
#include <ck_stack.h>

#include "cmp_common.h"

#define PREFILL	1024

static bool use_fifo;
static ck_stack_t stack __attribute__((aligned(16)));
static ck_fifo_mpmc_t fifo __attribute__((aligned(64)));

static void *new_entry(void)
{
	size_t size = use_fifo ? sizeof(ck_fifo_mpmc_entry_t)
			       : sizeof(ck_stack_entry_t);
	void *e;

	/* ck_fifo_mpmc entries are compared with a double-word CAS. */
	if (posix_memalign(&e, 16, size))
		cmp_die("posix_memalign", ENOMEM);
	return e;
}

static void push(void *entry)
{
	if (use_fifo)
		ck_fifo_mpmc_enqueue(&fifo, entry, entry);
	else
		ck_stack_push_mpmc(&stack, entry);
}

static void *pop(void)
{
	if (use_fifo) {
		ck_fifo_mpmc_entry_t *garbage;
		void *value;

		if (!ck_fifo_mpmc_dequeue(&fifo, &value, &garbage))
			return NULL;
		return garbage;
	}
	return ck_stack_pop_mpmc(&stack);
}

static void *worker(void *arg)
{
	struct cmp_counter *c = arg;
	void *e = new_entry();
	unsigned long n = 0;
	int i;

	cmp_wait_go();
	while (!cmp_stopped()) {
		for (i = 0; i < CMP_BATCH; i++) {
			push(e);
			e = pop();
			if (!e)
				e = new_entry();
		}
		n += 2 * CMP_BATCH;
	}
	c->count = n;
	return NULL;
}

int main(int argc, char **argv)
{
	static struct cmp_counter counters[CMP_MAX_THREADS];
	pthread_t threads[CMP_MAX_THREADS];
	const char *name = argc > 1 ? argv[1] : "";
	int nthreads = cmp_arg(argc, argv, 2, 1);
	double seconds = cmp_arg_f(argc, argv, 3, 1.0), elapsed;
	unsigned long total = 0;
	int i;

	if (!strcmp(name, "fifo"))
		use_fifo = true;
	else if (strcmp(name, "stack"))
		nthreads = 0;
	if (nthreads < 1 || nthreads > CMP_MAX_THREADS) {
		fprintf(stderr, "usage: ck_sq stack|fifo THREADS SECONDS\n");
		return 2;
	}
	if (use_fifo)
		ck_fifo_mpmc_init(&fifo, new_entry());
	else
		ck_stack_init(&stack);
	for (i = 0; i < PREFILL; i++)
		push(new_entry());

	cmp_reset();
	for (i = 0; i < nthreads; i++)
		cmp_spawn(&threads[i], worker, &counters[i]);
	elapsed = cmp_run_for(nthreads, seconds);
	for (i = 0; i < nthreads; i++) {
		cmp_join(threads[i]);
		total += counters[i].count;
	}
	cmp_result("ops", total / elapsed);
	return 0;
}
