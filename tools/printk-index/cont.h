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
#include "cover.h"
#include "matcher.h"


struct chain_matcher {
	struct matcher *all;		/* borrowed, built over the index */
	struct pi_index cont_idx;	/* copies of the KERN_CONT entries */
	/* the continuation formats, deduplicated, with their entries: the
	 * search reads them but never runs this matcher (cover.c) */
	struct matcher cont;
	/* the KERN_CONT search's own data: numbered files, candidate
	 * tables, the current line's tables (cover.c) */
	struct cover_search *search;
	char *blank;			/* a line with a blank added */
	size_t blank_cap;
	/* copies of the entries whose format ends in a blank (before its
	 * newline), and their matcher: see stripped_blank() */
	struct pi_index blank_idx;
	struct matcher blank_m;
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
