/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny test framework. A test case is a function that asserts: every
 * CHECK in it is one assertion, and the case fails if any of them fails
 * (on failure it prints where and what, and the run goes on). run-tests
 * ends with the number of assertions, then the single line
 * "N passed, M failed" counting cases (", K skipped" when inputs were
 * allowed to be missing).
 *
 * An input a case needs (the shared index, the kernel build) that is not
 * there fails the case, unless PI_TESTS_ALLOW_MISSING is set in the
 * environment: then the case is counted as skipped and the reason printed,
 * so that a quick run without a kernel build says what it did not test.
 */
#ifndef PI_TEST_H
#define PI_TEST_H

#include <stdio.h>
#include <string.h>

extern int t_pass, t_fail;	/* assertions */
extern const char *t_sample;	/* path of the shared sample index */
extern const char *t_binary;	/* path of ./printk-index */
extern const char *t_kbuild;	/* kernel build folder (vmlinux, ext-modules/) */
extern const char *t_testdir;	/* the repository's test/ folder (goldens) */
extern const char *t_tmpdir;	/* scratch folder of the running test */

/* the outcome of one assertion of the case (function) FUNC */
void t_record(const char *func, int ok);

struct chain;
/* A KERN_CONT covering as "file:line[off,len] ...", or "-" when not ok
 * (test_follow.c; one static buffer). */
const char *t_chain_text(const struct chain *ch, int ok);
/*
 * Return 1 after recording that the case cannot run because WHAT is
 * missing: a failure, or a declared skip with PI_TESTS_ALLOW_MISSING.
 */
int t_missing(const char *func, const char *what);
/* Record that the case does not apply to this build (e.g. NO_ELF=1). */
void t_not_built(const char *func, const char *why);

#define T_PASS() t_record(__func__, 1)
#define T_MISSING(what) t_missing(__func__, (what))

#define T_FAIL(...) do {						\
	t_record(__func__, 0);						\
	fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);		\
	fprintf(stderr, __VA_ARGS__);					\
	fputc('\n', stderr);						\
} while (0)

#define CHECK(cond) do {						\
	if (cond)							\
		T_PASS();						\
	else								\
		T_FAIL("%s", #cond);					\
} while (0)

#define CHECK_INT(a, b) do {						\
	long long _a = (a), _b = (b);					\
	if (_a == _b)							\
		T_PASS();						\
	else								\
		T_FAIL("%s == %lld, expected %lld", #a, _a, _b);	\
} while (0)

#define CHECK_STR(a, b) do {						\
	const char *_a = (a), *_b = (b);				\
	if (_a && _b && !strcmp(_a, _b))				\
		T_PASS();						\
	else								\
		T_FAIL("%s == \"%s\", expected \"%s\"", #a,		\
		       _a ? _a : "(null)", _b ? _b : "(null)");		\
} while (0)

/* substring, for error messages */
#define CHECK_HAS(a, b) do {						\
	const char *_a = (a), *_b = (b);				\
	if (_a && _b && strstr(_a, _b))					\
		T_PASS();						\
	else								\
		T_FAIL("%s == \"%s\" lacks \"%s\"", #a,			\
		       _a ? _a : "(null)", _b);				\
} while (0)

#define CHECK_MEM(a, alen, b, blen) do {				\
	size_t _al = (alen), _bl = (blen);				\
	if (_al == _bl && !memcmp((a), (b), _al))			\
		T_PASS();						\
	else								\
		T_FAIL("%s: %zu bytes differ from expected %zu bytes",	\
		       #a, _al, _bl);					\
} while (0)

void test_escape(void);
void test_index(void);
void test_ere(void);
void test_fmt(void);
void test_dp(void);
void test_logline(void);
void test_shapes(void);
void test_logline_input(void);
void test_matcher(void);
void test_cli(void);
void test_elf(void);
void test_follow(void);
void test_check(void);

#endif
