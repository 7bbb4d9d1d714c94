#!/bin/bash
# Coverage of the printk index on a real driver stack, before and after the
# series' wrapper patches: the share of kernel log lines that
# printk-index match attributes to a specific (non-generic) format.
#
# One guest of the drivers variant boots, mounts its ext4 disk, brings its
# e1000 link up and prints its kernel log.  The wrapper patches do not change
# what the kernel prints, only what the index knows, so the same log is
# matched twice on the host: against the index of this kernel's vmlinux, and
# against that of the same configuration built from the tree without the
# wrapper patches (every commit after the last "printk: index:" one).
#
# usage: coverage.sh WORK_DIR     (writes WORK_DIR/coverage.{log,txt,md})
# environment: BUILD, JOBS, TIMEOUT as for run-bench.sh
set -euo pipefail

[ $# = 1 ] || { echo "usage: $0 WORK_DIR" >&2; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/bench/lib.sh"
bench_paths "$1"

log() { echo "coverage: $*" >&2; }

# The tree without the wrapper patches, as a worktree of the patched one.
at=$(unwrapped_worktree "$tree" "$unwrapped") || { log "cannot make $unwrapped"; exit 1; }
log "building the drivers kernel without the wrapper patches (at $at)"
"$top/scripts/build-kernel.sh" "$unwrapped" "$tbuild/kernel-drivers-unwrapped" "$top/kconfig-fragments" drivers "${JOBS:-2}" >&2
make -s -C "$top" initramfs VARIANT=drivers >&2

log "booting the drivers guest"
"$top/qemu/run-guest.sh" --variant drivers --kernel "$tbuild/kernel-drivers/arch/x86/boot/bzImage" \
	--initrd "$tbuild/initramfs-drivers.cpio.gz" --log-dir "$work/coverage-guest" \
	--cmd 'mkdir -p /mnt && mount -t ext4 /dev/vda /mnt && echo x > /mnt/file && umount /mnt &&
		ip link set eth0 up && i=0 && while [ $i -lt 20 ] && ! dmesg | grep -q "NIC Link is Up"; do sleep 1; i=$((i + 1)); done;
		dmesg' > "$work/coverage.log"

for k in unwrapped:kernel-drivers-unwrapped patched:kernel-drivers; do
	name=${k%%:*}
	"$tool" extract "$tbuild/${k#*:}/vmlinux" > "$work/coverage-$name.index"
	"$tool" match --index "$work/coverage-$name.index" "$work/coverage.log" \
		> "$work/coverage-$name.match" 2> "$work/coverage-$name.summary"
done

read -r n a0 g0 u0 < <(match_counts "$work/coverage-unwrapped.summary")
read -r _ a1 g1 u1 < <(match_counts "$work/coverage-patched.summary")
entries0=$(($(wc -l < "$work/coverage-unwrapped.index") - 1))
entries1=$(($(wc -l < "$work/coverage-patched.index") - 1))
echo "| 7 | Coverage: lines of the drivers guest's kernel log (boot, ext4 mount, e1000 link up) attributed to a specific format / generic-only / unattributed, vmlinux index without → with the wrapper patches (same log) | drivers | $entries0 → $entries1 | $(pct "$a0" "$n") ($a0/$n) / $g0 / $u0 → **$(pct "$a1" "$n") ($a1/$n)** / $g1 / $u1 | no line generic-only because of its wrapper | see README |" > "$work/coverage.md"
# The lines still generic-only or unattributed after the series, for the README.
awk 'NR == FNR { msg[FNR] = $0; next } $2 != "attributed" { print $0 "\t" msg[$1] }' \
	"$work/coverage.log" "$work/coverage-patched.match" > "$work/coverage.txt"
cat "$work/coverage.md"
