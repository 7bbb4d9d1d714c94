// SPDX-License-Identifier: GPL-2.0
/*
 * A printk format compiled into tokens (fmt.h): literals, conversions with
 * their length bounds and byte classes, %p extensions with their models
 * (fmt_model.c); and what ranking needs (literal bytes, generic,
 * catch-all).
 */
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "fmt_impl.h"

/* ------------------------------------------------------------------ */
/* Compilation                                                         */

struct builder {
	struct fmt *f;
	uint32_t cap, lit_cap, lit_used;
	bool in_lit;
	bool telling;		/* a telling %p model (struct ptr_model) */
};

static struct fmt_tok *add_tok(struct builder *b, int kind)
{
	struct fmt *f = b->f;
	struct fmt_tok *t;

	if (f->ntok == b->cap) {
		b->cap = grow_cap(b->cap, 8);
		f->tok = xreallocarray(f->tok, b->cap, sizeof(*f->tok));
	}
	t = &f->tok[f->ntok++];
	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->width = t->prec = W_NONE;
	b->in_lit = false;
	return t;
}

static void add_lit(struct builder *b, const char *s, size_t n)
{
	struct fmt *f = b->f;
	struct fmt_tok *t;

	if (!n)
		return;
	if (b->lit_used + n + 1 > b->lit_cap) {
		while (b->lit_used + n + 1 > b->lit_cap)
			b->lit_cap = grow_cap(b->lit_cap, 64);
		f->lit = xrealloc(f->lit, b->lit_cap);
	}
	if (!b->in_lit) {
		t = add_tok(b, TK_LIT);
		t->lit_off = b->lit_used;
		b->in_lit = true;
	}
	t = &f->tok[f->ntok - 1];
	memcpy(f->lit + b->lit_used, s, n);
	b->lit_used += n;
	t->lit_len += n;
	t->min = t->max = t->lit_len;
}

static void set_all(uint64_t cls[4])
{
	memset(cls, 0xff, 4 * sizeof(uint64_t));
}

static void set_range(uint64_t cls[4], int lo, int hi)
{
	for (; lo <= hi; lo++)
		cls_set(cls, lo);
}

static uint32_t sat_add(uint32_t a, uint32_t b)
{
	return a > FMT_INF - b ? FMT_INF : a + b;
}

static void int_tok(struct fmt_tok *t, int base, bool upper, bool is_signed, int bits)
{
	/* digits needed for the largest value of the type */
	static const uint8_t dec[] = { [8] = 3, [16] = 5, [32] = 10, [64] = 20 };
	static const uint8_t oct[] = { [8] = 3, [16] = 6, [32] = 11, [64] = 22 };
	uint32_t core;

	t->kind = TK_INT;
	t->base = base;
	t->upper = upper;
	t->is_signed = is_signed;
	t->maxdigits = base == 16 ? bits / 4 : base == 8 ? oct[bits] : dec[bits];
	set_range(t->cls, '0', base == 8 ? '7' : '9');
	if (base == 16)
		set_range(t->cls, upper ? 'A' : 'a', upper ? 'F' : 'f');
	if ((t->flags & F_SPECIAL) && base == 16)
		cls_set(t->cls, upper ? 'X' : 'x');
	cls_set(t->cls, ' ');
	if (is_signed) {
		cls_set(t->cls, '-');
		cls_set(t->cls, '+');
	}
	/* number() pads to the width and prints at least prec digits; the
	 * tight bound also keeps a long precision after a "%s" from costing
	 * the matcher a try at every split of the line */
	t->min = t->width > 0 ? (uint32_t)t->width : 1;
	if (t->prec > (int32_t)t->min)
		t->min = t->prec;
	if (t->width == W_STAR || t->prec == W_STAR) {
		t->max = FMT_INF;
	} else {
		core = 1 + 2 + (t->prec > t->maxdigits ? (uint32_t)t->prec : t->maxdigits);
		t->max = t->width > (int32_t)core ? (uint32_t)t->width : core;
	}
}

/* Keep absurd widths ("%99999999d") from overflowing arithmetic. */
#define MAX_WIDTH 65535

static int32_t read_num(const char *s, size_t len, size_t *i)
{
	int64_t v = 0;

	while (*i < len && s[*i] >= '0' && s[*i] <= '9') {
		if (v <= MAX_WIDTH)
			v = v * 10 + (s[*i] - '0');
		(*i)++;
	}
	return v > MAX_WIDTH ? MAX_WIDTH : (int32_t)v;
}

/*
 * A literal precision as format_decode() keeps it: skip_atoi()'s int
 * (wrapping, -fno-strict-overflow) stored in printf_spec's 16-bit signed
 * bitfield, a negative result meaning 0. So "%.40000d" has precision 0
 * and "%.70000d" 4464; the '*' clamp to 32767 (set_precision()) is W_STAR.
 */
static int32_t read_prec(const char *s, size_t len, size_t *i)
{
	uint32_t v = 0;
	int16_t p;

	while (*i < len && s[*i] >= '0' && s[*i] <= '9')
		v = v * 10 + (s[(*i)++] - '0');
	p = (int16_t)v;
	return p < 0 ? 0 : p;
}

static bool is_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static void ptr_tok(struct builder *b, struct fmt_tok *t, const char *ext, size_t extlen)
{
	struct ptr_model m;

	fmt_ptr_model(ext, extlen, &m);
	/* plain %p or %px with a width is pointer_string() padding a hex
	 * number: model it as one */
	if (t->width != W_NONE && (extlen == 0 || !is_alnum(ext[0]) || ext[0] == 'x' ||
				   ext[0] == 'K')) {
		t->flags &= ~(F_PLUS | F_SPACE | F_SPECIAL);
		int_tok(t, 16, false, false, 64);
		return;
	}
	b->telling |= m.telling;
	t->ext = m.sample;	/* rendering uses it */
	t->width = t->prec = W_NONE;
	if (!m.pattern) {
		t->kind = TK_WILD;
		t->min = 0;
		t->max = FMT_INF;
		t->cls_all = true;
		set_all(t->cls);
		return;
	}
	t->kind = TK_ERE;
	t->ere = fmt_model_ere(m.pattern);
	t->min = t->ere->minlen;
	t->max = t->ere->maxlen;
	memcpy(t->cls, t->ere->any, sizeof(t->cls));
}

/* A %s with no width and no precision (or only '*' ones) prints any string. */
static bool unconstrained(const struct fmt_tok *t)
{
	return t->kind == TK_WILD ||
	       (t->kind == TK_STR && (t->width == W_NONE || t->width == W_STAR) &&
		(t->prec == W_NONE || t->prec == W_STAR));
}

/*
 * "%s%s" prints any string, exactly like "%s": fold such runs into one
 * token, which turns a quadratic split search into a linear one. The
 * count of conversions (ranking) keeps counting both.
 */
static void merge_wildcards(struct fmt *f)
{
	uint32_t r, w = 0;

	for (r = 0; r < f->ntok; r++) {
		if (unconstrained(&f->tok[r])) {
			f->tok[r].kind = TK_WILD;
			f->tok[r].min = 0;
			f->tok[r].max = FMT_INF;
		}
		if (w && unconstrained(&f->tok[r]) && unconstrained(&f->tok[w - 1])) {
			f->tok[w - 1].kind = TK_WILD;
			f->tok[w - 1].min = 0;
			f->tok[w - 1].max = FMT_INF;
			continue;
		}
		f->tok[w++] = f->tok[r];
	}
	f->ntok = w;
}

static void tok_edge(const struct fmt *f, const struct fmt_tok *t, bool front,
		     uint64_t set[4])
{
	const uint64_t *c = t->kind == TK_ERE && front ? t->ere->first : t->cls;
	int i;

	if (t->kind == TK_LIT) {
		cls_set(set, f->lit[t->lit_off + (front ? 0 : t->lit_len - 1)]);
		return;
	}
	for (i = 0; i < 4; i++)
		set[i] |= c[i];
}

/* Bytes a rendering can start / end with: O(1) rejection of most lines. */
static void edge_sets(struct fmt *f)
{
	uint32_t k;

	for (k = 0; k < f->ntok; k++) {
		tok_edge(f, &f->tok[k], true, f->first);
		if (f->tok[k].min)
			break;
	}
	f->can_be_empty = k == f->ntok;
	/* an open format that can print nothing is a prefix of anything */
	if (f->can_be_empty && f->open_end)
		set_all(f->first);
	if (f->open_end) {
		set_all(f->last);
		return;
	}
	for (k = f->ntok; k-- > 0;) {
		tok_edge(f, &f->tok[k], false, f->last);
		if (f->tok[k].min)
			break;
	}
}

/*
 * Tokens, their bounds and the literal bytes in one block: a whole index
 * does not fit in the caches, and a try then misses on fewer, adjacent
 * lines. fmt_free() frees the block through f->tok.
 */
static void pack(struct fmt *f, size_t lit_len)
{
	size_t ntok = f->ntok, tok_sz = ntok * sizeof(*f->tok);
	size_t rest_sz = (ntok + 1) * sizeof(uint32_t);
	char *blk = xmalloc(tok_sz + 2 * rest_sz + lit_len + 1);

	f->blk_size = tok_sz + 2 * rest_sz + lit_len + 1;

	if (tok_sz)	/* f->tok is NULL without tokens */
		memcpy(blk, f->tok, tok_sz);
	memcpy(blk + tok_sz, f->rest_min, rest_sz);
	memcpy(blk + tok_sz + rest_sz, f->rest_max, rest_sz);
	free(f->tok);
	free(f->rest_min);
	free(f->rest_max);
	f->tok = (struct fmt_tok *)blk;
	f->rest_min = (uint32_t *)(blk + tok_sz);
	f->rest_max = (uint32_t *)(blk + tok_sz + rest_sz);
	if (f->lit) {	/* NULL without literals, as before */
		memcpy(blk + tok_sz + 2 * rest_sz, f->lit, lit_len);
		free(f->lit);
		f->lit = blk + tok_sz + 2 * rest_sz;
	}
}

/*
 * format_decode(): the flags, width, precision and length qualifier after
 * a '%' (s[*i] is the byte after it); *i ends at the conversion letter.
 * false for a '%' that ends the format.
 */
static bool decode_spec(const char *s, size_t len, size_t *i, struct fmt_tok *spec, int *bits)
{
	char q = 0;

	memset(spec, 0, sizeof(*spec));
	spec->width = spec->prec = W_NONE;
	for (; *i < len; (*i)++) {
		if (s[*i] == '-') spec->flags |= F_LEFT;
		else if (s[*i] == '+') spec->flags |= F_PLUS;
		else if (s[*i] == ' ') spec->flags |= F_SPACE;
		else if (s[*i] == '#') spec->flags |= F_SPECIAL;
		else if (s[*i] == '0') spec->flags |= F_ZEROPAD;
		else break;
	}
	if (*i < len && s[*i] >= '0' && s[*i] <= '9') {
		spec->width = read_num(s, len, i);
	} else if (*i < len && s[*i] == '*') {
		spec->width = W_STAR;
		(*i)++;
	}
	if (*i < len && s[*i] == '.') {
		(*i)++;
		if (*i < len && s[*i] >= '0' && s[*i] <= '9') {
			spec->prec = read_prec(s, len, i);
		} else if (*i < len && s[*i] == '*') {
			spec->prec = W_STAR;
			(*i)++;
		}
	}
	if (*i < len && (s[*i] == 'h' || s[*i] == 'l' || s[*i] == 'L' ||
			 s[*i] == 'z' || s[*i] == 't')) {
		q = s[*i] == 'L' ? 'L' : s[*i];
		(*i)++;
		if (*i < len && q == s[*i] && (q == 'l' || q == 'h')) {
			q = q == 'l' ? 'L' : 'H';
			(*i)++;
		}
	}
	switch (q) {
	case 'H': *bits = 8; break;
	case 'h': *bits = 16; break;
	case 'l': case 'L': case 'z': case 't': *bits = 64; break;
	default: *bits = 32; break;
	}
	return *i < len;
}

/*
 * The conversion at s[*i], decoded as spec, as a token; *i moves past it.
 * false for a conversion vsnprintf() rejects (FORMAT_TYPE_INVALID), where
 * it stops printing.
 */
static bool add_conversion(struct builder *b, const char *s, size_t len, size_t *i,
			   const struct fmt_tok *spec, int bits)
{
	struct fmt_tok *t;
	size_t j;

	switch (s[*i]) {
	case '%':
		add_lit(b, "%", 1);
		break;
	case 'c':
		t = add_tok(b, TK_CHAR);
		*t = (struct fmt_tok){ .kind = TK_CHAR, .flags = spec->flags,
				       .width = spec->width, .prec = W_NONE };
		t->min = t->width > 1 ? (uint32_t)t->width : 1;
		t->max = t->width == W_STAR ? FMT_INF : t->min;
		t->cls_all = true;
		set_all(t->cls);
		break;
	case 's':
		t = add_tok(b, TK_STR);
		*t = (struct fmt_tok){ .kind = TK_STR, .flags = spec->flags,
				       .width = spec->width, .prec = spec->prec };
		t->min = t->width > 0 ? (uint32_t)t->width : 0;
		if (t->prec >= 0 && t->width != W_STAR)
			t->max = t->prec > t->width ? (uint32_t)t->prec : t->min;
		else
			t->max = FMT_INF;
		t->cls_all = true;
		set_all(t->cls);
		break;
	case 'p':
		for (j = *i + 1; j < len && is_alnum(s[j]); j++)
			;
		t = add_tok(b, TK_ERE);
		*t = *spec;
		ptr_tok(b, t, s + *i + 1, j - *i - 1);
		*i = j;	/* pointer() consumes every alnum after 'p' */
		return true;
	case 'o': case 'x': case 'X': case 'd': case 'i': case 'u':
		t = add_tok(b, TK_INT);
		*t = *spec;
		int_tok(t, s[*i] == 'o' ? 8 : (s[*i] == 'x' || s[*i] == 'X') ? 16 : 10,
			s[*i] == 'X', s[*i] == 'd' || s[*i] == 'i', bits);
		break;
	default:
		return false;
	}
	(*i)++;
	return true;
}

/* The digits number t prints one of. */
static enum fmt_digits digits_of(const struct fmt_tok *t)
{
	if (t->base == 8)
		return FMT_DIGITS_OCT;
	if (t->base == 10)
		return FMT_DIGITS_DEC;
	return t->upper ? FMT_DIGITS_HEX_UPPER : FMT_DIGITS_HEX;
}

/* What the matchers read besides the tokens: bounds, needed bytes,
 * literal counts, edges, and the classes the ranking uses. */
static void summarize(struct fmt *f, const struct builder *b)
{
	uint32_t k;
	size_t j;

	for (k = 0; k < f->ntok; k++)
		f->nconv += f->tok[k].kind != TK_LIT;
	merge_wildcards(f);
	for (k = 0; k < f->ntok; k++) {
		struct fmt_tok *t = &f->tok[k];

		if (t->kind == TK_INT || t->kind == TK_STR || t->kind == TK_CHAR)
			t->ere = fmt_conv_ere(t, &t->needs_digit);
		if (t->needs_digit && digits_of(t) > f->digits)
			f->digits = digits_of(t);
	}
	f->rest_min = xcalloc(f->ntok + 1, sizeof(uint32_t));
	f->rest_max = xcalloc(f->ntok + 1, sizeof(uint32_t));
	for (k = f->ntok; k-- > 0;) {
		f->rest_min[k] = sat_add(f->rest_min[k + 1], f->tok[k].min);
		f->rest_max[k] = f->tok[k].max == FMT_INF ? FMT_INF :
				 sat_add(f->rest_max[k + 1], f->tok[k].max);
	}
	for (k = 0; k < f->ntok; k++) {
		struct fmt_tok *t = &f->tok[k];

		if (t->kind == TK_LIT) {
			/* up to the first newline: a multi-line record may be
			 * matched on its first line only */
			const char *lit = f->lit + t->lit_off;
			const char *nl = memchr(lit, '\n', t->lit_len);

			for (j = 0; j < (nl ? (size_t)(nl - lit) : t->lit_len); j++) {
				cls_set(f->need, lit[j]);
				f->need_sig |= fmt_sig_bit(lit[j]);
			}
		}
		f->min_len = sat_add(f->min_len, t->min);
		f->max_len = sat_add(f->max_len, t->max);
		if (t->kind != TK_LIT)
			continue;
		f->lit_bytes += t->lit_len;
		for (j = 0; j < t->lit_len; j++) {
			char c = f->lit[t->lit_off + j];

			if (c != ' ' && c != '\n' && c != '\t')
				f->lit_nonspace++;
		}
	}
	if (f->open_end)
		f->max_len = FMT_INF;
	edge_sets(f);
	f->simple = true;
	for (k = 0; k < f->ntok; k++)
		if (f->tok[k].kind != TK_LIT && f->tok[k].kind != TK_WILD)
			f->simple = false;
	/*
	 * "%s\n", "%s%s", "%pV\n", "%*s": after merge_wildcards() a single
	 * "anything", which prints every line in full whether or not KERN_CONT
	 * text may follow. Some ten generic formats of a vmlinux are like
	 * this and all are tried on every generic line: answer by shape.
	 */
	f->any = f->ntok == 1 && f->tok[0].kind == TK_WILD;
	f->generic = f->lit_nonspace < FMT_GENERIC_LITERALS;
	f->catch_all = f->lit_nonspace == 0 && !b->telling;
}

void fmt_compile(struct fmt *f, const char *s, size_t len)
{
	struct builder b = { .f = f };
	bool cut = false;
	size_t i = 0, j;

	memset(f, 0, sizeof(*f));
	/* the kernel's format is a C string */
	len = strnlen(s, len);
	while (i < len) {
		struct fmt_tok spec;
		int bits;

		if (s[i] != '%') {
			for (j = i; j < len && s[j] != '%' && s[j] != '\n'; j++)
				;
			add_lit(&b, s + i, j - i);
			i = j;
			if (i < len && s[i] == '\n') {
				/* a log line is one line of a record: model the
				 * format up to its first newline */
				cut = true;
				break;
			}
			continue;
		}
		i++;
		if (!decode_spec(s, len, &i, &spec, &bits) ||
		    !add_conversion(&b, s, len, &i, &spec, bits)) {
			/* a lone '%' at the end, or FORMAT_TYPE_INVALID:
			 * vsnprintf() stops here */
			f->stopped = true;
			break;
		}
	}
	/* The line ends at the format's first newline (usually the one
	 * printk strips); without one, KERN_CONT text may follow. */
	f->open_end = !cut;
	summarize(f, &b);
	pack(f, b.lit_used);
}

void fmt_free(struct fmt *f)
{
	free(f->tok);	/* the block of pack() */
	memset(f, 0, sizeof(*f));
}
