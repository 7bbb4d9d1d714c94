// SPDX-License-Identifier: GPL-2.0
/*
 * printk-index - read, match and compare the kernel's printk format index
 * (CONFIG_PRINTK_INDEX). Layout follows bpftool: one file per subcommand,
 * a dispatch table here, shared JSON writer.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "main.h"

static int do_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr,
		"Usage: printk-index [OPTIONS] COMMAND [ARGS]\n"
		"\n"
		"  printk-index list  [-j] [SOURCE...]\n"
		"  printk-index match [-j] [-v] [--format NAME] [--index SOURCE] [FILE|-]\n"
		"  printk-index match --follow [--from-start] [--no-wait] [--index SOURCE] [/dev/kmsg|FILE|-]\n"
		"  printk-index diff  [-j] [-v] OLD NEW\n"
		"  printk-index extract [-j] [-o OUTDIR] vmlinux|module.ko|build-dir...\n"
		"  printk-index check [-j] [-v] [--strict] [--anchored] [--witness] [--index SOURCE] RULES...\n"
		"  printk-index help\n"
		"\n"
		"SOURCE is a printk index file or a folder of them, or vmlinux or a\n"
		"module .ko (read offline, like extract); the default is\n"
		"/sys/kernel/printk_index, then /sys/kernel/debug/printk/index.\n"
		"\n"
		"OPTIONS: -j|--json  -p|--pretty  -v|--verbose  -h|--help  -V|--version\n"
		"Exit status: 0 ok, 1 diff found removed/changed formats or check found\n"
		"a stale rule (--strict: or unknown), 2 error.\n"
		"See printk-index(8).\n");
	return EXIT_ERR;
}

/*
 * The subcommands.  An entry with a flag is taken when its command is
 * given with that option ("match --follow": another loop, other
 * options); its name's entry without a flag otherwise.
 */
static const struct cmd {
	const char *name;
	const char *flag;
	int (*func)(int argc, char **argv);
	const char *usage;	/* for "COMMAND --help" */
} cmds[] = {
	{ "list", NULL, do_list, "printk-index list  [-j] [SOURCE...]\n" },
	{ "match", "--follow", do_match_follow,
	  "printk-index match --follow [--from-start] [--no-wait] [--index SOURCE] [/dev/kmsg|FILE|-]\n" },
	{ "match", NULL, do_match,
	  "printk-index match [-j] [-v] [--format NAME] [--index SOURCE] [FILE|-]\n"
	  "printk-index match --follow [--from-start] [--no-wait] [--index SOURCE] [/dev/kmsg|FILE|-]\n"
	  "NAME: auto (default), raw, dmesg, dmesg-r, dmesg-x, kmsg, journal, journal-json,\n"
	  "      syslog, rfc5424 (aliases: notime, cat, json, kern.log, rfc3164, short,\n"
	  "      netconsole, ext-netconsole)\n" },
	{ "diff", NULL, do_diff, "printk-index diff  [-j] [-v] OLD NEW\n" },
	{ "extract", NULL, do_extract,
	  "printk-index extract [-j] [-o OUTDIR] vmlinux|module.ko|build-dir...\n" },
	/* check prints its own --help: the verdicts with the usage */
	{ "check", NULL, do_check, NULL },
	{ "help", NULL, do_help, NULL },
};

/* Is opt among the subcommand's arguments (before any "--")? */
static bool has_arg(int argc, char **argv, const char *opt)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], opt))
			return true;
	return false;
}

/*
 * The entry of argv[0]: bpftool accepts unambiguous prefixes ("li" for
 * "list"); so do we.  Of the name's entries, the one whose flag is among
 * the arguments, else the one without a flag.
 */
static const struct cmd *find_cmd(int argc, char **argv)
{
	const char *name = argv[0], *full = NULL;
	const struct cmd *plain = NULL;
	size_t i, len = strlen(name);

	for (i = 0; i < ARRAY_SIZE(cmds) && len; i++) {
		if (!strcmp(cmds[i].name, name)) {
			full = name;
			break;
		}
		if (!strncmp(cmds[i].name, name, len)) {
			if (full && strcmp(full, cmds[i].name))
				return NULL;	/* a prefix of two commands */
			full = cmds[i].name;
		}
	}
	for (i = 0; full && i < ARRAY_SIZE(cmds); i++) {
		if (strcmp(cmds[i].name, full))
			continue;
		if (!cmds[i].flag)
			plain = &cmds[i];
		else if (has_arg(argc, argv, cmds[i].flag))
			return &cmds[i];
	}
	return plain;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	const struct cmd *cmd;
	int opt, ret;

	/* '+': stop at the subcommand, its options are its own */
	while ((opt = getopt_long(argc, argv, "+jpvhV", opts, NULL)) >= 0) {
		switch (opt) {
		case 'j': json_output = true; break;
		case 'p': json_output = pretty_output = true; break;
		case 'v': verbose++; break;
		case 'V': printf("printk-index v%s\n", PI_VERSION); return EXIT_OK;
		case 'h': return do_help(0, NULL), EXIT_OK;
		default: return do_help(0, NULL);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1) {
		p_err("no command given");
		return do_help(0, NULL);
	}
	cmd = find_cmd(argc, argv);
	if (!cmd) {
		p_err("unknown or ambiguous command '%s'", argv[0]);
		return do_help(0, NULL);
	}
	if (cmd->usage && (has_arg(argc, argv, "-h") || has_arg(argc, argv, "--help"))) {
		printf("Usage: %sSee printk-index(8).\n", cmd->usage);
		return EXIT_OK;
	}
	optind = 0;	/* full getopt reset for the subcommand */
	ret = cmd->func(argc, argv);
	if (fflush(stdout) || ferror(stdout)) {
		p_err("error writing output");
		return EXIT_ERR;
	}
	return ret;
}
