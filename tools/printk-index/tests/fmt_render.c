// SPDX-License-Identifier: GPL-2.0
/*
 * A format printed with sample arguments (the tests, the fuzzer and the
 * benchmarks' generated logs), and translated to a POSIX ERE (the
 * benchmark's naive regexec() loop).  Not in the installed binary.
 */
#include <stdlib.h>
#include <string.h>

#include "../fmt.h"
#include "testlib.h"

/* ------------------------------------------------------------------ */
/* Rendering with sample arguments                                     */

static uint64_t rnd_next(uint64_t *s)
{
	/* xorshift64*: deterministic samples for tests and the benchmark */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static void pad(struct sbuf *o, int n, char c)
{
	while (n-- > 0)
		sbuf_addc(o, c);
}

/* lib/vsprintf.c number(), same layout decisions */
static void render_number(struct sbuf *o, unsigned long long num, int flags,
			  int base, bool upper, bool is_signed, int width, int prec)
{
	static const char digits[] = "0123456789ABCDEF";
	char tmp[66], sign = 0, locase = upper ? 0 : 0x20;
	bool need_pfx = (flags & F_SPECIAL) && base != 10, is_zero = num == 0;
	int i = 0;

	if (flags & F_LEFT)
		flags &= ~F_ZEROPAD;
	if (is_signed) {
		if ((long long)num < 0) {
			sign = '-';
			num = -(long long)num;
			width--;
		} else if (flags & F_PLUS) {
			sign = '+';
			width--;
		} else if (flags & F_SPACE) {
			sign = ' ';
			width--;
		}
	}
	if (need_pfx) {
		if (base == 16)
			width -= 2;
		else if (!is_zero)
			width--;
	}
	do {
		tmp[i++] = digits[num % base] | (base == 16 ? locase : 0);
		num /= base;
	} while (num);
	if (i > prec)
		prec = i;
	width -= prec;
	if (!(flags & (F_ZEROPAD | F_LEFT)))
		pad(o, width, ' '), width = 0;
	if (sign)
		sbuf_addc(o, sign);
	if (need_pfx) {
		if (base == 16 || !is_zero)
			sbuf_addc(o, '0');
		if (base == 16)
			sbuf_addc(o, 'X' | locase);
	}
	if (!(flags & F_LEFT))
		pad(o, width, (flags & F_ZEROPAD) ? '0' : ' '), width = 0;
	pad(o, prec - i, '0');
	while (--i >= 0)
		sbuf_addc(o, tmp[i]);
	pad(o, width, ' ');
}

static void render_str(struct sbuf *o, const struct fmt_tok *t, const char *s)
{
	int len = strlen(s), w = t->width == W_STAR ? 0 : t->width;
	int p = t->prec == W_STAR ? 3 : t->prec;

	if (p >= 0 && len > p)
		len = p;
	if (!(t->flags & F_LEFT))
		pad(o, w - len, ' ');
	sbuf_add(o, s, len);
	if (t->flags & F_LEFT)
		pad(o, w - len, ' ');
}

void fmt_render(const struct fmt *f, struct sbuf *out, uint64_t seed)
{
	static const char *const words[] = {
		"eth0", "sda1", "0000:00:1f.2", "virtio0", "ok", "ACPI",
		"e1000", "ext4", "tty0", "usb1",
	};
	uint64_t r = seed * 0x9e3779b97f4a7c15ULL + 1;
	uint32_t k;

	for (k = 0; k < f->ntok; k++) {
		const struct fmt_tok *t = &f->tok[k];
		uint64_t v = rnd_next(&r);
		int bits;

		switch (t->kind) {
		case TK_LIT:
			sbuf_add(out, f->lit + t->lit_off, t->lit_len);
			break;
		case TK_INT:
			/* small values, like most logged numbers; negative
			 * now and then for signed conversions */
			bits = t->base == 16 ? t->maxdigits * 4 :
			       t->maxdigits <= 3 ? 8 : t->maxdigits <= 6 ? 16 : 32;
			v = (v >> 8) % (bits >= 16 ? 100000 : 200);
			if (bits < 64)
				v &= (1ULL << bits) - 1;
			if (t->is_signed && (r & 0x300) == 0x300)
				v = -(long long)v;
			render_number(out, v, t->flags, t->base, t->upper, t->is_signed,
				      t->width == W_STAR ? 0 : t->width,
				      t->prec == W_STAR ? -1 : t->prec);
			break;
		case TK_STR:
			render_str(out, t, words[v % ARRAY_SIZE(words)]);
			break;
		case TK_CHAR:
			if (!(t->flags & F_LEFT) && t->width > 1)
				pad(out, t->width - 1, ' ');
			sbuf_addc(out, 'a' + v % 26);
			if ((t->flags & F_LEFT) && t->width > 1)
				pad(out, t->width - 1, ' ');
			break;
		case TK_ERE:
		case TK_WILD: {
			/* merged "%s%s" runs have no sample of their own */
			const char *x = t->ext ? t->ext : words[v % ARRAY_SIZE(words)];

			sbuf_add(out, x, strlen(x));
			break;
		}
		}
	}
}

/* ------------------------------------------------------------------ */
/* POSIX ERE translation (benchmark baseline only)                     */

static void ere_quote(struct sbuf *o, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (strchr(".[]()*+?{}|^$\\", c) && c)
			sbuf_addc(o, '\\');
		if (c == '\n' || c == 0)
			c = '.';	/* regexec works on the first line */
		sbuf_addc(o, c);
	}
}

void fmt_to_posix_ere(const struct fmt *f, struct sbuf *out)
{
	uint32_t k;

	sbuf_addc(out, '^');
	for (k = 0; k < f->ntok; k++) {
		const struct fmt_tok *t = &f->tok[k];
		const char *hex = t->upper ? "[0-9A-F]" : "[0-9a-f]";

		switch (t->kind) {
		case TK_LIT:
			ere_quote(out, f->lit + t->lit_off, t->lit_len);
			break;
		case TK_INT:
			sbuf_add(out, " *[-+ ]?", 8);
			if (t->base == 16) {
				if (t->flags & F_SPECIAL)
					sbuf_add(out, t->upper ? "0X" : "0x", 2);
				sbuf_add(out, hex, strlen(hex));
				sbuf_addc(out, '+');
			} else {
				sbuf_add(out, "[0-9]+", 6);
			}
			sbuf_add(out, " *", 2);
			break;
		case TK_STR:
		case TK_WILD:
			sbuf_add(out, ".*", 2);
			break;
		case TK_CHAR:
			sbuf_add(out, " *. *", 5);
			break;
		case TK_ERE: {
			/* the model strings are ERE already */
			const char *p = fmt_model_pattern(t->ere);

			if (!p)
				p = ".*";
			sbuf_addc(out, '(');
			sbuf_add(out, p, strlen(p));
			sbuf_addc(out, ')');
			break;
		}
		}
	}
	if (!f->open_end)
		sbuf_addc(out, '$');
}
