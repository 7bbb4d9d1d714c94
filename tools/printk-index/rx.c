// SPDX-License-Identifier: GPL-2.0
/* Rule regular expressions: the parser (rx.h has the syntax); the
 * automaton is rx_nfa.c's, the literal analysis rx_lit.c's. */
#include <stdlib.h>
#include <string.h>

#include "rx.h"

#define RX_MAX_DEPTH 200

struct parser {
	const char *s, *p, *end;
	struct rx *re;
	struct pi_err *err;
	bool ci;
	int depth;
	bool failed;
};

static struct rx_node *new_node(struct parser *ps, int kind)
{
	struct rx_node *n = arena_alloc(&ps->re->arena, sizeof(*n));

	memset(n, 0, sizeof(*n));
	n->kind = kind;
	return n;
}

static int fail(struct parser *ps, const char *at, const char *fmt, const char *what)
{
	char buf[200];

	if (ps->failed)
		return -1;
	snprintf(buf, sizeof(buf), fmt, what);
	pi_seterr(ps->err, "offset %d: %s", (int)(at - ps->s), buf);
	ps->failed = true;
	return -1;
}

static void fold(uint64_t cls[4])
{
	int c;

	for (c = 'a'; c <= 'z'; c++) {
		if (cls_has(cls, c) || cls_has(cls, c - 32)) {
			cls_set(cls, c);
			cls_set(cls, c - 32);
		}
	}
}

static void add_range(uint64_t cls[4], int lo, int hi)
{
	for (; lo <= hi; lo++)
		cls_set(cls, lo);
}

/* \d \w \s and their negations (RE2: \s is [\t\n\f\r ]) */
static bool perl_class(char c, uint64_t cls[4])
{
	uint64_t t[4] = { 0 };
	int i;

	switch (c | 0x20) {
	case 'd':
		add_range(t, '0', '9');
		break;
	case 'w':
		add_range(t, '0', '9');
		add_range(t, 'a', 'z');
		add_range(t, 'A', 'Z');
		cls_set(t, '_');
		break;
	case 's':
		cls_set(t, '\t');
		cls_set(t, '\n');
		cls_set(t, '\f');
		cls_set(t, '\r');
		cls_set(t, ' ');
		break;
	default:
		return false;
	}
	if (c >= 'A' && c <= 'Z')
		cls_negate(t);
	for (i = 0; i < 4; i++)
		cls[i] |= t[i];
	return true;
}

/*
 * An escape that stands for one byte: \t \n \xHH \x{HH} \. ...; p is just
 * after the backslash. Returns the byte, -2 when the escape is something
 * else (class, assertion: the caller's business), -1 on error.
 */
static int escape_byte(struct parser *ps, const char **pp)
{
	const char *p = *pp, *at = p - 1;
	unsigned char c;
	int v = 0, h;

	if (p >= ps->end)
		return fail(ps, at, "%s", "trailing backslash");
	c = *p++;
	switch (c) {
	case 't': *pp = p; return '\t';
	case 'n': *pp = p; return '\n';
	case 'r': *pp = p; return '\r';
	case 'f': *pp = p; return '\f';
	case 'v': *pp = p; return '\v';
	case 'a': *pp = p; return '\a';
	case 'e': *pp = p; return 0x1b;
	case 'x':
		if (p < ps->end && *p == '{') {
			const char *q = p + 1;

			while (q < ps->end && hex_digit_value(*q) >= 0 && v <= 0xff)
				v = v * 16 + hex_digit_value(*q++);
			if (q == p + 1 || q >= ps->end || *q != '}')
				return fail(ps, at, "%s", "bad \\x{...} escape");
			if (v > 0xff)
				return fail(ps, at, "%s", "\\x{...} above 0xff: matching is byte-based, write the UTF-8 bytes");
			*pp = q + 1;
			return v;
		}
		if (p + 1 >= ps->end + 0 || (h = hex_digit_value(p[0])) < 0 || hex_digit_value(p[1]) < 0)
			return fail(ps, at, "%s", "\\x needs two hex digits");
		*pp = p + 2;
		return h * 16 + hex_digit_value(p[1]);
	}
	if (c >= '1' && c <= '9')
		return fail(ps, at, "back-reference \\%s is not supported (not a regular language)",
			    (char[]){ (char)c, 0 });
	if (c == '0')
		return fail(ps, at, "%s", "octal escape \\0 is not supported; use \\xHH");
	if (c == 'k' || c == 'g')
		return fail(ps, at, "back-reference \\%s is not supported (not a regular language)",
			    (char[]){ (char)c, 0 });
	if (c == 'p' || c == 'P')
		return fail(ps, at, "Unicode class \\%s{...} is not supported (byte-based matching)",
			    (char[]){ (char)c, 0 });
	if (c >= 0x80 || !(ascii_isalpha(c) || (c >= '0' && c <= '9'))) {
		*pp = p;
		return c;	/* \. \( \\ \/ ...: the character itself */
	}
	*pp = p - 1;
	return -2;
}

static int unsupported_escape(struct parser *ps, const char *at)
{
	return fail(ps, at, "unsupported escape \\%s", (char[]){ at[1], 0 });
}

static const struct {
	const char *name;
	const char *set;	/* ranges as pairs */
} posix_classes[] = {
	{ "alpha", "azAZ" }, { "digit", "09" }, { "alnum", "azAZ09" },
	{ "upper", "AZ" }, { "lower", "az" }, { "space", "\t\r  " },
	{ "blank", "  \t\t" }, { "punct", "!/:@[`{~" }, { "print", " ~" },
	{ "graph", "!~" }, { "cntrl", "\x01\x1f\x7f\x7f" }, { "xdigit", "09afAF" },
	{ "word", "azAZ09__" },
};

static int posix_class(struct parser *ps, const char **pp, uint64_t cls[4])
{
	const char *p = *pp + 2, *q;
	size_t i, j;

	for (q = p; q + 1 < ps->end && !(q[0] == ':' && q[1] == ']'); q++)
		;
	if (q + 1 >= ps->end)
		return fail(ps, *pp, "%s", "unterminated [:class:]");
	for (i = 0; i < ARRAY_SIZE(posix_classes); i++) {
		const char *set = posix_classes[i].set;

		if (strlen(posix_classes[i].name) != (size_t)(q - p) ||
		    memcmp(posix_classes[i].name, p, q - p))
			continue;
		for (j = 0; set[j]; j += 2)
			add_range(cls, (unsigned char)set[j], (unsigned char)set[j + 1]);
		if (!strcmp(posix_classes[i].name, "space")) {
			cls_set(cls, '\n');
			cls_set(cls, '\v');
			cls_set(cls, '\f');
		}
		if (!strcmp(posix_classes[i].name, "cntrl"))
			cls_set(cls, 0);
		*pp = q + 2;
		return 0;
	}
	return fail(ps, *pp, "%s", "unknown [:class:]");
}

/* [...] with p at '[' */
/* The end of a range "lo-" in a bracket, at *pp; -1 after a failure. */
static int range_end(struct parser *ps, const char **pp, int lo)
{
	const char *p = *pp;
	int hi;

	if (*p == '\\') {
		const char *q = p + 1;

		hi = escape_byte(ps, &q);
		if (hi == -1)
			return -1;
		if (hi == -2) {
			fail(ps, p, "%s", "class escape as a range end");
			return -1;
		}
		p = q;
	} else if (p[0] == '[' && p + 1 < ps->end && p[1] == ':') {
		fail(ps, p, "%s", "[:class:] as a range end");
		return -1;
	} else {
		hi = (unsigned char)*p++;
	}
	if (hi < lo) {
		fail(ps, p, "%s", "range out of order");
		return -1;
	}
	*pp = p;
	return hi;
}

static struct rx_node *parse_bracket(struct parser *ps)
{
	const char *start = ps->p, *p = ps->p + 1;
	uint64_t cls[4] = { 0 };
	bool neg = false, first = true;
	struct rx_node *n;

	if (p < ps->end && *p == '^') {
		neg = true;
		p++;
	}
	for (;;) {
		int lo, hi;

		if (p >= ps->end) {
			fail(ps, start, "%s", "missing ]");
			return NULL;
		}
		if (*p == ']' && !first)
			break;
		first = false;
		if (p[0] == '[' && p + 1 < ps->end && p[1] == ':') {
			if (posix_class(ps, &p, cls))
				return NULL;
			continue;
		}
		if (p[0] == '[' && p + 1 < ps->end && (p[1] == '=' || p[1] == '.')) {
			fail(ps, p, "%s", "collating elements [= =] [. .] are not supported");
			return NULL;
		}
		if (*p == '\\') {
			const char *q = p + 1;

			lo = escape_byte(ps, &q);
			if (lo == -1)
				return NULL;
			if (lo == -2) {
				if (!perl_class(*q, cls)) {
					unsupported_escape(ps, p);
					return NULL;
				}
				p = q + 1;
				continue;
			}
			p = q;
		} else {
			lo = (unsigned char)*p++;
		}
		hi = lo;
		if (p + 1 < ps->end && *p == '-' && p[1] != ']') {
			p++;
			hi = range_end(ps, &p, lo);
			if (hi < 0)
				return NULL;
		}
		add_range(cls, lo, hi);
	}
	ps->p = p + 1;
	if (ps->ci)
		fold(cls);
	if (neg)
		cls_negate(cls);
	n = new_node(ps, RN_CLS);
	memcpy(n->cls, cls, sizeof(cls));
	return n;
}

static struct rx_node *lit_node(struct parser *ps, unsigned char c)
{
	struct rx_node *n = new_node(ps, RN_CLS);

	n->lit = true;
	n->byte = c;
	cls_set(n->cls, c);
	if (ps->ci && ascii_isalpha(c)) {
		n->byte = ascii_lower(c);
		cls_set(n->cls, ascii_lower(c));
		cls_set(n->cls, ascii_lower(c) - 32);
		ps->re->ci_used = true;
	}
	return n;
}

static struct rx_node *parse_alt(struct parser *ps);

/* (?flags) or (?flags:  with p after "(?"; returns 1 for a group, 0 for
 * flags alone, -1 on error */
static int parse_flags(struct parser *ps, bool *ci)
{
	const char *at = ps->p - 2;
	bool on = true;

	for (; ps->p < ps->end; ps->p++) {
		switch (*ps->p) {
		case 'i': *ci = on; break;
		case 's': case 'm': case 'U':
			/* s, m: the message is one line without '\n';
			 * U swaps greediness: the same language */
			break;
		case '-': on = false; break;
		case ')': ps->p++; return 0;
		case ':': ps->p++; return 1;
		default:
			return fail(ps, at, "unsupported group or flag (?%s...)",
				    (char[]){ *ps->p, 0 });
		}
	}
	return fail(ps, at, "%s", "missing )");
}

static struct rx_node *parse_group(struct parser *ps)
{
	const char *at = ps->p;
	bool saved = ps->ci, ci = ps->ci;
	struct rx_node *n;

	ps->p++;
	if (ps->p < ps->end && *ps->p == '?') {
		const char *q = ps->p + 1;

		if (q < ps->end && (*q == '=' || *q == '!')) {
			fail(ps, at, "%s", "look-ahead (?= (?! is not supported");
			return NULL;
		}
		if (q + 1 < ps->end && *q == '<' && (q[1] == '=' || q[1] == '!')) {
			fail(ps, at, "%s", "look-behind (?<= (?<! is not supported");
			return NULL;
		}
		if (q < ps->end && *q == '>') {
			fail(ps, at, "%s", "atomic group (?> is not supported");
			return NULL;
		}
		if (q < ps->end && (*q == '<' || *q == '\'' || (*q == 'P' && q + 1 < ps->end && q[1] == '<'))) {
			char close = *q == '\'' ? '\'' : '>';

			/* named group: (?P<name>...) (?<name>...) (?'name'...) */
			while (q < ps->end && *q != close)
				q++;
			if (q >= ps->end) {
				fail(ps, at, "%s", "unterminated group name");
				return NULL;
			}
			ps->p = q + 1;
		} else if (q < ps->end && *q == ':') {
			ps->p = q + 1;
		} else {
			int r;

			ps->p = q;
			r = parse_flags(ps, &ci);
			if (r < 0)
				return NULL;
			if (r == 0) {
				/* flags for the rest of the enclosing group */
				ps->ci = ci;
				return new_node(ps, RN_EMPTY);
			}
			ps->ci = ci;
		}
	}
	if (++ps->depth > RX_MAX_DEPTH) {
		fail(ps, at, "%s", "groups nested too deep");
		return NULL;
	}
	n = parse_alt(ps);
	ps->depth--;
	ps->ci = saved;
	if (!n)
		return NULL;
	if (ps->p >= ps->end || *ps->p != ')') {
		fail(ps, at, "%s", "missing )");
		return NULL;
	}
	ps->p++;
	return n;
}

static struct rx_node *assert_node(struct parser *ps, int kind)
{
	struct rx_node *n = new_node(ps, RN_ASSERT);

	n->assert = kind;
	if (kind == RXA_BOL || kind == RXA_EOL)
		ps->re->has_anchor = true;
	else
		ps->re->has_wordb = true;
	return n;
}

static struct rx_node *parse_atom(struct parser *ps)
{
	const char *at = ps->p;
	unsigned char c = *ps->p;
	struct rx_node *n;
	int b;

	switch (c) {
	case '(':
		return parse_group(ps);
	case '[':
		return parse_bracket(ps);
	case '.':
		ps->p++;
		n = new_node(ps, RN_CLS);
		memset(n->cls, 0xff, sizeof(n->cls));
		n->cls[0] &= ~(1ULL << '\n');
		return n;
	case '^':
		ps->p++;
		return assert_node(ps, RXA_BOL);
	case '$':
		ps->p++;
		return assert_node(ps, RXA_EOL);
	case '*': case '+': case '?':
		fail(ps, at, "nothing to repeat before '%s'", (char[]){ (char)c, 0 });
		return NULL;
	case '\\':
		break;
	default:
		ps->p++;
		return lit_node(ps, c);
	}
	/* an escape */
	ps->p++;
	b = escape_byte(ps, &ps->p);
	if (b == -1)
		return NULL;
	if (b >= 0)
		return lit_node(ps, b);
	c = *ps->p;
	if (c == 'b' || c == 'B' || c == 'A' || c == 'z' || c == 'Z') {
		ps->p++;
		return assert_node(ps, c == 'b' ? RXA_WORDB : c == 'B' ? RXA_NWORDB :
				   c == 'A' ? RXA_BOL : RXA_EOL);
	}
	if (c == 'Q') {
		/* \Q...\E: literal text */
		struct rx_node *cat = new_node(ps, RN_CAT), **tail = &cat->kid;
		const char *e = ps->p + 1;

		for (; e < ps->end && !(e[0] == '\\' && e + 1 < ps->end && e[1] == 'E'); e++) {
			*tail = lit_node(ps, *e);
			tail = &(*tail)->next;
		}
		ps->p = e < ps->end ? e + 2 : e;
		return cat;
	}
	n = new_node(ps, RN_CLS);
	if (!perl_class(c, n->cls)) {
		unsupported_escape(ps, at);
		return NULL;
	}
	ps->p++;
	return n;
}

static bool read_uint(struct parser *ps, const char **pp, uint32_t *v)
{
	const char *p = *pp;
	uint64_t x = 0;

	if (p >= ps->end || *p < '0' || *p > '9')
		return false;
	while (p < ps->end && *p >= '0' && *p <= '9') {
		if (x <= 100000)
			x = x * 10 + (*p - '0');
		p++;
	}
	*v = x > 100000 ? 100000 : (uint32_t)x;
	*pp = p;
	return true;
}

/* {m} {m,} {m,n} at p; false if it is not a valid bound (then '{' is a
 * literal, as in RE2 and PCRE) */
static bool parse_bound(struct parser *ps, uint32_t *min, uint32_t *max)
{
	const char *p = ps->p + 1;

	if (!read_uint(ps, &p, min))
		return false;
	*max = *min;
	if (p < ps->end && *p == ',') {
		p++;
		*max = RX_INF;
		if (p < ps->end && *p != '}' && !read_uint(ps, &p, max))
			return false;
	}
	if (p >= ps->end || *p != '}')
		return false;
	ps->p = p + 1;
	return true;
}

static struct rx_node *parse_quant(struct parser *ps, struct rx_node *atom)
{
	const char *at = ps->p;
	uint32_t min, max;
	struct rx_node *n;
	char c = *ps->p;

	if (c == '*') {
		min = 0; max = RX_INF; ps->p++;
	} else if (c == '+') {
		min = 1; max = RX_INF; ps->p++;
	} else if (c == '?') {
		min = 0; max = 1; ps->p++;
	} else if (!parse_bound(ps, &min, &max)) {
		return atom;	/* a literal '{' follows */
	}
	if ((max != RX_INF && max > RX_MAX_REPEAT) || min > RX_MAX_REPEAT) {
		fail(ps, at, "%s", "repeat count above 1000");
		return NULL;
	}
	if (min > max) {
		fail(ps, at, "%s", "bad repeat {m,n}: m > n");
		return NULL;
	}
	if (ps->p < ps->end && *ps->p == '?')
		ps->p++;	/* lazy: the same language */
	else if (ps->p < ps->end && *ps->p == '+') {
		fail(ps, ps->p, "%s", "possessive quantifier is not supported");
		return NULL;
	}
	if (ps->p < ps->end && (*ps->p == '*' || *ps->p == '+' || *ps->p == '?')) {
		fail(ps, ps->p, "repeated quantifier '%s'", (char[]){ *ps->p, 0 });
		return NULL;
	}
	n = new_node(ps, RN_REP);
	n->min = min;
	n->max = max;
	n->kid = atom;
	return n;
}

static struct rx_node *parse_cat(struct parser *ps)
{
	struct rx_node *cat = new_node(ps, RN_CAT), **tail = &cat->kid;

	while (ps->p < ps->end && *ps->p != '|' && *ps->p != ')') {
		struct rx_node *a = parse_atom(ps);

		if (!a)
			return NULL;
		while (ps->p < ps->end && (*ps->p == '*' || *ps->p == '+' ||
					   *ps->p == '?' || *ps->p == '{')) {
			struct rx_node *q = parse_quant(ps, a);

			if (!q)
				return NULL;
			if (q == a)
				break;
			a = q;
		}
		*tail = a;
		tail = &a->next;
	}
	return cat;
}

static struct rx_node *parse_alt(struct parser *ps)
{
	struct rx_node *first = parse_cat(ps), *alt, **tail;

	if (!first)
		return NULL;
	if (ps->p >= ps->end || *ps->p != '|')
		return first;
	alt = new_node(ps, RN_ALT);
	alt->kid = first;
	tail = &first->next;
	while (ps->p < ps->end && *ps->p == '|') {
		ps->p++;
		*tail = parse_cat(ps);
		if (!*tail)
			return NULL;
		tail = &(*tail)->next;
	}
	return alt;
}

int rx_parse(struct rx *re, const char *pattern, size_t len, struct pi_err *err)
{
	struct parser ps = { .s = pattern, .p = pattern, .end = pattern + len,
			     .re = re, .err = err };

	memset(re, 0, sizeof(*re));
	if (len > RX_MAX_PATTERN) {
		pi_seterr(err, "pattern of %zu bytes, over the limit of %d", len, RX_MAX_PATTERN);
		return -1;
	}
	re->root = parse_alt(&ps);
	if (re->root && ps.p < ps.end) {
		/* only a stray ')' stops the top level early */
		fail(&ps, ps.p, "%s", "unmatched )");
		re->root = NULL;
	}
	if (!re->root) {
		if (!ps.failed)
			pi_seterr(err, "offset 0: cannot parse");
		arena_free(&re->arena);
		return -1;
	}
	return 0;
}

void rx_free(struct rx *re)
{
	arena_free(&re->arena);
	memset(re, 0, sizeof(*re));
}
