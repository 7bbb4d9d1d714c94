// SPDX-License-Identifier: GPL-2.0
/*
 * Not part of run-tests: tests/test_elf.c compiles this into objects shaped
 * like a module (gcc -c, ET_REL) and like vmlinux (-DEXEC, linked with ld,
 * ET_EXEC) and checks what "extract" reads from them. Two .printk_index
 * entries, then five dynamic debug descriptors laid out as struct _ddebug
 * (include/linux/dynamic_debug.h) with print_prefix_len and print_kind:
 * 40 bytes, or 56 with the static key of CONFIG_JUMP_LABEL (-DKEY).
 *
 * Build with -fno-toplevel-reorder, so that the descriptors stay in source
 * order. aligned(8) on each variable, as DEFINE_DYNAMIC_DEBUG_METADATA()
 * has it, keeps gcc from spacing them 32 bytes apart.
 */

/* include/linux/printk.h */
struct pi_entry {
	const char *fmt, *func, *file;
	unsigned int line;
	const char *level, *subsys_fmt_prefix;
} __attribute__((packed));

struct _ddebug {
	const char *modname, *function, *filename, *format;
	unsigned int lineno:18, class_id:6, flags:8;
	unsigned int print_prefix_len:14, print_kind:2;
#ifdef KEY
	char key[16];
#endif
} __attribute__((aligned(8)));

/* the key's bytes are not looked at */
#ifdef KEY
#define DD_KEY .key = "0123456789abcdef",
#else
#define DD_KEY
#endif

#define ENTRY(n, lvl, f, sub)						\
	static const struct pi_entry e##n = {				\
		f, "dd_init", "dd.c", 100 + n, lvl, sub };		\
	static const struct pi_entry *pe##n				\
	__attribute__((used, section(".printk_index"))) = &e##n;

/* class_id and flags all ones: they must not leak into the line number */
#define DD(n, kind, plen, f, fn, line)					\
	static struct _ddebug __UNIQUE_ID_ddebug##n			\
	__attribute__((used, aligned(8), section("__dyndbg"))) = {	\
		.modname = "mymod", .function = fn, .filename = "dd.c",	\
		.format = f, .lineno = line, .class_id = 63,		\
		.flags = 255, .print_prefix_len = plen,			\
		.print_kind = kind, DD_KEY };

ENTRY(1, "\0013", "mymod: entry one %s\n", 0)
ENTRY(2, 0, "\0016entry two\n", "sub: ")

/* pr_debug() with pr_fmt(fmt) "mymod: " fmt */
DD(1, 1, 7, "mymod: " "hello %d\n" + 7, "dd_probe", 10)
/* a hex dump: no line */
DD(2, 0, 0, "hexdump: ", "dd_dump", 20)
/* dev_dbg() */
DD(3, 2, 0, "dev thing %s\n", "dd_dev", 30)
/* netdev_dbg() with a pr_fmt(), on the largest line number */
DD(4, 3, 7, "mymod: " "link up\n" + 7, "dd_net", 262143)
/* the format as it is: a level in it is neither parsed nor cut */
DD(5, 1, 0, "\0014level kept \"q\"\t\n", "dd_raw", 50)

#ifdef EXEC
/* ld defines the bounds of a section named like a C identifier, if used */
extern struct _ddebug __start___dyndbg[], __stop___dyndbg[];
struct _ddebug *dd_bounds[] __attribute__((used)) = {
	__start___dyndbg, __stop___dyndbg };
#endif
