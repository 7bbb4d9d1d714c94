// SPDX-License-Identifier: GPL-2.0
/*
 * Reading log-monitoring rule files for check (rules.h): plain text, and
 * node-problem-detector's JSON with a small reader of its own (only the
 * rules[] array's "pattern" and "reason" are read; the rest is skipped,
 * checked for being JSON).
 */
#include <stdlib.h>
#include <string.h>

#include "rules.h"

static struct rule *add_rule(struct rules *rs, const char *file, unsigned int line)
{
	struct rule *r;

	if (rs->n == rs->cap) {
		rs->cap = grow_cap(rs->cap, 16);
		rs->v = xreallocarray(rs->v, rs->cap, sizeof(*rs->v));
	}
	r = &rs->v[rs->n++];
	memset(r, 0, sizeof(*r));
	r->file = file;
	r->line = line;
	return r;
}

/* ------------------------------------------------------------------ */
/* Plain rule files                                                     */

static void load_text(struct rules *rs, const char *file, const char *buf, size_t n,
		      enum rx_mode mode)
{
	unsigned int line = 0;
	size_t i = 0;

	while (i < n) {
		const char *s = buf + i, *nl = memchr(s, '\n', n - i), *tab;
		size_t len = nl ? (size_t)(nl - s) : n - i;
		struct rule *r;

		i += len + 1;
		line++;
		if (len && s[len - 1] == '\r')
			len--;
		if (!len || s[0] == '#')
			continue;
		r = add_rule(rs, file, line);
		r->mode = mode;
		/* a NUL byte: no label, the whole line is reported */
		tab = memchr(s, 0, len) ? NULL : memchr(s, '\t', len);
		if (tab) {
			r->label = xmemdup(s, tab - s);
			len -= tab + 1 - s;
			s = tab + 1;
		}
		r->pat = xmemdup(s, len);
		r->len = len;
	}
}

/* ------------------------------------------------------------------ */
/* node-problem-detector JSON: just what is needed                      */

struct jp {
	const char *p, *end;
	unsigned int line;
	const char *file;
	struct pi_err *err;
};

static int jfail(struct jp *j, const char *what)
{
	pi_seterr(j->err, "%s:%u: bad JSON: %s", j->file, j->line, what);
	return -1;
}

static void jws(struct jp *j)
{
	while (j->p < j->end && strchr(" \t\r\n", *j->p)) {
		if (*j->p == '\n')
			j->line++;
		j->p++;
	}
}

static void utf8(struct sbuf *o, unsigned int c)
{
	if (c < 0x80) {
		sbuf_addc(o, c);
	} else if (c < 0x800) {
		sbuf_addc(o, 0xc0 | c >> 6);
		sbuf_addc(o, 0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		sbuf_addc(o, 0xe0 | c >> 12);
		sbuf_addc(o, 0x80 | (c >> 6 & 0x3f));
		sbuf_addc(o, 0x80 | (c & 0x3f));
	} else {
		sbuf_addc(o, 0xf0 | c >> 18);
		sbuf_addc(o, 0x80 | (c >> 12 & 0x3f));
		sbuf_addc(o, 0x80 | (c >> 6 & 0x3f));
		sbuf_addc(o, 0x80 | (c & 0x3f));
	}
}

static int jhex4(struct jp *j, unsigned int *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++, j->p++) {
		char c = j->p < j->end ? *j->p : 0;

		if (c >= '0' && c <= '9')
			*v = *v * 16 + c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			*v = *v * 16 + (c | 0x20) - 'a' + 10;
		else
			return jfail(j, "bad \\u escape");
	}
	return 0;
}

static int jstring(struct jp *j, struct sbuf *o)
{
	/* "" is a string too: o->p is never NULL */
	sbuf_reset(o);
	sbuf_reserve(o, 0);
	o->p[0] = '\0';
	if (j->p >= j->end || *j->p != '"')
		return jfail(j, "string expected");
	j->p++;
	while (j->p < j->end && *j->p != '"') {
		unsigned int c, lo;

		if ((unsigned char)*j->p < 0x20)
			return jfail(j, "control character in string");
		if (*j->p != '\\') {
			sbuf_addc(o, *j->p++);
			continue;
		}
		if (++j->p >= j->end)
			break;
		switch (*j->p++) {
		case '"': sbuf_addc(o, '"'); break;
		case '\\': sbuf_addc(o, '\\'); break;
		case '/': sbuf_addc(o, '/'); break;
		case 'b': sbuf_addc(o, '\b'); break;
		case 'f': sbuf_addc(o, '\f'); break;
		case 'n': sbuf_addc(o, '\n'); break;
		case 'r': sbuf_addc(o, '\r'); break;
		case 't': sbuf_addc(o, '\t'); break;
		case 'u':
			if (jhex4(j, &c))
				return -1;
			if (c >= 0xd800 && c < 0xdc00 && j->end - j->p >= 6 &&
			    j->p[0] == '\\' && j->p[1] == 'u') {
				j->p += 2;
				if (jhex4(j, &lo))
					return -1;
				c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
			}
			utf8(o, c);
			break;
		default:
			return jfail(j, "bad escape in string");
		}
	}
	if (j->p >= j->end)
		return jfail(j, "unterminated string");
	j->p++;
	return 0;
}

static int jskip(struct jp *j, int depth)
{
	struct sbuf tmp = { 0 };
	int ret = 0;

	jws(j);
	if (depth > 100)
		return jfail(j, "nested too deep");
	if (j->p >= j->end)
		return jfail(j, "value expected");
	if (*j->p == '"') {
		ret = jstring(j, &tmp);
	} else if (*j->p == '{' || *j->p == '[') {
		char close = *j->p == '{' ? '}' : ']';

		j->p++;
		jws(j);
		if (j->p < j->end && *j->p == close) {
			j->p++;
			return 0;
		}
		for (;;) {
			if (close == '}') {
				jws(j);
				if (jstring(j, &tmp))
					break;
				jws(j);
				if (j->p >= j->end || *j->p++ != ':') {
					ret = jfail(j, "':' expected");
					break;
				}
			}
			if (jskip(j, depth + 1)) {
				ret = -1;
				break;
			}
			jws(j);
			if (j->p < j->end && *j->p == ',') {
				j->p++;
				continue;
			}
			if (j->p < j->end && *j->p == close) {
				j->p++;
				break;
			}
			ret = jfail(j, "',' or end of container expected");
			break;
		}
	} else {
		const char *s = j->p;

		while (j->p < j->end && strchr("+-.0123456789eEtruefalsn", *j->p))
			j->p++;
		if (s == j->p)
			ret = jfail(j, "value expected");
	}
	sbuf_free(&tmp);
	return ret;
}

/* one element of "rules": an object with "pattern" (and "reason") */
static int jrule(struct jp *j, struct rules *rs, enum rx_mode mode)
{
	struct sbuf key = { 0 }, val = { 0 }, reason = { 0 };
	struct rule *r = NULL;
	bool have_reason = false;
	unsigned int start_line;
	int ret = -1;

	jws(j);
	start_line = j->line;
	if (j->p >= j->end || *j->p++ != '{')
		return jfail(j, "rule object expected");
	for (;;) {
		unsigned int line;

		jws(j);
		if (j->p < j->end && *j->p == '}') {
			j->p++;
			break;
		}
		if (jstring(j, &key))
			goto out;
		jws(j);
		if (j->p >= j->end || *j->p++ != ':') {
			jfail(j, "':' expected");
			goto out;
		}
		jws(j);
		line = j->line;
		if (!strcmp(key.p, "pattern") || !strcmp(key.p, "reason")) {
			if (jstring(j, &val))
				goto out;
			if (key.p[0] == 'r') {
				sbuf_reset(&reason);
				sbuf_add(&reason, val.p, val.len);
				have_reason = true;
			} else if (!r) {
				r = add_rule(rs, j->file, line);
				r->mode = mode;
				r->pat = xmemdup(val.p, val.len);
				r->len = val.len;
			}
		} else if (jskip(j, 1)) {
			goto out;
		}
		jws(j);
		if (j->p < j->end && *j->p == ',')
			j->p++;
	}
	if (!r) {
		/* a rule that can never fire would pass unnoticed */
		pi_seterr(j->err, "%s:%u: rule %s has no \"pattern\"", j->file, start_line,
			  have_reason && reason.p ? reason.p : "-");
		goto out;
	}
	if (have_reason)
		r->label = xmemdup(reason.p, reason.len);
	ret = 0;
out:
	sbuf_free(&key);
	sbuf_free(&val);
	sbuf_free(&reason);
	return ret;
}

static int load_npd(struct rules *rs, const char *file, const char *buf, size_t n,
		    enum rx_mode mode, struct pi_err *err)
{
	struct jp j = { .p = buf, .end = buf + n, .line = 1, .file = file, .err = err };
	struct sbuf key = { 0 };
	bool found = false;
	int ret = -1;

	jws(&j);
	j.p++;	/* '{', checked by the caller */
	for (;;) {
		jws(&j);
		if (j.p < j.end && *j.p == '}')
			break;
		if (jstring(&j, &key))
			goto out;
		jws(&j);
		if (j.p >= j.end || *j.p++ != ':') {
			jfail(&j, "':' expected");
			goto out;
		}
		jws(&j);
		if (!strcmp(key.p, "rules") && j.p < j.end && *j.p == '[') {
			found = true;
			j.p++;
			for (;;) {
				jws(&j);
				if (j.p < j.end && *j.p == ']') {
					j.p++;
					break;
				}
				if (jrule(&j, rs, mode))
					goto out;
				jws(&j);
				if (j.p < j.end && *j.p == ',')
					j.p++;
				else if (j.p >= j.end || *j.p != ']') {
					jfail(&j, "',' or ']' expected");
					goto out;
				}
			}
		} else if (jskip(&j, 1)) {
			goto out;
		}
		jws(&j);
		if (j.p < j.end && *j.p == ',')
			j.p++;
		else if (j.p >= j.end || *j.p != '}') {
			jfail(&j, "',' or '}' expected");
			goto out;
		}
	}
	if (!found) {
		pi_seterr(err, "%s: no \"rules\" array (not a node-problem-detector configuration?)", file);
		goto out;
	}
	ret = 0;
out:
	sbuf_free(&key);
	return ret;
}

int rules_load(struct rules *rs, const char *file, bool anchored, struct pi_err *err)
{
	char *text;
	size_t len, i, before = rs->n;
	int ret = 0;

	if (pi_read_file(file, &text, &len, err))
		return -1;
	for (i = 0; i < len && strchr(" \t\r\n", text[i]); i++)
		;
	if (i < len && text[i] == '{')
		ret = load_npd(rs, file, text, len, anchored ? RX_WHOLE : RX_SUFFIX, err);
	else
		load_text(rs, file, text, len, anchored ? RX_WHOLE : RX_SEARCH);
	/* checking nothing would look like success */
	if (!ret && i == len) {
		pi_seterr(err, "%s: empty rules file", file);
		ret = -1;
	} else if (!ret && rs->n == before) {
		pi_seterr(err, "%s: no rule in the file (%s)", file,
			  text[i] == '{' ? "an empty \"rules\" array" : "only comments");
		ret = -1;
	}
	free(text);
	return ret;
}

void rules_free(struct rules *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++) {
		if (rs->v[i].ok)
			ck_rule_free(&rs->v[i].ck);
		free(rs->v[i].label);
		free(rs->v[i].pat);
	}
	free(rs->v);
	rs->v = NULL;
	rs->n = rs->cap = 0;
}
