// SPDX-License-Identifier: GPL-2.0
/*
 * pi_bench: timing and memory probes for the printk index benchmarks
 * (test/bench/run-bench.sh).  Each subcommand prints one line of key=value
 * pairs, medians over REPS repetitions timed with CLOCK_MONOTONIC, or with
 * the TSC where that clock is coarse (see clock_setup()):
 *
 *   pi_bench readfile FILE REPS [BUF]   whole-file reads of BUF bytes each
 *                                       (default and at most 64 KiB)
 *   pi_bench readcmp FILEA FILEB REPS [BUF]  the same, A and B interleaved;
 *                                       ratio B/A
 *   pi_bench pread FILE OFFSET LEN REPS preads of LEN bytes at OFFSET; an
 *                                       OFFSET of "end-N" means size - N
 *   pi_bench preadcmp FILE LEN REPS     the first LEN bytes vs the last LEN
 *                                       bytes, interleaved; ratio tail/head
 *   pi_bench modload KO NAME REPS       finit_module(KO) then delete_module(NAME)
 *   pi_bench modcmp KOA KOB NAME REPS   the same for two builds of one module,
 *                                       interleaved; ratio B/A
 *   pi_bench modmem KOA KOB NAME REPS   "Slab:" and "MemFree:" of /proc/meminfo
 *                                       before and after loading KOA or KOB
 *                                       (interleaved); median deltas in bytes
 *   pi_bench run REPS CMD [ARG...]      fork + exec + wait of CMD
 *
 * A file's size is st_size, or, for files that report 0 (debugfs), the
 * number of bytes a whole read returns.  Exit status 0 on success, 1 when an
 * operation failed (the line then starts with "error"), 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BUF_SIZE (64 * 1024)

static char buf[BUF_SIZE];
static size_t read_size = BUF_SIZE;	/* the read() size of whole-file reads */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Set by clock_setup() when CLOCK_MONOTONIC is coarse and the TSC is used. */
static double tsc_ns_per_cycle;

static uint64_t now_ns(void)
{
#if defined(__x86_64__) || defined(__i386__)
	if (tsc_ns_per_cycle)
		return (uint64_t)((double)__builtin_ia32_rdtsc() * tsc_ns_per_cycle);
#endif
	return mono_ns();
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median of n samples (sorts them); the mean of the middle two for even n. */
static uint64_t median(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int64_t median_i64(int64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_i64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static uint64_t minimum(const uint64_t *v, size_t n)
{
	uint64_t m = v[0];
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

static int die(const char *what, const char *arg)
{
	printf("error %s %s: %s\n", what, arg, strerror(errno));
	return 1;
}

static uint64_t *samples(size_t n)
{
	uint64_t *v = calloc(n ? n : 1, sizeof(*v));

	if (!v) {
		perror("calloc");
		exit(1);
	}
	return v;
}

static long reps_arg(const char *s)
{
	long n = strtol(s, NULL, 0);

	if (n < 1 || n > 1000000) {
		fprintf(stderr, "pi_bench: REPS must be 1..1000000, not '%s'\n", s);
		exit(2);
	}
	return n;
}

/*
 * Clocks may be coarse: a guest kernel without a usable TSC clocksource or
 * HPET keeps time with jiffies (4 ms at HZ=250), whatever clock_getres()
 * says.  So the clock's real step is timed first.  When it is coarse, on x86
 * the TSC is read directly (under QEMU/TCG it follows the host's TSC) after
 * calibrating it against CLOCK_MONOTONIC over CALIB_TICKS steps, started and
 * ended on a step; ratios of two timings do not depend on that calibration.
 * Without a TSC, one sample is a batch: the operation repeated until at least
 * BATCH_TICKS steps have passed, started on a step, divided by the number of
 * operations.  With a fine clock a batch lasts at least MIN_BATCH_NS.
 */
#define CALIB_TICKS 50
#define BATCH_TICKS 25
#define MIN_BATCH_NS 200000ull

static uint64_t clock_res_ns, batch_ns;
static long total_ops, total_samples;

/* Wait for CLOCK_MONOTONIC to step; the time just after the step. */
static uint64_t mono_step(void)
{
	uint64_t t0 = mono_ns(), t;

	while ((t = mono_ns()) == t0)
		;
	return t;
}

static void clock_setup(void)
{
	struct timespec res;
	int i;

	if (clock_getres(CLOCK_MONOTONIC, &res))
		res.tv_sec = 0, res.tv_nsec = 1;
	clock_res_ns = (uint64_t)res.tv_sec * 1000000000ull + (uint64_t)res.tv_nsec;
	for (i = 0; i < 3; i++) {
		uint64_t t1 = (mono_step(), mono_ns()), t2 = mono_step();

		if (t2 - t1 > clock_res_ns)
			clock_res_ns = t2 - t1;
	}
	batch_ns = MIN_BATCH_NS;
	if (clock_res_ns <= 1000)
		return;
#if defined(__x86_64__) || defined(__i386__)
	{
		uint64_t t0 = mono_step(), c0 = __builtin_ia32_rdtsc(), t1, c1;
		double mhz;

		while ((t1 = mono_ns()) < t0 + CALIB_TICKS * clock_res_ns)
			;
		c1 = __builtin_ia32_rdtsc();
		mhz = c1 > c0 ? (double)(c1 - c0) * 1e3 / (double)(t1 - t0) : 0;
		/* A TSC that does not run, or runs implausibly, is not used. */
		if (mhz > 10 && mhz < 100000) {
			tsc_ns_per_cycle = 1e3 / mhz;
			return;
		}
	}
#endif
	batch_ns = clock_res_ns * BATCH_TICKS;
}

/* Wait for the clock to step, so that a batch starts on a step. */
static uint64_t tick_start(void)
{
	if (tsc_ns_per_cycle || clock_res_ns <= 1000)
		return now_ns();
	return mono_step();
}

typedef int (*op_fn)(void *ctx);

/* One sample of fn: ns per operation over a batch; -1 when fn failed. */
static int sample(op_fn fn, void *ctx, uint64_t *ns)
{
	uint64_t t0 = tick_start(), el;
	long k = 0;

	do {
		if (fn(ctx))
			return -1;
		k++;
		el = now_ns() - t0;
	} while (el < batch_ns);
	*ns = el / k;
	total_ops += k;
	total_samples++;
	return 0;
}

/* What every timing line ends with: the clock and how the samples were made. */
static void print_batching(void)
{
	printf(" clock=%s tsc_mhz=%.1f clock_res_ns=%llu batch_ns=%llu ops_per_sample=%.1f\n",
	       tsc_ns_per_cycle ? "tsc" : "monotonic",
	       tsc_ns_per_cycle ? 1e3 / tsc_ns_per_cycle : 0.0,
	       (unsigned long long)clock_res_ns, (unsigned long long)batch_ns,
	       total_samples ? (double)total_ops / total_samples : 0.0);
}

/* Open, read to the end with read_size reads, close: the bytes read, or -1. */
static long long read_whole(const char *file)
{
	long long total = 0;
	ssize_t n;
	int fd = open(file, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, read_size)) > 0)
		total += n;
	close(fd);
	return n < 0 ? -1 : total;
}

static long long file_size(int fd, const char *file)
{
	struct stat st;

	if (fstat(fd, &st) == 0 && st.st_size > 0)
		return st.st_size;
	return read_whole(file);
}

struct read_ctx {
	const char *file;
	long long bytes;
};

static int op_read(void *p)
{
	struct read_ctx *c = p;

	c->bytes = read_whole(c->file);
	return c->bytes < 0 ? -1 : 0;
}

static int cmd_readfile(const char *file, long reps)
{
	struct read_ctx c = { file, 0 };
	uint64_t *t = samples(reps);
	long i;

	for (i = 0; i < reps; i++)
		if (sample(op_read, &c, &t[i]))
			return die("read", file);
	printf("readfile file=%s reps=%ld buf=%zu bytes=%lld min_ns=%llu median_ns=%llu",
	       file, reps, read_size, c.bytes, (unsigned long long)minimum(t, reps),
	       (unsigned long long)median(t, reps));
	print_batching();
	return 0;
}

/*
 * Samples of two operations, interleaved: A B, B A, A B, ... so that neither
 * always runs first; one untimed run of each before.
 */
static int interleave(op_fn fa, void *ca, op_fn fb, void *cb, long reps,
		      uint64_t *ma, uint64_t *mb)
{
	uint64_t *ta = samples(reps), *tb = samples(reps);
	long i;

	if (fa(ca) || fb(cb))
		return -1;
	for (i = 0; i < reps; i++) {
		if (i % 2) {
			if (sample(fb, cb, &tb[i]) || sample(fa, ca, &ta[i]))
				return -1;
		} else {
			if (sample(fa, ca, &ta[i]) || sample(fb, cb, &tb[i]))
				return -1;
		}
	}
	*ma = median(ta, reps);
	*mb = median(tb, reps);
	free(ta);
	free(tb);
	return 0;
}

static int cmd_readcmp(const char *a, const char *b, long reps)
{
	struct read_ctx ca = { a, 0 }, cb = { b, 0 };
	uint64_t ma, mb;

	if (interleave(op_read, &ca, op_read, &cb, reps, &ma, &mb))
		return die("read", a);
	printf("readcmp a=%s b=%s reps=%ld buf=%zu bytes_a=%lld bytes_b=%lld median_a_ns=%llu median_b_ns=%llu ratio_b_a=%.3f",
	       a, b, reps, read_size, ca.bytes, cb.bytes, (unsigned long long)ma,
	       (unsigned long long)mb, ma ? (double)mb / ma : 0.0);
	print_batching();
	return 0;
}

/* OFFSET is a number, or "end-N" for N bytes before the end of the file. */
static long long offset_arg(const char *s, long long size)
{
	if (!strncmp(s, "end-", 4))
		return size - strtoll(s + 4, NULL, 0);
	return strtoll(s, NULL, 0);
}

struct pread_ctx {
	int fd;
	size_t len;
	long long off;
	ssize_t got;
};

static int op_pread(void *p)
{
	struct pread_ctx *c = p;

	c->got = pread(c->fd, buf, c->len, c->off);
	return c->got < 0 ? -1 : 0;
}

static int cmd_pread(const char *file, const char *offs, size_t len, long reps)
{
	struct pread_ctx c = { .len = len };
	uint64_t *t = samples(reps);
	long long size;
	long i;

	c.fd = open(file, O_RDONLY);
	if (c.fd < 0)
		return die("open", file);
	size = file_size(c.fd, file);
	if (size < 0)
		return die("size", file);
	c.off = offset_arg(offs, size);
	if (c.off < 0)
		c.off = 0;
	for (i = 0; i < reps; i++)
		if (sample(op_pread, &c, &t[i]))
			return die("pread", file);
	printf("pread file=%s size=%lld off=%lld len=%zu got=%zd reps=%ld min_ns=%llu median_ns=%llu",
	       file, size, c.off, len, c.got, reps, (unsigned long long)minimum(t, reps),
	       (unsigned long long)median(t, reps));
	print_batching();
	close(c.fd);
	return 0;
}

static int cmd_preadcmp(const char *file, size_t len, long reps)
{
	struct pread_ctx h = { .len = len, .off = 0 }, tl = { .len = len };
	long long size;
	uint64_t mh, mt;

	/* One file description for both, as a reader jumping about would have. */
	h.fd = tl.fd = open(file, O_RDONLY);
	if (h.fd < 0)
		return die("open", file);
	size = file_size(h.fd, file);
	if (size < 0)
		return die("size", file);
	tl.off = size > (long long)len ? size - (long long)len : 0;
	if (interleave(op_pread, &h, op_pread, &tl, reps, &mh, &mt))
		return die("pread", file);
	printf("preadcmp file=%s size=%lld len=%zu tail_off=%lld got_head=%zd got_tail=%zd reps=%ld head_ns=%llu tail_ns=%llu ratio_tail_head=%.3f",
	       file, size, len, tl.off, h.got, tl.got, reps, (unsigned long long)mh,
	       (unsigned long long)mt, mh ? (double)mt / mh : 0.0);
	print_batching();
	close(h.fd);
	return 0;
}

static int load(const char *ko)
{
	int fd = open(ko, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = syscall(SYS_finit_module, fd, "", 0);
	close(fd);
	return ret;
}

static int unload(const char *name)
{
	return syscall(SYS_delete_module, name, O_NONBLOCK);
}

struct mod_ctx {
	const char *ko, *name;
};

/* One load and unload; says which failed. */
static int op_modload(void *p)
{
	struct mod_ctx *c = p;

	if (load(c->ko)) {
		die("finit_module", c->ko);
		return -1;
	}
	if (unload(c->name)) {
		die("delete_module", c->name);
		return -1;
	}
	return 0;
}

static int cmd_modload(const char *ko, const char *name, long reps)
{
	struct mod_ctx c = { ko, name };
	uint64_t *t = samples(reps);
	long i;

	for (i = 0; i < reps; i++)
		if (sample(op_modload, &c, &t[i]))
			return 1;
	printf("modload ko=%s reps=%ld min_ns=%llu total_ns=%llu", ko, reps,
	       (unsigned long long)minimum(t, reps), (unsigned long long)median(t, reps));
	print_batching();
	return 0;
}

static int cmd_modcmp(const char *a, const char *b, const char *name, long reps)
{
	struct mod_ctx ca = { a, name }, cb = { b, name };
	uint64_t ma, mb;

	if (interleave(op_modload, &ca, op_modload, &cb, reps, &ma, &mb))
		return 1;
	printf("modcmp a=%s b=%s reps=%ld total_a_ns=%llu total_b_ns=%llu ratio_b_a=%.3f",
	       a, b, reps, (unsigned long long)ma, (unsigned long long)mb,
	       ma ? (double)mb / ma : 0.0);
	print_batching();
	return 0;
}

/* A field of /proc/meminfo in bytes, or -1. */
static long long meminfo(const char *field)
{
	size_t flen = strlen(field);
	long long kb = -1;
	char line[256];
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, flen) && line[flen] == ':') {
			kb = strtoll(line + flen + 1, NULL, 10);
			break;
		}
	fclose(f);
	return kb < 0 ? -1 : kb * 1024;
}

/* Slab and MemFree growth (bytes) across one load of KO; unloads it after. */
static int mem_delta(const char *ko, const char *name, int64_t *slab, int64_t *mfree)
{
	long long s0, f0, s1, f1;

	s0 = meminfo("Slab");
	f0 = meminfo("MemFree");
	if (load(ko))
		return die("finit_module", ko);
	s1 = meminfo("Slab");
	f1 = meminfo("MemFree");
	if (unload(name))
		return die("delete_module", name);
	if (s0 < 0 || s1 < 0 || f0 < 0 || f1 < 0) {
		errno = EIO;
		return die("read", "/proc/meminfo");
	}
	*slab = s1 - s0;
	*mfree = f0 - f1;
	return 0;
}

static int cmd_modmem(const char *a, const char *b, const char *name, long reps)
{
	int64_t *sa = calloc(reps, sizeof(int64_t)), *sb = calloc(reps, sizeof(int64_t));
	int64_t *fa = calloc(reps, sizeof(int64_t)), *fb = calloc(reps, sizeof(int64_t));
	int64_t ms_a, ms_b, mf_a, mf_b, s, f;
	long long slab_before, slab_after;
	long i;

	if (!sa || !sb || !fa || !fb) {
		perror("calloc");
		return 1;
	}
	/* Warm-up loads, so that one-time allocations are not counted. */
	if (mem_delta(a, name, &s, &f) || mem_delta(b, name, &s, &f))
		return 1;
	slab_before = meminfo("Slab");
	for (i = 0; i < reps; i++) {
		if (i % 2) {
			if (mem_delta(b, name, &sb[i], &fb[i]) || mem_delta(a, name, &sa[i], &fa[i]))
				return 1;
		} else {
			if (mem_delta(a, name, &sa[i], &fa[i]) || mem_delta(b, name, &sb[i], &fb[i]))
				return 1;
		}
	}
	slab_after = meminfo("Slab");
	ms_a = median_i64(sa, reps);
	ms_b = median_i64(sb, reps);
	mf_a = median_i64(fa, reps);
	mf_b = median_i64(fb, reps);
	printf("modmem a=%s b=%s reps=%ld slab_a=%lld slab_b=%lld slab_a_minus_b=%lld memfree_drop_a=%lld memfree_drop_b=%lld slab_min_a=%lld slab_max_a=%lld slab_min_b=%lld slab_max_b=%lld slab_drift=%lld\n",
	       a, b, reps, (long long)ms_a, (long long)ms_b, (long long)(ms_a - ms_b),
	       (long long)mf_a, (long long)mf_b, (long long)sa[0], (long long)sa[reps - 1],
	       (long long)sb[0], (long long)sb[reps - 1], slab_after - slab_before);
	return 0;
}

struct run_ctx {
	char **argv;
};

static int op_run(void *p)
{
	struct run_ctx *c = p;
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return die("fork", c->argv[0]);
	if (pid == 0) {
		execvp(c->argv[0], c->argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return die("waitpid", c->argv[0]);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		printf("error run %s: status %d\n", c->argv[0], status);
		return 1;
	}
	return 0;
}

static int cmd_run(long reps, char **argv)
{
	struct run_ctx c = { argv };
	uint64_t *t = samples(reps);
	long i;

	for (i = 0; i < reps; i++)
		if (sample(op_run, &c, &t[i]))
			return 1;
	printf("run cmd=%s reps=%ld min_ns=%llu median_ns=%llu", argv[0], reps,
	       (unsigned long long)minimum(t, reps), (unsigned long long)median(t, reps));
	print_batching();
	return 0;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: pi_bench readfile FILE REPS [BUF]\n"
		"       pi_bench readcmp FILEA FILEB REPS [BUF]\n"
		"       pi_bench pread FILE OFFSET|end-N LEN REPS\n"
		"       pi_bench preadcmp FILE LEN REPS\n"
		"       pi_bench modload KO NAME REPS\n"
		"       pi_bench modcmp KOA KOB NAME REPS\n"
		"       pi_bench modmem KOA KOB NAME REPS\n"
		"       pi_bench run REPS CMD [ARG...]\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	clock_setup();
	if ((!strcmp(cmd, "readfile") && argc == 5) || (!strcmp(cmd, "readcmp") && argc == 6)) {
		read_size = strtoull(argv[argc - 1], NULL, 0);
		if (read_size < 1 || read_size > BUF_SIZE)
			return usage();
		argc--;
	}
	if (!strcmp(cmd, "readfile") && argc == 4)
		return cmd_readfile(argv[2], reps_arg(argv[3]));
	if (!strcmp(cmd, "readcmp") && argc == 5)
		return cmd_readcmp(argv[2], argv[3], reps_arg(argv[4]));
	if (!strcmp(cmd, "pread") && argc == 6) {
		size_t len = strtoull(argv[4], NULL, 0);

		if (len < 1 || len > BUF_SIZE)
			return usage();
		return cmd_pread(argv[2], argv[3], len, reps_arg(argv[5]));
	}
	if (!strcmp(cmd, "preadcmp") && argc == 5) {
		size_t len = strtoull(argv[3], NULL, 0);

		if (len < 1 || len > BUF_SIZE)
			return usage();
		return cmd_preadcmp(argv[2], len, reps_arg(argv[4]));
	}
	if (!strcmp(cmd, "modload") && argc == 5)
		return cmd_modload(argv[2], argv[3], reps_arg(argv[4]));
	if (!strcmp(cmd, "modcmp") && argc == 6)
		return cmd_modcmp(argv[2], argv[3], argv[4], reps_arg(argv[5]));
	if (!strcmp(cmd, "modmem") && argc == 6)
		return cmd_modmem(argv[2], argv[3], argv[4], reps_arg(argv[5]));
	if (!strcmp(cmd, "run") && argc >= 4)
		return cmd_run(reps_arg(argv[2]), argv + 3);
	return usage();
}
