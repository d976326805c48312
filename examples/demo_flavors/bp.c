/* The bp flavor's table for examples/demo.c (see demo.h). */
#include <urcu-bp.h>

#include "../demo.h"

const struct demo_flavor demo_flavor_bp = {
	.name = "bp",
	.rcu = &urcu_bp_flavor,
	.announces_quiescent_states = false,
};
