// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer: the rule regex parser and the check product. Input:
 * PATTERN '\0' FORMAT (the format optional). Properties: no crash, a
 * rejected pattern says where ("offset N: ..."), an accepted one compiles
 * or is reported too large; against the format the prefilters, alone and
 * through a one-format ck_set (the command's path), give the product's
 * verdict, the chunk-start bounds are at least the product's W, and a
 * match's witness is printed by the format (the match model accepts it
 * whole).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checker.h"
#include "fmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ck_search *s;
	const char *p = (const char *)data;
	const char *nul = memchr(p, '\0', size);
	size_t plen = nul ? (size_t)(nul - p) : size;
	const char *fs = nul ? nul + 1 : "%s: x %d\n";
	size_t flen = nul ? size - plen - 1 : strlen(fs);
	struct ck_rule r;
	struct pi_err err = { "" };
	struct ck_format cf;
	struct ck_result a, b, c;
	struct ck_set set;
	struct sbuf w = { 0 };
	struct fmt f;

	if (size > 512)
		return 0;	/* keeps runs short; the parser is linear */
	if (!s)
		s = ck_search_new();
	if (ck_rule_init(&r, p, plen, (enum rx_mode)(size % 3), &err)) {
		if (strncmp(err.msg, "offset ", 7))
			__builtin_trap();
		return 0;
	}
	fmt_compile(&f, fs, flen);
	ck_format_init(&cf, &f);
	ck_product(s, &r, &cf, &a, &w);
	ck_check(s, &r, &cf, &b, NULL);
	if (!a.budget && !b.budget && a.v != b.v)
		__builtin_trap();
	/* the command's path: pair index and packed summaries */
	ck_set_init(&set, &f, 1);
	ck_set_prepare(&set, &r);
	ck_check_set(s, &r, &set, 0, &c, NULL);
	if (!a.budget && !c.budget && a.v != c.v)
		__builtin_trap();
	ck_set_free(&set);
	/* the chunk-start bounds: cheap >= exact >= the best W */
	if (a.v != CK_NONE && !a.budget && ck_bound_starts(&r, &cf, true) < a.w)
		__builtin_trap();
	if (ck_bound_starts(&r, &cf, false) < ck_bound_starts(&r, &cf, true))
		__builtin_trap();
	if (a.v != CK_NONE && !a.budget &&
	    fmt_match(&f, w.p ? w.p : "", w.len) != FMT_FULL)
		__builtin_trap();
	sbuf_free(&w);
	ck_format_free(&cf);
	fmt_free(&f);
	ck_rule_free(&r);
	return 0;
}
