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
	fmt_tok_pattern(t, &re);
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
