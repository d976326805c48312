/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * signal-barrier.h: the signal flavor's process-wide barrier.
 *
 * The updater sets need_mb in the record of every reader it still waits
 * for (those that did not move on by themselves, gp-observe.h), sends
 * SIGRCU to each of those threads, and waits until every handler has
 * cleared its flag.  Each handler runs cmm_smp_mb() before clearing it,
 * so once the updater has seen all flags cleared, every such reader
 * executed a full fence at some point after the updater's earlier
 * accesses: the same guarantee membarrier(2) gives the memb flavor, built
 * from signals.  A thread still silent once the polls have grown to their
 * longest is sent the signal again on every poll (urcu__signal_resend()).
 *
 * The handler is installed with SA_RESTART, so most interrupted system
 * calls (read, write, wait, ...) restart transparently.  Calls that Linux
 * never restarts after a handler (nanosleep/sleep, poll, epoll_wait,
 * select, and others listed in signal(7)) return early with EINTR or the
 * remaining time in registered threads; docs/flavors.md spells this out.
 * Registered threads must not block SIGRCU: the updater would wait forever.
 * Threads waiting inside the library (for a grace period, a worker, a
 * lock) are "parked" instead and need no handler: see
 * urcu__offline_for_wait() in flavor-internal.h.  A thread that never
 * acknowledges (SIGRCU blocked) gets a stall warning (gp-stall.h) once
 * the grace period has waited the stall timeout.
 */
#ifndef URCU_SRC_SIGNAL_BARRIER_H
#define URCU_SRC_SIGNAL_BARRIER_H

#include <errno.h>
#include <signal.h>
#include <pthread.h>

#include <urcu/arch.h>
#include <urcu/list.h>
#include <urcu/static/urcu-common.h>

#include "urcu-die.h"
#include "gp-poll-sleep.h"
#include "gp-stall.h"

/*
 * Acknowledgement spins before the updater starts polling (gp-poll-sleep.h):
 * about 30 us, enough for most round trips of a signal to a thread on
 * another CPU (10-25 us measured in a VM).  A thread that is not running
 * needs our CPU or a free one: the polling sleeps that follow start at
 * 2 us, so a reader that the updater itself preempted gets the CPU back,
 * and runs its handler, within microseconds.
 */
#define URCU__SIGNAL_ACK_SPINS	1000

static inline void urcu__signal_install(int sig,
		void (*handler)(int, siginfo_t *, void *))
{
	struct sigaction act;

	act.sa_sigaction = handler;
	act.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&act.sa_mask);
	if (sigaction(sig, &act, NULL))
		urcu__die("sigaction(SIGRCU)", errno);
}

/*
 * Handler body: full fence, then acknowledge.  Release on the store pairs
 * with the updater's acquire load in urcu__signal_mb_readers().
 */
static inline void urcu__signal_ack(int32_t *need_mb)
{
	/*
	 * Orders the interrupted code's accesses before the acknowledgement.
	 * model: tags.pml MB_SIG_ACK_PRE, then SIG_ACK_REL for the store
	 * (reader.pml handler).
	 */
	cmm_smp_mb();
	__atomic_store_n(need_mb, 0, __ATOMIC_RELEASE);
	/*
	 * Orders the acknowledgement before the code that resumes after us.
	 * model: tags.pml MB_SIG_ACK_POST.
	 */
	cmm_smp_mb();
}

/*
 * First reader of @readers, from @from on, that still owes us an
 * acknowledgement; NULL when none does.  Acquire on both loads: pairs
 * with the release in urcu__signal_ack(), or with the one in
 * urcu__offline_for_wait() of a reader that is parked and need not be
 * waited for.  model: tags.pml SIG_NEED_ACQ, SIG_PARK_ACQ (updater.pml
 * sig_check).
 */
static inline struct urcu_reader *urcu__signal_pending(
		struct cds_list_head *readers, struct cds_list_head *from)
{
	struct cds_list_head *pos;

	for (pos = from; pos != readers; pos = pos->next) {
		struct urcu_reader *r =
			cds_list_entry(pos, struct urcu_reader, node);

		if (__atomic_load_n(&r->need_mb, __ATOMIC_ACQUIRE)
		    && !__atomic_load_n(&r->parked, __ATOMIC_ACQUIRE))
			return r;
	}
	return NULL;
}

/*
 * Send @sig to reader @r's thread.  pthread_kill() is a system call, a
 * full barrier on the caller.  model: tags.pml SYS_KILL (updater.pml
 * signal_mb_readers, sig_send).
 */
static inline void urcu__signal_send(const struct urcu_reader *r, int sig)
{
	int err = pthread_kill(r->tid, sig);

	if (err)
		urcu__die("pthread_kill(SIGRCU)", err);
}

/*
 * Send @sig to every reader of @readers, from @from on, that still owes an
 * acknowledgement.  A signal still pending in the kernel is not queued
 * twice (standard signals coalesce), so a repeat costs the reader nothing
 * unless the first one was lost: runtimes that interpose on delivery can
 * drop one (ThreadSanitizer under load has been seen to, the handler then
 * never running although the thread kept making system calls).  model:
 * tags.pml SIG_RESEND (updater.pml signal_mb_readers, MAXLOST).
 */
static inline void urcu__signal_resend(struct cds_list_head *readers,
		struct cds_list_head *from, int sig)
{
	struct urcu_reader *r;

	while ((r = urcu__signal_pending(readers, from))) {
		urcu__signal_send(r, sig);
		from = r->node.next;
	}
}

/*
 * Force a full fence on every reader of @readers; @stall watches the
 * grace period this is part of.  Called with @registry_lock held; returns
 * with it held, but drops it while sleeping, as the wait for readers does
 * (gp-wait-readers.h): a reader may then unregister, unlinking itself
 * from @readers, which is why the scan starts over after each sleep.  A
 * thread waiting for that lock may be unable to run its handler (some
 * runtimes, ThreadSanitizer among them, defer handlers while a thread is
 * blocked in an intercepted lock): were the lock held throughout, that
 * thread and this wait would wait for each other.
 */
static inline void urcu__signal_mb_readers(struct cds_list_head *readers,
		pthread_mutex_t *registry_lock, int sig,
		struct urcu__stall_watch *stall)
{
	struct urcu_reader *r;
	uint64_t poll_ns = URCU__GP_POLL_MIN_NS;
	unsigned int spins = 0;

	/*
	 * Orders our earlier accesses before the readers' fences.  model:
	 * tags.pml MB_SIG_PRE (updater.pml signal_mb_readers).
	 */
	cmm_smp_mb();
	cds_list_for_each_entry(r, readers, node) {
		/* Relaxed: pthread_kill is a syscall, a full barrier. */
		__atomic_store_n(&r->need_mb, 1, __ATOMIC_RELAXED);
		urcu__signal_send(r, sig);
	}
	r = urcu__signal_pending(readers, readers->next);
	while (r) {
		if (++spins < URCU__SIGNAL_ACK_SPINS) {
			caa_cpu_relax();
		} else {
			/* Needed by the sleep; already running if watched. */
			(void) urcu__stall_watch_start(stall);
			urcu__mutex_unlock(registry_lock);
			urcu__gp_poll_sleep(&poll_ns, stall, NULL);
			urcu__mutex_lock(registry_lock);
			/* @r may have unregistered meanwhile. */
			r = urcu__signal_pending(readers, readers->next);
			if (!r)
				break;
			urcu__stall_check_ack(stall, r, sig);
			/* Polled ~1 ms: repeat, once per poll, for lost ones. */
			if (poll_ns == URCU__GP_POLL_MAX_NS)
				urcu__signal_resend(readers, &r->node, sig);
		}
		r = urcu__signal_pending(readers, &r->node);
	}
	/*
	 * Orders the readers' fences before our later accesses.  model:
	 * tags.pml MB_SIG_POST (updater.pml signal_mb_readers).
	 */
	cmm_smp_mb();
}

#endif /* URCU_SRC_SIGNAL_BARRIER_H */
