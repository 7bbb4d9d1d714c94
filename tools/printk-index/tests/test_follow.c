// SPDX-License-Identifier: GPL-2.0
/* match --follow: kmsg records, wall-clock times, KERN_CONT assembly and
 * the JSON lines the follower writes for records fed to it. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../cont.h"
#include "../follow.h"
#include "../kmsg.h"
#include "test.h"

static void test_records(void)
{
	struct kmsg_record r;
	struct sbuf buf = { 0 };
	struct pi_err err;
	static const char with_dict[] =
		"3,104,5000030,-;pi_sample pi_sample: device error x\n"
		" SUBSYSTEM=platform\n"
		" DEVICE=+platform:pi\\x5csample\n";
	static const char odd_keys[] = "6,1,2,-;m\n A B=1\n \x01=2\n OK=3";
	static const char escaped[] = "6,7,8,-;tab\\x09nl\\x0aback\\x5c bad\\xZZ end\\x4";

	CHECK_INT(kmsg_parse_record(with_dict, sizeof(with_dict) - 1, &r, &buf, &err), 0);
	CHECK_INT(r.facility, 0);
	CHECK_INT(r.level, 3);
	CHECK_INT(r.seq, 104);
	CHECK_INT(r.ts_usec, 5000030);
	CHECK_INT(r.flag, '-');
	CHECK_MEM(r.msg, r.len, "pi_sample pi_sample: device error x", 35);
	CHECK_INT(r.ndict, 2);
	CHECK_STR(r.dict[0].key, "SUBSYSTEM");
	CHECK_STR(r.dict[0].value, "platform");
	CHECK_STR(r.dict[1].key, "DEVICE");
	CHECK_STR(r.dict[1].value, "+platform:pi\\sample");	/* \x5c undone */

	/* \xNN undone, a NUL too; what is not an escape stays as it is */
	CHECK_INT(kmsg_parse_record(escaped, sizeof(escaped) - 1, &r, &buf, &err), 0);
	CHECK_MEM(r.msg, r.len, "tab\tnl\nback\\ bad\\xZZ end\\x4", 27);
	CHECK_INT(kmsg_parse_record("6,1,2,-;a\\x00b", 14, &r, &buf, &err), 0);
	CHECK_MEM(r.msg, r.len, "a\0b", 3);

	/* facility << 3 | level; caller id and future fields after the flag */
	CHECK_INT(kmsg_parse_record("12,5,6,c,caller=T1;x", 20, &r, &buf, &err), 0);
	CHECK_INT(r.facility, 1);
	CHECK_INT(r.level, 4);
	CHECK_INT(r.flag, 'c');
	CHECK_MEM(r.msg, r.len, "x", 1);
	CHECK_INT(kmsg_parse_record("4,9,9,+;", 8, &r, &buf, &err), 0);
	CHECK_INT(r.flag, '+');
	CHECK_INT(r.len, 0);
	/* a malformed dictionary line is skipped, the record kept */
	CHECK_INT(kmsg_parse_record("6,1,2,-;m\n NOEQUALS\n =x\nnot dict\n K=v", 37, &r, &buf, &err), 0);
	CHECK_INT(r.ndict, 1);
	CHECK_STR(r.dict[0].key, "K");
	CHECK_STR(r.dict[0].value, "v");
	/* keys are printable without blanks, as the kernel's are */
	CHECK_INT(kmsg_parse_record(odd_keys, sizeof(odd_keys) - 1, &r, &buf, &err), 0);
	CHECK_INT(r.ndict, 1);
	CHECK_STR(r.dict[0].key, "OK");
	CHECK_STR(r.dict[0].value, "3");

	CHECK_INT(kmsg_parse_record("garbage", 7, &r, &buf, &err), -1);
	CHECK_STR(err.msg, "kmsg record without ';' after its header");
	CHECK_INT(kmsg_parse_record("6,1;x", 5, &r, &buf, &err), -1);
	CHECK_STR(err.msg, "kmsg record header is not \"PRI,SEQ,USEC,FLAGS;\"");
	CHECK_INT(kmsg_parse_record("6,1,2,x;m", 9, &r, &buf, &err), -1);
	CHECK_STR(err.msg, "kmsg record has bad flags 'x'");
	CHECK_INT(kmsg_parse_record("6,1,2,-x;m", 10, &r, &buf, &err), -1);
	CHECK_INT(kmsg_parse_record("6,99999999999999999999,2,-;m", 28, &r, &buf, &err), -1);
	CHECK_INT(kmsg_parse_record("", 0, &r, &buf, &err), -1);
	/* the ';' must be on the header line */
	CHECK_INT(kmsg_parse_record("6,1,2,-\n K=v;x", 14, &r, &buf, &err), -1);
	sbuf_free(&buf);
}

static void test_iso(void)
{
	char b[KMSG_ISO_LEN];

	CHECK_STR(kmsg_iso8601(0, b), "1970-01-01T00:00:00.000000Z");
	CHECK_STR(kmsg_iso8601(1733212279123456LL, b), "2024-12-03T07:51:19.123456Z");
	CHECK_STR(kmsg_iso8601(951782400000001LL, b), "2000-02-29T00:00:00.000001Z");
	CHECK_STR(kmsg_iso8601(-1, b), "1969-12-31T23:59:59.999999Z");
	CHECK_STR(kmsg_iso8601(253402300800000000LL, b), "");	/* year 10000 */
	/* boot time + a record's timestamp */
	CHECK_STR(kmsg_iso8601(1733212279123456LL + 5000030, b), "2024-12-03T07:51:24.123486Z");
}

static const char cont_index[] =
	PI_HEADER "\n"
	"<6> s.c:51 counting \"pi_sample: counting:\"\n"
	"<c> s.c:52 counting \" %d\"\n"
	"<6,c> s.c:53 counting \" done\\n\"\n"
	"<c> other.c:1 other \" %s\"\n"
	"<c> other.c:2 other \" %d\"\n"
	"<6> s.c:60 whole \"pi_sample: counting: all\\n\"\n"
	"<3> t.c:5 table \"table:\"\n"
	"<c> t.c:6 table \" %02x\"\n"
	"<c> t.c:7 table \"\\n\"\n";

static void load(struct pi_index *idx, const char *text, const char *module)
{
	struct pi_err err;
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	pi_index_init(idx);
	CHECK_INT(pi_load_stream(idx, f, module, &err), 0);
	fclose(f);
}

/* see test.h */
const char *t_chain_text(const struct chain *ch, int ok)
{
	static char s[2048];
	size_t i, n = 0;

	if (!ok)
		return "-";
	s[0] = '\0';
	for (i = 0; i < ch->n && n < sizeof(s); i++)
		n += snprintf(s + n, sizeof(s) - n, "%s%s:%u[%zu,%zu]", i ? " " : "",
			      ch->p[i].e->file, ch->p[i].e->line, ch->p[i].off, ch->p[i].len);
	return s;
}

static void test_chains(void)
{
	struct pi_index idx;
	struct matcher m;
	struct chain_matcher c;
	struct attribution a;
	struct chain ch;
	const char *msg;

	load(&idx, cont_index, "mod");
	matcher_build(&m, &idx);
	chain_init(&c, &m);
	CHECK_INT(c.cont_idx.n, 6);

	/* the base, then " %d" from the base's own file (not other.c's, not
	 * the wider " %s"), then " done" */
	msg = "pi_sample: counting: 2 done";
	CHECK_STR(t_chain_text(&ch, chain_match(&c, msg, strlen(msg), 6, false, &ch)),
		  "s.c:51[0,20] s.c:52[20,2] s.c:53[22,5]");
	CHECK_INT(ch.others, 0);
	CHECK_INT(ch.lit_bytes, 20 + 1 + 5);
	/* several continuation pieces of the same format */
	msg = "table: 0a ff 10";
	CHECK_STR(t_chain_text(&ch, chain_match(&c, msg, strlen(msg), 3, false, &ch)),
		  "t.c:5[0,6] t.c:6[6,3] t.c:6[9,3] t.c:6[12,3]");
	/* the base's level must fit */
	CHECK_STR(t_chain_text(&ch, chain_match(&c, msg, strlen(msg), 6, false, &ch)), "-");
	/* " %s" explains any text after a blank... */
	msg = "pi_sample: counting: two done";
	CHECK_STR(t_chain_text(&ch, chain_match(&c, msg, strlen(msg), 6, false, &ch)),
		  "s.c:51[0,20] other.c:1[20,4] s.c:53[24,5]");
	/* ...but no piece starts without one */
	msg = "pi_sample: counting:two";
	CHECK_STR(t_chain_text(&ch, chain_match(&c, msg, strlen(msg), 6, false, &ch)), "-");
	msg = "nothing to see";
	CHECK_STR(t_chain_text(&ch, chain_match(&c, msg, strlen(msg), -1, false, &ch)), "-");
	/* pieces alone, as the kernel flags a piece it could not append */
	msg = " 7 done";
	CHECK_STR(t_chain_text(&ch, chain_match(&c, msg, strlen(msg), -1, true, &ch)),
		  "s.c:52[0,2] s.c:53[2,5]");
	/* only the first line of a multi-line record is split */
	msg = "table: 0a\nsecond line";
	CHECK_STR(t_chain_text(&ch, chain_match(&c, msg, strlen(msg), 3, false, &ch)),
		  "t.c:5[0,6] t.c:6[6,3]");

	/* attribute_message: a whole-line format wins, no chain */
	msg = "pi_sample: counting: all";
	attribute_message(&c, msg, strlen(msg), 6, &a);
	CHECK(!a.chained);
	CHECK_INT(a.single.status, MATCH_SPECIFIC);
	CHECK_STR(a.single.best->func, "whole");
	msg = "pi_sample: counting: 3 done";
	attribute_message(&c, msg, strlen(msg), 6, &a);
	CHECK(a.chained);
	CHECK_INT(a.chain.n, 3);
	/* a base without continuation: the single prefix match stays */
	msg = "pi_sample: counting:";
	attribute_message(&c, msg, strlen(msg), 6, &a);
	CHECK(!a.chained);
	CHECK_STR(a.single.best->func, "counting");

	chain_free(&c);
	matcher_free(&m);
	pi_index_free(&idx);
}

/* Feed records to a follower writing into memory; returns its output. */
static char *follow(const char *index_path, const char *const *recs, size_t n)
{
	/* static: open_memstream() keeps their addresses, which gcc's
	 * -Wdangling-pointer takes for a local escaping through the result */
	static char *text;
	static size_t size;
	struct follower f;
	struct pi_err err;
	FILE *out = open_memstream(&text, &size);
	size_t i;

	CHECK_INT(follower_init(&f, index_path, out, 1733212279000000LL, &err), 0);
	for (i = 0; i < n; i++) {
		if (!recs[i])
			follower_overrun(&f);
		else
			follower_record(&f, recs[i], strlen(recs[i]));
	}
	follower_free(&f);
	fclose(out);
	return text;
}

/* The next line of the output, cut off in place; NULL at the end. */
static char *next_line(char **cur)
{
	char *s = *cur, *nl;

	if (!*s)
		return NULL;
	nl = strchr(s, '\n');
	if (nl) {
		*nl = '\0';
		*cur = nl + 1;
	} else {
		*cur = s + strlen(s);
	}
	return s;
}

static void test_follower(void)
{
	char dir[] = "/tmp/printk-index-follow.XXXXXX", path[64];
	static const char *const recs[] = {
		"6,100,5000000,-;pi_sample: counting: 2 done\n",
		"3,101,5000030,-;t\\x5c \\x22q\\x22\n SUBSYSTEM=platform\n DEVICE=+platform:x\n",
		"14,103,6000000,-;from userspace\n",
		"not a record\n",
		NULL,	/* EPIPE */
		"6,110,7000000,-;pi_sample: counting:\n",
		"4,111,7000001,c; 5\n",
		"4,112,7000002,c; done\n",
	};
	char *text, *line, *cur;
	FILE *f;

	if (!mkdtemp(dir)) {
		T_FAIL("no temp dir");
		return;
	}
	snprintf(path, sizeof(path), "%s/pi_sample", dir);
	f = fopen(path, "w");
	fputs(cont_index, f);
	fclose(f);
	text = follow(path, recs, ARRAY_SIZE(recs));
	cur = text;
	/* a whole line: the shape every consumer parses */
	CHECK_STR(next_line(&cur), "{\"seq\":100,\"facility\":0,\"level\":6,\"flags\":\"-\","
		  "\"timestamp_us\":5000000,\"time\":\"2024-12-03T07:51:24.000000Z\","
		  "\"message\":\"pi_sample: counting: 2 done\",\"dict\":{},\"class\":\"attributed\","
		  "\"attribution\":{\"module\":\"pi_sample\",\"file\":\"s.c\",\"line\":51,"
		  "\"function\":\"counting\",\"format\":\"pi_sample: counting:\",\"level\":6,"
		  "\"specificity\":26,\"generic\":false,\"prefix\":false,\"others\":0,"
		  "\"pieces\":[{\"module\":\"pi_sample\",\"level\":6,\"cont\":false,"
		  "\"file\":\"s.c\",\"line\":51,\"function\":\"counting\","
		  "\"format\":\"pi_sample: counting:\",\"text\":\"pi_sample: counting:\"},"
		  "{\"module\":\"pi_sample\",\"level\":-1,\"cont\":true,\"file\":\"s.c\","
		  "\"line\":52,\"function\":\"counting\",\"format\":\" %d\",\"text\":\" 2\"},"
		  "{\"module\":\"pi_sample\",\"level\":6,\"cont\":true,\"file\":\"s.c\","
		  "\"line\":53,\"function\":\"counting\",\"format\":\" done\\n\","
		  "\"text\":\" done\"}]}}");
	CHECK_STR(next_line(&cur), "{\"seq\":101,\"facility\":0,\"level\":3,\"flags\":\"-\","
		  "\"timestamp_us\":5000030,\"time\":\"2024-12-03T07:51:24.000030Z\","
		  "\"message\":\"t\\\\ \\\"q\\\"\",\"dict\":{\"SUBSYSTEM\":\"platform\","
		  "\"DEVICE\":\"+platform:x\"},\"class\":\"unattributed\",\"attribution\":null}");
	CHECK_STR(next_line(&cur), "{\"lost\":1,\"seq\":102,\"reason\":\"gap\"}");
	CHECK_STR(next_line(&cur), "{\"seq\":103,\"facility\":1,\"level\":6,\"flags\":\"-\","
		  "\"timestamp_us\":6000000,\"time\":\"2024-12-03T07:51:25.000000Z\","
		  "\"message\":\"from userspace\",\"dict\":{},\"class\":\"unattributed\",\"attribution\":null}");
	CHECK_STR(next_line(&cur), "{\"malformed\":\"not a record\","
		  "\"error\":\"kmsg record without ';' after its header\"}");
	CHECK_STR(next_line(&cur), "{\"lost\":6,\"seq\":104,\"reason\":\"overrun\"}");
	CHECK_STR(next_line(&cur), "{\"seq\":110,\"facility\":0,\"level\":6,\"flags\":\"-\","
		  "\"timestamp_us\":7000000,\"time\":\"2024-12-03T07:51:26.000000Z\","
		  "\"message\":\"pi_sample: counting:\",\"dict\":{},\"class\":\"attributed\","
		  "\"attribution\":{\"module\":\"pi_sample\",\"file\":\"s.c\",\"line\":51,"
		  "\"function\":\"counting\",\"format\":\"pi_sample: counting:\",\"level\":6,"
		  "\"specificity\":20,\"generic\":false,\"prefix\":false,\"others\":0}}");
	line = next_line(&cur);
	CHECK_HAS(line, "\"message\":\" 5\"");
	CHECK_HAS(line, "\"text\":\" 5\"}],\"continues\":110}}");
	line = next_line(&cur);
	CHECK_HAS(line, "\"function\":\"counting\",\"format\":\" done\\n\",\"text\":\" done\"}],\"continues\":111}}");
	CHECK(next_line(&cur) == NULL);
	unlink(path);
	rmdir(dir);
	free(text);
}

static void put_file(const char *dir, const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

/* A module's index file appears: the next record nothing explains makes
 * the follower read the folder again; a file that went drops its entries. */
static void test_reload(void)
{
	char dir[] = "/tmp/printk-index-reload.XXXXXX", path[128];
	static const char rec[] = "6,1,2,-;newmod: hello 42\n";
	struct follower f;
	struct pi_err err;
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	if (!mkdtemp(dir)) {
		T_FAIL("no temp dir");
		return;
	}
	put_file(dir, "vmlinux", PI_HEADER "\n<6> init/main.c:1 start \"booting %s\\n\"\n");
	CHECK_INT(follower_init(&f, dir, out, 0, &err), 0);
	CHECK_INT(f.ix->idx.n, 1);
	put_file(dir, "newmod", PI_HEADER "\n<6> newmod.c:7 newmod_init \"newmod: hello %d\\n\"\n"
		 "<6> newmod.c:8 newmod_count \"newmod: counting\"\n"
		 "<c> newmod.c:9 newmod_count \" %d\"\n"
		 "<c> newmod.c:10 newmod_count \" done\\n\"\n"
		 "<6> newmod.c:11 newmod_two \"newmod: first\\n second %d\\n\"\n"
		 "<6> newmod.c:12 newmod_blank \"newmod: spaced out \\n\"\n");
	follower_record(&f, rec, sizeof(rec) - 1);
	fflush(out);
	CHECK_HAS(text, "\"attribution\":{\"module\":\"newmod\",\"file\":\"newmod.c\",\"line\":7,");
	CHECK_INT(f.st.reloads, 1);
	CHECK_INT(f.ix->idx.n, 7);
	/* after the reload, the matchers the follower moved into place are
	 * whole: KERN_CONT pieces, a later line, a stripped trailing blank */
	follower_record(&f, "6,5,6,-;newmod: counting 1 2 done\n", 35);
	follower_record(&f, "6,6,7,-; second 5\n", 19);
	follower_record(&f, "6,7,8,-;newmod: spaced out\n", 27);
	fflush(out);
	CHECK_HAS(text, "\"function\":\"newmod_count\",\"format\":\" done\\n\",\"text\":\" done\"}]");
	CHECK_HAS(text, "\"message\":\" second 5\",\"dict\":{},\"class\":\"attributed\","
		  "\"attribution\":{\"module\":\"newmod\",\"file\":\"newmod.c\",\"line\":11,");
	CHECK_HAS(text, "\"message\":\"newmod: spaced out\",\"dict\":{},\"class\":\"attributed\","
		  "\"attribution\":{\"module\":\"newmod\",\"file\":\"newmod.c\",\"line\":12,");
	CHECK_INT(f.st.reloads, 1);
	/* nothing changed: an unexplained record does not reload */
	follower_record(&f, "6,2,3,-;unknown words\n", 22);
	CHECK_INT(f.st.reloads, 1);
	/* the module went away: after a reload (SIGHUP) its entry is gone */
	snprintf(path, sizeof(path), "%s/newmod", dir);
	unlink(path);
	CHECK_INT(follower_reload(&f, &err), 0);
	CHECK_INT(f.ix->idx.n, 1);
	follower_record(&f, "6,3,4,-;newmod: hello 43\n", 25);
	fflush(out);
	CHECK_HAS(text, "\"message\":\"newmod: hello 43\",\"dict\":{},\"class\":\"unattributed\",\"attribution\":null}");
	/* an unreadable index on reload keeps the old one (a file with no
	 * index header would be skipped: this one breaks after it) */
	put_file(dir, "broken", PI_HEADER "\n<3> a.c:10 f \"bro\\ken\\n\"\n");
	CHECK_INT(follower_reload(&f, &err), -1);
	CHECK_INT(f.ix->idx.n, 1);
	CHECK_INT(f.have_index, 1);
	follower_free(&f);
	fclose(out);
	free(text);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CHECK_INT(system(path), 0);
}

/* Run the binary (stdout and stderr to a file); returns its exit code and
 * leaves the output in out. */
static char out[8192];

static int run(const char *args)
{
	char cmd[1024];
	FILE *f;
	size_t n;
	int st;

	snprintf(cmd, sizeof(cmd), "%s %s > /tmp/printk-index-follow.out 2>&1", t_binary, args);
	st = system(cmd);
	f = fopen("/tmp/printk-index-follow.out", "r");
	n = f ? fread(out, 1, sizeof(out) - 1, f) : 0;
	out[n] = '\0';
	if (f)
		fclose(f);
	unlink("/tmp/printk-index-follow.out");
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_cli_follow(void)
{
	char dir[] = "/tmp/printk-index-fcli.XXXXXX", args[512];

	if (!mkdtemp(dir)) {
		T_FAIL("no temp dir");
		return;
	}
	put_file(dir, "pi_sample", cont_index);
	put_file(dir, "log", "[    1.000000] pi_sample: counting: 2 done\n"
		 "[    1.000001] pi_sample: counting: all\n");
	put_file(dir, "records", "6,1,2,-;pi_sample: counting: 2 done\n"
		 " SUBSYSTEM=x\n"
		 "6,2,3,-;pi_sample: counting: all\n");

	/* plain match: a KERN_CONT line keeps its one-line shape (the base
	 * entry); -v and -j say which pieces made it */
	snprintf(args, sizeof(args), "match --index %s/pi_sample %s/log", dir, dir);
	CHECK_INT(run(args), 0);
	CHECK_STR(out, "1 attributed pi_sample s.c:51 counting +0\n"
		  "2 attributed pi_sample s.c:60 whole +1\n"	/* the base is a prefix */
		  "printk-index: 2 lines: 2 attributed, 0 generic-only, 0 unattributed (0 skipped)\n");
	snprintf(args, sizeof(args), "match -v --index %s/pi_sample %s/log", dir, dir);
	CHECK_INT(run(args), 0);
	CHECK_HAS(out, "    pieces: base <6> s.c:51 counting \"pi_sample: counting:\"\n"
		  "    continued by <c> s.c:52 counting \" %d\"\n"
		  "    continued by <6,c> s.c:53 counting \" done\\n\"\n");
	snprintf(args, sizeof(args), "match -j --index %s/pi_sample %s/log", dir, dir);
	CHECK_INT(run(args), 0);
	CHECK_HAS(out, "\"prefix\":false,\"others\":0,\"entry\":{\"module\":\"pi_sample\",\"level\":6,");
	CHECK_HAS(out, "\"format\":\" %d\",\"text\":\" 2\"}");

	/* --follow on a file: every record, then exit 0 */
	snprintf(args, sizeof(args), "match --follow --index %s/pi_sample %s/records", dir, dir);
	CHECK_INT(run(args), 0);
	CHECK_HAS(out, "{\"seq\":1,\"facility\":0,\"level\":6,\"flags\":\"-\",\"timestamp_us\":2,");
	CHECK_HAS(out, "\"dict\":{\"SUBSYSTEM\":\"x\"},\"class\":\"attributed\",\"attribution\":{\"module\":\"pi_sample\",\"file\":\"s.c\",\"line\":51,");
	CHECK_HAS(out, "\"attribution\":{\"module\":\"pi_sample\",\"file\":\"s.c\",\"line\":60,");
	snprintf(args, sizeof(args), "match --follow --index %s/pi_sample - < %s/records", dir, dir);
	CHECK_INT(run(args), 0);
	CHECK_HAS(out, "\"line\":60,");

	/* what cannot be followed */
	snprintf(args, sizeof(args), "match --follow --index %s/pi_sample %s/nothing", dir, dir);
	CHECK_INT(run(args), 2);
	CHECK_HAS(out, "printk-index: ");
	CHECK_HAS(out, "/nothing: No such file or directory");
	snprintf(args, sizeof(args), "match --follow --index %s/pi_sample /dev/null", dir);
	CHECK_INT(run(args), 2);
	CHECK_HAS(out, "/dev/null: not the kernel log device /dev/kmsg (char 1:3)");
	snprintf(args, sizeof(args), "match --follow --index %s/pi_sample %s", dir, dir);
	CHECK_INT(run(args), 2);
	CHECK_HAS(out, "is a folder, not a kernel log");
	snprintf(args, sizeof(args), "match --follow --index %s/missing %s/records", dir, dir);
	CHECK_INT(run(args), 2);
	snprintf(args, sizeof(args), "match --follow --bogus %s/records", dir);
	CHECK_INT(run(args), 2);
	CHECK_HAS(out, "Usage: printk-index match --follow");

	snprintf(args, sizeof(args), "rm -rf %s", dir);
	CHECK_INT(system(args), 0);
}

void test_follow(void)
{
	test_records();
	test_iso();
	test_chains();
	test_follower();
	test_reload();
	test_cli_follow();
}
