// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "cont.h"

/* Exact matches tried per line before giving up on a covering: a line
 * of 1000 bytes against a few open-ended formats stays well below it. */
#define CHAIN_BUDGET 50000

enum { MEMO_UNKNOWN, MEMO_NONE, MEMO_FOUND };

/* The best covering of msg[pos..n) by continuation pieces. */
struct chain_memo {
	uint8_t state;
	uint32_t lit, near, width, npieces;	/* score of the whole covering */
	uint32_t fmt, len;		/* its first piece */
};

struct score {
	uint32_t lit, near, width, npieces;
};

static bool better(const struct score *a, const struct score *b)
{
	if (a->lit != b->lit)
		return a->lit > b->lit;
	if (a->near != b->near)
		return a->near > b->near;
	if (a->width != b->width)
		return a->width < b->width;
	return a->npieces < b->npieces;
}

/* How many byte values the conversions can print, summed: "%d" is
 * narrower than "%s", which tells apart pieces with equal literals. */
static uint32_t fmt_width(const struct fmt *f)
{
	uint32_t k, w = 0;

	for (k = 0; k < f->ntok; k++) {
		const struct fmt_tok *t = &f->tok[k];

		if (t->kind == TK_LIT)
			continue;
		if (t->cls_all)
			w += 256;
		else
			w += __builtin_popcountll(t->cls[0]) + __builtin_popcountll(t->cls[1]) +
			     __builtin_popcountll(t->cls[2]) + __builtin_popcountll(t->cls[3]);
	}
	return w;
}

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
			c->later_of = xrealloc(c->later_of, c->later_idx.n * sizeof(*c->later_of));
			c->later_of[c->later_idx.n - 1] = e;
		}
	}
	matcher_build(&c->later, &c->later_idx);
}

void chain_init(struct chain_matcher *c, struct matcher *all)
{
	const struct pi_index *idx = all->idx;
	size_t i;
	uint32_t k;

	memset(c, 0, sizeof(*c));
	c->all = all;
	pi_index_init(&c->cont_idx);
	for (i = 0; i < idx->n; i++)
		if (idx->v[i].cont)
			pi_index_push(&c->cont_idx, &idx->v[i]);
	matcher_build(&c->cont, &c->cont_idx);
	/* a piece like " %d" is generic on its own, and is exactly what
	 * continuations are made of: try them even next to specific hits */
	c->cont.always_generic = true;
	c->cont_width = xcalloc(c->cont.nfmt + 1, sizeof(uint32_t));
	for (k = 0; k < c->cont.nfmt; k++)
		c->cont_width[k] = fmt_width(&c->cont.fmts[k]);
	later_lines_init(c, idx);
}

void chain_free(struct chain_matcher *c)
{
	matcher_free(&c->cont);
	pi_index_free(&c->cont_idx);
	matcher_free(&c->later);
	pi_index_free(&c->later_idx);
	free(c->later_of);
	free(c->cont_width);
	free(c->memo);
	free(c->at_first);
	free(c->at_count);
	free(c->at_hits);
	memset(c, 0, sizeof(*c));
}

/* 1 when one of format k's entries is in the base's file: pr_cont()
 * pieces come from the same code as their base. */
static uint32_t near_base(const struct chain_matcher *c, uint32_t k)
{
	const struct matcher *m = &c->cont;
	uint32_t e;

	if (!c->base)
		return 0;
	for (e = m->ent_start[k]; e < m->ent_start[k + 1]; e++) {
		const struct pi_entry *ent = &m->idx->v[m->ents[e]];

		if (!strcmp(ent->file, c->base->file) && !strcmp(ent->module, c->base->module))
			return 1;
	}
	return 0;
}

static bool spend(struct chain_matcher *c)
{
	if (!c->budget)
		return false;
	c->budget--;
	return true;
}

/* The continuation formats that print msg[pos..n) or a prefix of it:
 * matched once an offset a line, kept in c->at_hits. */
static void hits_at(struct chain_matcher *c, const char *msg, size_t n, size_t pos,
		    uint32_t *first, uint32_t *count)
{
	struct match_result r;
	uint32_t h;

	if (c->at_first[pos] == UINT32_MAX) {
		matcher_match(&c->cont, msg + pos, n - pos, -1, &r);
		if (c->at_hits_cap < 2 * (c->at_len + c->cont.nhits)) {
			c->at_hits_cap = 2 * (c->at_len + c->cont.nhits) + 64;
			c->at_hits = xrealloc(c->at_hits, c->at_hits_cap * sizeof(*c->at_hits));
		}
		c->at_first[pos] = c->at_len;
		c->at_count[pos] = c->cont.nhits;
		for (h = 0; h < c->cont.nhits; h++) {
			c->at_hits[2 * c->at_len] = c->cont.hits[h];
			c->at_hits[2 * c->at_len + 1] = c->cont.hit_kind[h];
			c->at_len++;
		}
	}
	*first = c->at_first[pos];
	*count = c->at_count[pos];
}

static const struct chain_memo *solve(struct chain_matcher *c, const char *msg,
				      size_t n, size_t pos)
{
	struct chain_memo *memo = &c->memo[pos];
	uint32_t first, nhits, h;
	struct score best = { 0 }, cand;

	if (memo->state != MEMO_UNKNOWN)
		return memo;
	memo->state = MEMO_NONE;
	if (!spend(c))
		return memo;
	hits_at(c, msg, n, pos, &first, &nhits);
	for (h = 0; h < nhits; h++) {
		/* at_hits may move as the recursion adds offsets */
		uint32_t k = c->at_hits[2 * (first + h)], kind = c->at_hits[2 * (first + h) + 1];
		const struct fmt *f = &c->cont.fmts[k];
		uint32_t lit = f->lit_bytes, width = c->cont_width[k];
		uint32_t near = near_base(c, k);
		uint64_t have[4] = { 0 };
		size_t len, max_len, seen = 0;

		if (kind == FMT_FULL) {
			cand = (struct score){ lit, near, width, 1 };
			if (memo->state == MEMO_NONE || better(&cand, &best)) {
				best = cand;
				memo->state = MEMO_FOUND;
				memo->fmt = k;
				memo->len = n - pos;
			}
		}
		if (!f->open_end)
			continue;
		max_len = f->max_len < n - pos ? f->max_len : n - pos - 1;
		for (len = f->min_len ? f->min_len : 1; len <= max_len; len++) {
			const struct chain_memo *rest;

			if (!spend(c))
				break;
			/* the bytes of msg[pos..pos+len), grown with len */
			for (; seen < len; seen++)
				have[(unsigned char)msg[pos + seen] >> 6] |=
					1ULL << ((unsigned char)msg[pos + seen] & 63);
			if (fmt_match_bytes(f, msg + pos, len, have) != FMT_FULL)
				continue;
			rest = solve(c, msg, n, pos + len);
			if (rest->state != MEMO_FOUND)
				continue;
			cand = (struct score){ lit + rest->lit, near + rest->near,
					       width + rest->width, 1 + rest->npieces };
			if (memo->state == MEMO_NONE || better(&cand, &best)) {
				best = cand;
				memo->state = MEMO_FOUND;
				memo->fmt = k;
				memo->len = len;
			}
		}
	}
	memo->lit = best.lit;
	memo->near = best.near;
	memo->width = best.width;
	memo->npieces = best.npieces;
	return memo;
}

static bool level_fits(const struct pi_entry *e, int level)
{
	return level < 0 || e->level == PI_LEVEL_DEFAULT || e->level == level;
}

/* The entry of format k to report for a base piece: as matcher_match()
 * picks, an exact level before the default one. */
static const struct pi_entry *pick_base(const struct matcher *m, uint32_t k,
					int level, size_t *count)
{
	const struct pi_entry *pick = NULL;
	uint32_t e;

	*count = 0;
	for (e = m->ent_start[k]; e < m->ent_start[k + 1]; e++) {
		const struct pi_entry *ent = &m->idx->v[m->ents[e]];

		if (!level_fits(ent, level))
			continue;
		(*count)++;
		if (!pick || (pick->level != level && ent->level == level))
			pick = ent;
	}
	return pick;
}

/* A continuation piece: from the base's file if one is, then its module. */
static const struct pi_entry *pick_piece(const struct matcher *m, uint32_t k,
					 const struct pi_entry *base)
{
	const struct pi_entry *pick = NULL;
	uint32_t e;
	int rank = -1;

	for (e = m->ent_start[k]; e < m->ent_start[k + 1]; e++) {
		const struct pi_entry *ent = &m->idx->v[m->ents[e]];
		bool same_mod = base && !strcmp(ent->module, base->module);
		int r = same_mod && !strcmp(ent->file, base->file) ? 2 : same_mod;

		if (r > rank) {
			rank = r;
			pick = ent;
		}
	}
	return pick;
}

/* Walk the memo from pos to the end, appending the pieces to out. */
static bool collect(struct chain_matcher *c, size_t pos, size_t n, struct chain *out)
{
	const struct pi_entry *base = out->n ? out->p[0].e : NULL;

	while (pos < n) {
		const struct chain_memo *memo = &c->memo[pos];

		if (memo->state != MEMO_FOUND || out->n == CHAIN_MAX)
			return false;
		out->p[out->n].e = pick_piece(&c->cont, memo->fmt, base);
		out->p[out->n].off = pos;
		out->p[out->n].len = memo->len;
		if (!base)
			base = out->p[out->n].e;
		out->n++;
		pos += memo->len;
	}
	return true;
}

/* Size the memo for a message of n bytes and refill the budget. */
static void chain_start(struct chain_matcher *c, size_t n)
{
	if (c->memo_cap < n + 1) {
		c->memo_cap = n + 1;
		c->memo = xrealloc(c->memo, c->memo_cap * sizeof(*c->memo));
	}
	if (c->at_cap < n + 1) {
		c->at_cap = n + 1;
		c->at_first = xrealloc(c->at_first, c->at_cap * sizeof(*c->at_first));
		c->at_count = xrealloc(c->at_count, c->at_cap * sizeof(*c->at_count));
	}
	memset(c->at_first, 0xff, (n + 1) * sizeof(*c->at_first));
	c->at_len = 0;
	c->budget = CHAIN_BUDGET;
}

/* Is hit h of the full matcher an open-ended specific format, a base? */
static bool base_hit(const struct matcher *all, uint32_t h)
{
	const struct fmt *f = &all->fmts[all->hits[h]];

	return all->hit_kind[h] == FMT_PREFIX && !f->generic && f->open_end;
}

/*
 * The base search, on the hits c->all has from matching this very message
 * (msg[0..n), n already cut at the newline): attribute_message() has them
 * already, so the full matcher does not run twice.
 */
static bool chain_from_hits(struct chain_matcher *c, const char *msg, size_t n,
			    int level, struct chain *out)
{
	struct matcher *all = c->all;
	struct score best = { 0 };
	uint32_t h, best_fmt = 0;
	size_t best_len = 0, others = 0, count, seen;
	uint64_t have[4];
	bool found = false;

	for (h = 0; h < all->nhits; h++)
		if (base_hit(all, h))
			break;
	if (h == all->nhits)
		return false;
	chain_start(c, n);
	for (h = 0; h < all->nhits; h++) {
		uint32_t k = all->hits[h];
		const struct fmt *f = &all->fmts[k];
		size_t len, max_len;
		bool base_ok = false;
		uint32_t width;

		if (!base_hit(all, h))
			continue;
		c->base = pick_base(all, k, level, &count);
		if (!c->base)
			continue;
		/* the scores depend on the base's file: a fresh memo */
		memset(c->memo, 0, (n + 1) * sizeof(*c->memo));
		width = fmt_width(f);
		max_len = f->max_len < n ? f->max_len : n - 1;
		memset(have, 0, sizeof(have));
		seen = 0;
		for (len = f->min_len ? f->min_len : 1; len <= max_len; len++) {
			const struct chain_memo *rest;
			struct score cand;

			if (!spend(c))
				break;
			/* the bytes of msg[0..len), grown with len */
			for (; seen < len; seen++)
				have[(unsigned char)msg[seen] >> 6] |=
					1ULL << ((unsigned char)msg[seen] & 63);
			if (fmt_match_bytes(f, msg, len, have) != FMT_FULL)
				continue;
			rest = solve(c, msg, n, len);
			if (rest->state != MEMO_FOUND)
				continue;
			base_ok = true;
			cand = (struct score){ f->lit_bytes + rest->lit, rest->near,
					       width + rest->width, 1 + rest->npieces };
			if (!found || better(&cand, &best)) {
				found = true;
				best = cand;
				best_fmt = k;
				best_len = len;
			}
		}
		if (base_ok)
			others += count;
	}
	if (!found)
		return false;
	/* the memo holds the last base's coverings: redo the best one's */
	c->base = pick_base(all, best_fmt, level, &count);
	memset(c->memo, 0, (n + 1) * sizeof(*c->memo));
	c->budget = CHAIN_BUDGET;
	solve(c, msg, n, best_len);
	out->p[0].e = c->base;
	out->p[0].off = 0;
	out->p[0].len = best_len;
	out->n = 1;
	out->others = others - 1;
	out->lit_bytes = best.lit;
	if (!collect(c, best_len, n, out)) {
		memset(out, 0, sizeof(*out));
		return false;
	}
	return true;
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
	if (cont_only) {
		chain_start(c, n);
		c->base = NULL;
		memset(c->memo, 0, (n + 1) * sizeof(*c->memo));
		out->lit_bytes = solve(c, msg, n, 0)->lit;
		return c->memo[0].state == MEMO_FOUND && collect(c, 0, n, out);
	}
	matcher_match(c->all, msg, n, level, &r);
	return chain_from_hits(c, msg, n, level, out);
}

void attribute_message(struct chain_matcher *c, const char *msg, size_t n,
		       int level, struct attribution *a)
{
	struct match_result later;

	matcher_match(c->all, msg, n, level, &a->single);
	a->chained = false;
	if (a->single.status == MATCH_SPECIFIC && !a->single.prefix)
		return;
	n = first_line(msg, n);
	memset(&a->chain, 0, sizeof(a->chain));
	if (c->cont_idx.n && n)
		a->chained = chain_from_hits(c, msg, n, level, &a->chain);
	if (a->chained || !c->later_idx.n)
		return;
	/* a whole line of a multi-line format beats a prefix of another */
	matcher_match(&c->later, msg, n, level, &later);
	if (later.status == MATCH_SPECIFIC && !later.prefix) {
		later.best = c->later_of[later.best - c->later_idx.v];
		a->single = later;
	}
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
		jsonw_string_field(w, "module", e->module);
		jsonw_int_field(w, "level", e->level);
		jsonw_bool_field(w, "cont", e->cont);
		jsonw_string_field(w, "file", e->file);
		jsonw_uint_field(w, "line", e->line);
		jsonw_string_field(w, "function", e->func);
		jsonw_name(w, "format");
		jsonw_string_len(w, e->fmt, e->fmt_len);
		jsonw_name(w, "text");
		jsonw_string_len(w, msg + ch->p[i].off, ch->p[i].len);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
}
