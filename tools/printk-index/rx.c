// SPDX-License-Identifier: GPL-2.0
/* Rule regular expressions: parser, Thompson NFA, POSIX translation,
 * literal analysis. See rx.h for the syntax. */
#include <stdlib.h>
#include <string.h>

#include "ere.h"	/* cls_has(), cls_set() */
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

static bool is_alpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
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

static void negate(uint64_t cls[4])
{
	int i;

	for (i = 0; i < 4; i++)
		cls[i] = ~cls[i];
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
		negate(t);
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
	if (c >= 0x80 || !(is_alpha(c) || (c >= '0' && c <= '9'))) {
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
			if (*p == '\\') {
				const char *q = p + 1;

				hi = escape_byte(ps, &q);
				if (hi == -1)
					return NULL;
				if (hi == -2) {
					fail(ps, p, "%s", "class escape as a range end");
					return NULL;
				}
				p = q;
			} else if (p[0] == '[' && p + 1 < ps->end && p[1] == ':') {
				fail(ps, p, "%s", "[:class:] as a range end");
				return NULL;
			} else {
				hi = (unsigned char)*p++;
			}
			if (hi < lo) {
				fail(ps, p, "%s", "range out of order");
				return NULL;
			}
		}
		add_range(cls, lo, hi);
	}
	ps->p = p + 1;
	if (ps->ci)
		fold(cls);
	if (neg)
		negate(cls);
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
	if (ps->ci && is_alpha(c)) {
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

/* ------------------------------------------------------------------ */
/* NFA                                                                  */

void rx_nfa_init(struct rx_nfa *a)
{
	memset(a, 0, sizeof(*a));
}

void rx_nfa_free(struct rx_nfa *a)
{
	free(a->st);
	free(a->cls);
	memset(a, 0, sizeof(*a));
}

static uint32_t add_state(struct rx_nfa *a, int op)
{
	struct rx_state *s;

	if (a->n >= RX_MAX_STATES) {
		a->too_big = true;
		return 0;
	}
	if (a->n == a->cap) {
		a->cap = grow_cap(a->cap, 64);
		a->st = xrealloc(a->st, a->cap * sizeof(*a->st));
	}
	s = &a->st[a->n];
	memset(s, 0, sizeof(*s));
	s->op = op;
	return a->n++;
}

uint32_t rx_add_match(struct rx_nfa *a)
{
	return add_state(a, RX_MATCH);
}

static uint32_t intern_cls(struct rx_nfa *a, const uint64_t cls[4])
{
	uint32_t i;

	/* few distinct classes per automaton; the last ones repeat most */
	for (i = a->ncls; i-- > 0 && i + 8 >= a->ncls;)
		if (!memcmp(a->cls[i], cls, sizeof(a->cls[i])))
			return i;
	if (a->ncls == a->clscap) {
		a->clscap = grow_cap(a->clscap, 16);
		a->cls = xrealloc(a->cls, a->clscap * sizeof(*a->cls));
	}
	memcpy(a->cls[a->ncls], cls, sizeof(a->cls[0]));
	return a->ncls++;
}

uint32_t rx_add_cls(struct rx_nfa *a, const uint64_t cls[4], bool lit, uint32_t out)
{
	uint32_t s = add_state(a, RX_CLS);

	if (a->too_big)
		return 0;
	a->st[s].cls = intern_cls(a, cls);
	a->st[s].lit = lit;
	a->st[s].out = out;
	return s;
}

uint32_t rx_add_split(struct rx_nfa *a, uint32_t out, uint32_t out1)
{
	uint32_t s = add_state(a, RX_SPLIT);

	if (a->too_big)
		return 0;
	a->st[s].out = out;
	a->st[s].out1 = out1;
	return s;
}

static uint32_t compile_rep(struct rx_nfa *a, const struct rx_node *n, uint32_t out)
{
	uint32_t e = out, i;

	if (n->max == RX_INF) {
		/* loop: L -> body -> L, L -> out */
		uint32_t l = rx_add_split(a, 0, out), body;

		body = rx_compile_node(a, n->kid, l);
		if (a->too_big)
			return 0;
		a->st[l].out = body;
		e = l;
	} else {
		for (i = n->min; i < n->max && !a->too_big; i++)
			e = rx_add_split(a, rx_compile_node(a, n->kid, e), out);
	}
	for (i = 0; i < n->min && !a->too_big; i++)
		e = rx_compile_node(a, n->kid, e);
	return e;
}

uint32_t rx_compile_node(struct rx_nfa *a, const struct rx_node *n, uint32_t out)
{
	const struct rx_node *k;
	const struct rx_node *kids[512];
	uint32_t nk = 0, e, s;

	if (a->too_big)
		return 0;
	switch (n->kind) {
	case RN_EMPTY:
		return out;
	case RN_CLS:
		return rx_add_cls(a, n->cls, n->lit, out);
	case RN_ASSERT:
		s = add_state(a, RX_ASSERT);
		if (a->too_big)
			return 0;
		a->st[s].arg = n->assert;
		a->st[s].out = out;
		return s;
	case RN_REP:
		return compile_rep(a, n, out);
	case RN_CAT: {
		/* build backwards: each child continues at the next one */
		const struct rx_node **v = kids;
		uint32_t cap = ARRAY_SIZE(kids);

		for (k = n->kid; k; k = k->next) {
			if (nk == cap) {
				const struct rx_node **nv = xmalloc(2 * cap * sizeof(*nv));

				memcpy(nv, v, nk * sizeof(*nv));
				if (v != kids)
					free(v);
				v = nv;
				cap *= 2;
			}
			v[nk++] = k;
		}
		e = out;
		while (nk-- > 0 && !a->too_big)
			e = rx_compile_node(a, v[nk], e);
		if (v != kids)
			free(v);
		return e;
	}
	case RN_ALT:
		e = RX_INF;
		for (k = n->kid; k && !a->too_big; k = k->next) {
			s = rx_compile_node(a, k, out);
			e = e == RX_INF ? s : rx_add_split(a, s, e);
		}
		return e == RX_INF ? out : e;
	}
	return out;
}

void rx_compile_rule(struct rx_nfa *a, const struct rx *re, enum rx_mode mode)
{
	uint64_t any[4];
	uint32_t fin, mid, l, x;

	rx_nfa_init(a);
	fin = rx_add_match(a);
	if (mode == RX_WHOLE) {
		a->start = rx_compile_node(a, re->root, fin);
		return;
	}
	memset(any, 0xff, sizeof(any));
	any[0] &= ~(1ULL << '\n');
	if (mode == RX_SUFFIX) {
		l = add_state(a, RX_ASSERT);
		if (a->too_big)
			return;
		a->st[l].arg = RXA_EOL;
		a->st[l].out = fin;
	} else {
		/* ".*" after the match */
		l = rx_add_split(a, fin, 0);
		x = rx_add_cls(a, any, false, l);
		if (a->too_big)
			return;
		a->st[l].out1 = x;
		a->fin = fin;
		a->tail = x;
		a->has_tail = true;
	}
	mid = rx_compile_node(a, re->root, l);
	/* ".*" before it */
	l = rx_add_split(a, mid, 0);
	x = rx_add_cls(a, any, false, l);
	if (a->too_big)
		return;
	a->st[l].out1 = x;
	a->start = l;
}

/* Shortest path with literal states costing 1 (label-correcting: a
 * circular queue, each state queued at most once at a time). */
uint32_t rx_min_literals(const struct rx_nfa *a)
{
	uint32_t *dist, *q, head = 0, tail = 0, cap = a->n + 1, best = RX_INF;
	bool *inq;

	if (!a->n || a->too_big)
		return 0;
	dist = xmalloc(a->n * sizeof(*dist));
	q = xmalloc(cap * sizeof(*q));
	inq = xcalloc(a->n, sizeof(*inq));
	memset(dist, 0xff, a->n * sizeof(*dist));
	dist[a->start] = 0;
	q[tail++] = a->start;
	inq[a->start] = true;
	while (head != tail) {
		uint32_t s = q[head], d, w, t[2], nt = 0, i;
		const struct rx_state *st = &a->st[s];

		head = (head + 1) % cap;
		inq[s] = false;
		d = dist[s];
		if (st->op == RX_MATCH) {
			if (d < best)
				best = d;
			continue;
		}
		t[nt++] = st->out;
		if (st->op == RX_SPLIT)
			t[nt++] = st->out1;
		w = st->op == RX_CLS && st->lit;
		for (i = 0; i < nt; i++) {
			if (dist[t[i]] <= d + w)
				continue;
			dist[t[i]] = d + w;
			if (!inq[t[i]]) {
				inq[t[i]] = true;
				q[tail] = t[i];
				tail = (tail + 1) % cap;
			}
		}
	}
	free(dist);
	free(q);
	free(inq);
	return best == RX_INF ? 0 : best;
}

/* ------------------------------------------------------------------ */
/* POSIX ERE translation                                                */

static int posix_cls(const uint64_t cls[4], struct sbuf *o)
{
	uint64_t c[4];
	bool neg;
	int n = 0, b, e;

	memcpy(c, cls, sizeof(c));
	c[0] &= ~1ULL;	/* NUL never appears in a C string */
	for (b = 1; b < 256; b++)
		n += cls_has(c, b);
	if (!n)
		return -1;
	neg = n > 128;
	if (neg) {
		negate(c);
		c[0] &= ~1ULL;
		if (!(c[0] | c[1] | c[2] | c[3])) {
			/* every byte: '.' matches any but NUL under glibc */
			sbuf_add(o, "(.|\n)", 5);
			return 0;
		}
	}
	sbuf_addc(o, '[');
	if (neg)
		sbuf_addc(o, '^');
	if (cls_has(c, ']'))
		sbuf_addc(o, ']');
	for (b = 1; b < 256; b++) {
		if (!cls_has(c, b) || b == ']' || b == '-' || b == '^')
			continue;
		for (e = b; e + 1 < 256 && cls_has(c, e + 1) && e + 1 != ']' &&
			    e + 1 != '-' && e + 1 != '^'; e++)
			;
		sbuf_addc(o, b);
		if (e > b + 1)
			sbuf_addc(o, '-');
		if (e > b)
			sbuf_addc(o, e);
		b = e;
	}
	if (cls_has(c, '^'))
		sbuf_addc(o, '^');
	if (cls_has(c, '-'))
		sbuf_addc(o, '-');
	sbuf_addc(o, ']');
	return 0;
}

static int posix_node(const struct rx_node *n, struct sbuf *o)
{
	const struct rx_node *k;
	char buf[48];

	switch (n->kind) {
	case RN_EMPTY:
		sbuf_add(o, "()", 2);
		return 0;
	case RN_CLS:
		if (n->lit && cls_has(n->cls, n->byte) &&
		    (n->cls[0] | n->cls[1] | n->cls[2] | n->cls[3]) &&
		    __builtin_popcountll(n->cls[0]) + __builtin_popcountll(n->cls[1]) +
		    __builtin_popcountll(n->cls[2]) + __builtin_popcountll(n->cls[3]) == 1) {
			if (!n->byte)
				return -1;
			if (strchr(".[]()*+?{}|^$\\", n->byte))
				sbuf_addc(o, '\\');
			sbuf_addc(o, n->byte);
			return 0;
		}
		return posix_cls(n->cls, o);
	case RN_ASSERT:
		switch (n->assert) {
		case RXA_BOL: sbuf_addc(o, '^'); break;
		case RXA_EOL: sbuf_addc(o, '$'); break;
		case RXA_WORDB: sbuf_add(o, "\\b", 2); break;
		default: sbuf_add(o, "\\B", 2); break;
		}
		return 0;
	case RN_CAT:
		sbuf_addc(o, '(');
		for (k = n->kid; k; k = k->next)
			if (posix_node(k, o))
				return -1;
		sbuf_addc(o, ')');
		return 0;
	case RN_ALT:
		sbuf_addc(o, '(');
		for (k = n->kid; k; k = k->next) {
			if (k != n->kid)
				sbuf_addc(o, '|');
			if (posix_node(k, o))
				return -1;
		}
		sbuf_addc(o, ')');
		return 0;
	case RN_REP:
		sbuf_addc(o, '(');
		if (posix_node(n->kid, o))
			return -1;
		sbuf_addc(o, ')');
		if (n->max == RX_INF)
			snprintf(buf, sizeof(buf), "{%u,}", n->min);
		else
			snprintf(buf, sizeof(buf), "{%u,%u}", n->min, n->max);
		sbuf_add(o, buf, strlen(buf));
		return 0;
	}
	return -1;
}

int rx_to_posix(const struct rx *re, struct sbuf *out)
{
	return posix_node(re->root, out);
}

/* ------------------------------------------------------------------ */
/* Literal analysis                                                     */

struct litwalk {
	struct rx_lits *l;
	uint32_t fcap, lcap, rcap;
	struct sbuf run;
	bool run_ci;
};

static void flush_factor(struct litwalk *w)
{
	struct rx_lits *l = w->l;

	if (w->run.len) {
		if (l->nf == w->fcap) {
			w->fcap = grow_cap(w->fcap, 8);
			l->f = xrealloc(l->f, w->fcap * sizeof(*l->f));
		}
		l->f[l->nf].s = xmalloc(w->run.len + 1);
		memcpy(l->f[l->nf].s, w->run.p, w->run.len + 1);
		{
			uint32_t i;
			struct rx_factor *x = &l->f[l->nf];

			memset(x->bytes, 0, sizeof(x->bytes));
			for (i = 0; i < w->run.len; i++) {
				/* compared with the lower-cased literal text */
				if (w->run_ci)
					x->s[i] = ascii_lower(x->s[i]);
				cls_set(x->bytes, x->s[i]);
				if (w->run_ci && is_alpha(x->s[i]))
					cls_set(x->bytes, x->s[i] - 32);
			}
		}
		l->f[l->nf].len = w->run.len;
		l->f[l->nf].ci = w->run_ci;
		l->nf++;
	}
	sbuf_reset(&w->run);
	w->run_ci = false;
}

static bool lit_folded(const struct rx_node *n)
{
	return is_alpha(n->byte) && cls_has(n->cls, n->byte ^ 0x20);
}

/* Runs of literals every match contains. */
static void factors(struct litwalk *w, const struct rx_node *n)
{
	const struct rx_node *k;

	switch (n->kind) {
	case RN_CLS:
		if (n->lit) {
			sbuf_addc(&w->run, n->byte);
			w->run_ci |= lit_folded(n);
		} else {
			flush_factor(w);
		}
		return;
	case RN_EMPTY:
	case RN_ASSERT:
		return;		/* consumes nothing: the run goes on */
	case RN_CAT:
		for (k = n->kid; k; k = k->next)
			factors(w, k);
		return;
	case RN_REP:
		flush_factor(w);
		if (n->min >= 1)
			factors(w, n->kid);
		flush_factor(w);
		return;
	case RN_ALT:
		flush_factor(w);
		return;
	}
}

static uint32_t mult_mul(uint32_t a, uint32_t b)
{
	if (a == RX_INF || b == RX_INF)
		return RX_INF;
	return (uint64_t)a * b > 1000000 ? RX_INF : a * b;
}

static void add_leaf(struct litwalk *w, const struct rx_leaf *lf)
{
	struct rx_lits *l = w->l;

	if (l->nleaf == w->lcap) {
		w->lcap = grow_cap(w->lcap, 16);
		l->leaf = xrealloc(l->leaf, w->lcap * sizeof(*l->leaf));
	}
	l->leaf[l->nleaf++] = *lf;
}

/* The literal leaves in pattern order: along any path of the automaton
 * the literal states it takes are a subsequence of this. */
/* The class every byte consumed last (first) by n is in: n must consume
 * at least one byte and end (start) with one class. NULL if unknown. */
static const uint64_t *edge_class(const struct rx_node *n)
{
	if (n->kind == RN_CLS)
		return n->cls;
	if (n->kind == RN_REP && n->min >= 1 && n->kid->kind == RN_CLS)
		return n->kid->cls;
	return NULL;
}

static void set_edge(uint64_t dst[4], const uint64_t *src)
{
	if (src)
		memcpy(dst, src, 4 * sizeof(uint64_t));
	else
		memset(dst, 0xff, 4 * sizeof(uint64_t));
}

/* The literal leaves in pattern order: along any path of the automaton
 * the literal states it takes are a subsequence of this. */
static void sequence(struct rx_lits *l, const struct rx_node *n,
		     const uint64_t *prev, const uint64_t *next)
{
	const struct rx_node *k, *pk = NULL, *nk;
	uint32_t i;

	if (!l->seq_ok)
		return;
	switch (n->kind) {
	case RN_CLS:
		if (!n->lit)
			return;
		if (l->nseq == sizeof(l->seq)) {
			l->seq_ok = false;
			return;
		}
		l->seqcont[l->nseq] = false;
		set_edge(l->seqprev[l->nseq], prev);
		set_edge(l->seqnext[l->nseq], next);
		l->seq[l->nseq++] = ascii_lower(n->byte);
		return;
	case RN_CAT:
		/* adjacent literal children: one right after the other; the
		 * neighbours of a literal constrain the bytes around it */
		for (k = n->kid; k; k = k->next) {
			uint32_t at = l->nseq;

			if (k->kind == RN_ASSERT || k->kind == RN_EMPTY)
				continue;
			for (nk = k->next; nk && (nk->kind == RN_ASSERT || nk->kind == RN_EMPTY);
			     nk = nk->next)
				;
			sequence(l, k, pk ? edge_class(pk) : prev,
				 nk ? edge_class(nk) : next);
			if (k->kind == RN_CLS && k->lit && pk && pk->kind == RN_CLS &&
			    pk->lit && l->seq_ok && at < l->nseq)
				l->seqcont[at] = true;
			pk = k;
		}
		return;
	case RN_ALT:
		for (k = n->kid; k; k = k->next)
			sequence(l, k, prev, next);
		return;
	case RN_REP:
		if (n->max == RX_INF) {
			uint32_t before = l->nseq;

			sequence(l, n->kid, NULL, NULL);
			/* a literal repeated without bound: no sequence */
			if (l->nseq != before)
				l->seq_ok = false;
			return;
		}
		for (i = 0; i < n->max && l->seq_ok; i++)
			sequence(l, n->kid, NULL, NULL);
		return;
	default:
		return;
	}
}

static void leaves(struct litwalk *w, const struct rx_node *n, uint32_t mult)
{
	const struct rx_node *k, *run[2048];
	uint32_t nr = 0, i;

	switch (n->kind) {
	case RN_CLS:
		if (n->lit)
			add_leaf(w, &(struct rx_leaf){ .c = ascii_lower(n->byte), .mult = mult });
		return;
	case RN_EMPTY:
	case RN_ASSERT:
		return;
	case RN_ALT:
		for (k = n->kid; k; k = k->next)
			leaves(w, k, mult);
		return;
	case RN_REP:
		leaves(w, n->kid, mult_mul(mult, n->max));
		return;
	case RN_CAT:
		break;
	}
	/* a run: adjacent literal children (assertions do not separate) */
	for (k = n->kid;; k = k->next) {
		if (k && k->kind == RN_CLS && k->lit && nr < ARRAY_SIZE(run)) {
			run[nr++] = k;
			continue;
		}
		if (k && (k->kind == RN_ASSERT || k->kind == RN_EMPTY))
			continue;
		if (nr > 1) {
			struct rx_lits *l = w->l;
			struct rx_run *rr;

			if (l->nrun == w->rcap) {
				w->rcap = grow_cap(w->rcap, 8);
				l->run = xrealloc(l->run, w->rcap * sizeof(*l->run));
			}
			rr = &l->run[l->nrun++];
			rr->s = xmalloc(nr + 1);
			for (i = 0; i < nr; i++)
				rr->s[i] = ascii_lower(run[i]->byte);
			rr->s[nr] = 0;
			rr->len = nr;
			rr->mult = mult;
		}
		for (i = 0; i < nr; i++) {
			struct rx_leaf lf = { .c = ascii_lower(run[i]->byte), .mult = mult,
					      .in_run = nr > 1 };

			if (i > 0) {
				lf.has_prev = true;
				lf.prev = ascii_lower(run[i - 1]->byte);
			}
			if (i + 1 < nr) {
				lf.has_next = true;
				lf.next = ascii_lower(run[i + 1]->byte);
			}
			add_leaf(w, &lf);
		}
		nr = 0;
		if (!k)
			break;
		leaves(w, k, mult);
	}
}

void rx_literals(const struct rx *re, struct rx_lits *l)
{
	struct litwalk w = { .l = l };

	memset(l, 0, sizeof(*l));
	factors(&w, re->root);
	flush_factor(&w);
	leaves(&w, re->root, 1);
	l->seq_ok = true;
	sequence(l, re->root, NULL, NULL);
	sbuf_free(&w.run);
}

void rx_lits_free(struct rx_lits *l)
{
	uint32_t i;

	for (i = 0; i < l->nf; i++)
		free(l->f[i].s);
	free(l->f);
	for (i = 0; i < l->nrun; i++)
		free(l->run[i].s);
	free(l->run);
	free(l->leaf);
	memset(l, 0, sizeof(*l));
}
