/*
 * rcutrie-mem.c: creating and destroying a trie, the memory of its inner
 * nodes, and freeing replaced nodes after a grace period.
 *
 * Inner nodes come from the caller's struct cds_trie_alloc when one was
 * given, else from the library's allocation layer (jemalloc when built
 * with it); this file is the only one that calls either.
 *
 * Deferred freeing.  A writer that replaces or removes an inner node
 * (I5) marks it obsolete and hands it to cds__trie_retire(), inside its
 * read-side section.  Retired nodes are chained through retire_next (a
 * field no reader uses) on a per-trie list.  One rcu_head per trie is
 * queued with the flavor's call_rcu at a time: when it is idle, a retire
 * moves the list to "inflight" and queues it; nodes retired meanwhile
 * wait on "pending".  The callback frees "inflight" (every node on it
 * was retired before the call_rcu, so its grace period has passed: no
 * reader that could reach it is left) and, if nodes are pending, moves
 * them to "inflight" and queues the head again from the callback, which
 * starts their grace period after their retirement.  The trie thus needs
 * no memory to free memory, and an update never fails for that reason.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "rcutrie-internal.h"
#include "urcu-alloc.h"
#include "urcu-export.h"

#define TRIE_ALIGN	CAA_CACHE_LINE_SIZE
#define INNER_ALIGN	sizeof(void *)

/* Debug builds poison freed inner nodes with this byte (not a type). */
#define POISON_BYTE	0xa5

static void *mem_alloc(const struct cds_trie_alloc *alloc, size_t size,
		       size_t align)
{
	void *p;

	if (!alloc->malloc)
		return urcu__alloc(size, align);
	p = alloc->malloc(alloc->state, size);
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
			cds__trie_inner_size(type, prefix_len), INNER_ALIGN);

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
	size_t size = cds__trie_inner_size(n->type, n->prefix_len);

#ifdef URCU_DEBUG
	/* A reader reaching it now trips check_inner(). */
	memset(n, POISON_BYTE, size);
#endif
	mem_free(alloc, n, size, INNER_ALIGN);
}

void cds__trie_inner_free_now(struct cds_trie *trie, struct trie_inner *n)
{
	inner_free(&trie->alloc, n);
}

static void free_list(struct cds_trie *trie, struct trie_inner *n)
{
	struct trie_inner *next;

	for (; n; n = next) {
		next = n->retire_next;
		inner_free(&trie->alloc, n);
	}
}

static void reclaim_cb(struct rcu_head *head)
{
	struct cds_trie *trie = caa_container_of(head, struct cds_trie,
						 reclaim.head);
	struct trie_reclaim *r = &trie->reclaim;
	struct trie_inner *done;
	bool again;

	pthread_mutex_lock(&r->lock);
	done = r->inflight;
	r->inflight = NULL;
	pthread_mutex_unlock(&r->lock);
	free_list(trie, done);

	pthread_mutex_lock(&r->lock);
	r->inflight = r->pending;
	r->pending = NULL;
	again = r->inflight != NULL;
	/* Last touch of the trie when idle: destroy may free it next. */
	r->queued = again;
	pthread_mutex_unlock(&r->lock);
	if (again)
		trie->flavor->update_call_rcu(&r->head, reclaim_cb);
}

void cds__trie_retire(struct cds_trie *trie, struct trie_inner *n)
{
	struct trie_reclaim *r = &trie->reclaim;
	bool start;

	pthread_mutex_lock(&r->lock);
	n->retire_next = r->pending;
	r->pending = n;
	start = !r->queued;
	if (start) {
		r->queued = true;
		r->inflight = r->pending;
		r->pending = NULL;
	}
	pthread_mutex_unlock(&r->lock);
	/* queued keeps everyone else off the head until the callback. */
	if (start)
		trie->flavor->update_call_rcu(&r->head, reclaim_cb);
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
	trie = mem_alloc(alloc, sizeof(*trie), TRIE_ALIGN);
	if (!trie) {
		errno = ENOMEM;
		return NULL;
	}
	trie->flavor = flavor;
	trie->alloc = *alloc;
	pthread_mutex_init(&trie->reclaim.lock, NULL);
	return trie;
}

URCU_API int cds_trie_destroy(struct cds_trie *trie)
{
	struct cds_trie_alloc alloc;
	bool queued;

	if (!trie)
		return -EINVAL;
	/* Relaxed: no other call runs (caller's contract). */
	if (__atomic_load_n(&trie->root, __ATOMIC_RELAXED))
		return -EBUSY;
	/* Wait until the last replaced node is freed (file comment). */
	for (;;) {
		pthread_mutex_lock(&trie->reclaim.lock);
		queued = trie->reclaim.queued;
		pthread_mutex_unlock(&trie->reclaim.lock);
		if (!queued)
			break;
		trie->flavor->barrier();
	}
	pthread_mutex_destroy(&trie->reclaim.lock);
	alloc = trie->alloc;
	mem_free(&alloc, trie, sizeof(*trie), TRIE_ALIGN);
	return 0;
}
