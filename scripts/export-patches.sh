#!/bin/bash
# Write the tree's commits on top of "base" back to patches/ as a
# git format-patch series with a cover letter, and patches/series.
#
# The cover letter is COVER_LETTER (subject on the first line, a blank
# line, then the body; one for every tree's series) followed by CHANGES, so
# the series' history is kept in one place.
#
# usage: export-patches.sh TREE PATCHES_DIR COVER_LETTER CHANGES_FILE SERIES_VERSION
set -euo pipefail

tree=$1 patches=$2 cover_letter=$3 changes=$4 version=$5

git -C "$tree" diff --quiet HEAD ||
	{ echo "export-patches: $tree has uncommitted changes; commit them first" >&2; exit 1; }

count=$(git -C "$tree" rev-list --count base..HEAD)
[ "$count" -gt 0 ] || { echo "export-patches: no commits on top of base" >&2; exit 1; }

cover=$(mktemp)
trap 'rm -f "$cover"' EXIT
{
	cat "$cover_letter"
	echo
	cat "$changes"
} > "$cover"
git -C "$tree" config branch.pi.description "$(cat "$cover")"

mkdir -p "$patches"
rm -f "$patches"/[0-9][0-9][0-9][0-9]-*.patch
reroll=()
[ "$version" -gt 1 ] && reroll=(-v "$version")
# A fixed abbreviation: git's default grows with the number of loose and
# packed objects, so the same series would export differently after a gc.
git -C "$tree" -c core.abbrev=9 format-patch -q --cover-letter --cover-from-description=subject \
	--zero-commit --no-signature "${reroll[@]}" \
	-o "$(realpath "$patches")" base..HEAD
# Numbered file names without the reroll prefix keep 'git log patches/' readable.
for f in "$patches"/v*-[0-9][0-9][0-9][0-9]-*.patch; do
	[ -e "$f" ] && mv "$f" "$patches/${f##*/v"$version"-}"
done
(cd "$patches" && ls [0-9][0-9][0-9][0-9]-*.patch | grep -v '^0000-cover-letter' > series)

# The tree now carries exactly the exported series: tell 'make tree' so.
hash=$( (cd "$patches" && cat series && xargs -r cat < series) | sha1sum | cut -d' ' -f1)
echo "$hash $(git -C "$tree" rev-parse HEAD)" > "$tree/.git/pi-applied"
echo "export-patches: $count patches written to $patches"
