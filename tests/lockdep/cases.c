/* Helpers of the lock validator's test programs; see cases.h. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <urcu/urcu-memb.h>
#include <urcu/urcu-mb.h>
#include <urcu/urcu-signal.h>
#include <urcu/urcu-qsbr.h>
#include <urcu/urcu-bp.h>

#include "cases.h"

void case_run(void *(*fn)(void *), void *arg)
{
	pthread_t t;

	if (pthread_create(&t, NULL, fn, arg) || pthread_join(t, NULL)) {
		fprintf(stderr, "cannot run a thread\n");
		exit(2);
	}
}

const struct rcu_flavor_struct *case_flavor(const char *name)
{
	static const struct {
		const char *name;
		const struct rcu_flavor_struct *flavor;
	} flavors[] = {
		{ "memb", &urcu_memb_flavor },
		{ "mb", &urcu_mb_flavor },
		{ "signal", &urcu_signal_flavor },
		{ "qsbr", &urcu_qsbr_flavor },
		{ "bp", &urcu_bp_flavor },
	};
	size_t i;

	for (i = 0; name && i < sizeof(flavors) / sizeof(flavors[0]); i++)
		if (strcmp(name, flavors[i].name) == 0)
			return flavors[i].flavor;
	case_usage("FLAVOR is one of memb, mb, signal, qsbr, bp");
}

void case_usage(const char *usage)
{
	fprintf(stderr, "usage: %s\n", usage);
	exit(2);
}
