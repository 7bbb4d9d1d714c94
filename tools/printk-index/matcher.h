/* SPDX-License-Identifier: GPL-2.0 */
/*
 * All formats of an index compiled into one matcher.
 *
 * Identical formats are compiled once. Each distinct format is anchored by
 * one 4-byte piece ("gram") of its literal text, the piece that is rarest
 * across all formats, together with the range of offsets at which it can
 * appear in a message. For a log line the matcher slides over its 4-byte
 * windows, looks each up (a 128 Kbit filter in front of a hash table) and
 * runs the exact match (fmt.h's position-set matcher, fmt_match_line())
 * only on formats whose anchor is present at a possible offset. Formats with no 4-byte literal run
 * ("%s\n", "%s: %d\n") are tried on every line that starts with a byte
 * they can print; there are few of them.
 *
 * Generic formats (FMT_GENERIC_LITERALS) are tried only when no specific
 * format matches: "%s" matches every line, so counting it in "others"
 * would say nothing, and skipping them keeps the common case fast.
 */
#ifndef PI_MATCHER_H
#define PI_MATCHER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fmt.h"
#include "index.h"

#define GRAM 4
/* 2048 words: 16 KiB, half a level-1 data cache */
#define MATCHER_FILTER_WORD_BITS 11

/*
 * A format to try, with what decides most tries without touching the
 * format itself (a cache miss each): about half of the candidates lack
 * a byte their literal text needs.
 */
struct cand_ref {
	uint64_t need_sig;	/* fmt->need_sig */
	uint32_t fmt;
	bool generic;		/* fmt->generic */
	uint16_t blk_bytes;	/* of fmt->tok's block, to prefetch (> 0) */
};

struct posting {
	struct cand_ref c;
	uint32_t min_off, max_off;	/* where the gram can start */
	/* fmt->tok: a specific candidate's tokens and literals are
	 * loaded together with its struct fmt, not after it */
	const char *blk;
};

struct gram_slot {
	uint32_t gram;
	uint32_t start, count;	/* into postings; count 0 = empty slot */
};

struct matcher {
	const struct pi_index *idx;
	struct fmt *fmts;
	uint32_t nfmt;
	uint32_t *ent_start, *ent_count;	/* entries of each format... */
	uint32_t *ents;				/* ...listed here */
	/* a line without level: every entry of a format accepts it, so
	 * what it is reported on is worked out once, in one place */
	struct any_level {
		const struct pi_entry *pick;
		uint32_t count;
	} *any_level;
	uint64_t filter[1 << MATCHER_FILTER_WORD_BITS];
	struct gram_slot *slots;
	uint32_t slot_mask;
	struct posting *post;
	uint32_t *anchorless;
	uint32_t nanchorless;
	/* anchorless formats by the first byte they can print, specific
	 * ones and generic ones apart; [256] = all (for empty lines) */
	struct cand_ref *al_spec[257], *al_gen[257];
	uint32_t nal_spec[257], nal_gen[257];
	struct cand_ref *deferred;	/* generic anchored candidates of this line */
	uint32_t ndeferred;
	struct cand_ref *spec;	/* specific anchored candidates of this line */
	uint32_t nspec;
	uint32_t *stamp;	/* per anchored format: last line it was seen on */
	uint32_t cur;
	uint32_t *hits;		/* formats matched on the current line */
	uint8_t *hit_kind;	/* their enum fmt_result */
	uint32_t nhits;
	uint64_t tried;		/* statistics: exact matches attempted */
	/* only a specific answer is of use (cont.c: later lines of
	 * multi-line formats, lines with a blank added): generic formats,
	 * tried only when no specific one matches, are not tried at all */
	bool specific_only;
};

/* Does entry e accept a line of this level (-1: any)? */
bool matcher_level_ok(const struct pi_entry *e, int level);

/* The entry of format k a line of this level is attributed to (an exact
 * level before the default one), and how many entries accept the level. */
const struct pi_entry *matcher_pick_entry(const struct matcher *m, uint32_t k, int level,
					  uint32_t *cnt);

enum match_status {
	MATCH_NONE,		/* unattributed */
	MATCH_CATCH_ALL,	/* only catch-all formats match: unattributed */
	MATCH_GENERIC,		/* only generic formats match */
	MATCH_SPECIFIC,		/* attributed */
};

struct match_result {
	enum match_status status;
	const struct pi_entry *best;
	const struct fmt *best_fmt;
	bool prefix;		/* best matched a prefix only (KERN_CONT...) */
	/* entries that match, best included; of a generic line, the generic
	 * and specific ones (not the catch-alls, which match everything) */
	size_t nmatch;
};

void matcher_build(struct matcher *m, const struct pi_index *idx);
void matcher_free(struct matcher *m);

/*
 * level: the line's log level 0..7, or -1 if the line carries none.
 * An entry with level -1 (no KERN_<LEVEL>: the default level, a
 * boot-time setting) or a continuation without level accepts any level.
 */
void matcher_match(struct matcher *m, const char *msg, size_t n, int level,
		   struct match_result *r);

/*
 * The answer for the formats in m->hits[0..nhits) (kinds in m->hit_kind),
 * each with an entry of this level: matcher_match()'s last step, which
 * other searches for the same hits (bench/bench_peers.c) call to pick
 * the same entry.
 */
void matcher_rank(struct matcher *m, int level, struct match_result *r);

#endif
