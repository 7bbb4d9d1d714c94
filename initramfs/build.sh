#!/bin/bash
# Build the guest's initramfs for one variant: static busybox, /init, the
# guest tests and their golden files, and (when the kernel has modules) the
# sample modules built against this kernel, and the printk-index tool, linked
# statically (the guest has no C library).  What a run adds (the command, an overlay) goes
# in a second cpio archive that qemu/run-guest.sh appends: the kernel unpacks
# concatenated archives in order.
#
# usage: build.sh VARIANT KOUT OUTPUT
set -euo pipefail
variant=$1 kout=$(realpath -m "$2") output=$(realpath -m "$3")
top=$(cd "$(dirname "$0")/.." && pwd)

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,dev,proc,sys,tmp,root,etc,usr/bin,lib/modules,test}
cp /bin/busybox "$stage/bin/busybox"
cp "$top/initramfs/init" "$stage/init"
chmod 755 "$stage/init"
echo "VARIANT=$variant" > "$stage/etc/pi-guest.env"
cp -a "$top/test/guest/." "$stage/test/"
# The features this variant is declared to have, one a line ("!name" for
# those it must not have): the tests decide by this, never by what the
# guest happens to show.
features=$(sed -n "s/^$variant:[[:space:]]*//p" "$top/test/guest/features")
if [ -z "$features" ]; then
	echo "initramfs: variant $variant has no line in test/guest/features" >&2
	exit 1
fi
for f in $(sed -n 's/^#   \([a-z]*\) .*/\1/p' "$top/test/guest/features"); do
	echo " $features " | grep -qE " !?$f " ||
		{ echo "initramfs: $variant does not declare '$f' in test/guest/features" >&2; exit 1; }
done
printf '%s\n' $features > "$stage/test/features"

if grep -q '^CONFIG_MODULES=y' "$kout/.config"; then
	for m in "$top"/test/modules/*/; do
		"$top/scripts/build-module.sh" "$kout" "${m%/}" "${JOBS:-2}" >/dev/null
		cp "$kout/ext-modules/$(basename "$m")"/*.ko "$stage/lib/modules/"
		cp "$m"/*.golden "$m"/*.match "$stage/test/" 2>/dev/null || true
	done
fi

# How many index entries this kernel's vmlinux has, counted from the ELF file
# rather than from the kernel, so that the guest tests can check the count.
"$top/test/host/pi_count.py" "$kout/vmlinux" > "$stage/test/vmlinux.count"

# root, and nobody for the tests of what an unprivileged reader gets.
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' > "$stage/etc/passwd"
printf 'root:x:0:\nnobody:x:65534:\n' > "$stage/etc/group"

# Helpers for file operations a shell cannot do (pread, lseek, open modes).
for c in "$top"/test/guest-tools/*.c; do
	gcc -Wall -Wextra -O2 -static -o "$stage/usr/bin/$(basename "$c" .c)" "$c"
done

make -s -C "$top/tools/printk-index" printk-index printk-index.static
cp "$top/tools/printk-index/printk-index.static" "$stage/usr/bin/printk-index"

# The index of this build's ELF files as printk-index extract reads it, and
# as the independent oracle (test/host/pi_oracle.py) renders it, for the
# guest to compare with each other and with what the running kernel shows
# (t-oracle.sh).  Without the index there is nothing to render.
mkdir -p "$stage/test/extract" "$stage/test/oracle"
if [ "$(cut -d' ' -f1 "$stage/test/vmlinux.count")" != 0 ]; then
	for elf in "$kout/vmlinux" "$stage"/lib/modules/*.ko; do
		[ -e "$elf" ] || continue
		name=$(basename "$elf" .ko)
		"$top/tools/printk-index/printk-index" extract "$elf" > "$stage/test/extract/$name"
		"$top/test/host/pi_oracle.py" "$elf" > "$stage/test/oracle/$name"
	done
fi

(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) |
	gzip -1 > "$output.tmp"
mv "$output.tmp" "$output"
