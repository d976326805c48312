/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Flavor descriptions for examples/demo.c (examples/demo_flavors.c).
 *
 * Each flavor header maps the generic rcu_* names onto that flavor's own
 * symbols, so the demo, which runs all five, calls each flavor through
 * its exported table instead.  The tests describe the flavors the same
 * way (tests/flavors/flavors.h), with much more; the examples use only
 * the public API and nothing from tests/, so this is the small part the
 * demo needs.
 */
#ifndef DEMO_H
#define DEMO_H

#include <stdbool.h>

struct rcu_flavor_struct;

struct demo_flavor {
	const char *name;
	/* The flavor's exported urcu_<flavor>_flavor table. */
	const struct rcu_flavor_struct *rcu;
	/* QSBR readers must announce quiescent states between sections. */
	bool announces_quiescent_states;
};

enum { DEMO_N_FLAVORS = 5 };

/* memb, mb, signal, qsbr, bp: the order the demo runs them in. */
extern const struct demo_flavor demo_flavors[DEMO_N_FLAVORS];

#endif /* DEMO_H */
