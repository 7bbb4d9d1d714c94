// SPDX-License-Identifier: GPL-2.0
/*
 * printk-index extract [-j] [-o OUTDIR] vmlinux|module.ko|build-dir...
 *
 * The index of ELF objects, offline (elf_index.h), written exactly as the
 * running kernel shows it in /sys/kernel/printk_index/<name>. One object
 * and no -o: to standard output in the kernel layout. Several objects and
 * no -o: the combined layout, like "list". With -o: one file per object,
 * OUTDIR/<name>. A build folder stands for its vmlinux and every *.ko
 * below it, and needs -o.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "elf_index.h"
#include "index.h"
#include "main.h"

struct objs {
	char **v;
	size_t n, cap;
};

static void objs_add(struct objs *o, const char *path)
{
	if (o->n == o->cap) {
		o->cap = grow_cap(o->cap, 64);
		o->v = xreallocarray(o->v, o->cap, sizeof(*o->v));
	}
	o->v[o->n++] = xstrdup(path);
}

/* vmlinux at the top, *.ko anywhere below (symlinks not followed). */
static int scan_dir(struct objs *o, const char *dir, bool top, struct pi_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct objs sub = { 0 };
	size_t i;
	int ret = 0;

	if (!d) {
		pi_seterr(err, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char *full;
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		full = xmalloc(strlen(dir) + len + 2);
		sprintf(full, "%s/%s", dir, de->d_name);
		if (lstat(full, &st)) {
			free(full);
			continue;
		}
		if (S_ISDIR(st.st_mode))
			objs_add(&sub, full);
		else if (S_ISREG(st.st_mode) &&
			 ((top && !strcmp(de->d_name, "vmlinux")) ||
			  (len > 3 && !strcmp(de->d_name + len - 3, ".ko"))))
			objs_add(o, full);
		free(full);
	}
	closedir(d);
	if (sub.n)
		qsort(sub.v, sub.n, sizeof(*sub.v), cmp_strp);
	for (i = 0; i < sub.n && !ret; i++)
		ret = scan_dir(o, sub.v[i], false, err);
	for (i = 0; i < sub.n; i++)
		free(sub.v[i]);
	free(sub.v);
	return ret;
}

static void print_index(FILE *f, const struct pi_index *idx, size_t from, size_t to,
			bool combined)
{
	size_t i;

	fputs(combined ? PI_HEADER_COMBINED "\n" : PI_HEADER "\n", f);
	for (i = from; i < to; i++) {
		if (combined)
			fprintf(f, "%s ", idx->v[i].module);
		pi_print_entry(f, &idx->v[i]);
	}
}

static int write_one(const char *outdir, const struct pi_index *idx, size_t from, size_t to,
		     const char *module, struct pi_err *err)
{
	char *path = xmalloc(strlen(outdir) + strlen(module) + 2);
	FILE *f;
	size_t i;
	int ret = 0;

	sprintf(path, "%s/%s", outdir, module);
	f = fopen(path, "w");
	if (!f) {
		pi_seterr(err, "%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	if (json_output) {
		json_writer_t *w = jsonw_new(f);

		jsonw_pretty(w, pretty_output);
		jsonw_start_array(w);
		for (i = from; i < to; i++)
			pi_json_entry(w, &idx->v[i]);
		jsonw_end_array(w);
		jsonw_destroy(&w);
		fputc('\n', f);
	} else {
		print_index(f, idx, from, to, false);
	}
	/* a write that failed before the last flush shows only in ferror() */
	if (ferror(f)) {
		pi_seterr(err, "%s: write error", path);
		ret = -1;
	}
	if (fclose(f) && !ret) {
		pi_seterr(err, "%s: %s", path, strerror(errno));
		ret = -1;
	}
	free(path);
	return ret;
}

#define USAGE "printk-index extract [-j] [-o OUTDIR] vmlinux|module.ko|build-dir..."

/* -o into *outdir; -1, the usage shown, on a bad option or no object. */
static int parse_extract_opts(int argc, char **argv, const char **outdir)
{
	static const struct option opts[] = {
		COMMON_LONG_OPTS,
		{ "output", required_argument, NULL, 'o' },
		{ 0 }
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "jpvo:", opts, NULL)) >= 0) {
		if (common_opt(opt))
			continue;
		switch (opt) {
		case 'o': *outdir = optarg; break;
		default:
			fprintf(stderr, "Usage: %s\n", USAGE);
			return -1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "Usage: %s\n", USAGE);
		return -1;
	}
	return 0;
}

/*
 * The objects the arguments name: a file as it is, a build folder as
 * the vmlinux and *.ko in it (*had_dir set). -1 when an argument does not
 * exist or a folder has no object.
 */
static int collect_objects(struct objs *o, char **args, size_t n, bool *had_dir,
			   struct pi_err *err)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct stat st;

		if (stat(args[i], &st)) {
			pi_seterr(err, "%s: %s", args[i], strerror(errno));
			return -1;
		}
		if (S_ISDIR(st.st_mode)) {
			size_t before = o->n;

			*had_dir = true;
			if (scan_dir(o, args[i], true, err))
				return -1;
			if (o->n == before) {
				pi_seterr(err, "%s: no vmlinux or *.ko in it", args[i]);
				return -1;
			}
		} else {
			objs_add(o, args[i]);
		}
	}
	return 0;
}

/* The objects read, one after another, into one index. */
struct extraction {
	struct objs objs;
	struct pi_index idx;
	size_t *start;		/* objs.v[i]'s entries: idx.v[start[i] .. start[i + 1]) */
	const char **names;	/* objs.v[i]'s module name */
};

static int load_objects(struct extraction *x, struct pi_err *err)
{
	size_t i;

	x->start = xcalloc(x->objs.n + 1, sizeof(*x->start));
	x->names = xcalloc(x->objs.n + 1, sizeof(*x->names));
	for (i = 0; i < x->objs.n; i++) {
		x->start[i] = x->idx.n;
		if (pi_elf_load_file(&x->idx, x->objs.v[i], &x->names[i], err))
			return -1;
	}
	x->start[x->objs.n] = x->idx.n;
	return 0;
}

/* -o writes one file per module name: a second one would replace the first. */
static int check_unique_names(const struct extraction *x, struct pi_err *err)
{
	size_t i, j;

	for (i = 1; i < x->objs.n; i++) {
		for (j = 0; j < i && strcmp(x->names[j], x->names[i]); j++)
			;
		if (j < i) {
			pi_seterr(err, "extract: %s and %s are both module '%s', which -o writes to one file",
				  x->objs.v[j], x->objs.v[i], x->names[i]);
			return -1;
		}
	}
	return 0;
}

/* -o: OUTDIR/<module> for each object, nothing written if two share a name. */
static int write_outdir(const struct extraction *x, const char *outdir, struct pi_err *err)
{
	size_t i;

	if (check_unique_names(x, err))
		return -1;
	for (i = 0; i < x->objs.n; i++)
		if (write_one(outdir, &x->idx, x->start[i], x->start[i + 1], x->names[i], err))
			return -1;
	return 0;
}

/* No -o: all of it on stdout, the combined layout for several objects. */
static void print_extraction(const struct extraction *x)
{
	size_t i;

	if (json_output) {
		json_begin();
		jsonw_start_array(json_wtr);
		for (i = 0; i < x->idx.n; i++)
			pi_json_entry(json_wtr, &x->idx.v[i]);
		jsonw_end_array(json_wtr);
		json_end();
	} else {
		print_index(stdout, &x->idx, 0, x->idx.n, x->objs.n > 1);
	}
}

static void extraction_free(struct extraction *x)
{
	size_t i;

	for (i = 0; i < x->objs.n; i++)
		free(x->objs.v[i]);
	free(x->objs.v);
	free(x->start);
	free(x->names);
	pi_index_free(&x->idx);
}

int do_extract(int argc, char **argv)
{
	const char *outdir = NULL;
	struct extraction x = { 0 };
	struct pi_err err;
	bool had_dir = false;
	int ret = EXIT_ERR;

	if (parse_extract_opts(argc, argv, &outdir))
		return EXIT_ERR;
	if (!pi_elf_supported()) {
		p_err("extract: this printk-index was built without libelf");
		return EXIT_ERR;
	}
	pi_index_init(&x.idx);
	if (collect_objects(&x.objs, argv + optind, argc - optind, &had_dir, &err))
		goto fail;
	if (had_dir && !outdir) {
		pi_seterr(&err, "extract: a build folder needs -o OUTDIR");
		goto fail;
	}
	if (outdir && mkdir(outdir, 0755) && errno != EEXIST) {
		pi_seterr(&err, "%s: %s", outdir, strerror(errno));
		goto fail;
	}
	if (load_objects(&x, &err))
		goto fail;
	if (outdir) {
		if (write_outdir(&x, outdir, &err))
			goto fail;
	} else {
		print_extraction(&x);
	}
	ret = EXIT_OK;
	goto out;
fail:
	p_err("%s", err.msg);
out:
	extraction_free(&x);
	return ret;
}
