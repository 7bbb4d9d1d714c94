// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "elf_index.h"

bool pi_is_elf(const void *data, size_t n)
{
	return n >= 4 && !memcmp(data, "\177ELF", 4);
}

#ifdef PI_NO_ELF

bool pi_elf_supported(void)
{
	return false;
}

int pi_elf_load_mem(struct pi_index *idx, const char *name, const void *data,
		    size_t size, const char **module, struct pi_err *err)
{
	(void)idx;
	(void)module;
	(void)data;
	(void)size;
	pi_seterr(err, "%s: ELF input not supported (printk-index built without libelf)", name);
	return -1;
}

#else

#include <gelf.h>
#include <libelf.h>

bool pi_elf_supported(void)
{
	return true;
}

/* struct pi_entry, __packed, on a 64-bit kernel */
#define PE_FMT		0
#define PE_FUNC		8
#define PE_FILE		16
#define PE_LINE		24
#define PE_LEVEL	28
#define PE_SUBSYS	36
#define PE_SIZE		44

/* struct module: state (4) + pad (4) + list_head (16), then name[] */
#define MOD_NAME_OFF	24
#define MOD_NAME_LEN	56	/* MODULE_NAME_LEN on 64-bit */

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

static int fail(struct ectx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct ectx *c, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	pi_seterr(c->err, "%s: %s%s", c->name, c->where, what);
	return -1;
}

static int load_sec(struct ectx *c, size_t i)
{
	struct sec *s = &c->s[i];
	Elf_Data *d;

	if (s->loaded)
		return 0;
	s->loaded = true;
	if (s->sh.sh_type == SHT_NOBITS)
		return 0;
	d = elf_getdata(s->scn, NULL);
	if (!d)
		return fail(c, "section %s: %s", s->name, elf_errmsg(-1));
	/* one data block per section when reading a file */
	if (elf_getdata(s->scn, d))
		return fail(c, "section %s: more than one data block", s->name);
	s->data = d->d_buf;
	s->size = d->d_buf ? d->d_size : 0;
	return 0;
}

static int cmp_rela(const void *a, const void *b)
{
	const Elf64_Rela *x = a, *y = b;

	return x->r_offset < y->r_offset ? -1 : x->r_offset > y->r_offset;
}

/* The symbol table, section i; an object has at most one. */
static int load_symtab(struct ectx *c, size_t i)
{
	struct sec *st = &c->s[i];

	if (c->syms)
		return c->symtab == i ? 0 : fail(c, "section %s: a second symbol table", st->name);
	if (load_sec(c, i))
		return -1;
	if (st->size % sizeof(Elf64_Sym) || !st->data)
		return fail(c, "section %s: odd size", st->name);
	c->syms = (Elf64_Sym *)st->data;
	c->nsyms = st->size / sizeof(Elf64_Sym);
	c->symtab = i;
	return 0;
}

/* ET_REL: collect the RELA relocations that apply to section i. */
static int load_rels(struct ectx *c, size_t i)
{
	struct sec *t = &c->s[i];
	size_t k, j;

	if (t->rel_done)
		return 0;
	t->rel_done = true;
	for (k = 1; k < c->ns; k++) {
		struct sec *r = &c->s[k];
		size_t n;

		if (r->sh.sh_info != i)
			continue;
		if (r->sh.sh_type == SHT_REL)
			return fail(c, "section %s: REL relocations are not supported", r->name);
		if (r->sh.sh_type != SHT_RELA)
			continue;
		if (r->sh.sh_link >= c->ns || c->s[r->sh.sh_link].sh.sh_type != SHT_SYMTAB)
			return fail(c, "section %s: no symbol table", r->name);
		if (load_symtab(c, r->sh.sh_link))
			return -1;
		if (load_sec(c, k))
			return -1;
		if (r->size % sizeof(Elf64_Rela))
			return fail(c, "section %s: odd size", r->name);
		n = r->size / sizeof(Elf64_Rela);
		if (!n)
			continue;
		t->rel = xrealloc(t->rel, (t->nrel + n) * sizeof(*t->rel));
		memcpy(t->rel + t->nrel, r->data, n * sizeof(*t->rel));
		t->nrel += n;
	}
	if (t->nrel)
		qsort(t->rel, t->nrel, sizeof(*t->rel), cmp_rela);
	for (j = 1; j < t->nrel; j++)
		if (t->rel[j].r_offset == t->rel[j - 1].r_offset)
			return fail(c, "section %s: two relocations at offset 0x%llx", t->name,
				    (unsigned long long)t->rel[j].r_offset);
	return 0;
}

static const Elf64_Rela *find_rel(const struct sec *t, uint64_t off)
{
	size_t lo = 0, hi = t->nrel;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->rel[mid].r_offset < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->nrel && t->rel[lo].r_offset == off ? &t->rel[lo] : NULL;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ET_EXEC: the allocated section holding a link-time address. */
static int addr_to_ptr(struct ectx *c, uint64_t va, struct ptr *out)
{
	size_t k;

	for (k = 0; k < c->ns; k++) {
		size_t i = (c->last + k) % c->ns;
		const GElf_Shdr *sh = &c->s[i].sh;

		if (!i || !(sh->sh_flags & SHF_ALLOC) || sh->sh_type == SHT_NOBITS)
			continue;
		if (va >= sh->sh_addr && va - sh->sh_addr < sh->sh_size) {
			c->last = i;
			out->sec = i;
			out->off = va - sh->sh_addr;
			return 0;
		}
	}
	return fail(c, "pointer 0x%llx is in no section with contents", (unsigned long long)va);
}

/* The pointer stored at (sec, off). */
static int read_ptr(struct ectx *c, size_t sec, uint64_t off, struct ptr *out)
{
	struct sec *s = &c->s[sec];
	uint64_t raw;

	if (load_sec(c, sec))
		return -1;
	if (!s->data || off > s->size || s->size - off < 8)
		return fail(c, "pointer at %s+0x%llx is outside the section", s->name,
			    (unsigned long long)off);
	raw = get64(s->data + off);
	out->sec = 0;
	out->off = 0;
	if (c->rel) {
		const Elf64_Rela *r;
		const Elf64_Sym *sym;
		uint64_t sidx;

		if (load_rels(c, sec))
			return -1;
		r = find_rel(s, off);
		if (!r) {
			if (raw)
				return fail(c, "pointer at %s+0x%llx has no relocation", s->name,
					    (unsigned long long)off);
			return 0;	/* NULL */
		}
		if (ELF64_R_TYPE(r->r_info) != R_X86_64_64)
			return fail(c, "unsupported relocation type %u at %s+0x%llx",
				    (unsigned)ELF64_R_TYPE(r->r_info), s->name,
				    (unsigned long long)off);
		sidx = ELF64_R_SYM(r->r_info);
		if (sidx >= c->nsyms)
			return fail(c, "relocation at %s+0x%llx: bad symbol %llu", s->name,
				    (unsigned long long)off, (unsigned long long)sidx);
		sym = &c->syms[sidx];
		if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= c->ns ||
		    sym->st_shndx >= SHN_LORESERVE)
			return fail(c, "relocation at %s+0x%llx: symbol not in a section",
				    s->name, (unsigned long long)off);
		out->sec = sym->st_shndx;
		out->off = sym->st_value + (uint64_t)r->r_addend;
		return 0;
	}
	if (!raw)
		return 0;
	return addr_to_ptr(c, raw, out);
}

/* A NUL-terminated string inside its section. */
static int read_str(struct ectx *c, const struct ptr *p, const char *what, const char **out,
		    size_t *len)
{
	struct sec *s = &c->s[p->sec];
	const unsigned char *nul;

	if (load_sec(c, p->sec))
		return -1;
	if (!s->data || p->off >= s->size)
		return fail(c, "%s string at %s+0x%llx is outside the section", what, s->name,
			    (unsigned long long)p->off);
	nul = memchr(s->data + p->off, '\0', s->size - p->off);
	if (!nul)
		return fail(c, "%s string at %s+0x%llx has no NUL inside its section", what,
			    s->name, (unsigned long long)p->off);
	*out = (const char *)s->data + p->off;
	if (len)
		*len = nul - (s->data + p->off);
	return 0;
}

static size_t find_sec(struct ectx *c, const char *name)
{
	size_t i;

	for (i = 1; i < c->ns; i++)
		if (c->s[i].name && !strcmp(c->s[i].name, name))
			return i;
	return 0;
}

static const char *module_name(struct ectx *c, struct pi_index *idx)
{
	size_t i = find_sec(c, ".gnu.linkonce.this_module"), n, k;
	const char *base = strrchr(c->name, '/');

	if (!c->rel)
		return "vmlinux";
	if (i && !load_sec(c, i) && c->s[i].data && c->s[i].size >= MOD_NAME_OFF + MOD_NAME_LEN) {
		const char *nm = (const char *)c->s[i].data + MOD_NAME_OFF;

		n = strnlen(nm, MOD_NAME_LEN);
		for (k = 0; k < n; k++)
			if ((unsigned char)nm[k] <= ' ' || (unsigned char)nm[k] >= 0x7f ||
			    nm[k] == '/')
				break;
		if (n && n < MOD_NAME_LEN && k == n)
			return arena_strndup(&idx->arena, nm, n);
	}
	base = base ? base + 1 : c->name;
	n = strlen(base);
	if (n > 3 && !strcmp(base + n - 3, ".ko"))
		n -= 3;
	return arena_strndup(&idx->arena, base, n);
}

/* printk_parse_prefix(): KERN_SOH + '0'..'7' or 'c', repeated. */
static size_t parse_prefix(const char *t, int *level, bool *cont)
{
	size_t n = 0;

	while (t[n] == KERN_SOH_ASCII && t[n + 1]) {
		char k = t[n + 1];

		if (k >= '0' && k <= '7') {
			if (*level == PI_LEVEL_DEFAULT)
				*level = k - '0';
		} else if (k == 'c') {
			*cont = true;
		} else {
			break;
		}
		n += 2;
	}
	return n;
}

/* __FILE__ and __func__ are printable tokens; anything else is damage
 * (and could not be written as an index line). */
static bool token_ok(const char *t)
{
	if (!*t)
		return false;
	for (; *t; t++)
		if ((unsigned char)*t <= 0x20 || (unsigned char)*t >= 0x7f)
			return false;
	return true;
}

/* Append e with copies of file and func, and of the subsystem prefix
 * sub[0..slen) followed by fmt[0..flen) as its format. */
static void push_line(struct pi_index *idx, struct pi_entry *e, const char *file,
		      const char *func, const char *sub, size_t slen, const char *fmt,
		      size_t flen)
{
	char *buf;

	e->file = arena_strndup(&idx->arena, file, strlen(file));
	e->func = arena_strndup(&idx->arena, func, strlen(func));
	e->fmt_len = slen + flen;
	buf = arena_alloc(&idx->arena, e->fmt_len + 1);
	if (slen)
		memcpy(buf, sub, slen);
	memcpy(buf + slen, fmt, flen);
	buf[e->fmt_len] = '\0';
	e->fmt = buf;
	pi_index_push(idx, e);
}

static int read_entry(struct ectx *c, struct pi_index *idx, const char *module,
		      const struct ptr *ep)
{
	struct sec *s = &c->s[ep->sec];
	struct ptr pf, pfunc, pfile, plevel, psub;
	const char *fmt, *func = "(null)", *file = "(null)", *lvl, *sub = NULL;
	size_t flen, slen = 0, pre;
	struct pi_entry e = { 0 };

	if (load_sec(c, ep->sec))
		return -1;
	if (!s->data || ep->off > s->size || s->size - ep->off < PE_SIZE)
		return fail(c, "pi_entry at %s+0x%llx is outside its section", s->name,
			    (unsigned long long)ep->off);
	if (read_ptr(c, ep->sec, ep->off + PE_FMT, &pf) ||
	    read_ptr(c, ep->sec, ep->off + PE_FUNC, &pfunc) ||
	    read_ptr(c, ep->sec, ep->off + PE_FILE, &pfile) ||
	    read_ptr(c, ep->sec, ep->off + PE_LEVEL, &plevel) ||
	    read_ptr(c, ep->sec, ep->off + PE_SUBSYS, &psub))
		return -1;
	if (!pf.sec)
		return 0;	/* not a constant format: no line */
	if (read_str(c, &pf, "format", &fmt, &flen) ||
	    (pfunc.sec && read_str(c, &pfunc, "function", &func, NULL)) ||
	    (pfile.sec && read_str(c, &pfile, "file", &file, NULL)) ||
	    (psub.sec && read_str(c, &psub, "prefix", &sub, &slen)))
		return -1;
	if (!token_ok(file) || !token_ok(func))
		return fail(c, "pi_entry at %s+0x%llx: file or function name is not a printable word",
			    s->name, (unsigned long long)ep->off);
	e.line = get32(s->data + ep->off + PE_LINE);
	if (e.line > 0x7fffffffU)
		return fail(c, "pi_entry at %s+0x%llx: line number %u out of range", s->name,
			    (unsigned long long)ep->off, e.line);
	e.level = PI_LEVEL_DEFAULT;
	if (plevel.sec) {
		if (read_str(c, &plevel, "level", &lvl, NULL))
			return -1;
		parse_prefix(lvl, &e.level, &e.cont);
		pre = 0;
	} else {
		pre = parse_prefix(fmt, &e.level, &e.cont);
	}
	e.module = module;
	push_line(idx, &e, file, func, sub, slen, fmt + pre, flen - pre);
	return 0;
}

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
	if (load_symtab(c, st))
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
		return fail(c, "%s without %s", start ? "__start___dyndbg" : "__stop___dyndbg",
			    start ? "__stop___dyndbg" : "__start___dyndbg");
	if (stop->st_value < start->st_value)
		return fail(c, "__stop___dyndbg 0x%llx is below __start___dyndbg 0x%llx",
			    (unsigned long long)stop->st_value,
			    (unsigned long long)start->st_value);
	if (stop->st_value == start->st_value)
		return 0;
	if (addr_to_ptr(c, start->st_value, &p))
		return fail(c, "__start___dyndbg 0x%llx is in no section with contents",
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
	size_t i = find_sec(c, "__dyndbg");

	if (!i || !c->s[i].sh.sh_size)
		return 0;
	if (c->s[i].sh.sh_type != SHT_PROGBITS)
		return fail(c, "__dyndbg has no contents");
	if (load_sec(c, i))
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

	if (load_rels(c, a->sec))
		return -1;
	if (!s->nrel)
		return fail(c, "%s: %llu bytes of descriptors but neither a descriptor symbol nor a relocation to take their size from",
			    a->what, (unsigned long long)a->size);
	for (j = 0; j < s->nrel; j++)
		if (s->rel[j].r_offset >= DD_LINE) {
			stride = s->rel[j].r_offset;
			break;
		}
	if (stride < DD_MIN_SIZE || stride % 8)
		return fail(c, "%s (no descriptor symbol): the relocations give a descriptor size of %llu bytes, which cannot be a struct _ddebug (at least %d bytes, a multiple of 8)",
			    a->what, (unsigned long long)stride, DD_MIN_SIZE);
	if (a->size % stride)
		return fail(c, "%s (no descriptor symbol): size %llu is not a multiple of the descriptor size %llu the relocations give",
			    a->what, (unsigned long long)a->size, (unsigned long long)stride);
	n = a->size / stride;
	for (j = 0; j < s->nrel || j / 4 < n; j++) {
		uint64_t want = j / 4 * stride + j % 4 * 8;

		if (j / 4 < n && (j >= s->nrel || s->rel[j].r_offset > want))
			return fail(c, "%s (no descriptor symbol): no relocation for the %s pointer at 0x%llx of the %llu-byte descriptors the relocations give",
				    a->what, dd_ptr_name[j % 4], (unsigned long long)want,
				    (unsigned long long)stride);
		if (j / 4 >= n || s->rel[j].r_offset < want)
			return fail(c, "%s (no descriptor symbol): a relocation at 0x%llx, not on a pointer of the %llu-byte descriptors the relocations give",
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
			return fail(c, "%s: %llu bytes of descriptors but no symbol table to take their size from",
				    a->what, (unsigned long long)a->size);
		if (load_symtab(c, st))
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
				return fail(c, "descriptor %s at %s+0x%llx: size %llu cannot be a struct _ddebug (at least %d bytes, a multiple of 8)",
					    sym_name(c, sym), sname,
					    (unsigned long long)(a->off + at),
					    (unsigned long long)sym->st_size, DD_MIN_SIZE);
		} else if (sym->st_size != first->st_size) {
			return fail(c, "descriptors %s and %s in %s differ in size (%llu and %llu bytes)",
				    sym_name(c, first), sym_name(c, sym), a->what,
				    (unsigned long long)first->st_size,
				    (unsigned long long)sym->st_size);
		}
		if (at % first->st_size)
			return fail(c, "descriptor %s at %s+0x%llx is not a whole number of %llu-byte descriptors into %s",
				    sym_name(c, sym), sname, (unsigned long long)(a->off + at),
				    (unsigned long long)first->st_size, a->what);
	}
	if (!first && c->rel)
		return dd_stride_rel(c, a);
	if (!first)
		return fail(c, "%s: %llu bytes of descriptors but no descriptor symbol to take their size from (local symbols stripped?)",
			    a->what, (unsigned long long)a->size);
	if (a->size % first->st_size)
		return fail(c, "%s: size %llu is not a multiple of the descriptor size %llu",
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
	uint32_t print = get32(s->data + off + DD_PRINT);
	unsigned int kind = print >> DD_KIND_SHIFT & 3, plen = print & DD_PLEN_MASK;
	const char *fmt, *func = "(null)", *file = "(null)", *sub = dd_prefix[kind];
	struct ptr pf, pfunc, pfile;
	struct pi_entry e = { 0 };
	size_t flen;

	if (!kind)
		return 0;
	if (read_ptr(c, sec, off + DD_FUNC, &pfunc) ||
	    read_ptr(c, sec, off + DD_FILE, &pfile) ||
	    read_ptr(c, sec, off + DD_FORMAT, &pf))
		return -1;
	if (!pf.sec)
		return fail(c, "NULL format");
	/*
	 * format is fmt inside the pr_fmt(fmt) literal, as the control file
	 * shows it; what is printed starts print_prefix_len bytes earlier.
	 */
	if (pf.off < plen)
		return fail(c, "print_prefix_len %u reaches before %s+0", plen,
			    c->s[pf.sec].name);
	pf.off -= plen;
	if (read_str(c, &pf, "format", &fmt, &flen) ||
	    (pfunc.sec && read_str(c, &pfunc, "function", &func, NULL)) ||
	    (pfile.sec && read_str(c, &pfile, "file", &file, NULL)))
		return -1;
	if (flen < plen)
		return fail(c, "the %u bytes of print_prefix_len before the format hold a NUL",
			    plen);
	if (!token_ok(file) || !token_ok(func))
		return fail(c, "file or function name is not a printable word");
	e.module = module;
	e.level = DD_LEVEL;
	e.line = get32(s->data + off + DD_LINE) & DD_LINENO_MASK;
	push_line(idx, &e, file, func, sub, sub ? strlen(sub) : 0, fmt, flen);
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

/* The lines of the object's dynamic debug call sites, if it has any. */
static int read_ddebugs(struct ectx *c, struct pi_index *idx, const char *module)
{
	struct dd_array a = { 0 };
	struct sec *s;
	uint64_t k;

	if (c->rel ? dd_find_rel(c, &a) : dd_find_exec(c, &a))
		return -1;
	if (!a.size)
		return 0;
	s = &c->s[a.sec];
	if (load_sec(c, a.sec))
		return -1;
	if (!s->data || a.off > s->size || s->size - a.off < a.size)
		return fail(c, "%s: %llu bytes at %s+0x%llx run past the end of the section",
			    a.what, (unsigned long long)a.size, s->name,
			    (unsigned long long)a.off);
	if (dd_stride(c, &a))
		return -1;
	for (k = 0; k < a.size; k += a.stride)
		if (read_ddebug(c, idx, module, a.sec, a.off + k))
			return -1;
	return 0;
}

/* The .printk_index section pidx: pointers to struct pi_entry. */
static int read_entries(struct ectx *c, struct pi_index *idx, const char *module, size_t pidx)
{
	size_t i;

	if (c->s[pidx].sh.sh_type != SHT_PROGBITS)
		return fail(c, ".printk_index has no contents");
	if (load_sec(c, pidx))
		return -1;
	if (c->s[pidx].size % 8)
		return fail(c, ".printk_index: size %zu is not a multiple of 8", c->s[pidx].size);
	for (i = 0; i < c->s[pidx].size; i += 8) {
		struct ptr ep;

		if (read_ptr(c, pidx, i, &ep))
			return -1;
		if (!ep.sec)
			return fail(c, ".printk_index+0x%zx: NULL entry pointer", i);
		if (read_entry(c, idx, module, &ep))
			return -1;
	}
	return 0;
}

static int load_elf(struct ectx *c, struct pi_index *idx, const char **modp)
{
	const char *ident, *module;
	GElf_Ehdr eh;
	size_t shstrndx, i, pidx, n;
	Elf_Scn *scn = NULL;

	if (elf_kind(c->elf) != ELF_K_ELF)
		return fail(c, "not an ELF object");
	ident = elf_getident(c->elf, &n);
	if (!ident || n < EI_NIDENT)
		return fail(c, "truncated ELF header");
	if (!gelf_getehdr(c->elf, &eh))
		return fail(c, "bad ELF header: %s", elf_errmsg(-1));
	if (ident[EI_CLASS] != ELFCLASS64 || ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_machine != EM_X86_64)
		return fail(c, "unsupported machine (%s %s, e_machine %u): only 64-bit little-endian x86_64",
			    ident[EI_CLASS] == ELFCLASS64 ? "ELF64" :
			    ident[EI_CLASS] == ELFCLASS32 ? "ELF32" : "ELF?",
			    ident[EI_DATA] == ELFDATA2LSB ? "LSB" : "MSB",
			    (unsigned)eh.e_machine);
	if (eh.e_type != ET_EXEC && eh.e_type != ET_REL)
		return fail(c, "neither vmlinux (ET_EXEC) nor a module (ET_REL): e_type %u",
			    (unsigned)eh.e_type);
	c->rel = eh.e_type == ET_REL;
	if (elf_getshdrnum(c->elf, &c->ns) || elf_getshdrstrndx(c->elf, &shstrndx))
		return fail(c, "bad section headers: %s", elf_errmsg(-1));
	if (!c->ns)
		return fail(c, "no section headers (stripped?)");
	c->s = xcalloc(c->ns, sizeof(*c->s));
	while ((scn = elf_nextscn(c->elf, scn))) {
		i = elf_ndxscn(scn);
		if (i >= c->ns)
			return fail(c, "bad section index %zu", i);
		if (!gelf_getshdr(scn, &c->s[i].sh))
			return fail(c, "bad section header %zu: %s", i, elf_errmsg(-1));
		c->s[i].scn = scn;
		c->s[i].name = elf_strptr(c->elf, shstrndx, c->s[i].sh.sh_name);
	}
	for (i = 1; i < c->ns; i++)
		if (!c->s[i].scn)
			return fail(c, "section %zu missing", i);
	module = module_name(c, idx);
	if (modp)
		*modp = module;
	/* a module without printk calls has no section: no entries, but
	 * maybe dynamic debug sites */
	pidx = find_sec(c, ".printk_index");
	if (!pidx && !c->rel)
		return fail(c, "no .printk_index section (CONFIG_PRINTK_INDEX=n, or stripped)");
	if (pidx && read_entries(c, idx, module, pidx))
		return -1;
	/* the kernel's file: the entries first, then the call sites */
	if (read_ddebugs(c, idx, module))
		return -1;
	idx->layout = PI_LAYOUT_KERNEL;
	return 0;
}

/* image is mutable (libelf wants that) and only needed during the call:
 * read_entry() copies what it keeps */
static int load_image(struct pi_index *idx, const char *name, char *image, size_t size,
		      const char **module, struct pi_err *err)
{
	struct ectx c = { .name = name, .err = err };
	size_t n0 = idx->n, i;
	int ret;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		pi_seterr(err, "%s: libelf: %s", name, elf_errmsg(-1));
		return -1;
	}
	if (!pi_is_elf(image, size)) {
		pi_seterr(err, "%s: not an ELF file", name);
		return -1;
	}
	c.elf = elf_memory(image, size);
	if (!c.elf) {
		pi_seterr(err, "%s: bad ELF file: %s", name, elf_errmsg(-1));
		return -1;
	}
	ret = load_elf(&c, idx, module);
	if (ret)
		idx->n = n0;	/* no partial index */
	for (i = 0; i < c.ns; i++)
		free(c.s[i].rel);
	free(c.s);
	elf_end(c.elf);
	return ret;
}

int pi_elf_load_mem(struct pi_index *idx, const char *name, const void *data,
		    size_t size, const char **module, struct pi_err *err)
{
	char *copy = xmalloc(size ? size : 1);
	int ret;

	memcpy(copy, data, size);
	ret = load_image(idx, name, copy, size, module, err);
	free(copy);
	return ret;
}

#endif /* PI_NO_ELF */

int pi_elf_load_file(struct pi_index *idx, const char *path, const char **module,
		     struct pi_err *err)
{
	char *buf;
	size_t len;
	int ret;

	if (pi_read_file(path, &buf, &len, err))
		return -1;
#ifdef PI_NO_ELF
	ret = pi_elf_load_mem(idx, path, buf, len, module, err);
#else
	ret = load_image(idx, path, buf, len, module, err);
#endif
	free(buf);
	return ret;
}
