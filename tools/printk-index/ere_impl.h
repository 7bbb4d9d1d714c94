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

/* Scratch for ere_closure(): marks of the visits, the walk's stack. */
struct ere_walk {
	uint32_t *seen;		/* == gen: visited in this walk */
	uint32_t gen;
	uint32_t *todo;
};

void ere_walk_init(struct ere_walk *w, uint32_t n);
void ere_walk_free(struct ere_walk *w);

/* Add to set the CLASS and MATCH instructions reachable from pc without
 * consuming a byte (after w->gen++ for a new walk). */
void ere_closure(const struct ere_inst *prog, uint32_t n, struct ere_walk *w, uint32_t pc,
		 uint64_t *set);

/* Build re->dfa (and bytecls, nbc, ndfa, dfa_accept) from re->prog, or
 * leave it NULL when it would pass max_states (a power of two). */
void ere_dfa_build(struct ere *re, uint32_t max_states);

#endif
