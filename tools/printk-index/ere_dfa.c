// SPDX-License-Identifier: GPL-2.0
/*
 * The DFA of an ere.c program (ere_impl.h), by subset construction over
 * byte classes, of a bounded number of states; whole-span questions then
 * cost one table step a byte.
 */
#include <stdlib.h>
#include <string.h>

#include "ere.h"
#include "ere_impl.h"

/*
 * The DFA, by subset construction over byte classes (bytes no class of
 * the program tells apart share a column). A state is the set of CLASS
 * and MATCH instructions reachable without consuming a byte; state 0 is
 * the empty set (dead), state 1 the start.
 */
struct dfa_build {
	const struct ere *re;
	uint32_t nw;		/* 64-bit words of a state's set */
	uint64_t *sets;		/* [state][nw] */
	uint32_t n, cap;
	uint32_t *slot;		/* hash table of states, 0 empty */
	uint32_t nslot;
	uint32_t max;		/* states at most */
	struct ere_walk walk;
};

static uint32_t set_hash(const uint64_t *set, uint32_t nw)
{
	uint64_t h = 14695981039346656037ULL;
	uint32_t w;

	for (w = 0; w < nw; w++)
		h = (h ^ set[w]) * 1099511628211ULL;
	return (uint32_t)(h ^ h >> 32);
}

/* The state of set, added if new; 0 for the empty set, -1 when full. */
static int64_t dfa_state(struct dfa_build *b, const uint64_t *set)
{
	uint32_t h, w, id;
	uint64_t any = 0;

	for (w = 0; w < b->nw; w++)
		any |= set[w];
	if (!any)
		return 0;
	for (h = set_hash(set, b->nw) & (b->nslot - 1);; h = (h + 1) & (b->nslot - 1)) {
		id = b->slot[h];
		if (!id)
			break;
		if (!memcmp(&b->sets[(size_t)id * b->nw], set, b->nw * sizeof(uint64_t)))
			return id;
	}
	if (b->n == b->max)
		return -1;
	if (b->n == b->cap) {
		b->cap = grow_cap(b->cap, 64);
		b->sets = xreallocarray(b->sets, (size_t)b->cap * b->nw, sizeof(uint64_t));
	}
	memcpy(&b->sets[(size_t)b->n * b->nw], set, b->nw * sizeof(uint64_t));
	b->slot[h] = b->n;
	return b->n++;
}

/* Bytes in the same classes of the program get the same column. */
static void byte_classes(struct ere *re, unsigned char rep[256])
{
	int16_t in[256], out[256];
	uint32_t i, nbc = 1;
	int c;

	memset(re->bytecls, 0, sizeof(re->bytecls));
	for (i = 0; i < re->ncls; i++) {
		uint32_t next = 0;

		memset(in, -1, sizeof(in));
		memset(out, -1, sizeof(out));
		for (c = 0; c < 256; c++) {
			int16_t *to = cls_has(re->cls[i], c) ? &in[re->bytecls[c]]
							     : &out[re->bytecls[c]];

			if (*to < 0)
				*to = next++;
			re->bytecls[c] = *to;
		}
		nbc = next;
	}
	for (c = 255; c >= 0; c--)
		rep[re->bytecls[c]] = c;
	re->nbc = nbc;
}

/*
 * DFA_ALL: an accepting state that every byte but a newline keeps, and a
 * newline kills. From there a whole match needs only no newline in the
 * rest of the span: "%5s" ("[^\n]{5,}") costs five steps and a memchr(),
 * not one step a byte, on the long spans the matchers try.
 */
static void mark_sinks(struct ere *re)
{
	uint32_t s, k, nl = re->bytecls['\n'];
	int c;

	for (s = 1; s < re->ndfa; s++) {
		bool sink = re->dfa_accept[s];

		for (k = 0; k < re->nbc && sink; k++)
			sink = re->dfa[(size_t)s * re->nbc + k] == (k == nl ? 0 : s);
		/* '\n' alone in its class, or the class test says nothing */
		for (c = 0; c < 256 && sink; c++)
			sink = c == '\n' || re->bytecls[c] != nl;
		if (sink)
			re->dfa_accept[s] |= DFA_ALL;
	}
}

/*
 * The DFA of program prog[0..n) (the forward one or the reverse one: both
 * use re's classes, so re's byte columns) into *tab and *accept, NULL when
 * it would pass max_states; returns its number of states.
 */
static uint32_t subset_dfa(const struct ere *re, const struct ere_inst *prog, uint32_t n,
			   const unsigned char rep[256], uint32_t max_states,
			   uint16_t **tab, uint8_t **accept)
{
	struct dfa_build b = { .re = re, .nw = (n + 63) / 64, .nslot = 2 * max_states,
				.max = max_states };
	uint64_t *next = xcalloc(b.nw, sizeof(uint64_t));
	uint16_t *dfa;
	uint32_t s, k, pc, w;
	int64_t to;

	b.slot = xcalloc(b.nslot, sizeof(*b.slot));
	ere_walk_init(&b.walk, n);
	b.n = 1;	/* state 0, dead, has no set in the table */
	b.cap = 64;
	b.sets = xcalloc((size_t)b.cap * b.nw, sizeof(uint64_t));
	b.walk.gen = 1;
	ere_closure(prog, n, &b.walk, 0, next);
	dfa_state(&b, next);
	dfa = xcalloc(re->nbc, sizeof(*dfa));	/* row 0: dead */
	for (s = 1; s < b.n; s++) {
		dfa = xreallocarray(dfa, (size_t)(s + 1) * re->nbc, sizeof(*dfa));
		for (k = 0; k < re->nbc; k++) {
			const uint64_t *set = &b.sets[(size_t)s * b.nw];

			memset(next, 0, b.nw * sizeof(uint64_t));
			b.walk.gen++;
			for (w = 0; w < b.nw; w++) {
				uint64_t x = set[w];

				while (x) {
					pc = w * 64 + __builtin_ctzll(x);
					x &= x - 1;
					if (prog[pc].op == OP_CLASS &&
					    cls_has(re->cls[prog[pc].x], rep[k]))
						ere_closure(prog, n, &b.walk, pc + 1, next);
				}
			}
			to = dfa_state(&b, next);
			if (to < 0)
				goto too_big;
			dfa[(size_t)s * re->nbc + k] = to;
		}
	}
	*tab = dfa;
	*accept = xcalloc(b.n, 1);
	pc = n - 1;	/* OP_MATCH */
	for (s = 1; s < b.n; s++)
		(*accept)[s] = b.sets[(size_t)s * b.nw + pc / 64] >> (pc % 64) & 1;
	goto out;
too_big:
	free(dfa);
	*tab = NULL;
	*accept = NULL;
out:
	free(next);
	free(b.slot);
	ere_walk_free(&b.walk);
	free(b.sets);
	return *tab ? b.n : 0;
}

void ere_dfa_build(struct ere *re, uint32_t max_states)
{
	unsigned char rep[256];

	byte_classes(re, rep);
	re->ndfa = subset_dfa(re, re->prog, re->n, rep, max_states, &re->dfa, &re->dfa_accept);
	if (re->dfa)
		mark_sinks(re);
	if (re->rprog)
		re->nrdfa = subset_dfa(re, re->rprog, re->rn, rep, max_states, &re->rdfa,
				       &re->rdfa_accept);
}

bool ere_needs_one_of(const struct ere *re, const uint64_t set[4])
{
	bool outside[256] = { false };
	uint32_t *todo, nt = 0, s, k, to;
	uint8_t *seen;
	bool needs = true;
	int c;

	if (!re->dfa)
		return false;
	/* a byte class takes a path around set if one of its bytes is not
	 * in it */
	for (c = 0; c < 256; c++)
		if (!cls_has(set, c))
			outside[re->bytecls[c]] = true;
	todo = xcalloc(re->ndfa, sizeof(*todo));
	seen = xcalloc(re->ndfa, 1);
	todo[nt++] = 1;
	seen[1] = 1;
	while (nt && needs) {
		s = todo[--nt];
		if (re->dfa_accept[s]) {
			needs = false;	/* accepted without a byte of set */
			break;
		}
		for (k = 0; k < re->nbc; k++) {
			to = re->dfa[(size_t)s * re->nbc + k];
			if (outside[k] && to && !seen[to]) {
				seen[to] = 1;
				todo[nt++] = to;
			}
		}
	}
	free(todo);
	free(seen);
	return needs;
}
