// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>

#include "test.h"

int t_pass, t_fail;
const char *t_sample;
const char *t_binary;
const char *t_kbuild;
const char *t_testdir;
const char *t_tmpdir;

int main(int argc, char **argv)
{
	t_sample = argc > 1 ? argv[1] : "../../../shared/data/x86_64_defconfig-6.1.192-vmlinux.printk_index";
	t_binary = argc > 2 ? argv[2] : "./printk-index";
	t_kbuild = argc > 3 ? argv[3] : "../../build/kernel-default";
	t_testdir = argc > 4 ? argv[4] : "../../test";

	test_escape();
	test_index();
	test_ere();
	test_fmt();
	test_dp();
	test_logline();
	test_logline_input();
	test_shapes();
	test_matcher();
	test_follow();
	test_check();
	test_cli();
	test_elf();
	fflush(stderr);
	printf("%d passed, %d failed\n", t_pass, t_fail);
	return t_fail ? 1 : 0;
}
