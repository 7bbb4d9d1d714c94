/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of the format model share and nothing else uses: the
 * compiled %p models (fmt_model.c), for the compiler (fmt.c) and the
 * matcher's per-line cache (fmt_match.c); the match's quick rejections,
 * for the tests' second matcher (tests/fmt_backtrack.c).
 */
#ifndef PI_FMT_IMPL_H
#define PI_FMT_IMPL_H

#include "fmt.h"

/* distinct %p models, at most: a handful are used */
#define FMT_MODELS 64

/* The compiled model of one pattern, compiled on first use. */
const struct ere *fmt_model_ere(const char *pattern);

/* The automaton of a number, string or char conversion's model (built
 * once per distinct spec); NULL when the model is too large for one. */
const struct ere *fmt_conv_ere(const struct fmt_tok *t);

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
