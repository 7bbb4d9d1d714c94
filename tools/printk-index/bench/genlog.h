/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmark's generated log, shared by bench.c and bench_peers.c so
 * that both time the same lines: nlines dmesg lines rendered from the
 * index's formats with sample arguments, one in ten an unrelated line.
 */
#ifndef PI_BENCH_GENLOG_H
#define PI_BENCH_GENLOG_H

#include <stddef.h>

#include "../index.h"
#include "../util.h"

/*
 * Appends the lines to text, each ended by '\n'; off (nlines + 1 slots)
 * gets where each starts and, last, the end; src (nlines slots) the entry
 * that rendered the line, or SIZE_MAX for an unrelated one.
 */
void genlog(const struct pi_index *idx, size_t nlines, struct sbuf *text, size_t *off,
	    size_t *src);

#endif
