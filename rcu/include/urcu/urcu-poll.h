/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/urcu-poll.h: the token returned by start_poll_synchronize_rcu() and
 * checked by poll_state_synchronize_rcu().
 */
#ifndef _URCU_URCU_POLL_H
#define _URCU_URCU_POLL_H

struct urcu_gp_poll_state {
	/* Opaque grace-period sequence number; compare only through the API. */
	unsigned long grace_period_id;
};

#endif /* _URCU_URCU_POLL_H */
