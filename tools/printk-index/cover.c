// SPDX-License-Identifier: GPL-2.0
/*
 * The search for a covering of a line by a base and KERN_CONT pieces:
 * candidate formats, one backward sweep over the line's offsets, the
 * ranking of coverings and the walk back to the pieces (cover.h).  A
 * row's values are cover_row.c's, the numbered files cover_files.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "cover_impl.h"

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

/* The files of the live candidate rows' entries, as this line's groups,
 * and each row's (cover_files_init() listed each format's): cs->top has a
 * row per group, which the sweep fills. Only a live row with literals
 * writes one (consider()): a file without such a row has no group, as
 * its row would be SCORE_NONE throughout, and a row or base of that file
 * reads none. */
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
		cs->row_grp = xreallocarray(cs->row_grp, cs->row_grp_cap, sizeof(*cs->row_grp));
	}
	/* a group only live rows with literals write (consider()) */
	for (i = 0; i < nrows; i++) {
		struct cover_row *r = &cs->rows[i];

		for (j = cs->fmt_file_start[r->fmt]; !r->dead && r->coherent &&
						     j < cs->fmt_file_start[r->fmt + 1]; j++)
			group_of(cs, cs->fmt_files[j], true);
	}
	/* read by the live rows of its file (follow_value()) */
	for (i = 0; i < nrows; i++) {
		struct cover_row *r = &cs->rows[i];
		uint32_t g;

		r->grp = cs->row_grp + used;
		r->ngrp = 0;
		for (j = cs->fmt_file_start[r->fmt]; !r->dead && j < cs->fmt_file_start[r->fmt + 1]; j++)
			if ((g = group_of(cs, cs->fmt_files[j], false)) != UINT32_MAX)
				r->grp[r->ngrp++] = g;
		used += r->ngrp;
		/* a closed piece ends the line: it is coherent with the piece
		 * before it (follow_value() of that one), never with one after */
		r->into_only = !r->f->open_end;
	}
	if (cs->top_cap < (size_t)cs->ngrp * cs->stride) {
		cs->top_cap = (size_t)cs->ngrp * cs->stride;
		cs->top = xreallocarray(cs->top, cs->top_cap, sizeof(*cs->top));
		cs->top_row = xreallocarray(cs->top_row, cs->top_cap, sizeof(*cs->top_row));
	}
}

/* Can format f print a piece of a text of len bytes whose bytes are have? */
static bool cand_fits(const struct fmt *f, const uint64_t have[4], size_t len)
{
	return !(f->need[0] & ~have[0]) && !(f->need[1] & ~have[1]) &&
	       !(f->need[2] & ~have[2]) && !(f->need[3] & ~have[3]) &&
	       f->min_len <= len && f->ntok;
}

/* Mark the formats listed under byte c (cover_cands_init()). */
static void mark_key(struct cover_search *cs, uint32_t c)
{
	uint32_t j, k;

	for (j = cs->key_start[c]; j < cs->key_start[c + 1]; j++) {
		k = cs->key_fmts[j];
		cs->cand_mark[k / 64] |= 1ULL << (k % 64);
	}
}

/* The continuation formats that can print a piece of msg[lo..n), whose
 * bytes are cs->have, in cs->cand, ascending: those listed under one of
 * its bytes (cover_cands_init()), the bytes each of their renderings
 * contains in it; with only, those of only's file and module. */
static size_t cover_cands(struct cover_search *cs, size_t len, const struct pi_entry *only)
{
	const struct fmt *fmts = cs->cont->fmts;
	size_t nrows = 0, w, nw = cs->cont->nfmt / 64 + 1;
	uint32_t c, j, k, file;
	uint64_t x;

	if (only) {
		file = cs->file_of[only - cs->all->idx->v];
		for (j = cs->file_fmt_start[file]; j < cs->file_fmt_start[file + 1]; j++)
			if (cand_fits(&fmts[k = cs->file_fmts[j]], cs->have, len))
				cs->cand[nrows++] = k;
		return nrows;
	}
	/* the lists of the line's bytes, and of the formats that need none */
	for (c = 0; c < 4; c++)
		for (x = cs->have[c]; x; x &= x - 1)
			mark_key(cs, c * 64 + __builtin_ctzll(x));
	mark_key(cs, 256);
	for (w = 0; w < nw; w++) {
		for (x = cs->cand_mark[w]; x; x &= x - 1) {
			k = w * 64 + __builtin_ctzll(x);
			if (cand_fits(&fmts[k], cs->have, len))
				cs->cand[nrows++] = k;
		}
		cs->cand_mark[w] = 0;
	}
	return nrows;
}

/* The line's bytes (cs->bytes_seen), once a line: the rows' facts and
 * the generic bases' literals both ask. */
static void line_bytes(struct cover_search *cs, const char *msg, size_t n)
{
	if (!cs->bytes_ready) {
		fmt_bytes(msg, n, cs->bytes_seen);
		cs->bytes_ready = true;
	}
}

/* What the rows of a line share, once a line: its bytes' offsets
 * (cover_line_bytes()), its blanks, and what a closed piece may be
 * followed by, the end of the line. After cover_start(). */
static void cover_line_facts(struct cover_search *cs, const char *msg, size_t n)
{
	size_t k;

	line_bytes(cs, msg, n);
	cover_line_bytes(cs, msg, n);
	cs->nonblank[n] = n;
	for (k = n; k-- > 0;)
		cs->nonblank[k] = msg[k] == ' ' ? cs->nonblank[k + 1] : k;
	cs->lastnb[0] = 0;
	for (k = 0; k < n; k++)
		cs->lastnb[k + 1] = msg[k] == ' ' ? cs->lastnb[k] : k + 1;
	/* a closed format ("...\n") ends the line */
	for (k = 0; k < cs->stride; k++)
		cs->fin[k] = k == n ? 0 : SCORE_NONE;
	cs->line_ready = true;
}

/* The rows of the continuation formats that can print a piece of
 * msg[lo..n) (cover_cands(); row_visits() then drops those with a
 * literal that does not occur), and base's after them. Sizes the tables. */
static size_t cover_rows(struct cover_search *cs, const char *msg, size_t n, size_t lo,
			 const struct fmt *base, const struct pi_entry *only)
{
	size_t nrows, tokens = 0, vals = 0, toks = 0, i;
	uint32_t ntok = base ? base->ntok : 0;

	if (cs->have_lo != lo) {
		fmt_bytes(msg + lo, n - lo, cs->have);
		cs->have_lo = lo;
	}
	nrows = cover_cands(cs, n - lo, only);
	for (i = 0; i < nrows; i++) {
		const struct fmt *f = &cs->cont->fmts[cs->cand[i]];

		tokens += f->ntok;
		if (f->ntok > ntok)
			ntok = f->ntok;
	}
	cover_start(cs, nrows + 1, tokens + ntok, ntok, n);
	if (!cs->line_ready)
		cover_line_facts(cs, msg, n);
	for (i = 0; i < nrows; i++) {
		struct cover_row *r = &cs->rows[i];

		cover_row_init(cs, r, &cs->cont->fmts[cs->cand[i]], cs->cand[i], &vals, &toks);
		r->weight = cs->cont_weight[r->fmt];
		r->coherent = cs->cont_coherent[r->fmt];
	}
	if (base)
		cover_row_init(cs, &cs->rows[nrows], base, 0, &vals, &toks);
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
		int64_t near = has_literal(r->f) && cover_near_base(cs, r->fmt, base) ? SCORE_NEAR : 0;

		changed |= near != r->near;
		r->near = near;
	}
	return changed;
}

/* Row i's piece from p, of value v before its own score: the best so far
 * at p (ties go to the lowest row, as in format order), and the best of
 * each of its files after a piece of that file (follow_value()). */
static inline void consider(struct cover_search *cs, const struct cover_row *r, uint32_t i,
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

/* The value at p of span row r (cover_span_row_visits()), as token_at()
 * gives it: read from the sweep's running maximum, or the end of the
 * line, when any covering may follow the piece at the same score. */
static int64_t span_row_value(struct cover_search *cs, struct cover_row *r,
			      const char *msg, size_t p)
{
	size_t q = p + (r->f->tok[0].min ? r->f->tok[0].min : 1);

	if (!r->near && (r->into_only || !r->ngrp)) {
		if (r->end == cs->best)
			return q <= cs->n ? cs->sufmax[q] : SCORE_NONE;
		if (r->end == cs->fin)
			return q <= cs->n ? 0 : SCORE_NONE;
	}
	return cover_token_value(cs, r, 0, msg, p, SCORE_NONE, true);
}

/* The live span rows at offset p, as their visits would be. */
static void span_rows_at(struct cover_search *cs, const char *msg, size_t p,
			 int64_t *best, uint32_t *choice)
{
	uint32_t j, k;

	for (j = 0; j < cs->nspan; j++) {
		struct cover_row *r = &cs->rows[k = cs->span_rows[j]];

		if (p + r->f->tok[0].min > cs->n)
			continue;
		cover_charge(cs, CHAIN_WORK_TOKEN);
		consider(cs, r, k, span_row_value(cs, r, msg, p), p, best, choice);
	}
}

/* Fill best[lo..n] (and choice[]) from the candidate rows. */
static void sweep(struct cover_search *cs, size_t nrows, const char *msg, size_t n, size_t lo)
{
	size_t p, i, v_i;
	int32_t *next;

	/* the visits by offset, as lists: head[p], then visit_next[] */
	cs->nvisits = 0;
	cs->nspan = 0;
	for (i = 0; i < nrows; i++) {
		/* a spent work bound stops the sets too: no sweep follows */
		if (!cs->work) {
			cs->rows[i].dead = true;
			continue;
		}
		/* "%s" and the like start everywhere: no sets, no lists */
		if (span_row(cs->rows[i].f)) {
			cover_span_row_visits(cs, i, n, lo);
			if (!cs->rows[i].dead)
				cs->span_rows[cs->nspan++] = i;
		} else {
			cover_row_visits(cs, i, n, lo, false);
		}
		if (!cs->rows[i].dead)
			cover_row_reset(cs, &cs->rows[i], lo);
	}
	cover_groups(cs, nrows);
	for (p = 0; p <= n; p++)
		cs->head[p] = -1;
	cover_charge(cs, (size_t)cs->ngrp * cs->stride / 4);
	if (cs->ngrp) {		/* cs->top may not exist yet without one */
		memset(cs->top, SCORE_FILL, (size_t)cs->ngrp * cs->stride * sizeof(*cs->top));
		memset(cs->top_row, 0xff, (size_t)cs->ngrp * cs->stride * sizeof(*cs->top_row));
	}
	next = cs->visit_next;
	for (v_i = cs->nvisits; v_i-- > 0;) {
		p = (size_t)next[v_i];
		next[v_i] = cs->head[p];
		cs->head[p] = (int32_t)v_i;
	}
	cs->best[n + 1] = cs->sufmax[n + 1] = SCORE_NONE;
	for (p = n + 1; p-- > lo && cs->work;) {
		int64_t best = p == n ? 0 : SCORE_NONE;
		uint32_t choice = UINT32_MAX;
		int32_t e;

		for (e = cs->head[p]; e >= 0; e = next[e]) {
			uint32_t k = cs->visit_row[e] & ~VISIT_FIRST;
			struct cover_row *r = &cs->rows[k];

			cover_charge(cs, CHAIN_WORK_TOKEN * (cs->visit_row[e] & VISIT_FIRST ? 1 : r->f->ntok));

			/* VISIT_FIRST: no later token can start here, the
			 * first one alone, with nothing after it at p */
			consider(cs, r, k,
				 cs->visit_row[e] & VISIT_FIRST ?
				 token_at(cs, r, 0, msg, p, SCORE_NONE, true) :
				 cover_row_step(cs, r, msg, p), p, &best, &choice);
		}
		span_rows_at(cs, msg, p, &best, &choice);
		cs->best[p] = best;
		cs->choice[p] = choice;
		cs->sufmax[p] = best > cs->sufmax[p + 1] ? best : cs->sufmax[p + 1];
		for (e = cs->head[p]; e >= 0; e = next[e])
			if (!(cs->visit_row[e] & VISIT_FIRST) &&
			    row_may_finish(&cs->rows[cs->visit_row[e]]))
				cover_row_finish(cs, &cs->rows[cs->visit_row[e]], msg, p);
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
	cover_row_reset(cs, r, 0);
	cs->nvisits = 0;
	cover_row_visits(cs, i, n, lo, true);
	if (r->dead)
		return SCORE_NONE;
	/* its first token at 0 only, below */
	for (v_i = cs->nvisits; v_i-- > 0;) {
		if (!cs->work)
			return SCORE_NONE;	/* its search stops there */
		if (!(p = (size_t)cs->visit_next[v_i]) || cs->visit_row[v_i] & VISIT_FIRST)
			continue;
		cover_charge(cs, CHAIN_WORK_TOKEN * r->f->ntok);
		cover_row_step(cs, r, msg, p);
		if (row_may_finish(r))
			cover_row_finish(cs, r, msg, p);
	}
	v = cover_row_step(cs, r, msg, 0);
	return v == SCORE_NONE ? v : v + r->weight;
}

/* base_value() of base, an entry of format k of cs->all, in row i: it
 * remembers the base and the work counted, for chain_from_bases() to
 * count it again rather than do it again when the tables still hold it. */
static int64_t base_try(struct cover_search *cs, size_t i, const struct pi_entry *base,
			uint32_t k, const char *msg, size_t n, size_t lo)
{
	struct cover_row *r = &cs->rows[i];
	unsigned long before = cs->work;
	int64_t v;

	r->f = &cs->all->fmts[k];
	r->fmt = k;
	r->weight = score_of(says_where(r->f) ? r->f->lit_nonspace : 0, fmt_width(r->f), 1);
	v = base_value(cs, i, base, msg, n, lo);
	cs->last_base = base;
	cs->last_base_work = before - cs->work;
	return v;
}

/* The pieces of the best covering of msg[pos..n), appended to out. */
static bool collect(struct cover_search *cs, const struct cover_row *prev, size_t pos,
		    size_t n, const char *msg, struct chain *out)
{
	size_t end;

	while (pos < n) {
		uint32_t next = prev ? cover_next_row(cs, prev, pos) : cs->choice[pos];
		struct cover_row *r;

		if (next == UINT32_MAX || out->n == CHAIN_MAX)
			return false;
		r = &cs->rows[next];
		end = cover_piece_end(cs, r, msg, pos);
		if (end <= pos || end > n)
			return false;
		/* of a format several files print, the one of the piece before */
		out->p[out->n].e = cover_pick_piece(cs->cont, r->fmt, out->n ? out->p[out->n - 1].e : NULL);
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

/* Does every literal of f occur in msg[0..n), whose bytes are have? */
static bool literals_in(const struct fmt *f, const uint64_t have[4], const char *msg, size_t n)
{
	uint32_t t;

	for (t = 0; t < 4; t++)
		if (f->need[t] & ~have[t])
			return false;
	for (t = 0; t < f->ntok; t++)
		if (f->tok[t].kind == TK_LIT &&
		    !mem_find(msg, n, f->lit + f->tok[t].lit_off, f->tok[t].lit_len))
			return false;
	return true;
}

/* Has the file a specific continuation format whose literals all occur
 * in msg[0..n)? Asked once a line per file: the generic bases of a line
 * (every entry of "%s", " %s"...) share a few hundred files. */
static bool file_literals_in(struct cover_search *cs, uint32_t file, const char *msg, size_t n)
{
	uint32_t j;

	if (cs->lits_stamp[file] == cs->lits_line)
		return cs->lits_ok[file];
	cs->lits_stamp[file] = cs->lits_line;
	line_bytes(cs, msg, n);
	for (j = cs->file_fmt_start[file]; j < cs->file_fmt_start[file + 1]; j++) {
		const struct fmt *f = &cs->cont->fmts[cs->file_fmts[j]];

		if (!f->generic && literals_in(f, cs->bytes_seen, msg, n))
			return cs->lits_ok[file] = true;
	}
	return cs->lits_ok[file] = false;
}

/*
 * The entry of generic format k that can be a base: "  %-8s " prints
 * nothing that says where it comes from, but free_area_init() follows it
 * with "[mem %#018Lx-%#018Lx]\n" or "empty\n", pieces from its own file.
 * So an entry (level fitting) is a base only when its file has a specific
 * continuation format whose literals all occur in the line; the covering
 * must then use such a piece (chain_from_bases()). cover_generic_bases_init()
 * listed, per format, the entries whose file has any.
 */
static const struct pi_entry *generic_base(struct cover_search *cs, uint32_t k,
					   int level, const char *msg, size_t n)
{
	uint32_t g;

	for (g = cs->gen_start[k]; g < cs->gen_start[k + 1]; g++) {
		const struct gen_base *gb = &cs->gen[g];

		if (matcher_level_ok(gb->e, level) && file_literals_in(cs, gb->file, msg, n))
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
 * depend on the base's function (cover_near_base()), so the sweep runs again
 * for a base from another function than the last one. generic: the bases are the
 * generic formats (see generic_base()), else the specific ones.
 */
/* The bases' shortest rendering (where a continuation can start, at
 * least 1), or n when none; *ntok their most tokens. */
static size_t bases_bounds(const struct matcher *all, bool generic, size_t n, uint32_t *ntok)
{
	size_t lo = n;
	uint32_t h;

	for (h = 0; h < all->nhits; h++)
		if (base_hit(all, h, generic)) {
			const struct fmt *f = &all->fmts[all->hits[h]];

			if (f->min_len < lo)
				lo = f->min_len ? f->min_len : 1;
			if (f->ntok > *ntok)
				*ntok = f->ntok;
		}
	return lo;
}

/* The covering's first piece: the base's, end bytes; others, the
 * candidates that had one, itself included. */
static void first_piece(struct chain *out, const struct pi_entry *base, const struct fmt *f,
			size_t end, size_t others)
{
	out->p[0].e = base;
	out->p[0].off = 0;
	out->p[0].len = end;
	out->n = 1;
	out->others = others - 1;
	out->lit_bytes = f->lit_bytes;
}

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

	cs->last_base = NULL;
	lo = bases_bounds(all, generic, n, &ntok);
	if (lo >= n || n > CHAIN_LINE_MAX || !cs->work)
		return false;
	/* the largest base's tables stand in for every base's */
	cs->base_fmt.ntok = ntok;
	cs->base_fmt.open_end = true;
	if (!generic) {
		nrows = cover_rows(cs, msg, n, lo, &cs->base_fmt, NULL);
		r = &cs->rows[nrows];
	}
	/* a spent bound gives no covering (below): nothing more to try */
	for (h = 0; h < all->nhits && cs->work; h++) {
		uint32_t k = all->hits[h];

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
		v = base_try(cs, nrows, base, k, msg, n, lo);
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
	/* the best base tried last left its tables: the same work again */
	if (cs->last_base == best_base && same_place(swept, best_base))
		cover_charge(cs, cs->last_base_work);
	else
		base_try(cs, nrows, best_base, best_fmt, msg, n, lo);
	end = cover_piece_end(cs, r, msg, 0);
	first_piece(out, best_base, r->f, end, others);
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
	cs->work = CHAIN_WORK_MAX;	/* for the line, whatever the bases */
	cs->line_ready = false;
	cs->bytes_ready = false;
	cs->have_lo = SIZE_MAX;
	if (++cs->lits_line == 0) {	/* wrapped: forget old stamps */
		memset(cs->lits_stamp, 0, (cs->nfiles + 1) * sizeof(*cs->lits_stamp));
		cs->lits_line = 1;
	}
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
	cs->cont_coherent = xcalloc(cont->nfmt + 1, sizeof(*cs->cont_coherent));
	for (k = 0; k < cont->nfmt; k++) {
		const struct fmt *f = &cont->fmts[k];

		cs->cont_weight[k] = score_of(says_where(f) ? f->lit_nonspace : 0, fmt_width(f), 1);
		/* punctuation that closes a line (")\n") ends lines of every
		 * kind: after a piece of its file, it proves nothing */
		cs->cont_coherent[k] = says_where(f) || f->open_end ?
				       (int64_t)f->lit_nonspace * SCORE_COHERENT : 0;
	}
	cs->cand = xcalloc(2 * (cont->nfmt + 1), sizeof(*cs->cand));
	cover_files_init(cs, all->idx);
	cover_generic_bases_init(cs);
	cover_cands_init(cs);
	return cs;
}

void cover_free(struct cover_search *cs)
{
	free(cs->cont_weight);
	free(cs->cont_coherent);
	free(cs->cand);
	free(cs->file_of);
	free(cs->grp_stamp);
	free(cs->grp_local);
	free(cs->fmt_file_start);
	free(cs->fmt_files);
	free(cs->ent_file);
	free(cs->row_grp);
	free(cs->top);
	free(cs->top_row);
	free(cs->lits_stamp);
	free(cs->lits_ok);
	free(cs->gen);
	free(cs->gen_start);
	free(cs->key_start);
	free(cs->key_fmts);
	free(cs->file_fmt_start);
	free(cs->file_fmts);
	free(cs->cand_mark);
	free(cs->rows);
	free(cs->span_rows);
	free(cs->vals);
	free(cs->ends);
	free(cs->choice);
	free(cs->at_p);
	free(cs->fold_pos);
	free(cs->fold_max);
	free(cs->tok_cls);
	free(cs->span_ends);
	free(cs->sets);
	free(cs->bytepos);
	free(cs->cls_bits);
	free(cs->nonblank);
	free(cs->lastnb);
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
	cs->work = CHAIN_WORK_MAX;
	cs->line_ready = false;
	cs->bytes_ready = false;
	cs->have_lo = SIZE_MAX;
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
