# Shared by the bench scripts (sourced).

# unwrapped_worktree TREE DIR: make DIR a git worktree of the patched TREE
# at the series without its wrapper patches, that is at the last of the
# "printk: index:" patches the series starts with (later "printk: index:"
# patches, after the wrappers, do not change what the index covers), and
# print that commit as "hash subject".
unwrapped_worktree() {
	local tree=$1 dir=$2 base
	base=$(git -C "$tree" log --reverse --format='%H %s' base..HEAD |
		awk '$2 != "printk:" || $3 != "index:" { exit } { last = $1 } END { print last }')
	if [ -z "$base" ]; then
		echo "no 'printk: index:' commit in $tree" >&2
		return 1
	fi
	if [ "$(git -C "$dir" rev-parse HEAD 2>/dev/null)" != "$base" ]; then
		rm -rf "$dir"
		git -C "$tree" worktree prune
		git -C "$tree" worktree add -q --detach "$dir" "$base" || return 1
	fi
	git -C "$tree" log -1 --format='%h %s' "$base"
}

# bench_paths WORK_DIR: the paths the coverage benches share, for the tree
# BUILD/KERNEL as in the Makefile (top: the repository): tbuild, work (made),
# tree, unwrapped (its worktree) and tool.
bench_paths() {
	tbuild=$(realpath -m "${BUILD:-$top/build}/${KERNEL:-6.1}")
	work=$(realpath -m "$1")
	tree=$tbuild/linux unwrapped=$tbuild/linux-unwrapped
	tool=$top/tools/printk-index/printk-index
	mkdir -p "$work"
}

# match_counts SUMMARY: "N A G U" from match's summary line, "printk-index:
# N lines: A attributed, G generic-only, U unattributed (...)".
match_counts() {
	sed -n 's/^printk-index: \([0-9]*\) lines: \([0-9]*\) attributed, \([0-9]*\) generic-only, \([0-9]*\) unattributed.*/\1 \2 \3 \4/p' "$1"
}

# pct A N: A as a share of N, "12.3%".
pct() { awk -v a="$1" -v n="$2" 'BEGIN { printf "%.1f%%", 100 * a / n }'; }
