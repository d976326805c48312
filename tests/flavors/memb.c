/* Flavor table for the "memb" flavor; see flavors.h for why it is separate. */
#include <urcu/urcu-memb.h>

#include "flavors.h"

TEST_FLAVOR(memb);
