// SPDX-License-Identifier: GPL-2.0
/* What literal text every match of a rule regex (rx.h) contains: the
 * factors and runs check's prefilters and bounds use. */
#include <stdlib.h>
#include <string.h>

#include "rx.h"

/* ------------------------------------------------------------------ */
/* Literal analysis                                                     */

struct litwalk {
	struct rx_lits *l;
	uint32_t fcap, lcap, rcap;
	struct sbuf run;
	bool run_ci;
};

static void flush_factor(struct litwalk *w)
{
	struct rx_lits *l = w->l;

	if (w->run.len) {
		if (l->nf == w->fcap) {
			w->fcap = grow_cap(w->fcap, 8);
			l->f = xreallocarray(l->f, w->fcap, sizeof(*l->f));
		}
		l->f[l->nf].s = xmalloc(w->run.len + 1);
		memcpy(l->f[l->nf].s, w->run.p, w->run.len + 1);
		{
			uint32_t i;
			struct rx_factor *x = &l->f[l->nf];

			memset(x->bytes, 0, sizeof(x->bytes));
			for (i = 0; i < w->run.len; i++) {
				/* compared with the lower-cased literal text */
				if (w->run_ci)
					x->s[i] = ascii_lower(x->s[i]);
				cls_set(x->bytes, x->s[i]);
				if (w->run_ci && ascii_isalpha(x->s[i]))
					cls_set(x->bytes, x->s[i] - 32);
			}
		}
		l->f[l->nf].len = w->run.len;
		l->f[l->nf].ci = w->run_ci;
		l->nf++;
	}
	sbuf_reset(&w->run);
	w->run_ci = false;
}

static bool lit_folded(const struct rx_node *n)
{
	return ascii_isalpha(n->byte) && cls_has(n->cls, n->byte ^ 0x20);
}

/* Runs of literals every match contains. */
static void factors(struct litwalk *w, const struct rx_node *n)
{
	const struct rx_node *k;

	switch (n->kind) {
	case RN_CLS:
		if (n->lit) {
			sbuf_addc(&w->run, n->byte);
			w->run_ci |= lit_folded(n);
		} else {
			flush_factor(w);
		}
		return;
	case RN_EMPTY:
	case RN_ASSERT:
		return;		/* consumes nothing: the run goes on */
	case RN_CAT:
		for (k = n->kid; k; k = k->next)
			factors(w, k);
		return;
	case RN_REP:
		flush_factor(w);
		if (n->min >= 1)
			factors(w, n->kid);
		flush_factor(w);
		return;
	case RN_ALT:
		flush_factor(w);
		return;
	}
}

static uint32_t mult_mul(uint32_t a, uint32_t b)
{
	if (a == RX_INF || b == RX_INF)
		return RX_INF;
	return (uint64_t)a * b > 1000000 ? RX_INF : a * b;
}

static void add_leaf(struct litwalk *w, const struct rx_leaf *lf)
{
	struct rx_lits *l = w->l;

	if (l->nleaf == w->lcap) {
		w->lcap = grow_cap(w->lcap, 16);
		l->leaf = xreallocarray(l->leaf, w->lcap, sizeof(*l->leaf));
	}
	l->leaf[l->nleaf++] = *lf;
}

/* The literal leaves in pattern order: along any path of the automaton
 * the literal states it takes are a subsequence of this. */
/* The class every byte consumed last (first) by n is in: n must consume
 * at least one byte and end (start) with one class. NULL if unknown. */
static const uint64_t *edge_class(const struct rx_node *n)
{
	if (n->kind == RN_CLS)
		return n->cls;
	if (n->kind == RN_REP && n->min >= 1 && n->kid->kind == RN_CLS)
		return n->kid->cls;
	return NULL;
}

static void set_edge(uint64_t dst[4], const uint64_t *src)
{
	if (src)
		memcpy(dst, src, 4 * sizeof(uint64_t));
	else
		memset(dst, 0xff, 4 * sizeof(uint64_t));
}

/* The literal leaves in pattern order: along any path of the automaton
 * the literal states it takes are a subsequence of this. */
static void sequence(struct rx_lits *l, const struct rx_node *n,
		     const uint64_t *prev, const uint64_t *next)
{
	const struct rx_node *k, *pk = NULL, *nk;
	uint32_t i;

	if (!l->seq_ok)
		return;
	switch (n->kind) {
	case RN_CLS:
		if (!n->lit)
			return;
		if (l->nseq == sizeof(l->seq)) {
			l->seq_ok = false;
			return;
		}
		l->seqcont[l->nseq] = false;
		set_edge(l->seqprev[l->nseq], prev);
		set_edge(l->seqnext[l->nseq], next);
		l->seq[l->nseq++] = ascii_lower(n->byte);
		return;
	case RN_CAT:
		/* adjacent literal children: one right after the other; the
		 * neighbours of a literal constrain the bytes around it */
		for (k = n->kid; k; k = k->next) {
			uint32_t at = l->nseq;

			if (k->kind == RN_ASSERT || k->kind == RN_EMPTY)
				continue;
			for (nk = k->next; nk && (nk->kind == RN_ASSERT || nk->kind == RN_EMPTY);
			     nk = nk->next)
				;
			sequence(l, k, pk ? edge_class(pk) : prev,
				 nk ? edge_class(nk) : next);
			if (k->kind == RN_CLS && k->lit && pk && pk->kind == RN_CLS &&
			    pk->lit && l->seq_ok && at < l->nseq)
				l->seqcont[at] = true;
			pk = k;
		}
		return;
	case RN_ALT:
		for (k = n->kid; k; k = k->next)
			sequence(l, k, prev, next);
		return;
	case RN_REP:
		if (n->max == RX_INF) {
			uint32_t before = l->nseq;

			sequence(l, n->kid, NULL, NULL);
			/* a literal repeated without bound: no sequence */
			if (l->nseq != before)
				l->seq_ok = false;
			return;
		}
		for (i = 0; i < n->max && l->seq_ok; i++)
			sequence(l, n->kid, NULL, NULL);
		return;
	default:
		return;
	}
}

static void leaves(struct litwalk *w, const struct rx_node *n, uint32_t mult)
{
	const struct rx_node *k, *run[2048];
	uint32_t nr = 0, i;

	switch (n->kind) {
	case RN_CLS:
		if (n->lit)
			add_leaf(w, &(struct rx_leaf){ .c = ascii_lower(n->byte), .mult = mult });
		return;
	case RN_EMPTY:
	case RN_ASSERT:
		return;
	case RN_ALT:
		for (k = n->kid; k; k = k->next)
			leaves(w, k, mult);
		return;
	case RN_REP:
		leaves(w, n->kid, mult_mul(mult, n->max));
		return;
	case RN_CAT:
		break;
	}
	/* a run: adjacent literal children (assertions do not separate) */
	for (k = n->kid;; k = k->next) {
		if (k && k->kind == RN_CLS && k->lit && nr < ARRAY_SIZE(run)) {
			run[nr++] = k;
			continue;
		}
		if (k && (k->kind == RN_ASSERT || k->kind == RN_EMPTY))
			continue;
		if (nr > 1) {
			struct rx_lits *l = w->l;
			struct rx_run *rr;

			if (l->nrun == w->rcap) {
				w->rcap = grow_cap(w->rcap, 8);
				l->run = xreallocarray(l->run, w->rcap, sizeof(*l->run));
			}
			rr = &l->run[l->nrun++];
			rr->s = xmalloc(nr + 1);
			for (i = 0; i < nr; i++)
				rr->s[i] = ascii_lower(run[i]->byte);
			rr->s[nr] = 0;
			rr->len = nr;
			rr->mult = mult;
		}
		for (i = 0; i < nr; i++) {
			struct rx_leaf lf = { .c = ascii_lower(run[i]->byte), .mult = mult,
					      .in_run = nr > 1 };

			if (i > 0) {
				lf.has_prev = true;
				lf.prev = ascii_lower(run[i - 1]->byte);
			}
			if (i + 1 < nr) {
				lf.has_next = true;
				lf.next = ascii_lower(run[i + 1]->byte);
			}
			add_leaf(w, &lf);
		}
		nr = 0;
		if (!k)
			break;
		leaves(w, k, mult);
	}
}

void rx_literals(const struct rx *re, struct rx_lits *l)
{
	struct litwalk w = { .l = l };

	memset(l, 0, sizeof(*l));
	factors(&w, re->root);
	flush_factor(&w);
	leaves(&w, re->root, 1);
	l->seq_ok = true;
	sequence(l, re->root, NULL, NULL);
	sbuf_free(&w.run);
}

void rx_lits_free(struct rx_lits *l)
{
	uint32_t i;

	for (i = 0; i < l->nf; i++)
		free(l->f[i].s);
	free(l->f);
	for (i = 0; i < l->nrun; i++)
		free(l->run[i].s);
	free(l->run);
	free(l->leaf);
	memset(l, 0, sizeof(*l));
}
