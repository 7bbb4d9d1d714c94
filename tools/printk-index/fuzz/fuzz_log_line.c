// SPDX-License-Identifier: GPL-2.0
/* libFuzzer: log line detection; the message must lie inside the line
 * or the scratch buffer. */
#include <stdint.h>
#include <string.h>

#include "logline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbuf b = { 0 };
	struct log_line ll;
	const char *line = (const char *)data;

	log_parse(line, size, &ll, &b);
	if (ll.kind != LOG_SKIP) {
		int in_line = ll.msg >= line && ll.msg + ll.len <= line + size;
		int in_buf = b.p && ll.msg >= b.p && ll.msg + ll.len <= b.p + b.len;

		if (!in_line && !in_buf && ll.len)
			__builtin_trap();
		if (ll.level < -1 || ll.level > 7)
			__builtin_trap();
	}
	sbuf_free(&b);
	return 0;
}
