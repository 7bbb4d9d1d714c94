// SPDX-License-Identifier: GPL-2.0
/*
 * The ELF reader (elf_index.h) and "extract": byte-exact against what the
 * running kernel printed for the sample modules (test/modules/<m>/<m>.golden),
 * the vmlinux entry count against test/host/pi_count.py, and bad input:
 * truncated, stripped, wrong class/machine, odd sizes, pointers out of
 * range, strings without NUL, random damage. Never a crash; errors name
 * the file.
 */
#include <elf.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../elf_index.h"
#include "../index.h"
#include "test.h"

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

static void damage(void)
{
	char path[512], *img, *c;
	size_t len, cut, i;
	Elf64_Shdr *pi, *rela;
	struct pi_index idx;
	struct pi_err err;
	uint64_t r = 12345;
	int ok = 0, failed = 0, unnamed = 0;

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
	/* random damage: any outcome but a crash; errors name the file */
	for (i = 0; i < 3000; i++) {
		int k, nflip = 1 + i % 8;
		struct pi_err e2 = { "" };

		memcpy(c, img, len);
		for (k = 0; k < nflip; k++) {
			r = r * 6364136223846793005ULL + 1442695040888963407ULL;
			c[(r >> 33) % (i % 2 ? 4096 : len)] ^= 1 << ((r >> 20) % 8);
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
	free(c);
	free(img);
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
	cli_errors();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", tmpl);
	t_tmpdir = NULL;
}
