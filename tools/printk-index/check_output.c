// SPDX-License-Identifier: GPL-2.0
/* check: a rule's verdict and evidence as text (-v: all of it) or JSON. */
#include <stdlib.h>
#include <string.h>

#include "check_impl.h"
#include "escape.h"
#include "main.h"

/* ------------------------------------------------------------------ */
/* Output                                                               */

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

static const struct pi_entry *fmt_entry(const struct matcher *m, uint32_t fi, uint32_t k)
{
	return &m->idx->v[m->ents[m->ent_start[fi] + k]];
}

static void print_entry_text(const char *kind, const struct pi_entry *e)
{
	char lvl[16];

	pi_level_str(e, lvl);
	printf("    %s %s %s %s:%u %s \"", kind, e->module, lvl, e->file, e->line, e->func);
	pi_escape_file(stdout, e->fmt, e->fmt_len);
	printf("\"");
}

static void print_quoted(const char *s, size_t n)
{
	putchar('"');
	pi_escape_file(stdout, s, n);
	putchar('"');
}

/* The pieces of a witness that the arguments printed, quoted. */
static void print_arguments(const struct hit *h)
{
	size_t i = 0, j;

	while (i < h->wlen) {
		if (h->lit[i] == 'f') {
			i++;
			continue;
		}
		for (j = i; j < h->wlen && h->lit[j] == 'a'; j++)
			;
		putchar(' ');
		print_quoted(h->witness + i, j - i);
		i = j;
	}
}

/* Up to *left entries of a list of formats, one line each. */
static void print_fmt_entries(const struct matcher *m, const char *kind, uint32_t fi,
			      size_t *left, bool all)
{
	uint32_t k;

	for (k = 0; k < m->ent_count[fi] && (all || *left); k++) {
		print_entry_text(kind, fmt_entry(m, fi, k));
		printf("\n");
		*left -= *left > 0;
	}
}

static void print_more(size_t shown, size_t total, const char *what)
{
	if (total > shown)
		printf("    and %zu more %s (-v lists them)\n", total - shown, what);
}

static void print_helper(const struct check_ctx *c)
{
	print_entry_text("through", &c->m->idx->v[c->helper_ent]);
	printf(" (prints a buffer formatted elsewhere)\n");
}

/* Live: the entries of the strong hits, their score, their witness. */
static void print_live(const struct matcher *m, const struct rule *r, const struct verdict *v)
{
	bool all = verbose > 0;
	size_t i, k, left = EVIDENCE_SHOWN;

	for (i = 0; i < v->strong.n && (all || left); i++) {
		const struct hit *h = &v->strong.v[i];

		for (k = 0; k < m->ent_count[h->fmt] && (all || left); k++, left -= left > 0) {
			print_entry_text("live", fmt_entry(m, h->fmt, k));
			printf(" %u/%u\n", h->w, r->ck.R);
			if (h->witness) {
				printf("        witness%s ", h->verified ? "" :
				       " (NOT printed by the match model)");
				print_quoted(h->witness, h->wlen);
				printf("\n");
			}
		}
	}
	print_more(EVIDENCE_SHOWN, check_count_hit_entries(m, &v->strong), "live entries");
}

/* Live by arguments: the entries, a message, what the arguments printed. */
static void print_by_arguments(const struct matcher *m, const struct verdict *v)
{
	bool all = verbose > 0;
	size_t i, k, left = EVIDENCE_SHOWN;

	for (i = 0; i < v->by_args.n && (all || left); i++) {
		const struct hit *h = &v->by_args.v[i];

		for (k = 0; k < m->ent_count[h->fmt] && (all || left); k++, left -= left > 0) {
			print_entry_text("by arguments", fmt_entry(m, h->fmt, k));
			printf("\n        e.g. ");
			print_quoted(h->witness, h->wlen);
			printf(", the arguments printing");
			print_arguments(h);
			printf("\n");
		}
	}
	print_more(EVIDENCE_SHOWN, check_count_hit_entries(m, &v->by_args), "entries");
}

/* Unknown: the pass-through entries and the helper, in the verdict's order. */
static void print_pass_through(const struct check_ctx *c, const struct verdict *v)
{
	const struct matcher *m = c->m;
	bool all = verbose > 0;
	size_t i, left = EVIDENCE_SHOWN, total;

	if (v->helper_first) {
		print_helper(c);
		left -= left > 0;
	}
	total = check_count_entries(m, v->through, v->nthrough);
	/* keep a line for the helper when it comes last */
	for (i = 0; i < v->nthrough &&
		    (all || left > (size_t)(v->through_helper && !v->helper_first)); i++)
		print_fmt_entries(m, "through", v->through[i], &left, all);
	if (v->nthrough)
		printf("    (%%pV: the caller's format is not in this index)\n");
	if (v->through_helper && !v->helper_first)
		print_helper(c);
	print_more(v->through_helper ? EVIDENCE_SHOWN - 1 : EVIDENCE_SHOWN, total,
		   "pass-through entries");
	if (v->undecided)
		printf("    %zu formats too large to decide\n", v->undecided);
}

/* Unknown or stale: the nearest formats, and the rule's words none has. */
static void print_suggestions(const struct matcher *m, const struct verdict *v)
{
	size_t i;

	for (i = 0; i < v->nsugg; i++) {
		print_entry_text("did you mean", fmt_entry(m, v->sugg[i].fmt, 0));
		printf("\n");
	}
	if (v->missing) {
		printf("    no format has the word%s", v->missing & (v->missing - 1) ? "s" : "");
		for (i = 0; i < v->rule_words.n && i < 64; i++)
			if (v->missing >> i & 1)
				printf(" %.*s", (int)v->rule_words.v[i].len, v->rule_words.v[i].s);
		printf("\n");
	}
}

/* -v: the count of each kind of evidence, and the weak entries. */
static void print_counts(const struct matcher *m, const struct verdict *v)
{
	size_t i, k;

	printf("    counts: %zu live, %zu by arguments, %zu weak (%zu of them pass-through), %zu undecided\n",
	       check_count_hit_entries(m, &v->strong), check_count_hit_entries(m, &v->by_args),
	       check_count_entries(m, v->weak, v->nweak), check_count_entries(m, v->through, v->nthrough),
	       v->undecided);
	for (i = 0; i < v->nweak; i++) {
		for (k = 0; k < m->ent_count[v->weak[i]]; k++) {
			print_entry_text("weak", fmt_entry(m, v->weak[i], k));
			printf("\n");
		}
	}
}

void check_print_text(const struct check_ctx *c, const struct rule *r, const struct verdict *v)
{
	printf("%s:%u %s %s: ", r->file, r->line, r->label ? r->label : "-",
	       verdict_names[v->kind]);
	print_pattern(r->pat, r->len);
	printf("\n");
	switch (v->kind) {
	case V_LIVE:
		print_live(c->m, r, v);
		break;
	case V_LIVE_ARGS:
		print_by_arguments(c->m, v);
		break;
	case V_UNKNOWN:
		print_pass_through(c, v);
		break;
	case V_STALE:
		if (v->reworded)
			printf("    reworded: the first format below has %u of the rule's words, in order\n",
			       v->sugg[0].common);
		break;
	}
	if (v->kind >= V_UNKNOWN)
		print_suggestions(c->m, v);
	if (verbose)
		print_counts(c->m, v);
}

static void json_hits(const struct matcher *m, const char *name, const struct hits *hs,
		      bool args)
{
	size_t i, k, j;

	jsonw_name(json_wtr, name);
	jsonw_start_array(json_wtr);
	for (i = 0; i < hs->n; i++) {
		const struct hit *h = &hs->v[i];

		for (k = 0; k < m->ent_count[h->fmt]; k++) {
			jsonw_start_object(json_wtr);
			jsonw_name(json_wtr, "entry");
			pi_json_entry(json_wtr, fmt_entry(m, h->fmt, k));
			jsonw_uint_field(json_wtr, "literal_bytes", h->w);
			if (h->witness) {
				jsonw_name(json_wtr, "witness");
				jsonw_string_len(json_wtr, h->witness, h->wlen);
				jsonw_bool_field(json_wtr, "witness_verified", h->verified);
			}
			if (args) {
				jsonw_name(json_wtr, "arguments");
				jsonw_start_array(json_wtr);
				for (j = 0; j < h->wlen;) {
					size_t e;

					if (h->lit[j] == 'f') {
						j++;
						continue;
					}
					for (e = j; e < h->wlen && h->lit[e] == 'a'; e++)
						;
					jsonw_string_len(json_wtr, h->witness + j, e - j);
					j = e;
				}
				jsonw_end_array(json_wtr);
			}
			jsonw_end_object(json_wtr);
		}
	}
	jsonw_end_array(json_wtr);
}

static void json_fmts(const struct matcher *m, const char *name, const uint32_t *v, size_t n)
{
	size_t i, k;

	jsonw_name(json_wtr, name);
	jsonw_start_array(json_wtr);
	for (i = 0; i < n; i++)
		for (k = 0; k < m->ent_count[v[i]]; k++)
			pi_json_entry(json_wtr, fmt_entry(m, v[i], k));
	jsonw_end_array(json_wtr);
}

void check_print_json(const struct check_ctx *c, const struct rule *r, const struct verdict *v)
{
	const struct matcher *m = c->m;
	size_t i;

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
	jsonw_string_field(json_wtr, "verdict", verdict_names[v->kind]);
	jsonw_uint_field(json_wtr, "live_count", check_count_hit_entries(m, &v->strong));
	jsonw_uint_field(json_wtr, "weak_count", check_count_entries(m, v->weak, v->nweak));
	jsonw_uint_field(json_wtr, "undecided", v->undecided);
	json_hits(m, "live", &v->strong, false);
	json_hits(m, "by_arguments", &v->by_args, true);
	jsonw_name(json_wtr, "through");
	jsonw_start_array(json_wtr);
	if (v->through_helper)
		pi_json_entry(json_wtr, &m->idx->v[c->helper_ent]);
	for (i = 0; i < v->nthrough; i++) {
		size_t k;

		for (k = 0; k < m->ent_count[v->through[i]]; k++)
			pi_json_entry(json_wtr, fmt_entry(m, v->through[i], k));
	}
	jsonw_end_array(json_wtr);
	jsonw_bool_field(json_wtr, "reworded", v->reworded);
	jsonw_name(json_wtr, "did_you_mean");
	jsonw_start_array(json_wtr);
	for (i = 0; i < v->nsugg; i++) {
		jsonw_start_object(json_wtr);
		jsonw_name(json_wtr, "entry");
		pi_json_entry(json_wtr, fmt_entry(m, v->sugg[i].fmt, 0));
		jsonw_uint_field(json_wtr, "words_in_common", v->sugg[i].common);
		jsonw_end_object(json_wtr);
	}
	jsonw_end_array(json_wtr);
	jsonw_name(json_wtr, "words_in_no_format");
	jsonw_start_array(json_wtr);
	for (i = 0; i < v->rule_words.n && i < 64; i++)
		if (v->missing >> i & 1)
			jsonw_string_len(json_wtr, v->rule_words.v[i].s, v->rule_words.v[i].len);
	jsonw_end_array(json_wtr);
	if (verbose)
		json_fmts(m, "weak", v->weak, v->nweak);
	jsonw_end_object(json_wtr);
}
