// SPDX-License-Identifier: GPL-2.0
/* Rule x format: product automaton, strength, witness, prefilters.
 * See checker.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* memmem() */
#endif
#include <stdlib.h>
#include <string.h>

#include "checker.h"

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

static uint32_t bigram_bit(unsigned char a, unsigned char b)
{
	return ((uint32_t)(ascii_lower(a) << 8 | ascii_lower(b)) * 40503u >> 4) & 4095;
}

static void set_bigram(struct ck_format *cf, unsigned char a, unsigned char b)
{
	uint32_t h = bigram_bit(a, b);

	cf->bigram[h >> 6] |= 1ULL << (h & 63);
}

static bool has_bigram(const struct ck_format *cf, unsigned char a, unsigned char b)
{
	uint32_t h = bigram_bit(a, b);

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

/* lflags: the byte may directly follow the previous literal byte in the
 * output; a conversion printing something may come right before / after */
#define FB_CONTIG	1
#define FB_CONV_BEFORE	2
#define FB_CONV_AFTER	4
#define FB_INTOK	8	/* not the first byte of its literal token */

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
static uint32_t *rest_literals(const struct rx_nfa *a)
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
static void split_closure(const struct rx_nfa *a, uint32_t **startp, uint32_t **listp)
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
					list = xrealloc(list, cap * sizeof(*list));
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

static bool format_ready(struct ck_format *cf)
{
	if (!cf->built) {
		cf->built = true;
		cf->unsupported = ck_format_nfa(cf->f, &cf->nfa) != 0;
		if (!cf->unsupported) {
			cf->rest = rest_literals(&cf->nfa);
			split_closure(&cf->nfa, &cf->clos_start, &cf->clos);
		}
	}
	return !cf->unsupported;
}

/* ------------------------------------------------------------------ */
/* The product                                                          */

/* context: previous byte (start / word / other) x allowed next kinds */
enum { PREV_START = 0, PREV_WORD = 1, PREV_OTHER = 2 };
enum { NEXT_WORD = 1, NEXT_OTHER = 2, NEXT_END = 4, NEXT_ALL = 7 };
#define CTX(prev, mask) ((uint8_t)((prev) << 3 | (mask)))
#define CTX_PREV(c) ((c) >> 3)
#define CTX_MASK(c) ((c) & 7)

/* edge kinds into a node, for the witness */
enum { VIA_EPS, VIA_WORD, VIA_OTHER, VIA_ANY };

struct pnode {
	uint32_t fs, rs;
	uint8_t ctx, via;
	bool inq;
	int32_t best;
	uint32_t pred;
};

enum search_mode {
	SM_FULL,	/* best W over every accepting path */
	SM_STRONG,	/* best W, only paths that can still reach K */
	SM_ANY,		/* is there an accepting path at all */
};

/* Does a rule (without assertions) match inside what one conversion can
 * print? Per rule, per kind of conversion. */
struct tok_memo {
	uint64_t rule;		/* ck_rule.serial */
	uint8_t kind, left;
	int32_t width, prec;
	const struct ere *ere;
	bool match;
};

/* One conversion alone as a format, for tok_prints_match(): its automaton
 * does not depend on the rule, so it is built once per search. */
struct tok_format {
	struct tok_memo key;
	struct fmt_tok tok;
	struct fmt f;
	struct ck_format cf;
	bool ready;
};

struct ck_search {
	struct tok_memo memo[64];
	uint32_t nmemo;
	struct tok_format *tokfmt;
	uint32_t ntokfmt;
	/* the pair being searched */
	const struct rx_nfa *fa, *ra;
	const uint32_t *frest, *rrest;
	const uint32_t *fcs, *fcl, *rcs, *rcl;	/* split closures */
	int32_t need;		/* SM_STRONG: K */
	bool any;		/* SM_ANY */
	bool words;		/* the rule has \b or \B */
	struct pnode *node;
	uint32_t nnode, capnode;
	uint32_t *tab;		/* hash slots: node index + 1, 0 = empty */
	uint32_t *tabgen;
	uint32_t tabmask, gen;
	uint32_t *queue;
	size_t qhead, qtail, qcap;
	uint64_t word[4];
	/* any_match(): the rule it is prepared for (serial, 0: none) */
	uint64_t bits_rule;
	bool bits_ok;		/* that rule can take the bitset search */
	uint32_t bw;		/* words per set of rule states */
	uint64_t *bclos;	/* per rule state: its split closure, bw words */
	uint64_t *bcls;		/* states taking a byte at all (RX_CLS) */
	uint64_t *bmatch;	/* RX_MATCH states */
	uint64_t *btail;	/* a search rule's tail and fin */
	/* per format state: rule states reached, and not yet expanded */
	uint64_t *breach, *btodo;
	size_t bcap;
};

/* Product states explored per pair before giving up (reported, never a
 * silent answer). */
#define CK_BUDGET 2000000

struct ck_search *ck_search_new(void)
{
	struct ck_search *s = xcalloc(1, sizeof(*s));
	int c;

	s->tabmask = 4095;
	s->tab = xcalloc(s->tabmask + 1, sizeof(*s->tab));
	s->tabgen = xcalloc(s->tabmask + 1, sizeof(*s->tabgen));
	for (c = 0; c < 256; c++)
		if (rx_is_word(c))
			cls_set(s->word, c);
	return s;
}

void ck_search_free(struct ck_search *s)
{
	uint32_t i;

	if (!s)
		return;
	for (i = 0; i < s->ntokfmt; i++)
		ck_format_free(&s->tokfmt[i].cf);
	free(s->tokfmt);
	free(s->node);
	free(s->tab);
	free(s->tabgen);
	free(s->queue);
	free(s->bclos);
	free(s->bcls);
	free(s->bmatch);
	free(s->btail);
	free(s->breach);
	free(s->btodo);
	free(s);
}

static uint32_t hash3(uint32_t fs, uint32_t rs, uint8_t ctx)
{
	uint64_t k = ((uint64_t)fs << 32 | rs) * 0x9E3779B97F4A7C15ULL;

	return (uint32_t)(k >> 32) ^ ctx * 0x85EBCA6Bu;
}

static void grow_table(struct ck_search *s)
{
	uint32_t i, n = (s->tabmask + 1) * 2;

	free(s->tab);
	free(s->tabgen);
	s->tabmask = n - 1;
	s->tab = xcalloc(n, sizeof(*s->tab));
	s->tabgen = xcalloc(n, sizeof(*s->tabgen));
	for (i = 0; i < s->nnode; i++) {
		const struct pnode *p = &s->node[i];
		uint32_t h = hash3(p->fs, p->rs, p->ctx) & s->tabmask;

		while (s->tabgen[h] == s->gen)
			h = (h + 1) & s->tabmask;
		s->tabgen[h] = s->gen;
		s->tab[h] = i;
	}
}

static void push(struct ck_search *s, uint32_t i)
{
	if (s->node[i].inq)
		return;
	s->node[i].inq = true;
	if (s->qtail == s->qcap) {
		s->qcap = grow_cap(s->qcap, 1024);
		s->queue = xrealloc(s->queue, s->qcap * sizeof(*s->queue));
	}
	s->queue[s->qtail++] = i;
}

/* Reach (fs, rs, ctx) with value v from node pred: a strict improvement
 * (re)queues it. */
static void relax(struct ck_search *s, uint32_t fs, uint32_t rs, uint8_t ctx,
		  int32_t v, uint32_t pred, uint8_t via)
{
	uint32_t h = hash3(fs, rs, ctx) & s->tabmask, i, more;
	struct pnode *p;

	if (s->need) {
		/* literal steps still possible: both sides must have them */
		more = s->frest[fs] < s->rrest[rs] ? s->frest[fs] : s->rrest[rs];
		if ((int64_t)v + more < s->need)
			return;
	}

	while (s->tabgen[h] == s->gen) {
		p = &s->node[s->tab[h]];
		if (p->fs == fs && p->rs == rs && p->ctx == ctx) {
			if (v > p->best) {
				p->best = v;
				p->pred = pred;
				p->via = via;
				push(s, s->tab[h]);
			}
			return;
		}
		h = (h + 1) & s->tabmask;
	}
	if (s->nnode == s->capnode) {
		s->capnode = grow_cap(s->capnode, 1024);
		s->node = xrealloc(s->node, s->capnode * sizeof(*s->node));
	}
	i = s->nnode++;
	s->node[i] = (struct pnode){ .fs = fs, .rs = rs, .ctx = ctx, .via = via,
				     .best = v, .pred = pred };
	s->tabgen[h] = s->gen;
	s->tab[h] = i;
	push(s, i);
	if (s->nnode * 2 > s->tabmask)
		grow_table(s);
}

/* relax() every pair of the split closures of fs and rs */
static void relax_clos(struct ck_search *s, uint32_t fs, uint32_t rs, uint8_t ctx,
		       int32_t v, uint32_t pred, uint8_t via)
{
	uint32_t i, j;

	for (i = s->fcs[fs]; i < s->fcs[fs + 1]; i++)
		for (j = s->rcs[rs]; j < s->rcs[rs + 1]; j++)
			relax(s, s->fcl[i], s->rcl[j], ctx, v, pred, via);
}

/* The context after an assertion; 0xff when it cannot hold. */
static uint8_t assert_ctx(uint8_t ctx, int kind)
{
	int prev = CTX_PREV(ctx), mask = CTX_MASK(ctx);

	switch (kind) {
	case RXA_BOL:
		if (prev != PREV_START)
			return 0xff;
		break;
	case RXA_EOL:
		mask &= NEXT_END;
		break;
	case RXA_WORDB:
		mask &= prev == PREV_WORD ? NEXT_OTHER | NEXT_END : NEXT_WORD;
		break;
	case RXA_NWORDB:
		mask &= prev == PREV_WORD ? NEXT_WORD : NEXT_OTHER | NEXT_END;
		break;
	}
	return mask ? CTX(prev, mask) : 0xff;
}

static void edge_set(const struct ck_search *s, const struct rx_nfa *fa,
		     const struct rx_nfa *ra, const struct pnode *p, int via,
		     uint64_t out[4])
{
	const uint64_t *fc = fa->cls[fa->st[p->fs].cls], *rc = ra->cls[ra->st[p->rs].cls];
	int i;

	for (i = 0; i < 4; i++) {
		out[i] = fc[i] & rc[i];
		if (via != VIA_ANY)
			out[i] &= via == VIA_WORD ? s->word[i] : ~s->word[i];
	}
	out[0] &= ~(1ULL << '\n');
}

static void expand(struct ck_search *s, const struct rx_nfa *fa,
		   const struct rx_nfa *ra, uint32_t u, uint32_t *acc)
{
	struct pnode n = s->node[u];
	const struct rx_state *f = &fa->st[n.fs], *r = &ra->st[n.rs];
	int mask = CTX_MASK(n.ctx);
	uint8_t c;

	/* nodes hold no splits (split_closure()) */
	if (r->op == RX_ASSERT) {
		uint32_t j;

		c = assert_ctx(n.ctx, r->arg);
		if (c != 0xff)
			for (j = s->rcs[r->out]; j < s->rcs[r->out + 1]; j++)
				relax(s, n.fs, s->rcl[j], c, n.best, u, VIA_EPS);
	}
	/* SM_ANY: the rule has matched and nothing is pending; any rest of
	 * the format is fine (every format state reaches its end, through
	 * bytes that are never a newline) */
	if (s->any && ra->has_tail && (n.rs == ra->tail || n.rs == ra->fin) &&
	    mask == NEXT_ALL) {
		*acc = u;
		return;
	}
	if (f->op == RX_MATCH && r->op == RX_MATCH && (mask & NEXT_END)) {
		if (*acc == UINT32_MAX || n.best > s->node[*acc].best)
			*acc = u;
	}
	if (f->op == RX_CLS && r->op == RX_CLS) {
		int32_t v = n.best + (f->lit && r->lit);
		uint64_t set[4];
		int via;

		if (!s->words) {
			/* without \b \B only "at the start" matters */
			if (!(mask & (NEXT_WORD | NEXT_OTHER)))
				return;		/* "$" was taken */
			edge_set(s, fa, ra, &n, VIA_ANY, set);
			if (set[0] | set[1] | set[2] | set[3])
				relax_clos(s, f->out, r->out, CTX(PREV_OTHER, NEXT_ALL), v, u, VIA_ANY);
			return;
		}
		for (via = VIA_WORD; via <= VIA_OTHER; via++) {
			if (!(mask & (via == VIA_WORD ? NEXT_WORD : NEXT_OTHER)))
				continue;
			edge_set(s, fa, ra, &n, via, set);
			if (set[0] | set[1] | set[2] | set[3])
				relax_clos(s, f->out, r->out,
				      CTX(via == VIA_WORD ? PREV_WORD : PREV_OTHER, NEXT_ALL),
				      v, u, via);
		}
	}
}

/* A byte of the set for the witness: printable ASCII first. */
static unsigned char pick(const uint64_t set[4])
{
	int c;

	for (c = 0x20; c < 0x7f; c++)
		if (cls_has(set, c))
			return c;
	for (c = 0x80; c < 0x100; c++)
		if (cls_has(set, c))
			return c;
	for (c = 1; c < 0x20; c++)
		if (cls_has(set, c))
			return c;
	return c == 0x7f || cls_has(set, 0x7f) ? 0x7f : 0;
}

/* The message of the path to acc; with lit, per byte 'f' when the
 * format's own literal text printed it, 'a' when a conversion did. */
static void witness_of(struct ck_search *s, const struct rx_nfa *fa,
		       const struct rx_nfa *ra, uint32_t acc, struct sbuf *w,
		       struct sbuf *lit)
{
	struct sbuf rev = { 0 }, revlit = { 0 };
	uint32_t u = acc;
	size_t i;

	while (u != UINT32_MAX) {
		const struct pnode *p = &s->node[u];

		if (p->via != VIA_EPS) {
			uint64_t set[4];

			edge_set(s, fa, ra, &s->node[p->pred], p->via, set);
			sbuf_addc(&rev, pick(set));
			sbuf_addc(&revlit, fa->st[s->node[p->pred].fs].lit ? 'f' : 'a');
		}
		u = p->pred;
	}
	sbuf_reset(w);
	for (i = rev.len; i-- > 0;)
		sbuf_addc(w, rev.p[i]);
	if (lit) {
		sbuf_reset(lit);
		for (i = revlit.len; i-- > 0;)
			sbuf_addc(lit, revlit.p[i]);
	}
	sbuf_free(&rev);
	sbuf_free(&revlit);
}

/*
 * "Is there any match" for a rule without assertions is reachability in
 * the product, and without assertions the context never matters (it only
 * tells the start from later bytes): so instead of (format state, rule
 * state, context) nodes in a hash table, keep per format state the set of
 * rule states reached, as bits, and push only the newly reached ones
 * along each edge. Every (format state, rule state) pair is expanded once,
 * with a few word operations, so no step budget is needed (at most
 * RX_MAX_STATES x BITS_MAX_STATES expansions): where the product search
 * would have given up as undecided (never on the sample), this decides.
 * Rules with more than BITS_MAX_STATES states or with assertions keep the
 * product search.
 */
#define BITS_MAX_STATES 512

static bool bits_prepare(struct ck_search *s, const struct ck_rule *r)
{
	const struct rx_nfa *ra = &r->nfa;
	uint32_t i, j, w;

	if (s->bits_rule == r->serial)
		return s->bits_ok;
	s->bits_rule = r->serial;
	s->bits_ok = false;
	if (ra->n > BITS_MAX_STATES)
		return false;
	for (i = 0; i < ra->n; i++)
		if (ra->st[i].op == RX_ASSERT)
			return false;
	s->bits_ok = true;
	w = s->bw = (ra->n + 63) / 64;
	free(s->bclos);
	free(s->bcls);
	free(s->bmatch);
	free(s->btail);
	s->bclos = xcalloc((size_t)ra->n * w, sizeof(uint64_t));
	s->bcls = xcalloc(w, sizeof(uint64_t));
	s->bmatch = xcalloc(w, sizeof(uint64_t));
	s->btail = xcalloc(w, sizeof(uint64_t));
	for (i = 0; i < ra->n; i++) {
		const struct rx_state *st = &ra->st[i];

		for (j = r->clos_start[i]; j < r->clos_start[i + 1]; j++)
			s->bclos[i * w + r->clos[j] / 64] |= 1ULL << (r->clos[j] % 64);
		if (st->op == RX_MATCH)
			s->bmatch[i / 64] |= 1ULL << (i % 64);
		if (st->op != RX_CLS)
			continue;
		s->bcls[i / 64] |= 1ULL << (i % 64);
	}
	/* a search rule that got to its tail has matched, whatever the rest
	 * of the format prints (expand()) */
	if (ra->has_tail) {
		s->btail[ra->tail / 64] |= 1ULL << (ra->tail % 64);
		s->btail[ra->fin / 64] |= 1ULL << (ra->fin % 64);
	}
	return true;
}

/* Add rule states set[] to format state fs; queue fs unless it is. */
static void bits_add(struct ck_search *s, uint32_t fs, const uint64_t *set)
{
	uint64_t *reach = s->breach + (size_t)fs * s->bw, *todo = s->btodo + (size_t)fs * s->bw;
	uint64_t add, queued = 0, any = 0;
	uint32_t k;

	for (k = 0; k < s->bw; k++) {
		add = set[k] & ~reach[k];
		queued |= todo[k];
		any |= add;
		reach[k] |= add;
		todo[k] |= add;
	}
	if (!any || queued)
		return;
	if (s->qtail == s->qcap) {
		s->qcap = grow_cap(s->qcap, 1024);
		s->queue = xrealloc(s->queue, s->qcap * sizeof(*s->queue));
	}
	s->queue[s->qtail++] = fs;
}

/* The SM_ANY answer of run_product(), for a rule bits_prepare() took. */
static bool any_match(struct ck_search *s, const struct ck_format *cf,
		      const struct ck_rule *r)
{
	const struct rx_nfa *fa = &cf->nfa, *ra = &r->nfa;
	uint64_t next[BITS_MAX_STATES / 64];
	uint32_t w = s->bw, i, j, k;
	size_t size = (size_t)fa->n * w;

	if (s->bcap < size) {
		s->bcap = size;
		free(s->breach);
		free(s->btodo);
		s->breach = xmalloc(size * sizeof(uint64_t));
		s->btodo = xmalloc(size * sizeof(uint64_t));
	}
	memset(s->breach, 0, size * sizeof(uint64_t));
	memset(s->btodo, 0, size * sizeof(uint64_t));
	s->qhead = s->qtail = 0;
	for (i = cf->clos_start[fa->start]; i < cf->clos_start[fa->start + 1]; i++)
		bits_add(s, cf->clos[i], s->bclos + (size_t)ra->start * w);
	while (s->qhead < s->qtail) {
		uint32_t fs = s->queue[s->qhead++];
		const struct rx_state *f = &fa->st[fs];
		const uint64_t *fc = f->op == RX_CLS ? fa->cls[f->cls] : NULL;
		uint64_t *todo = s->btodo + (size_t)fs * w;
		bool more = false;

		for (k = 0; k < w; k++) {
			uint64_t d = todo[k], m;

			todo[k] = 0;
			/* the rule's tail; or both at their match state */
			if ((d & s->btail[k]) || (f->op == RX_MATCH && (d & s->bmatch[k])))
				return true;
			if (!fc)
				continue;
			for (m = d & s->bcls[k]; m; m &= m - 1) {
				uint32_t rs = k * 64 + __builtin_ctzll(m);
				const uint64_t *rc = ra->cls[ra->st[rs].cls];
				const uint64_t *cl = s->bclos + (size_t)ra->st[rs].out * w;

				/* never a newline: the message ends before it,
				 * as in edge_set() */
				if (!((fc[0] & rc[0] & ~(1ULL << '\n')) | (fc[1] & rc[1]) |
				      (fc[2] & rc[2]) | (fc[3] & rc[3])))
					continue;
				/* the first one sets next[], no clearing */
				for (j = 0; j < w; j++)
					next[j] = more ? next[j] | cl[j] : cl[j];
				more = true;
			}
		}
		if (!more)
			continue;
		for (i = cf->clos_start[f->out]; i < cf->clos_start[f->out + 1]; i++)
			bits_add(s, cf->clos[i], next);
	}
	return false;
}

static void run_product_lit(struct ck_search *s, const struct ck_format *cf,
			    const struct ck_rule *r, enum search_mode mode,
			    struct ck_result *res, struct sbuf *witness, struct sbuf *lit);

static void run_product(struct ck_search *s, const struct ck_format *cf,
			const struct ck_rule *r, enum search_mode mode,
			struct ck_result *res, struct sbuf *witness)
{
	run_product_lit(s, cf, r, mode, res, witness, NULL);
}

static void run_product_lit(struct ck_search *s, const struct ck_format *cf,
			    const struct ck_rule *r, enum search_mode mode,
			    struct ck_result *res, struct sbuf *witness, struct sbuf *lit)
{
	const struct rx_nfa *fa = &cf->nfa, *ra = &r->nfa;
	uint32_t acc = UINT32_MAX;
	size_t steps = 0;

	ck_stat_products++;
	if (mode == SM_ANY && !witness && bits_prepare(s, r)) {
		ck_stat_bits++;
		memset(res, 0, sizeof(*res));
		res->product = true;
		/* no W: a strong match was ruled out before SM_ANY runs */
		res->v = any_match(s, cf, r) ? CK_WEAK : CK_NONE;
		return;
	}
	s->gen++;
	if (!s->gen) {
		memset(s->tabgen, 0, (s->tabmask + 1) * sizeof(*s->tabgen));
		s->gen = 1;
	}
	s->fa = fa;
	s->ra = ra;
	s->frest = cf->rest;
	s->rrest = r->rest;
	s->need = mode == SM_STRONG ? (int32_t)r->K : 0;
	s->any = mode == SM_ANY;
	s->words = r->re.has_wordb;
	s->nnode = 0;
	s->qhead = s->qtail = 0;
	s->fcs = cf->clos_start;
	s->fcl = cf->clos;
	s->rcs = r->clos_start;
	s->rcl = r->clos;
	relax_clos(s, fa->start, ra->start, CTX(PREV_START, NEXT_ALL), 0, UINT32_MAX, VIA_EPS);
	while (s->qhead < s->qtail) {
		uint32_t u = s->queue[s->qhead++];

		s->node[u].inq = false;
		expand(s, fa, ra, u, &acc);
		if (mode == SM_ANY && acc != UINT32_MAX)
			break;
		if (++steps > CK_BUDGET) {
			res->budget = true;
			break;
		}
	}
	res->product = true;
	ck_stat_nodes += s->nnode;
	if (acc == UINT32_MAX) {
		res->v = CK_NONE;
		return;
	}
	res->w = s->node[acc].best;
	res->v = r->K != RX_INF && res->w >= r->K ? CK_STRONG : CK_WEAK;
	if (witness)
		witness_of(s, fa, ra, acc, witness, lit);
}

uint64_t ck_stat_products, ck_stat_nodes, ck_stat_bits;

void ck_product(struct ck_search *s, const struct ck_rule *r, struct ck_format *cf,
		struct ck_result *res, struct sbuf *witness)
{
	memset(res, 0, sizeof(*res));
	if (!format_ready(cf)) {
		res->budget = true;	/* too large to decide */
		return;
	}
	run_product(s, cf, r, SM_FULL, res, witness);
}

void ck_product_lit(struct ck_search *s, const struct ck_rule *r, struct ck_format *cf,
		    struct ck_result *res, struct sbuf *witness, struct sbuf *lit)
{
	memset(res, 0, sizeof(*res));
	if (!format_ready(cf)) {
		res->budget = true;
		return;
	}
	run_product_lit(s, cf, r, SM_FULL, res, witness, lit);
}

/* ------------------------------------------------------------------ */
/* Rules and prefilters                                                 */

static uint64_t rule_serial;

int ck_rule_init(struct ck_rule *r, const char *pat, size_t len, enum rx_mode mode,
		 struct pi_err *err)
{
	struct ck_search *s;
	struct ck_format cf;
	struct ck_result res;
	struct fmt f;

	memset(r, 0, sizeof(*r));
	if (rx_parse(&r->re, pat, len, err))
		return -1;
	r->serial = ++rule_serial;
	r->pat = xmalloc(len + 1);
	memcpy(r->pat, pat, len);
	r->pat[len] = 0;
	r->mode = mode;
	rx_compile_rule(&r->nfa, &r->re, mode);
	if (r->nfa.too_big) {
		pi_seterr(err, "offset 0: pattern too large (more than %d automaton states)",
			  RX_MAX_STATES);
		rx_nfa_free(&r->nfa);
		rx_free(&r->re);
		free(r->pat);
		return -1;
	}
	rx_literals(&r->re, &r->lits);
	r->rest = rest_literals(&r->nfa);
	{
		/* chunk starts: a literal not right after another one of its
		 * run; runs and lone literals, times their repeat counts */
		uint64_t st = 0;
		uint32_t j;

		for (j = 0; j < r->lits.nleaf; j++) {
			const struct rx_leaf *lf = &r->lits.leaf[j];

			if (lf->has_prev)
				continue;
			st += lf->mult == RX_INF ? RX_INF : lf->mult;
		}
		r->starts = st >= RX_INF ? RX_INF : (uint32_t)st;
		for (j = 0; j < r->lits.nleaf; j++)
			cls_set(r->leafbytes, r->lits.leaf[j].c);
	}
	if (r->lits.seq_ok) {
		uint32_t j;

		for (j = 0; j < r->lits.nseq; j++) {
			r->seqmask[r->lits.seq[j]] |= 1ULL << j;
			if (r->lits.seq[j] >= 'a' && r->lits.seq[j] <= 'z')
				r->seqmask[r->lits.seq[j] - 32] |= 1ULL << j;
			if (r->lits.seqcont[j]) {
				r->seqcont |= 1ULL << j;
				r->seqhash[j] = bigram_bit(r->lits.seq[j - 1], r->lits.seq[j]);
			} else {
				r->runstart |= 1ULL << j;
			}
		}
	}
	split_closure(&r->nfa, &r->clos_start, &r->clos);
	r->R = rx_min_literals(&r->nfa);
	r->K = r->R ? (r->R + 1) / 2 : RX_INF;
	/* Can a "%s" between two blanks print a match? Then so can every
	 * "%s" (it can print those blanks itself), wherever it is - unless
	 * the rule is anchored somewhere. */
	if (mode == RX_SEARCH && !r->re.has_anchor) {
		fmt_compile(&f, " %s ", 4);
		ck_format_init(&cf, &f);
		s = ck_search_new();
		ck_product(s, r, &cf, &res, NULL);
		r->wild_ok = res.v != CK_NONE;
		ck_search_free(s);
		ck_format_free(&cf);
		fmt_free(&f);
	}
	return 0;
}

void ck_rule_free(struct ck_rule *r)
{
	rx_nfa_free(&r->nfa);
	free(r->pat);
	free(r->rest);
	free(r->clos_start);
	free(r->clos);
	rx_lits_free(&r->lits);
	rx_free(&r->re);
	memset(r, 0, sizeof(*r));
}

/*
 * Can the format print factor x at all? A byte that no conversion can
 * print comes from literal text, so each maximal segment of such bytes
 * must lie inside one literal token - unless a conversion that can print
 * nothing joins two of them (then: maybe).
 */
static bool factor_possible(const struct ck_format *cf, const struct rx_factor *x)
{
	const char *text = x->ci ? cf->lit_lower : cf->lit_exact;
	uint32_t i, j;

	if (cf->has_wild)
		return true;	/* "anything" prints it */
	/* a byte the format cannot print at all (for a case-folded factor:
	 * in neither case; the separators are no bytes of the format) */
	for (i = 0; i < 4; i++) {
		uint64_t miss = x->bytes[i] & ~cf->canprint[i];

		if (!i)
			miss &= ~(1ULL << '\n');
		if (miss && !x->ci)
			return false;
	}
	if (cf->has_empty_conv)
		return true;
	if (memmem(text, cf->lit_len, x->s, x->len))
		return true;
	for (i = 0; i < x->len; i = j + 1) {
		for (j = i; j < x->len; j++) {
			unsigned char c = x->s[j];

			if (cls_has(cf->convcls, c) ||
			    (x->ci && c >= 'a' && c <= 'z' && cls_has(cf->convcls, c - 32)))
				break;
		}
		/* a segment touching a conversion may be a prefix/suffix of
		 * a token: still contiguous inside that token */
		if (j > i && !memmem(text, cf->lit_len, x->s + i, j - i))
			return false;
	}
	return true;
}

static bool byte_in(const uint64_t cls[4], unsigned char c, bool ci)
{
	return cls_has(cls, c) || (ci && c >= 'a' && c <= 'z' && cls_has(cls, c - 32));
}

/*
 * Sharper, for formats without "anything" conversions: walk the tokens in
 * order keeping the set of lengths of x's prefixes that the output so far
 * can end with; a literal token must continue the prefix byte for byte, a
 * conversion may add bytes of its class (up to its length bound). x may
 * start inside any token and end inside any. A conversion is taken by its
 * class and length only: a necessary condition.
 */
static bool factor_pieces(const struct ck_format *cf, const struct rx_factor *x)
{
	const struct fmt *f = cf->f;
	const char *text = x->ci ? cf->lit_lower : cf->lit_exact;
	/* sets of prefix lengths < n <= 256, as bits: only the few lengths
	 * in them are visited */
	uint64_t cur[4] = { 0 }, nxt[4];
	uint32_t i, j, k, p, w, n = x->len, off = 0;

	if (n > 256 || !n)
		return true;
	for (k = 0; k < f->ntok; k++) {
		const struct fmt_tok *t = &f->tok[k];

		cur[0] |= 1;		/* x may start in this token */
		memset(nxt, 0, sizeof(nxt));
		for (w = 0; w < 4; w++) {
			uint64_t m;

			for (m = cur[w]; m; m &= m - 1) {
				i = w * 64 + __builtin_ctzll(m);
				if (t->kind == TK_LIT) {
					const char *s = text + off, *q;
					uint32_t len = t->lit_len;

					/* x[i..] continues at s[0], or (i == 0)
					 * starts at any s[p] with its first byte */
					for (p = 0; p < (i ? 1 : len); p = q - s + 1) {
						q = i ? s : memchr(s + p, x->s[0], len - p);
						if (!q)
							break;
						for (j = 0; q - s + j < len && i + j < n &&
							    q[j] == x->s[i + j]; j++)
							;
						if (i + j == n)
							return true;
						if (q - s + j == len)
							nxt[(i + j) / 64] |= 1ULL << ((i + j) % 64);
					}
					continue;
				}
				/* bytes before x starts can fill the minimum */
				if (!i || !t->min)
					nxt[i / 64] |= 1ULL << (i % 64);
				for (j = 1; i + j <= n && j <= t->max &&
					    byte_in(t->cls, x->s[i + j - 1], x->ci); j++) {
					if (i + j == n)
						return true;
					if (!i || j >= t->min)
						nxt[(i + j) / 64] |= 1ULL << ((i + j) % 64);
				}
			}
		}
		if (t->kind == TK_LIT)
			off += t->lit_len + 1;
		memcpy(cur, nxt, sizeof(cur));
	}
	return false;
}

/*
 * An upper bound on W (checker.h): a literal leaf of the rule counts when
 * the format has its byte in literal text; a leaf inside a run of
 * literals must moreover share a byte pair with the format's literal text
 * - unless it sits at the edge of a literal token, and there are only
 * 2 x (literal tokens) such edges on a path.
 */
static uint64_t w_bound(const struct ck_rule *r, const struct ck_format *cf)
{
	uint64_t ub = 0, edge = 0;
	uint32_t i;

	for (i = 0; i < r->lits.nleaf; i++) {
		const struct rx_leaf *l = &r->lits.leaf[i];
		uint64_t m = l->mult == RX_INF ? 1ULL << 40 : l->mult;

		if (!cls_has(cf->litset, l->c))
			continue;
		if (!l->in_run ||
		    (l->has_prev && has_bigram(cf, l->prev, l->c)) ||
		    (l->has_next && has_bigram(cf, l->c, l->next)))
			ub += m;
		else if (cls_has(cf->edgeset, l->c))
			edge += m;
	}
	return ub + (edge < 2ULL * cf->ntoklit ? edge : 2ULL * cf->ntoklit);
}

/* Longest common substring of run x with each literal token of the
 * format, summed over the tokens: in one pass over a run, a token gives
 * at most one chunk of literal-to-literal steps, and no chunk is longer. */
static uint64_t lcs_tokens(const struct ck_format *cf, const char *x, uint32_t n)
{
	uint32_t cur[256], i, j, best = 0;
	uint64_t sum = 0;

	if (n >= ARRAY_SIZE(cur))
		return n;	/* no bound for huge runs */
	memset(cur, 0, (n + 1) * sizeof(cur[0]));
	for (i = 0; i <= cf->lit_len; i++) {
		char c = i < cf->lit_len ? cf->lit_lower[i] : '\n';

		if (c == '\n') {
			sum += best;
			best = 0;
			memset(cur, 0, (n + 1) * sizeof(cur[0]));
			continue;
		}
		for (j = n; j-- > 0;) {
			cur[j + 1] = x[j] == c ? cur[j] + 1 : 0;
			if (cur[j + 1] > best)
				best = cur[j + 1];
		}
		cur[0] = 0;
	}
	return sum;
}

/* The bound on W again, runs counted by lcs_tokens(): tighter, dearer. */
static uint64_t w_bound_lcs(const struct ck_rule *r, const struct ck_format *cf)
{
	uint64_t ub = 0, c;
	uint32_t i;

	for (i = 0; i < r->lits.nleaf; i++) {
		const struct rx_leaf *l = &r->lits.leaf[i];

		if (!l->in_run && cls_has(cf->litset, l->c))
			ub += l->mult == RX_INF ? 1ULL << 40 : l->mult;
	}
	for (i = 0; i < r->lits.nrun; i++) {
		const struct rx_run *x = &r->lits.run[i];

		c = lcs_tokens(cf, x->s, x->len);
		if (c > x->len)
			c = x->len;
		ub += x->mult == RX_INF ? (c ? 1ULL << 40 : 0) : c * x->mult;
	}
	return ub;
}

/*
 * W is at most the longest common subsequence of the rule's literal leaves
 * (in pattern order) and the format's literal bytes (in order): both are
 * consumed in order along a path. Bit-parallel LCS (Hyyro), one word.
 */
static uint32_t w_bound_seq(const struct ck_rule *r, const struct ck_format *cf)
{
	uint64_t v = ~0ULL, u, full;
	uint32_t i, n = r->lits.nseq;

	if (!r->lits.seq_ok)
		return UINT32_MAX;
	full = n == 64 ? ~0ULL : (1ULL << n) - 1;
	for (i = 0; i < cf->lit_len; i++) {
		u = v & r->seqmask[(unsigned char)cf->lit_exact[i]];
		v = (v + u) | (v - u);
	}
	return n - __builtin_popcountll(v & full);
}

/* c (lower case) or its upper case in the class */
static bool byte_either(const uint64_t cls[4], unsigned char c)
{
	return cls_has(cls, c) || (c >= 'a' && c <= 'z' && cls_has(cls, c - 32));
}

/*
 * The longest chunk of w_bound_chunks() that starts at rule literal j and
 * format literal byte p: equal bytes, adjacent on both sides (seqcont,
 * FB_CONTIG); it may end at the end of the rule's run, where the format's
 * next byte in the same token must fit what the rule has after it, or at
 * a format byte right before a conversion. 0 if it cannot end anywhere.
 */
static uint32_t chunk_at(const struct ck_rule *r, const struct ck_format *cf,
			 uint32_t j, uint32_t p)
{
	const struct rx_lits *l = &r->lits;
	uint32_t i, best = 0;

	for (i = 0;; i++) {
		uint32_t q = p + i;
		bool run_end = j + i + 1 >= l->nseq || !l->seqcont[j + i + 1];

		if (run_end ? q + 1 >= cf->nlseq || !(cf->lflags[q + 1] & FB_INTOK) ||
			      byte_either(l->seqnext[j + i], cf->lseq[q + 1]) :
			      (cf->lflags[q] & FB_CONV_AFTER) != 0)
			best = i + 1;
		if (run_end || q + 1 >= cf->nlseq || !(cf->lflags[q + 1] & FB_CONTIG) ||
		    l->seq[j + i + 1] != cf->lseq[q + 1])
			return best;
	}
}

/*
 * A cheap bound on w_bound_chunks() below (UINT32_MAX: none). That DP
 * aligns the rule's literals with the format's in chunks (chunk_at()). A
 * chunk starts at a rule literal that begins a run (!seqcont), where a
 * format byte before it in the same token must fit what the rule has
 * before it; or else at a format literal right after a conversion
 * (FB_CONV_BEFORE). The chunks of one alignment increase on both sides,
 * so no two start at the same rule literal or at the same format literal.
 * Hence the DP, and W, is at most the sum of the longest chunk from each
 * rule run start and from each format literal after a conversion (there
 * at a rule literal inside a run; one that begins a run counts above).
 *
 * Finding the chunks from rule run starts means scanning the format's
 * literal bytes; without exact, a run start counts instead as far as the
 * format has the run's byte pairs (bigram, a superset of the adjacent
 * ones), to a byte that may end a chunk: the run's end, or a byte the
 * format has before a conversion. That is no less than any chunk there,
 * and cheaper.
 *
 * It prunes what counting shared pairs does not: " queue f" is in both
 * "output queue full" and "%s: Unexpected TXQ (%d) queue failure", but
 * starts and ends at neither kind of place.
 */
uint32_t ck_bound_starts(const struct ck_rule *r, const struct ck_format *cf, bool exact)
{
	const struct rx_lits *l = &r->lits;
	uint32_t i, j, k, p, c, best, sum = 0, J = l->nseq;
	uint64_t m;

	if (!l->seq_ok)
		return UINT32_MAX;
	for (m = r->runstart; m; m &= m - 1) {
		j = __builtin_ctzll(m);
		if (!cls_has(cf->litset, l->seq[j]))
			continue;
		best = 0;
		for (p = 0; exact && p < cf->nlseq; p++) {
			if (cf->lseq[p] != l->seq[j] ||
			    ((cf->lflags[p] & FB_INTOK) &&
			     !byte_either(l->seqprev[j], cf->lseq[p - 1])))
				continue;
			c = chunk_at(r, cf, j, p);
			if (c > best)
				best = c;
		}
		for (i = j; !exact; i++) {
			bool run_end = i + 1 >= J || !l->seqcont[i + 1];

			if (run_end || cls_has(cf->before_conv, l->seq[i]))
				best = i - j + 1;
			if (run_end ||
			    !(cf->bigram[r->seqhash[i + 1] >> 6] >> (r->seqhash[i + 1] & 63) & 1))
				break;
		}
		sum += best;
	}
	for (k = 0; k < cf->after_conv; k++) {
		p = cf->after_pos[k];
		best = 0;
		for (m = r->seqmask[cf->lseq[p]] & r->seqcont; m; m &= m - 1) {
			c = chunk_at(r, cf, __builtin_ctzll(m), p);
			if (c > best)
				best = c;
		}
		sum += best;
	}
	return sum;
}

/*
 * The tightest bound, by dynamic programming over (rule literal j, format
 * literal byte p) aligned: along a path, aligned pairs increase in both;
 * two literals of one run are consumed back to back, so if both are
 * aligned their bytes are adjacent in the output, and if only the first
 * is, a conversion byte follows its format byte (it ends a literal
 * token); symmetrically before. best[j][p]: most aligned pairs ending
 * with (j, p).
 */
uint64_t ck_stat_dp;


/* Rows of w_bound_chunks(), kept across calls (one thread). */
static uint32_t *dp_buf;
static size_t dp_cap;

static uint32_t w_bound_chunks(const struct ck_rule *r, const struct ck_format *cf,
			       uint32_t need)
{
	const struct rx_lits *l = &r->lits;
	uint32_t J = l->nseq, P = 0, j, k, res = 0, rowmax = 0, *col, rem[65];
	uint32_t *best0, *best1, *pm0, *pm1, *pm2, *t;
	uint8_t *adj, *cbyte, *cfl;

	if (!l->seq_ok)
		return UINT32_MAX;
	if (!J || !cf->nlseq)
		return 0;
	ck_stat_dp++;
	if (dp_cap < 8 * (size_t)cf->nlseq) {
		dp_cap = 8 * (size_t)cf->nlseq;
		free(dp_buf);
		dp_buf = xmalloc(dp_cap * sizeof(*dp_buf));
	}
	/* only the format's bytes the rule has can be aligned: the other
	 * columns would stay 0; adj[k]: column k directly follows k - 1 */
	col = dp_buf + 5 * (size_t)cf->nlseq;
	adj = (uint8_t *)(dp_buf + 6 * (size_t)cf->nlseq);
	cbyte = adj + cf->nlseq;
	cfl = cbyte + cf->nlseq;
	for (k = 0; k < cf->nlseq; k++) {
		if (!r->seqmask[cf->lseq[k]])
			continue;
		adj[P] = P && col[P - 1] == k - 1 && (cf->lflags[k] & FB_CONTIG);
		cbyte[P] = cf->lseq[k];
		/* the neighbour tests of the DP, folded into the flags */
		cfl[P] = cf->lflags[k] & (FB_CONV_BEFORE | FB_CONV_AFTER);
		if ((cf->lflags[k] & FB_INTOK))
			cfl[P] |= 16;	/* byte before in the same token */
		if (k + 1 < cf->nlseq && (cf->lflags[k + 1] & FB_INTOK))
			cfl[P] |= 32;	/* byte after in the same token */
		col[P++] = k;
	}
	if (!P)
		return 0;
	/* rem[j]: literals j.. that the format's literal text has at all:
	 * the most that rows j.. can still add */
	{
		uint32_t cnt = 0;

		for (j = J; j-- > 0;) {
			cnt += cls_has(cf->litset, l->seq[j]);
			rem[j] = cnt;
		}
		rem[J] = 0;
	}
	memset(dp_buf, 0, 5 * (size_t)P * sizeof(*dp_buf));
	/* best1: row j - 1; pm1, pm2: rows j - 1, j - 2 */
	best0 = dp_buf;
	best1 = dp_buf + P;
	pm0 = dp_buf + 2 * P;
	pm1 = dp_buf + 3 * P;
	pm2 = dp_buf + 4 * P;
	for (j = 0; j < J; j++) {
		bool cont = l->seqcont[j];
		bool next_cont = j + 1 < J && l->seqcont[j + 1];
		const uint32_t *src = cont ? pm2 : pm1;	/* ends before a gap */
		bool has_src = cont ? j >= 2 : j >= 1;
		uint32_t rmax = 0;

		k = 0;
		if (!cls_has(cf->litset, l->seq[j])) {
			/* nothing aligns in this row: the prefix maxima carry
			 * over (they grow along a row), no chunk goes on */
			memcpy(pm0, pm1, P * sizeof(*pm0));
			memset(best0, 0, P * sizeof(*best0));
			k = P;
		}
		for (; k < P; k++) {
			uint32_t v = 0, g;
			uint8_t fl = cfl[k];

			if (cbyte[k] == l->seq[j]) {
				/* a new chunk: after a gap, or at the start; in
				 * the middle of a literal token the byte before
				 * must fit what the rule has before it */
				if ((!cont || (fl & FB_CONV_BEFORE)) &&
				    (cont || !(fl & 16) ||
				     byte_either(l->seqprev[j], cf->lseq[col[k] - 1])))
					v = 1 + (k && has_src ? src[k - 1] : 0);
				/* the chunk goes on */
				if (cont && adj[k] && best1[k - 1] && best1[k - 1] + 1 > v)
					v = best1[k - 1] + 1;
			}
			best0[k] = v;
			if (v > rmax)
				rmax = v;
			/* usable as the last pair before a gap; inside a
			 * literal token, the next byte must fit what the
			 * rule has after it */
			g = v && (!next_cont || (fl & FB_CONV_AFTER)) ? v : 0;
			if (g && !next_cont && (fl & 32) &&
			    !byte_either(l->seqnext[j], cf->lseq[col[k] + 1]))
				g = 0;
			if (g > res)
				res = g;
			if (pm1[k] > g)
				g = pm1[k];
			if (k && pm0[k - 1] > g)
				g = pm0[k - 1];
			pm0[k] = g;
		}
		if (res >= need)
			return res;	/* enough */
		if (pm0[P - 1] > rowmax)
			rowmax = pm0[P - 1];
		if ((rmax > rowmax ? rmax : rowmax) + rem[j + 1] < need)
			return res;	/* cannot get there any more */
		t = best1; best1 = best0; best0 = t;
		t = pm2; pm2 = pm1; pm1 = pm0; pm0 = t;
	}
	return res;
}

void ck_set_init(struct ck_set *set, const struct fmt *fmts, uint32_t n)
{
	uint32_t i, k, *fill;

	memset(set, 0, sizeof(*set));
	set->n = n;
	set->cf = xcalloc(n ? n : 1, sizeof(*set->cf));
	set->post_start = xcalloc(65537, sizeof(*set->post_start));
	set->count = xcalloc(n ? n : 1, sizeof(*set->count));
	set->hot = xcalloc(n ? n : 1, sizeof(*set->hot));
	set->canprint = xcalloc(n ? n : 1, sizeof(*set->canprint));
	for (i = 0; i < n; i++) {
		ck_format_init(&set->cf[i], &fmts[i]);
		set->cf[i].id = i;
		memcpy(set->canprint[i], set->cf[i].canprint, sizeof(set->canprint[i]));
		set->hot[i] = (set->cf[i].has_wild ? 1U << 31 : 0) |
			      (set->cf[i].after_conv < 0xffff ? set->cf[i].after_conv : 0xffff);
		for (k = 0; k < set->cf[i].npairs; k++)
			set->post_start[set->cf[i].pairs[k] + 1]++;
	}
	for (k = 0; k < 65536; k++)
		set->post_start[k + 1] += set->post_start[k];
	set->post = xmalloc((set->post_start[65536] + 1) * sizeof(*set->post));
	fill = xmalloc(65536 * sizeof(*fill));
	memcpy(fill, set->post_start, 65536 * sizeof(*fill));
	for (i = 0; i < n; i++)
		for (k = 0; k < set->cf[i].npairs; k++)
			set->post[fill[set->cf[i].pairs[k]]++] = i;
	free(fill);
}

void ck_set_free(struct ck_set *set)
{
	uint32_t i;

	for (i = 0; i < set->n; i++)
		ck_format_free(&set->cf[i]);
	free(set->cf);
	free(set->post_start);
	free(set->post);
	free(set->count);
	free(set->hot);
	free(set->canprint);
	memset(set, 0, sizeof(*set));
}

/*
 * Aligned literals come in chunks; a chunk of length L has L - 1 aligned
 * adjacent pairs, each a pair of the rule's run that the format has too,
 * and starts either at a rule literal that does not directly follow
 * another (r->starts of them) or right after a conversion (after_conv).
 * So W <= pairs shared + r->starts + cf->after_conv.
 */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void ck_set_prepare(struct ck_set *set, struct ck_rule *r)
{
	const struct rx_lits *l = &r->lits;
	uint64_t *pm, total = 0;
	uint32_t i, j, k, n = 0;

	r->pairs = NULL;
	if (r->starts == RX_INF)
		return;
	memset(set->count, 0, set->n * sizeof(*set->count));
	/* the rule's pairs (pair << 32 | times), sorted: a pair that occurs
	 * more than once ("e " in most rules) walks its formats only once */
	for (i = 0; i < l->nrun; i++)
		n += l->run[i].len - 1;
	pm = xmalloc((n ? n : 1) * sizeof(*pm));
	n = 0;
	for (i = 0; i < l->nrun; i++) {
		const struct rx_run *x = &l->run[i];

		for (j = 1; j < x->len; j++)
			pm[n++] = (uint64_t)((unsigned char)x->s[j - 1] << 8 |
					     (unsigned char)x->s[j]) << 32 | x->mult;
	}
	qsort(pm, n, sizeof(*pm), cmp_u64);
	for (i = 0; i < n; i++)
		total += (uint32_t)pm[i];
	for (i = 0; i < n; i = j) {
		uint16_t pr = pm[i] >> 32;
		uint64_t mult = 0;

		for (j = i; j < n && pm[j] >> 32 == pr; j++)
			mult += (uint32_t)pm[j];
		if (mult > UINT16_MAX)
			mult = UINT16_MAX;
		if (total < UINT16_MAX) {
			/* no count can get near the limit: no clamping */
			for (k = set->post_start[pr]; k < set->post_start[pr + 1]; k++)
				set->count[set->post[k]] += mult;
			continue;
		}
		for (k = set->post_start[pr]; k < set->post_start[pr + 1]; k++) {
			uint32_t c = set->count[set->post[k]] + mult;

			set->count[set->post[k]] = c < UINT16_MAX ? c : UINT16_MAX;
		}
	}
	free(pm);
	r->pairs = set->count;
}

/*
 * The pair bound of ck_set_prepare() with the chunk starts counted more
 * closely: a chunk starting at a rule literal needs that byte in the
 * format's literal text, one starting after a conversion needs the first
 * byte of that literal token among the rule's literals.
 */
static uint64_t pair_bound(const struct ck_rule *r, const struct ck_format *cf)
{
	uint64_t n = r->pairs[cf->id];
	uint32_t i;

	for (i = 0; i < r->lits.nleaf; i++) {
		const struct rx_leaf *l = &r->lits.leaf[i];

		if (!l->has_prev && cls_has(cf->litset, l->c))
			n += l->mult;
	}
	for (i = 0; i < cf->after_conv; i++)
		if (cls_has(r->leafbytes, cf->lseq[cf->after_pos[i]]))
			n++;
	return n;
}

static bool tok_same(const struct tok_memo *m, const struct fmt_tok *t)
{
	return m->kind == t->kind && m->ere == t->ere && m->width == t->width &&
	       m->prec == t->prec && m->left == !!(t->flags & F_LEFT);
}

/*
 * For a rule without assertions a match is a substring, whatever is around
 * it: if some output of the conversion alone contains one, every format
 * with that conversion prints a (weak or better) match.
 */
#define TOKFMT_MAX 256

static struct tok_format *tok_format(struct ck_search *s, const struct fmt_tok *t)
{
	struct tok_format *e;
	uint32_t i;

	for (i = 0; i < s->ntokfmt; i++)
		if (tok_same(&s->tokfmt[i].key, t))
			return &s->tokfmt[i];
	if (s->ntokfmt == TOKFMT_MAX)
		return NULL;
	if (!s->tokfmt)		/* fixed: the entries point into themselves */
		s->tokfmt = xcalloc(TOKFMT_MAX, sizeof(*s->tokfmt));
	e = &s->tokfmt[s->ntokfmt++];
	e->key = (struct tok_memo){ .kind = t->kind, .left = !!(t->flags & F_LEFT),
				    .width = t->width, .prec = t->prec, .ere = t->ere };
	e->tok = *t;
	memset(&e->f, 0, sizeof(e->f));
	e->f.tok = &e->tok;
	e->f.ntok = 1;
	ck_format_init(&e->cf, &e->f);
	e->ready = format_ready(&e->cf);
	return e;
}

static bool tok_prints_match(struct ck_search *s, const struct ck_rule *r,
			     const struct fmt_tok *t)
{
	struct tok_memo *m;
	struct tok_format *e;
	struct ck_format cf;
	struct ck_result res;
	struct fmt f;
	struct fmt_tok one = *t;
	uint32_t i;

	for (i = 0; i < s->nmemo; i++)
		if (s->memo[i].rule == r->serial && tok_same(&s->memo[i], t))
			return s->memo[i].match;
	if (s->nmemo && s->memo[0].rule != r->serial)
		s->nmemo = 0;		/* a new rule */
	memset(&res, 0, sizeof(res));
	e = tok_format(s, t);
	if (e) {
		if (e->ready)
			run_product(s, &e->cf, r, SM_ANY, &res, NULL);
	} else {
		memset(&f, 0, sizeof(f));
		f.tok = &one;
		f.ntok = 1;
		ck_format_init(&cf, &f);
		if (format_ready(&cf))
			run_product(s, &cf, r, SM_ANY, &res, NULL);
		ck_format_free(&cf);
	}
	if (s->nmemo == ARRAY_SIZE(s->memo))
		return res.v != CK_NONE && !res.budget;
	m = &s->memo[s->nmemo++];
	*m = (struct tok_memo){ .rule = r->serial, .kind = t->kind, .left = !!(t->flags & F_LEFT),
				.width = t->width, .prec = t->prec, .ere = t->ere,
				.match = res.v != CK_NONE && !res.budget };
	return m->match;
}

void ck_check(struct ck_search *s, const struct ck_rule *r, struct ck_format *cf,
	      struct ck_result *res, struct sbuf *witness)
{
	uint32_t i;
	bool strong_possible;

	memset(res, 0, sizeof(*res));
	for (i = 0; i < r->lits.nf; i++)
		if (!factor_possible(cf, &r->lits.f[i]) ||
		    (!cf->has_wild && !factor_pieces(cf, &r->lits.f[i])))
			return;		/* CK_NONE */
	/* cheapest first */
	strong_possible = r->K != RX_INF &&
			  (!r->pairs || pair_bound(r, cf) >= r->K) &&
			  ck_bound_starts(r, cf, false) >= r->K &&
			  w_bound_seq(r, cf) >= r->K &&
			  w_bound(r, cf) >= r->K &&
			  ck_bound_starts(r, cf, true) >= r->K &&
			  (r->lits.seq_ok ? w_bound_chunks(r, cf, r->K) :
					    w_bound_lcs(r, cf)) >= r->K;
	if (strong_possible) {
		if (!format_ready(cf)) {
			res->budget = true;	/* too large to decide */
			return;
		}
		/* only paths that can still reach K literal steps */
		run_product(s, cf, r, SM_STRONG, res, witness);
		if (res->v == CK_STRONG || res->budget)
			return;
		memset(res, 0, sizeof(*res));
	}
	if (cf->has_wild && r->wild_ok) {
		res->v = CK_WEAK;
		return;
	}
	if (r->mode == RX_SEARCH && !r->re.has_anchor && !r->re.has_wordb) {
		uint32_t k;

		for (k = 0; k < cf->f->ntok; k++) {
			const struct fmt_tok *t = &cf->f->tok[k];

			if ((t->kind == TK_STR || t->kind == TK_ERE) &&
			    tok_prints_match(s, r, t)) {
				memset(res, 0, sizeof(*res));
				res->v = CK_WEAK;
				return;
			}
		}
	}
	if (!format_ready(cf)) {
		res->budget = true;
		return;
	}
	run_product(s, cf, r, SM_ANY, res, NULL);
}

void ck_check_set(struct ck_search *s, const struct ck_rule *r, struct ck_set *set,
		  uint32_t i, struct ck_result *res, struct sbuf *witness)
{
	uint32_t hot = set->hot[i];

	/* most formats: "anything" prints a weak match and too few literal
	 * pairs are shared for a strong one; decided without touching the
	 * format (factors are always printable by "anything") */
	if ((hot >> 31) && r->wild_ok && r->pairs && r->K != RX_INF &&
	    (uint64_t)r->pairs[i] + r->starts + (hot & 0xffff) < r->K) {
		memset(res, 0, sizeof(*res));
		res->v = CK_WEAK;
		return;
	}
	/* a byte of a required factor that the format can print neither as
	 * literal text nor through a conversion: no match at all */
	if (!(hot >> 31)) {
		const uint64_t *cp = set->canprint[i];
		uint32_t k;

		for (k = 0; k < r->lits.nf; k++) {
			const struct rx_factor *x = &r->lits.f[k];

			if (!x->ci && ((x->bytes[0] & ~cp[0]) | (x->bytes[1] & ~cp[1]) |
				       (x->bytes[2] & ~cp[2]) | (x->bytes[3] & ~cp[3]))) {
				memset(res, 0, sizeof(*res));
				return;		/* CK_NONE */
			}
		}
	}
	ck_check(s, r, &set->cf[i], res, witness);
}
