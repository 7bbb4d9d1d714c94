/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A compiled format (fmt.h) as one anchored regular expression, for the
 * benchmark's peers (bench_peers.c): the tool's own model of each
 * conversion (fmt_tok_pattern()), token by token, in the syntax PCRE2 and Hyperscan share (no
 * backreferences, no lookaround). Not part of printk-index itself.
 *
 * The expression works on bytes and writes '.' for "any byte but a
 * newline": compile it with PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY (no UTF),
 * or HS_FLAG_DOTALL | HS_FLAG_ALLOWEMPTY. Messages are one line: the
 * matcher cuts them at their first newline, so must the caller.
 */
#ifndef PI_BENCH_FMT_REGEX_H
#define PI_BENCH_FMT_REGEX_H

#include <stdbool.h>

#include "../fmt.h"
#include "../util.h"

/*
 * Appends the expression to out: "^...$" when full (fmt_match_line()'s
 * FMT_FULL), "^..." otherwise (a prefix: FMT_PREFIX, which only an
 * open_end format gives). Returns false, out unchanged, when a token can
 * print nothing at all, so that the format matches no line.
 */
bool fmt_to_regex(const struct fmt *f, bool full, struct sbuf *out);

/* The same for one conversion token (no anchors): for the self-check. */
bool fmt_tok_regex(const struct fmt_tok *t, struct sbuf *out);

/* The longest literal token of f (up to its first newline), or 0. */
size_t fmt_longest_literal(const struct fmt *f, const char **lit);

#endif
