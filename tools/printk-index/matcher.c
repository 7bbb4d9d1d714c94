// SPDX-License-Identifier: GPL-2.0
/* All formats of an index in one matcher (matcher.h): 4-byte anchors,
 * the candidates of a line, their ranking and levels. */
#include <stdlib.h>
#include <string.h>

#include "matcher.h"

static inline uint32_t load_gram(const unsigned char *p)
{
	uint32_t g;

	memcpy(&g, p, sizeof(g));
	return g;
}

/* 32-bit mix for table slots */
static inline uint32_t gram_mix(uint32_t g)
{
	g *= 0x9e3779b1u;
	return g ^ (g >> 15);
}

/*
 * The filter: a gram sets two bits of one 64-bit word. With one bit, a
 * log line passed the filter at some five windows whose gram no format
 * is anchored by, each a probe of the (not cached) slot table; with two
 * bits in twice the words, at about one.
 */
static inline uint32_t filter_word(uint32_t h)
{
	return h >> (32 - MATCHER_FILTER_WORD_BITS);
}

static inline uint32_t filter_bit1(uint32_t h)
{
	return h >> 16 & 63;
}

static inline uint32_t filter_bit2(uint32_t h)
{
	return h >> 8 & 63;
}

static inline uint32_t filter_hash(uint32_t g)
{
	return g * 0x9e3779b1u;
}

/* --- a throwaway open-addressing map, used while building --------- */

struct umap {
	uint64_t *keys;		/* hash of the key, for quick compare */
	uint32_t *vals;
	uint8_t *used;
	uint32_t mask;
};

static void umap_init(struct umap *u, size_t n)
{
	size_t cap = 16;

	while (cap < n * 2)
		cap *= 2;
	u->keys = xcalloc(cap, sizeof(*u->keys));
	u->vals = xcalloc(cap, sizeof(*u->vals));
	u->used = xcalloc(cap, 1);
	u->mask = cap - 1;
}

static void umap_free(struct umap *u)
{
	free(u->keys);
	free(u->vals);
	free(u->used);
}


/* --- building ------------------------------------------------------ */

/* Distinct models: entries sharing a format (pi_entry_model()) share it. */
static void dedupe(struct matcher *m)
{
	const struct pi_index *idx = m->idx;
	uint32_t *of = xcalloc(idx->n, sizeof(*of));
	uint32_t *firsts = xcalloc(idx->n, sizeof(*firsts));
	struct umap u;
	size_t i;
	uint32_t k;

	umap_init(&u, idx->n);
	m->nfmt = 0;
	for (i = 0; i < idx->n; i++) {
		size_t len, olen;
		const char *text = pi_entry_model(&idx->v[i], &len);
		uint64_t h = fnv1a(FNV_OFFSET, text, len);
		uint32_t slot = h & u.mask;

		for (;; slot = (slot + 1) & u.mask) {
			const char *o;

			if (!u.used[slot]) {
				u.used[slot] = 1;
				u.keys[slot] = h;
				u.vals[slot] = m->nfmt;
				firsts[m->nfmt] = i;
				of[i] = m->nfmt++;
				break;
			}
			o = pi_entry_model(&idx->v[firsts[u.vals[slot]]], &olen);
			if (u.keys[slot] == h && olen == len && !memcmp(o, text, len)) {
				of[i] = u.vals[slot];
				break;
			}
		}
	}
	umap_free(&u);

	m->fmts = xcalloc(m->nfmt, sizeof(*m->fmts));
	m->ent_start = xcalloc(m->nfmt + 1, sizeof(uint32_t));
	m->ent_count = xcalloc(m->nfmt, sizeof(uint32_t));
	m->ents = xcalloc(idx->n, sizeof(uint32_t));
	for (i = 0; i < idx->n; i++)
		m->ent_count[of[i]]++;
	for (k = 0; k < m->nfmt; k++)
		m->ent_start[k + 1] = m->ent_start[k] + m->ent_count[k];
	memset(m->ent_count, 0, m->nfmt * sizeof(uint32_t));
	for (i = 0; i < idx->n; i++)
		m->ents[m->ent_start[of[i]] + m->ent_count[of[i]]++] = i;
	for (k = 0; k < m->nfmt; k++) {
		size_t len;
		const char *text = pi_entry_model(&idx->v[firsts[k]], &len);

		fmt_compile(&m->fmts[k], text, len);
	}
	free(of);
	free(firsts);
}

struct cand {
	uint32_t fmt, gram, min_off, max_off;
};

/*
 * Call fn for every gram in the literal text a message can contain: up to
 * the first embedded newline, since a multi-line record may be seen one
 * line at a time.
 */
static void for_each_gram(const struct fmt *f,
			  void (*fn)(void *ctx, uint32_t gram, uint32_t lo, uint32_t hi),
			  void *ctx)
{
	uint32_t k, lo = 0, hi = 0, j;

	for (k = 0; k < f->ntok; k++) {
		const struct fmt_tok *t = &f->tok[k];

		if (t->kind == TK_LIT) {
			const char *lit = f->lit + t->lit_off;
			const char *nl = memchr(lit, '\n', t->lit_len);
			uint32_t usable = nl ? (uint32_t)(nl - lit) : t->lit_len;

			for (j = 0; j + GRAM <= usable; j++)
				fn(ctx, load_gram((const unsigned char *)lit + j),
				   lo == FMT_INF ? FMT_INF : lo + j,
				   hi == FMT_INF ? FMT_INF : hi + j);
			if (nl)
				return;
		}
		lo = lo > FMT_INF - t->min ? FMT_INF : lo + t->min;
		hi = (hi == FMT_INF || t->max == FMT_INF || hi > FMT_INF - t->max) ?
		     FMT_INF : hi + t->max;
	}
}

struct count_ctx {
	struct umap *u;
	uint32_t *counts;
	uint32_t n;
};

static uint32_t *gram_count_slot(struct umap *u, uint32_t g, uint32_t *counts,
				 uint32_t *n, bool add)
{
	uint32_t slot = gram_mix(g) & u->mask;

	for (;; slot = (slot + 1) & u->mask) {
		if (!u->used[slot]) {
			if (!add)
				return NULL;
			u->used[slot] = 1;
			u->keys[slot] = g;
			u->vals[slot] = (*n)++;
			return &counts[u->vals[slot]];
		}
		if (u->keys[slot] == g)
			return &counts[u->vals[slot]];
	}
}

static void count_gram(void *ctx, uint32_t g, uint32_t lo, uint32_t hi)
{
	struct count_ctx *c = ctx;

	(void)lo;
	(void)hi;
	(*gram_count_slot(c->u, g, c->counts, &c->n, true))++;
}

struct pick_ctx {
	struct count_ctx *cc;
	struct cand best;
	uint32_t best_count;
	bool found;
};

static void pick_gram(void *ctx, uint32_t g, uint32_t lo, uint32_t hi)
{
	struct pick_ctx *p = ctx;
	uint32_t cnt = *gram_count_slot(p->cc->u, g, p->cc->counts, &p->cc->n, false);

	/* rarest first; on a tie prefer a gram at a fixed offset, which
	 * is checked at one position only */
	if (!p->found || cnt < p->best_count ||
	    (cnt == p->best_count && hi - lo < p->best.max_off - p->best.min_off)) {
		p->found = true;
		p->best_count = cnt;
		p->best.gram = g;
		p->best.min_off = lo;
		p->best.max_off = hi;
	}
}

static int cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->gram != y->gram)
		return x->gram < y->gram ? -1 : 1;
	return x->fmt < y->fmt ? -1 : x->fmt > y->fmt;
}

bool matcher_level_ok(const struct pi_entry *e, int level)
{
	return level < 0 || e->level == PI_LEVEL_DEFAULT || e->level == level;
}

const struct pi_entry *matcher_pick_entry(const struct matcher *m, uint32_t k, int level,
					  uint32_t *cnt)
{
	const struct pi_entry *pick = NULL;
	uint32_t e;

	*cnt = 0;
	for (e = m->ent_start[k]; e < m->ent_start[k + 1]; e++) {
		const struct pi_entry *ent = &m->idx->v[m->ents[e]];

		if (!matcher_level_ok(ent, level))
			continue;
		(*cnt)++;
		/* an entry with the exact level beats a default one */
		if (!pick || (pick->level != level && ent->level == level))
			pick = ent;
	}
	return pick;
}

/* of a format's block, this many bytes at most are prefetched */
#define BLK_PREFETCH_MAX 1024

static struct cand_ref cand_ref(const struct matcher *m, uint32_t k)
{
	const struct fmt *f = &m->fmts[k];

	return (struct cand_ref){ .need_sig = f->need_sig, .fmt = k, .generic = f->generic,
				  .blk_bytes = f->blk_size < BLK_PREFETCH_MAX ?
					       f->blk_size : BLK_PREFETCH_MAX };
}

/*
 * Each format's anchor: its rarest 4-byte literal piece, by the counts of
 * every piece over all formats. Returns the count of formats anchored
 * (in cands); the others go to m->anchorless.
 */
static uint32_t pick_anchors(struct matcher *m, struct cand *cands)
{
	struct count_ctx cc = { 0 };
	uint32_t k, ncand = 0, total_grams = 0;
	struct umap u;

	for (k = 0; k < m->nfmt; k++)
		total_grams += m->fmts[k].lit_bytes;
	umap_init(&u, total_grams + 16);
	cc.u = &u;
	cc.counts = xcalloc(total_grams + 16, sizeof(uint32_t));
	for (k = 0; k < m->nfmt; k++)
		for_each_gram(&m->fmts[k], count_gram, &cc);
	m->anchorless = xcalloc(m->nfmt, sizeof(uint32_t));
	for (k = 0; k < m->nfmt; k++) {
		struct pick_ctx p = { .cc = &cc };

		for_each_gram(&m->fmts[k], pick_gram, &p);
		if (!p.found) {
			m->anchorless[m->nanchorless++] = k;
			continue;
		}
		p.best.fmt = k;
		cands[ncand++] = p.best;
	}
	umap_free(&u);
	free(cc.counts);
	return ncand;
}

/* The postings grouped by gram, one hash slot per distinct gram, and the
 * line filter's bits for each gram. */
static void build_postings(struct matcher *m, struct cand *cands, uint32_t ncand)
{
	uint32_t i, k, h, nslots;

	if (ncand)
		qsort(cands, ncand, sizeof(*cands), cmp_cand);
	m->post = xcalloc(ncand + 1, sizeof(*m->post));
	for (nslots = 16; nslots < ncand * 2; nslots *= 2)
		;
	m->slots = xcalloc(nslots, sizeof(*m->slots));
	m->slot_mask = nslots - 1;
	for (i = 0; i < ncand; i++) {
		uint32_t slot = gram_mix(cands[i].gram) & m->slot_mask;

		m->post[i].c = cand_ref(m, cands[i].fmt);
		m->post[i].min_off = cands[i].min_off;
		m->post[i].max_off = cands[i].max_off;
		m->post[i].blk = (const char *)m->fmts[cands[i].fmt].tok;
		if (i && cands[i].gram == cands[i - 1].gram)
			continue;
		while (m->slots[slot].count)
			slot = (slot + 1) & m->slot_mask;
		m->slots[slot].gram = cands[i].gram;
		m->slots[slot].start = i;
		for (k = i; k < ncand && cands[k].gram == cands[i].gram; k++)
			m->slots[slot].count++;
		h = filter_hash(cands[i].gram);
		m->filter[filter_word(h)] |= 1ULL << filter_bit1(h) | 1ULL << filter_bit2(h);
	}
}

/* The formats without an anchor, by the first byte they can print (257:
 * any), specific and generic apart. */
static void group_anchorless(struct matcher *m)
{
	uint32_t i, k;

	for (i = 0; i < 257; i++) {
		m->al_spec[i] = xcalloc(m->nanchorless, sizeof(struct cand_ref));
		m->al_gen[i] = xcalloc(m->nanchorless, sizeof(struct cand_ref));
		for (k = 0; k < m->nanchorless; k++) {
			const struct fmt *f = &m->fmts[m->anchorless[k]];

			if (i < 256 && !cls_has(f->first, i))
				continue;
			if (f->generic)
				m->al_gen[i][m->nal_gen[i]++] = cand_ref(m, m->anchorless[k]);
			else
				m->al_spec[i][m->nal_spec[i]++] = cand_ref(m, m->anchorless[k]);
		}
	}
}

void matcher_build(struct matcher *m, const struct pi_index *idx)
{
	struct cand *cands;
	uint32_t k, ncand;

	memset(m, 0, sizeof(*m));
	m->idx = idx;
	dedupe(m);
	cands = xcalloc(m->nfmt, sizeof(*cands));
	ncand = pick_anchors(m, cands);
	build_postings(m, cands, ncand);
	free(cands);
	group_anchorless(m);
	/* lines without a level (plain dmesg) rank the same entries always */
	m->any_level = xcalloc(m->nfmt + 1, sizeof(*m->any_level));
	for (k = 0; k < m->nfmt; k++)
		m->any_level[k].pick = matcher_pick_entry(m, k, -1, &m->any_level[k].count);
	m->deferred = xcalloc(m->nfmt, sizeof(struct cand_ref));
	m->spec = xcalloc(m->nfmt, sizeof(struct cand_ref));
	m->stamp = xcalloc(m->nfmt, sizeof(uint32_t));
	m->hits = xcalloc(m->nfmt, sizeof(uint32_t));
	m->hit_kind = xcalloc(m->nfmt, 1);
}

void matcher_free(struct matcher *m)
{
	uint32_t k;

	for (k = 0; k < m->nfmt; k++)
		fmt_free(&m->fmts[k]);
	free(m->fmts);
	free(m->ent_start);
	free(m->ent_count);
	free(m->ents);
	free(m->slots);
	free(m->post);
	free(m->anchorless);
	for (k = 0; k < 257; k++) {
		free(m->al_spec[k]);
		free(m->al_gen[k]);
	}
	free(m->deferred);
	free(m->any_level);
	free(m->spec);
	free(m->stamp);
	free(m->hits);
	free(m->hit_kind);
	memset(m, 0, sizeof(*m));
}

/* --- matching ------------------------------------------------------ */

/* A hit counts only if one of the format's entries has a fitting level. */
static void try_match(struct matcher *m, const struct cand_ref *c, struct fmt_line *l,
		      int level)
{
	enum fmt_result r;
	uint32_t e, k = c->fmt;

	r = fmt_match_line(&m->fmts[k], l);
	if (r == FMT_NOMATCH)
		return;
	/* without a level every entry fits: no need to read them */
	if (level >= 0) {
		for (e = m->ent_start[k]; e < m->ent_start[k + 1]; e++)
			if (matcher_level_ok(&m->idx->v[m->ents[e]], level))
				break;
		if (e == m->ent_start[k + 1])
			return;
	}
	m->hit_kind[m->nhits] = r;
	m->hits[m->nhits++] = k;
}

/* Inline: half the candidates end at their signature, without a call */
static inline void try_fmt(struct matcher *m, const struct cand_ref *c,
			   struct fmt_line *l, int level)
{
	m->tried++;
	/* fmt_match_line() would say the same, from the format's data */
	if (!(c->need_sig & ~l->sig))
		try_match(m, c, l, level);
}

/* every cache line of p[0..len) (len > 0) */
static inline void prefetch_bytes(const void *p, size_t len)
{
	const char *q = p, *end = q + len - 1;

	for (; q < end; q += 64)
		__builtin_prefetch(q);
	__builtin_prefetch(end);
}

/* windows filtered at a time, their offsets kept on the stack */
#define SCAN_CHUNK 256

/*
 * The windows of s[0..nwin) whose gram passes the filter, into pass[],
 * and every byte's signature bit (the bytes after the last window are
 * the caller's). There is no branch on the filter: a window passes its
 * first bit one time in eight, at random, and as a branch each one was
 * mispredicted (a third of the time of a line went there).
 */
static inline uint32_t filter_pass(const struct matcher *m, const unsigned char *s,
				   size_t nwin, uint64_t *sig, uint16_t *pass)
{
	uint64_t bits = *sig;
	uint16_t *out = pass;
	size_t i;

	for (i = 0; i < nwin; i++) {
		uint32_t h = filter_hash(load_gram(s + i));
		uint64_t w = m->filter[filter_word(h)];

		bits |= fmt_sig_bits[s[i]];
		*out = i;
		out += w >> filter_bit1(h) & w >> filter_bit2(h) & 1;
	}
	*sig = bits;
	return out - pass;
}

/*
 * The formats anchored by the gram at s + i, if i is an offset they allow.
 * sig: the line's bytes seen so far (all of them on a line of one chunk);
 * a candidate that lacks one is kept, but not loaded ahead.
 */
static inline void collect(struct matcher *m, const unsigned char *s, size_t i, uint64_t sig)
{
	uint32_t g = load_gram(s + i), slot, k;
	const struct gram_slot *sl;

	for (slot = gram_mix(g) & m->slot_mask;; slot = (slot + 1) & m->slot_mask) {
		sl = &m->slots[slot];
		if (!sl->count || sl->gram == g)
			break;
	}
	for (k = 0; k < sl->count; k++) {
		const struct posting *p = &m->post[sl->start + k];

		if (i < p->min_off || i > p->max_off || m->stamp[p->c.fmt] == m->cur)
			continue;
		m->stamp[p->c.fmt] = m->cur;
		if (p->c.generic) {
			m->deferred[m->ndeferred++] = p->c;
		} else {
			/* tried after the scan, and ranked if it matches:
			 * start loading the struct, its block and its
			 * ranking record (an index is larger than the
			 * caches) */
			m->spec[m->nspec++] = p->c;
			if (p->c.need_sig & ~sig)
				continue;
			/* a try reads the struct's first and last bytes */
			prefetch_bytes(&m->fmts[p->c.fmt], sizeof(struct fmt));
			prefetch_bytes(p->blk, p->c.blk_bytes);
			__builtin_prefetch(&m->any_level[p->c.fmt]);
		}
	}
}

/*
 * rank: catch-all formats last (their blanks are not evidence), then
 * literal bytes, then full over prefix match, then fewer conversions,
 * then index order
 */
void matcher_rank(struct matcher *m, int level, struct match_result *r)
{
	uint32_t best_k = UINT32_MAX, h;
	int best_kind = 0;
	size_t ncatch = 0;

	memset(r, 0, sizeof(*r));
	for (h = 0; h < m->nhits; h++) {
		uint32_t fk = m->hits[h], cnt;
		const struct fmt *f = &m->fmts[fk], *b;
		const struct pi_entry *pick;

		if (level < 0) {	/* every entry: worked out once */
			cnt = m->any_level[fk].count;
			pick = m->any_level[fk].pick;
		} else {
			pick = matcher_pick_entry(m, fk, level, &cnt);
		}
		if (!cnt)
			continue;
		if (f->catch_all)
			ncatch += cnt;
		else
			r->nmatch += cnt;
		b = best_k == UINT32_MAX ? NULL : &m->fmts[best_k];
		if (b && f->catch_all != b->catch_all) {
			if (f->catch_all)
				continue;
		} else if (b && (f->lit_bytes < b->lit_bytes ||
			   (f->lit_bytes == b->lit_bytes &&
			    !(m->hit_kind[h] < best_kind ||
			      (m->hit_kind[h] == best_kind &&
			       (f->nconv < b->nconv ||
				(f->nconv == b->nconv && pick < r->best))))))) {
			continue;
		}
		best_k = fk;
		best_kind = m->hit_kind[h];
		r->best = pick;
	}
	if (best_k == UINT32_MAX)
		return;
	r->best_fmt = &m->fmts[best_k];
	r->prefix = best_kind == FMT_PREFIX;
	if (r->best_fmt->catch_all) {
		r->nmatch = ncatch;
		r->status = MATCH_CATCH_ALL;
		return;
	}
	r->status = r->best_fmt->generic ? MATCH_GENERIC : MATCH_SPECIFIC;
}

void matcher_match(struct matcher *m, const char *msg, size_t n, int level,
		   struct match_result *r)
{
	const unsigned char *s = (const unsigned char *)msg;
	uint32_t k, b0;
	uint64_t sig = 0;
	size_t i, windows;
	const char *nl = memchr(msg, '\n', n);
	struct fmt_line line;

	/* a kmsg record can hold several lines: like a dmesg line, it is
	 * attributed by its first one */
	if (nl)
		n = nl - msg;
	windows = n >= GRAM ? n - GRAM + 1 : 0;
	m->nhits = 0;
	m->ndeferred = 0;
	m->nspec = 0;
	if (++m->cur == 0) {	/* generation wrapped: forget old stamps */
		memset(m->stamp, 0, m->nfmt * sizeof(uint32_t));
		m->cur = 1;
	}

	/* collect the candidates first: the scan visits every byte, so it
	 * also computes the line's byte signature the tries need (the last
	 * bytes, after the last window, first: the scan prefetches only
	 * candidates whose bytes it has seen) */
	for (i = windows; i < n; i++)
		sig |= fmt_sig_bits[s[i]];
	for (i = 0; i < windows; i += SCAN_CHUNK) {
		uint16_t pass[SCAN_CHUNK];
		uint32_t npass = filter_pass(m, s + i, windows - i < SCAN_CHUNK ?
					     windows - i : SCAN_CHUNK, &sig, pass);

		for (k = 0; k < npass; k++)
			collect(m, s, i + pass[k], sig);
	}
	fmt_line_init_sig(&line, msg, n, sig);
	for (k = 0; k < m->nspec; k++)
		try_fmt(m, &m->spec[k], &line, level);
	b0 = n ? s[0] : 256;
	for (k = 0; k < m->nal_spec[b0]; k++)
		try_fmt(m, &m->al_spec[b0][k], &line, level);
	if (!m->nhits && !m->specific_only) {
		/* nothing specific: what generic formats can print it? */
		for (k = 0; k < m->ndeferred; k++)
			try_fmt(m, &m->deferred[k], &line, level);
		for (k = 0; k < m->nal_gen[b0]; k++)
			try_fmt(m, &m->al_gen[b0][k], &line, level);
	}

	matcher_rank(m, level, r);
}
