/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * thread.c: per-thread state, thread start and thread exit.
 *
 * Threads are numbered T1, T2, ... in the order of their first event, and
 * pthread_create() is interposed so that a report can name a thread's
 * start routine, and so that a thread that returns from it is checked:
 * exiting while holding a lock or inside a read-side section is reported
 * (pthread_exit() is checked the same way).  The check runs before the
 * thread-specific-data destructors, among which the flavors unregister
 * their readers.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "lockdep.h"

__thread struct ld_thread ld_self __attribute__((tls_model("initial-exec")));

static uint32_t thread_numbers;

struct ld_thread *ld_thread_enter(void)
{
	struct ld_thread *t = &ld_self;

	t->guard = 1;
	if (!t->num) {
		/* Relaxed: a counter; nothing is ordered by it. */
		t->num = __atomic_add_fetch(&thread_numbers, 1,
					    __ATOMIC_RELAXED);
		t->tid = (pid_t) syscall(SYS_gettid);
	}
	return t;
}

void ld_thread_context(struct ld_thread *t, struct ld_context *c,
		       const char *op, uintptr_t ip)
{
	c->thread = t->num;
	c->tid = t->tid;
	c->start_fn = t->start_fn;
	c->op = op;
	c->wait = false;
	c->held_ip = 0;
	c->held_op = NULL;
	c->depth = ld_backtrace(c->stack, LD_STACK_DEPTH, ip);
}

/*
 * In a fork child, the forking thread has a new kernel thread id, and
 * still holds what it held: the child's copies of those locks, held from
 * the child's first instant.  The child's lock order with them held is
 * its own, not the parent's: for instance a program that holds a lock of
 * its own across fork(), while a library's fork handler takes the
 * library's locks in the child, takes them in the opposite order in the
 * parent, where the library held its locks across the fork.  So each
 * lock held at the fork gets, in the child, a class of its own
 * ("... (held across fork)"), ordered apart from the parent's.
 */
void ld_thread_fork_child(void)
{
	unsigned i;

	if (!ld_self.num)
		return;
	ld_self.tid = (pid_t) syscall(SYS_gettid);
	for (i = 0; i < ld_self.n_held; i++) {
		uint32_t cls = ld_class_forked(ld_self.held[i].cls);

		if (cls)
			ld_self.held[i].cls = cls;
	}
}

/* The calling thread ends (pthread_exit() called at @ip, or 0). */
static void exit_check(uintptr_t ip)
{
	struct ld_thread *t;
	struct ld_context now;
	unsigned in_section;
	int f;

	if (ld_bypass())
		return;
	t = ld_thread_enter();
	(void) ld_flavors_held(t, &in_section);
	if (t->n_held || in_section) {
		ld_thread_context(t, &now, "thread exit", ip);
		if (t->n_held)
			ld_report_misuse(LD_EXIT_HOLDING, t, 0, -1, &now);
		for (f = 0; f < LD_NR_FLAVORS; f++)
			if (in_section & (1U << f))
				ld_report_misuse(LD_EXIT_IN_SECTION, t,
						 ld_flavor_read_class(f), f,
						 &now);
		t->n_held = 0;
	}
	ld_thread_leave(t);
}

struct ld_start {
	void *(*fn)(void *);
	void *arg;
};

static void *start_thread(void *p)
{
	struct ld_start s = *(struct ld_start *) p;
	struct ld_thread *t = ld_thread_enter();
	void *ret;

	free(p);
	t->start_fn = (uintptr_t) s.fn;
	ld_flavors_thread_start(t);
	ld_thread_leave(t);
	ret = s.fn(s.arg);
	exit_check(0);	/* no stack: it returned */
	return ret;
}

LD_API int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
			  void *(*fn)(void *), void *arg)
{
	static int (*real)(pthread_t *, const pthread_attr_t *,
			   void *(*)(void *), void *);
	struct ld_thread *t;
	struct ld_start *s;
	int ret;

	LD_NEXT(real, "pthread_create");
	if (ld_bypass())
		return real(thread, attr, fn, arg);
	t = ld_thread_enter();
	s = malloc(sizeof(*s));
	ld_thread_leave(t);
	if (!s)
		return EAGAIN;
	s->fn = fn;
	s->arg = arg;
	ret = real(thread, attr, start_thread, s);
	if (ret) {
		t = ld_thread_enter();
		free(s);
		ld_thread_leave(t);
	}
	return ret;
}

LD_API void pthread_exit(void *ret)
{
	static void (*real)(void *) __attribute__((noreturn));

	LD_NEXT(real, "pthread_exit");
	exit_check((uintptr_t) __builtin_return_address(0));
	real(ret);
}
