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
 *
 * A line that no format prints whole but a base format without newline
 * followed by KERN_CONT formats does (cont.h) is reported on its base
 * entry, with OTHERS counting the other possible bases; -v lists the
 * pieces, and the JSON object gets a "pieces" array.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cont.h"
#include "escape.h"
#include "index.h"
#include "logline.h"
#include "main.h"
#include "matcher.h"
#include "source.h"

/* Longer than any printk record (LOG_LINE_MAX is 1024 - 32): such lines
 * are not kernel messages, and the matcher's cost grows with length. */
#define PI_MAX_MSG 4096

/* lines that fit no shape named in the summary */
#define NO_SHAPE_NAMED 10

struct stats {
	size_t lines, attributed, generic, unattributed, catch_all, skipped;
	size_t kinds[LOG_NKINDS];
	size_t no_shape, no_shape_line[NO_SHAPE_NAMED];
	size_t binary;	/* lines with bytes no log text has */
};

/*
 * dmesg, journalctl and /dev/kmsg escape control bytes (\x07, \x00):
 * a NUL or a control byte other than tab and ESC (colours) in a line
 * means the input is not a text log.
 */
static bool is_binary(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c < ' ' && c != '\t' && c != '\x1b')
			return true;
	}
	return false;
}

/*
 * The entry a line is reported on, and how many others could be it; none
 * for a line only catch-all formats print (its candidates, with -v).
 */
static const struct pi_entry *reported_entry(const struct attribution *a,
					     size_t *others)
{
	if (a->chained) {
		*others = a->chain.others;
		return a->chain.p[0].e;
	}
	*others = a->single.nmatch ? a->single.nmatch - 1 : 0;
	return a->single.status == MATCH_CATCH_ALL ? NULL : a->single.best;
}

/* attributed, generic or unattributed (catch-all lines too) */
static const char *reported_status(const struct attribution *a)
{
	enum attr_class c = attribution_class(a);

	return attr_class_name(c == CLASS_CATCH_ALL ? CLASS_NONE : c);
}

static char *put_bytes(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

static char *put_uint(char *p, unsigned long long v)
{
	char tmp[24];
	size_t n = 0;

	do
		tmp[n++] = '0' + v % 10;
	while (v /= 10);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/*
 * "LINENO STATUS MODULE FILE:LINE FUNCTION +OTHERS": one line per log
 * line, so it is put together by hand and written with one call rather
 * than by printf(), which parses its format at each of a million lines.
 */
static void print_line(size_t lineno, const char *status, const struct pi_entry *e,
		       size_t others)
{
	size_t ls = strlen(status), lm = strlen(e->module), lf = strlen(e->file);
	size_t lfn = strlen(e->func), need = ls + lm + lf + lfn + 3 * 20 + 8;
	char buf[512], *big = need > sizeof(buf) ? xmalloc(need) : NULL;
	char *start = big ? big : buf, *p = start;

	p = put_uint(p, lineno);
	*p++ = ' ';
	p = put_bytes(p, status, ls);
	*p++ = ' ';
	p = put_bytes(p, e->module, lm);
	*p++ = ' ';
	p = put_bytes(p, e->file, lf);
	*p++ = ':';
	p = put_uint(p, e->line);
	*p++ = ' ';
	p = put_bytes(p, e->func, lfn);
	*p++ = ' ';
	*p++ = '+';
	p = put_uint(p, others);
	*p++ = '\n';
	fwrite_unlocked(start, 1, p - start, stdout);
	free(big);
}

static void print_text(size_t lineno, const struct log_line *ll,
		       const struct attribution *a)
{
	const struct match_result *r = &a->single;
	size_t others, i;
	const struct pi_entry *e = reported_entry(a, &others);
	char lvl[16];

	if (e)
		print_line(lineno, reported_status(a), e, others);
	else
		printf("%zu unattributed - - - +0\n", lineno);
	if (!verbose)
		return;
	printf("    %s level %d: \"", log_kind_name(ll->kind), ll->level);
	pi_escape_file(stdout, ll->msg, ll->len);
	printf("\"\n");
	if (a->chained) {
		for (i = 0; i < a->chain.n; i++) {
			const struct chain_piece *p = &a->chain.p[i];

			pi_level_str(p->e, lvl);
			printf("    %s %s %s:%u %s \"", i ? "continued by" : "pieces: base",
			       lvl, p->e->file, p->e->line, p->e->func);
			pi_escape_file(stdout, p->e->fmt, p->e->fmt_len);
			printf("\"\n");
		}
	} else if (!e && r->status == MATCH_CATCH_ALL) {
		pi_level_str(r->best, lvl);
		printf("    only catch-all formats print it (%zu entries), e.g. %s %s:%u %s %s \"",
		       r->nmatch, r->best->module, r->best->file, r->best->line, r->best->func, lvl);
		pi_escape_file(stdout, r->best->fmt, r->best->fmt_len);
		printf("\"\n");
	} else if (e) {
		pi_level_str(e, lvl);
		printf("    %s%s \"", r->prefix ? "prefix of " : "", lvl);
		pi_escape_file(stdout, e->fmt, e->fmt_len);
		printf("\"\n");
	}
}

static void print_json(size_t lineno, const struct log_line *ll,
		       const struct attribution *a, bool fits)
{
	size_t others;
	const struct pi_entry *e = reported_entry(a, &others);

	jsonw_start_object(json_wtr);
	jsonw_uint_field(json_wtr, "lineno", lineno);
	jsonw_string_field(json_wtr, "input", log_kind_name(ll->kind));
	jsonw_bool_field(json_wtr, "shaped", fits);
	jsonw_name(json_wtr, "level");
	if (ll->level >= 0)
		jsonw_int(json_wtr, ll->level);
	else
		jsonw_null(json_wtr);
	jsonw_name(json_wtr, "message");
	jsonw_string_len(json_wtr, ll->msg, ll->len);
	jsonw_string_field(json_wtr, "status", reported_status(a));
	jsonw_string_field(json_wtr, "class", attr_class_name(attribution_class(a)));
	jsonw_bool_field(json_wtr, "prefix", !a->chained && a->single.prefix);
	jsonw_uint_field(json_wtr, "others", others);
	jsonw_name(json_wtr, "entry");
	if (e)
		pi_json_entry(json_wtr, e);
	else
		jsonw_null(json_wtr);
	if (a->chained)
		chain_json(json_wtr, ll->msg, &a->chain);
	if (verbose && !e && a->single.status == MATCH_CATCH_ALL) {
		jsonw_uint_field(json_wtr, "candidates", a->single.nmatch);
		jsonw_name(json_wtr, "candidate");
		pi_json_entry(json_wtr, a->single.best);
	}
	jsonw_end_object(json_wtr);
}

/* "printk-index: 2 lines fit no log shape: 4, 9 (--format NAME forces one)" */
static void print_no_shape(const struct stats *st)
{
	size_t i;

	if (!st->no_shape)
		return;
	fprintf(stderr, "printk-index: %zu line%s fit%s no log shape and no format with literal text prints %s: ",
		st->no_shape, st->no_shape == 1 ? "" : "s", st->no_shape == 1 ? "s" : "",
		st->no_shape == 1 ? "it" : "them");
	for (i = 0; i < st->no_shape && i < NO_SHAPE_NAMED; i++)
		fprintf(stderr, "%s%zu", i ? ", " : "", st->no_shape_line[i]);
	fprintf(stderr, "%s (--format NAME forces a shape)\n",
		st->no_shape > NO_SHAPE_NAMED ? ", ..." : "");
}

/*
 * One line of the log: its shape, its attribution, its class counted and
 * printed.  len excludes the newline; lineno counts from 1.
 */
static void match_line(struct chain_matcher *chains, struct log_shape *shape, int forced,
		       char *line, ssize_t len, size_t lineno, struct stats *st,
		       struct sbuf *scratch)
{
	struct log_line ll;
	struct attribution a;
	bool fits;

	if (len && line[len - 1] == '\n')
		len--;
	if (len && line[len - 1] == '\r')
		len--;
	st->binary += is_binary(line, len);
	log_parse_in(shape, line, len, &ll, scratch);
	if (ll.kind == LOG_SKIP) {
		st->skipped++;
		return;
	}
	st->lines++;
	if (ll.len <= PI_MAX_MSG)
		attribute_message(chains, ll.msg, ll.len, ll.level, &a);
	else
		memset(&a, 0, sizeof(a));
	switch (attribution_class(&a)) {
	case CLASS_ATTRIBUTED: st->attributed++; break;
	case CLASS_GENERIC: st->generic++; break;
	case CLASS_CATCH_ALL: st->catch_all++; /* fall through */
	default: st->unattributed++; break;
	}
	/*
	 * A line without prefix is bare kernel text (dmesg -t, journalctl -o
	 * cat) if a format prints it; otherwise it fits no shape we know,
	 * which is said, not silently matched as text with its prefix.
	 */
	fits = ll.kind != LOG_RAW || forced == LOG_RAW ||
	       attribution_class(&a) >= CLASS_GENERIC;
	st->kinds[ll.kind]++;
	if (!fits) {
		if (st->no_shape < NO_SHAPE_NAMED)
			st->no_shape_line[st->no_shape] = lineno;
		st->no_shape++;
	}
	if (json_output)
		print_json(lineno, &ll, &a, fits);
	else
		print_text(lineno, &ll, &a);
}

/* The summary, the last object of -j's array, which it closes. */
static void json_summary(const struct stats *st)
{
	size_t i;
	int k;

	jsonw_start_object(json_wtr);
	jsonw_name(json_wtr, "summary");
	jsonw_start_object(json_wtr);
	jsonw_uint_field(json_wtr, "lines", st->lines);
	jsonw_uint_field(json_wtr, "attributed", st->attributed);
	jsonw_uint_field(json_wtr, "generic_only", st->generic);
	jsonw_uint_field(json_wtr, "unattributed", st->unattributed);
	jsonw_uint_field(json_wtr, "catch_all_only", st->catch_all);
	jsonw_uint_field(json_wtr, "skipped", st->skipped);
	jsonw_name(json_wtr, "shapes");
	jsonw_start_object(json_wtr);
	for (k = 0; k < LOG_SKIP; k++)
		if (st->kinds[k])
			jsonw_uint_field(json_wtr, log_kind_name(k), st->kinds[k]);
	jsonw_end_object(json_wtr);
	jsonw_uint_field(json_wtr, "no_shape", st->no_shape);
	jsonw_uint_field(json_wtr, "binary", st->binary);
	jsonw_name(json_wtr, "no_shape_lines");
	jsonw_start_array(json_wtr);
	for (i = 0; i < st->no_shape && i < NO_SHAPE_NAMED; i++)
		jsonw_uint(json_wtr, st->no_shape_line[i]);
	jsonw_end_array(json_wtr);
	jsonw_end_object(json_wtr);
	jsonw_end_object(json_wtr);
	jsonw_end_array(json_wtr);
	json_end();
}

/* The summary on stderr, after the lines on stdout. */
static void text_summary(const struct stats *st)
{
	fflush(stdout);
	fprintf(stderr, "printk-index: %zu lines: %zu attributed, %zu generic-only, %zu unattributed",
		st->lines, st->attributed, st->generic, st->unattributed);
	if (st->catch_all)
		fprintf(stderr, " (%zu of them printed by catch-all formats only)", st->catch_all);
	fprintf(stderr, " (%zu skipped)\n", st->skipped);
	print_no_shape(st);
}

/* What match's options ask for (the common -j, -p, -v: main.h's globals). */
struct match_opts {
	const char *index_src;	/* NULL: the running kernel's index */
	const char *input;	/* "-": standard input */
	int forced;		/* --format's shape, or LOG_NKINDS: guess per line */
};

/* The options into *o, the input too if given; -1 on a usage error. */
static int parse_match_opts(int argc, char **argv, struct match_opts *o)
{
	static const struct option opts[] = {
		COMMON_LONG_OPTS,
		{ "index", required_argument, NULL, 'i' },
		{ "format", required_argument, NULL, 'f' },
		{ 0 }
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "jpvi:", opts, NULL)) >= 0) {
		if (common_opt(opt))
			continue;
		switch (opt) {
		case 'i': o->index_src = optarg; break;
		case 'f':
			o->forced = log_kind_by_name(optarg);
			if (o->forced < 0) {
				p_err("unknown log format '%s' (auto, raw, dmesg, dmesg-r, dmesg-x, kmsg, journal, journal-json, syslog, rfc5424)",
				      optarg);
				return -1;
			}
			break;
		default:
			fprintf(stderr, "Usage: printk-index match [-j] [-v] [--format NAME] [--index SOURCE] [FILE|-]\n"
					"       printk-index match --follow [--from-start] [--no-wait] [--index SOURCE] [/dev/kmsg|FILE|-]\n");
			return -1;
		}
	}
	if (argc - optind > 1) {
		p_err("match reads one log file (or '-' for stdin)");
		return -1;
	}
	if (optind < argc)
		o->input = argv[optind];
	return 0;
}

/* The log to read: stdin for "-"; NULL, the error reported, if it cannot be. */
static FILE *open_log(const char *input)
{
	struct stat st;
	FILE *in;

	if (!strcmp(input, "-"))
		return stdin;
	in = fopen(input, "r");
	if (!in || fstat(fileno(in), &st) || S_ISDIR(st.st_mode)) {
		/* a folder opens, and fails at the first read: say it
		 * here, before any output or summary */
		p_err("%s: %s", input, in ? (errno = EISDIR, strerror(EISDIR)) :
					 strerror(errno));
		if (in)
			fclose(in);
		return NULL;
	}
	return in;
}

/*
 * Every line of the log matched and printed, counted in *st. Returns the
 * exit status: an error when the log could not be read to its end, or
 * when most of its lines fit no log shape.
 */
static int match_log(FILE *in, const char *input, struct chain_matcher *chains,
		     int forced, struct stats *st)
{
	struct sbuf scratch = { 0 };
	struct log_shape shape;
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	int ret = EXIT_ERR;

	log_shape_init(&shape, forced);
	json_begin();
	if (json_output)
		jsonw_start_array(json_wtr);
	while ((len = getline(&line, &cap, in)) >= 0)
		match_line(chains, &shape, forced, line, len, ++lineno, st, &scratch);
	if (ferror(in)) {
		p_err("%s: read error: %s", input, strerror(errno));
		goto out;
	}
	/* more than half of the lines unreadable: the wrong shape, or not
	 * a kernel log; the answers above are still all there */
	ret = st->no_shape * 2 > st->lines ? EXIT_ERR : EXIT_OK;
out:
	free(line);
	sbuf_free(&scratch);
	return ret;
}

/* The summary, even after a read error, and a warning for binary input. */
static void print_summary(const struct stats *st, const char *input)
{
	if (json_output)
		json_summary(st);
	else
		text_summary(st);
	if (st->binary)
		fprintf(stderr, "printk-index: warning: %s: %zu line%s not text (control bytes): binary input?\n",
			input, st->binary, st->binary == 1 ? " is" : "s are");
}

int do_match(int argc, char **argv)
{
	struct match_opts o = { .input = "-", .forced = LOG_NKINDS };
	struct chain_matcher chains;
	struct stats st = { 0 };
	struct pi_index idx;
	struct matcher m;
	struct pi_err err;
	const char *used;
	FILE *in;
	int ret;

	if (parse_match_opts(argc, argv, &o))
		return EXIT_ERR;
	pi_index_init(&idx);
	if (pi_load_index(&idx, o.index_src, &used, &err)) {
		p_err("%s", err.msg);
		pi_index_free(&idx);
		return EXIT_ERR;
	}
	in = open_log(o.input);
	if (!in) {
		pi_index_free(&idx);
		return EXIT_ERR;
	}
	matcher_build(&m, &idx);
	chain_init(&chains, &m);

	ret = match_log(in, o.input, &chains, o.forced, &st);
	print_summary(&st, o.input);
	if (in != stdin)
		fclose(in);
	chain_free(&chains);
	matcher_free(&m);
	pi_index_free(&idx);
	return ret;
}
