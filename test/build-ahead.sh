#!/bin/bash
# Build the kernel and initramfs of each TREE/VARIANT in turn, ahead of the
# guests that boot them (run-all.sh starts this in the background, boot-test.sh
# waits for each).  For each, DIR gets TREE-VARIANT.log and then
# TREE-VARIANT.rc ("STATUS SECONDS"), written last so that a reader never
# sees a status before the build has ended.
#
# usage: build-ahead.sh DIR TREE/VARIANT...
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$1
shift
for b in "$@"; do
	tree=${b%%/*} v=${b#*/}
	t0=$(date +%s)
	make -s -C "$top" initramfs KERNEL="$tree" VARIANT="$v" > "$dir/$tree-$v.log" 2>&1
	echo "$? $(($(date +%s) - t0))" > "$dir/$tree-$v.rc.tmp"
	mv "$dir/$tree-$v.rc.tmp" "$dir/$tree-$v.rc"
done
