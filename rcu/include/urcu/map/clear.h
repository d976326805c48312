/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/map/clear.h: undo a flavor mapping.
 *
 * Each flavor header maps the generic names onto its prefixed symbols while
 * it declares them; this header removes those macros again when the user did
 * not ask for the generic API (URCU_API_MAP undefined), and it also resets the
 * per-flavor include guard of the map so that another flavor header included
 * later can install its own mapping.
 */
#undef _rcu_quiescent_state
#undef _rcu_read_lock
#undef _rcu_read_ongoing
#undef _rcu_read_unlock
#undef _rcu_thread_offline
#undef _rcu_thread_online
#undef call_rcu
#undef call_rcu_after_fork_child
#undef call_rcu_after_fork_parent
#undef call_rcu_before_fork
#undef call_rcu_data_free
#undef create_all_cpu_call_rcu_data
#undef create_call_rcu_data
#undef defer_rcu
#undef free_all_cpu_call_rcu_data
#undef get_call_rcu_data
#undef get_call_rcu_thread
#undef get_cpu_call_rcu_data
#undef get_default_call_rcu_data
#undef get_thread_call_rcu_data
#undef poll_state_synchronize_rcu
#undef rcu_barrier
#undef rcu_bp_after_fork_child
#undef rcu_bp_after_fork_parent
#undef rcu_bp_before_fork
#undef rcu_defer_barrier
#undef rcu_defer_barrier_thread
#undef rcu_defer_exit
#undef rcu_defer_register_thread
#undef rcu_defer_unregister_thread
#undef rcu_exit
#undef rcu_flavor
#undef rcu_gp
#undef rcu_init
#undef rcu_quiescent_state
#undef rcu_read_lock
#undef rcu_read_ongoing
#undef rcu_read_unlock
#undef rcu_reader
#undef rcu_register_thread
#undef rcu_stats
#undef rcu_stats_print
#undef rcu_stats_workers
#undef rcu_thread_offline
#undef rcu_thread_online
#undef rcu_unregister_thread
#undef set_cpu_call_rcu_data
#undef set_thread_call_rcu_data
#undef start_poll_synchronize_rcu
#undef synchronize_rcu
#undef urcu_register_rculfhash_atfork
#undef urcu_unregister_rculfhash_atfork
#undef _URCU_MAP_URCU_MEMB_H
#undef _URCU_MAP_URCU_MB_H
#undef _URCU_MAP_URCU_SIGNAL_H
#undef _URCU_MAP_URCU_QSBR_H
#undef _URCU_MAP_URCU_BP_H
