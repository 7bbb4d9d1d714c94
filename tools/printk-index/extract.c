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

int do_extract(int argc, char **argv)
{
	static const struct option opts[] = {
		COMMON_LONG_OPTS,
		{ "output", required_argument, NULL, 'o' },
		{ 0 }
	};
	const char *usage = "printk-index extract [-j] [-o OUTDIR] vmlinux|module.ko|build-dir...";
	const char *outdir = NULL;
	struct objs objs = { 0 };
	struct pi_index idx;
	struct pi_err err;
	bool had_dir = false;
	size_t i, *start = NULL;
	const char **names = NULL;
	int opt, ret = EXIT_ERR;

	while ((opt = getopt_long(argc, argv, "jpvo:", opts, NULL)) >= 0) {
		if (common_opt(opt))
			continue;
		switch (opt) {
		case 'o': outdir = optarg; break;
		default:
			fprintf(stderr, "Usage: %s\n", usage);
			return EXIT_ERR;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "Usage: %s\n", usage);
		return EXIT_ERR;
	}
	if (!pi_elf_supported()) {
		p_err("extract: this printk-index was built without libelf");
		return EXIT_ERR;
	}
	pi_index_init(&idx);
	for (i = optind; i < (size_t)argc; i++) {
		struct stat st;

		if (stat(argv[i], &st)) {
			pi_seterr(&err, "%s: %s", argv[i], strerror(errno));
			goto fail;
		}
		if (S_ISDIR(st.st_mode)) {
			size_t before = objs.n;

			had_dir = true;
			if (scan_dir(&objs, argv[i], true, &err))
				goto fail;
			if (objs.n == before) {
				pi_seterr(&err, "%s: no vmlinux or *.ko in it", argv[i]);
				goto fail;
			}
		} else {
			objs_add(&objs, argv[i]);
		}
	}
	if (had_dir && !outdir) {
		pi_seterr(&err, "extract: a build folder needs -o OUTDIR");
		goto fail;
	}
	if (outdir && mkdir(outdir, 0755) && errno != EEXIST) {
		pi_seterr(&err, "%s: %s", outdir, strerror(errno));
		goto fail;
	}
	start = xcalloc(objs.n + 1, sizeof(*start));
	names = xcalloc(objs.n + 1, sizeof(*names));
	for (i = 0; i < objs.n; i++) {
		start[i] = idx.n;
		if (pi_elf_load_file(&idx, objs.v[i], &names[i], &err))
			goto fail;
	}
	start[objs.n] = idx.n;

	if (outdir) {
		/* one file per module name: a second one would replace the first */
		for (i = 1; i < objs.n; i++) {
			size_t j;

			for (j = 0; j < i && strcmp(names[j], names[i]); j++)
				;
			if (j < i) {
				pi_seterr(&err, "extract: %s and %s are both module '%s', which -o writes to one file",
					  objs.v[j], objs.v[i], names[i]);
				goto fail;
			}
		}
		for (i = 0; i < objs.n; i++)
			if (write_one(outdir, &idx, start[i], start[i + 1], names[i], &err))
				goto fail;
	} else if (json_output) {
		json_begin();
		jsonw_start_array(json_wtr);
		for (i = 0; i < idx.n; i++)
			pi_json_entry(json_wtr, &idx.v[i]);
		jsonw_end_array(json_wtr);
		json_end();
	} else {
		print_index(stdout, &idx, 0, idx.n, objs.n > 1);
	}
	ret = EXIT_OK;
	goto out;
fail:
	p_err("%s", err.msg);
out:
	for (i = 0; i < objs.n; i++)
		free(objs.v[i]);
	free(objs.v);
	free(start);
	free(names);
	pi_index_free(&idx);
	return ret;
}
