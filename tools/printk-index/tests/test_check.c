// SPDX-License-Identifier: GPL-2.0
/*
 * check: the rule regex parser, the automata of conversions, the product
 * (strong / weak / none by hand), witnesses confirmed by regexec() and by
 * the match model, prefilters against the bare product, and the CLI.
 */
#include <regex.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../checker.h"
#include "../fmt_impl.h"
#include "../index.h"
#include "../matcher.h"
#include "test.h"
#include "../source.h"
#include "testlib.h"

/* ------------------------------------------------------------------ */
/* parser                                                               */

static void parse_ok(const char *pat)
{
	struct rx re;
	struct pi_err err = { "" };

	if (rx_parse(&re, pat, strlen(pat), &err)) {
		T_FAIL("/%s/ rejected: %s", pat, err.msg);
		return;
	}
	T_PASS();
	rx_free(&re);
}

static void parse_bad(const char *pat, const char *msg)
{
	struct rx re;
	struct pi_err err = { "" };

	if (!rx_parse(&re, pat, strlen(pat), &err)) {
		T_FAIL("/%s/ accepted, expected \"%s\"", pat, msg);
		rx_free(&re);
		return;
	}
	CHECK_HAS(err.msg, msg);
}

static void test_parser(void)
{
	static const char *const good[] = {
		"", "a", "abc", "a|b", "a|", "|a", "(a)", "(?:a|b)c", "a*", "a+", "a?",
		"a{2}", "a{2,}", "a{2,5}", "a{,5}", "a{", "a{x}", "{", "x{2}?", "a*?",
		"a+?", "a??", "[abc]", "[^abc]", "[a-z0-9_]", "[]a]", "[^]a]", "[a-]",
		"[-a]", "[[:alpha:]]", "[[:digit:][:space:]]", "[\\d\\s]", "[\\]]",
		"\\d\\w\\s\\D\\W\\S", "\\b\\B", "^a$", "\\Aa\\z", "a\\Z", "(?i)abc",
		"(?i:a)b", "a(?i)b", "(?-i)a", "(?s).", "(?m)^a$", "(?U)a+", "(?P<n>a)",
		"(?<name>a)", "(?'q'a)", "\\.\\(\\)\\[\\]\\{\\}\\*\\+\\?\\|\\^\\$\\\\\\/",
		"\\t\\n\\r\\f\\v\\a\\e", "\\x41", "\\x{41}", "\\x{ff}", "\\Qa.b*\\E",
		"\\Qabc", "a\\-b", "a\\#b", "a\\ b", "a\\:b", "a\\=b", "((((a))))",
		"Out of memory: Killed process \\d+ \\((.+)\\)",
		"task [\\S ]+:\\w+ blocked for more than \\w+ seconds\\.",
		"BUG: unable to handle kernel NULL pointer dereference at .*",
		"\xc3\xa9t\xc3\xa9",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++)
		parse_ok(good[i]);
	parse_bad("(a)\\1", "back-reference \\1");
	parse_bad("\\k<n>", "back-reference");
	parse_bad("a(?=b)", "look-ahead");
	parse_bad("a(?!b)", "look-ahead");
	parse_bad("(?<=a)b", "look-behind");
	parse_bad("(?<!a)b", "look-behind");
	parse_bad("(?>a)", "atomic group");
	parse_bad("a*+", "possessive");
	parse_bad("a++", "possessive");
	parse_bad("a{2}+", "possessive");
	parse_bad("\\p{L}", "Unicode class \\p");
	parse_bad("\\PL", "Unicode class \\P");
	parse_bad("\\x{100}", "above 0xff");
	parse_bad("\\x4", "two hex digits");
	parse_bad("\\0", "octal");
	parse_bad("a**", "repeated quantifier");
	parse_bad("*a", "nothing to repeat");
	parse_bad("a|+", "nothing to repeat");
	parse_bad("(a", "missing )");
	parse_bad("a)", "unmatched )");
	parse_bad("[a", "missing ]");
	parse_bad("[z-a]", "range out of order");
	parse_bad("a{1001}", "above 1000");
	parse_bad("a{3,2}", "m > n");
	parse_bad("\\C", "unsupported escape \\C");
	parse_bad("\\G", "unsupported escape \\G");
	parse_bad("\\K", "unsupported escape \\K");
	parse_bad("\\q", "unsupported escape \\q");
	parse_bad("[\\q]", "unsupported escape");
	parse_bad("a\\", "trailing backslash");
	parse_bad("(?x)a", "unsupported group or flag");
	parse_bad("(?#c)a", "unsupported group or flag");
	parse_bad("[[:nope:]]", "unknown [:class:]");
	parse_bad("[[=a=]]", "collating");
	parse_bad("abc(?=x)", "offset 3:");
}

/* ------------------------------------------------------------------ */
/* conversions as automata vs the match model's validators              */

/* Whole-string match of an NFA by set simulation (no assertions). */
static bool nfa_full(const struct rx_nfa *a, const char *s, size_t n)
{
	bool *cur = calloc(a->n, 1), *nxt = calloc(a->n, 1), ok;
	uint32_t *stack = malloc(a->n * sizeof(*stack) * 2 + 8);
	size_t i;
	uint32_t k;

	/* closure of the start */
	{
		uint32_t sp = 0;

		stack[sp++] = a->start;
		while (sp) {
			uint32_t q = stack[--sp];

			if (cur[q])
				continue;
			cur[q] = true;
			if (a->st[q].op == RX_SPLIT) {
				stack[sp++] = a->st[q].out;
				stack[sp++] = a->st[q].out1;
			}
		}
	}
	for (i = 0; i < n; i++) {
		uint32_t sp = 0;

		memset(nxt, 0, a->n);
		for (k = 0; k < a->n; k++)
			if (cur[k] && a->st[k].op == RX_CLS &&
			    cls_has(a->cls[a->st[k].cls], (unsigned char)s[i]))
				stack[sp++] = a->st[k].out;
		while (sp) {
			uint32_t q = stack[--sp];

			if (nxt[q])
				continue;
			nxt[q] = true;
			if (a->st[q].op == RX_SPLIT) {
				stack[sp++] = a->st[q].out;
				stack[sp++] = a->st[q].out1;
			}
		}
		memcpy(cur, nxt, a->n);
	}
	ok = false;
	for (k = 0; k < a->n; k++)
		if (cur[k] && a->st[k].op == RX_MATCH)
			ok = true;
	free(cur);
	free(nxt);
	free(stack);
	return ok;
}

/*
 * Every string over a small alphabet up to maxlen bytes: check's automaton
 * of the conversion's model (rx.c) and the matcher's (ere.c, through
 * fmt_tok_accepts()) accept the same strings, and for a number, string
 * or char conversion exactly the strings the arithmetic does. Returns the
 * count of strings that differ (the first few are printed).
 */
static int tok_exhaustive(const struct fmt_tok *t, const char *what, const char *alphabet,
			  int maxlen, long *tried)
{
	bool arith = t->kind == TK_INT || t->kind == TK_STR || t->kind == TK_CHAR;
	struct rx_nfa a;
	struct sbuf re = { 0 };
	struct rx rx;
	struct pi_err err;
	char s[16];
	int idx[16], len, i, na = strlen(alphabet), bad = 0;

	fmt_tok_pattern(t, &re);
	if (rx_parse(&rx, re.p, re.len, &err)) {
		fprintf(stderr, "  %s: regex %s: %s\n", what, re.p, err.msg);
		sbuf_free(&re);
		return 1;
	}
	rx_nfa_init(&a);
	a.start = rx_compile_node(&a, rx.root, rx_add_match(&a));
	for (len = 0; len <= maxlen; len++) {
		memset(idx, 0, sizeof(idx));
		for (;;) {
			bool want, got, matcher;

			for (i = 0; i < len; i++)
				s[i] = alphabet[idx[i]];
			got = nfa_full(&a, s, len);
			matcher = fmt_tok_accepts(t, s, len);
			want = arith ? fmt_tok_layout_accepts(t, s, len) : matcher;
			(*tried)++;
			if ((want != got || matcher != got) && bad++ < 5)
				fprintf(stderr, "  %s on \"%.*s\": arithmetic %d, check %d, match %d\n",
					what, len, s, want, got, matcher);
			for (i = 0; i < len && ++idx[i] == na; i++)
				idx[i] = 0;
			if (i == len)
				break;
		}
	}
	rx_nfa_free(&a);
	rx_free(&rx);
	sbuf_free(&re);
	return bad;
}

static void conv_exhaustive(const char *format, const char *alphabet, int maxlen)
{
	struct fmt f;
	long tried = 0;
	int bad;

	fmt_compile(&f, format, strlen(format));
	if (f.ntok != 1 || f.tok[0].kind == TK_LIT) {
		T_FAIL("%s: not a single conversion", format);
		fmt_free(&f);
		return;
	}
	bad = tok_exhaustive(&f.tok[0], format, alphabet, maxlen, &tried);
	if (bad)
		T_FAIL("%s: %d of %ld strings differ", format, bad, tried);
	else
		T_PASS();
	fmt_free(&f);
}

static uint64_t xorshift(uint64_t *r)
{
	*r ^= *r << 13;
	*r ^= *r >> 7;
	*r ^= *r << 17;
	return *r;
}

/*
 * Strings shaped like renderings of t, around its shortest length: blanks,
 * a sign, a prefix, digits or letters, blanks, made exactly t->min to
 * t->min + 3 bytes long. The exhaustive strings above are too short for a
 * conversion whose every rendering is longer ("%016llx", "%-15s"). The
 * same three readings must agree; returns the count that do not.
 */
static int tok_sampled(const struct fmt_tok *t, const char *what, int count, long *tried,
		       long *accepted)
{
	static const char *const heads[] = { "", "", " ", "-", "+", "0x", "0X", "0", "- " };
	const char *body = t->kind == TK_INT ? (t->upper ? "0019AF " : "0017af ") : "ab ";
	struct rx_nfa a;
	struct sbuf re = { 0 };
	struct rx rx;
	struct pi_err err;
	uint64_t r = 0x9e3779b97f4a7c15ULL ^ t->min;
	char s[64];
	int i, bad = 0;

	fmt_tok_pattern(t, &re);
	if (t->min + 4 > sizeof(s) || rx_parse(&rx, re.p, re.len, &err)) {
		sbuf_free(&re);
		return 0;	/* the exhaustive check reports a bad pattern */
	}
	rx_nfa_init(&a);
	a.start = rx_compile_node(&a, rx.root, rx_add_match(&a));
	for (i = 0; i < count; i++) {
		size_t len = t->min + xorshift(&r) % 4, k = 0, lead = xorshift(&r) % 3;
		const char *h = heads[xorshift(&r) % ARRAY_SIZE(heads)];
		bool want, got, matcher;

		while (k < lead && k < len)
			s[k++] = ' ';
		while (*h && k < len)
			s[k++] = *h++;
		while (k < len)
			s[k++] = xorshift(&r) % 4 ? body[xorshift(&r) % strlen(body)] : '0';
		if (xorshift(&r) % 3 == 0 && len > 1)	/* trailing blanks */
			memset(s + len - 1 - xorshift(&r) % (len / 2 + 1), ' ', 1);
		got = nfa_full(&a, s, len);
		matcher = fmt_tok_accepts(t, s, len);
		want = fmt_tok_layout_accepts(t, s, len);
		(*tried)++;
		*accepted += want;
		if ((want != got || matcher != got) && bad++ < 5)
			fprintf(stderr, "  %s on \"%.*s\": arithmetic %d, check %d, match %d\n",
				what, (int)len, s, want, got, matcher);
	}
	rx_nfa_free(&a);
	rx_free(&rx);
	sbuf_free(&re);
	return bad;
}

/*
 * The same for every distinct conversion of a real kernel's index (the
 * shared defconfig one), over an alphabet that spells its layouts and
 * their mistakes: the models the index needs, not only the ones above.
 */
static void index_conversions(void)
{
	struct pi_index idx;
	struct pi_err err;
	struct matcher m;
	const struct fmt_tok **seen = NULL;
	size_t nseen = 0, j;
	long tried = 0, acc;
	int bad = 0, nconv = 0, nempty = 0;
	uint32_t k, i;

	pi_index_init(&idx);
	if (pi_load_source(&idx, t_sample, &err)) {
		T_MISSING("the shared sample index (set SHARED_DATA)");
		return;
	}
	matcher_build(&m, &idx);
	for (k = 0; k < m.nfmt; k++) {
		for (i = 0; i < m.fmts[k].ntok; i++) {
			const struct fmt_tok *t = &m.fmts[k].tok[i];
			char alpha[16];

			if (t->kind != TK_INT && t->kind != TK_STR && t->kind != TK_CHAR)
				continue;
			for (j = 0; j < nseen; j++)
				if (seen[j]->ere == t->ere && seen[j]->kind == t->kind &&
				    seen[j]->width == t->width && seen[j]->prec == t->prec &&
				    seen[j]->flags == t->flags)
					break;
			if (j < nseen)
				continue;
			seen = xreallocarray(seen, nseen + 1, sizeof(*seen));
			seen[nseen++] = t;
			nconv++;
			if (t->kind == TK_INT)
				snprintf(alpha, sizeof(alpha), " -+01%c%c",
					 t->base == 16 ? (t->upper ? 'F' : 'f') : '7',
					 t->upper ? 'X' : 'x');
			else
				strcpy(alpha, " ab");
			bad += tok_exhaustive(t, idx.v[m.ents[m.ent_start[k]]].fmt, alpha,
					      t->kind == TK_INT ? 5 : 6, &tried);
			acc = 0;
			bad += tok_sampled(t, idx.v[m.ents[m.ent_start[k]]].fmt, 20000, &tried, &acc);
			/* a sample that is all "no" compares nothing */
			if (!acc)
				fprintf(stderr, "  %s: no sampled string accepted\n",
					idx.v[m.ents[m.ent_start[k]]].fmt);
			nempty += !acc;
		}
	}
	/* the shared index has number, string and char conversions */
	CHECK(nconv > 50);
	CHECK_INT(nempty, 0);
	if (bad)
		T_FAIL("index conversions: %d of %ld strings differ", bad, tried);
	else
		T_PASS();
	free(seen);
	matcher_free(&m);
	pi_index_free(&idx);
}

/*
 * Which conversions get their model's automaton: every one a kernel
 * prints with (the largest, "%21Ld" and "%-45s", included), always as a
 * DFA; a model over 2,048 instructions or 1,024 states ("%-100d" and
 * wider, "%*.300s") is answered by the arithmetic, exactly, at the cost
 * of the span's length.
 */
static void model_limits(void)
{
	static const struct { const char *fmt; bool automaton; } convs[] = {
		{ "%d", true }, { "%016llx", true }, { "%-20s", true }, { "%#010x", true },
		{ "%21Ld", true }, { "%-45s", true }, { "%#018Lx", true },
		{ "%-100d", false }, { "%300d", false }, { "%-300d", false },
		{ "%*.300s", false }, { "%.8333lx", false },
	};
	char span[400];
	struct fmt f;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(convs); i++) {
		fmt_compile(&f, convs[i].fmt, strlen(convs[i].fmt));
		if (convs[i].automaton)
			CHECK(f.tok[0].ere && f.tok[0].ere->dfa);
		else
			CHECK(!f.tok[0].ere);
		fmt_free(&f);
	}
	/* past the memory budget a new spec has no automaton, and the
	 * arithmetic answers it */
	{
		size_t old = fmt_conv_budget(0);

		fmt_compile(&f, "%-77.3hx", 8);
		CHECK(!f.tok[0].ere);
		CHECK(fmt_tok_accepts(&f.tok[0], "0ff", 3) == false);
		memset(span, ' ', 77);
		memcpy(span, "0ff", 3);
		CHECK(fmt_tok_accepts(&f.tok[0], span, 77));
		fmt_free(&f);
		fmt_conv_budget(old);
	}
	/* "%-300d": the digits, then blanks to exactly 300 */
	fmt_compile(&f, "%-300d", 6);
	memset(span, ' ', sizeof(span));
	memcpy(span, "-42", 3);
	CHECK(fmt_tok_accepts(&f.tok[0], span, 300));
	CHECK(!fmt_tok_accepts(&f.tok[0], span, 299));
	CHECK(!fmt_tok_accepts(&f.tok[0], span, 301));
	memcpy(span, "042", 3);	/* a leading zero number() never prints */
	CHECK(!fmt_tok_accepts(&f.tok[0], span, 300));
	fmt_free(&f);
}

static void test_conversions(void)
{
	static const char *const ints[] = {
		"%d", "%i", "%u", "%x", "%X", "%o", "%hhd", "%hhu", "%hx", "%lx",
		"%5d", "%-5d", "%05d", "%+d", "% d", "%+5d", "% 5d", "%-+4d", "%- 4d",
		"%+05d", "% 05d", "%#x", "%#X", "%#o", "%#5x", "%#05x", "%#-6x",
		"%.3d", "%.0d", "%5.3d", "%-5.3d", "%05.3d", "%.3x", "%#.3o",
		"%*d", "%-*d", "%0*d", "%.*d", "%*.*d", "%*x", "%0*x", "%+*d", "% *d",
		"%2hhx", "%02hhx", "%3hhu", "%-3hhu", "%.5hhu", "%04hx", "%#04hx",
		"%1d", "%0d", "%-0d", "%+.0d", "% .2d", "%#.0o",
	};
	static const char *const strs[] = {
		"%5s", "%-5s", "%.3s", "%5.3s", "%-5.3s", "%3.5s", "%.0s", "%0s",
		"%*.3s", "%-*.2s", "%2.*s", "%.*s", "%s",
		"%c", "%3c", "%-3c", "%*c", "%1c",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ints); i++) {
		conv_exhaustive(ints[i], " -+0179afxAX", 4);
		conv_exhaustive(ints[i], " -+01", 6);
	}
	for (i = 0; i < ARRAY_SIZE(strs); i++)
		conv_exhaustive(strs[i], " ab", 6);
	/* the %p models are the match model's own EREs */
	conv_exhaustive("%pM", "0a:-", 5);
	conv_exhaustive("%pI4", "019.", 8);
	conv_exhaustive("%pe", "-E0N1", 5);
	conv_exhaustive("%5p", " 0af", 6);
	index_conversions();
	model_limits();
}

/* ------------------------------------------------------------------ */
/* rule x format, by hand                                               */

struct pair {
	const char *rule;
	const char *format;
	char mode;	/* 's' search, 'w' whole (--anchored), 'e' suffix (NPD) */
	char want;	/* 'S' strong, 'W' weak, 'N' none */
};

static const struct pair pairs[] = {
	/* the issue's examples */
	{ "Out of memory: Killed process \\d+", "%s: Killed process %d (%s) total-vm:%lukB\n", 's', 'S' },
	{ "Out of memory: Killed process \\d+", "Out of memory: Killed process %d (%s)\n", 's', 'S' },
	{ "CPU on fire", "%s\n", 's', 'W' },
	{ "CPU on fire", "%s %s: %pV", 's', 'W' },
	{ "CPU on fire", "CPU %d on fire\n", 's', 'N' },
	{ "CPU on fire", "CPU on fire\n", 's', 'S' },
	{ "CPU on fire", "CPU%s\n", 's', 'W' },
	{ "CPU on fire", "CPU on%s\n", 's', 'S' },
	{ "CPU on fire", "cpu on fire\n", 's', 'N' },
	{ "(?i)CPU on fire", "cpu on fire\n", 's', 'S' },
	/* %d: negative numbers, never "-0", never "+" without the flag */
	{ "x -5", "x %d\n", 's', 'S' },
	{ "x --5", "x %d\n", 's', 'N' },
	{ "x -0\\b", "x %d\n", 's', 'N' },
	{ "x -0", "x %d\n", 's', 'N' },		/* no leading zeros, no "-0" */
	{ "x \\+5", "x %d\n", 's', 'N' },
	{ "x \\+5", "x %+d\n", 's', 'S' },
	{ "x +5", "x %d\n", 's', 'S' },		/* " +" is one or more blanks */
	{ "x  5", "x %d\n", 's', 'N' },
	{ "x  5", "x % d\n", 's', 'S' },
	{ "x -5", "x %u\n", 's', 'N' },
	{ "^n=-?\\d+$", "n=%d\n", 's', 'S' },
	{ "^n=\\d{11}$", "n=%d\n", 's', 'N' },
	{ "^n=\\d{10}$", "n=%d\n", 's', 'S' },
	{ "^n=\\d{20}$", "n=%llu\n", 's', 'S' },
	{ "^n=\\d{21}$", "n=%llu\n", 's', 'N' },
	{ "^n=\\d{4}$", "n=%hhu\n", 's', 'N' },
	{ "^n=256$", "n=%hhu\n", 's', 'W' },	/* the model bounds digits, not values */
	{ "^n=007$", "n=%d\n", 's', 'N' },
	{ "^n=007$", "n=%03d\n", 's', 'W' },
	{ "^n=007$", "n=%.3d\n", 's', 'W' },
	{ "^n=  7$", "n=%3d\n", 's', 'W' },
	{ "^n=7  $", "n=%-3d\n", 's', 'W' },
	{ "^n=7  $", "n=%3d\n", 's', 'N' },
	{ "^n= 7$", "n=%3d\n", 's', 'N' },
	{ "^n=1234$", "n=%3d\n", 's', 'W' },
	{ "^n=-07$", "n=%03d\n", 's', 'W' },
	{ "^n=0-7$", "n=%03d\n", 's', 'N' },
	/* %x never prints 'g', %X no lower case, %#x its prefix */
	{ "val g", "val %x\n", 's', 'N' },
	{ "val ff", "val %x\n", 's', 'S' },
	{ "val FF", "val %x\n", 's', 'N' },
	{ "val FF", "val %X\n", 's', 'S' },
	{ "^val 0xff$", "val %#x\n", 's', 'S' },
	{ "^val ff$", "val %#x\n", 's', 'N' },
	{ "^val 0Xff$", "val %#x\n", 's', 'N' },
	{ "^val 0x0$", "val %#x\n", 's', 'S' },
	{ "^val 0$", "val %#o\n", 's', 'S' },
	{ "^val 017$", "val %#o\n", 's', 'S' },
	{ "^val 8$", "val %o\n", 's', 'N' },
	{ "^id=0000001f$", "id=%08x\n", 's', 'W' },
	{ "^id=1f$", "id=%08x\n", 's', 'N' },
	{ "^id=123456789$", "id=%08x\n", 's', 'N' },
	{ "^id=123456789$", "id=%08lx\n", 's', 'W' },
	{ "^v=1    \\|$", "v=%-5d|\n", 's', 'W' },
	{ "^v=    1\\|$", "v=%-5d|\n", 's', 'N' },
	{ "^v=    1\\|$", "v=%5d|\n", 's', 'W' },
	{ "^v=1 \\|$", "v=%*d|\n", 's', 'S' },
	{ "^v= 1\\|$", "v=%*d|\n", 's', 'S' },
	{ "^v=001\\|$", "v=%.*d|\n", 's', 'S' },
	/* %s width pads, precision truncates */
	{ "x   ab", "x%5s\n", 's', 'W' },
	{ "^x   ab$", "x%5s\n", 's', 'W' },
	{ "^xab$", "x%5s\n", 's', 'N' },
	{ "^xabcdef$", "x%5s\n", 's', 'W' },
	{ "^xab   $", "x%-5s\n", 's', 'W' },
	{ "^xabcd$", "x%.3s\n", 's', 'N' },
	{ "^xabc$", "x%.3s\n", 's', 'W' },
	{ "^x$", "x%.3s\n", 's', 'S' },
	{ "^x  ab$", "x%4.2s\n", 's', 'W' },
	{ "^x abc$", "x%4.2s\n", 's', 'N' },
	{ "^xabcd$", "x%4.2s\n", 's', 'N' },
	{ "^name=abcdefghij;$", "name=%.8s;\n", 's', 'N' },
	{ "^name=abcdefgh;$", "name=%.8s;\n", 's', 'W' },
	/* %c prints any byte, padded */
	{ "c=\\x01", "c=%c\n", 's', 'S' },
	{ "^c=ab$", "c=%c\n", 's', 'N' },
	{ "^c=  a$", "c=%3c\n", 's', 'W' },
	{ "^c= a$", "c=%3c\n", 's', 'N' },
	{ "^c=a  $", "c=%-3c\n", 's', 'W' },
	{ "^c=\\n$", "c=%c\n", 's', 'N' },	/* a line holds no newline */
	/* %p models */
	{ "mac 52:54:00:12:34:56", "mac %pM\n", 's', 'W' },
	{ "^mac 52-54$", "mac %pM\n", 's', 'N' },
	{ "^mac 52-54-00-12-34-56$", "mac %pMF\n", 's', 'W' },
	{ "^mac \\(null\\)$", "mac %pM\n", 's', 'W' },
	{ "^ip 10\\.0\\.0\\.1$", "ip %pI4\n", 's', 'W' },
	{ "^ip 1000\\.0\\.0\\.1$", "ip %pI4\n", 's', 'N' },
	{ "^err -ENOMEM$", "err %pe\n", 's', 'W' },
	{ "^err -12$", "err %pe\n", 's', 'S' },
	{ "^err ENOMEM$", "err %pe\n", 's', 'N' },
	{ "^at foo\\+0x10/0x20$", "at %pS\n", 's', 'W' },
	{ "^at foo bar$", "at %pS\n", 's', 'N' },
	{ "^p=[0-9a-f]{16}$", "p=%p\n", 's', 'S' },
	{ "^p=[0-9a-f]{15}$", "p=%p\n", 's', 'N' },
	{ "^p=\\(____ptrval____\\)$", "p=%p\n", 's', 'W' },
	{ "anything at all here", "x %pV\n", 's', 'W' },
	{ "^uuid [0-9a-f-]{36}$", "uuid %pUb\n", 's', 'S' },
	{ "^uuid [0-9A-F-]{36}$", "uuid %pUb\n", 's', 'S' },	/* all digits */
	{ "^uuid [0-9A-F-]*[A-F][0-9A-F-]*$", "uuid %pUb\n", 's', 'N' },
	{ "^uuid [0-9A-F-]*[A-F][0-9A-F-]*$", "uuid %pUB\n", 's', 'S' },
	/* \b needs the bytes around it */
	{ "\\bfoo\\b", "xfoo %d\n", 's', 'N' },
	{ "\\bfoo\\b", "x foo %d\n", 's', 'S' },
	{ "\\bfoo\\b", "%sfoo bar\n", 's', 'S' },
	{ "\\Bfoo", "xfoo\n", 's', 'S' },
	{ "\\Bfoo", "foo\n", 's', 'N' },
	{ "foo\\b", "foo%d\n", 's', 'S' },	/* "foo-1" */
	{ "foo\\b", "foo%u\n", 's', 'N' },
	{ "foo\\b", "foo%x\n", 's', 'N' },
	{ "foo\\b", "foo\n", 's', 'S' },
	{ "foo\\B", "foo\n", 's', 'N' },
	{ "foo\\B", "foo%u\n", 's', 'S' },
	{ "\\b-1", "a-%d\n", 's', 'S' },		/* a word byte, then '-' */
	{ "\\b-1", "a -%d\n", 's', 'N' },
	{ "\\b\\b\\bab\\b", "ab\n", 's', 'S' },
	{ "a\\bb", "ab\n", 's', 'N' },
	{ "a\\b b", "a b\n", 's', 'S' },
	/* anchors */
	{ "^abc", "xabc\n", 's', 'N' },
	{ "^abc", "abc%d\n", 's', 'S' },
	{ "^abc", "%sabc\n", 's', 'S' },
	{ "abc$", "abc%d\n", 's', 'N' },
	{ "abc$", "abc%s\n", 's', 'S' },
	{ "abc$", "abc", 's', 'S' },
	{ "^$", "%s\n", 's', 'W' },
	{ "^$", "\n", 's', 'W' },
	{ "^$", "x\n", 's', 'N' },
	{ "a^b", "ab\n", 's', 'N' },
	{ "\\Aabc\\z", "abc\n", 's', 'S' },
	/* alternation, classes, repetition */
	{ "foo|bar", "bar %d\n", 's', 'S' },
	{ "foo|barbaz", "bar %d\n", 's', 'N' },
	{ "(foo|bar)baz", "xbarbaz\n", 's', 'S' },
	{ "[0-9]{3}ms", "took %dms\n", 's', 'S' },
	{ "[0-9]{3}ms", "took %xms\n", 's', 'S' },
	{ "[0-9]{3}ms", "took %cms\n", 's', 'N' },
	{ "^\\d+$", "%d\n", 's', 'W' },		/* no literal: never strong */
	{ "\\d{21}", "%lo\n", 's', 'W' },
	{ "\\d{21}", "%lu\n", 's', 'N' },
	{ "a.*?b", "a%sb\n", 's', 'S' },
	{ "a.+b", "ab\n", 's', 'N' },
	{ "a.+b", "a%cb\n", 's', 'S' },
	{ "a.{2}b", "a%cb\n", 's', 'N' },
	{ "a.{2}b", "a%2cb\n", 's', 'S' },
	{ "(ab){2}", "abab\n", 's', 'S' },
	{ "(ab){3}", "abab\n", 's', 'N' },
	{ "(ab)+c", "ab%sc\n", 's', 'S' },
	{ "x{0}y", "y\n", 's', 'S' },
	{ "\\x41BC", "ABC\n", 's', 'S' },
	{ "a\\.b", "a.b\n", 's', 'S' },
	{ "a\\.b", "axb\n", 's', 'N' },
	{ "a.b", "axb\n", 's', 'S' },
	{ "a\\tb", "a\tb\n", 's', 'S' },
	{ "a\\sb", "a\tb\n", 's', 'S' },
	{ "a\\Sb", "a b\n", 's', 'N' },
	{ "a\\wb", "a_b\n", 's', 'S' },
	{ "a\\Wb", "a_b\n", 's', 'N' },
	{ "a\\Db", "a5b\n", 's', 'N' },
	{ "a[[:digit:]]b", "a5b\n", 's', 'S' },
	{ "a[^0-9]b", "a%db\n", 's', 'N' },	/* "a-b"? no: %d needs a digit */
	{ "(?:Out|out) of memory", "Out of memory\n", 's', 'S' },
	{ "\\Q1+1=2\\E", "1+1=2\n", 's', 'S' },
	{ "(?i)ERROR", "Error %d\n", 's', 'S' },
	{ "(?i:e)RROR", "eRROR\n", 's', 'S' },
	{ "(?i:e)RROR", "Error\n", 's', 'N' },
	/* the message is the first line of the format, without newline */
	{ "first line", "first line\nsecond line\n", 's', 'S' },
	{ "second line", "first line\nsecond line\n", 's', 'N' },
	{ "end$", "the end\n", 's', 'S' },
	/* --anchored: the whole message */
	{ "abc", "abc\n", 'w', 'S' },
	{ "abc", "abcd\n", 'w', 'N' },
	{ "abc", "xabc\n", 'w', 'N' },
	{ "abc.*", "abcd\n", 'w', 'S' },
	{ "Killed process \\d+", "Killed process %d (%s)\n", 'w', 'N' },
	{ "Killed process \\d+.*", "Killed process %d (%s)\n", 'w', 'S' },
	{ "x", "%s\n", 'w', 'W' },
	{ "x", "%c\n", 'w', 'W' },
	{ "xy", "%c\n", 'w', 'N' },
	/* weak or none only: decided by the bitset reachability search */
	{ "x.*", "%s\n", 'w', 'W' },
	{ "x.*", "y%s\n", 'w', 'N' },
	{ "x\\d", "%s%d\n", 'w', 'W' },
	{ "x\\d", "%s%d.\n", 'w', 'N' },
	{ "x.\\d", "%s%c%d\n", 's', 'W' },
	{ "x.\\d", "%s%c\n", 's', 'W' },	/* %s prints all of it */
	{ "xa\\d", "%.1s%c%d\n", 's', 'W' },
	{ "xa\\d", "%.1s%c%d%.1s\n", 's', 'W' },
	{ "xa\\dy", "%.1s%c%d%.1s\n", 's', 'W' },
	{ "xa\\dyz", "%.1s%c%d%.1s\n", 's', 'N' },
	/* node-problem-detector: up to the end of the message */
	{ "bar", "foo bar\n", 'e', 'S' },
	{ "foo", "foo bar\n", 'e', 'N' },
	{ "foo.*", "foo bar\n", 'e', 'S' },
	{ "Killed process \\d+ \\(.+\\)", "Killed process %d (%s)\n", 'e', 'S' },
	{ "Killed process \\d+", "Killed process %d (%s)\n", 'e', 'N' },
	/* real 6.1 formats */
	{ "EXT4-fs \\(\\w+\\): mounted filesystem", "EXT4-fs (%s): mounted filesystem %pU with%s. Quota mode: %s.\n", 's', 'S' },
	{ "EXT4-fs error \\(device \\w+\\)", "EXT4-fs error (device %s): %s:%d: inode #%lu: comm %s: %pV\n", 's', 'S' },
	{ "Kernel panic - not syncing", "Kernel panic - not syncing: %s\n", 's', 'S' },
	{ "Kernel panic - not syncing: Out of memory", "Kernel panic - not syncing: %s\n", 's', 'S' },
	{ "Kernel panic - not syncing: Out of memory and no killable processes",
	  "Kernel panic - not syncing: %s\n", 's', 'W' },
	{ "BUG: unable to handle page fault for address: [0-9a-f]+", "BUG: unable to handle page fault for address: %px\n", 's', 'S' },
	{ "BUG: unable to handle page fault for address: [0-9a-f]{17}", "BUG: unable to handle page fault for address: %px\n", 's', 'N' },
	{ "e1000: eth\\d: e1000_probe", "%s %s: %pV", 's', 'W' },
	{ "NETDEV WATCHDOG: \\S+ \\(\\S+\\): transmit queue \\d+ timed out",
	  "NETDEV WATCHDOG: %s (%s): transmit queue %u timed out\n", 's', 'S' },
	{ "NETDEV WATCHDOG: \\S+ \\(\\S+\\): transmit queue \\d+ timed out",
	  "NETDEV WATCHDOG: %s (%s): transmit queue %u timed out %u ms\n", 's', 'S' },
	{ "NETDEV WATCHDOG: \\S+ \\(\\S+\\): transmit queue \\d+ timed out$",
	  "NETDEV WATCHDOG: %s (%s): transmit queue %u timed out %u ms\n", 's', 'N' },
	{ "Memory cgroup out of memory: Killed process \\d+",
	  "%s: Killed process %d (%s) total-vm:%lukB\n", 's', 'W' },	/* 17 of 44 */
	{ "Memory cgroup out of memory: Killed process \\d+",
	  "Memory cgroup out of memory: OOM victim %d (%s) is already exiting\n", 's', 'W' },
	{ "hung_task: blocked tasks", "INFO: task %s:%d blocked for more than %ld seconds.\n", 's', 'W' },
	{ "hung_task: blocked tasks", "INFO: task %d blocked for more than %ld seconds.\n", 's', 'N' },
	{ "task \\S+:\\d+ blocked for more than \\d+ seconds\\.",
	  "INFO: task %s:%d blocked for more than %ld seconds.\n", 's', 'S' },
	{ "task \\S+:\\d+ blocked for more than \\d+ seconds\\.",
	  "INFO: task %s:%d blocked for more than %ld seconds\n", 's', 'W' },	/* '.' from %s */
	{ "task \\S+:\\d+ blocked for more than \\d+ seconds\\.",
	  "INFO: task %d:%d blocked for more than %ld seconds\n", 's', 'N' },
	{ "blocked for more than \\d+ seconds",
	  "INFO: task %s:%d blocked for more than %ld seconds.\n", 's', 'S' },
	{ "soft lockup - CPU#\\d+ stuck for \\d+s!",
	  "watchdog: BUG: soft lockup - CPU#%d stuck for %us! [%s:%d]\n", 's', 'S' },
	{ "soft lockup - CPU#\\d+ stuck for \\d+s!",
	  "BUG: soft lockup - CPU#%d stuck for %us!\n", 's', 'S' },
	{ "soft lockup - CPU#\\d+ stuck for \\d+s!",
	  "BUG: soft lockup - CPU#%x stuck for %ds!\n", 's', 'S' },
	{ "soft lockup - CPU#\\d+ stuck for \\d+s!",
	  "BUG: soft lockup - CPU#%c stuck for %us!\n", 's', 'S' },
	{ "soft lockup - CPU#\\d+ stuck for \\d+s!",
	  "BUG: soft lockup - CPU %d stuck for %us!\n", 's', 'N' },
	{ "I/O error, dev \\w+, sector \\d+",
	  "%s error, dev %s, sector %llu op 0x%x:(%s) flags 0x%x phys_seg %u prio class %u\n", 's', 'S' },
	{ "Buffer I/O error on dev \\S+, logical block \\d+",
	  "Buffer I/O error on dev %pg, logical block %llu%s\n", 's', 'S' },
	{ "XFS \\(\\w+\\): Corruption", "XFS (%s): Corruption of in-memory data detected.\n", 's', 'S' },
	{ "XFS \\(\\w+\\): Corruption", "%sXFS%s: %pV\n", 's', 'W' },
};

static const char *verdict_name(enum ck_verdict v)
{
	return v == CK_STRONG ? "strong" : v == CK_WEAK ? "weak" : "none";
}

static enum rx_mode mode_of(char c)
{
	return c == 'w' ? RX_WHOLE : c == 'e' ? RX_SUFFIX : RX_SEARCH;
}

/* The witness is printed by the format (match model) and matched by the
 * rule (regexec of its POSIX translation). Returns false with a message
 * otherwise. */
static bool witness_ok(const struct ck_rule *r, const struct fmt *f, const char *w,
		       size_t wn, char *why, size_t whylen)
{
	struct sbuf ere = { 0 }, full = { 0 };
	regex_t re;
	int rc;

	if (!w)
		w = "";		/* the empty message */
	if (fmt_match(f, w, wn) != FMT_FULL) {
		snprintf(why, whylen, "witness \"%s\" not printed by the format", w);
		return false;
	}
	if (memchr(w, 0, wn) || rx_to_posix(&r->re, &ere)) {
		sbuf_free(&ere);
		return true;	/* no faithful POSIX form: model check only */
	}
	if (r->mode == RX_WHOLE)
		sbuf_addc(&full, '^');
	sbuf_addc(&full, '(');
	sbuf_add(&full, ere.p, ere.len);
	sbuf_addc(&full, ')');
	if (r->mode != RX_SEARCH)
		sbuf_addc(&full, '$');
	rc = regcomp(&re, full.p, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		snprintf(why, whylen, "regcomp(%s) failed", full.p);
		sbuf_free(&ere);
		sbuf_free(&full);
		return false;
	}
	rc = regexec(&re, w, 0, NULL, 0);
	regfree(&re);
	if (rc)
		snprintf(why, whylen, "regexec(%s) rejects witness \"%s\"", full.p, w);
	sbuf_free(&ere);
	sbuf_free(&full);
	return rc == 0;
}

static void one_pair(struct ck_search *s, const struct pair *p, size_t *nwit)
{
	struct ck_rule r;
	struct pi_err err;
	struct fmt f;
	struct ck_format cf;
	struct ck_result res, res2;
	struct sbuf w = { 0 };
	char why[400];
	char got;

	if (ck_rule_init(&r, p->rule, strlen(p->rule), mode_of(p->mode), &err)) {
		T_FAIL("/%s/: %s", p->rule, err.msg);
		return;
	}
	fmt_compile(&f, p->format, strlen(p->format));
	ck_format_init(&cf, &f);
	ck_product(s, &r, &cf, &res, &w);
	got = res.v == CK_STRONG ? 'S' : res.v == CK_WEAK ? 'W' : 'N';
	if (got == p->want)
		T_PASS();
	else
		T_FAIL("/%s/ (%c) vs \"%s\": %s (W=%u, R=%u), expected %c", p->rule, p->mode,
		       p->format, verdict_name(res.v), res.w, r.R, p->want);
	/* the chunk-start bounds are at least the best W */
	if (res.v != CK_NONE && !res.budget && ck_bound_starts(&r, &cf, true) < res.w)
		T_FAIL("/%s/ vs \"%s\": chunk-start bound %u below W = %u", p->rule,
		       p->format, ck_bound_starts(&r, &cf, true), res.w);
	if (ck_bound_starts(&r, &cf, false) < ck_bound_starts(&r, &cf, true))
		T_FAIL("/%s/ vs \"%s\": cheap chunk-start bound %u below the exact %u",
		       p->rule, p->format, ck_bound_starts(&r, &cf, false),
		       ck_bound_starts(&r, &cf, true));
	/* the prefilters never change the answer */
	ck_check(s, &r, &cf, &res2, NULL);
	if (res2.v == res.v)
		T_PASS();
	else
		T_FAIL("/%s/ vs \"%s\": prefiltered %s, product %s", p->rule, p->format,
		       verdict_name(res2.v), verdict_name(res.v));
	if (res.v != CK_NONE) {
		if (witness_ok(&r, &f, w.p, w.len, why, sizeof(why))) {
			T_PASS();
			++*nwit;
		} else {
			T_FAIL("/%s/ vs \"%s\": %s", p->rule, p->format, why);
		}
	}
	sbuf_free(&w);
	ck_format_free(&cf);
	fmt_free(&f);
	ck_rule_free(&r);
}

static void test_pairs(void)
{
	struct ck_search *s = ck_search_new();
	size_t i, nwit = 0;
	uint64_t bits = ck_stat_bits;

	for (i = 0; i < ARRAY_SIZE(pairs); i++)
		one_pair(s, &pairs[i], &nwit);
	CHECK(nwit > ARRAY_SIZE(pairs) / 2);
	/* the cross-check with the product covered the bitset search */
	CHECK(ck_stat_bits > bits + 20);
	ck_search_free(s);
}

/* ------------------------------------------------------------------ */
/* the chunk-start bound                                                */

static void test_bound_starts(void)
{
	static const struct {
		const char *rule, *format;
		uint32_t cheap, exact;
		char want;
	} cases[] = {
		/* one chunk from the rule's run start */
		{ "CPU on fire", "CPU on fire\n", 11, 11, 'S' },
		/* must not prune: "x=" from the rule's start, " y" only from
		 * the format's start after %d; W = 4 >= K = 3, and without
		 * the format's starts the bound would be 2 */
		{ "x=12 y", "x=%d y\n", 4, 4, 'S' },
		/* prunes (K = 10) where counting shared pairs does not: " q",
		 * "qu", "ue"... are all there, but chunks can only be " " and
		 * ": " from the rule's runs, " " from the format's "%s %s" */
		{ " .*: output queue full", "%s %s: Unexpected TXQ (%d) queue failure: %d\n",
		  4, 4, 'W' },
		/* ": [drm] *ERROR* " starts a run in the rule, so the format's
		 * start after the first %s adds nothing: 16 < K = 21 */
		{ ": \\[drm\\] \\*ERROR\\* \\(-?\\d+\\) failed to wait for idle",
		  " %s: [drm] *ERROR* %s: command descriptions are not sorted\n", 16, 16, 'W' },
		/* only the exact one prunes (K = 24): ": [drm] *ERROR* Failed to
		 * allocate " is there, but "w" follows in the rule and "s" in
		 * the format, and no conversion lets the chunk end there */
		{ ": \\[drm\\] \\*ERROR\\* Failed to allocate workqueues\\.",
		  " %s: [drm] *ERROR* Failed to allocate scratch page\n", 35, 0, 'W' },
		/* must not prune: the chunk ends right before %s */
		{ ": \\[drm\\] \\*ERROR\\* Failed to allocate workqueues\\.",
		  " %s: [drm] *ERROR* Failed to allocate %s\n", 35, 35, 'S' },
		/* no sequence (unbounded repeat of a literal): no bound */
		{ "(ab)+c", "ab%sc\n", UINT32_MAX, UINT32_MAX, 'S' },
	};
	struct ck_search *s = ck_search_new();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ck_rule r;
		struct pi_err err;
		struct fmt f;
		struct ck_format cf;
		struct ck_result a, b;
		uint32_t cheap, exact;
		uint64_t dp;

		if (ck_rule_init(&r, cases[i].rule, strlen(cases[i].rule), RX_SEARCH, &err)) {
			T_FAIL("/%s/: %s", cases[i].rule, err.msg);
			continue;
		}
		fmt_compile(&f, cases[i].format, strlen(cases[i].format));
		ck_format_init(&cf, &f);
		cheap = ck_bound_starts(&r, &cf, false);
		exact = ck_bound_starts(&r, &cf, true);
		if (cheap == cases[i].cheap && exact == cases[i].exact)
			T_PASS();
		else
			T_FAIL("/%s/ vs \"%s\": chunk-start bounds %u, %u, expected %u, %u",
			       cases[i].rule, cases[i].format, cheap, exact,
			       cases[i].cheap, cases[i].exact);
		ck_product(s, &r, &cf, &b, NULL);
		dp = ck_stat_dp;
		ck_check(s, &r, &cf, &a, NULL);
		CHECK(a.v == b.v);
		CHECK("NWS"[b.v] == cases[i].want);
		/* a pruned pair never reaches the alignment DP */
		if (r.K != RX_INF && exact < r.K)
			CHECK(ck_stat_dp == dp);
		fmt_free(&f);
		ck_format_free(&cf);
		ck_rule_free(&r);
	}
	ck_search_free(s);
}

/* ------------------------------------------------------------------ */
/* prefilters vs the product on the sample index                        */

static void test_prefilter_sample(void)
{
	static const char *const rules[] = {
		"Out of memory: Killed process \\d+",
		"ACPI: .* failed",
		"(?i)error",
		"PCI: .*bus \\d+",
		"\\bEXT4-fs\\b",
		"^e1000",
		"timed out$",
		"[0-9a-f]{8}",
		"x86/fpu: Supporting XSAVE feature 0x\\d+",
		"Kernel command line: .*",
		"clocksource: Switched to clocksource \\w+",
		"no such thing anywhere",
	};
	struct pi_index idx;
	struct pi_err err;
	struct matcher m;
	struct ck_set set;
	struct ck_search *s;
	size_t i, fi, bad = 0, pairs_n = 0, witnessed = 0;
	uint64_t bits = ck_stat_bits;

	pi_index_init(&idx);
	if (pi_load_source(&idx, t_sample, &err)) {
		T_MISSING(err.msg);
		pi_index_free(&idx);
		return;
	}
	matcher_build(&m, &idx);
	ck_set_init(&set, m.fmts, m.nfmt);
	s = ck_search_new();
	for (i = 0; i < ARRAY_SIZE(rules); i++) {
		struct ck_rule r;

		if (ck_rule_init(&r, rules[i], strlen(rules[i]), RX_SEARCH, &err)) {
			T_FAIL("%s: %s", rules[i], err.msg);
			continue;
		}
		/* the command's path: the set's pair index, packed summaries */
		ck_set_prepare(&set, &r);
		for (fi = i % 7; fi < m.nfmt; fi += 7) {
			struct ck_result a, b;
			struct sbuf w = { 0 };
			char why[400];

			ck_check_set(s, &r, &set, fi, &a, NULL);
			ck_product(s, &r, &set.cf[fi], &b, &w);
			pairs_n++;
			if (a.v != b.v && bad++ < 10)
				fprintf(stderr, "  /%s/ vs \"%s\": prefiltered %s, product %s\n",
					rules[i], idx.v[m.ents[m.ent_start[fi]]].fmt,
					verdict_name(a.v), verdict_name(b.v));
			if (b.v != CK_NONE && !b.budget &&
			    ck_bound_starts(&r, &set.cf[fi], true) < b.w && bad++ < 10)
				fprintf(stderr, "  /%s/ vs \"%s\": chunk-start bound %u below W = %u\n",
					rules[i], idx.v[m.ents[m.ent_start[fi]]].fmt,
					ck_bound_starts(&r, &set.cf[fi], true), b.w);
			if (ck_bound_starts(&r, &set.cf[fi], false) <
			    ck_bound_starts(&r, &set.cf[fi], true) && bad++ < 10)
				fprintf(stderr, "  /%s/ vs \"%s\": cheap chunk-start bound below the exact\n",
					rules[i], idx.v[m.ents[m.ent_start[fi]]].fmt);
			if (b.v == CK_STRONG) {
				if (witness_ok(&r, &m.fmts[fi], w.p, w.len, why, sizeof(why)))
					witnessed++;
				else if (bad++ < 10)
					fprintf(stderr, "  /%s/: %s\n", rules[i], why);
			}
			sbuf_free(&w);
		}
		ck_rule_free(&r);
	}
	if (bad)
		T_FAIL("prefilter/witness disagreements on the sample: %zu of %zu pairs", bad, pairs_n);
	else
		T_PASS();
	CHECK(witnessed > 10);
	/* many of the "any match" searches were bitset ones */
	CHECK(ck_stat_bits > bits + 100);
	ck_search_free(s);
	ck_set_free(&set);
	matcher_free(&m);
	pi_index_free(&idx);
}

/* ------------------------------------------------------------------ */
/* the command                                                          */

static int run(const char *cmd, char *out, size_t outlen)
{
	FILE *p = popen(cmd, "r");
	size_t n;
	int st;

	if (!p)
		return -1;
	n = fread(out, 1, outlen - 1, p);
	out[n] = 0;
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

#define SAMPLE_MOD "x86_64_defconfig-6.1.192-vmlinux.printk_index"
#define DATA "tests/data/"

/* The lines of out that start a rule (no leading blank), in order. */
static void verdict_lines(const char *out, char *dst, size_t n)
{
	const char *l;
	size_t len = 0;

	dst[0] = 0;
	for (l = out; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		const char *e = strchr(l, '\n');
		size_t ll = e ? (size_t)(e - l) + 1 : strlen(l);

		if (*l == ' ' || len + ll >= n)
			continue;
		memcpy(dst + len, l, ll);
		len += ll;
		dst[len] = 0;
	}
}

/*
 * node-problem-detector's own rules file, as shipped, against the stock
 * 6.1 defconfig index: every rule's verdict, the evidence of each kind.
 */
static void test_cli_npd(void)
{
	static const char verdicts[] =
		DATA "kernel-monitor.json:29 OOMKilling live: Killed process \\d+ (.+) total-vm:\\d+kB, anon-rss:\\d+kB, file-rss:\\d+kB.*\n"
		DATA "kernel-monitor.json:34 TaskHung unknown: task [\\S ]+:\\w+ blocked for more than \\w+ seconds\\.\n"
		DATA "kernel-monitor.json:39 UnregisterNetDevice live: unregister_netdevice: waiting for \\w+ to become free. Usage count = \\d+\n"
		DATA "kernel-monitor.json:44 KernelOops stale: BUG: unable to handle kernel NULL pointer dereference at .*\n"
		DATA "kernel-monitor.json:49 KernelOops live-by-arguments: divide error: 0000 \\[#\\d+\\] SMP\n"
		DATA "kernel-monitor.json:54 Ext4Error live: EXT4-fs error .*\n"
		DATA "kernel-monitor.json:59 Ext4Warning live: EXT4-fs warning .*\n"
		DATA "kernel-monitor.json:64 IOError live: Buffer I/O error .*\n"
		DATA "kernel-monitor.json:70 XfsHasShutdown unknown: XFS .* Shutting down filesystem.?\n"
		DATA "kernel-monitor.json:75 MemoryReadError unknown: CE memory read error .*\n"
		DATA "kernel-monitor.json:81 DockerHung unknown: task docker:\\w+ blocked for more than \\w+ seconds\\.\n"
		DATA "kernel-monitor.json:87 FilesystemIsReadOnly unknown: Remounting filesystem read-only\n"
		"printk-index: 12 rules: 5 live, 1 live-by-arguments, 5 unknown, 1 stale\n";
	static char out[1 << 20], lines[8192];
	char cmd[1024];

	if (access(t_sample, R_OK) || access(t_binary, X_OK) || access(DATA "kernel-monitor.json", R_OK)) {
		T_MISSING("the shared sample, ./printk-index or " DATA "kernel-monitor.json");
		return;
	}
	snprintf(cmd, sizeof(cmd), "%s check --index %s " DATA "kernel-monitor.json 2>&1",
		 t_binary, t_sample);
	CHECK_INT(run(cmd, out, sizeof(out)), 1);
	verdict_lines(out, lines, sizeof(lines));
	CHECK_STR(lines, verdicts);
	/* stale, with the reworded message first */
	CHECK_HAS(out, "kernel-monitor.json:44 KernelOops stale: BUG: unable to handle kernel NULL pointer dereference at .*\n"
		  "    reworded: the first format below has 5 of the rule's words, in order\n"
		  "    did you mean " SAMPLE_MOD " <1> arch/x86/mm/fault.c:554 show_fault_oops \"BUG: kernel NULL pointer dereference, address: %px\\n\"\n"
		  "    did you mean " SAMPLE_MOD " <1> arch/x86/mm/fault.c:557 show_fault_oops \"BUG: unable to handle page fault for address: %px\\n\"\n");
	/* by arguments: the format and what its arguments print */
	CHECK_HAS(out, "kernel-monitor.json:49 KernelOops live-by-arguments: divide error: 0000 \\[#\\d+\\] SMP\n"
		  "    by arguments " SAMPLE_MOD " <-1> arch/x86/kernel/dumpstack.c:425 __die_header \"%s: %04lx [#%d]%s%s%s%s%s\\n\"\n"
		  "        e.g. \"divide error: 0000 [#1] SMP\", the arguments printing \"divide error\" \"0000\" \"1\" \" SMP\"\n"
		  DATA "kernel-monitor.json:54 ");
	/* live: at most three entries, then how many more */
	CHECK_HAS(out, "    live " SAMPLE_MOD " <2> fs/ext4/super.c:841 __ext4_error_file \"EXT4-fs error (device %s): %s:%d: inode #%lu: comm %s: path %s: %pV\\n\" 14/14\n"
		  "    and 5 more live entries (-v lists them)\n");
	/* unknown: the pass-through sites; ext4's helper among them */
	CHECK_HAS(out, "kernel-monitor.json:87 FilesystemIsReadOnly unknown: Remounting filesystem read-only\n"
		  "    through " SAMPLE_MOD " <-1> arch/x86/kernel/umip.c:131 umip_printk \"%sumip: %s[%d] ip:%lx sp:%lx: %pV\"\n");
	CHECK_HAS(out, "    (%pV: the caller's format is not in this index)\n"
		  "    through " SAMPLE_MOD " <-1> drivers/acpi/osl.c:170 acpi_os_vprintf \"%s\" (prints a buffer formatted elsewhere)\n"
		  "    and 31 more pass-through entries (-v lists them)\n"
		  "    did you mean " SAMPLE_MOD " <3> fs/fat/misc.c:39 __fat_fs_error \"%sFAT-fs (%s): Filesystem has been set read-only\"\n");
	/* no counts without -v */
	CHECK(!strstr(out, "weak"));
	CHECK(!strstr(out, "counts:"));

	snprintf(cmd, sizeof(cmd), "%s check -j --index %s " DATA "kernel-monitor.json 2>/dev/null",
		 t_binary, t_sample);
	CHECK_INT(run(cmd, out, sizeof(out)), 1);
	CHECK_HAS(out, "{\"module\":\"" SAMPLE_MOD "\",\"level\":-1,\"cont\":false,\"file\":\"fs/ext4/super.c\",\"line\":939,\"function\":\"__ext4_msg\",\"format\":\"%sEXT4-fs (%s): %pV\\n\"}");
	CHECK_HAS(out, "\"verdict\":\"live-by-arguments\"");
	CHECK_HAS(out, "\"arguments\":[\"divide error\",\"0000\",\"1\",\" SMP\"]");
	CHECK_HAS(out, "\"words_in_common\":5");

	/* -v: the counts and the weak entries (too many to read here) */
	snprintf(cmd, sizeof(cmd), "%s check -v --index %s " DATA "kernel-monitor.json 2>/dev/null"
		 " | grep -m 2 -e '^    counts: ' -e '^    weak ' | cut -c 1-90",
		 t_binary, t_sample);
	CHECK_INT(run(cmd, out, sizeof(out)), 0);
	CHECK_STR(out, "    counts: 1 live, 0 by arguments, 5751 weak (33 of them pass-through), 0 undecided\n"
		  "    weak " SAMPLE_MOD " <3> init/main.c:1537 kernel_init \"D\n");

	/* the project's ext4 patch indexes ext4_msg()'s call sites: live */
	snprintf(cmd, sizeof(cmd), "%s check --index " DATA "ext4-patch-remount.printk_index "
		 DATA "kernel-monitor.json 2>&1", t_binary);
	run(cmd, out, sizeof(out));
	CHECK_HAS(out, "kernel-monitor.json:87 FilesystemIsReadOnly live: Remounting filesystem read-only\n"
		  "    live ext4-patch-remount.printk_index <2> fs/ext4/super.c:693 ext4_handle_error \"EXT4-fs (%s): Remounting filesystem read-only\\n\" 31/31\n");
}

/* One rule of each verdict, with its evidence, and the exit status. */
static void test_cli_verdicts(const char *path)
{
	static char out[1 << 18];
	char cmd[1024];

	write_file(path,
		   "oops\tdivide error: 0000 \\[#\\d+\\] PREEMPT SMP NOPTI\n"
		   "acpica\tACPI BIOS Error \\(bug\\): Could not resolve symbol \\[.*\\], AE_NOT_FOUND\n"
		   "oom\tKill process \\d+ (.+) score \\d+ or sacrifice child\n");
	snprintf(cmd, sizeof(cmd), "%s check --index %s %s 2>&1", t_binary, t_sample, path);
	CHECK_INT(run(cmd, out, sizeof(out)), 0);	/* unknown is not a failure */
	CHECK_HAS(out, ":1 oops live-by-arguments: divide error: 0000 \\[#\\d+\\] PREEMPT SMP NOPTI\n"
		  "    by arguments " SAMPLE_MOD " <-1> arch/x86/kernel/dumpstack.c:425 __die_header \"%s: %04lx [#%d]%s%s%s%s%s\\n\"\n"
		  "        e.g. \"divide error: 0000 [#1] PREEMPT SMP NOPTI\", the arguments printing \"divide error\" \"0000\" \"1\" \" PREEMPT SMP NOPTI\"\n");
	/* ACPICA's messages go through acpi_os_vprintf(): named first */
	CHECK_HAS(out, ":2 acpica unknown: ACPI BIOS Error \\(bug\\): Could not resolve symbol \\[.*\\], AE_NOT_FOUND\n"
		  "    through " SAMPLE_MOD " <-1> drivers/acpi/osl.c:170 acpi_os_vprintf \"%s\" (prints a buffer formatted elsewhere)\n");
	/* the pre-5.1 OOM message: its successor first, the lost word */
	CHECK_HAS(out, "    did you mean " SAMPLE_MOD " <3> mm/oom_kill.c:959 __oom_kill_process \"%s: Killed process %d (%s) total-vm:");
	CHECK_HAS(out, "    no format has the word sacrifice\n");
	CHECK_HAS(out, "printk-index: 3 rules: 0 live, 1 live-by-arguments, 2 unknown, 0 stale\n");
	/* check --help defines the verdicts */
	snprintf(cmd, sizeof(cmd), "%s check --help 2>&1", t_binary);
	CHECK_INT(run(cmd, out, sizeof(out)), 0);
	CHECK_HAS(out, "Usage: printk-index check [-j] [-v] [--strict] ");
	CHECK_HAS(out, "\n  live-by-arguments  a format with text of its own ");
	CHECK_HAS(out, "\n  unknown            only a pass-through can print it");
	CHECK_HAS(out, "\n  stale              none of these");
	/* --strict fails on unknown */
	snprintf(cmd, sizeof(cmd), "%s check --strict --index %s %s 2>&1", t_binary, t_sample, path);
	CHECK_INT(run(cmd, out, sizeof(out)), 1);

	/* anchored to the start: no pass-through prints it there: stale,
	 * and the word no format has */
	write_file(path, "xfs\t^XFS \\(\\w+\\): Shutting down filesystem$\n");
	snprintf(cmd, sizeof(cmd), "%s check --index %s %s 2>&1", t_binary, t_sample, path);
	CHECK_INT(run(cmd, out, sizeof(out)), 1);
	CHECK_HAS(out, ":1 xfs stale: ^XFS \\(\\w+\\): Shutting down filesystem$\n"
		  "    did you mean " SAMPLE_MOD " <0> arch/x86/kernel/smp.c:213 native_stop_other_cpus \"Shutting down cpus with NMI\\n\"\n");
	CHECK_HAS(out, "    no format has the word xfs\n"
		  "printk-index: 1 rules: 0 live, 0 live-by-arguments, 0 unknown, 1 stale\n");
}

/*
 * The guarantee: a rule made from a message a guest really printed is
 * never stale against that kernel's own index. The messages: the serial
 * console of the project's default kernel up to "Run /init as init
 * process" (all kernel messages: nothing else runs yet); the index:
 * that vmlinux's, as printk-index extract read it.
 */
static void test_cli_real_messages(const char *path)
{
	static char out[1 << 20];
	char cmd[1024], line[2048];
	FILE *in = fopen(DATA "guest-default/boot.console", "r"), *rules = fopen(path, "w");
	int n = 0;

	if (!in || !rules || access(t_binary, X_OK)) {
		T_FAIL("cannot read " DATA "guest-default/boot.console or write %s", path);
		if (in)
			fclose(in);
		if (rules)
			fclose(rules);
		return;
	}
	while (fgets(line, sizeof(line), in)) {
		char *c;

		line[strcspn(line, "\r\n")] = 0;
		if (!line[0])
			continue;
		/* the line as a literal regex ("\#": not a comment line) */
		for (c = line; *c; c++) {
			if (strchr(".^$*+?()[]{}|\\", *c) || (c == line && *c == '#'))
				fputc('\\', rules);
			fputc(*c, rules);
		}
		fputc('\n', rules);
		n++;
	}
	fclose(in);
	fclose(rules);
	CHECK_INT(n, 103);
	snprintf(cmd, sizeof(cmd), "%s check --index " DATA "guest-default/vmlinux %s 2>&1",
		 t_binary, path);
	CHECK_INT(run(cmd, out, sizeof(out)), 0);
	CHECK(!strstr(out, " stale: "));
	/* most are proved live by a format */
	CHECK_HAS(out, "printk-index: 103 rules: 63 live, 29 live-by-arguments, 11 unknown, 0 stale\n");
}

/* Bad rules files: exit 2 with exactly this on stderr, nothing on stdout. */
static void expect_rules_error(const char *path, const char *want)
{
	char cmd[1024], out[4096];

	snprintf(cmd, sizeof(cmd), "%s check --index %s %s 2>&1", t_binary, t_sample, path);
	CHECK_INT(run(cmd, out, sizeof(out)), 2);
	CHECK_STR(out, want);
}

static void test_cli_bad_input(const char *dir, const char *path)
{
	char cmd[1024], want[1024], out[8192], bin[256];
	FILE *f;
	int i, rc;

	expect_rules_error("/dev/null", "printk-index: /dev/null: empty rules file\n");
	write_file(path, "\n  \r\n\t\n");
	snprintf(want, sizeof(want), "printk-index: %s: empty rules file\n", path);
	expect_rules_error(path, want);
	write_file(path, "# only a comment\n\n");
	snprintf(want, sizeof(want), "printk-index: %s: no rule in the file (only comments)\n", path);
	expect_rules_error(path, want);
	write_file(path, "{ \"plugin\": \"kmsg\", \"rules\": [] }\n");
	snprintf(want, sizeof(want), "printk-index: %s: no rule in the file (an empty \"rules\" array)\n", path);
	expect_rules_error(path, want);
	write_file(path, "{ \"rules\": [\n { \"reason\": \"A\", \"pattern\": \"x\" },\n"
		   " { \"type\": \"temporary\",\n   \"reason\": \"NoPattern\" } ] }\n");
	snprintf(want, sizeof(want), "printk-index: %s:3: rule NoPattern has no \"pattern\"\n", path);
	expect_rules_error(path, want);

	/* a binary file: five errors, bytes escaped, then the count */
	snprintf(bin, sizeof(bin), "%s/binary", dir);
	f = fopen(bin, "w");
	if (!f) {
		T_FAIL("cannot write %s", bin);
		return;
	}
	for (i = 0; i < 20; i++)
		fprintf(f, "\x7f" "ELF\x02%c\x01\n\xff\xfe\x01\t(a)\\1\n", 0);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s check --index %s %s 2>&1", t_binary, t_sample, bin);
	rc = run(cmd, out, sizeof(out));
	CHECK_INT(rc, 2);
	snprintf(want, sizeof(want), "printk-index: %s:1: NUL byte in the line (not a text file?)\n"
		 "printk-index: %s:2: rule \\xff\\xfe\\x01: offset 3: back-reference \\1 "
		 "is not supported (not a regular language)\n", bin, bin);
	CHECK(!strncmp(out, want, strlen(want)));
	snprintf(want, sizeof(want), "printk-index: %s:5: NUL byte", bin);
	CHECK_HAS(out, want);
	snprintf(want, sizeof(want), "printk-index: %s:6:", bin);
	CHECK(!strstr(out, want));
	CHECK_HAS(out, "printk-index: 40 errors in the rules, the first 5 shown\n");
	/* one line per error shown, and the count */
	for (rc = 0, i = 0; out[i]; i++)
		rc += out[i] == '\n';
	CHECK_INT(rc, 6);

	/* a pattern over the size limit is refused before it is parsed */
	f = fopen(path, "w");
	if (f) {
		fputs("huge\t", f);
		for (i = 0; i < 1 << 20; i++)
			fputs("(a|b)", f);
		fputc('\n', f);
		fclose(f);
	}
	snprintf(want, sizeof(want), "printk-index: %s:1: rule huge: pattern of 5242880 bytes, "
		 "over the limit of 8192\n", path);
	expect_rules_error(path, want);
	/* at the limit it is checked */
	f = fopen(path, "w");
	if (f) {
		fputs("limit\t", f);
		for (i = 0; i < 8192; i++)
			fputc('a', f);
		fputc('\n', f);
		fclose(f);
	}
	snprintf(cmd, sizeof(cmd), "%s check --index %s %s 2>&1", t_binary, t_sample, path);
	rc = run(cmd, out, sizeof(out));
	CHECK(!strstr(out, "over the limit"));
}

static void test_cli_check(void)
{
	char dir[] = "/tmp/pi-check-XXXXXX", cmd[1024], path[256], out[65536], want[4096];
	int rc;

	if (access(t_sample, R_OK) || access(t_binary, X_OK)) {
		T_MISSING("the shared sample or ./printk-index");
		return;
	}
	if (!mkdtemp(dir))
		return;
	snprintf(path, sizeof(path), "%s/rules", dir);
	write_file(path, "# comment\n"
		   "oom\tOut of memory: Killed process \\d+\n"
		   "\n"
		   "renamed\tKernel memory protection disabled, really\n");
	snprintf(cmd, sizeof(cmd), "%s check --index %s %s 2>&1", t_binary, t_sample, path);
	rc = run(cmd, out, sizeof(out));
	CHECK_INT(rc, 1);
	snprintf(want, sizeof(want),
		 "%s:2 oom live: Out of memory: Killed process \\d+\n"
		 "    live " SAMPLE_MOD " <3> mm/oom_kill.c:959 __oom_kill_process \"%%s: Killed process %%d (%%s) total-vm:%%lukB, anon-rss:%%lukB, file-rss:%%lukB, shmem-rss:%%lukB, UID:%%u pgtables:%%lukB oom_score_adj:%%hd\\n\" 17/30\n"
		 "%s:4 renamed stale: Kernel memory protection disabled, really\n"
		 "    reworded: the first format below has 4 of the rule's words, in order\n"
		 "    did you mean " SAMPLE_MOD " <6> init/main.c:1459 mark_readonly \"Kernel memory protection disabled.\\n\"\n",
		 path, path);
	CHECK(!strncmp(out, want, strlen(want)));
	CHECK_HAS(out, "printk-index: 2 rules: 1 live, 0 live-by-arguments, 0 unknown, 1 stale\n");

	snprintf(cmd, sizeof(cmd), "%s check --witness -j --index %s %s 2>/dev/null", t_binary, t_sample, path);
	rc = run(cmd, out, sizeof(out));
	CHECK_INT(rc, 1);
	CHECK_HAS(out, "\"verdict\":\"live\"");
	CHECK_HAS(out, "\"verdict\":\"stale\"");
	CHECK_HAS(out, "\"witness\":\"Out of memory: Killed process 1 ");
	CHECK_HAS(out, "\"witness_verified\":true");
	CHECK_HAS(out, "\"required_literals\":30");
	CHECK_HAS(out, "\"reworded\":true");

	/* all rules live: exit 0 */
	write_file(path, "Kernel memory protection disabled\\.\n");
	snprintf(cmd, sizeof(cmd), "%s check --index %s %s 2>&1", t_binary, t_sample, path);
	CHECK_INT(run(cmd, out, sizeof(out)), 0);
	CHECK_HAS(out, "1 - live: Kernel memory protection disabled\\.\n");

	/* unsupported syntax: exit 2, naming file:line, label and construct */
	write_file(path, "fine\n\nbad\t(a)\\1\nlook\tfoo(?=bar)\n");
	snprintf(cmd, sizeof(cmd), "%s check --index %s %s 2>&1", t_binary, t_sample, path);
	CHECK_INT(run(cmd, out, sizeof(out)), 2);
	CHECK_HAS(out, "rules:3: rule bad: offset 3: back-reference \\1 is not supported");
	CHECK_HAS(out, "rules:4: rule look: offset 3: look-ahead");

	/* node-problem-detector configuration */
	write_file(path, "{\n"
		   "  \"plugin\": \"kmsg\",\n"
		   "  \"logPath\": \"/dev/kmsg\",\n"
		   "  \"lookback\": \"5m\",\n"
		   "  \"bufferSize\": 10,\n"
		   "  \"source\": \"kernel-monitor\",\n"
		   "  \"conditions\": [ { \"type\": \"KernelDeadlock\", \"reason\": \"KernelHasNoDeadlock\",\n"
		   "      \"message\": \"kernel has no deadlock\" } ],\n"
		   "  \"rules\": [\n"
		   "    { \"type\": \"temporary\", \"reason\": \"OOMKilling\",\n"
		   "      \"pattern\": \"Killed process \\\\d+ (.+) total-vm:\\\\d+kB, anon-rss:\\\\d+kB, file-rss:\\\\d+kB.*\" },\n"
		   "    { \"type\": \"temporary\", \"reason\": \"KernelOops\",\n"
		   "      \"pattern\": \"BUG: unable to handle kernel NULL pointer dereference at .*\" },\n"
		   "    { \"type\": \"permanent\", \"condition\": \"KernelDeadlock\", \"reason\": \"AUFSUmountHung\",\n"
		   "      \"pattern\": \"task umount\\\\.aufs:\\\\w+ blocked for more than \\\\w+ seconds\\\\.\" }\n"
		   "  ]\n"
		   "}\n");
	snprintf(cmd, sizeof(cmd), "%s check --index %s %s 2>&1", t_binary, t_sample, path);
	rc = run(cmd, out, sizeof(out));
	CHECK_INT(rc, 1);
	CHECK_HAS(out, "rules:11 OOMKilling live: ");
	CHECK_HAS(out, "rules:13 KernelOops stale: ");
	CHECK_HAS(out, "rules:15 AUFSUmountHung unknown: ");
	CHECK_HAS(out, "3 rules: 1 live, 0 live-by-arguments, 1 unknown, 1 stale");

	write_file(path, "{ \"rules\": [ { \"pattern\": \"(?<=x)y\" } ] }\n");
	CHECK_INT(run(cmd, out, sizeof(out)), 2);
	CHECK_HAS(out, "rules:1: rule -: offset 0: look-behind");
	write_file(path, "{ \"rules\": [ { \"pattern\": 12 ] }\n");
	CHECK_INT(run(cmd, out, sizeof(out)), 2);
	CHECK_HAS(out, "bad JSON");

	test_cli_bad_input(dir, path);
	test_cli_npd();
	test_cli_verdicts(path);
	test_cli_real_messages(path);

	/* usage */
	snprintf(cmd, sizeof(cmd), "%s check 2>&1", t_binary);
	CHECK_INT(run(cmd, out, sizeof(out)), 2);
	CHECK_HAS(out, "check needs a rules file");
	snprintf(cmd, sizeof(cmd), "%s check --index %s %s/missing 2>&1", t_binary, t_sample, dir);
	CHECK_INT(run(cmd, out, sizeof(out)), 2);
	CHECK_HAS(out, "missing: No such file or directory");

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void test_check(void)
{
	double t = now();

	test_parser();
	test_conversions();
	if (getenv("PI_TEST_TIMES"))
		fprintf(stderr, "conversions %.1f s\n", now() - t);
	test_pairs();
	if (getenv("PI_TEST_TIMES"))
		fprintf(stderr, "pairs %.1f s\n", now() - t);
	test_bound_starts();
	test_prefilter_sample();
	if (getenv("PI_TEST_TIMES"))
		fprintf(stderr, "sample %.1f s\n", now() - t);
	test_cli_check();
}
