/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model of one printk format: what lib/vsprintf.c can print for it.
 *
 * A format compiles into literal tokens and conversion tokens. Each
 * conversion knows the shortest and longest text it can produce, the set
 * of bytes that can appear in it (to bound a scan) and the automaton of
 * its model (fmt_tok_pattern()), which decides exactly whether a given
 * span is something it can print:
 *   %d %i %u %x %X %o  kernel number(): flags - + space # 0, width,
 *                      precision, '*', hh h l ll L z t (digit count
 *                      bounded by the type's size)
 *   %s %c              width / precision / '*' padding
 *   %p and extensions  a small regular expression per extension (ere.h)
 *   %pV, %pd, %pD ...  anything
 * Conversions the kernel rejects (%n, %j, %q, a lone '%') make vsprintf
 * stop, so the model ends there too.
 */
#ifndef PI_FMT_H
#define PI_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ere.h"
#include "util.h"

enum tok_kind {
	TK_LIT,		/* literal bytes */
	TK_INT,		/* number() */
	TK_STR,		/* %s */
	TK_CHAR,	/* %c */
	TK_ERE,		/* %p extension with a regex model */
	TK_WILD,	/* anything: %pV, dentry names... */
};

/* printf_spec flags, as in lib/vsprintf.c */
#define F_LEFT		0x01
#define F_PLUS		0x02
#define F_SPACE		0x04
#define F_SPECIAL	0x08
#define F_ZEROPAD	0x10

#define W_NONE	(-1)	/* no width / precision */
#define W_STAR	(-2)	/* taken from an argument: any value */

#define FMT_INF UINT32_MAX

/* A format is "generic" when its literal text has fewer non-space bytes
 * than this: "%s\n", "%s: %d\n" say nothing about where a line came from. */
#define FMT_GENERIC_LITERALS 4

struct fmt_tok {
	uint8_t kind;
	uint8_t flags;
	uint8_t base;		/* TK_INT: 8, 10, 16 */
	uint8_t maxdigits;	/* TK_INT: digits the type can need */
	bool upper;		/* TK_INT: %X */
	bool is_signed;		/* TK_INT: %d %i */
	bool cls_all;		/* every byte may appear: no scan needed */
	bool needs_digit;	/* TK_INT: its model prints a digit of its base,
				 * whatever else: a span without one is none */
	int32_t width, prec;	/* value, W_NONE or W_STAR */
	uint32_t min, max;	/* span length bounds */
	uint32_t lit_off, lit_len;	/* TK_LIT: in fmt->lit */
	const struct ere *ere;	/* TK_ERE; TK_INT, TK_STR, TK_CHAR: NULL if
				 * the model is too large for a DFA */
	const char *ext;	/* TK_ERE / TK_WILD: "pM", "pV"... */
	uint64_t cls[4];	/* bytes that may appear in the span */
};

/* The digits a number prints one of, from the most to the fewest. */
enum fmt_digits { FMT_DIGITS_NONE, FMT_DIGITS_HEX, FMT_DIGITS_HEX_UPPER, FMT_DIGITS_DEC,
		  FMT_DIGITS_OCT };

struct fmt {
	/* what every try reads first, together: fewer cache lines a try */
	bool any;		/* one "anything" token: prints every line */
	bool simple;		/* only literals and "anything" */
	bool open_end;		/* no newline: KERN_CONT text may follow */
	bool can_be_empty;
	uint32_t ntok;
	uint32_t min_len, max_len;
	struct fmt_tok *tok;
	char *lit;		/* all literal bytes, back to back */
	uint32_t *rest_min, *rest_max;	/* bounds of tokens i..ntok-1 */
	uint32_t blk_size;	/* bytes from tok on, lit and bounds included */
	uint64_t first[4];	/* bytes a non-empty rendering can start with */
	uint64_t last[4];	/* ... and end with (closed formats only) */
	/* ranking: read on a hit */
	uint32_t lit_bytes;	/* specificity, trailing newline excluded */
	uint32_t nconv;
	bool generic;		/* lit_nonspace < FMT_GENERIC_LITERALS */
	/* no literal text but blanks and newlines ("%s\n", "    %s\n",
	 * "%.*s") and no telling %p model (struct ptr_model): says nothing
	 * about the line, not even that it is the kernel's */
	bool catch_all;
	bool stopped;		/* ended at a conversion vsprintf rejects */
	/* a number prints a digit of its base (fmt_tok.needs_digit): of
	 * the format's, the fewest such digits, so that a line without
	 * one of them is none of its (fmt_line_has_digit()) */
	uint8_t digits;		/* enum fmt_digits */
	uint32_t lit_nonspace;
	uint64_t need[4];	/* bytes every rendering contains */
	uint64_t need_sig;	/* the same, folded as fmt_sig_bit() */
};

/* Never fails: whatever the bytes, they are something vsprintf accepts. */
void fmt_compile(struct fmt *f, const char *s, size_t len);
void fmt_free(struct fmt *f);

enum fmt_result {
	FMT_NOMATCH = 0,
	FMT_FULL,	/* the whole message */
	FMT_PREFIX,	/* a prefix; the rest would be KERN_CONT text */
};

/*
 * Can the format print exactly msg[0..n)? Both are taken up to their first
 * newline: a log line is one line of a record, and printk strips the
 * record's trailing newline. msg must not contain '\n' (the matcher cuts).
 */
enum fmt_result fmt_match(const struct fmt *f, const char *msg, size_t n);

/* The set of bytes present in msg[0..n) (cover.c's candidate filter). */
void fmt_bytes(const char *msg, size_t n, uint64_t have[4]);

/*
 * One message matched against many formats: what can be shared is worked
 * out once (a 64-bit signature of the bytes present, and lazily, for each
 * byte value a format asks about, the bitset of its positions).
 */
struct fmt_line {
	const char *msg;
	size_t n;
	uint64_t sig;		/* fmt_sig() of the message's bytes */
	uint32_t gen;		/* identifies the line's cached position sets */
	/* bit d set: the line has a digit of enum fmt_digits d; bit 0
	 * (FMT_DIGITS_NONE) set once worked out, all 0 until asked */
	uint8_t digits;
};

static inline uint64_t fmt_sig_bit(unsigned char c)
{
	return 1ULL << ((c ^ (c >> 6)) & 63);
}

extern const uint64_t fmt_sig_bits[256];	/* fmt_sig_bit() of each byte */

void fmt_line_init(struct fmt_line *l, const char *msg, size_t n);
/* The same, with the signature already known (every fmt_sig_bit() of
 * msg or-ed): the matcher computes it while it scans the line anyway. */
void fmt_line_init_sig(struct fmt_line *l, const char *msg, size_t n, uint64_t sig);
enum fmt_result fmt_match_line(const struct fmt *f, struct fmt_line *l);

/* Validators, exported for the unit tests. */
bool fmt_tok_accepts(const struct fmt_tok *t, const char *s, size_t n);
/* The same, for a span already known to be within the token's length
 * bounds and made of bytes of its class (the caller checked). */
bool fmt_tok_accepts_span(const struct fmt_tok *t, const char *s, size_t n);

/* Model of a %p extension (chars after 'p'); NULL pattern = anything. */
struct ptr_model {
	const char *pattern;
	const char *sample;
	/* its text has a shape of its own (a symbol with offset, a MAC or
	 * IP address, a UUID, a resource): a format whose only literal text
	 * is blanks still says something about a line it prints whole */
	bool telling;
};
void fmt_ptr_model(const char *ext, size_t len, struct ptr_model *m);

/* The ERE a TK_ERE token's model was compiled from, or NULL. */
const char *fmt_model_pattern(const struct ere *re);

/*
 * Append to o the regular expression (rx.h syntax, no anchors) of every
 * span conversion t (not a literal) can print: the one model of it, from
 * which the matcher's and check's automata are both built (fmt_lang.c).
 * A message line holds no newline, so neither does the expression.
 */
void fmt_tok_pattern(const struct fmt_tok *t, struct sbuf *o);

#endif
