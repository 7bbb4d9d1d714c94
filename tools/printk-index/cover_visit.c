// SPDX-License-Identifier: GPL-2.0
/*
 * Where the KERN_CONT search tries each candidate row on a line
 * (cover_impl.h): the offsets each of its tokens can start at, worked out
 * backwards and forwards from the line's byte positions and the row's
 * literals, so that a row is visited only where a piece of it can be.
 */
#include <stdlib.h>
#include <string.h>

#include "cover_impl.h"

/* The offsets of each byte value of msg[0..n), as sets (cs->bytepos):
 * a literal's occurrences are then a few words ANDed (lit_occurs()).
 * cs->bytes_seen holds the line's bytes already. */
void cover_line_bytes(struct cover_search *cs, const char *msg, size_t n)
{
	size_t nw = n / 64 + 1, p;
	uint64_t x;
	unsigned c;

	if (cs->bytepos_cap < 256 * nw) {
		cs->bytepos_cap = 256 * nw;
		cs->bytepos = xreallocarray(cs->bytepos, cs->bytepos_cap, sizeof(*cs->bytepos));
		cs->cls_bits = xreallocarray(cs->cls_bits, (CLS_SLOTS + 1) * nw,
					     sizeof(*cs->cls_bits));
	}
	if (++cs->cls_stamp == 0) {	/* wrapped: forget old slots */
		for (p = 0; p < CLS_SLOTS; p++)
			cs->cls_slot[p].stamp = 0;
		cs->cls_stamp = 1;
	}
	for (c = 0; c < 4; c++)
		for (x = cs->bytes_seen[c]; x; x &= x - 1)
			memset(cs->bytepos + (c * 64 + __builtin_ctzll(x)) * nw, 0,
			       nw * sizeof(*cs->bytepos));
	for (p = 0; p < n; p++) {
		c = (unsigned char)msg[p];
		cs->bytepos[c * nw + p / 64] |= 1ULL << (p % 64);
	}
}

/* Count w units of the sets' work: each costs about CHAIN_WORK_SETS of
 * the sweep's (cover_impl.h). */
static inline void sets_charge(struct cover_search *cs, unsigned long w)
{
	cover_charge(cs, CHAIN_WORK_SETS * w);
}

/* Add a visit of row i at offset p. */
static inline void visit_at(struct cover_search *cs, size_t i, size_t p)
{
	if (cs->nvisits == cs->visits_cap) {
		cs->visits_cap = 2 * cs->visits_cap + 256;
		cs->visit_row = xreallocarray(cs->visit_row, cs->visits_cap, sizeof(*cs->visit_row));
		cs->visit_next = xreallocarray(cs->visit_next, cs->visits_cap, sizeof(*cs->visit_next));
	}
	cs->visit_row[cs->nvisits] = i;
	cs->visit_next[cs->nvisits] = (int32_t)p;
	cs->nvisits++;
}

/* Word w of set b (nw words) shifted down by k offsets. */
static inline uint64_t shr_word(const uint64_t *b, size_t nw, size_t w, size_t k)
{
	size_t ws = w + k / 64, s = k % 64;
	uint64_t x = ws < nw ? b[ws] >> s : 0;

	if (s && ws + 1 < nw)
		x |= b[ws + 1] << (64 - s);
	return x;
}

/* dst: the offsets p >= start where literal lit[0..len) occurs and src
 * has p + len: each byte's offsets (cs->bytepos), shifted and ANDed.
 * False when there is none. */
static bool lit_occurs(struct cover_search *cs, uint64_t *dst, const uint64_t *src,
		       const char *lit, size_t len, size_t nw, size_t start)
{
	size_t w, k;
	uint64_t x, any = 0;
	unsigned c;

	for (k = 0; k < len; k++) {
		c = (unsigned char)lit[k];
		if (!(cs->bytes_seen[c / 64] & (1ULL << (c % 64))))
			return false;
	}
	for (w = start / 64; w < nw; w++) {
		x = shr_word(src, nw, w, len);
		if (w == start / 64)
			x &= ~0ULL << (start % 64);
		for (k = 0; x && k < len; k++)
			x &= shr_word(cs->bytepos + (unsigned char)lit[k] * nw, nw, w, k);
		dst[w] = x;
		any |= x;
	}
	return any != 0;
}

static inline void set_range(uint64_t *b, size_t from, size_t to)
{
	size_t w = from / 64, last = to / 64;
	uint64_t lo_mask = ~0ULL << (from % 64), hi_mask = ~0ULL >> (63 - to % 64);

	if (w == last) {
		b[w] |= lo_mask & hi_mask;
		return;
	}
	b[w++] |= lo_mask;
	while (w < last)
		b[w++] = ~0ULL;
	b[last] |= hi_mask;
}

/* The next run of offsets set in b from p on, below lim: [*q1, *q2];
 * false when there is none. */
static inline bool next_run(const uint64_t *b, size_t p, size_t lim, size_t *q1, size_t *q2)
{
	size_t w, nw = (lim + 63) / 64;
	uint64_t x;

	if (p >= lim)
		return false;
	w = p / 64;
	x = b[w] & (~0ULL << (p % 64));
	while (!x && ++w < nw)
		x = b[w];
	if (!x || (p = w * 64 + __builtin_ctzll(x)) >= lim)
		return false;
	*q1 = p;
	/* then the first clear bit */
	x = ~b[w] & (~0ULL << (p % 64));
	while (!x && ++w < nw)
		x = ~b[w];
	p = x ? w * 64 + __builtin_ctzll(x) : nw * 64;
	*q2 = (p < lim ? p : lim) - 1;
	return true;
}

/* The class's offsets (cover_impl.h): the offsets of its bytes ORed, once
 * a line per class (the rows' conversions share a few, "%d"'s, "%x"'s). */
const uint64_t *cover_class_offsets(struct cover_search *cs, const struct fmt_tok *tk)
{
	const uint64_t *cls = tk->cls;
	size_t nw = cs->n / 64 + 1, k, j, s;
	uint64_t *b, x;
	unsigned w, c;

	if (tk->cls_all)
		return NULL;
	s = (((cls[0] * 0x9e3779b97f4a7c15ULL) ^ (cls[1] * 0xc2b2ae3d27d4eb4fULL) ^
	      (cls[2] * 0x165667b19e3779f9ULL) ^ (cls[3] * 0x27d4eb2f165667c5ULL)) >> 40) %
	    CLS_SLOTS;
	for (k = 0; k < CLS_SLOTS; k++, s = (s + 1) % CLS_SLOTS) {
		if (cs->cls_slot[s].stamp != cs->cls_stamp)
			break;
		if (cs->cls_slot[s].cls[0] == cls[0] && cs->cls_slot[s].cls[1] == cls[1] &&
		    cs->cls_slot[s].cls[2] == cls[2] && cs->cls_slot[s].cls[3] == cls[3])
			return cs->cls_bits + s * nw;
	}
	if (k == CLS_SLOTS) {
		s = CLS_SLOTS;		/* all taken: worked out, not kept */
	} else {
		memcpy(cs->cls_slot[s].cls, cls, sizeof(cs->cls_slot[s].cls));
		cs->cls_slot[s].stamp = cs->cls_stamp;
	}
	b = cs->cls_bits + s * nw;
	memset(b, 0, nw * sizeof(*b));
	for (w = 0; w < 4; w++)
		for (x = cls[w] & cs->bytes_seen[w]; x; x &= x - 1) {
			c = w * 64 + __builtin_ctzll(x);
			for (j = 0; j < nw; j++)
				b[j] |= cs->bytepos[c * nw + j];
		}
	return b;
}

/* The first offset in [a, b) in C (not NULL), or b. */
static inline size_t class_next(const uint64_t *C, size_t a, size_t b)
{
	size_t w = a / 64, last;
	uint64_t x;

	if (a >= b)
		return b;
	last = (b - 1) / 64;
	for (x = C[w] & (~0ULL << (a % 64)); !x && w < last; x = C[++w])
		;
	return x && w * 64 + __builtin_ctzll(x) < b ? w * 64 + __builtin_ctzll(x) : b;
}

/* The last offset in [a, b) not in C (NULL: none), or SIZE_MAX. */
static inline size_t class_last_out(const uint64_t *C, size_t a, size_t b)
{
	size_t w, first = a / 64;
	uint64_t x;

	if (!C || a >= b)
		return SIZE_MAX;
	w = (b - 1) / 64;
	x = ~C[w] & (~0ULL >> (63 - (b - 1) % 64));
	for (;;) {
		if (w == first)
			x &= ~0ULL << (a % 64);
		if (x)
			return w * 64 + 63 - __builtin_clzll(x);
		if (w == first)
			return SIZE_MAX;
		x = ~C[--w];
	}
}

/* The end after the ends a..b of a run of src ending at q2 (conv_starts())
 * whose spans can be min bytes long: b + 1, but an end after a byte tk
 * can not print takes empty spans only, so with min >= 1 the first byte
 * of C after b; q2 + 1 when none. The same for starts (conv_ends()): a
 * start at such a byte takes empty spans only. */
static inline size_t next_group(const uint64_t *C, size_t b, size_t q2, uint32_t min)
{
	if (!min || !C || b >= q2)
		return b + 1;
	return class_next(C, b + 1, q2 + 1);
}

/* dst: the offsets in [start, n] from which conversion tk can print a
 * span that ends at an offset of src. An end q takes the starts from
 * max(R, q - max) to q - min, R the start of the run of class bytes that
 * ends at q: over the ends of a run of src that have the same R, that is
 * one range. R only moves up: the class offsets (cover_class_offsets()) give
 * it and the runs a word at a time. */
static void conv_starts(struct cover_search *cs, uint64_t *dst, const uint64_t *src,
			const struct fmt_tok *tk, size_t n, size_t start)
{
	const uint64_t *C = cover_class_offsets(cs, tk);
	size_t q1, q2, a, b, e, R = start, scan = start, from, to;

	for (q2 = start; next_run(src, q2, n + 1, &q1, &q2); q2++) {
		sets_charge(cs, 2);	/* a run: about 60 instructions */
		for (a = q1; a <= q2; a = next_group(C, b, q2, tk->min)) {
			sets_charge(cs, 1);	/* a group: about 40 */
			/* R for the end a: after the last byte before a
			 * that tk can not print */
			if (scan < a && (e = class_last_out(C, scan, a)) != SIZE_MAX)
				R = e + 1;
			/* the ends a..b share it */
			b = cover_class_end(C, a, q2);
			scan = b;
			if (b - R < tk->min)
				continue;
			if (a < R + tk->min)
				a = R + tk->min;
			from = tk->max != FMT_INF && a - R > tk->max ? a - tk->max : R;
			to = b - tk->min;
			/* number() prints a digit: a start before the last
			 * byte that is no blank (a hull: more is harmless) */
			if (tk->kind == TK_INT && to >= cs->lastnb[b]) {
				if (!cs->lastnb[b])
					continue;
				to = cs->lastnb[b] - 1;
			}
			if (from <= to)
				set_range(dst, from, to);
		}
	}
}

/* dst: the offsets in [start, n] where a span of conversion tk that
 * starts at an offset of src can end: from p + min to E, E the end of the
 * run of class bytes from p, at most p + max. Over the starts of a run of
 * src that have the same E, that is one range; E only moves up. */
static void conv_ends(struct cover_search *cs, uint64_t *dst, const uint64_t *src,
		      const struct fmt_tok *tk, size_t n, size_t start)
{
	const uint64_t *C = cover_class_offsets(cs, tk);
	size_t p1, p2, a, b, E = 0, from_e = SIZE_MAX, last, from, to;

	for (p2 = start; next_run(src, p2, n + 1, &p1, &p2); p2++) {
		sets_charge(cs, 2);
		for (a = p1; a <= p2; a = next_group(C, b, p2, tk->min)) {
			sets_charge(cs, 1);
			/* E for the start a (the last one holds from
			 * from_e to E) */
			if (from_e > a || a > E) {
				E = cover_class_end(C, a, n);
				from_e = a;
			}
			b = E < p2 ? E : p2;
			if (E - a < tk->min)
				continue;
			last = b < E - tk->min ? b : E - tk->min;
			from = a + tk->min;
			to = tk->max != FMT_INF && E - last > tk->max ? last + tk->max : E;
			/* number() prints a digit: an end after one */
			if (tk->kind == TK_INT && from <= cs->nonblank[a])
				from = cs->nonblank[a] + 1;
			if (from <= to)
				set_range(dst, from, to);
		}
	}
}

/*
 * The offsets where row i's tokens can start, from the literal facts of
 * the line, added to the visits. Backwards, B[t] holds the offsets from
 * which tokens t.. can print a span that ends where what follows the
 * piece can start (anywhere for an open format, only the line's end for a
 * closed one; after a base, from lo on and before the line's end): a
 * literal where it occurs and B[t + 1] has its end, a conversion where a
 * span of its class bytes and length reaches B[t + 1]. Forwards, F[t]
 * holds the offsets token t can be reached at from where the piece starts
 * (anywhere from lo; a base at 0 only). Token t has a value only on B[t]
 * and is read only on F[t]: the row is visited where some token t >= 1 is
 * in both (every token worked out there), else where token 0 is (it
 * alone: VISIT_FIRST). The values the sweep reads are thus the ones a
 * visit at every offset gives; the others stay SCORE_NONE or below. A row
 * with no offset for its first token is dead: it prints no piece here.
 */
void cover_row_visits(struct cover_search *cs, size_t i, size_t n, size_t lo, bool base)
{
	struct cover_row *r = &cs->rows[i];
	const struct fmt *f = r->f;
	const struct fmt_tok *tk;
	size_t nw = n / 64 + 1, start = base ? 0 : lo, p, w;
	uint64_t *B = cs->sets, *F = B + (size_t)(f->ntok + 1) * nw, *Fn = F + nw;
	uint64_t *full = Fn + nw, *first = full + nw, x, *tmp;
	uint32_t t, T = f->ntok;
	bool any;

	r->dead = true;
	/* the sets' words, and the bytes looked at for them */
	sets_charge(cs, (T + 5 + f->lit_bytes / 8) * nw + T * (n - start) / 8);
	memset(B, 0, (size_t)(T + 5) * nw * sizeof(*B));
	/* what may follow the piece */
	if (base) {
		if (lo < n)
			set_range(B + T * nw, lo, n - 1);
	} else if (f->open_end) {
		set_range(B + T * nw, lo, n);
	} else {
		B[T * nw + n / 64] |= 1ULL << (n % 64);
	}
	for (t = T; t-- > 0;) {
		uint64_t *b = B + t * nw, *after = b + nw;

		tk = &f->tok[t];
		any = false;
		if (tk->kind == TK_LIT) {
			any = lit_occurs(cs, b, after, f->lit + tk->lit_off, tk->lit_len, nw, start);
		} else {
			conv_starts(cs, b, after, tk, n, start);
			for (w = 0; w < nw && !any; w++)
				any = b[w] != 0;
		}
		if (!any)
			return;
	}
	/* forwards: F[0], then each token's reach */
	if (base)
		F[0] = 1;
	else
		set_range(F, lo, n);
	for (t = 0; t < T; t++) {
		uint64_t *b = B + t * nw;

		tk = &f->tok[t];
		for (w = 0; w < nw; w++)
			F[w] &= b[w];
		if (t)
			for (w = 0; w < nw; w++)
				full[w] |= F[w];
		else
			memcpy(first, F, nw * sizeof(*F));
		if (t + 1 == T)
			break;
		memset(Fn, 0, nw * sizeof(*Fn));
		if (tk->kind == TK_LIT) {
			for (w = 0; w < nw; w++)
				for (x = F[w]; x; x &= x - 1) {
					p = w * 64 + __builtin_ctzll(x) + tk->lit_len;
					Fn[p / 64] |= 1ULL << (p % 64);
				}
		} else {
			conv_ends(cs, Fn, F, tk, n, start);
		}
		tmp = F, F = Fn, Fn = tmp;
	}
	r->dead = false;
	for (w = 0; w < nw; w++) {
		sets_charge(cs, __builtin_popcountll(full[w] | first[w]));
		for (x = full[w] | first[w]; x; x &= x - 1) {
			p = w * 64 + __builtin_ctzll(x);
			visit_at(cs, i | (full[w] >> (p % 64) & 1 ? 0 : VISIT_FIRST), p);
		}
	}
}

/*
 * A span row's offsets, without the sets: its token can start at every
 * offset from lo from which what may follow the piece (from lo on, or
 * the line's end) is min bytes or more away, that is [lo, n - min], all
 * visits of its first token alone. Counts what cover_row_visits() counts
 * for them: the sets, the one run of what may follow, the visits.
 */
void cover_span_row_visits(struct cover_search *cs, size_t i, size_t n, size_t lo)
{
	struct cover_row *r = &cs->rows[i];
	const struct fmt *f = r->f;
	size_t nw = n / 64 + 1, min = f->tok[0].min;

	sets_charge(cs, (1 + 5 + f->lit_bytes / 8) * nw + (n - lo) / 8);
	sets_charge(cs, 2);
	r->dead = n - lo < min;
	if (!r->dead)
		sets_charge(cs, n - min - lo + 1);
}
