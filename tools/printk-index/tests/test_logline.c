// SPDX-License-Identifier: GPL-2.0
/* Log line shapes and their detection. */
#include "../logline.h"
#include "test.h"

static void t(const char *line, enum log_kind kind, int level, const char *msg)
{
	struct sbuf b = { 0 };
	struct log_line ll;
	char got[512];

	log_parse(line, strlen(line), &ll, &b);
	if (ll.kind != kind) {
		T_FAIL("'%s': kind %s, expected %s", line, log_kind_name(ll.kind),
		       log_kind_name(kind));
		sbuf_free(&b);
		return;
	}
	T_PASS();
	CHECK_INT(ll.level, level);
	if (kind != LOG_SKIP) {
		snprintf(got, sizeof(got), "%.*s", (int)ll.len, ll.msg);
		CHECK_STR(got, msg);
	}
	sbuf_free(&b);
}

void test_logline(void)
{
	/* dmesg */
	t("[    1.234567] Run /init as init process", LOG_DMESG, -1, "Run /init as init process");
	t("[12345.000001] x", LOG_DMESG, -1, "x");
	t("[    0.000000] ", LOG_DMESG, -1, "");
	t("[    1.234567]  two spaces", LOG_DMESG, -1, " two spaces");
	t("[    1.234567] [    T1] with caller", LOG_DMESG, -1, "with caller");
	t("[    1.234567] [     C0] cpu caller", LOG_DMESG, -1, "cpu caller");
	t("[Tue Dec  3 07:51:19 2024] ctime stamp", LOG_DMESG, -1, "ctime stamp");
	t("[drm] Initialized", LOG_RAW, -1, "[drm] Initialized");
	/* %ps of a module function without CONFIG_KALLSYMS is its address */
	t("[drm:0xffffffffa000413c] *ERROR* x", LOG_RAW, -1, "[drm:0xffffffffa000413c] *ERROR* x");
	t("[drm:intel_dp_detect [i915]] *ERROR* x", LOG_RAW, -1,
	  "[drm:intel_dp_detect [i915]] *ERROR* x");
	t("[Dec 3 07:51] reltime clock", LOG_DMESG, -1, "reltime clock");
	t("[    1.23 not closed", LOG_RAW, -1, "[    1.23 not closed");
	/* dmesg -r */
	t("<6>[    1.234567] Run /init as init process", LOG_DMESG_R, 6, "Run /init as init process");
	t("<3>[    1.234567] [    T1] err", LOG_DMESG_R, 3, "err");
	t("<4>no timestamp", LOG_DMESG_R, 4, "no timestamp");
	t("<14>[    9.0] from userspace", LOG_DMESG_R, 6, "from userspace");
	t("<x>nope", LOG_RAW, -1, "<x>nope");
	t("<6", LOG_RAW, -1, "<6");
	/* dmesg -x */
	t("kern  :info  : [    0.000000] Linux version 6.1", LOG_DMESG_X, 6, "Linux version 6.1");
	t("kern  :err   : [    1.000000] bad", LOG_DMESG_X, 3, "bad");
	t("user  :notice: [    2.000000] hi", LOG_DMESG_X, 5, "hi");
	t("kern  :warn  : no stamp", LOG_DMESG_X, 4, "no stamp");
	t("kern  :bogus : x", LOG_RAW, -1, "kern  :bogus : x");
	/* /dev/kmsg */
	t("6,123,456789,-;Run /init as init process", LOG_KMSG, 6, "Run /init as init process");
	t("4,5,6,c;cont", LOG_KMSG, 4, "cont");
	t("6,339,5140900,-,caller=T1;with caller", LOG_KMSG, 6, "with caller");
	t("30,1,2,-;systemd", LOG_KMSG, 6, "systemd");
	t("6,1,2,-;tab\\x09and\\x5cslash", LOG_KMSG, 6, "tab\tand\\slash");
	t("6,1,2,-;bad \\xZZ escape", LOG_KMSG, 6, "bad \\xZZ escape");
	t("6,1,2,-;short \\x4", LOG_KMSG, 6, "short \\x4");
	t("6,1,2,-;", LOG_KMSG, 6, "");
	/* kmsg.c's limits (the one parser of records): a field that does
	 * not fit 64 bits, a priority over 0xfffff, a blank among the
	 * fields after the flag: text, not a record */
	t("6,123456789012345678901,2,-;seq too long", LOG_RAW, -1,
	  "6,123456789012345678901,2,-;seq too long");
	t("1048576,1,2,-;priority too large", LOG_RAW, -1, "1048576,1,2,-;priority too large");
	t("6,1,2,-,caller=T1 x;blank", LOG_RAW, -1, "6,1,2,-,caller=T1 x;blank");
	t("6,1,2;no flags", LOG_RAW, -1, "6,1,2;no flags");
	t("6,1,2,-no semicolon", LOG_RAW, -1, "6,1,2,-no semicolon");
	t("6,1,2,-x;odd field", LOG_RAW, -1, "6,1,2,-x;odd field");
	t(" SUBSYSTEM=pci", LOG_SKIP, -1, NULL);
	t(" DEVICE=+pci:0000:00:01.0", LOG_SKIP, -1, NULL);
	t("  indented text", LOG_RAW, -1, "  indented text");
	/* journalctl -k */
	t("Dec 03 07:51:19 myhost kernel: Run /init as init process", LOG_JOURNAL, -1,
	  "Run /init as init process");
	t("Dec  3 07:51:19 myhost kernel: x", LOG_JOURNAL, -1, "x");
	t("2024-12-03T07:51:19+0100 myhost kernel: iso", LOG_JOURNAL, -1, "iso");
	t("2024-12-03T07:51:19.123456+01:00 myhost kernel: usec", LOG_JOURNAL, -1, "usec");
	t("Dec 03 07:51:19 myhost systemd[1]: Started", LOG_RAW, -1,
	  "Dec 03 07:51:19 myhost systemd[1]: Started");
	t("-- Boot 0123456789abcdef --", LOG_SKIP, -1, NULL);
	t("-- No entries --", LOG_SKIP, -1, NULL);
	/* empty and raw */
	t("", LOG_SKIP, -1, NULL);
	t("just text", LOG_RAW, -1, "just text");
	t("1234", LOG_RAW, -1, "1234");
	t("   ", LOG_SKIP, -1, NULL);
	/* the other dmesg stamps */
	t("[    1.234567 <    0.000123>] delta", LOG_DMESG, -1, "delta");
	t("[<    0.000123>] delta only", LOG_DMESG, -1, "delta only");
	t("[  +0.000123] reltime", LOG_DMESG, -1, "reltime");
	t("[Dec 5 13:10] reltime start", LOG_DMESG, -1, "reltime start");
	t("\x1b[32m[Dec 5 13:10]\x1b[0m \x1b[1mcolour\x1b[0m", LOG_DMESG, -1, "colour");
	t("2026-12-05T13:10:02,041062+00:00 iso", LOG_DMESG, -1, "iso");
	t("2026-12-05T13:10:02 no zone", LOG_DMESG, -1, "no zone");
	t("2026-12-05 13:10:02 not iso", LOG_RAW, -1, "2026-12-05 13:10:02 not iso");
	t("kern  :info  : 2026-12-05T13:10:02,041062+00:00 x iso", LOG_DMESG_X, 6, "x iso");
	t("  [    1.0] leading blanks", LOG_DMESG, -1, "leading blanks");
	/* journalctl -o ..., syslog files */
	t("Dec 05 13:10:02.041062 h kernel: precise", LOG_JOURNAL, -1, "precise");
	t("Sat 2026-12-05 13:10:02 CET h kernel: full", LOG_JOURNAL, -1, "full");
	t("1764940202.041062 h kernel: unix", LOG_JOURNAL, -1, "unix");
	t("[    0.041062] h kernel: monotonic", LOG_JOURNAL, -1, "monotonic");
	t("Dec 05 13:10:02 kernel: no host", LOG_JOURNAL, -1, "no host");
	t("Dec  5 13:10:02 h kernel: [    0.041062] kern.log", LOG_JOURNAL, -1, "kern.log");
	t("Sat 2026-12-05 h kernel: x", LOG_RAW, -1, "Sat 2026-12-05 h kernel: x");
	t("-- Reboot --", LOG_SKIP, -1, NULL);
	/* with a priority */
	t("<6>Dec  5 13:10:02 h kernel: wire", LOG_SYSLOG, 6, "wire");
	t("<3>1 2026-12-05T13:10:02.1Z h kernel - - - 5424", LOG_RFC5424, 3, "5424");
	t("<4>1 2026-12-05T13:10:02Z h kernel - - [a b=\"x\\]y\\\"z\"][c] sd", LOG_RFC5424, 4, "sd");
	t("<4>1 2026-12-05T13:10:02Z h kernel - - - \xef\xbb\xbf" "bom", LOG_RFC5424, 4, "bom");
	t("<4>1 2026-12-05T13:10:02Z h kernel - -", LOG_DMESG_R, 4,
	  "1 2026-12-05T13:10:02Z h kernel - -");
	/* extended netconsole */
	t("6.1.0-13-amd64,6,1,2,-;release", LOG_KMSG, 6, "release");
	t("6,1,2,-,ncfrag=0/1200;fragment", LOG_KMSG, 6, "fragment");
	t("6.1 words,6,1,2,-;no", LOG_RAW, -1, "6.1 words,6,1,2,-;no");
	/* journalctl -o json */
	t("{\"PRIORITY\":\"3\",\"MESSAGE\":\"a\\tb\\u00e9\\\"\"}", LOG_JOURNAL_JSON, 3,
	  "a\tb\xc3\xa9\"");
	t("{\"MESSAGE\":[104,105,255],\"PRIORITY\":\"6\",\"X\":null}", LOG_JOURNAL_JSON, 6,
	  "hi\xff");
	t("{\"PRIORITY\":\"6\"}", LOG_RAW, -1, "{\"PRIORITY\":\"6\"}");
	t("{\"MESSAGE\":\"cut", LOG_RAW, -1, "{\"MESSAGE\":\"cut");
}

/* One input: --format forces a shape; otherwise the shape of the line
 * before is tried first. */
static void t_in(struct log_shape *s, const char *line, enum log_kind kind, const char *msg)
{
	struct sbuf b = { 0 };
	struct log_line ll;
	char got[512];

	log_parse_in(s, line, strlen(line), &ll, &b);
	CHECK_STR(log_kind_name(ll.kind), log_kind_name(kind));
	snprintf(got, sizeof(got), "%.*s", (int)ll.len, ll.msg);
	CHECK_STR(got, msg);
	sbuf_free(&b);
}

void test_logline_input(void)
{
	struct log_shape s;

	CHECK_INT(log_kind_by_name("dmesg"), LOG_DMESG);
	CHECK_INT(log_kind_by_name("kern.log"), LOG_JOURNAL);
	CHECK_INT(log_kind_by_name("cat"), LOG_RAW);
	CHECK_INT(log_kind_by_name("auto"), LOG_NKINDS);
	CHECK_INT(log_kind_by_name("skip"), -1);
	CHECK_INT(log_kind_by_name("bogus"), -1);

	/* "[    1.0] a kernel: b" is a dmesg line among dmesg lines... */
	log_shape_init(&s, LOG_NKINDS);
	t_in(&s, "[    0.5] x", LOG_DMESG, "x");
	t_in(&s, "[    1.0] a kernel: b", LOG_DMESG, "a kernel: b");
	/* ...and short-monotonic among journal lines; mixed inputs still work */
	log_shape_init(&s, LOG_NKINDS);
	t_in(&s, "Dec 05 13:10:02 h kernel: x", LOG_JOURNAL, "x");
	t_in(&s, "[    1.0] a kernel: b", LOG_JOURNAL, "b");
	t_in(&s, "6,1,2,-;kmsg", LOG_KMSG, "kmsg");
	t_in(&s, "[    1.0] a kernel: b", LOG_JOURNAL, "b");

	/* forced: only that shape; other lines are raw, whole */
	log_shape_init(&s, LOG_DMESG);
	t_in(&s, "[    1.0] a kernel: b", LOG_DMESG, "a kernel: b");
	t_in(&s, "<6>[    1.0] x", LOG_RAW, "<6>[    1.0] x");
	t_in(&s, "", LOG_SKIP, "");
	log_shape_init(&s, LOG_RAW);
	t_in(&s, "[    1.0] x", LOG_RAW, "[    1.0] x");
	t_in(&s, " SUBSYSTEM=pci", LOG_RAW, " SUBSYSTEM=pci");
	log_shape_init(&s, LOG_KMSG);
	t_in(&s, " SUBSYSTEM=pci", LOG_SKIP, " SUBSYSTEM=pci");
}
