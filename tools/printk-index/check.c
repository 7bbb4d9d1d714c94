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

/* What check's options ask for (the common -j, -p, -v: main.h's globals). */
struct check_opts {
	const char *index_src;	/* NULL: the running kernel's index */
	bool anchored;
	bool witness;
	bool strict;
};

/*
 * check's options into *o; optind is left at the first rules file.
 * Returns -1 to go on, else the exit status: --help, or a usage error.
 */
static int parse_check_opts(int argc, char **argv, struct check_opts *o)
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
	int opt;

	while ((opt = getopt_long(argc, argv, "jpvi:awsh", opts, NULL)) >= 0) {
		if (common_opt(opt))
			continue;
		switch (opt) {
		case 'i': o->index_src = optarg; break;
		case 'a': o->anchored = true; break;
		case 'w': o->witness = true; break;
		case 's': o->strict = true; break;
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
	return -1;
}

/* One rule's regex compiled (r->ok), or its error counted in *bad. */
static void compile_rule(struct rule *r, size_t *bad)
{
	struct pi_err err;

	/* no kernel message holds a NUL: a binary file, most likely */
	if (memchr(r->pat, 0, r->len)) {
		char msg[600];

		snprintf(msg, sizeof(msg), "%s:%u: NUL byte in the line (not a text file?)",
			 r->file, r->line);
		rule_error(bad, msg);
		return;
	}
	if (ck_rule_init(&r->ck, r->pat, r->len, r->mode, &err)) {
		char msg[sizeof(err.msg) + 600];

		snprintf(msg, sizeof(msg), "%s:%u: rule %.200s: %s", r->file, r->line,
			 r->label ? r->label : "-", err.msg);
		rule_error(bad, msg);
		return;
	}
	r->ok = true;
}

/*
 * Every rules file read and every rule compiled, the errors of both
 * reported (the first ERRORS_SHOWN, then their number): all of them at
 * once, not one per run. Returns the number of errors.
 */
static size_t load_rules(struct rules *rs, char **files, size_t nfiles, bool anchored)
{
	struct pi_err err;
	size_t i, bad = 0;

	for (i = 0; i < nfiles; i++)
		if (rules_load(rs, files[i], anchored, &err))
			rule_error(&bad, err.msg);
	for (i = 0; i < rs->n; i++)
		compile_rule(&rs->v[i], &bad);
	if (bad > ERRORS_SHOWN)
		p_err("%zu errors in the rules, the first %d shown", bad, ERRORS_SHOWN);
	return bad;
}

/* The index and what the verdicts are computed from, built from it. */
struct check_run {
	struct pi_index idx;
	struct matcher m;
	struct fmt *lfmts;	/* per format: as check sees it */
	struct ck_set set;
	struct ck_search *search;
	struct check_ctx ctx;
};

/* Load the index (its error reported) and build on it; -1 on failure. */
static int check_run_init(struct check_run *cr, const struct check_opts *o)
{
	struct pi_err err;
	const char *used;
	size_t i;

	pi_index_init(&cr->idx);
	if (pi_load_index(&cr->idx, o->index_src, &used, &err)) {
		p_err("%s", err.msg);
		pi_index_free(&cr->idx);
		return -1;
	}
	matcher_build(&cr->m, &cr->idx);
	cr->lfmts = xcalloc(cr->m.nfmt ? cr->m.nfmt : 1, sizeof(*cr->lfmts));
	for (i = 0; i < cr->m.nfmt; i++)
		check_line_format(&cr->lfmts[i], &cr->m, i);
	ck_set_init(&cr->set, cr->lfmts, cr->m.nfmt);
	cr->search = ck_search_new();
	check_ctx_init(&cr->ctx, &cr->m, &cr->set, cr->search, cr->lfmts, o->witness);
	return 0;
}

static void check_run_free(struct check_run *cr)
{
	size_t i;

	check_ctx_free(&cr->ctx);
	ck_search_free(cr->search);
	ck_set_free(&cr->set);
	for (i = 0; i < cr->m.nfmt; i++)
		fmt_free(&cr->lfmts[i]);
	free(cr->lfmts);
	matcher_free(&cr->m);
	pi_index_free(&cr->idx);
}

/*
 * Each rule's verdict, printed as it comes, and the count of each kind on
 * stderr. Returns the exit status: 1 if a rule is stale (strict: or
 * unknown).
 */
static int check_rules(struct check_ctx *ctx, struct rules *rs, bool strict)
{
	size_t i, count[4] = { 0 };

	json_begin();
	if (json_output)
		jsonw_start_array(json_wtr);
	for (i = 0; i < rs->n; i++) {
		struct verdict v;

		check_rule(ctx, &rs->v[i], &v);
		count[v.kind]++;
		if (json_output)
			check_print_json(ctx, &rs->v[i], &v);
		else
			check_print_text(ctx, &rs->v[i], &v);
		check_verdict_free(&v);
	}
	if (json_output) {
		jsonw_end_array(json_wtr);
		json_end();
	}
	fflush(stdout);
	fprintf(stderr, "printk-index: %zu rules: %zu live, %zu live-by-arguments, %zu unknown, %zu stale\n",
		rs->n, count[V_LIVE], count[V_LIVE_ARGS], count[V_UNKNOWN], count[V_STALE]);
	return count[V_STALE] || (strict && count[V_UNKNOWN]) ? EXIT_DIFF : EXIT_OK;
}

int do_check(int argc, char **argv)
{
	struct check_opts o = { 0 };
	struct rules rs = { 0 };
	struct check_run cr;
	int ret;

	ret = parse_check_opts(argc, argv, &o);
	if (ret >= 0)
		return ret;
	/* the rules first: their errors are reported whatever the index */
	ret = EXIT_ERR;
	if (!load_rules(&rs, argv + optind, argc - optind, o.anchored) &&
	    !check_run_init(&cr, &o)) {
		ret = check_rules(&cr.ctx, &rs, o.strict);
		check_run_free(&cr);
	}
	rules_free(&rs);
	return ret;
}
