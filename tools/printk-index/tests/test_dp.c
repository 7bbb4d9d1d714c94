// SPDX-License-Identifier: GPL-2.0
/*
 * The position-set matcher (fmt_match) against the earlier backtracking
 * one (fmt_match_backtrack) on many format/message pairs: every sample
 * format with its own renderings, mutated renderings and the renderings
 * of other formats. Any difference is a bug in one of them.
 */
#include <stdlib.h>

#include "../fmt.h"
#include "../index.h"
#include "test.h"
#include "../source.h"
#include "testlib.h"

static size_t diffs, compared;

static void cmp1(const struct fmt *f, const char *fs, size_t flen, const char *msg, size_t n)
{
	const char *nl = memchr(msg, '\n', n);
	enum fmt_result a, b;

	if (nl)
		n = nl - msg;
	a = fmt_match(f, msg, n);
	b = fmt_match_backtrack(f, msg, n);
	compared++;
	if (a != b && diffs++ < 5)
		T_FAIL("\"%.*s\" on '%.*s': position sets say %d, backtracking %d",
		       (int)flen, fs, (int)n, msg, a, b);
}

static const char *const hand[][2] = {
	{ "%s %s%pBb", "a b c d e f+0x1/0x2 [mod] x" },
	{ "%s%llu-%llu", "abc12-34 5-6" },
	{ "%*c%pS\n", "    x do_one_initcall+0x45/0x210" },
	{ "%s%s%.8x: %s\n", "ab0000abcd: x: 00000001: y" },
	{ "%d %d %d\n", "1 2 3" },
	{ "%5d|%-5d|%05d\n", "   42|42   |00042" },
	{ "%*d:%.*s\n", "  -7:abc" },
	{ "%pM %pI4 %pe\n", "52:54:00:12:34:56 10.0.2.15 -ENOMEM" },
	{ "%pI6c/%d", "fe80::1/64 and more" },
	{ "%c%c%c%c\n", "abcd" },
	{ "x%sy%sz%s\n", "xyzyzyzz" },
	{ "%#x %#o %+d % d\n", "0x0 0 +5  7" },
	{ "%*c|%*c|%c\n", "   x|y   | |" },
	{ "%*c%*c\n", "  a b  " },
	{ "%s %ps", "a b c+0x1/0x2 [m 12ab] d" },
	{ "%s%s%p: %s\n", "x00000000c0ffee42: y: (____ptrval____): z" },
	{ "%s%.8x: %pS [%pM]", "ab0000000f: sym+0x1/0x2 [52:54:00:12:34:56] x" },
};

void test_dp(void)
{
	struct pi_index idx;
	struct pi_err err;
	struct sbuf out = { 0 }, mut = { 0 };
	struct fmt *fs;
	char **rend;
	size_t *rlen, i, j;

	for (i = 0; i < ARRAY_SIZE(hand); i++) {
		struct fmt f;
		size_t n = strlen(hand[i][1]), k;

		fmt_compile(&f, hand[i][0], strlen(hand[i][0]));
		for (k = 0; k <= n; k++) {	/* every prefix and suffix */
			cmp1(&f, hand[i][0], strlen(hand[i][0]), hand[i][1], k);
			cmp1(&f, hand[i][0], strlen(hand[i][0]), hand[i][1] + k, n - k);
		}
		fmt_free(&f);
	}

	pi_index_init(&idx);
	if (pi_load_source(&idx, t_sample, &err)) {
		T_MISSING(err.msg);
		return;
	}
	fs = calloc(idx.n, sizeof(*fs));
	rend = calloc(idx.n, sizeof(*rend));
	rlen = calloc(idx.n, sizeof(*rlen));
	for (i = 0; i < idx.n; i++) {
		fmt_compile(&fs[i], idx.v[i].fmt, idx.v[i].fmt_len);
		sbuf_reset(&out);
		fmt_render(&fs[i], &out, i * 7 + 1);
		rend[i] = malloc(out.len + 1);
		memcpy(rend[i], out.p ? out.p : "", out.len + 1);
		rlen[i] = out.len;
	}
	for (i = 0; i < idx.n; i++) {
		const char *fstr = idx.v[i].fmt;
		size_t flen = idx.v[i].fmt_len;
		uint64_t r = i * 0x9e3779b97f4a7c15ULL + 5;

		cmp1(&fs[i], fstr, flen, rend[i], rlen[i]);
		/* mutations: shorter, longer, one byte changed */
		if (rlen[i])
			cmp1(&fs[i], fstr, flen, rend[i], rlen[i] - 1);
		sbuf_reset(&mut);
		sbuf_add(&mut, rend[i], rlen[i]);
		sbuf_add(&mut, " 12 x", 5);
		cmp1(&fs[i], fstr, flen, mut.p, mut.len);
		for (j = 0; j < 4 && rlen[i]; j++) {
			static const char subst[] = "0 a-:9x";

			sbuf_reset(&mut);
			sbuf_add(&mut, rend[i], rlen[i]);
			r = r * 6364136223846793005ULL + 1442695040888963407ULL;
			mut.p[(r >> 33) % mut.len] = subst[(r >> 20) % (sizeof(subst) - 1)];
			cmp1(&fs[i], fstr, flen, mut.p, mut.len);
		}
		/* other formats' renderings, and ours against theirs */
		for (j = 0; j < 6; j++) {
			size_t o;

			r = r * 6364136223846793005ULL + 1442695040888963407ULL;
			o = (r >> 33) % idx.n;
			cmp1(&fs[i], fstr, flen, rend[o], rlen[o]);
		}
	}
	CHECK_INT(diffs, 0);
	CHECK(compared > 10 * idx.n);
	for (i = 0; i < idx.n; i++) {
		fmt_free(&fs[i]);
		free(rend[i]);
	}
	free(fs);
	free(rend);
	free(rlen);
	sbuf_free(&out);
	sbuf_free(&mut);
	pi_index_free(&idx);
}
