/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of the format model share and nothing else uses: the
 * compiled %p models (fmt_model.c), for the compiler (fmt.c) and the
 * matcher's per-line cache (fmt_match.c); the match's quick rejections,
 * for the tests' second matcher (tests/fmt_backtrack.c).
 */
#ifndef PI_FMT_IMPL_H
#define PI_FMT_IMPL_H

#include <string.h>

#include "fmt.h"

/* distinct %p models, at most: a handful are used */
#define FMT_MODELS 64

/* The compiled model of one pattern, compiled on first use. */
const struct ere *fmt_model_ere(const char *pattern);

/* The automaton of a number, string or char conversion's model (built
 * once per distinct spec), always a DFA; NULL when the model is too
 * large for one. *digit: every rendering holds a digit of t's base. */
const struct ere *fmt_conv_ere(const struct fmt_tok *t, bool *digit);

/* The automata's memory budget in bytes (64 MB); returns the old one.
 * For the tests. */
size_t fmt_conv_budget(size_t bytes);

/* number()'s, string()'s and %c's layouts by arithmetic (fmt_accept.c):
 * the answer for a conversion whose model is too large for an automaton,
 * and the tests' independent reading of lib/vsprintf.c to check the
 * models against. The span is within t's bounds and of t's bytes. */
bool fmt_tok_layout_ok(const struct fmt_tok *t, const unsigned char *s, size_t n);

/* The same for any span, as fmt_tok_accepts() is for the model. */
bool fmt_tok_layout_accepts(const struct fmt_tok *t, const char *s, size_t n);

/* Its slot, 0 .. FMT_MODELS - 1, or -1 if re is not a model. */
int fmt_model_slot(const struct ere *re);

/* fmt_tok_accepts_span() on bytes: the matchers' call, in their loops */
bool fmt_tok_span_ok(const struct fmt_tok *t, const unsigned char *s, size_t n);

/* A digit of number conversion t's base? */
static inline bool fmt_is_digit(const struct fmt_tok *t, unsigned char c)
{
	if (c >= '0' && c <= '9')
		return t->base != 8 || c <= '7';
	if (t->base != 16)
		return false;
	return t->upper ? (c >= 'A' && c <= 'F') : (c >= 'a' && c <= 'f');
}

/* ---- position sets: bit i for position i of a line ---- */

static inline bool bit_has(const uint64_t *b, size_t i)
{
	return b[i / 64] >> (i % 64) & 1;
}

static inline void bit_set(uint64_t *b, size_t i)
{
	b[i / 64] |= 1ULL << (i % 64);
}

/* Next set bit at or after i, or SIZE_MAX. */
static inline size_t bit_next(const uint64_t *b, size_t nw, size_t i)
{
	size_t w = i / 64;
	uint64_t x;

	if (w >= nw)
		return SIZE_MAX;
	x = b[w] & (~0ULL << (i % 64));
	while (!x) {
		if (++w >= nw)
			return SIZE_MAX;
		x = b[w];
	}
	return w * 64 + __builtin_ctzll(x);
}

/* Most lines fit in one or two words: not worth a call to memset() */
static inline void bits_clear(uint64_t *b, size_t nw)
{
	if (nw <= 2) {
		b[0] = 0;
		b[nw - 1] = 0;
	} else {
		memset(b, 0, nw * sizeof(uint64_t));
	}
}

/* Are more than two bits set in words w..nw-1? Clearing the lowest set
 * bit twice leaves a word non-zero only if it had three. */
static inline bool more_than_two(const uint64_t *b, size_t w, size_t nw)
{
	unsigned seen = 0;

	for (; w < nw; w++) {
		uint64_t x = b[w], y = x & (x - 1);

		if (y & (y - 1))
			return true;
		seen += !!x + !!y;
		if (seen > 2)
			return true;
	}
	return false;
}

/* Bits lo..hi (inclusive) of a word-array, as a mask for word w. */
static inline uint64_t range_mask(size_t w, size_t lo, size_t hi)
{
	uint64_t m = ~0ULL;

	if (lo > w * 64 + 63 || hi < w * 64)
		return 0;
	if (lo > w * 64)
		m &= ~0ULL << (lo % 64);
	if (hi < w * 64 + 63)
		m &= ~0ULL >> (63 - hi % 64);
	return m;
}

/* ---- facts of the current line (fmt_line.c), shared by every format ---- */

/* Positions of byte c in the line. */
const uint64_t *fmt_line_occ(const struct fmt_line *l, unsigned char c);

/* For a %p model (not a conversion's automaton), the positions from
 * which it prints the rest of the line; NULL without NFA tables. */
const uint64_t *fmt_line_ere_suffix(const struct fmt_line *l, const struct ere *re);

/* The end positions p + len of every occurrence of a literal of at most
 * 16 bytes; NULL when not kept (longer, or an older line). */
const uint64_t *fmt_line_lit_ends(const struct fmt_line *l, const char *lit, size_t len);

/* fmt_line.digits, worked out */
uint8_t fmt_line_digits(const struct fmt_line *l);

/* Has the line a digit of kind d (enum fmt_digits)? Worked out once a
 * line, by the first format that asks. */
static inline bool fmt_line_has_digit(struct fmt_line *l, unsigned int d)
{
	if (!l->digits)
		l->digits = fmt_line_digits(l);
	return l->digits >> d & 1;
}

/* Has msg[0..n) every byte each rendering of f contains (fmt.need)? */
static inline bool fmt_needs_met(const struct fmt *f, const char *msg, size_t n)
{
	uint64_t have[4];
	int i;

	fmt_bytes(msg, n, have);
	for (i = 0; i < 4; i++)
		if (f->need[i] & ~have[i])
			return false;
	return true;
}

/* Can f print msg[0..n) at all, by its bounds and edge bytes? */
bool fmt_precheck(const struct fmt *f, const char *msg, size_t n);

/* ... and in full (a closed format: its length bounds)? */
bool fmt_full_possible(const struct fmt *f, const char *msg, size_t n);

#endif
