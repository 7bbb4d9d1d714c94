// SPDX-License-Identifier: GPL-2.0
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* memmem() */
#endif
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "fmt.h"

/* ------------------------------------------------------------------ */
/* %p extension models (lib/vsprintf.c pointer())                      */

/* Extensions that go through check_pointer() print these for NULL or
 * error pointers instead of the object. */
#define ERRS "|\\(null\\)|\\(efault\\)"
#define HASHED "[0-9a-f]{16}|\\(____ptrval____\\)"
#define HEX2 "[0-9a-f]{2}"

void fmt_ptr_model(const char *ext, size_t len, struct ptr_model *m)
{
	char c0 = len > 0 ? ext[0] : 0, c1 = len > 1 ? ext[1] : 0;
	char c2 = len > 2 ? ext[2] : 0;

	m->pattern = HASHED;	/* plain %p: hashed, or not yet hashable */
	m->sample = "00000000c0ffee42";
	m->telling = false;
	switch (c0) {
	case 'S': case 's': case 'B':
		/* __sprint_symbol(): name+0xoff/0xsize [module buildid], or
		 * the raw address when there is no symbol; %ps: the name
		 * without the offset */
		if (c0 == 's') {
			m->pattern = "[A-Za-z0-9_.$]+( \\[[A-Za-z0-9_-]+( [0-9a-f]+)?\\])?|0x[0-9a-f]+";
			m->sample = "do_one_initcall";
			break;
		}
		m->pattern = "[A-Za-z0-9_.$]+\\+0x[0-9a-f]+/0x[0-9a-f]+"
			     "( \\[[A-Za-z0-9_-]+( [0-9a-f]+)?\\])?|0x[0-9a-f]+";
		m->sample = "do_one_initcall+0x45/0x210";
		m->telling = true;
		break;
	case 'R': case 'r':
		m->telling = true;
		m->pattern = "\\[[^]]*\\]" ERRS;
		m->sample = "[mem 0xfebd1000-0xfebd1fff]";
		break;
	case 'h':	/* hex_string(): separator chosen by the next letter */
		if (c1 == 'C') {
			m->pattern = "(" HEX2 "(:" HEX2 ")*)?" ERRS;
			m->sample = "de:ad:be:ef";
		} else if (c1 == 'D') {
			m->pattern = "(" HEX2 "(-" HEX2 ")*)?" ERRS;
			m->sample = "de-ad-be-ef";
		} else if (c1 == 'N') {
			m->pattern = "(" HEX2 ")*" ERRS;
			m->sample = "deadbeef";
		} else {
			m->pattern = "(" HEX2 "( " HEX2 ")*)?" ERRS;
			m->sample = "de ad be ef";
		}
		break;
	case 'b':
		if (c1 == 'l') {
			m->pattern = "([0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*)?" ERRS;
			m->sample = "0-3,8";
		} else {
			m->pattern = "[0-9a-f]*(,[0-9a-f]{8})*" ERRS;
			m->sample = "ff";
		}
		break;
	case 'M':
		m->telling = true;
		if (c1 == 'F') {
			m->pattern = HEX2 "(-" HEX2 "){5}" ERRS;
			m->sample = "52-54-00-12-34-56";
		} else {
			m->pattern = HEX2 "(:" HEX2 "){5}" ERRS;
			m->sample = "52:54:00:12:34:56";
		}
		break;
	case 'm':
		m->pattern = "[0-9a-f]{12}" ERRS;
		m->sample = "525400123456";
		break;
	case 'I': case 'i':
		m->telling = c1 == '4' || (c1 == '6' && c2 != 'c');
		if (c1 == '4' && c0 == 'I') {
			m->pattern = "[0-9]{1,3}(\\.[0-9]{1,3}){3}" ERRS;
			m->sample = "10.0.2.15";
		} else if (c1 == '4') {
			m->pattern = "[0-9]{3}(\\.[0-9]{3}){3}" ERRS;
			m->sample = "010.000.002.015";
		} else if (c1 == '6' && c0 == 'I' && c2 == 'c') {
			m->pattern = "[0-9a-f:.]{2,45}" ERRS;
			m->sample = "fe80::5054:ff:fe12:3456";
		} else if (c1 == '6' && c0 == 'I') {
			m->pattern = "[0-9a-f]{4}(:[0-9a-f]{4}){7}" ERRS;
			m->sample = "fe80:0000:0000:0000:5054:00ff:fe12:3456";
		} else if (c1 == '6') {
			m->pattern = "[0-9a-f]{32}" ERRS;
			m->sample = "fe80000000000000505400fffe123456";
		} else {	/* sockaddr: v4 or v6, port, scope */
			m->pattern = "[]0-9A-Za-z:.%/[]+" ERRS;	/* ']' first: POSIX bracket */
			m->sample = "10.0.2.15";
		}
		break;
	case 'E':
		m->pattern = "[ -~]*" ERRS;
		m->sample = "abc\\x1b";
		break;
	case 'U':
		m->telling = true;
		if (c1 == 'B' || c1 == 'L') {
			m->pattern = "[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}" ERRS;
			m->sample = "6BA7B810-9DAD-11D1-80B4-00C04FD430C8";
		} else {
			m->pattern = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}" ERRS;
			m->sample = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";
		}
		break;
	case 'N':	/* netdev_bits(): %pNF */
		m->telling = true;
		m->pattern = "0x[0-9a-f]{16}" ERRS;
		m->sample = "0x0000000000004000";
		break;
	case '4':	/* fourcc_string(): %p4cc */
		m->telling = true;
		m->pattern = ".{4} (little|big)-endian \\(0x[0-9a-f]{8}\\)" ERRS;
		m->sample = "NV12 little-endian (0x3231564e)";
		break;
	case 'a':	/* address_val(): special_hex_number(), 8 bytes */
		m->telling = true;
		m->pattern = "0x[0-9a-f]{16}" ERRS;
		m->sample = "0x00000000fee00000";
		break;
	case 't':	/* time_and_date() */
		m->pattern = "[0-9:T -]+" ERRS;
		m->sample = "2024-12-03T07:51:19";
		break;
	case 'C': case 'g': case 'f':	/* clock, bdev, fwnode names */
		m->pattern = "[!-~]+" ERRS;
		m->sample = c0 == 'g' ? "sda1" : "\\_SB.PCI0";
		break;
	case 'G':	/* flags_string(): "GFP_KERNEL|__GFP_ZERO", "0x..(..)" */
		m->pattern = "[!-~]*" ERRS;
		m->sample = "GFP_KERNEL|__GFP_ZERO";
		break;
	case 'O':	/* device_node_string() */
		m->pattern = "[ -~]*" ERRS;
		m->sample = "/soc/ethernet@1000";
		break;
	case 'x':	/* pointer_string(): unhashed, 16 digits */
		m->pattern = "[0-9a-f]{16}";
		m->sample = "ffff888003a4c000";
		break;
	case 'e':	/* err_ptr(): errname() or the decimal value; a pointer
			 * that is no ERR_PTR prints as a plain %p */
		m->pattern = "-E[A-Z0-9]+|-[0-9]+|" HASHED;
		m->sample = "-ENOMEM";
		break;
	case 'u': case 'k':
		if (c1 == 's') {
			m->pattern = NULL;	/* a string */
			m->sample = "user string";
		} else {
			m->pattern = "\\(einval\\)";
			m->sample = "(einval)";
		}
		break;
	case 'V': case 'd': case 'D': case 'A':
		/* %pV nests a whole format; dentry and file names can hold
		 * any byte; %pA is Rust's own formatting */
		m->pattern = NULL;
		m->sample = c0 == 'V' ? "nested message 42" : "some name";
		break;
	case 'K':
	default:
		break;
	}
}

/* Compiled models, shared by all formats: a handful of distinct ones. */
static struct {
	const char *pattern;
	struct ere re;
} ere_cache[64];
static size_t ere_cache_n;

static const struct ere *model_ere(const char *pattern)
{
	struct pi_err err;
	size_t i;

	for (i = 0; i < ere_cache_n; i++)
		if (!strcmp(ere_cache[i].pattern, pattern))
			return &ere_cache[i].re;
	/* Built-in patterns: either failure can only happen while editing them. */
	if (ere_cache_n == ARRAY_SIZE(ere_cache)) {
		fprintf(stderr, "printk-index: internal model '%s': more than %zu models\n",
			pattern, ARRAY_SIZE(ere_cache));
		abort();
	}
	if (ere_compile(&ere_cache[ere_cache_n].re, pattern, &err)) {
		fprintf(stderr, "printk-index: internal model '%s': %s\n", pattern, err.msg);
		abort();
	}
	ere_cache[ere_cache_n].pattern = pattern;
	return &ere_cache[ere_cache_n++].re;
}

/* The pattern a %p model was compiled from (check.c rebuilds it as an
 * automaton); NULL if re is not a model. */
const char *fmt_model_pattern(const struct ere *re)
{
	size_t i;

	for (i = 0; i < ere_cache_n; i++)
		if (&ere_cache[i].re == re)
			return ere_cache[i].pattern;
	return NULL;
}

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
		f->tok = xrealloc(f->tok, b->cap * sizeof(*f->tok));
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
	t->ere = model_ere(m.pattern);
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

void fmt_compile(struct fmt *f, const char *s, size_t len)
{
	struct builder b = { .f = f };
	size_t i = 0, j;
	uint32_t k;
	bool cut = false;

	memset(f, 0, sizeof(*f));
	/* the kernel's format is a C string */
	len = strnlen(s, len);
	while (i < len) {
		struct fmt_tok tmp, *t;
		char q = 0;
		int bits = 32;

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
		/* format_decode() */
		memset(&tmp, 0, sizeof(tmp));
		tmp.width = tmp.prec = W_NONE;
		i++;
		for (; i < len; i++) {
			if (s[i] == '-') tmp.flags |= F_LEFT;
			else if (s[i] == '+') tmp.flags |= F_PLUS;
			else if (s[i] == ' ') tmp.flags |= F_SPACE;
			else if (s[i] == '#') tmp.flags |= F_SPECIAL;
			else if (s[i] == '0') tmp.flags |= F_ZEROPAD;
			else break;
		}
		if (i < len && s[i] >= '0' && s[i] <= '9') {
			tmp.width = read_num(s, len, &i);
		} else if (i < len && s[i] == '*') {
			tmp.width = W_STAR;
			i++;
		}
		if (i < len && s[i] == '.') {
			i++;
			if (i < len && s[i] >= '0' && s[i] <= '9') {
				tmp.prec = read_prec(s, len, &i);
			} else if (i < len && s[i] == '*') {
				tmp.prec = W_STAR;
				i++;
			}
		}
		if (i < len && (s[i] == 'h' || s[i] == 'l' || s[i] == 'L' ||
				s[i] == 'z' || s[i] == 't')) {
			q = s[i] == 'L' ? 'L' : s[i];
			i++;
			if (i < len && q == s[i] && (q == 'l' || q == 'h')) {
				q = q == 'l' ? 'L' : 'H';
				i++;
			}
		}
		if (i >= len) {
			f->stopped = true;	/* lone '%' at the end */
			break;
		}
		switch (q) {
		case 'H': bits = 8; break;
		case 'h': bits = 16; break;
		case 'l': case 'L': case 'z': case 't': bits = 64; break;
		}
		switch (s[i]) {
		case '%':
			add_lit(&b, "%", 1);
			i++;
			continue;
		case 'c':
			t = add_tok(&b, TK_CHAR);
			*t = (struct fmt_tok){ .kind = TK_CHAR, .flags = tmp.flags,
					       .width = tmp.width, .prec = W_NONE };
			t->min = t->width > 1 ? (uint32_t)t->width : 1;
			t->max = t->width == W_STAR ? FMT_INF : t->min;
			t->cls_all = true;
			set_all(t->cls);
			i++;
			break;
		case 's':
			t = add_tok(&b, TK_STR);
			*t = (struct fmt_tok){ .kind = TK_STR, .flags = tmp.flags,
					       .width = tmp.width, .prec = tmp.prec };
			t->min = t->width > 0 ? (uint32_t)t->width : 0;
			if (t->prec >= 0 && t->width != W_STAR)
				t->max = t->prec > t->width ? (uint32_t)t->prec : t->min;
			else
				t->max = FMT_INF;
			t->cls_all = true;
			set_all(t->cls);
			i++;
			break;
		case 'p':
			i++;
			for (j = i; j < len && is_alnum(s[j]); j++)
				;
			t = add_tok(&b, TK_ERE);
			*t = tmp;
			ptr_tok(&b, t, s + i, j - i);
			i = j;	/* pointer() consumes every alnum after 'p' */
			break;
		case 'o': case 'x': case 'X': case 'd': case 'i': case 'u':
			t = add_tok(&b, TK_INT);
			*t = tmp;
			int_tok(t, s[i] == 'o' ? 8 : (s[i] == 'x' || s[i] == 'X') ? 16 : 10,
				s[i] == 'X', s[i] == 'd' || s[i] == 'i', bits);
			i++;
			break;
		default:
			/* FORMAT_TYPE_INVALID: vsnprintf() stops here */
			f->stopped = true;
			i = len;
			break;
		}
	}

	for (k = 0; k < f->ntok; k++)
		f->nconv += f->tok[k].kind != TK_LIT;

	/* The line ends at the format's first newline (usually the one
	 * printk strips); without one, KERN_CONT text may follow. */
	f->open_end = !cut;

	merge_wildcards(f);
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
	f->catch_all = f->lit_nonspace == 0 && !b.telling;
	pack(f, b.lit_used);
}

void fmt_free(struct fmt *f)
{
	free(f->tok);	/* the block of pack() */
	memset(f, 0, sizeof(*f));
}

/* ------------------------------------------------------------------ */
/* Validators                                                          */

static bool is_digit_of(const struct fmt_tok *t, unsigned char c)
{
	if (c >= '0' && c <= '9')
		return t->base != 8 || c <= '7';
	if (t->base != 16)
		return false;
	return t->upper ? (c >= 'A' && c <= 'F') : (c >= 'a' && c <= 'f');
}

/*
 * number() lays out: [spaces][sign][0x|0][zero padding][precision zeros]
 * [digits][spaces]. left/zeropad select which padding exists.
 */
static bool int_layout_ok(const struct fmt_tok *t, const unsigned char *s,
			  size_t n, bool left, bool zeropad)
{
	size_t p = 0, e = n, pad = 0, sign = 0, pfx = 0, nd, z, nat, body, zpad, k;
	bool star_w = t->width == W_STAR, nonzero = false;

	if (left) {
		while (e > p && s[e - 1] == ' ') {
			e--;
			pad++;
		}
	} else if (!zeropad) {
		while (p < e && s[p] == ' ') {
			p++;
			pad++;
		}
	}
	if (t->is_signed) {
		if (p < e && s[p] == '-') {
			p++;
			sign = 1;
		} else if (t->flags & F_PLUS) {
			if (p >= e || s[p] != '+')
				return false;
			p++;
			sign = 1;
		} else if (t->flags & F_SPACE) {
			if (!left && !zeropad) {
				/* the sign blank was counted as padding */
				if (!pad)
					return false;
				pad--;
			} else {
				if (p >= e || s[p] != ' ')
					return false;
				p++;
			}
			sign = 1;
		}
	}
	if ((t->flags & F_SPECIAL) && t->base == 16) {
		if (e - p < 2 || s[p] != '0' || s[p + 1] != (t->upper ? 'X' : 'x'))
			return false;
		p += 2;
		pfx = 2;
	}
	for (k = p; k < e; k++) {
		if (!is_digit_of(t, s[k]))
			return false;
		if (s[k] != '0')
			nonzero = true;
	}
	/* number() prints zero as "0", never "-0" */
	if (sign && p > 0 && s[p - 1] == '-' && !nonzero)
		return false;
	if ((t->flags & F_SPECIAL) && t->base == 8 && nonzero) {
		if (p >= e || s[p] != '0')
			return false;
		p++;
		pfx = 1;
	}
	nd = e - p;
	if (!nd)
		return false;
	for (z = 0; z < nd && s[p + z] == '0'; z++)
		;
	nat = nd - z ? nd - z : 1;
	if (nat > t->maxdigits)
		return false;
	if (t->prec == W_STAR)
		body = nd;	/* any precision: every zero can come from it */
	else
		body = t->prec > (int32_t)nat ? (size_t)t->prec : nat;
	if (nd < body)
		return false;
	zpad = nd - body;
	if (zpad && !zeropad)
		return false;
	if (star_w)
		return true;
	/* padding exists only to reach the width, and then exactly */
	if (pad + zpad)
		return (size_t)t->width == n;
	return sign + pfx + body >= (size_t)(t->width > 0 ? t->width : 0);
}

static bool int_ok(const struct fmt_tok *t, const unsigned char *s, size_t n)
{
	bool left = t->flags & F_LEFT;
	bool zeropad = (t->flags & F_ZEROPAD) && !left;

	if (int_layout_ok(t, s, n, left, zeropad))
		return true;
	/* a negative '*' width means left-justified (set_field_width()) */
	return t->width == W_STAR && !left && int_layout_ok(t, s, n, true, false);
}

static size_t lead_spaces(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] == ' ')
		i++;
	return i;
}

static size_t trail_spaces(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[n - 1 - i] == ' ')
		i++;
	return i;
}

/* string(): at most prec bytes of the argument, padded to width. */
static bool str_ok(const struct fmt_tok *t, const unsigned char *s, size_t n)
{
	size_t w, need;

	if (t->prec < 0 && t->width == W_NONE)
		return true;
	if (t->width == W_STAR) {
		if (t->prec < 0 || n <= (size_t)t->prec)
			return true;
		need = n - t->prec;
		return lead_spaces(s, n) >= need || trail_spaces(s, n) >= need;
	}
	w = t->width > 0 ? (size_t)t->width : 0;
	if (n < w)
		return false;
	if (t->prec < 0)
		return true;
	if (n > w)
		return n <= (size_t)t->prec;
	if (w <= (size_t)t->prec)
		return true;
	need = w - t->prec;
	return (t->flags & F_LEFT) ? trail_spaces(s, n) >= need : lead_spaces(s, n) >= need;
}

/* FORMAT_TYPE_CHAR: the byte padded with blanks to width. */
static bool char_ok(const struct fmt_tok *t, const unsigned char *s, size_t n)
{
	if (!n)
		return false;
	if (t->width == W_STAR)
		return lead_spaces(s, n) >= n - 1 || trail_spaces(s, n) >= n - 1;
	if (n != t->min)
		return false;
	return (t->flags & F_LEFT) ? trail_spaces(s + 1, n - 1) == n - 1
				   : lead_spaces(s, n - 1) == n - 1;
}

/* The span is known to be within bounds and made of class bytes. */
static bool tok_accepts_span(const struct fmt_tok *t, const unsigned char *s, size_t n)
{
	switch (t->kind) {
	case TK_LIT: return false;	/* not a conversion */
	case TK_INT: return int_ok(t, s, n);
	case TK_STR: return str_ok(t, s, n);
	case TK_CHAR: return char_ok(t, s, n);
	case TK_ERE: return ere_fullmatch(t->ere, s, n);
	case TK_WILD: return true;
	}
	return false;
}

bool fmt_tok_accepts_span(const struct fmt_tok *t, const char *s, size_t n)
{
	return tok_accepts_span(t, (const unsigned char *)s, n);
}

bool fmt_tok_accepts(const struct fmt_tok *t, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i;

	if (n < t->min || (t->max != FMT_INF && n > t->max))
		return false;
	if (!t->cls_all)
		for (i = 0; i < n; i++)
			if (!cls_has(t->cls, s[i]))
				return false;
	return tok_accepts_span(t, s, n);
}

/* ------------------------------------------------------------------ */
/* Matching one format                                                 */

/*
 * Backtracking over conversion spans. Failures are memoised per
 * (token, position), which bounds the work by tokens x length^2, and a
 * step budget stops pathological inputs (documented: such a line is
 * reported unattributed rather than taking forever).
 */
#define FMT_MAX_STEPS 200000
#define FMT_MAX_DEPTH 1000

struct mstate {
	const struct fmt *f;
	const unsigned char *m;
	size_t n;
	bool allow_prefix;
	bool aborted;
	unsigned long steps;
	uint32_t gen;
};

static uint32_t *memo;
static size_t memo_cap;
static uint32_t memo_gen;

static bool memo_failed(struct mstate *st, uint32_t ti, size_t pos)
{
	return memo[(size_t)ti * (st->n + 1) + pos] == st->gen;
}

static void memo_fail(struct mstate *st, uint32_t ti, size_t pos)
{
	memo[(size_t)ti * (st->n + 1) + pos] = st->gen;
}

static bool m_tok(struct mstate *st, uint32_t ti, size_t pos, unsigned depth)
{
	const struct fmt *f = st->f;
	const struct fmt_tok *t;
	size_t lo, hi, e, run;
	bool end_ok;
	int c0 = -1;

	for (;;) {
		if (ti == f->ntok)
			return pos == st->n || (st->allow_prefix && f->open_end);
		t = &f->tok[ti];
		if (t->kind != TK_LIT)
			break;
		{
			const char *lit = f->lit + t->lit_off;
			size_t avail = st->n - pos;

			if (avail >= t->lit_len && !memcmp(st->m + pos, lit, t->lit_len)) {
				pos += t->lit_len;
				ti++;
				continue;
			}
			return false;
		}
	}
	if (++st->steps > FMT_MAX_STEPS || depth > FMT_MAX_DEPTH) {
		st->aborted = true;
		return false;
	}
	if (memo_failed(st, ti, pos))
		return false;

	/* spans can only reach as far as the bytes this conversion prints */
	run = st->n - pos;
	if (t->max != FMT_INF && run > t->max)
		run = t->max;
	if (!t->cls_all) {
		size_t k;

		for (k = 0; k < run && cls_has(t->cls, st->m[pos + k]); k++)
			;
		run = k;
	}
	if (run < t->min)
		goto fail;
	lo = pos + t->min;
	hi = pos + run;
	/* leave room for what follows, and when the message must be used
	 * up, do not stop so early that the rest cannot reach its end */
	if (st->n - hi < f->rest_min[ti + 1]) {
		if (st->n < f->rest_min[ti + 1] + pos)
			goto fail;
		hi = st->n - f->rest_min[ti + 1];
	}
	if (!(st->allow_prefix && f->open_end) && f->rest_max[ti + 1] != FMT_INF &&
	    st->n > f->rest_max[ti + 1] && lo < st->n - f->rest_max[ti + 1])
		lo = st->n - f->rest_max[ti + 1];
	if (lo > hi)
		goto fail;
	if (ti + 1 < f->ntok && f->tok[ti + 1].kind == TK_LIT)
		c0 = (unsigned char)f->lit[f->tok[ti + 1].lit_off];
	else if (ti + 1 == f->ntok && !(st->allow_prefix && f->open_end)) {
		/* the last conversion must reach the end of the message */
		if (st->n < lo || st->n > hi)
			goto fail;
		lo = hi = st->n;
	}

	/* a literal can not start at the end of the message */
	end_ok = c0 < 0;
	for (e = lo; e <= hi; e++) {
		if (c0 >= 0 && e < st->n && st->m[e] != c0) {
			/* jump to the next byte that can start the literal */
			size_t lim = hi < st->n ? hi + 1 : st->n;
			const unsigned char *nx = memchr(st->m + e, c0, lim - e);

			e = nx ? (size_t)(nx - st->m) : st->n;
			if (e > hi)
				break;
		}
		if (e == st->n && !end_ok)
			break;
		if (!tok_accepts_span(t, st->m + pos, e - pos))
			continue;
		if (m_tok(st, ti + 1, e, depth + 1))
			return true;
		if (st->aborted)
			return false;
	}
fail:
	memo_fail(st, ti, pos);
	return false;
}

/*
 * Literals and "anything" only: finding each literal at its leftmost
 * position after the previous one is exact (any match can be shifted to
 * that one), so no backtracking is needed. A format that does not start
 * with "anything" is anchored at the start, and in a full match one that
 * does not end with it is anchored at the end.
 */
/* memmem() for the short needles and lines here: memchr + memcmp. */
static const char *find(const char *h, size_t hn, const char *nd, size_t nn)
{
	const char *end = h + hn, *p = h;

	if (!nn)
		return h;
	while (nn <= (size_t)(end - p)) {
		p = memchr(p, nd[0], end - p - nn + 1);
		if (!p)
			return NULL;
		if (!memcmp(p + 1, nd + 1, nn - 1))
			return p;
		p++;
	}
	return NULL;
}

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
			hit = find(msg + pos, n - pos, lit, t->lit_len);
			if (!hit)
				return false;
			pos = hit - msg + t->lit_len;
		}
	}
	/* a trailing "anything" takes the rest */
	return pos == n || prefix || (f->ntok && f->tok[f->ntok - 1].kind != TK_LIT);
}

/* The reference matcher (the one before dp_match), kept for the tests. */
static bool run_match(const struct fmt *f, const char *msg, size_t n, bool prefix)
{
	struct mstate st = { .f = f, .m = (const unsigned char *)msg, .n = n,
			     .allow_prefix = prefix && f->open_end };
	size_t cells = (size_t)f->ntok * (n + 1);

	if (cells > memo_cap) {
		memo = xrealloc(memo, cells * sizeof(*memo));
		memset(memo, 0, cells * sizeof(*memo));
		memo_cap = cells;
	}
	/* a new generation invalidates all memo cells without clearing */
	if (++memo_gen == 0) {
		memset(memo, 0, memo_cap * sizeof(*memo));
		memo_gen = 1;
	}
	st.gen = memo_gen;
	return m_tok(&st, 0, 0, 0);
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
	uint64_t have[4];

	fmt_bytes(msg, n, have);
	return fmt_match_bytes(f, msg, n, have);
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

/* Position sets of byte values in the current line, filled on demand. */
static uint64_t *occ;		/* [256][occ_nw] */
static size_t occ_nw;
static uint32_t occ_gen[256];
static uint32_t line_gen;
static uint32_t lit_line_gen;	/* the line line_lit_ends() holds */

static inline bool bit_has(const uint64_t *b, size_t i)
{
	return b[i / 64] >> (i % 64) & 1;
}

static inline void bit_set(uint64_t *b, size_t i)
{
	b[i / 64] |= 1ULL << (i % 64);
}

/* Next set bit at or after i, or SIZE_MAX. */
static inline size_t bit_next(const uint64_t *b, size_t nw, size_t i)
{
	size_t w = i / 64;
	uint64_t x;

	if (w >= nw)
		return SIZE_MAX;
	x = b[w] & (~0ULL << (i % 64));
	while (!x) {
		if (++w >= nw)
			return SIZE_MAX;
		x = b[w];
	}
	return w * 64 + __builtin_ctzll(x);
}

/* Most lines fit in one or two words: not worth a call to memset() */
static inline void bits_clear(uint64_t *b, size_t nw)
{
	if (nw <= 2) {
		b[0] = 0;
		b[nw - 1] = 0;
	} else {
		memset(b, 0, nw * sizeof(uint64_t));
	}
}

/* Are more than two bits set in words w..nw-1? Clearing the lowest set
 * bit twice leaves a word non-zero only if it had three. */
static inline bool more_than_two(const uint64_t *b, size_t w, size_t nw)
{
	unsigned seen = 0;

	for (; w < nw; w++) {
		uint64_t x = b[w], y = x & (x - 1);

		if (y & (y - 1))
			return true;
		seen += !!x + !!y;
		if (seen > 2)
			return true;
	}
	return false;
}

/* Bits lo..hi (inclusive) of a word-array, as a mask for word w. */
static inline uint64_t range_mask(size_t w, size_t lo, size_t hi)
{
	uint64_t m = ~0ULL;

	if (lo > w * 64 + 63 || hi < w * 64)
		return 0;
	if (lo > w * 64)
		m &= ~0ULL << (lo % 64);
	if (hi < w * 64 + 63)
		m &= ~0ULL >> (63 - hi % 64);
	return m;
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

static const uint64_t *line_occ(const struct fmt_line *l, unsigned char c)
{
	size_t nw = l->n / 64 + 1;
	uint64_t *o;

	if (nw > occ_nw) {
		occ_nw = nw;
		occ = xrealloc(occ, 256 * nw * sizeof(uint64_t));
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
} ere_line[ARRAY_SIZE(ere_cache)];

static const uint64_t *line_ere_suffix(const struct fmt_line *l, const struct ere *re)
{
	size_t i = ((const char *)re - (const char *)&ere_cache[0].re) / sizeof(ere_cache[0]);
	size_t nw = l->n / 64 + 1;

	if (i >= ARRAY_SIZE(ere_cache) || &ere_cache[i].re != re || !re->rnw || !re->nw)
		return NULL;
	if (ere_line[i].gen != l->gen || l->gen != line_gen || ere_line[i].nw < nw) {
		if (ere_line[i].nw < nw) {
			ere_line[i].nw = nw;
			ere_line[i].bits = xrealloc(ere_line[i].bits, nw * sizeof(uint64_t));
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

static const uint64_t *line_lit_ends(const struct fmt_line *l, const char *lit, size_t len)
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
		lit_line[i].bits = xrealloc(lit_line[i].bits, nw * sizeof(uint64_t));
	}
	bits_clear(lit_line[i].bits, nw);
	o = line_occ(l, (unsigned char)lit[0]);
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

/* One conversion from every start position: validate each span. */
static bool spans(const struct fmt_tok *t, const unsigned char *m, size_t n,
		  const uint64_t *cur, uint64_t *nxt, size_t first, size_t lim,
		  size_t elo, int c0, unsigned long *work)
{
	size_t nw = n / 64 + 1, p, e;
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
		if (!t->cls_all) {
			for (e = p; e < hi && cls_has(t->cls, m[e]); e++)
				;
			hi = e;
		}
		*work += hi - p + 1;
		for (e = lo; e <= hi; e++) {
			/* only where the next literal can start */
			if ((c0 >= 0 && m[e] != c0) || bit_has(nxt, e))
				continue;
			*work += e - p;
			if (!tok_accepts_span(t, m + p, e - p))
				continue;
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
	size_t nw = n / 64 + 1, e, p, lo_p, hi_p, k;
	bool any = false;

	e = first + t->min;
	if (e < elo)
		e = elo;
	for (; (e = bit_next(stop, nw, e)) != SIZE_MAX && e <= lim; e++) {
		hi_p = e - t->min;
		lo_p = e - first > t->max ? e - t->max : first;
		/* the shortest span's bytes first */
		for (k = hi_p; k < e; k++)
			if (!t->cls_all && !cls_has(t->cls, m[k]))
				break;
		*work += e - hi_p + 1;
		if (k < e)
			continue;
		for (p = hi_p;; p--) {
			if (p < e && p != hi_p && !t->cls_all && !cls_has(t->cls, m[p]))
				break;
			if (bit_has(cur, p)) {
				*work += e - p;
				if (tok_accepts_span(t, m + p, e - p)) {
					bit_set(nxt, e);
					any = true;
					break;
				}
			}
			if (p == lo_p)
				break;
		}
		if (*work > FMT_MAX_WORK)
			return false;
	}
	return any;
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

	if (t->kind == TK_ERE && (sfx = line_ere_suffix(l, t->ere))) {
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
		if (e == n) {
			for (p = hi_p;; p--) {
				if (p != hi_p && !t->cls_all && !cls_has(t->cls, m[p]))
					break;
				if (bit_has(cur, p)) {
					*work += n - p;
					if (tok_accepts_span(t, m + p, n - p))
						return FMT_FULL;
					if (*work > FMT_MAX_WORK)
						return FMT_NOMATCH;
				}
				if (p == lo_p)
					break;
			}
		}
	}
	if (!f->open_end)
		return FMT_NOMATCH;
	for (p = first; (p = bit_next(cur, nw, p)) != SIZE_MAX; p++) {
		size_t hi = n;

		if (t->max != FMT_INF && hi - p > t->max)
			hi = p + t->max;
		for (e = p; e < p + t->min && e < hi; e++)
			if (!t->cls_all && !cls_has(t->cls, m[e]))
				break;
		if (e < p + t->min)
			continue;
		for (e = p + t->min; e <= hi; e++) {
			if (e > p + t->min && !t->cls_all && !cls_has(t->cls, m[e - 1]))
				break;
			*work += e - p + 1;
			if (tok_accepts_span(t, m + p, e - p))
				return FMT_PREFIX;
			if (*work > FMT_MAX_WORK)
				return FMT_NOMATCH;
		}
	}
	return FMT_NOMATCH;
}

static enum fmt_result dp_match(const struct fmt *f, const struct fmt_line *l)
{
	const unsigned char *m = (const unsigned char *)l->msg;
	size_t n = l->n, nw = n / 64 + 1, p, lim, elo, first, w;
	uint64_t *cur, *nxt, *tmp;
	unsigned long work = 0;
	uint32_t ti;
	bool any;

	if (2 * nw > dp_cap) {
		dp_cap = 2 * nw;
		dp_buf = xrealloc(dp_buf, dp_cap * sizeof(uint64_t));
	}
	cur = dp_buf;
	nxt = dp_buf + nw;
	bits_clear(cur, nw);
	cur[0] = 1;	/* position 0 */
	first = 0;
	ti = 0;
	if (f->ntok > 2 && f->tok[0].kind == TK_WILD && f->tok[1].kind == TK_LIT) {
		/* "%s: ..." - the first two steps, from the line's shared
		 * ends of the literal: the same positions, bounds and work */
		const struct fmt_tok *t = &f->tok[1];
		const uint64_t *ends = line_lit_ends(l, f->lit + t->lit_off, t->lit_len);

		if (ends) {
			if (f->rest_min[1] > n)
				return FMT_NOMATCH;
			lim = n - f->rest_min[2];
			elo = 0;
			if (!f->open_end && f->rest_max[2] != FMT_INF && n > f->rest_max[2])
				elo = n - f->rest_max[2];
			any = false;
			for (w = 0; w < nw; w++) {
				cur[w] = ends[w] & range_mask(w, elo, lim);
				any |= cur[w] != 0;
			}
			work += 2 * nw;
			if (!any)
				return FMT_NOMATCH;
			first = bit_next(cur, nw, 0);
			ti = 2;
		}
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
		any = false;
		switch (t->kind) {
		case TK_LIT: {
			const unsigned char *lit = (const unsigned char *)f->lit + t->lit_off;
			size_t len = t->lit_len;

			/* the starts mostly come filtered by the first byte
			 * already (c0 above): compare it before calling */
			for (w = first / 64; w <= lim / 64; w++) {
				uint64_t x = cur[w];

				while (x) {
					p = w * 64 + __builtin_ctzll(x);
					x &= x - 1;
					if (p + len > lim)
						break;
					if (p + len >= elo && m[p] == lit[0] &&
					    !memcmp(m + p + 1, lit + 1, len - 1)) {
						bit_set(nxt, p + len);
						any = true;
					}
				}
			}
			work += nw;
			break;
		}
		case TK_WILD: {
			/* everything from the first position on */
			const uint64_t *stop = c0 >= 0 ? line_occ(l, c0) : NULL;

			p = first < elo ? elo : first;
			for (w = p / 64; w <= lim / 64; w++) {
				nxt[w] = range_mask(w, p, lim) & (stop ? stop[w] : ~0ULL);
				any |= nxt[w] != 0;
			}
			work += nw;
			break;
		}
		case TK_ERE:
			if (dense) {
				any = spans_back(t, m, n, cur, nxt, first, lim, elo,
						 line_occ(l, c0), &work);
				break;
			}
			if (ere_reach(t->ere, m, n, cur, lim, nxt, &work)) {
				for (w = 0; w < nw; w++)
					any |= nxt[w] != 0;
				break;
			}
			/* a model too large for the NFA tables: span by span */
			any = spans(t, m, n, cur, nxt, first, lim, elo, c0, &work);
			break;
		default:
			if (dense)
				any = spans_back(t, m, n, cur, nxt, first, lim, elo,
						 line_occ(l, c0), &work);
			else
				any = spans(t, m, n, cur, nxt, first, lim, elo, c0, &work);
			break;
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
		for (;; e++) {
			if (e > hi || n - e < len)
				return false;
			if (m[e] == lit[0] && !memcmp(m + e + 1, lit + 1, len - 1) &&
			    tok_accepts_span(t, m + pos, e - pos))
				break;
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
static bool precheck(const struct fmt *f, const char *msg, size_t n)
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
static bool full_possible(const struct fmt *f, const char *msg, size_t n)
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
	if ((f->need_sig & ~l->sig) || !precheck(f, msg, n))
		return FMT_NOMATCH;
	if (f->simple) {
		if (full_possible(f, msg, n) && simple_match(f, msg, n, false))
			return FMT_FULL;
		if (f->open_end && simple_match(f, msg, n, true))
			return FMT_PREFIX;
		return FMT_NOMATCH;
	}
	if (!f->open_end && !full_possible(f, msg, n))
		return FMT_NOMATCH;
	if (!f->generic && greedy_full(f, (const unsigned char *)msg, n))
		return FMT_FULL;
	return dp_match(f, l);
}

enum fmt_result fmt_match_bytes(const struct fmt *f, const char *msg, size_t n,
				const uint64_t have[4])
{
	struct fmt_line l;
	int i;

	for (i = 0; i < 4; i++)
		if (f->need[i] & ~have[i])
			return FMT_NOMATCH;
	fmt_line_init(&l, msg, n);
	return fmt_match_line(f, &l);
}

enum fmt_result fmt_match_backtrack(const struct fmt *f, const char *msg, size_t n)
{
	uint64_t have[4];
	int i;

	fmt_bytes(msg, n, have);
	for (i = 0; i < 4; i++)
		if (f->need[i] & ~have[i])
			return FMT_NOMATCH;
	if (!precheck(f, msg, n))
		return FMT_NOMATCH;
	if (full_possible(f, msg, n) && run_match(f, msg, n, false))
		return FMT_FULL;
	/* A format without a newline can be followed by KERN_CONT text. */
	if (f->open_end && run_match(f, msg, n, true))
		return FMT_PREFIX;
	return FMT_NOMATCH;
}

/* ------------------------------------------------------------------ */
/* Rendering with sample arguments                                     */

static uint64_t rnd_next(uint64_t *s)
{
	/* xorshift64*: deterministic samples for tests and the benchmark */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static void pad(struct sbuf *o, int n, char c)
{
	while (n-- > 0)
		sbuf_addc(o, c);
}

/* lib/vsprintf.c number(), same layout decisions */
static void render_number(struct sbuf *o, unsigned long long num, int flags,
			  int base, bool upper, bool is_signed, int width, int prec)
{
	static const char digits[] = "0123456789ABCDEF";
	char tmp[66], sign = 0, locase = upper ? 0 : 0x20;
	bool need_pfx = (flags & F_SPECIAL) && base != 10, is_zero = num == 0;
	int i = 0;

	if (flags & F_LEFT)
		flags &= ~F_ZEROPAD;
	if (is_signed) {
		if ((long long)num < 0) {
			sign = '-';
			num = -(long long)num;
			width--;
		} else if (flags & F_PLUS) {
			sign = '+';
			width--;
		} else if (flags & F_SPACE) {
			sign = ' ';
			width--;
		}
	}
	if (need_pfx) {
		if (base == 16)
			width -= 2;
		else if (!is_zero)
			width--;
	}
	do {
		tmp[i++] = digits[num % base] | (base == 16 ? locase : 0);
		num /= base;
	} while (num);
	if (i > prec)
		prec = i;
	width -= prec;
	if (!(flags & (F_ZEROPAD | F_LEFT)))
		pad(o, width, ' '), width = 0;
	if (sign)
		sbuf_addc(o, sign);
	if (need_pfx) {
		if (base == 16 || !is_zero)
			sbuf_addc(o, '0');
		if (base == 16)
			sbuf_addc(o, 'X' | locase);
	}
	if (!(flags & F_LEFT))
		pad(o, width, (flags & F_ZEROPAD) ? '0' : ' '), width = 0;
	pad(o, prec - i, '0');
	while (--i >= 0)
		sbuf_addc(o, tmp[i]);
	pad(o, width, ' ');
}

static void render_str(struct sbuf *o, const struct fmt_tok *t, const char *s)
{
	int len = strlen(s), w = t->width == W_STAR ? 0 : t->width;
	int p = t->prec == W_STAR ? 3 : t->prec;

	if (p >= 0 && len > p)
		len = p;
	if (!(t->flags & F_LEFT))
		pad(o, w - len, ' ');
	sbuf_add(o, s, len);
	if (t->flags & F_LEFT)
		pad(o, w - len, ' ');
}

void fmt_render(const struct fmt *f, struct sbuf *out, uint64_t seed)
{
	static const char *const words[] = {
		"eth0", "sda1", "0000:00:1f.2", "virtio0", "ok", "ACPI",
		"e1000", "ext4", "tty0", "usb1",
	};
	uint64_t r = seed * 0x9e3779b97f4a7c15ULL + 1;
	uint32_t k;

	for (k = 0; k < f->ntok; k++) {
		const struct fmt_tok *t = &f->tok[k];
		uint64_t v = rnd_next(&r);
		int bits;

		switch (t->kind) {
		case TK_LIT:
			sbuf_add(out, f->lit + t->lit_off, t->lit_len);
			break;
		case TK_INT:
			/* small values, like most logged numbers; negative
			 * now and then for signed conversions */
			bits = t->base == 16 ? t->maxdigits * 4 :
			       t->maxdigits <= 3 ? 8 : t->maxdigits <= 6 ? 16 : 32;
			v = (v >> 8) % (bits >= 16 ? 100000 : 200);
			if (bits < 64)
				v &= (1ULL << bits) - 1;
			if (t->is_signed && (r & 0x300) == 0x300)
				v = -(long long)v;
			render_number(out, v, t->flags, t->base, t->upper, t->is_signed,
				      t->width == W_STAR ? 0 : t->width,
				      t->prec == W_STAR ? -1 : t->prec);
			break;
		case TK_STR:
			render_str(out, t, words[v % ARRAY_SIZE(words)]);
			break;
		case TK_CHAR:
			if (!(t->flags & F_LEFT) && t->width > 1)
				pad(out, t->width - 1, ' ');
			sbuf_addc(out, 'a' + v % 26);
			if ((t->flags & F_LEFT) && t->width > 1)
				pad(out, t->width - 1, ' ');
			break;
		case TK_ERE:
		case TK_WILD: {
			/* merged "%s%s" runs have no sample of their own */
			const char *x = t->ext ? t->ext : words[v % ARRAY_SIZE(words)];

			sbuf_add(out, x, strlen(x));
			break;
		}
		}
	}
}

/* ------------------------------------------------------------------ */
/* POSIX ERE translation (benchmark baseline only)                     */

static void ere_quote(struct sbuf *o, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (strchr(".[]()*+?{}|^$\\", c) && c)
			sbuf_addc(o, '\\');
		if (c == '\n' || c == 0)
			c = '.';	/* regexec works on the first line */
		sbuf_addc(o, c);
	}
}

void fmt_to_posix_ere(const struct fmt *f, struct sbuf *out)
{
	uint32_t k;

	sbuf_addc(out, '^');
	for (k = 0; k < f->ntok; k++) {
		const struct fmt_tok *t = &f->tok[k];
		const char *hex = t->upper ? "[0-9A-F]" : "[0-9a-f]";

		switch (t->kind) {
		case TK_LIT:
			ere_quote(out, f->lit + t->lit_off, t->lit_len);
			break;
		case TK_INT:
			sbuf_add(out, " *[-+ ]?", 8);
			if (t->base == 16) {
				if (t->flags & F_SPECIAL)
					sbuf_add(out, t->upper ? "0X" : "0x", 2);
				sbuf_add(out, hex, strlen(hex));
				sbuf_addc(out, '+');
			} else {
				sbuf_add(out, "[0-9]+", 6);
			}
			sbuf_add(out, " *", 2);
			break;
		case TK_STR:
		case TK_WILD:
			sbuf_add(out, ".*", 2);
			break;
		case TK_CHAR:
			sbuf_add(out, " *. *", 5);
			break;
		case TK_ERE: {
			const char *p;
			size_t i;

			/* the model strings are ERE already */
			for (i = 0; i < ere_cache_n; i++)
				if (&ere_cache[i].re == t->ere)
					break;
			p = i < ere_cache_n ? ere_cache[i].pattern : ".*";
			sbuf_addc(out, '(');
			sbuf_add(out, p, strlen(p));
			sbuf_addc(out, ')');
			break;
		}
		}
	}
	if (!f->open_end)
		sbuf_addc(out, '$');
}
