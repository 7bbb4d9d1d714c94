// SPDX-License-Identifier: GPL-2.0
/*
 * check's rules (checker.h): a rule compiled for the product, its
 * literal factors and the bounds and prefilters that rule out most
 * formats before the product runs, and the set of formats a run checks.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* memmem() */
#endif
#include <stdlib.h>
#include <string.h>

#include "checker.h"
#include "checker_impl.h"

/* ------------------------------------------------------------------ */
/* Rules and prefilters                                                 */

static uint64_t rule_serial;

int ck_rule_init(struct ck_rule *r, const char *pat, size_t len, enum rx_mode mode,
		 struct pi_err *err)
{
	struct ck_search *s;
	struct ck_format cf;
	struct ck_result res;
	struct fmt f;

	memset(r, 0, sizeof(*r));
	if (rx_parse(&r->re, pat, len, err))
		return -1;
	r->serial = ++rule_serial;
	r->pat = xmalloc(len + 1);
	memcpy(r->pat, pat, len);
	r->pat[len] = 0;
	r->mode = mode;
	rx_compile_rule(&r->nfa, &r->re, mode);
	if (r->nfa.too_big) {
		pi_seterr(err, "offset 0: pattern too large (more than %d automaton states)",
			  RX_MAX_STATES);
		rx_nfa_free(&r->nfa);
		rx_free(&r->re);
		free(r->pat);
		return -1;
	}
	rx_literals(&r->re, &r->lits);
	r->rest = ck_rest_literals(&r->nfa);
	{
		/* chunk starts: a literal not right after another one of its
		 * run; runs and lone literals, times their repeat counts */
		uint64_t st = 0;
		uint32_t j;

		for (j = 0; j < r->lits.nleaf; j++) {
			const struct rx_leaf *lf = &r->lits.leaf[j];

			if (lf->has_prev)
				continue;
			st += lf->mult == RX_INF ? RX_INF : lf->mult;
		}
		r->starts = st >= RX_INF ? RX_INF : (uint32_t)st;
		for (j = 0; j < r->lits.nleaf; j++)
			cls_set(r->leafbytes, r->lits.leaf[j].c);
	}
	if (r->lits.seq_ok) {
		uint32_t j;

		for (j = 0; j < r->lits.nseq; j++) {
			r->seqmask[r->lits.seq[j]] |= 1ULL << j;
			if (r->lits.seq[j] >= 'a' && r->lits.seq[j] <= 'z')
				r->seqmask[r->lits.seq[j] - 32] |= 1ULL << j;
			if (r->lits.seqcont[j]) {
				r->seqcont |= 1ULL << j;
				r->seqhash[j] = ck_bigram_bit(r->lits.seq[j - 1], r->lits.seq[j]);
			} else {
				r->runstart |= 1ULL << j;
			}
		}
	}
	ck_split_closure(&r->nfa, &r->clos_start, &r->clos);
	r->R = rx_min_literals(&r->nfa);
	r->K = r->R ? (r->R + 1) / 2 : RX_INF;
	/* Can a "%s" between two blanks print a match? Then so can every
	 * "%s" (it can print those blanks itself), wherever it is - unless
	 * the rule is anchored somewhere. */
	if (mode == RX_SEARCH && !r->re.has_anchor) {
		fmt_compile(&f, " %s ", 4);
		ck_format_init(&cf, &f);
		s = ck_search_new();
		ck_product(s, r, &cf, &res, NULL);
		r->wild_ok = res.v != CK_NONE;
		ck_search_free(s);
		ck_format_free(&cf);
		fmt_free(&f);
	}
	return 0;
}

void ck_rule_free(struct ck_rule *r)
{
	rx_nfa_free(&r->nfa);
	free(r->pat);
	free(r->rest);
	free(r->clos_start);
	free(r->clos);
	rx_lits_free(&r->lits);
	rx_free(&r->re);
	memset(r, 0, sizeof(*r));
}

/*
 * Can the format print factor x at all? A byte that no conversion can
 * print comes from literal text, so each maximal segment of such bytes
 * must lie inside one literal token - unless a conversion that can print
 * nothing joins two of them (then: maybe).
 */
static bool factor_possible(const struct ck_format *cf, const struct rx_factor *x)
{
	const char *text = x->ci ? cf->lit_lower : cf->lit_exact;
	uint32_t i, j;

	if (cf->has_wild)
		return true;	/* "anything" prints it */
	/* a byte the format cannot print at all (for a case-folded factor:
	 * in neither case; the separators are no bytes of the format) */
	for (i = 0; i < 4; i++) {
		uint64_t miss = x->bytes[i] & ~cf->canprint[i];

		if (!i)
			miss &= ~(1ULL << '\n');
		if (miss && !x->ci)
			return false;
	}
	if (cf->has_empty_conv)
		return true;
	if (memmem(text, cf->lit_len, x->s, x->len))
		return true;
	for (i = 0; i < x->len; i = j + 1) {
		for (j = i; j < x->len; j++) {
			unsigned char c = x->s[j];

			if (cls_has(cf->convcls, c) ||
			    (x->ci && c >= 'a' && c <= 'z' && cls_has(cf->convcls, c - 32)))
				break;
		}
		/* a segment touching a conversion may be a prefix/suffix of
		 * a token: still contiguous inside that token */
		if (j > i && !memmem(text, cf->lit_len, x->s + i, j - i))
			return false;
	}
	return true;
}

static bool byte_in(const uint64_t cls[4], unsigned char c, bool ci)
{
	return cls_has(cls, c) || (ci && c >= 'a' && c <= 'z' && cls_has(cls, c - 32));
}

/*
 * Sharper, for formats without "anything" conversions: walk the tokens in
 * order keeping the set of lengths of x's prefixes that the output so far
 * can end with; a literal token must continue the prefix byte for byte, a
 * conversion may add bytes of its class (up to its length bound). x may
 * start inside any token and end inside any. A conversion is taken by its
 * class and length only: a necessary condition.
 */
static bool factor_pieces(const struct ck_format *cf, const struct rx_factor *x)
{
	const struct fmt *f = cf->f;
	const char *text = x->ci ? cf->lit_lower : cf->lit_exact;
	/* sets of prefix lengths < n <= 256, as bits: only the few lengths
	 * in them are visited */
	uint64_t cur[4] = { 0 }, nxt[4];
	uint32_t i, j, k, p, w, n = x->len, off = 0;

	if (n > 256 || !n)
		return true;
	for (k = 0; k < f->ntok; k++) {
		const struct fmt_tok *t = &f->tok[k];

		cur[0] |= 1;		/* x may start in this token */
		memset(nxt, 0, sizeof(nxt));
		for (w = 0; w < 4; w++) {
			uint64_t m;

			for (m = cur[w]; m; m &= m - 1) {
				i = w * 64 + __builtin_ctzll(m);
				if (t->kind == TK_LIT) {
					const char *s = text + off, *q;
					uint32_t len = t->lit_len;

					/* x[i..] continues at s[0], or (i == 0)
					 * starts at any s[p] with its first byte */
					for (p = 0; p < (i ? 1 : len); p = q - s + 1) {
						q = i ? s : memchr(s + p, x->s[0], len - p);
						if (!q)
							break;
						for (j = 0; q - s + j < len && i + j < n &&
							    q[j] == x->s[i + j]; j++)
							;
						if (i + j == n)
							return true;
						if (q - s + j == len)
							nxt[(i + j) / 64] |= 1ULL << ((i + j) % 64);
					}
					continue;
				}
				/* bytes before x starts can fill the minimum */
				if (!i || !t->min)
					nxt[i / 64] |= 1ULL << (i % 64);
				for (j = 1; i + j <= n && j <= t->max &&
					    byte_in(t->cls, x->s[i + j - 1], x->ci); j++) {
					if (i + j == n)
						return true;
					if (!i || j >= t->min)
						nxt[(i + j) / 64] |= 1ULL << ((i + j) % 64);
				}
			}
		}
		if (t->kind == TK_LIT)
			off += t->lit_len + 1;
		memcpy(cur, nxt, sizeof(cur));
	}
	return false;
}

/*
 * An upper bound on W (checker.h): a literal leaf of the rule counts when
 * the format has its byte in literal text; a leaf inside a run of
 * literals must moreover share a byte pair with the format's literal text
 * - unless it sits at the edge of a literal token, and there are only
 * 2 x (literal tokens) such edges on a path.
 */
static uint64_t w_bound(const struct ck_rule *r, const struct ck_format *cf)
{
	uint64_t ub = 0, edge = 0;
	uint32_t i;

	for (i = 0; i < r->lits.nleaf; i++) {
		const struct rx_leaf *l = &r->lits.leaf[i];
		uint64_t m = l->mult == RX_INF ? 1ULL << 40 : l->mult;

		if (!cls_has(cf->litset, l->c))
			continue;
		if (!l->in_run ||
		    (l->has_prev && ck_has_bigram(cf, l->prev, l->c)) ||
		    (l->has_next && ck_has_bigram(cf, l->c, l->next)))
			ub += m;
		else if (cls_has(cf->edgeset, l->c))
			edge += m;
	}
	return ub + (edge < 2ULL * cf->ntoklit ? edge : 2ULL * cf->ntoklit);
}

/* Longest common substring of run x with each literal token of the
 * format, summed over the tokens: in one pass over a run, a token gives
 * at most one chunk of literal-to-literal steps, and no chunk is longer. */
static uint64_t lcs_tokens(const struct ck_format *cf, const char *x, uint32_t n)
{
	uint32_t cur[256], i, j, best = 0;
	uint64_t sum = 0;

	if (n >= ARRAY_SIZE(cur))
		return n;	/* no bound for huge runs */
	memset(cur, 0, (n + 1) * sizeof(cur[0]));
	for (i = 0; i <= cf->lit_len; i++) {
		char c = i < cf->lit_len ? cf->lit_lower[i] : '\n';

		if (c == '\n') {
			sum += best;
			best = 0;
			memset(cur, 0, (n + 1) * sizeof(cur[0]));
			continue;
		}
		for (j = n; j-- > 0;) {
			cur[j + 1] = x[j] == c ? cur[j] + 1 : 0;
			if (cur[j + 1] > best)
				best = cur[j + 1];
		}
		cur[0] = 0;
	}
	return sum;
}

/* The bound on W again, runs counted by lcs_tokens(): tighter, dearer. */
static uint64_t w_bound_lcs(const struct ck_rule *r, const struct ck_format *cf)
{
	uint64_t ub = 0, c;
	uint32_t i;

	for (i = 0; i < r->lits.nleaf; i++) {
		const struct rx_leaf *l = &r->lits.leaf[i];

		if (!l->in_run && cls_has(cf->litset, l->c))
			ub += l->mult == RX_INF ? 1ULL << 40 : l->mult;
	}
	for (i = 0; i < r->lits.nrun; i++) {
		const struct rx_run *x = &r->lits.run[i];

		c = lcs_tokens(cf, x->s, x->len);
		if (c > x->len)
			c = x->len;
		ub += x->mult == RX_INF ? (c ? 1ULL << 40 : 0) : c * x->mult;
	}
	return ub;
}

/*
 * W is at most the longest common subsequence of the rule's literal leaves
 * (in pattern order) and the format's literal bytes (in order): both are
 * consumed in order along a path. Bit-parallel LCS (Hyyro), one word.
 */
static uint32_t w_bound_seq(const struct ck_rule *r, const struct ck_format *cf)
{
	uint64_t v = ~0ULL, u, full;
	uint32_t i, n = r->lits.nseq;

	if (!r->lits.seq_ok)
		return UINT32_MAX;
	full = n == 64 ? ~0ULL : (1ULL << n) - 1;
	for (i = 0; i < cf->lit_len; i++) {
		u = v & r->seqmask[(unsigned char)cf->lit_exact[i]];
		v = (v + u) | (v - u);
	}
	return n - __builtin_popcountll(v & full);
}

/* c (lower case) or its upper case in the class */
static bool byte_either(const uint64_t cls[4], unsigned char c)
{
	return cls_has(cls, c) || (c >= 'a' && c <= 'z' && cls_has(cls, c - 32));
}

/*
 * The longest chunk of w_bound_chunks() that starts at rule literal j and
 * format literal byte p: equal bytes, adjacent on both sides (seqcont,
 * FB_CONTIG); it may end at the end of the rule's run, where the format's
 * next byte in the same token must fit what the rule has after it, or at
 * a format byte right before a conversion. 0 if it cannot end anywhere.
 */
static uint32_t chunk_at(const struct ck_rule *r, const struct ck_format *cf,
			 uint32_t j, uint32_t p)
{
	const struct rx_lits *l = &r->lits;
	uint32_t i, best = 0;

	for (i = 0;; i++) {
		uint32_t q = p + i;
		bool run_end = j + i + 1 >= l->nseq || !l->seqcont[j + i + 1];

		if (run_end ? q + 1 >= cf->nlseq || !(cf->lflags[q + 1] & FB_INTOK) ||
			      byte_either(l->seqnext[j + i], cf->lseq[q + 1]) :
			      (cf->lflags[q] & FB_CONV_AFTER) != 0)
			best = i + 1;
		if (run_end || q + 1 >= cf->nlseq || !(cf->lflags[q + 1] & FB_CONTIG) ||
		    l->seq[j + i + 1] != cf->lseq[q + 1])
			return best;
	}
}

/*
 * A cheap bound on w_bound_chunks() below (UINT32_MAX: none). That DP
 * aligns the rule's literals with the format's in chunks (chunk_at()). A
 * chunk starts at a rule literal that begins a run (!seqcont), where a
 * format byte before it in the same token must fit what the rule has
 * before it; or else at a format literal right after a conversion
 * (FB_CONV_BEFORE). The chunks of one alignment increase on both sides,
 * so no two start at the same rule literal or at the same format literal.
 * Hence the DP, and W, is at most the sum of the longest chunk from each
 * rule run start and from each format literal after a conversion (there
 * at a rule literal inside a run; one that begins a run counts above).
 *
 * Finding the chunks from rule run starts means scanning the format's
 * literal bytes; without exact, a run start counts instead as far as the
 * format has the run's byte pairs (bigram, a superset of the adjacent
 * ones), to a byte that may end a chunk: the run's end, or a byte the
 * format has before a conversion. That is no less than any chunk there,
 * and cheaper.
 *
 * It prunes what counting shared pairs does not: " queue f" is in both
 * "output queue full" and "%s: Unexpected TXQ (%d) queue failure", but
 * starts and ends at neither kind of place.
 */
uint32_t ck_bound_starts(const struct ck_rule *r, const struct ck_format *cf, bool exact)
{
	const struct rx_lits *l = &r->lits;
	uint32_t i, j, k, p, c, best, sum = 0, J = l->nseq;
	uint64_t m;

	if (!l->seq_ok)
		return UINT32_MAX;
	for (m = r->runstart; m; m &= m - 1) {
		j = __builtin_ctzll(m);
		if (!cls_has(cf->litset, l->seq[j]))
			continue;
		best = 0;
		for (p = 0; exact && p < cf->nlseq; p++) {
			if (cf->lseq[p] != l->seq[j] ||
			    ((cf->lflags[p] & FB_INTOK) &&
			     !byte_either(l->seqprev[j], cf->lseq[p - 1])))
				continue;
			c = chunk_at(r, cf, j, p);
			if (c > best)
				best = c;
		}
		for (i = j; !exact; i++) {
			bool run_end = i + 1 >= J || !l->seqcont[i + 1];

			if (run_end || cls_has(cf->before_conv, l->seq[i]))
				best = i - j + 1;
			if (run_end ||
			    !(cf->bigram[r->seqhash[i + 1] >> 6] >> (r->seqhash[i + 1] & 63) & 1))
				break;
		}
		sum += best;
	}
	for (k = 0; k < cf->after_conv; k++) {
		p = cf->after_pos[k];
		best = 0;
		for (m = r->seqmask[cf->lseq[p]] & r->seqcont; m; m &= m - 1) {
			c = chunk_at(r, cf, __builtin_ctzll(m), p);
			if (c > best)
				best = c;
		}
		sum += best;
	}
	return sum;
}

/* how many times w_bound_chunks() ran its DP (checker.h) */
uint64_t ck_stat_dp;

/* Rows of w_bound_chunks(), kept across calls (one thread). */
static uint32_t *dp_buf;
static size_t dp_cap;

/* dp_buf for a format of n literal bytes: five rows, col[], three byte arrays. */
static void dp_reserve(uint32_t n)
{
	if (dp_cap < 8 * (size_t)n) {
		dp_cap = 8 * (size_t)n;
		free(dp_buf);
		dp_buf = xmalloc(dp_cap * sizeof(*dp_buf));
	}
}

/* The DP's columns: the format's literal bytes that can be aligned. */
struct dp_cols {
	uint32_t P;	/* how many */
	uint32_t *col;	/* column k is format literal byte col[k] */
	uint8_t *adj;	/* column k directly follows k - 1 */
	uint8_t *cbyte;	/* its byte */
	uint8_t *cfl;	/* FB_CONV_BEFORE, FB_CONV_AFTER; 16, 32: the byte
			 * before, after it in the same literal token */
};

/*
 * Only the format's bytes the rule has can be aligned: the other columns
 * would stay 0. The columns left, in dp_buf after its five rows; c->P is
 * their number.
 */
static void dp_columns(const struct ck_rule *r, const struct ck_format *cf,
		       struct dp_cols *c)
{
	uint32_t k, P = 0;

	c->col = dp_buf + 5 * (size_t)cf->nlseq;
	c->adj = (uint8_t *)(dp_buf + 6 * (size_t)cf->nlseq);
	c->cbyte = c->adj + cf->nlseq;
	c->cfl = c->cbyte + cf->nlseq;
	for (k = 0; k < cf->nlseq; k++) {
		if (!r->seqmask[cf->lseq[k]])
			continue;
		c->adj[P] = P && c->col[P - 1] == k - 1 && (cf->lflags[k] & FB_CONTIG);
		c->cbyte[P] = cf->lseq[k];
		/* the neighbour tests of the DP, folded into the flags */
		c->cfl[P] = cf->lflags[k] & (FB_CONV_BEFORE | FB_CONV_AFTER);
		if ((cf->lflags[k] & FB_INTOK))
			c->cfl[P] |= 16;	/* byte before in the same token */
		if (k + 1 < cf->nlseq && (cf->lflags[k + 1] & FB_INTOK))
			c->cfl[P] |= 32;	/* byte after in the same token */
		c->col[P++] = k;
	}
	c->P = P;
}

/*
 * rem[j]: literals j.. that the format's literal text has at all: the
 * most that rows j.. can still add.
 */
static void dp_remaining(const struct rx_lits *l, const struct ck_format *cf, uint32_t *rem)
{
	uint32_t j, cnt = 0;

	for (j = l->nseq; j-- > 0;) {
		cnt += cls_has(cf->litset, l->seq[j]);
		rem[j] = cnt;
	}
	rem[l->nseq] = 0;
}

/* The DP's rows: best0, pm0 the one being computed, best1, pm1 the one
 * before it, pm2 the one before that. */
struct dp_rows {
	uint32_t *best0, *best1, *pm0, *pm1, *pm2;
};

/*
 * Row j from the rows before it. pm0[k]: the most pairs of an alignment
 * that can end before a gap in rows up to j, columns up to k; *res: the
 * most anywhere so far. Returns the row's largest best0[].
 */
static uint32_t dp_row(const struct rx_lits *l, const struct ck_format *cf,
		       const struct dp_cols *c, uint32_t j, struct dp_rows *rw,
		       uint32_t *res)
{
	uint32_t J = l->nseq, P = c->P, k = 0, rmax = 0;
	bool cont = l->seqcont[j];
	bool next_cont = j + 1 < J && l->seqcont[j + 1];
	const uint32_t *src = cont ? rw->pm2 : rw->pm1;	/* ends before a gap */
	bool has_src = cont ? j >= 2 : j >= 1;

	if (!cls_has(cf->litset, l->seq[j])) {
		/* nothing aligns in this row: the prefix maxima carry
		 * over (they grow along a row), no chunk goes on */
		memcpy(rw->pm0, rw->pm1, P * sizeof(*rw->pm0));
		memset(rw->best0, 0, P * sizeof(*rw->best0));
		k = P;
	}
	for (; k < P; k++) {
		uint32_t v = 0, g;
		uint8_t fl = c->cfl[k];

		if (c->cbyte[k] == l->seq[j]) {
			/* a new chunk: after a gap, or at the start; in
			 * the middle of a literal token the byte before
			 * must fit what the rule has before it */
			if ((!cont || (fl & FB_CONV_BEFORE)) &&
			    (cont || !(fl & 16) ||
			     byte_either(l->seqprev[j], cf->lseq[c->col[k] - 1])))
				v = 1 + (k && has_src ? src[k - 1] : 0);
			/* the chunk goes on */
			if (cont && c->adj[k] && rw->best1[k - 1] && rw->best1[k - 1] + 1 > v)
				v = rw->best1[k - 1] + 1;
		}
		rw->best0[k] = v;
		if (v > rmax)
			rmax = v;
		/* usable as the last pair before a gap; inside a
		 * literal token, the next byte must fit what the
		 * rule has after it */
		g = v && (!next_cont || (fl & FB_CONV_AFTER)) ? v : 0;
		if (g && !next_cont && (fl & 32) &&
		    !byte_either(l->seqnext[j], cf->lseq[c->col[k] + 1]))
			g = 0;
		if (g > *res)
			*res = g;
		if (rw->pm1[k] > g)
			g = rw->pm1[k];
		if (k && rw->pm0[k - 1] > g)
			g = rw->pm0[k - 1];
		rw->pm0[k] = g;
	}
	return rmax;
}

/* Row j done: it becomes row j - 1, row j - 1 row j - 2. */
static void dp_next_row(struct dp_rows *rw)
{
	uint32_t *t;

	t = rw->best1; rw->best1 = rw->best0; rw->best0 = t;
	t = rw->pm2; rw->pm2 = rw->pm1; rw->pm1 = rw->pm0; rw->pm0 = t;
}

/*
 * The tightest bound, by dynamic programming over (rule literal j, format
 * literal byte p) aligned: along a path, aligned pairs increase in both;
 * two literals of one run are consumed back to back, so if both are
 * aligned their bytes are adjacent in the output, and if only the first
 * is, a conversion byte follows its format byte (it ends a literal
 * token); symmetrically before. best[j][p]: most aligned pairs ending
 * with (j, p).
 */
static uint32_t w_bound_chunks(const struct ck_rule *r, const struct ck_format *cf,
			       uint32_t need)
{
	const struct rx_lits *l = &r->lits;
	uint32_t J = l->nseq, j, res = 0, rowmax = 0, rmax, rem[65];
	struct dp_cols c;
	struct dp_rows rw;

	if (!l->seq_ok)
		return UINT32_MAX;
	if (!J || !cf->nlseq)
		return 0;
	ck_stat_dp++;
	dp_reserve(cf->nlseq);
	dp_columns(r, cf, &c);
	if (!c.P)
		return 0;
	dp_remaining(l, cf, rem);
	memset(dp_buf, 0, 5 * (size_t)c.P * sizeof(*dp_buf));
	rw.best0 = dp_buf;
	rw.best1 = dp_buf + c.P;
	rw.pm0 = dp_buf + 2 * c.P;
	rw.pm1 = dp_buf + 3 * c.P;
	rw.pm2 = dp_buf + 4 * c.P;
	for (j = 0; j < J; j++) {
		rmax = dp_row(l, cf, &c, j, &rw, &res);
		if (res >= need)
			return res;	/* enough */
		if (rw.pm0[c.P - 1] > rowmax)
			rowmax = rw.pm0[c.P - 1];
		if ((rmax > rowmax ? rmax : rowmax) + rem[j + 1] < need)
			return res;	/* cannot get there any more */
		dp_next_row(&rw);
	}
	return res;
}

void ck_set_init(struct ck_set *set, const struct fmt *fmts, uint32_t n)
{
	uint32_t i, k, *fill;

	memset(set, 0, sizeof(*set));
	set->n = n;
	set->cf = xcalloc(n ? n : 1, sizeof(*set->cf));
	set->post_start = xcalloc(65537, sizeof(*set->post_start));
	set->count = xcalloc(n ? n : 1, sizeof(*set->count));
	set->hot = xcalloc(n ? n : 1, sizeof(*set->hot));
	set->canprint = xcalloc(n ? n : 1, sizeof(*set->canprint));
	for (i = 0; i < n; i++) {
		ck_format_init(&set->cf[i], &fmts[i]);
		set->cf[i].id = i;
		memcpy(set->canprint[i], set->cf[i].canprint, sizeof(set->canprint[i]));
		set->hot[i] = (set->cf[i].has_wild ? 1U << 31 : 0) |
			      (set->cf[i].after_conv < 0xffff ? set->cf[i].after_conv : 0xffff);
		for (k = 0; k < set->cf[i].npairs; k++)
			set->post_start[set->cf[i].pairs[k] + 1]++;
	}
	for (k = 0; k < 65536; k++)
		set->post_start[k + 1] += set->post_start[k];
	set->post = xmalloc((set->post_start[65536] + 1) * sizeof(*set->post));
	fill = xmalloc(65536 * sizeof(*fill));
	memcpy(fill, set->post_start, 65536 * sizeof(*fill));
	for (i = 0; i < n; i++)
		for (k = 0; k < set->cf[i].npairs; k++)
			set->post[fill[set->cf[i].pairs[k]]++] = i;
	free(fill);
}

void ck_set_free(struct ck_set *set)
{
	uint32_t i;

	for (i = 0; i < set->n; i++)
		ck_format_free(&set->cf[i]);
	free(set->cf);
	free(set->post_start);
	free(set->post);
	free(set->count);
	free(set->hot);
	free(set->canprint);
	memset(set, 0, sizeof(*set));
}

/*
 * Aligned literals come in chunks; a chunk of length L has L - 1 aligned
 * adjacent pairs, each a pair of the rule's run that the format has too,
 * and starts either at a rule literal that does not directly follow
 * another (r->starts of them) or right after a conversion (after_conv).
 * So W <= pairs shared + r->starts + cf->after_conv.
 */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void ck_set_prepare(struct ck_set *set, struct ck_rule *r)
{
	const struct rx_lits *l = &r->lits;
	uint64_t *pm, total = 0;
	uint32_t i, j, k, n = 0;

	r->pairs = NULL;
	if (r->starts == RX_INF)
		return;
	memset(set->count, 0, set->n * sizeof(*set->count));
	/* the rule's pairs (pair << 32 | times), sorted: a pair that occurs
	 * more than once ("e " in most rules) walks its formats only once */
	for (i = 0; i < l->nrun; i++)
		n += l->run[i].len - 1;
	pm = xmalloc((n ? n : 1) * sizeof(*pm));
	n = 0;
	for (i = 0; i < l->nrun; i++) {
		const struct rx_run *x = &l->run[i];

		for (j = 1; j < x->len; j++)
			pm[n++] = (uint64_t)((unsigned char)x->s[j - 1] << 8 |
					     (unsigned char)x->s[j]) << 32 | x->mult;
	}
	qsort(pm, n, sizeof(*pm), cmp_u64);
	for (i = 0; i < n; i++)
		total += (uint32_t)pm[i];
	for (i = 0; i < n; i = j) {
		uint16_t pr = pm[i] >> 32;
		uint64_t mult = 0;

		for (j = i; j < n && pm[j] >> 32 == pr; j++)
			mult += (uint32_t)pm[j];
		if (mult > UINT16_MAX)
			mult = UINT16_MAX;
		if (total < UINT16_MAX) {
			/* no count can get near the limit: no clamping */
			for (k = set->post_start[pr]; k < set->post_start[pr + 1]; k++)
				set->count[set->post[k]] += mult;
			continue;
		}
		for (k = set->post_start[pr]; k < set->post_start[pr + 1]; k++) {
			uint32_t c = set->count[set->post[k]] + mult;

			set->count[set->post[k]] = c < UINT16_MAX ? c : UINT16_MAX;
		}
	}
	free(pm);
	r->pairs = set->count;
}

/*
 * The pair bound of ck_set_prepare() with the chunk starts counted more
 * closely: a chunk starting at a rule literal needs that byte in the
 * format's literal text, one starting after a conversion needs the first
 * byte of that literal token among the rule's literals.
 */
static uint64_t pair_bound(const struct ck_rule *r, const struct ck_format *cf)
{
	uint64_t n = r->pairs[cf->id];
	uint32_t i;

	for (i = 0; i < r->lits.nleaf; i++) {
		const struct rx_leaf *l = &r->lits.leaf[i];

		if (!l->has_prev && cls_has(cf->litset, l->c))
			n += l->mult;
	}
	for (i = 0; i < cf->after_conv; i++)
		if (cls_has(r->leafbytes, cf->lseq[cf->after_pos[i]]))
			n++;
	return n;
}

bool ck_factors_possible(const struct ck_rule *r, const struct ck_format *cf)
{
	uint32_t i;

	for (i = 0; i < r->lits.nf; i++)
		if (!factor_possible(cf, &r->lits.f[i]) ||
		    (!cf->has_wild && !factor_pieces(cf, &r->lits.f[i])))
			return false;
	return true;
}

bool ck_strong_possible(const struct ck_rule *r, const struct ck_format *cf)
{
	/* cheapest first */
	return r->K != RX_INF &&
	       (!r->pairs || pair_bound(r, cf) >= r->K) &&
	       ck_bound_starts(r, cf, false) >= r->K &&
	       w_bound_seq(r, cf) >= r->K &&
	       w_bound(r, cf) >= r->K &&
	       ck_bound_starts(r, cf, true) >= r->K &&
	       (r->lits.seq_ok ? w_bound_chunks(r, cf, r->K) : w_bound_lcs(r, cf)) >= r->K;
}
