/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The fuzz targets' zones (see fuzz_zones.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include <urcu.h>

#include "fuzz_zones.h"

static const char *const origins[] = {
	"example.com", "sub.example.com", "other.test", "10.in-addr.arpa",
};

const struct zs_zones *fuzz_zones(void)
{
	static struct zs_zones zones;
	static char paths[4][1024];
	static const char *path_ptrs[4];
	static int loaded;
	const char *dir = getenv("ZS_FUZZ_ZONES");
	char err[512];

	if (loaded)
		return &zones;
	if (!dir) {
		fprintf(stderr, "fuzz: set ZS_FUZZ_ZONES to the zone directory\n");
		abort();
	}
	urcu_memb_flavor.register_thread();
	for (int i = 0; i < 4; i++) {
		snprintf(paths[i], sizeof(paths[i]), "%s/%s.zone", dir, origins[i]);
		path_ptrs[i] = paths[i];
	}
	if (zs_zones_init(&zones, 4, origins, path_ptrs, &urcu_memb_flavor, err,
			  sizeof(err))) {
		fprintf(stderr, "fuzz: %s\n", err);
		abort();
	}
	for (int i = 0; i < 4; i++) {
		/* No reader runs yet: a plain store publishes nothing early. */
		if (zs_zone_load(origins[i], paths[i], &urcu_memb_flavor,
				 &zones.slots[i].zone, err, sizeof(err))) {
			fprintf(stderr, "fuzz: %s\n", err);
			abort();
		}
	}
	loaded = 1;
	return &zones;
}

size_t fuzz_answer(const uint8_t *in, size_t len, uint8_t *out, size_t cap,
		   bool tcp, struct zs_answer_info *info)
{
	const struct zs_zones *zones = fuzz_zones();
	size_t n;

	urcu_memb_flavor.read_lock();
	n = zs_answer(zones, in, len, out, cap, tcp, info);
	urcu_memb_flavor.read_unlock();
	return n;
}
