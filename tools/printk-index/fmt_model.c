// SPDX-License-Identifier: GPL-2.0
/*
 * What each %p extension can print (lib/vsprintf.c pointer()), as a small
 * regular expression, compiled once for all formats (ere.h).
 */
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "fmt_impl.h"

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
} ere_cache[FMT_MODELS];
static size_t ere_cache_n;

const struct ere *fmt_model_ere(const char *pattern)
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

/* The pattern a %p model was compiled from (ck_format.c rebuilds it as an
 * automaton); NULL if re is not a model. */
const char *fmt_model_pattern(const struct ere *re)
{
	size_t i;

	for (i = 0; i < ere_cache_n; i++)
		if (&ere_cache[i].re == re)
			return ere_cache[i].pattern;
	return NULL;
}

int fmt_model_slot(const struct ere *re)
{
	size_t i = ((const char *)re - (const char *)&ere_cache[0].re) / sizeof(ere_cache[0]);

	return i < ere_cache_n && &ere_cache[i].re == re ? (int)i : -1;
}

/*
 * The automata of number, string and char conversions, one per distinct
 * spec, built on first use from the spec's model (fmt_tok_pattern()):
 * an index has a few hundred distinct specs, every format shares them.
 */
struct conv_slot {
	struct fmt_tok spec;
	const struct ere *re;
	bool used;
};

static struct conv_slot *conv_tab;
static size_t conv_cap, conv_n;

static bool same_spec(const struct fmt_tok *a, const struct fmt_tok *b)
{
	return a->kind == b->kind && a->flags == b->flags && a->base == b->base &&
	       a->maxdigits == b->maxdigits && a->upper == b->upper &&
	       a->is_signed == b->is_signed && a->width == b->width && a->prec == b->prec;
}

static size_t spec_hash(const struct fmt_tok *t)
{
	uint64_t h = 14695981039346656037ULL;
	const uint64_t v[] = { t->kind, t->flags, t->base, t->maxdigits, t->upper, t->is_signed,
			       (uint32_t)t->width, (uint32_t)t->prec };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(v); i++)
		h = (h ^ v[i]) * 1099511628211ULL;
	return h ^ h >> 29;
}

static struct conv_slot *conv_find(const struct fmt_tok *t)
{
	size_t i;

	for (i = spec_hash(t) & (conv_cap - 1); conv_tab[i].used; i = (i + 1) & (conv_cap - 1))
		if (same_spec(&conv_tab[i].spec, t))
			break;
	return &conv_tab[i];
}

static void conv_grow(void)
{
	struct conv_slot *old = conv_tab;
	size_t n = conv_cap, i;

	conv_cap = grow_cap(conv_cap, 256);
	conv_tab = xcalloc(conv_cap, sizeof(*conv_tab));
	for (i = 0; i < n; i++)
		if (old[i].used)
			*conv_find(&old[i].spec) = old[i];
	free(old);
}

const struct ere *fmt_conv_ere(const struct fmt_tok *t)
{
	struct conv_slot *slot;
	struct sbuf pat = { 0 };
	struct pi_err err;
	struct ere *re;

	if (2 * (conv_n + 1) > conv_cap)
		conv_grow();
	slot = conv_find(t);
	if (slot->used)
		return slot->re;
	fmt_tok_pattern(t, &pat);
	re = xmalloc(sizeof(*re));
	if (ere_compile(re, pat.p, &err)) {
		/* over RX_MAX_REPEAT or ERE_MAX_INST: a width or precision
		 * of thousands, which no kernel format has */
		free(re);
		re = NULL;
	}
	sbuf_free(&pat);
	*slot = (struct conv_slot){ .spec = *t, .re = re, .used = true };
	conv_n++;
	return re;
}
