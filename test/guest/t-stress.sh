# Modules come and go while monitoring daemons read the index: seven loaders,
# one per sample module, load and unload their module (43 times each in the
# debug variant, 301 in all; 5 times elsewhere) while two readers read every
# file of both views, whole and at random offsets.  Nothing may fail but a read of a file that went away,
# nothing may hang (the host's timeout), the files left are exactly those of
# the loaded modules, and kmemleak finds nothing leaked by the index.
. ./lib.sh

ktap_plan 5
if ! have_modules || [ ! -d $SYSFS_INDEX ]; then
	for i in 1 2 3 4 5; do skip "stress case $i" "no modules or no index in $VARIANT"; done
	ktap_done
fi
long=pi_longest_possible_module_name_0123456789_abcdefghijkl
mods="pi_sample pi_empty $long pi_stress_a pi_stress_b pi_stress_c pi_stress_d"
cycles=5
[ "$VARIANT" = debug ] && cycles=43

rm -f /tmp/stop /tmp/reads.* /tmp/loads.* /tmp/errors.*

read_whole() {
	n=0
	while [ ! -e /tmp/stop ]; do
		for f in $SYSFS_INDEX/* $DEBUGFS_INDEX/*; do
			cat "$f" > /dev/null 2>&1
			n=$((n + 1))
		done
	done
	echo $n > /tmp/reads.whole
}

read_random() {
	n=0
	while [ ! -e /tmp/stop ]; do
		for f in $SYSFS_INDEX/* $DEBUGFS_INDEX/*; do
			size=$(stat -c %s "$f" 2>/dev/null)
			[ "${size:-0}" -gt 0 ] || size=200000
			dd if="$f" of=/dev/null bs=777 count=3 iflag=skip_bytes \
				skip=$((RANDOM * 7 % size)) 2>/dev/null
			n=$((n + 1))
		done
	done
	echo $n > /tmp/reads.random
}

load_unload() {
	mod=$1 errors=0 i=0
	while [ $i -lt $cycles ]; do
		insmod $MODULES/$mod.ko || errors=$((errors + 1))
		rmmod $mod || errors=$((errors + 1))
		i=$((i + 1))
	done
	echo $i > /tmp/loads.$mod
	echo $errors > /tmp/errors.$mod
}

read_whole &
read_random &
loaders=
for m in $mods; do
	load_unload $m &
	loaders="$loaders $!"
done
wait $loaders
touch /tmp/stop
wait

loads=0 errors=0 nmods=0
for m in $mods; do
	loads=$((loads + $(cat /tmp/loads.$m)))
	errors=$((errors + $(cat /tmp/errors.$m)))
	nmods=$((nmods + 1))
done
check "$loads loads and unloads, none failed" test "$loads" = $((nmods * cycles)) -a "$errors" = 0
check "readers ran: $(cat /tmp/reads.whole) whole reads, $(cat /tmp/reads.random) random reads" \
	test "$(cat /tmp/reads.whole)" -gt 0 -a "$(cat /tmp/reads.random)" -gt 0
check "only vmlinux is left in sysfs" test "$(ls $SYSFS_INDEX)" = vmlinux
if have_debugfs; then
	check "only vmlinux is left in debugfs" test "$(ls $DEBUGFS_INDEX)" = vmlinux
else
	check "no debugfs in $VARIANT" test ! -e /sys/kernel/debug/printk
fi

kml=/sys/kernel/debug/kmemleak
if [ -w $kml ]; then
	# Objects freed late (delayed kobject release) must not look leaked.
	sleep 5
	echo scan > $kml
	echo scan > $kml
	cat $kml > /tmp/kmemleak
	if grep -q 'pi_sysfs\|pi_create_file\|printk_index' /tmp/kmemleak; then
		fail "kmemleak: nothing leaked by the index" "$(head -n 40 /tmp/kmemleak)"
	else
		ok "kmemleak: nothing leaked by the index ($(grep -c '^unreferenced object' /tmp/kmemleak) other reports)"
	fi
else
	skip "kmemleak scan" "no kmemleak in $VARIANT"
fi
ktap_done
