// SPDX-License-Identifier: GPL-2.0
/*
 * What "match" reports for a message (attribute_message()): one format,
 * a KERN_CONT covering (cover.c), a later line of a multi-line format, or
 * a format with the trailing blank an editor stripped; and the classes.
 */
#include <stdlib.h>
#include <string.h>

#include "cont.h"

/*
 * "CPU: vendor_id '%s' unknown, using generic init.\nCPU: Your system may
 * be unstable.\n" is one record, and /dev/kmsg gives it as one; but dmesg
 * and journalctl show its second line as a line of its own, which only
 * that format prints. Each later line that is not empty becomes an entry
 * of its own matcher, with the level and place of the one it comes from.
 */
static void later_lines_init(struct chain_matcher *c, const struct pi_index *idx)
{
	size_t i;

	pi_index_init(&c->later_idx);
	for (i = 0; i < idx->n; i++) {
		const struct pi_entry *e = &idx->v[i];
		const char *nl = memchr(e->fmt, '\n', e->fmt_len), *end = e->fmt + e->fmt_len;

		while (nl && nl + 1 < end) {
			const char *start = nl + 1;
			struct pi_entry line = *e;

			nl = memchr(start, '\n', end - start);
			line.fmt_len = (nl ? nl + 1 : end) - start;
			if (*start == '\n')
				continue;
			line.fmt = arena_strndup(&c->later_idx.arena, start, line.fmt_len);
			line.cont = false;
			pi_index_push(&c->later_idx, &line);
			/* a few dozen in a whole kernel: grown one at a time */
			c->later_of = xreallocarray(c->later_of, c->later_idx.n, sizeof(*c->later_of));
			c->later_of[c->later_idx.n - 1] = e;
		}
	}
	matcher_build(&c->later, &c->later_idx);
	c->later.specific_only = true;
}


void chain_init(struct chain_matcher *c, struct matcher *all)
{
	const struct pi_index *idx = all->idx;
	size_t i;

	memset(c, 0, sizeof(*c));
	c->all = all;
	pi_index_init(&c->cont_idx);
	for (i = 0; i < idx->n; i++)
		if (idx->v[i].cont)
			pi_index_push(&c->cont_idx, &idx->v[i]);
	matcher_build(&c->cont, &c->cont_idx);
	c->search = cover_new(all, &c->cont);
	later_lines_init(c, idx);
	pi_index_init(&c->blank_idx);
	for (i = 0; i < idx->n; i++) {
		const struct pi_entry *e = &idx->v[i];
		size_t len = e->fmt_len;

		if (len && e->fmt[len - 1] == '\n')
			len--;
		if (len && e->fmt[len - 1] == ' ')
			pi_index_push(&c->blank_idx, e);
	}
	matcher_build(&c->blank_m, &c->blank_idx);
	c->blank_m.specific_only = true;
}

void chain_free(struct chain_matcher *c)
{
	cover_free(c->search);
	matcher_free(&c->cont);
	pi_index_free(&c->cont_idx);
	matcher_free(&c->later);
	pi_index_free(&c->later_idx);
	free(c->later_of);
	free(c->blank);
	matcher_free(&c->blank_m);
	pi_index_free(&c->blank_idx);
	memset(c, 0, sizeof(*c));
}

static size_t first_line(const char *msg, size_t n)
{
	const char *nl = memchr(msg, '\n', n);

	return nl ? (size_t)(nl - msg) : n;
}

bool chain_match(struct chain_matcher *c, const char *msg, size_t n, int level,
		 bool cont_only, struct chain *out)
{
	struct match_result r;

	memset(out, 0, sizeof(*out));
	n = first_line(msg, n);
	if (!c->cont_idx.n || !n)
		return false;
	if (cont_only)
		return cover_pieces(c->search, msg, n, out);
	matcher_match(c->all, msg, n, level, &r);
	return cover_after_base(c->search, msg, n, level, out);
}

/*
 * Editors strip trailing blanks: "Calibrating delay loop... " (an
 * open-ended format of init/calibrate.c, printed whole when the value
 * never follows) or "ACPI: Exceed the limit of T-state \n" pasted from an
 * editor lose theirs, and no format prints them then. A line that no
 * format prints whole, and that does not end in a blank, gets one more try
 * with a blank added, against the formats that end in one (a matcher of
 * their own: a blank added changes nothing for the others); that answer
 * is taken only if a specific format prints the line whole.
 */
static void stripped_blank(struct chain_matcher *c, const char *msg, size_t n, int level,
			   struct attribution *a)
{
	struct match_result r;

	if (!n || msg[n - 1] == ' ' || n > CHAIN_LINE_MAX || !c->blank_idx.n)
		return;
	if (c->blank_cap < n + 1) {
		c->blank_cap = n + 1;
		c->blank = xrealloc(c->blank, c->blank_cap);
	}
	memcpy(c->blank, msg, n);
	c->blank[n] = ' ';
	matcher_match(&c->blank_m, c->blank, n + 1, level, &r);
	if (r.status == MATCH_SPECIFIC && !r.prefix)
		a->single = r;
}

/*
 * A later line of a multi-line format that prints msg[0..n) whole with more
 * than min_lit literal bytes replaces a->single; says whether it did.
 */
static bool later_line(struct chain_matcher *c, const char *msg, size_t n, int level,
		       uint32_t min_lit, struct attribution *a)
{
	struct match_result later;

	if (!c->later_idx.n)
		return false;
	matcher_match(&c->later, msg, n, level, &later);
	if (later.status != MATCH_SPECIFIC || later.prefix || later.best_fmt->lit_bytes <= min_lit)
		return false;
	later.best = c->later_of[later.best - c->later_idx.v];
	a->single = later;
	return true;
}

void attribute_message(struct chain_matcher *c, const char *msg, size_t n,
		       int level, struct attribution *a)
{
	const struct pi_entry *best;

	matcher_match(c->all, msg, n, level, &a->single);
	a->chained = false;
	if (a->single.status == MATCH_SPECIFIC && !a->single.prefix) {
		/*
		 * A KERN_CONT piece without level (" slab%s %s") prints the
		 * middle of a line: one it prints whole from the start can be
		 * a later line of a multi-line format (" slab_reclaimable:%lu
		 * slab_unreclaimable:%lu") that says more about it.
		 */
		best = a->single.best;
		if (best->cont && best->level == PI_LEVEL_DEFAULT)
			later_line(c, msg, first_line(msg, n), level,
				   a->single.best_fmt->lit_bytes, a);
		return;
	}
	n = first_line(msg, n);
	memset(&a->chain, 0, sizeof(a->chain));
	if (c->cont_idx.n && n)
		a->chained = cover_after_base(c->search, msg, n, level, &a->chain);
	if (a->chained)
		return;
	/* a whole line of a multi-line format beats a prefix of another */
	if (later_line(c, msg, n, level, 0, a))
		return;
	stripped_blank(c, msg, n, level, a);
}

enum attr_class attribution_class(const struct attribution *a)
{
	if (a->chained)
		return CLASS_ATTRIBUTED;
	switch (a->single.status) {
	case MATCH_SPECIFIC: return CLASS_ATTRIBUTED;
	case MATCH_GENERIC: return CLASS_GENERIC;
	case MATCH_CATCH_ALL: return CLASS_CATCH_ALL;
	default: return CLASS_NONE;
	}
}

const char *attr_class_name(enum attr_class c)
{
	switch (c) {
	case CLASS_ATTRIBUTED: return "attributed";
	case CLASS_GENERIC: return "generic";
	case CLASS_CATCH_ALL: return "catch-all";
	default: return "unattributed";
	}
}

void chain_json(json_writer_t *w, const char *msg, const struct chain *ch)
{
	size_t i;

	jsonw_name(w, "pieces");
	jsonw_start_array(w);
	for (i = 0; i < ch->n; i++) {
		const struct pi_entry *e = ch->p[i].e;

		jsonw_start_object(w);
		pi_json_entry_fields(w, e);
		jsonw_name(w, "text");
		jsonw_string_len(w, msg + ch->p[i].off, ch->p[i].len);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
}
