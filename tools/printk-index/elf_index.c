// SPDX-License-Identifier: GPL-2.0
/* The index of vmlinux or a module read from its ELF file (elf_index.h):
 * sections, relocations, pointers and the .printk_index entries; the
 * dynamic debug call sites are elf_ddebug.c's. */
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

#include "elf_index_impl.h"

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

int ei_fail(struct ectx *c, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	pi_seterr(c->err, "%s: %s%s", c->name, c->where, what);
	return -1;
}

int ei_load_sec(struct ectx *c, size_t i)
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
		return ei_fail(c, "section %s: %s", s->name, elf_errmsg(-1));
	/* one data block per section when reading a file */
	if (elf_getdata(s->scn, d))
		return ei_fail(c, "section %s: more than one data block", s->name);
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
int ei_load_symtab(struct ectx *c, size_t i)
{
	struct sec *st = &c->s[i];

	if (c->syms)
		return c->symtab == i ? 0 : ei_fail(c, "section %s: a second symbol table", st->name);
	if (ei_load_sec(c, i))
		return -1;
	if (st->size % sizeof(Elf64_Sym) || !st->data)
		return ei_fail(c, "section %s: odd size", st->name);
	c->syms = (Elf64_Sym *)st->data;
	c->nsyms = st->size / sizeof(Elf64_Sym);
	c->symtab = i;
	return 0;
}

/* ET_REL: collect the RELA relocations that apply to section i. */
int ei_load_rels(struct ectx *c, size_t i)
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
			return ei_fail(c, "section %s: REL relocations are not supported", r->name);
		if (r->sh.sh_type != SHT_RELA)
			continue;
		if (r->sh.sh_link >= c->ns || c->s[r->sh.sh_link].sh.sh_type != SHT_SYMTAB)
			return ei_fail(c, "section %s: no symbol table", r->name);
		if (ei_load_symtab(c, r->sh.sh_link))
			return -1;
		if (ei_load_sec(c, k))
			return -1;
		if (r->size % sizeof(Elf64_Rela))
			return ei_fail(c, "section %s: odd size", r->name);
		n = r->size / sizeof(Elf64_Rela);
		if (!n)
			continue;
		t->rel = xreallocarray(t->rel, (t->nrel + n), sizeof(*t->rel));
		memcpy(t->rel + t->nrel, r->data, n * sizeof(*t->rel));
		t->nrel += n;
	}
	if (t->nrel)
		qsort(t->rel, t->nrel, sizeof(*t->rel), cmp_rela);
	for (j = 1; j < t->nrel; j++)
		if (t->rel[j].r_offset == t->rel[j - 1].r_offset)
			return ei_fail(c, "section %s: two relocations at offset 0x%llx", t->name,
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

uint64_t ei_get64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

uint32_t ei_get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ET_EXEC: the allocated section holding a link-time address. */
int ei_addr_to_ptr(struct ectx *c, uint64_t va, struct ptr *out)
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
	return ei_fail(c, "pointer 0x%llx is in no section with contents", (unsigned long long)va);
}

/* The pointer stored at (sec, off). */
int ei_read_ptr(struct ectx *c, size_t sec, uint64_t off, struct ptr *out)
{
	struct sec *s = &c->s[sec];
	uint64_t raw;

	if (ei_load_sec(c, sec))
		return -1;
	if (!s->data || off > s->size || s->size - off < 8)
		return ei_fail(c, "pointer at %s+0x%llx is outside the section", s->name,
			    (unsigned long long)off);
	raw = ei_get64(s->data + off);
	out->sec = 0;
	out->off = 0;
	if (c->rel) {
		const Elf64_Rela *r;
		const Elf64_Sym *sym;
		uint64_t sidx;

		if (ei_load_rels(c, sec))
			return -1;
		r = find_rel(s, off);
		if (!r) {
			if (raw)
				return ei_fail(c, "pointer at %s+0x%llx has no relocation", s->name,
					    (unsigned long long)off);
			return 0;	/* NULL */
		}
		if (ELF64_R_TYPE(r->r_info) != R_X86_64_64)
			return ei_fail(c, "unsupported relocation type %u at %s+0x%llx",
				    (unsigned)ELF64_R_TYPE(r->r_info), s->name,
				    (unsigned long long)off);
		sidx = ELF64_R_SYM(r->r_info);
		if (sidx >= c->nsyms)
			return ei_fail(c, "relocation at %s+0x%llx: bad symbol %llu", s->name,
				    (unsigned long long)off, (unsigned long long)sidx);
		sym = &c->syms[sidx];
		if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= c->ns ||
		    sym->st_shndx >= SHN_LORESERVE)
			return ei_fail(c, "relocation at %s+0x%llx: symbol not in a section",
				    s->name, (unsigned long long)off);
		out->sec = sym->st_shndx;
		out->off = sym->st_value + (uint64_t)r->r_addend;
		return 0;
	}
	if (!raw)
		return 0;
	return ei_addr_to_ptr(c, raw, out);
}

/* A NUL-terminated string inside its section. */
int ei_read_str(struct ectx *c, const struct ptr *p, const char *what, const char **out,
		size_t *len)
{
	struct sec *s = &c->s[p->sec];
	const unsigned char *nul;

	if (ei_load_sec(c, p->sec))
		return -1;
	if (!s->data || p->off >= s->size)
		return ei_fail(c, "%s string at %s+0x%llx is outside the section", what, s->name,
			    (unsigned long long)p->off);
	nul = memchr(s->data + p->off, '\0', s->size - p->off);
	if (!nul)
		return ei_fail(c, "%s string at %s+0x%llx has no NUL inside its section", what,
			    s->name, (unsigned long long)p->off);
	*out = (const char *)s->data + p->off;
	if (len)
		*len = nul - (s->data + p->off);
	return 0;
}

size_t ei_find_sec(struct ectx *c, const char *name)
{
	size_t i;

	for (i = 1; i < c->ns; i++)
		if (c->s[i].name && !strcmp(c->s[i].name, name))
			return i;
	return 0;
}

static const char *module_name(struct ectx *c, struct pi_index *idx)
{
	size_t i = ei_find_sec(c, ".gnu.linkonce.this_module"), n, k;
	const char *base = strrchr(c->name, '/');

	if (!c->rel)
		return "vmlinux";
	if (i && !ei_load_sec(c, i) && c->s[i].data && c->s[i].size >= MOD_NAME_OFF + MOD_NAME_LEN) {
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
bool ei_token_ok(const char *t)
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
void ei_push_line(struct pi_index *idx, struct pi_entry *e, const char *file,
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

	if (ei_load_sec(c, ep->sec))
		return -1;
	if (!s->data || ep->off > s->size || s->size - ep->off < PE_SIZE)
		return ei_fail(c, "pi_entry at %s+0x%llx is outside its section", s->name,
			    (unsigned long long)ep->off);
	if (ei_read_ptr(c, ep->sec, ep->off + PE_FMT, &pf) ||
	    ei_read_ptr(c, ep->sec, ep->off + PE_FUNC, &pfunc) ||
	    ei_read_ptr(c, ep->sec, ep->off + PE_FILE, &pfile) ||
	    ei_read_ptr(c, ep->sec, ep->off + PE_LEVEL, &plevel) ||
	    ei_read_ptr(c, ep->sec, ep->off + PE_SUBSYS, &psub))
		return -1;
	if (!pf.sec)
		return 0;	/* not a constant format: no line */
	if (ei_read_str(c, &pf, "format", &fmt, &flen) ||
	    (pfunc.sec && ei_read_str(c, &pfunc, "function", &func, NULL)) ||
	    (pfile.sec && ei_read_str(c, &pfile, "file", &file, NULL)) ||
	    (psub.sec && ei_read_str(c, &psub, "prefix", &sub, &slen)))
		return -1;
	if (!ei_token_ok(file) || !ei_token_ok(func))
		return ei_fail(c, "pi_entry at %s+0x%llx: file or function name is not a printable word",
			    s->name, (unsigned long long)ep->off);
	e.line = ei_get32(s->data + ep->off + PE_LINE);
	if (e.line > 0x7fffffffU)
		return ei_fail(c, "pi_entry at %s+0x%llx: line number %u out of range", s->name,
			    (unsigned long long)ep->off, e.line);
	e.level = PI_LEVEL_DEFAULT;
	if (plevel.sec) {
		if (ei_read_str(c, &plevel, "level", &lvl, NULL))
			return -1;
		parse_prefix(lvl, &e.level, &e.cont);
		pre = 0;
	} else {
		pre = parse_prefix(fmt, &e.level, &e.cont);
	}
	e.module = module;
	ei_push_line(idx, &e, file, func, sub, slen, fmt + pre, flen - pre);
	return 0;
}

/* The .printk_index section pidx: pointers to struct pi_entry. */
static int read_entries(struct ectx *c, struct pi_index *idx, const char *module, size_t pidx)
{
	size_t i;

	if (c->s[pidx].sh.sh_type != SHT_PROGBITS)
		return ei_fail(c, ".printk_index has no contents");
	if (ei_load_sec(c, pidx))
		return -1;
	if (c->s[pidx].size % 8)
		return ei_fail(c, ".printk_index: size %zu is not a multiple of 8", c->s[pidx].size);
	for (i = 0; i < c->s[pidx].size; i += 8) {
		struct ptr ep;

		if (ei_read_ptr(c, pidx, i, &ep))
			return -1;
		if (!ep.sec)
			return ei_fail(c, ".printk_index+0x%zx: NULL entry pointer", i);
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
		return ei_fail(c, "not an ELF object");
	ident = elf_getident(c->elf, &n);
	if (!ident || n < EI_NIDENT)
		return ei_fail(c, "truncated ELF header");
	if (!gelf_getehdr(c->elf, &eh))
		return ei_fail(c, "bad ELF header: %s", elf_errmsg(-1));
	if (ident[EI_CLASS] != ELFCLASS64 || ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_machine != EM_X86_64)
		return ei_fail(c, "unsupported machine (%s %s, e_machine %u): only 64-bit little-endian x86_64",
			    ident[EI_CLASS] == ELFCLASS64 ? "ELF64" :
			    ident[EI_CLASS] == ELFCLASS32 ? "ELF32" : "ELF?",
			    ident[EI_DATA] == ELFDATA2LSB ? "LSB" : "MSB",
			    (unsigned)eh.e_machine);
	if (eh.e_type != ET_EXEC && eh.e_type != ET_REL)
		return ei_fail(c, "neither vmlinux (ET_EXEC) nor a module (ET_REL): e_type %u",
			    (unsigned)eh.e_type);
	c->rel = eh.e_type == ET_REL;
	if (elf_getshdrnum(c->elf, &c->ns) || elf_getshdrstrndx(c->elf, &shstrndx))
		return ei_fail(c, "bad section headers: %s", elf_errmsg(-1));
	if (!c->ns)
		return ei_fail(c, "no section headers (stripped?)");
	c->s = xcalloc(c->ns, sizeof(*c->s));
	while ((scn = elf_nextscn(c->elf, scn))) {
		i = elf_ndxscn(scn);
		if (i >= c->ns)
			return ei_fail(c, "bad section index %zu", i);
		if (!gelf_getshdr(scn, &c->s[i].sh))
			return ei_fail(c, "bad section header %zu: %s", i, elf_errmsg(-1));
		c->s[i].scn = scn;
		c->s[i].name = elf_strptr(c->elf, shstrndx, c->s[i].sh.sh_name);
	}
	for (i = 1; i < c->ns; i++)
		if (!c->s[i].scn)
			return ei_fail(c, "section %zu missing", i);
	module = module_name(c, idx);
	if (modp)
		*modp = module;
	/* a module without printk calls has no section: no entries, but
	 * maybe dynamic debug sites */
	pidx = ei_find_sec(c, ".printk_index");
	if (!pidx && !c->rel)
		return ei_fail(c, "no .printk_index section (CONFIG_PRINTK_INDEX=n, or stripped)");
	if (pidx && read_entries(c, idx, module, pidx))
		return -1;
	/* the kernel's file: the entries first, then the call sites */
	if (ei_read_ddebugs(c, idx, module))
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

int pi_elf_load_buf(struct pi_index *idx, const char *name, char *buf, size_t size,
		    const char **module, struct pi_err *err)
{
#ifdef PI_NO_ELF
	return pi_elf_load_mem(idx, name, buf, size, module, err);
#else
	return load_image(idx, name, buf, size, module, err);
#endif
}

int pi_elf_load_file(struct pi_index *idx, const char *path, const char **module,
		     struct pi_err *err)
{
	char *buf;
	size_t len;
	int ret;

	if (pi_read_file(path, &buf, &len, err))
		return -1;
	ret = pi_elf_load_buf(idx, path, buf, len, module, err);
	free(buf);
	return ret;
}
