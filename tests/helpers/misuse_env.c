/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * misuse_env: commits the read-side misuse named by argv[1] through the
 * library's out-of-line read side.  check_flavors runs it with and
 * without URCU_DEBUG=1 in the environment: with it, a release library
 * checks its read side too and aborts with a message; without it, a
 * release library only checks what costs its common path nothing
 * (unbalanced unlock, nesting overflow) and otherwise exits 0.
 */
#include <stdio.h>
#include <string.h>

#include <urcu/urcu-memb.h>
#include <urcu/urcu-qsbr.h>

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	if (!strcmp(what, "unlock-without-lock")) {
		urcu_memb_register_thread();
		urcu_memb_read_unlock();
	} else if (!strcmp(what, "lock-nested-too-deep")) {
		unsigned long i;

		urcu_memb_register_thread();
		/* Far more than the reader word's nesting bits can count. */
		for (i = 0; i < (1UL << 20); i++)
			urcu_memb_read_lock();
	} else if (!strcmp(what, "unregistered-reader")) {
		urcu_memb_read_lock();
		urcu_memb_read_unlock();
	} else if (!strcmp(what, "qsbr-unregistered-quiescent")) {
		urcu_qsbr_quiescent_state();
	} else {
		fprintf(stderr, "misuse_env: unknown misuse \"%s\"\n", what);
		return 2;
	}
	return 0;
}
