/*
 * Flavor descriptions for examples/demo.c.
 *
 * Each flavor header maps the generic rcu_* names onto that flavor's own
 * symbols, so one translation unit can include only one of them.  Every
 * file in demo_flavors/ therefore includes one flavor header and
 * publishes that flavor's table here; demo.c calls through the tables.
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

extern const struct demo_flavor demo_flavor_memb;
extern const struct demo_flavor demo_flavor_mb;
extern const struct demo_flavor demo_flavor_signal;
extern const struct demo_flavor demo_flavor_qsbr;
extern const struct demo_flavor demo_flavor_bp;

#endif /* DEMO_H */
