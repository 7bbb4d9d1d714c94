/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel log lines in the shapes people paste them, detected per line:
 *   kmsg      /dev/kmsg record: "6,123,456789,-;text" (\xNN escapes),
 *             and its " KEY=value" dictionary lines (skipped)
 *   dmesg-r   "<6>[    1.234567] text" (dmesg -r), also "<6>text"
 *   dmesg-x   "kern  :info  : [    1.234567] text" (dmesg -x)
 *   dmesg     "[    1.234567] text", "[Tue Dec  3 07:51:19 2024] text",
 *             with an optional "[    T1] " caller id after it
 *   journal   "Dec 03 07:51:19 host kernel: text" (journalctl -k), and
 *             the short-iso variant "2024-12-03T07:51:19+0100 host kernel: "
 *   raw       anything else: the whole line is the text
 */
#ifndef PI_LOGLINE_H
#define PI_LOGLINE_H

#include <stddef.h>

#include "util.h"

enum log_kind {
	LOG_RAW,
	LOG_DMESG,
	LOG_DMESG_R,
	LOG_DMESG_X,
	LOG_KMSG,
	LOG_JOURNAL,
	LOG_SKIP,	/* empty, kmsg dictionary, journal "-- Boot ..." */
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
 * Parse one line (without '\n'). buf is scratch for unescaped kmsg text.
 * Never fails: unknown shapes are LOG_RAW.
 */
void log_parse(const char *line, size_t len, struct log_line *out, struct sbuf *buf);

#endif
