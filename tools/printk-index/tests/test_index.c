// SPDX-License-Identifier: GPL-2.0
/* Index line parser, file loader, and the exact list round trip. */
#include <stdio.h>
#include <stdlib.h>

#include "../index.h"
#include "test.h"
#include "../source.h"

static struct pi_index idx;

static const struct pi_entry *good(const char *line)
{
	struct pi_err err = { "" };

	if (pi_parse_entry(&idx, "vmlinux", line, strlen(line), &err)) {
		T_FAIL("'%s' rejected: %s", line, err.msg);
		return NULL;
	}
	T_PASS();
	return &idx.v[idx.n - 1];
}

static void bad(const char *line, size_t len, const char *msg)
{
	struct pi_err err = { "" };
	size_t n = idx.n;

	CHECK_INT(pi_parse_entry(&idx, "vmlinux", line, len, &err), -1);
	CHECK_HAS(err.msg, msg);
	CHECK_INT(idx.n, n);
}

static void reprint(const struct pi_entry *e, const char *line)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	pi_print_entry(f, e);
	fclose(f);
	CHECK(len == strlen(line) + 1 && !memcmp(buf, line, len - 1) && buf[len - 1] == '\n');
	free(buf);
}

static int load_str(const char *text, size_t len, const char *name, struct pi_err *err)
{
	FILE *f = fmemopen((void *)text, len, "r");
	int ret;

	ret = pi_load_stream(&idx, f, name, err);
	fclose(f);
	return ret;
}

static void file_bad(const char *text, size_t len, const char *msg)
{
	struct pi_err err = { "" };

	CHECK_INT(load_str(text, len, "idx", &err), -1);
	CHECK_HAS(err.msg, msg);
}

static void roundtrip_sample(void)
{
	struct pi_index s;
	struct pi_err err;
	FILE *f = fopen(t_sample, "r");
	char *orig = NULL, *out = NULL;
	size_t olen = 0, len = 0, i, n;
	FILE *o;

	if (!f) {
		T_MISSING("the shared sample index (set SHARED_DATA)");
		return;
	}
	o = open_memstream(&orig, &olen);
	{
		char chunk[65536];

		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			fwrite(chunk, 1, n, o);
	}
	fclose(o);
	fclose(f);

	pi_index_init(&s);
	CHECK_INT(pi_load_source(&s, t_sample, &err), 0);
	CHECK_INT(s.n, 9086);
	CHECK(s.layout == PI_LAYOUT_KERNEL);
	o = open_memstream(&out, &len);
	fprintf(o, "%s\n", PI_HEADER);
	for (i = 0; i < s.n; i++)
		pi_print_entry(o, &s.v[i]);
	fclose(o);
	CHECK_MEM(out, len, orig, olen);	/* byte for byte */
	free(out);

	/* combined layout: write, read back, same entries */
	out = NULL;
	o = open_memstream(&out, &len);
	fprintf(o, "%s\n", PI_HEADER_COMBINED);
	for (i = 0; i < s.n; i++) {
		fprintf(o, "%s ", s.v[i].module);
		pi_print_entry(o, &s.v[i]);
	}
	fclose(o);
	{
		struct pi_index c;
		FILE *in = fmemopen(out, len, "r");
		int same = 1;

		pi_index_init(&c);
		CHECK_INT(pi_load_stream(&c, in, "combined", &err), 0);
		fclose(in);
		CHECK_INT(c.n, s.n);
		CHECK(c.layout == PI_LAYOUT_COMBINED);
		for (i = 0; i < c.n && i < s.n; i++)
			same &= !strcmp(c.v[i].module, s.v[i].module) &&
				c.v[i].line == s.v[i].line && c.v[i].level == s.v[i].level &&
				c.v[i].cont == s.v[i].cont && c.v[i].fmt_len == s.v[i].fmt_len &&
				!memcmp(c.v[i].fmt, s.v[i].fmt, c.v[i].fmt_len);
		CHECK(same);
		pi_index_free(&c);
	}
	free(out);
	free(orig);
	pi_index_free(&s);
}

void test_index(void)
{
	static const char *const lines[] = {
		"<3> init/main.c:1559 console_on_rootfs \"Warning: unable to open an initial console.\\n\"",
		"<-1> init/do_mounts.c:444 mount_block_root \"\\n\"",
		"<c> init/initramfs.c:639 reserve_initrd_mem \" - disabling initrd\\n\"",
		"<4,c> a.c:1 f \"x\"",
		"<0> a.c:0 f \"\"",
		"<7> drivers/acpi/bus.c:625 acpi_sb_notify \"ACPI: event %x is not supported by \\\\_SB device\\n\"",
		"<5> init/main.c:906 print_unknown_bootoptions \"Unknown \\\"%s\\\", passed\\n\"",
		"<6> a:b.c:12 f \"file name with a colon\"",
		"<6> a.c:2147483647 f \"max line\"",
		"<6> a.c:7 f \"\\001\\177\\303\\251\\e\\a\\v\\f\\r\\t\"",
		"<6> a.c:7 f \"ends in escaped backslash \\\\\"",
	};
	const struct pi_entry *e;
	struct pi_err err;
	size_t i;

	pi_index_init(&idx);
	for (i = 0; i < ARRAY_SIZE(lines); i++)
		if ((e = good(lines[i])))
			reprint(e, lines[i]);

	e = good("<3> init/main.c:1559 console_on_rootfs \"Warning\\n\"");
	if (e) {
		CHECK_INT(e->level, 3);
		CHECK(!e->cont);
		CHECK_STR(e->file, "init/main.c");
		CHECK_INT(e->line, 1559);
		CHECK_STR(e->func, "console_on_rootfs");
		CHECK_INT(e->fmt_len, 8);
		CHECK_STR(e->fmt, "Warning\n");
		CHECK_STR(e->module, "vmlinux");
	}
	e = good("<c> f.c:1 g \"x\"");
	if (e) {
		CHECK_INT(e->level, -1);
		CHECK(e->cont);
	}
	e = good("<2,c> f.c:1 g \"x\"");
	if (e) {
		CHECK_INT(e->level, 2);
		CHECK(e->cont);
	}
	e = good("<-1> f.c:1 g \"x\"");
	if (e) {
		CHECK_INT(e->level, -1);
		CHECK(!e->cont);
	}
	e = good("<6> a:b.c:12 f \"x\"");
	if (e) {
		CHECK_STR(e->file, "a:b.c");
		CHECK_INT(e->line, 12);
	}

	/* bad lines: message names the problem and the column */
	bad("", 0, "column 1: expected '<'");
	bad("3> a.c:1 f \"x\"", 14, "expected '<'");
	bad("<8> a.c:1 f \"x\"", 15, "bad level/flags '<8>'");
	bad("<-2> a.c:1 f \"x\"", 16, "bad level/flags");
	bad("<-1,c> a.c:1 f \"x\"", 18, "bad level/flags '<-1,c>'");
	bad("<3,x> a.c:1 f \"x\"", 17, "bad level/flags");
	bad("<33> a.c:1 f \"x\"", 16, "bad level/flags");
	bad("<c,c> a.c:1 f \"x\"", 17, "bad level/flags");
	bad("<3", 2, "bad level/flags");
	bad("<3>a.c:1 f \"x\"", 14, "column 4: expected ' '");
	bad("<3>  a.c:1 f \"x\"", 16, "expected 'filename:line'");
	bad("<3> a.c f \"x\"", 13, "expected 'filename:line', got 'a.c'");
	bad("<3> a.c: f \"x\"", 14, "expected 'filename:line'");
	bad("<3> :1 f \"x\"", 12, "expected 'filename:line'");
	bad("<3> a.c:1x f \"x\"", 16, "bad line number '1x'");
	bad("<3> a.c:-1 f \"x\"", 16, "bad line number");
	bad("<3> a.c:007 f \"x\"", 17, "bad line number '007'");
	bad("<3> a.c:99999999999 f \"x\"", 25, "bad line number");
	bad("<3> a.c:1", 9, "expected 'filename:line' followed by ' '");
	bad("<3> a.c:1 f", 11, "expected a function name");
	bad("<3> a.c:1 f ", 12, "expected '\"'");
	bad("<3> a.c:1 f x", 13, "expected '\"'");
	bad("<3> a.c:1 f \"x", 14, "not terminated");
	bad("<3> a.c:1 f \"", 13, "not terminated");
	bad("<3> a.c:1 f \"x\\\"", 16, "not terminated");
	bad("<3> a.c:1 f \"x\"y", 16, "not terminated");
	bad("<3> a.c:1 f \"x\" ", 16, "not terminated");
	bad("<3> a.c:1 f \"a\"b\"", 17, "column 15: unescaped '\"'");
	bad("<3> a.c:1 f \"\\x41\"", 18, "column 14: unknown escape");
	bad("<3> a.c:1 f \"\\101\"", 18, "non-canonical");
	bad("<3> a.c:1 f \"a\tb\"", 17, "raw byte 0x09");
	bad("<3> a.c:1 f \"a\0b\"", 17, "raw byte 0x00");
	bad("<3> a.c:1 f\t\"x\"", 15, "expected a function name");
	bad("<3> a\x01.c:1 f \"x\"", 17, "expected 'filename:line'");
	bad("\xff\xfe\x00garbage", 10, "expected '<'");
	bad("<3> a.c:1 f \"x\"\r", 16, "not terminated");

	/* files */
	{
		static const char hdr[] = PI_HEADER "\n";
		char buf[256];
		char *big;

		file_bad("", 0, "idx:1: missing header (empty file)");
		file_bad("<3> a.c:1 f \"x\"\n", 16, "idx:1: missing header");
		file_bad("# <level/flags> filename:line function \"format\"  \n", 51, "idx:1: missing header");
		file_bad(hdr, sizeof(hdr) - 2, "idx:1: truncated line");
		snprintf(buf, sizeof(buf), "%s<3> a.c:1 f \"x\"\n<3> a.c:2 f \"y", hdr);
		file_bad(buf, strlen(buf), "idx:3: truncated line (no newline at end of file)");
		snprintf(buf, sizeof(buf), "%s<3> a.c:1 f \"x\"\n<9> a.c:2 f \"y\"\n", hdr);
		file_bad(buf, strlen(buf), "idx:3: column 1: bad level/flags");
		snprintf(buf, sizeof(buf), "%s\n", hdr);
		file_bad(buf, strlen(buf), "idx:2: column 1: expected '<'");
		file_bad(PI_HEADER "\n\x00\x01\x02\n", sizeof(hdr) + 3, "idx:2:");

		/* a huge line is refused, not truncated */
		big = malloc(PI_MAX_LINE + 100);
		memset(big, 'a', PI_MAX_LINE + 100);
		memcpy(big, hdr, sizeof(hdr) - 1);
		big[PI_MAX_LINE + 100 - 1] = '\n';
		file_bad(big, PI_MAX_LINE + 100, "idx:2: line too long");
		free(big);

		pi_index_free(&idx);
		pi_index_init(&idx);
		snprintf(buf, sizeof(buf), "%s<3> a.c:1 f \"x\\n\"\n<c> b.c:2 g \"y\"\n", hdr);
		CHECK_INT(load_str(buf, strlen(buf), "/some/dir/e1000", &err), 0);
		CHECK_INT(idx.n, 2);
		CHECK_STR(idx.v[0].module, "e1000");	/* file name = module */
		CHECK_STR(idx.v[1].func, "g");

		snprintf(buf, sizeof(buf), "%s\nvmlinux <3> a.c:1 f \"x\"\ne1000 <4> b.c:2 g \"y\"\n",
			 PI_HEADER_COMBINED);
		CHECK_INT(load_str(buf, strlen(buf), "snap", &err), 0);
		CHECK_STR(idx.v[2].module, "vmlinux");
		CHECK_STR(idx.v[3].module, "e1000");
		snprintf(buf, sizeof(buf), "%s\nvmlinux <3> a.c:1 f \"x\n", PI_HEADER_COMBINED);
		CHECK_INT(load_str(buf, strlen(buf), "snap", &err), -1);
		CHECK_HAS(err.msg, "snap:2: column 23: format is not terminated");
		snprintf(buf, sizeof(buf), "%s\n<3> a.c:1 f \"x\"\n", PI_HEADER_COMBINED);
		CHECK_INT(load_str(buf, strlen(buf), "snap", &err), -1);
		CHECK_HAS(err.msg, "snap:2: column 5: expected '<'");	/* "<3>" taken as the module */

		CHECK_INT(pi_load_source(&idx, "/nonexistent/printk", &err), -1);
		CHECK_HAS(err.msg, "/nonexistent/printk: No such file or directory");
	}
	pi_index_free(&idx);

	roundtrip_sample();
}
