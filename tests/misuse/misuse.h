/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Misuse through the inline read side (tests/check_flavors.c, tcase
 * "misuse_inline").  Each tests/misuse/<flavor>.c is built with
 * _LGPL_SOURCE and URCU_DEBUG, as a program that inlines the read side
 * and asks for its checks would be, whatever the library's build mode.
 * Every function breaks one rule and must abort with a message.
 */
#ifndef TESTS_MISUSE_MISUSE_H
#define TESTS_MISUSE_MISUSE_H

/* memb (the read side shared with mb and signal). */
void misuse_memb_unlock_without_lock(void);
void misuse_memb_lock_unregistered(void);

/* qsbr. */
void misuse_qsbr_unlock_without_lock(void);
void misuse_qsbr_lock_unregistered(void);
void misuse_qsbr_quiescent_in_section(void);
void misuse_qsbr_offline_in_section(void);
void misuse_qsbr_synchronize_in_section(void);
void misuse_qsbr_barrier_in_section(void);
void misuse_qsbr_unregister_in_section(void);

/* bp. */
void misuse_bp_unlock_without_lock(void);

#endif /* TESTS_MISUSE_MISUSE_H */
