// SPDX-License-Identifier: GPL-2.0
/*
 * pi_io: the file operations a shell cannot do, for the guest's bad-input
 * tests.  Each prints one line with the exact outcome, so that tests can
 * compare it with what they expect:
 *
 *   pi_io FILE pread OFFSET COUNT    "read N" or "error ENAME"
 *   pi_io FILE lseek OFFSET WHENCE   "offset N" or "error ENAME" (SET, CUR, END, DATA, HOLE)
 *   pi_io FILE open MODE             "opened" or "error ENAME" (r, w, rw, trunc)
 *   pi_io FILE write                 "wrote N" or "error ENAME" (opened for reading and writing)
 *
 * The exit status is 0 whatever the outcome: the line is the result.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *errname(int err)
{
	switch (err) {
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case ENODEV: return "ENODEV";
	case ENXIO: return "ENXIO";
	case EFAULT: return "EFAULT";
	case EIO: return "EIO";
	case ENOMEM: return "ENOMEM";
	case EISDIR: return "EISDIR";
	case ESPIPE: return "ESPIPE";
	case EBADF: return "EBADF";
	case EOVERFLOW: return "EOVERFLOW";
	default: return "EOTHER";
	}
}

static int fail(void)
{
	printf("error %s\n", errname(errno));
	return 0;
}

int main(int argc, char **argv)
{
	const char *file, *op;
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: pi_io FILE pread|lseek|open|write ARGS\n");
		return 2;
	}
	file = argv[1];
	op = argv[2];

	if (!strcmp(op, "open") && argc == 4) {
		const char *m = argv[3];
		int flags = !strcmp(m, "w") ? O_WRONLY : !strcmp(m, "rw") ? O_RDWR :
			    !strcmp(m, "trunc") ? O_WRONLY | O_TRUNC : O_RDONLY;

		if (open(file, flags) < 0)
			return fail();
		printf("opened\n");
		return 0;
	}

	fd = open(file, !strcmp(op, "write") ? O_RDWR : O_RDONLY);
	if (fd < 0)
		return fail();

	if (!strcmp(op, "pread") && argc == 5) {
		long long off = strtoll(argv[3], NULL, 0);
		size_t count = strtoull(argv[4], NULL, 0);
		char *buf = malloc(count ? count : 1);
		ssize_t n;

		if (!buf)
			return 2;
		n = pread(fd, buf, count, off);
		if (n < 0)
			return fail();
		printf("read %zd\n", n);
		return 0;
	}
	if (!strcmp(op, "lseek") && argc == 5) {
		const char *w = argv[4];
		int whence = !strcmp(w, "CUR") ? SEEK_CUR : !strcmp(w, "END") ? SEEK_END :
			     !strcmp(w, "DATA") ? SEEK_DATA : !strcmp(w, "HOLE") ? SEEK_HOLE : SEEK_SET;
		off_t off = lseek(fd, strtoll(argv[3], NULL, 0), whence);

		if (off < 0)
			return fail();
		printf("offset %lld\n", (long long)off);
		return 0;
	}
	if (!strcmp(op, "write")) {
		ssize_t n = write(fd, "x\n", 2);

		if (n < 0)
			return fail();
		printf("wrote %zd\n", n);
		return 0;
	}
	fprintf(stderr, "pi_io: bad arguments\n");
	return 2;
}
