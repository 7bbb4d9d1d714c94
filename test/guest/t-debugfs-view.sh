# The upstream debugfs view, <debugfs>/printk/index/<module>: header, line
# grammar, entry count, and module files that come and go with the module.
. ./lib.sh

ktap_plan 8
idx=$DEBUGFS_INDEX

if ! have_debugfs_index; then
	check "no debugfs index" test ! -e /sys/kernel/debug/printk
	for i in 2 3 4 5 6 7 8; do skip "debugfs view case $i" "no debugfs index in $VARIANT"; done
	ktap_done
fi

check "debugfs index has vmlinux" test -r $idx/vmlinux
cat $idx/vmlinux > /tmp/vmlinux.idx
vmlinux_checks /tmp/vmlinux.idx

if ! have_modules; then
	check "nomodules: only vmlinux" test "$(ls $idx)" = vmlinux
	for i in 6 7 8; do skip "module case $i" "no modules in $VARIANT"; done
	ktap_done
fi

insmod $MODULES/pi_sample.ko
check "insmod: module file equals golden" same_file $idx/pi_sample /test/pi_sample.golden
rmmod pi_sample
check "rmmod: module file is gone" test ! -e $idx/pi_sample
insmod $MODULES/pi_sample.ko
check "second insmod: module file is back" same_file $idx/pi_sample /test/pi_sample.golden
rmmod pi_sample
insmod $MODULES/pi_sample.ko fail_init=1 2>/dev/null
check "failed init leaves no file" test ! -e $idx/pi_sample -a ! -e /sys/module/pi_sample
ktap_done
