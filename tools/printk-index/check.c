// SPDX-License-Identifier: GPL-2.0
/*
 * printk-index check [-j] [-v] [--strict] [--anchored] [--witness] [--index SOURCE] RULES...
 *
 * For each log-monitoring rule (a regular expression), which index entries
 * can print a message the rule matches (checker.h). RULES: rules.h.
 *
 * Per rule a verdict - live, live-by-arguments, unknown, stale (help_text
 * below, README.md) - and its best evidence; counts and weak matches with
 * -v. Exit status 1 when a rule is stale (--strict: or unknown).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "checker.h"
#include "escape.h"
#include "index.h"
#include "main.h"
#include "matcher.h"
#include "rules.h"
#include "source.h"

#define USAGE "Usage: printk-index check [-j] [-v] [--strict] [--anchored] [--witness] [--index SOURCE] RULES...\n"

/* check --help: the verdicts, as README.md and printk-index.8 define them. */
static const char help_text[] =
	USAGE
	"\n"
	"Can a message of this kernel match each log-monitoring rule, and on what\n"
	"evidence? RULES: one regex per line (label<TAB>regex, # comments) or a\n"
	"node-problem-detector kernel monitor JSON file. One verdict per rule, the\n"
	"first that holds:\n"
	"  live               a format's own literal text proves the rule can match\n"
	"                     (it supplies at least half the rule's literal bytes)\n"
	"  live-by-arguments  a format with text of its own prints a match when its\n"
	"                     %s and number arguments take particular values, all of\n"
	"                     its text being part of the match: the oops header\n"
	"                     'divide error: 0000 \\[#\\d+\\] PREEMPT SMP NOPTI' and\n"
	"                     \"%s: %04lx [#%d]%s%s%s%s%s\\n\" (arch/x86/kernel/dumpstack.c)\n"
	"  unknown            only a pass-through can print it: a %pV format with text\n"
	"                     of its own, e.g. __ext4_msg()'s \"%sEXT4-fs (%s): %pV\\n\"\n"
	"                     ('Remounting filesystem read-only' without the project's\n"
	"                     ext4 patch; live with it), or ACPICA's acpi_os_vprintf()\n"
	"                     \"%s\"; the sites are named. Not a failure unless --strict\n"
	"  stale              none of these, or the nearest format is the message\n"
	"                     reworded (3+ words in common, in order, 60% of both's):\n"
	"                     'BUG: unable to handle kernel NULL pointer dereference'\n"
	"                     and \"BUG: kernel NULL pointer dereference, address: %px\\n\"\n"
	"Unknown and stale rules show the nearest formats (did you mean) and the words\n"
	"no format has: the pre-5.1 OOM rule 'Kill process \\d+ (.+) score \\d+ or\n"
	"sacrifice child' points at \"%s: Killed process %d (%s) ...\"; no 'sacrifice'.\n"
	"Assumed: a plain %s prints any text without newline; a generic %pV format\n"
	"(\"%s%pV\") prints any line and is not counted as a pass-through.\n"
	"\n"
	"  -j, -p        JSON (everything, per rule)    -v  all evidence, counts, weak entries\n"
	"  --strict      exit 1 for unknown rules too   --anchored  match the whole message\n"
	"  --witness     a message proving each live entry\n"
	"  --index SRC   the index (default: the running kernel's)\n"
	"Exit status: 0 no rule stale, 1 some rule stale (--strict: or unknown),\n"
	"2 bad usage or input.\n";

/* ------------------------------------------------------------------ */
/* What the index says about each format                                */

/*
 * A pass-through prints text formatted elsewhere, from a format the index
 * may not list: a "%pV" (struct va_format: the caller's format and
 * arguments), or a helper that formats into a buffer and prints it with
 * "%s". Only pass-throughs with text of their own (a subsystem prefix such
 * as "%sEXT4-fs (%s): %pV\n") count: a generic one ("%s%pV", "%pV\n")
 * prints any line at all, and counting it would make every rule unknown,
 * the same reason match only tries generic formats last.
 */
enum fmt_kind {
	FK_DIRECT,		/* no %pV: its text is all in the index */
	FK_PASS,		/* %pV with text of its own */
	FK_PASS_GENERIC,	/* %pV without: not counted */
};

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

/* A word of a message: letters and digits, lower case, at least 3 bytes,
 * with a letter. key: its first 4 bytes (3 and a length mark if short),
 * equal for any two words word_eq() says are the same. */
struct word {
	const char *s;
	uint32_t len, key;
};

struct words {
	struct word *v;
	uint32_t n;
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
				w->v = xrealloc(w->v, *cap * sizeof(*w->v));
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

struct check_ctx {
	struct matcher *m;
	const struct fmt *fmts;	/* per format: as check sees it (line_format()) */
	struct ck_set *set;
	struct ck_search *s;
	bool witness;
	uint8_t *kind;		/* enum fmt_kind, per format */
	uint64_t (*litbytes)[4];	/* per format: its literal bytes, lower case */
	struct words *words;	/* per format: the words of its literal text */
	struct arena arena;
	/* a buffer helper of the index, and its model */
	int helper;		/* buffer_helpers[] index, -1: none */
	uint32_t helper_ent;	/* its entry */
	struct fmt helper_fmt;
	struct ck_format helper_cf;
	struct words helper_words;
};

/*
 * A format as check sees it: the text of a whole log line. Without a
 * newline the line goes on with KERN_CONT text ("Calibrating delay
 * loop... " and then "%lu.%02lu BogoMIPS (lpj=%lu)\n"), and a KERN_CONT
 * entry comes after the text of others ("Performance Events: " and then
 * "PMU not available due to virtualization, ..."): that text is taken as
 * anything, a "%s" before or after the format. So a rule for a joined
 * line still finds each piece's own text.
 */
static void line_format(struct fmt *out, const struct matcher *m, uint32_t fi)
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

static void ctx_init(struct check_ctx *c, struct matcher *m, struct ck_set *set,
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

static void ctx_free(struct check_ctx *c)
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

enum verdict_kind { V_LIVE, V_LIVE_ARGS, V_UNKNOWN, V_STALE };

static const char *const verdict_names[] = {
	"live", "live-by-arguments", "unknown", "stale",
};

/* Evidence shown per rule without -v. */
#define EVIDENCE_SHOWN 3

struct hit {
	uint32_t fmt;
	uint32_t w;
	char *witness;
	char *lit;	/* per witness byte: 'f' format text, 'a' argument */
	size_t wlen;
	bool verified;	/* the match model prints the witness */
};

struct hits {
	struct hit *v;
	size_t n, cap;
};

struct suggestion {
	uint32_t fmt;
	uint32_t common;	/* words in common, in order */
};

struct verdict {
	enum verdict_kind kind;
	struct hits strong, by_args;
	uint32_t *weak;
	size_t nweak, wcap;
	uint32_t *through;	/* pass-through formats that print a match */
	size_t nthrough, tcap;
	bool through_helper;	/* the buffer helper prints one */
	bool helper_first;	/* and it shares the most words with the rule */
	size_t undecided;
	bool reworded;		/* stale: sugg[0] is the message, reworded */
	struct suggestion sugg[EVIDENCE_SHOWN];
	size_t nsugg;
	struct words rule_words;
	uint64_t missing;	/* bit i: rule word i is in no format */
};

static struct hit *add_hit(struct hits *h, uint32_t fmt, uint32_t w)
{
	struct hit *x;

	if (h->n == h->cap) {
		h->cap = grow_cap(h->cap, 8);
		h->v = xrealloc(h->v, h->cap * sizeof(*h->v));
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
		*v = xrealloc(*v, *cap * sizeof(**v));
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
			row = xrealloc(row, rowcap * sizeof(*row));
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

static void check_rule(struct check_ctx *c, struct rule *r, struct verdict *v)
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

static size_t count_entries(const struct matcher *m, const uint32_t *fmts, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += m->ent_count[fmts[i]];
	return c;
}

static size_t count_hit_entries(const struct matcher *m, const struct hits *h)
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

static void verdict_free(struct verdict *v)
{
	hits_free(&v->strong);
	hits_free(&v->by_args);
	free(v->weak);
	free(v->through);
	free(v->rule_words.v);
}

/* ------------------------------------------------------------------ */
/* Output                                                               */

/* The pattern as written, control bytes as \xHH. */
static void print_pattern(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c < 0x20 || c == 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
}

static const char *mode_name(enum rx_mode m)
{
	return m == RX_WHOLE ? "whole" : m == RX_SUFFIX ? "suffix" : "search";
}

static const struct pi_entry *fmt_entry(const struct matcher *m, uint32_t fi, uint32_t k)
{
	return &m->idx->v[m->ents[m->ent_start[fi] + k]];
}

static void print_entry_text(const char *kind, const struct pi_entry *e)
{
	char lvl[16];

	pi_level_str(e, lvl);
	printf("    %s %s %s %s:%u %s \"", kind, e->module, lvl, e->file, e->line, e->func);
	pi_escape_file(stdout, e->fmt, e->fmt_len);
	printf("\"");
}

static void print_quoted(const char *s, size_t n)
{
	putchar('"');
	pi_escape_file(stdout, s, n);
	putchar('"');
}

/* The pieces of a witness that the arguments printed, quoted. */
static void print_arguments(const struct hit *h)
{
	size_t i = 0, j;

	while (i < h->wlen) {
		if (h->lit[i] == 'f') {
			i++;
			continue;
		}
		for (j = i; j < h->wlen && h->lit[j] == 'a'; j++)
			;
		putchar(' ');
		print_quoted(h->witness + i, j - i);
		i = j;
	}
}

/* Up to *left entries of a list of formats, one line each. */
static void print_fmt_entries(const struct matcher *m, const char *kind, uint32_t fi,
			      size_t *left, bool all)
{
	uint32_t k;

	for (k = 0; k < m->ent_count[fi] && (all || *left); k++) {
		print_entry_text(kind, fmt_entry(m, fi, k));
		printf("\n");
		*left -= *left > 0;
	}
}

static void print_more(size_t shown, size_t total, const char *what)
{
	if (total > shown)
		printf("    and %zu more %s (-v lists them)\n", total - shown, what);
}

static void print_helper(const struct check_ctx *c)
{
	print_entry_text("through", &c->m->idx->v[c->helper_ent]);
	printf(" (prints a buffer formatted elsewhere)\n");
}

static void print_text(const struct check_ctx *c, const struct rule *r, const struct verdict *v)
{
	const struct matcher *m = c->m;
	bool all = verbose > 0;
	size_t i, k, left = EVIDENCE_SHOWN, total;

	printf("%s:%u %s %s: ", r->file, r->line, r->label ? r->label : "-",
	       verdict_names[v->kind]);
	print_pattern(r->pat, r->len);
	printf("\n");
	switch (v->kind) {
	case V_LIVE:
		for (i = 0; i < v->strong.n && (all || left); i++) {
			const struct hit *h = &v->strong.v[i];

			for (k = 0; k < m->ent_count[h->fmt] && (all || left); k++, left -= left > 0) {
				print_entry_text("live", fmt_entry(m, h->fmt, k));
				printf(" %u/%u\n", h->w, r->ck.R);
				if (h->witness) {
					printf("        witness%s ", h->verified ? "" :
					       " (NOT printed by the match model)");
					print_quoted(h->witness, h->wlen);
					printf("\n");
				}
			}
		}
		print_more(EVIDENCE_SHOWN, count_hit_entries(m, &v->strong), "live entries");
		break;
	case V_LIVE_ARGS:
		for (i = 0; i < v->by_args.n && (all || left); i++) {
			const struct hit *h = &v->by_args.v[i];

			for (k = 0; k < m->ent_count[h->fmt] && (all || left); k++, left -= left > 0) {
				print_entry_text("by arguments", fmt_entry(m, h->fmt, k));
				printf("\n        e.g. ");
				print_quoted(h->witness, h->wlen);
				printf(", the arguments printing");
				print_arguments(h);
				printf("\n");
			}
		}
		print_more(EVIDENCE_SHOWN, count_hit_entries(m, &v->by_args), "entries");
		break;
	case V_UNKNOWN:
		if (v->helper_first) {
			print_helper(c);
			left -= left > 0;
		}
		total = count_entries(m, v->through, v->nthrough);
		/* keep a line for the helper when it comes last */
		for (i = 0; i < v->nthrough &&
			    (all || left > (size_t)(v->through_helper && !v->helper_first)); i++)
			print_fmt_entries(m, "through", v->through[i], &left, all);
		if (v->nthrough)
			printf("    (%%pV: the caller's format is not in this index)\n");
		if (v->through_helper && !v->helper_first)
			print_helper(c);
		print_more(v->through_helper ? EVIDENCE_SHOWN - 1 : EVIDENCE_SHOWN, total,
			   "pass-through entries");
		if (v->undecided)
			printf("    %zu formats too large to decide\n", v->undecided);
		break;
	case V_STALE:
		if (v->reworded)
			printf("    reworded: the first format below has %u of the rule's words, in order\n",
			       v->sugg[0].common);
		break;
	}
	if (v->kind >= V_UNKNOWN) {
		for (i = 0; i < v->nsugg; i++) {
			print_entry_text("did you mean", fmt_entry(m, v->sugg[i].fmt, 0));
			printf("\n");
		}
		if (v->missing) {
			printf("    no format has the word%s", v->missing & (v->missing - 1) ? "s" : "");
			for (i = 0; i < v->rule_words.n && i < 64; i++)
				if (v->missing >> i & 1)
					printf(" %.*s", (int)v->rule_words.v[i].len, v->rule_words.v[i].s);
			printf("\n");
		}
	}
	if (!verbose)
		return;
	printf("    counts: %zu live, %zu by arguments, %zu weak (%zu of them pass-through), %zu undecided\n",
	       count_hit_entries(m, &v->strong), count_hit_entries(m, &v->by_args),
	       count_entries(m, v->weak, v->nweak), count_entries(m, v->through, v->nthrough),
	       v->undecided);
	for (i = 0; i < v->nweak; i++) {
		for (k = 0; k < m->ent_count[v->weak[i]]; k++) {
			print_entry_text("weak", fmt_entry(m, v->weak[i], k));
			printf("\n");
		}
	}
}

static void json_hits(const struct matcher *m, const char *name, const struct hits *hs,
		      bool args)
{
	size_t i, k, j;

	jsonw_name(json_wtr, name);
	jsonw_start_array(json_wtr);
	for (i = 0; i < hs->n; i++) {
		const struct hit *h = &hs->v[i];

		for (k = 0; k < m->ent_count[h->fmt]; k++) {
			jsonw_start_object(json_wtr);
			jsonw_name(json_wtr, "entry");
			pi_json_entry(json_wtr, fmt_entry(m, h->fmt, k));
			jsonw_uint_field(json_wtr, "literal_bytes", h->w);
			if (h->witness) {
				jsonw_name(json_wtr, "witness");
				jsonw_string_len(json_wtr, h->witness, h->wlen);
				jsonw_bool_field(json_wtr, "witness_verified", h->verified);
			}
			if (args) {
				jsonw_name(json_wtr, "arguments");
				jsonw_start_array(json_wtr);
				for (j = 0; j < h->wlen;) {
					size_t e;

					if (h->lit[j] == 'f') {
						j++;
						continue;
					}
					for (e = j; e < h->wlen && h->lit[e] == 'a'; e++)
						;
					jsonw_string_len(json_wtr, h->witness + j, e - j);
					j = e;
				}
				jsonw_end_array(json_wtr);
			}
			jsonw_end_object(json_wtr);
		}
	}
	jsonw_end_array(json_wtr);
}

static void json_fmts(const struct matcher *m, const char *name, const uint32_t *v, size_t n)
{
	size_t i, k;

	jsonw_name(json_wtr, name);
	jsonw_start_array(json_wtr);
	for (i = 0; i < n; i++)
		for (k = 0; k < m->ent_count[v[i]]; k++)
			pi_json_entry(json_wtr, fmt_entry(m, v[i], k));
	jsonw_end_array(json_wtr);
}

static void print_json(const struct check_ctx *c, const struct rule *r, const struct verdict *v)
{
	const struct matcher *m = c->m;
	size_t i;

	jsonw_start_object(json_wtr);
	jsonw_string_field(json_wtr, "file", r->file);
	jsonw_uint_field(json_wtr, "line", r->line);
	jsonw_name(json_wtr, "label");
	if (r->label)
		jsonw_string(json_wtr, r->label);
	else
		jsonw_null(json_wtr);
	jsonw_name(json_wtr, "pattern");
	jsonw_string_len(json_wtr, r->pat, r->len);
	jsonw_string_field(json_wtr, "mode", mode_name(r->mode));
	jsonw_uint_field(json_wtr, "required_literals", r->ck.R);
	jsonw_string_field(json_wtr, "verdict", verdict_names[v->kind]);
	jsonw_uint_field(json_wtr, "live_count", count_hit_entries(m, &v->strong));
	jsonw_uint_field(json_wtr, "weak_count", count_entries(m, v->weak, v->nweak));
	jsonw_uint_field(json_wtr, "undecided", v->undecided);
	json_hits(m, "live", &v->strong, false);
	json_hits(m, "by_arguments", &v->by_args, true);
	jsonw_name(json_wtr, "through");
	jsonw_start_array(json_wtr);
	if (v->through_helper)
		pi_json_entry(json_wtr, &m->idx->v[c->helper_ent]);
	for (i = 0; i < v->nthrough; i++) {
		size_t k;

		for (k = 0; k < m->ent_count[v->through[i]]; k++)
			pi_json_entry(json_wtr, fmt_entry(m, v->through[i], k));
	}
	jsonw_end_array(json_wtr);
	jsonw_bool_field(json_wtr, "reworded", v->reworded);
	jsonw_name(json_wtr, "did_you_mean");
	jsonw_start_array(json_wtr);
	for (i = 0; i < v->nsugg; i++) {
		jsonw_start_object(json_wtr);
		jsonw_name(json_wtr, "entry");
		pi_json_entry(json_wtr, fmt_entry(m, v->sugg[i].fmt, 0));
		jsonw_uint_field(json_wtr, "words_in_common", v->sugg[i].common);
		jsonw_end_object(json_wtr);
	}
	jsonw_end_array(json_wtr);
	jsonw_name(json_wtr, "words_in_no_format");
	jsonw_start_array(json_wtr);
	for (i = 0; i < v->rule_words.n && i < 64; i++)
		if (v->missing >> i & 1)
			jsonw_string_len(json_wtr, v->rule_words.v[i].s, v->rule_words.v[i].len);
	jsonw_end_array(json_wtr);
	if (verbose)
		json_fmts(m, "weak", v->weak, v->nweak);
	jsonw_end_object(json_wtr);
}

/*
 * Errors in the rules: the first few, every byte outside printable ASCII
 * escaped (a binary file given by mistake must not flood the terminal with
 * raw bytes), then how many there were in all.
 */
#define ERRORS_SHOWN 5

static void rule_error(size_t *nerr, const char *msg)
{
	struct sbuf esc = { 0 };
	const unsigned char *c;
	char hex[8];

	if ((*nerr)++ >= ERRORS_SHOWN)
		return;
	for (c = (const unsigned char *)msg; *c; c++) {
		if (*c >= 0x20 && *c < 0x7f) {
			sbuf_addc(&esc, *c);
			continue;
		}
		snprintf(hex, sizeof(hex), "\\x%02x", *c);
		sbuf_add(&esc, hex, 4);
	}
	sbuf_addc(&esc, 0);
	p_err("%s", esc.p);
	sbuf_free(&esc);
}

int do_check(int argc, char **argv)
{
	static const struct option opts[] = {
		COMMON_LONG_OPTS,
		{ "index", required_argument, NULL, 'i' },
		{ "anchored", no_argument, NULL, 'a' },
		{ "witness", no_argument, NULL, 'w' },
		{ "strict", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *index_src = NULL, *used;
	bool anchored = false, witness = false;
	struct rules rs = { 0 };
	struct pi_index idx;
	struct matcher m;
	struct ck_set set;
	struct ck_search *s;
	struct check_ctx ctx;
	struct fmt *lfmts;
	struct pi_err err;
	size_t i, bad = 0, count[4] = { 0 };
	bool strict = false;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "jpvi:awsh", opts, NULL)) >= 0) {
		if (common_opt(opt))
			continue;
		switch (opt) {
		case 'i': index_src = optarg; break;
		case 'a': anchored = true; break;
		case 'w': witness = true; break;
		case 's': strict = true; break;
		case 'h':
			fputs(help_text, stdout);
			return EXIT_OK;
		default:
			fprintf(stderr, USAGE);
			return EXIT_ERR;
		}
	}
	if (optind >= argc) {
		p_err("check needs a rules file");
		fprintf(stderr, USAGE);
		return EXIT_ERR;
	}
	for (i = optind; i < (size_t)argc; i++)
		if (rules_load(&rs, argv[i], anchored, &err))
			rule_error(&bad, err.msg);
	for (i = 0; i < rs.n; i++) {
		struct rule *r = &rs.v[i];

		/* no kernel message holds a NUL: a binary file, most likely */
		if (memchr(r->pat, 0, r->len)) {
			char msg[600];

			snprintf(msg, sizeof(msg), "%s:%u: NUL byte in the line (not a text file?)",
				 r->file, r->line);
			rule_error(&bad, msg);
			continue;
		}
		if (ck_rule_init(&r->ck, r->pat, r->len, r->mode, &err)) {
			char msg[sizeof(err.msg) + 600];

			snprintf(msg, sizeof(msg), "%s:%u: rule %.200s: %s", r->file, r->line,
				 r->label ? r->label : "-", err.msg);
			rule_error(&bad, msg);
			continue;
		}
		r->ok = true;
	}
	ret = EXIT_ERR;
	if (bad > ERRORS_SHOWN)
		p_err("%zu errors in the rules, the first %d shown", bad, ERRORS_SHOWN);
	if (bad)
		goto out_rules;

	pi_index_init(&idx);
	if (index_src ? pi_load_source(&idx, index_src, &err) :
			pi_load_default(&idx, &used, &err)) {
		p_err("%s", err.msg);
		pi_index_free(&idx);
		goto out_rules;
	}
	matcher_build(&m, &idx);
	lfmts = xcalloc(m.nfmt ? m.nfmt : 1, sizeof(*lfmts));
	for (i = 0; i < m.nfmt; i++)
		line_format(&lfmts[i], &m, i);
	ck_set_init(&set, lfmts, m.nfmt);
	s = ck_search_new();
	ctx_init(&ctx, &m, &set, s, lfmts, witness);

	json_begin();
	if (json_output)
		jsonw_start_array(json_wtr);
	for (i = 0; i < rs.n; i++) {
		struct verdict v;

		check_rule(&ctx, &rs.v[i], &v);
		count[v.kind]++;
		if (json_output)
			print_json(&ctx, &rs.v[i], &v);
		else
			print_text(&ctx, &rs.v[i], &v);
		verdict_free(&v);
	}
	if (json_output) {
		jsonw_end_array(json_wtr);
		json_end();
	}
	fflush(stdout);
	fprintf(stderr, "printk-index: %zu rules: %zu live, %zu live-by-arguments, %zu unknown, %zu stale\n",
		rs.n, count[V_LIVE], count[V_LIVE_ARGS], count[V_UNKNOWN], count[V_STALE]);
	ret = count[V_STALE] || (strict && count[V_UNKNOWN]) ? EXIT_DIFF : EXIT_OK;

	ctx_free(&ctx);
	ck_search_free(s);
	ck_set_free(&set);
	for (i = 0; i < m.nfmt; i++)
		fmt_free(&lfmts[i]);
	free(lfmts);
	matcher_free(&m);
	pi_index_free(&idx);
out_rules:
	rules_free(&rs);
	return ret;
}
