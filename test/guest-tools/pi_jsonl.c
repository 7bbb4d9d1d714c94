// SPDX-License-Identifier: GPL-2.0
/*
 * pi_jsonl: JSON lines checks for the guest, which has no python or jq.
 *
 *   pi_jsonl FILE                 every line is one JSON object (RFC 8259
 *                                 grammar, strict); prints "N objects" or
 *                                 "line N column C: what is wrong", exit 1
 *   pi_jsonl FILE PATH...         the same, then for each line one output
 *                                 line: the values at PATH ("a.b" = key b
 *                                 of object a; through arrays, the values
 *                                 of all elements joined by ','), separated
 *                                 by tabs; strings decoded (tab, newline
 *                                 and backslash written as \t \n \\), a missing
 *                                 value is "-"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PATHS 16
#define MAX_DEPTH 32

static const char *p;		/* cursor into the current line */
static const char *line_start;
static const char *err;
static int npaths;
static char **paths;
static char *found[MAX_PATHS];
static size_t found_len[MAX_PATHS];

static void add_found(int i, const char *s, size_t n)
{
	size_t old = found[i] ? found_len[i] : 0;

	found[i] = realloc(found[i], old + n + 2);
	if (old)
		found[i][old++] = ',';
	memcpy(found[i] + old, s, n);
	found_len[i] = old + n;
	found[i][found_len[i]] = '\0';
}

/* Decoded text, with tab, newline and backslash written as \t \n \\ so
 * that a record stays one line and its fields stay apart. */
static void add_found_text(int i, const char *s, size_t n)
{
	char *e = malloc(2 * n + 1);
	size_t j, k = 0;

	for (j = 0; j < n; j++) {
		if (s[j] == '\t' || s[j] == '\n' || s[j] == '\\') {
			e[k++] = '\\';
			e[k++] = s[j] == '\t' ? 't' : s[j] == '\n' ? 'n' : '\\';
		} else {
			e[k++] = s[j];
		}
	}
	add_found(i, e, k);
	free(e);
}

static int wanted(const char *path)
{
	int i;

	for (i = 0; i < npaths; i++)
		if (!strcmp(paths[i], path))
			return i;
	return -1;
}

static void ws(void)
{
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
}

static int fail(const char *why)
{
	if (!err)
		err = why;
	return -1;
}

static int hex4(const char *s)
{
	int i;

	for (i = 0; i < 4; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]) || !s[i])
			return 0;
	return 1;
}

/* A string; its decoded text goes to out (NUL-terminated) if out. */
static int string(char *out, size_t cap, size_t *len)
{
	size_t n = 0;

	if (*p != '"')
		return fail("expected a string");
	p++;
	for (;;) {
		unsigned char c = *p;
		char d;

		if (c == '"')
			break;
		if (c < 0x20)
			return fail(c ? "control character in a string" : "unterminated string");
		if (c == '\\') {
			p++;
			switch (*p) {
			case '"': d = '"'; break;
			case '\\': d = '\\'; break;
			case '/': d = '/'; break;
			case 'b': d = '\b'; break;
			case 'f': d = '\f'; break;
			case 'n': d = '\n'; break;
			case 'r': d = '\r'; break;
			case 't': d = '\t'; break;
			case 'u':
				if (!hex4(p + 1))
					return fail("bad \\u escape");
				d = (char)strtol((char[]){ p[3], p[4], 0 }, NULL, 16);
				if (p[1] != '0' || p[2] != '0')
					d = '?';	/* beyond Latin-1: not needed here */
				p += 4;
				break;
			default:
				return fail("bad escape");
			}
		} else {
			d = (char)c;
		}
		if (out && n + 1 < cap)
			out[n++] = d;
		p++;
	}
	p++;
	if (out)
		out[n] = '\0';
	if (len)
		*len = n;
	return 0;
}

static int digits(void)
{
	const char *s = p;

	while (*p >= '0' && *p <= '9')
		p++;
	return p > s ? 0 : fail("expected a digit");
}

static int number(void)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (digits())
		return -1;
	if (*p == '.') {
		p++;
		if (digits())
			return -1;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (digits())
			return -1;
	}
	return 0;
}

static int value(const char *path, int depth);

static int object(const char *path, int depth)
{
	static char key[256];
	char sub[512];

	p++;
	ws();
	if (*p == '}') {
		p++;
		return 0;
	}
	for (;;) {
		ws();
		if (string(key, sizeof(key), NULL))
			return -1;
		snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", key);
		ws();
		if (*p != ':')
			return fail("expected ':'");
		p++;
		if (value(sub, depth + 1))
			return -1;
		ws();
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '}') {
			p++;
			return 0;
		}
		return fail("expected ',' or '}'");
	}
}

static int array(const char *path, int depth)
{
	p++;
	ws();
	if (*p == ']') {
		p++;
		return 0;
	}
	for (;;) {
		if (value(path, depth + 1))
			return -1;
		ws();
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == ']') {
			p++;
			return 0;
		}
		return fail("expected ',' or ']'");
	}
}

static int value(const char *path, int depth)
{
	const char *start;
	int i = wanted(path), r;

	if (depth > MAX_DEPTH)
		return fail("nested too deep");
	ws();
	start = p;
	if (*p == '{')
		return object(path, depth);
	if (*p == '[')
		return array(path, depth);
	if (*p == '"') {
		static char text[65536];
		size_t n;

		r = string(text, sizeof(text), &n);
		if (!r && i >= 0)
			add_found_text(i, text, n);
		return r;
	}
	if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))
		p += 4;
	else if (!strncmp(p, "false", 5))
		p += 5;
	else if (*p == '-' || (*p >= '0' && *p <= '9')) {
		if (number())
			return -1;
	} else {
		return fail("expected a value");
	}
	if (i >= 0)
		add_found(i, start, p - start);
	return 0;
}

int main(int argc, char **argv)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	FILE *f;
	int i;

	if (argc < 2 || argc - 2 > MAX_PATHS) {
		fprintf(stderr, "usage: pi_jsonl FILE [PATH...]\n");
		return 2;
	}
	f = strcmp(argv[1], "-") ? fopen(argv[1], "r") : stdin;
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	paths = argv + 2;
	npaths = argc - 2;
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (strlen(line) != (size_t)len) {
			printf("line %zu: NUL byte\n", lineno);
			return 1;
		}
		p = line_start = line;
		err = NULL;
		ws();
		if (*p != '{')
			fail("a line must hold one JSON object");
		else if (!value("", 0)) {
			ws();
			if (*p)
				fail("text after the object");
		}
		if (err) {
			printf("line %zu column %zu: %s\n", lineno, (size_t)(p - line_start) + 1, err);
			return 1;
		}
		for (i = 0; i < npaths; i++) {
			printf("%s%s", i ? "\t" : "", found[i] ? found[i] : "-");
			free(found[i]);
			found[i] = NULL;
		}
		if (npaths)
			putchar('\n');
	}
	if (!npaths)
		printf("%zu objects\n", lineno);
	free(line);
	return 0;
}
