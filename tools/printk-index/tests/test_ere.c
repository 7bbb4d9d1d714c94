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
	bad("(ab", "missing )");
	bad("ab)", "unbalanced )");
	bad("[ab", "unterminated [");
	bad("a{3,1}", "bad {m,n}");
	bad("a{300}", "repeat count too large");
	bad("*a", "unexpected operator");
	bad("a\\", "trailing backslash");
	bad("[z-a]", "bad range");
	bad("(((((((((((((((((((((((((((((((((((a)))))))))))))))))))))))))))))))))))", "nesting too deep");
	bad("(a{200}){200}", "pattern too large");
}
