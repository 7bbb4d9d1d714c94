// SPDX-License-Identifier: GPL-2.0
/*
 * A printk format as check's automaton (checker.h): each conversion as a
 * regular expression in rx.h's syntax, compiled into one NFA per format
 * with its literal facts (bigrams, literal runs, closures) for the
 * prefilters and the product.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* memmem() */
#endif
#include <stdlib.h>
#include <string.h>

#include "checker.h"
#include "checker_impl.h"

/* ------------------------------------------------------------------ */
/* Conversions as regular expressions (rx.h syntax)                     */

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
	int nat;		/* natural digits */
};

/* [padl spaces][sign][prefix][zeros lo..hi][digits][padr spaces]; a pad
 * of -1 is any number of spaces, hi -1 any number of zeros */
static void emit_int(struct sbuf *o, const struct int_shape *s, long padl,
		     long zlo, long zhi, long padr)
{
	if (o->len > 1)
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
		rep(o, s->dig, s->nat - 1, s->nat - 1);
	}
	if (padr < 0)
		sbuf_add(o, " *", 2);
	else
		rep(o, " ", padr, padr);
}

/*
 * number() as lib/vsprintf.c lays it out and int_ok() in fmt.c accepts:
 * [spaces][sign][0x|0][zero padding][precision zeros][digits][spaces].
 * The union over sign, zero/non-zero value and natural digit count; each
 * alternative has a fixed shape, so the padding is exact.
 */
static void int_regex(const struct fmt_tok *t, struct sbuf *o)
{
	static const char *dig[] = { "[0-7]", "[0-9]", "[0-9a-f]", "[0-9A-F]" };
	static const char *nz[] = { "[1-7]", "[1-9]", "[1-9a-f]", "[1-9A-F]" };
	int bi = t->base == 8 ? 0 : t->base == 10 ? 1 : t->upper ? 3 : 2;
	bool left = t->flags & F_LEFT;
	bool zeropad = (t->flags & F_ZEROPAD) && !left;
	bool wstar = t->width == W_STAR, pstar = t->prec == W_STAR;
	long w = t->width > 0 ? t->width : 0, p = t->prec >= 0 ? t->prec : -1;
	const char *nonneg = "";
	int si, z;

	if (t->is_signed && (t->flags & F_PLUS))
		nonneg = "\\+";
	else if (t->is_signed && (t->flags & F_SPACE))
		nonneg = " ";
	sbuf_addc(o, '(');
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
			for (s.nat = 1; s.nat <= (z ? 1 : t->maxdigits); s.nat++) {
				long body = p > s.nat ? p : s.nat, c0, need, nd;
				long zb = body - s.nat;	/* precision zeros */

				if (wstar) {
					long zl = pstar ? 0 : zb, zh = pstar ? -1 : zb;

					if (left) {
						emit_int(o, &s, 0, zl, zh, -1);
					} else if (zeropad) {
						emit_int(o, &s, 0, zl, -1, 0);
						emit_int(o, &s, 0, zl, zh, -1);
					} else {
						emit_int(o, &s, -1, zl, zh, 0);
						emit_int(o, &s, 0, zl, zh, -1);
					}
					continue;
				}
				if (pstar) {
					/* any precision: any leading zeros, no
					 * zero padding beyond them */
					need = w - s.sl - s.pl;
					emit_int(o, &s, 0, need > s.nat ? need - s.nat : 0, -1, 0);
					for (nd = s.nat; nd < need && !zeropad; nd++)
						emit_int(o, &s, left ? 0 : need - nd, nd - s.nat,
							 nd - s.nat, left ? need - nd : 0);
					continue;
				}
				c0 = s.sl + s.pl + body;
				if (c0 >= w)
					emit_int(o, &s, 0, zb, zb, 0);
				else if (zeropad)
					emit_int(o, &s, 0, zb + w - c0, zb + w - c0, 0);
				else if (left)
					emit_int(o, &s, 0, zb, zb, w - c0);
				else
					emit_int(o, &s, w - c0, zb, zb, 0);
			}
		}
	}
	sbuf_addc(o, ')');
}

/* string(): at most prec bytes of the argument, padded to width; as
 * str_ok() in fmt.c */
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

/* %c: one byte padded with blanks to width; as char_ok() */
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

void ck_tok_regex(const struct fmt_tok *t, struct sbuf *o)
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

/* ------------------------------------------------------------------ */
/* Formats                                                              */

static uint32_t tok_compile(const struct fmt *f, const struct fmt_tok *t,
			    struct rx_nfa *a, uint32_t next)
{
	struct sbuf re = { 0 };
	struct rx rx;
	struct pi_err err;
	uint32_t i, n0 = a->n, e;

	if (t->kind == TK_LIT) {
		for (i = t->lit_len; i-- > 0;) {
			uint64_t c[4] = { 0 };

			cls_set(c, (unsigned char)f->lit[t->lit_off + i]);
			next = rx_add_cls(a, c, true, next);
		}
		return next;
	}
	if (t->kind == TK_WILD) {
		uint64_t any[4];
		uint32_t l = rx_add_split(a, 0, next);

		memset(any, 0xff, sizeof(any));
		any[0] &= ~(1ULL << '\n');
		e = rx_add_cls(a, any, false, l);
		if (!a->too_big)
			a->st[l].out = e;
		return l;
	}
	ck_tok_regex(t, &re);
	if (rx_parse(&rx, re.p, re.len, &err)) {
		/* only a width or precision beyond RX_MAX_REPEAT ("%.30000o")
		 * gets here: too large, like an automaton over RX_MAX_STATES */
		a->too_big = true;
		sbuf_free(&re);
		return next;
	}
	e = rx_compile_node(a, rx.root, next);
	/* what a conversion prints is never the format's literal text */
	for (i = n0; i < a->n; i++)
		a->st[i].lit = false;
	rx_free(&rx);
	sbuf_free(&re);
	return e;
}

int ck_format_nfa(const struct fmt *f, struct rx_nfa *a)
{
	uint32_t k, next;

	rx_nfa_init(a);
	next = rx_add_match(a);
	for (k = f->ntok; k-- > 0 && !a->too_big;)
		next = tok_compile(f, &f->tok[k], a, next);
	a->start = next;
	return a->too_big ? -1 : 0;
}

uint32_t ck_bigram_bit(unsigned char a, unsigned char b)
{
	return ((uint32_t)(ascii_lower(a) << 8 | ascii_lower(b)) * 40503u >> 4) & 4095;
}

static void set_bigram(struct ck_format *cf, unsigned char a, unsigned char b)
{
	uint32_t h = ck_bigram_bit(a, b);

	cf->bigram[h >> 6] |= 1ULL << (h & 63);
}

bool ck_has_bigram(const struct ck_format *cf, unsigned char a, unsigned char b)
{
	uint32_t h = ck_bigram_bit(a, b);

	return cf->bigram[h >> 6] >> (h & 63) & 1;
}

static void literal_flags(struct ck_format *cf);

void ck_format_init(struct ck_format *cf, const struct fmt *f)
{
	uint32_t k, i, o = 0;
	int last = -1;		/* last literal byte, if only empty-capable
				 * conversions came after it */

	memset(cf, 0, sizeof(*cf));
	cf->f = f;
	for (k = 0; k < f->ntok; k++)
		if (f->tok[k].kind == TK_LIT)
			cf->lit_len += f->tok[k].lit_len + 1;
	cf->lit_exact = xmalloc(cf->lit_len + 1);
	cf->lit_lower = xmalloc(cf->lit_len + 1);
	for (k = 0; k < f->ntok; k++) {
		const struct fmt_tok *t = &f->tok[k];
		const unsigned char *s;

		if (t->kind != TK_LIT) {
			for (i = 0; i < 4; i++)
				cf->convcls[i] |= t->cls[i];
			if (t->kind == TK_WILD)
				cf->has_wild = true;
			if (!t->min)
				cf->has_empty_conv = true;
			else
				last = -1;
			continue;
		}
		cf->ntoklit++;
		s = (const unsigned char *)f->lit + t->lit_off;
		for (i = 0; i < t->lit_len; i++) {
			cf->lit_exact[o] = s[i];
			cf->lit_lower[o++] = ascii_lower(s[i]);
			cls_set(cf->litset, ascii_lower(s[i]));
			if (i)
				set_bigram(cf, s[i - 1], s[i]);
		}
		cf->lit_exact[o] = cf->lit_lower[o] = '\n';
		o++;
		if (t->lit_len) {
			cls_set(cf->edgeset, ascii_lower(s[0]));
			cls_set(cf->edgeset, ascii_lower(s[t->lit_len - 1]));
			/* bytes of two literal tokens meet when the
			 * conversions between them print nothing */
			if (last >= 0)
				set_bigram(cf, last, s[0]);
			last = s[t->lit_len - 1];
		}
	}
	cf->lit_exact[o] = cf->lit_lower[o] = 0;
	cf->lit_len = o;
	for (i = 0; i < o; i++)
		cls_set(cf->canprint, (unsigned char)cf->lit_exact[i]);
	for (i = 0; i < 4; i++)
		cf->canprint[i] |= cf->convcls[i];
	literal_flags(cf);
}

/* lflags (FB_*, checker_impl.h) */
static void literal_flags(struct ck_format *cf)
{
	const struct fmt *f = cf->f;
	uint32_t k, i, n = 0;
	bool joinable = false, conv_before = false;

	cf->lflags = xcalloc(cf->lit_len + 1, 1);
	cf->lseq = xmalloc(cf->lit_len + 1);
	for (k = 0; k < f->ntok; k++) {
		const struct fmt_tok *t = &f->tok[k];

		if (t->kind != TK_LIT) {
			if (t->max > 0) {
				conv_before = true;
				if (n)
					cf->lflags[n - 1] |= FB_CONV_AFTER;
			}
			if (t->min > 0)
				joinable = false;
			continue;
		}
		for (i = 0; i < t->lit_len; i++) {
			cf->lseq[n] = ascii_lower(f->lit[t->lit_off + i]);
			if (i ? true : joinable)
				cf->lflags[n] |= FB_CONTIG;
			if (i)
				cf->lflags[n] |= FB_INTOK;
			if (!i && conv_before)
				cf->lflags[n] |= FB_CONV_BEFORE;
			n++;
		}
		joinable = t->lit_len > 0;
		conv_before = false;
	}
	cf->nlseq = n;
	/* distinct pairs of bytes that can be adjacent literal output */
	{
		/* all zero between calls (one thread, as dp_buf): clearing
		 * the words set is much cheaper than 8 KiB per format */
		static uint64_t seen[1024];

		cf->pairs = xmalloc((n ? n : 1) * sizeof(*cf->pairs));
		cf->after_pos = xmalloc((n ? n : 1) * sizeof(*cf->after_pos));
		for (i = 0; i < n; i++) {
			uint16_t pr;

			if (cf->lflags[i] & FB_CONV_BEFORE)
				cf->after_pos[cf->after_conv++] = i;
			if (cf->lflags[i] & FB_CONV_AFTER)
				cls_set(cf->before_conv, cf->lseq[i]);
			if (!i || !(cf->lflags[i] & FB_CONTIG))
				continue;
			pr = cf->lseq[i - 1] << 8 | cf->lseq[i];
			/* ck_bound_starts() needs every such pair in bigram;
			 * ck_format_init() sets them all already, but say so */
			set_bigram(cf, cf->lseq[i - 1], cf->lseq[i]);
			if (seen[pr >> 6] >> (pr & 63) & 1)
				continue;
			seen[pr >> 6] |= 1ULL << (pr & 63);
			cf->pairs[cf->npairs++] = pr;
		}
		for (i = 0; i < cf->npairs; i++)
			seen[cf->pairs[i] >> 6] = 0;
	}
}

void ck_format_free(struct ck_format *cf)
{
	free(cf->pairs);
	free(cf->after_pos);
	free(cf->lflags);
	free(cf->lseq);
	rx_nfa_free(&cf->nfa);
	free(cf->rest);
	free(cf->clos_start);
	free(cf->clos);
	free(cf->lit_exact);
	free(cf->lit_lower);
	memset(cf, 0, sizeof(*cf));
}

/*
 * For every state, the most literal states on a path from it to a match:
 * what a search can still gain (a bound to prune with). Relaxation to a
 * fixed point; a literal state on a cycle makes it grow without end, so
 * values saturate at n + 1, which is more than any path can use.
 */
uint32_t *ck_rest_literals(const struct rx_nfa *a)
{
	uint32_t *rest = xcalloc(a->n ? a->n : 1, sizeof(*rest)), cap = a->n + 1, i;
	bool changed = true;

	while (changed) {
		changed = false;
		for (i = 0; i < a->n; i++) {
			const struct rx_state *st = &a->st[i];
			uint32_t v = 0, w = st->op == RX_CLS && st->lit;

			if (st->op == RX_MATCH)
				continue;
			v = rest[st->out];
			if (st->op == RX_SPLIT && rest[st->out1] > v)
				v = rest[st->out1];
			v = v + w > cap ? cap : v + w;
			if (v > rest[i]) {
				rest[i] = v;
				changed = true;
			}
		}
	}
	return rest;
}

/*
 * For every state, the states other than splits that it reaches through
 * splits alone (itself if it is none). The product then never holds a
 * split: fewer states, and no chains of empty steps to walk.
 */
void ck_split_closure(const struct rx_nfa *a, uint32_t **startp, uint32_t **listp)
{
	uint32_t *start = xmalloc((a->n + 1) * sizeof(*start)), *list = NULL;
	uint32_t *stamp = xcalloc(a->n ? a->n : 1, sizeof(*stamp));
	uint32_t *stack = xmalloc((a->n ? a->n : 1) * sizeof(*stack));
	uint32_t i, len = 0, cap = 0, sp;

	for (i = 0; i < a->n; i++) {
		start[i] = len;
		sp = 0;
		stack[sp++] = i;
		stamp[i] = i + 1;
		while (sp) {
			uint32_t s = stack[--sp], t[2], k;
			const struct rx_state *st = &a->st[s];

			if (st->op != RX_SPLIT) {
				if (len == cap) {
					cap = grow_cap(cap, 256);
					list = xreallocarray(list, cap, sizeof(*list));
				}
				list[len++] = s;
				continue;
			}
			t[0] = st->out;
			t[1] = st->out1;
			/* pushed in reverse: the first branch comes out first */
			for (k = 2; k-- > 0;) {
				if (stamp[t[k]] == i + 1)
					continue;
				stamp[t[k]] = i + 1;
				stack[sp++] = t[k];
			}
		}
	}
	start[a->n] = len;
	free(stamp);
	free(stack);
	*startp = start;
	*listp = list;
}

bool ck_format_ready(struct ck_format *cf)
{
	if (!cf->built) {
		cf->built = true;
		cf->unsupported = ck_format_nfa(cf->f, &cf->nfa) != 0;
		if (!cf->unsupported) {
			cf->rest = ck_rest_literals(&cf->nfa);
			ck_split_closure(&cf->nfa, &cf->clos_start, &cf->clos);
		}
	}
	return !cf->unsupported;
}
