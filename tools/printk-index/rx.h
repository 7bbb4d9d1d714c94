/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Regular expressions of log-monitoring rules, as automata over bytes.
 *
 * The syntax is POSIX ERE plus what RE2/PCRE-style monitoring configs
 * (node-problem-detector, fluentd, Loki...) use: \d \w \s \D \W \S, \b \B,
 * \A \z, (?:...), (?i) (?i:...), named groups, lazy quantifiers (same
 * language as greedy ones), \xHH \t \n \r \f \v \a \e, \Q...\E, POSIX
 * [:classes:]. Matching is byte-based: '.' is one byte other than '\n'.
 * What would change the language or cannot be an automaton is rejected with
 * the construct named: back-references, look-around, atomic groups,
 * possessive quantifiers, \p{..} classes, \x{...} above 0xff, \C \G \K...
 *
 * A pattern parses into a small tree (struct rx_node). The tree compiles
 * into a Thompson NFA (struct rx_nfa): states consume one byte of a 256-bit
 * class, split, or assert (^ $ \b \B). The same NFA type holds the automaton
 * of a printk format (checker.h), so the product of the two is one loop.
 */
#ifndef PI_RX_H
#define PI_RX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define RX_INF UINT32_MAX
#define RX_MAX_REPEAT 1000	/* RE2's limit on {m,n} */
#define RX_MAX_STATES 20000	/* per compiled automaton */
/* Longest pattern accepted, refused before parsing: with RX_MAX_REPEAT,
 * RX_MAX_STATES and the parser's nesting limit this bounds the time and
 * memory a rule takes to compile (a parse tree of at most this many
 * nodes, an automaton of at most RX_MAX_STATES states). Monitoring
 * patterns are a few hundred bytes. */
#define RX_MAX_PATTERN 8192

enum rx_kind {
	RN_EMPTY,
	RN_CLS,		/* one byte of a class */
	RN_CAT,
	RN_ALT,
	RN_REP,
	RN_ASSERT,
};

enum rx_assert {
	RXA_BOL = 1,	/* ^ \A: start of the message */
	RXA_EOL,	/* $ \z: end of the message */
	RXA_WORDB,	/* \b */
	RXA_NWORDB,	/* \B */
};

struct rx_node {
	uint8_t kind;
	uint8_t assert;		/* RN_ASSERT */
	bool lit;		/* RN_CLS written as a literal character */
	unsigned char byte;	/* lit: the byte, lower case when folded */
	uint32_t min, max;	/* RN_REP */
	uint64_t cls[4];	/* RN_CLS */
	struct rx_node *kid;	/* first child (CAT, ALT, REP) */
	struct rx_node *next;	/* next sibling */
};

/* A parsed rule pattern; nodes live in the arena. */
struct rx {
	struct rx_node *root;
	struct arena arena;
	bool has_anchor;	/* ^ $ \A \z somewhere */
	bool has_wordb;		/* \b \B somewhere */
	bool ci_used;		/* (?i) somewhere */
};

/*
 * Parse pattern[0..len). On error returns -1 with err naming the construct
 * and its offset, e.g. "offset 4: back-reference \1 is not supported",
 * or the size of a pattern over RX_MAX_PATTERN bytes.
 */
int rx_parse(struct rx *re, const char *pattern, size_t len, struct pi_err *err);
void rx_free(struct rx *re);

/* ---- automata ---- */

enum rx_op { RX_CLS, RX_SPLIT, RX_ASSERT, RX_MATCH };

struct rx_state {
	uint8_t op;
	uint8_t arg;		/* RX_ASSERT: enum rx_assert */
	bool lit;		/* RX_CLS: a literal byte (rule) / format literal */
	uint32_t out, out1;	/* RX_SPLIT: both; RX_CLS, RX_ASSERT: out */
	uint32_t cls;		/* RX_CLS: index into classes */
};

struct rx_nfa {
	struct rx_state *st;
	uint32_t n, cap;
	uint64_t (*cls)[4];
	uint32_t ncls, clscap;
	uint32_t start;
	/* RX_SEARCH rules: the match state and the ".*" after the match;
	 * once there with nothing pending the rule has matched */
	uint32_t fin, tail;
	bool has_tail;
	bool too_big;		/* RX_MAX_STATES reached: do not use */
};

void rx_nfa_init(struct rx_nfa *a);
void rx_nfa_free(struct rx_nfa *a);
uint32_t rx_add_match(struct rx_nfa *a);
uint32_t rx_add_cls(struct rx_nfa *a, const uint64_t cls[4], bool lit, uint32_t out);
uint32_t rx_add_split(struct rx_nfa *a, uint32_t out, uint32_t out1);

/* Compile node n so that it continues at state out; returns its entry. */
uint32_t rx_compile_node(struct rx_nfa *a, const struct rx_node *n, uint32_t out);

/* How a rule must match the message text. */
enum rx_mode {
	RX_SEARCH,	/* somewhere: ".*(rule).*" */
	RX_SUFFIX,	/* up to its end: ".*(rule)$" (node-problem-detector
			 * compiles every pattern as pattern + "\\z") */
	RX_WHOLE,	/* all of it: "^(rule)$" (--anchored) */
};

/* The automaton a rule is checked with. */
void rx_compile_rule(struct rx_nfa *a, const struct rx *re, enum rx_mode mode);

/* Fewest literal bytes (lit states) on a path from start to a match,
 * assertions taken as satisfied. */
uint32_t rx_min_literals(const struct rx_nfa *a);


/* ---- literal analysis for prefilters ---- */

/* A literal run every match contains ("factor"), lower case if folded. */
struct rx_factor {
	char *s;
	uint32_t len;
	bool ci;
	uint64_t bytes[4];	/* its bytes, both cases if ci */
};

/* A literal leaf of the pattern, for the bound on format literal overlap. */
struct rx_leaf {
	unsigned char c;		/* lower case */
	bool in_run;			/* part of a run of >= 2 literals */
	bool has_prev, has_next;	/* neighbours in the run */
	unsigned char prev, next;	/* lower case */
	uint32_t mult;			/* times a path can take it; RX_INF */
};

/* A run of >= 2 adjacent literals (lower case), and how often a path can
 * take it. */
struct rx_run {
	char *s;
	uint32_t len;
	uint32_t mult;
};

struct rx_lits {
	/* every literal leaf in pattern order, bounded repeats expanded (lower
	 * case); seq_ok false when a leaf repeats without bound or there are
	 * more than RX_SEQ_MAX */
	unsigned char seq[64];
	bool seqcont[64];	/* taken right after the previous one (a run) */
	/* the byte right before / after the literal in any match is in this
	 * class (all bytes when the pattern does not say) */
	uint64_t seqprev[64][4], seqnext[64][4];
	uint32_t nseq;
	bool seq_ok;
	struct rx_factor *f;
	uint32_t nf;
	struct rx_run *run;
	uint32_t nrun;
	struct rx_leaf *leaf;
	uint32_t nleaf;
};

void rx_literals(const struct rx *re, struct rx_lits *l);
void rx_lits_free(struct rx_lits *l);

static inline bool rx_is_word(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '_';
}

#endif
