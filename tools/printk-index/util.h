/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by all of printk-index: allocation that never
 * returns NULL, a growable byte buffer, a bump allocator and byte sets.
 */
#ifndef PI_UTIL_H
#define PI_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Exit codes, shared by every subcommand (documented in printk-index.8). */
enum {
	EXIT_OK = 0,
	EXIT_DIFF = 1,	/* diff: something removed or changed */
	EXIT_ERR = 2,	/* bad input, I/O error, usage error */
};

/* Messages are kept in a caller-owned struct so that library code
 * (parsers, matcher) can be used from tests and fuzzers without printing. */
struct pi_err {
	char msg[512];
};

void pi_seterr(struct pi_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void p_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
/* n elements of size bytes: out of memory rather than a wrapped product */
void *xreallocarray(void *p, size_t n, size_t size);
/* The next capacity of a growing array: first, then doubled (out of memory
 * rather than wrapping). */
size_t grow_cap(size_t cap, size_t first);
char *xstrdup(const char *s);
/* s[0..n) and a NUL */
char *xmemdup(const char *s, size_t n);

/* Growable byte buffer; always NUL-terminated for convenience. */
struct sbuf {
	char *p;
	size_t len, cap;
};

/* A whole file (a pipe or /dev/stdin too) in *buf, which the caller frees;
 * a NUL follows its *len bytes. */
int pi_read_file(const char *path, char **buf, size_t *len, struct pi_err *err);

void sbuf_reserve(struct sbuf *b, size_t extra);
void sbuf_add(struct sbuf *b, const void *data, size_t n);
static inline void sbuf_addc(struct sbuf *b, char c)
{
	if (b->len + 2 > b->cap)
		sbuf_reserve(b, 1);
	b->p[b->len++] = c;
	b->p[b->len] = '\0';
}
void sbuf_reset(struct sbuf *b);
void sbuf_free(struct sbuf *b);

/* memmem() for the short needles and lines here: memchr + memcmp (glibc's
 * memmem() sets up a two-way search on every call, several times the cost
 * of finding a needle of a few bytes in a log line). */
static inline const char *mem_find(const char *h, size_t hn, const char *nd, size_t nn)
{
	const char *end = h + hn, *p = h;

	if (!nn)
		return h;
	while (nn <= (size_t)(end - p)) {
		p = memchr(p, nd[0], end - p - nn + 1);
		if (!p)
			return NULL;
		if (!memcmp(p + 1, nd + 1, nn - 1))
			return p;
		p++;
	}
	return NULL;
}

/* FNV-1a over n bytes, continuing from h (FNV_OFFSET to start). */
#define FNV_OFFSET 1469598103934665603ULL

static inline uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

/* The value of a hexadecimal digit (either case), or -1. */
static inline int hex_digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static inline bool ascii_isalpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static inline unsigned char ascii_lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* qsort() comparator of an array of strings */
int cmp_strp(const void *a, const void *b);

/* Bump allocator: index entries are never freed one by one. */
struct arena {
	struct arena_chunk *head;
};

void *arena_alloc(struct arena *a, size_t n);
char *arena_strndup(struct arena *a, const char *s, size_t n);
void arena_free(struct arena *a);

/* Byte sets: 256 bits, one per byte value (regex classes, format bytes). */
static inline void cls_negate(uint64_t cls[4])
{
	int i;

	for (i = 0; i < 4; i++)
		cls[i] = ~cls[i];
}

static inline bool cls_has(const uint64_t c[4], unsigned char ch)
{
	return c[ch >> 6] >> (ch & 63) & 1;
}

static inline void cls_set(uint64_t c[4], unsigned char ch)
{
	c[ch >> 6] |= 1ULL << (ch & 63);
}

#endif
