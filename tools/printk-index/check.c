// SPDX-License-Identifier: GPL-2.0
/*
 * printk-index check [-j] [-v] [--anchored] [--witness] [--index SOURCE] RULES...
 *
 * For each log-monitoring rule (a regular expression), which index entries
 * can print a message the rule matches (checker.h). RULES is a text file,
 * one regex per line ("#" comments, optional "label<TAB>regex"), or a
 * node-problem-detector kernel monitor configuration (JSON: its
 * rules[].pattern, labelled by reason), told apart by the first byte.
 *
 * Per rule: the strong matches (the format's own literal text carries at
 * least half of the rule's literal bytes), and the number of weak ones
 * (listed with -v). A rule without a strong match is stale: exit status 1.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "checker.h"
#include "escape.h"
#include "index.h"
#include "main.h"
#include "matcher.h"

#define USAGE "Usage: printk-index check [-j] [-v] [--anchored] [--witness] [--index SOURCE] RULES...\n"

struct rule {
	const char *file;
	unsigned int line;
	char *label;		/* NULL: none */
	char *pat;
	size_t len;
	enum rx_mode mode;
	struct ck_rule ck;
	bool ok;		/* parsed */
};

struct rules {
	struct rule *v;
	size_t n, cap;
};

static struct rule *add_rule(struct rules *rs, const char *file, unsigned int line)
{
	struct rule *r;

	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 16;
		rs->v = xrealloc(rs->v, rs->cap * sizeof(*rs->v));
	}
	r = &rs->v[rs->n++];
	memset(r, 0, sizeof(*r));
	r->file = file;
	r->line = line;
	return r;
}

static char *xmemdup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

/* ------------------------------------------------------------------ */
/* Plain rule files                                                     */

static void load_text(struct rules *rs, const char *file, const char *buf, size_t n,
		      enum rx_mode mode)
{
	unsigned int line = 0;
	size_t i = 0;

	while (i < n) {
		const char *s = buf + i, *nl = memchr(s, '\n', n - i), *tab;
		size_t len = nl ? (size_t)(nl - s) : n - i;
		struct rule *r;

		i += len + 1;
		line++;
		if (len && s[len - 1] == '\r')
			len--;
		if (!len || s[0] == '#')
			continue;
		r = add_rule(rs, file, line);
		r->mode = mode;
		/* a NUL byte: no label, the whole line is reported */
		tab = memchr(s, 0, len) ? NULL : memchr(s, '\t', len);
		if (tab) {
			r->label = xmemdup(s, tab - s);
			len -= tab + 1 - s;
			s = tab + 1;
		}
		r->pat = xmemdup(s, len);
		r->len = len;
	}
}

/* ------------------------------------------------------------------ */
/* node-problem-detector JSON: just what is needed                      */

struct jp {
	const char *p, *end;
	unsigned int line;
	const char *file;
	struct pi_err *err;
};

static int jfail(struct jp *j, const char *what)
{
	pi_seterr(j->err, "%s:%u: bad JSON: %s", j->file, j->line, what);
	return -1;
}

static void jws(struct jp *j)
{
	while (j->p < j->end && strchr(" \t\r\n", *j->p)) {
		if (*j->p == '\n')
			j->line++;
		j->p++;
	}
}

static void utf8(struct sbuf *o, unsigned int c)
{
	if (c < 0x80) {
		sbuf_addc(o, c);
	} else if (c < 0x800) {
		sbuf_addc(o, 0xc0 | c >> 6);
		sbuf_addc(o, 0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		sbuf_addc(o, 0xe0 | c >> 12);
		sbuf_addc(o, 0x80 | (c >> 6 & 0x3f));
		sbuf_addc(o, 0x80 | (c & 0x3f));
	} else {
		sbuf_addc(o, 0xf0 | c >> 18);
		sbuf_addc(o, 0x80 | (c >> 12 & 0x3f));
		sbuf_addc(o, 0x80 | (c >> 6 & 0x3f));
		sbuf_addc(o, 0x80 | (c & 0x3f));
	}
}

static int jhex4(struct jp *j, unsigned int *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++, j->p++) {
		char c = j->p < j->end ? *j->p : 0;

		if (c >= '0' && c <= '9')
			*v = *v * 16 + c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			*v = *v * 16 + (c | 0x20) - 'a' + 10;
		else
			return jfail(j, "bad \\u escape");
	}
	return 0;
}

static int jstring(struct jp *j, struct sbuf *o)
{
	sbuf_reset(o);
	if (j->p >= j->end || *j->p != '"')
		return jfail(j, "string expected");
	j->p++;
	while (j->p < j->end && *j->p != '"') {
		unsigned int c, lo;

		if ((unsigned char)*j->p < 0x20)
			return jfail(j, "control character in string");
		if (*j->p != '\\') {
			sbuf_addc(o, *j->p++);
			continue;
		}
		if (++j->p >= j->end)
			break;
		switch (*j->p++) {
		case '"': sbuf_addc(o, '"'); break;
		case '\\': sbuf_addc(o, '\\'); break;
		case '/': sbuf_addc(o, '/'); break;
		case 'b': sbuf_addc(o, '\b'); break;
		case 'f': sbuf_addc(o, '\f'); break;
		case 'n': sbuf_addc(o, '\n'); break;
		case 'r': sbuf_addc(o, '\r'); break;
		case 't': sbuf_addc(o, '\t'); break;
		case 'u':
			if (jhex4(j, &c))
				return -1;
			if (c >= 0xd800 && c < 0xdc00 && j->end - j->p >= 6 &&
			    j->p[0] == '\\' && j->p[1] == 'u') {
				j->p += 2;
				if (jhex4(j, &lo))
					return -1;
				c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
			}
			utf8(o, c);
			break;
		default:
			return jfail(j, "bad escape in string");
		}
	}
	if (j->p >= j->end)
		return jfail(j, "unterminated string");
	j->p++;
	return 0;
}

static int jskip(struct jp *j, int depth)
{
	struct sbuf tmp = { 0 };
	int ret = 0;

	jws(j);
	if (depth > 100)
		return jfail(j, "nested too deep");
	if (j->p >= j->end)
		return jfail(j, "value expected");
	if (*j->p == '"') {
		ret = jstring(j, &tmp);
	} else if (*j->p == '{' || *j->p == '[') {
		char close = *j->p == '{' ? '}' : ']';

		j->p++;
		jws(j);
		if (j->p < j->end && *j->p == close) {
			j->p++;
			return 0;
		}
		for (;;) {
			if (close == '}') {
				jws(j);
				if (jstring(j, &tmp))
					break;
				jws(j);
				if (j->p >= j->end || *j->p++ != ':') {
					ret = jfail(j, "':' expected");
					break;
				}
			}
			if (jskip(j, depth + 1)) {
				ret = -1;
				break;
			}
			jws(j);
			if (j->p < j->end && *j->p == ',') {
				j->p++;
				continue;
			}
			if (j->p < j->end && *j->p == close) {
				j->p++;
				break;
			}
			ret = jfail(j, "',' or end of container expected");
			break;
		}
	} else {
		const char *s = j->p;

		while (j->p < j->end && strchr("+-.0123456789eEtruefalsn", *j->p))
			j->p++;
		if (s == j->p)
			ret = jfail(j, "value expected");
	}
	sbuf_free(&tmp);
	return ret;
}

/* one element of "rules": an object with "pattern" (and "reason") */
static int jrule(struct jp *j, struct rules *rs, enum rx_mode mode)
{
	struct sbuf key = { 0 }, val = { 0 }, reason = { 0 };
	struct rule *r = NULL;
	bool have_reason = false;
	unsigned int start_line;
	int ret = -1;

	jws(j);
	start_line = j->line;
	if (j->p >= j->end || *j->p++ != '{')
		return jfail(j, "rule object expected");
	for (;;) {
		unsigned int line;

		jws(j);
		if (j->p < j->end && *j->p == '}') {
			j->p++;
			break;
		}
		if (jstring(j, &key))
			goto out;
		jws(j);
		if (j->p >= j->end || *j->p++ != ':') {
			jfail(j, "':' expected");
			goto out;
		}
		jws(j);
		line = j->line;
		if (!strcmp(key.p, "pattern") || !strcmp(key.p, "reason")) {
			if (jstring(j, &val))
				goto out;
			if (key.p[0] == 'r') {
				sbuf_reset(&reason);
				sbuf_add(&reason, val.p, val.len);
				have_reason = true;
			} else if (!r) {
				r = add_rule(rs, j->file, line);
				r->mode = mode;
				r->pat = xmemdup(val.p, val.len);
				r->len = val.len;
			}
		} else if (jskip(j, 1)) {
			goto out;
		}
		jws(j);
		if (j->p < j->end && *j->p == ',')
			j->p++;
	}
	if (!r) {
		/* a rule that can never fire would pass unnoticed */
		pi_seterr(j->err, "%s:%u: rule %s has no \"pattern\"", j->file, start_line,
			  have_reason && reason.p ? reason.p : "-");
		goto out;
	}
	if (have_reason)
		r->label = xmemdup(reason.p, reason.len);
	ret = 0;
out:
	sbuf_free(&key);
	sbuf_free(&val);
	sbuf_free(&reason);
	return ret;
}

static int load_npd(struct rules *rs, const char *file, const char *buf, size_t n,
		    enum rx_mode mode, struct pi_err *err)
{
	struct jp j = { .p = buf, .end = buf + n, .line = 1, .file = file, .err = err };
	struct sbuf key = { 0 };
	bool found = false;
	int ret = -1;

	jws(&j);
	j.p++;	/* '{', checked by the caller */
	for (;;) {
		jws(&j);
		if (j.p < j.end && *j.p == '}')
			break;
		if (jstring(&j, &key))
			goto out;
		jws(&j);
		if (j.p >= j.end || *j.p++ != ':') {
			jfail(&j, "':' expected");
			goto out;
		}
		jws(&j);
		if (!strcmp(key.p, "rules") && j.p < j.end && *j.p == '[') {
			found = true;
			j.p++;
			for (;;) {
				jws(&j);
				if (j.p < j.end && *j.p == ']') {
					j.p++;
					break;
				}
				if (jrule(&j, rs, mode))
					goto out;
				jws(&j);
				if (j.p < j.end && *j.p == ',')
					j.p++;
				else if (j.p >= j.end || *j.p != ']') {
					jfail(&j, "',' or ']' expected");
					goto out;
				}
			}
		} else if (jskip(&j, 1)) {
			goto out;
		}
		jws(&j);
		if (j.p < j.end && *j.p == ',')
			j.p++;
		else if (j.p >= j.end || *j.p != '}') {
			jfail(&j, "',' or '}' expected");
			goto out;
		}
	}
	if (!found) {
		pi_seterr(err, "%s: no \"rules\" array (not a node-problem-detector configuration?)", file);
		goto out;
	}
	ret = 0;
out:
	sbuf_free(&key);
	return ret;
}

static int load_rules(struct rules *rs, const char *file, bool anchored, struct pi_err *err)
{
	FILE *f = fopen(file, "r");
	struct sbuf buf = { 0 };
	char chunk[65536];
	size_t n, i, before = rs->n;
	int ret = 0;

	if (!f) {
		pi_seterr(err, "%s: %s", file, strerror(errno));
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		sbuf_add(&buf, chunk, n);
	if (ferror(f)) {
		pi_seterr(err, "%s: read error", file);
		ret = -1;
	}
	fclose(f);
	for (i = 0; i < buf.len && strchr(" \t\r\n", buf.p[i]); i++)
		;
	if (!ret && i < buf.len && buf.p[i] == '{')
		ret = load_npd(rs, file, buf.p, buf.len, anchored ? RX_WHOLE : RX_SUFFIX, err);
	else if (!ret)
		load_text(rs, file, buf.p ? buf.p : "", buf.len, anchored ? RX_WHOLE : RX_SEARCH);
	/* checking nothing would look like success */
	if (!ret && i == buf.len) {
		pi_seterr(err, "%s: empty rules file", file);
		ret = -1;
	} else if (!ret && rs->n == before) {
		pi_seterr(err, "%s: no rule in the file (%s)", file,
			  buf.p[i] == '{' ? "an empty \"rules\" array" : "only comments");
		ret = -1;
	}
	sbuf_free(&buf);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Checking and output                                                  */

struct hit {
	uint32_t fmt;
	uint32_t w;
	char *witness;
	size_t wlen;
	bool verified;	/* the match model prints the witness */
};

struct verdict {
	struct hit *strong;
	size_t nstrong, cap;
	uint32_t *weak;
	size_t nweak, wcap;
	size_t undecided;
};

static void check_rule(struct rule *r, struct matcher *m, struct ck_set *set,
		       struct ck_search *s, bool want_witness, struct verdict *v)
{
	struct sbuf w = { 0 };
	uint32_t fi;

	memset(v, 0, sizeof(*v));
	ck_set_prepare(set, &r->ck);
	for (fi = 0; fi < m->nfmt; fi++) {
		struct ck_result res;

		ck_check_set(s, &r->ck, set, fi, &res, want_witness ? &w : NULL);
		if (res.budget)
			v->undecided++;
		if (res.v == CK_STRONG) {
			struct hit *h;

			if (v->nstrong == v->cap) {
				v->cap = v->cap ? v->cap * 2 : 8;
				v->strong = xrealloc(v->strong, v->cap * sizeof(*v->strong));
			}
			h = &v->strong[v->nstrong++];
			memset(h, 0, sizeof(*h));
			h->fmt = fi;
			h->w = res.w;
			if (want_witness && w.p) {
				h->witness = xmemdup(w.p, w.len);
				h->wlen = w.len;
				h->verified = fmt_match(&m->fmts[fi], w.p, w.len) == FMT_FULL;
			}
		} else if (res.v == CK_WEAK) {
			if (v->nweak == v->wcap) {
				v->wcap = v->wcap ? v->wcap * 2 : 64;
				v->weak = xrealloc(v->weak, v->wcap * sizeof(*v->weak));
			}
			v->weak[v->nweak++] = fi;
		}
	}
	sbuf_free(&w);
}

static size_t count_entries(const struct matcher *m, const uint32_t *fmts, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += m->ent_count[fmts[i]];
	return c;
}

static void verdict_free(struct verdict *v)
{
	size_t i;

	for (i = 0; i < v->nstrong; i++)
		free(v->strong[i].witness);
	free(v->strong);
	free(v->weak);
}

/* The pattern as written, control bytes as \xHH. */
static void print_pattern(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c < 0x20 || c == 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
}

static const char *mode_name(enum rx_mode m)
{
	return m == RX_WHOLE ? "whole" : m == RX_SUFFIX ? "suffix" : "search";
}

static void print_entry_text(const char *kind, const struct pi_entry *e)
{
	char lvl[16];

	pi_level_str(e, lvl);
	printf("    %s %s %s %s:%u %s \"", kind, e->module, lvl, e->file, e->line, e->func);
	pi_escape_file(stdout, e->fmt, e->fmt_len);
	printf("\"");
}

static void print_text(const struct rule *r, const struct matcher *m,
		       const struct verdict *v, bool show_witness)
{
	size_t i, k, nstrong = 0;

	for (i = 0; i < v->nstrong; i++)
		nstrong += m->ent_count[v->strong[i].fmt];
	printf("%s:%u %s %s: %zu strong, %zu weak", r->file, r->line,
	       r->label ? r->label : "-", nstrong ? "ok" : "STALE", nstrong,
	       count_entries(m, v->weak, v->nweak));
	if (v->undecided)
		printf(", %zu undecided", v->undecided);
	printf(": ");
	print_pattern(r->pat, r->len);
	printf("\n");
	for (i = 0; i < v->nstrong; i++) {
		const struct hit *h = &v->strong[i];

		for (k = 0; k < m->ent_count[h->fmt]; k++) {
			print_entry_text("strong", &m->idx->v[m->ents[m->ent_start[h->fmt] + k]]);
			printf(" %u/%u\n", h->w, r->ck.R);
			if (show_witness && h->witness) {
				printf("        witness%s \"", h->verified ? "" : " (NOT printed by the match model)");
				pi_escape_file(stdout, h->witness, h->wlen);
				printf("\"\n");
			}
		}
	}
	if (!verbose)
		return;
	for (i = 0; i < v->nweak; i++) {
		for (k = 0; k < m->ent_count[v->weak[i]]; k++) {
			print_entry_text("weak", &m->idx->v[m->ents[m->ent_start[v->weak[i]] + k]]);
			printf("\n");
		}
	}
}

static void print_json(const struct rule *r, const struct matcher *m,
		       const struct verdict *v, bool show_witness)
{
	size_t i, k, nstrong = 0;

	for (i = 0; i < v->nstrong; i++)
		nstrong += m->ent_count[v->strong[i].fmt];
	jsonw_start_object(json_wtr);
	jsonw_string_field(json_wtr, "file", r->file);
	jsonw_uint_field(json_wtr, "line", r->line);
	jsonw_name(json_wtr, "label");
	if (r->label)
		jsonw_string(json_wtr, r->label);
	else
		jsonw_null(json_wtr);
	jsonw_name(json_wtr, "pattern");
	jsonw_string_len(json_wtr, r->pat, r->len);
	jsonw_string_field(json_wtr, "mode", mode_name(r->mode));
	jsonw_uint_field(json_wtr, "required_literals", r->ck.R);
	jsonw_string_field(json_wtr, "status", nstrong ? "ok" : "stale");
	jsonw_uint_field(json_wtr, "strong_count", nstrong);
	jsonw_uint_field(json_wtr, "weak_count", count_entries(m, v->weak, v->nweak));
	jsonw_uint_field(json_wtr, "undecided", v->undecided);
	jsonw_name(json_wtr, "strong");
	jsonw_start_array(json_wtr);
	for (i = 0; i < v->nstrong; i++) {
		const struct hit *h = &v->strong[i];

		for (k = 0; k < m->ent_count[h->fmt]; k++) {
			jsonw_start_object(json_wtr);
			jsonw_name(json_wtr, "entry");
			pi_json_entry(json_wtr, &m->idx->v[m->ents[m->ent_start[h->fmt] + k]]);
			jsonw_uint_field(json_wtr, "literal_bytes", h->w);
			if (show_witness && h->witness) {
				jsonw_name(json_wtr, "witness");
				jsonw_string_len(json_wtr, h->witness, h->wlen);
				jsonw_bool_field(json_wtr, "witness_verified", h->verified);
			}
			jsonw_end_object(json_wtr);
		}
	}
	jsonw_end_array(json_wtr);
	if (verbose) {
		jsonw_name(json_wtr, "weak");
		jsonw_start_array(json_wtr);
		for (i = 0; i < v->nweak; i++)
			for (k = 0; k < m->ent_count[v->weak[i]]; k++)
				pi_json_entry(json_wtr, &m->idx->v[m->ents[m->ent_start[v->weak[i]] + k]]);
		jsonw_end_array(json_wtr);
	}
	jsonw_end_object(json_wtr);
}

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
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "index", required_argument, NULL, 'i' },
		{ "anchored", no_argument, NULL, 'a' },
		{ "witness", no_argument, NULL, 'w' },
		{ 0 }
	};
	const char *index_src = NULL, *used;
	bool anchored = false, witness = false;
	struct rules rs = { 0 };
	struct pi_index idx;
	struct matcher m;
	struct ck_set set;
	struct ck_search *s;
	struct pi_err err;
	size_t i, nstale = 0, bad = 0;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "jpvi:aw", opts, NULL)) >= 0) {
		switch (opt) {
		case 'j': json_output = true; break;
		case 'p': json_output = pretty_output = true; break;
		case 'v': verbose++; break;
		case 'i': index_src = optarg; break;
		case 'a': anchored = true; break;
		case 'w': witness = true; break;
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
		if (load_rules(&rs, argv[i], anchored, &err))
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
	ck_set_init(&set, m.fmts, m.nfmt);
	s = ck_search_new();

	json_begin();
	if (json_output)
		jsonw_start_array(json_wtr);
	for (i = 0; i < rs.n; i++) {
		struct verdict v;

		check_rule(&rs.v[i], &m, &set, s, witness, &v);
		if (!v.nstrong)
			nstale++;
		if (json_output)
			print_json(&rs.v[i], &m, &v, witness);
		else
			print_text(&rs.v[i], &m, &v, witness);
		verdict_free(&v);
	}
	if (json_output) {
		jsonw_end_array(json_wtr);
		json_end();
	}
	fflush(stdout);
	fprintf(stderr, "printk-index: %zu rules: %zu ok, %zu stale\n", rs.n, rs.n - nstale, nstale);
	ret = nstale ? EXIT_DIFF : EXIT_OK;

	ck_search_free(s);
	ck_set_free(&set);
	matcher_free(&m);
	pi_index_free(&idx);
out_rules:
	for (i = 0; i < rs.n; i++) {
		if (rs.v[i].ok)
			ck_rule_free(&rs.v[i].ck);
		free(rs.v[i].label);
		free(rs.v[i].pat);
	}
	free(rs.v);
	return ret;
}
