/* call_rcu test operations of the "mb" flavor; see ops.h. */
#include <urcu/urcu-mb.h>

#include "ops.h"

const struct crcu_ops crcu_ops_mb = CRCU_OPS(mb);
