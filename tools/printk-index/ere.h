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
};

int ere_compile(struct ere *re, const char *pattern, struct pi_err *err);
void ere_free(struct ere *re);
bool ere_fullmatch(const struct ere *re, const unsigned char *s, size_t n);

static inline bool cls_has(const uint64_t c[4], unsigned char ch)
{
	return c[ch >> 6] >> (ch & 63) & 1;
}

static inline void cls_set(uint64_t c[4], unsigned char ch)
{
	c[ch >> 6] |= 1ULL << (ch & 63);
}

#endif
