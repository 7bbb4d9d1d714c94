// SPDX-License-Identifier: GPL-2.0
/*
 * Does a compiled format (fmt.h) print a line, whole or as a prefix?
 * Formats of literals and "anything" by finding the literals; the others
 * by one forward pass over position sets (fmt_match_line()).
 */
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "fmt_impl.h"

/* ------------------------------------------------------------------ */
/* Matching one format                                                 */

/*
 * Literals and "anything" only: finding each literal at its leftmost
 * position after the previous one is exact (any match can be shifted to
 * that one), so no backtracking is needed. A format that does not start
 * with "anything" is anchored at the start, and in a full match one that
 * does not end with it is anchored at the end.
 */
static bool simple_match(const struct fmt *f, const char *msg, size_t n, bool prefix)
{
	size_t pos = 0;
	uint32_t k;

	for (k = 0; k < f->ntok; k++) {
		const struct fmt_tok *t = &f->tok[k];
		const char *lit, *hit;

		if (t->kind != TK_LIT)
			continue;
		lit = f->lit + t->lit_off;	/* f->lit is NULL without literals */
		if (k == 0) {
			if (n < t->lit_len || memcmp(msg, lit, t->lit_len))
				return false;
			pos = t->lit_len;
		} else if (k == f->ntok - 1 && !prefix) {
			if (n - pos < t->lit_len || memcmp(msg + n - t->lit_len, lit, t->lit_len))
				return false;
			pos = n;
		} else {
			hit = mem_find(msg + pos, n - pos, lit, t->lit_len);
			if (!hit)
				return false;
			pos = hit - msg + t->lit_len;
		}
	}
	/* a trailing "anything" takes the rest */
	return pos == n || prefix || (f->ntok && f->tok[f->ntok - 1].kind != TK_LIT);
}

void fmt_bytes(const char *msg, size_t n, uint64_t have[4])
{
	/* four locals rather than an array: keeps them in registers */
	uint64_t w0 = 0, w1 = 0, w2 = 0, w3 = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = msg[i];
		uint64_t bit = 1ULL << (c & 63);

		switch (c >> 6) {
		case 0: w0 |= bit; break;
		case 1: w1 |= bit; break;
		case 2: w2 |= bit; break;
		default: w3 |= bit; break;
		}
	}
	have[0] = w0;
	have[1] = w1;
	have[2] = w2;
	have[3] = w3;
}

enum fmt_result fmt_match(const struct fmt *f, const char *msg, size_t n)
{
	struct fmt_line l;

	if (!fmt_needs_met(f, msg, n))
		return FMT_NOMATCH;
	fmt_line_init(&l, msg, n);
	return fmt_match_line(f, &l);
}

/*
 * The exact matcher: one forward pass over the tokens, keeping the set of
 * message positions each token can end at (a bitset over 0..n). A literal
 * maps a position to one; "anything" to every later one; a %p model runs
 * as a bit-parallel NFA from all its start positions at once; other
 * conversions try the spans their byte class and length bounds allow,
 * stopping only where the next literal can start. The full match is
 * position n after the last token, a prefix match any position there, so
 * one pass answers both. Positions that leave too little room for the
 * remaining tokens are dropped, and so are those too early for the
 * remaining tokens to reach the end when only a full match counts.
 * Work is bounded by tokens x positions x span; a step budget stops
 * pathological inputs (the line is then reported unmatched).
 */
#define FMT_MAX_WORK (1UL << 21)

static uint64_t *dp_buf;
static size_t dp_cap;

/*
 * A number prints a digit of its base (t->needs_digit, a fact of its
 * model), so a span of only blanks, signs or padding is none; and no span
 * goes past a byte t does not print. The matchers ask where the next digit
 * and the next such byte are for starts that only grow (and, from the
 * other side, for ends that only grow): the scans below read each byte
 * once a pass and no further than the bound asked, where a scan from every
 * start made 1,000 blanks after "ACPI: " a million steps.
 */
enum scan_kind { SCAN_DIGIT, SCAN_BAD };

struct fwd_scan {
	size_t to;	/* read up to here since the last start */
	size_t hit;	/* the first found at or after it, SIZE_MAX none yet */
};

#define FWD_SCAN_INIT { 0, SIZE_MAX }

static bool scan_hit(const struct fmt_tok *t, unsigned char c, enum scan_kind k)
{
	return k == SCAN_DIGIT ? fmt_is_digit(t, c) : !cls_has(t->cls, c);
}

/* The first byte of kind k in m[p..hi), or hi; p no lower than the last
 * p asked of s. SCAN_BAD only for a t that does not print every byte. */
static size_t scan_next(const struct fmt_tok *t, const unsigned char *m, struct fwd_scan *s,
			enum scan_kind k, size_t p, size_t hi)
{
	if (s->hit != SIZE_MAX) {
		if (s->hit >= p)
			return s->hit < hi ? s->hit : hi;
		s->hit = SIZE_MAX;
	}
	if (s->to < p)
		s->to = p;
	for (; s->to < hi; s->to++)
		if (scan_hit(t, m[s->to], k))
			return s->hit = s->to;
	return hi;
}

/* Raise *lo, the shortest span's end, past the first digit of m[p..hi),
 * with no byte t does not print before it; false when there is none. */
static bool past_first_digit(const struct fmt_tok *t, const unsigned char *m,
			     struct fwd_scan *dig, struct fwd_scan *bad, size_t p, size_t hi,
			     size_t *lo)
{
	size_t d = scan_next(t, m, dig, SCAN_DIGIT, p, hi);

	if (d == hi || (!t->cls_all && scan_next(t, m, bad, SCAN_BAD, p, d) < d))
		return false;
	if (*lo < d + 1)
		*lo = d + 1;
	return true;
}

/*
 * The same seen from a span's end e: the latest start, the last digit
 * before e, over bytes t prints; SIZE_MAX when there is none after lo_p.
 * For ends (and so lo_p) that only grow, each read stops at the last end,
 * whose answer (the last digit or byte t does not print before it, if
 * any) stands for the bytes below it; a new back_scan for one end.
 */
struct back_scan {
	size_t e;	/* the last end */
	size_t at;	/* the last digit or byte t does not print before it,
			 * at lo_p or after; SIZE_MAX none */
	bool digit;	/* which of the two */
};

#define BACK_SCAN_INIT { 0, SIZE_MAX, false }

static inline size_t last_digit_before(const struct fmt_tok *t, const unsigned char *m,
					struct back_scan *s, size_t lo_p, size_t e)
{
	size_t k, stop = s->e > lo_p ? s->e : lo_p;

	for (k = e; k > stop; k--) {
		bool digit = fmt_is_digit(t, m[k - 1]);

		if (digit || (!t->cls_all && !cls_has(t->cls, m[k - 1]))) {
			s->at = k - 1;
			s->digit = digit;
			break;
		}
	}
	if (k == lo_p)		/* nothing in m[lo_p..e) */
		s->at = SIZE_MAX;
	s->e = e;
	return s->at != SIZE_MAX && s->at >= lo_p && s->digit ? s->at : SIZE_MAX;
}

/*
 * A conversion's spans from one start p, read by its DFA once as their
 * ends grow, where fmt_tok_span_ok() reads m[p..e) again for each end e;
 * or, back, the spans to one end from the starts below it, by the
 * reversed model's DFA (struct ere_cursor). A dead state ends every
 * longer span too. A conversion with no such DFA (a model too wide for
 * one) has each span read on its own.
 */
struct span_walk {
	const struct ere *re;	/* NULL: no DFA that way */
	struct ere_cursor c;
	bool back;
};

/* end: the spans' end, for a walk back */
static void walk_start(struct span_walk *w, const struct fmt_tok *t, size_t end, bool back)
{
	w->re = t->kind != TK_WILD ? t->ere : NULL;
	if (w->re && !(back ? w->re->rdfa : w->re->dfa))
		w->re = NULL;
	w->back = back;
	ere_cursor_start(&w->c, back ? end : 0);
}

/* Is m[p..e) a span of t? The end (back: the start) moves one way only,
 * away from where the walk started; *work counts the bytes read. */
static bool walk_to(struct span_walk *w, const struct fmt_tok *t, const unsigned char *m,
		    size_t p, size_t e, unsigned long *work)
{
	if (!w->re) {
		*work += e - p;
		return fmt_tok_span_ok(t, m + p, e - p);
	}
	if (w->back) {
		*work += w->c.at - p + 1;
		return ere_cursor_accepts_back(w->re, &w->c, m, p);
	}
	*work += e - p - w->c.at + 1;
	return ere_cursor_accepts(w->re, &w->c, m + p, e - p);
}

/* No span reaches further: the DFA died. */
static bool walk_dead(const struct span_walk *w)
{
	return w->re && !w->c.st;
}

/*
 * The spans that end at e: the first start of cur, from hi_p down to
 * lo_p over bytes t prints, from which m[p..e) is a span of t (read back
 * once from e), or SIZE_MAX; SIZE_MAX too once the work passes the
 * budget.
 */
static inline size_t start_to(const struct fmt_tok *t, const unsigned char *m, const uint64_t *cur,
			      size_t lo_p, size_t hi_p, size_t e, unsigned long *work)
{
	struct span_walk w;
	size_t p;

	walk_start(&w, t, e, true);
	for (p = hi_p;; p--) {
		if (p != hi_p && !t->cls_all && !cls_has(t->cls, m[p]))
			break;
		if (bit_has(cur, p)) {
			if (walk_to(&w, t, m, p, e, work))
				return p;
			if (*work > FMT_MAX_WORK || walk_dead(&w))
				break;
		}
		if (p == lo_p)
			break;
	}
	return SIZE_MAX;
}

/* One conversion from every start position: validate each span. */
static bool spans(const struct fmt_tok *t, const unsigned char *m, size_t n,
		  const uint64_t *cur, uint64_t *nxt, size_t first, size_t lim,
		  size_t elo, int c0, unsigned long *work)
{
	size_t nw = n / 64 + 1, p, e;
	struct fwd_scan dig = FWD_SCAN_INIT, bad = FWD_SCAN_INIT;
	struct span_walk w;
	bool any = false;

	for (p = first; (p = bit_next(cur, nw, p)) != SIZE_MAX && p <= lim; p++) {
		size_t hi = lim, lo = p + t->min;

		if (t->max != FMT_INF && hi - p > t->max)
			hi = p + t->max;
		if (lo > hi)
			continue;
		if (lo < elo)
			lo = elo;
		if (t->kind == TK_CHAR && t->width == W_STAR) {
			/* char_ok(): blanks then any byte, or any byte then
			 * blanks; so every end up to one bound works */
			size_t q = p + 1, he;

			while (q < n && m[q] == ' ')
				q++;
			/* q: first non-blank after p (or n) */
			he = m[p] == ' ' ? (q < n ? q + 1 : n) : q;
			if (hi > he)
				hi = he;
			*work += q - p + 1;
			for (e = lo; e <= hi; e++) {
				if (c0 >= 0 && m[e] != c0)
					continue;
				bit_set(nxt, e);
				any = true;
			}
			continue;
		}
		/* the span stops at the first byte it can not print */
		if (!t->cls_all)
			hi = scan_next(t, m, &bad, SCAN_BAD, p, hi);
		*work += hi - p + 1;
		/* a number's span holds a digit: none ends before the first
		 * (blanks alone are no number, however many) */
		if (t->needs_digit && !past_first_digit(t, m, &dig, &bad, p, hi, &lo))
			continue;
		walk_start(&w, t, 0, false);
		for (e = lo; e <= hi; e++) {
			/* only where the next literal can start */
			if ((c0 >= 0 && m[e] != c0) || bit_has(nxt, e))
				continue;
			if (!walk_to(&w, t, m, p, e, work)) {
				if (walk_dead(&w))
					break;
				continue;
			}
			bit_set(nxt, e);
			any = true;
		}
		if (*work > FMT_MAX_WORK)
			return false;
	}
	return any;
}

/*
 * The same, from the other side: when the span must end where a literal
 * starts and its length is bounded, walk back from each such end over the
 * bytes the conversion can print and stop at the first start that works.
 * Much cheaper than the forward walk when the starts are dense (after a
 * "%s") and the literal is rare.
 */
static bool spans_back(const struct fmt_tok *t, const unsigned char *m, size_t n,
		       const uint64_t *cur, uint64_t *nxt, size_t first, size_t lim,
		       size_t elo, const uint64_t *stop, unsigned long *work)
{
	size_t nw = n / 64 + 1, e, lo_p, hi_p, k, rd = SIZE_MAX, last_bad = 0;
	struct back_scan scan = BACK_SCAN_INIT;
	bool any = false;

	e = first + t->min;
	if (e < elo)
		e = elo;
	for (; (e = bit_next(stop, nw, e)) != SIZE_MAX && e <= lim; e++) {
		hi_p = e - t->min;
		lo_p = e - first > t->max ? e - t->max : first;
		/* the shortest span's bytes first: 1 + the last byte t does
		 * not print before e, the bytes read once as e (and so
		 * hi_p) grows */
		for (rd = rd == SIZE_MAX ? hi_p : rd; rd < e; rd++)
			if (!t->cls_all && !cls_has(t->cls, m[rd]))
				last_bad = rd + 1;
		*work += e - hi_p + 1;
		if (last_bad > hi_p)
			continue;
		if (t->needs_digit) {
			k = last_digit_before(t, m, &scan, lo_p, e);
			*work += e - (k == SIZE_MAX ? lo_p : k);
			if (k == SIZE_MAX)
				continue;
			if (hi_p > k)
				hi_p = k;
		}
		if (start_to(t, m, cur, lo_p, hi_p, e, work) != SIZE_MAX) {
			bit_set(nxt, e);
			any = true;
		}
		if (*work > FMT_MAX_WORK)
			return false;
	}
	return any;
}

/* The last conversion of an open format as a prefix: any start, any
 * span (the nearest start first). */
static enum fmt_result last_conv_prefix(const struct fmt_tok *t, const unsigned char *m,
					size_t n, const uint64_t *cur, size_t first,
					unsigned long *work)
{
	size_t nw = n / 64 + 1, p, e;
	struct fwd_scan dig = FWD_SCAN_INIT, bad = FWD_SCAN_INIT;
	struct span_walk w;

	for (p = first; (p = bit_next(cur, nw, p)) != SIZE_MAX; p++) {
		size_t hi = n, lo = p + t->min;

		if (t->max != FMT_INF && hi - p > t->max)
			hi = p + t->max;
		for (e = p; e < p + t->min && e < hi; e++)
			if (!t->cls_all && !cls_has(t->cls, m[e]))
				break;
		if (e < p + t->min)
			continue;
		if (t->needs_digit && !past_first_digit(t, m, &dig, &bad, p, hi, &lo))
			continue;
		walk_start(&w, t, 0, false);
		for (e = lo; e <= hi; e++) {
			if (e > p + t->min && !t->cls_all && !cls_has(t->cls, m[e - 1]))
				break;
			if (walk_to(&w, t, m, p, e, work))
				return FMT_PREFIX;
			if (*work > FMT_MAX_WORK)
				return FMT_NOMATCH;
			if (walk_dead(&w))
				break;
		}
	}
	return FMT_NOMATCH;
}

/*
 * The last conversion of a format: a full match needs a start from which
 * it spans to the end (tried from the nearest one, the bytes checked once),
 * a prefix match any start with any span.
 */
static enum fmt_result last_conv(const struct fmt *f, const struct fmt_tok *t,
				 const struct fmt_line *l, const uint64_t *cur,
				 size_t first, unsigned long *work)
{
	const unsigned char *m = (const unsigned char *)l->msg;
	size_t n = l->n, nw = n / 64 + 1, p, e, lo_p, hi_p, w;
	const uint64_t *sfx;
	struct back_scan scan = BACK_SCAN_INIT;
	bool full;

	if (t->kind == TK_ERE && (sfx = fmt_line_ere_suffix(l, t->ere))) {
		for (w = first / 64; w < nw; w++)
			if (cur[w] & sfx[w])
				return FMT_FULL;
		if (!f->open_end)
			return FMT_NOMATCH;
		for (p = first; (p = bit_next(cur, nw, p)) != SIZE_MAX; p++) {
			(*work) += n - p;
			if (ere_prefix(t->ere, m + p, n - p) > 0)
				return FMT_PREFIX;
			if (*work > FMT_MAX_WORK)
				break;
		}
		return FMT_NOMATCH;
	}

	if (n >= first + t->min) {
		hi_p = n - t->min;
		lo_p = n - first > t->max ? n - t->max : first;
		for (e = hi_p; e < n; e++)
			if (!t->cls_all && !cls_has(t->cls, m[e]))
				break;
		full = e == n;
		if (full && t->needs_digit) {
			p = last_digit_before(t, m, &scan, lo_p, n);
			full = p != SIZE_MAX;
			if (full && hi_p > p)
				hi_p = p;
		}
		if (full) {
			if (start_to(t, m, cur, lo_p, hi_p, n, work) != SIZE_MAX)
				return FMT_FULL;
			if (*work > FMT_MAX_WORK)
				return FMT_NOMATCH;
		}
	}
	if (!f->open_end)
		return FMT_NOMATCH;
	return last_conv_prefix(t, m, n, cur, first, work);
}


/*
 * "%s: ...": the positions after the first two tokens, from the line's
 * shared ends of the literal, ends (the same positions, bounds and work
 * as the two steps). false when they are none; *first is the lowest.
 */
static bool start_after_lit(const struct fmt *f, const struct fmt_line *l,
			    const uint64_t *ends, uint64_t *cur, size_t nw, size_t *first,
			    unsigned long *work)
{
	size_t n = l->n, lim, elo = 0, w;
	bool any = false;

	if (f->rest_min[1] > n)
		return false;
	lim = n - f->rest_min[2];
	if (!f->open_end && f->rest_max[2] != FMT_INF && n > f->rest_max[2])
		elo = n - f->rest_max[2];
	for (w = 0; w < nw; w++) {
		cur[w] = ends[w] & range_mask(w, elo, lim);
		any |= cur[w] != 0;
	}
	*work += 2 * nw;
	if (any)
		*first = bit_next(cur, nw, 0);
	return any;
}

/* A literal from each position in cur: where it ends, in nxt. */
static bool step_lit(const struct fmt *f, const struct fmt_tok *t, const unsigned char *m,
		     const uint64_t *cur, uint64_t *nxt, size_t first, size_t lim, size_t elo)
{
	const unsigned char *lit = (const unsigned char *)f->lit + t->lit_off;
	size_t len = t->lit_len, w, p;
	bool any = false;

	/* the starts mostly come filtered by the first byte already (c0
	 * in dp_match()): compare it before calling */
	for (w = first / 64; w <= lim / 64; w++) {
		uint64_t x = cur[w];

		while (x) {
			p = w * 64 + __builtin_ctzll(x);
			x &= x - 1;
			if (p + len > lim)
				break;
			if (p + len >= elo && m[p] == lit[0] && !memcmp(m + p + 1, lit + 1, len - 1)) {
				bit_set(nxt, p + len);
				any = true;
			}
		}
	}
	return any;
}

/* "Anything": every position from the first on (only where the next
 * literal, if its first byte c0 is known, can start). */
static bool step_wild(const struct fmt_line *l, uint64_t *nxt, size_t first, size_t lim,
		      size_t elo, int c0)
{
	const uint64_t *stop = c0 >= 0 ? fmt_line_occ(l, c0) : NULL;
	size_t p = first < elo ? elo : first, w;
	bool any = false;

	for (w = p / 64; w <= lim / 64; w++) {
		nxt[w] = range_mask(w, p, lim) & (stop ? stop[w] : ~0ULL);
		any |= nxt[w] != 0;
	}
	return any;
}

/* A bounded conversion or %p model from each position in cur. */
static bool step_conv(const struct fmt_tok *t, const struct fmt_line *l, const uint64_t *cur,
		      uint64_t *nxt, size_t first, size_t lim, size_t elo, int c0, bool dense,
		      unsigned long *work)
{
	const unsigned char *m = (const unsigned char *)l->msg;
	size_t n = l->n, nw = n / 64 + 1, w;
	bool any = false;

	if (dense)
		return spans_back(t, m, n, cur, nxt, first, lim, elo, fmt_line_occ(l, c0), work);
	if (t->kind == TK_ERE && ere_reach(t->ere, m, n, cur, lim, nxt, work)) {
		for (w = 0; w < nw; w++)
			any |= nxt[w] != 0;
		return any;
	}
	/* a number, string or char; a %p model too large for the NFA
	 * tables: span by span */
	return spans(t, m, n, cur, nxt, first, lim, elo, c0, work);
}

static enum fmt_result dp_match(const struct fmt *f, const struct fmt_line *l)
{
	const unsigned char *m = (const unsigned char *)l->msg;
	size_t n = l->n, nw = n / 64 + 1, lim, elo, first = 0;
	uint64_t *cur, *nxt, *tmp;
	const uint64_t *ends = NULL;
	unsigned long work = 0;
	uint32_t ti = 0;
	bool any;

	if (2 * nw > dp_cap) {
		dp_cap = 2 * nw;
		dp_buf = xreallocarray(dp_buf, dp_cap, sizeof(uint64_t));
	}
	cur = dp_buf;
	nxt = dp_buf + nw;
	bits_clear(cur, nw);
	cur[0] = 1;	/* position 0 */
	if (f->ntok > 2 && f->tok[0].kind == TK_WILD && f->tok[1].kind == TK_LIT)
		ends = fmt_line_lit_ends(l, f->lit + f->tok[1].lit_off, f->tok[1].lit_len);
	if (ends) {
		if (!start_after_lit(f, l, ends, cur, nw, &first, &work))
			return FMT_NOMATCH;
		ti = 2;
	}
	for (; ti < f->ntok; ti++) {
		const struct fmt_tok *t = &f->tok[ti];
		uint32_t rest = f->rest_min[ti + 1];
		int c0 = -1;
		/* few starts: look at the bytes; many: walk back from where
		 * the next literal starts (spans_back()) */
		bool dense;

		if ((size_t)rest > n)
			return FMT_NOMATCH;
		lim = n - rest;		/* room for the tokens after this one */
		elo = 0;		/* ...and reach for a full-only match */
		if (!f->open_end && f->rest_max[ti + 1] != FMT_INF && n > f->rest_max[ti + 1])
			elo = n - f->rest_max[ti + 1];
		if (first > lim)
			return FMT_NOMATCH;
		if (ti + 1 < f->ntok && f->tok[ti + 1].kind == TK_LIT)
			c0 = (unsigned char)f->lit[f->tok[ti + 1].lit_off];
		if (ti + 1 == f->ntok && t->kind != TK_LIT && t->kind != TK_WILD)
			return last_conv(f, t, l, cur, first, &work);
		dense = c0 >= 0 && t->max != FMT_INF && more_than_two(cur, first / 64, nw);
		bits_clear(nxt, nw);
		if (t->kind == TK_LIT) {
			any = step_lit(f, t, m, cur, nxt, first, lim, elo);
			work += nw;
		} else if (t->kind == TK_WILD) {
			any = step_wild(l, nxt, first, lim, elo, c0);
			work += nw;
		} else {
			any = step_conv(t, l, cur, nxt, first, lim, elo, c0, dense, &work);
		}
		if (!any || work > FMT_MAX_WORK)
			return FMT_NOMATCH;
		first = bit_next(nxt, nw, 0);
		tmp = cur;
		cur = nxt;
		nxt = tmp;
	}
	if (bit_has(cur, n))
		return FMT_FULL;
	return f->open_end ? FMT_PREFIX : FMT_NOMATCH;
}

/*
 * A short way to a full match: give each conversion the shortest span
 * after which the next literal follows. If that reaches the end of the
 * line, the format prints it whole and dp_match() would say so; if not,
 * nothing is proven (a longer span might have worked, or only a prefix
 * matches) and dp_match() decides. Most specific formats that get this
 * far are the line's own, and end here.
 */
static bool greedy_full(const struct fmt *f, const unsigned char *m, size_t n)
{
	size_t pos = 0, e, hi;
	struct span_walk w;
	unsigned long work = 0;
	uint32_t k;

	for (k = 0; k < f->ntok; k++) {
		const struct fmt_tok *t = &f->tok[k];
		const unsigned char *lit;
		size_t len;

		if (t->kind == TK_LIT) {
			len = t->lit_len;
			if (n - pos < len || memcmp(m + pos, f->lit + t->lit_off, len))
				return false;
			pos += len;
			continue;
		}
		/* the last conversion takes the rest of the line */
		if (k + 1 == f->ntok)
			return fmt_tok_accepts(t, (const char *)m + pos, n - pos);
		if (n - pos < t->min)
			return false;
		hi = t->max != FMT_INF && n - pos > t->max ? pos + t->max : n;
		for (e = pos; e < pos + t->min; e++)
			if (!t->cls_all && !cls_has(t->cls, m[e]))
				return false;
		if (f->tok[k + 1].kind != TK_LIT)
			return false;	/* "%d%s": dp_match() splits them */
		lit = (const unsigned char *)f->lit + f->tok[k + 1].lit_off;
		len = f->tok[k + 1].lit_len;
		walk_start(&w, t, 0, false);
		for (;; e++) {
			if (e > hi || n - e < len)
				return false;
			if (m[e] == lit[0] && !memcmp(m + e + 1, lit + 1, len - 1)) {
				if (walk_to(&w, t, m, pos, e, &work))
					break;
				if (walk_dead(&w))
					return false;	/* no longer span either */
			}
			/* a longer span takes in m[e] */
			if (!t->cls_all && !cls_has(t->cls, m[e]))
				return false;
		}
		pos = e + len;
		k++;	/* the literal, compared above */
	}
	return pos == n;
}

/* Necessary conditions, cheap: most candidates fail here. */
bool fmt_precheck(const struct fmt *f, const char *msg, size_t n)
{
	const struct fmt_tok *t;

	if (n < f->min_len)
		return false;
	if (n ? !cls_has(f->first, msg[0]) || !cls_has(f->last, msg[n - 1]) :
		!f->can_be_empty)
		return false;
	if (f->ntok && (t = &f->tok[0])->kind == TK_LIT &&
	    memcmp(msg, f->lit + t->lit_off, t->lit_len))
		return false;
	return true;
}

/* Can the whole message be printed (not only a prefix)? */
bool fmt_full_possible(const struct fmt *f, const char *msg, size_t n)
{
	const struct fmt_tok *t = f->ntok ? &f->tok[f->ntok - 1] : NULL;

	return n <= f->max_len &&
	       /* a literal end must be the message's end */
	       (!t || t->kind != TK_LIT || f->open_end ||
		(n >= t->lit_len && !memcmp(msg + n - t->lit_len, f->lit + t->lit_off, t->lit_len)));
}

enum fmt_result fmt_match_line(const struct fmt *f, struct fmt_line *l)
{
	const char *msg = l->msg;
	size_t n = l->n;

	if (f->any)
		return FMT_FULL;
	if ((f->need_sig & ~l->sig) || !fmt_precheck(f, msg, n) ||
	    (f->digits && !fmt_line_has_digit(l, f->digits)))
		return FMT_NOMATCH;
	if (f->simple) {
		if (fmt_full_possible(f, msg, n) && simple_match(f, msg, n, false))
			return FMT_FULL;
		if (f->open_end && simple_match(f, msg, n, true))
			return FMT_PREFIX;
		return FMT_NOMATCH;
	}
	if (!f->open_end && !fmt_full_possible(f, msg, n))
		return FMT_NOMATCH;
	if (!f->generic && greedy_full(f, (const unsigned char *)msg, n))
		return FMT_FULL;
	return dp_match(f, l);
}
