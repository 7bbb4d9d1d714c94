/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The search for KERN_CONT coverings (cover.c), for cont.c; its tables
 * live in struct chain_matcher (cont.h).
 */
#ifndef PI_COVER_H
#define PI_COVER_H

#include <stdbool.h>
#include <stddef.h>

#include "cont.h"

/*
 * Lines longer than a printk record can be are not searched: no record
 * printed them (LOG_LINE_MAX, 992 bytes, in 6.1's kernel/printk/printk.c;
 * PRINTKRB_RECORD_MAX, 1024, in 6.12's kernel/printk/internal.h).
 */
#define CHAIN_LINE_MAX 1024

/* Its tables and the numbering of files, once c->cont is built. */
void cover_init(struct chain_matcher *c);
void cover_free(struct chain_matcher *c);

/*
 * The best covering of the line msg[0..n) (no newline) by a base among
 * the hits c->all has from matching this very line, and continuation
 * pieces; false when there is none, or the search's work bound ran out.
 */
bool cover_after_base(struct chain_matcher *c, const char *msg, size_t n, int level,
		      struct chain *out);

/* The same by continuation pieces alone. */
bool cover_pieces(struct chain_matcher *c, const char *msg, size_t n, struct chain *out);

#endif
