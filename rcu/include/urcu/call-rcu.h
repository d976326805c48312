/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/call-rcu.h: deferred reclamation through worker threads.
 *
 * call_rcu(head, func) queues func(head) to run after a grace period, on a
 * worker thread ("call_rcu_data").  Queueing is wait-free and never blocks;
 * workers take whole batches, wait one grace period per batch, and run the
 * batch in queueing order.  Callbacks run on the worker, registered as a
 * reader of the flavor, and may themselves call call_rcu().
 *
 * The functions are declared per flavor by the flavor headers
 * (urcu_memb_call_rcu(), urcu_qsbr_call_rcu(), ...), and the generic names
 * (call_rcu(), rcu_barrier(), ...) map onto the flavor selected through
 * <urcu.h>, <urcu-qsbr.h> or <urcu-bp.h>.  docs/call-rcu.md documents the
 * whole API.
 */
#ifndef _URCU_CALL_RCU_H
#define _URCU_CALL_RCU_H

#include <stdbool.h>
#include <stdlib.h>
#include <pthread.h>

#include <urcu/flavor.h>
#include <urcu/urcu-poll.h>
#include <urcu/wfcqueue.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque worker handle. */
struct call_rcu_data;

/* create_call_rcu_data() flag: poll instead of sleeping (no wakeups). */
#define URCU_CALL_RCU_RT	(1U << 0)
/* Worker state bits, reported in the flags word; not for callers. */
#define URCU_CALL_RCU_RUNNING	(1U << 1)
#define URCU_CALL_RCU_STOP	(1U << 2)
#define URCU_CALL_RCU_STOPPED	(1U << 3)
#define URCU_CALL_RCU_PAUSE	(1U << 4)
#define URCU_CALL_RCU_PAUSED	(1U << 5)

/* Embed in the object to reclaim; recover it with caa_container_of(). */
struct rcu_head {
	struct cds_wfcq_node next;
	void (*func)(struct rcu_head *head);
};

/* Declares the call_rcu API of one flavor; used by the flavor headers. */
#define _URCU_DECLARE_CALL_RCU(fl)					\
extern void urcu_##fl##_call_rcu(struct rcu_head *head,			\
		void (*func)(struct rcu_head *head));			\
extern struct call_rcu_data *urcu_##fl##_create_call_rcu_data(		\
		unsigned long flags, int cpu_affinity);			\
extern void urcu_##fl##_call_rcu_data_free(struct call_rcu_data *crdp);	\
extern struct call_rcu_data *urcu_##fl##_get_default_call_rcu_data(void);\
extern struct call_rcu_data *urcu_##fl##_get_cpu_call_rcu_data(int cpu);\
extern struct call_rcu_data *urcu_##fl##_get_thread_call_rcu_data(void);\
extern struct call_rcu_data *urcu_##fl##_get_call_rcu_data(void);	\
extern pthread_t urcu_##fl##_get_call_rcu_thread(			\
		struct call_rcu_data *crdp);				\
extern void urcu_##fl##_set_thread_call_rcu_data(			\
		struct call_rcu_data *crdp);				\
extern int urcu_##fl##_set_cpu_call_rcu_data(int cpu,			\
		struct call_rcu_data *crdp);				\
extern int urcu_##fl##_create_all_cpu_call_rcu_data(unsigned long flags);\
extern void urcu_##fl##_free_all_cpu_call_rcu_data(void);		\
extern void urcu_##fl##_call_rcu_before_fork(void);			\
extern void urcu_##fl##_call_rcu_after_fork_parent(void);		\
extern void urcu_##fl##_call_rcu_after_fork_child(void);		\
extern void urcu_##fl##_barrier(void);					\
extern void urcu_##fl##_register_rculfhash_atfork(			\
		struct urcu_atfork *atfork);				\
extern void urcu_##fl##_unregister_rculfhash_atfork(			\
		struct urcu_atfork *atfork);				\
extern struct urcu_gp_poll_state					\
		urcu_##fl##_start_poll_synchronize_rcu(void);		\
extern bool urcu_##fl##_poll_state_synchronize_rcu(			\
		struct urcu_gp_poll_state state);

#ifdef __cplusplus
}
#endif

#endif /* _URCU_CALL_RCU_H */
