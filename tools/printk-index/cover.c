// SPDX-License-Identifier: GPL-2.0
/*
 * The search for a covering of a line by a base and KERN_CONT pieces:
 * candidate formats, one backward sweep over the line's offsets, the
 * ranking of coverings and the walk back to the pieces (cover.h).
 */
#include <stdlib.h>
#include <string.h>

#include "cover.h"

/* Conversion spans tried and bytes validated per line, at most: real
 * lines use a small part of it (README); a made-up line that needs more
 * gets no covering rather than unbounded time. */
#define CHAIN_WORK_MAX (64UL * CHAIN_LINE_MAX)

struct gen_base {
	const struct pi_entry *e;
	uint32_t file;			/* its number (file_of[]) */
};

/* The search's own data: cover_new() makes it. */
struct cover_search {
	struct matcher *all;		/* borrowed: its hits give the bases */
	const struct matcher *cont;	/* borrowed: the continuation formats */
	int64_t *cont_weight;		/* per cont format: a piece's own score */
	/* the tables of the current line, grown as needed */
	size_t n, stride;		/* the line's length; n + 2 */
	uint32_t *cand;			/* the candidate formats */
	struct cover_row *rows;		/* one per candidate, and the base */
	size_t rows_cap;
	int64_t *vals;			/* the rows' per-offset values */
	size_t vals_cap;
	int64_t *ends;			/* the three arrays below */
	int64_t *best;			/* per offset: best covering of the rest */
	int64_t *tail;			/* the same, after a base */
	int64_t *fin;			/* after a closed piece: the end only */
	uint32_t *choice;		/* per offset: the row of its first piece */
	int32_t *head;			/* per offset: its first visit */
	size_t pos_cap;
	uint32_t *visit_row;		/* visits: (row, next visit) */
	int32_t *visit_next;
	size_t nvisits, visits_cap;
	int64_t *at_p;			/* piece_end()'s values at the start */
	size_t *fold_pos;		/* per row token, see cover.c */
	int64_t *fold_max;
	size_t *run_pos, *run_end;
	size_t tok_cap;
	uint64_t *span_ends;		/* model_ends(): ends, then starts */
	struct fmt base_fmt;		/* sizes the base's row */
	/* each file (and module) of the index numbered once: per entry of
	 * the index, and per continuation format its files (cover.c) */
	uint32_t *file_of, nfiles;
	uint32_t *fmt_file_start, *fmt_files;
	/* this line's files, as groups: local numbers by stamp */
	uint32_t *grp_stamp, *grp_local, line_stamp, ngrp, base_grp;
	uint32_t *row_grp;
	size_t row_grp_cap;
	/* per group and offset: the best covering whose first piece, of
	 * that group's file, starts there, with its coherent score, and
	 * the row of that piece */
	int64_t *top;
	uint32_t *top_row;
	size_t top_cap;
	/* the specific continuation formats of each file, and the entries
	 * of generic formats that can be a base (cover.c) */
	uint32_t *spec_start, *spec_fmts;
	struct gen_base *gen;		/* per generic format of all, from */
	uint32_t *gen_start, ngen;	/* gen[gen_start[k]] */
	unsigned long work;		/* bytes left to validate on this line */
};

/*
 * The score of a covering in one int64, so that joining coverings is an
 * addition and "better" a comparison:
 *  1. most literal bytes, blanks not counted, of the pieces whose
 *     literals say where they come from (says_where(): not a "." or ", "
 *     alone; cutting free text at its blanks and dots must not pay);
 *  2. most literal bytes of pieces that follow a piece (or the base) of
 *     their own file, as the pr_cont() pieces of one function do:
 *     "smpboot: CPU0: " "%s" " (family: 0x%x..." ", stepping: 0x%x)\n" is
 *     print_cpu_info()'s, where announce_cpu()'s "%*s" and
 *     sd_spinup_disk()'s "." print the same text;
 *  3. most bytes printed by pieces with a literal from the base's own
 *     function (" %02x" after "table:");
 *  4. the narrowest conversions (" %d" before " %s");
 *  5. the fewest pieces.
 * None of them grows by cutting a piece in two. With at most
 * CHAIN_LINE_MAX bytes (so as many pieces), the counts of bytes and pieces
 * fit in 11 bits each, the widths (at most PIECE_WIDTH_MAX a piece) in 18,
 * and the fields never reach into each other.
 */
#define PIECE_WIDTH_MAX 255
#define SCORE_LIT_SHIFT 51
#define SCORE_COHERENT ((int64_t)1 << 40)	/* a literal byte after its file */
#define SCORE_NEAR ((int64_t)1 << 29)		/* a byte of the base's file */

static int64_t score_of(uint32_t lit, uint32_t width, uint32_t npieces)
{
	return ((int64_t)lit << SCORE_LIT_SHIFT) - ((int64_t)width << 11) - (int64_t)npieces;
}

/* No covering: below every score one can have (whose parts are bounded,
 * above), and one byte repeated, so that memset() fills tables with it. */
#define SCORE_FILL 0x80
#define SCORE_NONE ((int64_t)0x8080808080808080ULL)

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

static uint64_t place_hash(const struct pi_entry *e)
{
	return fnv1a(fnv1a(FNV_OFFSET, e->file, strlen(e->file)), e->module, strlen(e->module));
}

/*
 * A number for each file (and module) of the index, once: file_of[] for
 * every entry (bases are the index's entries), and for each continuation
 * format the distinct files of its entries, so that a line's search
 * compares numbers, not paths.
 */
static void files_init(struct cover_search *cs, const struct pi_index *idx)
{
	const struct matcher *m = cs->cont;
	size_t cap, i, nslot;
	uint32_t *slot, k, e, j, nfiles = 0;
	const struct pi_entry **key;

	for (cap = 16; cap < 2 * idx->n + 2; cap *= 2)
		;
	slot = xcalloc(cap, sizeof(*slot));
	key = xcalloc(idx->n + 1, sizeof(*key));
	nslot = cap;
	cs->file_of = xcalloc(idx->n + 1, sizeof(*cs->file_of));
	for (i = 0; i < idx->n; i++) {
		const struct pi_entry *en = &idx->v[i];
		size_t s = place_hash(en) & (nslot - 1);

		/* slots hold id + 1: 0 is free */
		while (slot[s] && (strcmp(key[slot[s] - 1]->file, en->file) ||
				   strcmp(key[slot[s] - 1]->module, en->module)))
			s = (s + 1) & (nslot - 1);
		if (!slot[s]) {
			key[nfiles] = en;
			slot[s] = ++nfiles;
		}
		cs->file_of[i] = slot[s] - 1;
	}
	cs->nfiles = nfiles;
	cs->grp_stamp = xcalloc(nfiles + 1, sizeof(*cs->grp_stamp));
	cs->grp_local = xcalloc(nfiles + 1, sizeof(*cs->grp_local));
	/* the continuation entries are copies: found by their place again */
	cs->fmt_file_start = xcalloc(m->nfmt + 1, sizeof(*cs->fmt_file_start));
	cs->fmt_files = xcalloc(m->idx->n + 1, sizeof(*cs->fmt_files));
	for (k = 0, j = 0; k < m->nfmt; k++) {
		cs->fmt_file_start[k] = j;
		for (e = m->ent_start[k]; e < m->ent_start[k + 1]; e++) {
			const struct pi_entry *en = &m->idx->v[m->ents[e]];
			size_t s = place_hash(en) & (nslot - 1);
			uint32_t f, d;

			while (slot[s] && (strcmp(key[slot[s] - 1]->file, en->file) ||
					   strcmp(key[slot[s] - 1]->module, en->module)))
				s = (s + 1) & (nslot - 1);
			if (!slot[s])
				continue;	/* not a copy of an index entry */
			f = slot[s] - 1;
			for (d = cs->fmt_file_start[k]; d < j && cs->fmt_files[d] != f; d++)
				;
			if (d == j)
				cs->fmt_files[j++] = f;
		}
	}
	cs->fmt_file_start[m->nfmt] = j;
	free(slot);
	free(key);
}

/* The specific continuation formats of each file (spec_fmts from
 * spec_start[file]), and, per generic open format of the index, its
 * entries whose file has some: what lets a generic base in
 * (generic_base()). After files_init(). */
static void generic_bases_init(struct cover_search *cs)
{
	const struct matcher *m = cs->cont, *all = cs->all;
	uint32_t k, e, j, f, nspec = 0;

	cs->spec_start = xcalloc(cs->nfiles + 2, sizeof(*cs->spec_start));
	for (k = 0; k < m->nfmt; k++)
		if (!m->fmts[k].generic)
			for (j = cs->fmt_file_start[k]; j < cs->fmt_file_start[k + 1]; j++)
				cs->spec_start[cs->fmt_files[j] + 2]++, nspec++;
	for (f = 0; f < cs->nfiles; f++)
		cs->spec_start[f + 2] += cs->spec_start[f + 1];
	cs->spec_fmts = xcalloc(nspec + 1, sizeof(*cs->spec_fmts));
	for (k = 0; k < m->nfmt; k++)
		if (!m->fmts[k].generic)
			for (j = cs->fmt_file_start[k]; j < cs->fmt_file_start[k + 1]; j++)
				cs->spec_fmts[cs->spec_start[cs->fmt_files[j] + 1]++] = k;
	cs->gen_start = xcalloc(all->nfmt + 1, sizeof(*cs->gen_start));
	for (k = 0; k < all->nfmt; k++) {
		cs->gen_start[k] = cs->ngen;
		if (!all->fmts[k].generic || !all->fmts[k].open_end)
			continue;
		for (e = all->ent_start[k]; e < all->ent_start[k + 1]; e++) {
			f = cs->file_of[all->ents[e]];
			if (cs->spec_start[f] == cs->spec_start[f + 1])
				continue;
			cs->gen = xrealloc(cs->gen, (cs->ngen + 1) * sizeof(*cs->gen));
			cs->gen[cs->ngen++] = (struct gen_base){ &all->idx->v[all->ents[e]], f };
		}
	}
	cs->gen_start[all->nfmt] = cs->ngen;
}

/* 1 when one of format k's entries is in the base's function: pr_cont()
 * pieces come from the same code as their base. */
static uint32_t near_base(struct cover_search *cs, uint32_t k,
			  const struct pi_entry *base)
{
	const struct matcher *m = cs->cont;
	uint32_t e;

	if (!base)
		return 0;
	for (e = m->ent_start[k]; e < m->ent_start[k + 1]; e++) {
		const struct pi_entry *ent = &m->idx->v[m->ents[e]];

		if (!strcmp(ent->func, base->func) && !strcmp(ent->file, base->file) &&
		    !strcmp(ent->module, base->module))
			return 1;
	}
	return 0;
}

/* A continuation piece's entry: from the file of the piece before it (prev)
 * if one is, then its module. */
static const struct pi_entry *pick_piece(const struct matcher *m, uint32_t k,
					 const struct pi_entry *prev)
{
	const struct pi_entry *pick = NULL;
	uint32_t e;
	int rank = -1;

	for (e = m->ent_start[k]; e < m->ent_start[k + 1]; e++) {
		const struct pi_entry *ent = &m->idx->v[m->ents[e]];
		bool same_mod = prev && !strcmp(ent->module, prev->module);
		int r = same_mod && !strcmp(ent->file, prev->file) ? 2 : same_mod;

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
 * there is none. The offsets are visited from the end of the line
 * backwards, so that what follows a token is known when the token is: a
 * literal looks up one offset, a conversion that prints anything (%s) the
 * maximum of what follows it from its shortest span on (kept per token as
 * the sweep goes down the line: each offset is folded in once), a %p model
 * one pass of its NFA, and other conversions the offsets their length
 * bounds allow, each span validated. best[pos], the best covering of
 * msg[pos..n) by pieces, is then the best row starting at pos plus that
 * piece's own score.
 *
 * A row is visited only at the offsets where one of its tokens can start
 * (a literal where it occurs, a token after a literal where that literal
 * ends, a first conversion where a byte of its class is): the values are
 * SCORE_NONE everywhere else. Rows with a token that can start anywhere
 * (a first %s, two conversions in a row) are visited at every offset. The
 * work is bounded by the visits x the row's tokens, plus the validated
 * spans.
 */
struct cover_row {
	const struct fmt *f;
	uint32_t fmt;		/* in cs->cont, or in cs->all for a base */
	bool dense;		/* every token tried at every offset */
	bool first_anywhere;	/* the first token tried at every offset */
	bool dead;		/* a literal of it does not occur */
	size_t seen_at;		/* the offset of its last visit */
	int64_t weight;		/* the piece's own score */
	int64_t *v;		/* [t - 1][pos], t = 1..ntok - 1 */
	const int64_t *end;	/* what may follow the piece */
	int64_t coherent;	/* its literals' score more after its file */
	int64_t near;		/* SCORE_NEAR a byte: of the base's file */
	uint32_t *grp, ngrp;	/* its entries' files, as group ids */
	bool into_only;		/* closed: coherent with what comes before, not after */
	/* per %s-like token: the maximum of what follows it at offsets
	 * fold_pos[t]..n, folded in as the sweep goes down */
	size_t *fold_pos;
	int64_t *fold_max;
	/* per token: the end of the run of bytes of its class that starts
	 * at run_pos[t] (see span_limit()) */
	size_t *run_pos, *run_end;
};

/* Does the token print every span of at least tk->min bytes? */
static bool any_span(const struct fmt_tok *tk)
{
	return tk->cls_all && tk->max == FMT_INF &&
	       (tk->kind == TK_WILD || (tk->kind == TK_STR && tk->prec < 0));
}

/* The best covering of msg[q..n) that may follow a piece of row r: any
 * (r->end), or one whose first piece shares a file with r and so scores
 * its coherent bytes too (cs->top holds those, see consider()). */
static int64_t follow_value(struct cover_search *cs, const struct cover_row *r,
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
static int64_t end_value(struct cover_search *cs, const struct cover_row *r, size_t q)
{
	int64_t v = follow_value(cs, r, q);

	return v == SCORE_NONE || !r->near ? v : v + (int64_t)q * r->near;
}

/* The row whose piece at q gives follow_value(cs, r, q): choice[q], or the
 * best one of r's files. */
static uint32_t next_row(struct cover_search *cs, const struct cover_row *r, size_t q)
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
static int64_t after(struct cover_search *cs, const struct cover_row *r, uint32_t t,
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
 * folded (the sweep only goes down), or counted (piece_end(), after it). */
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
	while (r->fold_pos[t] > q) {
		nv = after(cs, r, t, --r->fold_pos[t]);
		if (nv > r->fold_max[t])
			r->fold_max[t] = nv;
	}
	return r->fold_max[t];
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
	/* the last byte first: most offsets fail there */
	return p >= prev->lit_len && msg[p - 1] == lit[prev->lit_len - 1] &&
	       !memcmp(msg + p - prev->lit_len, lit, prev->lit_len - 1);
}

/* Can token tk print msg[p..q)? Counts the bytes validated. */
static bool span_ok(struct cover_search *cs, const struct fmt_tok *tk, const char *msg,
		    size_t p, size_t q)
{
	if (cs->work < q - p + 1) {
		cs->work = 0;
		return false;
	}
	cs->work -= q - p + 1;
	return fmt_tok_accepts_span(tk, msg + p, q - p);
}

/* The last offset a span of token t of row r from p may end at: its
 * length bound, the end of the line, or the first byte it can not print.
 * During the sweep (fold), p only goes down, so the run of class bytes
 * found for the last p is reused: each byte is looked at once. */
static size_t span_limit(struct cover_search *cs, struct cover_row *r, uint32_t t,
			 const char *msg, size_t p, bool fold)
{
	const struct fmt_tok *tk = &r->f->tok[t];
	size_t n = cs->n, hi = tk->max != FMT_INF && n - p > tk->max ? p + tk->max : n, q;

	if (tk->cls_all)
		return hi;
	if (!fold || (r->run_pos[t] < p && r->run_pos[t] <= n)) {
		for (q = p; q < hi && cls_has(tk->cls, (unsigned char)msg[q]); q++)
			;
		return q;
	}
	if (r->run_pos[t] > n)
		r->run_pos[t] = r->run_end[t] = n;	/* first use */
	for (q = r->run_pos[t]; q > p; q--)
		if (!cls_has(tk->cls, (unsigned char)msg[q - 1]))
			r->run_end[t] = q - 1;
	r->run_pos[t] = p;
	return r->run_end[t] < hi ? r->run_end[t] : hi;
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
	cs->work = cs->work > work ? cs->work - work : 0;
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
static int64_t token_value(struct cover_search *cs, struct cover_row *r, uint32_t t,
			   const char *msg, size_t p, int64_t here, bool fold)
{
	const struct fmt *f = r->f;
	const struct fmt_tok *tk = &f->tok[t];
	size_t n = cs->n, q, hi;
	int64_t v = SCORE_NONE, nv;

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
	hi = span_limit(cs, r, t, msg, p, fold);
	if (tk->kind == TK_ERE && model_ends(cs, tk, msg, p, hi)) {
		for (q = p + tk->min; (q = next_end(cs, p, q, hi)) != SIZE_MAX; q++)
			if ((nv = next_at(cs, r, t, q, p, here)) > v)
				v = nv;
		return v;
	}
	for (q = p + tk->min; q <= hi && cs->work; q++) {
		cs->work--;
		nv = next_at(cs, r, t, q, p, here);
		if (nv > v && span_ok(cs, tk, msg, p, q))
			v = nv;
	}
	return v;
}

/* The same for any token: most (row, token, offset) triples stop at the
 * first test, so it is inlined in the loops. */
static inline int64_t token_at(struct cover_search *cs, struct cover_row *r, uint32_t t,
			       const char *msg, size_t p, int64_t here, bool fold)
{
	if (!token_may_start(r->f, t, msg, cs->n, p))
		return SCORE_NONE;
	return token_value(cs, r, t, msg, p, here, fold);
}

/*
 * Offset p of row r, its tokens from the last to the first. A piece is
 * not empty, so the row's start at p may not use a covering that ends at
 * p: here, these values leave it out. Returns the start's value.
 */
static int64_t row_step(struct cover_search *cs, struct cover_row *r, const char *msg,
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
static void row_finish(struct cover_search *cs, struct cover_row *r, const char *msg,
		       size_t p)
{
	const struct fmt *f = r->f;
	int64_t here = end_value(cs, r, p);
	uint32_t t;

	for (t = f->ntok; t-- > 1 && !f->rest_min[t];) {
		int64_t *v = &r->v[(t - 1) * cs->stride + p];

		*v = token_at(cs, r, t, msg, p, here, true);
		here = *v;
	}
}

/* The offset where row r's piece from p ends on the covering the values
 * describe: follow its tokens, each time to the first span whose value is
 * the one the sweep found. */
static size_t piece_end(struct cover_search *cs, struct cover_row *r, const char *msg,
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
		hi = any_span(tk) ? n : span_limit(cs, r, t, msg, x, false);
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
static void cover_start(struct cover_search *cs, size_t nrows, size_t tokens,
			uint32_t ntok, size_t n)
{
	size_t stride = n + 2, need = tokens * stride, q;

	cs->n = n;
	cs->stride = stride;
	if (cs->rows_cap < nrows) {
		cs->rows_cap = nrows;
		cs->rows = xrealloc(cs->rows, nrows * sizeof(*cs->rows));
	}
	if (cs->vals_cap < need) {
		cs->vals_cap = need;
		cs->vals = xrealloc(cs->vals, need * sizeof(*cs->vals));
	}
	if (cs->tok_cap < tokens + ntok + 1) {
		cs->tok_cap = tokens + ntok + 1;
		cs->at_p = xrealloc(cs->at_p, cs->tok_cap * sizeof(*cs->at_p));
		cs->fold_pos = xrealloc(cs->fold_pos, cs->tok_cap * sizeof(*cs->fold_pos));
		cs->fold_max = xrealloc(cs->fold_max, cs->tok_cap * sizeof(*cs->fold_max));
		cs->run_pos = xrealloc(cs->run_pos, cs->tok_cap * sizeof(*cs->run_pos));
		cs->run_end = xrealloc(cs->run_end, cs->tok_cap * sizeof(*cs->run_end));
	}
	if (cs->pos_cap < stride) {
		cs->pos_cap = stride;
		cs->ends = xrealloc(cs->ends, 3 * stride * sizeof(*cs->ends));
		cs->choice = xrealloc(cs->choice, stride * sizeof(*cs->choice));
		cs->span_ends = xrealloc(cs->span_ends, 2 * (stride / 64 + 1) * sizeof(*cs->span_ends));
		cs->head = xrealloc(cs->head, stride * sizeof(*cs->head));
	}
	cs->best = cs->ends;
	cs->tail = cs->best + stride;
	cs->fin = cs->tail + stride;
	/* a closed format ("...\n") ends the line */
	for (q = 0; q < stride; q++)
		cs->fin[q] = q == n ? 0 : SCORE_NONE;
	cs->work = CHAIN_WORK_MAX;
}

/* Point row r at format f and its share of the tables. */
static void row_init(struct cover_search *cs, struct cover_row *r, const struct fmt *f,
		     uint32_t fmt, size_t *vals, size_t *toks)
{
	r->f = f;
	r->fmt = fmt;
	r->v = cs->vals + *vals;
	r->fold_pos = cs->fold_pos + *toks;
	r->fold_max = cs->fold_max + *toks;
	r->run_pos = cs->run_pos + *toks;
	r->run_end = cs->run_end + *toks;
	*vals += (f->ntok ? f->ntok - 1 : 0) * cs->stride;
	*toks += f->ntok;
	r->end = f->open_end ? cs->best : cs->fin;
	r->ngrp = 0;
	r->into_only = false;
	r->coherent = r->near = 0;
}

/* Before a sweep over row r: no values yet, nothing folded. */
static void row_reset(struct cover_search *cs, struct cover_row *r)
{
	uint32_t t;

	if (r->f->ntok > 1)
		memset(r->v, SCORE_FILL, (r->f->ntok - 1) * cs->stride * sizeof(*r->v));
	for (t = 0; t < r->f->ntok; t++) {
		r->fold_pos[t] = cs->n + 1;
		r->fold_max[t] = SCORE_NONE;
		r->run_pos[t] = SIZE_MAX;
	}
}

/* This line's group of global file id f, new ones added when add;
 * UINT32_MAX when not there. */
static uint32_t group_of(struct cover_search *cs, uint32_t f, bool add)
{
	if (cs->grp_stamp[f] == cs->line_stamp)
		return cs->grp_local[f];
	if (!add)
		return UINT32_MAX;
	cs->grp_stamp[f] = cs->line_stamp;
	cs->grp_local[f] = cs->ngrp;
	return cs->ngrp++;
}

/* The files of the candidate rows' entries, as this line's groups, and
 * each row's (files_init() listed each format's). */
static void cover_groups(struct cover_search *cs, size_t nrows)
{
	size_t i, nids = 0, used = 0;
	uint32_t j;

	cs->line_stamp++;
	cs->ngrp = 0;
	for (i = 0; i < nrows; i++)
		nids += cs->fmt_file_start[cs->rows[i].fmt + 1] - cs->fmt_file_start[cs->rows[i].fmt];
	if (cs->row_grp_cap < nids + 1) {
		cs->row_grp_cap = nids + 1;
		cs->row_grp = xrealloc(cs->row_grp, cs->row_grp_cap * sizeof(*cs->row_grp));
	}
	for (i = 0; i < nrows; i++) {
		struct cover_row *r = &cs->rows[i];

		r->grp = cs->row_grp + used;
		r->ngrp = 0;
		for (j = cs->fmt_file_start[r->fmt]; j < cs->fmt_file_start[r->fmt + 1]; j++)
			r->grp[r->ngrp++] = group_of(cs, cs->fmt_files[j], true);
		used += r->ngrp;
		/* a closed piece ends the line: it is coherent with the piece
		 * before it (follow_value() of that one), never with one after */
		r->into_only = !r->f->open_end;
	}
	if (cs->top_cap < (size_t)cs->ngrp * cs->stride) {
		cs->top_cap = (size_t)cs->ngrp * cs->stride;
		cs->top = xrealloc(cs->top, cs->top_cap * sizeof(*cs->top));
		cs->top_row = xrealloc(cs->top_row, cs->top_cap * sizeof(*cs->top_row));
	}
}

/* Has one of continuation format k's entries the file numbered f? */
static bool fmt_in_file(struct cover_search *cs, uint32_t k, uint32_t f)
{
	uint32_t j;

	for (j = cs->fmt_file_start[k]; j < cs->fmt_file_start[k + 1]; j++)
		if (cs->fmt_files[j] == f)
			return true;
	return false;
}

/* The continuation formats that can print a piece of msg[lo..n): the
 * bytes each of their renderings contains are in it (row_visits() then
 * drops those with a literal that does not occur); with only, those from
 * only's file and module. Sizes the tables. */
static size_t cover_rows(struct cover_search *cs, const char *msg, size_t n, size_t lo,
			 const struct fmt *base, const struct pi_entry *only)
{
	uint64_t have[4];
	size_t nrows = 0, tokens = 0, vals = 0, toks = 0;
	uint32_t k, ntok = base ? base->ntok : 0;
	uint32_t only_file = only ? cs->file_of[only - cs->all->idx->v] : 0;
	int i;

	fmt_bytes(msg + lo, n - lo, have);
	for (k = 0; k < cs->cont->nfmt; k++) {
		const struct fmt *f = &cs->cont->fmts[k];

		for (i = 0; i < 4 && !(f->need[i] & ~have[i]); i++)
			;
		if (i < 4 || f->min_len > n - lo || !f->ntok || (only && !fmt_in_file(cs, k, only_file)))
			continue;
		cs->cand[nrows++] = k;
		tokens += f->ntok;
		if (f->ntok > ntok)
			ntok = f->ntok;
	}
	cover_start(cs, nrows + 1, tokens + ntok, ntok, n);
	for (i = 0; (size_t)i < nrows; i++) {
		struct cover_row *r = &cs->rows[i];

		row_init(cs, r, &cs->cont->fmts[cs->cand[i]], cs->cand[i], &vals, &toks);
		r->weight = cs->cont_weight[r->fmt];
		r->coherent = (int64_t)r->f->lit_nonspace * SCORE_COHERENT;
	}
	if (base)
		row_init(cs, &cs->rows[nrows], base, 0, &vals, &toks);
	cover_groups(cs, nrows);
	return nrows;
}

static bool has_literal(const struct fmt *f)
{
	uint32_t t;

	for (t = 0; t < f->ntok; t++)
		if (f->tok[t].kind == TK_LIT)
			return true;
	return false;
}

/* Do the literals of f say where a piece comes from? Not those of a short
 * piece made of literals only ("." ", " " ==> "): free text is full of
 * them. */
static bool says_where(const struct fmt *f)
{
	uint32_t t;

	if (!f->generic)
		return true;
	for (t = 0; t < f->ntok; t++)
		if (f->tok[t].kind != TK_LIT)
			return true;
	return false;
}

/* The rows' nearness to base (NULL: none), the only part of their scores
 * that depends on it; true when it changed since the last call. */
static bool cover_near(struct cover_search *cs, size_t nrows, const struct pi_entry *base)
{
	bool changed = false;
	size_t i;

	for (i = 0; i < nrows; i++) {
		struct cover_row *r = &cs->rows[i];
		/* a piece without a literal ("%*s") can take any part of any
		 * text: its bytes would reward cutting */
		int64_t near = has_literal(r->f) && near_base(cs, r->fmt, base) ? SCORE_NEAR : 0;

		changed |= near != r->near;
		r->near = near;
	}
	return changed;
}

/* Add a visit of row i at offset p. */
static void visit_at(struct cover_search *cs, size_t i, size_t p)
{
	if (cs->nvisits == cs->visits_cap) {
		cs->visits_cap = 2 * cs->visits_cap + 256;
		cs->visit_row = xrealloc(cs->visit_row, cs->visits_cap * sizeof(*cs->visit_row));
		cs->visit_next = xrealloc(cs->visit_next, cs->visits_cap * sizeof(*cs->visit_next));
	}
	cs->visit_row[cs->nvisits] = i;
	cs->visit_next[cs->nvisits] = (int32_t)p;
	cs->nvisits++;
}

/*
 * The offsets in [lo, n) where row i has a token that can start, added to
 * the visits once each: a literal where it occurs, a token after a literal
 * where that literal ends, a first conversion where a byte of its class
 * is. A first token that can start anywhere (%s) sets first_anywhere (the
 * sweep tries it alone at the other offsets); a later one, dense. A row
 * with a literal that does not occur is dead: it can not print a piece.
 */
static void row_visits(struct cover_search *cs, size_t i, const char *msg, size_t n,
		       size_t lo)
{
	struct cover_row *r = &cs->rows[i];
	const struct fmt *f = r->f;
	const struct fmt_tok *tk;
	const char *s, *end = msg + n, *lit;
	uint64_t *at = cs->span_ends, x;	/* free until the sweep */
	size_t p, w, nw = n / 64 + 1;
	uint32_t t;

	r->dense = r->first_anywhere = r->dead = false;
	r->seen_at = SIZE_MAX;
	memset(at, 0, nw * sizeof(*at));
	for (t = 0; t < f->ntok; t++) {
		tk = &f->tok[t];
		if (tk->kind == TK_LIT) {
			lit = f->lit + tk->lit_off;
			r->dead = true;
			for (s = msg + lo; (s = memmem(s, end - s, lit, tk->lit_len)); s++) {
				/* the literal, and the token after it */
				p = (size_t)(s - msg);
				at[p / 64] |= 1ULL << (p % 64);
				if (t + 1 < f->ntok)
					p += tk->lit_len, at[p / 64] |= 1ULL << (p % 64);
				r->dead = false;
			}
			if (r->dead)
				return;
		} else if (t && tk[-1].kind == TK_LIT) {
			continue;	/* with its literal */
		} else if (t == 0 && !tk->cls_all && tk->min) {
			for (p = lo; p < n; p++)
				if (cls_has(tk->cls, (unsigned char)msg[p]))
					at[p / 64] |= 1ULL << (p % 64);
		} else if (t == 0) {
			r->first_anywhere = true;
		} else {
			r->dense = true;
			return;
		}
	}
	for (w = 0; w < nw; w++)
		for (x = at[w]; x; x &= x - 1)
			visit_at(cs, i, w * 64 + __builtin_ctzll(x));
}

/* Row i's piece from p, of value v before its own score: the best so far
 * at p (ties go to the lowest row, as in format order), and the best of
 * each of its files after a piece of that file (follow_value()). */
static void consider(struct cover_search *cs, const struct cover_row *r, uint32_t i,
		     int64_t v, size_t p, int64_t *best, uint32_t *choice)
{
	uint32_t g;

	if (v == SCORE_NONE)
		return;
	v += r->weight - (int64_t)p * r->near;
	if (v > *best || (v == *best && i < *choice)) {
		*best = v;
		*choice = i;
	}
	/* after a piece of one of its files, it scores its literals again */
	if (!r->coherent)
		return;
	v += r->coherent;
	for (g = 0; g < r->ngrp; g++) {
		size_t at = (size_t)r->grp[g] * cs->stride + p;

		if (v > cs->top[at] || (v == cs->top[at] && i < cs->top_row[at])) {
			cs->top[at] = v;
			cs->top_row[at] = i;
		}
	}
}

/* Fill best[lo..n] (and choice[]) from the candidate rows. */
static void sweep(struct cover_search *cs, size_t nrows, const char *msg, size_t n, size_t lo)
{
	size_t p, i, ndense = 0, nfirst = 0, v_i;
	uint32_t *dense = cs->cand;	/* reused: rows tried everywhere... */
	uint32_t *first = cs->cand + nrows;	/* ...and rows whose first token is */
	int32_t *next;

	/* the visits by offset, as lists: head[p], then visit_next[] */
	cs->nvisits = 0;
	for (i = 0; i < nrows; i++) {
		row_visits(cs, i, msg, n, lo);
		if (cs->rows[i].dead)
			continue;
		row_reset(cs, &cs->rows[i]);
		if (cs->rows[i].dense)
			dense[ndense++] = i;
		else if (cs->rows[i].first_anywhere)
			first[nfirst++] = i;
	}
	for (p = 0; p <= n; p++)
		cs->head[p] = -1;
	memset(cs->top, SCORE_FILL, (size_t)cs->ngrp * cs->stride * sizeof(*cs->top));
	memset(cs->top_row, 0xff, (size_t)cs->ngrp * cs->stride * sizeof(*cs->top_row));
	next = cs->visit_next;
	for (v_i = cs->nvisits; v_i-- > 0;) {
		p = (size_t)next[v_i];
		next[v_i] = cs->head[p];
		cs->head[p] = (int32_t)v_i;
	}
	cs->best[n + 1] = SCORE_NONE;
	for (p = n + 1; p-- > lo && cs->work;) {
		int64_t best = p == n ? 0 : SCORE_NONE;
		uint32_t choice = UINT32_MAX;
		int32_t e;

		for (e = cs->head[p]; e >= 0; e = next[e]) {
			struct cover_row *r = &cs->rows[cs->visit_row[e]];

			consider(cs, r, cs->visit_row[e], row_step(cs, r, msg, p), p, &best, &choice);
			r->seen_at = p;
		}
		for (i = 0; i < ndense; i++)
			consider(cs, &cs->rows[dense[i]], dense[i],
				 row_step(cs, &cs->rows[dense[i]], msg, p), p, &best, &choice);
		/* no later token can start here: the first one alone, with
		 * nothing after it at p */
		for (i = 0; i < nfirst; i++) {
			struct cover_row *r = &cs->rows[first[i]];

			if (r->seen_at != p)
				consider(cs, r, first[i], token_at(cs, r, 0, msg, p, SCORE_NONE, true),
					 p, &best, &choice);
		}
		cs->best[p] = best;
		cs->choice[p] = choice;
		for (e = cs->head[p]; e >= 0; e = next[e])
			row_finish(cs, &cs->rows[cs->visit_row[e]], msg, p);
		for (i = 0; i < ndense; i++)
			row_finish(cs, &cs->rows[dense[i]], msg, p);
	}
}

/* The value of base row i at offset 0: coverings by the base and then
 * pieces, the base not taking the whole line. Its tokens are tried where
 * they can start (row_visits()), its first one at 0 only. */
static int64_t base_value(struct cover_search *cs, size_t i, const struct pi_entry *base,
			  const char *msg, size_t n, size_t lo)
{
	struct cover_row *r = &cs->rows[i];
	size_t p, v_i;
	int64_t v;

	for (p = 0; p <= n + 1; p++)
		cs->tail[p] = p >= lo && p < n ? cs->best[p] : SCORE_NONE;
	r->end = cs->tail;
	/* the pieces of its own file after it score their coherent bytes */
	r->into_only = false;
	r->coherent = r->near = 0;
	cs->base_grp = group_of(cs, cs->file_of[base - cs->all->idx->v], false);
	r->grp = &cs->base_grp;
	r->ngrp = cs->base_grp != UINT32_MAX;
	row_reset(cs, r);
	cs->nvisits = 0;
	row_visits(cs, i, msg, n, 0);
	if (r->dense) {
		for (p = n + 1; p-- > 1;) {
			row_step(cs, r, msg, p);
			row_finish(cs, r, msg, p);
		}
	} else {
		for (v_i = cs->nvisits; v_i-- > 0;) {
			if (!(p = (size_t)cs->visit_next[v_i]))
				continue;
			row_step(cs, r, msg, p);
			row_finish(cs, r, msg, p);
		}
	}
	v = row_step(cs, r, msg, 0);
	return v == SCORE_NONE ? v : v + r->weight;
}

/* The pieces of the best covering of msg[pos..n), appended to out. */
static bool collect(struct cover_search *cs, const struct cover_row *prev, size_t pos,
		    size_t n, const char *msg, struct chain *out)
{
	size_t end;

	while (pos < n) {
		uint32_t next = prev ? next_row(cs, prev, pos) : cs->choice[pos];
		struct cover_row *r;

		if (next == UINT32_MAX || out->n == CHAIN_MAX)
			return false;
		r = &cs->rows[next];
		end = piece_end(cs, r, msg, pos);
		if (end <= pos || end > n)
			return false;
		/* of a format several files print, the one of the piece before */
		out->p[out->n].e = pick_piece(cs->cont, r->fmt, out->n ? out->p[out->n - 1].e : NULL);
		out->p[out->n].fmt = r->fmt;
		out->p[out->n].off = pos;
		out->p[out->n].len = end - pos;
		out->lit_bytes += r->f->lit_bytes;
		out->n++;
		pos = end;
		prev = r;
	}
	return true;
}

/* Is hit h of the full matcher an open-ended format, generic or not, a
 * base? */
static bool base_hit(const struct matcher *all, uint32_t h, bool generic)
{
	const struct fmt *f = &all->fmts[all->hits[h]];

	return all->hit_kind[h] == FMT_PREFIX && f->generic == generic && f->open_end;
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

/*
 * The entry of generic format k that can be a base: "  %-8s " prints
 * nothing that says where it comes from, but free_area_init() follows it
 * with "[mem %#018Lx-%#018Lx]\n" or "empty\n", pieces from its own file.
 * So an entry (level fitting) is a base only when its file has a specific
 * continuation format whose literals all occur in the line; the covering
 * must then use such a piece (chain_from_bases()). generic_bases_init()
 * listed, per format, the entries whose file has any.
 */
static const struct pi_entry *generic_base(struct cover_search *cs, uint32_t k,
					   int level, const char *msg, size_t n)
{
	uint32_t g, j;

	for (g = cs->gen_start[k]; g < cs->gen_start[k + 1]; g++) {
		const struct gen_base *gb = &cs->gen[g];

		if (!matcher_level_ok(gb->e, level))
			continue;
		for (j = cs->spec_start[gb->file]; j < cs->spec_start[gb->file + 1]; j++)
			if (literals_in(&cs->cont->fmts[cs->spec_fmts[j]], msg, n))
				return gb->e;
	}
	return NULL;
}

/* Does the covering have a specific piece from the base's file? */
static bool near_specific(struct cover_search *cs, const struct chain *ch)
{
	size_t i;

	for (i = 1; i < ch->n; i++)
		if (!strcmp(ch->p[i].e->file, ch->p[0].e->file) &&
		    !strcmp(ch->p[i].e->module, ch->p[0].e->module) &&
		    !cs->cont->fmts[ch->p[i].fmt].generic)
			return true;
	return false;
}

/* Do a and b share file, module and function, all that the rows' scores
 * depend on (cover_near())? */
static bool same_place(const struct pi_entry *a, const struct pi_entry *b)
{
	return !strcmp(a->func, b->func) && !strcmp(a->file, b->file) &&
	       !strcmp(a->module, b->module);
}

/*
 * The base search, on the hits cs->all has from matching this very message
 * (msg[0..n), n already cut at the newline): attribute_message() has them
 * already, so the full matcher does not run twice. The rows' scores
 * depend on the base's function (near_base()), so the sweep runs again
 * for a base from another function than the last one. generic: the bases are the
 * generic formats (see generic_base()), else the specific ones.
 */
static bool chain_from_bases(struct cover_search *cs, const char *msg, size_t n,
			     int level, bool generic, struct chain *out)
{
	struct matcher *all = cs->all;
	const struct pi_entry *base, *swept = NULL, *best_base = NULL;
	int64_t best = SCORE_NONE, v;
	uint32_t h, best_fmt = 0, ntok = 0;
	size_t lo = n, nrows = 0, others = 0, end;
	uint32_t count;
	struct cover_row *r = NULL;

	for (h = 0; h < all->nhits; h++)
		if (base_hit(all, h, generic)) {
			const struct fmt *f = &all->fmts[all->hits[h]];

			if (f->min_len < lo)
				lo = f->min_len ? f->min_len : 1;
			if (f->ntok > ntok)
				ntok = f->ntok;
		}
	if (lo >= n || n > CHAIN_LINE_MAX)
		return false;
	/* the largest base's tables stand in for every base's */
	cs->base_fmt.ntok = ntok;
	cs->base_fmt.open_end = true;
	if (!generic) {
		nrows = cover_rows(cs, msg, n, lo, &cs->base_fmt, NULL);
		r = &cs->rows[nrows];
	}
	for (h = 0; h < all->nhits; h++) {
		uint32_t k = all->hits[h];
		const struct fmt *f = &all->fmts[k];

		if (!base_hit(all, h, generic))
			continue;
		count = 1;
		base = generic ? generic_base(cs, k, level, msg, n) : matcher_pick_entry(all, k, level, &count);
		if (!base)
			continue;
		/* a generic base says nothing of where it comes from: only
		 * its own file's continuations may follow it */
		if (generic && (!swept || !same_place(swept, base))) {
			nrows = cover_rows(cs, msg, n, lo, &cs->base_fmt, base);
			r = &cs->rows[nrows];
			swept = NULL;
		}
		/* the scores depend on the base only through its function:
		 * the tables of the last sweep serve when they do not change */
		if (cover_near(cs, nrows, base) || !swept)
			sweep(cs, nrows, msg, n, lo);
		swept = base;
		r->f = f;
		r->fmt = k;
		r->weight = score_of(says_where(f) ? f->lit_nonspace : 0, fmt_width(f), 1);
		v = base_value(cs, nrows, base, msg, n, lo);
		if (v == SCORE_NONE)
			continue;
		others += count;
		if (v > best) {
			best = v;
			best_base = base;
			best_fmt = k;
		}
	}
	if (!best_base || !cs->work)
		return false;
	/* the tables hold the last base file's coverings: redo the best one's */
	if (!same_place(swept, best_base)) {
		if (generic) {
			nrows = cover_rows(cs, msg, n, lo, &cs->base_fmt, best_base);
			r = &cs->rows[nrows];
		}
		if (cover_near(cs, nrows, best_base) || generic)
			sweep(cs, nrows, msg, n, lo);
	}
	r->f = &all->fmts[best_fmt];
	r->fmt = best_fmt;
	base_value(cs, nrows, best_base, msg, n, lo);
	end = piece_end(cs, r, msg, 0);
	out->p[0].e = best_base;
	out->p[0].off = 0;
	out->p[0].len = end;
	out->n = 1;
	out->others = others - 1;
	out->lit_bytes = r->f->lit_bytes;
	if (!cs->work || end == 0 || end >= n || !collect(cs, r, end, n, msg, out) || !cs->work ||
	    (generic && !near_specific(cs, out))) {
		memset(out, 0, sizeof(*out));
		return false;
	}
	return true;
}

/* Specific bases first; generic ones only when none has a covering. */
bool cover_after_base(struct cover_search *cs, const char *msg, size_t n, int level,
		      struct chain *out)
{
	return chain_from_bases(cs, msg, n, level, false, out) ||
	       (cs->ngen && chain_from_bases(cs, msg, n, level, true, out));
}

struct cover_search *cover_new(struct matcher *all, const struct matcher *cont)
{
	struct cover_search *cs = xcalloc(1, sizeof(*cs));
	uint32_t k;

	cs->all = all;
	cs->cont = cont;
	cs->cont_weight = xcalloc(cont->nfmt + 1, sizeof(*cs->cont_weight));
	for (k = 0; k < cont->nfmt; k++) {
		const struct fmt *f = &cont->fmts[k];

		cs->cont_weight[k] = score_of(says_where(f) ? f->lit_nonspace : 0, fmt_width(f), 1);
	}
	cs->cand = xcalloc(2 * (cont->nfmt + 1), sizeof(*cs->cand));
	files_init(cs, all->idx);
	generic_bases_init(cs);
	return cs;
}

void cover_free(struct cover_search *cs)
{
	free(cs->cont_weight);
	free(cs->cand);
	free(cs->file_of);
	free(cs->grp_stamp);
	free(cs->grp_local);
	free(cs->fmt_file_start);
	free(cs->fmt_files);
	free(cs->row_grp);
	free(cs->top);
	free(cs->top_row);
	free(cs->spec_start);
	free(cs->spec_fmts);
	free(cs->gen);
	free(cs->gen_start);
	free(cs->rows);
	free(cs->vals);
	free(cs->ends);
	free(cs->choice);
	free(cs->at_p);
	free(cs->fold_pos);
	free(cs->fold_max);
	free(cs->run_pos);
	free(cs->run_end);
	free(cs->span_ends);
	free(cs->head);
	free(cs->visit_row);
	free(cs->visit_next);
	free(cs);
}

bool cover_pieces(struct cover_search *cs, const char *msg, size_t n, struct chain *out)
{
	size_t nrows;

	if (n > CHAIN_LINE_MAX)
		return false;
	nrows = cover_rows(cs, msg, n, 0, NULL, NULL);
	cover_near(cs, nrows, NULL);
	sweep(cs, nrows, msg, n, 0);
	/* a sweep stopped by the work bound leaves best[] unfinished */
	if (!cs->work || cs->best[0] == SCORE_NONE || !collect(cs, NULL, 0, n, msg, out) ||
	    !cs->work) {
		memset(out, 0, sizeof(*out));
		return false;
	}
	return true;
}
