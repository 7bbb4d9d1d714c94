#!/bin/bash
# Bisectability: build the kernel after each patch of the series, in a git
# worktree of the tree so that the main tree is left alone.  Every patch is
# built in the variants given by CHECK_VARIANTS; "@clang" after a variant
# builds it with clang and the LLVM tools.  The default list builds the
# default and nodebugfs kernels with gcc, and the drivers configuration with
# the EFI stub and the KUnit test as a module (efi.config) with both gcc and
# clang.  The variants in CHECK_BOOT_VARIANTS ("default nodebugfs"; CHECK_BOOT=0
# boots none) are booted once per patch: the guest must
# come up, show a non-empty index in at least one view, and log no splat.
# A failed checkout, configuration, build or boot fails the run; the
# declared exceptions are a variant before the patch that makes its
# configuration possible (NEEDS below), reported as n/a, and a fragment
# symbol that the tree does not define yet (the KUnit option before its
# patch), which build-kernel.sh notes and lets pass.
#
# CHECK_FROM=N starts at the series' Nth patch (the ones before it built as
# one, not checked): for a run on the patches a version added.
#
# usage: check-series.sh TREE WORKDIR FRAGMENTS_DIR JOBS
set -uo pipefail
tree=$1 work=$2 frags=$3 jobs=$4
top=$(cd "$(dirname "$0")/.." && pwd)
variants=${CHECK_VARIANTS:-default nodebugfs drivers+efi drivers+efi@clang}
boot_variants=${CHECK_BOOT_VARIANTS:-default nodebugfs}

# Variants that Kconfig cannot honour before a given patch: DEBUG_FS=n
# with the index needs the patch that drops the index's DEBUG_FS dependency.
declare -A NEEDS=([nodebugfs]="printk: index: no longer depend on DEBUG_FS")

mkdir -p "$work"
wt=$work/linux
if [ ! -d "$wt" ]; then
	git -C "$tree" worktree add -q --detach "$wt" base ||
		{ echo "check-series: FAILED: cannot make the worktree $wt"; exit 1; }
fi
commits=$(git -C "$tree" rev-list --reverse base..HEAD | tail -n +"${CHECK_FROM:-1}")
[ -n "$commits" ] || { echo "check-series: FAILED: no commits on top of base in $tree"; exit 1; }
# Boot the variant just built with a command every patch can answer.
boot() {
	local v=$1 kout=$work/kernel-$1
	"$top/initramfs/build.sh" "$v" "$kout" "$work/initramfs-$v.cpio.gz" > "$work/initramfs.log" 2>&1 &&
	"$top/qemu/run-guest.sh" --variant "$v" --kernel "$kout/arch/x86/boot/bzImage" \
		--initrd "$work/initramfs-$v.cpio.gz" --log-dir "$work/logs-$v" \
		--cmd 'n=0; for f in /sys/kernel/printk_index/vmlinux /sys/kernel/debug/printk/index/vmlinux; do
			[ -s $f ] || [ "$(head -c 1 $f 2>/dev/null)" ] || continue; head -n 2 $f && n=$((n + 1)); done; [ $n -gt 0 ]' \
		> "$work/boot-$v.log" 2>&1 &&
	"$top/test/host/splat-check.sh" "$work/logs-$v/console.log" > /dev/null 2>&1
}

bad=0
for c in $commits; do
	subject=$(git -C "$tree" log -1 --format=%s "$c")
	if ! git -C "$wt" checkout -q --detach "$c"; then
		echo "check-series: FAILED: cannot check out $c ($subject)"
		bad=1
		continue
	fi
	for vc in $variants; do
		v=${vc%@*} llvm=0
		[ "$v" = "$vc" ] || llvm=1
		need=${NEEDS[$v]:-}
		if [ -n "$need" ] && ! git -C "$wt" log --format=%s base..HEAD | grep -qxF "$need"; then
			echo "check-series: n/a: $vc: $subject (needs \"$need\")"
			continue
		fi
		if PI_ALLOW_UNDEFINED=1 PI_LLVM=$llvm "$top/scripts/build-kernel.sh" "$wt" "$work/kernel-${vc/@/-}" "$frags" "$v" "$jobs" > "$work/build.log" 2>&1; then
			if [ "${CHECK_BOOT:-1}" = 1 ] && [[ " $boot_variants " == *" $vc "* ]] && ! boot "$v"; then
				echo "check-series: FAILED: $v: $subject: did not boot cleanly (log: $work/logs-$v)"
				bad=1
				continue
			fi
			echo "check-series: ok: $vc: $subject"
		else
			tail -n 20 "$work/build.log"
			echo "check-series: FAILED: $vc: $subject"
			bad=1
		fi
	done
done
exit $bad
