/* The signal flavor's table for examples/demo.c (see demo.h). */
#define RCU_SIGNAL
#include <urcu.h>

#include "../demo.h"

const struct demo_flavor demo_flavor_signal = {
	.name = "signal",
	.rcu = &urcu_signal_flavor,
	.announces_quiescent_states = false,
};
