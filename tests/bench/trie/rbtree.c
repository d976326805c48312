/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rbtree.c: the red-black tree of rbtree.h, the textbook algorithm
 * (parent pointers, NULL leaves counted black).
 */
#include <string.h>

#include "rbtree.h"

static int cmp(const unsigned char *a, size_t alen, const unsigned char *b,
	       size_t blen)
{
	size_t n = alen < blen ? alen : blen;
	int c = n ? memcmp(a, b, n) : 0;

	if (c)
		return c;
	return alen < blen ? -1 : alen > blen;
}

static int is_red(const struct rb_node *n)
{
	return n && n->red;
}

/* Puts @c where @old hangs from its parent (or the root). */
static void replace_child(struct rb_tree *t, struct rb_node *old,
			  struct rb_node *c)
{
	struct rb_node *p = old->parent;

	if (!p)
		t->root = c;
	else if (p->left == old)
		p->left = c;
	else
		p->right = c;
	if (c)
		c->parent = p;
}

static void rotate_left(struct rb_tree *t, struct rb_node *x)
{
	struct rb_node *y = x->right;

	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	replace_child(t, x, y);
	y->left = x;
	x->parent = y;
}

static void rotate_right(struct rb_tree *t, struct rb_node *x)
{
	struct rb_node *y = x->left;

	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	replace_child(t, x, y);
	y->right = x;
	x->parent = y;
}

void rb_insert(struct rb_tree *t, struct rb_node *n)
{
	struct rb_node **link = &t->root, *p = NULL, *g, *u;

	while (*link) {
		p = *link;
		link = cmp(n->key, n->len, p->key, p->len) < 0 ? &p->left
							       : &p->right;
	}
	n->parent = p;
	n->left = n->right = NULL;
	n->red = 1;
	*link = n;
	while ((p = n->parent) && p->red) {
		g = p->parent;
		if (p == g->left) {
			u = g->right;
			if (is_red(u)) {
				p->red = u->red = 0;
				g->red = 1;
				n = g;
				continue;
			}
			if (n == p->right) {
				rotate_left(t, p);
				n = p;
				p = n->parent;
			}
			p->red = 0;
			g->red = 1;
			rotate_right(t, g);
		} else {
			u = g->left;
			if (is_red(u)) {
				p->red = u->red = 0;
				g->red = 1;
				n = g;
				continue;
			}
			if (n == p->left) {
				rotate_right(t, p);
				n = p;
				p = n->parent;
			}
			p->red = 0;
			g->red = 1;
			rotate_left(t, g);
		}
	}
	t->root->red = 0;
}

/* Restores the colours after a black node left from under @p (child @x). */
static void erase_fixup(struct rb_tree *t, struct rb_node *x, struct rb_node *p)
{
	struct rb_node *w;

	while (x != t->root && !is_red(x)) {
		if (x == p->left) {
			w = p->right;
			if (is_red(w)) {
				w->red = 0;
				p->red = 1;
				rotate_left(t, p);
				w = p->right;
			}
			if (!is_red(w->left) && !is_red(w->right)) {
				w->red = 1;
				x = p;
				p = x->parent;
				continue;
			}
			if (!is_red(w->right)) {
				w->left->red = 0;
				w->red = 1;
				rotate_right(t, w);
				w = p->right;
			}
			w->red = p->red;
			p->red = 0;
			w->right->red = 0;
			rotate_left(t, p);
		} else {
			w = p->left;
			if (is_red(w)) {
				w->red = 0;
				p->red = 1;
				rotate_right(t, p);
				w = p->left;
			}
			if (!is_red(w->left) && !is_red(w->right)) {
				w->red = 1;
				x = p;
				p = x->parent;
				continue;
			}
			if (!is_red(w->left)) {
				w->right->red = 0;
				w->red = 1;
				rotate_left(t, w);
				w = p->left;
			}
			w->red = p->red;
			p->red = 0;
			w->left->red = 0;
			rotate_right(t, p);
		}
		x = t->root;
	}
	if (x)
		x->red = 0;
}

void rb_erase(struct rb_tree *t, struct rb_node *n)
{
	struct rb_node *y = n, *x, *xp;
	int y_red = y->red;

	if (!n->left) {
		x = n->right;
		xp = n->parent;
		replace_child(t, n, x);
	} else if (!n->right) {
		x = n->left;
		xp = n->parent;
		replace_child(t, n, x);
	} else {
		/* n's successor y takes n's place and colour. */
		for (y = n->right; y->left; y = y->left)
			;
		y_red = y->red;
		x = y->right;
		if (y->parent == n) {
			xp = y;
		} else {
			xp = y->parent;
			replace_child(t, y, x);
			y->right = n->right;
			y->right->parent = y;
		}
		replace_child(t, n, y);
		y->left = n->left;
		y->left->parent = y;
		y->red = n->red;
	}
	if (!y_red)
		erase_fixup(t, x, xp);
}

struct rb_node *rb_find(const struct rb_tree *t, const void *key, size_t len)
{
	struct rb_node *n = t->root;
	int c;

	while (n) {
		c = cmp(key, len, n->key, n->len);
		if (!c)
			return n;
		n = c < 0 ? n->left : n->right;
	}
	return NULL;
}

struct rb_node *rb_find_le(const struct rb_tree *t, const void *key, size_t len)
{
	struct rb_node *n = t->root, *best = NULL;
	int c;

	while (n) {
		c = cmp(key, len, n->key, n->len);
		if (!c)
			return n;
		if (c > 0) {
			best = n;
			n = n->right;
		} else {
			n = n->left;
		}
	}
	return best;
}

struct rb_node *rb_find_ge(const struct rb_tree *t, const void *key, size_t len)
{
	struct rb_node *n = t->root, *best = NULL;
	int c;

	while (n) {
		c = cmp(key, len, n->key, n->len);
		if (!c)
			return n;
		if (c < 0) {
			best = n;
			n = n->left;
		} else {
			n = n->right;
		}
	}
	return best;
}
