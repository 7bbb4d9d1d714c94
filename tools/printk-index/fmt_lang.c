// SPDX-License-Identifier: GPL-2.0
/*
 * What each conversion can print, as one regular expression in rx.h's
 * syntax (fmt.h): number()'s layouts, string() and %c padding, a %p
 * extension's pattern. It is the model both automata are built from:
 * check's (ck_format.c) and the matcher's (fmt.c, through ere.c); the
 * benchmark's peers translate it for PCRE2 and Hyperscan.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"

#define ANY "[^\\n]"	/* a message line never holds a newline */

static void addf(struct sbuf *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void addf(struct sbuf *o, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sbuf_add(o, buf, n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

static void rep(struct sbuf *o, const char *atom, long lo, long hi)
{
	if (hi == 0)
		return;
	if (lo == hi && lo == 1) {
		sbuf_add(o, atom, strlen(atom));
		return;
	}
	sbuf_add(o, atom, strlen(atom));
	if (hi < 0)
		addf(o, "{%ld,}", lo);
	else if (lo == hi)
		addf(o, "{%ld}", lo);
	else
		addf(o, "{%ld,%ld}", lo, hi);
}

struct int_shape {
	const char *dig, *nz;	/* digit class, non-zero digit class */
	const char *sign;	/* regex of the sign, "" for none */
	int sl, pl;		/* sign and prefix lengths */
	const char *pfx;
	bool zero;		/* the value 0 */
	int nat, nat_hi;	/* natural digits: nat..nat_hi of them */
};

/* [padl spaces][sign][prefix][zeros lo..hi][digits][padr spaces]; a pad
 * of -1 is any number of spaces, hi -1 any number of zeros */
static void emit_int(struct sbuf *o, size_t start, const struct int_shape *s, long padl,
		     long zlo, long zhi, long padr)
{
	if (o->len > start)	/* not the first alternative */
		sbuf_addc(o, '|');
	if (padl < 0)
		sbuf_add(o, " *", 2);
	else
		rep(o, " ", padl, padl);
	sbuf_add(o, s->sign, strlen(s->sign));
	sbuf_add(o, s->pfx, strlen(s->pfx));
	rep(o, "0", zlo, zhi);
	if (s->zero) {
		sbuf_addc(o, '0');
	} else {
		sbuf_add(o, s->nz, strlen(s->nz));
		rep(o, s->dig, s->nat - 1, s->nat_hi - 1);
	}
	if (padr < 0)
		sbuf_add(o, " *", 2);
	else
		rep(o, " ", padr, padr);
}

/*
 * The alternatives of one sign, value and natural digit count (s->nat):
 * the padding each layout adds. true when the longer counts differ only
 * in their digits, which s->nat_hi then covers.
 */
static bool int_alts(struct sbuf *o, size_t start, const struct fmt_tok *t, struct int_shape *s)
{
	bool left = t->flags & F_LEFT;
	bool zeropad = (t->flags & F_ZEROPAD) && !left;
	bool wstar = t->width == W_STAR, pstar = t->prec == W_STAR;
	long w = t->width > 0 ? t->width : 0, p = t->prec >= 0 ? t->prec : -1;
	long body = p > s->nat ? p : s->nat, need, nd;
	long zb = body - s->nat;	/* precision zeros */
	long c0 = s->sl + s->pl + body;
	/* a fixed width only: with a star, check's witnesses keep the order
	 * of one alternative a digit count */
	bool alike = !s->zero && !wstar && !pstar && c0 >= w && !zb;

	s->nat_hi = alike ? t->maxdigits : s->nat;
	if (wstar) {
		long zl = pstar ? 0 : zb, zh = pstar ? -1 : zb;

		if (left) {
			emit_int(o, start, s, 0, zl, zh, -1);
		} else if (zeropad) {
			emit_int(o, start, s, 0, zl, -1, 0);
			emit_int(o, start, s, 0, zl, zh, -1);
		} else {
			emit_int(o, start, s, -1, zl, zh, 0);
			emit_int(o, start, s, 0, zl, zh, -1);
		}
		return alike;
	}
	if (pstar) {
		/* any precision: any leading zeros, no zero padding beyond
		 * them */
		need = w - s->sl - s->pl;
		emit_int(o, start, s, 0, need > s->nat ? need - s->nat : 0, -1, 0);
		for (nd = s->nat; nd < need && !zeropad; nd++)
			emit_int(o, start, s, left ? 0 : need - nd, nd - s->nat, nd - s->nat,
				 left ? need - nd : 0);
		return false;
	}
	if (c0 >= w)
		emit_int(o, start, s, 0, zb, zb, 0);
	else if (zeropad)
		emit_int(o, start, s, 0, zb + w - c0, zb + w - c0, 0);
	else if (left)
		emit_int(o, start, s, 0, zb, zb, w - c0);
	else
		emit_int(o, start, s, w - c0, zb, zb, 0);
	return alike;
}

/*
 * number() as lib/vsprintf.c lays it out:
 * [spaces][sign][0x|0][zero padding][precision zeros][digits][spaces].
 * The union over sign, zero/non-zero value and natural digit count; each
 * alternative has a fixed shape, so the padding is exact. With a fixed
 * width, the counts too long to need padding or precision zeros share
 * one alternative.
 */
static void int_regex(const struct fmt_tok *t, struct sbuf *o)
{
	static const char *dig[] = { "[0-7]", "[0-9]", "[0-9a-f]", "[0-9A-F]" };
	static const char *nz[] = { "[1-7]", "[1-9]", "[1-9a-f]", "[1-9A-F]" };
	int bi = t->base == 8 ? 0 : t->base == 10 ? 1 : t->upper ? 3 : 2;
	const char *nonneg = "";
	size_t start;
	int si, z;

	if (t->is_signed && (t->flags & F_PLUS))
		nonneg = "\\+";
	else if (t->is_signed && (t->flags & F_SPACE))
		nonneg = " ";
	sbuf_addc(o, '(');
	start = o->len;
	for (si = 0; si < (t->is_signed ? 2 : 1); si++) {
		for (z = 1; z >= 0; z--) {
			struct int_shape s = { .dig = dig[bi], .nz = nz[bi], .zero = z };

			if (si == 1 && z)
				continue;	/* never "-0" */
			s.sign = si ? "-" : nonneg;
			s.sl = si ? 1 : nonneg[0] == '\\' ? 1 : (int)strlen(nonneg);
			s.pfx = "";
			if ((t->flags & F_SPECIAL) && t->base == 16)
				s.pfx = t->upper ? "0X" : "0x";
			else if ((t->flags & F_SPECIAL) && t->base == 8 && !z)
				s.pfx = "0";
			s.pl = strlen(s.pfx);
			for (s.nat = 1; s.nat <= (z ? 1 : t->maxdigits); s.nat++)
				if (int_alts(o, start, t, &s))
					break;
		}
	}
	sbuf_addc(o, ')');
}

/* string(): at most prec bytes of the argument, padded to width */
static void str_regex(const struct fmt_tok *t, struct sbuf *o)
{
	long w = t->width > 0 ? t->width : 0, p = t->prec;
	bool left = t->flags & F_LEFT;

	sbuf_addc(o, '(');
	if (t->width == W_STAR) {
		/* p >= 0 here, or the token would be "anything" */
		rep(o, ANY, 0, p);
		sbuf_addc(o, '|');
		sbuf_add(o, " +", 2);
		rep(o, ANY, p, p);
		sbuf_addc(o, '|');
		rep(o, ANY, p, p);
		sbuf_add(o, " +", 2);
	} else if (p < 0) {
		rep(o, ANY, w, -1);
	} else {
		if (p > w) {
			rep(o, ANY, w + 1, p);
			sbuf_addc(o, '|');
		}
		if (w <= p) {
			rep(o, ANY, w, w);
		} else if (left) {
			rep(o, ANY, p, p);
			rep(o, " ", w - p, w - p);
		} else {
			rep(o, " ", w - p, w - p);
			rep(o, ANY, p, p);
		}
	}
	sbuf_addc(o, ')');
}

/* %c: one byte padded with blanks to width */
static void char_regex(const struct fmt_tok *t, struct sbuf *o)
{
	long n = t->min;

	static const char star[] = "( *" ANY "|" ANY " *)";

	if (t->width == W_STAR)
		sbuf_add(o, star, strlen(star));
	else if (t->flags & F_LEFT) {
		sbuf_add(o, ANY, strlen(ANY));
		rep(o, " ", n - 1, n - 1);
	} else {
		rep(o, " ", n - 1, n - 1);
		sbuf_add(o, ANY, strlen(ANY));
	}
}

void fmt_tok_pattern(const struct fmt_tok *t, struct sbuf *o)
{
	const char *p;

	switch (t->kind) {
	case TK_INT:
		int_regex(t, o);
		break;
	case TK_STR:
		str_regex(t, o);
		break;
	case TK_CHAR:
		char_regex(t, o);
		break;
	case TK_ERE:
		p = fmt_model_pattern(t->ere);
		sbuf_add(o, p, strlen(p));
		break;
	case TK_WILD:
		sbuf_add(o, ANY "*", strlen(ANY) + 1);
		break;
	}
}
