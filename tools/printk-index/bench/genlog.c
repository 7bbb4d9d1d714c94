// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../fmt.h"
#include "genlog.h"
#include "../tests/testlib.h"

static const char *const unrelated[] = {
	"systemd[1]: Started Journal Service.",
	"sshd[%u]: Accepted publickey for root from 10.0.%u.7 port 52344",
	"random noise line number %u without any meaning",
	"CRON[%u]: (root) CMD (run-parts /etc/cron.hourly)",
	"dockerd[%u]: time=\"2024-12-03\" level=info msg=\"loading plugin\"",
};

void genlog(const struct pi_index *idx, size_t nlines, struct sbuf *text, size_t *off,
	    size_t *src)
{
	struct sbuf one = { 0 };
	size_t i;

	for (i = 0; i < nlines; i++) {
		char pfx[64];
		uint64_t r = i * 0x9e3779b97f4a7c15ULL;

		off[i] = text->len;
		snprintf(pfx, sizeof(pfx), "[%5zu.%06zu] ", i / 1000, (i % 1000) * 997);
		sbuf_add(text, pfx, strlen(pfx));
		if (i % 10 == 9) {
			char u[256];

			snprintf(u, sizeof(u), unrelated[(r >> 32) % ARRAY_SIZE(unrelated)],
				 (unsigned)(r >> 40) % 60000, (unsigned)(r >> 20) % 250);
			sbuf_add(text, u, strlen(u));
			src[i] = SIZE_MAX;
		} else {
			size_t e = (r >> 24) % idx->n;
			struct fmt f;
			char *nl;

			src[i] = e;
			sbuf_reset(&one);
			fmt_compile(&f, idx->v[e].fmt, idx->v[e].fmt_len);
			fmt_render(&f, &one, i);
			fmt_free(&f);
			/* a multi-line record: dmesg shows its first line here */
			nl = memchr(one.p ? one.p : "", '\n', one.len);
			sbuf_add(text, one.p ? one.p : "", nl ? (size_t)(nl - one.p) : one.len);
		}
		sbuf_addc(text, '\n');
	}
	off[nlines] = text->len;
	sbuf_free(&one);
}
