// SPDX-License-Identifier: GPL-2.0
/* The small regular expressions of the %p models (ere.h): parser and
 * matcher, bounded by a visited set. */
#include <stdlib.h>
#include <string.h>

#include "ere.h"

enum { OP_CLASS, OP_SPLIT, OP_JMP, OP_MATCH };

struct ere_inst {
	uint8_t op;
	uint32_t x, y;	/* CLASS: class index; SPLIT: x then y; JMP: x */
};

/* AST, built first so that quantifiers can repeat any sub-expression. */
enum { N_EMPTY, N_CLASS, N_CAT, N_ALT, N_REP };

struct node {
	int kind;
	int a, b;		/* children */
	uint32_t cls;
	uint32_t rmin, rmax;	/* N_REP */
};

struct parser {
	const char *p;
	struct node *nodes;
	int nn, cap;
	struct ere *re;
	struct pi_err *err;
	int depth;
	bool failed;
	bool reverse;	/* generate the program of the reversed language */
};

/* Bounds the size of the expanded program: models are tiny, and a fuzzed
 * pattern must not blow up through nested counted repetitions. */
#define ERE_MAX_INST 4096
#define ERE_MAX_REP 255

static int new_node(struct parser *ps, int kind)
{
	if (ps->nn == ps->cap) {
		ps->cap = grow_cap(ps->cap, 32);
		ps->nodes = xreallocarray(ps->nodes, ps->cap, sizeof(*ps->nodes));
	}
	memset(&ps->nodes[ps->nn], 0, sizeof(ps->nodes[0]));
	ps->nodes[ps->nn].kind = kind;
	return ps->nn++;
}

static uint32_t new_class(struct ere *re)
{
	re->cls = xreallocarray(re->cls, (re->ncls + 1), sizeof(*re->cls));
	memset(re->cls[re->ncls], 0, sizeof(re->cls[0]));
	return re->ncls++;
}

static void fail(struct parser *ps, const char *what)
{
	if (!ps->failed)
		pi_seterr(ps->err, "regex: %s at '%.10s'", what, ps->p);
	ps->failed = true;
}

static int parse_alt(struct parser *ps);

static int parse_bracket(struct parser *ps)
{
	int n = new_node(ps, N_CLASS);
	uint32_t c = new_class(ps->re);
	uint64_t *set = ps->re->cls[c];
	bool neg = false, first = true;
	int i;

	ps->p++;	/* '[' */
	if (*ps->p == '^') {
		neg = true;
		ps->p++;
	}
	while (*ps->p && (*ps->p != ']' || first)) {
		unsigned char lo = *ps->p++, hi = lo;

		first = false;
		if (ps->p[0] == '-' && ps->p[1] && ps->p[1] != ']') {
			hi = ps->p[1];
			ps->p += 2;
		}
		if (hi < lo) {
			fail(ps, "bad range");
			return n;
		}
		for (i = lo; i <= hi; i++)
			cls_set(set, i);
	}
	if (*ps->p != ']') {
		fail(ps, "unterminated [");
		return n;
	}
	ps->p++;
	if (neg)
		for (i = 0; i < 4; i++)
			set[i] = ~set[i];
	ps->nodes[n].cls = c;
	return n;
}

static int parse_atom(struct parser *ps)
{
	unsigned char ch = *ps->p;
	int n;

	if (ch == '(') {
		ps->p++;
		if (++ps->depth > 32) {
			fail(ps, "nesting too deep");
			return new_node(ps, N_EMPTY);
		}
		n = parse_alt(ps);
		ps->depth--;
		if (*ps->p != ')')
			fail(ps, "missing )");
		else
			ps->p++;
		return n;
	}
	if (ch == '[')
		return parse_bracket(ps);
	n = new_node(ps, N_CLASS);
	ps->nodes[n].cls = new_class(ps->re);
	if (ch == '.') {
		memset(ps->re->cls[ps->nodes[n].cls], 0xff, sizeof(ps->re->cls[0]));
		ps->p++;
		return n;
	}
	if (ch == '\\') {
		ps->p++;
		ch = *ps->p;
		if (!ch) {
			fail(ps, "trailing backslash");
			return n;
		}
	} else if (strchr("*+?{})|", ch)) {
		fail(ps, "unexpected operator");
		return n;
	}
	cls_set(ps->re->cls[ps->nodes[n].cls], ch);
	ps->p++;
	return n;
}

static uint32_t parse_num(struct parser *ps)
{
	uint32_t v = 0;

	if (*ps->p < '0' || *ps->p > '9')
		fail(ps, "expected a number");
	while (*ps->p >= '0' && *ps->p <= '9') {
		v = v * 10 + (*ps->p++ - '0');
		if (v > ERE_MAX_REP) {
			fail(ps, "repeat count too large");
			return 0;
		}
	}
	return v;
}

static int parse_seq(struct parser *ps)
{
	int left = -1;

	while (*ps->p && *ps->p != '|' && *ps->p != ')' && !ps->failed) {
		int atom = parse_atom(ps);

		while (!ps->failed && *ps->p && strchr("*+?{", *ps->p)) {
			int r = new_node(ps, N_REP);
			uint32_t lo = 0, hi = ERE_INF;

			switch (*ps->p++) {
			case '*': break;
			case '+': lo = 1; break;
			case '?': hi = 1; break;
			case '{':
				lo = hi = parse_num(ps);
				if (*ps->p == ',') {
					ps->p++;
					hi = *ps->p == '}' ? ERE_INF : parse_num(ps);
				}
				if (*ps->p != '}' || hi < lo)
					fail(ps, "bad {m,n}");
				else
					ps->p++;
			}
			ps->nodes[r].a = atom;
			ps->nodes[r].rmin = lo;
			ps->nodes[r].rmax = hi;
			atom = r;
		}
		if (left < 0) {
			left = atom;
		} else {
			int c = new_node(ps, N_CAT);

			ps->nodes[c].a = left;
			ps->nodes[c].b = atom;
			left = c;
		}
	}
	return left < 0 ? new_node(ps, N_EMPTY) : left;
}

static int parse_alt(struct parser *ps)
{
	int left = parse_seq(ps);

	while (*ps->p == '|' && !ps->failed) {
		int n = new_node(ps, N_ALT), right;

		ps->p++;
		/* parse first: it may move ps->nodes */
		right = parse_seq(ps);
		ps->nodes[n].a = left;
		ps->nodes[n].b = right;
		left = n;
	}
	return left;
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

static void bounds(struct parser *ps, int n, uint32_t *lo, uint32_t *hi)
{
	struct node *nd = &ps->nodes[n];
	uint32_t l1, h1, l2, h2;

	switch (nd->kind) {
	case N_EMPTY: *lo = *hi = 0; return;
	case N_CLASS: *lo = *hi = 1; return;
	case N_CAT:
		bounds(ps, nd->a, &l1, &h1);
		bounds(ps, nd->b, &l2, &h2);
		*lo = sat_add(l1, l2);
		*hi = sat_add(h1, h2);
		return;
	case N_ALT:
		bounds(ps, nd->a, &l1, &h1);
		bounds(ps, nd->b, &l2, &h2);
		*lo = l1 < l2 ? l1 : l2;
		*hi = h1 > h2 ? h1 : h2;
		return;
	case N_REP:
		bounds(ps, nd->a, &l1, &h1);
		*lo = sat_mul(l1, nd->rmin);
		*hi = nd->rmax == ERE_INF ? (h1 ? ERE_INF : 0) : sat_mul(h1, nd->rmax);
		return;
	}
}

static uint32_t emit(struct parser *ps, uint8_t op, uint32_t x, uint32_t y)
{
	struct ere *re = ps->re;

	if (re->n >= ERE_MAX_INST) {
		fail(ps, "pattern too large");
		return re->n - 1;
	}
	re->prog = xreallocarray(re->prog, (re->n + 1), sizeof(*re->prog));
	re->prog[re->n].op = op;
	re->prog[re->n].x = x;
	re->prog[re->n].y = y;
	return re->n++;
}

static void gen(struct parser *ps, int n)
{
	struct node nd = ps->nodes[n];
	struct ere *re = ps->re;
	uint32_t i, s, j;

	if (ps->failed)
		return;
	switch (nd.kind) {
	case N_EMPTY:
		return;
	case N_CLASS:
		emit(ps, OP_CLASS, nd.cls, 0);
		return;
	case N_CAT:
		gen(ps, ps->reverse ? nd.b : nd.a);
		gen(ps, ps->reverse ? nd.a : nd.b);
		return;
	case N_ALT:
		s = emit(ps, OP_SPLIT, 0, 0);
		re->prog[s].x = re->n;
		gen(ps, nd.a);
		j = emit(ps, OP_JMP, 0, 0);
		re->prog[s].y = re->n;
		gen(ps, nd.b);
		re->prog[j].x = re->n;
		return;
	case N_REP:
		for (i = 0; i < nd.rmin && !ps->failed; i++)
			gen(ps, nd.a);
		if (nd.rmax == ERE_INF) {
			s = emit(ps, OP_SPLIT, 0, 0);
			re->prog[s].x = re->n;
			gen(ps, nd.a);
			emit(ps, OP_JMP, s, 0);
			re->prog[s].y = re->n;
			return;
		}
		/* x{2,4} = xx(x(x)?)? : each optional copy may skip to the end */
		{
			uint32_t *splits = xcalloc(nd.rmax - nd.rmin + 1, sizeof(*splits));
			uint32_t k = 0;

			for (i = nd.rmin; i < nd.rmax && !ps->failed; i++) {
				splits[k++] = emit(ps, OP_SPLIT, 0, 0);
				re->prog[splits[k - 1]].x = re->n;
				gen(ps, nd.a);
			}
			for (i = 0; i < k; i++)
				re->prog[splits[i]].y = re->n;
			free(splits);
		}
		return;
	}
}

/* Classes reachable from the start without consuming a byte: a cheap
 * first-byte test rejects most spans before the backtracking runs. */
static void first_set(struct ere *re)
{
	uint8_t *seen = xcalloc(re->n, 1);
	uint32_t *todo = xcalloc(2 * re->n + 2, sizeof(*todo));	/* <= 2 pushes per pc */
	uint32_t nt = 0, pc;
	int k;

	todo[nt++] = 0;
	while (nt) {
		pc = todo[--nt];
		if (pc >= re->n || seen[pc])
			continue;
		seen[pc] = 1;
		switch (re->prog[pc].op) {
		case OP_CLASS:
			for (k = 0; k < 4; k++)
				re->first[k] |= re->cls[re->prog[pc].x][k];
			break;
		case OP_SPLIT:
			todo[nt++] = re->prog[pc].x;
			todo[nt++] = re->prog[pc].y;
			break;
		case OP_JMP:
			todo[nt++] = re->prog[pc].x;
			break;
		}
	}
	free(seen);
	free(todo);
}

/* Epsilon closures and byte transitions for the bit-parallel NFA. */
static void nfa_tables(const struct ere *re, const struct ere_inst *prog, uint32_t n,
		       uint32_t *nwp, uint64_t **closurep, uint64_t **stepp)
{
	uint32_t nw = (n + 63) / 64, pc, nt, q;
	uint64_t *closure, *step;
	uint32_t *todo;
	uint8_t *seen;
	int c;

	if (n > ERE_NFA_MAX)
		return;
	*nwp = nw;
	*closurep = closure = xcalloc((size_t)n * nw, sizeof(uint64_t));
	*stepp = step = xcalloc((size_t)256 * nw, sizeof(uint64_t));
	todo = xcalloc(2 * n + 2, sizeof(*todo));
	seen = xcalloc(n, 1);
	for (pc = 0; pc < n; pc++) {
		uint64_t *cl = &closure[(size_t)pc * nw];

		memset(seen, 0, n);
		nt = 0;
		todo[nt++] = pc;
		while (nt) {
			q = todo[--nt];
			if (q >= n || seen[q])
				continue;
			seen[q] = 1;
			switch (prog[q].op) {
			case OP_SPLIT:
				todo[nt++] = prog[q].x;
				todo[nt++] = prog[q].y;
				break;
			case OP_JMP:
				todo[nt++] = prog[q].x;
				break;
			default:	/* CLASS, MATCH */
				cl[q / 64] |= 1ULL << (q % 64);
				break;
			}
		}
		if (prog[pc].op == OP_CLASS)
			for (c = 0; c < 256; c++)
				if (cls_has(re->cls[prog[pc].x], c))
					step[(size_t)c * nw + pc / 64] |= 1ULL << (pc % 64);
	}
	free(todo);
	free(seen);
}

int ere_compile(struct ere *re, const char *pattern, struct pi_err *err)
{
	struct parser ps = { .p = pattern, .re = re, .err = err };
	uint32_t i;
	int root, k;

	memset(re, 0, sizeof(*re));
	root = parse_alt(&ps);
	if (!ps.failed && *ps.p)
		fail(&ps, "unbalanced )");
	if (!ps.failed) {
		bounds(&ps, root, &re->minlen, &re->maxlen);
		gen(&ps, root);
		emit(&ps, OP_MATCH, 0, 0);
	}
	if (!ps.failed) {
		/* the same language read backwards, for suffix questions */
		struct ere_inst *fwd = re->prog;
		uint32_t nfwd = re->n;

		re->prog = NULL;
		re->n = 0;
		ps.reverse = true;
		gen(&ps, root);
		emit(&ps, OP_MATCH, 0, 0);
		re->rprog = re->prog;
		re->rn = re->n;
		re->prog = fwd;
		re->n = nfwd;
	}
	free(ps.nodes);
	if (ps.failed) {
		ere_free(re);
		return -1;
	}
	for (i = 0; i < re->ncls; i++)
		for (k = 0; k < 4; k++)
			re->any[k] |= re->cls[i][k];
	first_set(re);
	nfa_tables(re, re->prog, re->n, &re->nw, &re->closure, &re->step);
	nfa_tables(re, re->rprog, re->rn, &re->rnw, &re->rclosure, &re->rstep);
	return 0;
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

bool ere_fullmatch(const struct ere *re, const unsigned char *s, size_t n)
{
	size_t cells, sp = 0;
	uint32_t pc, pos;

	if (n < re->minlen || (re->maxlen != ERE_INF && n > re->maxlen))
		return false;
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

bool ere_starts(const struct ere *re, const unsigned char *s, size_t n,
		bool any_end, uint64_t *out)
{
	uint64_t cur[ERE_NFA_MAX / 64], nxt[ERE_NFA_MAX / 64], alive;
	uint32_t nw = re->rnw, w, mpc = re->rn - 1;	/* the last is MATCH */
	size_t pos;

	if (!nw)
		return false;
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
