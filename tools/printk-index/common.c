// SPDX-License-Identifier: GPL-2.0
/* Global options, their parsing and the JSON helpers shared by the
 * subcommands (kept out of main.c so the unit tests can link the
 * subcommands). */
#include <getopt.h>
#include <stdio.h>

#include "index.h"
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

void pi_json_entry(json_writer_t *w, const struct pi_entry *e)
{
	jsonw_start_object(w);
	jsonw_string_field(w, "module", e->module);
	jsonw_int_field(w, "level", e->level);
	jsonw_bool_field(w, "cont", e->cont);
	jsonw_string_field(w, "file", e->file);
	jsonw_uint_field(w, "line", e->line);
	jsonw_string_field(w, "function", e->func);
	jsonw_name(w, "format");
	jsonw_string_len(w, e->fmt, e->fmt_len);
	jsonw_end_object(w);
}
