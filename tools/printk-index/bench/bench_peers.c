// SPDX-License-Identifier: GPL-2.0
/*
 * match against what a user would pick instead, on the same index and
 * log (issue #18): every format as an anchored regex (fmt_regex.h, the
 * tool's own model), run
 *
 *   hyperscan  as one Hyperscan (Vectorscan) database of all formats, the
 *              ids of those that match collected in one scan of the line
 *   hs-split   two databases, with match's own rule: the specific formats,
 *              and the generic ones scanned only if no specific one
 *              matched (a generic format such as "%s: %s\n" matches most
 *              lines, and one database reports some twenty a line)
 *   pcre2-jit  one PCRE2 pattern per format, JIT-compiled, tried only if
 *              the format's longest literal is in the line (the literals
 *              found in one pass of a Hyperscan literal database; formats
 *              without literal always tried), specific formats first and
 *              generic ones only when none matched, as match does
 *
 * Each peer then ranks its set of matching formats with the matcher's own
 * matcher_rank(), so the answer is comparable entry for entry with
 * matcher_match()'s: single-line attribution, not KERN_CONT assembly.
 * An open format (no newline: KERN_CONT text may follow) has two
 * expressions, a full one ("...$") and a prefix one.
 *
 * First every message of the log is answered by match and each peer and
 * the answers compared (the status, entry, prefix flag and count, and the
 * set of matching formats with their kinds); then each is timed in CPU
 * time on the messages repeated to LINES. Shapes are read as match reads
 * them (log_parse_in()), before the clock: the engines get the same
 * messages. Exit status 1 if any answer differs.
 *
 *   bench_peers INDEX LINES LOG...     LOG "generated": bench.c's log of
 *                                       LINES lines
 *   bench_peers --selftest INDEX       each conversion's expression
 *                                       against the tool's arithmetic
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <hs/hs.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../escape.h"
#include "../fmt_impl.h"
#include "../logline.h"
#include "../matcher.h"
#include "../source.h"
#include "fmt_regex.h"
#include "genlog.h"

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct msg {
	const char *p;
	uint32_t len;
	int level;
	size_t lineno;
};

struct peers {
	struct matcher *m;
	/* Hyperscan: ids 2k (format k, full) and 2k + 1 (prefix) */
	hs_database_t *db, *lit_db;
	/* hs-split: the specific formats, and the generic ones */
	hs_database_t *sdb, *gdb;
	hs_scratch_t *scratch;
	/* PCRE2, per format: full and, for an open format, prefix */
	pcre2_code **full, **pfx;
	pcre2_match_data *md;
	pcre2_match_context *mctx;
	pcre2_jit_stack *jit_stack;
	uint32_t *nolit;	/* formats without literal: always tried */
	uint32_t nnolit;
	size_t pcre_errors;	/* match limits hit: counted as no match */
	/* this line's matching formats, and the candidates of the prefilter */
	uint32_t cur, *stamp, *cstamp, *found, nfound, *cand, ncand;
	uint8_t *kind;
};

/* ------------------------------------------------------------------ */
/* Building                                                            */

static pcre2_code *pcre_compile(const char *pat, uint32_t k)
{
	PCRE2_SIZE off;
	int err;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED,
				       PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY, &err, &off, NULL);

	if (!re) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(err, msg, sizeof(msg));
		fprintf(stderr, "bench_peers: format %u: pcre2: %s at %zu\n", k, msg, (size_t)off);
		return NULL;
	}
	if (pcre2_jit_compile(re, PCRE2_JIT_COMPLETE))
		fprintf(stderr, "bench_peers: format %u: no JIT\n", k);
	return re;
}

/*
 * A database of the n expressions (ids 2k, 2k + 1 for format k), SINGLEMATCH:
 * which formats match is all that is asked. An expression Hyperscan
 * rejects is left out and named: the lines it matches then differ, which
 * the comparison reports. Returns how many were left out.
 */
static unsigned hs_build(const char *const *pats_in, const unsigned *ids_in, unsigned n,
			 hs_database_t **db)
{
	const char **pats = xcalloc(n ? n : 1, sizeof(*pats));
	unsigned *ids = xcalloc(n ? n : 1, sizeof(*ids));
	unsigned *flags = xcalloc(n ? n : 1, sizeof(*flags)), i, dropped = 0;
	hs_compile_error_t *cerr;

	for (i = 0; i < n; i++) {
		pats[i] = pats_in[i];
		ids[i] = ids_in[i];
		flags[i] = HS_FLAG_DOTALL | HS_FLAG_SINGLEMATCH | HS_FLAG_ALLOWEMPTY;
	}
	while (hs_compile_multi(pats, flags, ids, n, HS_MODE_BLOCK, NULL, db, &cerr)) {
		int e = cerr->expression;

		fprintf(stderr, "bench_peers: hyperscan: %s%s\n", cerr->message,
			e < 0 ? "" : ", expression left out:");
		if (e < 0)
			exit(2);
		fprintf(stderr, "  format %u: %.300s\n", ids[e] / 2, pats[e]);
		hs_free_compile_error(cerr);
		pats[e] = pats[--n];
		ids[e] = ids[n];
		dropped++;
	}
	free(pats);
	free(ids);
	free(flags);
	return dropped;
}

static void peers_build(struct peers *p, struct matcher *m)
{
	const char **pats = xcalloc(2 * m->nfmt, sizeof(*pats));
	const char **lits = xcalloc(m->nfmt, sizeof(*lits));
	unsigned *ids = xcalloc(2 * m->nfmt, sizeof(*ids));
	unsigned *lflags = xcalloc(m->nfmt, sizeof(*lflags));
	unsigned *lids = xcalloc(m->nfmt, sizeof(*lids));
	size_t *llens = xcalloc(m->nfmt, sizeof(*llens));
	unsigned npat = 0, npcre, nlit = 0, nprefix = 0, none = 0, dropped = 0;
	hs_compile_error_t *cerr;
	struct sbuf re = { 0 };
	const char **split[2] = { xcalloc(2 * m->nfmt, sizeof(char *)),
				  xcalloc(2 * m->nfmt, sizeof(char *)) };
	unsigned *split_ids[2] = { xcalloc(2 * m->nfmt, sizeof(unsigned)),
				   xcalloc(2 * m->nfmt, sizeof(unsigned)) };
	unsigned nsplit[2] = { 0, 0 };
	double c0, pcre_cpu;
	size_t sz, gsz;
	uint32_t k;

	memset(p, 0, sizeof(*p));
	p->m = m;
	p->full = xcalloc(m->nfmt, sizeof(*p->full));
	p->pfx = xcalloc(m->nfmt, sizeof(*p->pfx));
	p->nolit = xcalloc(m->nfmt, sizeof(*p->nolit));
	p->stamp = xcalloc(m->nfmt, sizeof(*p->stamp));
	p->cstamp = xcalloc(m->nfmt, sizeof(*p->cstamp));
	p->found = xcalloc(m->nfmt, sizeof(*p->found));
	p->cand = xcalloc(m->nfmt, sizeof(*p->cand));
	p->kind = xcalloc(m->nfmt, 1);

	for (k = 0; k < m->nfmt; k++) {
		const struct fmt *f = &m->fmts[k];
		const char *lit;
		size_t len = fmt_longest_literal(f, &lit);
		int pass;

		/* "%s\n" and the like print every line whole: no prefix */
		for (pass = 0; pass < (f->open_end && !f->any ? 2 : 1); pass++) {
			sbuf_reset(&re);
			if (!fmt_to_regex(f, !pass, &re)) {
				none += !pass;
				break;
			}
			pats[npat] = xstrdup(re.p);
			ids[npat++] = 2 * k + pass;
			nprefix += pass;
		}
		if (len) {
			lits[nlit] = lit;
			llens[nlit] = len;
			lflags[nlit] = HS_FLAG_SINGLEMATCH;
			lids[nlit++] = k;
		} else {
			p->nolit[p->nnolit++] = k;
		}
	}

	c0 = cpu_now();
	npcre = npat;
	for (k = 0; k < npat; k++) {
		pcre2_code **slot = ids[k] & 1 ? &p->pfx[ids[k] / 2] : &p->full[ids[k] / 2];

		*slot = pcre_compile(pats[k], ids[k] / 2);
	}
	p->md = pcre2_match_data_create(1, NULL);
	/* formats with many "%s" backtrack deeply on long lines */
	p->jit_stack = pcre2_jit_stack_create(32 * 1024, 1024 * 1024, NULL);
	p->mctx = pcre2_match_context_create(NULL);
	pcre2_jit_stack_assign(p->mctx, NULL, p->jit_stack);
	pcre_cpu = cpu_now() - c0;

	c0 = cpu_now();
	dropped = hs_build(pats, ids, npat, &p->db);
	hs_database_size(p->db, &sz);
	printf("peers: hyperscan: %u expressions (%u of them prefix ones; %u formats print nothing, %u left out), compiled in %.1f s CPU, %.1f MB\n",
	       npat - dropped, nprefix, none, dropped, cpu_now() - c0, sz / 1e6);
	/* the same split as match's: specific formats, then generic ones */
	c0 = cpu_now();
	for (k = 0; k < npat; k++) {
		bool gen = m->fmts[ids[k] / 2].generic;

		split[gen][nsplit[gen]] = pats[k];
		split_ids[gen][nsplit[gen]++] = ids[k];
	}
	dropped = hs_build(split[0], split_ids[0], nsplit[0], &p->sdb) +
		  hs_build(split[1], split_ids[1], nsplit[1], &p->gdb);
	hs_database_size(p->sdb, &sz);
	hs_database_size(p->gdb, &gsz);
	printf("peers: hs-split: %u + %u expressions (%u left out), compiled in %.1f s CPU, %.1f + %.1f MB\n",
	       nsplit[0], nsplit[1], dropped, cpu_now() - c0, sz / 1e6, gsz / 1e6);

	c0 = cpu_now();
	if (hs_compile_lit_multi(lits, lflags, lids, llens, nlit, HS_MODE_BLOCK, NULL,
				 &p->lit_db, &cerr)) {
		fprintf(stderr, "bench_peers: hyperscan literals: %s\n", cerr->message);
		exit(2);
	}
	if (hs_alloc_scratch(p->db, &p->scratch) || hs_alloc_scratch(p->sdb, &p->scratch) ||
	    hs_alloc_scratch(p->gdb, &p->scratch) || hs_alloc_scratch(p->lit_db, &p->scratch)) {
		fprintf(stderr, "bench_peers: hs_alloc_scratch failed\n");
		exit(2);
	}
	printf("peers: pcre2-jit: %u expressions, JIT-compiled in %.1f s CPU; prefilter: %u literals in a Hyperscan literal database (built in %.1f s CPU), %u formats without literal\n",
	       npcre, pcre_cpu, nlit, cpu_now() - c0, p->nnolit);

	for (k = 0; k < npat; k++)
		free((char *)pats[k]);
	for (k = 0; k < 2; k++) {
		free(split[k]);
		free(split_ids[k]);
	}
	free(pats);
	free(ids);
	free(lits);
	free(lflags);
	free(lids);
	free(llens);
	sbuf_free(&re);
}

static void peers_free(struct peers *p)
{
	uint32_t k;

	for (k = 0; k < p->m->nfmt; k++) {
		pcre2_code_free(p->full[k]);
		pcre2_code_free(p->pfx[k]);
	}
	free(p->full);
	free(p->pfx);
	pcre2_match_data_free(p->md);
	pcre2_match_context_free(p->mctx);
	pcre2_jit_stack_free(p->jit_stack);
	hs_free_scratch(p->scratch);
	hs_free_database(p->db);
	hs_free_database(p->sdb);
	hs_free_database(p->gdb);
	hs_free_database(p->lit_db);
	free(p->nolit);
	free(p->stamp);
	free(p->cstamp);
	free(p->found);
	free(p->cand);
	free(p->kind);
}

/* ------------------------------------------------------------------ */
/* Answering                                                           */

static bool level_fits(const struct matcher *m, uint32_t k, int level)
{
	uint32_t e;

	if (level < 0)
		return true;
	for (e = m->ent_start[k]; e < m->ent_start[k + 1]; e++)
		if (matcher_level_ok(&m->idx->v[m->ents[e]], level))
			return true;
	return false;
}

static void new_line(struct peers *p)
{
	if (++p->cur == 0) {
		memset(p->stamp, 0, p->m->nfmt * sizeof(uint32_t));
		memset(p->cstamp, 0, p->m->nfmt * sizeof(uint32_t));
		p->cur = 1;
	}
	p->nfound = 0;
	p->ncand = 0;
}

/* format k matches; a full match beats a prefix one */
static void note(struct peers *p, uint32_t k, int kind)
{
	if (p->stamp[k] != p->cur) {
		p->stamp[k] = p->cur;
		p->kind[k] = kind;
		p->found[p->nfound++] = k;
	} else if (kind == FMT_FULL) {
		p->kind[k] = kind;
	}
}

/*
 * What match does with the formats found: those with an entry of the
 * line's level, generic ones only if no specific one is among them, then
 * matcher_rank().
 */
static void finish(struct peers *p, int level, struct match_result *r)
{
	struct matcher *m = p->m;
	bool spec = false;
	uint32_t i, w;

	m->nhits = 0;
	for (i = 0; i < p->nfound; i++) {
		uint32_t k = p->found[i];

		if (!level_fits(m, k, level))
			continue;
		spec |= !m->fmts[k].generic;
		m->hits[m->nhits] = k;
		m->hit_kind[m->nhits++] = p->kind[k];
	}
	if (spec) {
		for (i = w = 0; i < m->nhits; i++)
			if (!m->fmts[m->hits[i]].generic) {
				m->hits[w] = m->hits[i];
				m->hit_kind[w++] = m->hit_kind[i];
			}
		m->nhits = w;
	}
	matcher_rank(m, level, r);
}

static int on_match(unsigned int id, unsigned long long from, unsigned long long to,
		    unsigned int flags, void *ctx)
{
	(void)from;
	(void)to;
	(void)flags;
	note(ctx, id / 2, id & 1 ? FMT_PREFIX : FMT_FULL);
	return 0;
}

static void answer_hs(struct peers *p, const struct msg *x, struct match_result *r)
{
	new_line(p);
	hs_scan(p->db, x->p, x->len, 0, p->scratch, on_match, p);
	finish(p, x->level, r);
}

/* match's own rule: generic formats only if no specific one matches */
static void answer_hs_split(struct peers *p, const struct msg *x, struct match_result *r)
{
	uint32_t i;

	new_line(p);
	hs_scan(p->sdb, x->p, x->len, 0, p->scratch, on_match, p);
	for (i = 0; i < p->nfound; i++)
		if (level_fits(p->m, p->found[i], x->level))
			break;
	if (i == p->nfound)
		hs_scan(p->gdb, x->p, x->len, 0, p->scratch, on_match, p);
	finish(p, x->level, r);
}

static int on_literal(unsigned int id, unsigned long long from, unsigned long long to,
		      unsigned int flags, void *ctx)
{
	struct peers *p = ctx;

	(void)from;
	(void)to;
	(void)flags;
	if (p->cstamp[id] != p->cur) {
		p->cstamp[id] = p->cur;
		p->cand[p->ncand++] = id;
	}
	return 0;
}

static bool pcre_hit(struct peers *p, pcre2_code *re, const struct msg *x)
{
	int rc;

	if (!re)
		return false;
	rc = pcre2_jit_match(re, (PCRE2_SPTR)x->p, x->len, 0, 0, p->md, p->mctx);
	if (rc >= 0)
		return true;
	if (rc != PCRE2_ERROR_NOMATCH)
		p->pcre_errors++;
	return false;
}

static void pcre_try(struct peers *p, uint32_t k, const struct msg *x)
{
	if (!level_fits(p->m, k, x->level))
		return;
	if (pcre_hit(p, p->full[k], x))
		note(p, k, FMT_FULL);
	else if (pcre_hit(p, p->pfx[k], x))
		note(p, k, FMT_PREFIX);
}

static void answer_pcre(struct peers *p, const struct msg *x, struct match_result *r)
{
	const struct fmt *fmts = p->m->fmts;
	uint32_t i;
	int gen;

	new_line(p);
	hs_scan(p->lit_db, x->p, x->len, 0, p->scratch, on_literal, p);
	for (gen = 0; gen < 2 && !p->nfound; gen++) {
		for (i = 0; i < p->ncand; i++)
			if (fmts[p->cand[i]].generic == gen)
				pcre_try(p, p->cand[i], x);
		for (i = 0; i < p->nnolit; i++)
			if (fmts[p->nolit[i]].generic == gen)
				pcre_try(p, p->nolit[i], x);
	}
	finish(p, x->level, r);
}

static void answer_match(struct peers *p, const struct msg *x, struct match_result *r)
{
	matcher_match(p->m, x->p, x->len, x->level, r);
}

/* ------------------------------------------------------------------ */
/* Comparing                                                           */

/* the formats that matched (m->hits after an answer), sorted */
struct hitset {
	uint32_t n;
	uint64_t *v;	/* format << 8 | kind */
};

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

static void hitset_take(struct hitset *s, const struct matcher *m)
{
	uint32_t i;

	s->n = m->nhits;
	for (i = 0; i < m->nhits; i++)
		s->v[i] = (uint64_t)m->hits[i] << 8 | m->hit_kind[i];
	qsort(s->v, s->n, sizeof(*s->v), cmp_u64);
}

static bool same(const struct match_result *a, const struct match_result *b,
		 const struct hitset *x, const struct hitset *y)
{
	return a->status == b->status && a->best == b->best && a->prefix == b->prefix &&
	       a->nmatch == b->nmatch && x->n == y->n && !memcmp(x->v, y->v, x->n * sizeof(*x->v));
}

static const char *const status_name[] = { "unattributed", "catch-all", "generic", "attributed" };

static void show_entry(const struct pi_entry *e)
{
	printf("%s:%u \"", e->file, e->line);
	pi_escape_file(stdout, e->fmt, e->fmt_len < 70 ? e->fmt_len : 70);
	printf("\"");
}

static void show(const char *who, const struct match_result *r)
{
	printf("    %-9s %s", who, status_name[r->status]);
	if (r->best) {
		printf(" ");
		show_entry(r->best);
		printf("%s +%zu", r->prefix ? " (prefix)" : "", r->nmatch - 1);
	}
	printf("\n");
}

/* formats in x and not in y */
static void show_extra(const char *who, const struct matcher *m, const struct hitset *x,
		       const struct hitset *y)
{
	uint32_t i, shown = 0;

	for (i = 0; i < x->n && shown < 3; i++) {
		uint32_t k = x->v[i] >> 8;

		if (bsearch(&x->v[i], y->v, y->n, sizeof(*y->v), cmp_u64))
			continue;
		printf("      only %s, %s: ", who, (x->v[i] & 0xff) == FMT_FULL ? "full" : "prefix");
		show_entry(&m->idx->v[m->ents[m->ent_start[k]]]);
		printf("\n");
		shown++;
	}
}

typedef void answer_fn(struct peers *p, const struct msg *x, struct match_result *r);

static const struct engine {
	const char *name;
	answer_fn *fn;
} engines[] = {
	{ "match", answer_match },
	{ "hyperscan", answer_hs },
	{ "hs-split", answer_hs_split },
	{ "pcre2-jit", answer_pcre },
};

/* Every message answered by each engine; the lines that differ. */
static size_t verify(struct peers *p, const char *log, const struct msg *x, size_t n)
{
	struct matcher *m = p->m;
	struct match_result ra, rb;
	struct hitset ha, hb;
	size_t diff[ARRAY_SIZE(engines)] = { 0 }, i, e, bad = 0;

	ha.v = xcalloc(m->nfmt, sizeof(*ha.v));
	hb.v = xcalloc(m->nfmt, sizeof(*hb.v));
	p->pcre_errors = 0;
	for (i = 0; i < n; i++) {
		answer_match(p, &x[i], &ra);
		hitset_take(&ha, m);
		for (e = 1; e < ARRAY_SIZE(engines); e++) {
			engines[e].fn(p, &x[i], &rb);
			hitset_take(&hb, m);
			if (same(&ra, &rb, &ha, &hb) || diff[e]++ >= 5)
				continue;
			printf("  %s line %zu, level %d: \"", log, x[i].lineno, x[i].level);
			pi_escape_file(stdout, x[i].p, x[i].len < 120 ? x[i].len : 120);
			printf("\"\n");
			show("match", &ra);
			show(engines[e].name, &rb);
			show_extra("match", m, &ha, &hb);
			show_extra(engines[e].name, m, &hb, &ha);
		}
	}
	printf("peers: %s: %zu messages, answers that differ from match's:", log, n);
	for (e = 1; e < ARRAY_SIZE(engines); e++) {
		printf(" %s %zu", engines[e].name, diff[e]);
		bad += diff[e];
	}
	printf(" (pcre2 match limits hit: %zu)\n", p->pcre_errors);
	free(ha.v);
	free(hb.v);
	return bad;
}

/* CPU seconds for total answers, the messages over and over */
static double time_engine(struct peers *p, answer_fn *fn, const struct msg *x, size_t n,
			  size_t total, uint64_t *digest)
{
	struct match_result r;
	uint64_t h = FNV_OFFSET;
	double c0 = cpu_now();
	size_t i, j = 0;

	for (i = 0; i < total; i++) {
		fn(p, &x[j], &r);
		h = fnv1a(h, &r.best, sizeof(r.best));
		if (++j == n)
			j = 0;
	}
	*digest = h;
	return cpu_now() - c0;
}

/*
 * The messages of text's lines (off: starts, and the end) as match reads
 * them: shapes found line by line as the lines before suggest, kmsg
 * dictionary lines skipped, each cut at its first newline.
 */
static size_t read_msgs(const char *text, const size_t *off, size_t nlines, struct msg **out,
			struct sbuf *store)
{
	struct log_shape shape;
	struct sbuf scratch = { 0 };
	struct msg *x = xcalloc(nlines ? nlines : 1, sizeof(*x));
	size_t i, n = 0, *at = xcalloc(nlines ? nlines : 1, sizeof(*at));

	log_shape_init(&shape, LOG_NKINDS);
	for (i = 0; i < nlines; i++) {
		const char *s = text + off[i], *nl;
		size_t len = off[i + 1] - off[i];
		struct log_line ll;

		while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
			len--;
		log_parse_in(&shape, s, len, &ll, &scratch);
		if (ll.kind == LOG_SKIP)
			continue;
		nl = memchr(ll.msg, '\n', ll.len);
		at[n] = store->len;
		x[n] = (struct msg){ .len = nl ? (uint32_t)(nl - ll.msg) : ll.len,
				     .level = ll.level, .lineno = i + 1 };
		sbuf_add(store, ll.msg, x[n].len);
		sbuf_addc(store, '\0');
		n++;
	}
	for (i = 0; i < n; i++)	/* the store has moved as it grew */
		x[i].p = store->p + at[i];
	free(at);
	sbuf_free(&scratch);
	*out = x;
	return n;
}

/* a file's lines, or bench.c's generated log of nlines lines */
static size_t load_log(const char *path, const struct pi_index *idx, size_t nlines,
		       struct msg **out, struct sbuf *store)
{
	struct sbuf text = { 0 };
	size_t *off, *src, n = 0, i;
	char buf[65536];
	FILE *f;

	if (!strcmp(path, "generated")) {
		off = xcalloc(nlines + 1, sizeof(*off));
		src = xcalloc(nlines, sizeof(*src));
		genlog(idx, nlines, &text, off, src);
		free(src);
	} else {
		f = fopen(path, "r");
		if (!f) {
			perror(path);
			exit(2);
		}
		while ((i = fread(buf, 1, sizeof(buf), f)) > 0)
			sbuf_add(&text, buf, i);
		fclose(f);
		if (text.len && text.p[text.len - 1] != '\n')
			sbuf_addc(&text, '\n');
		off = xcalloc(text.len + 2, sizeof(*off));
		for (i = 0; i < text.len; i++)
			if (text.p[i] == '\n')
				off[++n] = i + 1;
		nlines = n;
	}
	n = read_msgs(text.p, off, nlines, out, store);
	free(off);
	sbuf_free(&text);
	return n;
}

static int bench(const char *index, size_t total, char **logs, int nlogs)
{
	struct pi_index idx;
	struct pi_err err;
	struct matcher m;
	struct peers p;
	size_t bad = 0;
	int l;

	pi_index_init(&idx);
	if (pi_load_source(&idx, index, &err)) {
		fprintf(stderr, "bench_peers: %s\n", err.msg);
		return 2;
	}
	matcher_build(&m, &idx);
	printf("peers: index %s: %zu entries, %u distinct formats\n", index, idx.n, m.nfmt);
	peers_build(&p, &m);
	for (l = 0; l < nlogs; l++) {
		struct sbuf store = { 0 };
		struct msg *x;
		size_t n = load_log(logs[l], &idx, total, &x, &store), e;
		const char *name = logs[l];
		uint64_t digest[ARRAY_SIZE(engines)];
		double cpu[ARRAY_SIZE(engines)];

		if (!n) {
			fprintf(stderr, "bench_peers: %s: no messages\n", logs[l]);
			return 2;
		}
		bad += verify(&p, name, x, n);
		for (e = 0; e < ARRAY_SIZE(engines); e++) {
			cpu[e] = time_engine(&p, engines[e].fn, x, n, total, &digest[e]);
			printf("peers: %s: %-9s %8.0f lines/s (%zu messages repeated to %zu lines, %.2f s CPU)",
			       name, engines[e].name, total / cpu[e], n, total, cpu[e]);
			if (e)
				printf("; match/%s %.1fx%s", engines[e].name, cpu[e] / cpu[0],
				       digest[e] == digest[0] ? "" : " (answers' digest differs)");
			printf("\n");
		}
		free(x);
		sbuf_free(&store);
	}
	peers_free(&p);
	matcher_free(&m);
	pi_index_free(&idx);
	if (bad)
		printf("peers: FAILED: %zu lines answered otherwise than by match (counted per peer)\n", bad);
	return bad ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* Self-check: each conversion's expression against the arithmetic     */

/* conversions whose layout rules interact; the index adds its own */
static const char *const hand[] = {
	"%d", "%+d", "% d", "%-d", "%05d", "%-5d", "%+5d", "% 5d", "%+05d", "% 05d",
	"%-+5d", "%- 5d", "%.3d", "%5.3d", "%05.3d", "%-5.3d", "%+.0d", "%.0d", "%*d",
	"%-*d", "%0*d", "%*.*d", "%.*d", "%0*.*d", "% *d", "%+*d", "%+0*d", "%-0*d",
	"%x", "%#x", "%#X", "%08x", "%#08x", "%#-8x", "%#.3x", "%-#9.4x", "%*x", "%#*x",
	"%#0*x", "%hhx", "%hx", "%#hhX", "%08.3x", "%#o", "%#5o", "%#05o", "%#.3o",
	"%#-6o", "%#*o", "%o", "%5o", "%hho", "%hhu", "%5u", "%-5u", "%.2u", "%hhd",
	"%hhi", "%lld", "%zu", "%5p", "%-7p", "%07p", "%*p", "%.3s", "%5s", "%-5s",
	"%5.2s", "%-5.2s", "%*.3s", "%-*.3s", "%5.*s", "%3.8s", "%.0s", "%*.0s", "%c",
	"%3c", "%-3c", "%*c", "%-*c", "%pS", "%pM", "%pI4", "%pI6c", "%pe", "%pR",
	"%pU", "%ph", "%phC", "%pb", "%pbl", "%pa", "%p4cc", "%pt", "%pG", "%pISpc",
	"%pNF", "%pE", "%p", "%px", "%pK",
};

struct conv {
	struct fmt_tok t;
	const char *from;
};

static bool same_conv(const struct fmt_tok *a, const struct fmt_tok *b)
{
	return a->kind == b->kind && a->flags == b->flags && a->base == b->base &&
	       a->maxdigits == b->maxdigits && a->upper == b->upper &&
	       a->is_signed == b->is_signed && a->width == b->width && a->prec == b->prec &&
	       a->min == b->min && a->max == b->max && a->ere == b->ere;
}

static void add_convs(struct conv **v, size_t *n, const struct fmt *f, const char *from)
{
	uint32_t k;
	size_t i;

	for (k = 0; k < f->ntok; k++) {
		const struct fmt_tok *t = &f->tok[k];

		if (t->kind == TK_LIT || t->kind == TK_WILD)
			continue;
		for (i = 0; i < *n && !same_conv(&(*v)[i].t, t); i++)
			;
		if (i < *n)
			continue;
		*v = xrealloc(*v, (*n + 1) * sizeof(**v));
		(*v)[(*n)++] = (struct conv){ *t, from };
	}
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* a string shaped like a number() layout, often exactly the width long */
static size_t number_like(const struct fmt_tok *t, const char *alpha, uint64_t *r, char *s,
			  size_t cap)
{
	static const char *const signs[] = { "", "", "-", "+", " " };
	static const char *const pfxs[] = { "", "", "0x", "0X", "0" };
	uint32_t w = t->width > 0 ? (uint32_t)t->width : 4;
	size_t n = 0, lead, nd, trail, i;
	const char *sg = signs[rnd(r) % 5], *px = pfxs[rnd(r) % 5];

	nd = rnd(r) % (w + t->maxdigits + 3);
	lead = rnd(r) % 3 ? 0 : rnd(r) % (w + 2);
	trail = rnd(r) % 3 ? 0 : rnd(r) % (w + 2);
	if (rnd(r) % 2) {	/* exactly the width, padded on one side */
		size_t body = strlen(sg) + strlen(px) + nd;

		lead = trail = 0;
		if (body < w)
			*(rnd(r) % 2 ? &lead : &trail) = w - body;
	}
	if (lead + strlen(sg) + strlen(px) + nd + trail >= cap)
		return 0;
	for (i = 0; i < lead; i++)
		s[n++] = ' ';
	memcpy(s + n, sg, strlen(sg));
	n += strlen(sg);
	memcpy(s + n, px, strlen(px));
	n += strlen(px);
	for (i = 0; i < nd; i++)
		s[n++] = rnd(r) % 2 ? '0' : alpha[rnd(r) % 3];
	for (i = 0; i < trail; i++)
		s[n++] = ' ';
	return n;
}

/* What the expression must accept: number()'s, string()'s and %c's
 * layouts by the tool's arithmetic, which is not the model the expression
 * was written from; a %p model, the matcher's automaton of it. */
static bool oracle(const struct fmt_tok *t, const char *s, size_t n)
{
	if (t->kind != TK_INT && t->kind != TK_STR && t->kind != TK_CHAR)
		return fmt_tok_accepts(t, s, n);
	return fmt_tok_layout_accepts(t, s, n);
}

static int selftest(const char *index)
{
	struct pi_index idx;
	struct pi_err err;
	struct matcher m;
	struct conv *v = NULL;
	struct sbuf re = { 0 };
	pcre2_match_data *md = pcre2_match_data_create(1, NULL);
	size_t n = 0, nhand, i, tried = 0, bad = 0;
	uint64_t r = 88172645463325252ULL;
	struct fmt *hf = xcalloc(ARRAY_SIZE(hand), sizeof(*hf));
	uint32_t k;

	pi_index_init(&idx);
	if (pi_load_source(&idx, index, &err)) {
		fprintf(stderr, "bench_peers: %s\n", err.msg);
		return 2;
	}
	for (i = 0; i < ARRAY_SIZE(hand); i++) {
		fmt_compile(&hf[i], hand[i], strlen(hand[i]));
		add_convs(&v, &n, &hf[i], hand[i]);
	}
	nhand = n;
	matcher_build(&m, &idx);
	for (k = 0; k < m.nfmt; k++)
		add_convs(&v, &n, &m.fmts[k], idx.v[m.ents[m.ent_start[k]]].fmt);

	for (i = 0; i < n; i++) {
		const struct fmt_tok *t = &v[i].t;
		char alpha[16] = "", s[128];
		size_t na, len, total, j, c;
		pcre2_code *code;
		int e;

		sbuf_reset(&re);
		sbuf_add(&re, "^(?:", 4);
		if (!fmt_tok_regex(t, &re)) {
			printf("selftest: \"%s\": no expression\n", v[i].from);
			bad++;
			continue;
		}
		sbuf_add(&re, ")$", 2);
		code = pcre_compile(re.p, i);
		if (!code) {
			bad++;
			continue;
		}
		/* an alphabet that can spell every layout, and mistakes */
		if (t->kind == TK_INT) {
			snprintf(alpha, sizeof(alpha), "01%c %c%s",
				 t->base == 16 ? (t->upper ? 'F' : 'f') : t->base == 8 ? '7' : '9',
				 t->upper ? 'X' : 'x', t->is_signed ? "-+" : "");
		} else if (t->kind == TK_ERE) {
			/* bytes of the sample rendering */
			for (j = 0, na = 0; t->ext[j] && na < 5; j++)
				if (!memchr(alpha, t->ext[j], na))
					alpha[na++] = t->ext[j];
			alpha[na] = '\0';
		} else {
			strcpy(alpha, " a");
		}
		na = strlen(alpha);
		/* every string of up to len bytes over the alphabet, then
		 * random ones shaped like renderings */
		for (len = 0, total = 1; total * na < 40000 && len < 12; len++)
			total *= na;
		for (j = 0; j < 40000 + 4000; j++) {
			size_t x;

			if (j < 40000) {	/* the j-th string, shortest first */
				size_t lim = 1, l = 0, q = j;

				while (q >= lim && l < len) {
					q -= lim;
					lim *= na;
					l++;
				}
				if (q >= lim)
					continue;
				for (x = 0; x < l; x++, q /= na)
					s[x] = alpha[q % na];
				c = l;
			} else if (t->kind == TK_INT) {
				c = number_like(t, alpha, &r, s, sizeof(s));
			} else if (t->kind == TK_ERE) {
				/* the sample, one byte changed, dropped or added */
				c = strlen(t->ext);
				memcpy(s, t->ext, c);
				x = c ? rnd(&r) % c : 0;
				switch (rnd(&r) % 4) {
				case 0: if (c) s[x] = alpha[rnd(&r) % na]; break;
				case 1: if (c) memmove(s + x, s + x + 1, c-- - x - 1); break;
				case 2: memmove(s + x + 1, s + x, c++ - x); s[x] = alpha[rnd(&r) % na]; break;
				}
			} else {
				c = rnd(&r) % (t->min + 6 + (t->max != FMT_INF ? t->max - t->min : 8));
				c = c < sizeof(s) ? c : sizeof(s) - 1;
				for (x = 0; x < c; x++)
					s[x] = alpha[rnd(&r) % 4 ? 1 : 0];
			}
			e = pcre2_match(code, (PCRE2_SPTR)s, c, 0, 0, md, NULL);
			tried++;
			if ((e >= 0) == oracle(t, s, c))
				continue;
			if (bad++ < 10)
				printf("selftest: \"%s\" (%s): \"%.*s\": arithmetic %s, expression %s\n",
				       v[i].from, re.p, (int)c, s,
				       oracle(t, s, c) ? "accepts" : "rejects",
				       e >= 0 ? "matches" : "does not match");
		}
		pcre2_code_free(code);
	}
	printf("selftest: %zu conversions (%zu of them from the index), %zu strings: %zu wrong\n",
	       n, n - nhand, tried, bad);
	for (i = 0; i < ARRAY_SIZE(hand); i++)
		fmt_free(&hf[i]);
	free(hf);
	free(v);
	sbuf_free(&re);
	pcre2_match_data_free(md);
	matcher_free(&m);
	pi_index_free(&idx);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--selftest"))
		return selftest(argv[2]);
	if (argc < 4) {
		fprintf(stderr, "usage: bench_peers INDEX LINES LOG...\n"
				"       bench_peers --selftest INDEX\n");
		return 2;
	}
	return bench(argv[1], strtoul(argv[2], NULL, 10), argv + 3, argc - 3);
}
