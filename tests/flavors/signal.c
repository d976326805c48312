/* Flavor table for the "signal" flavor; see flavors.h for why it is separate. */
#include <urcu/urcu-signal.h>
/* For urcu_signal_gp, the grace-period state the inline read side uses. */
#include <urcu/static/urcu-signal.h>

#include "flavors.h"

TEST_FLAVOR(signal, .is_signal = 1, .gp_futex = &urcu_signal_gp.wake);
