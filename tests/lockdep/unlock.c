/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Releasing a lock the thread does not hold; an error-checking mutex, so
 * that the unlock returns EPERM instead of corrupting the lock.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP */
#endif
#include <errno.h>
#include <pthread.h>

#include "cases.h"

static pthread_mutex_t checked = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;

int main(void)
{
	return pthread_mutex_unlock(&checked) == EPERM ? 0 : 3;
}
