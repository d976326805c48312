/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rcutrie-mem.c: creating and destroying a trie, the memory of its inner
 * nodes, and freeing replaced nodes after a grace period.
 *
 * Inner nodes come from the caller's struct cds_trie_alloc when one was
 * given, else from the library's allocation layer (jemalloc when built
 * with it), aligned to TRIE_ALIGN for their slot tags; this file is the
 * only one that calls either.
 *
 * Deferred freeing.  A writer that replaces or removes an inner node
 * (I5) marks it obsolete and hands it to cds__trie_retire(), inside its
 * read-side section.  Retired nodes are chained through their lock word
 * (which keeps TRIE_OBSOLETE set, so that a writer still spinning on it
 * sees it obsolete; readers never read it) on a per-trie list.  One
 * rcu_head per trie is queued with the flavor's call_rcu at a time: when
 * it is idle, a retire moves the list to "inflight" and queues it; nodes
 * retired meanwhile wait on "pending".  The callback frees "inflight"
 * (every node on it was retired before the call_rcu, so its grace period
 * has passed: no reader that could reach it is left) and, if nodes are
 * pending, moves them to "inflight" and queues the head again from the
 * callback, which starts their grace period after their retirement.  The
 * trie thus needs no memory to free memory, and an update never fails
 * for that reason.
 *
 * Every call_rcu above is made under the mutex, so whoever holds it knows
 * every callback still to come is already queued.
 *
 * Destruction.  A queued head holds the trie: cds_trie_destroy() and
 * cds_trie_destroy_all() mark it "dying", queue the nodes still pending
 * with a second head (the first may be busy), and free the trie at once
 * when no head is queued; otherwise the last callback frees it after
 * the last retired node.  Neither waits, so both may run in a call_rcu
 * callback, and since everything left is queued when they return, an
 * rcu_barrier() after them waits for all of it.  A dying trie gets no
 * new retired node (its caller's contract: no call on it follows).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "rcutrie-internal.h"
#include "urcu-alloc.h"
#include "urcu-export.h"

/* The trie itself: its root line apart from the reclamation state. */
#define TRIE_STRUCT_ALIGN	CAA_CACHE_LINE_SIZE

/* Debug builds poison freed inner nodes with this byte (not a type). */
#define POISON_BYTE	0xa5

static void *mem_alloc(const struct cds_trie_alloc *alloc, size_t size,
		       size_t align)
{
	void *p;

	if (!alloc->malloc)
		return urcu__alloc(size, align);
	p = alloc->malloc(alloc->state, size);
	if (p && ((uintptr_t) p & (CDS_TRIE_ALLOC_ALIGN - 1))) {
		/* Unusable for tagged slots: refuse it, as out of memory. */
		cds__trie_misuse("cds_trie_alloc", "malloc returned memory "
				 "not aligned to CDS_TRIE_ALLOC_ALIGN");
		alloc->free(alloc->state, p, size);
		return NULL;
	}
	return p ? memset(p, 0, size) : NULL;
}

static void mem_free(const struct cds_trie_alloc *alloc, void *p, size_t size,
		     size_t align)
{
	if (!alloc->malloc)
		urcu__free(p, size, align);
	else
		alloc->free(alloc->state, p, size);
}

struct trie_inner *cds__trie_inner_new(struct cds_trie *trie, unsigned int type,
				       uint32_t depth, uint32_t prefix_len)
{
	struct trie_inner *n = mem_alloc(&trie->alloc,
			cds__trie_inner_size(type, depth, prefix_len), TRIE_ALIGN);

	if (!n)
		return NULL;
	/* Plain stores: private until published (I5). */
	n->type = (uint8_t) type;
	n->depth = depth;
	n->prefix_len = prefix_len;
	return n;
}

static void inner_free(const struct cds_trie_alloc *alloc, struct trie_inner *n)
{
	size_t size = cds__trie_inner_size(n->type, n->depth, n->prefix_len);

#ifdef URCU_DEBUG
	/* A reader reaching it now trips check_inner(). */
	memset(n, POISON_BYTE, size);
#endif
	mem_free(alloc, n, size, TRIE_ALIGN);
}

void cds__trie_inner_free_now(struct cds_trie *trie, struct trie_inner *n)
{
	inner_free(&trie->alloc, n);
}

/* The next node of a retired list (file comment). */
static struct trie_inner *retired_next(const struct trie_inner *n)
{
	/* Relaxed: written under the reclamation mutex, read under it or
	 * after it handed the list over. */
	uintptr_t v = __atomic_load_n(&n->lock, __ATOMIC_RELAXED);

	return (struct trie_inner *) (v & ~(TRIE_OBSOLETE | TRIE_LOCKED));
}

static void set_retired_next(struct trie_inner *n, struct trie_inner *next)
{
	/*
	 * Relaxed: a writer may still be reading the lock word; it sees
	 * TRIE_OBSOLETE either way and gives up on the node.
	 */
	__atomic_store_n(&n->lock, (uintptr_t) next | TRIE_OBSOLETE,
			 __ATOMIC_RELAXED);
}

static void free_list(struct cds_trie *trie, struct trie_inner *n)
{
	struct trie_inner *next;

	for (; n; n = next) {
		next = retired_next(n);
		inner_free(&trie->alloc, n);
	}
}

static void free_trie(struct cds_trie *trie)
{
	struct cds_trie_alloc alloc = trie->alloc;

	pthread_mutex_destroy(&trie->reclaim.lock);
	mem_free(&alloc, trie, sizeof(*trie), TRIE_STRUCT_ALIGN);
}

/* Whether a dying trie's last callback has run; under the mutex. */
static bool reclaim_done(const struct trie_reclaim *r)
{
	return r->dying && !r->queued && !r->final_queued;
}

static void reclaim_cb(struct rcu_head *head)
{
	struct cds_trie *trie = caa_container_of(head, struct cds_trie,
						 reclaim.head);
	struct trie_reclaim *r = &trie->reclaim;
	struct trie_inner *done;
	bool last;

	pthread_mutex_lock(&r->lock);
	done = r->inflight;
	r->inflight = NULL;
	pthread_mutex_unlock(&r->lock);
	free_list(trie, done);

	pthread_mutex_lock(&r->lock);
	/* A dying trie's pending nodes went to the final head (release()). */
	r->inflight = r->pending;
	r->pending = NULL;
	r->queued = r->inflight != NULL;
	/*
	 * Queued under the mutex, so that release() finds every callback
	 * still to come already queued: an rcu_barrier() after the trie's
	 * destruction then waits for them all.
	 */
	if (r->queued)
		trie->flavor->update_call_rcu(&r->head, reclaim_cb);
	last = reclaim_done(r);
	/* Unless last, the last touch of the trie: destroy may free it next. */
	pthread_mutex_unlock(&r->lock);
	if (last)
		free_trie(trie);
}

/* The nodes retired before a trie's destruction that no head carried. */
static void final_cb(struct rcu_head *head)
{
	struct cds_trie *trie = caa_container_of(head, struct cds_trie,
						 reclaim.final_head);
	struct trie_reclaim *r = &trie->reclaim;
	struct trie_inner *done;
	bool last;

	pthread_mutex_lock(&r->lock);
	done = r->final;
	r->final = NULL;
	pthread_mutex_unlock(&r->lock);
	/*
	 * Still marked queued while it frees: a reclaim_cb() running on
	 * another call_rcu worker meanwhile cannot free the trie (and the
	 * allocator free_list() uses) under it.
	 */
	free_list(trie, done);

	pthread_mutex_lock(&r->lock);
	r->final_queued = false;
	last = reclaim_done(r);
	/* Unless last, the last touch of the trie: reclaim_cb may free it. */
	pthread_mutex_unlock(&r->lock);
	if (last)
		free_trie(trie);
}

void cds__trie_retire(struct cds_trie *trie, struct trie_inner *n)
{
	struct trie_reclaim *r = &trie->reclaim;

	pthread_mutex_lock(&r->lock);
	set_retired_next(n, r->pending);
	r->pending = n;
	if (!r->queued) {
		r->queued = true;
		r->inflight = r->pending;
		r->pending = NULL;
		/* Under the mutex: see reclaim_cb(). */
		trie->flavor->update_call_rcu(&r->head, reclaim_cb);
	}
	pthread_mutex_unlock(&r->lock);
}

void cds__trie_misuse(const char *what, const char *msg)
{
#ifdef URCU_DEBUG
	fprintf(stderr, "urcu: %s: %s\n", what, msg);
	abort();
#else
	(void) what;
	(void) msg;
#endif
}

#ifdef URCU_DEBUG
__thread unsigned long cds__trie_descents;
#endif

/* Private: tests only (rcutrie-internal.h); 0 in release builds. */
URCU_PRIVATE_API unsigned long cds__trie_debug_descents(void)
{
#ifdef URCU_DEBUG
	return cds__trie_descents;
#else
	return 0;
#endif
}

#ifdef URCU_DEBUG
void cds__trie_check_reader_debug(const struct cds_trie *trie, const char *what)
{
	if (!trie->flavor->read_ongoing())
		cds__trie_misuse(what, "called outside a read-side critical "
				 "section of the trie's flavor");
}
#endif

URCU_API struct cds_trie *cds_trie_new(const struct rcu_flavor_struct *flavor,
				       const struct cds_trie_alloc *alloc)
{
	struct cds_trie_alloc none = { NULL, NULL, NULL };
	struct cds_trie *trie;

	if (!flavor || (alloc && (!alloc->malloc || !alloc->free))) {
		errno = EINVAL;
		return NULL;
	}
	if (!alloc)
		alloc = &none;
	trie = mem_alloc(alloc, sizeof(*trie), TRIE_STRUCT_ALIGN);
	if (!trie) {
		errno = ENOMEM;
		return NULL;
	}
	trie->flavor = flavor;
	trie->alloc = *alloc;
	pthread_mutex_init(&trie->reclaim.lock, NULL);
	return trie;
}

/*
 * Frees @trie, which holds no node: now, or from the last reclamation
 * callback (file comment).  Nodes retired but not yet queued go with the
 * final head, queued here, so that every callback still to come is
 * queued when the caller returns.
 */
static void release(struct cds_trie *trie)
{
	struct trie_reclaim *r = &trie->reclaim;
	bool last;

	pthread_mutex_lock(&r->lock);
	r->dying = true;
	if (r->pending) {
		r->final = r->pending;
		r->pending = NULL;
		r->final_queued = true;
		trie->flavor->update_call_rcu(&r->final_head, final_cb);
	}
	last = reclaim_done(r);
	pthread_mutex_unlock(&r->lock);
	if (last)
		free_trie(trie);
}

URCU_API int cds_trie_destroy(struct cds_trie *trie)
{
	if (!trie)
		return -EINVAL;
	/* Relaxed: no other call runs (caller's contract). */
	if (__atomic_load_n(&trie->root, __ATOMIC_RELAXED))
		return -EBUSY;
	release(trie);
	return 0;
}

/*
 * Hands the caller's nodes of the chain in leaf slot @s to @free_node,
 * each after reading its successor (the callback may free it).
 */
static void free_chain(uintptr_t s, void (*free_node)(struct cds_trie_node *,
						      void *), void *priv)
{
	struct cds_trie_node *x, *next;

	for (x = slot_leaf(s); x; x = next) {
		next = x->next;
		if (free_node)
			free_node(x, priv);
	}
}

URCU_API int cds_trie_destroy_all(struct cds_trie *trie,
		void (*free_node)(struct cds_trie_node *node, void *priv),
		void *priv)
{
	struct trie_inner *todo = NULL, *n;
	const uintptr_t *child;
	unsigned int i, nr;
	uintptr_t s;

	if (!trie)
		return -EINVAL;
	/*
	 * Plain accesses from here on: no reader or updater can reach the
	 * trie any more (the caller's contract), so it is ours alone.  The
	 * nodes still to visit are chained through their lock words, so
	 * that neither memory nor recursion is needed, however deep.
	 */
	s = trie->root;
	trie->root = 0;
	for (;;) {
		if (s && slot_is_leaf(s)) {
			free_chain(s, free_node, priv);
		} else if (s) {
			n = slot_inner(s);
			n->lock = (uintptr_t) todo;
			todo = n;
		}
		if (!todo)
			break;
		/* Visit the next node: queue its entries, then free it. */
		n = todo;
		todo = (struct trie_inner *) n->lock;
		if (n->end)
			free_chain(n->end, free_node, priv);
		switch (n->type) {
		case TRIE_N4:
		case TRIE_N15: {
			struct small_view v;

			small_view_of(n, n->type, &v);
			child = small_children(n, n->type);
			nr = v.nr;
			break;
		}
		case TRIE_NAME:
			child = ((struct trie_bodyname *) inner_body(n))->child;
			nr = TRIE_NAME_SLOTS;
			break;
		case TRIE_N40:
			child = ((struct trie_body40 *) inner_body(n))->child;
			nr = n->nr_used;
			break;
		default:
			child = ((struct trie_body256 *) inner_body(n))->child;
			nr = 256;
			break;
		}
		for (i = 0; i < nr; i++) {
			s = child[i];
			if (!s)
				continue;
			if (slot_is_leaf(s)) {
				free_chain(s, free_node, priv);
			} else {
				slot_inner(s)->lock = (uintptr_t) todo;
				todo = slot_inner(s);
			}
		}
		s = 0;
		inner_free(&trie->alloc, n);
	}
	release(trie);
	return 0;
}
