// SPDX-License-Identifier: GPL-2.0
/*
 * The index lines of dynamic debug call sites, read from an object's
 * struct _ddebug descriptors (elf_index.h): what the kernel's views list
 * after the entries.
 */
#ifndef PI_NO_ELF
#include <stdlib.h>
#include <string.h>

#include "elf_index_impl.h"

/*
 * Dynamic debug call sites (pr_debug(), dev_dbg(), netdev_dbg(), their
 * _ratelimited() forms) have no struct pi_entry: the kernel renders their
 * lines from the struct _ddebug descriptors (include/linux/dynamic_debug.h)
 * it has anyway, after the entries, in array order. On a 64-bit kernel,
 * aligned(8):
 *   modname@0 function@8 filename@16 format@24
 *   u32@32: lineno bits 0..17, class_id bits 18..23, flags bits 24..31
 *   u32@36: print_prefix_len bits 0..13, print_kind bits 14..15
 *   and with CONFIG_JUMP_LABEL a 16-byte static key @40.
 */
#define DD_FUNC		8
#define DD_FILE		16
#define DD_FORMAT	24
#define DD_LINE		32
#define DD_PRINT	36
#define DD_MIN_SIZE	40
#define DD_LINENO_MASK	0x3ffffU
#define DD_PLEN_MASK	0x3fffU
#define DD_KIND_SHIFT	14
#define DD_LEVEL	7	/* KERN_DEBUG, whatever the format says */

/*
 * What the __dynamic_*() function prints before the format, by print_kind.
 * Kind 0 is a site without a line (hex dumps, ibdev_dbg(), DRM, and every
 * site of an object built before print_kind existed); kind 1, pr_debug(),
 * has no prefix.
 */
static const char *const dd_prefix[4] = {
	[2] = "%s %s: ",	/* dev_dbg(), as dev_printk() */
	[3] = "%s %s %s%s: ",	/* netdev_dbg(), as netdev_printk() */
};

/* The descriptor array: bytes [off, off + size) of section sec. Symbol
 * values in it start at base: an address in vmlinux, 0 in a module. */
struct dd_array {
	const char *what;	/* for messages */
	size_t sec;
	uint64_t off, size, base, stride;
};

static size_t find_symtab(struct ectx *c)
{
	size_t i;

	for (i = 1; i < c->ns; i++)
		if (c->s[i].sh.sh_type == SHT_SYMTAB)
			return i;
	return 0;
}

static const char *sym_name(struct ectx *c, const Elf64_Sym *sym)
{
	const char *n = elf_strptr(c->elf, c->s[c->symtab].sh.sh_link, sym->st_name);

	return n ? n : "(bad name)";
}

/*
 * vmlinux has no __dyndbg section: the linker script puts the array
 * between __start___dyndbg and __stop___dyndbg, inside .data. Without
 * symbols (stripped) or without these (no CONFIG_DYNAMIC_DEBUG) there is
 * nothing to read; a->size stays 0.
 */
static int dd_find_exec(struct ectx *c, struct dd_array *a)
{
	const Elf64_Sym *start = NULL, *stop = NULL;
	size_t st = find_symtab(c), i;
	struct ptr p;

	if (!st)
		return 0;
	if (ei_load_symtab(c, st))
		return -1;
	for (i = 1; i < c->nsyms && !(start && stop); i++) {
		const char *nm = elf_strptr(c->elf, c->s[st].sh.sh_link, c->syms[i].st_name);

		if (!nm)
			continue;
		if (!start && !strcmp(nm, "__start___dyndbg"))
			start = &c->syms[i];
		else if (!stop && !strcmp(nm, "__stop___dyndbg"))
			stop = &c->syms[i];
	}
	if (!start && !stop)
		return 0;
	if (!start || !stop)
		return ei_fail(c, "%s without %s", start ? "__start___dyndbg" : "__stop___dyndbg",
			    start ? "__stop___dyndbg" : "__start___dyndbg");
	if (stop->st_value < start->st_value)
		return ei_fail(c, "__stop___dyndbg 0x%llx is below __start___dyndbg 0x%llx",
			    (unsigned long long)stop->st_value,
			    (unsigned long long)start->st_value);
	if (stop->st_value == start->st_value)
		return 0;
	if (ei_addr_to_ptr(c, start->st_value, &p))
		return ei_fail(c, "__start___dyndbg 0x%llx is in no section with contents",
			    (unsigned long long)start->st_value);
	a->what = "[__start___dyndbg, __stop___dyndbg)";
	a->sec = p.sec;
	a->off = p.off;
	a->size = stop->st_value - start->st_value;
	a->base = start->st_value;
	return 0;
}

/* A module: the __dyndbg section, its pointers relocated like those of
 * .printk_index. */
static int dd_find_rel(struct ectx *c, struct dd_array *a)
{
	size_t i = ei_find_sec(c, "__dyndbg");

	if (!i || !c->s[i].sh.sh_size)
		return 0;
	if (c->s[i].sh.sh_type != SHT_PROGBITS)
		return ei_fail(c, "__dyndbg has no contents");
	if (ei_load_sec(c, i))
		return -1;
	a->what = "__dyndbg";
	a->sec = i;
	a->off = 0;
	a->size = c->s[i].size;
	a->base = 0;
	return 0;
}

/*
 * A module stripped of its local symbols (strip --strip-unneeded) has lost
 * the descriptors' symbols but kept the relocations that fill their
 * pointers: modname, function, filename and format (+0, +8, +16, +24) of
 * every descriptor are relocated, and nothing after them is - the bit
 * fields are numbers, and the static key of CONFIG_JUMP_LABEL is
 * initialised with constants (STATIC_KEY_INIT_{TRUE,FALSE}: .enabled and
 * .type; only the __jump_table refers to it, from its own section). So the
 * second descriptor starts at the first relocated offset from 32 on, and a
 * single descriptor fills the section. The size must be a struct _ddebug
 * (at least 40 bytes, a multiple of 8), tile the section, and account for
 * every relocation.
 */
static const char *const dd_ptr_name[4] = { "modname", "function", "filename", "format" };

static int dd_stride_rel(struct ectx *c, struct dd_array *a)
{
	struct sec *s = &c->s[a->sec];
	uint64_t stride = a->size, n;
	size_t j;

	if (ei_load_rels(c, a->sec))
		return -1;
	if (!s->nrel)
		return ei_fail(c, "%s: %llu bytes of descriptors but neither a descriptor symbol nor a relocation to take their size from",
			    a->what, (unsigned long long)a->size);
	for (j = 0; j < s->nrel; j++)
		if (s->rel[j].r_offset >= DD_LINE) {
			stride = s->rel[j].r_offset;
			break;
		}
	if (stride < DD_MIN_SIZE || stride % 8)
		return ei_fail(c, "%s (no descriptor symbol): the relocations give a descriptor size of %llu bytes, which cannot be a struct _ddebug (at least %d bytes, a multiple of 8)",
			    a->what, (unsigned long long)stride, DD_MIN_SIZE);
	if (a->size % stride)
		return ei_fail(c, "%s (no descriptor symbol): size %llu is not a multiple of the descriptor size %llu the relocations give",
			    a->what, (unsigned long long)a->size, (unsigned long long)stride);
	n = a->size / stride;
	for (j = 0; j < s->nrel || j / 4 < n; j++) {
		uint64_t want = j / 4 * stride + j % 4 * 8;

		if (j / 4 < n && (j >= s->nrel || s->rel[j].r_offset > want))
			return ei_fail(c, "%s (no descriptor symbol): no relocation for the %s pointer at 0x%llx of the %llu-byte descriptors the relocations give",
				    a->what, dd_ptr_name[j % 4], (unsigned long long)want,
				    (unsigned long long)stride);
		if (j / 4 >= n || s->rel[j].r_offset < want)
			return ei_fail(c, "%s (no descriptor symbol): a relocation at 0x%llx, not on a pointer of the %llu-byte descriptors the relocations give",
				    a->what, (unsigned long long)s->rel[j].r_offset,
				    (unsigned long long)stride);
	}
	a->stride = stride;
	return 0;
}

/*
 * sizeof(struct _ddebug) depends on the configuration (40 bytes, 56 with
 * CONFIG_JUMP_LABEL), so take it from the ELF rather than guess: every
 * descriptor is a static object of its own (__UNIQUE_ID_ddebug<N>,
 * descriptor, ...), as large as the struct. They must agree, start at a
 * multiple of that size, and tile the array. A module without them
 * (stripped) has its relocations to tell the size.
 */
static int dd_stride(struct ectx *c, struct dd_array *a)
{
	const char *sname = c->s[a->sec].name;
	const Elf64_Sym *first = NULL;
	size_t i, st;

	if (!c->syms) {
		st = find_symtab(c);
		if (!st && c->rel)
			return dd_stride_rel(c, a);
		if (!st)
			return ei_fail(c, "%s: %llu bytes of descriptors but no symbol table to take their size from",
				    a->what, (unsigned long long)a->size);
		if (ei_load_symtab(c, st))
			return -1;
	}
	for (i = 1; i < c->nsyms; i++) {
		const Elf64_Sym *sym = &c->syms[i];
		uint64_t at;

		if (ELF64_ST_TYPE(sym->st_info) != STT_OBJECT || sym->st_shndx != a->sec ||
		    sym->st_value < a->base || sym->st_value - a->base >= a->size)
			continue;
		at = sym->st_value - a->base;
		if (!first) {
			first = sym;
			if (sym->st_size < DD_MIN_SIZE || sym->st_size % 8)
				return ei_fail(c, "descriptor %s at %s+0x%llx: size %llu cannot be a struct _ddebug (at least %d bytes, a multiple of 8)",
					    sym_name(c, sym), sname,
					    (unsigned long long)(a->off + at),
					    (unsigned long long)sym->st_size, DD_MIN_SIZE);
		} else if (sym->st_size != first->st_size) {
			return ei_fail(c, "descriptors %s and %s in %s differ in size (%llu and %llu bytes)",
				    sym_name(c, first), sym_name(c, sym), a->what,
				    (unsigned long long)first->st_size,
				    (unsigned long long)sym->st_size);
		}
		if (at % first->st_size)
			return ei_fail(c, "descriptor %s at %s+0x%llx is not a whole number of %llu-byte descriptors into %s",
				    sym_name(c, sym), sname, (unsigned long long)(a->off + at),
				    (unsigned long long)first->st_size, a->what);
	}
	if (!first && c->rel)
		return dd_stride_rel(c, a);
	if (!first)
		return ei_fail(c, "%s: %llu bytes of descriptors but no descriptor symbol to take their size from (local symbols stripped?)",
			    a->what, (unsigned long long)a->size);
	if (a->size % first->st_size)
		return ei_fail(c, "%s: size %llu is not a multiple of the descriptor size %llu",
			    a->what, (unsigned long long)a->size,
			    (unsigned long long)first->st_size);
	a->stride = first->st_size;
	return 0;
}

/* The line of the descriptor at (sec, off), which lies inside the data;
 * errors name the descriptor (read_ddebug()). */
static int read_ddebug_line(struct ectx *c, struct pi_index *idx, const char *module,
			    size_t sec, uint64_t off)
{
	struct sec *s = &c->s[sec];
	uint32_t print = ei_get32(s->data + off + DD_PRINT);
	unsigned int kind = print >> DD_KIND_SHIFT & 3, plen = print & DD_PLEN_MASK;
	const char *fmt, *func = "(null)", *file = "(null)", *sub = dd_prefix[kind];
	struct ptr pf, pfunc, pfile;
	struct pi_entry e = { 0 };
	size_t flen;

	if (!kind)
		return 0;
	if (ei_read_ptr(c, sec, off + DD_FUNC, &pfunc) ||
	    ei_read_ptr(c, sec, off + DD_FILE, &pfile) ||
	    ei_read_ptr(c, sec, off + DD_FORMAT, &pf))
		return -1;
	if (!pf.sec)
		return ei_fail(c, "NULL format");
	/*
	 * format is fmt inside the pr_fmt(fmt) literal, as the control file
	 * shows it; what is printed starts print_prefix_len bytes earlier.
	 */
	if (pf.off < plen)
		return ei_fail(c, "print_prefix_len %u reaches before %s+0", plen,
			    c->s[pf.sec].name);
	pf.off -= plen;
	if (ei_read_str(c, &pf, "format", &fmt, &flen) ||
	    (pfunc.sec && ei_read_str(c, &pfunc, "function", &func, NULL)) ||
	    (pfile.sec && ei_read_str(c, &pfile, "file", &file, NULL)))
		return -1;
	if (flen < plen)
		return ei_fail(c, "the %u bytes of print_prefix_len before the format hold a NUL",
			    plen);
	if (!ei_token_ok(file) || !ei_token_ok(func))
		return ei_fail(c, "file or function name is not a printable word");
	e.module = module;
	e.level = DD_LEVEL;
	e.line = ei_get32(s->data + off + DD_LINE) & DD_LINENO_MASK;
	ei_push_line(idx, &e, file, func, sub, sub ? strlen(sub) : 0, fmt, flen);
	return 0;
}

/* read_ddebug_line(), with every error message saying which descriptor. */
static int read_ddebug(struct ectx *c, struct pi_index *idx, const char *module,
		       size_t sec, uint64_t off)
{
	int ret;

	snprintf(c->where, sizeof(c->where), "descriptor at %s+0x%llx: ",
		 c->s[sec].name, (unsigned long long)off);
	ret = read_ddebug_line(c, idx, module, sec, off);
	c->where[0] = '\0';
	return ret;
}

int ei_read_ddebugs(struct ectx *c, struct pi_index *idx, const char *module)
{
	struct dd_array a = { 0 };
	struct sec *s;
	uint64_t k;

	if (c->rel ? dd_find_rel(c, &a) : dd_find_exec(c, &a))
		return -1;
	if (!a.size)
		return 0;
	s = &c->s[a.sec];
	if (ei_load_sec(c, a.sec))
		return -1;
	if (!s->data || a.off > s->size || s->size - a.off < a.size)
		return ei_fail(c, "%s: %llu bytes at %s+0x%llx run past the end of the section",
			    a.what, (unsigned long long)a.size, s->name,
			    (unsigned long long)a.off);
	if (dd_stride(c, &a))
		return -1;
	for (k = 0; k < a.size; k += a.stride)
		if (read_ddebug(c, idx, module, a.sec, a.off + k))
			return -1;
	return 0;
}

#endif /* PI_NO_ELF */
