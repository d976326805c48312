/* Flavor table for the "mb" flavor; see flavors.h for why it is separate. */
#include <urcu/urcu-mb.h>

#include "flavors.h"

TEST_FLAVOR(mb);
