#!/bin/bash
# scripts/checkpatch.pl --strict on every patch of the series; fails on any
# error, warning or check.
#
# usage: checkpatch.sh TREE PATCHES_DIR
set -uo pipefail
tree=$1 patches=$2
[ -f "$patches/series" ] || { echo "checkpatch: no patches/series"; exit 0; }
bad=0
while read -r p; do
	case "$p" in ''|'#'*) continue ;; esac
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
exit $bad
