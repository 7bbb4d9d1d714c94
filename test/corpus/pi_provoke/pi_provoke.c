// SPDX-License-Identifier: GPL-2.0
/*
 * Provoke, on request, the kernel reports monitoring looks for, so that
 * 'make corpus' can record them as the kernel prints them: a WARN(), a
 * lockdep circular locking report, a KASAN out-of-bounds report, a hung
 * task, and a netdev_warn() without a device (what __netdev_printk()
 * prints for a NULL net_device, which no QEMU driver path reaches).  Loaded without parameters it does nothing.  Never loaded by the
 * test runs (whose splat check would fail them), only by
 * test/corpus/provoke.sh inside its guest.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/slab.h>

static bool warn;
module_param(warn, bool, 0444);
MODULE_PARM_DESC(warn, "WARN() once at load");
static bool lockdep;
module_param(lockdep, bool, 0444);
MODULE_PARM_DESC(lockdep, "take two mutexes in both orders (lockdep report)");
static bool kasan;
module_param(kasan, bool, 0444);
MODULE_PARM_DESC(kasan, "read one byte past a kmalloc()ed object (KASAN report)");
static bool hang;
module_param(hang, bool, 0444);
MODULE_PARM_DESC(hang, "start a thread that waits uninterruptibly until unload");
static bool null_netdev;
module_param(null_netdev, bool, 0444);
MODULE_PARM_DESC(null_netdev, "netdev_warn() with no device");

static DEFINE_MUTEX(pi_lock_a);
static DEFINE_MUTEX(pi_lock_b);
static DECLARE_COMPLETION(pi_release);
static struct task_struct *pi_sleeper;

/* Blocked in D state until unload, for khungtaskd to report. */
static int pi_sleep(void *unused)
{
	wait_for_completion(&pi_release);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* A-then-B, then B-then-A: lockdep reports the cycle on the second. */
static void pi_lock_both_orders(void)
{
	mutex_lock(&pi_lock_a);
	mutex_lock(&pi_lock_b);
	mutex_unlock(&pi_lock_b);
	mutex_unlock(&pi_lock_a);

	mutex_lock(&pi_lock_b);
	mutex_lock(&pi_lock_a);
	mutex_unlock(&pi_lock_a);
	mutex_unlock(&pi_lock_b);
}

static void pi_read_past_end(void)
{
	char *p = kmalloc(16, GFP_KERNEL);

	if (!p)
		return;
	/* hidden from the compiler, which could drop a read it sees is bad */
	OPTIMIZER_HIDE_VAR(p);
	pr_info("the byte after the object: %d\n", READ_ONCE(p[16]));
	kfree(p);
}

static int __init pi_provoke_init(void)
{
	if (warn)
		WARN(1, "pi_provoke: a warning on purpose (%s)\n", "warn=1");
	if (null_netdev)
		netdev_warn(NULL, "pi_provoke: a message about no device\n");
	if (lockdep)
		pi_lock_both_orders();
	if (kasan)
		pi_read_past_end();
	if (hang) {
		pi_sleeper = kthread_run(pi_sleep, NULL, "pi_provoke_hang");
		if (IS_ERR(pi_sleeper))
			return PTR_ERR(pi_sleeper);
	}
	return 0;
}

static void __exit pi_provoke_exit(void)
{
	if (pi_sleeper) {
		complete(&pi_release);
		kthread_stop(pi_sleeper);
	}
}

module_init(pi_provoke_init);
module_exit(pi_provoke_exit);
MODULE_DESCRIPTION("Provokes kernel reports for the printk-index log corpus");
MODULE_LICENSE("GPL");
