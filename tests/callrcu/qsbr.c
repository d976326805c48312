/* call_rcu test operations of the "qsbr" flavor; see ops.h. */
#include <urcu/urcu-qsbr.h>

#include "ops.h"

const struct crcu_ops crcu_ops_qsbr = CRCU_OPS(qsbr, .is_qsbr = 1);
