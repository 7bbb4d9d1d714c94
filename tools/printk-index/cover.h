/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The search for KERN_CONT coverings (cover.c): the pieces of a line,
 * a base entry of the index and continuation pieces after it, or
 * continuation pieces alone.  cont.c builds what match reports on it.
 */
#ifndef PI_COVER_H
#define PI_COVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "index.h"
#include "matcher.h"

/*
 * Lines longer than a printk record can be are not searched: no record
 * printed them (LOG_LINE_MAX, 992 bytes, in 6.1's kernel/printk/printk.c;
 * PRINTKRB_RECORD_MAX, 1024, in 6.12's kernel/printk/internal.h).
 */
#define CHAIN_LINE_MAX 1024

/* pieces of a covering reported, the base included, at most */
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

struct cover_search;

/*
 * The search over all (its hits on a line give the bases) and cont (the
 * continuation formats, deduplicated, with their entries; the search
 * reads them but never runs that matcher), both borrowed: they must stay
 * built while the search is used.
 */
struct cover_search *cover_new(struct matcher *all, const struct matcher *cont);
void cover_free(struct cover_search *cs);

/*
 * The best covering of the line msg[0..n) (no newline) by a base among
 * the hits cs->all has from matching this very line, and continuation
 * pieces; false when there is none, or the search's work bound ran out.
 */
bool cover_after_base(struct cover_search *cs, const char *msg, size_t n, int level,
		      struct chain *out);

/* The same by continuation pieces alone. */
bool cover_pieces(struct cover_search *cs, const char *msg, size_t n, struct chain *out);

#endif
