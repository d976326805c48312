/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers of the lock validator's test programs; see cases.h. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../flavors/flavors.h"
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
	const struct test_flavor *tf = name ? test_flavor_by_name(name) : NULL;

	if (!tf)
		case_usage("FLAVOR is one of memb, mb, signal, qsbr, bp");
	return tf->fl;
}

void case_usage(const char *usage)
{
	fprintf(stderr, "usage: %s\n", usage);
	exit(2);
}
