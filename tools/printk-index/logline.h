/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel log lines in the shapes people paste them. A line is read in
 * layers, each optional: a syslog priority "<6>", then one header, then a
 * dmesg time stamp, then a CONFIG_PRINTK_CALLER id "[    T1] ". The kind
 * says which layers were found:
 *
 *   dmesg        "[    1.234567] " (dmesg, netconsole, a serial console),
 *                "[Tue Dec  3 07:51:19 2024] " (-T, --time-format=ctime),
 *                "[    1.234567 <    0.000123>] " (-d), "[<    0.000123>] "
 *                (--time-format=delta), "[Dec 3 07:51] " and "[  +0.000123] "
 *                (-e, -H, --time-format=reltime), "2024-12-03T07:51:19,123456+01:00 "
 *                (--time-format=iso); ANSI colours (-H, --color=always) removed
 *   dmesg-r      "<6>" and any dmesg stamp (dmesg -r)
 *   dmesg-x      "kern  :info  : " and any dmesg stamp (dmesg -x)
 *   kmsg         /dev/kmsg records "6,123,456789,-;text" (\xNN escapes) and
 *                extended netconsole lines ("6,1,2,-,ncfrag=0/1200;",
 *                "6.1.0,6,1,2,-;" with the release prepended); their
 *                " KEY=value" dictionary lines are skipped
 *   journal      "TIME [HOST ]kernel: " with TIME as journalctl -k -o short
 *                ("Dec 03 07:51:19"), short-precise (".123456" added),
 *                short-iso / short-iso-precise / RFC 3339 ("2024-12-03T07:51:19
 *                [.123456]+01:00"), short-full / with-unit ("Tue 2024-12-03
 *                07:51:19 CET"), short-unix ("1733208679.123456"),
 *                short-monotonic ("[    1.234567]"); RFC 3164 syslog files
 *                (Debian's kern.log) have the same shape, often followed by
 *                a dmesg stamp, which is removed too
 *   journal-json journalctl -o json: the MESSAGE and PRIORITY fields
 *   syslog       "<6>" and an RFC 3164 header, as sent on the wire
 *   rfc5424      "<6>1 TIMESTAMP HOST APP PROCID MSGID SD MSG" (RFC 5424)
 *   raw          no prefix: the whole line is the text (dmesg -t,
 *                journalctl -o cat), or a line that fits no shape
 *
 * Leading blanks before a prefix are tolerated (the text is kept as is when
 * no prefix follows them).
 */
#ifndef PI_LOGLINE_H
#define PI_LOGLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

enum log_kind {
	LOG_RAW,
	LOG_DMESG,
	LOG_DMESG_R,
	LOG_DMESG_X,
	LOG_KMSG,
	LOG_JOURNAL,
	LOG_JOURNAL_JSON,
	LOG_SYSLOG,
	LOG_RFC5424,
	LOG_SKIP,	/* empty, kmsg dictionary, journal "-- Boot ..." */
	LOG_NKINDS
};

struct log_line {
	enum log_kind kind;
	int level;		/* 0..7, -1 if the line does not say */
	int facility;		/* -1 if unknown; 0 = kernel */
	const char *msg;	/* the message text, points into the line or buf */
	size_t len;
};

const char *log_kind_name(enum log_kind k);

/*
 * The kind named by a --format argument (the kind names above, and the
 * aliases "notime", "cat" for raw, "json" for journal-json, "kern.log",
 * "rfc3164", "short" for journal, "netconsole" for dmesg,
 * "ext-netconsole" for kmsg); -1 if unknown. "auto" is LOG_NKINDS.
 */
int log_kind_by_name(const char *name);

/*
 * Parse one line (without '\n'), trying every shape. buf is scratch for
 * unescaped or uncoloured text. Never fails: unknown shapes are LOG_RAW.
 */
void log_parse(const char *line, size_t len, struct log_line *out, struct sbuf *buf);

/*
 * The shape of one input: forced (--format), or detected per line with
 * the shape of the line before tried first, so that a line that two
 * shapes could read ("[    1.0] host kernel: x" is short-monotonic in a
 * journal, a message in dmesg) is read as its neighbours are.
 */
struct log_shape {
	int forced;		/* a kind, or LOG_NKINDS: detect */
	enum log_kind last;	/* LOG_RAW before the first shaped line */
};

void log_shape_init(struct log_shape *s, int forced);

/*
 * log_parse() within an input. With a forced kind, a line not of that
 * shape is LOG_RAW (with the whole line as text); the caller counts it
 * as fitting no shape unless raw is what was forced.
 */
void log_parse_in(struct log_shape *s, const char *line, size_t len,
		  struct log_line *out, struct sbuf *buf);

#endif
