/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal streaming JSON writer, in the spirit of the one bpftool and
 * iproute2 use: the caller opens/closes objects and arrays, the writer
 * takes care of commas, indentation and string escaping.
 */
#ifndef PI_JSON_WRITER_H
#define PI_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct json_writer json_writer_t;

json_writer_t *jsonw_new(FILE *f);
void jsonw_destroy(json_writer_t **self_p);
void jsonw_pretty(json_writer_t *self, bool on);

void jsonw_start_object(json_writer_t *self);
void jsonw_end_object(json_writer_t *self);
void jsonw_start_array(json_writer_t *self);
void jsonw_end_array(json_writer_t *self);

void jsonw_name(json_writer_t *self, const char *name);
void jsonw_string(json_writer_t *self, const char *s);
/* Arbitrary bytes: valid UTF-8 passes through, other bytes become \u00XX. */
void jsonw_string_len(json_writer_t *self, const char *s, size_t len);
void jsonw_int(json_writer_t *self, int64_t v);
void jsonw_uint(json_writer_t *self, uint64_t v);
void jsonw_float(json_writer_t *self, double v);
void jsonw_bool(json_writer_t *self, bool v);
void jsonw_null(json_writer_t *self);

void jsonw_string_field(json_writer_t *self, const char *name, const char *s);
void jsonw_int_field(json_writer_t *self, const char *name, int64_t v);
void jsonw_uint_field(json_writer_t *self, const char *name, uint64_t v);
void jsonw_bool_field(json_writer_t *self, const char *name, bool v);

#endif
