/*
 * misuse_env: commits the read-side misuse named by argv[1] through the
 * library's out-of-line read side.  check_flavors runs it with and
 * without URCU_DEBUG=1 in the environment: with it, a release library
 * checks its read side too and aborts with a message; without it, a
 * release library does not look (and this program exits 0).
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
