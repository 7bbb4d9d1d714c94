/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The body of four small modules, pi_stress_a.c ... pi_stress_d.c, for the
 * stress test: more modules loading and unloading at once than one gives.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/module.h>
#include <linux/printk.h>

static int __init pi_stress_init(void)
{
	pr_info("loaded\n");
	return 0;
}

static void __exit pi_stress_exit(void)
{
	pr_info("unloaded\n");
}

module_init(pi_stress_init);
module_exit(pi_stress_exit);
MODULE_DESCRIPTION("Printk index stress test module");
MODULE_LICENSE("GPL");
