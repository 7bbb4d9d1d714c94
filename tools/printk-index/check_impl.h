/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the check command's files share: check.c (the command),
 * check_verdict.c (what the index says about each format, the verdict of
 * a rule) and check_output.c (the verdicts as text and JSON).
 */
#ifndef PI_CHECK_IMPL_H
#define PI_CHECK_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "checker.h"
#include "index.h"
#include "matcher.h"
#include "rules.h"

/* Evidence shown per rule without -v. */
#define EVIDENCE_SHOWN 3

/*
 * A pass-through prints text formatted elsewhere, from a format the index
 * may not list: a "%pV" (struct va_format: the caller's format and
 * arguments), or a helper that formats into a buffer and prints it with
 * "%s". Only pass-throughs with text of their own (a subsystem prefix such
 * as "%sEXT4-fs (%s): %pV\n") count: a generic one ("%s%pV", "%pV\n")
 * prints any line at all, and counting it would make every rule unknown,
 * the same reason match only tries generic formats last.
 */
enum fmt_kind {
	FK_DIRECT,		/* no %pV: its text is all in the index */
	FK_PASS,		/* %pV with text of its own */
	FK_PASS_GENERIC,	/* %pV without: not counted */
};

/* A word of a message: letters and digits, lower case, at least 3 bytes,
 * with a letter. key: its first 4 bytes (3 and a length mark if short),
 * equal for any two words word_eq() says are the same. */
struct word {
	const char *s;
	uint32_t len, key;
};

struct words {
	struct word *v;
	uint32_t n;
};

struct check_ctx {
	struct matcher *m;
	const struct fmt *fmts;	/* per format: as check sees it (check_line_format()) */
	struct ck_set *set;
	struct ck_search *s;
	bool witness;
	uint8_t *kind;		/* enum fmt_kind, per format */
	uint64_t (*litbytes)[4];	/* per format: its literal bytes, lower case */
	struct words *words;	/* per format: the words of its literal text */
	struct arena arena;
	/* a buffer helper of the index, and its model */
	int helper;		/* buffer_helpers[] index, -1: none */
	uint32_t helper_ent;	/* its entry */
	struct fmt helper_fmt;
	struct ck_format helper_cf;
	struct words helper_words;
};

enum verdict_kind { V_LIVE, V_LIVE_ARGS, V_UNKNOWN, V_STALE };

struct hit {
	uint32_t fmt;
	uint32_t w;
	char *witness;
	char *lit;	/* per witness byte: 'f' format text, 'a' argument */
	size_t wlen;
	bool verified;	/* the match model prints the witness */
};

struct hits {
	struct hit *v;
	size_t n, cap;
};

struct suggestion {
	uint32_t fmt;
	uint32_t common;	/* words in common, in order */
};

struct verdict {
	enum verdict_kind kind;
	struct hits strong, by_args;
	uint32_t *weak;
	size_t nweak, wcap;
	uint32_t *through;	/* pass-through formats that print a match */
	size_t nthrough, tcap;
	bool through_helper;	/* the buffer helper prints one */
	bool helper_first;	/* and it shares the most words with the rule */
	size_t undecided;
	bool reworded;		/* stale: sugg[0] is the message, reworded */
	struct suggestion sugg[EVIDENCE_SHOWN];
	size_t nsugg;
	struct words rule_words;
	uint64_t missing;	/* bit i: rule word i is in no format */
};

extern const char *const verdict_names[];

/* What check needs of each format of m, its formats as check sees them
 * (check_line_format()), the sets and search the verdicts use. */
void check_ctx_init(struct check_ctx *c, struct matcher *m, struct ck_set *set,
		    struct ck_search *s, const struct fmt *fmts, bool witness);
void check_ctx_free(struct check_ctx *c);

/* Format fi of m as check models it (its model text, pi_entry_model()). */
void check_line_format(struct fmt *out, const struct matcher *m, uint32_t fi);

/* The verdict of rule r and its evidence. */
void check_rule(struct check_ctx *c, struct rule *r, struct verdict *v);
void check_verdict_free(struct verdict *v);

/* Entries of formats fmts[0..n), and of the formats of h. */
size_t check_count_entries(const struct matcher *m, const uint32_t *fmts, size_t n);
size_t check_count_hit_entries(const struct matcher *m, const struct hits *h);

/* A rule's verdict, as text or as one JSON object of json_wtr's array. */
void check_print_text(const struct check_ctx *c, const struct rule *r, const struct verdict *v);
void check_print_json(const struct check_ctx *c, const struct rule *r, const struct verdict *v);

#endif
