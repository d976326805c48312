/* The memb flavor's table for examples/demo.c (see demo.h). */
#include <urcu.h>

#include "../demo.h"

const struct demo_flavor demo_flavor_memb = {
	.name = "memb",
	.rcu = &urcu_memb_flavor,
	.announces_quiescent_states = false,
};
