// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer: the format model and matcher. Input: FORMAT '\0' MESSAGE.
 * Properties: no crash, bounded time, and the model's own sample
 * rendering of the format is accepted by it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "index.h"
#include "matcher.h"
#include "tests/testlib.h"

/*
 * printk keeps at most LOG_LINE_MAX - 1 bytes of a record's text (6.1:
 * 1024 - 32), so no longer line is ever matched; the matcher's work budget
 * is sized for real lines and may give up on a 65,535-column "%-*s".
 */
#define LOG_LINE_MAX 992

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	const char *nul = memchr(s, '\0', size);
	size_t flen = nul ? (size_t)(nul - s) : size;
	const char *msg = nul ? nul + 1 : "";
	size_t mlen = nul ? size - flen - 1 : 0;
	struct sbuf out = { 0 };
	struct fmt f;
	const char *nl;

	fmt_compile(&f, s, flen);
	{
		size_t n = (nl = memchr(msg, '\n', mlen)) ? (size_t)(nl - msg) : mlen;
		enum fmt_result a = fmt_match(&f, msg, n);

		/* the position-set matcher agrees with the backtracking one
		 * (short inputs: neither hits its step budget) */
		if (n <= 64 && flen <= 64 && a != fmt_match_backtrack(&f, msg, n)) {
			fprintf(stderr, "matchers disagree on '%.*s'\n", (int)n, msg);
			__builtin_trap();
		}
	}

	fmt_render(&f, &out, size);
	if (out.len && out.len < LOG_LINE_MAX && !memchr(out.p, '\n', out.len) &&
	    fmt_match(&f, out.p, out.len) == FMT_NOMATCH) {
		fprintf(stderr, "sample '%s' rejected\n", out.p);
		__builtin_trap();
	}
	sbuf_free(&out);
	fmt_free(&f);

	/* the whole-index matcher on a one-entry index */
	{
		struct pi_index idx;
		struct matcher m;
		struct match_result r;
		char *copy = malloc(flen + 1);

		memcpy(copy, s, flen);
		copy[flen] = '\0';
		pi_index_init(&idx);
		idx.v = calloc(1, sizeof(*idx.v));
		idx.n = idx.cap = 1;
		idx.v[0] = (struct pi_entry){ .module = "m", .level = -1, .file = "f.c",
					      .line = 1, .func = "fn", .fmt = copy, .fmt_len = flen };
		matcher_build(&m, &idx);
		matcher_match(&m, msg, mlen, (int)(size % 9) - 1, &r);
		matcher_free(&m);
		pi_index_free(&idx);
		free(copy);
	}
	return 0;
}
