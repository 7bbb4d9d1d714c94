#!/bin/bash
# Coverage of the printk index on the kernel a fleet runs, as near as
# x86_64_defconfig gets ('make bench-defconfig'): the share of the kernel
# log's lines that printk-index match attributes to their own specific
# format, with and without the series' wrapper patches.
#
# The defconfig variant (kconfig-fragments/defconfig.config) boots with the
# devices the drivers variant has (ACPI, e1000, the PIIX IDE CD-ROM, a
# virtio-blk disk with ext4) and more that defconfig drives: virtio-net, an
# AHCI disk and a USB storage disk behind an xHCI controller, each with an
# ext4 file system that the guest mounts; both network links are brought up.
# The wrapper patches do not change what the kernel prints, only what the
# index knows, so the one log is matched twice: against the index of this
# kernel (vmlinux and its modules) and against that of the same
# configuration built without the wrapper patches.
#
# Prints the table, then every line not attributed to a specific format with
# its class, the entry that matched it if any, and where its longest run of
# words occurs as text in the tree's sources (an independent look at whether
# an index could do better).  Not part of 'make test': a cold build of each
# kernel is about an hour of CPU (the README has the figures).
#
# usage: defconfig.sh WORK_DIR     (writes WORK_DIR/defconfig.{log,md,txt})
# environment: BUILD, KERNEL, JOBS, TIMEOUT as for the Makefile
set -euo pipefail

[ $# = 1 ] || { echo "usage: $0 WORK_DIR" >&2; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/bench/lib.sh"
bench_paths "$1"

log() { echo "bench-defconfig: $*" >&2; }

at=$(unwrapped_worktree "$tree" "$unwrapped") || { log "cannot make $unwrapped"; exit 1; }

# build NAME TREE OUT: build one kernel, saying how long it took.
build() {
	local start=$SECONDS
	log "building $1"
	"$top/scripts/build-kernel.sh" "$2" "$3" "$top/kconfig-fragments" defconfig "${JOBS:-2}" >&2
	log "built $1 in $((SECONDS - start)) s"
}
build "x86_64_defconfig with the series" "$tree" "$tbuild/kernel-defconfig"
build "x86_64_defconfig without the wrapper patches (at $at)" "$unwrapped" "$tbuild/kernel-defconfig-unwrapped"
make -s -C "$top" initramfs VARIANT=defconfig >&2
make -s -C "$top/tools/printk-index" >&2

# An ext4 image for the AHCI disk and one for the USB disk; the virtio-blk
# one run-guest.sh makes itself.
for d in ahci usb; do
	rm -f "$work/$d.ext4"
	PATH=$PATH:/usr/sbin:/sbin mkfs.ext4 -q -F -L "pi-$d" "$work/$d.ext4" 8M
done
devices=(
	-nic user,model=e1000 -nic user,model=virtio-net-pci
	-device ahci,id=ahci0 -drive "if=none,id=sata0,format=raw,file=$work/ahci.ext4"
	-device ide-hd,drive=sata0,bus=ahci0.0
	-device qemu-xhci,id=xhci0 -drive "if=none,id=usb0,format=raw,file=$work/usb.ext4"
	-device usb-storage,bus=xhci0.0,drive=usb0
)
qemu_args=()
for a in "${devices[@]}"; do qemu_args+=(--qemu-arg "$a"); done

# In the guest: mount each ext4 disk (the USB one appears once its bus is
# scanned), bring both links up, wait for e1000's link report.
log "booting the defconfig guest"
"$top/qemu/run-guest.sh" --variant defconfig --memory 1024 --ext4-disk 16 \
	--kernel "$tbuild/kernel-defconfig/arch/x86/boot/bzImage" \
	--initrd "$tbuild/initramfs-defconfig.cpio.gz" --log-dir "$work/guest" "${qemu_args[@]}" \
	--cmd 'i=0; while [ $i -lt 30 ] && [ $(ls /sys/block | grep -c "^sd") -lt 2 ]; do sleep 1; i=$((i + 1)); done
		mkdir -p /mnt && for d in /dev/vda /dev/sd?; do mount -t ext4 $d /mnt && echo x > /mnt/file && umount /mnt || exit 1; done
		for n in /sys/class/net/eth*; do ip link set ${n##*/} up || exit 1; done
		i=0; while [ $i -lt 20 ] && ! dmesg | grep -q "NIC Link is Up"; do sleep 1; i=$((i + 1)); done
		dmesg' > "$work/defconfig.log"

# A line attributed to a wrapper's own entry ("EXT4-fs (%s): %pV", the one
# printk() inside __ext4_msg()) counts as specific for match, but names the
# wrapper, not the call site: the "own call site" column leaves those out.
{
	echo "| index | entries | lines | specific | to its own call site | generic-only | unattributed |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
} > "$work/defconfig.md"
for k in unwrapped:kernel-defconfig-unwrapped patched:kernel-defconfig; do
	name=${k%%:*}
	rm -rf "$work/index-$name"
	"$tool" extract -o "$work/index-$name" "$tbuild/${k#*:}" > /dev/null
	"$tool" match --index "$work/index-$name" "$work/defconfig.log" \
		> "$work/$name.match" 2> "$work/$name.summary"
	read -r n a g u < <(match_counts "$work/$name.summary")
	entries=$(cat "$work/index-$name"/* | grep -vc '^#')
	# "module file:line" of every entry whose format prints a "%pV"
	for f in "$work/index-$name"/*; do
		grep -a '%pV' "$f" | awk -v m="${f##*/}" '{ print m, $2 }' || true
	done > "$work/$name.pv"
	own=$(awk 'NR == FNR { pv[$1 " " $2] = 1; next } $2 == "attributed" && !(($3 " " $4) in pv)' \
		"$work/$name.pv" "$work/$name.match" | wc -l)
	label="with the series"
	[ "$name" = patched ] || label="without the wrapper patches"
	echo "| $label | $entries | $n | $(pct "$a" "$n") ($a) | **$(pct "$own" "$n")** ($own) | $g | $u |" >> "$work/defconfig.md"
done

# Every line the series' index does not attribute to a specific format:
# "N class entry-or-dash | message | source: file:line of its longest run of
# words, or 'not in the sources'".
sed 's/^\[ *[0-9]*\.[0-9]*\] //' "$work/defconfig.log" > "$work/defconfig.msgs"
awk 'NR == FNR { msg[FNR] = $0; next } $2 != "attributed" { print $1 " " $2 " " $4 "\t" msg[$1] }' \
	"$work/defconfig.msgs" "$work/patched.match" |
while IFS=$'\t' read -r what msg; do
	# The longest run of words and blanks (at least 12 bytes) in the message.
	words=$(printf '%s\n' "$msg" | grep -oE '[A-Za-z][A-Za-z ]{10,}[A-Za-z]' | awk '{ print length, $0 }' |
		sort -rn | head -n 1 | cut -d' ' -f2- || true)
	where="no run of words"
	if [ -n "$words" ]; then
		where=$(git -C "$tree" grep -n -F -e "$words" -- '*.c' '*.h' | head -n 1 | cut -d: -f1,2 || true)
		where=${where:-not in the sources}
	fi
	printf '%s | %s | %s\n' "$what" "$msg" "$where"
done > "$work/defconfig.txt"

cat "$work/defconfig.md"
echo
echo "Lines not attributed to a specific format (line, class, entry | message | source of its words):"
cat "$work/defconfig.txt"
