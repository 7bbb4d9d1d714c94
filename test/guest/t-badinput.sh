# Bad input to both views, each case with its exact expected outcome (pi_io
# prints one line per operation).  The kernel must refuse what makes no sense
# with an error, never warn or crash: the host fails the run on any splat.
#
# What an unprivileged reader gets: the sysfs files are 0444 and readable by
# everyone, like /sys/kernel/btf/vmlinux (formats and source locations are
# not secrets: they are in every distribution's kernel package); debugfs is
# root's only, as always.
. ./lib.sh

sys_cases=17
dbg_cases=7
mod_cases=5
ktap_plan $((sys_cases + dbg_cases + mod_cases))

# expect NAME "EXPECTED LINE" FILE OP ARGS...: pi_io's line must be EXPECTED.
expect() {
	local name=$1 want=$2 got
	shift 2
	got=$(pi_io "$@" 2>&1)
	if [ "$got" = "$want" ]; then ok "$name"; else fail "$name" "pi_io $*" "want '$want', got '$got'"; fi
}

f=$SYSFS_INDEX/vmlinux
if ! have_index; then
	for i in $(seq $sys_cases); do skip "sysfs bad input $i" "no sysfs index in $VARIANT"; done
else
	size=$(stat -c %s $f)
	cp $f /tmp/before
	expect "sysfs: open for writing is refused" "error EACCES" $f open w
	expect "sysfs: open for reading and writing is refused" "error EACCES" $f open rw
	expect "sysfs: open with O_TRUNC is refused" "error EACCES" $f open trunc
	check "sysfs: shell truncation is refused" sh -c "! truncate -s 0 $f 2>/dev/null"
	expect "sysfs: pread at a negative offset" "error EINVAL" $f pread -1 10
	expect "sysfs: pread at the end" "read 0" $f pread $size 10
	expect "sysfs: pread far past the end" "read 0" $f pread 1099511627776 10
	expect "sysfs: zero-length pread" "read 0" $f pread 0 0
	# At most a page per read, ending before the first line that does not
	# fit in it.
	page_lines=$(head -c 4096 /tmp/before | awk '{ n += length($0) + 1; if (n <= 4096) w = n } END { print w }')
	expect "sysfs: 16 MiB pread returns the whole lines of one page ($page_lines bytes)" "read $page_lines" $f pread 0 16777216
	expect "sysfs: pread straddling the end" "read 5" $f pread $((size - 5)) 4096
	expect "sysfs: lseek SEEK_END" "offset $size" $f lseek 0 END
	expect "sysfs: lseek SEEK_DATA" "offset 100" $f lseek 100 DATA
	expect "sysfs: lseek SEEK_HOLE" "offset $size" $f lseek 100 HOLE
	expect "sysfs: lseek to a negative offset" "error EINVAL" $f lseek -1 SET
	check "sysfs: the file is unchanged" same_file $f /tmp/before
	check "sysfs: nobody reads the same bytes" sh -c "su -s /bin/sh nobody -c 'cat $f' | cmp - /tmp/before"
	check "sysfs: nobody cannot write" sh -c "test \"\$(su -s /bin/sh nobody -c 'pi_io $f open w')\" = 'error EACCES'"
fi

d=$DEBUGFS_INDEX/vmlinux
if ! have_debugfs_index; then
	for i in $(seq $dbg_cases); do skip "debugfs bad input $i" "no debugfs index in $VARIANT"; done
else
	cat $d > /tmp/before
	expect "debugfs: write is refused" "error EINVAL" $d write
	expect "debugfs: pread at a negative offset" "error EINVAL" $d pread -1 10
	expect "debugfs: pread far past the end" "read 0" $d pread 1099511627776 10
	expect "debugfs: zero-length pread" "read 0" $d pread 0 0
	expect "debugfs: lseek SEEK_END is not supported" "error EINVAL" $d lseek 0 END
	check "debugfs: the file is unchanged" same_file $d /tmp/before
	check "debugfs: nobody cannot read it" sh -c "test \"\$(su -s /bin/sh nobody -c 'pi_io $d pread 0 10')\" = 'error EACCES'"
fi

if ! have_modules || ! have_index; then
	for i in $(seq $mod_cases); do skip "module bad input $i" "no modules or no index in $VARIANT"; done
	ktap_done
fi
long=pi_longest_possible_module_name_0123456789_abcdefghijkl
insmod $MODULES/pi_empty.ko
check "a module without printk: header only, in both views" sh -c \
	"cmp $SYSFS_INDEX/pi_empty /test/pi_empty.golden && { ! test -d $DEBUGFS_INDEX || cmp $DEBUGFS_INDEX/pi_empty /test/pi_empty.golden; }"
# A reader that keeps the file open across rmmod gets -ENODEV, as the ABI
# document says, not the module's freed entries.
exec 3< $SYSFS_INDEX/pi_empty
rmmod pi_empty
check "pi_empty is gone after rmmod" test ! -e $SYSFS_INDEX/pi_empty
got=$(cat <&3 2>&1 >/dev/null)
exec 3<&-
check "a file held open across rmmod reads ENODEV ($got)" \
	test "$got" = "cat: read error: No such device"
insmod $MODULES/$long.ko
check "a module name of maximum length (55)" same_file $SYSFS_INDEX/$long /test/pi_longname.golden
rmmod $long
check "the longest name is gone after rmmod" test ! -e $SYSFS_INDEX/$long
ktap_done
