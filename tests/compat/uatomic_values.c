/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * uatomic operations on objects narrower than the value passed, as
 * programs written for liburcu do (uatomic_cmpxchg(&c, -1UL, 0) on a
 * char), and on volatile objects: liburcu converts the value to the type
 * of the object, and so must we, without -Woverflow, -Wconstant-conversion
 * or qualifier warnings.  `scons check-headers` compiles this file as C
 * and as C++ with -Wall -Wextra -Werror; it is never linked or run.
 */
#include <stddef.h>

#include <urcu/uatomic.h>

/* Every operation that takes a value, on an object of type T. */
#define ALL_OPS(T, obj)							\
	do {								\
		T _r = 0;						\
		_r += uatomic_cmpxchg(&(obj), -1UL, 0);			\
		_r += uatomic_cmpxchg(&(obj), 0, -1UL);			\
		_r += uatomic_cmpxchg(&(obj), -1UL, -1UL, CMM_ACQUIRE);	\
		_r += uatomic_xchg(&(obj), -1UL);			\
		_r += uatomic_add_return(&(obj), -1UL);			\
		_r += uatomic_sub_return(&(obj), -1UL);			\
		uatomic_set(&(obj), -1UL);				\
		uatomic_store(&(obj), -1UL, CMM_RELEASE);		\
		uatomic_add(&(obj), -1UL);				\
		uatomic_sub(&(obj), -1UL);				\
		uatomic_and(&(obj), -1UL);				\
		uatomic_or(&(obj), -1UL);				\
		uatomic_inc(&(obj));					\
		uatomic_dec(&(obj));					\
		_r += uatomic_read(&(obj));				\
		(void) _r;						\
	} while (0)

struct item {
	int key;
};

static char c;
static signed char sc;
static unsigned char uc;
static short sh;
static unsigned short ush;
static int i;
static unsigned int ui;
static long l;
static unsigned long ul;
static volatile int vi;
static volatile unsigned char vuc;
static struct item *p;
static struct item *volatile vp;
static void *anyp;

void uatomic_values(void);

void uatomic_values(void)
{
	struct item *q = NULL;

	ALL_OPS(char, c);
	ALL_OPS(signed char, sc);
	ALL_OPS(unsigned char, uc);
	ALL_OPS(short, sh);
	ALL_OPS(unsigned short, ush);
	ALL_OPS(int, i);
	ALL_OPS(unsigned int, ui);
	ALL_OPS(long, l);
	ALL_OPS(unsigned long, ul);
	ALL_OPS(int, vi);
	ALL_OPS(unsigned char, vuc);

	/* Pointer objects: null constants, pointers, byte arithmetic. */
	q = uatomic_cmpxchg(&p, 0, q);
	q = uatomic_cmpxchg(&p, NULL, q, CMM_SEQ_CST);
	q = uatomic_cmpxchg(&vp, q, NULL);
	q = uatomic_xchg(&p, q);
	q = uatomic_xchg(&vp, NULL);
	q = uatomic_add_return(&p, sizeof(*q));
	q = uatomic_load(&vp, CMM_CONSUME);
	uatomic_set(&p, NULL);
	uatomic_store(&vp, q, CMM_RELEASE);
	uatomic_set(&anyp, q);
	(void) uatomic_cmpxchg(&anyp, NULL, anyp);
	(void) q;
}
