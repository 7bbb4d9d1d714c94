# The sysfs view, /sys/kernel/printk_index/<object>: present in every
# variant with the index (with or without debugfs), byte-identical to the
# debugfs view, with exact sizes, and module files that come and go with
# the module, including a module whose init fails.
. ./lib.sh

ktap_plan 12
idx=$SYSFS_INDEX

if ! have_index; then
	check "noindex: no /sys/kernel/printk_index" test ! -e $idx
	for i in $(seq 2 12); do skip "sysfs view case $i" "no index in $VARIANT"; done
	ktap_done
fi

check "vmlinux file exists" test -f $idx/vmlinux
check "vmlinux file is read-only for all (0444)" test "$(stat -c %a $idx/vmlinux)" = 444
dd if=$idx/vmlinux of=/tmp/vmlinux.sysfs bs=1048576 2>/dev/null
check "stat size equals the bytes read" test "$(stat -c %s $idx/vmlinux)" = "$(wc -c < /tmp/vmlinux.sysfs)"
vmlinux_checks /tmp/vmlinux.sysfs
if have_debugfs; then
	check "vmlinux: identical to the debugfs view" same_file /tmp/vmlinux.sysfs $DEBUGFS_INDEX/vmlinux
else
	check "no debugfs in $VARIANT" test ! -e /sys/kernel/debug/printk
fi
check "writing is refused" sh -c "! echo x 2>/dev/null > $idx/vmlinux"

if ! have_modules; then
	check "nomodules: only vmlinux" test "$(ls $idx)" = vmlinux
	for i in $(seq 10 12); do skip "module case $i" "no modules in $VARIANT"; done
	ktap_done
fi

insmod $MODULES/pi_sample.ko
if have_debugfs; then
	check "insmod: sysfs file equals golden and debugfs" sh -c \
		"cmp $idx/pi_sample /test/pi_sample.golden && cmp $idx/pi_sample $DEBUGFS_INDEX/pi_sample && test \$(stat -c %s $idx/pi_sample) = \$(wc -c < /test/pi_sample.golden)"
else
	check "insmod: sysfs file equals golden" sh -c \
		"cmp $idx/pi_sample /test/pi_sample.golden && test \$(stat -c %s $idx/pi_sample) = \$(wc -c < /test/pi_sample.golden)"
fi
rmmod pi_sample
check "rmmod: module file is gone from both views" sh -c "test ! -e $idx/pi_sample && test ! -e $DEBUGFS_INDEX/pi_sample"
insmod $MODULES/pi_sample.ko
check "second insmod: module file is back" same_file $idx/pi_sample /test/pi_sample.golden
rmmod pi_sample
insmod $MODULES/pi_sample.ko fail_init=1 2>/dev/null
check "failed init leaves no file in either view" sh -c \
	"test ! -e $idx/pi_sample && test ! -e $DEBUGFS_INDEX/pi_sample && test ! -e /sys/module/pi_sample"
ktap_done
