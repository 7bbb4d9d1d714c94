// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "logline.h"

const char *log_kind_name(enum log_kind k)
{
	switch (k) {
	case LOG_RAW: return "raw";
	case LOG_DMESG: return "dmesg";
	case LOG_DMESG_R: return "dmesg-r";
	case LOG_DMESG_X: return "dmesg-x";
	case LOG_KMSG: return "kmsg";
	case LOG_JOURNAL: return "journal";
	case LOG_SKIP: return "skip";
	}
	return "?";
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
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

static int lit(struct cur *c, const char *s)
{
	size_t n = strlen(s);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n))
		return 0;
	c->p += n;
	return 1;
}

static void skip_spaces(struct cur *c)
{
	while (c->p < c->end && *c->p == ' ')
		c->p++;
}

/* "[    1.234567]" (seconds.micro) or "[Tue Dec  3 07:51:19 2024]" (-T)
 * followed by one blank; returns 1 and moves past it. */
static int timestamp(struct cur *c)
{
	struct cur t = *c;
	const char *close;
	size_t i, n;

	if (!lit(&t, "["))
		return 0;
	close = memchr(t.p, ']', t.end - t.p);
	if (!close || close - t.p > 40)
		return 0;
	skip_spaces(&t);
	if (digits(&t, NULL) && lit(&t, ".") && digits(&t, NULL) && t.p == close)
		goto ok;
	/* ctime-like: letters, digits, blanks and ':' only, with a ':' */
	t.p = c->p + 1;
	n = close - t.p;
	if (n < 8 || !memchr(t.p, ':', n))
		return 0;
	for (i = 0; i < n; i++) {
		char ch = t.p[i];

		if (!(is_digit(ch) || ch == ' ' || ch == ':' ||
		      (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z')))
			return 0;
	}
ok:
	t.p = close + 1;
	lit(&t, " ");	/* dmesg writes one blank; tolerate its absence */
	*c = t;
	return 1;
}

/* CONFIG_PRINTK_CALLER: "[    T123] " or "[     C1] " */
static void caller_id(struct cur *c)
{
	struct cur t = *c;

	if (!lit(&t, "["))
		return;
	skip_spaces(&t);
	if (t.p < t.end && (*t.p == 'T' || *t.p == 'C'))
		t.p++;
	else
		return;
	if (digits(&t, NULL) && lit(&t, "]")) {
		lit(&t, " ");
		*c = t;
	}
}

/* "pri,seq,usec,flags[,more...];" - msg_add_ext_text() escapes bytes
 * below ' ', from 127 on, and '\' as \xNN */
static int kmsg(struct cur *c, struct log_line *out, struct sbuf *buf)
{
	struct cur t = *c;
	unsigned long long pri;
	const char *semi, *p;

	if (!digits(&t, &pri) || !lit(&t, ",") || !digits(&t, NULL) || !lit(&t, ",") ||
	    !digits(&t, NULL) || !lit(&t, ","))
		return 0;
	if (t.p >= t.end || (*t.p != '-' && *t.p != 'c' && *t.p != '+'))
		return 0;
	semi = memchr(t.p, ';', t.end - t.p);
	if (!semi)
		return 0;
	for (p = t.p + 1; p < semi; p++)	/* ",caller=T1" and future fields */
		if (*p == ' ')
			return 0;
	if (p > t.p + 1 && t.p[1] != ',')
		return 0;
	out->kind = LOG_KMSG;
	out->level = pri & 7;
	out->facility = (int)((pri >> 3) & 0xffff);
	sbuf_reset(buf);
	for (p = semi + 1; p < t.end; p++) {
		int hi, lo;

		if (*p == '\\' && t.end - p >= 4 && p[1] == 'x' &&
		    (hi = hex_digit_value(p[2])) >= 0 && (lo = hex_digit_value(p[3])) >= 0) {
			sbuf_addc(buf, (char)(hi << 4 | lo));
			p += 3;
		} else {
			sbuf_addc(buf, *p);
		}
	}
	out->msg = buf->p ? buf->p : "";
	out->len = buf->len;
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

/* dmesg -x: "kern  :info  : " */
static int decoded_prefix(struct cur *c, struct log_line *out)
{
	struct cur t = *c;
	size_t i;
	int fac = -1, lvl = -1;

	for (i = 0; i < ARRAY_SIZE(facilities); i++) {
		struct cur u = t;

		if (lit(&u, facilities[i]) && (skip_spaces(&u), lit(&u, ":"))) {
			fac = i;
			t = u;
			break;
		}
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

static int is_month(const char *p)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	size_t i;

	for (i = 0; i < 12; i++)
		if (!memcmp(p, months + 3 * i, 3))
			return 1;
	return 0;
}

/* journalctl short: "Dec 03 07:51:19 host kernel: ", short-iso:
 * "2024-12-03T07:51:19+0100 host kernel: " */
static int journal(struct cur *c)
{
	struct cur t = *c;
	const char *sp;

	if (t.end - t.p >= 16 && is_month(t.p) && t.p[3] == ' ' &&
	    (is_digit(t.p[4]) || t.p[4] == ' ') && is_digit(t.p[5]) && t.p[6] == ' ' &&
	    is_digit(t.p[7]) && t.p[9] == ':' && t.p[12] == ':' && t.p[15] == ' ') {
		t.p += 16;
	} else if (t.end - t.p >= 20 && is_digit(t.p[0]) && t.p[4] == '-' &&
		   t.p[7] == '-' && t.p[10] == 'T' && t.p[13] == ':') {
		sp = memchr(t.p, ' ', t.end - t.p);
		if (!sp)
			return 0;
		t.p = sp + 1;
	} else {
		return 0;
	}
	/* host name */
	sp = memchr(t.p, ' ', t.end - t.p);
	if (!sp || sp == t.p)
		return 0;
	t.p = sp + 1;
	if (!lit(&t, "kernel: "))
		return 0;
	*c = t;
	return 1;
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

void log_parse(const char *line, size_t len, struct log_line *out, struct sbuf *buf)
{
	struct cur c = { line, line + len };
	unsigned long long pri;

	out->kind = LOG_RAW;
	out->level = -1;
	out->facility = -1;
	out->msg = line;
	out->len = len;

	if (len == 0 || is_dict_line(line, len) ||
	    (*line == '-' && (lit(&c, "-- Boot ") || lit(&c, "-- Logs begin") ||
			      lit(&c, "-- Journal begins") || lit(&c, "-- No entries --")))) {
		out->kind = LOG_SKIP;
		return;
	}
	if (is_digit(*line) && kmsg(&c, out, buf))
		return;
	if (*line == '<') {
		struct cur t = c;

		t.p++;
		if (digits(&t, &pri) && pri < 1024 && lit(&t, ">")) {
			out->kind = LOG_DMESG_R;
			out->level = pri & 7;
			out->facility = (int)(pri >> 3);
			if (timestamp(&t))
				caller_id(&t);
			c = t;
			goto done;
		}
	}
	if (*line == '[' && timestamp(&c)) {
		out->kind = LOG_DMESG;
		caller_id(&c);
		goto done;
	}
	/* facility names are lower case: skip 24 compares for other lines */
	if (*line >= 'a' && *line <= 'z' && decoded_prefix(&c, out)) {
		out->kind = LOG_DMESG_X;
		if (timestamp(&c))
			caller_id(&c);
		goto done;
	}
	if (journal(&c)) {
		out->kind = LOG_JOURNAL;
		goto done;
	}
	return;
done:
	out->msg = c.p;
	out->len = c.end - c.p;
}
