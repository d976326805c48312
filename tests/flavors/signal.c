/* Flavor table for the "signal" flavor; see flavors.h for why it is separate. */
#include <urcu/urcu-signal.h>

#include "flavors.h"

/* Normally declared through <urcu/flavor.h> and the flavor's name map. */
extern const struct rcu_flavor_struct urcu_signal_flavor;

const struct test_flavor test_flavor_signal = {
	.name = "signal",
	.fl = &urcu_signal_flavor,
	.is_qsbr = 0,
	.is_bp = 0,
	.is_signal = 1,
};
