/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Label-reversed canonical keys of names (zindex.h).
 */
#include "zindex.h"

size_t zs_name_key(const uint8_t *name, uint8_t *key, uint16_t *ends,
		   unsigned *nlabels)
{
	const uint8_t *label[128];
	unsigned n = 0;
	size_t len = 0;

	for (const uint8_t *p = name; *p && n < 128; p += 1 + *p)
		label[n++] = p;
	for (unsigned i = n; i-- > 0;) {
		const uint8_t *l = label[i];

		for (unsigned j = 1; j <= l[0]; j++) {
			uint8_t c = l[j];

			if (c >= 'A' && c <= 'Z')
				c = (uint8_t) (c - 'A' + 'a');
			/*
			 * 0x00 and 0x01 become 0x01 0x01 and 0x01 0x02: no
			 * 0x00 inside a label, and the order is kept.
			 */
			if (c <= 1) {
				key[len++] = 1;
				c = (uint8_t) (c + 1);
			}
			key[len++] = c;
		}
		key[len++] = 0;
		if (ends)
			ends[n - 1 - i] = (uint16_t) len;
	}
	if (nlabels)
		*nlabels = n;
	return len;
}
