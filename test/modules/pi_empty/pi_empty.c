// SPDX-License-Identifier: GPL-2.0
/*
 * A module that prints nothing: its index file holds only the header line.
 */
#include <linux/init.h>
#include <linux/module.h>

static int __init pi_empty_init(void)
{
	return 0;
}

static void __exit pi_empty_exit(void)
{
}

module_init(pi_empty_init);
module_exit(pi_empty_exit);
MODULE_DESCRIPTION("A module without printk calls, for the printk index tests");
MODULE_LICENSE("GPL");
