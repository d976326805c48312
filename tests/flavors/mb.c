/* Flavor table for the "mb" flavor; see flavors.h for why it is separate. */
#include <urcu/urcu-mb.h>

#include "flavors.h"

/* Normally declared through <urcu/flavor.h> and the flavor's name map. */
extern const struct rcu_flavor_struct urcu_mb_flavor;

const struct test_flavor test_flavor_mb = {
	.name = "mb",
	.fl = &urcu_mb_flavor,
	.is_qsbr = 0,
	.is_bp = 0,
	.is_signal = 0,
};
