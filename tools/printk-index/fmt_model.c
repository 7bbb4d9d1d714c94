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

#define SYM "[A-Za-z0-9_.$]+"
#define MODULE "( \\[[A-Za-z0-9_-]+( [0-9a-f]+)?\\])?"

/*
 * The extensions by the letters pointer() dispatches on: the first row
 * whose letters begin the extension gives its model. A NULL pattern is a
 * string that can hold anything; an extension no row names is a plain
 * %p. telling: no other printk prints text of this shape, so a format
 * with it is not catch-all however little literal text it has.
 */
static const struct {
	const char *letters;
	const char *pattern;
	const char *sample;
	bool telling;
} ptr_models[] = {
	/* __sprint_symbol(): name+0xoff/0xsize [module buildid], or the
	 * raw address when there is no symbol; %ps: the name alone */
	{ "s", SYM MODULE "|0x[0-9a-f]+", "do_one_initcall", false },
	{ "S", SYM "\\+0x[0-9a-f]+/0x[0-9a-f]+" MODULE "|0x[0-9a-f]+",
	  "do_one_initcall+0x45/0x210", true },
	{ "B", SYM "\\+0x[0-9a-f]+/0x[0-9a-f]+" MODULE "|0x[0-9a-f]+",
	  "do_one_initcall+0x45/0x210", true },
	{ "R", "\\[[^]]*\\]" ERRS, "[mem 0xfebd1000-0xfebd1fff]", true },
	{ "r", "\\[[^]]*\\]" ERRS, "[mem 0xfebd1000-0xfebd1fff]", true },
	/* hex_string(): the separator chosen by the next letter */
	{ "hC", "(" HEX2 "(:" HEX2 ")*)?" ERRS, "de:ad:be:ef", false },
	{ "hD", "(" HEX2 "(-" HEX2 ")*)?" ERRS, "de-ad-be-ef", false },
	{ "hN", "(" HEX2 ")*" ERRS, "deadbeef", false },
	{ "h", "(" HEX2 "( " HEX2 ")*)?" ERRS, "de ad be ef", false },
	{ "bl", "([0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*)?" ERRS, "0-3,8", false },
	{ "b", "[0-9a-f]*(,[0-9a-f]{8})*" ERRS, "ff", false },
	{ "MF", HEX2 "(-" HEX2 "){5}" ERRS, "52-54-00-12-34-56", true },
	{ "M", HEX2 "(:" HEX2 "){5}" ERRS, "52:54:00:12:34:56", true },
	{ "m", "[0-9a-f]{12}" ERRS, "525400123456", false },
	{ "I4", "[0-9]{1,3}(\\.[0-9]{1,3}){3}" ERRS, "10.0.2.15", true },
	{ "i4", "[0-9]{3}(\\.[0-9]{3}){3}" ERRS, "010.000.002.015", true },
	{ "I6c", "[0-9a-f:.]{2,45}" ERRS, "fe80::5054:ff:fe12:3456", false },
	{ "I6", "[0-9a-f]{4}(:[0-9a-f]{4}){7}" ERRS, "fe80:0000:0000:0000:5054:00ff:fe12:3456",
	  true },
	{ "i6c", "[0-9a-f]{32}" ERRS, "fe80000000000000505400fffe123456", false },
	{ "i6", "[0-9a-f]{32}" ERRS, "fe80000000000000505400fffe123456", true },
	/* sockaddr: v4 or v6, port, scope; ']' first: a POSIX bracket */
	{ "I", "[]0-9A-Za-z:.%/[]+" ERRS, "10.0.2.15", false },
	{ "i", "[]0-9A-Za-z:.%/[]+" ERRS, "10.0.2.15", false },
	{ "E", "[ -~]*" ERRS, "abc\\x1b", false },
	{ "UB", "[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}" ERRS,
	  "6BA7B810-9DAD-11D1-80B4-00C04FD430C8", true },
	{ "UL", "[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}" ERRS,
	  "6BA7B810-9DAD-11D1-80B4-00C04FD430C8", true },
	{ "U", "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}" ERRS,
	  "6ba7b810-9dad-11d1-80b4-00c04fd430c8", true },
	{ "N", "0x[0-9a-f]{16}" ERRS, "0x0000000000004000", true },	/* netdev_bits() */
	{ "4", ".{4} (little|big)-endian \\(0x[0-9a-f]{8}\\)" ERRS,	/* fourcc_string() */
	  "NV12 little-endian (0x3231564e)", true },
	/* address_val(): special_hex_number(), 8 bytes */
	{ "a", "0x[0-9a-f]{16}" ERRS, "0x00000000fee00000", true },
	{ "t", "[0-9:T -]+" ERRS, "2024-12-03T07:51:19", false },	/* time_and_date() */
	/* clock, bdev, fwnode names */
	{ "C", "[!-~]+" ERRS, "\\_SB.PCI0", false },
	{ "g", "[!-~]+" ERRS, "sda1", false },
	{ "f", "[!-~]+" ERRS, "\\_SB.PCI0", false },
	/* flags_string(): "GFP_KERNEL|__GFP_ZERO", "0x..(..)" */
	{ "G", "[!-~]*" ERRS, "GFP_KERNEL|__GFP_ZERO", false },
	{ "O", "[ -~]*" ERRS, "/soc/ethernet@1000", false },	/* device_node_string() */
	{ "x", "[0-9a-f]{16}", "ffff888003a4c000", false },	/* unhashed, 16 digits */
	/* err_ptr(): errname() or the decimal value; a pointer that is no
	 * ERR_PTR prints as a plain %p */
	{ "e", "-E[A-Z0-9]+|-[0-9]+|" HASHED, "-ENOMEM", false },
	{ "us", NULL, "user string", false },
	{ "ks", NULL, "user string", false },
	{ "u", "\\(einval\\)", "(einval)", false },
	{ "k", "\\(einval\\)", "(einval)", false },
	/* %pV nests a whole format; dentry and file names can hold any
	 * byte; %pA is Rust's own formatting */
	{ "V", NULL, "nested message 42", false },
	{ "d", NULL, "some name", false },
	{ "D", NULL, "some name", false },
	{ "A", NULL, "some name", false },
};

void fmt_ptr_model(const char *ext, size_t len, struct ptr_model *m)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(ptr_models); i++) {
		n = strlen(ptr_models[i].letters);
		if (n <= len && !memcmp(ext, ptr_models[i].letters, n)) {
			m->pattern = ptr_models[i].pattern;
			m->sample = ptr_models[i].sample;
			m->telling = ptr_models[i].telling;
			return;
		}
	}
	/* plain %p (and %pK): hashed, or not yet hashable */
	m->pattern = HASHED;
	m->sample = "00000000c0ffee42";
	m->telling = false;
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
	bool needs_digit;
	bool used;
};

static struct conv_slot *conv_tab;
static size_t conv_cap, conv_n;

/*
 * The automata's memory, all specs together, at most: a kernel index
 * needs under 0.2 MB (the shared one's 101 specs: 164 KB), but an index
 * of many unusual specs (each width and precision its own) could take
 * gigabytes. Past the budget a new spec gets no automaton, and the
 * arithmetic answers it.
 */
static size_t conv_budget = 64u << 20;
static size_t conv_bytes;

size_t fmt_conv_budget(size_t bytes)
{
	size_t old = conv_budget;

	conv_budget = bytes;
	return old;
}

static size_t ere_bytes(const struct ere *re)
{
	return sizeof(*re) + (size_t)re->n * 12 + (size_t)re->ncls * 32 +
	       (size_t)re->rn * 12 + (size_t)(re->ndfa + re->nrdfa) * (re->nbc * 2 + 1);
}

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

/* Does every rendering of number conversion t hold a digit of its base?
 * Asked of the model, so that a matcher may skip spans without one. */
static bool needs_digit(const struct fmt_tok *t, const struct ere *re)
{
	uint64_t digits[4] = { 0 };
	int c;

	if (t->kind != TK_INT || !re)
		return false;
	for (c = 0; c < 256; c++)
		if (fmt_is_digit(t, c))
			cls_set(digits, c);
	return ere_needs_one_of(re, digits);
}

const struct ere *fmt_conv_ere(const struct fmt_tok *t, bool *digit)
{
	struct conv_slot *slot;
	struct sbuf pat = { 0 };
	struct pi_err err;
	struct ere *re;

	if (2 * (conv_n + 1) > conv_cap)
		conv_grow();
	slot = conv_find(t);
	if (slot->used) {
		*digit = slot->needs_digit;
		return slot->re;
	}
	if (conv_bytes >= conv_budget) {
		*slot = (struct conv_slot){ .spec = *t, .used = true };
		conv_n++;
		*digit = false;
		return NULL;
	}
	fmt_tok_pattern(t, &pat);
	re = xmalloc(sizeof(*re));
	/* Without a DFA a span would cost up to program size x span
	 * length (ere_fullmatch()'s backtracking), the arithmetic only the
	 * span's length: a model over RX_MAX_REPEAT or ERE_SPAN_MAX_INST,
	 * or whose DFA would pass ERE_SPAN_DFA_MAX states, is not used.
	 * That is a width or precision of about a hundred and more
	 * ("%-100d", "%*.300s"), which no kernel format has. */
	if (ere_compile_span(re, pat.p, &err)) {
		free(re);
		re = NULL;
	} else if (!re->dfa) {
		ere_free(re);
		free(re);
		re = NULL;
	}
	sbuf_free(&pat);
	if (re)
		conv_bytes += ere_bytes(re);
	*slot = (struct conv_slot){ .spec = *t, .re = re, .needs_digit = needs_digit(t, re),
				    .used = true };
	conv_n++;
	*digit = slot->needs_digit;
	return re;
}
