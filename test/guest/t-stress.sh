# Modules come and go while monitoring daemons read the index: seven loaders,
# one per sample module, load and unload their module (in the debug
# variant 43 times each, 301 in all, or 10 with short_loops; 5 times
# elsewhere) while two readers read every
# file of both views, whole and at random offsets.  No read may fail or come
# back short but a read of a file that went away,
# nothing may hang (the host's timeout), the files left are exactly those of
# the loaded modules, and kmemleak finds nothing leaked by the index.
. ./lib.sh

ktap_plan 5
if ! have_modules || ! have_index; then
	for i in 1 2 3 4 5; do skip "stress case $i" "no modules or no index in $VARIANT"; done
	ktap_done
fi
long=pi_longest_possible_module_name_0123456789_abcdefghijkl
mods="pi_sample pi_empty $long pi_stress_a pi_stress_b pi_stress_c pi_stress_d"
cycles=5
if [ "$VARIANT" = debug ]; then
	cycles=43
	short_loops && cycles=10
fi

rm -f /tmp/stop /tmp/reads.* /tmp/loads.* /tmp/errors.*

# Two monitoring daemons: one reads every file of both views whole, one
# a few bytes at random offsets; pi_reader checks every read against what
# printk-index extract read from the ELF files and counts the reads that
# failed or came back short (a file that went away is no failure).
views=$SYSFS_INDEX
have_debugfs && views="$views $DEBUGFS_INDEX"
read_views() {
	pi_reader $1 /tmp/stop /test/extract $views \
		> /tmp/reads.$1 2> /tmp/reads.$1.err
	echo $? > /tmp/reads.$1.rc
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

read_views whole &
read_views random &
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
# "whole: N reads, O ok, G gone, S short, F failed": every read ok or
# gone, and some of each kind ok.
readers_ok() {
	local m t
	for m in whole random; do
		set -- $(sed 's/[^0-9 ]//g' /tmp/reads.$m)
		[ "$(cat /tmp/reads.$m.rc)" = 0 ] && [ $# = 5 ] && [ "$2" -gt 0 ] &&
			[ "$4" = 0 ] && [ "$5" = 0 ] || return 1
	done
}
if readers_ok; then
	ok "no read failed or came back short ($(cat /tmp/reads.whole); $(cat /tmp/reads.random))"
else
	fail "no read failed or came back short" "$(cat /tmp/reads.whole)" "$(cat /tmp/reads.random)" \
		"$(cat /tmp/reads.whole.err /tmp/reads.random.err)"
fi
check "only vmlinux is left in sysfs" test "$(ls $SYSFS_INDEX)" = vmlinux
if have_debugfs; then
	check "only vmlinux is left in debugfs" test "$(ls $DEBUGFS_INDEX)" = vmlinux
else
	check "no debugfs in $VARIANT" test ! -e /sys/kernel/debug/printk
fi

kml=/sys/kernel/debug/kmemleak
if feature kmemleak; then
	# Objects freed late (delayed kobject release) must not look leaked.
	sleep 5
	if ! { echo scan > $kml && echo scan > $kml && cat $kml > /tmp/kmemleak; }; then
		fail "kmemleak: nothing leaked by the index" "cannot scan with $kml"
	elif grep -q 'pi_sysfs\|pi_create_file\|printk_index' /tmp/kmemleak; then
		fail "kmemleak: nothing leaked by the index" "$(head -n 40 /tmp/kmemleak)"
	else
		ok "kmemleak: nothing leaked by the index ($(grep -c '^unreferenced object' /tmp/kmemleak) other reports)"
	fi
else
	skip "kmemleak scan" "no kmemleak in $VARIANT"
fi
ktap_done
