/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/rcutrie.h - ordered map from byte-string keys to intrusive nodes,
 * protected by RCU: an adaptive radix tree.
 *
 * Keys are arbitrary byte strings (any byte at any position, no
 * terminator, a key may be a prefix of another), ordered as unsigned
 * bytes, a proper prefix before its extensions.  The caller embeds a
 * struct cds_trie_node in its own object, points it at the key bytes
 * (which it keeps alive, unchanged, as long as the node), and recovers
 * the object with caa_container_of().  Several nodes may hold equal keys
 * (duplicates, kept in insertion order).
 *
 * Besides exact lookups the trie answers longest-prefix queries, the
 * neighbours of any key, stored or not (<=, <, >=, >), and walks all
 * keys, a range [lo, hi) or all keys with a prefix, in both directions.
 * docs/trie.md explains the structure and states its guarantees;
 * docs/api/rcutrie.md is the per-call reference.
 *
 * Like every structure of liburcu-cds the trie includes no flavor
 * header: it is created with a `const struct rcu_flavor_struct *` and
 * calls RCU only through it, so one trie may be used from compilation
 * units built for different flavor headers.
 *
 * Rules for the caller, unless a function says otherwise:
 *   - call from a thread registered with the trie's flavor (bp: any
 *     thread), inside a read-side critical section of that flavor (QSBR:
 *     online).  Updates need that section too: they walk the trie
 *     without locks before locking the few nodes they change.  Debug
 *     builds of the library (URCU_DEBUG) abort with a message when a
 *     call that needs a section is made outside one;
 *   - pointers returned by the trie, and iterators, are valid until the
 *     read-side section ends;
 *   - a node removed by cds_trie_del(), cds_trie_replace() or
 *     cds_trie_add_replace() may still be read by concurrent readers:
 *     free it, its key, or reuse it only after a grace period (e.g.
 *     call_rcu());
 *   - any number of threads may look up, iterate and update at once.
 *     Readers take no lock and never wait; updaters lock only the nodes
 *     they change, so updates of unrelated keys proceed in parallel.
 *
 * Memory ordering: a successful update is a release of everything the
 * caller wrote before it (in particular the node and its key) to
 * whoever finds the node; queries read node pointers with the ordering
 * of rcu_dereference().  Updates are not full barriers.
 */
#ifndef _URCU_RCUTRIE_H
#define _URCU_RCUTRIE_H

#include <stddef.h>
#include <stdint.h>

#include <urcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cds_trie;
struct rcu_flavor_struct;

/* Longest key the trie accepts, in bytes. */
#define CDS_TRIE_KEY_MAX	((size_t) 0x7fffffff)

/*
 * A trie link, embedded in the caller's object.  Set it up with
 * cds_trie_node_init(); read its key with cds_trie_node_key().  The
 * fields belong to the trie while the node is in one.
 */
struct cds_trie_node {
	struct cds_trie_node *next;	/* next duplicate of the key (RCU) */
	const unsigned char *key;
	size_t key_len;
	unsigned long state;
};

/*
 * Inner nodes of a path an iterator caches.  Deeper paths work too: the
 * iterator then keeps the deepest ones and finds the others again from
 * the root, through a key (or a node's stored path) it knows passes
 * there, when it climbs above them.
 */
#define CDS_TRIE_ITER_DEPTH	32

/*
 * A position in the trie, with an optional bound: filled by the calls
 * that take one, moved by cds_trie_next() and cds_trie_prev().  Valid
 * within the read-side section that filled it.  The members are private.
 */
struct cds_trie_iter {
	struct cds_trie *trie;
	struct cds_trie_node *node;	/* where it stands, NULL: nowhere */
	/* Bound of a range or prefix walk: the caller's bytes. */
	const unsigned char *lo, *hi;
	size_t lo_len, hi_len;
	int bound;
	/* Bytes whose prefixes are the paths of the levels not cached. */
	const unsigned char *anchor;
	size_t anchor_len;
	unsigned char dropped;
	/* Cached path: inner nodes and the slot taken in each. */
	unsigned int depth, anchored;
	void *path[CDS_TRIE_ITER_DEPTH];
	short slot[CDS_TRIE_ITER_DEPTH];
};

/* Alignment of the memory a struct cds_trie_alloc's malloc returns. */
#define CDS_TRIE_ALLOC_ALIGN	64

/*
 * Caller-supplied memory for the trie's own structures (its inner nodes
 * and the trie itself; never the caller's nodes), for cds_trie_new().
 * @malloc returns memory aligned to CDS_TRIE_ALLOC_ALIGN bytes (e.g.
 * from aligned_alloc(CDS_TRIE_ALLOC_ALIGN, size)), or NULL; the trie
 * keeps tags in the low bits of pointers to its nodes, whose sizes are
 * multiples of it.  Misaligned memory is given back to @free and taken
 * as a failed allocation (debug builds abort).  @free receives the size
 * that was asked for.  @state is passed back unchanged.  Both functions
 * must be set.  They may be called from any thread that updates the trie
 * and from the flavor's call_rcu workers (several, with per-CPU or
 * per-thread call_rcu data), concurrently; @free is called after a grace
 * period for memory readers could still see.
 */
struct cds_trie_alloc {
	void *(*malloc)(void *state, size_t size);
	void (*free)(void *state, void *ptr, size_t size);
	void *state;
};

/*
 * Prepares @node to hold @key (@len bytes, at most CDS_TRIE_KEY_MAX).
 * The trie keeps the pointer, not a copy: keep the bytes alive and
 * unchanged while the node is in a trie and for a grace period after
 * its removal.  Call before adding the node the first time, or again
 * (once a grace period has passed since its removal) to reuse it.
 */
static inline
void cds_trie_node_init(struct cds_trie_node *node, const void *key,
			size_t len)
{
	node->next = NULL;
	node->key = (const unsigned char *) key;
	node->key_len = len;
	node->state = 0;
}

/* The key @node holds; its length goes to *@len. */
static inline
const void *cds_trie_node_key(const struct cds_trie_node *node, size_t *len)
{
	*len = node->key_len;
	return node->key;
}

/*
 * The next node holding the same key as @node, in insertion order, or
 * NULL.  Inside a read-side section; the load has the ordering of
 * rcu_dereference().  On a node removed meanwhile it still returns a
 * successor (or NULL), so a walk along the duplicates never fails.
 */
static inline
struct cds_trie_node *cds_trie_next_duplicate(const struct cds_trie_node *node)
{
	/* Consume: pairs with the release store that linked the next node. */
	return __atomic_load_n(&node->next, __ATOMIC_CONSUME);
}

/* The node @iter stands on, or NULL. */
static inline
struct cds_trie_node *cds_trie_iter_get_node(const struct cds_trie_iter *iter)
{
	return iter->node;
}

/* ------------------------------------------------------------------------
 * Creation and destruction.  Any thread, registered or not, outside
 * read-side sections.
 */

/*
 * Creates an empty trie protected by @flavor (&urcu_memb_flavor, ...,
 * or &rcu_flavor), whose inner nodes come from @alloc, or from the
 * library's allocator when @alloc is NULL (*@alloc is copied).  Returns
 * NULL with errno set to EINVAL (@flavor NULL, @alloc incomplete) or
 * ENOMEM.  The trie is visible to others once the caller publishes the
 * pointer (rcu_assign_pointer() or another release).
 */
extern struct cds_trie *cds_trie_new(const struct rcu_flavor_struct *flavor,
		const struct cds_trie_alloc *alloc);

/*
 * Frees an empty trie.  Returns 0; -EBUSY (nothing changed, the trie
 * remains usable) when it still holds nodes; -EINVAL when @trie is NULL.
 * No other call on the trie may run or follow.  It does not wait: inner
 * nodes still waiting for their grace period are freed by call_rcu
 * callbacks, the last of which frees the trie after them.  So it may be called
 * from a call_rcu callback, and the flavor's rcu_barrier() waits for all
 * of it.
 */
extern int cds_trie_destroy(struct cds_trie *trie);

/*
 * Frees a trie and all of its inner nodes at once, and hands each node
 * it holds (every duplicate) to @free_node (when not NULL) with @priv;
 * @free_node may free the node and its key.  Returns 0, or -EINVAL when
 * @trie is NULL.  Call it only once no thread can reach the trie any
 * more: it was unpublished and a grace period of its flavor has passed
 * since (e.g. from a call_rcu callback queued after the unpublishing),
 * and no other call on it runs or follows.  Like cds_trie_destroy(), it
 * does not wait, takes no read-side section, and may run in a call_rcu
 * callback; it needs no memory.
 */
extern int cds_trie_destroy_all(struct cds_trie *trie,
		void (*free_node)(struct cds_trie_node *node, void *priv),
		void *priv);

/*
 * Counts the nodes (duplicates included) a full walk sees.  Linear in
 * the size of the trie; exact when no update runs meanwhile.
 */
extern unsigned long cds_trie_count(struct cds_trie *trie);

/* ------------------------------------------------------------------------
 * Updates.  Inside a read-side section.  On success each is a release
 * of the caller's earlier writes to whoever finds the node.  Out of
 * memory returns -ENOMEM and leaves the trie exactly as it was.  A
 * node or key that breaks the rules (already in a trie, too long a
 * key) returns -EINVAL; debug builds abort with a message instead.
 */

/*
 * Adds @node, after any nodes already holding its key.  Returns 0,
 * -ENOMEM or -EINVAL.
 */
extern int cds_trie_add(struct cds_trie *trie, struct cds_trie_node *node);

/*
 * Adds @node unless its key is present.  Returns 0 when added; -EEXIST
 * when a node holds the key, which is then stored in *@existing (when
 * @existing is not NULL; @node was never visible and may be freed at
 * once); -ENOMEM or -EINVAL.  A trie updated only through add_unique,
 * add_replace, replace and del never holds two nodes with one key.
 */
extern int cds_trie_add_unique(struct cds_trie *trie,
		struct cds_trie_node *node, struct cds_trie_node **existing);

/*
 * Adds @node, taking the place of the first node holding its key when
 * there is one.  Stores the node replaced, or NULL, in *@replaced (when
 * not NULL): free it after a grace period.  Readers see exactly one of
 * the two at every moment.  Returns 0, -ENOMEM or -EINVAL.
 */
extern int cds_trie_add_replace(struct cds_trie *trie,
		struct cds_trie_node *node, struct cds_trie_node **replaced);

/*
 * Puts @new_node in the place of @old_node, which must be in the trie
 * and hold an equal key; the duplicates after it stay.  Readers see
 * exactly one of the two at every moment.  Returns 0; -ENOENT when
 * @old_node is not (or no longer) in the trie; -EINVAL when the keys
 * differ or @new_node is in a trie.  Needs no memory.
 */
extern int cds_trie_replace(struct cds_trie *trie,
		struct cds_trie_node *old_node, struct cds_trie_node *new_node);

/*
 * Removes @node.  Returns 0, or -ENOENT when it is not (or no longer) in
 * the trie; of two threads removing one node exactly one gets 0.  Once
 * it returns, readers that start later cannot reach the node; free it
 * after a grace period.  Never fails for lack of memory (the trie then
 * keeps a node it would have merged or shrunk).
 */
extern int cds_trie_del(struct cds_trie *trie, struct cds_trie_node *node);

/*
 * Nonzero when @node was removed from its trie (and not added again);
 * zero for a node in a trie or never added.
 */
extern int cds_trie_is_node_deleted(const struct cds_trie_node *node);

/* ------------------------------------------------------------------------
 * Queries.  Inside a read-side section.  They never write to the trie,
 * never block and never retry: each walks down once and, for the
 * ordered ones, back up along the path it cached.  Each returns the
 * first node of the key it finds (its duplicates follow through
 * cds_trie_next_duplicate() or cds_trie_next()), or NULL.  @key may be
 * NULL when @len is 0.  A query finds every key present during its whole
 * call (added before the call started and not removed before it ended);
 * what it returns was present at some moment during the call.  When an
 * iterator is given (it may be NULL), it is left on the node returned,
 * ready for cds_trie_next() / cds_trie_prev().
 */

/* The node holding exactly @key. */
extern struct cds_trie_node *cds_trie_lookup(struct cds_trie *trie,
		const void *key, size_t len);

/*
 * The node holding the longest key that is a prefix of @key (@key itself
 * included): the deepest stored key on @key's path.
 */
extern struct cds_trie_node *cds_trie_lookup_longest_prefix(
		struct cds_trie *trie, const void *key, size_t len);

/*
 * Neighbours of @key, stored or not: the greatest key <= @key (le), <
 * @key (lt), the smallest key >= @key (ge), > @key (gt).  No key present
 * during the whole call lies strictly between @key and the answer.
 */
extern struct cds_trie_node *cds_trie_lookup_le(struct cds_trie *trie,
		const void *key, size_t len, struct cds_trie_iter *iter);
extern struct cds_trie_node *cds_trie_lookup_lt(struct cds_trie *trie,
		const void *key, size_t len, struct cds_trie_iter *iter);
extern struct cds_trie_node *cds_trie_lookup_ge(struct cds_trie *trie,
		const void *key, size_t len, struct cds_trie_iter *iter);
extern struct cds_trie_node *cds_trie_lookup_gt(struct cds_trie *trie,
		const void *key, size_t len, struct cds_trie_iter *iter);

/* ------------------------------------------------------------------------
 * Walks.  Inside one read-side section from the call that starts the
 * walk to the last use of the iterator and of the nodes it returned.
 * Keys come in strictly increasing order (cds_trie_next()) or strictly
 * decreasing order (cds_trie_prev()); the duplicates of a key come
 * together, in insertion order, in both directions.  Every node present
 * during the whole walk is returned exactly once; nodes added or
 * removed meanwhile may or may not be.  The body of a walk may remove
 * the node it stands on.  To go on in a later read-side section, copy
 * the key and restart with cds_trie_lookup_gt() (or _lt()).
 */

/* The first node (smallest key) / the last node (greatest key). */
extern struct cds_trie_node *cds_trie_first(struct cds_trie *trie,
		struct cds_trie_iter *iter);
extern struct cds_trie_node *cds_trie_last(struct cds_trie *trie,
		struct cds_trie_iter *iter);

/*
 * Moves @iter to the next node (the next duplicate, else the first node
 * of the next key) / to the previous key's first node (or the next
 * duplicate of the current key), within the iterator's bound; returns
 * it, or NULL (and the iterator then stands nowhere) at the end.  On an
 * iterator that stands nowhere it returns NULL.
 */
extern struct cds_trie_node *cds_trie_next(struct cds_trie *trie,
		struct cds_trie_iter *iter);
extern struct cds_trie_node *cds_trie_prev(struct cds_trie *trie,
		struct cds_trie_iter *iter);

/*
 * Starts a walk of the keys in [@lo, @hi): returns the first node of
 * the smallest key >= @lo below @hi, or NULL.  @hi NULL (with @hi_len
 * 0) means no upper bound.  cds_trie_next() and cds_trie_prev() then
 * stay within the range.  The bounds are not copied: keep @lo and @hi
 * alive and unchanged while the iterator is used.
 */
extern struct cds_trie_node *cds_trie_range_first(struct cds_trie *trie,
		const void *lo, size_t lo_len, const void *hi, size_t hi_len,
		struct cds_trie_iter *iter);

/*
 * Starts a walk of the keys that begin with @prefix (@prefix itself
 * included): returns the first, or NULL.  cds_trie_next() and
 * cds_trie_prev() then stay among them.  Keep @prefix alive and
 * unchanged while the iterator is used.
 */
extern struct cds_trie_node *cds_trie_prefix_first(struct cds_trie *trie,
		const void *prefix, size_t len, struct cds_trie_iter *iter);

/* Loops over every node in increasing key order. */
#define cds_trie_for_each(trie, iter, node)				\
	for (node = cds_trie_first(trie, iter); node != NULL;		\
		node = cds_trie_next(trie, iter))

/* Loops over every node in decreasing key order. */
#define cds_trie_for_each_reverse(trie, iter, node)			\
	for (node = cds_trie_last(trie, iter); node != NULL;		\
		node = cds_trie_prev(trie, iter))

/* Loops over the nodes whose keys lie in [lo, hi). */
#define cds_trie_for_each_range(trie, lo, lo_len, hi, hi_len, iter, node) \
	for (node = cds_trie_range_first(trie, lo, lo_len, hi, hi_len, iter); \
		node != NULL;						\
		node = cds_trie_next(trie, iter))

/* Loops over the nodes whose keys begin with prefix. */
#define cds_trie_for_each_prefix(trie, prefix, len, iter, node)	\
	for (node = cds_trie_prefix_first(trie, prefix, len, iter);	\
		node != NULL;						\
		node = cds_trie_next(trie, iter))

/* Loops over @first and the nodes after it holding the same key. */
#define cds_trie_for_each_duplicate(first, node)			\
	for (node = (first); node != NULL;				\
		node = cds_trie_next_duplicate(node))

/* The address @offset bytes before @node, or NULL for a NULL @node. */
static inline void *cds_trie__entry(struct cds_trie_node *node, size_t offset)
{
	return node ? (void *) ((char *) node - offset) : NULL;
}

/*
 * The caller's object of type @type whose field @member is @node, or
 * NULL when @node is NULL.
 */
#define cds_trie_entry(node, type, member)				\
	((type *) cds_trie__entry(node, offsetof(type, member)))

/* As above, over the caller's objects; @member names their node field. */
#define cds_trie_for_each_entry(trie, iter, pos, member)		\
	for (pos = cds_trie_entry(cds_trie_first(trie, iter),		\
				  __typeof__(*(pos)), member);		\
		pos != NULL;						\
		pos = cds_trie_entry(cds_trie_next(trie, iter),		\
				     __typeof__(*(pos)), member))

#define cds_trie_for_each_entry_reverse(trie, iter, pos, member)	\
	for (pos = cds_trie_entry(cds_trie_last(trie, iter),		\
				  __typeof__(*(pos)), member);		\
		pos != NULL;						\
		pos = cds_trie_entry(cds_trie_prev(trie, iter),		\
				     __typeof__(*(pos)), member))

#define cds_trie_for_each_entry_range(trie, lo, lo_len, hi, hi_len,	\
				      iter, pos, member)		\
	for (pos = cds_trie_entry(cds_trie_range_first(trie, lo, lo_len, \
						       hi, hi_len, iter), \
				  __typeof__(*(pos)), member);		\
		pos != NULL;						\
		pos = cds_trie_entry(cds_trie_next(trie, iter),		\
				     __typeof__(*(pos)), member))

#define cds_trie_for_each_entry_prefix(trie, prefix, len, iter, pos, member) \
	for (pos = cds_trie_entry(cds_trie_prefix_first(trie, prefix, len, \
							iter),		\
				  __typeof__(*(pos)), member);		\
		pos != NULL;						\
		pos = cds_trie_entry(cds_trie_next(trie, iter),		\
				     __typeof__(*(pos)), member))

/* ------------------------------------------------------------------------
 * Integer keys: fixed-width integers encoded big-endian, so that key
 * order is integer order.  Signed values have their sign bit flipped
 * (negative before positive).  @buf holds 2, 4 or 8 bytes.
 */

/*
 * Written out byte by byte, not as loops: compilers turn these forms into
 * one load or store and a byte swap (a query key costs two instructions).
 */
static inline void cds_trie_key_encode_u64(unsigned char buf[8], uint64_t v)
{
	buf[0] = (unsigned char) (v >> 56);
	buf[1] = (unsigned char) (v >> 48);
	buf[2] = (unsigned char) (v >> 40);
	buf[3] = (unsigned char) (v >> 32);
	buf[4] = (unsigned char) (v >> 24);
	buf[5] = (unsigned char) (v >> 16);
	buf[6] = (unsigned char) (v >> 8);
	buf[7] = (unsigned char) v;
}

static inline uint64_t cds_trie_key_decode_u64(const unsigned char buf[8])
{
	return ((uint64_t) buf[0] << 56) | ((uint64_t) buf[1] << 48)
		| ((uint64_t) buf[2] << 40) | ((uint64_t) buf[3] << 32)
		| ((uint64_t) buf[4] << 24) | ((uint64_t) buf[5] << 16)
		| ((uint64_t) buf[6] << 8) | (uint64_t) buf[7];
}

static inline void cds_trie_key_encode_u32(unsigned char buf[4], uint32_t v)
{
	buf[0] = (unsigned char) (v >> 24);
	buf[1] = (unsigned char) (v >> 16);
	buf[2] = (unsigned char) (v >> 8);
	buf[3] = (unsigned char) v;
}

static inline uint32_t cds_trie_key_decode_u32(const unsigned char buf[4])
{
	return ((uint32_t) buf[0] << 24) | ((uint32_t) buf[1] << 16)
		| ((uint32_t) buf[2] << 8) | (uint32_t) buf[3];
}

static inline void cds_trie_key_encode_u16(unsigned char buf[2], uint16_t v)
{
	buf[0] = (unsigned char) (v >> 8);
	buf[1] = (unsigned char) v;
}

static inline uint16_t cds_trie_key_decode_u16(const unsigned char buf[2])
{
	return (uint16_t) ((buf[0] << 8) | buf[1]);
}

static inline void cds_trie_key_encode_s64(unsigned char buf[8], int64_t v)
{
	cds_trie_key_encode_u64(buf, (uint64_t) v ^ ((uint64_t) 1 << 63));
}

static inline int64_t cds_trie_key_decode_s64(const unsigned char buf[8])
{
	return (int64_t) (cds_trie_key_decode_u64(buf) ^ ((uint64_t) 1 << 63));
}

static inline void cds_trie_key_encode_s32(unsigned char buf[4], int32_t v)
{
	cds_trie_key_encode_u32(buf, (uint32_t) v ^ ((uint32_t) 1 << 31));
}

static inline int32_t cds_trie_key_decode_s32(const unsigned char buf[4])
{
	return (int32_t) (cds_trie_key_decode_u32(buf) ^ ((uint32_t) 1 << 31));
}

#ifdef __cplusplus
}
#endif

#endif /* _URCU_RCUTRIE_H */
