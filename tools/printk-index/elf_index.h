/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The printk index of an ELF object, read offline: vmlinux (ET_EXEC,
 * pointers are link-time addresses, resolved through the section headers)
 * or a module .ko (ET_REL, pointers are RELA relocations against sections,
 * applied here). The result is what the running kernel shows in
 * /sys/kernel/printk_index/<name> for the object (kernel/printk/index.c
 * pi_entry_format()): level and KERN_CONT parsed as printk_parse_prefix()
 * does, the subsystem prefix prepended to the format, entries without a
 * constant format left out, section order kept. After the entries, one
 * line per dynamic debug call site (pr_debug(), dev_dbg(), netdev_dbg()),
 * rendered from its struct _ddebug descriptor in array order: the
 * __dyndbg section of a module, [__start___dyndbg, __stop___dyndbg) of
 * vmlinux; descriptors of print_kind 0 have no line.
 *
 * Only ELFCLASS64 little-endian x86_64 objects are understood, where
 * struct pi_entry (include/linux/printk.h, __packed) is
 *   fmt@0 func@8 file@16 line@24 (u32) level@28 subsys_fmt_prefix@36
 * and struct _ddebug (include/linux/dynamic_debug.h) is
 *   modname@0 function@8 filename@16 format@24 lineno:18@32
 *   print_prefix_len:14 print_kind:2 @36, its size (40, or 56 with
 *   CONFIG_JUMP_LABEL) taken from the size of its symbols, or in a
 *   module stripped of them from the relocations of __dyndbg (the four
 *   pointers of each descriptor, nothing after them).
 *
 * Built with PI_NO_ELF, there is no libelf dependency and loading an ELF
 * file is an error saying so.
 */
#ifndef PI_ELF_INDEX_H
#define PI_ELF_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "index.h"

/* Starts with the ELF magic? */
bool pi_is_elf(const void *data, size_t n);

/*
 * Append the entries of the ELF image data[0..size) to idx. name is the
 * file name, for messages and (without ".ko") the fallback module name.
 * data must stay valid only during the call. A module (ET_REL) without a
 * .printk_index section has no entries (but maybe call sites), as the
 * kernel shows it; vmlinux without one is an error (CONFIG_PRINTK_INDEX=n).
 * Returns 0, or -1 with err set to "NAME: what is wrong". Never crashes on
 * bad input.
 */
int pi_elf_load_mem(struct pi_index *idx, const char *name, const void *data,
		    size_t size, const char **module, struct pi_err *err);

/* The same on the caller's buffer, which libelf reads in place (no copy:
 * a vmlinux is tens of megabytes); it is the caller's to free after. */
int pi_elf_load_buf(struct pi_index *idx, const char *name, char *buf, size_t size,
		    const char **module, struct pi_err *err);

/* The same for a file. *module (if module is not NULL) is set to the
 * object's name, "vmlinux" or the module's, kept in idx->arena: a module
 * without printk calls has no entries but still a (header-only) file. */
int pi_elf_load_file(struct pi_index *idx, const char *path, const char **module,
		     struct pi_err *err);

/* false when built with PI_NO_ELF */
bool pi_elf_supported(void);

#endif
