/* Flavor table for the "memb" flavor; see flavors.h for why it is separate. */
#include <urcu/urcu-memb.h>

#include "flavors.h"

/* Normally declared through <urcu/flavor.h> and the flavor's name map. */
extern const struct rcu_flavor_struct urcu_memb_flavor;

const struct test_flavor test_flavor_memb = {
	.name = "memb",
	.fl = &urcu_memb_flavor,
	.is_qsbr = 0,
	.is_bp = 0,
	.is_signal = 0,
};
