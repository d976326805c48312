/* Flavor table for the "qsbr" flavor; see flavors.h for why it is separate. */
#include <urcu/urcu-qsbr.h>

#include "flavors.h"

/* Normally declared through <urcu/flavor.h> and the flavor's name map. */
extern const struct rcu_flavor_struct urcu_qsbr_flavor;

const struct test_flavor test_flavor_qsbr = {
	.name = "qsbr",
	.fl = &urcu_qsbr_flavor,
	.is_qsbr = 1,
	.is_bp = 0,
	.is_signal = 0,
};
