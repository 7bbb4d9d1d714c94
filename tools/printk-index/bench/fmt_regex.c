// SPDX-License-Identifier: GPL-2.0
/*
 * Formats as regular expressions, for the benchmark's peers (fmt_regex.h).
 *
 * The expression is built from the compiled format's tokens, so that it
 * parses the format exactly as match does (flags, width, precision,
 * length modifiers, '*', %p extensions, the stop at a conversion vsprintf
 * rejects, "%s%s" folded), and each token's expression is the set of
 * spans fmt.c's validator for it accepts:
 *
 *   literal        its bytes
 *   %s, %pV...     ".*" when neither width nor precision bounds it
 *   %5s, %.3s...   str_ok(): at most prec bytes, blank-padded to width
 *   %c             char_ok(): one byte, blank-padded to width
 *   %p extension   the model's own ERE (fmt_model_pattern()), rewritten
 *                  in PCRE syntax
 *   %d %x %o...    int_ok(): number()'s layout, spelled out below
 *
 * and the format's expression is their concatenation, anchored at the
 * start, and at the end for a full match. What the matcher does that is
 * no language is not expressed: its work budget (FMT_MAX_WORK), after
 * which a pathological line is reported unmatched, and printk's record
 * size, which the model does not know either. The benchmark reports any
 * line on which the answers differ rather than assume there is none.
 */
#include <stdio.h>
#include <string.h>

#include "fmt_regex.h"

#define INF FMT_INF

static uint32_t min_u(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static uint32_t max_u(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

static void put_str(struct sbuf *o, const char *s)
{
	sbuf_add(o, s, strlen(s));
}

/* an sbuf never written to has no buffer at all */
static void put_buf(struct sbuf *o, const struct sbuf *b)
{
	if (b->len)
		sbuf_add(o, b->p, b->len);
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

/* atom lo..hi times (nothing at all for at most zero times) */
static void rep(struct sbuf *o, const char *atom, uint32_t lo, uint32_t hi)
{
	if (hi == 0)
		return;
	put_str(o, atom);
	put_count(o, lo, hi);
}

/* k blanks exactly */
static void blanks(struct sbuf *o, uint32_t k)
{
	rep(o, " ", k, k);
}

/* before each alternative but the first, a '|' */
static void alt(struct sbuf *o, int *n)
{
	if ((*n)++)
		sbuf_addc(o, '|');
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
	if (n == 256) {
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

/*
 * A %p model (ere.h's subset of POSIX ERE) in PCRE syntax: groups do not
 * capture, brackets are read as ere.c reads them ("[]...]", ranges, '^')
 * and written as explicit byte ranges, so that no POSIX bracket rule
 * ("[:", a ']' first) is left for the other engine to read its own way.
 */
static bool ere_regex(struct sbuf *o, const char *p)
{
	while (*p) {
		uint64_t set[4] = { 0 };
		bool neg = false, first = true;
		int i;

		switch (*p) {
		case '(':
			put_str(o, "(?:");
			p++;
			break;
		case ')': case '|': case '*': case '+': case '?':
			sbuf_addc(o, *p++);
			break;
		case '{':
			while (*p && *p != '}')
				sbuf_addc(o, *p++);
			if (*p)
				sbuf_addc(o, *p++);
			break;
		case '.':
			sbuf_addc(o, '.');
			p++;
			break;
		case '\\':
			if (!p[1])
				return false;
			put_byte(o, p[1]);
			p += 2;
			break;
		case '[':
			p++;
			if (*p == '^') {
				neg = true;
				p++;
			}
			while (*p && (*p != ']' || first)) {
				unsigned char lo = *p++, hi = lo;

				first = false;
				if (p[0] == '-' && p[1] && p[1] != ']') {
					hi = p[1];
					p += 2;
				}
				for (i = lo; i <= hi; i++)
					cls_set(set, i);
			}
			if (*p++ != ']')
				return false;
			if (neg)
				for (i = 0; i < 4; i++)
					set[i] = ~set[i];
			if (!put_set(o, set))
				return false;
			break;
		default:
			put_byte(o, *p++);
			break;
		}
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* number(): int_ok() of fmt.c as a language                           */

/* what the digits say about the value: anything, not zero, zero */
enum { NZ_ANY, NZ_SOME, NZ_NONE };

struct dclass {
	char d[16], nz[16];	/* a digit, a nonzero digit: "[0-9a-f]" */
	uint32_t m;		/* digits the type's largest value needs */
};

/*
 * Alternatives of digit strings of lo..hi digits whose value fits the
 * type (at most m digits once leading zeros are dropped), zero or not
 * as nz says.
 */
static void digits(struct sbuf *o, int *n, const struct dclass *c, uint32_t lo, uint32_t hi,
		   int nz)
{
	uint32_t m = c->m, q;

	lo = max_u(lo, 1);
	if (lo > hi)
		return;
	if (nz == NZ_NONE) {
		alt(o, n);
		rep(o, "0", lo, hi);
		return;
	}
	if (nz == NZ_ANY) {
		if (lo <= m) {
			alt(o, n);
			rep(o, c->d, lo, min_u(hi, m));
		}
		if (hi > m) {	/* longer ones start with enough zeros */
			alt(o, n);
			rep(o, "0", max_u(lo, m + 1) - m, hi == INF ? INF : hi - m);
			rep(o, c->d, m, m);
		}
		return;
	}
	/* not zero: zeros, then q significant digits, the first nonzero */
	if (hi == INF && lo <= m) {
		alt(o, n);
		rep(o, "0", 0, INF);
		put_str(o, c->nz);
		rep(o, c->d, lo - 1, m - 1);
	}
	for (q = 1; q <= m && q <= hi; q++) {
		if (hi == INF && q >= lo)
			break;	/* in the alternative above */
		alt(o, n);
		rep(o, "0", lo > q ? lo - q : 0, hi == INF ? INF : hi - q);
		put_str(o, c->nz);
		rep(o, c->d, q - 1, q - 1);
	}
}

/*
 * The digits number() prints without zero padding, lo..hi of them: at
 * least the precision (its zeros in front), otherwise no leading zero
 * but for the value 0 itself. With a '*' precision any count of leading
 * zeros can be the precision's.
 */
static void exact_digits(struct sbuf *o, int *n, const struct fmt_tok *t,
			 const struct dclass *c, uint32_t lo, uint32_t hi, int nz)
{
	uint32_t l0, a, b;

	if (t->prec == W_STAR) {
		digits(o, n, c, lo, hi, nz);
		return;
	}
	l0 = t->prec > 1 ? (uint32_t)t->prec : 1;
	if (lo <= l0 && l0 <= hi)
		digits(o, n, c, l0, l0, nz);
	a = max_u(l0 + 1, lo);
	b = min_u(c->m, hi);
	if (nz != NZ_NONE && a <= b) {
		alt(o, n);
		put_str(o, c->nz);
		rep(o, c->d, a - 1, b - 1);
	}
}

/* The same with zero padding allowed: any leading zeros past the
 * precision's (a '*' precision never leaves room for padding zeros). */
static void zpad_digits(struct sbuf *o, int *n, const struct fmt_tok *t,
			const struct dclass *c, uint32_t lo, uint32_t hi, int nz)
{
	uint32_t l0 = t->prec > 1 ? (uint32_t)t->prec : 1;

	if (t->prec == W_STAR)
		digits(o, n, c, lo, hi, nz);
	else
		digits(o, n, c, max_u(l0, lo), hi, nz);
}

/* One alternative: pre, head, one of the digit alternatives in dig, post. */
static void layout_alt(struct sbuf *o, int *n, const struct sbuf *pre, const struct sbuf *head,
		       const struct sbuf *dig, int ndig, const struct sbuf *post)
{
	if (!ndig)
		return;
	alt(o, n);
	put_buf(o, pre);
	put_buf(o, head);
	put_str(o, "(?:");
	put_buf(o, dig);
	sbuf_addc(o, ')');
	put_buf(o, post);
}

struct opt {
	const char *s;
	int nz;
};

/*
 * int_layout_ok(left, zeropad) as alternatives: [blanks][sign][0x|0]
 * [zero padding][precision zeros][digits][blanks], blanks only on the
 * side the layout pads, and then only to make up the width exactly;
 * without padding, at least the width.
 */
static void int_layout(struct sbuf *o, int *n, const struct fmt_tok *t, const struct dclass *c,
		       bool left, bool zeropad)
{
	struct opt sign[2], pfx[2];
	struct sbuf pre = { 0 }, head = { 0 }, dig = { 0 }, post = { 0 };
	int ns = 0, np = 0, i, j, nd;
	uint32_t w = t->width > 0 ? (uint32_t)t->width : 0, hl, d;

	if (t->is_signed) {
		sign[ns++] = (struct opt){ "-", NZ_SOME };	/* never "-0" */
		if (t->flags & F_PLUS)
			sign[ns++] = (struct opt){ "+", NZ_ANY };
		else if (t->flags & F_SPACE)
			/* unpadded on the left, the sign blank is one of the
			 * padding blanks: the same string */
			sign[ns++] = (struct opt){ " ", NZ_ANY };
		else
			sign[ns++] = (struct opt){ "", NZ_ANY };
	} else {
		sign[ns++] = (struct opt){ "", NZ_ANY };
	}
	if ((t->flags & F_SPECIAL) && t->base == 16) {
		pfx[np++] = (struct opt){ t->upper ? "0X" : "0x", NZ_ANY };
	} else if ((t->flags & F_SPECIAL) && t->base == 8) {
		pfx[np++] = (struct opt){ "0", NZ_SOME };	/* 0 is "0" alone */
		pfx[np++] = (struct opt){ "", NZ_NONE };
	} else {
		pfx[np++] = (struct opt){ "", NZ_ANY };
	}
	for (i = 0; i < ns; i++) {
		for (j = 0; j < np; j++) {
			int a = sign[i].nz, b = pfx[j].nz, nz;
			const char *s;

			if ((a == NZ_SOME && b == NZ_NONE) || (a == NZ_NONE && b == NZ_SOME))
				continue;
			nz = a != NZ_ANY ? a : b;
			sbuf_reset(&head);
			for (s = sign[i].s; *s; s++)
				put_byte(&head, *s);
			for (s = pfx[j].s; *s; s++)
				put_byte(&head, *s);
			hl = strlen(sign[i].s) + strlen(pfx[j].s);
			sbuf_reset(&pre);
			sbuf_reset(&post);
			sbuf_reset(&dig);
			nd = 0;
			if (t->width == W_STAR) {	/* any padding */
				if (left)
					put_str(&post, " *");
				else if (!zeropad)
					put_str(&pre, " *");
				if (zeropad)
					zpad_digits(&dig, &nd, t, c, 1, INF, nz);
				else
					exact_digits(&dig, &nd, t, c, 1, INF, nz);
				layout_alt(o, n, &pre, &head, &dig, nd, &post);
				continue;
			}
			/* wide enough as it is (any width without a width) */
			exact_digits(&dig, &nd, t, c, w > hl ? w - hl : 1, INF, nz);
			layout_alt(o, n, &pre, &head, &dig, nd, &post);
			if (!w)
				continue;
			/* padded to the width exactly */
			if (zeropad) {
				sbuf_reset(&dig);
				nd = 0;
				if (t->prec != W_STAR && w > hl)
					zpad_digits(&dig, &nd, t, c, w - hl, w - hl, nz);
				layout_alt(o, n, &pre, &head, &dig, nd, &post);
				continue;
			}
			for (d = 1; d + hl < w; d++) {
				sbuf_reset(&dig);
				sbuf_reset(left ? &post : &pre);
				nd = 0;
				exact_digits(&dig, &nd, t, c, d, d, nz);
				blanks(left ? &post : &pre, w - hl - d);
				layout_alt(o, n, &pre, &head, &dig, nd, &post);
			}
		}
	}
	sbuf_free(&pre);
	sbuf_free(&head);
	sbuf_free(&dig);
	sbuf_free(&post);
}

static bool int_regex(struct sbuf *o, const struct fmt_tok *t)
{
	bool left = t->flags & F_LEFT, zeropad = (t->flags & F_ZEROPAD) && !left;
	struct dclass c = { .m = t->maxdigits };
	const char *x = t->upper ? "A-F" : "a-f";
	size_t start = o->len;
	int n = 0;

	snprintf(c.d, sizeof(c.d), "[0-%c%s]", t->base == 8 ? '7' : '9', t->base == 16 ? x : "");
	snprintf(c.nz, sizeof(c.nz), "[1-%c%s]", t->base == 8 ? '7' : '9', t->base == 16 ? x : "");
	put_str(o, "(?:");
	int_layout(o, &n, t, &c, left, zeropad);
	/* a negative '*' width means left-justified (set_field_width()) */
	if (t->width == W_STAR && !left)
		int_layout(o, &n, t, &c, true, false);
	sbuf_addc(o, ')');
	if (!n) {
		o->len = start;
		o->p[start] = '\0';
	}
	return n > 0;
}

/* ------------------------------------------------------------------ */

/* string(): at most prec bytes of the argument, blank-padded to width */
static void str_regex(struct sbuf *o, const struct fmt_tok *t)
{
	uint32_t w = t->width > 0 ? (uint32_t)t->width : 0, p = t->prec;

	if (t->prec < 0) {	/* no bound but the width's */
		rep(o, ".", w, INF);
		return;
	}
	if (t->width == W_STAR) {	/* padding on either side */
		put_str(o, "(?: *");
		rep(o, ".", 0, p);
		sbuf_addc(o, '|');
		rep(o, ".", 0, p);
		put_str(o, " *)");
	} else if (p >= w) {
		rep(o, ".", w, p);
	} else if (t->flags & F_LEFT) {
		rep(o, ".", p, p);
		blanks(o, w - p);
	} else {
		blanks(o, w - p);
		rep(o, ".", p, p);
	}
}

/* FORMAT_TYPE_CHAR: one byte, blank-padded to width */
static void char_regex(struct sbuf *o, const struct fmt_tok *t)
{
	if (t->width == W_STAR) {
		put_str(o, "(?: *.|. *)");
	} else if (t->flags & F_LEFT) {
		sbuf_addc(o, '.');
		blanks(o, t->min - 1);
	} else {
		blanks(o, t->min - 1);
		sbuf_addc(o, '.');
	}
}

bool fmt_tok_regex(const struct fmt_tok *t, struct sbuf *out)
{
	const char *pat;
	size_t start = out->len;

	switch (t->kind) {
	case TK_INT:
		return int_regex(out, t);
	case TK_STR:
		str_regex(out, t);
		return true;
	case TK_CHAR:
		char_regex(out, t);
		return true;
	case TK_WILD:
		put_str(out, ".*");
		return true;
	case TK_ERE:
		pat = fmt_model_pattern(t->ere);
		put_str(out, "(?:");
		if (pat && ere_regex(out, pat)) {
			sbuf_addc(out, ')');
			return true;
		}
		out->len = start;
		out->p[start] = '\0';
		return false;
	}
	return false;
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
