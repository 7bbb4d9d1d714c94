// SPDX-License-Identifier: GPL-2.0
/*
 * A second matcher of one format, by backtracking over conversion spans:
 * written apart from fmt_match_line(), the reference the tests and the
 * fuzzer compare it with.  Not in the installed binary.
 */
#include <stdlib.h>
#include <string.h>

#include "../fmt.h"
#include "../fmt_impl.h"
#include "testlib.h"

/* ------------------------------------------------------------------ */
/* Matching one format                                                 */

/*
 * Backtracking over conversion spans. Failures are memoised per
 * (token, position), which bounds the work by tokens x length^2, and a
 * step budget stops pathological inputs (documented: such a line is
 * reported unattributed rather than taking forever).
 */
#define FMT_MAX_STEPS 200000
#define FMT_MAX_DEPTH 1000

struct mstate {
	const struct fmt *f;
	const unsigned char *m;
	size_t n;
	bool allow_prefix;
	bool aborted;
	unsigned long steps;
	uint32_t gen;
};

static uint32_t *memo;
static size_t memo_cap;
static uint32_t memo_gen;

static bool memo_failed(struct mstate *st, uint32_t ti, size_t pos)
{
	return memo[(size_t)ti * (st->n + 1) + pos] == st->gen;
}

static void memo_fail(struct mstate *st, uint32_t ti, size_t pos)
{
	memo[(size_t)ti * (st->n + 1) + pos] = st->gen;
}

static bool m_tok(struct mstate *st, uint32_t ti, size_t pos, unsigned depth)
{
	const struct fmt *f = st->f;
	const struct fmt_tok *t;
	size_t lo, hi, e, run;
	bool end_ok;
	int c0 = -1;

	for (;;) {
		if (ti == f->ntok)
			return pos == st->n || (st->allow_prefix && f->open_end);
		t = &f->tok[ti];
		if (t->kind != TK_LIT)
			break;
		{
			const char *lit = f->lit + t->lit_off;
			size_t avail = st->n - pos;

			if (avail >= t->lit_len && !memcmp(st->m + pos, lit, t->lit_len)) {
				pos += t->lit_len;
				ti++;
				continue;
			}
			return false;
		}
	}
	if (++st->steps > FMT_MAX_STEPS || depth > FMT_MAX_DEPTH) {
		st->aborted = true;
		return false;
	}
	if (memo_failed(st, ti, pos))
		return false;

	/* spans can only reach as far as the bytes this conversion prints */
	run = st->n - pos;
	if (t->max != FMT_INF && run > t->max)
		run = t->max;
	if (!t->cls_all) {
		size_t k;

		for (k = 0; k < run && cls_has(t->cls, st->m[pos + k]); k++)
			;
		run = k;
	}
	if (run < t->min)
		goto fail;
	lo = pos + t->min;
	hi = pos + run;
	/* leave room for what follows, and when the message must be used
	 * up, do not stop so early that the rest cannot reach its end */
	if (st->n - hi < f->rest_min[ti + 1]) {
		if (st->n < f->rest_min[ti + 1] + pos)
			goto fail;
		hi = st->n - f->rest_min[ti + 1];
	}
	if (!(st->allow_prefix && f->open_end) && f->rest_max[ti + 1] != FMT_INF &&
	    st->n > f->rest_max[ti + 1] && lo < st->n - f->rest_max[ti + 1])
		lo = st->n - f->rest_max[ti + 1];
	if (lo > hi)
		goto fail;
	if (ti + 1 < f->ntok && f->tok[ti + 1].kind == TK_LIT)
		c0 = (unsigned char)f->lit[f->tok[ti + 1].lit_off];
	else if (ti + 1 == f->ntok && !(st->allow_prefix && f->open_end)) {
		/* the last conversion must reach the end of the message */
		if (st->n < lo || st->n > hi)
			goto fail;
		lo = hi = st->n;
	}

	/* a literal can not start at the end of the message */
	end_ok = c0 < 0;
	for (e = lo; e <= hi; e++) {
		if (c0 >= 0 && e < st->n && st->m[e] != c0) {
			/* jump to the next byte that can start the literal */
			size_t lim = hi < st->n ? hi + 1 : st->n;
			const unsigned char *nx = memchr(st->m + e, c0, lim - e);

			e = nx ? (size_t)(nx - st->m) : st->n;
			if (e > hi)
				break;
		}
		if (e == st->n && !end_ok)
			break;
		if (!fmt_tok_span_ok(t, st->m + pos, e - pos))
			continue;
		if (m_tok(st, ti + 1, e, depth + 1))
			return true;
		if (st->aborted)
			return false;
	}
fail:
	memo_fail(st, ti, pos);
	return false;
}

/* The reference matcher (the one before dp_match), kept for the tests. */
static bool run_match(const struct fmt *f, const char *msg, size_t n, bool prefix)
{
	struct mstate st = { .f = f, .m = (const unsigned char *)msg, .n = n,
			     .allow_prefix = prefix && f->open_end };
	size_t cells = (size_t)f->ntok * (n + 1);

	if (cells > memo_cap) {
		memo = xrealloc(memo, cells * sizeof(*memo));
		memset(memo, 0, cells * sizeof(*memo));
		memo_cap = cells;
	}
	/* a new generation invalidates all memo cells without clearing */
	if (++memo_gen == 0) {
		memset(memo, 0, memo_cap * sizeof(*memo));
		memo_gen = 1;
	}
	st.gen = memo_gen;
	return m_tok(&st, 0, 0, 0);
}

enum fmt_result fmt_match_backtrack(const struct fmt *f, const char *msg, size_t n)
{
	if (!fmt_needs_met(f, msg, n) || !fmt_precheck(f, msg, n))
		return FMT_NOMATCH;
	if (fmt_full_possible(f, msg, n) && run_match(f, msg, n, false))
		return FMT_FULL;
	/* A format without a newline can be followed by KERN_CONT text. */
	if (f->open_end && run_match(f, msg, n, true))
		return FMT_PREFIX;
	return FMT_NOMATCH;
}
