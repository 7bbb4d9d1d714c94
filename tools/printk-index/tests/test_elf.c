// SPDX-License-Identifier: GPL-2.0
/*
 * The ELF reader (elf_index.h) and "extract": byte-exact against what the
 * running kernel printed for the sample modules (test/modules/<m>/<m>.golden),
 * the vmlinux entry count against test/host/pi_count.py, and bad input:
 * truncated, stripped, wrong class/machine, odd sizes, pointers out of
 * range, strings without NUL, random damage. Dynamic debug descriptors
 * from objects built here (tests/data/dyndbg.c): exact lines after the
 * entries, and their damage. Never a crash; errors name the file.
 */
#include <elf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../elf_index.h"
#include "../index.h"
#include "test.h"
#include "../source.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return NULL;
	}
	p = malloc(n + 1);
	if (p && fread(p, 1, n, f) != (size_t)n) {
		free(p);
		p = NULL;
	}
	fclose(f);
	*len = n;
	return p;
}

/* stdout of a shell command, into a malloc'ed string */
static char *capture(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0, cap = 1 << 16, got;
	char *buf = malloc(cap);

	if (!p) {
		*status = -1;
		return buf;
	}
	while ((got = fread(buf + n, 1, cap - n - 1, p)) > 0) {
		n += got;
		if (n + 1 == cap)
			buf = realloc(buf, cap *= 2);
	}
	buf[n] = '\0';
	*status = pclose(p);
	*status = WIFEXITED(*status) ? WEXITSTATUS(*status) : -1;
	return buf;
}

/* The number of entries in a sample module's golden file: its lines but
 * the header. */
static int golden_entries(const char *mod)
{
	char path[512], *text;
	size_t len, i;
	int n = -1;

	snprintf(path, sizeof(path), "%s/modules/%s/%s.golden", t_testdir, mod, mod);
	if (!(text = slurp(path, &len)))
		return -1;
	for (i = 0; i < len; i++)
		n += text[i] == '\n';
	free(text);
	return n;
}

static void golden(const char *mod, const char *ko_rel)
{
	char ko[512], gold[512], cmd[1400];
	char *want, *got;
	size_t wlen;
	int st;

	snprintf(ko, sizeof(ko), "%s/%s", t_kbuild, ko_rel);
	snprintf(gold, sizeof(gold), "%s/modules/%s/%s.golden", t_testdir, mod, mod);
	if (access(ko, R_OK) || !(want = slurp(gold, &wlen))) {
		snprintf(cmd, sizeof(cmd), "%s or %s", ko, gold);
		T_MISSING(cmd);
		return;
	}
	snprintf(cmd, sizeof(cmd), "%s extract '%s'", t_binary, ko);
	got = capture(cmd, &st);
	CHECK_INT(st, 0);
	if (strlen(got) == wlen && !memcmp(got, want, wlen))
		T_PASS();
	else
		T_FAIL("extract %s differs from %s", ko, gold);
	/* list reads the .ko as a source too, and gives the same bytes */
	free(got);
	snprintf(cmd, sizeof(cmd), "%s list '%s'", t_binary, ko);
	got = capture(cmd, &st);
	CHECK(st == 0 && strlen(got) == wlen && !memcmp(got, want, wlen));
	free(got);
	free(want);
}

static void vmlinux_count(void)
{
	char vm[512], cmd[1400], *got, *py;
	struct pi_index idx;
	struct pi_err err;
	unsigned long total = 0, with_fmt = 0;
	int st;

	snprintf(vm, sizeof(vm), "%s/vmlinux", t_kbuild);
	if (access(vm, R_OK)) {
		T_MISSING(vm);
		return;
	}
	snprintf(cmd, sizeof(cmd), "python3 '%s/host/pi_count.py' '%s'", t_testdir, vm);
	py = capture(cmd, &st);
	if (st || sscanf(py, "%lu %lu", &total, &with_fmt) != 2) {
		/* the independent count is the point of the test */
		T_FAIL("pi_count.py failed (exit %d): %s", st, py);
		free(py);
		return;
	}
	free(py);
	/* extract's output parses back with the expected entry count */
	snprintf(cmd, sizeof(cmd), "%s extract '%s' > '%s/vmlinux.idx' && %s list '%s/vmlinux.idx' | cmp -s - '%s/vmlinux.idx' && echo same",
		 t_binary, vm, t_tmpdir, t_binary, t_tmpdir, t_tmpdir);
	got = capture(cmd, &st);
	CHECK_STR(got, "same\n");
	free(got);
	snprintf(cmd, sizeof(cmd), "%s/vmlinux.idx", t_tmpdir);
	pi_index_init(&idx);
	CHECK_INT(pi_load_source(&idx, cmd, &err), 0);
	CHECK_INT(idx.n, with_fmt);
	CHECK(with_fmt <= total && with_fmt > 0);
	pi_index_free(&idx);
	/* the ELF file as a SOURCE of its own */
	pi_index_init(&idx);
	CHECK_INT(pi_load_source(&idx, vm, &err), 0);
	CHECK_INT(idx.n, with_fmt);
	CHECK_STR(idx.n ? idx.v[0].module : "", "vmlinux");
	pi_index_free(&idx);
}

/* --- crafted damage on a real module image ----------------------- */

static Elf64_Shdr *shdr(char *img, size_t len, const char *name)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	Elf64_Shdr *sh = (Elf64_Shdr *)(img + eh->e_shoff), *str;
	int i;

	if (eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) > len || eh->e_shstrndx >= eh->e_shnum)
		return NULL;
	str = &sh[eh->e_shstrndx];
	for (i = 0; i < eh->e_shnum; i++)
		if (!strcmp(img + str->sh_offset + sh[i].sh_name, name))
			return &sh[i];
	return NULL;
}

/* must fail with "NAME: ...what..." */
static void bad(const char *img, size_t len, const char *what)
{
	struct pi_index idx;
	struct pi_err err = { "" };
	int r;

	pi_index_init(&idx);
	r = pi_elf_load_mem(&idx, "crafted.ko", img, len, NULL, &err);
	CHECK_INT(r, -1);
	CHECK_INT(idx.n, 0);
	if (r)
		CHECK(!strncmp(err.msg, "crafted.ko: ", 12) && strstr(err.msg, what));
	if (r && !(strstr(err.msg, what)))
		fprintf(stderr, "  (message was: %s)\n", err.msg);
	pi_index_free(&idx);
}

/*
 * Random damage to img: RUNS copies with 1 to MAX_FLIPS bits flipped, in
 * every other run only within its first HEAD bytes (0: anywhere).  Any
 * outcome but a crash; some copies load and some do not, and every error
 * names the file.  The generator is seeded, so a failure reproduces.
 */
static void random_damage(const char *img, char *c, size_t len, int runs,
			  int max_flips, size_t head, uint64_t r)
{
	int i, k, ok = 0, failed = 0, unnamed = 0;

	for (i = 0; i < runs; i++) {
		size_t span = head && head < len && i % 2 ? head : len;
		struct pi_index idx;
		struct pi_err e2 = { "" };

		memcpy(c, img, len);
		for (k = 0; k < 1 + i % max_flips; k++) {
			r = r * 6364136223846793005ULL + 1442695040888963407ULL;
			c[(r >> 33) % span] ^= 1 << ((r >> 20) % 8);
		}
		pi_index_init(&idx);
		if (!pi_elf_load_mem(&idx, "crafted.ko", c, len, NULL, &e2))
			ok++;
		else if (!strncmp(e2.msg, "crafted.ko: ", 12))
			failed++;
		else
			unnamed++;
		pi_index_free(&idx);
	}
	CHECK_INT(unnamed, 0);
	/* the damage reaches both outcomes: some flips are harmless, some fatal */
	CHECK(ok > 0 && failed > 0);
}

static void damage(void)
{
	char path[512], *img, *c;
	size_t len, cut;
	Elf64_Shdr *pi, *rela;
	struct pi_index idx;
	struct pi_err err;

	snprintf(path, sizeof(path), "%s/ext-modules/pi_sample/pi_sample.ko", t_kbuild);
	if (!(img = slurp(path, &len))) {
		T_MISSING(path);
		return;
	}
	c = malloc(len);

	/* the image itself loads, one entry per line of its golden file
	 * but the header */
	pi_index_init(&idx);
	CHECK_INT(pi_elf_load_mem(&idx, "good.ko", img, len, NULL, &err), 0);
	CHECK_INT(idx.n, golden_entries("pi_sample"));
	pi_index_free(&idx);

	bad("hello world, not ELF", 20, "not an ELF file");
	bad("", 0, "not an ELF file");
	bad(img, 3, "not an ELF file");
	/* every truncation: an error, never a crash; the section table is
	 * at the end, so all of them fail */
	for (cut = 4; cut < len; cut += cut < 256 ? 1 : 97)
		bad(img, cut, "");

	memcpy(c, img, len);
	c[EI_CLASS] = ELFCLASS32;
	bad(c, len, "");
	memcpy(c, img, len);
	((Elf64_Ehdr *)c)->e_machine = EM_AARCH64;
	bad(c, len, "unsupported machine");
	memcpy(c, img, len);
	c[EI_DATA] = ELFDATA2MSB;
	bad(c, len, "");
	memcpy(c, img, len);
	((Elf64_Ehdr *)c)->e_type = ET_DYN;
	bad(c, len, "neither vmlinux");
	/* stripped of its section headers */
	memcpy(c, img, len);
	((Elf64_Ehdr *)c)->e_shoff = 0;
	((Elf64_Ehdr *)c)->e_shnum = 0;
	((Elf64_Ehdr *)c)->e_shstrndx = 0;
	bad(c, len, "");

	memcpy(c, img, len);
	pi = shdr(c, len, ".printk_index");
	rela = shdr(c, len, ".rela.printk_index");
	CHECK(pi && rela);
	if (pi && rela) {
		Elf64_Rela *rl = (Elf64_Rela *)(c + rela->sh_offset);

		pi->sh_size -= 4;
		bad(c, len, "not a multiple of 8");
		memcpy(c, img, len);
		/* an entry pointer far outside .rodata */
		rl[0].r_addend = 0x7fffffff;
		bad(c, len, "outside");
		memcpy(c, img, len);
		/* a relocation type we do not apply */
		rl[0].r_info = ELF64_R_INFO(ELF64_R_SYM(rl[0].r_info), R_X86_64_PC32);
		bad(c, len, "unsupported relocation type");
		memcpy(c, img, len);
		rl[0].r_info = ELF64_R_INFO(100000, R_X86_64_64);
		bad(c, len, "bad symbol");
		memcpy(c, img, len);
		/* the pointer with no relocation and a non-zero value */
		rl[0].r_offset = 4096;
		memset(c + pi->sh_offset, 0xab, 8);
		bad(c, len, "has no relocation");
	}
	memcpy(c, img, len);
	{
		/* strings without NUL: all of .rodata.str1.1 made non-NUL */
		Elf64_Shdr *s = shdr(c, len, ".rodata.str1.1");

		CHECK(s != NULL);
		if (s) {
			memset(c + s->sh_offset, 'x', s->sh_size);
			bad(c, len, "no NUL inside its section");
		}
	}
	/* the headers, every other time, and anywhere */
	random_damage(img, c, len, 3000, 8, 4096, 12345);
	free(c);
	free(img);
}

/* --- dynamic debug descriptors ----------------------------------- */

#define DD_SRC "tests/data/dyndbg.c"
#define DD_FORMAT_OFF 24	/* of struct _ddebug */

/* What the kernel shows for every object built from DD_SRC: the entries,
 * then the descriptors in array order, the hex dump's (kind 0) left out. */
static const char dd_want[] =
	"# <level/flags> filename:line function \"format\"\n"
	"<3> dd.c:101 dd_init \"mymod: entry one %s\\n\"\n"
	"<6> dd.c:102 dd_init \"sub: entry two\\n\"\n"
	"<7> dd.c:10 dd_probe \"mymod: hello %d\\n\"\n"
	"<7> dd.c:30 dd_dev \"%s %s: dev thing %s\\n\"\n"
	"<7> dd.c:262143 dd_net \"%s %s %s%s: mymod: link up\\n\"\n"
	"<7> dd.c:50 dd_raw \"\\0014level kept \\\"q\\\"\\t\\n\"\n";

/* DD_SRC as a module (dd40.ko, dd56.ko with the static key) and as a
 * vmlinux (dd40.vmlinux, dd56.vmlinux), in t_tmpdir; the modules also
 * stripped of their local symbols, as distributions install them
 * (stripped/dd40.ko, stripped/dd56.ko). */
static int dd_build(void)
{
	static const struct {
		const char *name, *flags;
		bool exec;
	} objs[] = {
		{ "dd40.ko", "", false },
		{ "dd56.ko", "-DKEY", false },
		{ "dd40.vmlinux", "-DEXEC", true },
		{ "dd56.vmlinux", "-DEXEC -DKEY", true },
	};
	char cmd[1400];
	size_t i;

	/* gcc, whatever CC is: clang has no -fno-toplevel-reorder */
	for (i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
		snprintf(cmd, sizeof(cmd),
			 "gcc -c -O2 -fno-pie -fno-toplevel-reorder %s -o '%s/%s%s' " DD_SRC,
			 objs[i].flags, t_tmpdir, objs[i].name, objs[i].exec ? ".o" : "");
		if (system(cmd))
			return -1;
		if (!objs[i].exec) {
			snprintf(cmd, sizeof(cmd),
				 "mkdir -p '%s/stripped' && strip --strip-unneeded -o '%s/stripped/%s' '%s/%s'",
				 t_tmpdir, t_tmpdir, objs[i].name, t_tmpdir, objs[i].name);
			if (system(cmd))
				return -1;
			continue;
		}
		snprintf(cmd, sizeof(cmd), "ld -e 0 -o '%s/%s' '%s/%s.o'", t_tmpdir,
			 objs[i].name, t_tmpdir, objs[i].name);
		if (system(cmd))
			return -1;
	}
	return 0;
}

static Elf64_Sym *elf_sym(char *img, size_t len, const char *name)
{
	Elf64_Shdr *st = shdr(img, len, ".symtab"), *str = shdr(img, len, ".strtab");
	Elf64_Sym *sym;
	size_t i, n;

	if (!st || !str)
		return NULL;
	sym = (Elf64_Sym *)(img + st->sh_offset);
	n = st->sh_size / sizeof(*sym);
	for (i = 1; i < n; i++)
		if (!strcmp(img + str->sh_offset + sym[i].st_name, name))
			return &sym[i];
	return NULL;
}

/* The relocation of section sec at offset off (in .rela<sec>). */
static Elf64_Rela *elf_rela(char *img, size_t len, const char *sec, uint64_t off)
{
	char name[64];
	Elf64_Shdr *r;
	Elf64_Rela *rl;
	size_t i;

	snprintf(name, sizeof(name), ".rela%s", sec);
	if (!(r = shdr(img, len, name)))
		return NULL;
	rl = (Elf64_Rela *)(img + r->sh_offset);
	for (i = 0; i < r->sh_size / sizeof(*rl); i++)
		if (rl[i].r_offset == off)
			return &rl[i];
	return NULL;
}

/* The five descriptor symbols of DD_SRC; -1 if one is missing. */
static int dd_syms(char *img, size_t len, Elf64_Sym *sym[5])
{
	char name[32];
	int i;

	for (i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "__UNIQUE_ID_ddebug%d", i + 1);
		if (!(sym[i] = elf_sym(img, len, name)))
			return -1;
	}
	return 0;
}

/* The image loads, with n lines. */
static void dd_loads(const char *img, size_t len, size_t n)
{
	struct pi_index idx;
	struct pi_err err = { "" };

	pi_index_init(&idx);
	CHECK_INT(pi_elf_load_mem(&idx, "crafted.ko", img, len, NULL, &err), 0);
	CHECK_INT(idx.n, n);
	if (idx.n != n)
		fprintf(stderr, "  (message was: %s)\n", err.msg);
	pi_index_free(&idx);
}

/* The module: damage to the descriptors, their symbols and relocations. */
static void dd_damage_rel(const char *img, size_t len)
{
	char *c = malloc(len);
	Elf64_Shdr *dd;
	Elf64_Sym *sym[5];
	Elf64_Rela *rl;
	uint32_t v;
	int i;

	memcpy(c, img, len);
	dd = shdr(c, len, "__dyndbg");
	CHECK(dd && !dd_syms(c, len, sym));
	if (!dd || dd_syms(c, len, sym)) {
		free(c);
		return;
	}
	/* the stride: symbol sizes that disagree, are no struct, do not tile
	 * the section; no symbol at all */
	sym[2]->st_size = 56;
	bad(c, len, "descriptors __UNIQUE_ID_ddebug1 and __UNIQUE_ID_ddebug3 in __dyndbg differ in size (40 and 56 bytes)");
	memcpy(c, img, len);
	for (i = 0; i < 5; i++)
		sym[i]->st_size = 24;
	bad(c, len, "size 24 cannot be a struct _ddebug");
	memcpy(c, img, len);
	sym[1]->st_value = 0x14;
	bad(c, len, "descriptor __UNIQUE_ID_ddebug2 at __dyndbg+0x14 is not a whole number of 40-byte descriptors");
	memcpy(c, img, len);
	dd->sh_size -= 8;
	bad(c, len, "__dyndbg: size 192 is not a multiple of the descriptor size 40");
	/* no descriptor symbol: the size from the relocations, as when
	 * stripped */
	memcpy(c, img, len);
	for (i = 0; i < 5; i++)
		sym[i]->st_info = ELF64_ST_INFO(STB_LOCAL, STT_NOTYPE);
	dd_loads(c, len, 6);
	/* the last descriptor's relocations now past the section */
	dd->sh_size -= 40;
	bad(c, len, "__dyndbg (no descriptor symbol): a relocation at 0xa0, not on a pointer of the 40-byte descriptors the relocations give");
	memcpy(c, img, len);
	dd->sh_type = SHT_NOBITS;
	bad(c, len, "__dyndbg has no contents");

	/* the format pointer: far outside its section, NULL, its prefix
	 * reaching before the section */
	memcpy(c, img, len);
	rl = elf_rela(c, len, "__dyndbg", 24);
	CHECK(rl != NULL);
	if (rl) {
		rl->r_addend += 0x100000;
		bad(c, len, "descriptor at __dyndbg+0x0: format string at .rodata.str1.1+0x");
		bad(c, len, "is outside the section");
		memcpy(c, img, len);
		rl->r_offset = 32;	/* now on the line number, format NULL */
		bad(c, len, "descriptor at __dyndbg+0x0: NULL format");
	}
	memcpy(c, img, len);
	memcpy(&v, c + dd->sh_offset + 36, 4);
	v |= 0x3fff;
	memcpy(c + dd->sh_offset + 36, &v, 4);
	bad(c, len, "descriptor at __dyndbg+0x0: print_prefix_len 16383 reaches before .rodata.str1.1+0");
	/* the hex dump's descriptor is never read: damage there is harmless */
	memcpy(c, img, len);
	rl = elf_rela(c, len, "__dyndbg", 40 + 24);
	CHECK(rl != NULL);
	if (rl) {
		rl->r_addend += 0x100000;
		dd_loads(c, len, 6);
	}

	random_damage(img, c, len, 2000, 4, 0, 4242);
	free(c);
}

/*
 * A module stripped of its local symbols: the descriptor size comes from
 * the relocations of __dyndbg (four pointers at the start of each
 * descriptor, none after them). A single descriptor is the whole section;
 * relocations that do not lay out descriptors are an error.
 */
static void dd_damage_stripped(const char *img, size_t len, unsigned int sz)
{
	char *c = malloc(len), want[200];
	Elf64_Shdr *dd, *rela;
	Elf64_Rela *rl;
	uint64_t off;

	memcpy(c, img, len);
	dd = shdr(c, len, "__dyndbg");
	rela = shdr(c, len, ".rela__dyndbg");
	CHECK(dd && rela && dd->sh_size == 5 * sz && rela->sh_size == 20 * sizeof(*rl));
	/* really stripped: what is tested is the way without symbols */
	CHECK(!elf_sym(c, len, "__UNIQUE_ID_ddebug1"));
	if (!dd || !rela || dd->sh_size != 5 * sz || rela->sh_size != 20 * sizeof(*rl)) {
		free(c);
		return;
	}
	rl = (Elf64_Rela *)(c + rela->sh_offset);
	dd_loads(c, len, 6);

	/* one descriptor (pr_debug(), "hello"): the section's size, whatever
	 * it is */
	dd->sh_size = sz;
	rela->sh_size = 4 * sizeof(*rl);
	dd_loads(c, len, 3);
	dd->sh_size = 48;	/* a struct _ddebug of another configuration */
	dd_loads(c, len, 3);
	dd->sh_size = 36;
	bad(c, len, "__dyndbg (no descriptor symbol): the relocations give a descriptor size of 36 bytes, which cannot be a struct _ddebug");

	/* the section cut: no whole number of descriptors */
	memcpy(c, img, len);
	dd->sh_size -= 8;
	snprintf(want, sizeof(want), "__dyndbg (no descriptor symbol): size %u is not a multiple of the descriptor size %u the relocations give",
		 5 * sz - 8, sz);
	bad(c, len, want);
	/* no relocations at all */
	memcpy(c, img, len);
	rela->sh_size = 0;
	bad(c, len, "neither a descriptor symbol nor a relocation to take their size from");

	/* the second descriptor's modname moved by 4: no struct size */
	memcpy(c, img, len);
	if ((rl = elf_rela(c, len, "__dyndbg", sz)))
		rl->r_offset += 4;
	CHECK(rl != NULL);
	snprintf(want, sizeof(want), "descriptor size of %u bytes, which cannot", sz + 4);
	bad(c, len, want);
	/* the last descriptor's format relocated at its line number instead */
	memcpy(c, img, len);
	off = 4 * sz + DD_FORMAT_OFF;
	if ((rl = elf_rela(c, len, "__dyndbg", off)))
		rl->r_offset = off + 8;
	CHECK(rl != NULL);
	snprintf(want, sizeof(want), "(no descriptor symbol): no relocation for the format pointer at 0x%llx of the %u-byte descriptors",
		 (unsigned long long)off, sz);
	bad(c, len, want);
	/* a relocation past the last descriptor */
	memcpy(c, img, len);
	if ((rl = elf_rela(c, len, "__dyndbg", off)))
		rl->r_offset = 5 * sz;
	CHECK(rl != NULL);
	bad(c, len, "no relocation for the format pointer");
	/* the third descriptor's function relocated inside the second: a
	 * second relocation in a descriptor's tail */
	memcpy(c, img, len);
	if ((rl = elf_rela(c, len, "__dyndbg", 2 * sz + 8)))
		rl->r_offset = 2 * sz - 8;
	CHECK(rl != NULL);
	snprintf(want, sizeof(want), "(no descriptor symbol): a relocation at 0x%x, not on a pointer of the %u-byte descriptors",
		 2 * sz - 8, sz);
	bad(c, len, want);
	/* a function pointer without its relocation */
	memcpy(c, img, len);
	if ((rl = elf_rela(c, len, "__dyndbg", sz + 8)))
		rl->r_offset = 5 * sz + 8;
	CHECK(rl != NULL);
	snprintf(want, sizeof(want), "no relocation for the function pointer at 0x%x", sz + 8);
	bad(c, len, want);
	free(c);
}

/* vmlinux: the bounds of the array, a pointer to no section */
static void dd_damage_exec(const char *img, size_t len)
{
	char *c = malloc(len);
	Elf64_Sym *start, *stop;
	Elf64_Shdr *dd;

	memcpy(c, img, len);
	start = elf_sym(c, len, "__start___dyndbg");
	stop = elf_sym(c, len, "__stop___dyndbg");
	dd = shdr(c, len, "__dyndbg");
	CHECK(start && stop && dd);
	if (!start || !stop || !dd) {
		free(c);
		return;
	}
	stop->st_value -= 8;
	bad(c, len, "[__start___dyndbg, __stop___dyndbg): size 192 is not a multiple of the descriptor size 40");
	memcpy(c, img, len);
	stop->st_value = start->st_value - 40;
	bad(c, len, "is below __start___dyndbg");
	memcpy(c, img, len);
	/* the same name as the symbol before it in .strtab: gone */
	c[shdr(c, len, ".strtab")->sh_offset + start->st_name + 2] = 'x';
	bad(c, len, "__stop___dyndbg without __start___dyndbg");
	memcpy(c, img, len);
	stop->st_value = start->st_value;	/* empty: the entries only */
	dd_loads(c, len, 2);
	memcpy(c, img, len);
	memset(c + dd->sh_offset + 24, 0, 8);
	c[dd->sh_offset + 24] = 1;
	bad(c, len, "descriptor at __dyndbg+0x0: pointer 0x1 is in no section with contents");
	free(c);
}

static void dyndbg(void)
{
	static const char *const objs[] = {
		"dd40.ko", "dd56.ko", "dd40.vmlinux", "dd56.vmlinux",
		"stripped/dd40.ko", "stripped/dd56.ko",
	};
	char path[512], cmd[1400], *got, *img;
	struct pi_index idx;
	struct pi_err err;
	const char *module;
	size_t i, len;
	int st;

	if (dd_build()) {
		T_MISSING("gcc and ld, to build " DD_SRC);
		return;
	}
	for (i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
		snprintf(cmd, sizeof(cmd), "%s extract '%s/%s'", t_binary, t_tmpdir, objs[i]);
		got = capture(cmd, &st);
		CHECK_INT(st, 0);
		CHECK_STR(got, dd_want);
		free(got);
	}
	/* list reads the module as a source, the same bytes */
	snprintf(cmd, sizeof(cmd), "%s list '%s/dd56.ko'", t_binary, t_tmpdir);
	got = capture(cmd, &st);
	CHECK_STR(got, dd_want);
	free(got);

	snprintf(path, sizeof(path), "%s/dd40.ko", t_tmpdir);
	pi_index_init(&idx);
	CHECK_INT(pi_elf_load_file(&idx, path, &module, &err), 0);
	CHECK_INT(idx.n, 6);
	if (idx.n == 6) {
		CHECK_STR(module, "dd40");
		CHECK_STR(idx.v[5].module, "dd40");
		CHECK_INT(idx.v[5].level, 7);
		CHECK(!idx.v[5].cont);
		CHECK_MEM(idx.v[5].fmt, idx.v[5].fmt_len, "\0014level kept \"q\"\t\n", 18);
	}
	pi_index_free(&idx);

	if ((img = slurp(path, &len))) {
		dd_damage_rel(img, len);
		free(img);
	}
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/stripped/dd%u.ko", t_tmpdir, i ? 56 : 40);
		if ((img = slurp(path, &len))) {
			dd_damage_stripped(img, len, i ? 56 : 40);
			free(img);
		} else {
			T_FAIL("%s: not built", path);
		}
	}
	snprintf(path, sizeof(path), "%s/dd40.vmlinux", t_tmpdir);
	if ((img = slurp(path, &len))) {
		dd_damage_exec(img, len);
		free(img);
	}
}

static void cli_errors(void)
{
	char cmd[1400], *got;
	int st;

	snprintf(cmd, sizeof(cmd), "printf '\\177ELF\\2\\1\\1' > '%s/cut.ko'; %s extract '%s/cut.ko' 2>&1",
		 t_tmpdir, t_binary, t_tmpdir);
	got = capture(cmd, &st);
	CHECK_INT(st, 2);
	CHECK_HAS(got, "cut.ko: ");
	free(got);
	snprintf(cmd, sizeof(cmd), "%s list '%s/cut.ko' 2>&1", t_binary, t_tmpdir);
	got = capture(cmd, &st);
	CHECK_INT(st, 2);
	CHECK_HAS(got, "cut.ko: ");
	free(got);
	snprintf(cmd, sizeof(cmd), "%s extract '%s' 2>&1", t_binary, t_tmpdir);
	got = capture(cmd, &st);
	CHECK_INT(st, 2);
	CHECK_HAS(got, "needs -o");
	free(got);
}

void test_elf(void)
{
	char tmpl[] = "/tmp/printk-index-elf.XXXXXX", cmd[600];

	if (!pi_elf_supported()) {
		t_not_built(__func__, "built with NO_ELF=1: no ELF tests");
		return;
	}
	if (!mkdtemp(tmpl)) {
		T_FAIL("no temp dir");
		return;
	}
	t_tmpdir = tmpl;
	golden("pi_sample", "ext-modules/pi_sample/pi_sample.ko");
	golden("pi_empty", "ext-modules/pi_empty/pi_empty.ko");
	golden("pi_longname",
	       "ext-modules/pi_longname/pi_longest_possible_module_name_0123456789_abcdefghijkl.ko");
	vmlinux_count();
	damage();
	dyndbg();
	cli_errors();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", tmpl);
	t_tmpdir = NULL;
}
