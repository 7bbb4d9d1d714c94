// SPDX-License-Identifier: GPL-2.0
/* libFuzzer: /dev/kmsg record parsing and the KERN_CONT chain search.
 * A parsed record must point into the scratch buffer with sane fields; a
 * chain must cover the message's first line exactly, piece after piece,
 * with continuation entries after its base. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cont.h"
#include "kmsg.h"

static const char index_text[] =
	PI_HEADER "\n"
	"<6> s.c:51 counting \"pi_sample: counting:\"\n"
	"<c> s.c:52 counting \" %d\"\n"
	"<6,c> s.c:53 counting \" done\\n\"\n"
	"<c> o.c:1 other \" %s\"\n"
	"<c> o.c:2 other \"%02x\"\n"
	"<c> o.c:3 other \"\\n\"\n"
	"<3> t.c:5 table \"table:\"\n"
	"<4> t.c:6 tail \"a %s b\"\n"
	"<-1> t.c:7 any \"%s\"\n";

static struct pi_index idx;
static struct matcher m;
static struct chain_matcher c;

static void setup(void)
{
	struct pi_err err;
	FILE *f;

	if (idx.n)
		return;
	f = fmemopen((void *)index_text, sizeof(index_text) - 1, "r");
	pi_index_init(&idx);
	if (pi_load_stream(&idx, f, "fuzz", &err))
		__builtin_trap();
	fclose(f);
	matcher_build(&m, &idx);
	chain_init(&c, &m);
}

static void check_chain(const char *msg, size_t n, bool ok, const struct chain *ch,
			bool cont_only)
{
	const char *nl = memchr(msg, '\n', n);
	size_t i, pos = 0;

	if (!ok)
		return;
	if (nl)
		n = nl - msg;
	if (ch->n < (cont_only ? 1u : 2u) || ch->n > CHAIN_MAX)
		__builtin_trap();
	for (i = 0; i < ch->n; i++) {
		const struct pi_entry *e = ch->p[i].e;

		if (!e || ch->p[i].off != pos || !ch->p[i].len)
			__builtin_trap();
		if ((i || cont_only) && !e->cont)
			__builtin_trap();
		pos += ch->p[i].len;
	}
	if (pos != n)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	struct sbuf b = { 0 };
	struct kmsg_record r;
	struct pi_err err;
	struct chain ch;
	size_t i;
	bool ok;

	setup();
	if (!kmsg_parse_record(s, size, &r, &b, &err)) {
		if (r.msg < b.p || r.msg + r.len > b.p + b.len || r.len > size)
			__builtin_trap();
		if (r.level < 0 || r.level > 7 || r.ndict > KMSG_MAX_DICT ||
		    !strchr("-c+", r.flag))
			__builtin_trap();
		for (i = 0; i < r.ndict; i++)
			if (strlen(r.dict[i].key) != r.dict[i].key_len || !r.dict[i].key_len)
				__builtin_trap();
	} else if (!err.msg[0]) {
		__builtin_trap();
	}
	sbuf_free(&b);

	/* the bytes as a message, in both searches */
	ok = chain_match(&c, s, size, -1, false, &ch);
	check_chain(s, size, ok, &ch, false);
	ok = chain_match(&c, s, size, -1, true, &ch);
	check_chain(s, size, ok, &ch, true);
	return 0;
}
