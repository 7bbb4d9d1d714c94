// SPDX-License-Identifier: GPL-2.0
/*
 * What the matcher learns about a line once and every format it tries
 * shares (fmt_impl.h): the line's byte signature, the positions of each
 * byte value, where a short literal ends, and from where a %p model
 * prints the rest of the line. Kept for the current line only.
 */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "fmt.h"
#include "fmt_impl.h"

/* Position sets of byte values in the current line, filled on demand. */
static uint64_t *occ;		/* [256][occ_nw] */
static size_t occ_nw;
static uint32_t occ_gen[256];
static uint32_t line_gen;
static uint32_t lit_line_gen;	/* the line fmt_line_lit_ends() holds */

/* The enum fmt_digits kinds each byte is a digit of, as fmt_line.digits
 * bits. */
#define DEC_OR_HEX (1 << FMT_DIGITS_DEC | 1 << FMT_DIGITS_HEX | 1 << FMT_DIGITS_HEX_UPPER)
#define R2(c, v) [c] = v, [c + 1] = v
#define R8(c, v) R2(c, v), R2(c + 2, v), R2(c + 4, v), R2(c + 6, v)
static const uint8_t digit_kinds[256] = {
	R8('0', DEC_OR_HEX | 1 << FMT_DIGITS_OCT), R2('8', DEC_OR_HEX),
	R2('a', 1 << FMT_DIGITS_HEX), R2('c', 1 << FMT_DIGITS_HEX), R2('e', 1 << FMT_DIGITS_HEX),
	R2('A', 1 << FMT_DIGITS_HEX_UPPER), R2('C', 1 << FMT_DIGITS_HEX_UPPER),
	R2('E', 1 << FMT_DIGITS_HEX_UPPER),
};

uint8_t fmt_line_digits(const struct fmt_line *l)
{
	const unsigned char *s = (const unsigned char *)l->msg;
	unsigned int kinds = 1, k2 = 0;
	size_t i;

	/* two accumulators, as for the signature */
	for (i = 0; i + 1 < l->n; i += 2) {
		kinds |= digit_kinds[s[i]];
		k2 |= digit_kinds[s[i + 1]];
	}
	if (i < l->n)
		kinds |= digit_kinds[s[i]];
	return kinds | k2;
}

/* fmt_sig_bit() of every byte: a load is cheaper than the shifts, and
 * this runs over every byte of every line */
#define SIG1(c)	(1ULL << (((c) ^ ((c) >> 6)) & 63))
#define SIG4(c)	SIG1(c), SIG1(c + 1), SIG1(c + 2), SIG1(c + 3)
#define SIG16(c)	SIG4(c), SIG4(c + 4), SIG4(c + 8), SIG4(c + 12)
#define SIG64(c)	SIG16(c), SIG16(c + 16), SIG16(c + 32), SIG16(c + 48)
const uint64_t fmt_sig_bits[256] = { SIG64(0), SIG64(64), SIG64(128), SIG64(192) };

void fmt_line_init(struct fmt_line *l, const char *msg, size_t n)
{
	const unsigned char *s = (const unsigned char *)msg;
	uint64_t sig = 0, sig2 = 0;
	size_t i;

	/* two accumulators: half the dependency chain */
	for (i = 0; i + 1 < n; i += 2) {
		sig |= fmt_sig_bits[s[i]];
		sig2 |= fmt_sig_bits[s[i + 1]];
	}
	if (i < n)
		sig |= fmt_sig_bits[s[i]];
	fmt_line_init_sig(l, msg, n, sig | sig2);
}

void fmt_line_init_sig(struct fmt_line *l, const char *msg, size_t n, uint64_t sig)
{
	l->msg = msg;
	l->n = n;
	l->sig = sig;
	l->digits = 0;
	if (++line_gen == 0) {
		memset(occ_gen, 0, sizeof(occ_gen));
		lit_line_gen = 0;
		line_gen = 1;
	}
	l->gen = line_gen;
}

/*
 * Set bit i of o where s[i] == c. Sixteen bytes a compare where SSE2 is
 * there (every x86-64): a memchr() per occurrence costs more on short
 * lines with many spaces.
 */
static void find_all(const unsigned char *s, size_t n, unsigned char c, uint64_t *o)
{
	size_t i = 0;
#ifdef __SSE2__
	const __m128i cc = _mm_set1_epi8((char)c);

	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(s + i));
		uint64_t bits = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, cc));

		o[i / 64] |= bits << (i % 64);	/* i % 64 is 0, 16, 32 or 48 */
	}
#endif
	for (; i < n; i++)
		o[i / 64] |= (uint64_t)(s[i] == c) << (i % 64);
}

const uint64_t *fmt_line_occ(const struct fmt_line *l, unsigned char c)
{
	size_t nw = l->n / 64 + 1;
	uint64_t *o;

	if (nw > occ_nw) {
		occ_nw = nw;
		occ = xreallocarray(occ, 256 * nw, sizeof(uint64_t));
		memset(occ_gen, 0, sizeof(occ_gen));
	}
	o = occ + (size_t)c * occ_nw;
	if (occ_gen[c] == l->gen && l->gen == line_gen)
		return o;
	bits_clear(o, nw);
	find_all((const unsigned char *)l->msg, l->n, c, o);
	if (l->gen == line_gen)
		occ_gen[c] = l->gen;
	else
		occ_gen[c] = 0;	/* an older line: do not cache */
	return o;
}

/*
 * For a %p model, the positions from which it prints up to the end of
 * the line, and those from which it prints anything: the same for every
 * format that ends with it, so kept per line.
 */
static struct {
	uint32_t gen;
	uint64_t *bits;		/* [nw]: suffix starts */
	size_t nw;
} ere_line[FMT_MODELS];

const uint64_t *fmt_line_ere_suffix(const struct fmt_line *l, const struct ere *re)
{
	int i = fmt_model_slot(re);
	size_t nw = l->n / 64 + 1;

	if (i < 0 || !re->rnw || !re->nw)
		return NULL;
	if (ere_line[i].gen != l->gen || l->gen != line_gen || ere_line[i].nw < nw) {
		if (ere_line[i].nw < nw) {
			ere_line[i].nw = nw;
			ere_line[i].bits = xreallocarray(ere_line[i].bits, nw, sizeof(uint64_t));
		}
		memset(ere_line[i].bits, 0, ere_line[i].nw * sizeof(uint64_t));
		ere_starts(re, (const unsigned char *)l->msg, l->n, false, ere_line[i].bits);
		ere_line[i].gen = l->gen == line_gen ? l->gen : 0;
	}
	return ere_line[i].bits;
}

/*
 * Where a short literal ends in the line: the end positions p + len of
 * every occurrence at p. Many formats begin with "%s" and one of a few
 * literals (" ", ": ", "="); after the "%s" the literal can be anywhere,
 * so their first two steps are the same for a line and done once.
 */
#define LIT_CACHE_MAX 16

static struct {
	uint32_t len;
	unsigned char lit[LIT_CACHE_MAX];
	uint64_t *bits;
	size_t nw;
} lit_line[16];
static unsigned lit_line_n;	/* entries of line lit_line_gen */

const uint64_t *fmt_line_lit_ends(const struct fmt_line *l, const char *lit, size_t len)
{
	const unsigned char *m = (const unsigned char *)l->msg;
	size_t nw = l->n / 64 + 1, i, p, w;
	const uint64_t *o;

	if (len > LIT_CACHE_MAX || l->gen != line_gen)
		return NULL;
	if (lit_line_gen != l->gen) {
		lit_line_gen = l->gen;
		lit_line_n = 0;
	}
	for (i = 0; i < lit_line_n; i++)
		if (lit_line[i].len == len && !memcmp(lit_line[i].lit, lit, len))
			return lit_line[i].bits;
	if (lit_line_n == ARRAY_SIZE(lit_line))
		return NULL;	/* a line with many: the rest step by step */
	i = lit_line_n++;
	if (lit_line[i].nw < nw) {
		lit_line[i].nw = nw;
		lit_line[i].bits = xreallocarray(lit_line[i].bits, nw, sizeof(uint64_t));
	}
	bits_clear(lit_line[i].bits, nw);
	o = fmt_line_occ(l, (unsigned char)lit[0]);
	for (w = 0; w < nw; w++) {
		uint64_t x = o[w];

		for (; x; x &= x - 1) {
			p = w * 64 + __builtin_ctzll(x);
			if (p + len <= l->n && !memcmp(m + p + 1, lit + 1, len - 1))
				bit_set(lit_line[i].bits, p + len);
		}
	}
	lit_line[i].len = len;
	memcpy(lit_line[i].lit, lit, len);
	return lit_line[i].bits;
}
