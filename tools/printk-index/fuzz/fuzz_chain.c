// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer: the KERN_CONT search (cont.c) over a real index, the one in
 * PI_FUZZ_INDEX (make passes the shared defconfig index). Input: a log
 * message. Both searches run: after a base (attribute_message()) and of
 * continuation pieces alone (chain_match(), as --follow does for a
 * record the kernel flagged as a continuation). Properties: no crash,
 * bounded time (-timeout, -report_slow_units), and every covering
 * reported is one: pieces back to back over the whole first line, at
 * most CHAIN_MAX of them, each printed by its own format as the format
 * matcher (fmt.c, not the search) says: the base as a prefix, a closed
 * piece only at the end.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cont.h"
#include "fmt.h"
#include "index.h"
#include "matcher.h"

static struct pi_index idx;
static struct matcher all;
static struct chain_matcher chains;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *path = getenv("PI_FUZZ_INDEX");
	struct pi_err err;
	FILE *f;

	(void)argc;
	(void)argv;
	if (!path || !(f = fopen(path, "r"))) {
		fprintf(stderr, "fuzz_chain: set PI_FUZZ_INDEX to an index file\n");
		exit(1);
	}
	pi_index_init(&idx);
	if (pi_load_stream(&idx, f, path, &err)) {
		fprintf(stderr, "fuzz_chain: %s: cannot load\n", path);
		exit(1);
	}
	fclose(f);
	matcher_build(&all, &idx);
	chain_init(&chains, &all);
	return 0;
}

static void check_covering(const char *msg, size_t n, const struct chain *ch, bool with_base)
{
	size_t i, off = 0, len = n;
	const char *nl = memchr(msg, '\n', n);

	if (nl)
		len = (size_t)(nl - msg);
	if (!ch->n || ch->n > CHAIN_MAX)
		__builtin_trap();
	for (i = 0; i < ch->n; i++) {
		const struct chain_piece *p = &ch->p[i];
		struct fmt f;
		enum fmt_result r;

		if (p->off != off || !p->len || p->off + p->len > len)
			__builtin_trap();
		fmt_compile(&f, p->e->fmt, p->e->fmt_len);
		r = fmt_match(&f, msg + p->off, p->len);
		if (r == FMT_NOMATCH || (!f.open_end && i + 1 < ch->n) ||
		    (with_base && i == 0 && !p->e->cont && r != FMT_PREFIX && r != FMT_FULL) ||
		    (with_base && i && !p->e->cont) || (!with_base && !p->e->cont)) {
			fprintf(stderr, "piece %zu '%.*s' is not printed by \"%.*s\"\n", i,
				(int)p->len, msg + p->off, (int)p->e->fmt_len, p->e->fmt);
			__builtin_trap();
		}
		fmt_free(&f);
		off += p->len;
	}
	if (off != len)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *msg = (const char *)data;
	struct attribution a;
	struct chain ch;

	attribute_message(&chains, msg, size, -1, &a);
	if (a.chained)
		check_covering(msg, size, &a.chain, true);
	if (chain_match(&chains, msg, size, -1, true, &ch))
		check_covering(msg, size, &ch, false);
	return 0;
}
