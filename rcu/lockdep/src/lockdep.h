/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lockdep.h: what the parts of the lock validator share (liburcu-lockdep).
 *
 * The model (docs/lockdep.md):
 *  - Every lock belongs to a class (class.c).  A thread's held locks are a
 *    stack in its thread-local state (thread.c).
 *  - Each acquisition that may wait adds an edge "class of each held lock
 *    -> class acquired" to one graph shared by every thread (graph.c); a
 *    new edge that closes a cycle is a possible deadlock, reported once.
 *  - A read-side critical section of RCU flavor F counts as holding the
 *    pseudo-lock rcu_read(F) (flavors.c: asked of the flavor at every
 *    acquisition, since the read side is inline); synchronize_rcu() and
 *    the other calls that wait for a grace period wait for rcu_read(F).
 *
 * Edges carry how their ends were held and taken, as in the kernel's
 * lockdep: the "from" lock held Exclusive or Shared, the "to" lock taken
 * Recursive-read (waits only for an exclusive holder) or Not.  A cycle is
 * a deadlock only if no lock in it is both reached by an R edge and left
 * by an S edge: two shared holders of a recursive-read lock do not wait
 * for each other.
 *
 * Nothing here takes a lock the validator tracks.  Its own state is
 * guarded by raw futex locks (rawlock.h); a per-thread guard makes every
 * interposed call made from inside the validator (by malloc, the
 * unwinder, libdw, ...) go straight to the real function.
 */
#ifndef URCU_LOCKDEP_SRC_LOCKDEP_H
#define URCU_LOCKDEP_SRC_LOCKDEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define LD_HIDDEN	__attribute__((visibility("hidden")))
#define LD_API		__attribute__((visibility("default")))

/* Class numbers are 1 .. LD_MAX_CLASSES - 1; 0 means none. */
#define LD_MAX_CLASSES		(1U << 16)
/* Locks one thread may hold at once (the kernel's MAX_LOCK_DEPTH). */
#define LD_MAX_HELD		48
/* Frames kept of the backtrace of the acquisition that added an edge. */
#define LD_STACK_DEPTH		16

/* Kinds of lock class. */
enum ld_kind {
	LD_MUTEX,
	LD_RWLOCK,
	LD_SPIN,
	LD_USER,		/* urcu_lockdep_acquire() with a user class */
	LD_RCU_READ,		/* rcu_read(F) */
	LD_RCU_CALLBACK,	/* rcu_callback(F) */
	LD_RCU_DEFER,		/* rcu_defer(F) */
};

/* What identifies a class (class.c). */
enum ld_key_type {
	LD_KEY_INIT_SITE,	/* pthread_*_init() call site, 2 frames */
	LD_KEY_FIRST_USE,	/* first acquisition site, 2 frames */
	LD_KEY_STATIC,		/* the address of a lock in static storage */
	LD_KEY_NAME,		/* a name: annotations and pseudo-locks */
	LD_KEY_FORK,		/* a class held across fork(), in the child */
};

struct ld_edge;

struct ld_class {
	uint32_t id;
	uint8_t kind;		/* enum ld_kind */
	uint8_t key_type;	/* enum ld_key_type */
	int8_t flavor;		/* index in flavors.c for RCU kinds, else -1 */
	const char *name;	/* LD_KEY_NAME */
	uintptr_t key[2];	/* sites, or the address */
	/* Edges from this class, newest first (graph lock). */
	struct ld_edge *out;
	struct ld_class *hash_next;	/* class.c's lookup table */
};

/* Flags of an acquisition (public URCU_LOCKDEP_* values, same bits). */
#define LD_TRY			(1U << 0)
#define LD_READ			(1U << 1)
#define LD_READ_RECURSIVE	(1U << 2)
#define LD_RECURSIVE		(1U << 3)
#define LD_SHARED		(LD_READ | LD_READ_RECURSIVE)
/* Internal: the acquisition is a wait that takes nothing (ld_wait()). */
#define LD_WAIT			(1U << 8)

/* Dependency types (bit masks): from-lock Exclusive/Shared, to-lock R/N. */
#define LD_DEP_EN	1U
#define LD_DEP_ER	2U
#define LD_DEP_SN	4U
#define LD_DEP_SR	8U
#define LD_DEP_N	(LD_DEP_EN | LD_DEP_SN)
#define LD_DEP_R	(LD_DEP_ER | LD_DEP_SR)
#define LD_DEP_E	(LD_DEP_EN | LD_DEP_ER)
#define LD_DEP_S	(LD_DEP_SN | LD_DEP_SR)

/* Where and by whom something happened, for reports. */
struct ld_context {
	uint32_t thread;	/* validator's thread number */
	pid_t tid;
	uintptr_t start_fn;	/* the thread's start routine, if known */
	const char *op;		/* "pthread_mutex_lock()", "synchronize_rcu()" */
	bool wait;		/* a wait (urcu_lockdep_wait()), not a lock */
	uintptr_t held_ip;	/* where the "from" lock was taken, if known */
	const char *held_op;
	unsigned depth;
	uintptr_t stack[LD_STACK_DEPTH];
};

struct ld_edge {
	uint32_t from, to;
	uint32_t types;			/* LD_DEP_* seen (graph lock) */
	struct ld_edge *next_out;	/* in from's list */
	uint32_t first_type;
	struct ld_context seen;		/* where it was first seen */
};

/* One lock held by a thread. */
struct ld_held {
	const void *inst;	/* the lock instance */
	uint32_t cls;
	uint32_t flags;		/* LD_* of the acquisition */
	uint32_t count;		/* recursive acquisitions */
	uintptr_t ip;		/* call site of the acquisition */
	const char *op;
};

/* The RCU flavors (flavors.c). */
enum {
	LD_FLAVOR_MEMB,
	LD_FLAVOR_MB,
	LD_FLAVOR_SIGNAL,
	LD_FLAVOR_QSBR,
	LD_FLAVOR_BP,
	LD_NR_FLAVORS
};

/* Per-thread state (thread.c). */
struct ld_thread {
	int guard;		/* inside the validator: calls pass through */
	uint32_t num;		/* 0 until the thread's first event */
	pid_t tid;
	uintptr_t start_fn;
	unsigned n_held;
	bool overflow_reported;
	/* This thread's reader record of each flavor (flavors.c). */
	void *readers[LD_NR_FLAVORS];
	unsigned readers_gen;
	struct ld_held held[LD_MAX_HELD];
};

extern __thread struct ld_thread ld_self
	__attribute__((tls_model("initial-exec"))) LD_HIDDEN;

/* The validator's locks (rawlock.h), in the order fork takes them. */
struct ld_rawlock;
/* Classes, the graph, the lock map (class.c, graph.c, locks.c). */
extern struct ld_rawlock ld_state_lock LD_HIDDEN;
extern struct ld_rawlock ld_arena_lock LD_HIDDEN;
extern struct ld_rawlock ld_report_lock LD_HIDDEN;

/* process.c: URCU_LOCKDEP=warn|abort|off. */
enum ld_mode { LD_MODE_WARN, LD_MODE_ABORT, LD_MODE_OFF };
extern int ld_mode_value LD_HIDDEN;
LD_HIDDEN enum ld_mode ld_mode_slow(void);
static inline enum ld_mode ld_mode(void)
{
	/* Relaxed: see ld_mode_slow(). */
	int m = __atomic_load_n(&ld_mode_value, __ATOMIC_RELAXED);

	return __builtin_expect(m >= 0, 1) ? (enum ld_mode) m : ld_mode_slow();
}

/* True when interposed calls must only pass through. */
static inline bool ld_bypass(void)
{
	return ld_self.guard || ld_mode() == LD_MODE_OFF;
}

/* The next definition of @name (the one interposed), or abort. */
LD_HIDDEN void *ld_next(const char *name);
/* Set @var, a function pointer, to the next definition of @name once. */
#define LD_NEXT(var, name)						\
	do {								\
		/* Relaxed: every thread finds the same function. */	\
		if (!__atomic_load_n(&(var), __ATOMIC_RELAXED))		\
			__atomic_store_n(&(var),			\
					 (__typeof__(var)) ld_next(name), \
					 __ATOMIC_RELAXED);		\
	} while (0)

/* thread.c */
/* Enter the validator: set the guard; number the thread on first use. */
LD_HIDDEN struct ld_thread *ld_thread_enter(void);
static inline void ld_thread_leave(struct ld_thread *t)
{
	t->guard = 0;
}
/* Fill @c for @t doing @op, called from @ip (0: no backtrace). */
LD_HIDDEN void ld_thread_context(struct ld_thread *t, struct ld_context *c,
				 const char *op, uintptr_t ip);
LD_HIDDEN void ld_thread_fork_child(void);

/* arena.c: memory that is never freed, zeroed. */
LD_HIDDEN void *ld_alloc(size_t size);
LD_HIDDEN const char *ld_strdup(const char *s);
/* Zeroed pages, reserved at once and touched as used. */
LD_HIDDEN void *ld_map(size_t size);

/* class.c */
LD_HIDDEN struct ld_class *ld_class(uint32_t id);
/* Takes ld_state_lock. */
LD_HIDDEN uint32_t ld_class_by_name(const char *name, enum ld_kind kind,
				    int flavor);
/* These two: ld_state_lock held. */
LD_HIDDEN uint32_t ld_class_by_site(enum ld_kind kind,
				    enum ld_key_type type, uintptr_t site,
				    uintptr_t caller);
LD_HIDDEN uint32_t ld_class_static(enum ld_kind kind, const void *addr);
/* The class of @cls as held across fork(), for the child.  Takes the lock. */
LD_HIDDEN uint32_t ld_class_forked(uint32_t cls);
LD_HIDDEN const char *ld_kind_name(enum ld_kind kind);

/* locks.c: the class of a pthread lock instance. */
LD_HIDDEN uint32_t ld_lock_class(enum ld_kind kind, void *lock,
				 uintptr_t ip);
LD_HIDDEN void ld_lock_init(enum ld_kind kind, void *lock, uintptr_t ip);
LD_HIDDEN void ld_lock_destroy(enum ld_kind kind, void *lock);
LD_HIDDEN void ld_locks_scan_objects(void);

/* graph.c */
LD_HIDDEN bool ld_edge_known(uint32_t from, uint32_t to, uint32_t type);
LD_HIDDEN void ld_edge_add(uint32_t from, uint32_t to, uint32_t type,
			   const struct ld_context *ctx);

/* flavors.c */
LD_HIDDEN void ld_flavors_init(void);
/* Look for the flavors not found yet in @scope (a dlopen() handle). */
LD_HIDDEN void ld_flavors_lookup(void *scope);
/* ... and in the object that holds @addr. */
LD_HIDDEN void ld_flavors_lookup_object(const void *addr);
LD_HIDDEN void ld_flavors_thread_start(struct ld_thread *t);
LD_HIDDEN const char *ld_flavor_name(int flavor);
LD_HIDDEN uint32_t ld_flavor_read_class(int flavor);
LD_HIDDEN uint32_t ld_flavor_defer_class(int flavor);
LD_HIDDEN bool ld_flavor_is_qsbr(int flavor);
/*
 * The flavors whose rcu_read the calling thread holds (a bit per flavor);
 * @in_section gets those it is inside a marked read-side section of
 * (QSBR: between rcu_read_lock() and rcu_read_unlock(), where those are
 * tracked; the others: the same as held).
 */
LD_HIDDEN unsigned ld_flavors_held(struct ld_thread *t, unsigned *in_section);

/* acquire.c: the checks behind every interposed call and annotation. */
/* Before taking @inst (class @cls) with LD_* @flags, called from @ip. */
LD_HIDDEN void ld_acquire(struct ld_thread *t, const void *inst,
			  uint32_t cls, unsigned flags, const char *op,
			  uintptr_t ip);
/* After taking it. */
LD_HIDDEN void ld_acquired(struct ld_thread *t, const void *inst,
			   uint32_t cls, unsigned flags, const char *op,
			   uintptr_t ip);
/* Before releasing it. */
LD_HIDDEN void ld_release(struct ld_thread *t, const void *inst,
			  uint32_t cls, const char *op, uintptr_t ip);
/* Before waiting for every holder of @cls. */
LD_HIDDEN void ld_wait(struct ld_thread *t, uint32_t cls, const char *what,
		       uintptr_t ip);

/* symbolize.c */
/* Up to @max return addresses, from the caller's call at @ip outwards. */
LD_HIDDEN unsigned ld_backtrace(uintptr_t *out, unsigned max, uintptr_t ip);
LD_HIDDEN void ld_symbolize_init(void);
/* How much ld_describe_code() says; report lock held for both. */
enum ld_detail { LD_FULL, LD_SITE, LD_NAME };
LD_HIDDEN void ld_describe_code(char *buf, size_t size, uintptr_t ip,
				enum ld_detail detail);
LD_HIDDEN void ld_describe_data(char *buf, size_t size, uintptr_t addr);

/* report.c */
enum ld_misuse {
	LD_RECURSIVE_LOCK,
	LD_UNLOCK_NOT_HELD,
	LD_EXIT_HOLDING,
	LD_EXIT_IN_SECTION,
	LD_WAIT_IN_SECTION,
	LD_WAIT_HOLDING,
	LD_QSBR_BLOCKING,
	LD_HELD_OVERFLOW,
	LD_NR_MISUSE
};
/* @path: the cycle's edges, the one being added last (seen @now). */
LD_HIDDEN void ld_report_cycle(struct ld_edge **path, unsigned n,
			       const struct ld_context *now);
LD_HIDDEN void ld_report_misuse(enum ld_misuse kind, struct ld_thread *t,
				uint32_t cls, int flavor,
				const struct ld_context *now);
LD_HIDDEN unsigned long ld_report_count(void);

#endif /* URCU_LOCKDEP_SRC_LOCKDEP_H */
