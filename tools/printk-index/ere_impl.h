/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What ere.c (the program) and ere_dfa.c (its DFA) share and nothing else
 * uses: the Thompson program's instructions.
 */
#ifndef PI_ERE_IMPL_H
#define PI_ERE_IMPL_H

#include "ere.h"

enum { OP_CLASS, OP_SPLIT, OP_JMP, OP_MATCH };

struct ere_inst {
	uint8_t op;
	uint32_t x, y;	/* CLASS: class index; SPLIT: x then y; JMP: x */
};

/* Build re->dfa (and bytecls, nbc, ndfa, dfa_accept) from re->prog, or
 * leave it NULL when it would pass max_states (a power of two). */
void ere_dfa_build(struct ere *re, uint32_t max_states);

#endif
