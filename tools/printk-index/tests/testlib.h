/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Code only the tests, the fuzzers and the benchmarks use, kept out of the
 * installed binary (tests/fmt_backtrack.c, tests/fmt_render.c,
 * tests/rx_posix.c).
 */
#ifndef PI_TESTLIB_H
#define PI_TESTLIB_H

#include "../fmt.h"
#include "../rx.h"

/* A backtracking matcher with the same answers (bar its step budget),
 * written apart from fmt_match_line(): the reference the tests and the
 * fuzzer compare it with. */
enum fmt_result fmt_match_backtrack(const struct fmt *f, const char *msg, size_t n);

/* A plausible rendering with sample arguments (tests, benchmark). */
void fmt_render(const struct fmt *f, struct sbuf *out, uint64_t seed);

/* POSIX ERE of the format, for the benchmark's regexec baseline. */
void fmt_to_posix_ere(const struct fmt *f, struct sbuf *out);

/*
 * POSIX ERE (glibc regcomp, REG_EXTENDED) of the same language, for the
 * tests' cross-check. -1 when there is no faithful translation (NUL bytes).
 */
int rx_to_posix(const struct rx *re, struct sbuf *out);

#endif
