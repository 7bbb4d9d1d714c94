// SPDX-License-Identifier: GPL-2.0
/*
 * check: what the index says about each format (its kind, its words, the
 * buffer helpers), and the verdict of a rule with its evidence (README:
 * live, live-by-arguments, unknown, stale).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* memmem() */
#endif
#include <stdlib.h>
#include <string.h>

#include "check_impl.h"
#include "escape.h"
#include "main.h"

/* ------------------------------------------------------------------ */
/* What the index says about each format                                */


/*
 * Printing helpers that print a buffer with a catch-all "%s", and what
 * the text they print is known to start with. ACPICA formats every
 * message into a buffer in acpi_os_vprintf() (drivers/acpi/osl.c); its
 * messages begin with ACPI_MSG_ERROR "ACPI Error: ", ACPI_MSG_WARNING
 * "ACPI Warning: ", "ACPI BIOS Error (bug): "... (include/acpi/acoutput.h).
 */
static const struct {
	const char *func;
	const char *model;	/* a format for what the helper prints */
} buffer_helpers[] = {
	{ "acpi_os_vprintf", "ACPI%s" },
};



/* The same word, or one a prefix of the other when both have at least 4
 * bytes: "kill" and "killed", "remount" and "remounting". */
static bool word_eq(const struct word *a, const struct word *b)
{
	if (a->key != b->key)
		return false;
	if (a->len == b->len)
		return !memcmp(a->s, b->s, a->len);
	return a->len >= 4 && b->len >= 4 &&
	       !memcmp(a->s, b->s, a->len < b->len ? a->len : b->len);
}

static bool is_alnum(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Append the words of text[0..n) (lower-cased into arena memory). */
static void add_words(struct words *w, uint32_t *cap, struct arena *a, const char *text, size_t n)
{
	size_t i = 0, j, k;

	while (i < n) {
		bool letter = false;
		char *low;

		for (; i < n && !is_alnum(text[i]); i++)
			;
		for (j = i; j < n && is_alnum(text[j]); j++)
			letter |= !(text[j] >= '0' && text[j] <= '9');
		if (j - i >= 3 && letter) {
			struct word *x;

			if (w->n == *cap) {
				*cap = grow_cap(*cap, 8);
				w->v = xreallocarray(w->v, *cap, sizeof(*w->v));
			}
			low = arena_alloc(a, j - i);
			for (k = i; k < j; k++)
				low[k - i] = text[k] >= 'A' && text[k] <= 'Z' ? text[k] + 32 : text[k];
			x = &w->v[w->n++];
			x->s = low;
			x->len = j - i;
			x->key = (uint32_t)(unsigned char)low[0] << 24 | (unsigned char)low[1] << 16 |
				 (unsigned char)low[2] << 8 | (j - i >= 4 ? (unsigned char)low[3] : 1);
		}
		i = j;
	}
}

/* Does the message (up to the first newline) have a %pV conversion? */
static bool has_pv(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] != '\n') {
		if (s[i++] != '%')
			continue;
		if (i < n && s[i] == '%') {
			i++;
			continue;
		}
		while (i < n && strchr("-+ #0123456789.*hlLqjzt", s[i]))
			i++;
		if (i + 1 < n && s[i] == 'p' && s[i + 1] == 'V')
			return true;
	}
	return false;
}


/*
 * A format as check sees it: the text of a whole log line. Without a
 * newline the line goes on with KERN_CONT text ("Calibrating delay
 * loop... " and then "%lu.%02lu BogoMIPS (lpj=%lu)\n"), and a KERN_CONT
 * entry comes after the text of others ("Performance Events: " and then
 * "PMU not available due to virtualization, ..."): that text is taken as
 * anything, a "%s" before or after the format. So a rule for a joined
 * line still finds each piece's own text.
 */
void check_line_format(struct fmt *out, const struct matcher *m, uint32_t fi)
{
	const struct fmt *f = &m->fmts[fi];
	size_t len;
	const char *text = pi_entry_model(&m->idx->v[m->ents[m->ent_start[fi]]], &len);
	bool cont = false, after;
	struct sbuf t = { 0 };
	uint32_t k;

	for (k = 0; k < m->ent_count[fi]; k++)
		cont |= m->idx->v[m->ents[m->ent_start[fi] + k]].cont;
	/* not after a lone '%': it would make "%%s", a literal */
	after = f->open_end && !(len && text[len - 1] == '%');
	if (!cont && !after) {
		fmt_compile(out, text, len);
		return;
	}
	if (cont)
		sbuf_add(&t, "%s", 2);
	sbuf_add(&t, text, len);
	if (after)
		sbuf_add(&t, "%s", 2);
	fmt_compile(out, t.p, t.len);
	sbuf_free(&t);
}

void check_ctx_init(struct check_ctx *c, struct matcher *m, struct ck_set *set,
		    struct ck_search *s, const struct fmt *fmts, bool witness)
{
	uint32_t fi, k, cap;
	size_t e, h;

	memset(c, 0, sizeof(*c));
	c->m = m;
	c->fmts = fmts;
	c->set = set;
	c->s = s;
	c->witness = witness;
	c->helper = -1;
	c->kind = xcalloc(m->nfmt ? m->nfmt : 1, sizeof(*c->kind));
	c->litbytes = xcalloc(m->nfmt ? m->nfmt : 1, sizeof(*c->litbytes));
	c->words = xcalloc(m->nfmt ? m->nfmt : 1, sizeof(*c->words));
	for (fi = 0; fi < m->nfmt; fi++) {
		const struct fmt *f = &c->fmts[fi];
		const struct pi_entry *x = &m->idx->v[m->ents[m->ent_start[fi]]];
		bool pv = has_pv(x->fmt, x->fmt_len);

		cap = 0;
		for (k = 0; k < f->ntok; k++) {
			const struct fmt_tok *t = &f->tok[k];
			uint32_t i;

			if (t->kind != TK_LIT)
				continue;
			for (i = 0; i < t->lit_len; i++) {
				unsigned char b = f->lit[t->lit_off + i];

				cls_set(c->litbytes[fi], b >= 'A' && b <= 'Z' ? b + 32 : b);
			}
			add_words(&c->words[fi], &cap, &c->arena, f->lit + t->lit_off, t->lit_len);
		}
		c->kind[fi] = !pv ? FK_DIRECT : f->generic ? FK_PASS_GENERIC : FK_PASS;
	}
	for (e = 0; e < m->idx->n; e++) {
		const struct pi_entry *x = &m->idx->v[e];

		for (h = 0; h < ARRAY_SIZE(buffer_helpers); h++) {
			if (strcmp(x->func, buffer_helpers[h].func) || strcmp(x->fmt, "%s"))
				continue;
			/* its first entry that starts a line, if any */
			if (c->helper < 0 || (m->idx->v[c->helper_ent].cont && !x->cont)) {
				c->helper = h;
				c->helper_ent = e;
			}
		}
	}
	if (c->helper >= 0) {
		const char *model = buffer_helpers[c->helper].model;

		fmt_compile(&c->helper_fmt, model, strlen(model));
		ck_format_init(&c->helper_cf, &c->helper_fmt);
		cap = 0;
		add_words(&c->helper_words, &cap, &c->arena, model, strlen(model));
	}
}

void check_ctx_free(struct check_ctx *c)
{
	uint32_t fi;

	for (fi = 0; fi < c->m->nfmt; fi++)
		free(c->words[fi].v);
	free(c->words);
	free(c->kind);
	free(c->litbytes);
	arena_free(&c->arena);
	free(c->helper_words.v);
	if (c->helper >= 0) {
		ck_format_free(&c->helper_cf);
		fmt_free(&c->helper_fmt);
	}
}

/* ------------------------------------------------------------------ */
/* Verdicts                                                             */

const char *const verdict_names[] = {
	"live", "live-by-arguments", "unknown", "stale",
};





static struct hit *add_hit(struct hits *h, uint32_t fmt, uint32_t w)
{
	struct hit *x;

	if (h->n == h->cap) {
		h->cap = grow_cap(h->cap, 8);
		h->v = xreallocarray(h->v, h->cap, sizeof(*h->v));
	}
	x = &h->v[h->n++];
	memset(x, 0, sizeof(*x));
	x->fmt = fmt;
	x->w = w;
	return x;
}

static void add_u32(uint32_t **v, size_t *n, size_t *cap, uint32_t x)
{
	if (*n == *cap) {
		*cap = grow_cap(*cap, 64);
		*v = xreallocarray(*v, *cap, sizeof(**v));
	}
	(*v)[(*n)++] = x;
}

/*
 * live-by-arguments: a format (no %pV, not generic) prints a match in
 * which every literal byte of its message is matched by a literal byte
 * of the rule: its whole text is part of what the rule asks for, and the
 * arguments supply the rest ("%s: %04lx [#%d]%s%s%s%s%s\n" for
 * "divide error: 0000 \[#\d+\] SMP"). A longest-path product gives the
 * most such bytes (W); it runs only where the format's literal bytes are
 * all among the rule's and the chunk bound allows W to reach them all.
 */
static void find_by_args(struct check_ctx *c, struct rule *r, struct verdict *v)
{
	struct sbuf w = { 0 }, lit = { 0 };
	size_t i;
	int k;

	for (i = 0; i < v->nweak; i++) {
		uint32_t fi = v->weak[i];
		const struct fmt *f = &c->fmts[fi];
		struct ck_result res;
		bool subset = true;
		struct hit *h;

		if (c->kind[fi] != FK_DIRECT || f->generic)
			continue;
		for (k = 0; k < 4; k++)
			subset &= !(c->litbytes[fi][k] & ~r->ck.leafbytes[k]);
		if (!subset || ck_bound_starts(&r->ck, &c->set->cf[fi], true) < f->lit_bytes)
			continue;
		ck_product_lit(c->s, &r->ck, &c->set->cf[fi], &res, &w, &lit);
		if (res.v == CK_NONE || res.budget || res.w < f->lit_bytes)
			continue;
		h = add_hit(&v->by_args, fi, res.w);
		h->witness = xmemdup(w.p ? w.p : "", w.len);
		h->lit = xmemdup(lit.p ? lit.p : "", lit.len);
		h->wlen = w.len;
		h->verified = fmt_match(f, h->witness, h->wlen) == FMT_FULL;
	}
	sbuf_free(&w);
	sbuf_free(&lit);
}

/* Words in common, in order (longest common subsequence of words). */
static uint32_t common_words(const struct words *a, const struct words *b, uint32_t *row)
{
	uint32_t i, j, diag, up;

	memset(row, 0, (b->n + 1) * sizeof(*row));
	for (i = 0; i < a->n; i++) {
		diag = 0;
		for (j = 0; j < b->n; j++) {
			up = row[j + 1];
			row[j + 1] = word_eq(&a->v[i], &b->v[j]) ? diag + 1 :
				     up > row[j] ? up : row[j];
			diag = up;
		}
	}
	return row[b->n];
}

/*
 * The formats nearest to the rule, by words in common (in order), fewer
 * words in all breaking ties; which rule words no format has; and
 * whether the nearest one is the rule's message reworded: at least 3
 * words in common, and in common 60% of all the words of both (Dice
 * 0.6). "BUG: unable to handle kernel NULL pointer dereference at" and
 * "BUG: kernel NULL pointer dereference, address: %px" have 5 of 7 + 6.
 */
#define REWORDED_MIN_WORDS 3
#define REWORDED_DICE_PERCENT 60

static void find_near(struct check_ctx *c, struct rule *r, struct verdict *v)
{
	const struct words *rw = &v->rule_words;
	uint32_t fi, i, j, cap = 0, *row = NULL, rowcap = 0;
	uint64_t seen = 0;

	for (i = 0; i < r->ck.lits.nrun; i++)
		add_words(&v->rule_words, &cap, &c->arena, r->ck.lits.run[i].s,
			  r->ck.lits.run[i].len);
	if (!rw->n)
		return;
	for (fi = 0; fi < c->m->nfmt; fi++) {
		const struct words *fw = &c->words[fi];
		uint32_t hits = 0, common;
		size_t k;

		for (j = 0; j < fw->n; j++) {
			for (i = 0; i < rw->n && i < 64; i++) {
				if (word_eq(&rw->v[i], &fw->v[j])) {
					seen |= 1ULL << i;
					hits++;
				}
			}
		}
		/* pass-throughs are not where a message was reworded */
		if (!hits || c->kind[fi] != FK_DIRECT || (hits < 2 && rw->n > 2))
			continue;
		if (rowcap < fw->n + 1) {
			rowcap = fw->n + 1;
			row = xreallocarray(row, rowcap, sizeof(*row));
		}
		common = common_words(rw, fw, row);
		/* insert, best first: more in common, then fewer words */
		for (k = v->nsugg; k > 0; k--) {
			const struct suggestion *o = &v->sugg[k - 1];

			if (o->common > common ||
			    (o->common == common && c->words[o->fmt].n <= fw->n))
				break;
		}
		if (k >= EVIDENCE_SHOWN)
			continue;
		if (v->nsugg < EVIDENCE_SHOWN)
			v->nsugg++;
		memmove(&v->sugg[k + 1], &v->sugg[k], (v->nsugg - 1 - k) * sizeof(v->sugg[0]));
		v->sugg[k] = (struct suggestion){ .fmt = fi, .common = common };
	}
	free(row);
	for (i = 0; i < rw->n && i < 64; i++)
		if (!(seen >> i & 1))
			v->missing |= 1ULL << i;
	if (v->nsugg) {
		uint32_t common = v->sugg[0].common, all = rw->n + c->words[v->sugg[0].fmt].n;

		v->reworded = common >= REWORDED_MIN_WORDS &&
			      200 * common >= REWORDED_DICE_PERCENT * all;
	}
}

/* Words a site's text has in common with the rule (no order). */
static uint32_t shared_words(const struct words *rule, const struct words *site)
{
	uint32_t i, j, n = 0;

	for (i = 0; i < rule->n; i++)
		for (j = 0; j < site->n; j++)
			if (word_eq(&rule->v[i], &site->v[j])) {
				n++;
				break;
			}
	return n;
}

/*
 * Pass-through sites, those whose own text shares the most words with
 * the rule first ("ACPI Error: ..." and "%sACPI: %s: %pV"), then in
 * index order; the buffer helper counts with the text of its model.
 */
static void sort_through(struct check_ctx *c, struct verdict *v)
{
	uint32_t *score = xmalloc((v->nthrough + 1) * sizeof(*score)), best = 0;
	size_t i, j;

	for (i = 0; i < v->nthrough; i++)
		score[i] = shared_words(&v->rule_words, &c->words[v->through[i]]);
	/* insertion sort, stable: few sites, most with score 0 */
	for (i = 1; i < v->nthrough; i++) {
		uint32_t f = v->through[i], sc = score[i];

		for (j = i; j > 0 && score[j - 1] < sc; j--) {
			v->through[j] = v->through[j - 1];
			score[j] = score[j - 1];
		}
		v->through[j] = f;
		score[j] = sc;
	}
	if (v->nthrough)
		best = score[0];
	v->helper_first = v->through_helper && (!v->nthrough ||
			  (best && shared_words(&v->rule_words, &c->helper_words) >= best));
	free(score);
}

void check_rule(struct check_ctx *c, struct rule *r, struct verdict *v)
{
	struct matcher *m = c->m;
	struct sbuf w = { 0 };
	uint32_t fi;
	size_t i;

	memset(v, 0, sizeof(*v));
	ck_set_prepare(c->set, &r->ck);
	for (fi = 0; fi < m->nfmt; fi++) {
		struct ck_result res;

		ck_check_set(c->s, &r->ck, c->set, fi, &res, c->witness ? &w : NULL);
		if (res.budget)
			v->undecided++;
		if (res.v == CK_STRONG) {
			struct hit *h = add_hit(&v->strong, fi, res.w);

			if (c->witness && w.p) {
				h->witness = xmemdup(w.p, w.len);
				h->wlen = w.len;
				h->verified = fmt_match(&c->fmts[fi], w.p, w.len) == FMT_FULL;
			}
		} else if (res.v == CK_WEAK) {
			add_u32(&v->weak, &v->nweak, &v->wcap, fi);
		}
	}
	sbuf_free(&w);
	for (i = 0; i < v->nweak; i++)
		if (c->kind[v->weak[i]] == FK_PASS)
			add_u32(&v->through, &v->nthrough, &v->tcap, v->weak[i]);
	if (v->strong.n) {
		v->kind = V_LIVE;
		return;
	}
	find_by_args(c, r, v);
	if (v->by_args.n) {
		v->kind = V_LIVE_ARGS;
		return;
	}
	if (c->helper >= 0) {
		struct ck_result res;

		ck_product(c->s, &r->ck, &c->helper_cf, &res, NULL);
		v->through_helper = res.v != CK_NONE;
		v->undecided += res.budget;
	}
	find_near(c, r, v);
	sort_through(c, v);
	if (v->reworded)
		v->kind = V_STALE;
	else if (v->nthrough || v->through_helper || v->undecided)
		v->kind = V_UNKNOWN;
	else
		v->kind = V_STALE;
}

size_t check_count_entries(const struct matcher *m, const uint32_t *fmts, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += m->ent_count[fmts[i]];
	return c;
}

size_t check_count_hit_entries(const struct matcher *m, const struct hits *h)
{
	size_t i, c = 0;

	for (i = 0; i < h->n; i++)
		c += m->ent_count[h->v[i].fmt];
	return c;
}

static void hits_free(struct hits *h)
{
	size_t i;

	for (i = 0; i < h->n; i++) {
		free(h->v[i].witness);
		free(h->v[i].lit);
	}
	free(h->v);
}

void check_verdict_free(struct verdict *v)
{
	hits_free(&v->strong);
	hits_free(&v->by_args);
	free(v->weak);
	free(v->through);
	free(v->rule_words.v);
}
