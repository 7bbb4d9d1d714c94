// SPDX-License-Identifier: GPL-2.0
/* The index container (index.h): entry lines parsed and printed, in the
 * kernel's layout and the combined one; where an index comes from is
 * source.c's. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "index.h"

void pi_index_init(struct pi_index *idx)
{
	memset(idx, 0, sizeof(*idx));
}

void pi_index_free(struct pi_index *idx)
{
	free(idx->v);
	arena_free(&idx->arena);
	memset(idx, 0, sizeof(*idx));
}

static struct pi_entry *new_entry(struct pi_index *idx)
{
	if (idx->n == idx->cap) {
		idx->cap = grow_cap(idx->cap, 1024);
		idx->v = xreallocarray(idx->v, idx->cap, sizeof(*idx->v));
	}
	return &idx->v[idx->n];
}

void pi_index_push(struct pi_index *idx, const struct pi_entry *e)
{
	*new_entry(idx) = *e;
	idx->n++;
}

/*
 * "<c>", "<N,c>" (N 0..7), "<N>" (N -1..7). pi_show() prints "<c>" for a
 * continuation without level, so "<-1,c>" can not occur and would not
 * round-trip: reject it like any other spelling the kernel never writes.
 */
static int parse_level(const char *p, const char *end, const char **next,
		       int *level, bool *cont, struct pi_err *err)
{
	const char *q = p;
	int lvl;

	if (q >= end || *q != '<') {
		pi_seterr(err, "column 1: expected '<' starting the level/flags field");
		return -1;
	}
	q++;
	if (q < end && *q == 'c') {
		lvl = PI_LEVEL_DEFAULT;
		*cont = true;
		q++;
	} else if (q + 1 < end && q[0] == '-' && q[1] == '1') {
		lvl = PI_LEVEL_DEFAULT;
		*cont = false;
		q += 2;
	} else if (q < end && *q >= '0' && *q <= '7') {
		lvl = *q - '0';
		q++;
		*cont = false;
		if (q + 1 < end && q[0] == ',' && q[1] == 'c') {
			*cont = true;
			q += 2;
		}
	} else {
		goto bad;
	}
	if (q >= end || *q != '>')
		goto bad;
	*level = lvl;
	*next = q + 1;
	return 0;
bad:
	{
		const char *gt = memchr(p, '>', end - p);
		int n = gt ? (int)(gt - p + 1) : (int)(end - p);

		if (n > 16)
			n = 16;
		pi_seterr(err, "column 1: bad level/flags '%.*s' (expected <0>..<7>, <-1>, <c> or <N,c>)",
			  n, p);
	}
	return -1;
}

static int is_print(unsigned char c)
{
	return c > 0x20 && c < 0x7f;
}

/* A space-free, printable token ending at the next space. */
static const char *token(const char *p, const char *end)
{
	while (p < end && is_print(*p))
		p++;
	return p;
}

/*
 * The format runs from p (after the opening quote) to the end of the line
 * and must end in an unescaped '"': an odd number of backslashes in front
 * of the last quote means it is an escaped one, and the line was cut.
 */
static bool closing_quote(const char *p, const char *end)
{
	const char *b;

	if (p >= end || end[-1] != '"')
		return false;
	for (b = end - 2; b >= p && *b == '\\'; b--)
		;
	return ((end - 2 - b) & 1) == 0;
}

/* The line number from colon + 1 to tok_end, as "%d" prints it. */
static int parse_line_number(const char *line, const char *colon, const char *tok_end,
			     unsigned long *out, struct pi_err *err)
{
	unsigned long ln = 0;
	const char *q;

	for (q = colon + 1; q < tok_end; q++) {
		if (*q < '0' || *q > '9' || ln > INT_MAX / 10)
			goto bad;
		ln = ln * 10 + (*q - '0');
	}
	/* "%d" never writes leading zeros: "007" would not round-trip */
	if (ln > INT_MAX || (colon[1] == '0' && tok_end - colon > 2))
		goto bad;
	*out = ln;
	return 0;
bad:
	pi_seterr(err, "column %zu: bad line number '%.*s'",
		  colon - line + 2, (int)(tok_end - colon - 1), colon + 1);
	return -1;
}

/*
 * "filename:line " at *pp into e->file and e->line; *pp moves past it.
 * The file name may itself contain ':', the line number is after the
 * last one.
 */
static int parse_file_line(struct pi_index *idx, const char *line, const char **pp,
			   const char *end, struct pi_entry *e, struct pi_err *err)
{
	const char *p = *pp, *tok_end = token(p, end), *colon = NULL, *q;
	unsigned long ln;

	if (tok_end == p || tok_end >= end || *tok_end != ' ') {
		pi_seterr(err, "column %zu: expected 'filename:line' followed by ' '",
			  p - line + 1);
		return -1;
	}
	for (q = p; q < tok_end; q++)
		if (*q == ':')
			colon = q;
	if (!colon || colon == p || colon + 1 == tok_end) {
		pi_seterr(err, "column %zu: expected 'filename:line', got '%.*s'",
			  p - line + 1, (int)(tok_end - p), p);
		return -1;
	}
	if (parse_line_number(line, colon, tok_end, &ln, err))
		return -1;
	e->line = ln;
	e->file = arena_strndup(&idx->arena, p, colon - p);
	*pp = tok_end + 1;
	return 0;
}

/* "function " at *pp into e->func; *pp moves past it. */
static int parse_func(struct pi_index *idx, const char *line, const char **pp,
		      const char *end, struct pi_entry *e, struct pi_err *err)
{
	const char *p = *pp, *tok_end = token(p, end);

	if (tok_end == p || tok_end >= end || *tok_end != ' ') {
		pi_seterr(err, "column %zu: expected a function name followed by ' '",
			  p - line + 1);
		return -1;
	}
	e->func = arena_strndup(&idx->arena, p, tok_end - p);
	*pp = tok_end + 1;
	return 0;
}

/* The quoted format from p to the end of the line, unescaped into e->fmt. */
static int parse_format(struct pi_index *idx, const char *line, const char *p,
			const char *end, struct pi_entry *e, struct pi_err *err)
{
	size_t err_off;
	char *fmt;
	long n;

	if (p >= end || *p != '"') {
		pi_seterr(err, "column %zu: expected '\"' starting the format", p - line + 1);
		return -1;
	}
	p++;
	if (!closing_quote(p, end)) {
		pi_seterr(err, "column %zu: format is not terminated by '\"' (truncated line?)",
			  (size_t)(end - line) + 1);
		return -1;
	}
	fmt = arena_alloc(&idx->arena, end - 1 - p + 1);
	n = pi_unescape(p, end - 1 - p, fmt, &err_off, err);
	if (n < 0) {
		char msg[sizeof(err->msg)];

		memcpy(msg, err->msg, sizeof(msg));
		pi_seterr(err, "column %zu: %s", p + err_off - line + 1, msg);
		return -1;
	}
	fmt[n] = '\0';
	e->fmt = fmt;
	e->fmt_len = n;
	return 0;
}

int pi_parse_entry(struct pi_index *idx, const char *module,
		   const char *line, size_t len, struct pi_err *err)
{
	const char *end = line + len, *p;
	struct pi_entry e = { 0 };

	if (parse_level(line, end, &p, &e.level, &e.cont, err))
		return -1;
	if (p >= end || *p != ' ') {
		pi_seterr(err, "column %zu: expected ' ' after level/flags", p - line + 1);
		return -1;
	}
	p++;
	if (parse_file_line(idx, line, &p, end, &e, err) ||
	    parse_func(idx, line, &p, end, &e, err) ||
	    parse_format(idx, line, p, end, &e, err))
		return -1;
	e.module = module;
	*new_entry(idx) = e;
	idx->n++;
	return 0;
}

int pi_parse_combined_entry(struct pi_index *idx, const char *line,
			    size_t len, struct pi_err *err)
{
	const char *end = line + len, *sp = token(line, end);
	const char *module;
	size_t mlen = sp - line;

	if (sp == line || sp >= end || *sp != ' ') {
		pi_seterr(err, "column 1: expected a module name followed by ' '");
		return -1;
	}
	/* consecutive entries share the module string */
	if (idx->n && strlen(idx->v[idx->n - 1].module) == mlen &&
	    !memcmp(idx->v[idx->n - 1].module, line, mlen))
		module = idx->v[idx->n - 1].module;
	else
		module = arena_strndup(&idx->arena, line, mlen);
	if (pi_parse_entry(idx, module, sp + 1, end - sp - 1, err)) {
		/* columns in the message are relative to the entry part;
		 * shift them so they point into the real line */
		unsigned long col;
		char rest[sizeof(err->msg)];

		if (sscanf(err->msg, "column %lu: %[^\n]", &col, rest) == 2)
			pi_seterr(err, "column %lu: %s", col + mlen + 1, rest);
		return -1;
	}
	return 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

int pi_load_stream(struct pi_index *idx, FILE *f, const char *name,
		   struct pi_err *err)
{
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	enum pi_layout layout = PI_LAYOUT_KERNEL;
	const char *module = NULL;
	int ret = -1;

	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (len > PI_MAX_LINE) {
			pi_seterr(err, "%s:%zu: line too long (%zd bytes, limit %d)",
				  name, lineno, len, PI_MAX_LINE);
			goto out;
		}
		if (len == 0 || line[len - 1] != '\n') {
			pi_seterr(err, "%s:%zu: truncated line (no newline at end of file)",
				  name, lineno);
			goto out;
		}
		len--;
		if (lineno == 1) {
			if ((size_t)len == strlen(PI_HEADER) &&
			    !memcmp(line, PI_HEADER, len)) {
				layout = PI_LAYOUT_KERNEL;
				module = arena_strndup(&idx->arena, base_name(name),
						       strlen(base_name(name)));
			} else if ((size_t)len == strlen(PI_HEADER_COMBINED) &&
				   !memcmp(line, PI_HEADER_COMBINED, len)) {
				layout = PI_LAYOUT_COMBINED;
			} else {
				pi_seterr(err, "%s:1: missing header (expected '%s')",
					  name, PI_HEADER);
				goto out;
			}
			continue;
		}
		if (layout == PI_LAYOUT_KERNEL ?
		    pi_parse_entry(idx, module, line, len, err) :
		    pi_parse_combined_entry(idx, line, len, err)) {
			char msg[sizeof(err->msg)];

			memcpy(msg, err->msg, sizeof(msg));
			pi_seterr(err, "%s:%zu: %s", name, lineno, msg);
			goto out;
		}
	}
	if (ferror(f)) {
		pi_seterr(err, "%s: read error: %s", name, strerror(errno));
		goto out;
	}
	if (lineno == 0) {
		pi_seterr(err, "%s:1: missing header (empty file)", name);
		goto out;
	}
	idx->layout = layout;
	ret = 0;
out:
	free(line);
	return ret;
}

void pi_level_str(const struct pi_entry *e, char buf[16])
{
	if (e->cont && e->level == PI_LEVEL_DEFAULT)
		strcpy(buf, "<c>");
	else if (e->cont)
		snprintf(buf, 16, "<%d,c>", e->level);
	else
		snprintf(buf, 16, "<%d>", e->level);
}

void pi_print_entry(FILE *f, const struct pi_entry *e)
{
	char lvl[16];

	pi_level_str(e, lvl);
	fprintf(f, "%s %s:%u %s \"", lvl, e->file, e->line, e->func);
	pi_escape_file(f, e->fmt, e->fmt_len);
	fputs("\"\n", f);
}

/* netdev_<level>()'s prefix is the parent's part, then "%s%s: " */
#define NETDEV_PARENT "%s %s "
#define NETDEV_PREFIX NETDEV_PARENT "%s%s: "

const char *pi_entry_model(const struct pi_entry *e, size_t *len)
{
	size_t n = sizeof(NETDEV_PREFIX) - 1, skip = sizeof(NETDEV_PARENT) - 1;

	if (e->fmt_len >= n && !memcmp(e->fmt, NETDEV_PREFIX, n)) {
		*len = e->fmt_len - skip;
		return e->fmt + skip;
	}
	*len = e->fmt_len;
	return e->fmt;
}

void pi_json_entry_fields(json_writer_t *w, const struct pi_entry *e)
{
	jsonw_string_field(w, "module", e->module);
	jsonw_int_field(w, "level", e->level);
	jsonw_bool_field(w, "cont", e->cont);
	jsonw_string_field(w, "file", e->file);
	jsonw_uint_field(w, "line", e->line);
	jsonw_string_field(w, "function", e->func);
	jsonw_name(w, "format");
	jsonw_string_len(w, e->fmt, e->fmt_len);
}

void pi_json_entry(json_writer_t *w, const struct pi_entry *e)
{
	jsonw_start_object(w);
	pi_json_entry_fields(w, e);
	jsonw_end_object(w);
}
