/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading printk index files (kernel/printk/index.c, pi_show()).
 *
 * Kernel layout, one file per module, the file name is the module name:
 *   # <level/flags> filename:line function "format"
 *   <3> init/main.c:1559 console_on_rootfs "Warning: ...\n"
 *
 * Combined layout, written by "printk-index list" for several modules so
 * that a whole system fits in one snapshot file; every entry line starts
 * with the module name:
 *   # module <level/flags> filename:line function "format"
 *   vmlinux <3> init/main.c:1559 console_on_rootfs "Warning: ...\n"
 */
#ifndef PI_INDEX_H
#define PI_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "json_writer.h"
#include "util.h"

#define PI_HEADER "# <level/flags> filename:line function \"format\""
#define PI_HEADER_COMBINED "# module <level/flags> filename:line function \"format\""

/* Longest line accepted; kernel formats are far shorter (LOG_LINE_MAX is
 * 1024), anything above is garbage and is reported instead of slurped. */
#define PI_MAX_LINE (1024 * 1024)

#define PI_LEVEL_DEFAULT (-1)	/* LOGLEVEL_DEFAULT: no KERN_<LEVEL> given */

struct pi_entry {
	const char *module;	/* "vmlinux" or module name */
	int level;		/* PI_LEVEL_DEFAULT or 0..7 */
	bool cont;		/* KERN_CONT */
	const char *file;
	unsigned int line;
	const char *func;
	const char *fmt;	/* unescaped; NUL-terminated, fmt_len is exact */
	size_t fmt_len;
};

enum pi_layout { PI_LAYOUT_KERNEL, PI_LAYOUT_COMBINED };

struct pi_index {
	struct pi_entry *v;
	size_t n, cap;
	struct arena arena;
	/* layout of the last file read; list uses it to round-trip */
	enum pi_layout layout;
};

void pi_index_init(struct pi_index *idx);
void pi_index_free(struct pi_index *idx);

/* Append a copy of e (its strings must live in idx->arena or longer). */
void pi_index_push(struct pi_index *idx, const struct pi_entry *e);

/*
 * Parse one entry line (without its '\n') of the kernel layout and append
 * it to idx. module is copied. Returns 0, or -1 with err set (the message
 * names the problem, not the file: the caller knows where it read from).
 */
int pi_parse_entry(struct pi_index *idx, const char *module,
		   const char *line, size_t len, struct pi_err *err);

/* Same for a combined-layout line ("module <level> ..."). */
int pi_parse_combined_entry(struct pi_index *idx, const char *line,
			    size_t len, struct pi_err *err);

/*
 * Read an index file (either layout) from f; name is used for messages
 * and, for the kernel layout, its base name is the module name.
 * Errors read "NAME:LINE: what is wrong".
 */
int pi_load_stream(struct pi_index *idx, FILE *f, const char *name,
		   struct pi_err *err);

/*
 * The text a matcher models for e: its format, except that the prefix of a
 * netdev_printk() entry, "%s %s %s%s: " (driver, parent device, name and
 * state), is modelled as "%s%s: ". __netdev_printk() (net/core/dev.c)
 * prints that full prefix only for a device with a parent; for one without
 * (veth, bridge, bond, tun) it prints "%s%s: " and for no device
 * "(NULL net_device): ", and "%s%s: " prints all three.
 */
const char *pi_entry_model(const struct pi_entry *e, size_t *len);

/* One entry as a JSON object, and its fields alone (in an object the
 * caller adds to): module, level, cont, file, line, function, format. */
void pi_json_entry(json_writer_t *w, const struct pi_entry *e);
void pi_json_entry_fields(json_writer_t *w, const struct pi_entry *e);

/* Write one entry in the kernel layout (with newline). */
void pi_print_entry(FILE *f, const struct pi_entry *e);

/* "<3>", "<c>", "<4,c>" or "<-1>" */
void pi_level_str(const struct pi_entry *e, char buf[16]);

#endif
