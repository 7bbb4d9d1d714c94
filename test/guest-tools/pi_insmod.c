// SPDX-License-Identifier: GPL-2.0
/*
 * pi_insmod: load a module with the n-th allocation of the load failing.
 *
 *   pi_insmod FILE.ko N
 *
 * Arms /proc/self/fail-nth right before finit_module(), so that the count
 * starts with the load itself rather than with exec and reading the file,
 * and tells afterwards whether the fault was injected at all: a load with
 * fewer than N allocations goes through untouched.  Prints "loaded" or the
 * error name, then "injected", or "untouched" and how many allocations the
 * load made.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char nth[32];
	int fd, fail, ret, err;
	ssize_t n;

	if (argc != 3) {
		fprintf(stderr, "usage: pi_insmod FILE.ko N\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	fail = open("/proc/self/fail-nth", O_RDWR | O_CLOEXEC);
	if (fd < 0 || fail < 0) {
		perror("pi_insmod: open");
		return 2;
	}
	if (write(fail, argv[2], strlen(argv[2])) < 0) {
		perror("pi_insmod: fail-nth");
		return 2;
	}
	ret = syscall(SYS_finit_module, fd, "", 0);
	err = errno;

	/* What is left of the count: 0 when the fault fired. */
	n = pread(fail, nth, sizeof(nth) - 1, 0);
	nth[n > 0 ? n : 0] = '\0';
	if (write(fail, "0", 1) < 0)
		return 2;

	if (atoi(nth))
		printf("%s untouched %d\n", ret ? strerrorname_np(err) : "loaded",
		       atoi(argv[2]) - atoi(nth));
	else
		printf("%s injected\n", ret ? strerrorname_np(err) : "loaded");
	return 0;
}
