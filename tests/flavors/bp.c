/* Flavor table for the "bp" flavor; see flavors.h for why it is separate. */
#include <urcu/urcu-bp.h>

#include "flavors.h"

TEST_FLAVOR(bp, .is_bp = 1);
