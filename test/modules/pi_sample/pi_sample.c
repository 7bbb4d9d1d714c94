// SPDX-License-Identifier: GPL-2.0
/*
 * A sample module for the printk index tests: a realistic mix of the ways a
 * driver prints.  The "index:" comment on each call states its index line
 * but for file:line, which is where it sits (test/host/pi_source_check.py).
 *
 * printk_deferred() is missing: 6.1 does not export it to modules; the guest
 * tests look for its vmlinux call sites instead.
 *
 * fail_init=1 makes the module's init fail after it has printed, to check
 * that a module that never went live leaves no index file behind.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/device.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>

static bool fail_init;
module_param(fail_init, bool, 0444);
MODULE_PARM_DESC(fail_init, "Fail the module's init (to test cleanup)");

static struct device *pi_sample_dev;

/*
 * Over 5 KiB of format: longer than any line printk emits, and longer than a
 * page, so that a read of the index file starts and ends inside one line.
 */
#define PI_64	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define PI_1K	PI_64 PI_64 PI_64 PI_64 PI_64 PI_64 PI_64 PI_64 \
		PI_64 PI_64 PI_64 PI_64 PI_64 PI_64 PI_64 PI_64
#define PI_LONG_FORMAT \
	"a very long format: " PI_1K PI_1K PI_1K PI_1K PI_1K "end %d\n"

static void pi_sample_levels(int n)
{
	pr_emerg("emergency %d\n", n);	/* index: <0> pi_sample_levels "pi_sample: emergency %d\n" */
	pr_alert("alert %d\n", n);	/* index: <1> pi_sample_levels "pi_sample: alert %d\n" */
	pr_crit("critical %d\n", n);	/* index: <2> pi_sample_levels "pi_sample: critical %d\n" */
	pr_err("error %d\n", n);	/* index: <3> pi_sample_levels "pi_sample: error %d\n" */
	pr_warn("warning %d\n", n);	/* index: <4> pi_sample_levels "pi_sample: warning %d\n" */
	pr_notice("notice %d\n", n);	/* index: <5> pi_sample_levels "pi_sample: notice %d\n" */
	pr_info("info %d\n", n);	/* index: <6> pi_sample_levels "pi_sample: info %d\n" */
	printk("no level %d\n", n);	/* index: <-1> pi_sample_levels "no level %d\n" */
	printk(KERN_DEFAULT "default level %d\n", n);	/* index: <-1> pi_sample_levels "default level %d\n" */
}

static void pi_sample_continuation(int n)
{
	pr_info("counting:");	/* index: <6> pi_sample_continuation "pi_sample: counting:" */
	pr_cont(" %d", n);	/* index: <c> pi_sample_continuation " %d" */
	printk(KERN_CONT KERN_INFO " done\n");	/* index: <6,c> pi_sample_continuation " done\n" */
}

static void pi_sample_escapes(void)
{
	pr_info("quotes \"%s\" backslash \\ tab\tend\n", "q");	/* index: <6> pi_sample_escapes "pi_sample: quotes \"%s\" backslash \\ tab\tend\n" */
	pr_info("bell\a escape\e vtab\v formfeed\f return\r high \xe9\xff\n");	/* index: <6> pi_sample_escapes "pi_sample: bell\a escape\e vtab\v formfeed\f return\r high \351\377\n" */
	pr_info("percent 100%% of %-5s|%05x\n", "width", 42);	/* index: <6> pi_sample_escapes "pi_sample: percent 100%% of %-5s|%05x\n" */
}

static void pi_sample_device(struct device *dev)
{
	dev_emerg(dev, "device emergency\n");	/* index: <0> pi_sample_device "%s %s: device emergency\n" */
	dev_crit(dev, "device critical %d\n", 1);	/* index: <2> pi_sample_device "%s %s: device critical %d\n" */
	dev_err(dev, "device error %s\n", "x");	/* index: <3> pi_sample_device "%s %s: device error %s\n" */
	dev_warn(dev, "device warning\n");	/* index: <4> pi_sample_device "%s %s: device warning\n" */
	dev_notice(dev, "device notice\n");	/* index: <5> pi_sample_device "%s %s: device notice\n" */
	dev_info(dev, "device info %pe\n", ERR_PTR(-ENOMEM));	/* index: <6> pi_sample_device "%s %s: device info %pe\n" */
	dev_printk(KERN_ERR, dev, "dev_printk with level\n");	/* index: <3> pi_sample_device "%s %s: dev_printk with level\n" */
	dev_err_probe(dev, -ENODEV, "probe failed, %s\n", "no device");	/* index: <3> pi_sample_device "%s %s: error %pe: probe failed, %s\n" */
	dev_warn_probe(dev, -EIO, "probe warning\n");	/* index: <4> pi_sample_device "%s %s: error %pe: probe warning\n" */
}

/*
 * A WARN*() is indexed whether it fires or not: these never do, as a WARNING
 * in the kernel log fails the guest tests.
 */
static void pi_sample_warnings(int n)
{
	WARN(n < 0, "pi_sample: negative count %d\n", n);	/* index: <-1> pi_sample_warnings "pi_sample: negative count %d\n" */
	WARN_ONCE(n < 0, "pi_sample: negative count %d, once\n", n);	/* index: <-1> pi_sample_warnings "pi_sample: negative count %d, once\n" */
	WARN_RATELIMIT(n < 0, "pi_sample: negative count %d, ratelimited\n", n);	/* index: <-1> pi_sample_warnings "pi_sample: negative count %d, ratelimited\n" */
}

/*
 * Every variant that checks this module's index has CONFIG_NET
 * (kconfig-fragments/default.config), so one golden file fits them all.
 */
#if IS_ENABLED(CONFIG_NET)
struct pi_sample_priv {
	u32 msg_enable;
};

static void pi_sample_netdev(struct net_device *ndev, struct pi_sample_priv *priv)
{
	netdev_emerg(ndev, "netdev emergency\n");	/* index: <0> pi_sample_netdev "%s %s %s%s: netdev emergency\n" */
	netdev_alert(ndev, "netdev alert\n");	/* index: <1> pi_sample_netdev "%s %s %s%s: netdev alert\n" */
	netdev_crit(ndev, "netdev critical %d\n", 1);	/* index: <2> pi_sample_netdev "%s %s %s%s: netdev critical %d\n" */
	netdev_err(ndev, "netdev error %s\n", "x");	/* index: <3> pi_sample_netdev "%s %s %s%s: netdev error %s\n" */
	netdev_warn(ndev, "netdev warning\n");	/* index: <4> pi_sample_netdev "%s %s %s%s: netdev warning\n" */
	netdev_notice(ndev, "netdev notice\n");	/* index: <5> pi_sample_netdev "%s %s %s%s: netdev notice\n" */
	netdev_info(ndev, "netdev info %pe\n", ERR_PTR(-ENOMEM));	/* index: <6> pi_sample_netdev "%s %s %s%s: netdev info %pe\n" */
	netdev_printk(KERN_ERR, ndev, "netdev_printk with level\n");	/* index: <3> pi_sample_netdev "%s %s %s%s: netdev_printk with level\n" */
	netif_info(priv, probe, ndev, "netif info\n");	/* index: <6> pi_sample_netdev "%s %s %s%s: netif info\n" */
	/* Compiled out without DEBUG or dynamic debug; with dynamic debug, indexed. */
	netdev_dbg(ndev, "netdev debug, compiled out\n");	/* index: dyndbg <7> pi_sample_netdev "%s %s %s%s: netdev debug, compiled out\n" */
	netif_dbg(priv, probe, ndev, "netif debug, compiled out\n");	/* index: dyndbg <7> pi_sample_netdev "%s %s %s%s: netif debug, compiled out\n" */
}

static void pi_sample_netdev_setup(struct net_device *ndev)
{
}

/* An interface that is never registered, under the module's root device. */
static int pi_sample_netdevs(void)
{
	struct pi_sample_priv priv = { .msg_enable = NETIF_MSG_PROBE };
	struct net_device *ndev;

	ndev = alloc_netdev(0, "pisample0", NET_NAME_PREDICTABLE, pi_sample_netdev_setup);
	if (!ndev)
		return -ENOMEM;
	SET_NETDEV_DEV(ndev, pi_sample_dev);
	pi_sample_netdev(ndev, &priv);
	free_netdev(ndev);
	return 0;
}
#else
static int pi_sample_netdevs(void)
{
	return 0;
}
#endif

static int __init pi_sample_init(void)
{
	int err;

	pr_info("loading (fail_init=%d)\n", fail_init);	/* index: <6> pi_sample_init "pi_sample: loading (fail_init=%d)\n" */
	pi_sample_levels(1);
	pi_sample_continuation(2);
	pi_sample_escapes();
	pr_info(PI_LONG_FORMAT, 3);	/* index: <6> pi_sample_init "pi_sample: a very long format: {0123456789abcdef*320}end %d\n" */

	pi_sample_dev = root_device_register("pi_sample");
	if (IS_ERR(pi_sample_dev))
		return PTR_ERR(pi_sample_dev);
	pi_sample_device(pi_sample_dev);
	pi_sample_warnings(4);
	err = pi_sample_netdevs();
	if (err) {
		root_device_unregister(pi_sample_dev);
		return err;
	}

	if (fail_init) {
		pr_err("failing init as asked\n");	/* index: <3> pi_sample_init "pi_sample: failing init as asked\n" */
		root_device_unregister(pi_sample_dev);
		return -ENODEV;
	}
	return 0;
}

static void __exit pi_sample_exit(void)
{
	root_device_unregister(pi_sample_dev);
	pr_info("unloaded\n");	/* index: <6> pi_sample_exit "pi_sample: unloaded\n" */
}

module_init(pi_sample_init);
module_exit(pi_sample_exit);
MODULE_DESCRIPTION("Sample printk calls for the printk index tests");
MODULE_LICENSE("GPL");
