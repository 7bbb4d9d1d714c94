// SPDX-License-Identifier: GPL-2.0
/* A log line's shape (logline.h): dmesg, journalctl, syslog, kmsg and
 * the rest detected and stripped, down to the kernel's text and level. */
#include <string.h>

#include "kmsg.h"
#include "logline.h"

static const char *const kind_names[LOG_NKINDS] = {
	[LOG_RAW] = "raw",
	[LOG_DMESG] = "dmesg",
	[LOG_DMESG_R] = "dmesg-r",
	[LOG_DMESG_X] = "dmesg-x",
	[LOG_KMSG] = "kmsg",
	[LOG_JOURNAL] = "journal",
	[LOG_JOURNAL_JSON] = "journal-json",
	[LOG_SYSLOG] = "syslog",
	[LOG_RFC5424] = "rfc5424",
	[LOG_SKIP] = "skip",
};

const char *log_kind_name(enum log_kind k)
{
	return (unsigned)k < LOG_NKINDS ? kind_names[k] : "?";
}

int log_kind_by_name(const char *name)
{
	static const struct { const char *alias; int kind; } aliases[] = {
		{ "auto", LOG_NKINDS }, { "notime", LOG_RAW }, { "cat", LOG_RAW },
		{ "json", LOG_JOURNAL_JSON }, { "kern.log", LOG_JOURNAL },
		{ "rfc3164", LOG_JOURNAL }, { "short", LOG_JOURNAL },
		{ "netconsole", LOG_DMESG }, { "ext-netconsole", LOG_KMSG },
	};
	size_t i;

	for (i = 0; i < LOG_SKIP; i++)
		if (!strcmp(name, kind_names[i]))
			return i;
	for (i = 0; i < ARRAY_SIZE(aliases); i++)
		if (!strcmp(name, aliases[i].alias))
			return aliases[i].kind;
	return -1;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_alpha(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* Cursor over the line; every helper advances it only on success. */
struct cur {
	const char *p, *end;
};

static int digits(struct cur *c, unsigned long long *v)
{
	const char *p = c->p;
	unsigned long long x = 0;

	while (p < c->end && is_digit(*p)) {
		if (x < 100000000000000000ULL)
			x = x * 10 + (*p - '0');
		p++;
	}
	if (p == c->p)
		return 0;
	if (v)
		*v = x;
	c->p = p;
	return 1;
}

/* exactly n digits */
static int ndigits(struct cur *c, size_t n)
{
	size_t i;

	if ((size_t)(c->end - c->p) < n)
		return 0;
	for (i = 0; i < n; i++)
		if (!is_digit(c->p[i]))
			return 0;
	c->p += n;
	return 1;
}

static int lit(struct cur *c, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n))
		return 0;
	c->p += n;
	return 1;
}

static int chr(struct cur *c, char ch)
{
	if (c->p < c->end && *c->p == ch) {
		c->p++;
		return 1;
	}
	return 0;
}

static void skip_spaces(struct cur *c)
{
	while (c->p < c->end && *c->p == ' ')
		c->p++;
}

/* a run of bytes other than blanks; the host name of a syslog line */
static int token(struct cur *c)
{
	const char *p = c->p;

	while (p < c->end && *p != ' ')
		p++;
	if (p == c->p)
		return 0;
	c->p = p;
	return 1;
}

/* "1.234567": seconds and a fraction, as every monotonic stamp has them */
static int seconds(struct cur *c)
{
	struct cur t = *c;

	if (digits(&t, NULL) && chr(&t, '.') && digits(&t, NULL)) {
		*c = t;
		return 1;
	}
	return 0;
}

/* optional ".123456" or ",123456" */
static void fraction(struct cur *c)
{
	struct cur t = *c;

	if ((chr(&t, '.') || chr(&t, ',')) && digits(&t, NULL))
		*c = t;
}

static int is_month(const char *p)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	size_t i;

	for (i = 0; i < 12; i++)
		if (!memcmp(p, months + 3 * i, 3))
			return 1;
	return 0;
}

/* "HH:MM:SS" */
static int clock_time(struct cur *c)
{
	struct cur t = *c;

	if (ndigits(&t, 2) && chr(&t, ':') && ndigits(&t, 2) && chr(&t, ':') && ndigits(&t, 2)) {
		*c = t;
		return 1;
	}
	return 0;
}

/* "YYYY-MM-DD" */
static int date(struct cur *c)
{
	struct cur t = *c;

	if (ndigits(&t, 4) && chr(&t, '-') && ndigits(&t, 2) && chr(&t, '-') && ndigits(&t, 2)) {
		*c = t;
		return 1;
	}
	return 0;
}

/* ISO 8601 / RFC 3339: "2024-12-03T07:51:19[.,]123456+01:00", the zone
 * "Z", "+hh:mm", "+hhmm" or absent */
static int iso_time(struct cur *c)
{
	struct cur t = *c;

	if (!date(&t) || !chr(&t, 'T') || !clock_time(&t))
		return 0;
	fraction(&t);
	if (!chr(&t, 'Z') && (chr(&t, '+') || chr(&t, '-'))) {
		if (!ndigits(&t, 2))
			return 0;
		chr(&t, ':');
		if (!ndigits(&t, 2))
			return 0;
	}
	*c = t;
	return 1;
}

/*
 * What dmesg writes before the text, brackets and the blank after them
 * included: "[    1.234567]", "[    1.234567 <    0.000123>]" (-d),
 * "[<    0.000123>]" (delta), "[  +0.000123]" (reltime), and the clock
 * forms "[Tue Dec  3 07:51:19 2024]" (ctime), "[Dec 3 07:51]" (reltime);
 * without brackets, "2024-12-03T07:51:19,123456+01:00" (iso).
 */
static int dmesg_stamp(struct cur *c)
{
	struct cur t = *c;
	const char *close;
	size_t i, n;
	bool clock;

	if (iso_time(&t))
		goto ok;
	if (!chr(&t, '['))
		return 0;
	close = memchr(t.p, ']', t.end - t.p);
	if (!close || close - t.p > 48)
		return 0;
	skip_spaces(&t);
	chr(&t, '+');
	if (seconds(&t)) {
		skip_spaces(&t);
		if (t.p == close)
			goto closed;
	}
	if (chr(&t, '<') && (skip_spaces(&t), seconds(&t)) && chr(&t, '>') && t.p == close)
		goto closed;
	/*
	 * clock forms: a day or month name, then letters, digits, blanks and
	 * ':' only, with a clock ("07:51") in them; a message's own brackets,
	 * as DRM's "[drm:0xffffffffc0a1b2c3]", are not a stamp
	 */
	t.p = c->p + 1;
	n = close - t.p;
	if (n < 8 || !is_alpha(t.p[0]) || !is_alpha(t.p[1]) || !is_alpha(t.p[2]) ||
	    t.p[3] != ' ')
		return 0;
	clock = false;
	for (i = 0; i < n; i++) {
		char ch = t.p[i];

		if (!(is_digit(ch) || ch == ' ' || ch == ':' || is_alpha(ch)))
			return 0;
		if (ch == ':' && i + 1 < n && is_digit(t.p[i - 1]) && is_digit(t.p[i + 1]))
			clock = true;
	}
	if (!clock)
		return 0;
closed:
	t.p = close + 1;
ok:
	chr(&t, ' ');	/* dmesg writes one blank; tolerate its absence */
	*c = t;
	return 1;
}

/* CONFIG_PRINTK_CALLER: "[    T123] " or "[     C1] " */
static void caller_id(struct cur *c)
{
	struct cur t = *c;

	if (!chr(&t, '['))
		return;
	skip_spaces(&t);
	if (!chr(&t, 'T') && !chr(&t, 'C'))
		return;
	if (digits(&t, NULL) && chr(&t, ']')) {
		chr(&t, ' ');
		*c = t;
	}
}

static void stamp_and_caller(struct cur *c)
{
	if (dmesg_stamp(c))
		caller_id(c);
}

/*
 * A /dev/kmsg record on one line (kmsg.h): "pri,seq,usec,flags[,more];".
 * Extended netconsole may prepend the kernel release
 * ("6.1.0-13-amd64,6,1,2,-;").
 */
static int kmsg(struct cur *c, struct log_line *out, struct sbuf *buf)
{
	struct kmsg_record rec;
	const char *comma;

	if (kmsg_parse_record(c->p, c->end - c->p, &rec, buf, NULL)) {
		comma = memchr(c->p, ',', c->end - c->p);
		if (!comma || comma - c->p > 64 || !memchr(c->p, '.', comma - c->p) ||
		    memchr(c->p, ' ', comma - c->p) ||
		    kmsg_parse_record(comma + 1, c->end - comma - 1, &rec, buf, NULL))
			return 0;
	}
	out->level = rec.level;
	out->facility = rec.facility;
	out->msg = rec.msg;
	out->len = rec.len;
	return 1;
}

static const char *const levels[] = {
	"emerg", "alert", "crit", "err", "warn", "notice", "info", "debug",
};

static const char *const facilities[] = {
	"kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news",
	"uucp", "cron", "authpriv", "ftp", "res0", "res1", "res2", "res3",
	"local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7",
};

/* dmesg -x: "kern  :info  : ". The facility is a word before blanks and
 * ':': most lines ("pci 0000:00:01.0: ...") are out before any compare. */
static int decoded_prefix(struct cur *c, struct log_line *out)
{
	struct cur t = *c;
	const char *word = t.p;
	size_t i, len;
	int fac = -1, lvl = -1;

	while (t.p < t.end && ((*t.p >= 'a' && *t.p <= 'z') || is_digit(*t.p)))
		t.p++;
	len = t.p - word;
	skip_spaces(&t);
	if (!chr(&t, ':'))
		return 0;
	for (i = 0; i < ARRAY_SIZE(facilities); i++)
		if (strlen(facilities[i]) == len && !memcmp(word, facilities[i], len)) {
			fac = i;
			break;
		}
	if (fac < 0)
		return 0;
	for (i = 0; i < ARRAY_SIZE(levels); i++) {
		struct cur u = t;

		if (lit(&u, levels[i]) && (skip_spaces(&u), lit(&u, ": "))) {
			lvl = i;
			t = u;
			break;
		}
	}
	if (lvl < 0)
		return 0;
	out->level = lvl;
	out->facility = fac;
	*c = t;
	return 1;
}

/*
 * "TIME [HOST ]kernel: ", TIME as journalctl's short formats and syslog
 * print it (logline.h). journalctl --no-hostname leaves HOST out.
 */
static int journal_header(struct cur *c)
{
	struct cur t = *c;

	if (t.end - t.p >= 15 && t.p[3] == ' ' && is_month(t.p)) {
		/* "Dec 03 07:51:19", "Dec  3 07:51:19", short-precise */
		t.p += 4;
		chr(&t, ' ');
		if (!digits(&t, NULL) || !chr(&t, ' ') || !clock_time(&t))
			return 0;
		fraction(&t);
	} else if (iso_time(&t)) {
		;
	} else if (t.end - t.p >= 4 && is_alpha(t.p[0]) && t.p[3] == ' ') {
		/* short-full, with-unit: "Tue 2024-12-03 07:51:19 CET" */
		t.p += 4;
		if (!date(&t) || !chr(&t, ' ') || !clock_time(&t))
			return 0;
		fraction(&t);
		if (!chr(&t, ' ') || !token(&t))
			return 0;
	} else if (chr(&t, '[')) {
		/* short-monotonic: "[    1.234567]" */
		skip_spaces(&t);
		if (!seconds(&t) || !chr(&t, ']'))
			return 0;
	} else if (!seconds(&t)) {	/* short-unix */
		return 0;
	}
	if (!chr(&t, ' '))
		return 0;
	if (!lit(&t, "kernel: ") && !(token(&t) && lit(&t, " kernel: ")))
		return 0;
	*c = t;
	return 1;
}

/* "<6>": returns the priority or -1 */
static int priority(struct cur *c)
{
	struct cur t = *c;
	unsigned long long pri;

	if (chr(&t, '<') && digits(&t, &pri) && pri < 1024 && chr(&t, '>')) {
		*c = t;
		return (int)pri;
	}
	return -1;
}

/*
 * RFC 5424 after "<PRI>": "1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID
 * STRUCTURED-DATA [MSG]", the structured data "-" or "[...]..." (with
 * "\]" escaped inside), the message maybe starting with a UTF-8 BOM.
 */
static int rfc5424(struct cur *c)
{
	struct cur t = *c;
	int i;

	if (!digits(&t, NULL) || !chr(&t, ' '))
		return 0;
	for (i = 0; i < 5; i++)
		if (!token(&t) || !chr(&t, ' '))
			return 0;
	if (!chr(&t, '-')) {
		if (t.p >= t.end || *t.p != '[')
			return 0;
		while (chr(&t, '[')) {
			while (t.p < t.end && *t.p != ']')
				t.p += *t.p == '\\' && t.end - t.p > 1 ? 2 : 1;
			if (!chr(&t, ']'))
				return 0;
		}
	}
	if (t.p < t.end && !chr(&t, ' '))
		return 0;
	lit(&t, "\xef\xbb\xbf");
	*c = t;
	return 1;
}

/* a JSON string at c (after its '"'), undone into buf if want */
static int json_string(struct cur *c, struct sbuf *buf, bool want)
{
	const char *p = c->p;

	while (p < c->end && *p != '"') {
		if (*p != '\\') {
			if (want)
				sbuf_addc(buf, *p);
			p++;
			continue;
		}
		if (c->end - p < 2)
			return 0;
		if (p[1] == 'u') {
			unsigned v = 0;
			int i, d;

			if (c->end - p < 6)
				return 0;
			for (i = 2; i < 6; i++) {
				if ((d = hex_digit_value(p[i])) < 0)
					return 0;
				v = v << 4 | d;
			}
			p += 6;
			/* a surrogate pair is one code point */
			if (v >= 0xd800 && v < 0xdc00 && c->end - p >= 6 && p[0] == '\\' &&
			    p[1] == 'u') {
				unsigned lo = 0;

				for (i = 2; i < 6 && (d = hex_digit_value(p[i])) >= 0; i++)
					lo = lo << 4 | d;
				if (i == 6 && lo >= 0xdc00 && lo < 0xe000) {
					v = 0x10000 + ((v - 0xd800) << 10) + (lo - 0xdc00);
					p += 6;
				}
			}
			if (!want)
				continue;
			if (v < 0x80) {
				sbuf_addc(buf, (char)v);
			} else if (v < 0x800) {
				sbuf_addc(buf, (char)(0xc0 | v >> 6));
				sbuf_addc(buf, (char)(0x80 | (v & 0x3f)));
			} else if (v < 0x10000) {
				sbuf_addc(buf, (char)(0xe0 | v >> 12));
				sbuf_addc(buf, (char)(0x80 | (v >> 6 & 0x3f)));
				sbuf_addc(buf, (char)(0x80 | (v & 0x3f)));
			} else {
				sbuf_addc(buf, (char)(0xf0 | v >> 18));
				sbuf_addc(buf, (char)(0x80 | (v >> 12 & 0x3f)));
				sbuf_addc(buf, (char)(0x80 | (v >> 6 & 0x3f)));
				sbuf_addc(buf, (char)(0x80 | (v & 0x3f)));
			}
			continue;
		}
		if (want) {
			const char *from = "bfnrt\"\\/", *to = "\b\f\n\r\t\"\\/";
			const char *k = memchr(from, p[1], 8);

			if (!k)
				return 0;
			sbuf_addc(buf, to[k - from]);
		}
		p += 2;
	}
	if (p >= c->end)
		return 0;
	c->p = p + 1;
	return 1;
}

/* a value other than a string: up to the next ',' or '}' outside of
 * brackets and strings; journald writes a binary MESSAGE as an array of
 * byte values, undone into buf if want */
static int json_other(struct cur *c, struct sbuf *buf, bool want)
{
	int depth = 0;
	unsigned long long v;

	while (c->p < c->end) {
		char ch = *c->p;

		if (ch == '"') {
			c->p++;
			if (!json_string(c, buf, false))
				return 0;
			continue;
		}
		if (!depth && (ch == ',' || ch == '}'))
			return 1;
		if (ch == '[' || ch == '{')
			depth++;
		else if (ch == ']' || ch == '}')
			depth--;
		if (want && depth == 1 && digits(c, &v)) {
			sbuf_addc(buf, (char)v);
			continue;
		}
		c->p++;
	}
	return 0;
}

/* journalctl -o json: one object a line; MESSAGE, PRIORITY, SYSLOG_FACILITY */
static int journal_json(struct cur *c, struct log_line *out, struct sbuf *buf)
{
	struct cur t = *c;
	bool have_msg = false;

	if (!chr(&t, '{'))
		return 0;
	sbuf_reset(buf);
	for (;;) {
		const char *key;
		size_t klen;
		bool is_msg;

		skip_spaces(&t);
		if (!chr(&t, '"'))
			return 0;
		key = t.p;
		if (!json_string(&t, buf, false))
			return 0;
		klen = t.p - 1 - key;
		skip_spaces(&t);
		if (!chr(&t, ':'))
			return 0;
		skip_spaces(&t);
		is_msg = klen == 7 && !memcmp(key, "MESSAGE", 7) && !have_msg;
		if (chr(&t, '"')) {
			const char *val = t.p;

			if (!json_string(&t, buf, is_msg))
				return 0;
			if (klen == 8 && !memcmp(key, "PRIORITY", 8) && is_digit(*val))
				out->level = (*val - '0') & 7;
			if (klen == 15 && !memcmp(key, "SYSLOG_FACILITY", 15) && is_digit(*val)) {
				struct cur v = { val, t.p };
				unsigned long long f;

				if (digits(&v, &f) && f < 24)
					out->facility = (int)f;
			}
		} else if (!json_other(&t, buf, is_msg)) {
			return 0;
		}
		have_msg |= is_msg;
		skip_spaces(&t);
		if (chr(&t, '}'))
			break;
		if (!chr(&t, ','))
			return 0;
	}
	if (!have_msg)
		return 0;
	out->msg = buf->p ? buf->p : "";
	out->len = buf->len;
	*c = t;
	return 1;
}

#define K(kind) (1u << (kind))
#define ALL_KINDS (K(LOG_SKIP) - 1)

/*
 * The prefix layers of one line, tried only for the kinds in mask
 * (never LOG_RAW). Returns the kind and moves c to the text, or LOG_RAW.
 * kmsg and JSON text is made in buf, so not when the line is in buf.
 */
static enum log_kind shaped(struct cur *c, unsigned mask, bool line_in_buf,
			    struct log_line *out, struct sbuf *buf)
{
	struct cur t = *c;
	int pri;

	if (line_in_buf)
		mask &= ~(K(LOG_KMSG) | K(LOG_JOURNAL_JSON));
	if ((mask & K(LOG_KMSG)) && is_digit(*t.p) && kmsg(&t, out, buf))
		return LOG_KMSG;
	if ((mask & K(LOG_JOURNAL_JSON)) && *t.p == '{' && journal_json(&t, out, buf))
		return LOG_JOURNAL_JSON;
	if (*t.p == '<' && (mask & (K(LOG_DMESG_R) | K(LOG_SYSLOG) | K(LOG_RFC5424))) &&
	    (pri = priority(&t)) >= 0) {
		enum log_kind kind = LOG_RAW;
		struct cur u = t;

		if ((mask & K(LOG_RFC5424)) && rfc5424(&u))
			kind = LOG_RFC5424;
		else if ((mask & K(LOG_SYSLOG)) && journal_header(&u))
			kind = LOG_SYSLOG;
		else if (mask & K(LOG_DMESG_R))
			kind = LOG_DMESG_R;
		if (kind != LOG_RAW) {
			out->level = pri & 7;
			out->facility = pri >> 3;
			stamp_and_caller(&u);
			*c = u;
			return kind;
		}
		t = *c;
	}
	/* before dmesg: "[    1.0] host kernel: " is short-monotonic */
	if ((mask & K(LOG_JOURNAL)) && journal_header(&t)) {
		stamp_and_caller(&t);
		*c = t;
		return LOG_JOURNAL;
	}
	if ((mask & K(LOG_DMESG)) && (*t.p == '[' || is_digit(*t.p)) && dmesg_stamp(&t)) {
		caller_id(&t);
		*c = t;
		return LOG_DMESG;
	}
	/* facility names are lower case: skip 24 compares for other lines */
	if ((mask & K(LOG_DMESG_X)) && *t.p >= 'a' && *t.p <= 'z' && decoded_prefix(&t, out)) {
		stamp_and_caller(&t);
		*c = t;
		return LOG_DMESG_X;
	}
	out->level = -1;
	out->facility = -1;
	return LOG_RAW;
}

static int is_dict_line(const char *line, size_t len)
{
	size_t i = 1;

	if (len < 3 || line[0] != ' ')
		return 0;
	while (i < len && ((line[i] >= 'A' && line[i] <= 'Z') || is_digit(line[i]) ||
			   line[i] == '_'))
		i++;
	return i > 1 && i < len && line[i] == '=';
}

static int is_skipped(const char *line, size_t len, bool dict)
{
	struct cur c = { line, line + len };
	size_t i;

	for (i = 0; i < len && line[i] == ' '; i++)
		;
	if (i == len)	/* empty, or blanks an editor left */
		return 1;
	if (dict && is_dict_line(line, len))
		return 1;
	return *line == '-' && (lit(&c, "-- Boot ") || lit(&c, "-- Logs begin") ||
				lit(&c, "-- Journal begins") || lit(&c, "-- No entries --") ||
				lit(&c, "-- Reboot --"));
}

/* ANSI SGR and other CSI sequences ("\e[1;32m"), which dmesg -H and
 * --color=always put around prefixes */
static void strip_csi(const char *line, size_t len, struct sbuf *buf)
{
	size_t i = 0;

	sbuf_reset(buf);
	while (i < len) {
		if (line[i] == '\x1b' && i + 1 < len && line[i + 1] == '[') {
			i += 2;
			while (i < len && ((line[i] >= '0' && line[i] <= '9') || line[i] == ';'))
				i++;
			if (i < len)
				i++;	/* the final byte */
			continue;
		}
		sbuf_addc(buf, line[i++]);
	}
}

static enum log_kind parse_mask(const char *line, size_t len, unsigned mask,
				struct log_line *out, struct sbuf *buf)
{
	struct cur c = { line, line + len };
	bool in_buf = false;
	enum log_kind kind;

	out->level = -1;
	out->facility = -1;
	out->msg = line;
	out->len = len;
	if (memchr(line, '\x1b', len)) {
		strip_csi(line, len, buf);
		c.p = buf->p ? buf->p : "";
		c.end = c.p + buf->len;
		in_buf = true;
	}
	skip_spaces(&c);
	if (c.p == c.end)
		return LOG_RAW;
	kind = shaped(&c, mask, in_buf, out, buf);
	if (kind == LOG_RAW)
		return LOG_RAW;	/* the line as it was, blanks and colours */
	if (kind != LOG_KMSG && kind != LOG_JOURNAL_JSON) {
		out->msg = c.p;
		out->len = c.end - c.p;
	}
	return kind;
}

void log_parse(const char *line, size_t len, struct log_line *out, struct sbuf *buf)
{
	if (is_skipped(line, len, true)) {
		out->kind = LOG_SKIP;
		out->level = out->facility = -1;
		out->msg = line;
		out->len = len;
		return;
	}
	out->kind = parse_mask(line, len, ALL_KINDS, out, buf);
}

void log_shape_init(struct log_shape *s, int forced)
{
	s->forced = forced;
	s->last = LOG_RAW;
}

void log_parse_in(struct log_shape *s, const char *line, size_t len,
		  struct log_line *out, struct sbuf *buf)
{
	if (s->forced != LOG_NKINDS) {
		if (is_skipped(line, len, s->forced == LOG_KMSG)) {
			log_parse(line, len, out, buf);
			out->kind = LOG_SKIP;
			return;
		}
		out->kind = s->forced == LOG_RAW ? LOG_RAW :
			    parse_mask(line, len, K(s->forced), out, buf);
		if (out->kind == LOG_RAW) {
			out->level = out->facility = -1;
			out->msg = line;
			out->len = len;
		}
		return;
	}
	if (is_skipped(line, len, true)) {
		log_parse(line, len, out, buf);
		return;
	}
	if (s->last != LOG_RAW) {
		out->kind = parse_mask(line, len, K(s->last), out, buf);
		if (out->kind != LOG_RAW)
			return;
	}
	out->kind = parse_mask(line, len, ALL_KINDS, out, buf);
	if (out->kind != LOG_RAW)
		s->last = out->kind;
}
