/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The matcher's automaton of a conversion model: what a %p extension
 * (a MAC address, an IPv4 address, a symbol...) can print, as a regular
 * expression in rx.h's syntax, parsed by rx.c like check's rules and
 * compiled into a small Thompson program. Only whole-span questions are
 * asked (the span of one conversion): a DFA answers them when it has at
 * most ERE_DFA_MAX states, otherwise backtracking with a visited set,
 * bounded by program size x span length; bit-parallel NFA tables answer
 * the many-starts questions (ere_reach(), ere_starts()).
 */
#ifndef PI_ERE_H
#define PI_ERE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define ERE_INF UINT32_MAX

struct ere_inst;

struct ere {
	struct ere_inst *prog;
	uint32_t n;
	uint64_t (*cls)[4];	/* character classes, 256-bit sets */
	uint32_t ncls;
	uint32_t minlen, maxlen;	/* maxlen ERE_INF when unbounded */
	uint64_t any[4];	/* union of every class: bytes that may appear */
	uint64_t first[4];	/* bytes a match can start with */
	/* Bit-parallel NFA tables (programs of up to ERE_NFA_MAX states),
	 * for ere_reach(): nw 64-bit words per state set, 0 = none. */
	uint32_t nw;
	uint64_t *closure;	/* [pc][nw]: CLASS/MATCH states reached from pc
				 * without consuming a byte */
	uint64_t *step;		/* [byte][nw]: CLASS states accepting the byte */
	/* the same for the reversed language */
	struct ere_inst *rprog;
	uint32_t rn, rnw;
	uint64_t *rclosure, *rstep;
	/* The DFA (ere.c), NULL when it would take more than ERE_DFA_MAX
	 * states: the next state is dfa[state * nbc + bytecls[byte]]; state
	 * 0 is dead, 1 the start. */
	uint8_t bytecls[256];
	uint32_t nbc, ndfa;
	uint16_t *dfa;
	uint8_t *dfa_accept;	/* [state]: 1 accepting, | DFA_ALL (ere.c) */
	/* the reversed language's DFA, NULL when it would be too large:
	 * a backwards pass is one table step a byte (ere_starts(), and the
	 * matchers' starts of a span that ends at one place) */
	uint16_t *rdfa;
	uint8_t *rdfa_accept;
	uint32_t nrdfa;
};

#define DFA_ALL 2

#define ERE_NFA_MAX 256
#define ERE_DFA_MAX 4096

int ere_compile(struct ere *re, const char *pattern, struct pi_err *err);
/* The same for whole-span questions only (ere_fullmatch(), ere_prefix()):
 * no NFA tables, so ere_reach() and ere_starts() answer false. */
int ere_compile_span(struct ere *re, const char *pattern, struct pi_err *err);

/* Does every string re accepts hold a byte of set? false without a DFA. */
bool ere_needs_one_of(const struct ere *re, const uint64_t set[4]);
void ere_free(struct ere *re);
bool ere_fullmatch(const struct ere *re, const unsigned char *s, size_t n);

/*
 * All match ends from many starts at once: for every start p set in the
 * bitset starts (positions of s[0..n]), every e <= lim such that s[p..e)
 * matches the whole pattern gets its bit set in ends. One pass over the
 * bytes (a Thompson simulation), cost adds to *work. Returns false, doing
 * nothing, when the pattern has no NFA tables (too large).
 */
bool ere_reach(const struct ere *re, const unsigned char *s, size_t n,
	       const uint64_t *starts, size_t lim, uint64_t *ends,
	       unsigned long *work);

/*
 * Start positions, by one backwards pass: bit p of out (positions 0..n) is
 * set when s[p..n) matches (any_end false), or when some s[p..e), e <= n,
 * matches (any_end true). false, doing nothing, without NFA tables.
 */
bool ere_starts(const struct ere *re, const unsigned char *s, size_t n,
		bool any_end, uint64_t *out);

/*
 * Whole-match questions of many spans with one side in common, for a
 * program with a DFA: the DFA walked once, where ere_fullmatch() reads
 * each span again. Forwards, the spans s[0..e) of one start as e grows:
 * the state after s[0..at). Back, the spans s[p..end) of one end as p
 * goes down, by the reversed language's DFA: the state after s[at..end).
 */
struct ere_cursor {
	size_t at;
	uint32_t st;
};

/* at: 0 forwards, the spans' end back */
static inline void ere_cursor_start(struct ere_cursor *c, size_t at)
{
	c->at = at;
	c->st = 1;
}

/* Does s[0..e) match? e no lower than the last one asked. */
static inline bool ere_cursor_accepts(const struct ere *re, struct ere_cursor *c,
				      const unsigned char *s, size_t e)
{
	for (; c->at < e && c->st; c->at++)
		c->st = re->dfa[c->st * re->nbc + re->bytecls[s[c->at]]];
	return c->st && re->dfa_accept[c->st];
}

/* Does s[p..end) match (re->rdfa)? p no higher than the last one asked. */
static inline bool ere_cursor_accepts_back(const struct ere *re, struct ere_cursor *c,
					   const unsigned char *s, size_t p)
{
	while (c->at > p && c->st)
		c->st = re->rdfa[c->st * re->nbc + re->bytecls[s[--c->at]]];
	return c->st && re->rdfa_accept[c->st];
}

/* Does some prefix of s[0..n) match? 1 yes, 0 no, -1 no NFA tables. */
int ere_prefix(const struct ere *re, const unsigned char *s, size_t n);

#endif
