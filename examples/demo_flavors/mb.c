/* The mb flavor's table for examples/demo.c (see demo.h). */
#define RCU_MB
#include <urcu.h>

#include "../demo.h"

const struct demo_flavor demo_flavor_mb = {
	.name = "mb",
	.rcu = &urcu_mb_flavor,
	.announces_quiescent_states = false,
};
