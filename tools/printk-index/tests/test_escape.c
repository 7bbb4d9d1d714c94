// SPDX-License-Identifier: GPL-2.0
/* escape.c against string_escape_mem(ESCAPE_ANY | ESCAPE_NAP | ESCAPE_APPEND, "\"\\") */
#include <stdio.h>

#include "../escape.h"
#include "test.h"

/* The kernel's spelling of a byte, written out independently of escape.c */
static void expected(unsigned c, char *out)
{
	switch (c) {
	case '\n': strcpy(out, "\\n"); return;
	case '\r': strcpy(out, "\\r"); return;
	case '\t': strcpy(out, "\\t"); return;
	case '\v': strcpy(out, "\\v"); return;
	case '\f': strcpy(out, "\\f"); return;
	case '\a': strcpy(out, "\\a"); return;
	case 27: strcpy(out, "\\e"); return;
	case 0: strcpy(out, "\\0"); return;
	case '"': strcpy(out, "\\\""); return;
	case '\\': strcpy(out, "\\\\"); return;
	}
	if (c >= 0x20 && c < 0x7f)
		sprintf(out, "%c", c);
	else
		sprintf(out, "\\%03o", c);
}

static long unescape_str(const char *s, char *dst, size_t *off, struct pi_err *err)
{
	return pi_unescape(s, strlen(s), dst, off, err);
}

static void bad(const char *in, const char *msg, size_t off)
{
	char dst[64];
	struct pi_err err = { "" };
	size_t o = 999;

	CHECK_INT(unescape_str(in, dst, &o, &err), -1);
	CHECK_HAS(err.msg, msg);
	CHECK_INT(o, off);
}

void test_escape(void)
{
	unsigned c, d;
	char out[8], exp[8], dst[8];
	size_t n, off;
	struct pi_err err;
	long got;
	int pairs_ok = 1;

	/* every byte: the spelling, and back */
	for (c = 0; c < 256; c++) {
		n = pi_escape_byte(c, out);
		out[n] = '\0';
		expected(c, exp);
		CHECK_STR(out, exp);
		got = pi_unescape(out, n, dst, &off, &err);
		CHECK(got == 1 && (unsigned char)dst[0] == c);
	}
	/* every pair of bytes round-trips too (one case) */
	for (c = 0; c < 256 && pairs_ok; c++) {
		for (d = 0; d < 256; d++) {
			char src[2] = { (char)c, (char)d }, esc[8], back[8];
			struct sbuf b = { 0 };

			pi_escape_sbuf(&b, src, 2);
			memcpy(esc, b.p, b.len);
			got = pi_unescape(esc, b.len, back, &off, &err);
			if (got != 2 || memcmp(back, src, 2)) {
				pairs_ok = 0;
				T_FAIL("pair %02x %02x does not round-trip", c, d);
			}
			sbuf_free(&b);
		}
	}
	if (pairs_ok)
		T_PASS();

	/* whole strings */
	{
		struct sbuf b = { 0 };
		const char s[] = "say \"hi\"\\\n\t\x01\x7f\xc3\xa9";

		pi_escape_sbuf(&b, s, sizeof(s) - 1);
		CHECK_STR(b.p, "say \\\"hi\\\"\\\\\\n\\t\\001\\177\\303\\251");
		{
			char back[64];

			got = pi_unescape(b.p, b.len, back, &off, &err);
			CHECK_MEM(back, (size_t)got, s, sizeof(s) - 1);
		}
		sbuf_free(&b);
	}
	{
		char buf[64];

		CHECK_INT(unescape_str("a\\nb", buf, &off, &err), 3);
		CHECK(!memcmp(buf, "a\nb", 3));
		CHECK_INT(unescape_str("", buf, &off, &err), 0);
		CHECK_INT(unescape_str("\\0", buf, &off, &err), 1);
		CHECK_INT(buf[0], 0);
		CHECK_INT(unescape_str("\\377", buf, &off, &err), 1);
		CHECK_INT((unsigned char)buf[0], 255);
		CHECK_INT(unescape_str("100%% \\\\_SB", buf, &off, &err), 10);
		CHECK(!memcmp(buf, "100%% \\_SB", 10));
	}

	/* what the kernel never writes */
	bad("\\x41", "unknown escape '\\x'", 0);
	bad("ab\\q", "unknown escape '\\q'", 2);
	bad("abc\\", "lone backslash", 3);
	bad("\\101", "non-canonical escape '\\101'", 0);
	bad("x\\012", "non-canonical escape '\\012' (the kernel writes '\\n')", 1);
	bad("\\033", "the kernel writes '\\e'", 0);
	bad("\\000", "the kernel writes '\\0'", 0);
	bad("\\042", "the kernel writes '\\\"'", 0);
	bad("\\400", "out of range", 0);
	bad("\\777", "out of range", 0);
	bad("a\"b", "unescaped '\"'", 1);
	bad("tab\there", "raw byte 0x09", 3);
	bad("\x80", "raw byte 0x80", 0);
	bad("\x7f", "raw byte 0x7f", 0);
	bad("nl\n", "raw byte 0x0a", 2);
	bad("\\\x01", "byte 0x01", 0);
	bad("\\8", "unknown escape '\\8'", 0);
	bad("\\12", "unknown escape '\\1'", 0);
	bad("\\0\\", "lone backslash", 2);
}
