/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * class.c: lock classes.
 *
 * The graph orders classes, not lock instances, so that an inversion seen
 * on two instances of the same kinds of lock is still reported.  A class
 * is identified (docs/lockdep.md, "Classes"):
 *  - for a lock passed to pthread_*_init(), by the call site of the
 *    initialisation and the site that called that function (two frames:
 *    a helper that initialises every lock of a program does not merge
 *    them all into one class);
 *  - for a lock in static storage that was never initialised by a call
 *    (PTHREAD_MUTEX_INITIALIZER), by its address: it is the only
 *    instance of its class;
 *  - for any other lock never initialised by a call (heap or stack memory
 *    set to the static initialiser), by the two frames of its first
 *    acquisition;
 *  - for annotations and the RCU pseudo-locks, by name;
 *  - in a fork child, each class of a lock held at the fork has a twin
 *    for that lock (thread.c, ld_thread_fork_child()).
 *
 * Classes are numbered from 1 and live in one array that is reserved at
 * once and touched as used; a class's fields are written before its
 * number is published anywhere, so readers need no lock.  Creation takes
 * ld_state_lock.
 */
#include <string.h>
#include <unistd.h>

#include "lockdep.h"
#include "rawlock.h"

#define LD_CLASS_BUCKETS	4096

static struct ld_class *classes;
static uint32_t nr_classes = 1;		/* 0 is "no class" */
static struct ld_class *buckets[LD_CLASS_BUCKETS];
static bool full_reported;

struct ld_class *ld_class(uint32_t id)
{
	return &classes[id];
}

const char *ld_kind_name(enum ld_kind kind)
{
	switch (kind) {
	case LD_MUTEX:
		return "mutex";
	case LD_RWLOCK:
		return "rwlock";
	case LD_SPIN:
		return "spinlock";
	default:
		return "lock";
	}
}

static uint32_t hash_key(enum ld_key_type type, uintptr_t a, uintptr_t b)
{
	uint64_t h = ((uint64_t) a * 0x9e3779b97f4a7c15ULL)
		     ^ ((uint64_t) b * 0xc2b2ae3d27d4eb4fULL) ^ type;

	return (uint32_t) (h >> 40) % LD_CLASS_BUCKETS;
}

static uint32_t hash_name(const char *s)
{
	uint32_t h = 2166136261U;

	while (*s)
		h = (h ^ (unsigned char) *s++) * 16777619U;
	return h % LD_CLASS_BUCKETS;
}

/* A new class, linked into bucket @b; ld_state_lock held.  0 when full. */
static uint32_t new_class(uint32_t b, enum ld_kind kind,
			  enum ld_key_type type, int flavor)
{
	struct ld_class *c;

	if (!classes) {
		classes = ld_map(LD_MAX_CLASSES * sizeof(*classes));
		if (!classes)
			return 0;
	}
	if (nr_classes == LD_MAX_CLASSES) {
		if (!full_reported) {
			static const char msg[] = "urcu-lockdep: too many lock "
				"classes; new ones are not tracked\n";

			full_reported = true;
			(void) !write(2, msg, sizeof(msg) - 1);
		}
		return 0;
	}
	c = &classes[nr_classes];
	c->id = nr_classes++;
	c->kind = kind;
	c->key_type = type;
	c->flavor = (int8_t) flavor;
	c->hash_next = buckets[b];
	buckets[b] = c;
	return c->id;
}

uint32_t ld_class_by_name(const char *name, enum ld_kind kind, int flavor)
{
	uint32_t b = hash_name(name), id = 0;
	struct ld_class *c;

	ld_raw_lock(&ld_state_lock);
	for (c = buckets[b]; c; c = c->hash_next) {
		if (c->key_type == LD_KEY_NAME && strcmp(c->name, name) == 0) {
			id = c->id;
			break;
		}
	}
	if (!id) {
		const char *copy = ld_strdup(name);

		if (copy) {
			id = new_class(b, kind, LD_KEY_NAME, flavor);
			if (id)
				classes[id].name = copy;
		}
	}
	ld_raw_unlock(&ld_state_lock);
	return id;
}

/* ld_state_lock held. */
static uint32_t class_by_key(enum ld_kind kind, enum ld_key_type type,
			     uintptr_t a, uintptr_t b)
{
	uint32_t bucket = hash_key(type, a, b), id;
	struct ld_class *c;

	for (c = buckets[bucket]; c; c = c->hash_next)
		if (c->key_type == type && c->kind == kind && c->key[0] == a
		    && c->key[1] == b)
			return c->id;
	id = new_class(bucket, kind, type, -1);
	if (id) {
		classes[id].key[0] = a;
		classes[id].key[1] = b;
	}
	return id;
}

/* ld_state_lock held (locks.c). */
uint32_t ld_class_by_site(enum ld_kind kind, enum ld_key_type type,
			  uintptr_t site, uintptr_t caller)
{
	return class_by_key(kind, type, site, caller);
}

/* ld_state_lock held (locks.c). */
uint32_t ld_class_static(enum ld_kind kind, const void *addr)
{
	return class_by_key(kind, LD_KEY_STATIC, (uintptr_t) addr, 0);
}

uint32_t ld_class_forked(uint32_t cls)
{
	uint32_t id;

	ld_raw_lock(&ld_state_lock);
	id = class_by_key((enum ld_kind) classes[cls].kind, LD_KEY_FORK, cls, 0);
	if (id)
		classes[id].flavor = classes[cls].flavor;
	ld_raw_unlock(&ld_state_lock);
	return id;
}
