/* The flavors the call_rcu suite loops over (tcase_add_loop_test index). */
#include "ops.h"

const struct crcu_ops *const crcu_ops_table[N_CRCU_FLAVORS] = {
	[CRCU_MEMB] = &crcu_ops_memb,
	[CRCU_MB] = &crcu_ops_mb,
	[CRCU_SIGNAL] = &crcu_ops_signal,
	[CRCU_QSBR] = &crcu_ops_qsbr,
	[CRCU_BP] = &crcu_ops_bp,
};
