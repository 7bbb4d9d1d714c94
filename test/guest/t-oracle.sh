# Every reader of the index against the oracle: the sysfs file, the debugfs
# file and printk-index extract (run on the host, /test/extract/<name>) must
# each be, byte for byte, what test/host/pi_oracle.py rendered from the same
# build's ELF file (/test/oracle/<name>), for vmlinux and for every sample
# module while it is loaded.  The oracle is written from upstream's struct
# pi_entry and pi_show() alone, so the three readers cannot pass by
# agreeing with each other.
. ./lib.sh

# What this variant must have, as test/guest/features declares it, not
# what the running kernel happens to show.
want_index=0 want_debugfs=0 want_modules=0
have_index && want_index=1
have_debugfs && want_debugfs=1
have_modules && want_modules=1

# The objects to check: vmlinux and, with modules, every sample module in
# the image; a module missing from the image is a failure below, not a
# shorter list, because the image's .ko files are counted, not the oracle's.
objects=vmlinux
if [ $want_modules = 1 ]; then
	for ko in $MODULES/*.ko; do
		[ -e "$ko" ] && objects="$objects $(basename "$ko" .ko)"
	done
fi
set -- $objects

if [ $want_index = 0 ]; then
	ktap_plan 2
	# The ELF file says the same as the variant's name: no entry at all.
	check "no index: the ELF has no index entries (pi_count: $(cat /test/vmlinux.count))" \
		test "$(cat /test/vmlinux.count)" = "0 0"
	check "no index in either view" sh -c "test ! -e $SYSFS_INDEX && test ! -e /sys/kernel/debug/printk"
	ktap_done
fi

# Per object: sysfs, debugfs, extract; and one case for the module count.
ktap_plan $((3 * $# + 1))
if [ $want_modules = 1 ]; then
	check "the image has sample modules ($(($# - 1)))" test $# -gt 1
else
	check "nomodules: only vmlinux in the index" test "$(ls $SYSFS_INDEX)" = vmlinux
fi

# compare OBJECT LOADED: the three readers of OBJECT against its oracle;
# LOADED=0 when the module could not be loaded (its views fail).
compare() {
	local obj=$1 loaded=$2 oracle=/test/oracle/$1 why
	if [ ! -f "$oracle" ]; then
		for why in sysfs debugfs extract; do
			fail "$obj: $why equals the oracle" "no $oracle in the image"
		done
		return
	fi
	if [ $loaded = 1 ]; then
		check "$obj: sysfs equals the oracle" same_file $SYSFS_INDEX/$obj "$oracle"
	else
		fail "$obj: sysfs equals the oracle" "insmod $obj.ko failed"
	fi
	if [ $want_debugfs = 0 ]; then
		skip "$obj: debugfs equals the oracle" "no debugfs in $VARIANT"
	elif [ $loaded = 1 ]; then
		check "$obj: debugfs equals the oracle" same_file $DEBUGFS_INDEX/$obj "$oracle"
	else
		fail "$obj: debugfs equals the oracle" "insmod $obj.ko failed"
	fi
	check "$obj: extract equals the oracle" same_file /test/extract/$obj "$oracle"
}

for obj in "$@"; do
	if [ $obj = vmlinux ]; then
		compare vmlinux 1
	elif insmod $MODULES/$obj.ko; then
		compare $obj 1
		rmmod $obj
	else
		compare $obj 0
	fi
done
ktap_done
