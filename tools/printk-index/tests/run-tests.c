// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>

#include "test.h"

int t_pass, t_fail;
const char *t_sample;
const char *t_binary;
const char *t_kbuild;
const char *t_testdir;
const char *t_tmpdir;

/*
 * One case per asserting function of a group. __func__ is one array per
 * function, so its address names the case; cases are few (hundreds), so a
 * linear search is fine.
 */
struct t_case {
	const char *group, *func;
	int pass, fail, skipped;
};

static struct t_case *cases;
static size_t ncases, capcases;
static const char *group;

static struct t_case *t_case(const char *func)
{
	size_t i;

	for (i = 0; i < ncases; i++)
		if (cases[i].func == func && cases[i].group == group)
			return &cases[i];
	if (ncases == capcases) {
		capcases = capcases ? capcases * 2 : 256;
		cases = realloc(cases, capcases * sizeof(*cases));
		if (!cases) {
			perror("run-tests");
			exit(1);
		}
	}
	cases[ncases] = (struct t_case){ .group = group, .func = func };
	return &cases[ncases++];
}

void t_record(const char *func, int ok)
{
	struct t_case *c = t_case(func);

	if (ok) {
		c->pass++;
		t_pass++;
	} else {
		c->fail++;
		t_fail++;
	}
}

int t_missing(const char *func, const char *what)
{
	if (getenv("PI_TESTS_ALLOW_MISSING")) {
		t_case(func)->skipped++;
		fprintf(stderr, "SKIP %s: %s: missing %s (allowed by PI_TESTS_ALLOW_MISSING)\n",
			group, func, what);
	} else {
		fprintf(stderr, "FAIL %s: %s: missing %s (set PI_TESTS_ALLOW_MISSING=1 to run without it)\n",
			group, func, what);
		t_record(func, 0);
	}
	return 1;
}

void t_not_built(const char *func, const char *why)
{
	t_case(func)->skipped++;
	fprintf(stderr, "SKIP %s: %s: %s\n", group, func, why);
}

#define RUN(name) do { group = #name; test_##name(); } while (0)

int main(int argc, char **argv)
{
	int passed = 0, failed = 0, skipped = 0;
	size_t i;

	t_sample = argc > 1 ? argv[1] : "../../../shared/data/x86_64_defconfig-6.1.192-vmlinux.printk_index";
	t_binary = argc > 2 ? argv[2] : "./printk-index";
	t_kbuild = argc > 3 ? argv[3] : "../../build/6.1/kernel-default";
	t_testdir = argc > 4 ? argv[4] : "../../test";

	RUN(escape);
	RUN(index);
	RUN(ere);
	RUN(fmt);
	RUN(dp);
	RUN(logline);
	RUN(logline_input);
	RUN(shapes);
	RUN(matcher);
	RUN(follow);
	RUN(check);
	RUN(cli);
	RUN(elf);
	fflush(stderr);
	for (i = 0; i < ncases; i++) {
		const struct t_case *c = &cases[i];

		if (c->fail) {
			failed++;
			printf("not ok %s: %s (%d of %d assertions failed)\n",
			       c->group, c->func, c->fail, c->pass + c->fail);
		} else if (c->skipped) {
			skipped++;
		} else {
			passed++;
		}
	}
	printf("assertions: %d passed, %d failed\n", t_pass, t_fail);
	if (skipped)
		printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	else
		printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
