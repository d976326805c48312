/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * annotate.c: the validator's side of <urcu/lockdep.h>.
 *
 * These definitions take the place of liburcu-common's empty ones.  A
 * class object caches the validator's number for its name; the first
 * class of a flavor's pseudo-lock seen also tells the validator where
 * that flavor lives (flavors.c).
 */
#include <urcu/lockdep.h>

#include "lockdep.h"

_Static_assert(URCU_LOCKDEP_TRY == LD_TRY
	       && URCU_LOCKDEP_READ == LD_READ
	       && URCU_LOCKDEP_READ_RECURSIVE == LD_READ_RECURSIVE
	       && URCU_LOCKDEP_RECURSIVE == LD_RECURSIVE,
	       "acquisition flags: <urcu/lockdep.h> and lockdep.h differ");

#define LD_FLAGS	(LD_TRY | LD_READ | LD_READ_RECURSIVE | LD_RECURSIVE)

/* The class number of @c, found by name on first use. */
static uint32_t class_of(struct urcu_lockdep_class *c)
{
	/* Acquire: pairs with the release below, for the class's fields. */
	unsigned long id = __atomic_load_n(&c->id, __ATOMIC_ACQUIRE);

	if (id)
		return (uint32_t) id;
	ld_flavors_init();	/* the flavors' classes first, by their names */
	id = ld_class_by_name(c->name ? c->name : "(unnamed)", LD_USER, -1);
	if (id && ld_class((uint32_t) id)->flavor >= 0)
		ld_flavors_lookup_object(c);
	/* Release: see above; racing threads store the same number. */
	__atomic_store_n(&c->id, id, __ATOMIC_RELEASE);
	return (uint32_t) id;
}

LD_API int urcu_lockdep_active(void)
{
	return ld_mode() != LD_MODE_OFF;
}

LD_API void urcu_lockdep_acquire(struct urcu_lockdep_class *c,
				 const void *lock, unsigned int flags)
{
	uintptr_t ip = (uintptr_t) __builtin_return_address(0);
	struct ld_thread *t;
	uint32_t cls;

	if (!c || ld_bypass())
		return;
	t = ld_thread_enter();
	cls = class_of(c);
	flags &= LD_FLAGS;
	if (!lock)
		lock = c;
	ld_acquire(t, lock, cls, flags, "urcu_lockdep_acquire()", ip);
	ld_acquired(t, lock, cls, flags, "urcu_lockdep_acquire()", ip);
	ld_thread_leave(t);
}

LD_API void urcu_lockdep_release(struct urcu_lockdep_class *c,
				 const void *lock)
{
	uintptr_t ip = (uintptr_t) __builtin_return_address(0);
	struct ld_thread *t;

	if (!c || ld_bypass())
		return;
	t = ld_thread_enter();
	ld_release(t, lock ? lock : c, class_of(c), "urcu_lockdep_release()",
		   ip);
	ld_thread_leave(t);
}

LD_API void urcu_lockdep_wait(struct urcu_lockdep_class *c, const char *what)
{
	uintptr_t ip = (uintptr_t) __builtin_return_address(0);
	struct ld_thread *t;
	uint32_t cls;

	if (!c || ld_bypass())
		return;
	t = ld_thread_enter();
	cls = class_of(c);
	if (cls)
		ld_wait(t, cls, what ? what : "urcu_lockdep_wait()", ip);
	ld_thread_leave(t);
}
