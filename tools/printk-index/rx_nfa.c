// SPDX-License-Identifier: GPL-2.0
/* A parsed rule regex (rx.h) as a Thompson NFA: states that consume one
 * byte of a 256-bit class, split, or assert (^ $ \b \B). */
#include <stdlib.h>
#include <string.h>

#include "rx.h"

/* ------------------------------------------------------------------ */
/* NFA                                                                  */

void rx_nfa_init(struct rx_nfa *a)
{
	memset(a, 0, sizeof(*a));
}

void rx_nfa_free(struct rx_nfa *a)
{
	free(a->st);
	free(a->cls);
	memset(a, 0, sizeof(*a));
}

static uint32_t add_state(struct rx_nfa *a, int op)
{
	struct rx_state *s;

	if (a->n >= RX_MAX_STATES) {
		a->too_big = true;
		return 0;
	}
	if (a->n == a->cap) {
		a->cap = grow_cap(a->cap, 64);
		a->st = xreallocarray(a->st, a->cap, sizeof(*a->st));
	}
	s = &a->st[a->n];
	memset(s, 0, sizeof(*s));
	s->op = op;
	return a->n++;
}

uint32_t rx_add_match(struct rx_nfa *a)
{
	return add_state(a, RX_MATCH);
}

static uint32_t intern_cls(struct rx_nfa *a, const uint64_t cls[4])
{
	uint32_t i;

	/* few distinct classes per automaton; the last ones repeat most */
	for (i = a->ncls; i-- > 0 && i + 8 >= a->ncls;)
		if (!memcmp(a->cls[i], cls, sizeof(a->cls[i])))
			return i;
	if (a->ncls == a->clscap) {
		a->clscap = grow_cap(a->clscap, 16);
		a->cls = xreallocarray(a->cls, a->clscap, sizeof(*a->cls));
	}
	memcpy(a->cls[a->ncls], cls, sizeof(a->cls[0]));
	return a->ncls++;
}

uint32_t rx_add_cls(struct rx_nfa *a, const uint64_t cls[4], bool lit, uint32_t out)
{
	uint32_t s = add_state(a, RX_CLS);

	if (a->too_big)
		return 0;
	a->st[s].cls = intern_cls(a, cls);
	a->st[s].lit = lit;
	a->st[s].out = out;
	return s;
}

uint32_t rx_add_split(struct rx_nfa *a, uint32_t out, uint32_t out1)
{
	uint32_t s = add_state(a, RX_SPLIT);

	if (a->too_big)
		return 0;
	a->st[s].out = out;
	a->st[s].out1 = out1;
	return s;
}

static uint32_t compile_rep(struct rx_nfa *a, const struct rx_node *n, uint32_t out)
{
	uint32_t e = out, i;

	if (n->max == RX_INF) {
		/* loop: L -> body -> L, L -> out */
		uint32_t l = rx_add_split(a, 0, out), body;

		body = rx_compile_node(a, n->kid, l);
		if (a->too_big)
			return 0;
		a->st[l].out = body;
		e = l;
	} else {
		for (i = n->min; i < n->max && !a->too_big; i++)
			e = rx_add_split(a, rx_compile_node(a, n->kid, e), out);
	}
	for (i = 0; i < n->min && !a->too_big; i++)
		e = rx_compile_node(a, n->kid, e);
	return e;
}

uint32_t rx_compile_node(struct rx_nfa *a, const struct rx_node *n, uint32_t out)
{
	const struct rx_node *k;
	const struct rx_node *kids[512];
	uint32_t nk = 0, e, s;

	if (a->too_big)
		return 0;
	switch (n->kind) {
	case RN_EMPTY:
		return out;
	case RN_CLS:
		return rx_add_cls(a, n->cls, n->lit, out);
	case RN_ASSERT:
		s = add_state(a, RX_ASSERT);
		if (a->too_big)
			return 0;
		a->st[s].arg = n->assert;
		a->st[s].out = out;
		return s;
	case RN_REP:
		return compile_rep(a, n, out);
	case RN_CAT: {
		/* build backwards: each child continues at the next one */
		const struct rx_node **v = kids;
		uint32_t cap = ARRAY_SIZE(kids);

		for (k = n->kid; k; k = k->next) {
			if (nk == cap) {
				const struct rx_node **nv = xmalloc(2 * cap * sizeof(*nv));

				memcpy(nv, v, nk * sizeof(*nv));
				if (v != kids)
					free(v);
				v = nv;
				cap *= 2;
			}
			v[nk++] = k;
		}
		e = out;
		while (nk-- > 0 && !a->too_big)
			e = rx_compile_node(a, v[nk], e);
		if (v != kids)
			free(v);
		return e;
	}
	case RN_ALT:
		e = RX_INF;
		for (k = n->kid; k && !a->too_big; k = k->next) {
			s = rx_compile_node(a, k, out);
			e = e == RX_INF ? s : rx_add_split(a, s, e);
		}
		return e == RX_INF ? out : e;
	}
	return out;
}

void rx_compile_rule(struct rx_nfa *a, const struct rx *re, enum rx_mode mode)
{
	uint64_t any[4];
	uint32_t fin, mid, l, x;

	rx_nfa_init(a);
	fin = rx_add_match(a);
	if (mode == RX_WHOLE) {
		a->start = rx_compile_node(a, re->root, fin);
		return;
	}
	memset(any, 0xff, sizeof(any));
	any[0] &= ~(1ULL << '\n');
	if (mode == RX_SUFFIX) {
		l = add_state(a, RX_ASSERT);
		if (a->too_big)
			return;
		a->st[l].arg = RXA_EOL;
		a->st[l].out = fin;
	} else {
		/* ".*" after the match */
		l = rx_add_split(a, fin, 0);
		x = rx_add_cls(a, any, false, l);
		if (a->too_big)
			return;
		a->st[l].out1 = x;
		a->fin = fin;
		a->tail = x;
		a->has_tail = true;
	}
	mid = rx_compile_node(a, re->root, l);
	/* ".*" before it */
	l = rx_add_split(a, mid, 0);
	x = rx_add_cls(a, any, false, l);
	if (a->too_big)
		return;
	a->st[l].out1 = x;
	a->start = l;
}

/* Shortest path with literal states costing 1 (label-correcting: a
 * circular queue, each state queued at most once at a time). */
uint32_t rx_min_literals(const struct rx_nfa *a)
{
	uint32_t *dist, *q, head = 0, tail = 0, cap = a->n + 1, best = RX_INF;
	bool *inq;

	if (!a->n || a->too_big)
		return 0;
	dist = xmalloc(a->n * sizeof(*dist));
	q = xmalloc(cap * sizeof(*q));
	inq = xcalloc(a->n, sizeof(*inq));
	memset(dist, 0xff, a->n * sizeof(*dist));
	dist[a->start] = 0;
	q[tail++] = a->start;
	inq[a->start] = true;
	while (head != tail) {
		uint32_t s = q[head], d, w, t[2], nt = 0, i;
		const struct rx_state *st = &a->st[s];

		head = (head + 1) % cap;
		inq[s] = false;
		d = dist[s];
		if (st->op == RX_MATCH) {
			if (d < best)
				best = d;
			continue;
		}
		t[nt++] = st->out;
		if (st->op == RX_SPLIT)
			t[nt++] = st->out1;
		w = st->op == RX_CLS && st->lit;
		for (i = 0; i < nt; i++) {
			if (dist[t[i]] <= d + w)
				continue;
			dist[t[i]] = d + w;
			if (!inq[t[i]]) {
				inq[t[i]] = true;
				q[tail] = t[i];
				tail = (tail + 1) % cap;
			}
		}
	}
	free(dist);
	free(q);
	free(inq);
	return best == RX_INF ? 0 : best;
}
