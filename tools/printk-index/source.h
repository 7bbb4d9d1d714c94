/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading an index from where it is: a file, a pipe, a folder, an ELF
 * object or the running system (source.c).
 */
#ifndef PI_SOURCE_H
#define PI_SOURCE_H

#include "index.h"

/* A file (or pipe) or a folder of index files (regular files, sorted by
 * name).  A file starting with the ELF magic is read as vmlinux or a
 * module (elf_index.h). */
int pi_load_source(struct pi_index *idx, const char *path, struct pi_err *err);

/* The system's index: /sys/kernel/printk_index, then debugfs. */
int pi_load_default(struct pi_index *idx, const char **used, struct pi_err *err);

/* --index SRC when given (pi_load_source()), else the system's; *used is
 * what was read. */
int pi_load_index(struct pi_index *idx, const char *src, const char **used,
		  struct pi_err *err);

#endif
