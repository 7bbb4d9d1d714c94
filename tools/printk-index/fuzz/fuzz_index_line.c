// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer: the index line parser and file loader.
 * Property: a line the parser accepts prints back byte for byte.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pi_index idx;
	struct pi_err err;
	FILE *f;

	pi_index_init(&idx);
	if (!pi_parse_entry(&idx, "m", (const char *)data, size, &err)) {
		char *out = NULL;
		size_t len = 0;

		f = open_memstream(&out, &len);
		pi_print_entry(f, &idx.v[0]);
		fclose(f);
		if (len != size + 1 || memcmp(out, data, size))
			__builtin_trap();	/* accepted but does not round-trip */
		free(out);
	}
	pi_index_free(&idx);

	/* the same bytes as a whole file, after a header */
	{
		size_t hl = strlen(PI_HEADER) + 1;
		char *buf = malloc(hl + size);

		memcpy(buf, PI_HEADER "\n", hl);
		memcpy(buf + hl, data, size);
		f = fmemopen(buf, hl + size, "r");
		if (f) {
			pi_index_init(&idx);
			pi_load_stream(&idx, f, "fuzz", &err);
			pi_index_free(&idx);
			fclose(f);
		}
		free(buf);
	}
	return 0;
}
