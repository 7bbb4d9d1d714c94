// SPDX-License-Identifier: GPL-2.0
/*
 * match on a real-shaped log: the corpus file's lines, read as match reads
 * them (shape detection, then the single best format or KERN_CONT pieces),
 * repeated to LINES lines, timed in CPU time; then each distinct line
 * timed alone (REPS times, the thread's CPU clock), the ten slowest
 * printed with their cost.
 *
 *   bench_corpus INDEX CORPUS [LINES [REPS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../cont.h"
#include "../logline.h"
#include "../source.h"

struct line_cost {
	double us;
	size_t lineno;
	const char *text;
};

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int by_cost(const void *a, const void *b)
{
	const struct line_cost *x = a, *y = b;

	return x->us < y->us ? 1 : x->us > y->us ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct pi_index idx;
	struct pi_err err;
	struct matcher m;
	struct chain_matcher chains;
	struct sbuf scratch = { 0 };
	struct log_shape shape;
	struct line_cost *cost;
	char **lines = NULL, *buf = NULL;
	size_t n = 0, cap = 0, bcap = 0, total, reps, i, k, attributed = 0;
	ssize_t len;
	double c0, cpu;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: bench_corpus INDEX CORPUS [LINES [REPS]]\n");
		return 2;
	}
	total = argc > 3 ? strtoul(argv[3], NULL, 10) : 100000;
	reps = argc > 4 ? strtoul(argv[4], NULL, 10) : 20;
	pi_index_init(&idx);
	if (pi_load_source(&idx, argv[1], &err)) {
		fprintf(stderr, "bench_corpus: %s\n", err.msg);
		return 2;
	}
	f = fopen(argv[2], "r");
	if (!f) {
		perror(argv[2]);
		return 2;
	}
	while ((len = getline(&buf, &bcap, f)) >= 0) {
		while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
			buf[--len] = '\0';
		if (n == cap)
			lines = realloc(lines, (cap = cap ? 2 * cap : 256) * sizeof(*lines));
		lines[n++] = strdup(buf);
	}
	fclose(f);
	free(buf);
	if (!n) {
		fprintf(stderr, "bench_corpus: %s: empty\n", argv[2]);
		return 2;
	}
	matcher_build(&m, &idx);
	chain_init(&chains, &m);

	/* the corpus, repeated */
	log_shape_init(&shape, LOG_NKINDS);
	c0 = cpu_now();
	for (i = 0; i < total; i++) {
		struct log_line ll;
		struct attribution a;
		const char *s = lines[i % n];

		log_parse_in(&shape, s, strlen(s), &ll, &scratch);
		if (ll.kind == LOG_SKIP)
			continue;
		attribute_message(&chains, ll.msg, ll.len, ll.level, &a);
		attributed += attribution_class(&a) == CLASS_ATTRIBUTED;
	}
	cpu = cpu_now() - c0;
	printf("corpus: %s, %zu lines repeated to %zu: %.3f s CPU, %.0f lines/s (%zu attributed)\n",
	       argv[2], n, total, cpu, total / cpu, attributed);

	/* each line alone */
	cost = calloc(n, sizeof(*cost));
	for (i = 0; i < n; i++) {
		struct log_line ll;
		struct attribution a;

		log_shape_init(&shape, LOG_NKINDS);
		c0 = cpu_now();
		for (k = 0; k < reps; k++) {
			log_parse_in(&shape, lines[i], strlen(lines[i]), &ll, &scratch);
			if (ll.kind != LOG_SKIP)
				attribute_message(&chains, ll.msg, ll.len, ll.level, &a);
		}
		cost[i] = (struct line_cost){ (cpu_now() - c0) * 1e6 / reps, i + 1, lines[i] };
	}
	qsort(cost, n, sizeof(*cost), by_cost);
	printf("slowest lines (CPU us a line, mean of %zu):\n", reps);
	for (i = 0; i < n && i < 10; i++)
		printf("  %9.1f  %zu: %.100s\n", cost[i].us, cost[i].lineno, cost[i].text);
	free(cost);
	for (i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	sbuf_free(&scratch);
	chain_free(&chains);
	matcher_free(&m);
	pi_index_free(&idx);
	return 0;
}
