// SPDX-License-Identifier: GPL-2.0
/*
 * Throughput of "match" on a realistic index.
 *
 *   bench INDEX [LINES [NAIVE_SAMPLE [PASSES]]]
 *
 * Renders LINES log lines (default 1,000,000) in dmesg form from the
 * index's formats with sample arguments, one in ten an unrelated line, then
 * times log parsing + matching on one core, PASSES times (default 5): the
 * rate reported is the median pass's, as other jobs on a shared host slow
 * some passes down. The baseline is what one would
 * write first: every format translated to a POSIX ERE, regexec() of each
 * line against all of them, timed on NAIVE_SAMPLE lines (default 2,000).
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "../fmt.h"
#include "../index.h"
#include "../logline.h"
#include "../matcher.h"
#include "../source.h"
#include "genlog.h"
#include "../tests/testlib.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* CPU time of this process (user + sys): on a shared machine the wall
 * clock also counts the time other jobs hold the core. The process has
 * one thread, so this is the time of one core. */
static double cpu_now(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* FNV-1a step: a digest of every answer, to compare matcher versions */
static uint64_t digest(uint64_t h, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++, v >>= 8) {
		h ^= v & 0xff;
		h *= 1099511628211ULL;
	}
	return h;
}

struct pass {
	double wall, cpu;	/* seconds */
};

static int cmp_pass_cpu(const void *a, const void *b)
{
	const struct pass *x = a, *y = b;

	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/*
 * One pass of the matcher: parse and classify every line, keeping each
 * answer. What the bench does with the answers (a digest, and whether the
 * best entry is the one that rendered the line: two strings read from
 * anywhere in the index) is its own work, done after the clock.
 */
static struct pass match_pass(struct matcher *m, const char *text, const size_t *off,
			      size_t nlines, struct match_result *res,
			      struct sbuf *scratch)
{
	double t0 = now(), c0 = cpu_now();
	size_t i;

	for (i = 0; i < nlines; i++) {
		struct log_line ll;

		log_parse(text + off[i], off[i + 1] - off[i] - 1, &ll, scratch);
		matcher_match(m, ll.msg, ll.len, ll.level, &res[i]);
	}
	return (struct pass){ .wall = now() - t0, .cpu = cpu_now() - c0 };
}

int main(int argc, char **argv)
{
	struct pi_index idx;
	struct pi_err err;
	struct matcher m;
	struct sbuf text = { 0 }, one = { 0 }, scratch = { 0 };
	size_t nlines = 1000000, nsample = 2000, npass = 5, i, *off, *src;
	size_t attributed = 0, generic = 0, none = 0, self = 0, rendered = 0;
	uint64_t sink = 0, answers = 1469598103934665603ULL;
	double t0, t_match, c_match, t_naive, rate, crate, nrate;
	struct match_result *res;
	struct pass *pass;
	regex_t *re;
	size_t nre = 0, bad_re = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s INDEX [LINES [NAIVE_SAMPLE [PASSES]]]\n", argv[0]);
		return 2;
	}
	if (argc > 2)
		nlines = strtoul(argv[2], NULL, 0);
	if (argc > 3)
		nsample = strtoul(argv[3], NULL, 0);
	if (argc > 4)
		npass = strtoul(argv[4], NULL, 0);
	if (!npass)
		npass = 1;
	pi_index_init(&idx);
	if (pi_load_source(&idx, argv[1], &err)) {
		fprintf(stderr, "bench: %s\n", err.msg);
		return 2;
	}
	t0 = now();
	matcher_build(&m, &idx);
	printf("index: %zu entries, %u distinct formats, %u without anchor, built in %.1f ms\n",
	       idx.n, m.nfmt, m.nanchorless, (now() - t0) * 1e3);

	/* generate the log in memory */
	off = calloc(nlines + 1, sizeof(*off));
	src = calloc(nlines, sizeof(*src));
	genlog(&idx, nlines, &text, off, src);
	printf("log: %zu lines, %.1f MB\n", nlines, text.len / 1e6);

	res = calloc(nlines, sizeof(*res));
	pass = calloc(npass, sizeof(*pass));
	for (i = 0; i < npass; i++)
		pass[i] = match_pass(&m, text.p, off, nlines, res, &scratch);
	qsort(pass, npass, sizeof(*pass), cmp_pass_cpu);
	t_match = pass[npass / 2].wall;
	c_match = pass[npass / 2].cpu;
	for (i = 0; i < nlines; i++) {
		const struct match_result *r = &res[i];

		sink += r->nmatch;
		answers = digest(answers, r->status);
		answers = digest(answers, r->best ? (uint64_t)(r->best - idx.v) : UINT64_MAX);
		answers = digest(answers, r->prefix);
		answers = digest(answers, r->nmatch);
		if (r->status == MATCH_SPECIFIC)
			attributed++;
		else if (r->status == MATCH_GENERIC)
			generic++;
		else
			none++;
		if (src[i] != SIZE_MAX) {
			rendered++;
			if (r->best && r->best->fmt_len == idx.v[src[i]].fmt_len &&
			    !memcmp(r->best->fmt, idx.v[src[i]].fmt, r->best->fmt_len))
				self++;
		}
	}
	rate = nlines / t_match;
	crate = nlines / c_match;
	printf("passes: %zu, CPU lines/s of each, fastest first:", npass);
	for (i = 0; i < npass; i++)
		printf(" %.0f", nlines / pass[i].cpu);
	printf("\n");
	printf("matcher: %.3f s wall, %.0f lines/s; %.3f s CPU (user+sys, one thread), %.0f lines/s (%.2f exact tries/line; the median pass); %zu attributed, %zu generic-only, %zu unattributed\n",
	       t_match, rate, c_match, crate, (double)m.tried / nlines / npass,
	       attributed, generic, none);
	printf("answers: digest %016llx\n", (unsigned long long)answers);
	printf("quality: best entry has the rendering format for %.2f%% of %zu rendered lines\n",
	       100.0 * self / (rendered ? rendered : 1), rendered);

	/* naive baseline: regexec over every format */
	re = calloc(idx.n, sizeof(*re));
	for (i = 0; i < idx.n; i++) {
		struct fmt f;

		sbuf_reset(&one);
		fmt_compile(&f, idx.v[i].fmt, idx.v[i].fmt_len);
		fmt_to_posix_ere(&f, &one);
		fmt_free(&f);
		if (regcomp(&re[nre], one.p, REG_EXTENDED | REG_NOSUB))
			bad_re++;
		else
			nre++;
	}
	if (nsample > nlines)
		nsample = nlines;
	t0 = now();
	for (i = 0; i < nsample; i++) {
		struct log_line ll;
		size_t k, hits = 0;
		char *msg;

		log_parse(text.p + off[i], off[i + 1] - off[i] - 1, &ll, &scratch);
		msg = strndup(ll.msg, ll.len);
		for (k = 0; k < nre; k++)
			hits += !regexec(&re[k], msg, 0, NULL, 0);
		sink += hits;
		free(msg);
	}
	t_naive = now() - t0;
	nrate = nsample / t_naive;
	printf("naive regexec loop: %zu regexes (%zu rejected by regcomp), %zu lines in %.3f s, %.0f lines/s\n",
	       nre, bad_re, nsample, t_naive, nrate);
	printf("speedup: %.0fx (wall)\n", rate / nrate);
	/* judged on CPU time: "one core", whatever else runs on the machine */
	printf("goal: >= 1000000 lines/s on one core (CPU time): %s (%.0f lines/s, wall %.0f); >= 100x: %s\n",
	       crate >= 1e6 ? "met" : "NOT met", crate, rate,
	       rate / nrate >= 100 ? "met" : "NOT met");

	for (i = 0; i < nre; i++)
		regfree(&re[i]);
	free(re);
	free(off);
	free(src);
	free(res);
	free(pass);
	sbuf_free(&text);
	sbuf_free(&one);
	sbuf_free(&scratch);
	matcher_free(&m);
	pi_index_free(&idx);
	return sink == 0xdeadbeef;	/* keep the work from being optimised out */
}
