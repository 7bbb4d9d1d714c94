// SPDX-License-Identifier: GPL-2.0
/* A streaming JSON writer (json_writer.h), as bpftool's: valid UTF-8
 * passes, other bytes as \u00XX. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "util.h"

#define JSON_MAX_DEPTH 64

struct json_writer {
	FILE *out;
	unsigned int depth;
	bool pretty;
	/* per nesting level: nothing written yet, so no comma needed */
	bool first[JSON_MAX_DEPTH];
	/* a name was just written: the next value must not add a comma */
	bool after_name;
};

json_writer_t *jsonw_new(FILE *f)
{
	json_writer_t *self = xcalloc(1, sizeof(*self));

	self->out = f;
	self->first[0] = true;
	return self;
}

void jsonw_destroy(json_writer_t **self_p)
{
	json_writer_t *self = *self_p;

	if (!self)
		return;
	/* A complete document ends with a newline, like bpftool does. */
	fputc('\n', self->out);
	fflush(self->out);
	free(self);
	*self_p = NULL;
}

void jsonw_pretty(json_writer_t *self, bool on)
{
	self->pretty = on;
}

static void indent(json_writer_t *self)
{
	unsigned int i;

	if (!self->pretty)
		return;
	fputc('\n', self->out);
	for (i = 0; i < self->depth; i++)
		fputs("    ", self->out);
}

/* Called before every value and every name. */
static void separate(json_writer_t *self)
{
	if (self->after_name) {
		self->after_name = false;
		return;
	}
	if (!self->first[self->depth])
		fputc(',', self->out);
	self->first[self->depth] = false;
	if (self->depth)
		indent(self);
}

static void open_(json_writer_t *self, char c)
{
	separate(self);
	fputc(c, self->out);
	/* Deeper nesting is not produced by this tool; clamp instead of
	 * overflowing the array. */
	if (self->depth + 1 < JSON_MAX_DEPTH)
		self->depth++;
	self->first[self->depth] = true;
}

static void close_(json_writer_t *self, char c)
{
	bool empty = self->first[self->depth];

	if (self->depth)
		self->depth--;
	if (!empty)
		indent(self);
	fputc(c, self->out);
}

void jsonw_start_object(json_writer_t *self) { open_(self, '{'); }
void jsonw_end_object(json_writer_t *self) { close_(self, '}'); }
void jsonw_start_array(json_writer_t *self) { open_(self, '['); }
void jsonw_end_array(json_writer_t *self) { close_(self, ']'); }

/* Length of a valid UTF-8 sequence at s (max n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* reject overlong forms, surrogates and values past U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

static void put_string(json_writer_t *self, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	FILE *o = self->out;
	size_t i = 0, n;

	fputc('"', o);
	while (i < len) {
		unsigned char c = s[i];

		/* plain ASCII in one write: most of any log message */
		for (n = i; n < len && s[n] >= 0x20 && s[n] < 0x7f &&
			    s[n] != '"' && s[n] != '\\'; n++)
			;
		if (n > i) {
			fwrite(s + i, 1, n - i, o);
			i = n;
			continue;
		}
		switch (c) {
		case '"': fputs("\\\"", o); i++; continue;
		case '\\': fputs("\\\\", o); i++; continue;
		case '\n': fputs("\\n", o); i++; continue;
		case '\t': fputs("\\t", o); i++; continue;
		case '\r': fputs("\\r", o); i++; continue;
		case '\b': fputs("\\b", o); i++; continue;
		case '\f': fputs("\\f", o); i++; continue;
		}
		if (c < 0x20 || c == 0x7f) {
			fprintf(o, "\\u%04x", c);
			i++;
			continue;
		}
		n = utf8_len(s + i, len - i);
		if (!n) {
			/* Not UTF-8: keep the document valid, map the byte
			 * to the code point of the same value (Latin-1). */
			fprintf(o, "\\u%04x", c);
			i++;
			continue;
		}
		fwrite(s + i, 1, n, o);
		i += n;
	}
	fputc('"', o);
}

void jsonw_name(json_writer_t *self, const char *name)
{
	separate(self);
	put_string(self, name, strlen(name));
	fputc(':', self->out);
	if (self->pretty)
		fputc(' ', self->out);
	self->after_name = true;
}

void jsonw_string(json_writer_t *self, const char *s)
{
	separate(self);
	put_string(self, s, strlen(s));
}

void jsonw_string_len(json_writer_t *self, const char *s, size_t len)
{
	separate(self);
	put_string(self, s, len);
}

void jsonw_int(json_writer_t *self, int64_t v)
{
	separate(self);
	fprintf(self->out, "%" PRId64, v);
}

void jsonw_uint(json_writer_t *self, uint64_t v)
{
	separate(self);
	fprintf(self->out, "%" PRIu64, v);
}

void jsonw_float(json_writer_t *self, double v)
{
	separate(self);
	fprintf(self->out, "%.6g", v);
}

void jsonw_bool(json_writer_t *self, bool v)
{
	separate(self);
	fputs(v ? "true" : "false", self->out);
}

void jsonw_null(json_writer_t *self)
{
	separate(self);
	fputs("null", self->out);
}

void jsonw_string_field(json_writer_t *self, const char *name, const char *s)
{
	jsonw_name(self, name);
	jsonw_string(self, s);
}

void jsonw_int_field(json_writer_t *self, const char *name, int64_t v)
{
	jsonw_name(self, name);
	jsonw_int(self, v);
}

void jsonw_uint_field(json_writer_t *self, const char *name, uint64_t v)
{
	jsonw_name(self, name);
	jsonw_uint(self, v);
}

void jsonw_bool_field(json_writer_t *self, const char *name, bool v)
{
	jsonw_name(self, name);
	jsonw_bool(self, v);
}
