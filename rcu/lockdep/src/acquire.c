/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * acquire.c: what the validator checks at each acquisition, release and
 * wait, whichever lock or annotation it comes from.
 *
 * Before an acquisition that may wait (not a successful try-lock):
 *  - taking again a lock the thread holds, unless the lock allows it, is
 *    reported: the thread would wait for itself;
 *  - it adds an edge from each held lock's class, and from rcu_read(F)
 *    for each flavor F whose read side the thread holds.
 * Only after the lock's own code succeeded is the lock pushed on the
 * thread's held stack (ld_acquired()).  A wait (synchronize_rcu() and
 * the like) is an acquisition that ends at once: it adds its edges but
 * nothing is pushed; inside a marked QSBR read-side section of an online
 * thread it is a blocking call (docs/lockdep.md, "Reports").
 */
#include <string.h>

#include "lockdep.h"

/* The topmost held entry of @inst, or NULL. */
static struct ld_held *find_held(struct ld_thread *t, const void *inst)
{
	unsigned i = t->n_held;

	while (i--)
		if (t->held[i].inst == inst)
			return &t->held[i];
	return NULL;
}

static struct ld_held *find_held_class(struct ld_thread *t, uint32_t cls)
{
	unsigned i = t->n_held;

	while (i--)
		if (t->held[i].cls == cls)
			return &t->held[i];
	return NULL;
}

/* Fill @now for an acquisition (or, with LD_WAIT in @flags, a wait). */
static void context(struct ld_thread *t, struct ld_context *now,
		    unsigned flags, const char *op, uintptr_t ip)
{
	ld_thread_context(t, now, op, ip);
	now->wait = (flags & LD_WAIT) != 0;
}

/* May a thread holding @h take it again with @flags? */
static bool may_recurse(const struct ld_held *h, unsigned flags)
{
	if (h->flags & LD_SHARED)
		return (flags & LD_READ_RECURSIVE)
		       && (h->flags & LD_READ_RECURSIVE);
	return (flags & LD_RECURSIVE) && !(flags & LD_SHARED);
}

/* The dependency type of taking @flags while holding with @held_flags. */
static uint32_t dep_type(unsigned held_flags, unsigned flags)
{
	bool shared = held_flags & LD_SHARED;

	if (flags & LD_READ_RECURSIVE)
		return shared ? LD_DEP_SR : LD_DEP_ER;
	return shared ? LD_DEP_SN : LD_DEP_EN;
}

/*
 * Add the edges into @cls from everything @t holds: its held stack and
 * the read sides in @rcu_held (a bit per flavor).  @now is filled (with
 * a backtrace) the first time an edge turns out to be new.
 */
static void add_edges(struct ld_thread *t, uint32_t cls, unsigned flags,
		      unsigned rcu_held, struct ld_context *now,
		      bool *have_now, const char *op, uintptr_t ip)
{
	unsigned i;
	int f;

	for (i = 0; i < t->n_held; i++) {
		struct ld_held *h = &t->held[i];
		uint32_t type = dep_type(h->flags, flags);

		/*
		 * Instances of one class taken one inside another: not
		 * ordered (docs/lockdep.md, "Limits").
		 */
		if (h->cls == cls || ld_edge_known(h->cls, cls, type))
			continue;
		if (!*have_now) {
			context(t, now, flags, op, ip);
			*have_now = true;
		}
		now->held_ip = h->ip;
		now->held_op = h->op;
		ld_edge_add(h->cls, cls, type, now);
	}
	for (; rcu_held; rcu_held &= rcu_held - 1) {
		uint32_t from, type = dep_type(LD_SHARED, flags);

		f = __builtin_ctz(rcu_held);
		from = ld_flavor_read_class(f);
		if (from == cls || ld_edge_known(from, cls, type))
			continue;
		if (!*have_now) {
			context(t, now, flags, op, ip);
			*have_now = true;
		}
		now->held_ip = 0;
		now->held_op = NULL;
		ld_edge_add(from, cls, type, now);
	}
}

void ld_acquire(struct ld_thread *t, const void *inst, uint32_t cls,
		unsigned flags, const char *op, uintptr_t ip)
{
	struct ld_context now;
	bool have_now = false;
	struct ld_held *h;
	unsigned rcu_held, in_section;

	if (!cls || (flags & LD_TRY))
		return;
	h = find_held(t, inst);
	if (h) {
		if (!may_recurse(h, flags)) {
			context(t, &now, flags, op, ip);
			now.held_ip = h->ip;
			now.held_op = h->op;
			ld_report_misuse(LD_RECURSIVE_LOCK, t, cls, -1, &now);
		}
		return;
	}
	/*
	 * An online QSBR thread that takes a lock, inside a section or not,
	 * adds the edge rcu_read(qsbr) -> lock: a deadlock if that lock is
	 * ever held across a QSBR grace period, reported as a cycle.  A lock
	 * whose holders never wait for one is fine (the flavors' call_rcu()
	 * and the hash table take such locks inside sections), so lock
	 * acquisitions are not "blocking calls" below.
	 */
	rcu_held = ld_flavors_held(t, &in_section);
	add_edges(t, cls, flags, rcu_held, &now, &have_now, op, ip);
}

void ld_acquired(struct ld_thread *t, const void *inst, uint32_t cls,
		 unsigned flags, const char *op, uintptr_t ip)
{
	struct ld_held *h;

	if (!cls)
		return;
	/* Otherwise a second entry: each release pops the topmost one. */
	h = find_held(t, inst);
	if (h && may_recurse(h, flags)) {
		h->count++;
		return;
	}
	if (t->n_held == LD_MAX_HELD) {
		if (!t->overflow_reported) {
			struct ld_context now;

			t->overflow_reported = true;
			context(t, &now, flags, op, ip);
			ld_report_misuse(LD_HELD_OVERFLOW, t, cls, -1, &now);
		}
		return;
	}
	t->held[t->n_held++] = (struct ld_held) {
		.inst = inst, .cls = cls, .flags = flags, .count = 1,
		.ip = ip, .op = op,
	};
}

void ld_release(struct ld_thread *t, const void *inst, uint32_t cls,
		const char *op, uintptr_t ip)
{
	struct ld_held *h = find_held(t, inst);

	if (!h) {
		struct ld_context now;

		/* Past the end of a full stack: it was never pushed. */
		if (t->overflow_reported || !cls)
			return;
		context(t, &now, 0, op, ip);
		ld_report_misuse(LD_UNLOCK_NOT_HELD, t, cls, -1, &now);
		return;
	}
	if (--h->count)
		return;
	memmove(h, h + 1, (size_t) (&t->held[t->n_held] - (h + 1)) * sizeof(*h));
	t->n_held--;
}

/*
 * Before a wait for every holder of @cls.  @checks: also look for a wait
 * inside a read-side section that waits for it, and for a blocking call
 * inside a QSBR section (once per ld_wait()).
 */
static void wait_for(struct ld_thread *t, uint32_t cls, const char *what,
		     uintptr_t ip, bool checks)
{
	struct ld_class *c = ld_class(cls);
	struct ld_context now;
	bool have_now = false;
	struct ld_held *h;
	unsigned rcu_held, in_section;
	int f = c->flavor;

	rcu_held = ld_flavors_held(t, &in_section);
	if (f >= 0) {
		/*
		 * The flavor's own waits: inside a section of it, a grace
		 * period waits for the caller.  A QSBR caller that is online
		 * outside a section is put offline by the flavor meanwhile.
		 */
		if (checks && c->kind == LD_RCU_READ
		    && (in_section & (1U << f))) {
			context(t, &now, LD_WAIT, what, ip);
			have_now = true;
			ld_report_misuse(LD_WAIT_IN_SECTION, t, cls, f, &now);
		}
		if (ld_flavor_is_qsbr(f) || c->kind == LD_RCU_READ)
			rcu_held &= ~(1U << f);
	}
	h = find_held_class(t, cls);
	if (h) {
		if (!have_now)
			context(t, &now, LD_WAIT, what, ip);
		have_now = true;
		now.held_ip = h->ip;
		now.held_op = h->op;
		ld_report_misuse(LD_WAIT_HOLDING, t, cls, -1, &now);
	}
	/* A wait of QSBR's own inside its section was reported above. */
	if (checks && (f < 0 || !ld_flavor_is_qsbr(f))
	    && (in_section & rcu_held & (1U << LD_FLAVOR_QSBR))) {
		if (!have_now)
			context(t, &now, LD_WAIT, what, ip);
		have_now = true;
		ld_report_misuse(LD_QSBR_BLOCKING, t, cls, LD_FLAVOR_QSBR,
				 &now);
	}
	add_edges(t, cls, LD_WAIT, rcu_held, &now, &have_now, what, ip);
}

void ld_wait(struct ld_thread *t, uint32_t cls, const char *what,
	     uintptr_t ip)
{
	struct ld_class *c;

	if (!cls)
		return;		/* before start-up, or out of classes */
	c = ld_class(cls);
	/*
	 * Callbacks and deferred functions run after a grace period: a
	 * wait for them waits for one first.
	 */
	if ((c->kind == LD_RCU_CALLBACK || c->kind == LD_RCU_DEFER)
	    && c->flavor >= 0) {
		wait_for(t, ld_flavor_read_class(c->flavor), what, ip, true);
		wait_for(t, cls, what, ip, false);
	} else {
		wait_for(t, cls, what, ip, true);
	}
}
