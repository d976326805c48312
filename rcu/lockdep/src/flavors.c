/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * flavors.c: the RCU flavors as the validator sees them.
 *
 * Each flavor F has three pseudo-lock classes, created here by name; the
 * flavor libraries name the same ones in their annotations
 * (rcu/src/lockdep-hooks.h):
 *
 *   rcu_read(F)      held by a thread inside a read-side section of F.
 *                    The read side is inline, so the validator asks the
 *                    flavor's urcu_F_read_ongoing() at every acquisition
 *                    instead (for bp it only reads the thread's reader
 *                    record: asking never registers a thread).  QSBR's
 *                    read_ongoing() is true while the thread is online:
 *                    an online thread holds up grace periods exactly like
 *                    a reader inside a section, so it holds rcu_read(qsbr).
 *   rcu_callback(F)  held by a call_rcu worker of F running callbacks.
 *   rcu_defer(F)     held by a defer_rcu drainer of F.
 *
 * A flavor is looked up once it is loaded: at start-up in the global
 * scope, after each dlopen() in the new object's scope, and from the
 * object of the first class of F a flavor library names in an annotation
 * (a flavor loaded RTLD_LOCAL by a plugin).
 *
 * QSBR's read-side markers only count nesting where they are compiled
 * with URCU_DEBUG (urcu/static/urcu-qsbr.h); the validator reads that
 * count from the thread's reader record to tell "inside a marked
 * section" from "online".  The record is thread-local, found with dlsym()
 * once per thread (and again when a flavor appears later).
 */
#include <dlfcn.h>
#include <stdio.h>

#include <urcu/static/urcu-common.h>

#include "lockdep.h"

struct ld_flavor {
	const char *name;
	/* urcu_<name>_read_ongoing(), once found; read without a lock. */
	int (*read_ongoing)(void);
	uint32_t read_cls, defer_cls;
};

static struct ld_flavor flavors[LD_NR_FLAVORS] = {
	[LD_FLAVOR_MEMB] = { .name = "memb" },
	[LD_FLAVOR_MB] = { .name = "mb" },
	[LD_FLAVOR_SIGNAL] = { .name = "signal" },
	[LD_FLAVOR_QSBR] = { .name = "qsbr" },
	[LD_FLAVOR_BP] = { .name = "bp" },
};

/* A bit per flavor found so far. */
static unsigned found;
/* Bumped whenever a flavor is found: threads look up QSBR again. */
static unsigned found_gen;

const char *ld_flavor_name(int flavor)
{
	return flavors[flavor].name;
}

uint32_t ld_flavor_read_class(int flavor)
{
	return flavors[flavor].read_cls;
}

uint32_t ld_flavor_defer_class(int flavor)
{
	return flavors[flavor].defer_cls;
}

bool ld_flavor_is_qsbr(int flavor)
{
	return flavor == LD_FLAVOR_QSBR;
}

static void pseudo_class(const char *fmt, enum ld_kind kind, int flavor,
			 uint32_t *out)
{
	char name[32];
	uint32_t id;

	snprintf(name, sizeof(name), fmt, flavors[flavor].name);
	id = ld_class_by_name(name, kind, flavor);
	if (out)
		*out = id;
}

/*
 * Create the pseudo-lock classes and look for the flavors: at start-up,
 * or earlier when a flavor announces a wait from another object's
 * constructor (so that its class is known as the flavor's, not as a
 * user's of the same name).  Idempotent: racing callers find the same
 * classes by name.
 */
void ld_flavors_init(void)
{
	static int ready;
	int i;

	/* Acquire: pairs with the release below, for read_cls & co. */
	if (__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
		return;
	for (i = 0; i < LD_NR_FLAVORS; i++) {
		pseudo_class("rcu_read(%s)", LD_RCU_READ, i,
			     &flavors[i].read_cls);
		pseudo_class("rcu_callback(%s)", LD_RCU_CALLBACK, i, NULL);
		pseudo_class("rcu_defer(%s)", LD_RCU_DEFER, i,
			     &flavors[i].defer_cls);
	}
	ld_flavors_lookup(RTLD_DEFAULT);
	__atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
}

void ld_flavors_lookup(void *scope)
{
	int i;

	for (i = 0; i < LD_NR_FLAVORS; i++) {
		char sym[48];
		void *fn;

		/* Relaxed: set once, below. */
		if (__atomic_load_n(&flavors[i].read_ongoing, __ATOMIC_RELAXED))
			continue;
		snprintf(sym, sizeof(sym), "urcu_%s_read_ongoing",
			 flavors[i].name);
		fn = dlsym(scope, sym);
		if (!fn)
			continue;
		/* Relaxed: published by the release below. */
		__atomic_store_n(&flavors[i].read_ongoing,
				 (int (*)(void)) fn, __ATOMIC_RELAXED);
		/* Release: the pointer above before the bit; see below. */
		__atomic_fetch_or(&found, 1U << i, __ATOMIC_RELEASE);
		__atomic_fetch_add(&found_gen, 1, __ATOMIC_RELAXED);
	}
}

void ld_flavors_lookup_object(const void *addr)
{
	Dl_info info;
	void *handle;

	if (!dladdr(addr, &info) || !info.dli_fname)
		return;
	handle = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
	if (!handle)
		return;
	ld_flavors_lookup(handle);
	dlclose(handle);
}

/*
 * The calling thread's reader record of flavor @f (thread-local, part of
 * the flavor's inline ABI), or NULL when it cannot be found (a flavor
 * loaded RTLD_LOCAL): looked up at thread start, and again once a flavor
 * is found later.
 */
static struct urcu_reader *reader_of(struct ld_thread *t, int f)
{
	/* Relaxed: see ld_flavors_lookup(). */
	unsigned gen = __atomic_load_n(&found_gen, __ATOMIC_RELAXED);
	int i;

	if (t->readers_gen != gen) {
		t->readers_gen = gen;
		for (i = 0; i < LD_NR_FLAVORS; i++) {
			char sym[32];

			snprintf(sym, sizeof(sym), "urcu_%s_reader",
				 flavors[i].name);
			t->readers[i] = flavors[i].read_ongoing ?
					dlsym(RTLD_DEFAULT, sym) : NULL;
		}
	}
	return t->readers[f];
}

void ld_flavors_thread_start(struct ld_thread *t)
{
	(void) reader_of(t, 0);
}

/*
 * Whether reader record @r, whose read_ongoing() is true, shows sections
 * rather than unlocks without a lock: such an rcu_read_unlock() in a read
 * side inlined without URCU_DEBUG borrows from the epoch and leaves the
 * nesting count at its maximum, which the flavors read as a negative depth
 * (rcu/src/gp-stall.h, urcu__section_depth()) and report as that unlock
 * when the thread waits for a grace period; the validator leaves it to
 * them.  Only this thread writes its record.
 */
static bool in_sections(const struct urcu_reader *r)
{
	return !r || (r->ctr & URCU_GP_CTR_NEST_MASK)
		     <= URCU_GP_CTR_NEST_MASK / 2;
}

unsigned ld_flavors_held(struct ld_thread *t, unsigned *in_section)
{
	/* Acquire: pairs with the release in ld_flavors_lookup(). */
	unsigned held = 0, marked = 0, left = __atomic_load_n(&found,
							      __ATOMIC_ACQUIRE);

	for (; left; left &= left - 1) {
		int i = __builtin_ctz(left);
		/* Relaxed: ordered by the acquire above. */
		int (*fn)(void) = __atomic_load_n(&flavors[i].read_ongoing,
						  __ATOMIC_RELAXED);

		if (!fn())
			continue;
		if (i == LD_FLAVOR_QSBR) {
			struct urcu_reader *r = reader_of(t, i);

			/* Online; inside a section where those are counted. */
			held |= 1U << i;
			if (r && r->nesting)
				marked |= 1U << i;
		} else if (in_sections(reader_of(t, i))) {
			held |= 1U << i;
			marked |= 1U << i;
		}
	}
	*in_section = marked;
	return held;
}
