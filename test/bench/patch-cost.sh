#!/bin/bash
# What one patch of the series costs in the objects it touches: build the
# named objects at COMMIT's parent and at COMMIT, with the same .config,
# and compare them section by section (objsize.py): code (and whether its
# bytes are the same), .rodata, .data and .printk_index.  The numbers in
# the wrapper patches' changelogs come from this.
#
# OUT keeps a worktree and a build folder for the next run; the objects
# of each state and the comparison go to OUT/<commit>/.
#
# usage: patch-cost.sh TREE CONFIG OUT COMMIT OBJECT.o...
set -euo pipefail
tree=$(realpath "$1") config=$(realpath "$2") out=$(realpath -m "$3") commit=$4
shift 4
here=$(dirname "$(realpath "$0")")

export KBUILD_BUILD_USER=printk-index KBUILD_BUILD_HOST=qemu
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
src=$out/src res=$out/$(git -C "$tree" rev-parse --short "$commit")
if [ ! -d "$src" ]; then
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$src" "$commit"
fi
for state in before after; do
	rev=$commit
	[ $state = before ] && rev=$commit~1
	git -C "$src" checkout -q --detach "$rev"
	mkdir -p "$out/obj"
	cp "$config" "$out/obj/.config"
	make -s -C "$src" O="$out/obj" CC="ccache gcc" olddefconfig >/dev/null
	make -s -C "$src" O="$out/obj" CC="ccache gcc" -j"$(nproc)" "$@"
	rm -rf "${res:?}/$state"
	for o in "$@"; do
		mkdir -p "$res/$state/$(dirname "$o")"
		cp "$out/obj/$o" "$res/$state/$o"
	done
done
echo "$(git -C "$tree" log -1 --format='%h %s' "$commit"): $# objects"
"$here/objsize.py" "$res/after" "$res/before" "$res/details"
