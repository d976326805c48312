/* Flavor table for the "signal" flavor; see flavors.h for why it is separate. */
#include <urcu/urcu-signal.h>

#include "flavors.h"

TEST_FLAVOR(signal, .is_signal = 1);
