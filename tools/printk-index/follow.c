// SPDX-License-Identifier: GPL-2.0
/*
 * printk-index match --follow [--from-start] [--no-wait] [--index SOURCE]
 *                             [/dev/kmsg|FILE|-]
 *
 * Streams kernel log records as JSON lines, one object per record, flushed
 * per line whatever -j says:
 *   {"seq":..,"facility":0,"level":6,"flags":"-","timestamp_us":..,
 *    "time":"2026-12-03T18:31:02.123456Z","message":"..","dict":{..},
 *    "attribution":{..} or null}
 *   {"lost":N,"seq":FIRST_LOST,"reason":"overrun"|"gap"}
 *   {"malformed":"..","error":".."}
 *
 * /dev/kmsg is read from its end (only new records) unless --from-start;
 * --no-wait stops at the end instead of waiting. Any other file (or '-')
 * holds records one per line, dictionary lines after them starting with a
 * blank, as "cat /dev/kmsg" shows them, and is read to its end once.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "follow.h"
#include "kmsg.h"
#include "main.h"
#include "source.h"

/* /dev/kmsg is character device 1:11 (drivers/char/mem.c). */
#define KMSG_MAJOR 1
#define KMSG_MINOR 11

/* --- the index and its folder ------------------------------------ */

/*
 * What the folder looks like now: its mtime and the names in it. sysfs
 * does not always move a folder's mtime when a file appears in it, so the
 * names count too. 0 when it cannot be read.
 */
static uint64_t folder_stamp(const char *dir)
{
	uint64_t h = FNV_OFFSET;
	struct dirent *de;
	struct stat st;
	DIR *d;

	if (stat(dir, &st))
		return 0;
	h = fnv1a(h, &st.st_mtim, sizeof(st.st_mtim));
	d = opendir(dir);
	if (!d)
		return 0;
	/* order-independent: readdir order may change between reads */
	while ((de = readdir(d)))
		h += fnv1a(FNV_OFFSET, de->d_name, strlen(de->d_name));
	closedir(d);
	return h ? h : 1;
}

/*
 * The index the follower reads (its source, or the system's) and the
 * matchers built on it, into *ixp; the folder it came from, to watch.
 */
static int load_index(struct follower *f, struct follow_index **ixp, char **watch_dir,
		      uint64_t *watch_stamp, struct pi_err *err)
{
	struct follow_index *ix = xcalloc(1, sizeof(*ix));
	const char *used = NULL;
	struct stat st;

	pi_index_init(&ix->idx);
	if (pi_load_index(&ix->idx, f->index_src, &used, err)) {
		pi_index_free(&ix->idx);
		free(ix);
		return -1;
	}
	*watch_dir = NULL;
	if (used && !stat(used, &st) && S_ISDIR(st.st_mode)) {
		*watch_dir = xstrdup(used);
		*watch_stamp = folder_stamp(used);
	}
	matcher_build(&ix->m, &ix->idx);
	chain_init(&ix->chains, &ix->m);
	*ixp = ix;
	return 0;
}

static void drop_index(struct follower *f)
{
	if (!f->have_index)
		return;
	chain_free(&f->ix->chains);
	matcher_free(&f->ix->m);
	pi_index_free(&f->ix->idx);
	free(f->ix);
	f->ix = NULL;
	f->have_index = false;
}

int follower_init(struct follower *f, const char *index_src, FILE *out,
		  int64_t boot_usec, struct pi_err *err)
{
	memset(f, 0, sizeof(*f));
	f->out = out;
	f->boot_usec = boot_usec;
	f->index_src = index_src;
	if (load_index(f, &f->ix, &f->watch_dir, &f->watch_stamp, err))
		return index_src ? -1 : 0;
	f->have_index = true;
	return 0;
}

void follower_free(struct follower *f)
{
	drop_index(f);
	free(f->watch_dir);
	sbuf_free(&f->prev_text);
	sbuf_free(&f->joined);
	sbuf_free(&f->scratch);
	memset(f, 0, sizeof(*f));
}

int follower_reload(struct follower *f, struct pi_err *err)
{
	struct follow_index *ix;
	uint64_t stamp = 0;
	char *dir;

	/* build the new index beside the old one, which stays on failure */
	if (load_index(f, &ix, &dir, &stamp, err))
		return -1;
	drop_index(f);
	free(f->watch_dir);
	f->ix = ix;
	f->watch_dir = dir;
	f->watch_stamp = stamp;
	f->have_index = true;
	f->st.reloads++;
	return 0;
}

/* A record no format explains: maybe its module's file is new. */
static bool index_folder_changed(struct follower *f)
{
	return f->watch_dir && folder_stamp(f->watch_dir) != f->watch_stamp;
}

/* --- writing ------------------------------------------------------ */

static void json_lost(struct follower *f, uint64_t lost, bool known,
		      uint64_t first, const char *reason)
{
	json_writer_t *w = jsonw_new(f->out);

	jsonw_start_object(w);
	jsonw_name(w, "lost");
	if (known)
		jsonw_uint(w, lost);
	else
		jsonw_null(w);
	jsonw_uint_field(w, "seq", first);
	jsonw_string_field(w, "reason", reason);
	jsonw_end_object(w);
	jsonw_destroy(&w);	/* the newline, and a flush */
}

static void json_attribution(json_writer_t *w, const char *msg,
			     const struct attribution *a, bool joined,
			     uint64_t prev_seq)
{
	const struct match_result *r = &a->single;
	const struct pi_entry *e = a->chained ? a->chain.p[0].e : r->best;
	uint32_t specificity = 0;
	size_t others;
	bool generic;

	jsonw_name(w, "attribution");
	/* only formats without literal text print it: no evidence */
	if (!a->chained && r->status == MATCH_CATCH_ALL)
		e = NULL;
	if (!e) {
		jsonw_null(w);
		return;
	}
	if (a->chained) {
		specificity = a->chain.lit_bytes;
		others = a->chain.others;
		generic = false;
	} else {
		specificity = r->best_fmt->lit_bytes;
		others = r->nmatch ? r->nmatch - 1 : 0;
		generic = r->status == MATCH_GENERIC;
	}
	jsonw_start_object(w);
	jsonw_string_field(w, "module", e->module);
	jsonw_string_field(w, "file", e->file);
	jsonw_uint_field(w, "line", e->line);
	jsonw_string_field(w, "function", e->func);
	jsonw_name(w, "format");
	jsonw_string_len(w, e->fmt, e->fmt_len);
	jsonw_int_field(w, "level", e->level);
	jsonw_uint_field(w, "specificity", specificity);
	jsonw_bool_field(w, "generic", generic);
	jsonw_bool_field(w, "prefix", !a->chained && r->prefix);
	jsonw_uint_field(w, "others", others);
	if (a->chained)
		chain_json(w, msg, &a->chain);
	if (joined)
		jsonw_uint_field(w, "continues", prev_seq);
	jsonw_end_object(w);
}

/* --- attributing ------------------------------------------------- */

/*
 * A record the kernel flagged as a continuation ('c' in 6.1, '+' before):
 * joined to the record before it if that is its direct predecessor, else
 * read as continuation pieces alone, else as any message.
 */
static void attribute_cont(struct follower *f, const struct kmsg_record *rec,
			   struct attribution *a, bool *joined)
{
	*joined = false;
	if (f->have_prev && f->prev_seq + 1 == rec->seq &&
	    f->prev_facility == rec->facility &&
	    f->prev_text.len + rec->len <= KMSG_READ_MAX) {
		sbuf_reset(&f->joined);
		sbuf_add(&f->joined, f->prev_text.p, f->prev_text.len);
		sbuf_add(&f->joined, rec->msg, rec->len);
		/* the level is the base's: a piece the kernel could not
		 * append got the default level */
		attribute_message(&f->ix->chains, f->joined.p, f->joined.len, f->prev_level, a);
		if (a->chained) {
			*joined = true;
			return;
		}
	}
	attribute_message(&f->ix->chains, rec->msg, rec->len, rec->level, a);
	if (a->single.status == MATCH_SPECIFIC && !a->single.prefix)
		return;
	if (chain_match(&f->ix->chains, rec->msg, rec->len, -1, true, &a->chain))
		a->chained = true;
}

static void attribute_record(struct follower *f, const struct kmsg_record *rec,
			     struct attribution *a, bool *joined, bool may_reload)
{
	bool cont = rec->flag == 'c' || rec->flag == '+';

	memset(a, 0, sizeof(*a));
	*joined = false;
	/* userspace writes to /dev/kmsg too; only the kernel uses printk */
	if (!f->have_index || rec->facility != 0 || rec->len > KMSG_READ_MAX)
		return;
	if (cont)
		attribute_cont(f, rec, a, joined);
	else
		attribute_message(&f->ix->chains, rec->msg, rec->len, rec->level, a);
	if (a->chained || a->single.status == MATCH_SPECIFIC)
		return;
	if (may_reload && index_folder_changed(f)) {
		struct pi_err err;

		if (follower_reload(f, &err))
			p_err("reloading the index: %s", err.msg);
		else
			attribute_record(f, rec, a, joined, false);
	}
}

static void remember(struct follower *f, const struct kmsg_record *rec, bool joined)
{
	/* a joined record continues the text before it */
	if (!joined || f->prev_text.len + rec->len > KMSG_READ_MAX) {
		sbuf_reset(&f->prev_text);
		f->prev_level = rec->level;
	}
	sbuf_add(&f->prev_text, rec->msg, rec->len);
	f->have_prev = true;
	f->prev_seq = rec->seq;
	f->prev_facility = rec->facility;
}

void follower_overrun(struct follower *f)
{
	f->overrun = true;
}

static void json_malformed(struct follower *f, const char *rec, size_t len,
			   const char *why)
{
	json_writer_t *w = jsonw_new(f->out);

	while (len && rec[len - 1] == '\n')
		len--;
	jsonw_start_object(w);
	jsonw_name(w, "malformed");
	jsonw_string_len(w, rec, len);
	jsonw_string_field(w, "error", why);
	jsonw_end_object(w);
	jsonw_destroy(&w);
}

void follower_record(struct follower *f, const char *raw, size_t len)
{
	struct kmsg_record rec;
	struct attribution a;
	struct pi_err err;
	json_writer_t *w;
	char iso[KMSG_ISO_LEN];
	bool joined;
	size_t i;

	if (kmsg_parse_record(raw, len, &rec, &f->scratch, &err)) {
		f->st.malformed++;
		json_malformed(f, raw, len, err.msg);
		return;
	}
	if (f->have_last && rec.seq > f->last_seq + 1) {
		f->st.lost += rec.seq - f->last_seq - 1;
		json_lost(f, rec.seq - f->last_seq - 1, true, f->last_seq + 1,
			  f->overrun ? "overrun" : "gap");
	} else if (f->overrun && !f->have_last) {
		json_lost(f, 0, false, rec.seq, "overrun");
	}
	f->overrun = false;
	f->have_last = true;
	f->last_seq = rec.seq;
	f->st.records++;

	attribute_record(f, &rec, &a, &joined, true);
	if (a.chained || a.single.status == MATCH_SPECIFIC)
		f->st.attributed++;

	w = jsonw_new(f->out);
	jsonw_start_object(w);
	jsonw_uint_field(w, "seq", rec.seq);
	jsonw_uint_field(w, "facility", rec.facility);
	jsonw_uint_field(w, "level", rec.level);
	jsonw_name(w, "flags");
	jsonw_string_len(w, &rec.flag, 1);
	jsonw_uint_field(w, "timestamp_us", rec.ts_usec);
	jsonw_string_field(w, "time",
			   kmsg_iso8601(f->boot_usec + (int64_t)rec.ts_usec, iso));
	jsonw_name(w, "message");
	jsonw_string_len(w, rec.msg, rec.len);
	jsonw_name(w, "dict");
	jsonw_start_object(w);
	for (i = 0; i < rec.ndict; i++) {
		jsonw_name(w, rec.dict[i].key);
		jsonw_string_len(w, rec.dict[i].value, rec.dict[i].value_len);
	}
	jsonw_end_object(w);
	jsonw_string_field(w, "class", attr_class_name(attribution_class(&a)));
	json_attribution(w, joined ? f->joined.p : rec.msg, &a, joined, f->prev_seq);
	jsonw_end_object(w);
	jsonw_destroy(&w);

	remember(f, &rec, joined);
}

/* --- the read loop ------------------------------------------------ */

static volatile sig_atomic_t stop_signal, reload_requested;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void on_hup(int sig)
{
	(void)sig;
	reload_requested = 1;
}

static void handle_reload_request(struct follower *f)
{
	struct pi_err err;

	if (!reload_requested)
		return;
	reload_requested = 0;
	if (follower_reload(f, &err))
		p_err("SIGHUP: keeping the old index: %s", err.msg);
}

/*
 * /dev/kmsg: one record per read(). The signals are blocked except inside
 * ppoll(), so a SIGTERM between the flag test and the wait cannot be lost;
 * while records keep coming, a zero-timeout ppoll() lets pending signals in.
 */
static int follow_kmsg(struct follower *f, int fd, bool no_wait,
		       const sigset_t *waitmask)
{
	/* twice what the kernel formats a record into: a read too small
	 * for the next record would fail with EINVAL again and again */
	static char buf[2 * KMSG_READ_MAX];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	const struct timespec zero = { 0, 0 };
	bool idle = false;
	ssize_t n;

	for (;;) {
		if (ppoll(&pfd, 1, idle ? NULL : &zero, waitmask) < 0 && errno != EINTR) {
			p_err("poll: %s", strerror(errno));
			return EXIT_ERR;
		}
		if (stop_signal)
			return EXIT_OK;
		handle_reload_request(f);
		if (ferror(f->out)) {
			p_err("writing the records: %s", strerror(errno));
			return EXIT_ERR;
		}
		n = read(fd, buf, sizeof(buf));
		if (n > 0) {
			idle = false;
			follower_record(f, buf, n);
			continue;
		}
		if (n < 0 && errno == EAGAIN) {
			if (no_wait)
				return EXIT_OK;
			idle = true;
			continue;
		}
		if (n < 0 && errno == EPIPE) {	/* overwritten before we read it */
			follower_overrun(f);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			return EXIT_OK;
		p_err("reading the kernel log: %s", strerror(errno));
		return EXIT_ERR;
	}
}

/* A file of records as "cat /dev/kmsg" prints them: a record is a line
 * not starting with a blank plus the dictionary lines after it, so it is
 * written when the next one starts (or at the end, or on SIGTERM). */
static int follow_file(struct follower *f, FILE *in, const char *name)
{
	struct sbuf rec = { 0 };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret = EXIT_OK, read_errno;

	while (!stop_signal && !ferror(f->out) && (len = getline(&line, &cap, in)) >= 0) {
		handle_reload_request(f);
		if (len && line[0] == ' ' && rec.len) {
			sbuf_add(&rec, line, len);
			continue;
		}
		if (rec.len)
			follower_record(f, rec.p, rec.len);
		sbuf_reset(&rec);
		if (len > 1 || (len == 1 && line[0] != '\n'))
			sbuf_add(&rec, line, len);
	}
	/* getline()'s errno, before follower_record() can change it */
	read_errno = ferror(in) ? (errno ? errno : EIO) : 0;
	/* the last record: its dictionary lines, if any, have come */
	if (rec.len)
		follower_record(f, rec.p, rec.len);
	if (read_errno && !stop_signal) {
		p_err("%s: read error: %s", name, strerror(read_errno));
		ret = EXIT_ERR;
	}
	if (ferror(f->out)) {
		p_err("writing the records: %s", strerror(errno));
		ret = EXIT_ERR;
	}
	free(line);
	sbuf_free(&rec);
	return ret;
}

static void usage(void)
{
	fprintf(stderr, "Usage: printk-index match --follow [--from-start] [--no-wait] [--index SOURCE] [/dev/kmsg|FILE|-]\n");
}

/* What match --follow's options ask for. */
struct follow_opts {
	const char *index_src;	/* NULL: the running kernel's index */
	const char *input;	/* "-": standard input */
	bool from_start;
	bool no_wait;
};

/* The options into *o, the input too if given; -1 on a usage error. */
static int parse_follow_opts(int argc, char **argv, struct follow_opts *o)
{
	static const struct option opts[] = {
		{ "follow", no_argument, NULL, 'f' },
		{ "from-start", no_argument, NULL, 's' },
		{ "no-wait", no_argument, NULL, 'n' },
		COMMON_LONG_OPTS,
		{ "index", required_argument, NULL, 'i' },
		{ 0 }
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "jpvi:", opts, NULL)) >= 0) {
		switch (opt) {
		case 'f': break;
		case 's': o->from_start = true; break;
		case 'n': o->no_wait = true; break;
		case 'j': case 'p': case 'v': break;	/* always JSON lines */
		case 'i': o->index_src = optarg; break;
		default: usage(); return -1;
		}
	}
	if (argc - optind > 1) {
		usage();
		return -1;
	}
	if (optind < argc)
		o->input = argv[optind];
	return 0;
}

/*
 * The input opened and checked. The kernel log device stays a
 * non-blocking fd (*fdp), read one record at a time, at its end unless
 * --from-start; a file or a pipe is also opened as *inp, read through
 * stdio. Any other character device, or a folder, is refused. -1 on
 * failure, the error reported and nothing left open.
 */
static int open_input(const struct follow_opts *o, int *fdp, FILE **inp)
{
	const char *input = o->input;
	struct stat st;
	int fd;

	if (!strcmp(input, "-")) {
		fd = STDIN_FILENO;
	} else {
		fd = open(input, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			p_err("%s: %s", input, strerror(errno));
			return -1;
		}
	}
	if (fstat(fd, &st)) {
		p_err("%s: %s", input, strerror(errno));
		goto fail_fd;
	}
	if (S_ISCHR(st.st_mode) &&
	    (major(st.st_rdev) != KMSG_MAJOR || minor(st.st_rdev) != KMSG_MINOR)) {
		p_err("%s: not the kernel log device /dev/kmsg (char %u:%u)", input,
		      major(st.st_rdev), minor(st.st_rdev));
		goto fail_fd;
	}
	if (S_ISDIR(st.st_mode)) {
		p_err("%s: is a folder, not a kernel log", input);
		goto fail_fd;
	}
	if (S_ISCHR(st.st_mode) && !o->from_start && lseek(fd, 0, SEEK_END) < 0) {
		p_err("%s: cannot seek to the end: %s", input, strerror(errno));
		goto fail_fd;
	}
	*inp = NULL;
	if (!S_ISCHR(st.st_mode)) {
		/* a file or a pipe: read it through stdio, blocking */
		if (fd != STDIN_FILENO)
			fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		*inp = fdopen(fd, "r");
		if (!*inp) {
			p_err("%s: %s", input, strerror(errno));
			goto fail_fd;
		}
	}
	*fdp = fd;
	return 0;

fail_fd:
	if (fd != STDIN_FILENO)
		close(fd);
	return -1;
}

/* SIGINT and SIGTERM end the loop, SIGHUP asks for an index reload. */
static void catch_signals(void)
{
	struct sigaction sa = { 0 };

	sa.sa_handler = on_stop;	/* no SA_RESTART: a blocked read returns */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a reload request must not end a blocking read of a pipe */
	sa.sa_handler = on_hup;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGHUP, &sa, NULL);
}

/* follow_kmsg() with those signals blocked but while it waits. */
static int follow_kmsg_masked(struct follower *f, int fd, bool no_wait)
{
	sigset_t block, waitmask;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &waitmask);
	sigdelset(&waitmask, SIGINT);
	sigdelset(&waitmask, SIGTERM);
	sigdelset(&waitmask, SIGHUP);
	return follow_kmsg(f, fd, no_wait, &waitmask);
}

/* The counts on stderr: with -v, or when records went missing or wrong. */
static void print_follow_stats(const struct follower *f)
{
	if (verbose || f->st.lost || f->st.malformed)
		fprintf(stderr, "printk-index: %llu records, %llu attributed, %llu lost, %llu malformed, %llu index reloads\n",
			(unsigned long long)f->st.records, (unsigned long long)f->st.attributed,
			(unsigned long long)f->st.lost, (unsigned long long)f->st.malformed,
			(unsigned long long)f->st.reloads);
}

int do_match_follow(int argc, char **argv)
{
	struct follow_opts o = { .input = "/dev/kmsg" };
	struct follower f;
	struct pi_err err;
	FILE *in;
	int fd, ret;

	if (parse_follow_opts(argc, argv, &o))
		return EXIT_ERR;
	/* open the source first: a wrong path is the likelier mistake */
	if (open_input(&o, &fd, &in))
		return EXIT_ERR;
	if (follower_init(&f, o.index_src, stdout, kmsg_boot_time_usec(), &err)) {
		p_err("%s", err.msg);
		if (fd != STDIN_FILENO)
			close(fd);
		return EXIT_ERR;
	}
	if (!f.have_index)
		p_err("no printk index (%s): records are written without attribution",
		      err.msg);

	catch_signals();
	if (in) {
		ret = follow_file(&f, in, o.input);
		fclose(in);
	} else {
		ret = follow_kmsg_masked(&f, fd, o.no_wait);
		close(fd);
	}
	print_follow_stats(&f);
	follower_free(&f);
	return ret;
}
