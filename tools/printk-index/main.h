/* SPDX-License-Identifier: GPL-2.0 */
/* What main.c and the subcommands share: the global options and the
 * subcommands' entry points (common.c has their helpers). */
#ifndef PI_MAIN_H
#define PI_MAIN_H

#include <stdbool.h>

#include "json_writer.h"
#include "util.h"

#define PI_VERSION "1.0"

/* Global options, set by main() and by each subcommand's own parser. */
extern bool json_output;
extern bool pretty_output;
extern int verbose;
extern json_writer_t *json_wtr;

/* Subcommands: argv[0] is the subcommand name; return an exit code. */
int do_list(int argc, char **argv);
int do_match(int argc, char **argv);
int do_match_follow(int argc, char **argv);	/* follow.c */
int do_diff(int argc, char **argv);
int do_extract(int argc, char **argv);
int do_check(int argc, char **argv);

/* Open/close the JSON writer on stdout when -j/-p is in effect. */
void json_begin(void);
void json_end(void);

/*
 * The options every subcommand takes, -j, -p and -v: their long forms for
 * a subcommand's struct option array, and common_opt() for the getopt
 * loop, which sets the globals above and says whether opt was one of them.
 */
#define COMMON_LONG_OPTS \
	{ "json", no_argument, NULL, 'j' }, \
	{ "pretty", no_argument, NULL, 'p' }, \
	{ "verbose", no_argument, NULL, 'v' }
bool common_opt(int opt);

/* Only -j, -p, -v after the subcommand name; -1 on a usage error. */
int parse_common_opts(int argc, char **argv, const char *usage);

#endif
