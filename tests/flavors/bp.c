/* Flavor table for the "bp" flavor; see flavors.h for why it is separate. */
#include <urcu/urcu-bp.h>

#include "flavors.h"

/* Normally declared through <urcu/flavor.h> and the flavor's name map. */
extern const struct rcu_flavor_struct urcu_bp_flavor;

const struct test_flavor test_flavor_bp = {
	.name = "bp",
	.fl = &urcu_bp_flavor,
	.is_qsbr = 0,
	.is_bp = 1,
	.is_signal = 0,
};
