// SPDX-License-Identifier: GPL-2.0
/*
 * A sample module for the printk index tests: a realistic mix of the ways a
 * driver prints, each of which must show up in the index exactly as
 * pi_sample.golden says.
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
	pr_emerg("emergency %d\n", n);
	pr_alert("alert %d\n", n);
	pr_crit("critical %d\n", n);
	pr_err("error %d\n", n);
	pr_warn("warning %d\n", n);
	pr_notice("notice %d\n", n);
	pr_info("info %d\n", n);
	printk("no level %d\n", n);
	printk(KERN_DEFAULT "default level %d\n", n);
}

static void pi_sample_continuation(int n)
{
	pr_info("counting:");
	pr_cont(" %d", n);
	printk(KERN_CONT KERN_INFO " done\n");
}

static void pi_sample_escapes(void)
{
	pr_info("quotes \"%s\" backslash \\ tab\tend\n", "q");
	pr_info("bell\a escape\e vtab\v formfeed\f return\r high \xe9\xff\n");
	pr_info("percent 100%% of %-5s|%05x\n", "width", 42);
}

static void pi_sample_device(struct device *dev)
{
	dev_emerg(dev, "device emergency\n");
	dev_crit(dev, "device critical %d\n", 1);
	dev_err(dev, "device error %s\n", "x");
	dev_warn(dev, "device warning\n");
	dev_notice(dev, "device notice\n");
	dev_info(dev, "device info %pe\n", ERR_PTR(-ENOMEM));
	dev_printk(KERN_ERR, dev, "dev_printk with level\n");
}

/*
 * A WARN*() is indexed whether it fires or not: these never do, as a WARNING
 * in the kernel log fails the guest tests.
 */
static void pi_sample_warnings(int n)
{
	WARN(n < 0, "pi_sample: negative count %d\n", n);
	WARN_ONCE(n < 0, "pi_sample: negative count %d, once\n", n);
	WARN_RATELIMIT(n < 0, "pi_sample: negative count %d, ratelimited\n", n);
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
	netdev_emerg(ndev, "netdev emergency\n");
	netdev_alert(ndev, "netdev alert\n");
	netdev_crit(ndev, "netdev critical %d\n", 1);
	netdev_err(ndev, "netdev error %s\n", "x");
	netdev_warn(ndev, "netdev warning\n");
	netdev_notice(ndev, "netdev notice\n");
	netdev_info(ndev, "netdev info %pe\n", ERR_PTR(-ENOMEM));
	netdev_printk(KERN_ERR, ndev, "netdev_printk with level\n");
	netif_info(priv, probe, ndev, "netif info\n");
	/* Compiled out (no DEBUG, no dynamic debug): not in the index. */
	netdev_dbg(ndev, "netdev debug, compiled out\n");
	netif_dbg(priv, probe, ndev, "netif debug, compiled out\n");
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

	pr_info("loading (fail_init=%d)\n", fail_init);
	pi_sample_levels(1);
	pi_sample_continuation(2);
	pi_sample_escapes();
	pr_info(PI_LONG_FORMAT, 3);

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
		pr_err("failing init as asked\n");
		root_device_unregister(pi_sample_dev);
		return -ENODEV;
	}
	return 0;
}

static void __exit pi_sample_exit(void)
{
	root_device_unregister(pi_sample_dev);
	pr_info("unloaded\n");
}

module_init(pi_sample_init);
module_exit(pi_sample_exit);
MODULE_DESCRIPTION("Sample printk calls for the printk index tests");
MODULE_LICENSE("GPL");
