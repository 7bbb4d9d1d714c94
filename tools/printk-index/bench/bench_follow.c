// SPDX-License-Identifier: GPL-2.0
/*
 * Throughput of "match --follow": records per second the follower sustains.
 *
 *   bench_follow INDEX [RECORDS]
 *
 * Renders RECORDS /dev/kmsg records (default 300,000) from the index's
 * formats with sample arguments - one in ten an unrelated message, one in
 * twenty with SUBSYSTEM=/DEVICE= dictionary lines, bytes escaped as the
 * kernel does - into a file, then feeds that file to follower_record(), the
 * code the read loop runs for every record: parsing, unescaping,
 * attribution (KERN_CONT assembly included) and the JSON line, written to
 * /dev/null. Index loading is timed apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../follow.h"
#include "../fmt.h"
#include "../source.h"
#include "../tests/testlib.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *const unrelated[] = {
	"systemd[1]: Started Journal Service.",
	"random noise line number %u without any meaning",
	"audit: type=1400 audit(%u.123:42): apparmor=\"STATUS\"",
};

/* msg_add_ext_text(): bytes below ' ', from 127 on, and '\' as \xNN */
static void add_escaped(struct sbuf *b, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c < ' ' || c >= 127 || c == '\\') {
			char x[8];

			snprintf(x, sizeof(x), "\\x%02x", c);
			sbuf_add(b, x, 4);
		} else {
			sbuf_addc(b, c);
		}
	}
}

int main(int argc, char **argv)
{
	struct pi_index idx;
	struct pi_err err;
	struct follower f;
	struct sbuf file = { 0 }, one = { 0 };
	size_t nrec = 300000, i, *off;
	char path[] = "/tmp/bench-follow.XXXXXX";
	FILE *devnull, *tmp;
	double t0, t_load, t_feed;
	int fd;

	if (argc < 2) {
		fprintf(stderr, "usage: %s INDEX [RECORDS]\n", argv[0]);
		return 2;
	}
	if (argc > 2)
		nrec = strtoul(argv[2], NULL, 0);
	pi_index_init(&idx);
	if (pi_load_source(&idx, argv[1], &err)) {
		fprintf(stderr, "bench_follow: %s\n", err.msg);
		return 2;
	}

	off = calloc(nrec + 1, sizeof(*off));
	for (i = 0; i < nrec; i++) {
		uint64_t r = i * 0x9e3779b97f4a7c15ULL;
		const struct pi_entry *e = &idx.v[(r >> 24) % idx.n];
		int level = e->level >= 0 ? e->level : 4;
		char hdr[64];

		off[i] = file.len;
		sbuf_reset(&one);
		if (i % 10 == 9) {
			char u[256];

			snprintf(u, sizeof(u), unrelated[(r >> 32) % ARRAY_SIZE(unrelated)],
				 (unsigned)(r >> 40) % 60000);
			sbuf_add(&one, u, strlen(u));
		} else {
			struct fmt fm;

			fmt_compile(&fm, e->fmt, e->fmt_len);
			fmt_render(&fm, &one, i);
			fmt_free(&fm);
		}
		/* printk drops the record's trailing newline */
		if (one.len && one.p[one.len - 1] == '\n')
			one.len--;
		snprintf(hdr, sizeof(hdr), "%d,%zu,%zu,-;", level, i + 1, i * 1000);
		sbuf_add(&file, hdr, strlen(hdr));
		add_escaped(&file, one.p ? one.p : "", one.len);
		sbuf_addc(&file, '\n');
		if (i % 20 == 3) {
			static const char dict[] = " SUBSYSTEM=pci\n DEVICE=+pci:0000:00:03.0\n";

			sbuf_add(&file, dict, sizeof(dict) - 1);
		}
	}
	off[nrec] = file.len;

	/* the file a follower would read, for "printk-index match --follow" */
	fd = mkstemp(path);
	tmp = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!tmp || fwrite(file.p, 1, file.len, tmp) != file.len || fclose(tmp)) {
		fprintf(stderr, "bench_follow: cannot write %s\n", path);
		return 2;
	}
	printf("follow: %zu kmsg records, %.1f MB (%s)\n", nrec, file.len / 1e6, path);

	devnull = fopen("/dev/null", "w");
	t0 = now();
	if (follower_init(&f, argv[1], devnull, 1733212279000000LL, &err)) {
		fprintf(stderr, "bench_follow: %s\n", err.msg);
		return 2;
	}
	t_load = now() - t0;
	t0 = now();
	for (i = 0; i < nrec; i++)
		follower_record(&f, file.p + off[i], off[i + 1] - off[i]);
	t_feed = now() - t0;
	printf("follow: index read and matchers built in %.0f ms\n", t_load * 1e3);
	printf("follow: %.3f s, %.0f records/s (parse, attribute, JSON line); %llu attributed, %llu lost, %llu malformed\n",
	       t_feed, nrec / t_feed, (unsigned long long)f.st.attributed,
	       (unsigned long long)f.st.lost, (unsigned long long)f.st.malformed);

	follower_free(&f);
	fclose(devnull);
	unlink(path);
	free(off);
	sbuf_free(&file);
	sbuf_free(&one);
	pi_index_free(&idx);
	return 0;
}
