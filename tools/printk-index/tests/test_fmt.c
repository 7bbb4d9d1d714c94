// SPDX-License-Identifier: GPL-2.0
/* The vsprintf model: what each conversion can print, and whole formats. */
#include <stdlib.h>

#include "../fmt.h"
#include "../index.h"
#include "test.h"
#include "../source.h"
#include "testlib.h"

#define N FMT_NOMATCH
#define F FMT_FULL
#define P FMT_PREFIX

static const struct {
	const char *fmt, *msg;
	enum fmt_result want;
} cases[] = {
	/* literals, the stripped newline, KERN_CONT continuation */
	{ "hello\n", "hello", F },
	{ "hello\n", "hello world", N },
	{ "hello\n", "hell", N },
	{ "hello", "hello", F },
	{ "hello", "hello world", P },
	{ "hello", "help", N },
	{ "", "", F },
	{ "", "x", P },
	{ "\n", "", F },
	{ "\n", "x", N },
	{ "%%d\n", "%d", F },
	{ "100%%\n", "100%", F },
	{ "%5%\n", "%", F },		/* width ignored: FORMAT_TYPE_PERCENT_CHAR */
	{ "a\\b\n", "a\\b", F },
	/* a record's first line is what a dmesg line shows */
	{ "line one\nline two %d\n", "line one", F },
	{ "line one\nline two %d\n", "line one extra", N },
	{ "%s\n\n", "x", F },
	/* %d %i */
	{ "%d\n", "42", F },
	{ "%d\n", "-42", F },
	{ "%d\n", "0", F },
	{ "%d\n", "-0", N },
	{ "%d\n", "+42", N },
	{ "%d\n", " 42", N },
	{ "%d\n", "", N },
	{ "%d\n", "4a", N },
	{ "%d\n", "007", N },
	{ "%d\n", "2147483647", F },
	{ "%d\n", "12345678901", N },
	{ "%ld\n", "12345678901", F },
	{ "%lld\n", "-9223372036854775808", F },
	{ "%i\n", "-7", F },
	{ "%u\n", "-1", N },
	{ "%u\n", "4294967295", F },
	{ "%zu\n", "18446744073709551615", F },
	{ "%zu\n", "184467440737095516150", N },
	{ "%td\n", "-3", F },
	{ "%hd\n", "-32768", F },
	{ "%hu\n", "123456", N },
	{ "%hhu\n", "255", F },
	{ "%hhu\n", "2550", N },
	{ "%.0d\n", "0", F },
	{ "%.0d\n", "", N },
	{ "%.3d\n", "007", F },
	{ "%.3d\n", "7", N },
	{ "%.3d\n", "1234", F },
	{ "%.3d\n", "-007", F },
	/* a literal precision is kept in 16 bits, negative meaning 0 */
	{ "%.32767x\n", "5", N },
	{ "%.40000x\n", "5", F },	/* -25536: 0 */
	{ "%.65537x\n", "5", F },	/* 1 */
	{ "%.65538x\n", "5", N },	/* 2 */
	{ "%.65538x\n", "05", F },
	{ "%.4294967298x\n", "05", F },	/* the int wraps first: 2 */
	{ "%.65536s|\n", "|", F },
	{ "%.65536s|\n", "abc|", N },
	/* width, flags */
	{ "%5d\n", "   42", F },
	{ "%5d\n", "42", N },
	{ "%5d\n", "  42", N },
	{ "%5d\n", "123456", F },
	{ "%5d\n", "00042", N },
	{ "%5d\n", "  -42", F },
	{ "%-5d|\n", "42   |", F },
	{ "%-5d|\n", "   42|", N },
	{ "%-5d|\n", "-42  |", F },
	{ "%05d\n", "00042", F },
	{ "%05d\n", "-0042", F },
	{ "%05d\n", "   42", N },
	{ "%05d\n", "123456", F },
	{ "%05d\n", "042", N },
	{ "%+d\n", "+5", F },
	{ "%+d\n", "-5", F },
	{ "%+d\n", "5", N },
	{ "%+05d\n", "+0042", F },
	{ "%-+5d|\n", "+42  |", F },
	{ "% d\n", " 5", F },
	{ "% d\n", "-5", F },
	{ "% d\n", "5", N },
	{ "% 5d|\n", "   42|", F },
	{ "% 5d|\n", "  42|", N },
	/* hex, octal, '#' */
	{ "%x\n", "ff", F },
	{ "%x\n", "FF", N },
	{ "%x\n", "0xff", N },
	{ "%X\n", "FF", F },
	{ "%X\n", "ff", N },
	{ "%#x\n", "0xff", F },
	{ "%#x\n", "0x0", F },		/* the kernel keeps 0x for zero */
	{ "%#x\n", "ff", N },
	{ "%#x\n", "0XFF", N },
	{ "%#X\n", "0XFF", F },
	{ "%#010x\n", "0x000000ff", F },
	{ "%#010x\n", "0x00ff", N },
	{ "%08x\n", "deadbeef", F },
	{ "%08x\n", "000000ff", F },
	{ "%08x\n", "ff", N },
	{ "%08x\n", "123456789", N },
	{ "%02hhx\n", "0f", F },
	{ "%02hhx\n", "fff", N },
	{ "%02hhx\n", "f", N },
	{ "%llx\n", "ffffffffffffffff", F },
	{ "%llx\n", "1ffffffffffffffff", N },
	{ "%Lx\n", "ffffffffffffffff", F },
	{ "%o\n", "17", F },
	{ "%o\n", "18", N },
	{ "%#o\n", "017", F },
	{ "%#o\n", "0", F },
	{ "%#o\n", "17", N },
	{ "%-08.3lx|\n", "0ab     |", F },
	{ "%-08.3lx|\n", "000000ab|", N },
	{ "%-08.3lx|\n", "abcdef12|", F },
	{ "%-08.3lx|\n", "0ab|", N },
	{ "%-08.3lx|\n", "ab      |", N },
	/* '*' width and precision */
	{ "%*d\n", "42", F },
	{ "%*d\n", "      42", F },
	{ "%*d\n", "42      ", F },
	{ "%*d\n", "  -42", F },
	{ "%*d\n", "4 2", N },
	{ "%0*d\n", "0042", F },
	{ "%.*d\n", "00042", F },
	{ "%.*s|\n", "|", F },
	{ "%.*s|\n", "abc|", F },
	{ "%*s|\n", "   x|", F },
	{ "%*.*s|\n", "anything at all|", F },
	/* %s */
	{ "%s\n", "", F },
	{ "%s\n", "any thing", F },
	{ "%5s|\n", "  abc|", F },
	{ "%5s|\n", "abc|", N },
	{ "%5s|\n", "abcdef|", F },
	{ "%5s|\n", "     |", F },
	{ "%-5s|\n", "abc  |", F },
	{ "%-5s|\n", "  abc|", F },
	{ "%.3s|\n", "abc|", F },
	{ "%.3s|\n", "abcd|", N },
	{ "%.3s|\n", "|", F },
	{ "%5.3s|\n", "  abc|", F },
	{ "%5.3s|\n", "abcde|", N },
	{ "%5.3s|\n", " abcd|", N },
	{ "%5.3s|\n", "    a|", F },
	{ "%-5.3s|\n", "abc  |", F },
	{ "%-5.3s|\n", "  abc|", N },
	/* %c */
	{ "%c\n", "x", F },
	{ "%c\n", " ", F },
	{ "%c\n", "", N },
	{ "%c\n", "xy", N },
	{ "%3c\n", "  x", F },
	{ "%3c\n", "x  ", N },
	{ "%3c\n", " x", N },
	{ "%-3c|\n", "x  |", F },
	{ "%*c|\n", "    x|", F },
	/* %p and its extensions */
	{ "%p\n", "00000000c0ffee42", F },
	{ "%p\n", "(____ptrval____)", F },
	{ "%p\n", "c0ffee42", N },
	{ "%5p\n", "c0ffee42", F },
	{ "%5p\n", "  abc", F },
	{ "%px\n", "ffff888003a4c000", F },
	{ "%px\n", "ffff88800", N },
	{ "%pK\n", "0000000000000000", F },
	{ "%pV\n", "", F },
	{ "%pV\n", "nested: 42 things", F },
	{ "%pM\n", "52:54:00:12:34:56", F },
	{ "%pM\n", "52:54:00:12:34", N },
	{ "%pM\n", "hello", N },
	{ "%pM\n", "52-54-00-12-34-56", N },
	{ "%pM\n", "52:54:00:12:34:5g", N },
	{ "%pM\n", "(null)", F },
	{ "%pMF\n", "52-54-00-12-34-56", F },
	{ "%pMR\n", "56:34:12:00:54:52", F },
	{ "%pm\n", "525400123456", F },
	{ "%pm\n", "52:54:00:12:34:56", N },
	{ "%pI4\n", "10.0.2.15", F },
	{ "%pI4\n", "255.255.255.255", F },
	{ "%pI4\n", "10.0.2", N },
	{ "%pI4\n", "1000.0.0.1", N },
	{ "%pi4\n", "010.000.002.015", F },
	{ "%pi4\n", "10.0.2.15", N },
	{ "%pI6\n", "fe80:0000:0000:0000:5054:00ff:fe12:3456", F },
	{ "%pI6c\n", "fe80::1", F },
	{ "%pI6c\n", "fe80::zz", N },
	{ "%pi6\n", "fe80000000000000505400fffe123456", F },
	{ "%pISpc\n", "[fe80::1]:22", F },
	{ "%pe\n", "-ENOMEM", F },
	{ "%pe\n", "-12", F },
	{ "%pe\n", "ENOMEM", N },
	{ "%pe\n", "-enomem", N },
	{ "%pe\n", "00000000deadbeef", F },
	{ "%pS\n", "do_one_initcall+0x45/0x210", F },
	{ "%pS\n", "foo+0x1/0x2 [e1000]", F },
	{ "%pS\n", "0xffffffff81000000", F },
	{ "%pS\n", "foo bar", N },
	{ "%pSR\n", "foo.cold+0x0/0x10", F },
	{ "%ps\n", "do_one_initcall", F },
	{ "%pB\n", "foo+0x1/0x2", F },
	{ "%pR\n", "[mem 0xfebd1000-0xfebd1fff]", F },
	{ "%pR\n", "(null)", F },
	{ "%pR\n", "mem", N },
	{ "%pr\n", "[io  0x0000-0x00ff]", F },
	{ "%pUb\n", "6ba7b810-9dad-11d1-80b4-00c04fd430c8", F },
	{ "%pUb\n", "6BA7B810-9DAD-11D1-80B4-00C04FD430C8", N },
	{ "%pUB\n", "6BA7B810-9DAD-11D1-80B4-00C04FD430C8", F },
	{ "%pUl\n", "6ba7b810-9dad-11d1-80b4-00c04fd430c8", F },
	{ "%*ph\n", "de ad be ef", F },
	{ "%*ph\n", "de:ad", N },
	{ "%*phC\n", "de:ad", F },
	{ "%*phD\n", "de-ad", F },
	{ "%*phN\n", "deadbeef", F },
	{ "%*phN\n", "dea", N },
	{ "%*pbl\n", "0-3,8", F },
	{ "%*pbl\n", "", F },
	{ "%*pbl\n", "0-", N },
	{ "%*pb\n", "ff,00000001", F },
	{ "%pa\n", "0x00000000fee00000", F },
	{ "%pa\n", "0xfee00000", N },
	{ "%pad\n", "0x00000000fee00000", F },
	{ "%pap\n", "0x00000000fee00000", F },
	{ "%p4cc\n", "NV12 little-endian (0x3231564e)", F },
	{ "%pNF\n", "0x0000000000004000", F },
	{ "%pOF\n", "/soc/ethernet@1000", F },
	{ "%pfwf\n", "\\_SB.PCI0", F },
	{ "%pg\n", "sda1", F },
	{ "%pg\n", "sd a", N },
	{ "%pGg\n", "GFP_KERNEL|__GFP_ZERO", F },
	{ "%pd\n", "any name at all", F },
	{ "%pD\n", "", F },
	{ "%ptRd\n", "2024-12-03", F },
	{ "%pks\n", "any string", F },
	{ "%pEhp\n", "abc\\x1b", F },
	{ "%pMac:\n", "52:54:00:12:34:56:", F },	/* every alnum after p is eaten */
	/* conversions vsprintf rejects stop the output */
	{ "abc%n def\n", "abc", F },
	{ "abc%n def\n", "abc def", P },
	{ "%jd\n", "", F },
	{ "%jd\n", "5", P },
	{ "trailing %", "trailing ", F },
	{ "%q\n", "", F },
	{ "%LLd\n", "", F },
	/* whole formats */
	{ "%s: %d\n", "foo: 5", F },
	{ "%s: %d\n", "foo: x", N },
	{ "%s: %d\n", "a: b: 5", F },
	{ "%s %s: Link is Up\n", "e1000 0000:00:03.0: Link is Up", F },
	{ "%s %s: Link is Up\n", "e1000: Link is Up", N },
	{ "%d%d\n", "123", F },
	{ "%d%d\n", "1", N },
	{ "%ld%%\n", "5%", F },
	{ "initcall %pS returned %d after %lld usecs\n",
	  "initcall do_one_initcall+0x45/0x210 returned 0 after 12 usecs", F },
	{ "initcall %pS returned %d after %lld usecs\n",
	  "initcall do_one_initcall+0x45/0x210 returned x after 12 usecs", N },
	{ "pci %s: [%04x:%04x] type %02x class %#08x\n",
	  "pci 0000:00:01.0: [8086:7000] type 00 class 0x060100", F },
	{ "pci %s: [%04x:%04x] type %02x class %#08x\n",
	  "pci 0000:00:01.0: [8086:700] type 00 class 0x060100", N },
	{ "%s%s%.8x: %s\n", "ab0000beef: x", F },
	{ "%s%s%.8x: %s\n", "xy000beef: x", N },
	{ "%-6.6s %s\n", "BOOT   x", F },
	{ "%*c%pS\n", "    foo+0x1/0x2", F },
};

static void props(const char *s, uint32_t lit, uint32_t nonspace, bool generic, bool open,
		  uint32_t nconv)
{
	struct fmt f;

	fmt_compile(&f, s, strlen(s));
	CHECK_INT(f.lit_bytes, lit);
	CHECK_INT(f.lit_nonspace, nonspace);
	CHECK_INT(f.generic, generic);
	CHECK_INT(f.open_end, open);
	CHECK_INT(f.nconv, nconv);
	fmt_free(&f);
}

/*
 * The "anything" shape (f->any) answers without matching: check the flag
 * and the answer against the backtracking matcher, which never uses it.
 */
static void any_shape(const char *s, bool any, const char *msg, enum fmt_result want)
{
	struct fmt f;

	fmt_compile(&f, s, strlen(s));
	CHECK_INT(f.any, any);
	CHECK_INT(fmt_match(&f, msg, strlen(msg)), want);
	CHECK_INT(fmt_match_backtrack(&f, msg, strlen(msg)), want);
	fmt_free(&f);
}

/*
 * Formats beginning "%s" + literal share that literal's end positions on
 * one line (line_lit_ends()): several formats on the same struct
 * fmt_line, exact answers, the backtracking matcher agreeing. Some shapes
 * must not take the shortcut (a literal over 16 bytes, no literal after
 * the "%s", a literal first) and must answer the same way.
 */
static void shared_line(void)
{
	static const struct {
		const char *fmt;
		enum fmt_result want;
	} fs[] = {
		{ "%s: up %d Mbps\n", N },	/* %d pads with no spaces */
		{ "%s: up %5d Mbps\n", F },
		{ "%s: up %6d Mbps\n", N },
		{ "%s: up %5d\n", N },
		{ "%s: up %5d", P },
		{ "%s: up %-5d", N },		/* left-justified: no leading blank */
		{ "%s: %s %d Mbps\n", F },
		{ "%s %s: up %5d Mbps\n", F },
		{ "%s: up %5x Mbps\n", F },
		{ "%s=%d\n", N },
		{ "%s: up %5d Mbps, %s\n", N },
		{ "%s: up   100 Mbps and then some: %d\n", N },	/* > 16 bytes */
		{ "%s%d Mbps\n", F },				/* no literal */
		{ "eth0 0000:03: up %5d Mbps\n", F },		/* literal first */
		{ "eth0: up %5d Mbps\n", N },
	};
	const char *msg = "eth0 0000:03: up   100 Mbps";
	struct fmt_line l;
	size_t i;

	fmt_line_init(&l, msg, strlen(msg));
	for (i = 0; i < ARRAY_SIZE(fs); i++) {
		struct fmt f;

		fmt_compile(&f, fs[i].fmt, strlen(fs[i].fmt));
		if (fmt_match_line(&f, &l) == fs[i].want &&
		    fmt_match_backtrack(&f, msg, strlen(msg)) == fs[i].want)
			T_PASS();
		else
			T_FAIL("\"%s\" on \"%s\" (shared line): got %d/%d, expected %d",
			       fs[i].fmt, msg, fmt_match_line(&f, &l),
			       fmt_match_backtrack(&f, msg, strlen(msg)), fs[i].want);
		fmt_free(&f);
	}
}

static void render_all(void)
{
	struct pi_index idx;
	struct pi_err err;
	struct sbuf out = { 0 };
	size_t i, fails = 0, tried = 0;
	uint64_t seed;

	pi_index_init(&idx);
	if (pi_load_source(&idx, t_sample, &err)) {
		T_MISSING(err.msg);
		return;
	}
	/* every format's own sample rendering must match it */
	for (seed = 1; seed <= 3; seed++) {
		for (i = 0; i < idx.n; i++) {
			struct fmt f;
			enum fmt_result r;

			fmt_compile(&f, idx.v[i].fmt, idx.v[i].fmt_len);
			sbuf_reset(&out);
			fmt_render(&f, &out, seed * 1000 + i);
			r = fmt_match(&f, out.p ? out.p : "", out.len);
			tried++;
			if (r == FMT_NOMATCH && fails++ < 5)
				T_FAIL("sample '%s' of \"%s\" does not match", out.p, idx.v[i].fmt);
			fmt_free(&f);
		}
		CHECK_INT(fails, 0);
	}
	sbuf_free(&out);
	pi_index_free(&idx);
}

/*
 * number() prints at least prec digits, so a long precision after a "%s"
 * must not leave the matcher trying every split of the line (it used to
 * run out of its work budget on the sample of "%s%-0.8333lx").
 */
static void long_precision(void)
{
	static const char *const fmts[] = { "%s%-0.8333lx", "%s%.2100x|", "%s%08.3000d" };
	/* The conversion's minimum length, or the precision it keeps (-1: not checked). */
	static const struct { const char *fmt; int min, prec; } convs[] = {
		{ "%.8333lx", 8333, -1 },
		{ "%5.3d", 5, -1 },
		{ "%*.4d", 4, -1 },
		{ "%.*d", 1, -1 },
		{ "%.70000d", -1, 4464 },	/* 6.1 keeps the low 16 bits */
	};
	struct sbuf m = { 0 };
	struct fmt f;
	size_t i, k, short_by;
	enum fmt_result r;

	for (i = 0; i < ARRAY_SIZE(convs); i++) {
		fmt_compile(&f, convs[i].fmt, strlen(convs[i].fmt));
		if (convs[i].min >= 0)
			CHECK_INT(f.tok[0].min, convs[i].min);
		if (convs[i].prec >= 0)
			CHECK_INT(f.tok[0].prec, convs[i].prec);
		fmt_free(&f);
	}

	for (i = 0; i < ARRAY_SIZE(fmts); i++) {
		int prec = atoi(strchr(fmts[i], '.') + 1);
		bool bar = fmts[i][strlen(fmts[i]) - 1] == '|';

		fmt_compile(&f, fmts[i], strlen(fmts[i]));
		/* "tty1", then exactly prec digits; then one digit short */
		for (short_by = 0; short_by <= 1; short_by++) {
			sbuf_reset(&m);
			sbuf_add(&m, "tty1", 4);
			for (k = 0; k + 2 + short_by < (size_t)prec; k++)
				sbuf_addc(&m, '0');
			sbuf_add(&m, "42|", bar ? 3 : 2);
			r = fmt_match(&f, m.p, m.len);
			if (r != (short_by ? FMT_NOMATCH : FMT_FULL))
				T_FAIL("\"%s\" on %zu digits: got %d", fmts[i],
				       (size_t)prec - short_by, r);
			else
				T_PASS();
		}
		fmt_free(&f);
	}
	sbuf_free(&m);
}

void test_fmt(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct fmt f;
		enum fmt_result r;

		fmt_compile(&f, cases[i].fmt, strlen(cases[i].fmt));
		r = fmt_match(&f, cases[i].msg, strlen(cases[i].msg));
		if (r == cases[i].want)
			T_PASS();
		else
			T_FAIL("\"%s\" on \"%s\": got %d, expected %d", cases[i].fmt,
			       cases[i].msg, r, cases[i].want);
		fmt_free(&f);
	}

	props("%s\n", 0, 0, true, false, 1);
	props("%s", 0, 0, true, true, 1);
	props("Kernel command line: %s\n", 21, 18, false, false, 1);
	props("%s: %d\n", 2, 1, true, false, 2);
	props("ata%u: %s\n", 5, 4, false, false, 2);
	props("abc %d\n", 4, 3, true, false, 1);
	props("%s%s%s\n", 0, 0, true, false, 3);
	props("100%%\n", 4, 4, false, false, 0);
	props("a\nbcdef %d\n", 1, 1, true, false, 0);

	any_shape("%s\n", true, "anything: 12", F);
	any_shape("%s\n", true, "", F);
	any_shape("%s%s%pV\n", true, "a b", F);
	any_shape("%s", true, "a b", F);	/* full, not a prefix */
	any_shape("%*s", true, "   ", F);
	any_shape("%s%.*s", true, "xyz", F);
	any_shape("%s\nsecond %d\n", true, "x", F);	/* first line only */
	/* not "anything": bounded, literal, other conversions, empty */
	any_shape("%5s\n", false, "abc", N);
	any_shape("%.2s\n", false, "abc", N);
	any_shape("%s:\n", false, "abc", N);
	any_shape("%c", false, "abc", P);
	any_shape("%s%d\n", false, "abc", N);
	any_shape("", false, "abc", P);
	any_shape("\n", false, "abc", N);
	shared_line();

	/* validators on their own */
	{
		struct fmt f;

		fmt_compile(&f, "%04x", 4);
		CHECK(fmt_tok_accepts(&f.tok[0], "00ff", 4));
		CHECK(!fmt_tok_accepts(&f.tok[0], "0ff", 3));
		CHECK(!fmt_tok_accepts(&f.tok[0], "00fg", 4));
		fmt_free(&f);
	}
	{
		struct ptr_model m;

		fmt_ptr_model("M", 1, &m);
		CHECK_STR(m.sample, "52:54:00:12:34:56");
		fmt_ptr_model("V", 1, &m);
		CHECK(m.pattern == NULL);
		fmt_ptr_model("", 0, &m);
		CHECK_HAS(m.pattern, "ptrval");
	}
	{
		struct fmt f;
		struct sbuf b = { 0 };

		fmt_compile(&f, "%#x %5d|%-5d|%05d %.3s %c\n", 26);
		fmt_render(&f, &b, 7);
		CHECK(fmt_match(&f, b.p, b.len) == FMT_FULL);
		fmt_free(&f);
		sbuf_reset(&b);
		fmt_compile(&f, "%s %s: x\n", 9);
		fmt_to_posix_ere(&f, &b);
		CHECK_STR(b.p, "^.* .*: x$");
		fmt_free(&f);
		sbuf_free(&b);
	}
	long_precision();
	render_all();
}
