/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A very small extended-regular-expression engine, used to describe what
 * the kernel's %p extensions print (a MAC address, an IPv4 address, a
 * symbol...). The syntax is a subset of POSIX ERE so the same model
 * strings feed regcomp() in the benchmark's naive baseline:
 *   literals, \x quoting, '.', [a-z] / [^...] classes, ( ), |,
 *   and the ? * + {m} {m,} {m,n} quantifiers.
 * Only whole-string matches are needed (the span of one conversion), done
 * by backtracking with a visited set, so the cost is bounded by
 * program size x span length.
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
};

#define ERE_NFA_MAX 256

int ere_compile(struct ere *re, const char *pattern, struct pi_err *err);
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

/* Does some prefix of s[0..n) match? 1 yes, 0 no, -1 no NFA tables. */
int ere_prefix(const struct ere *re, const unsigned char *s, size_t n);

#endif
