// SPDX-License-Identifier: GPL-2.0
/*
 * pi_reader: a monitoring daemon's reads of the index while modules come
 * and go, for the guest's stress test.  Until STOPFILE exists it reads
 * every file of every DIR, whole (MODE whole) or a few bytes at a random
 * offset (MODE random), and checks each read against the file of the same
 * name in EXPECTDIR (what printk-index extract read from the ELF file).
 *
 *   pi_reader whole|random STOPFILE EXPECTDIR DIR...
 *
 * A DIR that cannot be listed counts as a failed read: the test passes only
 * the views the variant is declared to have.
 * Each read ends in one of four ways:
 *   ok      the bytes read are the expected bytes (whole: all of them)
 *   gone    the file went away: open fails with ENOENT, or a read of a
 *           file removed while open fails with ENODEV (sysfs) or EIO
 *           (debugfs); that is what a reader of a module's file must expect
 *   short   (whole) the read reached end of file with other bytes than
 *           expected: a file cut short, or wrong bytes
 *   failed  any other error, or (random) bytes that differ
 * At the end it prints "MODE: N reads, O ok, G gone, S short, F failed"
 * and the first few problems; it exits 1 when anything was short or failed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_REPORTS 5
#define RANDOM_LEN (3 * 777)

struct counts {
	unsigned long reads, ok, gone, shortened, failed;
};

static int reports;

static void report(const char *fmt, ...)
{
	va_list ap;

	if (reports++ >= MAX_REPORTS)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The expected files, read once: the reads are what is being stressed. */
struct expect {
	char name[256];
	char *data;
	long len;
};

static struct expect *expects;
static int nexpects;

/* The whole of FD into *BUF (malloc'd); -1 with errno set on error. */
static long read_all(int fd, char **buf)
{
	size_t cap = 65536, len = 0;
	ssize_t n;

	*buf = malloc(cap);
	if (!*buf)
		return -1;
	for (;;) {
		if (len == cap) {
			char *bigger = realloc(*buf, cap * 2);

			if (!bigger)
				return -1;
			*buf = bigger;
			cap *= 2;
		}
		n = read(fd, *buf + len, cap - len);
		if (n < 0)
			return -1;
		if (n == 0)
			return len;
		len += n;
	}
}

static int load_expected(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char path[512];
		struct expect *x;
		int fd;

		if (e->d_name[0] == '.')
			continue;
		expects = realloc(expects, (nexpects + 1) * sizeof(*expects));
		if (!expects)
			return -1;
		x = &expects[nexpects++];
		snprintf(x->name, sizeof(x->name), "%s", e->d_name);
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0 || (x->len = read_all(fd, &x->data)) < 0)
			return -1;
		close(fd);
	}
	closedir(d);
	return 0;
}

static const struct expect *expected(const char *name)
{
	int i;

	for (i = 0; i < nexpects; i++)
		if (!strcmp(expects[i].name, name))
			return &expects[i];
	return NULL;
}

static int went_away(int err)
{
	return err == ENOENT || err == ENODEV || err == EIO;
}

static void read_whole(const char *path, const char *want, long wlen, struct counts *c)
{
	char *got = NULL;
	long len;
	int fd = open(path, O_RDONLY);

	c->reads++;
	if (fd < 0) {
		if (went_away(errno))
			c->gone++;
		else
			c->failed++, report("%s: open: %s", path, strerror(errno));
		return;
	}
	len = read_all(fd, &got);
	if (len < 0 && went_away(errno))
		c->gone++;
	else if (len < 0)
		c->failed++, report("%s: read: %s", path, strerror(errno));
	else if (len == wlen && !memcmp(got, want, len))
		c->ok++;
	else
		c->shortened++, report("%s: read %ld bytes to end of file, expected %ld", path, len, wlen);
	free(got);
	close(fd);
}

static void read_random(const char *path, const char *want, long wlen, struct counts *c)
{
	static unsigned long seed = 12345;
	char got[RANDOM_LEN];
	long off, n;
	int fd = open(path, O_RDONLY);

	c->reads++;
	if (fd < 0) {
		if (went_away(errno))
			c->gone++;
		else
			c->failed++, report("%s: open: %s", path, strerror(errno));
		return;
	}
	seed = seed * 6364136223846793005UL + 1442695040888963407UL;
	off = wlen ? (long)((seed >> 33) % wlen) : 0;
	n = pread(fd, got, sizeof(got), off);
	if (n < 0 && went_away(errno))
		c->gone++;
	else if (n < 0)
		c->failed++, report("%s: pread at %ld: %s", path, off, strerror(errno));
	/*
	 * A sysfs read may stop early, at a line end; any bytes it returns
	 * must be the file's, and it returns some unless at the end.
	 */
	else if ((n > 0 || off == wlen) && n <= wlen - off && !memcmp(got, want + off, n))
		c->ok++;
	else
		c->failed++, report("%s: pread at %ld returned %ld wrong or missing bytes", path, off, n);
	close(fd);
}

int main(int argc, char **argv)
{
	struct counts c = { 0 };
	int whole, i;

	if (argc < 5 || (strcmp(argv[1], "whole") && strcmp(argv[1], "random"))) {
		fprintf(stderr, "usage: pi_reader whole|random STOPFILE EXPECTDIR DIR...\n");
		return 2;
	}
	whole = !strcmp(argv[1], "whole");
	if (load_expected(argv[3])) {
		perror(argv[3]);
		return 2;
	}
	while (access(argv[2], F_OK)) {
		for (i = 4; i < argc; i++) {
			DIR *d = opendir(argv[i]);
			struct dirent *e;

			if (!d) {
				c.reads++, c.failed++;
				report("%s: %s", argv[i], strerror(errno));
				continue;
			}
			while ((e = readdir(d))) {
				const struct expect *x;
				char path[512];

				if (e->d_name[0] == '.')
					continue;
				snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
				x = expected(e->d_name);
				if (!x) {
					c.reads++, c.failed++;
					report("%s: no expected file in %s", path, argv[3]);
				} else if (whole) {
					read_whole(path, x->data, x->len, &c);
				} else {
					read_random(path, x->data, x->len, &c);
				}
			}
			closedir(d);
		}
		/* a daemon's pace, not a busy loop that starves the loaders */
		usleep(10000);
	}
	printf("%s: %lu reads, %lu ok, %lu gone, %lu short, %lu failed\n", argv[1],
	       c.reads, c.ok, c.gone, c.shortened, c.failed);
	return c.shortened || c.failed;
}
