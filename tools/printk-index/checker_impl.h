/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What checker.c (the product), ck_format.c (formats as automata) and
 * ck_rule.c (rules, bounds, prefilters) share and nothing else uses.
 */
#ifndef PI_CHECKER_IMPL_H
#define PI_CHECKER_IMPL_H

#include "checker.h"

/* ck_format.lflags: the byte may directly follow the previous literal
 * byte in the output; a conversion printing something may come right
 * before / after it */
#define FB_CONTIG	1
#define FB_CONV_BEFORE	2
#define FB_CONV_AFTER	4
#define FB_INTOK	8	/* not the first byte of its literal token */

/* The bit of a pair of bytes (case folded) in ck_format.bigram. */
uint32_t ck_bigram_bit(unsigned char a, unsigned char b);
bool ck_has_bigram(const struct ck_format *cf, unsigned char a, unsigned char b);

/*
 * For every state of a, the most literal states on a path from it to a
 * match: what a search can still gain (a bound to prune with).
 */
uint32_t *ck_rest_literals(const struct rx_nfa *a);

/*
 * For every state of a, the states other than splits that it reaches
 * through splits alone, as *startp (per state, an offset) into *listp.
 */
void ck_split_closure(const struct rx_nfa *a, uint32_t **startp, uint32_t **listp);

/* cf's automaton and its facts, built on first use; false if too large. */
bool ck_format_ready(struct ck_format *cf);

/* Can every literal factor of r occur in what cf prints? */
bool ck_factors_possible(const struct ck_rule *r, const struct ck_format *cf);

/* Can the bounds still let r reach K literal steps through cf? */
bool ck_strong_possible(const struct ck_rule *r, const struct ck_format *cf);

#endif
