# printk-index extract, run on the host on this build's vmlinux and modules
# (initramfs/build.sh), must print exactly what the running kernel shows in
# /sys/kernel/printk_index: the index of a build can be checked before any
# machine boots it.
. ./lib.sh

ktap_plan 2
if ! have_index; then
	check "noindex: nothing extracted either" test -z "$(ls /test/extract)"
	skip "extract of modules" "no index in $VARIANT"
	ktap_done
fi

check "extract of vmlinux equals /sys/kernel/printk_index/vmlinux" same_file /test/extract/vmlinux $SYSFS_INDEX/vmlinux
if ! have_modules; then
	skip "extract of modules" "no modules in $VARIANT"
	ktap_done
fi
bad=
for f in /test/extract/*; do
	m=${f##*/}
	[ "$m" = vmlinux ] && continue
	insmod $MODULES/$m.ko
	cmp -s "$f" $SYSFS_INDEX/$m || bad="$bad $m"
	rmmod $m
done
check "extract of every sample module equals its sysfs file${bad:+ (differ:$bad)}" test -z "$bad"
ktap_done
