/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which printk formats can print a message that a log-monitoring rule
 * matches: the intersection of two regular languages.
 *
 * The rule (rx.h) is a Thompson NFA over bytes; searched for, it is
 * ".*(rule).*" over the whole message. A format (fmt.h) becomes an NFA from
 * the same model "match" uses: its literal bytes one state each (marked
 * literal), every conversion an exact automaton of what vsprintf can print
 * for it (number() layouts with flags/width/precision, %s %c padding and
 * truncation, the %p extension EREs, "anything" as a self-loop). The
 * message text is the format's output up to its first newline, without it.
 *
 * The product is searched over (format state, rule state, context)
 * triples; the context is what \b \B ^ $ need: was the previous byte a word
 * byte or the start, and which kinds of next byte (word, non-word, end)
 * the assertions taken so far still allow. Along the way it maximises W,
 * the number of steps where a literal byte of the rule is matched by a
 * literal byte of the format (no cycle of the product has such a step, so
 * a label-correcting longest-path search terminates).
 *
 * Strength: R is the fewest literal bytes any match of the rule takes (the
 * rule's required literal bytes). A match is strong when W >= 1 and
 * 2W >= R, weak when only matches with a smaller W exist. A rule without
 * literal bytes (R = 0) has no strong match.
 */
#ifndef PI_CHECKER_H
#define PI_CHECKER_H

#include <stdbool.h>
#include <stdint.h>

#include "fmt.h"
#include "rx.h"

enum ck_verdict { CK_NONE, CK_WEAK, CK_STRONG };

struct ck_rule {
	struct rx re;
	struct rx_nfa nfa;
	struct rx_lits lits;
	enum rx_mode mode;
	uint32_t R;		/* required literal bytes */
	uint32_t K;		/* W needed for strong; RX_INF if none can be */
	bool wild_ok;		/* any "%s" inside a format can print a match */
	uint32_t *rest;		/* per NFA state: most literal steps left */
	uint32_t *clos_start, *clos;	/* per state: the non-split states
					 * its splits lead to (CSR) */
	char *pat;		/* the pattern, NUL-terminated (messages) */
	uint64_t serial;	/* tells rules apart in caches */
	uint32_t starts;	/* literals not right after another (chunk starts) */
	const uint16_t *pairs;	/* ck_set_prepare(): per format, how many of
				 * the rule's adjacent literal pairs it has */
	uint64_t seqmask[256];	/* bit j: lits.seq[j] is the byte */
	uint64_t seqcont;	/* bit j: lits.seqcont[j] */
	uint64_t runstart;	/* bit j: lits.seq[j] starts a run */
	uint16_t seqhash[64];	/* seqcont[j]: the pair's bit in ck_format.bigram */
	uint64_t leafbytes[4];	/* bytes of the literal leaves */
};

/* Parse and compile; -1 with err on unsupported syntax or size. */
int ck_rule_init(struct ck_rule *r, const char *pat, size_t len, enum rx_mode mode,
		 struct pi_err *err);
void ck_rule_free(struct ck_rule *r);

/* A format prepared for checking: its automaton (built on first use) and
 * what the prefilters look at. */
struct ck_format {
	const struct fmt *f;
	struct rx_nfa nfa;
	bool built, unsupported;
	char *lit_exact, *lit_lower;	/* literal tokens, '\n' between */
	uint32_t lit_len;
	uint32_t ntoklit;		/* literal tokens */
	uint64_t litset[4];		/* literal bytes, lower case */
	uint64_t canprint[4];		/* literal bytes as they are, and
					 * what conversions can print */
	uint64_t edgeset[4];		/* first/last bytes of literal tokens */
	uint64_t bigram[64];		/* hashed literal byte pairs, lower case */
	uint64_t convcls[4];		/* bytes conversions can print */
	bool has_wild, has_empty_conv;
	/* per literal byte, in order (lit_exact without separators):
	 * FB_* flags for the ordered chunk bound */
	uint8_t *lflags;
	unsigned char *lseq;
	uint32_t nlseq;
	uint32_t *rest;		/* per NFA state: most literal steps left */
	uint32_t *clos_start, *clos;	/* per state: the non-split states
					 * its splits lead to (CSR) */
	uint32_t id;		/* index in its ck_set */
	uint32_t after_conv;	/* literal tokens right after a conversion */
	uint32_t *after_pos;	/* their first bytes' indexes in lseq */
	uint64_t before_conv[4];	/* lseq bytes right before a conversion
					 * that prints something (FB_CONV_AFTER) */
	uint16_t *pairs;	/* distinct adjacent literal byte pairs */
	uint32_t npairs;
};

/*
 * All formats of an index, with an inverted index from adjacent literal
 * byte pairs to formats: for a rule, ck_set_prepare() counts in one pass
 * which formats share how many of its literal pairs, a bound on W that
 * costs nothing for the formats sharing none.
 */
struct ck_set {
	struct ck_format *cf;
	uint32_t n;
	/* per format, what the common case needs, packed for the cache:
	 * bit 31 "anything" conversion, low bits after_conv */
	uint32_t *hot;
	uint64_t (*canprint)[4];	/* per format: ck_format.canprint */
	uint32_t *post_start;	/* [65537] */
	uint32_t *post;
	uint16_t *count;
};

void ck_set_init(struct ck_set *set, const struct fmt *fmts, uint32_t n);
void ck_set_free(struct ck_set *set);
void ck_set_prepare(struct ck_set *set, struct ck_rule *r);

void ck_format_init(struct ck_format *cf, const struct fmt *f);
void ck_format_free(struct ck_format *cf);

/* The format's automaton (lit marks literal bytes); 0 on success, -1 if
 * it exceeds RX_MAX_STATES. Exported for the tests. */
int ck_format_nfa(const struct fmt *f, struct rx_nfa *a);

/* Search scratch, reusable across pairs. */
struct ck_search;
struct ck_search *ck_search_new(void);
void ck_search_free(struct ck_search *s);

struct ck_result {
	enum ck_verdict v;
	uint32_t w;		/* best W (product run only) */
	bool product;		/* decided by the product, not a shortcut */
	bool budget;		/* search budget exhausted: undecided */
};

/*
 * Classify one pair: prefilters first (literal factors, the bound on W,
 * the "%s" shortcut), the product when they cannot decide. With witness
 * non-NULL and a match decided by the product, the message of a best path
 * is written there.
 */
void ck_check(struct ck_search *s, const struct ck_rule *r, struct ck_format *cf,
	      struct ck_result *res, struct sbuf *witness);

/* ck_check() of format i of the set, after ck_set_prepare(set, r); a
 * prepared rule must then only be checked against that set's formats. */
void ck_check_set(struct ck_search *s, const struct ck_rule *r, struct ck_set *set,
		  uint32_t i, struct ck_result *res, struct sbuf *witness);

/* statistics: products run, product states visited (not counting the
 * products run as bitset reachability, ck_stat_bits of them) */
extern uint64_t ck_stat_products, ck_stat_nodes, ck_stat_dp, ck_stat_bits;

/* The product alone, no prefilter (tests). */
void ck_product(struct ck_search *s, const struct ck_rule *r, struct ck_format *cf,
		struct ck_result *res, struct sbuf *witness);

/* ck_product() with a witness of a path of best W, and with lit, per
 * witness byte, 'f' where the format's literal text printed it and 'a'
 * where a conversion (an argument) did. */
void ck_product_lit(struct ck_search *s, const struct ck_rule *r, struct ck_format *cf,
		    struct ck_result *res, struct sbuf *witness, struct sbuf *lit);

/* The chunk-start bound on W that runs before the alignment DP, cheap or
 * exact (UINT32_MAX when the rule has no literal sequence); for the tests. */
uint32_t ck_bound_starts(const struct ck_rule *r, const struct ck_format *cf, bool exact);

#endif
