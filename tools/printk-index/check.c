// SPDX-License-Identifier: GPL-2.0
/*
 * printk-index check [-j] [-v] [--strict] [--anchored] [--witness] [--index SOURCE] RULES...
 *
 * For each log-monitoring rule (a regular expression), which index entries
 * can print a message the rule matches (checker.h). RULES: rules.h.
 *
 * Per rule a verdict - live, live-by-arguments, unknown, stale (help_text
 * below, README.md) - and its best evidence; counts and weak matches with
 * -v. Exit status 1 when a rule is stale (--strict: or unknown).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "check_impl.h"
#include "main.h"
#include "source.h"

#define USAGE "Usage: printk-index check [-j] [-v] [--strict] [--anchored] [--witness] [--index SOURCE] RULES...\n"

/* check --help: the verdicts, as README.md and printk-index.8 define them. */
static const char help_text[] =
	USAGE
	"\n"
	"Can a message of this kernel match each log-monitoring rule, and on what\n"
	"evidence? RULES: one regex per line (label<TAB>regex, # comments) or a\n"
	"node-problem-detector kernel monitor JSON file. One verdict per rule, the\n"
	"first that holds:\n"
	"  live               a format's own literal text proves the rule can match\n"
	"                     (it supplies at least half the rule's literal bytes)\n"
	"  live-by-arguments  a format with text of its own prints a match when its\n"
	"                     %s and number arguments take particular values, all of\n"
	"                     its text being part of the match: the oops header\n"
	"                     'divide error: 0000 \\[#\\d+\\] PREEMPT SMP NOPTI' and\n"
	"                     \"%s: %04lx [#%d]%s%s%s%s%s\\n\" (arch/x86/kernel/dumpstack.c)\n"
	"  unknown            only a pass-through can print it: a %pV format with text\n"
	"                     of its own, e.g. __ext4_msg()'s \"%sEXT4-fs (%s): %pV\\n\"\n"
	"                     ('Remounting filesystem read-only' without the project's\n"
	"                     ext4 patch; live with it), or ACPICA's acpi_os_vprintf()\n"
	"                     \"%s\"; the sites are named. Not a failure unless --strict\n"
	"  stale              none of these, or the nearest format is the message\n"
	"                     reworded (3+ words in common, in order, 60% of both's):\n"
	"                     'BUG: unable to handle kernel NULL pointer dereference'\n"
	"                     and \"BUG: kernel NULL pointer dereference, address: %px\\n\"\n"
	"Unknown and stale rules show the nearest formats (did you mean) and the words\n"
	"no format has: the pre-5.1 OOM rule 'Kill process \\d+ (.+) score \\d+ or\n"
	"sacrifice child' points at \"%s: Killed process %d (%s) ...\"; no 'sacrifice'.\n"
	"Assumed: a plain %s prints any text without newline; a generic %pV format\n"
	"(\"%s%pV\") prints any line and is not counted as a pass-through.\n"
	"\n"
	"  -j, -p        JSON (everything, per rule)    -v  all evidence, counts, weak entries\n"
	"  --strict      exit 1 for unknown rules too   --anchored  match the whole message\n"
	"  --witness     a message proving each live entry\n"
	"  --index SRC   the index (default: the running kernel's)\n"
	"Exit status: 0 no rule stale, 1 some rule stale (--strict: or unknown),\n"
	"2 bad usage or input.\n";

/*
 * Errors in the rules: the first few, every byte outside printable ASCII
 * escaped (a binary file given by mistake must not flood the terminal with
 * raw bytes), then how many there were in all.
 */
#define ERRORS_SHOWN 5

static void rule_error(size_t *nerr, const char *msg)
{
	struct sbuf esc = { 0 };
	const unsigned char *c;
	char hex[8];

	if ((*nerr)++ >= ERRORS_SHOWN)
		return;
	for (c = (const unsigned char *)msg; *c; c++) {
		if (*c >= 0x20 && *c < 0x7f) {
			sbuf_addc(&esc, *c);
			continue;
		}
		snprintf(hex, sizeof(hex), "\\x%02x", *c);
		sbuf_add(&esc, hex, 4);
	}
	sbuf_addc(&esc, 0);
	p_err("%s", esc.p);
	sbuf_free(&esc);
}

int do_check(int argc, char **argv)
{
	static const struct option opts[] = {
		COMMON_LONG_OPTS,
		{ "index", required_argument, NULL, 'i' },
		{ "anchored", no_argument, NULL, 'a' },
		{ "witness", no_argument, NULL, 'w' },
		{ "strict", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *index_src = NULL, *used;
	bool anchored = false, witness = false;
	struct rules rs = { 0 };
	struct pi_index idx;
	struct matcher m;
	struct ck_set set;
	struct ck_search *s;
	struct check_ctx ctx;
	struct fmt *lfmts;
	struct pi_err err;
	size_t i, bad = 0, count[4] = { 0 };
	bool strict = false;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "jpvi:awsh", opts, NULL)) >= 0) {
		if (common_opt(opt))
			continue;
		switch (opt) {
		case 'i': index_src = optarg; break;
		case 'a': anchored = true; break;
		case 'w': witness = true; break;
		case 's': strict = true; break;
		case 'h':
			fputs(help_text, stdout);
			return EXIT_OK;
		default:
			fprintf(stderr, USAGE);
			return EXIT_ERR;
		}
	}
	if (optind >= argc) {
		p_err("check needs a rules file");
		fprintf(stderr, USAGE);
		return EXIT_ERR;
	}
	for (i = optind; i < (size_t)argc; i++)
		if (rules_load(&rs, argv[i], anchored, &err))
			rule_error(&bad, err.msg);
	for (i = 0; i < rs.n; i++) {
		struct rule *r = &rs.v[i];

		/* no kernel message holds a NUL: a binary file, most likely */
		if (memchr(r->pat, 0, r->len)) {
			char msg[600];

			snprintf(msg, sizeof(msg), "%s:%u: NUL byte in the line (not a text file?)",
				 r->file, r->line);
			rule_error(&bad, msg);
			continue;
		}
		if (ck_rule_init(&r->ck, r->pat, r->len, r->mode, &err)) {
			char msg[sizeof(err.msg) + 600];

			snprintf(msg, sizeof(msg), "%s:%u: rule %.200s: %s", r->file, r->line,
				 r->label ? r->label : "-", err.msg);
			rule_error(&bad, msg);
			continue;
		}
		r->ok = true;
	}
	ret = EXIT_ERR;
	if (bad > ERRORS_SHOWN)
		p_err("%zu errors in the rules, the first %d shown", bad, ERRORS_SHOWN);
	if (bad)
		goto out_rules;

	pi_index_init(&idx);
	if (index_src ? pi_load_source(&idx, index_src, &err) :
			pi_load_default(&idx, &used, &err)) {
		p_err("%s", err.msg);
		pi_index_free(&idx);
		goto out_rules;
	}
	matcher_build(&m, &idx);
	lfmts = xcalloc(m.nfmt ? m.nfmt : 1, sizeof(*lfmts));
	for (i = 0; i < m.nfmt; i++)
		check_line_format(&lfmts[i], &m, i);
	ck_set_init(&set, lfmts, m.nfmt);
	s = ck_search_new();
	check_ctx_init(&ctx, &m, &set, s, lfmts, witness);

	json_begin();
	if (json_output)
		jsonw_start_array(json_wtr);
	for (i = 0; i < rs.n; i++) {
		struct verdict v;

		check_rule(&ctx, &rs.v[i], &v);
		count[v.kind]++;
		if (json_output)
			check_print_json(&ctx, &rs.v[i], &v);
		else
			check_print_text(&ctx, &rs.v[i], &v);
		check_verdict_free(&v);
	}
	if (json_output) {
		jsonw_end_array(json_wtr);
		json_end();
	}
	fflush(stdout);
	fprintf(stderr, "printk-index: %zu rules: %zu live, %zu live-by-arguments, %zu unknown, %zu stale\n",
		rs.n, count[V_LIVE], count[V_LIVE_ARGS], count[V_UNKNOWN], count[V_STALE]);
	ret = count[V_STALE] || (strict && count[V_UNKNOWN]) ? EXIT_DIFF : EXIT_OK;

	check_ctx_free(&ctx);
	ck_search_free(s);
	ck_set_free(&set);
	for (i = 0; i < m.nfmt; i++)
		fmt_free(&lfmts[i]);
	free(lfmts);
	matcher_free(&m);
	pi_index_free(&idx);
out_rules:
	rules_free(&rs);
	return ret;
}
