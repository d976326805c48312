/* The flavor list the suite loops over (tcase_add_loop_test index). */
#include "flavors.h"

const struct test_flavor *const test_flavors[N_TEST_FLAVORS] = {
	[TF_MEMB] = &test_flavor_memb,
	[TF_MB] = &test_flavor_mb,
	[TF_SIGNAL] = &test_flavor_signal,
	[TF_QSBR] = &test_flavor_qsbr,
	[TF_BP] = &test_flavor_bp,
};
