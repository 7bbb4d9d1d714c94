// SPDX-License-Identifier: GPL-2.0
/*
 * Every paste shape of one kernel log gives the same text, and the same
 * attribution, as plain dmesg. The log (tests/data/boot-qemu.dmesg) is
 * messages 6.1 prints in a QEMU x86_64 boot, written down from such boots
 * (not one captured log; the guests' console logs, once collected, are the
 * better input). Each shape is made from it
 * here by printing its exact prefix before the unchanged message, the way
 * dmesg, journalctl, rsyslog and netconsole write them. A shape that
 * carries a level gets the level of the entry plain dmesg attributes the
 * line to (6 if that entry has none), since the plain log does not say it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../cont.h"
#include "../logline.h"
#include "test.h"
#include "../source.h"

#define BOOT_LOG "tests/data/boot-qemu.dmesg"
#define MAX_LINES 256

struct plain {
	unsigned long sec, usec;
	int level;
	char msg[1100];
};

/* the message with kmsg's \xNN escapes (msg_add_ext_text()) */
static void kmsg_escape(char *out, const char *msg)
{
	for (; *msg; msg++) {
		unsigned char ch = *msg;

		if (ch < ' ' || ch >= 127 || ch == '\\')
			out += sprintf(out, "\\x%02x", ch);
		else
			*out++ = ch;
	}
	*out = '\0';
}

/* the message as a JSON string body, as journald writes it */
static void json_escape(char *out, const char *msg)
{
	for (; *msg; msg++) {
		unsigned char ch = *msg;

		if (ch == '"' || ch == '\\')
			out += sprintf(out, "\\%c", ch);
		else if (ch == '\t')
			out += sprintf(out, "\\t");
		else if (ch < ' ')
			out += sprintf(out, "\\u%04x", ch);
		else
			*out++ = ch;
	}
	*out = '\0';
}

enum shape {
	S_DMESG, S_CTIME, S_DELTA_D, S_DELTA, S_RELTIME, S_RELTIME_COLOR, S_ISO,
	S_NOTIME, S_RAW, S_DECODED, S_KMSG, S_EXT_NETCONSOLE, S_SHORT,
	S_SHORT_PRECISE, S_SHORT_ISO, S_SHORT_ISO_PRECISE, S_SHORT_FULL,
	S_WITH_UNIT, S_SHORT_UNIX, S_SHORT_MONOTONIC, S_NO_HOSTNAME, S_CAT,
	S_JSON, S_KERNLOG, S_KERNLOG_NOSTAMP, S_RSYSLOG_RFC3339, S_RFC5424,
	S_PRI_SYSLOG, S_LEADING_BLANKS, S_NSHAPES
};

static const struct {
	const char *name;
	enum log_kind kind;
} shapes[S_NSHAPES] = {
	[S_DMESG] = { "dmesg", LOG_DMESG },
	[S_CTIME] = { "dmesg -T", LOG_DMESG },
	[S_DELTA_D] = { "dmesg -d", LOG_DMESG },
	[S_DELTA] = { "dmesg --time-format=delta", LOG_DMESG },
	[S_RELTIME] = { "dmesg -e", LOG_DMESG },
	[S_RELTIME_COLOR] = { "dmesg -H --color=always", LOG_DMESG },
	[S_ISO] = { "dmesg --time-format=iso", LOG_DMESG },
	[S_NOTIME] = { "dmesg --time-format=notime", LOG_RAW },
	[S_RAW] = { "dmesg -r", LOG_DMESG_R },
	[S_DECODED] = { "dmesg -x", LOG_DMESG_X },
	[S_KMSG] = { "/dev/kmsg", LOG_KMSG },
	[S_EXT_NETCONSOLE] = { "extended netconsole with release", LOG_KMSG },
	[S_SHORT] = { "journalctl -k -o short", LOG_JOURNAL },
	[S_SHORT_PRECISE] = { "journalctl -k -o short-precise", LOG_JOURNAL },
	[S_SHORT_ISO] = { "journalctl -k -o short-iso", LOG_JOURNAL },
	[S_SHORT_ISO_PRECISE] = { "journalctl -k -o short-iso-precise", LOG_JOURNAL },
	[S_SHORT_FULL] = { "journalctl -k -o short-full", LOG_JOURNAL },
	[S_WITH_UNIT] = { "journalctl -k -o with-unit", LOG_JOURNAL },
	[S_SHORT_UNIX] = { "journalctl -k -o short-unix", LOG_JOURNAL },
	[S_SHORT_MONOTONIC] = { "journalctl -k -o short-monotonic", LOG_JOURNAL },
	[S_NO_HOSTNAME] = { "journalctl -k --no-hostname", LOG_JOURNAL },
	[S_CAT] = { "journalctl -k -o cat", LOG_RAW },
	[S_JSON] = { "journalctl -k -o json", LOG_JOURNAL_JSON },
	[S_KERNLOG] = { "kern.log (RFC 3164 with the dmesg stamp)", LOG_JOURNAL },
	[S_KERNLOG_NOSTAMP] = { "RFC 3164 syslog", LOG_JOURNAL },
	[S_RSYSLOG_RFC3339] = { "rsyslog RFC 3339 file format", LOG_JOURNAL },
	[S_RFC5424] = { "RFC 5424", LOG_RFC5424 },
	[S_PRI_SYSLOG] = { "<pri> and RFC 3164 date", LOG_SYSLOG },
	[S_LEADING_BLANKS] = { "dmesg with leading blanks", LOG_DMESG },
};

/* line i of the log in shape s; boot at 2026-12-05 13:10:02 UTC */
static void reshape(enum shape s, size_t i, const struct plain *pl, char *out)
{
	const struct plain *p = &pl[i];
	unsigned long us = p->sec * 1000000 + p->usec;
	unsigned long prev = i ? pl[i - 1].sec * 1000000 + pl[i - 1].usec : 0;
	unsigned long d = us - prev;
	unsigned long wall = 2 + p->sec;	/* seconds past 13:10:00 */
	char esc[4600];

	switch (s) {
	case S_DMESG:
		sprintf(out, "[%5lu.%06lu] %s", p->sec, p->usec, p->msg);
		break;
	case S_CTIME:
		sprintf(out, "[Sat Dec  5 13:10:%02lu 2026] %s", wall, p->msg);
		break;
	case S_DELTA_D:
		sprintf(out, "[%5lu.%06lu <%12lu.%06lu>] %s", p->sec, p->usec,
			d / 1000000, d % 1000000, p->msg);
		break;
	case S_DELTA:
		sprintf(out, "[<%12lu.%06lu>] %s", d / 1000000, d % 1000000, p->msg);
		break;
	case S_RELTIME:
		if (i == 0)
			sprintf(out, "[Dec 5 13:10] %s", p->msg);
		else
			sprintf(out, "[%+5ld.%06lu] %s", (long)(d / 1000000), d % 1000000, p->msg);
		break;
	case S_RELTIME_COLOR:
		if (i == 0)
			sprintf(out, "\x1b[32m[Dec 5 13:10]\x1b[0m %s", p->msg);
		else
			sprintf(out, "\x1b[32m[%+5ld.%06lu]\x1b[0m %s", (long)(d / 1000000), d % 1000000, p->msg);
		break;
	case S_ISO:
		sprintf(out, "2026-12-05T13:10:%02lu,%06lu+00:00 %s", wall, p->usec, p->msg);
		break;
	case S_NOTIME:
	case S_CAT:
		strcpy(out, p->msg);
		break;
	case S_RAW:
		sprintf(out, "<%d>[%5lu.%06lu] %s", p->level, p->sec, p->usec, p->msg);
		break;
	case S_DECODED:
		sprintf(out, "kern  :%-6s: [%5lu.%06lu] %s",
			(const char *[]){ "emerg", "alert", "crit", "err", "warn",
					  "notice", "info", "debug" }[p->level],
			p->sec, p->usec, p->msg);
		break;
	case S_KMSG:
		kmsg_escape(esc, p->msg);
		sprintf(out, "%d,%zu,%lu,-;%s", p->level, i + 1, us, esc);
		break;
	case S_EXT_NETCONSOLE:
		kmsg_escape(esc, p->msg);
		sprintf(out, "6.1.192,%d,%zu,%lu,-;%s", p->level, i + 1, us, esc);
		break;
	case S_SHORT:
		sprintf(out, "Dec 05 13:10:%02lu guest kernel: %s", wall, p->msg);
		break;
	case S_SHORT_PRECISE:
		sprintf(out, "Dec 05 13:10:%02lu.%06lu guest kernel: %s", wall, p->usec, p->msg);
		break;
	case S_SHORT_ISO:
		sprintf(out, "2026-12-05T13:10:%02lu+0000 guest kernel: %s", wall, p->msg);
		break;
	case S_SHORT_ISO_PRECISE:
		sprintf(out, "2026-12-05T13:10:%02lu.%06lu+00:00 guest kernel: %s", wall,
			p->usec, p->msg);
		break;
	case S_SHORT_FULL:
	case S_WITH_UNIT:
		sprintf(out, "Sat 2026-12-05 13:10:%02lu UTC guest kernel: %s", wall, p->msg);
		break;
	case S_SHORT_UNIX:
		sprintf(out, "%lu.%06lu guest kernel: %s", 1764940200 + wall, p->usec, p->msg);
		break;
	case S_SHORT_MONOTONIC:
		sprintf(out, "[%5lu.%06lu] guest kernel: %s", p->sec, p->usec, p->msg);
		break;
	case S_NO_HOSTNAME:
		sprintf(out, "Dec 05 13:10:%02lu kernel: %s", wall, p->msg);
		break;
	case S_JSON:
		json_escape(esc, p->msg);
		sprintf(out, "{\"__CURSOR\":\"s=6f2a;i=%zx\",\"__REALTIME_TIMESTAMP\":\"%lu\","
			"\"PRIORITY\":\"%d\",\"SYSLOG_FACILITY\":\"0\",\"_TRANSPORT\":\"kernel\","
			"\"MESSAGE\":\"%s\",\"SYSLOG_IDENTIFIER\":\"kernel\",\"_SOURCE_MONOTONIC_TIMESTAMP\":\"%lu\"}",
			i + 1, 1764940200000000UL + wall * 1000000 + p->usec, p->level, esc, us);
		break;
	case S_KERNLOG:
		sprintf(out, "Dec  5 13:10:%02lu guest kernel: [%5lu.%06lu] %s", wall,
			p->sec, p->usec, p->msg);
		break;
	case S_KERNLOG_NOSTAMP:
		sprintf(out, "Dec  5 13:10:%02lu guest kernel: %s", wall, p->msg);
		break;
	case S_RSYSLOG_RFC3339:
		sprintf(out, "2026-12-05T13:10:%02lu.%06lu+00:00 guest kernel: %s", wall,
			p->usec, p->msg);
		break;
	case S_RFC5424:
		sprintf(out, "<%d>1 2026-12-05T13:10:%02lu.%06lu+00:00 guest kernel - - - %s",
			p->level, wall, p->usec, p->msg);
		break;
	case S_PRI_SYSLOG:
		sprintf(out, "<%d>Dec  5 13:10:%02lu guest kernel: %s", p->level, wall, p->msg);
		break;
	case S_LEADING_BLANKS:
		sprintf(out, "  [%5lu.%06lu] %s", p->sec, p->usec, p->msg);
		break;
	case S_NSHAPES:
		break;
	}
}

static bool same_attribution(const struct attribution *a, const struct attribution *b)
{
	size_t i;

	if (a->chained != b->chained)
		return false;
	if (!a->chained)
		return a->single.status == b->single.status && a->single.best == b->single.best &&
		       a->single.prefix == b->single.prefix;
	if (a->chain.n != b->chain.n)
		return false;
	for (i = 0; i < a->chain.n; i++)
		if (a->chain.p[i].e != b->chain.p[i].e)
			return false;
	return true;
}

/*
 * The slowest lines for the single-format matcher that a search over the
 * index's own formats found (each format's text up to its first
 * conversion, then 1,000 bytes of blanks, digits, "1 ", "00 "...): they
 * read the same bytes again from every start or end, up to 2 M
 * instructions a line (fmt_match.c: scan_next(), walk_to(), start_to()).
 * Their answers, which the faster passes keep.
 */
static void slow_single_lines(struct chain_matcher *chains)
{
	static const struct {
		const char *head, *fill, *tail;
		enum match_status status;
		const char *file;
		int line;
		size_t nmatch;
	} cases[] = {
		/* the numbers of the ACPI formats anchored there looked
		 * for a digit from every start, a million steps;
		 * "%s: %s\n" is what prints it */
		{ "ACPI: ", " ", "", MATCH_GENERIC, "net/core/dev.c", 8861, 4 },
		{ "  cache:", " ", "-1", MATCH_GENERIC, "mm/vmstat.c", 1918, 24 },
		{ "dyndbg: Ignore empty _ddebug table in a CONFIG_DYNAMIC_DEBUG_CORE build", "1 ",
		  "", MATCH_GENERIC, "mm/vmstat.c", 1918, 6 },
		{ "    in-flight:", "00 ", "", MATCH_SPECIFIC, "kernel/workqueue.c", 4759, 1 },
	};
	static char line[1024 + 1];
	struct attribution a;
	size_t i, n, k;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		n = strlen(cases[i].head);
		memcpy(line, cases[i].head, n);
		for (k = 0; n < 1024 - strlen(cases[i].tail) && k < 1000; k++)
			line[n++] = cases[i].fill[k % strlen(cases[i].fill)];
		memcpy(line + n, cases[i].tail, strlen(cases[i].tail));
		n += strlen(cases[i].tail);
		attribute_message(chains, line, n, -1, &a);
		CHECK_INT(a.single.status, cases[i].status);
		CHECK_STR(a.single.best ? a.single.best->file : "-", cases[i].file);
		CHECK_INT(a.single.best ? a.single.best->line : 0, cases[i].line);
		CHECK_INT(a.single.nmatch, cases[i].nmatch);
		CHECK(!a.chained);
	}
}

/*
 * Lines that cost milliseconds each in the earlier KERN_CONT search (a
 * recursion over offsets and piece lengths with a step budget), and the
 * slowest a fuzzer found for its replacement (README, Speed): their exact
 * answer, so that a faster search keeps it. The answers were checked
 * against the earlier search, which found the same coverings when its
 * budget let it finish. Timing is the bench's business, not the tests'.
 */
static void slow_lines(struct chain_matcher *chains)
{
	static const struct {
		const char *line, *pieces;
	} cases[] = {
		/* real (tests/data/boot-qemu.dmesg): 2 ms then */
		{ "Calibrating delay loop (skipped), value calculated using timer "
		  "frequency.. 5192.27 BogoMIPS (lpj=2596138)",
		  "init/calibrate.c:293[0,75] init/calibrate.c:308[75,30]" },
		/* real: print_cpu_info()'s pieces after smpboot's and the
		 * CPU: base (arch/x86/kernel/cpu/common.c:2130-2143 in 6.1:
		 * "%s " vendor, "%s" model, family, stepping; the vendor's
		 * piece is reported within the model's "%s"), not
		 * announce_cpu()'s "%*s" or sd_spinup_disk()'s "." */
		{ "smpboot: CPU0: AMD QEMU Virtual CPU version 2.5+ (family: 0xf, model: "
		  "0x6b, stepping: 0x1)",
		  "arch/x86/kernel/smpboot.c:1445[0,15] arch/x86/kernel/cpu/common.c:2134[15,33] "
		  "arch/x86/kernel/cpu/common.c:2138[48,26] arch/x86/kernel/cpu/common.c:2141[74,16]" },
		{ "CPU: AMD QEMU Virtual CPU version 2.5+ (family: 0xf, model: 0x6b, "
		  "stepping: 0x1)",
		  "arch/x86/kernel/cpu/common.c:2550[0,5] arch/x86/kernel/cpu/common.c:2134[5,33] "
		  "arch/x86/kernel/cpu/common.c:2138[38,26] arch/x86/kernel/cpu/common.c:2141[64,16]" },
		/* real: announce_cpu() (smpboot.c:985-993; its "%*s" padding
		 * of 991 is reported within 993's "%*s#%d") */
		{ ".... node  #0, CPUs:      #1",
		  "arch/x86/kernel/smpboot.c:985[0,22] arch/x86/kernel/smpboot.c:993[22,6]" },
		/* real: e820_print_type()'s pieces and the caller's " ==> " */
		{ "e820: update [mem 0x00000000-0x00000fff] usable ==> reserved",
		  "arch/x86/kernel/e820.c:475[0,41] arch/x86/kernel/e820.c:191[41,6] "
		  "arch/x86/kernel/e820.c:477[47,5] arch/x86/kernel/e820.c:192[52,8]" },
		/* made of pieces: 30 blanks then a symbol-like run made the
		 * earlier search validate %ps spans one by one (8 ms) */
		{ "Calibrating delay loop (skipped) preset value.. "
		  "                               pointer offset 22848core perfctr, ",
		  "init/calibrate.c:289[0,48] arch/x86/mm/dump_pagetables.c:186[48,30] "
		  "mm/slab_common.c:576[78,21] arch/x86/events/amd/core.c:1457[99,14]" },
		/* the shape __show_free_areas() prints for a zone with
		 * every order free (built: the guests' zones leave orders
		 * empty), the heaviest covering here: 53,201 work units of
		 * the 81,920 (README, "The bound") */
		{ "Node 0 DMA32: 4563*4kB (UMEH) 2319*8kB (UMEH) 1020*16kB (UMEH) 354*32kB "
		  "(UMEH) 112*64kB (UMH) 30*128kB (UMH) 8*256kB (UM) 2*512kB (UM) 1*1024kB "
		  "(M) 0*2048kB 0*4096kB = 112468kB",
		  "mm/page_alloc.c:6033[0,7] mm/page_alloc.c:6372[7,7] mm/page_alloc.c:6390[14,9] "
		  "mm/page_alloc.c:6174[23,7] mm/page_alloc.c:6390[30,9] mm/page_alloc.c:6174[39,7] "
		  "mm/page_alloc.c:6390[46,10] mm/page_alloc.c:6174[56,7] mm/page_alloc.c:6390[63,9] "
		  "mm/page_alloc.c:6174[72,7] mm/page_alloc.c:6390[79,9] mm/page_alloc.c:6174[88,6] "
		  "mm/page_alloc.c:6390[94,9] mm/page_alloc.c:6174[103,6] mm/page_alloc.c:6390[109,8] "
		  "mm/page_alloc.c:6174[117,5] mm/page_alloc.c:6390[122,8] mm/page_alloc.c:6174[130,5] "
		  "mm/page_alloc.c:6390[135,9] mm/page_alloc.c:6174[144,4] mm/page_alloc.c:6390[148,9] "
		  "mm/page_alloc.c:6390[157,9] mm/page_alloc.c:6395[166,10]" },
		/* real (tests/data/provoked-defconfig): print_modules()'s
		 * " %s%s" prints the module and its flags, not " %s%s", "%s"
		 * and print_cpu_info()'s ")\n" (kernel/module/main.c:3143-3149
		 * in 6.1) */
		{ "Modules linked in: pi_provoke(O+)",
		  "kernel/module/main.c:3143[0,18] kernel/module/main.c:3149[18,15]" },
		/* a catch-all base, taken with its own file's specific
		 * continuation (free_area_init(), a real line) */
		{ "  DMA      [mem 0x0000000000001000-0x0000000000ffffff]",
		  "mm/page_alloc.c:8329[0,11] mm/page_alloc.c:8334[11,43]" },
		{ "  Normal   empty", "mm/page_alloc.c:8329[0,11] mm/page_alloc.c:8332[11,5]" },
		/* ...but not with pieces from anywhere */
		{ "random words and then done", "-" },
		/* the slowest of 5,000 made-up coverings for the new one */
		{ "okFAT-fs (e1000): logical sector size too small for device (logical "
		  "sector size = 8141) likely on CPU 99588 (core 79481, socket -84885) "
		  "P86949/30171:jhcrreserved",
		  "fs/fat/inode.c:1674[0,87] arch/x86/mm/fault.c:781[87,48] "
		  "kernel/rcu/tree_stall.h:323[135,18] arch/x86/kernel/e820.c:192[153,8]" },
	};
	static char blanks[16 + 1000 + 1] = "smpboot: CPU0: ";
	struct attribution a;
	struct chain ch;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		attribute_message(chains, cases[i].line, strlen(cases[i].line), -1, &a);
		CHECK_STR(t_chain_text(&a.chain, a.chained), cases[i].pieces);
	}
	/* 1,000 blanks, or zeros, after a base: every candidate that prints
	 * blanks or digits can start at every offset, which needs more than
	 * the work bound (CHAIN_WORK_MAX), so the search
	 * stops and reports no covering (it read an unfinished table once,
	 * and crashed the continuation-only search) */
	for (i = 0; i < 2; i++) {
		memset(blanks + 15, i ? '0' : ' ', 1000);
		attribute_message(chains, blanks, strlen(blanks), -1, &a);
		CHECK_STR(t_chain_text(&a.chain, a.chained), "-");
		CHECK(!chain_match(chains, blanks, strlen(blanks), -1, true, &ch));
		CHECK(!chain_match(chains, blanks + 15, strlen(blanks + 15), -1, true, &ch));
	}
}

/* Lines whose trailing blank an editor stripped: attributed as if it were
 * there (cont.c, stripped_blank()); lines that keep it, as before. */
static void stripped_blanks(struct chain_matcher *chains)
{
	static const struct {
		const char *line, *where;
	} cases[] = {
		{ "Calibrating delay loop...", "init/calibrate.c:303" },
		{ "Calibrating delay loop... ", "init/calibrate.c:303" },
		{ "ACPI: Exceed the limit of T-state", "drivers/acpi/processor_throttling.c:237" },
		{ "ACPI: Exceed the limit of T-state ", "drivers/acpi/processor_throttling.c:237" },
		{ "random words and then done", "-" },
	};
	struct attribution a;
	char where[128];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		attribute_message(chains, cases[i].line, strlen(cases[i].line), -1, &a);
		if (attribution_class(&a) == CLASS_ATTRIBUTED && !a.chained && !a.single.prefix)
			snprintf(where, sizeof(where), "%s:%u", a.single.best->file,
				 a.single.best->line);
		else
			snprintf(where, sizeof(where), "-");
		CHECK_STR(where, cases[i].where);
	}
}

struct corpus_case {
	const char *text;	/* the first line that holds it */
	const char *where;	/* "class file func", or "class file:line func" */
	const char *pieces;	/* of a KERN_CONT line: each piece's line */
};

/*
 * A real console log (DIR/console.log) against the index of the kernel and
 * modules that printed it (DIR/index), read as match reads it: the class
 * and attribution of the lines monitoring looks for (cases[], found by
 * their text, in the order of the log), each checked against the function
 * the kernel source says prints it; the log's length, and how many lines
 * are attributed at least (what match answered when the data was taken:
 * a floor, not a golden).
 */
static void corpus_log(const char *dir, const struct corpus_case *cases, size_t ncases,
		       unsigned lines, unsigned min_attributed)
{
	char path[256], line[4096], where[256];
	struct pi_index idx;
	struct pi_err err;
	struct matcher m;
	struct chain_matcher chains;
	struct attribution a;
	struct log_shape shape;
	struct sbuf buf = { 0 };
	unsigned lineno = 0, attributed = 0;
	size_t i = 0;
	FILE *f;

	log_shape_init(&shape, LOG_NKINDS);
	pi_index_init(&idx);
	snprintf(path, sizeof(path), "%s/index", dir);
	CHECK_INT(pi_load_source(&idx, path, &err), 0);
	matcher_build(&m, &idx);
	chain_init(&chains, &m);
	snprintf(path, sizeof(path), "%s/console.log", dir);
	f = fopen(path, "r");
	CHECK(f != NULL);
	while (f && fgets(line, sizeof(line), f)) {
		struct log_line ll;
		size_t n = strcspn(line, "\r\n");
		enum attr_class cl;
		const struct pi_entry *e;

		lineno++;
		/* as match reads it: the dmesg clock stamp, when there is one */
		log_parse_in(&shape, line, n, &ll, &buf);
		attribute_message(&chains, ll.msg, ll.len, ll.level, &a);
		cl = attribution_class(&a);
		if (cl == CLASS_ATTRIBUTED)
			attributed++;
		if (i == ncases || !strstr(line, cases[i].text))
			continue;
		e = a.chained ? a.chain.p[0].e : a.single.best;
		if (cl < CLASS_GENERIC)
			snprintf(where, sizeof(where), "%s", attr_class_name(cl));
		else if (strchr(cases[i].where, ':'))
			snprintf(where, sizeof(where), "%s %s:%u %s", attr_class_name(cl), e->file,
				 e->line, e->func);
		else
			snprintf(where, sizeof(where), "%s %s %s", attr_class_name(cl), e->file,
				 e->func);
		if (strcmp(where, cases[i].where))
			T_FAIL("%s/console.log:%u: %s, the source says %s", dir, lineno, where,
			       cases[i].where);
		else
			t_pass++;
		if (cases[i].pieces) {
			size_t k, o = 0;

			where[0] = '\0';
			for (k = 0; a.chained && k < a.chain.n && o < sizeof(where); k++)
				o += snprintf(where + o, sizeof(where) - o, "%s%u", k ? " " : "",
					      a.chain.p[k].e->line);
			CHECK_STR(where, cases[i].pieces);
		}
		i++;
	}
	if (f)
		fclose(f);
	if (i < ncases)
		T_FAIL("%s/console.log: no line holds \"%s\"", dir, cases[i].text);
	CHECK_INT(lineno, lines);
	CHECK(attributed >= min_attributed);
	sbuf_free(&buf);
	chain_free(&chains);
	matcher_free(&m);
	pi_index_free(&idx);
}

/*
 * The serial console of the debug guest (tests/data/guest-debug/: KASAN,
 * lockdep, failslab): an allocation failure reported by warn_alloc()
 * (mm/vmalloc.c's "vmalloc error: size %lu, vm_struct allocation failed"
 * through %pV), dump_stack()'s header, the stack trace's title, show_mem()'s,
 * and a module's netdev_warn().
 */
static void guest_debug_log(void)
{
	static const struct corpus_case cases[] = {
		{ "netdev warning", "attributed pi_sample.c pi_sample_netdev", NULL },
		{ "vmalloc error: size", "attributed mm/page_alloc.c warn_alloc", NULL },
		{ "Comm: pi_insmod Tainted", "attributed lib/dump_stack.c dump_stack_print_info", NULL },
		{ "Call Trace:", "attributed arch/x86/kernel/dumpstack.c __show_trace_log_lvl", NULL },
		{ "Mem-Info:", "attributed lib/show_mem.c __show_mem", NULL },
	};

	corpus_log("tests/data/guest-debug", cases, ARRAY_SIZE(cases), 1866, 1737);
}

/*
 * What 'make corpus' provoked (tests/data/provoked-*, test/corpus/): the
 * reports fleets alert on, each line checked against the printk call in
 * 6.1.192's source that prints it (file:line read there).
 */
static void provoked_logs(void)
{
	static const struct corpus_case defconfig[] = {
		/* e1000 link flaps through QEMU's set_link */
		{ "NIC Link is Up",
		  "attributed drivers/net/ethernet/intel/e1000/e1000_main.c:2449 e1000_watchdog", NULL },
		{ "NIC Link is Down",
		  "attributed drivers/net/ethernet/intel/e1000/e1000_main.c:2486 e1000_watchdog", NULL },
		/* ext4 errors: the line names its own call site, ext4_lookup:1862 */
		{ "deleted inode referenced", "attributed fs/ext4/namei.c:1862 ext4_lookup", NULL },
		{ "Remounting filesystem read-only", "attributed fs/ext4/super.c:693 ext4_handle_error",
		  NULL },
		/* WARN(): its text at the site the WARNING line names, pi_provoke.c:84 */
		{ "a warning on purpose", "attributed pi_provoke.c:84 pi_provoke_init", NULL },
		{ "WARNING: CPU:", "attributed kernel/panic.c:665 __warn", NULL },
		/* netdev_warn(NULL, ...): __netdev_printk()'s "(NULL net_device): "
		 * (net/core/dev.c), for the entry's "%s %s %s%s: " prefix */
		{ "(NULL net_device): pi_provoke:", "attributed pi_provoke.c:86 pi_provoke_init", NULL },
		/* the OOM killer; a stack entry only printk_stack_address() prints
		 * ("? "; generic: its only literal text is a blank, its %pBb
		 * model the evidence); a later line of show_free_areas()'s
		 * multi-line format, which kmem_dump_obj()'s KERN_CONT
		 * " slab%s %s" prints too */
		{ "invoked oom-killer", "attributed mm/oom_kill.c:461 dump_header", NULL },
		{ " ? ___ratelimit+", "generic arch/x86/kernel/dumpstack.c:72 printk_stack_address",
		  NULL },
		{ " slab_reclaimable:", "attributed mm/page_alloc.c:6212 __show_free_areas", NULL },
		/* show_node(), then __show_free_areas()'s KERN_CONT pieces: the
		 * zone, a count and size per order, show_migration_types()'s
		 * "(%s) " after each count that is not 0, the total: "Node 0 "
		 * "DMA: " "1*4kB " "(U) " "0*8kB " "0*16kB " "2*32kB " "(UM) "
		 * ... "0*4096kB " "= 1860kB" */
		{ "Node 0 DMA:", "attributed mm/page_alloc.c:6033 show_node",
		  "6033 6372 6390 6174 6390 6390 6390 6174 6390 6174 6390 6174 6390 6174 "
		  "6390 6174 6390 6390 6390 6395" },
		{ "Out of memory: Killed process", "attributed mm/oom_kill.c:959 __oom_kill_process",
		  NULL },
	};
	static const struct corpus_case debug[] = {
		{ "possible circular locking dependency",
		  "attributed kernel/locking/lockdep.c:1974 print_circular_bug_header", NULL },
		{ " ? print_usage_bug+", "generic arch/x86/kernel/dumpstack.c:72 printk_stack_address",
		  NULL },
		{ "BUG: KASAN: slab-out-of-bounds",
		  "attributed mm/kasan/report.c:210 print_error_description", NULL },
		{ "blocked for more than", "attributed kernel/hung_task.c:133 check_hung_task", NULL },
	};

	corpus_log("tests/data/provoked-defconfig", defconfig, ARRAY_SIZE(defconfig), 463, 412);
	corpus_log("tests/data/provoked-debug", debug, ARRAY_SIZE(debug), 376, 206);
}

void test_shapes(void)
{
	static struct plain pl[MAX_LINES];
	static struct attribution want[MAX_LINES];
	struct pi_index idx;
	struct pi_err err;
	struct matcher m;
	struct chain_matcher chains;
	struct sbuf b = { 0 };
	char line[4800];
	size_t n = 0, i;
	FILE *f = fopen(BOOT_LOG, "r");
	int s;

	if (!f) {
		T_FAIL("%s: cannot open", BOOT_LOG);
		return;
	}
	pi_index_init(&idx);
	if (pi_load_source(&idx, t_sample, &err)) {
		T_MISSING(err.msg);
		fclose(f);
		return;
	}
	matcher_build(&m, &idx);
	chain_init(&chains, &m);
	while (n < MAX_LINES && fgets(line, sizeof(line), f)) {
		struct plain *p = &pl[n];
		int off = 0;
		size_t len = strcspn(line, "\n");

		line[len] = '\0';
		if (sscanf(line, "[%lu.%lu] %n", &p->sec, &p->usec, &off) < 2 || !off) {
			T_FAIL("%s:%zu: not a dmesg line", BOOT_LOG, n + 1);
			continue;
		}
		snprintf(p->msg, sizeof(p->msg), "%s", line + off);
		attribute_message(&chains, p->msg, strlen(p->msg), -1, &want[n]);
		{
			const struct pi_entry *e = want[n].chained ? want[n].chain.p[0].e :
						   want[n].single.best;

			p->level = e && e->level >= 0 ? e->level : 6;
		}
		n++;
	}
	fclose(f);
	CHECK(n >= 50);
	slow_lines(&chains);
	slow_single_lines(&chains);
	stripped_blanks(&chains);
	guest_debug_log();
	provoked_logs();

	for (s = 0; s < S_NSHAPES; s++) {
		struct log_shape shape;
		size_t bad_text = 0, bad_kind = 0, bad_attr = 0;

		log_shape_init(&shape, LOG_NKINDS);
		for (i = 0; i < n; i++) {
			struct log_line ll;
			struct attribution a;

			reshape(s, i, pl, line);
			log_parse_in(&shape, line, strlen(line), &ll, &b);
			if (ll.kind != shapes[s].kind && !bad_kind++)
				T_FAIL("%s, line %zu: read as %s: %s", shapes[s].name, i + 1,
				       log_kind_name(ll.kind), line);
			if ((ll.len != strlen(pl[i].msg) || memcmp(ll.msg, pl[i].msg, ll.len)) &&
			    !bad_text++)
				T_FAIL("%s, line %zu: text \"%.*s\", expected \"%s\"", shapes[s].name,
				       i + 1, (int)ll.len, ll.msg, pl[i].msg);
			attribute_message(&chains, ll.msg, ll.len, ll.level, &a);
			if (!same_attribution(&a, &want[i]) && !bad_attr++)
				T_FAIL("%s, line %zu: attribution differs from plain dmesg",
				       shapes[s].name, i + 1);
		}
		CHECK_INT(bad_kind, 0);
		CHECK_INT(bad_text, 0);
		CHECK_INT(bad_attr, 0);
	}
	sbuf_free(&b);
	chain_free(&chains);
	matcher_free(&m);
	pi_index_free(&idx);
}
