// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "cont.h"

/*
 * Lines longer than a printk record can be are not searched: no record
 * printed them (LOG_LINE_MAX, 992 bytes, in 6.1's kernel/printk/printk.c;
 * PRINTKRB_RECORD_MAX, 1024, in 6.12's kernel/printk/internal.h).
 */
#define CHAIN_LINE_MAX 1024

/* Bytes of conversion spans looked at per line, at most: real lines use
 * a small part of it (README); a made-up line that needs more gets no
 * covering rather than unbounded time. */
#define CHAIN_WORK_MAX (64UL * CHAIN_LINE_MAX)

/*
 * The score of a covering in one int64, so that joining coverings is an
 * addition and "better" a comparison: most literal bytes, then most pieces
 * from the base's file, then the narrowest conversions, then the fewest
 * pieces. With at most CHAIN_LINE_MAX bytes (so as many pieces), literal
 * bytes and near pieces fit in 11 bits each, the pieces' widths (at most
 * PIECE_WIDTH_MAX each) in 23, and the fields never reach into each other.
 */
#define SCORE_NONE INT64_MIN
#define PIECE_WIDTH_MAX 8191

static int64_t score_of(uint32_t lit, uint32_t near, uint32_t width, uint32_t npieces)
{
	return ((int64_t)lit << 45) + ((int64_t)near << 34) -
	       ((int64_t)width << 11) - (int64_t)npieces;
}

/* How many byte values the conversions can print, summed: "%d" is
 * narrower than "%s", which tells apart pieces with equal literals.
 * At most PIECE_WIDTH_MAX, for score_of(). */
static uint32_t fmt_width(const struct fmt *f)
{
	uint32_t k, w = 0;

	for (k = 0; k < f->ntok; k++) {
		const struct fmt_tok *t = &f->tok[k];

		if (t->kind == TK_LIT)
			continue;
		if (t->cls_all)
			w += 256;
		else
			w += __builtin_popcountll(t->cls[0]) + __builtin_popcountll(t->cls[1]) +
			     __builtin_popcountll(t->cls[2]) + __builtin_popcountll(t->cls[3]);
	}
	return w < PIECE_WIDTH_MAX ? w : PIECE_WIDTH_MAX;
}

/*
 * "CPU: vendor_id '%s' unknown, using generic init.\nCPU: Your system may
 * be unstable.\n" is one record, and /dev/kmsg gives it as one; but dmesg
 * and journalctl show its second line as a line of its own, which only
 * that format prints. Each later line that is not empty becomes an entry
 * of its own matcher, with the level and place of the one it comes from.
 */
static void later_lines_init(struct chain_matcher *c, const struct pi_index *idx)
{
	size_t i;

	pi_index_init(&c->later_idx);
	for (i = 0; i < idx->n; i++) {
		const struct pi_entry *e = &idx->v[i];
		const char *nl = memchr(e->fmt, '\n', e->fmt_len), *end = e->fmt + e->fmt_len;

		while (nl && nl + 1 < end) {
			const char *start = nl + 1;
			struct pi_entry line = *e;

			nl = memchr(start, '\n', end - start);
			line.fmt_len = (nl ? nl + 1 : end) - start;
			if (*start == '\n')
				continue;
			line.fmt = arena_strndup(&c->later_idx.arena, start, line.fmt_len);
			line.cont = false;
			pi_index_push(&c->later_idx, &line);
			/* a few dozen in a whole kernel: grown one at a time */
			c->later_of = xrealloc(c->later_of, c->later_idx.n * sizeof(*c->later_of));
			c->later_of[c->later_idx.n - 1] = e;
		}
	}
	matcher_build(&c->later, &c->later_idx);
}

void chain_init(struct chain_matcher *c, struct matcher *all)
{
	const struct pi_index *idx = all->idx;
	size_t i;
	uint32_t k;

	memset(c, 0, sizeof(*c));
	c->all = all;
	pi_index_init(&c->cont_idx);
	for (i = 0; i < idx->n; i++)
		if (idx->v[i].cont)
			pi_index_push(&c->cont_idx, &idx->v[i]);
	matcher_build(&c->cont, &c->cont_idx);
	c->cont_width = xcalloc(c->cont.nfmt + 1, sizeof(uint32_t));
	for (k = 0; k < c->cont.nfmt; k++)
		c->cont_width[k] = fmt_width(&c->cont.fmts[k]);
	c->cand = xcalloc(c->cont.nfmt + 1, sizeof(*c->cand));
	later_lines_init(c, idx);
}

void chain_free(struct chain_matcher *c)
{
	matcher_free(&c->cont);
	pi_index_free(&c->cont_idx);
	matcher_free(&c->later);
	pi_index_free(&c->later_idx);
	free(c->later_of);
	free(c->cont_width);
	free(c->cand);
	free(c->rows);
	free(c->vals);
	free(c->ends);
	free(c->choice);
	free(c->at_p);
	free(c->span_ends);
	memset(c, 0, sizeof(*c));
}

/* 1 when one of format k's entries is in the base's file: pr_cont()
 * pieces come from the same code as their base. */
static uint32_t near_base(const struct chain_matcher *c, uint32_t k,
			  const struct pi_entry *base)
{
	const struct matcher *m = &c->cont;
	uint32_t e;

	if (!base)
		return 0;
	for (e = m->ent_start[k]; e < m->ent_start[k + 1]; e++) {
		const struct pi_entry *ent = &m->idx->v[m->ents[e]];

		if (!strcmp(ent->file, base->file) && !strcmp(ent->module, base->module))
			return 1;
	}
	return 0;
}

static bool level_fits(const struct pi_entry *e, int level)
{
	return level < 0 || e->level == PI_LEVEL_DEFAULT || e->level == level;
}

/* The entry of format k to report for a base piece: as matcher_match()
 * picks, an exact level before the default one. */
static const struct pi_entry *pick_base(const struct matcher *m, uint32_t k,
					int level, size_t *count)
{
	const struct pi_entry *pick = NULL;
	uint32_t e;

	*count = 0;
	for (e = m->ent_start[k]; e < m->ent_start[k + 1]; e++) {
		const struct pi_entry *ent = &m->idx->v[m->ents[e]];

		if (!level_fits(ent, level))
			continue;
		(*count)++;
		if (!pick || (pick->level != level && ent->level == level))
			pick = ent;
	}
	return pick;
}

/* A continuation piece: from the base's file if one is, then its module. */
static const struct pi_entry *pick_piece(const struct matcher *m, uint32_t k,
					 const struct pi_entry *base)
{
	const struct pi_entry *pick = NULL;
	uint32_t e;
	int rank = -1;

	for (e = m->ent_start[k]; e < m->ent_start[k + 1]; e++) {
		const struct pi_entry *ent = &m->idx->v[m->ents[e]];
		bool same_mod = base && !strcmp(ent->module, base->module);
		int r = same_mod && !strcmp(ent->file, base->file) ? 2 : same_mod;

		if (r > rank) {
			rank = r;
			pick = ent;
		}
	}
	return pick;
}

/*
 * The search. A row is one candidate format. For each of its tokens t
 * after the first, v[t - 1][pos] is the best score of covering msg[pos..n)
 * with the format's tokens from t on and then whole pieces, SCORE_NONE if
 * there is none; sm[t - 1][pos] is the maximum of v[t - 1][pos..n]. The
 * rows are filled from the end of the line backwards, so that what follows
 * a token is known when the token is: a literal looks up one offset, a
 * conversion that prints anything (%s) one suffix maximum, and any other
 * conversion the offsets its length bounds allow, each span validated.
 * best[pos], the best covering of msg[pos..n) by pieces, is then the best
 * row starting at pos plus that piece's own score. Every offset is visited
 * once per row token, whatever the line: the work is bounded by offsets x
 * the tokens of the candidate rows, plus the validated spans.
 */
struct cover_row {
	const struct fmt *f;
	uint32_t fmt;		/* in c->cont, or in c->all for a base */
	int64_t weight;		/* the piece's own score */
	int64_t *v, *sm;	/* [t - 1][pos], t = 1..ntok - 1 */
	const int64_t *end, *end_sm;	/* what may follow the piece */
};

/* Does the token print every span of at least tk->min bytes? */
static bool any_span(const struct fmt_tok *tk)
{
	return tk->cls_all && tk->max == FMT_INF &&
	       (tk->kind == TK_WILD || (tk->kind == TK_STR && tk->prec < 0));
}

/* What follows token t of row r, at offset q; "here" is its value at the
 * offset p where token t starts, which the caller is working out. */
static int64_t next_at(const struct cover_row *r, uint32_t t, size_t q, size_t p,
		       int64_t here, size_t stride)
{
	if (q == p)
		return here;
	return t + 1 == r->f->ntok ? r->end[q] : r->v[t * stride + q];
}

/* The maximum of next_at() over offsets q..n, q after p. */
static int64_t next_max(const struct cover_row *r, uint32_t t, size_t q, size_t stride)
{
	return t + 1 == r->f->ntok ? r->end_sm[q] : r->sm[t * stride + q];
}

/* Can token t start at p? A literal only where its first byte is, any
 * token after a literal only where that literal ends: nothing reads the
 * values elsewhere, and most (row, token, offset) triples stop here. */
static inline bool token_may_start(const struct fmt *f, uint32_t t, const char *msg,
				   size_t n, size_t p)
{
	const struct fmt_tok *tk = &f->tok[t], *prev;
	const char *lit;

	if (tk->kind == TK_LIT && (p == n || msg[p] != f->lit[tk->lit_off]))
		return false;
	if (!t || (prev = tk - 1)->kind != TK_LIT)
		return true;
	lit = f->lit + prev->lit_off;
	return p >= prev->lit_len && msg[p - 1] == lit[prev->lit_len - 1] &&
	       !memcmp(msg + p - prev->lit_len, lit, prev->lit_len - 1);
}

/* Can token tk print msg[p..q)? Counts the bytes validated. */
static bool span_ok(struct chain_matcher *c, const struct fmt_tok *tk, const char *msg,
		    size_t p, size_t q)
{
	if (c->work < q - p + 1) {
		c->work = 0;
		return false;
	}
	c->work -= q - p + 1;
	return fmt_tok_accepts_span(tk, msg + p, q - p);
}

/* The last offset a span of token tk from p may end at: its length bound,
 * the end of the line, or the first byte it can not print. Counts the
 * offsets, which the caller then walks. */
static size_t span_limit(struct chain_matcher *c, const struct fmt_tok *tk,
			 const char *msg, size_t n, size_t p)
{
	size_t hi = tk->max != FMT_INF && n - p > tk->max ? p + tk->max : n, q = hi;

	if (!tk->cls_all)
		for (q = p; q < hi && cls_has(tk->cls, (unsigned char)msg[q]); q++)
			;
	c->work = c->work > q - p ? c->work - (q - p) : 0;
	return q;
}

/*
 * The ends of the spans from p that a %p model (TK_ERE) accepts, up to hi:
 * one pass of its NFA from p, as bits (offset - p) of c->span_ends.
 * false when the model has no NFA tables (then span by span).
 */
static bool model_ends(struct chain_matcher *c, const struct fmt_tok *tk, const char *msg,
		       size_t p, size_t hi)
{
	size_t nw = (hi - p) / 64 + 1;
	uint64_t *starts = c->span_ends + nw;	/* only p; as long as the ends */
	unsigned long work = 0;

	if (tk->kind != TK_ERE)
		return false;
	memset(c->span_ends, 0, 2 * nw * sizeof(*c->span_ends));
	starts[0] = 1;
	if (!ere_reach(tk->ere, (const unsigned char *)msg + p, hi - p, starts, hi - p,
		       c->span_ends, &work))
		return false;
	c->work = c->work > work ? c->work - work : 0;
	return true;
}

/* The next end set in c->span_ends at or after offset q, or SIZE_MAX. */
static size_t next_end(const struct chain_matcher *c, size_t p, size_t q, size_t hi)
{
	for (; q <= hi; q++)
		if (c->span_ends[(q - p) / 64] >> ((q - p) % 64) & 1)
			return q;
	return SIZE_MAX;
}

/* The best covering of msg[p..n) that starts with token t of row r. */
static int64_t token_value(struct chain_matcher *c, const struct cover_row *r, uint32_t t,
			   const char *msg, size_t n, size_t p, int64_t here, size_t stride)
{
	const struct fmt *f = r->f;
	const struct fmt_tok *tk = &f->tok[t];
	int64_t v = SCORE_NONE, nv;
	size_t q, hi;

	if (!token_may_start(f, t, msg, n, p))
		return SCORE_NONE;
	if (tk->kind == TK_LIT) {
		const char *lit = f->lit + tk->lit_off;

		if (tk->lit_len > n - p || memcmp(msg + p + 1, lit + 1, tk->lit_len - 1))
			return SCORE_NONE;
		return next_at(r, t, p + tk->lit_len, p, here, stride);
	}
	if (tk->min > n - p)
		return SCORE_NONE;
	if (any_span(tk)) {
		q = p + tk->min;
		if (q == p)
			v = here, q++;
		if (q <= n && (nv = next_max(r, t, q, stride)) > v)
			v = nv;
		return v;
	}
	hi = span_limit(c, tk, msg, n, p);
	if (model_ends(c, tk, msg, p, hi)) {
		for (q = p + tk->min; (q = next_end(c, p, q, hi)) != SIZE_MAX; q++)
			if ((nv = next_at(r, t, q, p, here, stride)) > v)
				v = nv;
		return v;
	}
	for (q = p + tk->min; q <= hi; q++) {
		nv = next_at(r, t, q, p, here, stride);
		if (nv > v && span_ok(c, tk, msg, p, q))
			v = nv;
	}
	return v;
}

/*
 * Offset p of row r, its tokens from the last to the first. A piece is
 * not empty, so the row's start at p may not use a covering that ends at
 * p: here, these values leave it out. Returns the start's value.
 */
static int64_t row_step(struct chain_matcher *c, struct cover_row *r, const char *msg,
			size_t n, size_t p, size_t stride)
{
	int64_t here = SCORE_NONE;
	uint32_t t;

	for (t = r->f->ntok; t-- > 0;) {
		here = token_value(c, r, t, msg, n, p, here, stride);
		if (t)
			r->v[(t - 1) * stride + p] = here;
	}
	return here;
}

/* Then, with r->end[p] known: the tokens that can end the piece at p
 * without printing anything take it in (pieces starting before p read
 * them), and the suffix maxima move on to p. */
static void row_finish(struct chain_matcher *c, struct cover_row *r, const char *msg,
		       size_t n, size_t p, size_t stride)
{
	const struct fmt *f = r->f;
	int64_t here = r->end[p];
	uint32_t t;

	for (t = f->ntok; t-- > 1;) {
		int64_t *v = &r->v[(t - 1) * stride + p], *sm = &r->sm[(t - 1) * stride + p];

		if (!f->rest_min[t])
			*v = token_value(c, r, t, msg, n, p, here, stride);
		here = *v;
		*sm = *v > sm[1] ? *v : sm[1];
	}
}

/* The offset where row r's piece from p ends on the covering the values
 * describe: follow its tokens, each time to the first span whose value is
 * the one row_step() found. */
static size_t piece_end(struct chain_matcher *c, struct cover_row *r, const char *msg,
			size_t n, size_t p, size_t stride)
{
	const struct fmt *f = r->f;
	int64_t *at_p = c->at_p, want, here;
	size_t x = p, q, hi;
	uint32_t t;

	at_p[f->ntok] = SCORE_NONE;
	for (t = f->ntok; t-- > 0;)
		at_p[t] = token_value(c, r, t, msg, n, p, at_p[t + 1], stride);
	want = at_p[0];
	for (t = 0; t < f->ntok; t++) {
		const struct fmt_tok *tk = &f->tok[t];

		if (x == p)
			here = at_p[t + 1];
		else
			here = t + 1 == f->ntok ? r->end[x] : r->v[t * stride + x];
		if (tk->kind == TK_LIT) {
			x += tk->lit_len;
			want = next_at(r, t, x, x - tk->lit_len, here, stride);
			continue;
		}
		hi = any_span(tk) ? n : span_limit(c, tk, msg, n, x);
		if (!any_span(tk) && model_ends(c, tk, msg, x, hi)) {
			for (q = x + tk->min; (q = next_end(c, x, q, hi)) != SIZE_MAX; q++)
				if (next_at(r, t, q, x, here, stride) == want)
					break;
		} else {
			for (q = x + tk->min; q <= hi; q++)
				if (next_at(r, t, q, x, here, stride) == want &&
				    (any_span(tk) || fmt_tok_accepts_span(tk, msg + x, q - x)))
					break;
		}
		x = q;
	}
	return x;
}

/* Grow the per-line tables for nrows rows of at most ntok tokens each
 * (tokens in all) over a line of n bytes. */
static void cover_start(struct chain_matcher *c, size_t nrows, size_t tokens,
			uint32_t ntok, size_t n)
{
	size_t stride = n + 2, need = 2 * tokens * stride, q;

	if (c->rows_cap < nrows) {
		c->rows_cap = nrows;
		c->rows = xrealloc(c->rows, nrows * sizeof(*c->rows));
	}
	if (c->vals_cap < need) {
		c->vals_cap = need;
		c->vals = xrealloc(c->vals, need * sizeof(*c->vals));
	}
	if (c->at_p_cap < ntok + 1) {
		c->at_p_cap = ntok + 1;
		c->at_p = xrealloc(c->at_p, c->at_p_cap * sizeof(*c->at_p));
	}
	if (c->pos_cap < stride) {
		c->pos_cap = stride;
		c->ends = xrealloc(c->ends, 6 * stride * sizeof(*c->ends));
		c->choice = xrealloc(c->choice, stride * sizeof(*c->choice));
		c->span_ends = xrealloc(c->span_ends, 2 * (stride / 64 + 1) * sizeof(*c->span_ends));
	}
	c->best = c->ends;
	c->best_sm = c->best + stride;
	c->tail = c->best_sm + stride;
	c->tail_sm = c->tail + stride;
	c->fin = c->tail_sm + stride;
	c->fin_sm = c->fin + stride;
	/* a closed format ("...\n") ends the line */
	for (q = 0; q <= n; q++) {
		c->fin[q] = q == n ? 0 : SCORE_NONE;
		c->fin_sm[q] = 0;
	}
	c->fin[n + 1] = c->fin_sm[n + 1] = SCORE_NONE;
	c->work = CHAIN_WORK_MAX;
}

/* Point row r at format f and its share of the tables, from *off on. */
static void row_init(struct chain_matcher *c, struct cover_row *r, const struct fmt *f,
		     uint32_t fmt, size_t *off, size_t n)
{
	size_t stride = n + 2, rows = f->ntok ? f->ntok - 1 : 0, t;

	r->f = f;
	r->fmt = fmt;
	r->v = c->vals + *off;
	r->sm = r->v + rows * stride;
	*off += 2 * rows * stride;
	for (t = 0; t < rows; t++)
		r->sm[t * stride + n + 1] = SCORE_NONE;
	r->end = f->open_end ? c->best : c->fin;
	r->end_sm = f->open_end ? c->best_sm : c->fin_sm;
}

/* Does every literal of f occur in msg[0..n)? */
static bool literals_in(const struct fmt *f, const char *msg, size_t n)
{
	uint32_t t;

	for (t = 0; t < f->ntok; t++)
		if (f->tok[t].kind == TK_LIT &&
		    !memmem(msg, n, f->lit + f->tok[t].lit_off, f->tok[t].lit_len))
			return false;
	return true;
}

/* The continuation formats that can print a piece of msg[lo..n): each of
 * their literals occurs in it. Sizes the tables. */
static size_t cover_rows(struct chain_matcher *c, const char *msg, size_t n, size_t lo,
			 const struct fmt *base)
{
	uint64_t have[4];
	size_t nrows = 0, tokens = 0, off = 0;
	uint32_t k, ntok = base ? base->ntok : 0;
	int i;

	fmt_bytes(msg + lo, n - lo, have);
	for (k = 0; k < c->cont.nfmt; k++) {
		const struct fmt *f = &c->cont.fmts[k];

		for (i = 0; i < 4 && !(f->need[i] & ~have[i]); i++)
			;
		if (i < 4 || f->min_len > n - lo || !f->ntok ||
		    !literals_in(f, msg + lo, n - lo))
			continue;
		c->cand[nrows++] = k;
		tokens += f->ntok;
		if (f->ntok > ntok)
			ntok = f->ntok;
	}
	cover_start(c, nrows + 1, tokens + ntok, ntok, n);
	for (i = 0; (size_t)i < nrows; i++)
		row_init(c, &c->rows[i], &c->cont.fmts[c->cand[i]], c->cand[i], &off, n);
	if (base)
		row_init(c, &c->rows[nrows], base, 0, &off, n);
	return nrows;
}

/* The rows' weights for pieces that follow base (NULL: none). */
static void cover_weights(struct chain_matcher *c, size_t nrows, const struct pi_entry *base)
{
	size_t i;

	for (i = 0; i < nrows; i++) {
		struct cover_row *r = &c->rows[i];

		r->weight = score_of(r->f->lit_bytes, near_base(c, r->fmt, base),
				     c->cont_width[r->fmt], 1);
	}
}

/* Fill best[lo..n] (and choice[]) from the candidate rows. */
static void sweep(struct chain_matcher *c, size_t nrows, const char *msg, size_t n, size_t lo)
{
	size_t stride = n + 2, p, i;

	c->best[n + 1] = c->best_sm[n + 1] = SCORE_NONE;
	for (p = n + 1; p-- > lo;) {
		int64_t best = p == n ? 0 : SCORE_NONE, v;
		uint32_t choice = UINT32_MAX;

		for (i = 0; i < nrows; i++) {
			v = row_step(c, &c->rows[i], msg, n, p, stride);
			if (v != SCORE_NONE && v + c->rows[i].weight > best) {
				best = v + c->rows[i].weight;
				choice = i;
			}
		}
		c->best[p] = best;
		c->choice[p] = choice;
		c->best_sm[p] = best > c->best_sm[p + 1] ? best : c->best_sm[p + 1];
		for (i = 0; i < nrows; i++)
			row_finish(c, &c->rows[i], msg, n, p, stride);
	}
}

/* The value of base row r at offset 0: coverings by the base and then
 * pieces, the base not taking the whole line. */
static int64_t base_value(struct chain_matcher *c, struct cover_row *r, const char *msg,
			  size_t n, size_t lo)
{
	size_t stride = n + 2, p;
	int64_t v = SCORE_NONE;

	c->tail[n + 1] = c->tail_sm[n + 1] = SCORE_NONE;
	for (p = n + 1; p-- > 0;) {
		c->tail[p] = p >= lo && p < n ? c->best[p] : SCORE_NONE;
		c->tail_sm[p] = c->tail[p] > c->tail_sm[p + 1] ? c->tail[p] : c->tail_sm[p + 1];
	}
	r->end = c->tail;
	r->end_sm = c->tail_sm;
	for (p = n + 1; p-- > 0;) {
		v = row_step(c, r, msg, n, p, stride);
		row_finish(c, r, msg, n, p, stride);
	}
	return v == SCORE_NONE ? v : v + r->weight;
}

/* The pieces of the best covering of msg[pos..n), appended to out. */
static bool collect(struct chain_matcher *c, size_t pos, size_t n, const char *msg,
		    struct chain *out)
{
	const struct pi_entry *base = out->n ? out->p[0].e : NULL;
	size_t end;

	while (pos < n) {
		struct cover_row *r;

		if (c->choice[pos] == UINT32_MAX || out->n == CHAIN_MAX)
			return false;
		r = &c->rows[c->choice[pos]];
		end = piece_end(c, r, msg, n, pos, n + 2);
		if (end <= pos || end > n)
			return false;
		out->p[out->n].e = pick_piece(&c->cont, r->fmt, base);
		out->p[out->n].off = pos;
		out->p[out->n].len = end - pos;
		out->lit_bytes += r->f->lit_bytes;
		if (!base)
			base = out->p[out->n].e;
		out->n++;
		pos = end;
	}
	return true;
}

/* Is hit h of the full matcher an open-ended specific format, a base? */
static bool base_hit(const struct matcher *all, uint32_t h)
{
	const struct fmt *f = &all->fmts[all->hits[h]];

	return all->hit_kind[h] == FMT_PREFIX && !f->generic && f->open_end;
}

/*
 * The base search, on the hits c->all has from matching this very message
 * (msg[0..n), n already cut at the newline): attribute_message() has them
 * already, so the full matcher does not run twice. The rows' scores
 * depend on the base's file (near_base()), so the sweep runs again for a
 * base from another file than the last one.
 */
static bool chain_from_hits(struct chain_matcher *c, const char *msg, size_t n,
			    int level, struct chain *out)
{
	struct matcher *all = c->all;
	const struct pi_entry *base, *swept = NULL, *best_base = NULL;
	int64_t best = SCORE_NONE, v;
	uint32_t h, best_fmt = 0, ntok = 0;
	size_t lo = n, nrows, others = 0, count, end;
	struct cover_row *r;

	for (h = 0; h < all->nhits; h++)
		if (base_hit(all, h)) {
			const struct fmt *f = &all->fmts[all->hits[h]];

			if (f->min_len < lo)
				lo = f->min_len ? f->min_len : 1;
			if (f->ntok > ntok)
				ntok = f->ntok;
		}
	if (lo >= n || n > CHAIN_LINE_MAX)
		return false;
	/* the largest base's tables stand in for every base's */
	c->base_fmt.ntok = ntok;
	c->base_fmt.open_end = true;
	nrows = cover_rows(c, msg, n, lo, &c->base_fmt);
	r = &c->rows[nrows];
	for (h = 0; h < all->nhits; h++) {
		uint32_t k = all->hits[h];
		const struct fmt *f = &all->fmts[k];

		if (!base_hit(all, h) || !(base = pick_base(all, k, level, &count)))
			continue;
		if (!swept || strcmp(swept->file, base->file) || strcmp(swept->module, base->module)) {
			cover_weights(c, nrows, base);
			sweep(c, nrows, msg, n, lo);
			swept = base;
		}
		r->f = f;
		r->fmt = k;
		r->weight = score_of(f->lit_bytes, 0, fmt_width(f), 1);
		v = base_value(c, r, msg, n, lo);
		if (v == SCORE_NONE)
			continue;
		others += count;
		if (v > best) {
			best = v;
			best_base = base;
			best_fmt = k;
		}
	}
	if (!best_base || !c->work)
		return false;
	/* the tables hold the last base's coverings: redo the best one's */
	if (strcmp(swept->file, best_base->file) || strcmp(swept->module, best_base->module)) {
		cover_weights(c, nrows, best_base);
		sweep(c, nrows, msg, n, lo);
	}
	r->f = &all->fmts[best_fmt];
	r->fmt = best_fmt;
	base_value(c, r, msg, n, lo);
	end = piece_end(c, r, msg, n, 0, n + 2);
	out->p[0].e = best_base;
	out->p[0].off = 0;
	out->p[0].len = end;
	out->n = 1;
	out->others = others - 1;
	out->lit_bytes = r->f->lit_bytes;
	if (end == 0 || end >= n || !collect(c, end, n, msg, out) || !c->work) {
		memset(out, 0, sizeof(*out));
		return false;
	}
	return true;
}

static size_t first_line(const char *msg, size_t n)
{
	const char *nl = memchr(msg, '\n', n);

	return nl ? (size_t)(nl - msg) : n;
}

bool chain_match(struct chain_matcher *c, const char *msg, size_t n, int level,
		 bool cont_only, struct chain *out)
{
	struct match_result r;
	size_t nrows;

	memset(out, 0, sizeof(*out));
	n = first_line(msg, n);
	if (!c->cont_idx.n || !n)
		return false;
	if (cont_only) {
		if (n > CHAIN_LINE_MAX)
			return false;
		nrows = cover_rows(c, msg, n, 0, NULL);
		cover_weights(c, nrows, NULL);
		sweep(c, nrows, msg, n, 0);
		if (c->best[0] == SCORE_NONE || !collect(c, 0, n, msg, out) || !c->work) {
			memset(out, 0, sizeof(*out));
			return false;
		}
		return true;
	}
	matcher_match(c->all, msg, n, level, &r);
	return chain_from_hits(c, msg, n, level, out);
}

void attribute_message(struct chain_matcher *c, const char *msg, size_t n,
		       int level, struct attribution *a)
{
	struct match_result later;

	matcher_match(c->all, msg, n, level, &a->single);
	a->chained = false;
	if (a->single.status == MATCH_SPECIFIC && !a->single.prefix)
		return;
	n = first_line(msg, n);
	memset(&a->chain, 0, sizeof(a->chain));
	if (c->cont_idx.n && n)
		a->chained = chain_from_hits(c, msg, n, level, &a->chain);
	if (a->chained || !c->later_idx.n)
		return;
	/* a whole line of a multi-line format beats a prefix of another */
	matcher_match(&c->later, msg, n, level, &later);
	if (later.status == MATCH_SPECIFIC && !later.prefix) {
		later.best = c->later_of[later.best - c->later_idx.v];
		a->single = later;
	}
}

enum attr_class attribution_class(const struct attribution *a)
{
	if (a->chained)
		return CLASS_ATTRIBUTED;
	switch (a->single.status) {
	case MATCH_SPECIFIC: return CLASS_ATTRIBUTED;
	case MATCH_GENERIC: return CLASS_GENERIC;
	case MATCH_CATCH_ALL: return CLASS_CATCH_ALL;
	default: return CLASS_NONE;
	}
}

const char *attr_class_name(enum attr_class c)
{
	switch (c) {
	case CLASS_ATTRIBUTED: return "attributed";
	case CLASS_GENERIC: return "generic";
	case CLASS_CATCH_ALL: return "catch-all";
	default: return "unattributed";
	}
}

void chain_json(json_writer_t *w, const char *msg, const struct chain *ch)
{
	size_t i;

	jsonw_name(w, "pieces");
	jsonw_start_array(w);
	for (i = 0; i < ch->n; i++) {
		const struct pi_entry *e = ch->p[i].e;

		jsonw_start_object(w);
		jsonw_string_field(w, "module", e->module);
		jsonw_int_field(w, "level", e->level);
		jsonw_bool_field(w, "cont", e->cont);
		jsonw_string_field(w, "file", e->file);
		jsonw_uint_field(w, "line", e->line);
		jsonw_string_field(w, "function", e->func);
		jsonw_name(w, "format");
		jsonw_string_len(w, e->fmt, e->fmt_len);
		jsonw_name(w, "text");
		jsonw_string_len(w, msg + ch->p[i].off, ch->p[i].len);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
}
