#!/bin/bash
# Bisectability: build the kernel after each patch of the series, in a git
# worktree of the tree so that the main tree is left alone.  Every patch is
# built in the variants given by CHECK_VARIANTS (default: "default nodebugfs"),
# and each build is booted once (CHECK_BOOT=0 skips that): the guest must
# come up, run a command and log no splat.
#
# usage: check-series.sh TREE WORKDIR FRAGMENTS_DIR JOBS
set -uo pipefail
tree=$1 work=$2 frags=$3 jobs=$4
top=$(cd "$(dirname "$0")/.." && pwd)
variants=${CHECK_VARIANTS:-default nodebugfs}

mkdir -p "$work"
wt=$work/linux
if [ ! -d "$wt" ]; then
	git -C "$tree" worktree add -q --detach "$wt" base
fi
# Boot the variant just built with a command every patch can answer.
boot() {
	local v=$1 kout=$work/kernel-$1
	"$top/initramfs/build.sh" "$v" "$kout" "$work/initramfs-$v.cpio.gz" > "$work/initramfs.log" 2>&1 &&
	"$top/qemu/run-guest.sh" --variant "$v" --kernel "$kout/arch/x86/boot/bzImage" \
		--initrd "$work/initramfs-$v.cpio.gz" --log-dir "$work/logs-$v" \
		--cmd 'head -n 2 /sys/kernel/printk_index/vmlinux /sys/kernel/debug/printk/index/vmlinux 2>/dev/null; true' \
		> "$work/boot-$v.log" 2>&1 &&
	"$top/test/host/splat-check.sh" "$work/logs-$v/console.log" > /dev/null 2>&1
}

bad=0
for c in $(git -C "$tree" rev-list --reverse base..HEAD); do
	subject=$(git -C "$tree" log -1 --format=%s "$c")
	git -C "$wt" checkout -q --detach "$c"
	for v in $variants; do
		if CONFIG_MISMATCH=warn "$top/scripts/build-kernel.sh" "$wt" "$work/kernel-$v" "$frags" "$v" "$jobs" > "$work/build.log" 2>&1; then
			if [ "${CHECK_BOOT:-1}" = 1 ] && ! boot "$v"; then
				echo "check-series: FAILED: $v: $subject: did not boot cleanly (log: $work/logs-$v)"
				bad=1
				continue
			fi
			echo "check-series: ok: $v: $subject"
			grep '^kernel: .* asks for' "$work/build.log" | sed 's/^/    (note) /' 
		else
			tail -n 20 "$work/build.log"
			echo "check-series: FAILED: $v: $subject"
			bad=1
		fi
	done
done
exit $bad
