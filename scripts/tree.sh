#!/bin/bash
# Extract linux-source into the build folder as a git repository with one base
# commit (tagged "base"), then apply patches/series on top with git am.
#
# Cheap to rerun: while patches/ is what the tree was last made from, the tree
# is left alone (it is where the series is edited, with git).  When patches/
# changed, the tree is reset to "base" and the series applied again; a tree
# with commits or edits that were not exported is never thrown away: we stop
# and say so, unless FORCE=1.
#
# usage: tree.sh TARBALL TREE PATCHES_DIR
set -euo pipefail

tarball=$1 tree=$2 patches=$3
stamp=$tree/.git/pi-applied

die() { echo "tree: $*" >&2; exit 1; }

[ -r "$tarball" ] || die "$tarball not found (Debian package linux-source)"

series_hash() {
	# The series file and every patch it names, in order.
	if [ -f "$patches/series" ]; then
		(cd "$patches" && cat series && sed -e '/^#/d' -e '/^$/d' series | xargs -r cat)
	fi | sha1sum | cut -d' ' -f1
}

src_version() {
	local v
	v=$(dpkg-query -W -f='${Package} ${Version}' "$(dpkg -S "$tarball" 2>/dev/null | cut -d: -f1)" 2>/dev/null) || v=unknown
	echo "$v ($(make -s -C "$tree" kernelversion 2>/dev/null))"
}

if [ ! -d "$tree/.git" ]; then
	echo "tree: extracting $tarball"
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -xf "$tarball" -C "$tree.tmp"
	mv "$tree.tmp"/linux-source-* "$tree"
	rmdir "$tree.tmp"
	git -C "$tree" init -q -b pi
	git -C "$tree" config user.name "Printk Index Developers"
	git -C "$tree" config user.email "printk-index@example.org"
	git -C "$tree" config core.autocrlf false
	# Debian's tarball ignores every top-level path ("/*", for its own
	# packaging repository), which would hide new files from 'git status'
	# and 'git add' in the tree.  The base commit drops that rule; the
	# kernel's own ignore rules stay.
	sed -i -e '/^# Debian packaging: ignore everything at the top level/,/^!\/debian\/$/d' "$tree/.gitignore"
	git -C "$tree" add -A -f .
	git -C "$tree" commit -q -m "base: $(basename "$tarball")"
	git -C "$tree" tag base
fi

want=$(series_hash)
head=$(git -C "$tree" rev-parse HEAD)
applied_hash= applied_head=
[ -f "$stamp" ] && read -r applied_hash applied_head < "$stamp"

# patches/ has not changed since the tree was last made from it: the tree is
# the developer's to edit, build and commit in; leave it as it is.
if [ "$applied_hash" = "$want" ]; then
	local_work=
	[ "$head" = "$applied_head" ] || local_work=" + $(git -C "$tree" rev-list --count "$applied_head..HEAD" 2>/dev/null || echo some) local commits"
	git -C "$tree" diff --quiet HEAD || local_work="$local_work + uncommitted changes"
	echo "tree: up to date: $(src_version), $(git -C "$tree" rev-list --count base.."$applied_head") patches applied$local_work"
	exit 0
fi

# patches/ changed: the tree must be remade, but never at the cost of work
# that was not exported.
if [ "${FORCE:-0}" != 1 ]; then
	if ! git -C "$tree" diff --quiet HEAD; then
		die "patches/ changed, but $tree has uncommitted changes; commit them and 'make export-patches', or FORCE=1 to drop them"
	fi
	if [ "$(git -C "$tree" rev-parse base)" != "$head" ] && [ "$applied_head" != "$head" ]; then
		die "patches/ changed, but $tree has commits that are not in patches/; 'make export-patches' first, or FORCE=1 to drop them"
	fi
fi

git -C "$tree" am --abort >/dev/null 2>&1 || true
git -C "$tree" checkout -q -f pi 2>/dev/null || true
git -C "$tree" reset -q --hard base
git -C "$tree" clean -q -fdx -e .git
if [ -f "$patches/series" ]; then
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		git -C "$tree" am -q --keep-cr "$(realpath "$patches/$p")" ||
			die "patch $p does not apply; the tree is left in 'git am' state"
	done < "$patches/series"
fi
echo "$want $(git -C "$tree" rev-parse HEAD)" > "$stamp"
echo "tree: $(src_version), $(git -C "$tree" rev-list --count base..HEAD) patches applied"
