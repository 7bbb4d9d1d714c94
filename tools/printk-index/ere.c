// SPDX-License-Identifier: GPL-2.0
/*
 * The matcher's automaton of a conversion model (ere.h): the model's
 * regular expression, parsed by rx.c, as a small Thompson program, run
 * as a DFA when one of at most ERE_DFA_MAX states exists, otherwise by
 * a bit-parallel NFA or by backtracking bounded by a visited set.
 */
#include <stdlib.h>
#include <string.h>

#include "ere.h"
#include "ere_impl.h"
#include "rx.h"

/* Bounds the size of the expanded program: a %p model is a few hundred
 * instructions, and a fuzzed pattern must not blow up through nested
 * counted repetitions. */
#define ERE_MAX_INST 16384
/* ... and of a conversion's (ere_compile_span()): a number() model of
 * width w takes about 21 w instructions, the largest of the kernels' 942
 * ("%21Ld"); a larger one is answered by fmt_accept.c's arithmetic,
 * which keeps the DFA's construction (time and memory) small for any
 * index. */
#define ERE_SPAN_MAX_INST 2048
/* Its DFA's states: the kernels' largest has 423 ("%-45s"); the
 * construction stops here, its cost bounded for any index. */
#define ERE_SPAN_DFA_MAX 1024

struct gen {
	struct ere *re;
	uint32_t cap;	/* of re->prog */
	uint32_t max_inst;
	bool reverse;	/* the program of the reversed language */
	bool failed;
	const char *why;
};

static void fail(struct gen *g, const char *why)
{
	if (!g->failed)
		g->why = why;
	g->failed = true;
}

/* The class's index, the same for equal classes: fewer byte classes in
 * the DFA. */
static uint32_t class_of(struct ere *re, const uint64_t c[4])
{
	uint32_t i;

	for (i = 0; i < re->ncls; i++)
		if (!memcmp(re->cls[i], c, sizeof(re->cls[0])))
			return i;
	re->cls = xreallocarray(re->cls, re->ncls + 1, sizeof(*re->cls));
	memcpy(re->cls[re->ncls], c, sizeof(re->cls[0]));
	return re->ncls++;
}

static uint32_t sat_add(uint32_t a, uint32_t b)
{
	return a > ERE_INF - b ? ERE_INF : a + b;
}

static uint32_t sat_mul(uint32_t a, uint32_t b)
{
	if (!a || !b)
		return 0;
	return a > ERE_INF / b ? ERE_INF : a * b;
}

static void bounds(const struct rx_node *nd, uint32_t *lo, uint32_t *hi)
{
	const struct rx_node *k;
	uint32_t l1, h1;
	bool first = true;

	*lo = *hi = 0;
	switch (nd->kind) {
	case RN_CLS:
		*lo = *hi = 1;
		return;
	case RN_CAT:
		for (k = nd->kid; k; k = k->next) {
			bounds(k, &l1, &h1);
			*lo = sat_add(*lo, l1);
			*hi = sat_add(*hi, h1);
		}
		return;
	case RN_ALT:
		for (k = nd->kid; k; k = k->next, first = false) {
			bounds(k, &l1, &h1);
			*lo = first || l1 < *lo ? l1 : *lo;
			*hi = h1 > *hi ? h1 : *hi;
		}
		return;
	case RN_REP:
		bounds(nd->kid, &l1, &h1);
		*lo = sat_mul(l1, nd->min);
		*hi = nd->max == RX_INF ? (h1 ? ERE_INF : 0) : sat_mul(h1, nd->max);
		return;
	}
}

static uint32_t emit(struct gen *g, uint8_t op, uint32_t x, uint32_t y)
{
	struct ere *re = g->re;

	if (re->n >= g->max_inst) {
		fail(g, "pattern too large");
		return re->n - 1;
	}
	if (re->n == g->cap) {
		g->cap = grow_cap(g->cap, 64);
		re->prog = xreallocarray(re->prog, g->cap, sizeof(*re->prog));
	}
	re->prog[re->n].op = op;
	re->prog[re->n].x = x;
	re->prog[re->n].y = y;
	return re->n++;
}

static void gen(struct gen *g, const struct rx_node *nd);

/* A concatenation, backwards for the reversed language. */
static void gen_cat(struct gen *g, const struct rx_node *kid)
{
	const struct rx_node **v = NULL, *k;
	size_t n = 0, i;

	if (!g->reverse) {
		for (k = kid; k; k = k->next)
			gen(g, k);
		return;
	}
	for (k = kid; k; k = k->next) {
		v = xreallocarray(v, n + 1, sizeof(*v));
		v[n++] = k;
	}
	for (i = n; i-- > 0;)
		gen(g, v[i]);
	free(v);
}

/* a|b|c: a split before each alternative but the last, a jump after it */
static void gen_alt(struct gen *g, const struct rx_node *kid)
{
	struct ere *re = g->re;
	uint32_t *jumps = NULL, nj = 0, s, i;
	const struct rx_node *k;

	for (k = kid; k && !g->failed; k = k->next) {
		if (!k->next) {
			gen(g, k);
			break;
		}
		s = emit(g, OP_SPLIT, 0, 0);
		re->prog[s].x = re->n;
		gen(g, k);
		jumps = xreallocarray(jumps, nj + 1, sizeof(*jumps));
		jumps[nj++] = emit(g, OP_JMP, 0, 0);
		re->prog[s].y = re->n;
	}
	for (i = 0; i < nj; i++)
		re->prog[jumps[i]].x = re->n;
	free(jumps);
}

static void gen_rep(struct gen *g, const struct rx_node *nd)
{
	struct ere *re = g->re;
	uint32_t i, s, k = 0, *splits;

	for (i = 0; i < nd->min && !g->failed; i++)
		gen(g, nd->kid);
	if (nd->max == RX_INF) {
		s = emit(g, OP_SPLIT, 0, 0);
		re->prog[s].x = re->n;
		gen(g, nd->kid);
		emit(g, OP_JMP, s, 0);
		re->prog[s].y = re->n;
		return;
	}
	/* x{2,4} = xx(x(x)?)? : each optional copy may skip to the end */
	splits = xcalloc(nd->max - nd->min + 1, sizeof(*splits));
	for (i = nd->min; i < nd->max && !g->failed; i++) {
		splits[k++] = emit(g, OP_SPLIT, 0, 0);
		re->prog[splits[k - 1]].x = re->n;
		gen(g, nd->kid);
	}
	for (i = 0; i < k; i++)
		re->prog[splits[i]].y = re->n;
	free(splits);
}

static void gen(struct gen *g, const struct rx_node *nd)
{
	if (g->failed)
		return;
	switch (nd->kind) {
	case RN_EMPTY:
		return;
	case RN_CLS:
		emit(g, OP_CLASS, class_of(g->re, nd->cls), 0);
		return;
	case RN_CAT:
		gen_cat(g, nd->kid);
		return;
	case RN_ALT:
		gen_alt(g, nd->kid);
		return;
	case RN_REP:
		gen_rep(g, nd);
		return;
	case RN_ASSERT:
		fail(g, "an assertion in a model");
		return;
	}
}

/*
 * The CLASS and MATCH instructions reachable from pc without consuming a
 * byte, added to set: the one walk the first-byte set, the NFA tables and
 * the DFA's states are made of. Visits are marked w->gen, so a new walk
 * needs only w->gen++.
 */
void ere_closure(const struct ere_inst *prog, uint32_t n, struct ere_walk *w, uint32_t pc,
		 uint64_t *set)
{
	uint32_t nt = 0;

	w->todo[nt++] = pc;
	while (nt) {
		pc = w->todo[--nt];
		if (pc >= n || w->seen[pc] == w->gen)
			continue;
		w->seen[pc] = w->gen;
		if (prog[pc].op == OP_SPLIT) {
			w->todo[nt++] = prog[pc].x;
			w->todo[nt++] = prog[pc].y;
		} else if (prog[pc].op == OP_JMP) {
			w->todo[nt++] = prog[pc].x;
		} else {
			set[pc / 64] |= 1ULL << (pc % 64);
		}
	}
}

void ere_walk_init(struct ere_walk *w, uint32_t n)
{
	w->seen = xcalloc(n ? n : 1, sizeof(*w->seen));
	w->todo = xcalloc(2 * (size_t)n + 2, sizeof(*w->todo));	/* <= 2 pushes a pc */
	w->gen = 0;
}

void ere_walk_free(struct ere_walk *w)
{
	free(w->seen);
	free(w->todo);
}

/* Classes reachable from the start without consuming a byte: a cheap
 * first-byte test rejects most spans before the backtracking runs. */
static void first_set(struct ere *re)
{
	uint32_t nw = (re->n + 63) / 64, pc;
	uint64_t *set = xcalloc(nw ? nw : 1, sizeof(*set));
	struct ere_walk w;
	int k;

	ere_walk_init(&w, re->n);
	w.gen = 1;
	ere_closure(re->prog, re->n, &w, 0, set);
	for (pc = 0; pc < re->n; pc++)
		if ((set[pc / 64] >> (pc % 64) & 1) && re->prog[pc].op == OP_CLASS)
			for (k = 0; k < 4; k++)
				re->first[k] |= re->cls[re->prog[pc].x][k];
	ere_walk_free(&w);
	free(set);
}

/* Epsilon closures and byte transitions for the bit-parallel NFA. */
static void nfa_tables(const struct ere *re, const struct ere_inst *prog, uint32_t n,
		       uint32_t *nwp, uint64_t **closurep, uint64_t **stepp)
{
	uint32_t nw = (n + 63) / 64, pc;
	uint64_t *closure, *step;
	struct ere_walk w;
	int c;

	if (n > ERE_NFA_MAX)
		return;
	*nwp = nw;
	*closurep = closure = xcalloc((size_t)n * nw, sizeof(uint64_t));
	*stepp = step = xcalloc((size_t)256 * nw, sizeof(uint64_t));
	ere_walk_init(&w, n);
	for (pc = 0; pc < n; pc++) {
		w.gen++;
		ere_closure(prog, n, &w, pc, &closure[(size_t)pc * nw]);
		if (prog[pc].op == OP_CLASS)
			for (c = 0; c < 256; c++)
				if (cls_has(re->cls[prog[pc].x], c))
					step[(size_t)c * nw + pc / 64] |= 1ULL << (pc % 64);
	}
	ere_walk_free(&w);
}

/* The program of the language, or of its reverse, ending in OP_MATCH. */
static void program(struct gen *g, const struct rx_node *root, bool reverse)
{
	g->re->prog = NULL;
	g->re->n = 0;
	g->cap = 0;
	g->reverse = reverse;
	gen(g, root);
	emit(g, OP_MATCH, 0, 0);
}

static int compile(struct ere *re, const char *pattern, bool many_starts, struct pi_err *err)
{
	struct gen g = { .re = re, .max_inst = many_starts ? ERE_MAX_INST : ERE_SPAN_MAX_INST };
	struct ere_inst *fwd;
	struct rx rx;
	uint32_t i, nfwd;
	int k;

	memset(re, 0, sizeof(*re));
	if (rx_parse(&rx, pattern, strlen(pattern), err))
		return -1;
	bounds(rx.root, &re->minlen, &re->maxlen);
	/* the reversed language too: its DFA answers many starts from one
	 * end (ere_starts(), and a span's starts in the matchers) */
	program(&g, rx.root, true);
	re->rprog = re->prog;
	re->rn = re->n;
	fwd = re->prog = NULL;
	nfwd = 0;
	if (!g.failed) {
		program(&g, rx.root, false);
		fwd = re->prog;
		nfwd = re->n;
	}
	rx_free(&rx);
	re->prog = fwd;
	re->n = nfwd;
	if (g.failed) {
		pi_seterr(err, "regex: %s", g.why);
		ere_free(re);
		return -1;
	}
	for (i = 0; i < re->ncls; i++)
		for (k = 0; k < 4; k++)
			re->any[k] |= re->cls[i][k];
	first_set(re);
	if (many_starts) {
		nfa_tables(re, re->prog, re->n, &re->nw, &re->closure, &re->step);
		nfa_tables(re, re->rprog, re->rn, &re->rnw, &re->rclosure, &re->rstep);
	}
	ere_dfa_build(re, many_starts ? ERE_DFA_MAX : ERE_SPAN_DFA_MAX);
	return 0;
}

int ere_compile(struct ere *re, const char *pattern, struct pi_err *err)
{
	return compile(re, pattern, true, err);
}

int ere_compile_span(struct ere *re, const char *pattern, struct pi_err *err)
{
	return compile(re, pattern, false, err);
}

void ere_free(struct ere *re)
{
	free(re->prog);
	free(re->cls);
	free(re->closure);
	free(re->step);
	free(re->rprog);
	free(re->rclosure);
	free(re->rstep);
	free(re->dfa);
	free(re->dfa_accept);
	free(re->rdfa);
	free(re->rdfa_accept);
	memset(re, 0, sizeof(*re));
}

/*
 * Scratch for the matcher (the tool is single-threaded). Visited cells
 * hold the number of the call that visited them, so nothing needs
 * clearing between calls.
 */
static uint32_t *visited;
static size_t visited_cap;
static uint32_t visit_gen;
static uint32_t (*stack)[2];
static size_t stack_cap;

/* A whole match (or, prefix, a match of some prefix) by the DFA. */
static bool dfa_run(const struct ere *re, const unsigned char *s, size_t n, bool prefix)
{
	const uint16_t *dfa = re->dfa;
	uint32_t st = 1, nbc = re->nbc;
	size_t i;

	for (i = 0; i < n; i++) {
		if (prefix && re->dfa_accept[st])
			return true;
		if (re->dfa_accept[st] & DFA_ALL)
			return !memchr(s + i, '\n', n - i);
		st = dfa[st * nbc + re->bytecls[s[i]]];
		if (!st)
			return false;
	}
	return re->dfa_accept[st];
}

bool ere_fullmatch(const struct ere *re, const unsigned char *s, size_t n)
{
	size_t cells, sp = 0;
	uint32_t pc, pos;

	if (n < re->minlen || (re->maxlen != ERE_INF && n > re->maxlen))
		return false;
	if (re->dfa)
		return dfa_run(re, s, n, false);
	if (n && !cls_has(re->first, s[0]))
		return false;
	if (n >= UINT32_MAX / 2)
		return false;
	cells = (size_t)re->n * (n + 1);
	if (cells > visited_cap) {
		visited = xreallocarray(visited, cells, sizeof(*visited));
		memset(visited, 0, cells * sizeof(*visited));
		visited_cap = cells;
	}
	if (++visit_gen == 0) {
		memset(visited, 0, visited_cap * sizeof(*visited));
		visit_gen = 1;
	}
	/* each push is for a SPLIT state seen for the first time, so the
	 * stack never holds more than cells entries */
	if (cells + 1 > stack_cap) {
		stack_cap = cells + 1;
		stack = xreallocarray(stack, stack_cap, sizeof(*stack));
	}
	stack[sp][0] = 0;
	stack[sp][1] = 0;
	sp++;
	while (sp) {
		sp--;
		pc = stack[sp][0];
		pos = stack[sp][1];
		for (;;) {
			size_t cell = (size_t)pc * (n + 1) + pos;
			const struct ere_inst *in = &re->prog[pc];

			if (visited[cell] == visit_gen)
				break;
			visited[cell] = visit_gen;
			if (in->op == OP_CLASS) {
				if (pos < n && cls_has(re->cls[in->x], s[pos])) {
					pc++;
					pos++;
					continue;
				}
				break;
			}
			if (in->op == OP_SPLIT) {
				stack[sp][0] = in->y;
				stack[sp][1] = pos;
				sp++;
				pc = in->x;
				continue;
			}
			if (in->op == OP_JMP) {
				pc = in->x;
				continue;
			}
			if (pos == n)	/* OP_MATCH */
				return true;
			break;
		}
	}
	return false;
}

/* Is any bit set past word 0 of a set of nw words? */
static bool bits_after_first(const uint64_t *set, size_t nw)
{
	size_t w;

	for (w = 1; w < nw; w++)
		if (set[w])
			return true;
	return false;
}

/* ere_reach() from the one start 0: the DFA walked once, the same ends
 * and the same work (a step a byte consumed while a state is alive). */
static void dfa_reach(const struct ere *re, const unsigned char *s, size_t lim, uint64_t *ends,
		      unsigned long *work)
{
	uint32_t st = 1, nbc = re->nbc;
	size_t pos;

	for (pos = 0; st; pos++) {
		if (re->dfa_accept[st])
			ends[pos / 64] |= 1ULL << (pos % 64);
		if (pos == lim)
			break;
		(*work)++;
		st = re->dfa[st * nbc + re->bytecls[s[pos]]];
	}
}

bool ere_reach(const struct ere *re, const unsigned char *s, size_t n,
	       const uint64_t *starts, size_t lim, uint64_t *ends,
	       unsigned long *work)
{
	uint64_t cur[ERE_NFA_MAX / 64], nxt[ERE_NFA_MAX / 64], any;
	uint32_t nw = re->nw, w, mpc = re->n - 1;	/* the last is MATCH */
	size_t pos, nsw = n / 64 + 1;

	if (!nw)
		return false;
	if (lim > n)
		lim = n;
	if (re->dfa && starts[0] == 1 && !bits_after_first(starts, n / 64 + 1)) {
		dfa_reach(re, s, lim, ends, work);
		return true;
	}
	memset(cur, 0, sizeof(cur));
	for (pos = 0; pos <= lim; pos++) {
		if (starts[pos / 64] >> (pos % 64) & 1)
			for (w = 0; w < nw; w++)
				cur[w] |= re->closure[w];	/* closure of pc 0 */
		any = 0;
		for (w = 0; w < nw; w++)
			any |= cur[w];
		if (!any) {
			/* nothing alive: jump to the next start */
			size_t sw = (pos + 1) / 64;
			uint64_t bits;

			if (pos + 1 > lim)
				break;
			bits = starts[sw] & (~0ULL << ((pos + 1) % 64));
			while (!bits && ++sw < nsw)
				bits = starts[sw];
			if (!bits)
				break;
			pos = sw * 64 + __builtin_ctzll(bits) - 1;
			continue;
		}
		if (cur[mpc / 64] >> (mpc % 64) & 1)
			ends[pos / 64] |= 1ULL << (pos % 64);
		if (pos == lim)
			break;
		(*work)++;
		/* consume s[pos] */
		{
			const uint64_t *st = &re->step[(size_t)s[pos] * nw];

			memset(nxt, 0, nw * sizeof(uint64_t));
			for (w = 0; w < nw; w++) {
				uint64_t t = cur[w] & st[w];

				while (t) {
					uint32_t pc = w * 64 + __builtin_ctzll(t), k;
					const uint64_t *cl = &re->closure[(size_t)(pc + 1) * nw];

					t &= t - 1;
					for (k = 0; k < nw; k++)
						nxt[k] |= cl[k];
				}
			}
			memcpy(cur, nxt, nw * sizeof(uint64_t));
		}
	}
	return true;
}

/* ere_starts() for one end, the end of s: the reverse DFA, from it. */
static bool rdfa_starts(const struct ere *re, const unsigned char *s, size_t n, uint64_t *out)
{
	uint32_t st = 1, nbc = re->nbc;
	size_t pos;

	for (pos = n;; pos--) {
		if (re->rdfa_accept[st])
			out[pos / 64] |= 1ULL << (pos % 64);
		if (!pos)
			return true;
		st = re->rdfa[st * nbc + re->bytecls[s[pos - 1]]];
		if (!st)
			return true;
	}
}

bool ere_starts(const struct ere *re, const unsigned char *s, size_t n,
		bool any_end, uint64_t *out)
{
	uint64_t cur[ERE_NFA_MAX / 64], nxt[ERE_NFA_MAX / 64], alive;
	uint32_t nw = re->rnw, w, mpc = re->rn - 1;	/* the last is MATCH */
	size_t pos;

	if (!nw)
		return false;
	if (re->rdfa && !any_end)
		return rdfa_starts(re, s, n, out);
	memset(cur, 0, sizeof(cur));
	for (pos = n;; pos--) {
		/* a match may end here: at the end only, or anywhere */
		if (pos == n || any_end)
			for (w = 0; w < nw; w++)
				cur[w] |= re->rclosure[w];
		if (cur[mpc / 64] >> (mpc % 64) & 1)
			out[pos / 64] |= 1ULL << (pos % 64);
		if (!pos)
			break;
		{
			const uint64_t *st = &re->rstep[(size_t)s[pos - 1] * nw];

			alive = 0;
			memset(nxt, 0, nw * sizeof(uint64_t));
			for (w = 0; w < nw; w++) {
				uint64_t t = cur[w] & st[w];

				while (t) {
					uint32_t pc = w * 64 + __builtin_ctzll(t), k;
					const uint64_t *cl = &re->rclosure[(size_t)(pc + 1) * nw];

					t &= t - 1;
					for (k = 0; k < nw; k++)
						nxt[k] |= cl[k];
				}
			}
			for (w = 0; w < nw; w++)
				alive |= cur[w] = nxt[w];
		}
		if (!alive && !any_end)
			break;
	}
	return true;
}

int ere_prefix(const struct ere *re, const unsigned char *s, size_t n)
{
	uint64_t cur[ERE_NFA_MAX / 64], nxt[ERE_NFA_MAX / 64], alive;
	uint32_t nw = re->nw, w, mpc = re->n - 1;
	size_t pos;

	if (re->dfa)
		return dfa_run(re, s, n, true);
	if (!nw)
		return -1;
	memcpy(cur, re->closure, nw * sizeof(uint64_t));
	for (pos = 0;; pos++) {
		if (cur[mpc / 64] >> (mpc % 64) & 1)
			return 1;
		if (pos == n)
			return 0;
		{
			const uint64_t *st = &re->step[(size_t)s[pos] * nw];

			alive = 0;
			memset(nxt, 0, nw * sizeof(uint64_t));
			for (w = 0; w < nw; w++) {
				uint64_t t = cur[w] & st[w];

				while (t) {
					uint32_t pc = w * 64 + __builtin_ctzll(t), k;
					const uint64_t *cl = &re->closure[(size_t)(pc + 1) * nw];

					t &= t - 1;
					for (k = 0; k < nw; k++)
						nxt[k] |= cl[k];
				}
			}
			for (w = 0; w < nw; w++)
				alive |= cur[w] = nxt[w];
		}
		if (!alive)
			return 0;
	}
}
