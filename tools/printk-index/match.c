// SPDX-License-Identifier: GPL-2.0
/*
 * printk-index match [-j] [-v] [--index SOURCE] [FILE|-]
 *
 * One output line per log line (skipped lines - empty, kmsg dictionary,
 * journal banners - produce none):
 *   LINENO STATUS MODULE FILE:LINE FUNCTION +OTHERS
 * STATUS is "attributed", "generic" (only formats with fewer than
 * FMT_GENERIC_LITERALS literal non-space bytes match) or "unattributed"
 * (then MODULE, FILE:LINE and FUNCTION are "-"). OTHERS counts the other
 * index entries that can produce the line. A summary goes to stderr, or is
 * the last element of the JSON array.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "index.h"
#include "logline.h"
#include "main.h"
#include "matcher.h"

/* Longer than any printk record (LOG_LINE_MAX is 1024 - 32): such lines
 * are not kernel messages, and the matcher's cost grows with length. */
#define PI_MAX_MSG 4096

struct stats {
	size_t lines, attributed, generic, unattributed, skipped;
};

static const char *status_name(enum match_status s)
{
	switch (s) {
	case MATCH_SPECIFIC: return "attributed";
	case MATCH_GENERIC: return "generic";
	default: return "unattributed";
	}
}

static void print_text(size_t lineno, const struct log_line *ll,
		       const struct match_result *r)
{
	const struct pi_entry *e = r->best;

	if (e)
		printf("%zu %s %s %s:%u %s +%zu\n", lineno, status_name(r->status),
		       e->module, e->file, e->line, e->func, r->nmatch - 1);
	else
		printf("%zu unattributed - - - +0\n", lineno);
	if (!verbose)
		return;
	printf("    %s level %d: \"", log_kind_name(ll->kind), ll->level);
	pi_escape_file(stdout, ll->msg, ll->len);
	printf("\"\n");
	if (e) {
		char lvl[16];

		pi_level_str(e, lvl);
		printf("    %s%s \"", r->prefix ? "prefix of " : "", lvl);
		pi_escape_file(stdout, e->fmt, e->fmt_len);
		printf("\"\n");
	}
}

static void print_json(size_t lineno, const struct log_line *ll,
		       const struct match_result *r)
{
	jsonw_start_object(json_wtr);
	jsonw_uint_field(json_wtr, "lineno", lineno);
	jsonw_string_field(json_wtr, "input", log_kind_name(ll->kind));
	jsonw_name(json_wtr, "level");
	if (ll->level >= 0)
		jsonw_int(json_wtr, ll->level);
	else
		jsonw_null(json_wtr);
	if (verbose) {
		jsonw_name(json_wtr, "message");
		jsonw_string_len(json_wtr, ll->msg, ll->len);
	}
	jsonw_string_field(json_wtr, "status", status_name(r->status));
	jsonw_bool_field(json_wtr, "prefix", r->prefix);
	jsonw_uint_field(json_wtr, "others", r->nmatch ? r->nmatch - 1 : 0);
	jsonw_name(json_wtr, "entry");
	if (r->best)
		pi_json_entry(json_wtr, r->best);
	else
		jsonw_null(json_wtr);
	jsonw_end_object(json_wtr);
}

int do_match(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "index", required_argument, NULL, 'i' },
		{ 0 }
	};
	const char *index_src = NULL, *input = "-", *used;
	struct pi_index idx;
	struct matcher m;
	struct stats st = { 0 };
	struct sbuf scratch = { 0 };
	struct pi_err err;
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	FILE *in = stdin;
	int opt, ret = EXIT_ERR;

	while ((opt = getopt_long(argc, argv, "jpvi:", opts, NULL)) >= 0) {
		switch (opt) {
		case 'j': json_output = true; break;
		case 'p': json_output = pretty_output = true; break;
		case 'v': verbose++; break;
		case 'i': index_src = optarg; break;
		default:
			fprintf(stderr, "Usage: printk-index match [-j] [-v] [--index SOURCE] [FILE|-]\n");
			return EXIT_ERR;
		}
	}
	if (argc - optind > 1) {
		p_err("match reads one log file (or '-' for stdin)");
		return EXIT_ERR;
	}
	if (optind < argc)
		input = argv[optind];

	pi_index_init(&idx);
	if (index_src ? pi_load_source(&idx, index_src, &err) :
			pi_load_default(&idx, &used, &err)) {
		p_err("%s", err.msg);
		pi_index_free(&idx);
		return EXIT_ERR;
	}
	if (strcmp(input, "-")) {
		in = fopen(input, "r");
		if (!in) {
			p_err("%s: %s", input, strerror(errno));
			pi_index_free(&idx);
			return EXIT_ERR;
		}
	}
	matcher_build(&m, &idx);

	json_begin();
	if (json_output)
		jsonw_start_array(json_wtr);
	while ((len = getline(&line, &cap, in)) >= 0) {
		struct log_line ll;
		struct match_result r;

		lineno++;
		if (len && line[len - 1] == '\n')
			len--;
		if (len && line[len - 1] == '\r')
			len--;
		log_parse(line, len, &ll, &scratch);
		if (ll.kind == LOG_SKIP) {
			st.skipped++;
			continue;
		}
		st.lines++;
		if (ll.len <= PI_MAX_MSG)
			matcher_match(&m, ll.msg, ll.len, ll.level, &r);
		else
			memset(&r, 0, sizeof(r));
		if (r.status == MATCH_SPECIFIC)
			st.attributed++;
		else if (r.status == MATCH_GENERIC)
			st.generic++;
		else
			st.unattributed++;
		if (json_output)
			print_json(lineno, &ll, &r);
		else
			print_text(lineno, &ll, &r);
	}
	if (ferror(in)) {
		p_err("%s: read error: %s", input, strerror(errno));
		goto out;
	}
	ret = EXIT_OK;
out:
	if (json_output) {
		jsonw_start_object(json_wtr);
		jsonw_name(json_wtr, "summary");
		jsonw_start_object(json_wtr);
		jsonw_uint_field(json_wtr, "lines", st.lines);
		jsonw_uint_field(json_wtr, "attributed", st.attributed);
		jsonw_uint_field(json_wtr, "generic_only", st.generic);
		jsonw_uint_field(json_wtr, "unattributed", st.unattributed);
		jsonw_uint_field(json_wtr, "skipped", st.skipped);
		jsonw_end_object(json_wtr);
		jsonw_end_object(json_wtr);
		jsonw_end_array(json_wtr);
		json_end();
	} else {
		fflush(stdout);
		fprintf(stderr, "printk-index: %zu lines: %zu attributed, %zu generic-only, %zu unattributed (%zu skipped)\n",
			st.lines, st.attributed, st.generic, st.unattributed, st.skipped);
	}
	if (in != stdin)
		fclose(in);
	free(line);
	sbuf_free(&scratch);
	matcher_free(&m);
	pi_index_free(&idx);
	return ret;
}
