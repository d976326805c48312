/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Running a helper program from a test (tests/harness/child.c): for what
 * must happen in a fresh process, such as settings the library reads
 * from the environment at start-up, or output it writes at exit.
 *
 * Helpers are built next to the suite that runs them (tests/SConscript,
 * HELPERS), which finds them through /proc/self/exe.  Only the test
 * thread may call these: failures are ck_assert failures.
 */
#ifndef TESTS_HARNESS_CHILD_H
#define TESTS_HARNESS_CHILD_H

#include <stddef.h>
#include <sys/types.h>

struct harness_child {
	int status;	/* as from waitpid() */
	char *out;	/* everything it wrote to stdout, NUL-terminated */
	char *err;	/* and to stderr */
};

/*
 * Run the helper @name (a program next to this executable) with the
 * arguments @args (NULL-terminated, without argv[0]) and this process's
 * environment changed by @env (NULL-terminated): "NAME=VALUE" sets NAME,
 * a bare "NAME" removes it.  Waits for it and captures both outputs.
 */
void harness_run_child(struct harness_child *c, const char *name,
		       const char *const args[], const char *const env[]);

/*
 * Write to @path (@size bytes) the path of program @name next to this
 * executable; fails the test when it is not there or not executable.
 */
void harness_program_path(const char *name, char *path, size_t size);

/*
 * Start @path with @argv (argv[0] included, NULL-terminated), its
 * standard output and error both into one pipe whose read end (close on
 * exec) goes to *@out.  The program dies with the calling process
 * (PR_SET_PDEATHSIG), so that Check's timeout leaves no orphan behind.
 * The caller reads *@out, closes it and reaps the returned pid.
 */
pid_t harness_start_program(const char *path, const char *const argv[],
			    int *out);

/* Free the captured outputs. */
void harness_child_free(struct harness_child *c);

/* Number of non-overlapping occurrences of @needle in @haystack. */
size_t harness_count(const char *haystack, const char *needle);

#endif /* TESTS_HARNESS_CHILD_H */
