/* Flavor table for the "qsbr" flavor; see flavors.h for why it is separate. */
#include <urcu/urcu-qsbr.h>
/* For urcu_qsbr_gp, the grace-period state the inline read side uses. */
#include <urcu/static/urcu-qsbr.h>

#include "flavors.h"

TEST_FLAVOR(qsbr, .is_qsbr = 1, .gp_futex = &urcu_qsbr_gp.futex);
