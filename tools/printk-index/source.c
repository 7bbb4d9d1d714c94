// SPDX-License-Identifier: GPL-2.0
/*
 * Where an index comes from: a file (index text or an ELF object, from a
 * pipe too), a folder of them, or the running system's sysfs or debugfs
 * view.  The one place that knows both the container (index.h) and the
 * ELF reader (elf_index.h), so that neither depends on the other.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "elf_index.h"
#include "index.h"
#include "source.h"

/* Does data start like an index file: its header line, the combined
 * header, or an ELF object? */
static bool starts_like_index(const char *data, size_t n)
{
	return pi_is_elf(data, n) ||
	       (n >= strlen(PI_HEADER) && !memcmp(data, PI_HEADER, strlen(PI_HEADER))) ||
	       (n >= strlen(PI_HEADER_COMBINED) &&
		!memcmp(data, PI_HEADER_COMBINED, strlen(PI_HEADER_COMBINED)));
}

/*
 * One file: vmlinux or a module (its .printk_index, elf_index.h) when it
 * starts with the ELF magic, else an index file.  Read whole, once, so
 * that a pipe or /dev/stdin works as well as a file: telling the two apart
 * must not consume what the reader then needs.  Returns 0, -1 with err
 * set, or, with only_index, 1 for a file that does not start like an
 * index file (in a folder, someone's README or notes: skipped; one that
 * starts like one and breaks later is an error).
 */
static int load_file(struct pi_index *idx, const char *path, bool only_index,
		     struct pi_err *err)
{
	char *buf;
	size_t len;
	FILE *f;
	int ret;

	if (pi_read_file(path, &buf, &len, err))
		return -1;
	if (only_index && !starts_like_index(buf, len)) {
		free(buf);
		return 1;
	}
	if (pi_is_elf(buf, len)) {
		ret = pi_elf_load_buf(idx, path, buf, len, NULL, err);
		free(buf);
		return ret;
	}
	/* fmemopen() refuses a zero size: an empty index file */
	f = len ? fmemopen(buf, len, "r") : NULL;
	if (!f) {
		if (len)
			pi_seterr(err, "%s: %s", path, strerror(errno));
		else
			pi_seterr(err, "%s:1: missing header (empty file)", path);
		free(buf);
		return -1;
	}
	ret = pi_load_stream(idx, f, path, err);
	fclose(f);
	free(buf);
	return ret;
}

int pi_load_source(struct pi_index *idx, const char *path, struct pi_err *err)
{
	struct stat st;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i, loaded = 0;
	int ret = -1, r;
	DIR *d;

	if (stat(path, &st)) {
		pi_seterr(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return load_file(idx, path, false, err);

	d = opendir(path);
	if (!d) {
		pi_seterr(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = grow_cap(cap, 64);
			names = xreallocarray(names, cap, sizeof(*names));
		}
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	/* readdir order is arbitrary; sort for stable output */
	if (n)
		qsort(names, n, sizeof(*names), cmp_strp);
	for (i = 0; i < n; i++) {
		size_t plen = strlen(path);
		char *full = xmalloc(plen + strlen(names[i]) + 2);

		sprintf(full, "%s%s%s", path,
			plen && path[plen - 1] == '/' ? "" : "/", names[i]);
		if (stat(full, &st) || !S_ISREG(st.st_mode)) {
			free(full);
			continue;
		}
		r = load_file(idx, full, true, err);
		if (r > 0)
			fprintf(stderr, "printk-index: note: %s: not an index file (no index header), skipped\n",
				full);
		free(full);
		if (r < 0)
			goto out;
		loaded += !r;
	}
	if (!loaded) {
		pi_seterr(err, "%s: no index files in folder", path);
		goto out;
	}
	/* several modules: only the combined layout can hold them */
	idx->layout = PI_LAYOUT_COMBINED;
	ret = 0;
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret;
}

int pi_load_default(struct pi_index *idx, const char **used, struct pi_err *err)
{
	static const char *const dirs[] = {
		"/sys/kernel/printk_index",
		"/sys/kernel/debug/printk/index",
	};
	struct stat st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		if (stat(dirs[i], &st) || !S_ISDIR(st.st_mode))
			continue;
		*used = dirs[i];
		return pi_load_source(idx, dirs[i], err);
	}
	pi_seterr(err, "no printk index found in %s or %s (CONFIG_PRINTK_INDEX=y, debugfs mounted, root?); give a SOURCE",
		  dirs[0], dirs[1]);
	return -1;
}

int pi_load_index(struct pi_index *idx, const char *src, const char **used,
		  struct pi_err *err)
{
	if (!src)
		return pi_load_default(idx, used, err);
	*used = src;
	return pi_load_source(idx, src, err);
}
