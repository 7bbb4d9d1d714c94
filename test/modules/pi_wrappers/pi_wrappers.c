// SPDX-License-Identifier: GPL-2.0
/*
 * Calls of the wrappers that patches 14 to 18 of the series index, for the
 * drivers variant, which has ACPI, DRM and InfiniBand (t-drivers.sh loads
 * it and checks its index lines and the attribution of what it prints).
 * In a kernel without one of them, the calls of that family are left out.
 * The "index:" comment on each call states its index line but for
 * file:line, which is where it sits.
 *
 * The ibdev calls are not made: an ib_device with a parent needs a driver.
 * Their entries are made all the same, since pi_wrappers_ibdev() is not
 * static.  The debug calls have entries under dynamic debug, which the
 * drivers variant has; acpi_handle_debug()'s prints pr_fmt(fmt).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/acpi.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/init.h>
#include <linux/module.h>
#if IS_ENABLED(CONFIG_DRM)
#include <drm/drm_print.h>
#endif
#if IS_ENABLED(CONFIG_INFINIBAND)
#include <rdma/ib_verbs.h>
#endif

static struct device *pi_wrappers_dev;

static void pi_wrappers_probe(struct device *dev)
{
	dev_err_probe(dev, -EINVAL, "bad parameter %d\n", 1);	/* index: <3> pi_wrappers_probe "%s %s: error %pe: bad parameter %d\n" */
	dev_warn_probe(dev, -ETIMEDOUT, "no answer\n");	/* index: <4> pi_wrappers_probe "%s %s: error %pe: no answer\n" */
}

#if IS_ENABLED(CONFIG_ACPI)
ACPI_MODULE_NAME("pi_wrappers");

static void pi_wrappers_acpi(void)
{
	ACPI_INFO(("pi_wrappers: acpica info %u", 2));	/* index: <6> pi_wrappers_acpi "ACPI: pi_wrappers: acpica info %u\n" */
	ACPI_WARNING((AE_INFO, "pi_wrappers: acpica warning"));	/* index: <4> pi_wrappers_acpi "ACPI Warning: pi_wrappers: acpica warning (%8.8X/%s-%u)\n" */
	ACPI_ERROR((AE_INFO, "pi_wrappers: acpica error [%4.4s]", "ABCD"));	/* index: <3> pi_wrappers_acpi "ACPI Error: pi_wrappers: acpica error [%4.4s] (%8.8X/%s-%u)\n" */
	ACPI_EXCEPTION((AE_INFO, AE_NOT_FOUND, "pi_wrappers: acpica exception"));	/* index: <3> pi_wrappers_acpi "ACPI Error: %s, pi_wrappers: acpica exception (%8.8X/%s-%u)\n" */
	ACPI_BIOS_ERROR((AE_INFO, "pi_wrappers: bios error"));	/* index: <3> pi_wrappers_acpi "ACPI BIOS Error (bug): pi_wrappers: bios error (%8.8X/%s-%u)\n" */
	ACPI_BIOS_WARNING((AE_INFO, "pi_wrappers: bios warning %d", 3));	/* index: <4> pi_wrappers_acpi "ACPI BIOS Warning (bug): pi_wrappers: bios warning %d (%8.8X/%s-%u)\n" */
	acpi_handle_info(ACPI_ROOT_OBJECT, "pi_wrappers: handle info %d\n", 4);	/* index: <6> pi_wrappers_acpi "ACPI: %s: pi_wrappers: handle info %d\n" */
	acpi_handle_err(ACPI_ROOT_OBJECT, "pi_wrappers: handle error\n");	/* index: <3> pi_wrappers_acpi "ACPI: %s: pi_wrappers: handle error\n" */
	acpi_handle_debug(ACPI_ROOT_OBJECT, "handle debug %d\n", 7);	/* index: <7> pi_wrappers_acpi "ACPI: %s: pi_wrappers: handle debug %d\n" */
}
#else
static void pi_wrappers_acpi(void)
{
}
#endif

#if IS_ENABLED(CONFIG_DRM)
static void pi_wrappers_drm(struct device *dev)
{
	DRM_ERROR("pi_wrappers: drm error %d\n", 5);	/* index: <3> pi_wrappers_drm "[drm:%ps] *ERROR* pi_wrappers: drm error %d\n" */
	DRM_DEV_ERROR(dev, "drm device error\n");	/* index: <3> pi_wrappers_drm "%s %s: [drm:%ps] *ERROR* drm device error\n" */
	DRM_DEV_INFO(dev, "drm device info %s\n", "x");	/* index: <6> pi_wrappers_drm "%s %s: [drm:%ps] drm device info %s\n" */
}
#else
static void pi_wrappers_drm(struct device *dev)
{
}
#endif

#if IS_ENABLED(CONFIG_INFINIBAND)
void pi_wrappers_ibdev(struct ib_device *ibdev);
void pi_wrappers_ibdev(struct ib_device *ibdev)
{
	ibdev_err(ibdev, "ibdev error %d\n", 6);	/* index: <3> pi_wrappers_ibdev "%s %s %s: ibdev error %d\n" */
	ibdev_warn(ibdev, "ibdev warning\n");	/* index: <4> pi_wrappers_ibdev "%s %s %s: ibdev warning\n" */
	ibdev_printk(KERN_NOTICE, ibdev, "ibdev_printk with level\n");	/* index: <5> pi_wrappers_ibdev "%s %s %s: ibdev_printk with level\n" */
	ibdev_info_ratelimited(ibdev, "ibdev info, ratelimited\n");	/* index: <6> pi_wrappers_ibdev "%s %s %s: ibdev info, ratelimited\n" */
	ibdev_dbg(ibdev, "ibdev debug\n");	/* index: <7> pi_wrappers_ibdev "%s %s %s: ibdev debug\n" */
}
#endif

static int __init pi_wrappers_init(void)
{
	pi_wrappers_dev = root_device_register("pi_wrappers");
	if (IS_ERR(pi_wrappers_dev))
		return PTR_ERR(pi_wrappers_dev);
	pi_wrappers_probe(pi_wrappers_dev);
	pi_wrappers_acpi();
	pi_wrappers_drm(pi_wrappers_dev);
	return 0;
}

static void __exit pi_wrappers_exit(void)
{
	root_device_unregister(pi_wrappers_dev);
}

module_init(pi_wrappers_init);
module_exit(pi_wrappers_exit);
MODULE_DESCRIPTION("Calls of the printk wrappers of patches 14 to 18, for the printk index tests");
MODULE_LICENSE("GPL");
