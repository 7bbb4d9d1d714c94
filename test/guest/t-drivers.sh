# Real drivers on the hardware of every QEMU pc guest (ACPI, e1000, the PIIX
# IDE controller's ATAPI CD-ROM) and a virtio-blk disk with ext4 (the drivers
# variant): every message they print through a wrapper the series indexes
# (ACPICA's ACPI_INFO(), netdev_<level>, libata, sdev_printk/sr_printk,
# ext4_msg and friends, dynamic debug) must be attributed by printk-index match to an entry of
# that driver's own code, not left to a generic format.
. ./lib.sh

ktap_plan 12
if ! feature drivers; then
	for i in $(seq 12); do skip "drivers case $i" "only in the drivers variant"; done
	ktap_done
fi

check "the guest has eth0, sr0 and vda" test -e /sys/class/net/eth0 -a -e /sys/block/sr0 -a -e /sys/block/vda
mkdir -p /mnt
check "the ext4 disk mounts" mount -t ext4 /dev/vda /mnt
echo hello > /mnt/file && sync
umount /mnt

# Dynamic debug: e1000's hardware-access debug messages (e_dbg(), a
# netdev_dbg()) while the link comes up, and the sample module's two
# netdev debug call sites, turned on at load.
echo 'module e1000 +p' > /proc/dynamic_debug/control
ip link set eth0 up
# The watchdog reports the link within two seconds of it coming up.
i=0
while [ $i -lt 20 ] && ! dmesg | grep -q 'NIC Link is Up'; do sleep 1; i=$((i + 1)); done
echo 'module e1000 -p' > /proc/dynamic_debug/control
insmod $MODULES/pi_sample.ko dyndbg=+p
# In no particular order: the file lists call sites in their descriptors'
# order, which is the compiler's.
cat > /tmp/dd.golden <<'EOF'
<7> pi_sample.c:111 pi_sample_netdev "%s %s %s%s: netdev debug, compiled out\n"
<7> pi_sample.c:112 pi_sample_netdev "%s %s %s%s: netif debug, compiled out\n"
EOF
grep -xFf /tmp/dd.golden $SYSFS_INDEX/pi_sample | sort > /tmp/dd.found
check "pi_sample's netdev_dbg() and netif_dbg() sites are in the index at level 7" same_file /tmp/dd.found /tmp/dd.golden

# Every dynamic debug call site (the control file: 'file:line [module]func
# flags "format"') has an index line at level 7 with the same file:line;
# print_hex_dump_debug() sites excepted, whose "format" is a hex dump's
# prefix, not a printk format.
sed -n 's/^\([^ ]*:[0-9]*\) \[[^]]*\]\([^ ]*\) .*/\1 \2/p' /proc/dynamic_debug/control |
	grep -v ' print_hex_dump' | cut -d' ' -f1 | sort -u > /tmp/dd.sites
cat $SYSFS_INDEX/* | sed -n 's/^<7> \([^ ]*:[0-9]*\) .*/\1/p' | sort -u > /tmp/dd.index
grep -vxFf /tmp/dd.index /tmp/dd.sites > /tmp/dd.missing
check "every one of the $(wc -l < /tmp/dd.sites) dynamic debug call sites is indexed at level 7" \
	sh -c "test -s /tmp/dd.sites && ! test -s /tmp/dd.missing || { head -n 20 /tmp/dd.missing; false; }"

# The whole kernel log, attributed; output lines are "N class module
# file:line function +others", N being the log line's number.
dmesg > /tmp/drivers.log
printk-index match /tmp/drivers.log > /tmp/drivers.match 2> /tmp/drivers.summary
rmmod pi_sample
echo "# $(cat /tmp/drivers.summary)"
awk 'NR == FNR { msg[FNR] = $0; next } { print $0 "\t" msg[$1] }' /tmp/drivers.log /tmp/drivers.match > /tmp/drivers.joined
# Lines that only a generic format matches, or none, with their causes in
# the README: shown, not failed.
grep -v '^[0-9]* attributed ' /tmp/drivers.joined | sed 's/^/# other: /'

# wrapper_lines NAME REGEX FILE_PREFIX: every log line matching REGEX must be
# attributed to an entry whose file starts with FILE_PREFIX; at least one
# such line must be in the log.
wrapper_lines() {
	local name=$1 re=$2 dir=$3
	awk -F'\t' -v re="$re" '$2 ~ re' /tmp/drivers.joined > /tmp/wrapper.lines
	awk -v dir="$dir" '$2 != "attributed" || index($4, dir) != 1' /tmp/wrapper.lines > /tmp/wrapper.bad
	if [ ! -s /tmp/wrapper.lines ]; then
		fail "$name" "no line of the log matches $re"
	elif [ -s /tmp/wrapper.bad ]; then
		fail "$name" "lines not attributed to $dir:" "$(head -n 10 /tmp/wrapper.bad)"
	else
		ok "$name: $(wc -l < /tmp/wrapper.lines) lines, each attributed to $dir"
	fi
}
# With PRINTK_TIME, dmesg prints "[    1.234567] " first: the regexes skip it.
ts='^(\[ *[0-9]+\.[0-9]+\] )?'
wrapper_lines "netdev_<level>() lines of e1000, debug ones included" "${ts}e1000 [0-9a-f:.]+ eth0: " drivers/net/ethernet/intel/e1000/
wrapper_lines "libata's ata_port/link/dev_<level>() lines" "${ts}ata[0-9]+(\\.[0-9]+)?: " drivers/ata/
wrapper_lines "sdev_printk() and sr_printk() lines" "${ts}(scsi|sr) [0-9]+:[0-9]+:[0-9]+:[0-9]+: " drivers/scsi/
wrapper_lines "ext4_msg() lines" "${ts}EXT4-fs " fs/ext4/
# ACPICA prints a line per firmware table, from tbprint.c.
wrapper_lines "ACPICA's ACPI_INFO() lines of the firmware's tables" "${ts}ACPI: [A-Z0-9]{4} 0x[0-9A-F]{16} " drivers/acpi/acpica/

# The wrappers of patches 14 to 18 (dev_err_probe(), ACPICA's ACPI_*(),
# acpi_handle_<level>(), DRM_ERROR() and drm_dev_printk(), ibdev_<level>()),
# called by pi_wrappers: its index file is its golden, and each line it
# prints is attributed to its own call site (the ibdev calls are not made;
# dyndbg=+p turns acpi_handle_debug()'s on).
dmesg > /tmp/wrappers.before
insmod $MODULES/pi_wrappers.ko dyndbg=+p
dmesg | tail -n +$(($(wc -l < /tmp/wrappers.before) + 1)) > /tmp/wrappers.log
check "pi_wrappers's index file equals its golden" same_file $SYSFS_INDEX/pi_wrappers /test/pi_wrappers.drivers.golden
printk-index match /tmp/wrappers.log 2>/dev/null | cut -d' ' -f2-5 > /tmp/wrappers.match
rmmod pi_wrappers
check "the $(wc -l < /tmp/wrappers.log) lines pi_wrappers prints are attributed to its calls" \
	same_file /tmp/wrappers.match /test/pi_wrappers.drivers.match

# A device without a parent: for it __netdev_printk() prints "%s%s: ", not
# the "%s %s %s%s: " that netdev_<level>() entries record.  Renaming the
# loopback device makes the kernel print such a line, from an entry found
# in the index itself (its text differs between the trees).  busybox ip
# renames through an AF_INET socket: this variant is the one with INET.
ip link set lo name pi-lo && ip link set pi-lo name lo
want=$(grep -m1 ' dev_change_name "%s %s %s%s: renamed from %s' $SYSFS_INDEX/vmlinux | cut -d' ' -f2)
dmesg | grep -E '(pi-lo|lo): renamed from (lo|pi-lo)' > /tmp/rename.log
printk-index match /tmp/rename.log 2>/dev/null | cut -d' ' -f2-5 > /tmp/rename.match
printf 'attributed vmlinux %s dev_change_name\n' "$want" "$want" > /tmp/rename.want
rename_attributed() { [ -n "$want" ] && same_file /tmp/rename.match /tmp/rename.want; }
check "a netdev line of a device without parent is attributed to its entry ($want)" rename_attributed
ktap_done
