// SPDX-License-Identifier: GPL-2.0
/*
 * Rule x format: the product automaton, its strength and witness
 * (checker.h).  The formats' automata are ck_format.c's, the rules,
 * bounds and prefilters ck_rule.c's.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* memmem() */
#endif
#include <stdlib.h>
#include <string.h>

#include "checker.h"
#include "checker_impl.h"

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
		s->queue = xreallocarray(s->queue, s->qcap, sizeof(*s->queue));
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
		s->node = xreallocarray(s->node, s->capnode, sizeof(*s->node));
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
		s->queue = xreallocarray(s->queue, s->qcap, sizeof(*s->queue));
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
	if (!ck_format_ready(cf)) {
		res->budget = true;	/* too large to decide */
		return;
	}
	run_product(s, cf, r, SM_FULL, res, witness);
}

void ck_product_lit(struct ck_search *s, const struct ck_rule *r, struct ck_format *cf,
		    struct ck_result *res, struct sbuf *witness, struct sbuf *lit)
{
	memset(res, 0, sizeof(*res));
	if (!ck_format_ready(cf)) {
		res->budget = true;
		return;
	}
	run_product_lit(s, cf, r, SM_FULL, res, witness, lit);
}

/* ------------------------------------------------------------------ */
/* A rule against a format, and against a set                          */

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
	e->ready = ck_format_ready(&e->cf);
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
		if (ck_format_ready(&cf))
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
	memset(res, 0, sizeof(*res));
	if (!ck_factors_possible(r, cf))
		return;		/* CK_NONE */
	if (ck_strong_possible(r, cf)) {
		if (!ck_format_ready(cf)) {
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
	if (!ck_format_ready(cf)) {
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
