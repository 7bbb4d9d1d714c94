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
