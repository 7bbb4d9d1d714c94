/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The escaping pi_show() applies to a format:
 *   seq_escape_str(s, fmt, ESCAPE_ANY | ESCAPE_NAP | ESCAPE_APPEND, "\"\\")
 * With these flags lib/string_helpers.c:string_escape_mem() gives each
 * byte exactly one spelling, which this module reproduces:
 *   - printable ASCII (0x20..0x7e) except '"' and '\\' is copied,
 *   - \n \r \t \v \f          (ESCAPE_SPACE, tried first),
 *   - \\ \a \e \"             (ESCAPE_SPECIAL),
 *   - \0 for NUL              (ESCAPE_NULL),
 *   - \NNN, 3 octal digits, for every other byte (ESCAPE_OCTAL).
 * The unescaper only accepts these canonical spellings, so that
 * unescape + escape gives back the input byte for byte.
 */
#ifndef PI_ESCAPE_H
#define PI_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

#include "util.h"

/* Spelling of one byte; returns its length (1..4), out is not terminated. */
size_t pi_escape_byte(unsigned char c, char out[4]);

void pi_escape_sbuf(struct sbuf *b, const char *src, size_t len);
void pi_escape_file(FILE *f, const char *src, size_t len);

/*
 * Unescape src[0..len) into dst (which needs room for len bytes: the
 * result is never longer). Returns the unescaped length, or -1 with
 * *err_off set to the offset in src of the offending escape and err
 * describing it.
 */
long pi_unescape(const char *src, size_t len, char *dst, size_t *err_off,
		 struct pi_err *err);

#endif
