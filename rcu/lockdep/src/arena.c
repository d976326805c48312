/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * arena.c: the validator's memory.
 *
 * Classes, edges and names live until the process ends, so they come from
 * a bump allocator over anonymous mappings and are never freed.  Nothing
 * here calls malloc(): the validator runs inside lock calls made by
 * allocators, and in fork children.
 */
#include <string.h>
#include <sys/mman.h>

#include "lockdep.h"
#include "rawlock.h"

/* Size of one mapping of small allocations. */
#define LD_CHUNK	(1UL << 20)

struct ld_rawlock ld_arena_lock;
static char *chunk_next, *chunk_end;

void *ld_map(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void *ld_alloc(size_t size)
{
	void *p = NULL;

	size = (size + 15) & ~(size_t) 15;
	if (size > LD_CHUNK / 4)
		return ld_map(size);
	ld_raw_lock(&ld_arena_lock);
	if ((size_t) (chunk_end - chunk_next) < size) {
		char *c = ld_map(LD_CHUNK);

		if (c) {
			chunk_next = c;
			chunk_end = c + LD_CHUNK;
		}
	}
	if ((size_t) (chunk_end - chunk_next) >= size) {
		p = chunk_next;
		chunk_next += size;
	}
	ld_raw_unlock(&ld_arena_lock);
	return p;
}

const char *ld_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = ld_alloc(n);

	if (p)
		memcpy(p, s, n);
	return p;
}
