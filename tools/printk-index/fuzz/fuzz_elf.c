// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer: the ELF reader (elf_index.h), fed whole ELF images through
 * elf_memory(). Properties: no crash, an error names the file, and what
 * loads prints and parses back (every entry is a valid index line).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf_index.h"
#include "index.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pi_index idx, back;
	struct pi_err err;
	const char *module = NULL;
	size_t i;

	pi_index_init(&idx);
	if (pi_elf_load_mem(&idx, "fuzz.ko", data, size, &module, &err)) {
		if (strncmp(err.msg, "fuzz.ko: ", 9)) {
			fprintf(stderr, "error without the file name: %s\n", err.msg);
			__builtin_trap();
		}
		pi_index_free(&idx);
		return 0;
	}
	if (!module)
		__builtin_trap();
	/* each entry prints as a line the index parser takes back */
	pi_index_init(&back);
	for (i = 0; i < idx.n; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		pi_print_entry(f, &idx.v[i]);
		fclose(f);
		if (len && buf[len - 1] == '\n')
			len--;
		if (pi_parse_entry(&back, "m", buf, len, &err)) {
			fprintf(stderr, "entry %zu does not parse back: %s\n", i, err.msg);
			__builtin_trap();
		}
		free(buf);
	}
	pi_index_free(&back);
	pi_index_free(&idx);
	return 0;
}
