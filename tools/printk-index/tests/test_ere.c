// SPDX-License-Identifier: GPL-2.0
/* The small regex engine behind the %p models. */
#include "../ere.h"
#include "test.h"

static void m(const char *pat, const char *s, bool want)
{
	struct ere re;
	struct pi_err err;

	if (ere_compile(&re, pat, &err)) {
		T_FAIL("'%s' does not compile: %s", pat, err.msg);
		return;
	}
	if (ere_fullmatch(&re, (const unsigned char *)s, strlen(s)) == want)
		T_PASS();
	else
		T_FAIL("'%s' on '%s': expected %s", pat, s, want ? "match" : "no match");
	ere_free(&re);
}

static void bad(const char *pat, const char *msg)
{
	struct ere re;
	struct pi_err err = { "" };

	CHECK_INT(ere_compile(&re, pat, &err), -1);
	CHECK_HAS(err.msg, msg);
}

static void bounds(const char *pat, uint32_t lo, uint32_t hi)
{
	struct ere re;
	struct pi_err err;

	if (ere_compile(&re, pat, &err)) {
		T_FAIL("'%s': %s", pat, err.msg);
		return;
	}
	CHECK_INT(re.minlen, lo);
	CHECK_INT(re.maxlen, hi);
	ere_free(&re);
}

/*
 * A DFA when it is small, the NFA when it would not be: "a 13th byte
 * from the end" takes 2^13 states. Both give the same answers.
 */
static void dfa_or_not(void)
{
	static const char *const pats[] = { "(a|b)*a(a|b){3}", "(a|b)*a(a|b){12}" };
	static const char *const strs[] = {
		"abbb", "bbbb", "aaaaaaaaaaaaa", "baaaaaaaaaaaa", "abbbbbbbbbbbb",
		"bbabbbbbbbbbbbbb", "bbbbbbbbbbbbbbbb",
	};
	struct ere re;
	struct pi_err err;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(pats); i++) {
		if (ere_compile(&re, pats[i], &err)) {
			T_FAIL("'%s': %s", pats[i], err.msg);
			continue;
		}
		CHECK(i == 0 ? re.dfa != NULL : re.dfa == NULL);
		for (j = 0; j < ARRAY_SIZE(strs); j++) {
			size_t n = strlen(strs[j]);
			int k = i ? 12 : 3;
			bool want = n > (size_t)k && strs[j][n - k - 1] == 'a';

			CHECK(ere_fullmatch(&re, (const unsigned char *)strs[j], n) == want);
		}
		ere_free(&re);
	}
}

/* Every string over "abc+x" of up to 6 bytes, given to check(): the sum
 * of what it returns (its strings that are wrong). */
static size_t over_short_strings(const struct ere *re,
				 size_t (*check)(const struct ere *re, const char *s, size_t n))
{
	static const char alpha[] = "abc+x";
	char s[6];
	size_t len, p, bad = 0;
	unsigned long code, ncode, c;

	for (len = 0, ncode = 1; len <= 6; len++, ncode *= 5)
		for (code = 0; code < ncode; code++) {
			for (p = 0, c = code; p < len; p++, c /= 5)
				s[p] = alpha[c % 5];
			bad += check(re, s, len);
		}
	return bad;
}

/* ere_starts() (a reverse DFA when it is small, the NFA when not) against
 * ere_fullmatch() from every start. */
static size_t starts_differ(const struct ere *re, const char *s, size_t n)
{
	uint64_t bits[1] = { 0 };
	size_t p, bad = 0;

	ere_starts(re, (const unsigned char *)s, n, false, bits);
	for (p = 0; p <= n; p++)
		bad += !(bits[0] >> p & 1) != !ere_fullmatch(re, (const unsigned char *)s + p, n - p);
	return bad;
}

/* The reversed language's DFA of a span model (ere_compile_span(); the
 * matchers walk it down from a span's end) read backwards, against a
 * whole match. */
static size_t reverse_differs(const struct ere *re, const char *s, size_t n)
{
	struct ere_cursor c;

	ere_cursor_start(&c, n);
	return ere_cursor_accepts_back(re, &c, (const unsigned char *)s, 0) !=
	       ere_fullmatch(re, (const unsigned char *)s, n);
}

/* ere_reach() from the one start 0 (the forward DFA walked once, or the
 * NFA for a model without a DFA), against a whole match of each prefix. */
static size_t reach_differs(const struct ere *re, const char *s, size_t n)
{
	uint64_t starts[1] = { 1 }, ends[1] = { 0 };
	unsigned long work = 0;
	size_t e, bad = 0;

	ere_reach(re, (const unsigned char *)s, n, starts, n, ends, &work);
	for (e = 0; e <= n; e++)
		bad += !(ends[0] >> e & 1) != !ere_fullmatch(re, (const unsigned char *)s, e);
	return bad;
}

/* The reverse of "(a|b){12}a(a|b)*" needs 2^13 states: no reverse DFA,
 * ere_starts() runs the NFA. */
static void reverse_agrees(void)
{
	static const char *const pats[] = {
		"(a|b)*a(a|b){3}", "(a|b){12}a(a|b)*", "a+x?", "[a-c]+\\+x[ab]*( \\[c+\\])?",
		" *[0-9a-c]+", "(ab)*c?",
	};
	struct ere re;
	struct pi_err err;
	size_t i, bad;

	for (i = 0; i < ARRAY_SIZE(pats); i++) {
		if (ere_compile(&re, pats[i], &err)) {
			T_FAIL("'%s': %s", pats[i], err.msg);
			continue;
		}
		CHECK(i == 1 ? re.rdfa == NULL : re.rdfa != NULL);
		bad = over_short_strings(&re, starts_differ) + over_short_strings(&re, reach_differs);
		if (bad)
			T_FAIL("'%s': %zu strings whose starts or ends differ from a whole match",
			       pats[i], bad);
		else
			T_PASS();
		ere_free(&re);
		if (i == 1)
			continue;
		if (ere_compile_span(&re, pats[i], &err) || !re.rdfa) {
			T_FAIL("'%s': no reverse DFA for spans", pats[i]);
			continue;
		}
		bad = over_short_strings(&re, reverse_differs);
		if (bad)
			T_FAIL("'%s': %zu strings read backwards differ", pats[i], bad);
		else
			T_PASS();
		ere_free(&re);
	}
}

void test_ere(void)
{
	m("abc", "abc", true);
	m("abc", "abcd", false);
	m("abc", "ab", false);
	m("", "", true);
	m("", "a", false);
	m("a*", "", true);
	m("a*", "aaaa", true);
	m("a+", "", false);
	m("a?b", "b", true);
	m("a?b", "ab", true);
	m("a?b", "aab", false);
	m("[0-9]{2}", "42", true);
	m("[0-9]{2}", "4", false);
	m("[0-9]{2,3}", "123", true);
	m("[0-9]{2,3}", "1234", false);
	m("[0-9]{2,}", "123456", true);
	m("[^]]*", "abc", true);
	m("[^]]*", "a]c", false);
	m("\\[[^]]*\\]", "[mem 0x1-0x2]", true);
	m("(ab|cd)+", "abcdab", true);
	m("(ab|cd)+", "abc", false);
	m("a|b|c", "c", true);
	m(".{4} x", "NV12 x", true);
	m("\\(null\\)", "(null)", true);
	m("[a-c-]+", "a-b", true);
	m("(a*)*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac", false);	/* no blowup */
	m("([0-9a-f]{2}(:[0-9a-f]{2}){5})", "52:54:00:12:34:56", true);
	m("([0-9a-f]{2}(:[0-9a-f]{2}){5})", "52:54:00:12:34", false);
	bounds("abc", 3, 3);
	bounds("a{2,5}b?", 2, 6);
	bounds("a*", 0, ERE_INF);
	bounds("x|yyy", 1, 3);
	/* the models are parsed by rx.c: its messages */
	bad("(ab", "missing )");
	bad("ab)", "unmatched )");
	bad("[ab", "missing ]");
	bad("a{3,1}", "m > n");
	bad("a{1001}", "repeat");
	bad("*a", "nothing to repeat");
	bad("[z-a]", "range out of order");
	bad("^a", "an assertion in a model");
	bad("(a{200}){200}", "pattern too large");
	dfa_or_not();
	reverse_agrees();
}
