// SPDX-License-Identifier: GPL-2.0
/*
 * A module whose name has the maximum length, MODULE_NAME_LEN - 1 = 55
 * characters on 64-bit (the name comes from the object file, see Kbuild).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>

static int __init pi_longname_init(void)
{
	pr_info("loaded\n");
	return 0;
}

static void __exit pi_longname_exit(void)
{
	pr_info("unloaded\n");
}

module_init(pi_longname_init);
module_exit(pi_longname_exit);
MODULE_DESCRIPTION("A module with the longest name, for the printk index tests");
MODULE_LICENSE("GPL");
