# Fault injection while loading a module: the n-th allocation of the load
# fails (failslab and fail_page_alloc, through /proc/self/fail-nth armed by
# pi_insmod right before finit_module).  A load makes a few hundred
# allocations, and in the debug variant under TCG each faulted load takes
# seconds, so n goes through 24 points (12 with short_loops) spread evenly
# over all of them rather than through every one.  Each load must either
# succeed, with its index file or with the one pr_warn that says why not, or
# fail cleanly; after rmmod no index file may be left.  Debug variant only:
# it needs CONFIG_FAULT_INJECTION_DEBUG_FS.
. ./lib.sh

ktap_plan 4
fs=/sys/kernel/debug/failslab
fp=/sys/kernel/debug/fail_page_alloc
if ! feature faults; then
	for i in 1 2 3 4; do skip "fault injection case $i" "no fault injection in $VARIANT"; done
	ktap_done
fi

# Every allocation counts, whatever its GFP flags or order; no stack dumps.
for d in $fs $fp; do
	echo 0 > $d/verbose
	echo N > $d/ignore-gfp-wait
	echo 1 > $d/task-filter
done
echo N > $fs/cache-filter 2>/dev/null
echo 0 > $fp/min-order

# Failed allocations print stack dumps on purpose (warn_alloc and friends):
# the host's splat check lets "Call Trace:" through between these two
# markers, and nothing else (a WARNING, BUG or KASAN report still fails).
echo "printk_index_test: fault injection begins" > /dev/kmsg
mod=pi_sample
set -- $(pi_insmod $MODULES/$mod.ko 1000000)
total=${3:-0}
[ "$1" = loaded ] && rmmod $mod
points=24
short_loops && points=12
k=0 loaded=0 without_file=0 failed=0 stale=0
while [ $k -lt $points ] && [ $total -gt 0 ]; do
	n=$((1 + k * (total - 1) / (points - 1)))
	k=$((k + 1))
	dmesg -c > /dev/null
	set -- $(pi_insmod $MODULES/$mod.ko $n)
	if [ "$1" = loaded ]; then
		loaded=$((loaded + 1))
		if [ ! -e $SYSFS_INDEX/$mod ]; then
			if dmesg | grep -q "printk_index: no sysfs index file for $mod: -12"; then
				without_file=$((without_file + 1))
			else
				stale=$((stale + 1))
				echo "# fault $n: loaded without index file, and no pr_warn says why"
			fi
		fi
		rmmod $mod
		if [ -e $SYSFS_INDEX/$mod ] || [ -e $DEBUGFS_INDEX/$mod ]; then
			stale=$((stale + 1))
			echo "# fault $n: index file left after rmmod"
		fi
	else
		failed=$((failed + 1))
		if [ -d /sys/module/$mod ] || [ -e $SYSFS_INDEX/$mod ] || [ -e $DEBUGFS_INDEX/$mod ]; then
			stale=$((stale + 1))
			echo "# fault $n: load failed ($1), but the module or its index file is there"
		fi
	fi
done
echo "printk_index_test: fault injection ends" > /dev/kmsg
echo "# $k of $total allocations failed in turn: $loaded loads went through ($without_file without index file), $failed failed"
check "a load makes allocations to fail ($total)" test $total -gt 0
check "every faulted load succeeded or failed cleanly ($k faults)" test $stale = 0
check "no module or index file is left" sh -c "test ! -d /sys/module/$mod && test \"\$(ls $SYSFS_INDEX)\" = vmlinux"
insmod $MODULES/$mod.ko
check "a load without faults has its file again" same_file $SYSFS_INDEX/$mod /test/pi_sample.golden
rmmod $mod
ktap_done
