/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * process.c: configuration, start-up, fork, dlopen and the exit status.
 *
 * URCU_LOCKDEP selects what a report does (docs/lockdep.md):
 *   warn (also unset, empty or 1)  print it and go on; a program that
 *                                  would exit with status 0 exits with
 *                                  URCU_LOCKDEP_EXITCODE (default 67)
 *                                  instead, so that a run with reports
 *                                  fails;
 *   abort                          print it and abort();
 *   off (or 0)                     check nothing: every interposed call
 *                                  goes straight to the real one.
 *
 * The exit status is changed where the program's status passes through a
 * function the validator can wrap: main()'s return (by wrapping main in
 * __libc_start_main()) and exit().  Reports made after that, by
 * destructors, are printed but leave the status alone.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lockdep.h"
#include "rawlock.h"

#define LD_DEFAULT_EXITCODE	67

struct ld_rawlock ld_state_lock;

/* -1 until read from the environment (ld_mode()). */
int ld_mode_value = -1;
static int exitcode = LD_DEFAULT_EXITCODE;

static void say(const char *msg)
{
	(void) !write(2, msg, strlen(msg));
}

static int parse_mode(void)
{
	const char *v = getenv("URCU_LOCKDEP");
	const char *code = getenv("URCU_LOCKDEP_EXITCODE");

	if (code && *code) {
		char *end;
		long c = strtol(code, &end, 10);

		if (!*end && c > 0 && c < 256)
			exitcode = (int) c;
		else
			say("urcu-lockdep: ignoring URCU_LOCKDEP_EXITCODE: not "
			    "a status from 1 to 255\n");
	}
	if (!v || !*v || !strcmp(v, "warn") || !strcmp(v, "1"))
		return LD_MODE_WARN;
	if (!strcmp(v, "abort"))
		return LD_MODE_ABORT;
	if (!strcmp(v, "off") || !strcmp(v, "0"))
		return LD_MODE_OFF;
	say("urcu-lockdep: URCU_LOCKDEP must be warn, abort or off; "
	    "using warn\n");
	return LD_MODE_WARN;
}

enum ld_mode ld_mode_slow(void)
{
	int m = parse_mode();

	/*
	 * Relaxed: every thread computes the same value from the same
	 * environment; any of them may publish it.
	 */
	__atomic_store_n(&ld_mode_value, m, __ATOMIC_RELAXED);
	return (enum ld_mode) m;
}

void *ld_next(const char *name)
{
	void *fn = dlsym(RTLD_NEXT, name);

	if (!fn) {
		say("urcu-lockdep: fatal: cannot find the real ");
		say(name);
		say("\n");
		abort();
	}
	return fn;
}

/*
 * Fork: the child must not inherit one of the validator's locks held by
 * a thread that is not copied.  The prepare handler runs after those of
 * handlers registered later (the program's), which may take locks and so
 * enter the validator; it takes the validator's locks last and marks the
 * forking thread so that handlers registered earlier pass through, until
 * the parent and child handlers, which run first, let go.
 */
static void fork_prepare(void)
{
	struct ld_thread *t = &ld_self;

	t->guard++;
	ld_raw_lock(&ld_state_lock);
	ld_raw_lock(&ld_arena_lock);
	ld_raw_lock(&ld_report_lock);
}

static void fork_parent(void)
{
	ld_raw_unlock(&ld_report_lock);
	ld_raw_unlock(&ld_arena_lock);
	ld_raw_unlock(&ld_state_lock);
	ld_self.guard--;
}

static void fork_child(void)
{
	ld_raw_reset(&ld_report_lock);
	ld_raw_reset(&ld_arena_lock);
	ld_raw_reset(&ld_state_lock);
	ld_thread_fork_child();
	ld_self.guard--;
}

__attribute__((constructor))
static void lockdep_init(void)
{
	struct ld_thread *t;

	if (ld_mode() == LD_MODE_OFF)
		return;
	t = ld_thread_enter();
	ld_symbolize_init();
	ld_locks_scan_objects();
	ld_flavors_init();
	ld_flavors_thread_start(t);
	(void) pthread_atfork(fork_prepare, fork_parent, fork_child);
	ld_thread_leave(t);
}

/* A new object may hold data (static locks) and a flavor. */
LD_API void *dlopen(const char *file, int flags)
{
	static void *(*real)(const char *, int);
	struct ld_thread *t;
	void *handle;

	LD_NEXT(real, "dlopen");
	handle = real(file, flags);
	if (!handle || ld_bypass())
		return handle;
	t = ld_thread_enter();
	ld_locks_scan_objects();
	ld_flavors_lookup(handle);
	ld_thread_leave(t);
	return handle;
}

LD_API int dlclose(void *handle)
{
	static int (*real)(void *);
	struct ld_thread *t;
	int ret;

	LD_NEXT(real, "dlclose");
	ret = real(handle);
	if (ld_bypass())
		return ret;
	t = ld_thread_enter();
	ld_locks_scan_objects();
	ld_thread_leave(t);
	return ret;
}

/* The status to exit with, instead of @status. */
static int exit_status(int status)
{
	unsigned long n = ld_report_count();
	char msg[160];

	if (!n)
		return status;
	if (status == 0 && ld_mode() == LD_MODE_WARN) {
		snprintf(msg, sizeof(msg), "urcu-lockdep: %lu report%s; exit "
			 "status %d\n", n, n == 1 ? "" : "s", exitcode);
		say(msg);
		return exitcode;
	}
	snprintf(msg, sizeof(msg), "urcu-lockdep: %lu report%s\n", n,
		 n == 1 ? "" : "s");
	say(msg);
	return status;
}

typedef int (*ld_main_fn)(int, char **, char **);
typedef void (*ld_exit_fn)(int) __attribute__((noreturn));

static ld_main_fn real_main;

static int main_wrapper(int argc, char **argv, char **envp)
{
	return exit_status(real_main(argc, argv, envp));
}

LD_API int __libc_start_main(ld_main_fn main, int argc, char **argv,
			     void (*init)(void), void (*fini)(void),
			     void (*rtld_fini)(void), void *stack_end)
{
	static int (*real)(ld_main_fn, int, char **, void (*)(void),
			   void (*)(void), void (*)(void), void *);

	LD_NEXT(real, "__libc_start_main");
	real_main = main;
	return real(main_wrapper, argc, argv, init, fini, rtld_fini,
		    stack_end);
}

LD_API void exit(int status)
{
	static ld_exit_fn real;

	LD_NEXT(real, "exit");
	real(exit_status(status));
}
