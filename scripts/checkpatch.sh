#!/bin/bash
# scripts/checkpatch.pl --strict on every patch of the series; fails on any
# error, warning or check.
#
# usage: checkpatch.sh TREE PATCHES_DIR
set -uo pipefail
# Absolute paths: checkpatch runs from inside the tree.
tree=$(realpath "$1") patches=$(realpath "$2")
[ -f "$patches/series" ] || { echo "checkpatch: FAILED: no $patches/series"; exit 1; }
[ -f "$tree/scripts/checkpatch.pl" ] || { echo "checkpatch: FAILED: no checkpatch.pl in $tree"; exit 1; }
bad=0 n=0
while read -r p; do
	case "$p" in ''|'#'*) continue ;; esac
	n=$((n + 1))
	if [ ! -f "$patches/$p" ]; then
		echo "checkpatch: FAILED: $p is in the series but not in $patches"
		bad=1
		continue
	fi
	# The tree is a tarball with one base commit and no history, so
	# checkpatch cannot look up the commit in a Fixes: tag (it calls every
	# id unknown); that one check is left to the reviewer.
	# PATH: Debian's python3, which has python3-ply for the SPDX check.
	out=$(cd "$tree" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --terse \
		--ignore UNKNOWN_COMMIT_ID "$(realpath "$patches/$p")" 2>&1)
	sum=$(echo "$out" | tail -n 1)
	out=$(echo "$out" | grep -v '^total: 0 errors, 0 warnings, 0 checks')
	if [ -n "$out" ]; then
		echo "$out"
		bad=1
	fi
	echo "checkpatch: $p: ${sum:-clean}"
done < "$patches/series"
[ "$n" != 0 ] || { echo "checkpatch: FAILED: $patches/series lists no patch"; bad=1; }
exit $bad
