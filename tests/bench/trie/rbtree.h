/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rbtree.h: an intrusive red-black tree of byte-string keys, the
 * lock-based peer of the trie benchmark (tests/bench/trie/trie_bench.c).
 * Not thread-safe: the benchmark wraps it in a pthread_rwlock.
 */
#ifndef BENCH_RBTREE_H
#define BENCH_RBTREE_H

#include <stddef.h>

struct rb_node {
	struct rb_node *parent, *left, *right;
	const unsigned char *key;
	size_t len;
	int red;
};

struct rb_tree {
	struct rb_node *root;
};

/* Inserts @n (its key set); duplicates go after equal keys. */
void rb_insert(struct rb_tree *t, struct rb_node *n);
/* Unlinks @n, which is in @t. */
void rb_erase(struct rb_tree *t, struct rb_node *n);
/* The node with key @key, the greatest <= it, the smallest >= it. */
struct rb_node *rb_find(const struct rb_tree *t, const void *key, size_t len);
struct rb_node *rb_find_le(const struct rb_tree *t, const void *key, size_t len);
struct rb_node *rb_find_ge(const struct rb_tree *t, const void *key, size_t len);

#endif /* BENCH_RBTREE_H */
