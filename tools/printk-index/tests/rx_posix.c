// SPDX-License-Identifier: GPL-2.0
/* A parsed rule regex (rx.h) back as a POSIX ERE, for the tests' oracle
 * (regcomp()); not in the installed binary. */
#include <stdlib.h>
#include <string.h>

#include "../ere.h"	/* cls_has(), cls_set() */
#include "../rx.h"
#include "testlib.h"

/* ------------------------------------------------------------------ */
/* POSIX ERE translation                                                */

static int posix_cls(const uint64_t cls[4], struct sbuf *o)
{
	uint64_t c[4];
	bool neg;
	int n = 0, b, e;

	memcpy(c, cls, sizeof(c));
	c[0] &= ~1ULL;	/* NUL never appears in a C string */
	for (b = 1; b < 256; b++)
		n += cls_has(c, b);
	if (!n)
		return -1;
	neg = n > 128;
	if (neg) {
		cls_negate(c);
		c[0] &= ~1ULL;
		if (!(c[0] | c[1] | c[2] | c[3])) {
			/* every byte: '.' matches any but NUL under glibc */
			sbuf_add(o, "(.|\n)", 5);
			return 0;
		}
	}
	sbuf_addc(o, '[');
	if (neg)
		sbuf_addc(o, '^');
	if (cls_has(c, ']'))
		sbuf_addc(o, ']');
	for (b = 1; b < 256; b++) {
		if (!cls_has(c, b) || b == ']' || b == '-' || b == '^')
			continue;
		for (e = b; e + 1 < 256 && cls_has(c, e + 1) && e + 1 != ']' &&
			    e + 1 != '-' && e + 1 != '^'; e++)
			;
		sbuf_addc(o, b);
		if (e > b + 1)
			sbuf_addc(o, '-');
		if (e > b)
			sbuf_addc(o, e);
		b = e;
	}
	if (cls_has(c, '^'))
		sbuf_addc(o, '^');
	if (cls_has(c, '-'))
		sbuf_addc(o, '-');
	sbuf_addc(o, ']');
	return 0;
}

static int posix_node(const struct rx_node *n, struct sbuf *o)
{
	const struct rx_node *k;
	char buf[48];

	switch (n->kind) {
	case RN_EMPTY:
		sbuf_add(o, "()", 2);
		return 0;
	case RN_CLS:
		if (n->lit && cls_has(n->cls, n->byte) &&
		    (n->cls[0] | n->cls[1] | n->cls[2] | n->cls[3]) &&
		    __builtin_popcountll(n->cls[0]) + __builtin_popcountll(n->cls[1]) +
		    __builtin_popcountll(n->cls[2]) + __builtin_popcountll(n->cls[3]) == 1) {
			if (!n->byte)
				return -1;
			if (strchr(".[]()*+?{}|^$\\", n->byte))
				sbuf_addc(o, '\\');
			sbuf_addc(o, n->byte);
			return 0;
		}
		return posix_cls(n->cls, o);
	case RN_ASSERT:
		switch (n->assert) {
		case RXA_BOL: sbuf_addc(o, '^'); break;
		case RXA_EOL: sbuf_addc(o, '$'); break;
		case RXA_WORDB: sbuf_add(o, "\\b", 2); break;
		default: sbuf_add(o, "\\B", 2); break;
		}
		return 0;
	case RN_CAT:
		sbuf_addc(o, '(');
		for (k = n->kid; k; k = k->next)
			if (posix_node(k, o))
				return -1;
		sbuf_addc(o, ')');
		return 0;
	case RN_ALT:
		sbuf_addc(o, '(');
		for (k = n->kid; k; k = k->next) {
			if (k != n->kid)
				sbuf_addc(o, '|');
			if (posix_node(k, o))
				return -1;
		}
		sbuf_addc(o, ')');
		return 0;
	case RN_REP:
		sbuf_addc(o, '(');
		if (posix_node(n->kid, o))
			return -1;
		sbuf_addc(o, ')');
		if (n->max == RX_INF)
			snprintf(buf, sizeof(buf), "{%u,}", n->min);
		else
			snprintf(buf, sizeof(buf), "{%u,%u}", n->min, n->max);
		sbuf_add(o, buf, strlen(buf));
		return 0;
	}
	return -1;
}

int rx_to_posix(const struct rx *re, struct sbuf *out)
{
	return posix_node(re->root, out);
}
