/*
 * The fixed zones of the fuzz targets (fuzz_answer.c, fuzz_tcp.c): the
 * differential test's zone files, from the directory in $ZS_FUZZ_ZONES
 * (fuzz.sh sets it), loaded once and never changed.
 */
#ifndef ZONESERVER_FUZZ_ZONES_H
#define ZONESERVER_FUZZ_ZONES_H

#include "answer.h"

/* Loads the zones on first use; aborts when they do not load. */
const struct zs_zones *fuzz_zones(void);

#endif /* ZONESERVER_FUZZ_ZONES_H */
