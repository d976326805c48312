/* Flavor table for the "qsbr" flavor; see flavors.h for why it is separate. */
#include <urcu/urcu-qsbr.h>

#include "flavors.h"

TEST_FLAVOR(qsbr, .is_qsbr = 1);
