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
}
