// SPDX-License-Identifier: GPL-2.0
/*
 * printk-index diff [-j] [-v] OLD NEW
 *
 * An entry is identified by (module, file, function, level/flags, format);
 * its line number is not part of the identity, so code moving inside a
 * file does not show up unless -v asks for moves. What is left after that
 * pairing is grouped by (module, file, function): pairs in such a group
 * are "changed", the remainder "removed" or "added".
 *
 * When OLD and NEW are both single files in the kernel layout the module
 * name comes from the file name (say vmlinux.old and vmlinux.new), so
 * module names are ignored for that comparison.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "index.h"
#include "main.h"
#include "source.h"

struct side {
	struct pi_entry *e;
	size_t pos;	/* position in its index, for a stable output order */
	bool paired;
};

static bool ignore_module;

static int cmp_fn(const struct pi_entry *a, const struct pi_entry *b)
{
	int c;

	if (!ignore_module && (c = strcmp(a->module, b->module)))
		return c;
	if ((c = strcmp(a->file, b->file)))
		return c;
	return strcmp(a->func, b->func);
}

static int cmp_ident(const struct pi_entry *a, const struct pi_entry *b)
{
	int c = cmp_fn(a, b);
	size_t n;

	if (c)
		return c;
	if (a->level != b->level)
		return a->level < b->level ? -1 : 1;
	if (a->cont != b->cont)
		return a->cont ? 1 : -1;
	n = a->fmt_len < b->fmt_len ? a->fmt_len : b->fmt_len;
	if ((c = memcmp(a->fmt, b->fmt, n)))
		return c;
	return a->fmt_len < b->fmt_len ? -1 : a->fmt_len > b->fmt_len;
}

static int by_line(const struct side *a, const struct side *b)
{
	if (a->e->line != b->e->line)
		return a->e->line < b->e->line ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static int qs_ident(const void *pa, const void *pb)
{
	const struct side *a = pa, *b = pb;
	int c = cmp_ident(a->e, b->e);

	return c ? c : by_line(a, b);
}

static int qs_fn(const void *pa, const void *pb)
{
	const struct side *a = pa, *b = pb;
	int c = cmp_fn(a->e, b->e);

	return c ? c : by_line(a, b);
}

struct pair {
	struct side *old, *new;	/* either may be NULL (added/removed) */
};

struct result {
	struct pair *v;
	size_t n, cap;
};

static void add_pair(struct result *r, struct side *o, struct side *n)
{
	if (r->n == r->cap) {
		r->cap = grow_cap(r->cap, 64);
		r->v = xreallocarray(r->v, r->cap, sizeof(*r->v));
	}
	r->v[r->n].old = o;
	r->v[r->n].new = n;
	r->n++;
	if (o)
		o->paired = true;
	if (n)
		n->paired = true;
}

/* Output order: by position in OLD, added entries by position in NEW. */
static int qs_pair(const void *pa, const void *pb)
{
	const struct pair *a = pa, *b = pb;
	size_t x = a->old ? a->old->pos : a->new->pos;
	size_t y = b->old ? b->old->pos : b->new->pos;

	return x < y ? -1 : x > y;
}

static struct side *make_sides(struct pi_index *idx)
{
	struct side *s = xcalloc(idx->n, sizeof(*s));
	size_t i;

	for (i = 0; i < idx->n; i++) {
		s[i].e = &idx->v[i];
		s[i].pos = i;
	}
	return s;
}

/*
 * Walk two sorted arrays group by group (cmp equal = same group) and call
 * pair_group for each group present on both sides.
 */
static void walk_groups(struct side **o, size_t no, struct side **n, size_t nn,
			int (*cmp)(const struct pi_entry *, const struct pi_entry *),
			void (*pair_group)(struct side **, size_t, struct side **, size_t,
					   struct result *),
			struct result *r)
{
	size_t i = 0, j = 0;

	while (i < no && j < nn) {
		int c = cmp(o[i]->e, n[j]->e);
		size_t gi, gj;

		if (c < 0) {
			i++;
			continue;
		}
		if (c > 0) {
			j++;
			continue;
		}
		for (gi = i; gi < no && !cmp(o[gi]->e, o[i]->e); gi++)
			;
		for (gj = j; gj < nn && !cmp(n[gj]->e, n[j]->e); gj++)
			;
		pair_group(o + i, gi - i, n + j, gj - j, r);
		i = gi;
		j = gj;
	}
}

/* Same identity: pair equal lines first, then the rest in line order. */
static void pair_same(struct side **o, size_t no, struct side **n, size_t nn,
		      struct result *unchanged)
{
	size_t i = 0, j = 0;

	while (i < no && j < nn) {
		if (o[i]->e->line == n[j]->e->line) {
			add_pair(unchanged, o[i++], n[j++]);
			continue;
		}
		if (o[i]->e->line < n[j]->e->line)
			i++;
		else
			j++;
	}
	for (i = 0, j = 0; i < no && j < nn; i++) {
		if (o[i]->paired)
			continue;
		while (j < nn && n[j]->paired)
			j++;
		if (j < nn)
			add_pair(unchanged, o[i], n[j++]);
	}
}

static void pair_changed(struct side **o, size_t no, struct side **n, size_t nn,
			 struct result *changed)
{
	size_t i;

	for (i = 0; i < no && i < nn; i++)
		add_pair(changed, o[i], n[i]);
}

static struct side **ptrs(struct side *s, size_t n, bool unpaired_only, size_t *cnt,
			  int (*qs)(const void *, const void *))
{
	struct side **p = xcalloc(n, sizeof(*p));
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (!unpaired_only || !s[i].paired)
			p[k++] = &s[i];
	/* qsort on pointers: sort by the pointed-to sides */
	{
		struct side *tmp = xcalloc(k, sizeof(*tmp));

		for (i = 0; i < k; i++)
			tmp[i] = *p[i];
		qsort(tmp, k, sizeof(*tmp), qs);
		for (i = 0; i < k; i++)
			p[i] = &s[tmp[i].pos];
		free(tmp);
	}
	*cnt = k;
	return p;
}

static void print_text_entry(const char *tag, const struct pi_entry *e)
{
	printf("%-8s %s ", tag, e->module);
	pi_print_entry(stdout, e);
}

static void print_fmt(const struct pi_entry *e)
{
	char lvl[16];

	pi_level_str(e, lvl);
	printf("%s \"", lvl);
	pi_escape_file(stdout, e->fmt, e->fmt_len);
	printf("\"");
}

static void json_pairs(const char *name, const struct result *r, int kind)
{
	size_t i;

	jsonw_name(json_wtr, name);
	jsonw_start_array(json_wtr);
	for (i = 0; i < r->n; i++) {
		const struct pair *p = &r->v[i];

		if (kind == 0) {
			pi_json_entry(json_wtr, p->old ? p->old->e : p->new->e);
			continue;
		}
		jsonw_start_object(json_wtr);
		jsonw_name(json_wtr, "old");
		pi_json_entry(json_wtr, p->old->e);
		jsonw_name(json_wtr, "new");
		pi_json_entry(json_wtr, p->new->e);
		jsonw_end_object(json_wtr);
	}
	jsonw_end_array(json_wtr);
}

/* What diff sorts the entries into. */
struct diff_result {
	struct result unchanged;	/* same identity, line perhaps moved */
	struct result changed;		/* same function, other format */
	struct result removed, added;
	struct result moved;		/* of unchanged, those on another line */
};

/* OLD's entries os[], NEW's ns[], paired into the classes of *d. */
static void diff_sides(struct side *os, size_t on, struct side *ns, size_t nn,
		       struct diff_result *d)
{
	struct side **op, **np;
	size_t no, nno, i;

	/* 1. same identity: unchanged (possibly moved) */
	op = ptrs(os, on, false, &no, qs_ident);
	np = ptrs(ns, nn, false, &nno, qs_ident);
	walk_groups(op, no, np, nno, cmp_ident, pair_same, &d->unchanged);
	free(op);
	free(np);

	/* 2. what is left, by function: changed */
	op = ptrs(os, on, true, &no, qs_fn);
	np = ptrs(ns, nn, true, &nno, qs_fn);
	walk_groups(op, no, np, nno, cmp_fn, pair_changed, &d->changed);
	free(op);
	free(np);

	/* 3. the rest */
	for (i = 0; i < on; i++)
		if (!os[i].paired)
			add_pair(&d->removed, &os[i], NULL);
	for (i = 0; i < nn; i++)
		if (!ns[i].paired)
			add_pair(&d->added, NULL, &ns[i]);
	for (i = 0; i < d->unchanged.n; i++)
		if (d->unchanged.v[i].old->e->line != d->unchanged.v[i].new->e->line)
			add_pair(&d->moved, d->unchanged.v[i].old, d->unchanged.v[i].new);

	if (d->changed.n)	/* qsort(NULL, 0) is undefined */
		qsort(d->changed.v, d->changed.n, sizeof(*d->changed.v), qs_pair);
	if (d->moved.n)
		qsort(d->moved.v, d->moved.n, sizeof(*d->moved.v), qs_pair);
}

/* -j: one object, the entries of each class and the counts. */
static void print_diff_json(const struct diff_result *d)
{
	json_begin();
	jsonw_start_object(json_wtr);
	json_pairs("removed", &d->removed, 0);
	json_pairs("added", &d->added, 0);
	json_pairs("changed", &d->changed, 1);
	if (verbose)
		json_pairs("moved", &d->moved, 1);
	jsonw_name(json_wtr, "summary");
	jsonw_start_object(json_wtr);
	jsonw_uint_field(json_wtr, "removed", d->removed.n);
	jsonw_uint_field(json_wtr, "added", d->added.n);
	jsonw_uint_field(json_wtr, "changed", d->changed.n);
	jsonw_uint_field(json_wtr, "moved", d->moved.n);
	jsonw_uint_field(json_wtr, "unchanged", d->unchanged.n);
	jsonw_end_object(json_wtr);
	jsonw_end_object(json_wtr);
	json_end();
}

/* A changed entry: where, then the old and the new format. */
static void print_changed(const struct pi_entry *o, const struct pi_entry *n)
{
	printf("%-8s %s %s:%u", "changed", o->module, o->file, o->line);
	if (n->line != o->line)
		printf(" -> %u", n->line);
	printf(" %s\n         - ", o->func);
	print_fmt(o);
	printf("\n         + ");
	print_fmt(n);
	printf("\n");
}

static void print_moved(const struct pi_entry *o, const struct pi_entry *n)
{
	printf("%-8s %s %s:%u -> %u %s \"", "moved", o->module,
	       o->file, o->line, n->line, o->func);
	pi_escape_file(stdout, o->fmt, o->fmt_len);
	printf("\"\n");
}

/* One line per entry (moves with -v), the counts on stderr. */
static void print_diff_text(const struct diff_result *d)
{
	size_t i;

	for (i = 0; i < d->removed.n; i++)
		print_text_entry("removed", d->removed.v[i].old->e);
	for (i = 0; i < d->added.n; i++)
		print_text_entry("added", d->added.v[i].new->e);
	for (i = 0; i < d->changed.n; i++)
		print_changed(d->changed.v[i].old->e, d->changed.v[i].new->e);
	for (i = 0; verbose && i < d->moved.n; i++)
		print_moved(d->moved.v[i].old->e, d->moved.v[i].new->e);
	fflush(stdout);
	fprintf(stderr, "printk-index: %zu removed, %zu added, %zu changed, %zu moved, %zu unchanged\n",
		d->removed.n, d->added.n, d->changed.n, d->moved.n, d->unchanged.n);
}

static void diff_result_free(struct diff_result *d)
{
	free(d->unchanged.v);
	free(d->changed.v);
	free(d->removed.v);
	free(d->added.v);
	free(d->moved.v);
}

int do_diff(int argc, char **argv)
{
	struct pi_index oi, ni;
	struct side *os = NULL, *ns = NULL;
	struct diff_result d = { 0 };
	struct pi_err err;
	int ret = EXIT_ERR;

	if (parse_common_opts(argc, argv, "printk-index diff [-j] [-v] OLD NEW"))
		return EXIT_ERR;
	if (argc - optind != 2) {
		p_err("diff needs exactly two sources: OLD NEW");
		return EXIT_ERR;
	}
	pi_index_init(&oi);
	pi_index_init(&ni);
	if (pi_load_source(&oi, argv[optind], &err) ||
	    pi_load_source(&ni, argv[optind + 1], &err)) {
		p_err("%s", err.msg);
		goto out;
	}
	ignore_module = oi.layout == PI_LAYOUT_KERNEL && ni.layout == PI_LAYOUT_KERNEL;

	os = make_sides(&oi);
	ns = make_sides(&ni);
	diff_sides(os, oi.n, ns, ni.n, &d);
	if (json_output)
		print_diff_json(&d);
	else
		print_diff_text(&d);
	ret = d.removed.n || d.changed.n ? EXIT_DIFF : EXIT_OK;
out:
	free(os);
	free(ns);
	diff_result_free(&d);
	pi_index_free(&oi);
	pi_index_free(&ni);
	return ret;
}
