# The guest has exactly the features test/guest/features declares for its
# variant, each checked where the running kernel shows it.  The other tests
# skip cases by that declaration, so this is what makes a misbuilt kernel
# (kmemleak dropped from debug, the index from default) fail.
. ./lib.sh

# present NAME: does the running kernel show feature NAME?
present() {
	case $1 in
	index) [ -f $SYSFS_INDEX/vmlinux ] ;;
	debugfs) grep -q ' /sys/kernel/debug debugfs ' /proc/mounts ;;
	modules) [ -e /proc/modules ] ;;
	kunit) grep -q '^    # Subtest: printk_index$' $BOOT_DMESG ;;
	kmemleak) [ -w /sys/kernel/debug/kmemleak ] ;;
	faults) [ -d /sys/kernel/debug/failslab ] && [ -d /sys/kernel/debug/fail_page_alloc ] ;;
	drivers) [ -e /sys/class/net/eth0 ] && [ -e /sys/block/sr0 ] && [ -e /sys/block/vda ] &&
		 grep -qw ext4 /proc/filesystems && [ -e /proc/dynamic_debug/control ] ;;
	*) return 2 ;;
	esac
}

ktap_plan $(($(wc -l < /test/features) + 1))
for f in $(cat /test/features); do
	name=${f#!}
	present $name
	rc=$?
	if [ $rc = 2 ]; then
		fail "$f" "unknown feature '$name' in /test/features"
	elif [ "$name" = "$f" ]; then
		if [ $rc = 0 ]; then ok "$VARIANT has $name"; else fail "$VARIANT has $name" "declared, not present"; fi
	else
		if [ $rc != 0 ]; then ok "$VARIANT has no $name"; else fail "$VARIANT has no $name" "declared absent, present"; fi
	fi
done
# The debugfs index view goes with both: present exactly when declared.
if have_debugfs_index; then
	check "the debugfs index view is there" test -f $DEBUGFS_INDEX/vmlinux
else
	check "no debugfs index view" test ! -e /sys/kernel/debug/printk/index
fi
ktap_done
