// SPDX-License-Identifier: GPL-2.0
/*
 * One candidate row of the KERN_CONT search (cover_impl.h): the values of
 * its tokens over the line's offsets, the spans its conversions can
 * print within the work bound, and the end of its piece.
 */
#include <stdlib.h>
#include <string.h>

#include "cover_impl.h"

/* The best covering of msg[q..n) that may follow a piece of row r: any
 * (r->end), or one whose first piece shares a file with r and so scores
 * its coherent bytes too (cs->top holds those, see consider()). */
static inline int64_t follow_value(struct cover_search *cs, const struct cover_row *r,
				   size_t q)
{
	int64_t v = r->end[q];
	uint32_t g;

	if (r->into_only)
		return v;
	for (g = 0; g < r->ngrp; g++)
		if (cs->top[(size_t)r->grp[g] * cs->stride + q] > v)
			v = cs->top[(size_t)r->grp[g] * cs->stride + q];
	return v;
}

/* The same, as row r's values hold it: a piece of the base's file scores
 * its bytes, counted as its end offset here, its start's taken off in
 * consider(). */
static inline int64_t end_value(struct cover_search *cs, const struct cover_row *r, size_t q)
{
	int64_t v = follow_value(cs, r, q);

	return v == SCORE_NONE || !r->near ? v : v + (int64_t)q * r->near;
}

/* The row whose piece at q gives follow_value(cs, r, q): choice[q], or the
 * best one of r's files. */
uint32_t cover_next_row(struct cover_search *cs, const struct cover_row *r, size_t q)
{
	int64_t v = follow_value(cs, r, q);
	uint32_t g;

	if (v == r->end[q] || r->into_only)
		return cs->choice[q];
	for (g = 0; g < r->ngrp; g++)
		if (cs->top[(size_t)r->grp[g] * cs->stride + q] == v)
			return cs->top_row[(size_t)r->grp[g] * cs->stride + q];
	return UINT32_MAX;
}

/* What follows token t of row r at offset q, q after the token's start. */
static inline int64_t after(struct cover_search *cs, const struct cover_row *r, uint32_t t,
			    size_t q)
{
	return t + 1 == r->f->ntok ? end_value(cs, r, q) : r->v[t * cs->stride + q];
}

/* The same at any q; "here" is its value at the offset p where token t
 * starts, which the caller is working out. */
static int64_t next_at(struct cover_search *cs, const struct cover_row *r, uint32_t t,
		       size_t q, size_t p, int64_t here)
{
	return q == p ? here : after(cs, r, t, q);
}

/* The maximum of after() over offsets q..n, q after the token's start:
 * folded (the sweep only goes down), or counted (cover_piece_end(), after it). */
static int64_t after_max(struct cover_search *cs, struct cover_row *r, uint32_t t,
			 size_t q, bool fold)
{
	int64_t m = SCORE_NONE, nv;
	size_t x;

	if (!fold) {
		for (x = q; x <= cs->n; x++)
			if ((nv = after(cs, r, t, x)) > m)
				m = nv;
		return m;
	}
	/* a last token whose piece any covering may follow, at the same
	 * score (no group, no nearness): the sweep's running maximum of
	 * best[], or the end of the line for a closed piece, shared by all
	 * such rows instead of a fold each */
	if (t + 1 == r->f->ntok && !r->near && (r->into_only || !r->ngrp)) {
		if (r->end == cs->best)
			return cs->sufmax[q];
		if (r->end == cs->fin)
			return q <= cs->n ? 0 : SCORE_NONE;
	}
	cover_charge(cs, r->fold_pos[t] > q ? CHAIN_WORK_FOLD * (r->fold_pos[t] - q) : 0);
	while (r->fold_pos[t] > q) {
		nv = after(cs, r, t, --r->fold_pos[t]);
		if (nv > r->fold_max[t])
			r->fold_max[t] = nv;
	}
	return r->fold_max[t];
}

/* Can token tk print msg[p..q)? Counts the bytes validated. The ends q
 * asked of one start p only grow: a conversion with a DFA has it walked
 * once (cur), not each span read from p. */
static bool span_ok(struct cover_search *cs, const struct fmt_tok *tk, const char *msg,
		    size_t p, size_t q, struct ere_cursor *cur)
{
	if (cs->work < (q - p) / 8 + 1) {
		cs->work = 0;
		return false;
	}
	cs->work -= (q - p) / 8 + 1;
	if (tk->kind != TK_WILD && tk->ere && tk->ere->dfa)
		return ere_cursor_accepts(tk->ere, cur, (const unsigned char *)msg + p, q - p);
	return fmt_tok_accepts_span(tk, msg + p, q - p);
}

/* The last offset a span of token t of row r from p may end at: its
 * length bound, the end of the line, or the first byte it can not print,
 * read from the line's offsets of its class (cover_class_offsets(), kept
 * for the row's sweep in r->cls[t]). */
static size_t span_limit(struct cover_search *cs, struct cover_row *r, uint32_t t, size_t p)
{
	const struct fmt_tok *tk = &r->f->tok[t];
	size_t n = cs->n, hi = tk->max != FMT_INF && n - p > tk->max ? p + tk->max : n;
	const uint64_t *C = r->cls[t];

	if (tk->cls_all)
		return hi;
	if (!C) {
		C = cover_class_offsets(cs, tk);
		if (cover_class_kept(cs, C))
			r->cls[t] = C;
	}
	return cover_class_end(C, p, hi);
}

/*
 * The ends of the spans from p that a %p model (TK_ERE) accepts, up to hi:
 * one pass of its NFA from p, as bits (offset - p) of cs->span_ends.
 * false when the model has no NFA tables (then span by span).
 */
static bool model_ends(struct cover_search *cs, const struct fmt_tok *tk, const char *msg,
		       size_t p, size_t hi)
{
	size_t nw = (hi - p) / 64 + 1;
	uint64_t *starts = cs->span_ends + nw;	/* only p; as long as the ends */
	unsigned long work = 0;

	if (tk->kind != TK_ERE)
		return false;
	memset(cs->span_ends, 0, 2 * nw * sizeof(*cs->span_ends));
	starts[0] = 1;
	if (!ere_reach(tk->ere, (const unsigned char *)msg + p, hi - p, starts, hi - p,
		       cs->span_ends, &work))
		return false;
	/* the NFA's steps, and the call and the words of its sets: a
	 * model that stops at once still costs some 200 instructions */
	cover_charge(cs, 4 * work + CHAIN_WORK_TOKEN + nw);
	return true;
}

/* The next end set in cs->span_ends at or after offset q, or SIZE_MAX. */
static size_t next_end(struct cover_search *cs, size_t p, size_t q, size_t hi)
{
	size_t w = (q - p) / 64, last = (hi - p) / 64;
	uint64_t x = cs->span_ends[w] & (~0ULL << ((q - p) % 64));

	while (!x && w < last)
		x = cs->span_ends[++w];
	if (!x || p + w * 64 + __builtin_ctzll(x) > hi)
		return SIZE_MAX;
	return p + w * 64 + __builtin_ctzll(x);
}

/* The best covering of msg[p..n) that starts with token t of row r, a
 * token that can start at p (token_at()); fold: during the sweep (see
 * after_max()). */
int64_t cover_token_value(struct cover_search *cs, struct cover_row *r, uint32_t t,
			  const char *msg, size_t p, int64_t here, bool fold)
{
	const struct fmt *f = r->f;
	const struct fmt_tok *tk = &f->tok[t];
	size_t n = cs->n, q, hi;
	int64_t v = SCORE_NONE, nv;
	struct ere_cursor cur;
	bool star = false;
	int tail_ok = -1;

	if (tk->kind == TK_LIT) {
		const char *lit = f->lit + tk->lit_off;

		if (tk->lit_len > n - p || memcmp(msg + p + 1, lit + 1, tk->lit_len - 1))
			return SCORE_NONE;
		return after(cs, r, t, p + tk->lit_len);
	}
	if (tk->min > n - p)
		return SCORE_NONE;
	if (any_span(tk)) {
		q = p + tk->min;
		if (q == p)
			v = here, q++;
		if (q <= n && (nv = after_max(cs, r, t, q, fold)) > v)
			v = nv;
		return v;
	}
	hi = span_limit(cs, r, t, p);
	if (tk->kind == TK_ERE && model_ends(cs, tk, msg, p, hi)) {
		for (q = p + tk->min; (q = next_end(cs, p, q, hi)) != SIZE_MAX; q++)
			if ((nv = next_at(cs, r, t, q, p, here)) > v)
				v = nv;
		return v;
	}
	q = p + tk->min;
	if (tk->kind == TK_INT) {
		/* number() prints a digit: the span has a byte that is no
		 * blank (1,000 blanks cost a validation per span before) */
		if (q <= cs->nonblank[p])
			q = cs->nonblank[p] + 1;
		star = tk->width == W_STAR;
	}
	ere_cursor_start(&cur, 0);
	for (; q <= hi && cs->work; q++) {
		cover_charge(cs, CHAIN_WORK_SPAN);
		if (star && msg[q - 1] != ' ')
			tail_ok = -1;
		nv = next_at(cs, r, t, q, p, here);
		if (nv <= v)
			continue;
		/* a number with a '*' width that ends in blanks is the same
		 * number left-justified whatever their count (int_ok()): the
		 * blanks after the first of a run say what it said */
		if (star && msg[q - 1] == ' ') {
			if (tail_ok < 0)
				tail_ok = span_ok(cs, tk, msg, p, q, &cur);
			if (tail_ok)
				v = nv;
		} else if (span_ok(cs, tk, msg, p, q, &cur)) {
			v = nv;
		}
	}
	return v;
}

/*
 * Offset p of row r, its tokens from the last to the first. A piece is
 * not empty, so the row's start at p may not use a covering that ends at
 * p: here, these values leave it out. Returns the start's value.
 */
int64_t cover_row_step(struct cover_search *cs, struct cover_row *r, const char *msg,
		       size_t p)
{
	int64_t here = SCORE_NONE;
	uint32_t t;

	for (t = r->f->ntok; t-- > 0;) {
		here = token_at(cs, r, t, msg, p, here, true);
		if (t)
			r->v[(t - 1) * cs->stride + p] = here;
	}
	return here;
}

/* Then, with r->end[p] known: the tokens that can end the piece at p
 * without printing anything take it in (pieces starting before p read
 * them). */
void cover_row_finish(struct cover_search *cs, struct cover_row *r, const char *msg,
		      size_t p)
{
	const struct fmt *f = r->f;
	int64_t here;
	uint32_t t;

	if (!row_may_finish(r))
		return;
	here = end_value(cs, r, p);
	for (t = f->ntok; t-- > 1 && !f->rest_min[t];) {
		int64_t *v = &r->v[(t - 1) * cs->stride + p];

		*v = token_at(cs, r, t, msg, p, here, true);
		here = *v;
	}
}

/* The offset where row r's piece from p ends on the covering the values
 * describe: follow its tokens, each time to the first span whose value is
 * the one the sweep found. */
size_t cover_piece_end(struct cover_search *cs, struct cover_row *r, const char *msg,
		       size_t p)
{
	const struct fmt *f = r->f;
	int64_t *at_p = cs->at_p, want, here;
	size_t n = cs->n, x = p, q, hi;
	uint32_t t;

	at_p[f->ntok] = SCORE_NONE;
	for (t = f->ntok; t-- > 0;)
		at_p[t] = token_at(cs, r, t, msg, p, at_p[t + 1], false);
	want = at_p[0];
	for (t = 0; t < f->ntok; t++) {
		const struct fmt_tok *tk = &f->tok[t];

		if (x > n)
			return SIZE_MAX;	/* no span had the value: work ran out */
		here = x == p ? at_p[t + 1] : after(cs, r, t, x);
		if (tk->kind == TK_LIT) {
			x += tk->lit_len;
			if (x > n)
				return SIZE_MAX;
			want = after(cs, r, t, x);
			continue;
		}
		hi = any_span(tk) ? n : span_limit(cs, r, t, x);
		if (!any_span(tk) && model_ends(cs, tk, msg, x, hi)) {
			for (q = x + tk->min; (q = next_end(cs, x, q, hi)) != SIZE_MAX; q++)
				if (next_at(cs, r, t, q, x, here) == want)
					break;
		} else {
			for (q = x + tk->min; q <= hi; q++)
				if (next_at(cs, r, t, q, x, here) == want &&
				    (any_span(tk) || fmt_tok_accepts_span(tk, msg + x, q - x)))
					break;
		}
		x = q;
	}
	return x;
}

/* Grow the per-line tables for nrows rows of at most ntok tokens each
 * (tokens in all) over a line of n bytes. */
void cover_start(struct cover_search *cs, size_t nrows, size_t tokens,
		 uint32_t ntok, size_t n)
{
	size_t stride = n + 2, need = tokens * stride;

	cs->n = n;
	cs->stride = stride;
	if (cs->rows_cap < nrows) {
		cs->rows_cap = nrows;
		cs->rows = xreallocarray(cs->rows, nrows, sizeof(*cs->rows));
		cs->span_rows = xreallocarray(cs->span_rows, nrows, sizeof(*cs->span_rows));
	}
	/* the values are the sweep's, worked out anew: the table is
	 * replaced, not copied (megabytes for a long line of many rows) */
	if (cs->vals_cap < need) {
		cs->vals_cap = need;
		free(cs->vals);
		cs->vals = xreallocarray(NULL, need, sizeof(*cs->vals));
	}
	if (cs->tok_cap < tokens + ntok + 1) {
		cs->tok_cap = tokens + ntok + 1;
		cs->at_p = xreallocarray(cs->at_p, cs->tok_cap, sizeof(*cs->at_p));
		cs->fold_pos = xreallocarray(cs->fold_pos, cs->tok_cap, sizeof(*cs->fold_pos));
		cs->fold_max = xreallocarray(cs->fold_max, cs->tok_cap, sizeof(*cs->fold_max));
		cs->tok_cls = xreallocarray(cs->tok_cls, cs->tok_cap, sizeof(*cs->tok_cls));
	}
	if (cs->sets_cap < (ntok + 5) * (stride / 64 + 1)) {
		cs->sets_cap = (ntok + 5) * (stride / 64 + 1);
		cs->sets = xreallocarray(cs->sets, cs->sets_cap, sizeof(*cs->sets));
	}
	if (cs->pos_cap < stride) {
		cs->pos_cap = stride;
		cs->ends = xreallocarray(cs->ends, 4 * stride, sizeof(*cs->ends));
		cs->choice = xreallocarray(cs->choice, stride, sizeof(*cs->choice));
		cs->span_ends = xreallocarray(cs->span_ends, 2 * (stride / 64 + 1), sizeof(*cs->span_ends));
		cs->head = xreallocarray(cs->head, stride, sizeof(*cs->head));
		cs->nonblank = xreallocarray(cs->nonblank, stride, sizeof(*cs->nonblank));
		cs->lastnb = xreallocarray(cs->lastnb, stride, sizeof(*cs->lastnb));
	}
	cs->best = cs->ends;
	cs->tail = cs->best + stride;
	cs->fin = cs->tail + stride;
	cs->sufmax = cs->fin + stride;
}

/* Point row r at format f and its share of the tables. */
void cover_row_init(struct cover_search *cs, struct cover_row *r, const struct fmt *f,
		    uint32_t fmt, size_t *vals, size_t *toks)
{
	r->f = f;
	r->fmt = fmt;
	r->v = cs->vals + *vals;
	r->fold_pos = cs->fold_pos + *toks;
	r->fold_max = cs->fold_max + *toks;
	r->cls = cs->tok_cls + *toks;
	*vals += (f->ntok ? f->ntok - 1 : 0) * cs->stride;
	*toks += f->ntok;
	r->end = f->open_end ? cs->best : cs->fin;
	r->ngrp = 0;
	r->into_only = false;
	r->coherent = r->near = 0;
}

/* Before a sweep over row r: no values yet, nothing folded. The row is
 * visited from offset lo on and reads its values after its visits: those
 * before lo are neither written nor read. */
void cover_row_reset(struct cover_search *cs, struct cover_row *r, size_t lo)
{
	uint32_t t;

	if (r->f->ntok > 1)
		cover_charge(cs, (r->f->ntok - 1) * cs->stride / 8);
	for (t = 1; t < r->f->ntok; t++)
		memset(r->v + (t - 1) * cs->stride + lo, SCORE_FILL,
		       (cs->stride - lo) * sizeof(*r->v));
	for (t = 0; t < r->f->ntok; t++) {
		r->fold_pos[t] = cs->n + 1;
		r->fold_max[t] = SCORE_NONE;
		r->cls[t] = NULL;
	}
}
