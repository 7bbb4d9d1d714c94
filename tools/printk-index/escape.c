// SPDX-License-Identifier: GPL-2.0
/* The index files' string escapes (escape.h): string_escape_mem()'s
 * spelling, and its inverse. */
#include <string.h>

#include "escape.h"

size_t pi_escape_byte(unsigned char c, char out[4])
{
	char to = 0;

	/* Order matters and follows string_escape_mem(): the NAP
	 * pass-through, then SPACE, SPECIAL, NULL and finally OCTAL. */
	if (c >= 0x20 && c <= 0x7e && c != '"' && c != '\\') {
		out[0] = c;
		return 1;
	}
	switch (c) {
	case '\n': to = 'n'; break;
	case '\r': to = 'r'; break;
	case '\t': to = 't'; break;
	case '\v': to = 'v'; break;
	case '\f': to = 'f'; break;
	case '\\': to = '\\'; break;
	case '\a': to = 'a'; break;
	case 0x1b: to = 'e'; break;
	case '"': to = '"'; break;
	case '\0': to = '0'; break;
	}
	out[0] = '\\';
	if (to) {
		out[1] = to;
		return 2;
	}
	out[1] = '0' + ((c >> 6) & 7);
	out[2] = '0' + ((c >> 3) & 7);
	out[3] = '0' + (c & 7);
	return 4;
}

void pi_escape_sbuf(struct sbuf *b, const char *src, size_t len)
{
	char tmp[4];
	size_t i;

	sbuf_reserve(b, len);
	for (i = 0; i < len; i++)
		sbuf_add(b, tmp, pi_escape_byte(src[i], tmp));
}

void pi_escape_file(FILE *f, const char *src, size_t len)
{
	size_t i, start = 0;
	char tmp[4];

	/* Copy runs of pass-through bytes with one fwrite: list spends most
	 * of its time here on big indexes. */
	for (i = 0; i < len; i++) {
		size_t n = pi_escape_byte(src[i], tmp);

		if (n == 1)
			continue;
		fwrite(src + start, 1, i - start, f);
		fwrite(tmp, 1, n, f);
		start = i + 1;
	}
	fwrite(src + start, 1, len - start, f);
}

static int is_odigit(char c)
{
	return c >= '0' && c <= '7';
}

long pi_unescape(const char *src, size_t len, char *dst, size_t *err_off,
		 struct pi_err *err)
{
	size_t i = 0, o = 0;

	while (i < len) {
		unsigned char c = src[i];
		size_t start = i, used;
		char canon[4];

		if (c != '\\') {
			if (c < 0x20 || c > 0x7e) {
				*err_off = i;
				pi_seterr(err, "raw byte 0x%02x in format (the kernel escapes it)", c);
				return -1;
			}
			if (c == '"') {
				*err_off = i;
				pi_seterr(err, "unescaped '\"' inside format");
				return -1;
			}
			dst[o++] = c;
			i++;
			continue;
		}
		if (i + 1 >= len) {
			*err_off = i;
			pi_seterr(err, "format ends in a lone backslash");
			return -1;
		}
		c = src[i + 1];
		if (is_odigit(c) && i + 3 < len && is_odigit(src[i + 2]) &&
		    is_odigit(src[i + 3])) {
			unsigned v = (c - '0') << 6 | (src[i + 2] - '0') << 3 |
				     (src[i + 3] - '0');

			if (v > 0xff) {
				*err_off = i;
				pi_seterr(err, "octal escape \\%.3s out of range", src + i + 1);
				return -1;
			}
			c = v;
			i += 4;
		} else {
			switch (c) {
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'v': c = '\v'; break;
			case 'f': c = '\f'; break;
			case 'a': c = '\a'; break;
			case 'e': c = 0x1b; break;
			case '0': c = '\0'; break;
			case '\\': c = '\\'; break;
			case '"': c = '"'; break;
			default:
				*err_off = i;
				if (src[i + 1] >= 0x20 && src[i + 1] <= 0x7e)
					pi_seterr(err, "unknown escape '\\%c'", src[i + 1]);
				else
					pi_seterr(err, "unknown escape '\\' + byte 0x%02x",
						  (unsigned char)src[i + 1]);
				return -1;
			}
			i += 2;
		}
		/* Only the spelling the kernel would produce round-trips. */
		used = i - start;
		if (pi_escape_byte(c, canon) != used ||
		    memcmp(canon, src + start, used)) {
			*err_off = start;
			pi_seterr(err, "non-canonical escape '%.*s' (the kernel writes '%.*s')",
				  (int)used, src + start,
				  (int)pi_escape_byte(c, canon), canon);
			return -1;
		}
		dst[o++] = c;
	}
	return (long)o;
}
