// SPDX-License-Identifier: GPL-2.0
/* What every file uses (util.h): errors, allocation that stops on out
 * of memory, growing buffers, whole files, an arena. */
#include <errno.h>
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

void *xreallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		oom();
	return xrealloc(p, n * size);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t grow_cap(size_t cap, size_t first)
{
	if (!cap)
		return first;
	if (cap > SIZE_MAX / 2)
		oom();
	return cap * 2;
}

char *xmemdup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void sbuf_reserve(struct sbuf *b, size_t extra)
{
	size_t need;

	if (extra >= SIZE_MAX - b->len)
		oom();
	need = b->len + extra + 1;
	if (need <= b->cap)
		return;
	b->cap = grow_cap(b->cap, 64);
	while (b->cap < need)
		b->cap = grow_cap(b->cap, 64);
	b->p = xrealloc(b->p, b->cap);
}

void sbuf_add(struct sbuf *b, const void *data, size_t n)
{
	sbuf_reserve(b, n);
	if (n)		/* data may be NULL then: an empty sbuf's p */
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

int pi_read_file(const char *path, char **buf, size_t *len, struct pi_err *err)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0;
	int read_errno = 0;
	char *p;

	if (!f) {
		pi_seterr(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	p = xmalloc(cap);
	for (;;) {
		errno = 0;
		n += fread(p + n, 1, cap - n, f);
		if (n < cap) {	/* fread() stops short only at the end or on an error */
			if (ferror(f))
				read_errno = errno ? errno : EIO;
			break;
		}
		cap = grow_cap(cap, cap);
		p = xrealloc(p, cap);
	}
	fclose(f);
	if (read_errno) {
		pi_seterr(err, "%s: read error: %s", path, strerror(read_errno));
		free(p);
		return -1;
	}
	p[n] = '\0';	/* n < cap: the loop stops on a short read */
	*buf = p;
	*len = n;
	return 0;
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
