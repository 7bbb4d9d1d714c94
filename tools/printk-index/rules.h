/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Log-monitoring rules as check reads them (rules.c): a text file, one
 * regex per line ("#" comments, optional "label<TAB>regex"), or a
 * node-problem-detector kernel monitor configuration (JSON: its
 * rules[].pattern, labelled by reason), told apart by the first byte.
 */
#ifndef PI_RULES_H
#define PI_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "checker.h"
#include "util.h"

struct rule {
	const char *file;
	unsigned int line;
	char *label;		/* NULL: none */
	char *pat;
	size_t len;
	enum rx_mode mode;
	struct ck_rule ck;
	bool ok;		/* parsed */
};

struct rules {
	struct rule *v;
	size_t n, cap;
};

/*
 * Append the rules of file to rs, each parsed (ok) or with the reason it
 * is not in ck; anchored: a rule matches the whole message.  Returns 0,
 * or -1 with err set: the file cannot be read, it is malformed JSON, or
 * it has no rule at all (checking nothing would look like success).
 */
int rules_load(struct rules *rs, const char *file, bool anchored, struct pi_err *err);
void rules_free(struct rules *rs);

#endif
