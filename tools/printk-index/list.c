// SPDX-License-Identifier: GPL-2.0
/*
 * printk-index list [-j] [SOURCE...]
 *
 * Text output reproduces the input: for a single index file the output is
 * byte-identical to it. Several files (or a folder) are written in the
 * combined layout, one module-prefixed line per entry, which every
 * subcommand reads back (see index.h).
 */
#include <getopt.h>
#include <stdlib.h>

#include "escape.h"
#include "index.h"
#include "main.h"
#include "source.h"

int do_list(int argc, char **argv)
{
	struct pi_index idx;
	struct pi_err err;
	const char *used;
	bool combined;
	size_t i;
	int ret = EXIT_ERR;

	if (parse_common_opts(argc, argv, "printk-index list [-j] [SOURCE...]"))
		return EXIT_ERR;
	pi_index_init(&idx);
	if (optind >= argc) {
		if (pi_load_default(&idx, &used, &err))
			goto fail;
	}
	for (i = optind; i < (size_t)argc; i++)
		if (pi_load_source(&idx, argv[i], &err))
			goto fail;
	/* Round-trip one file in its own layout; anything else needs the
	 * module on every line. */
	combined = argc - optind != 1 || idx.layout == PI_LAYOUT_COMBINED;

	if (json_output) {
		json_begin();
		jsonw_start_array(json_wtr);
		for (i = 0; i < idx.n; i++)
			pi_json_entry(json_wtr, &idx.v[i]);
		jsonw_end_array(json_wtr);
		json_end();
	} else {
		puts(combined ? PI_HEADER_COMBINED : PI_HEADER);
		for (i = 0; i < idx.n; i++) {
			if (combined)
				printf("%s ", idx.v[i].module);
			pi_print_entry(stdout, &idx.v[i]);
		}
	}
	ret = EXIT_OK;
	goto out;
fail:
	p_err("%s", err.msg);
out:
	pi_index_free(&idx);
	return ret;
}
