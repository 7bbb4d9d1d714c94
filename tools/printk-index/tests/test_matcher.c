// SPDX-License-Identifier: GPL-2.0
/* The whole-index matcher: ranking, generic lines, levels, counts. */
#include <stdio.h>

#include "../cont.h"
#include "../matcher.h"
#include "test.h"

static const char small_index[] =
	PI_HEADER "\n"
	"<6> drivers/net/e1000.c:10 e1000_up \"%s %s: Link is Up %d Mbps\\n\"\n"
	"<4> kernel/foo.c:20 foo \"Link is Up %d Mbps\\n\"\n"
	"<-1> kernel/bar.c:30 bar \"%s\\n\"\n"
	"<3> kernel/err.c:40 err \"failed: %pe\\n\"\n"
	"<6> kernel/mac.c:50 mac \"addr %pM\\n\"\n"
	"<3> kernel/mac.c:60 mac2 \"addr %pM\\n\"\n"
	"<6> kernel/m.c:70 multi \"first line\\nsecond %d\\n\"\n"
	"<c> kernel/c.c:80 cont \" done\\n\"\n"
	"<6> kernel/c.c:79 start \"No filesystem could mount root, tried: \"\n"
	"<5> kernel/s.c:90 shorty \"%s: %d\\n\"\n";

static struct pi_index idx;
static struct matcher m;

static void t(const char *msg, int level, enum match_status st, const char *func,
	      size_t nmatch, bool prefix)
{
	struct match_result r;

	matcher_match(&m, msg, strlen(msg), level, &r);
	CHECK_INT(r.status, st);
	if (func) {
		CHECK(r.best != NULL);
		if (r.best)
			CHECK_STR(r.best->func, func);
	} else {
		CHECK(r.best == NULL);
	}
	CHECK_INT(r.nmatch, nmatch);
	CHECK_INT(r.prefix, prefix);
}

/*
 * idx, and m built over it, from the text of an index file; what
 * pi_load_stream() returned (the caller checks it: a case is counted
 * where its assertions are).
 */
static int load(const char *text, size_t len, const char *module)
{
	struct pi_err err;
	FILE *f = fmemopen((void *)text, len, "r");
	int ret;

	pi_index_free(&idx);
	pi_index_init(&idx);
	ret = pi_load_stream(&idx, f, module, &err);
	fclose(f);
	matcher_build(&m, &idx);
	return ret;
}

void test_matcher(void)
{
	CHECK_INT(load(small_index, sizeof(small_index) - 1, "vmlinux"), 0);
	CHECK_INT(m.nfmt, 9);	/* "addr %pM\n" is shared */

	t("e1000 0000:00:03.0: Link is Up 1000 Mbps", -1, MATCH_SPECIFIC, "e1000_up", 1, false);
	t("e1000 0000:00:03.0: Link is Up 1000 Mbps", 6, MATCH_SPECIFIC, "e1000_up", 1, false);
	/* wrong level: only the default-level generic entry is left */
	t("e1000 0000:00:03.0: Link is Up 1000 Mbps", 3, MATCH_CATCH_ALL, "bar", 1, false);
	t("Link is Up 100 Mbps", -1, MATCH_SPECIFIC, "foo", 1, false);
	t("Link is Up fast Mbps", -1, MATCH_CATCH_ALL, "bar", 1, false);
	t("whatever", -1, MATCH_CATCH_ALL, "bar", 1, false);
	/* "%s\n" matches too: catch-alls are not counted beside others */
	t("whatever: 12", -1, MATCH_GENERIC, "shorty", 1, false);
	t("whatever: 12", 3, MATCH_CATCH_ALL, "bar", 1, false);
	t("failed: -ENOMEM", 3, MATCH_SPECIFIC, "err", 1, false);
	t("failed: -12", -1, MATCH_SPECIFIC, "err", 1, false);
	t("failed: -ENOMEM", 6, MATCH_CATCH_ALL, "bar", 1, false);
	t("addr 52:54:00:12:34:56", -1, MATCH_SPECIFIC, "mac", 2, false);
	t("addr 52:54:00:12:34:56", 3, MATCH_SPECIFIC, "mac2", 1, false);
	t("addr 52:54:00:12:34:56", 6, MATCH_SPECIFIC, "mac", 1, false);
	t("addr hello", -1, MATCH_CATCH_ALL, "bar", 1, false);
	t("first line", 6, MATCH_SPECIFIC, "multi", 1, false);
	t("first line\nsecond 2", 6, MATCH_SPECIFIC, "multi", 1, false);	/* kmsg */
	t("No filesystem could mount root, tried:  ext4 ext2", -1, MATCH_SPECIFIC, "start", 1, true);
	t(" done", -1, MATCH_SPECIFIC, "cont", 1, false);
	t("", -1, MATCH_CATCH_ALL, "bar", 1, false);
	/* the line is filtered in chunks of 256 windows: an anchor in a
	 * later chunk, and one on each side of every boundary near it */
	{
		char line[700];
		size_t pad;

		for (pad = 230; pad <= 540; pad += pad == 290 ? 220 : 1) {
			memset(line, 'd', pad);
			strcpy(line + pad, " 0000:00:03.0: Link is Up 1000 Mbps");
			t(line, 6, MATCH_SPECIFIC, "e1000_up", 1, false);
		}
	}
	matcher_free(&m);

	/* an index of nothing but a generic format, and an empty one */
	{
		static const char one[] = PI_HEADER "\n<6> a.c:1 f \"%s\\n\"\n";
		static const char none[] = PI_HEADER "\n";

		CHECK_INT(load(one, sizeof(one) - 1, "m"), 0);
		t("anything", 6, MATCH_CATCH_ALL, "f", 1, false);
		t("anything", 3, MATCH_NONE, NULL, 0, false);
		matcher_free(&m);

		CHECK_INT(load(none, sizeof(none) - 1, "m"), 0);
		t("anything", -1, MATCH_NONE, NULL, 0, false);
		matcher_free(&m);
	}
	/* one format, entries of several levels: a line without level is
	 * attributed to the first default-level entry, a line with one to
	 * the first entry of that level, else the first default one */
	{
		static const char lv[] = PI_HEADER "\n"
			"<4> a.c:1 warn \"disk %d gone\\n\"\n"
			"<-1> a.c:2 dflt \"disk %d gone\\n\"\n"
			"<3> a.c:3 err \"disk %d gone\\n\"\n"
			"<-1> a.c:4 dflt2 \"disk %d gone\\n\"\n"
			"<6> b.c:1 info \"tape %d gone\\n\"\n"
			"<3> b.c:2 err2 \"tape %d gone\\n\"\n";

		CHECK_INT(load(lv, sizeof(lv) - 1, "m"), 0);
		t("disk 3 gone", -1, MATCH_SPECIFIC, "dflt", 4, false);
		t("disk 3 gone", 3, MATCH_SPECIFIC, "err", 3, false);
		t("disk 3 gone", 4, MATCH_SPECIFIC, "warn", 3, false);
		t("disk 3 gone", 6, MATCH_SPECIFIC, "dflt", 2, false);
		t("tape 3 gone", -1, MATCH_SPECIFIC, "info", 2, false);
		t("tape 3 gone", 3, MATCH_SPECIFIC, "err2", 1, false);
		t("tape 3 gone", 5, MATCH_NONE, NULL, 0, false);
		matcher_free(&m);
	}
	/*
	 * netdev_<level>() entries record "%s %s %s%s: "; __netdev_printk()
	 * (net/core/dev.c) prints that for a device with a parent, "%s%s: "
	 * for one without (veth, bridge, lo) and "(NULL net_device): " for
	 * none.  The entries are 6.1's; a dev_<level>() entry's "%s %s: "
	 * already prints __dev_printk()'s "(NULL device *): ".
	 */
	{
		static const char nd[] = PI_HEADER "\n"
			"<6> net/core/dev.c:1267 dev_change_name \"%s %s %s%s: renamed from %s\\n\"\n"
			"<3> net/core/dev.c:8893 dev_change_tx_queue_len \"%s %s %s%s: refused to change device tx_queue_len\\n\"\n"
			"<3> drivers/base/dd.c:1 probe \"%s %s: probe with driver %s failed with error %d\\n\"\n";

		CHECK_INT(load(nd, sizeof(nd) - 1, "vmlinux"), 0);
		t("e1000 0000:00:03.0 eth1: renamed from eth0", 6, MATCH_SPECIFIC, "dev_change_name", 1, false);
		t("lo9: renamed from lo", 6, MATCH_SPECIFIC, "dev_change_name", 1, false);
		t("veth0 (unregistering): renamed from v", -1, MATCH_SPECIFIC, "dev_change_name", 1, false);
		t("(NULL net_device): refused to change device tx_queue_len", 3,
		  MATCH_SPECIFIC, "dev_change_tx_queue_len", 1, false);
		t("(NULL device *): probe with driver x failed with error -5", 3,
		  MATCH_SPECIFIC, "probe", 1, false);
		/* the prefix still ends in ": " */
		t("lo9 renamed from lo", 6, MATCH_NONE, NULL, 0, false);
		matcher_free(&m);
	}
	/*
	 * The later lines of a multi-line format (6.1's entries), as dmesg
	 * and journalctl show them: each a line of its own.  An empty later
	 * line ("...name %s\n\n") is left to what prints empty lines.
	 */
	{
		static const char ml[] = PI_HEADER "\n"
			"<3> arch/x86/kernel/cpu/common.c:928 get_cpu_vendor \"CPU: vendor_id '%s' unknown, using generic init.\\nCPU: Your system may be unstable.\\n\"\n"
			"<3> init/do_mounts.c:145 devt_from_partuuid \"VFS: PARTUUID= is invalid.\\nExpected PARTUUID=<valid-uuid-id>[/PARTNROFF=%%d]\\n\"\n"
			"<7> arch/x86/kernel/alternative.c:964 alternatives_smp_module_add \"SMP alternatives: locks %p -> %p, text %p -> %p, name %s\\n\\n\"\n"
			"<6> kernel/p.c:1 prefix \"Expected \"\n";
		static const struct {
			const char *line;
			int level;
			const char *func;	/* NULL: not attributed */
		} cases[] = {
			{ "CPU: vendor_id 'Foo' unknown, using generic init.", 3, "get_cpu_vendor" },
			{ "CPU: Your system may be unstable.", 3, "get_cpu_vendor" },
			{ "CPU: Your system may be unstable.", -1, "get_cpu_vendor" },
			{ "CPU: Your system may be unstable.", 6, NULL },	/* level */
			{ "CPU: Your system may be", -1, NULL },
			/* a whole later line beats another format's prefix */
			{ "Expected PARTUUID=<valid-uuid-id>[/PARTNROFF=%d]", -1, "devt_from_partuuid" },
			{ "Expected PARTUUID=x", -1, "prefix" },
			{ "", 7, NULL },
		};
		struct chain_matcher chains;
		struct attribution a;
		size_t i;

		CHECK_INT(load(ml, sizeof(ml) - 1, "vmlinux"), 0);
		chain_init(&chains, &m);
		CHECK_INT(chains.later_idx.n, 2);
		for (i = 0; i < ARRAY_SIZE(cases); i++) {
			const struct pi_entry *e;

			attribute_message(&chains, cases[i].line, strlen(cases[i].line),
					  cases[i].level, &a);
			e = attribution_class(&a) == CLASS_ATTRIBUTED && !a.chained ? a.single.best : NULL;
			if (!cases[i].func) {
				CHECK(e == NULL);
				continue;
			}
			CHECK(e != NULL);
			if (e) {
				CHECK_STR(e->func, cases[i].func);
				/* the entry of the index, format and all */
				CHECK(e >= idx.v && e < idx.v + idx.n);
			}
			CHECK_INT(a.single.nmatch, 1);
		}
		chain_free(&chains);
		matcher_free(&m);
	}
	pi_index_free(&idx);
}
