// SPDX-License-Identifier: GPL-2.0
/*
 * Formats as regular expressions, for the benchmark's peers (fmt_regex.h).
 *
 * The expression is built from the compiled format's tokens, so that it
 * parses the format exactly as match does (flags, width, precision,
 * length modifiers, '*', %p extensions, the stop at a conversion vsprintf
 * rejects, "%s%s" folded): each literal as its bytes, each conversion as
 * its model (fmt_tok_pattern(), the expression both of the tool's
 * automata are built from), parsed by rx.c and written back in PCRE
 * syntax with explicit byte classes and non-capturing groups, so that no
 * reading of the syntax is left to the other engine. The format's
 * expression is their concatenation, anchored at the start, and at the
 * end for a full match. What the matcher does that is no language is not
 * expressed: its work budget (FMT_MAX_WORK), after which a pathological
 * line is reported unmatched, and printk's record size, which the model
 * does not know either. The benchmark reports any line on which the
 * answers differ rather than assume there is none.
 */
#include <stdio.h>
#include <string.h>

#include "../rx.h"
#include "fmt_regex.h"

#define INF FMT_INF

static void put_str(struct sbuf *o, const char *s)
{
	sbuf_add(o, s, strlen(s));
}

static void put_hex(struct sbuf *o, unsigned char c)
{
	char b[8];

	snprintf(b, sizeof(b), "\\x%02x", c);
	sbuf_add(o, b, 4);
}

/* A byte outside a class: letters, digits and blanks as themselves,
 * everything else as \xHH, which both engines read as that byte. */
static void put_byte(struct sbuf *o, unsigned char c)
{
	if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    c == ' ' || c == '_')
		sbuf_addc(o, c);
	else
		put_hex(o, c);
}

/* A repeat count for the atom just written; hi INF: no upper bound. */
static void put_count(struct sbuf *o, uint32_t lo, uint32_t hi)
{
	char b[32];

	if (lo == 1 && hi == 1)
		return;
	if (hi == INF && lo == 0)
		snprintf(b, sizeof(b), "*");
	else if (hi == INF && lo == 1)
		snprintf(b, sizeof(b), "+");
	else if (hi == INF)
		snprintf(b, sizeof(b), "{%u,}", lo);
	else if (lo == hi)
		snprintf(b, sizeof(b), "{%u}", lo);
	else
		snprintf(b, sizeof(b), "{%u,%u}", lo, hi);
	put_str(o, b);
}

/* a byte set as the shortest class; false when it is empty */
static bool put_set(struct sbuf *o, const uint64_t set[4])
{
	int c, lo, n = 0, one = 0;

	for (c = 0; c < 256; c++)
		if (cls_has(set, c)) {
			n++;
			one = c;
		}
	if (!n)
		return false;
	/* every byte but a newline, which a message never holds: the '.'
	 * both engines have fast paths for (compiled with DOTALL) */
	if (n == 256 || (n == 255 && !cls_has(set, '\n'))) {
		sbuf_addc(o, '.');
		return true;
	}
	if (n == 1) {
		put_byte(o, one);
		return true;
	}
	sbuf_addc(o, '[');
	for (c = 0; c < 256; c++) {
		if (!cls_has(set, c))
			continue;
		for (lo = c; c < 255 && cls_has(set, c + 1); c++)
			;
		put_hex(o, lo);
		if (c > lo + 1)
			sbuf_addc(o, '-');
		if (c > lo)
			put_hex(o, c);
	}
	sbuf_addc(o, ']');
	return true;
}

/* A parsed model node in PCRE syntax; false for what a model never has. */
static bool put_node(struct sbuf *o, const struct rx_node *n)
{
	const struct rx_node *k;
	bool group;

	switch (n->kind) {
	case RN_EMPTY:
		return true;
	case RN_CLS:
		return put_set(o, n->cls);
	case RN_CAT:
		for (k = n->kid; k; k = k->next) {
			group = k->kind == RN_ALT;
			if (group)
				put_str(o, "(?:");
			if (!put_node(o, k))
				return false;
			if (group)
				sbuf_addc(o, ')');
		}
		return true;
	case RN_ALT:
		for (k = n->kid; k; k = k->next) {
			if (k != n->kid)
				sbuf_addc(o, '|');
			if (!put_node(o, k))
				return false;
		}
		return true;
	case RN_REP:
		if (n->max == 0)
			return true;
		/* a class repeated stays one item: a group around it would
		 * cost PCRE2's JIT a backtracking frame per byte */
		group = n->kid->kind != RN_CLS;
		if (group)
			put_str(o, "(?:");
		if (!put_node(o, n->kid))
			return false;
		if (group)
			sbuf_addc(o, ')');
		put_count(o, n->min, n->max == RX_INF ? INF : n->max);
		return true;
	}
	return false;	/* an assertion */
}

bool fmt_tok_regex(const struct fmt_tok *t, struct sbuf *out)
{
	struct sbuf model = { 0 };
	size_t start = out->len;
	struct pi_err err;
	struct rx rx;
	bool ok;

	fmt_tok_pattern(t, &model);
	/* a width or precision of thousands: over the parser's limits */
	if (rx_parse(&rx, model.p, model.len, &err)) {
		sbuf_free(&model);
		return false;
	}
	put_str(out, "(?:");
	ok = put_node(out, rx.root);
	sbuf_addc(out, ')');
	if (!ok) {
		out->len = start;
		out->p[start] = '\0';
	}
	rx_free(&rx);
	sbuf_free(&model);
	return ok;
}

bool fmt_to_regex(const struct fmt *f, bool full, struct sbuf *out)
{
	size_t start = out->len, i;
	uint32_t k;

	sbuf_addc(out, '^');
	for (k = 0; k < f->ntok; k++) {
		const struct fmt_tok *t = &f->tok[k];

		if (t->kind == TK_LIT) {
			for (i = 0; i < t->lit_len; i++)
				put_byte(out, f->lit[t->lit_off + i]);
		} else if (!fmt_tok_regex(t, out)) {
			out->len = start;
			out->p[start] = '\0';
			return false;
		}
	}
	if (full)
		sbuf_addc(out, '$');
	return true;
}

size_t fmt_longest_literal(const struct fmt *f, const char **lit)
{
	size_t best = 0;
	uint32_t k;

	*lit = NULL;
	for (k = 0; k < f->ntok; k++)
		if (f->tok[k].kind == TK_LIT && f->tok[k].lit_len > best) {
			best = f->tok[k].lit_len;
			*lit = f->lit + f->tok[k].lit_off;
		}
	return best;
}
