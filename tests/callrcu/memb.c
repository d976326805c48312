/* call_rcu test operations of the "memb" flavor; see ops.h. */
#include <urcu/urcu-memb.h>

#include "ops.h"

const struct crcu_ops crcu_ops_memb = CRCU_OPS(memb);
