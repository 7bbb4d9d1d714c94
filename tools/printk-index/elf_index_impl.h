/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ELF reader's files share (built with libelf only):
 * elf_index.c (sections, relocations, pointers, the .printk_index
 * entries) and elf_ddebug.c (the dynamic debug call sites).
 */
#ifndef PI_ELF_INDEX_IMPL_H
#define PI_ELF_INDEX_IMPL_H

#include <gelf.h>
#include <libelf.h>

#include "elf_index.h"

#define KERN_SOH_ASCII	'\001'

struct sec {
	GElf_Shdr sh;
	const char *name;
	Elf_Scn *scn;
	const unsigned char *data;	/* NULL until loaded, or NOBITS */
	size_t size;
	bool loaded;
	/* ET_REL: RELA entries against this section, sorted by offset */
	Elf64_Rela *rel;
	size_t nrel;
	bool rel_done;
};

struct ectx {
	const char *name;
	Elf *elf;
	struct sec *s;
	size_t ns;
	bool rel;		/* ET_REL */
	Elf64_Sym *syms;	/* the symbol table, once needed */
	size_t nsyms;
	size_t symtab;		/* its section */
	size_t last;		/* ET_EXEC: last section an address was in */
	char where[96];		/* what is being read, as messages name it, or "" */
	struct pi_err *err;
};

/* A resolved pointer: offset in a section, or NULL. */
struct ptr {
	size_t sec;		/* 0 = NULL pointer */
	uint64_t off;
};

/* Fail with "NAME: WHERE: message" in c->err; returns -1. */
int ei_fail(struct ectx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int ei_load_sec(struct ectx *c, size_t i);
int ei_read_ptr(struct ectx *c, size_t sec, uint64_t off, struct ptr *out);
int ei_read_str(struct ectx *c, const struct ptr *p, const char *what, const char **out,
		size_t *len);
size_t ei_find_sec(struct ectx *c, const char *name);
void ei_push_line(struct pi_index *idx, struct pi_entry *e, const char *file,
		  const char *func, const char *sub, size_t slen, const char *fmt,
		  size_t flen);
bool ei_token_ok(const char *t);
int ei_load_symtab(struct ectx *c, size_t i);
int ei_load_rels(struct ectx *c, size_t i);
int ei_addr_to_ptr(struct ectx *c, uint64_t va, struct ptr *out);
uint32_t ei_get32(const unsigned char *p);
uint64_t ei_get64(const unsigned char *p);

/* The lines of the object's dynamic debug call sites, if it has any. */
int ei_read_ddebugs(struct ectx *c, struct pi_index *idx, const char *module);

#endif
