/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Install test program.  It uses only liburcu's documented API and is
 * built by tests/install/run.sh against an installed tree, once as C and
 * once as C++, with the flags pkg-config reports.
 *
 * The flavor is chosen the way applications choose it: -DRCU_MB or
 * -DRCU_SIGNAL before <urcu.h>, or the QSBR and bulletproof headers,
 * selected here by INSTALL_TEST_QSBR and INSTALL_TEST_BP.
 */
#include <stdio.h>
#include <stdlib.h>

#if defined(INSTALL_TEST_QSBR)
#include <urcu-qsbr.h>
#elif defined(INSTALL_TEST_BP)
#include <urcu-bp.h>
#else
#include <urcu.h>
#endif
#include <urcu/stats.h>

struct setting {
	int generation;
};

static struct setting *current;

static struct setting *new_setting(int generation)
{
	struct setting *s = (struct setting *)malloc(sizeof(*s));

	if (!s) {
		perror("malloc");
		exit(EXIT_FAILURE);
	}
	s->generation = generation;
	return s;
}

/* Read the published setting inside a read-side critical section. */
static int read_generation(void)
{
	struct setting *s;
	int generation;

	rcu_read_lock();
	s = rcu_dereference(current);
	generation = s ? s->generation : -1;
	rcu_read_unlock();
	return generation;
}

int main(void)
{
	struct setting *first = new_setting(1);
	struct setting *old;
	struct urcu_stats stats;
	int before, after;

	rcu_register_thread();
	rcu_assign_pointer(current, first);
	before = read_generation();

	/* Replace, wait for pre-existing readers, then reclaim the old copy. */
	old = current;
	rcu_assign_pointer(current, new_setting(2));
	synchronize_rcu();
	free(old);

	after = read_generation();
	rcu_unregister_thread();
	free(current);

	/* The generic name reaches the selected flavor's statistics. */
	if (rcu_stats(&stats, sizeof(stats)) != 0
	    || !URCU_STATS_HAS(&stats, sync_calls) || stats.sync_calls < 1) {
		printf("FAILED: rcu_stats() reports no synchronize_rcu call\n");
		return EXIT_FAILURE;
	}

	if (before != 1 || after != 2) {
		printf("FAILED: read generations %d then %d, expected 1 then 2\n",
		       before, after);
		return EXIT_FAILURE;
	}
	printf("ok (%s)\n", stats.flavor);
	return EXIT_SUCCESS;
}
