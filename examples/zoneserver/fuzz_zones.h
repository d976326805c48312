/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fixed zones of the fuzz targets (fuzz_answer.c, fuzz_tcp.c): the
 * differential test's zone files, from the directory in $ZS_FUZZ_ZONES
 * (fuzz.sh sets it), loaded once and never changed, indexed by the RCU
 * trie as in the server.  The fuzzing thread is registered with the memb
 * flavor; it answers inside read-side sections, as the readers do.
 */
#ifndef ZONESERVER_FUZZ_ZONES_H
#define ZONESERVER_FUZZ_ZONES_H

#include "answer.h"

/* Loads the zones on first use; aborts when they do not load. */
const struct zs_zones *fuzz_zones(void);

/* zs_answer() inside a read-side section. */
size_t fuzz_answer(const uint8_t *in, size_t len, uint8_t *out, size_t cap,
		   bool tcp, struct zs_answer_info *info);

#endif /* ZONESERVER_FUZZ_ZONES_H */
