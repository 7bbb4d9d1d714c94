// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void pi_seterr(struct pi_err *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

void p_err(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("printk-index: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void oom(void)
{
	/* Nothing sensible can be done; say so and use the error exit code. */
	fputs("printk-index: out of memory\n", stderr);
	exit(EXIT_ERR);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

void sbuf_reserve(struct sbuf *b, size_t extra)
{
	size_t need = b->len + extra + 1;

	if (need <= b->cap)
		return;
	if (need < b->len)	/* overflow */
		oom();
	b->cap = b->cap ? b->cap : 64;
	while (b->cap < need)
		b->cap *= 2;
	b->p = xrealloc(b->p, b->cap);
}

void sbuf_add(struct sbuf *b, const void *data, size_t n)
{
	sbuf_reserve(b, n);
	memcpy(b->p + b->len, data, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void sbuf_reset(struct sbuf *b)
{
	b->len = 0;
	if (b->p)
		b->p[0] = '\0';
}

void sbuf_free(struct sbuf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, size;
	max_align_t data[];
};

#define ARENA_CHUNK (256 * 1024)

void *arena_alloc(struct arena *a, size_t n)
{
	struct arena_chunk *c = a->head;
	size_t align = sizeof(max_align_t);

	n = (n + align - 1) & ~(align - 1);
	if (!c || c->size - c->used < n) {
		size_t size = n > ARENA_CHUNK ? n : ARENA_CHUNK;

		c = xmalloc(sizeof(*c) + size);
		c->size = size;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	c->used += n;
	return (char *)c->data + c->used - n;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void arena_free(struct arena *a)
{
	struct arena_chunk *c = a->head, *next;

	for (; c; c = next) {
		next = c->next;
		free(c);
	}
	a->head = NULL;
}
