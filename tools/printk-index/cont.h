/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lines assembled from KERN_CONT pieces: pr_info("counting:") followed by
 * pr_cont(" %d", n) and pr_cont(" done\n") print "counting: 2 done", which
 * no single format prints (the base one only as a prefix).
 *
 * The search: the base piece is a format without a trailing newline
 * (fmt.open_end) that the full matcher finds as a prefix match, and the
 * rest of the line must be a sequence of continuation formats (entries
 * flagged KERN_CONT). One backward sweep over the line's offsets works out
 * the best covering of every suffix, format by format and token by token
 * (cover.c says how), visiting a format only where its tokens can start;
 * its work is bounded (CHAIN_WORK_MAX).
 *
 * Best: most telling literal bytes, then most literal bytes of pieces
 * after a piece of their own file, then most bytes of the base's function,
 * then the narrowest conversions (" %d" before " %s"), then the fewest
 * pieces (cover.c, score_of()). When several entries share a piece's
 * format, the one from the file of the piece before it wins, then its
 * module.
 */
#ifndef PI_CONT_H
#define PI_CONT_H

#include <stdbool.h>
#include <stddef.h>

#include "index.h"
#include "json_writer.h"
#include "matcher.h"

#define CHAIN_MAX 64

struct chain_piece {
	const struct pi_entry *e;
	uint32_t fmt;		/* a continuation piece's format (cover.c) */
	size_t off, len;	/* the piece's text in the message */
};

struct chain {
	size_t n;		/* pieces, the base first */
	struct chain_piece p[CHAIN_MAX];
	size_t others;		/* other entries that can be the base */
	uint32_t lit_bytes;	/* literal bytes of all pieces' formats */
};

struct cover_row;

struct gen_base {
	const struct pi_entry *e;
	uint32_t file;			/* its number (file_of[]) */
};

struct chain_matcher {
	struct matcher *all;		/* borrowed, built over the index */
	struct pi_index cont_idx;	/* copies of the KERN_CONT entries */
	/* the continuation formats, deduplicated, with their entries: the
	 * search reads them but never runs this matcher (cover.c) */
	struct matcher cont;
	int64_t *cont_weight;		/* per cont format: a piece's own score */
	/* the search's tables for the current line, grown as needed */
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
	char *blank;			/* a line with a blank added */
	size_t blank_cap;
	/* copies of the entries whose format ends in a blank (before its
	 * newline), and their matcher: see stripped_blank() */
	struct pi_index blank_idx;
	struct matcher blank_m;
	unsigned long work;		/* bytes left to validate on this line */
	/* the second and later lines of formats with embedded newlines,
	 * which a log shows as lines of their own (dmesg from the syslog
	 * buffer, journalctl), each with the entry it comes from */
	struct pi_index later_idx;
	const struct pi_entry **later_of;
	struct matcher later;
};

/* all must stay built (and its index alive) while c is used. */
void chain_init(struct chain_matcher *c, struct matcher *all);
void chain_free(struct chain_matcher *c);

/*
 * Split msg[0..n) (cut at its first newline) into a base piece and
 * continuation pieces; with cont_only, into continuation pieces only (a
 * record the kernel flagged as a continuation). level is the line's, or
 * -1. Returns true and fills out (at least two pieces, or one with
 * cont_only) when a covering exists.
 */
bool chain_match(struct chain_matcher *c, const char *msg, size_t n, int level,
		 bool cont_only, struct chain *out);



/*
 * What "match" and "match --follow" report for one message: the single
 * best format, or, when none prints the whole line (only a prefix, or
 * nothing specific), a covering by KERN_CONT pieces if there is one, or
 * else a later line of a multi-line format that prints the whole line, or
 * else a format that prints it whole with the trailing blank an editor
 * strips.
 */
struct attribution {
	struct match_result single;
	bool chained;
	struct chain chain;
};

void attribute_message(struct chain_matcher *c, const char *msg, size_t n,
		       int level, struct attribution *a);

/*
 * The class of a line: "attributed" (a specific format, or KERN_CONT
 * pieces), "generic" (only formats with a little literal text),
 * "catch-all" (only formats without literal text: unattributed, but with
 * candidates) or "unattributed".
 */
enum attr_class { CLASS_NONE, CLASS_CATCH_ALL, CLASS_GENERIC, CLASS_ATTRIBUTED };

enum attr_class attribution_class(const struct attribution *a);
const char *attr_class_name(enum attr_class c);

/* "pieces": [{"module", "level", "cont", "file", "line", "function",
 * "format", "text"}...], the base first; msg is the chained message. */
void chain_json(json_writer_t *w, const char *msg, const struct chain *ch);

#endif
