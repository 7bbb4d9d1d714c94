/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the KERN_CONT search's files share and nothing else uses:
 * cover.c (candidates, the sweep, bases, the API), cover_row.c (a
 * candidate row's values over a line) and cover_files.c (the index's
 * files numbered, the generic bases).
 */
#ifndef PI_COVER_IMPL_H
#define PI_COVER_IMPL_H

#include <stdint.h>
#include <string.h>

#include "cover.h"

/*
 * The work of a line's search, at most (README, "The bound"), in units of
 * about the same time (12 to 18 instructions, fitted by callgrind on real,
 * made-up and pathological lines): a token worked out at a visit counts
 * CHAIN_WORK_TOKEN, a conversion span tried CHAIN_WORK_SPAN, an offset
 * folded into a maximum CHAIN_WORK_FOLD, a step of a %p model's NFA 4
 * (each pass of it CHAIN_WORK_TOKEN more, and 1 for each 64 bytes of its
 * sets); 8 bytes validated and 64 bytes of a table cleared count 1. The
 * offset sets worked out before the sweep (cover_visit.c: 64 bytes of a
 * set, a run, a group of ends, a visit added) cost about three times as
 * much a unit: they count CHAIN_WORK_SETS times. Real lines use a part
 * of it (README); a line that needs more gets no covering rather than
 * more time.
 */
#define CHAIN_WORK_MAX (80UL * 1024)
#define CHAIN_WORK_TOKEN 8
#define CHAIN_WORK_SPAN 3
#define CHAIN_WORK_FOLD 5
#define CHAIN_WORK_SETS 3

/* distinct conversion classes of a line whose offsets are kept */
#define CLS_SLOTS 64

struct gen_base {
	const struct pi_entry *e;
	uint32_t file;			/* its number (file_of[]) */
};

/* The search's own data: cover_new() makes it. */
struct cover_search {
	struct matcher *all;		/* borrowed: its hits give the bases */
	const struct matcher *cont;	/* borrowed: the continuation formats */
	int64_t *cont_weight;		/* per cont format: a piece's own score */
	int64_t *cont_coherent;		/* ...and its score more after its file */
	/* the tables of the current line, grown as needed */
	size_t n, stride;		/* the line's length; n + 2 */
	uint32_t *cand;			/* the candidate formats */
	struct cover_row *rows;		/* one per candidate, and the base */
	size_t rows_cap;
	uint32_t *span_rows, nspan;	/* the live span rows (sweep()) */
	int64_t *vals;			/* the rows' per-offset values */
	size_t vals_cap;
	int64_t *ends;			/* the three arrays below */
	int64_t *best;			/* per offset: best covering of the rest */
	int64_t *tail;			/* the same, after a base */
	int64_t *fin;			/* after a closed piece: the end only */
	int64_t *sufmax;		/* per offset: the best[] maximum from
					 * it on, as the sweep goes down */
	uint32_t *choice;		/* per offset: the row of its first piece */
	int32_t *head;			/* per offset: its first visit */
	size_t pos_cap;
	uint32_t *visit_row;		/* visits: (row, next visit) */
	int32_t *visit_next;
	size_t nvisits, visits_cap;
	int64_t *at_p;			/* piece_end()'s values at the start */
	size_t *fold_pos;		/* per row token, see cover_row.c */
	int64_t *fold_max;
	const uint64_t **tok_cls;
	size_t tok_cap;
	uint64_t *span_ends;		/* model_ends(): ends, then starts */
	uint32_t *nonblank;		/* per offset: the first byte at or
					 * after it that is no blank, or n */
	uint32_t *lastnb;		/* per offset: 1 + the last byte
					 * before it that is no blank, or 0 */
	uint64_t *bytepos;		/* per byte value of the line: its
					 * offsets, as a set of nw words */
	uint64_t bytes_seen[4];		/* the byte values of the line */
	size_t bytepos_cap;
	/* the line's offsets of each conversion class asked for, as sets
	 * (cls_bits, per slot; class_offsets()), slots of this line's
	 * cls_stamp; the last slot is a spare, for a full table */
	struct cls_slot {
		uint64_t cls[4];
		uint32_t stamp;
	} cls_slot[CLS_SLOTS + 1];
	uint64_t *cls_bits;
	uint32_t cls_stamp;
	uint64_t *sets;			/* row_visits()'s offset sets */
	size_t sets_cap;
	struct fmt base_fmt;		/* sizes the base's row */
	/* each file (and module) of the index numbered once: per entry of
	 * the index, and per continuation format its files (cover_files.c) */
	uint32_t *file_of, nfiles;
	uint32_t *fmt_file_start, *fmt_files;
	uint32_t *ent_file;		/* per cont->ents[] entry: its file's
					 * number, UINT32_MAX if none */
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
	/* the entries of generic formats that can be a base: their file
	 * has a specific continuation format (cover_files.c) */
	struct gen_base *gen;		/* per generic format of all, from */
	uint32_t *gen_start, ngen;	/* gen[gen_start[k]] */
	/* the continuation formats by one byte each needs, the one the
	 * index's literals have least (key_fmts from key_start[c]; c = 256:
	 * those that need none; cover_cands_init()), and those of each
	 * file, ascending (file_fmts from file_fmt_start[file]) */
	uint32_t *key_start, *key_fmts;
	uint32_t *file_fmt_start, *file_fmts;
	uint64_t *cand_mark;		/* a bit per continuation format */
	/* this line's facts (nonblank[], lastnb[], bytepos, fin[]) are
	 * there; have[] holds the bytes of msg[have_lo..n) */
	bool line_ready;
	bool bytes_ready;		/* bytes_seen holds the line's bytes */
	size_t have_lo;
	uint64_t have[4];
	/* per file, file_literals_in()'s answer for line lits_line */
	uint32_t *lits_stamp, lits_line;
	bool *lits_ok;
	unsigned long work;		/* bytes left to validate on this line */
	/* the base whose row's tables base_try() filled last, and the work
	 * it counted for them */
	const struct pi_entry *last_base;
	unsigned long last_base_work;
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
 *     sd_spinup_disk()'s "." print the same text; not of a closed piece
 *     whose literals do not say where (")\n" ends lines of every kind);
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

static inline int64_t score_of(uint32_t lit, uint32_t width, uint32_t npieces)
{
	return ((int64_t)lit << SCORE_LIT_SHIFT) - ((int64_t)width << 11) - (int64_t)npieces;
}

/* No covering: below every score one can have (whose parts are bounded,
 * above), and one byte repeated, so that memset() fills tables with it. */
#define SCORE_FILL 0x80

#define SCORE_NONE ((int64_t)0x8080808080808080ULL)

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
 * and be read, which the line's literal facts bound before the sweep
 * (row_visits(): a literal where it occurs, a conversion where a span of
 * its class bytes reaches what can follow it, each token where what comes
 * before it can end); the values are SCORE_NONE everywhere else. The work
 * is bounded by the visits x the row's tokens, plus the validated spans.
 */
struct cover_row {
	const struct fmt *f;
	uint32_t fmt;		/* in cs->cont, or in cs->all for a base */
	bool dead;		/* it can print no piece of the line */
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
	/* per token: the line's offsets of its class, once looked up (see
	 * span_limit()) */
	const uint64_t **cls;
};

void cover_files_init(struct cover_search *cs, const struct pi_index *idx);
void cover_generic_bases_init(struct cover_search *cs);
void cover_cands_init(struct cover_search *cs);
uint32_t cover_near_base(struct cover_search *cs, uint32_t k,
			 const struct pi_entry *base);
const struct pi_entry *cover_pick_piece(const struct matcher *m, uint32_t k,
					const struct pi_entry *prev);
uint32_t cover_next_row(struct cover_search *cs, const struct cover_row *r, size_t q);
int64_t cover_token_value(struct cover_search *cs, struct cover_row *r, uint32_t t,
			  const char *msg, size_t p, int64_t here, bool fold);
int64_t cover_row_step(struct cover_search *cs, struct cover_row *r, const char *msg,
		       size_t p);
/* Can row r's piece end with tokens that print nothing, which
 * cover_row_finish() then works out? Most end with one that prints
 * something: asked before the call. */
static inline bool row_may_finish(const struct cover_row *r)
{
	return r->f->ntok >= 2 && !r->f->rest_min[r->f->ntok - 1];
}

void cover_row_finish(struct cover_search *cs, struct cover_row *r, const char *msg,
		      size_t p);
size_t cover_piece_end(struct cover_search *cs, struct cover_row *r, const char *msg,
		       size_t p);
void cover_start(struct cover_search *cs, size_t nrows, size_t tokens,
		 uint32_t ntok, size_t n);
void cover_row_init(struct cover_search *cs, struct cover_row *r, const struct fmt *f,
		    uint32_t fmt, size_t *vals, size_t *toks);
void cover_row_reset(struct cover_search *cs, struct cover_row *r, size_t lo);

/* Count w units of work; the search stops once they are all spent. */
static inline void cover_charge(struct cover_search *cs, unsigned long w)
{
	cs->work = cs->work > w ? cs->work - w : 0;
}

/* Can token t start at p? A literal only where its first byte is, any
 * token after a literal only where that literal ends: nothing reads the
 * values elsewhere, and most (row, token, offset) triples stop here. */
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

/* The value of token t of row r at p, for any token: most (row, token,
 * offset) triples stop at the first test, so it is inlined in the loops. */
static inline int64_t token_at(struct cover_search *cs, struct cover_row *r, uint32_t t,
			       const char *msg, size_t p, int64_t here, bool fold)
{
	if (!token_may_start(r->f, t, msg, cs->n, p))
		return SCORE_NONE;
	return cover_token_value(cs, r, t, msg, p, here, fold);
}

/* Does the token print every span of at least tk->min bytes? */
static inline bool any_span(const struct fmt_tok *tk)
{
	return tk->cls_all && tk->max == FMT_INF &&
	       (tk->kind == TK_WILD || (tk->kind == TK_STR && tk->prec < 0));
}

/* ---- where rows are visited (cover_visit.c) ---- */

/* The offsets of the line whose byte is in conversion tk's class, as a
 * set of n / 64 + 1 words (the bits from n on clear); NULL for a class of
 * every byte. Kept for the line, unless the table of classes is full:
 * then valid until the next call (cover_class_kept()). */
const uint64_t *cover_class_offsets(struct cover_search *cs, const struct fmt_tok *tk);

static inline bool cover_class_kept(const struct cover_search *cs, const uint64_t *C)
{
	return C != cs->cls_bits + CLS_SLOTS * (cs->n / 64 + 1);
}

/* The first offset in [a, b) not in C (cover_class_offsets(); NULL:
 * none), or b; b <= n, whose bit is clear, ends the search. */
static inline size_t cover_class_end(const uint64_t *C, size_t a, size_t b)
{
	size_t w = a / 64;
	uint64_t x;

	if (!C || a >= b)
		return b;
	for (x = ~C[w] & (~0ULL << (a % 64)); !x; x = ~C[++w])
		;
	return w * 64 + __builtin_ctzll(x) < b ? w * 64 + __builtin_ctzll(x) : b;
}

/* A visit that tries the row's first token alone (visit_row[]'s flag). */
#define VISIT_FIRST 0x80000000u

/* The offsets of each byte value of msg[0..n), as sets (cs->bytepos);
 * cs->bytes_seen holds its bytes already. */
void cover_line_bytes(struct cover_search *cs, const char *msg, size_t n);

/* The offsets at which row i is visited on msg[lo..n) (a base at 0
 * only), added to the sweep's visit lists. */
void cover_row_visits(struct cover_search *cs, size_t i, size_t n, size_t lo, bool base);

/* A span row: one token that prints every span ("%s", "%*s\n"). */
static inline bool span_row(const struct fmt *f)
{
	return f->ntok == 1 && any_span(&f->tok[0]);
}

/* The same for span row i, which the sweep tries at every offset of
 * [lo, n - min] without visit lists. */
void cover_span_row_visits(struct cover_search *cs, size_t i, size_t n, size_t lo);

#endif
