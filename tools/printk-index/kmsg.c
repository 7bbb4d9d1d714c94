// SPDX-License-Identifier: GPL-2.0
/* One /dev/kmsg record (kmsg.h): header, escapes, dictionary; the one
 * parser of records, for follow and for kmsg-shaped log lines. */
#include <string.h>
#include <time.h>

#include "kmsg.h"

/* A decimal field of the header up to the next ','; no overflow. */
static int header_number(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	if (s >= end || *s < '0' || *s > '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (x > (UINT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	if (s >= end || *s != ',')
		return -1;
	*p = s + 1;
	*v = x;
	return 0;
}

/* Append s[0..n) to buf with the kernel's \xNN escapes undone, and a NUL
 * after it; returns the offset where it starts. */
static size_t unescape(struct sbuf *buf, const char *s, size_t n)
{
	size_t start = buf->len, i;
	int hi, lo;

	for (i = 0; i < n; i++) {
		if (s[i] == '\\' && n - i >= 4 && s[i + 1] == 'x' &&
		    (hi = hex_digit_value(s[i + 2])) >= 0 && (lo = hex_digit_value(s[i + 3])) >= 0) {
			sbuf_addc(buf, (char)(hi << 4 | lo));
			i += 3;
		} else {
			sbuf_addc(buf, s[i]);
		}
	}
	sbuf_addc(buf, '\0');
	return start;
}

/* The kernel's keys are SUBSYSTEM, DEVICE and the like: printable, no
 * blank; anything else is not a dictionary line. */
static bool plain_key(const char *k, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)k[i] <= ' ' || (unsigned char)k[i] >= 127)
			return false;
	return true;
}

int kmsg_parse_record(const char *rec, size_t len, struct kmsg_record *out,
		      struct sbuf *buf, struct pi_err *err)
{
	const char *p = rec, *end = rec + len, *semi, *eol;
	size_t msg_off, key_off[KMSG_MAX_DICT], val_off[KMSG_MAX_DICT], i;
	uint64_t pri, seq, ts;

	memset(out, 0, sizeof(*out));
	sbuf_reset(buf);
	eol = memchr(rec, '\n', len);
	if (!eol)
		eol = end;
	semi = memchr(rec, ';', eol - rec);
	if (!semi) {
		pi_seterr(err, "kmsg record without ';' after its header");
		return -1;
	}
	if (header_number(&p, semi, &pri) || header_number(&p, semi, &seq) ||
	    header_number(&p, semi, &ts)) {
		pi_seterr(err, "kmsg record header is not \"PRI,SEQ,USEC,FLAGS;\"");
		return -1;
	}
	/* one flag character, then optional ",key=value" fields (caller=,
	 * extended netconsole's ncfrag=), none with a blank */
	if (p >= semi || (*p != '-' && *p != 'c' && *p != '+') ||
	    (p + 1 < semi && p[1] != ',') || memchr(p, ' ', semi - p)) {
		pi_seterr(err, "kmsg record has bad flags '%.*s'", (int)(semi - p), p);
		return -1;
	}
	if (pri > 0xfffffULL) {
		pi_seterr(err, "kmsg record priority %llu out of range",
			  (unsigned long long)pri);
		return -1;
	}
	out->facility = (int)(pri >> 3);
	out->level = (int)(pri & 7);
	out->seq = seq;
	out->ts_usec = ts;
	out->flag = *p;

	msg_off = unescape(buf, semi + 1, eol - (semi + 1));
	out->len = buf->len - 1 - msg_off;

	/* " KEY=VALUE" lines; anything else after the message is ignored */
	for (p = eol; p < end; p = eol) {
		const char *line = p + 1, *eq;

		if (line >= end)
			break;
		eol = memchr(line, '\n', end - line);
		if (!eol)
			eol = end;
		if (*line != ' ' || out->ndict == KMSG_MAX_DICT)
			continue;
		eq = memchr(line, '=', eol - line);
		if (!eq || eq == line + 1 || !plain_key(line + 1, eq - (line + 1)))
			continue;
		key_off[out->ndict] = buf->len;
		sbuf_add(buf, line + 1, eq - (line + 1));
		sbuf_addc(buf, '\0');
		out->dict[out->ndict].key_len = eq - (line + 1);
		val_off[out->ndict] = unescape(buf, eq + 1, eol - (eq + 1));
		out->dict[out->ndict].value_len = buf->len - 1 - val_off[out->ndict];
		out->ndict++;
	}
	/* buf may have moved while growing: point into it only now */
	out->msg = buf->p + msg_off;
	for (i = 0; i < out->ndict; i++) {
		out->dict[i].key = buf->p + key_off[i];
		out->dict[i].value = buf->p + val_off[i];
	}
	return 0;
}

char *kmsg_iso8601(int64_t epoch_usec, char *buf)
{
	int64_t sec = epoch_usec / 1000000, usec = epoch_usec % 1000000;
	time_t t;
	struct tm tm;

	if (usec < 0) {		/* floor, not truncation, before 1970 */
		usec += 1000000;
		sec--;
	}
	t = (time_t)sec;
	if (!gmtime_r(&t, &tm) || tm.tm_year + 1900 < 1000 || tm.tm_year + 1900 > 9999) {
		buf[0] = '\0';
		return buf;
	}
	/* the year is 4 digits here, so the date is always 19 bytes */
	strftime(buf, KMSG_ISO_LEN, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + 19, KMSG_ISO_LEN - 19, ".%06dZ", (int)usec);
	return buf;
}

int64_t kmsg_boot_time_usec(void)
{
	struct timespec rt, mono;

	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	return ((int64_t)rt.tv_sec - mono.tv_sec) * 1000000 +
	       ((int64_t)rt.tv_nsec - mono.tv_nsec) / 1000;
}
