/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One /dev/kmsg record, as devkmsg_read() returns it (one per read()):
 *
 *   "PRI,SEQ,USEC,FLAGS[,caller=T1...];MESSAGE\n"
 *   " KEY=VALUE\n"...              dictionary (SUBSYSTEM=, DEVICE=)
 *
 * PRI is facility << 3 | level. FLAGS is '-' for a whole record, 'c' for a
 * KERN_CONT piece the kernel could not append to the record before it
 * (6.1; older kernels used 'c' for the first piece of a continued line and
 * '+' for the pieces after it). MESSAGE and VALUE escape bytes below ' ',
 * from 127 on, and '\' as \xNN; an embedded newline is "\x0a".
 */
#ifndef PI_KMSG_H
#define PI_KMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* What devkmsg_read() needs at the least (CONSOLE_EXT_LOG_MAX): smaller
 * reads fail with EINVAL. */
#define KMSG_READ_MAX 8192

#define KMSG_MAX_DICT 16

struct kmsg_dict {
	const char *key, *value;	/* unescaped, NUL-terminated */
	size_t key_len, value_len;
};

struct kmsg_record {
	int facility, level;
	uint64_t seq;
	uint64_t ts_usec;	/* printk's timestamp: µs since boot */
	char flag;		/* '-', 'c' or '+' */
	const char *msg;	/* unescaped; may hold '\n' and NULs */
	size_t len;
	struct kmsg_dict dict[KMSG_MAX_DICT];
	size_t ndict;
};

/*
 * Parse one record (the bytes of one read(), or a header line followed by
 * its " KEY=VALUE" lines). The unescaped text lives in buf, which the
 * record points into until the next call. Returns 0, or -1 with err set
 * (err may be NULL); a malformed dictionary line is skipped, never fatal.
 * The one parser of records: match reads kmsg-shaped log lines with it
 * too (logline.c).
 */
int kmsg_parse_record(const char *rec, size_t len, struct kmsg_record *out,
		      struct sbuf *buf, struct pi_err *err);

/*
 * epoch_usec (µs since 1970-01-01 UTC, may be negative) as ISO 8601
 * "YYYY-MM-DDTHH:MM:SS.uuuuuuZ". buf must hold KMSG_ISO_LEN bytes.
 * Returns buf, or "" for a year outside 1000..9999.
 */
#define KMSG_ISO_LEN 32
char *kmsg_iso8601(int64_t epoch_usec, char *buf);

/* Boot time (CLOCK_REALTIME - CLOCK_MONOTONIC) in µs since the epoch:
 * add a record's ts_usec to it for its wall-clock time. */
int64_t kmsg_boot_time_usec(void);

#endif
