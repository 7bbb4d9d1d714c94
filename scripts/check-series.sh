#!/bin/bash
# Bisectability: build the kernel after each patch of the series, in a git
# worktree of the tree so that the main tree is left alone.  Every patch is
# built in the variants given by CHECK_VARIANTS (default: "default nodebugfs").
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
bad=0
for c in $(git -C "$tree" rev-list --reverse base..HEAD); do
	subject=$(git -C "$tree" log -1 --format=%s "$c")
	git -C "$wt" checkout -q --detach "$c"
	for v in $variants; do
		if CONFIG_MISMATCH=warn "$top/scripts/build-kernel.sh" "$wt" "$work/kernel-$v" "$frags" "$v" "$jobs" > "$work/build.log" 2>&1; then
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
