/* SPDX-License-Identifier: GPL-2.0 */
/*
 * printk-index match --follow: /dev/kmsg records in, one JSON object per
 * record out (JSON lines), each attributed to the printk call site that
 * produced it. The record handling is apart from the read loop so that
 * the unit tests can feed records and read the lines back.
 */
#ifndef PI_FOLLOW_H
#define PI_FOLLOW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "cont.h"
#include "index.h"
#include "matcher.h"

struct follower {
	FILE *out;
	int64_t boot_usec;		/* wall clock = boot_usec + ts_usec */
	const char *index_src;		/* NULL: the system's index */
	bool have_index;
	/* the index and what is built on it, which point into each other:
	 * one allocation, replaced whole by a reload, never copied */
	struct follow_index {
		struct pi_index idx;
		struct matcher m;
		struct chain_matcher chains;
	} *ix;
	/* the folder the index was read from, to notice modules coming */
	char *watch_dir;
	uint64_t watch_stamp;
	/* the last kernel record, for KERN_CONT pieces sent apart */
	bool have_prev;
	uint64_t prev_seq;
	int prev_facility, prev_level;
	struct sbuf prev_text, joined;
	/* sequence numbers, for lost records */
	bool have_last, overrun;
	uint64_t last_seq;
	struct sbuf scratch;
	struct {
		uint64_t records, attributed, lost, malformed, reloads;
	} st;
};

/*
 * Read the index (index_src, or the system's) and get ready to write to
 * out. With index_src NULL a missing index is not an error: records are
 * then written with a null attribution. Returns 0, or -1 with err set.
 */
int follower_init(struct follower *f, const char *index_src, FILE *out,
		  int64_t boot_usec, struct pi_err *err);
void follower_free(struct follower *f);

/* Read the index again (SIGHUP, a module came or went). On failure the
 * old index stays and err says why. */
int follower_reload(struct follower *f, struct pi_err *err);

/* One record (the bytes of one read() of /dev/kmsg): writes one line, two
 * when records were lost before it. Never fails: a malformed record is
 * written as {"malformed": ...}. */
void follower_record(struct follower *f, const char *rec, size_t len);

/* read() said EPIPE: the records after the last one seen were overwritten. */
void follower_overrun(struct follower *f);

#endif
