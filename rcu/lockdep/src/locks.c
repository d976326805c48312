/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * locks.c: the class of a pthread lock instance (class.c says which).
 *
 * Every interposed lock call needs it, so the common case is one load.
 * glibc's 64-bit mutexes and rwlocks have a field that glibc leaves
 * unused (a mutex's robust-list link unless it is robust; an rwlock's
 * __pad2), zeroed by the static initialisers and by pthread_*_init(): the
 * validator keeps the class number there, tagged so that it cannot be
 * mistaken for anything glibc stores.  Memory reused for a new lock is
 * set to the initialiser again, so the new lock gets a new class, and
 * pthread_*_destroy() clears the word.
 *
 * Spinlocks (an int), process-shared locks (the word would be read by
 * other processes, with other class numbers) and robust mutexes use a
 * hash map from address to class instead: open addressing, read without
 * a lock, written under ld_state_lock.  A slot's key is written after its
 * class and only ever changes to the tombstone, which later inserts may
 * reuse; a reader that raced with the removal of the lock it looks up
 * was using a destroyed lock.  Growing copies the live entries into a
 * table twice as large; the old table stays mapped, since a reader may
 * still be probing it (the tables retired add up to less than the
 * current one).
 */
#include <link.h>
#include <pthread.h>
#include <string.h>

#include "lockdep.h"
#include "rawlock.h"

/* "ld" in the high bits: not a canonical user-space pointer. */
#define LD_WORD_TAG	((uintptr_t) 0x6c64 << 48)
#define LD_WORD_MASK	((uintptr_t) 0xffff << 48)

/* glibc's mutex kind bits (nptl's pthreadP.h); not in public headers. */
#define LD_GLIBC_MUTEX_ROBUST	16
#define LD_GLIBC_MUTEX_PSHARED	128

/* Where @lock keeps its class, or NULL when it uses the map. */
static uintptr_t *class_word(enum ld_kind kind, void *lock)
{
#if defined(__GLIBC__) && __WORDSIZE == 64
	if (kind == LD_MUTEX) {
		pthread_mutex_t *m = lock;
		/* Relaxed: fixed by the lock's initialisation. */
		int k = __atomic_load_n(&m->__data.__kind, __ATOMIC_RELAXED);

		if (k & (LD_GLIBC_MUTEX_ROBUST | LD_GLIBC_MUTEX_PSHARED))
			return NULL;
		return (uintptr_t *) &m->__data.__list.__next;
	}
	if (kind == LD_RWLOCK) {
		pthread_rwlock_t *rw = lock;

		/* Relaxed: fixed by the lock's initialisation. */
		if (__atomic_load_n(&rw->__data.__shared, __ATOMIC_RELAXED))
			return NULL;
		return (uintptr_t *) &rw->__data.__pad2;
	}
#else
	(void) kind;
	(void) lock;
#endif
	return NULL;
}

/* ---- The map ---- */

#define LD_MAP_EMPTY	((uintptr_t) 0)
#define LD_MAP_TOMB	((uintptr_t) 1)
#define LD_MAP_MIN	1024

struct ld_map_slot {
	uintptr_t key;
	uint32_t cls;
};

struct ld_map_table {
	size_t mask;
	size_t used;		/* slots not empty (tombstones included) */
	size_t live;
	struct ld_map_slot slots[];
};

static struct ld_map_table *map;

static size_t map_hash(uintptr_t key)
{
	return (size_t) (((uint64_t) key * 0x9e3779b97f4a7c15ULL) >> 20);
}

static uint32_t map_lookup(const void *lock)
{
	/* Acquire: pairs with the release in map_grow(). */
	struct ld_map_table *t = __atomic_load_n(&map, __ATOMIC_ACQUIRE);
	uintptr_t key = (uintptr_t) lock;
	size_t i;

	if (!t)
		return 0;
	for (i = map_hash(key) & t->mask;; i = (i + 1) & t->mask) {
		/* Acquire: pairs with the release in map_put(). */
		uintptr_t k = __atomic_load_n(&t->slots[i].key,
					      __ATOMIC_ACQUIRE);

		if (k == key)
			return __atomic_load_n(&t->slots[i].cls,
					       __ATOMIC_RELAXED);
		if (k == LD_MAP_EMPTY)
			return 0;
	}
}

/* Put @key into @t, which has room; ld_state_lock held. */
static void map_put(struct ld_map_table *t, uintptr_t key, uint32_t cls)
{
	size_t i, reuse = SIZE_MAX;

	for (i = map_hash(key) & t->mask;; i = (i + 1) & t->mask) {
		uintptr_t k = t->slots[i].key;

		if (k == key) {
			__atomic_store_n(&t->slots[i].cls, cls,
					 __ATOMIC_RELAXED);
			return;
		}
		if (k == LD_MAP_TOMB && reuse == SIZE_MAX)
			reuse = i;
		if (k == LD_MAP_EMPTY)
			break;
	}
	if (reuse == SIZE_MAX) {
		reuse = i;
		t->used++;
	}
	t->live++;
	/* Relaxed, then release on the key: see the top comment. */
	__atomic_store_n(&t->slots[reuse].cls, cls, __ATOMIC_RELAXED);
	__atomic_store_n(&t->slots[reuse].key, key, __ATOMIC_RELEASE);
}

/* Make room for one more entry; ld_state_lock held.  False if out of memory. */
static bool map_grow(void)
{
	struct ld_map_table *old = map, *t;
	size_t size = LD_MAP_MIN, i;

	if (old && (old->used + 1) * 2 <= old->mask + 1)
		return true;
	while (old && size < (old->live + 1) * 4)
		size *= 2;
	t = ld_map(sizeof(*t) + size * sizeof(t->slots[0]));
	if (!t)
		return false;
	t->mask = size - 1;
	for (i = 0; old && i <= old->mask; i++)
		if (old->slots[i].key > LD_MAP_TOMB)
			map_put(t, old->slots[i].key, old->slots[i].cls);
	/* Release: the copied entries before the table; see map_lookup(). */
	__atomic_store_n(&map, t, __ATOMIC_RELEASE);
	return true;
}

static void map_remove(const void *lock)
{
	struct ld_map_table *t = map;
	size_t i;

	if (!t)
		return;
	for (i = map_hash((uintptr_t) lock) & t->mask;; i = (i + 1) & t->mask) {
		uintptr_t k = t->slots[i].key;

		if (k == (uintptr_t) lock) {
			/* Relaxed: a reader that still sees it raced a destroy. */
			__atomic_store_n(&t->slots[i].key, LD_MAP_TOMB,
					 __ATOMIC_RELAXED);
			t->live--;
			return;
		}
		if (k == LD_MAP_EMPTY)
			return;
	}
}

/* ---- Static storage: the writable segments of the loaded objects ---- */

#define LD_MAX_RANGES	1024

struct ld_range {
	uintptr_t start, end;
};

static struct ld_range ranges[LD_MAX_RANGES];
static unsigned nr_ranges;

struct ld_range_scan {
	struct ld_range r[LD_MAX_RANGES];
	unsigned n;
};

static int scan_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct ld_range_scan *scan = arg;
	int i;

	(void) size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W)
		    || scan->n == LD_MAX_RANGES)
			continue;
		scan->r[scan->n].start = info->dlpi_addr + ph->p_vaddr;
		scan->r[scan->n].end = info->dlpi_addr + ph->p_vaddr
				       + ph->p_memsz;
		scan->n++;
	}
	return 0;
}

/*
 * Record where the loaded objects' data lies.  At start-up and after
 * dlopen()/dlclose(), never inside a lock call: dl_iterate_phdr() takes
 * the dynamic loader's lock.
 */
void ld_locks_scan_objects(void)
{
	static struct ld_range_scan scan;	/* ld_scan_lock */
	static struct ld_rawlock ld_scan_lock;

	ld_raw_lock(&ld_scan_lock);
	scan.n = 0;
	dl_iterate_phdr(scan_object, &scan);
	ld_raw_lock(&ld_state_lock);
	memcpy(ranges, scan.r, scan.n * sizeof(scan.r[0]));
	nr_ranges = scan.n;
	ld_raw_unlock(&ld_state_lock);
	ld_raw_unlock(&ld_scan_lock);
}

/* ld_state_lock held. */
static bool in_static_storage(const void *p)
{
	uintptr_t a = (uintptr_t) p;
	unsigned i;

	for (i = 0; i < nr_ranges; i++)
		if (a >= ranges[i].start && a < ranges[i].end)
			return true;
	return false;
}

/* ---- Classes of lock instances ---- */

/* Install @cls as @lock's class; ld_state_lock held. */
static void install(enum ld_kind kind, void *lock, uint32_t cls)
{
	uintptr_t *w = class_word(kind, lock);

	if (w)
		/* Release: the class's fields before its number. */
		__atomic_store_n(w, LD_WORD_TAG | cls, __ATOMIC_RELEASE);
	else if (cls && map_grow())
		map_put(map, (uintptr_t) lock, cls);
}

/* The installed class of @lock, or 0. */
static uint32_t installed(enum ld_kind kind, void *lock)
{
	uintptr_t *w = class_word(kind, lock);

	if (w) {
		/* Acquire: pairs with the release in install(). */
		uintptr_t v = __atomic_load_n(w, __ATOMIC_ACQUIRE);

		return (v & LD_WORD_MASK) == LD_WORD_TAG ? (uint32_t) v : 0;
	}
	return map_lookup(lock);
}

uint32_t ld_lock_class(enum ld_kind kind, void *lock, uintptr_t ip)
{
	uintptr_t site[2] = { ip, 0 };
	uint32_t cls = installed(kind, lock);

	if (__builtin_expect(cls != 0, 1))
		return cls;
	(void) ld_backtrace(site, 2, ip);
	ld_raw_lock(&ld_state_lock);
	cls = installed(kind, lock);
	if (!cls) {
		if (in_static_storage(lock))
			cls = ld_class_static(kind, lock);
		else
			cls = ld_class_by_site(kind, LD_KEY_FIRST_USE, site[0],
					       site[1]);
		install(kind, lock, cls);
	}
	ld_raw_unlock(&ld_state_lock);
	return cls;
}

void ld_lock_init(enum ld_kind kind, void *lock, uintptr_t ip)
{
	uintptr_t site[2] = { ip, 0 };
	uint32_t cls;

	(void) ld_backtrace(site, 2, ip);
	ld_raw_lock(&ld_state_lock);
	cls = ld_class_by_site(kind, LD_KEY_INIT_SITE, site[0], site[1]);
	install(kind, lock, cls);
	ld_raw_unlock(&ld_state_lock);
}

void ld_lock_destroy(enum ld_kind kind, void *lock)
{
	uintptr_t *w = class_word(kind, lock);

	if (w) {
		/* Relaxed: the lock is gone; nobody may use it meanwhile. */
		__atomic_store_n(w, 0, __ATOMIC_RELAXED);
		return;
	}
	ld_raw_lock(&ld_state_lock);
	map_remove(lock);
	ld_raw_unlock(&ld_state_lock);
}
