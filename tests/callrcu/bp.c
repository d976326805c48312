/* call_rcu test operations of the "bp" flavor; see ops.h. */
#include <urcu/urcu-bp.h>

#include "ops.h"

const struct crcu_ops crcu_ops_bp = CRCU_OPS(bp, .is_bp = 1,
	.flavor_before_fork = urcu_bp_before_fork,
	.flavor_after_fork_parent = urcu_bp_after_fork_parent,
	.flavor_after_fork_child = urcu_bp_after_fork_child);
