// SPDX-License-Identifier: GPL-2.0
/* Global options, their parsing and the JSON helpers shared by the
 * subcommands (kept out of main.c so the unit tests can link the
 * subcommands). */
#include <getopt.h>
#include <stdio.h>

#include "main.h"

bool json_output;
bool pretty_output;
int verbose;
json_writer_t *json_wtr;

void json_begin(void)
{
	if (!json_output)
		return;
	json_wtr = jsonw_new(stdout);
	jsonw_pretty(json_wtr, pretty_output);
}

void json_end(void)
{
	if (json_wtr)
		jsonw_destroy(&json_wtr);
}

bool common_opt(int opt)
{
	switch (opt) {
	case 'j': json_output = true; return true;
	case 'p': json_output = pretty_output = true; return true;
	case 'v': verbose++; return true;
	default: return false;
	}
}

int parse_common_opts(int argc, char **argv, const char *usage)
{
	static const struct option opts[] = { COMMON_LONG_OPTS, { 0 } };
	int opt;

	while ((opt = getopt_long(argc, argv, "jpv", opts, NULL)) >= 0) {
		if (!common_opt(opt)) {
			fprintf(stderr, "Usage: %s\n", usage);
			return -1;
		}
	}
	return 0;
}
