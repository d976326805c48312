/* call_rcu test operations of the "signal" flavor; see ops.h. */
#include <urcu/urcu-signal.h>

#include "ops.h"

const struct crcu_ops crcu_ops_signal = CRCU_OPS(signal);
