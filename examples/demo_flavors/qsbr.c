/* The qsbr flavor's table for examples/demo.c (see demo.h). */
#include <urcu-qsbr.h>

#include "../demo.h"

const struct demo_flavor demo_flavor_qsbr = {
	.name = "qsbr",
	.rcu = &urcu_qsbr_flavor,
	.announces_quiescent_states = true,
};
