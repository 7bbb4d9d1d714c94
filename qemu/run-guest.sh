#!/bin/bash
# Boot a kernel in QEMU, run one shell command as root in the guest, print
# what it printed, and exit with its exit status.
#
# The guest's kernel console (ttyS0) goes to <log-dir>/console.log; the
# command's output goes to the second serial port (ttyS1), so kernel messages
# never interleave with it.  /init ends the command's output with a marker
# that carries its exit status; a guest that never writes the marker (a
# panic, a hang killed by the timeout) is an error, never a success.
#
# Exit status: the command's, or 124 for a timeout, 125 when the guest
# stopped without reporting (panic), 126 when the console log shows a kernel
# splat (WARNING, BUG, Oops, ...) and the command itself succeeded.
#
# usage: run-guest.sh --kernel BZIMAGE --initrd CPIO [--cmd CMD] [--overlay DIR]
#                     [--log-dir DIR] [--variant NAME] [--timeout SECONDS]
#                     [--smp N] [--memory MB] [--append KERNEL_ARGS]
#                     [--ext4-disk MB] [--qemu-arg ARG]...
#                     [--expect-report KIND=REGEX]...
#
# --ext4-disk gives the guest a fresh, empty ext4 file system of that size
# as a virtio-blk disk (/dev/vda), made anew for every run in the log folder.
# --expect-report is for the runs that provoke kernel reports on purpose
# ('make corpus'): see test/host/splat-check.sh's --expect.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
kernel= initrd= cmd= overlay= logdir= variant=guest
timeout=${TIMEOUT:-300} smp=1 memory=512 append=${APPEND:-} ext4_disk=
qemu_args=() expect=()
# A variant's own QEMU options (qemu/<variant>.args: an SMP guest, more
# memory, a longer timeout for a slow debug kernel) go first, so that the
# command line still wins.
args=("$@")
for ((i = 0; i < ${#args[@]} - 1; i++)); do
	if [ "${args[i]}" = --variant ] && [ -f "$here/${args[i + 1]}.args" ]; then
		# shellcheck disable=SC2046 # one option or value per word
		set -- $(cat "$here/${args[i + 1]}.args") "$@"
	fi
done
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2 ;;
	--initrd) initrd=$2 ;;
	--cmd) cmd=$2 ;;
	--overlay) overlay=$2 ;;
	--log-dir) logdir=$2 ;;
	--variant) variant=$2 ;;
	--timeout) timeout=$2 ;;
	--smp) smp=$2 ;;
	--memory) memory=$2 ;;
	--append) append="$append $2" ;;
	--ext4-disk) ext4_disk=$2 ;;
	# One more QEMU argument, as is: devices beyond the pc machine's own.
	--qemu-arg) qemu_args+=("$2") ;;
	--expect-report) expect+=(--expect "$2") ;;
	*) echo "run-guest: unknown option $1" >&2; exit 2 ;;
	esac
	shift 2
done
[ -r "$kernel" ] || { echo "run-guest: no kernel image '$kernel'" >&2; exit 2; }
[ -r "$initrd" ] || { echo "run-guest: no initramfs '$initrd'" >&2; exit 2; }
[ -n "$logdir" ] || logdir=$(mktemp -d)
mkdir -p "$logdir"
console=$logdir/console.log out=$logdir/output.log
rm -f "$console" "$out"

if [ -z "$cmd" ]; then
	# Without a command: show the head of the printk index, sysfs view first.
	cmd='for f in /sys/kernel/printk_index/vmlinux /sys/kernel/debug/printk/index/vmlinux; do
		[ -r $f ] && { echo "== $f"; head -n 15 $f; exit 0; }; done
		echo "this kernel has no printk index"; exit 1'
fi

# The run's own files: /cmd and the overlay, as a second cpio archive.
extra=$(mktemp -d)
trap 'rm -rf "$extra"' EXIT
mkdir -p "$extra/root"
[ -z "$overlay" ] || cp -a "$overlay/." "$extra/root/"
printf '%s\n' "$cmd" > "$extra/root/cmd"
(cd "$extra/root" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) |
	gzip -1 > "$extra/run.cpio.gz"
cat "$initrd" "$extra/run.cpio.gz" > "$extra/initrd.cpio.gz"

disk=()
if [ -n "$ext4_disk" ]; then
	rm -f "$logdir/disk.ext4"
	# mkfs.ext4 is in /sbin, which a non-login PATH may lack.
	PATH=$PATH:/usr/sbin:/sbin mkfs.ext4 -q -F -L pi-test "$logdir/disk.ext4" "${ext4_disk}M" >&2 ||
		{ echo "run-guest: could not make the ext4 disk image" >&2; exit 2; }
	disk=(-drive "file=$logdir/disk.ext4,if=virtio,format=raw")
fi

accel=(-accel tcg)
[ "${KVM:-0}" = 1 ] && accel=(-enable-kvm -cpu host)

timeout --foreground -k 5 "$timeout" qemu-system-x86_64 "${accel[@]}" \
	-m "$memory" -smp "$smp" -display none -no-reboot -monitor none \
	-serial "file:$console" -serial "file:$out" \
	-kernel "$kernel" -initrd "$extra/initrd.cpio.gz" "${disk[@]}" "${qemu_args[@]}" \
	-append "console=ttyS0 panic=-1 oops=panic loglevel=7 $append" \
	</dev/null
qrc=$?

if [ ! -r "$console" ]; then
	echo "run-guest: $variant: QEMU left no console log (exit $qrc)" >&2
	exit 125
fi

# Everything before the marker is the command's output, byte for byte.
status=$(tr -d '\r' < "$out" 2>/dev/null | sed -n 's/^@@pi-exit \([0-9]*\)@@$/\1/p' | tail -n 1)
if [ -z "$status" ]; then
	cat "$out" 2>/dev/null
	if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
		echo "run-guest: $variant: the guest did not finish within ${timeout}s and was killed; console log: $console" >&2
		exit 124
	fi
	echo "run-guest: $variant: the guest stopped without reporting an exit status (panic?); console log: $console" >&2
	tail -n 20 "$console" >&2
	exit 125
fi
python3 -c '
import sys
data = open(sys.argv[1], "rb").read()
end = data.rfind(b"\n@@pi-exit ")
sys.stdout.buffer.write(data[:end])' "$out"

if ! "$here/../test/host/splat-check.sh" "${expect[@]}" "$console"; then
	echo "run-guest: $variant: the kernel reported a problem, see $console" >&2
	[ "$status" = 0 ] && exit 126
fi
exit "$status"
