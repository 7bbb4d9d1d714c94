// SPDX-License-Identifier: GPL-2.0
/*
 * Whether one conversion token can print a given span (fmt.h): the
 * automaton of its model (fmt_lang.c, ere.c). The matchers (fmt_match.c,
 * cover.c) call it on every span they try. number()'s, string()'s and
 * %c's layouts are also here by arithmetic, for a model too large for an
 * automaton (a width or precision of about a hundred and more) and as
 * the tests' second reading of lib/vsprintf.c.
 */
#include <string.h>

#include "fmt.h"
#include "fmt_impl.h"

/* ------------------------------------------------------------------ */
/* Layouts by arithmetic                                               */

/* A span of number()'s, read up to its digits. */
struct int_span {
	size_t p, e;		/* the digits (zero padding included) */
	size_t pad;		/* blanks of padding */
	size_t sign, pfx;	/* their lengths */
};

/*
 * number() lays out: [spaces][sign][0x|0][zero padding][precision zeros]
 * [digits][spaces]. left/zeropad select which padding exists. The
 * padding, sign and prefix of s[0..n), checked; false if they cannot be.
 */
static bool int_head(const struct fmt_tok *t, const unsigned char *s, size_t n, bool left,
		     bool zeropad, struct int_span *sp)
{
	size_t p = 0, e = n, pad = 0, sign = 0, pfx = 0, k;
	bool nonzero = false;

	if (left) {
		while (e > p && s[e - 1] == ' ') {
			e--;
			pad++;
		}
	} else if (!zeropad) {
		while (p < e && s[p] == ' ') {
			p++;
			pad++;
		}
	}
	if (t->is_signed) {
		if (p < e && s[p] == '-') {
			p++;
			sign = 1;
		} else if (t->flags & F_PLUS) {
			if (p >= e || s[p] != '+')
				return false;
			p++;
			sign = 1;
		} else if (t->flags & F_SPACE) {
			if (!left && !zeropad) {
				/* the sign blank was counted as padding */
				if (!pad)
					return false;
				pad--;
			} else {
				if (p >= e || s[p] != ' ')
					return false;
				p++;
			}
			sign = 1;
		}
	}
	if ((t->flags & F_SPECIAL) && t->base == 16) {
		if (e - p < 2 || s[p] != '0' || s[p + 1] != (t->upper ? 'X' : 'x'))
			return false;
		p += 2;
		pfx = 2;
	}
	for (k = p; k < e; k++) {
		if (!fmt_is_digit(t, s[k]))
			return false;
		if (s[k] != '0')
			nonzero = true;
	}
	/* number() prints zero as "0", never "-0" */
	if (sign && p > 0 && s[p - 1] == '-' && !nonzero)
		return false;
	if ((t->flags & F_SPECIAL) && t->base == 8 && nonzero) {
		if (p >= e || s[p] != '0')
			return false;
		p++;
		pfx = 1;
	}
	*sp = (struct int_span){ .p = p, .e = e, .pad = pad, .sign = sign, .pfx = pfx };
	return true;
}

/* The digits against the type, the precision and the width. */
static bool int_layout_ok(const struct fmt_tok *t, const unsigned char *s, size_t n,
			  bool left, bool zeropad)
{
	size_t nd, z, nat, body, zpad;
	struct int_span sp;

	if (!int_head(t, s, n, left, zeropad, &sp))
		return false;
	nd = sp.e - sp.p;
	if (!nd)
		return false;
	for (z = 0; z < nd && s[sp.p + z] == '0'; z++)
		;
	nat = nd - z ? nd - z : 1;
	if (nat > t->maxdigits)
		return false;
	if (t->prec == W_STAR)
		body = nd;	/* any precision: every zero can come from it */
	else
		body = t->prec > (int32_t)nat ? (size_t)t->prec : nat;
	if (nd < body)
		return false;
	zpad = nd - body;
	if (zpad && !zeropad)
		return false;
	if (t->width == W_STAR)
		return true;
	/* padding exists only to reach the width, and then exactly */
	if (sp.pad + zpad)
		return (size_t)t->width == n;
	return sp.sign + sp.pfx + body >= (size_t)(t->width > 0 ? t->width : 0);
}

static bool int_ok(const struct fmt_tok *t, const unsigned char *s, size_t n)
{
	bool left = t->flags & F_LEFT;
	bool zeropad = (t->flags & F_ZEROPAD) && !left;

	if (int_layout_ok(t, s, n, left, zeropad))
		return true;
	/* a negative '*' width means left-justified (set_field_width()) */
	return t->width == W_STAR && !left && int_layout_ok(t, s, n, true, false);
}

static size_t lead_spaces(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] == ' ')
		i++;
	return i;
}

static size_t trail_spaces(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[n - 1 - i] == ' ')
		i++;
	return i;
}

/* string(): at most prec bytes of the argument, padded to width. */
static bool str_ok(const struct fmt_tok *t, const unsigned char *s, size_t n)
{
	size_t w, need;

	if (t->prec < 0 && t->width == W_NONE)
		return true;
	if (t->width == W_STAR) {
		if (t->prec < 0 || n <= (size_t)t->prec)
			return true;
		need = n - t->prec;
		return lead_spaces(s, n) >= need || trail_spaces(s, n) >= need;
	}
	w = t->width > 0 ? (size_t)t->width : 0;
	if (n < w)
		return false;
	if (t->prec < 0)
		return true;
	if (n > w)
		return n <= (size_t)t->prec;
	if (w <= (size_t)t->prec)
		return true;
	need = w - t->prec;
	return (t->flags & F_LEFT) ? trail_spaces(s, n) >= need : lead_spaces(s, n) >= need;
}

/* FORMAT_TYPE_CHAR: the byte padded with blanks to width. */
static bool char_ok(const struct fmt_tok *t, const unsigned char *s, size_t n)
{
	if (!n)
		return false;
	if (t->width == W_STAR)
		return lead_spaces(s, n) >= n - 1 || trail_spaces(s, n) >= n - 1;
	if (n != t->min)
		return false;
	return (t->flags & F_LEFT) ? trail_spaces(s + 1, n - 1) == n - 1
				   : lead_spaces(s, n - 1) == n - 1;
}

bool fmt_tok_layout_ok(const struct fmt_tok *t, const unsigned char *s, size_t n)
{
	switch (t->kind) {
	case TK_INT: return int_ok(t, s, n);
	case TK_STR: return str_ok(t, s, n);
	case TK_CHAR: return char_ok(t, s, n);
	}
	return false;
}

/* Within t's length bounds and made of its bytes: what the matchers
 * know of a span before they ask whether t prints it. */
static bool span_fits(const struct fmt_tok *t, const unsigned char *s, size_t n)
{
	size_t i;

	if (n < t->min || (t->max != FMT_INF && n > t->max))
		return false;
	if (!t->cls_all)
		for (i = 0; i < n; i++)
			if (!cls_has(t->cls, s[i]))
				return false;
	return true;
}

bool fmt_tok_layout_accepts(const struct fmt_tok *t, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	return span_fits(t, s, n) && fmt_tok_layout_ok(t, s, n);
}

/* The span is known to be within bounds and made of class bytes. */
bool fmt_tok_span_ok(const struct fmt_tok *t, const unsigned char *s, size_t n)
{
	switch (t->kind) {
	case TK_LIT: return false;	/* not a conversion */
	case TK_INT: case TK_STR: case TK_CHAR:
		/* the model's automaton, or for a model too large for one
		 * (a width or precision of about a hundred) the arithmetic */
		return t->ere ? ere_fullmatch(t->ere, s, n) : fmt_tok_layout_ok(t, s, n);
	case TK_ERE: return ere_fullmatch(t->ere, s, n);
	case TK_WILD: return true;
	}
	return false;
}

bool fmt_tok_accepts_span(const struct fmt_tok *t, const char *s, size_t n)
{
	return fmt_tok_span_ok(t, (const unsigned char *)s, n);
}

bool fmt_tok_accepts(const struct fmt_tok *t, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	return span_fits(t, s, n) && fmt_tok_span_ok(t, s, n);
}
