#!/bin/bash
# printk-index diff between the default kernels of the two trees (6.1 and
# 6.12): what a monitoring team upgrading between the two LTS kernels needs
# to know.  The tool's summary is checked against counts computed here from
# the oracle's reading of each vmlinux (pi_oracle.py), not from the tool's:
# an entry is the same in both kernels when its file, function, level and
# format are (the line may move), so
#   unchanged           = the entries both kernels have (as multisets),
#   removed + changed   = 6.1's other entries,
#   added + changed     = 6.12's other entries,
# and the exit status is 1, since between two LTS kernels formats were
# removed or reworded.  The summary is written to BUILD/tree-diff.txt for
# README.  Ends with "N passed, M failed".
#
# usage: tree-diff.sh   (BUILD as in the Makefile)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
tool=$top/tools/printk-index/printk-index
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

pass() { echo "ok - $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; shift; printf '%s\n' "$@" | sed 's/^/    /'; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" = 0 ]; exit; }

old=$build/6.1/kernel-default/vmlinux new=$build/6.12/kernel-default/vmlinux
for f in "$old" "$new"; do
	[ -f "$f" ] || fail "$f is built" "no $f: make kernel KERNEL=${f#"$build"/} VARIANT=default (make test builds both)"
done
[ "$failed" = 0 ] || finish
make -s -C "$top/tools/printk-index" printk-index > "$tmp/make.log" 2>&1 ||
	{ fail "printk-index builds" "$(tail -n 5 "$tmp/make.log")"; finish; }

/usr/bin/python3 "$top/test/host/pi_oracle.py" "$old" > "$tmp/old" &&
/usr/bin/python3 "$top/test/host/pi_oracle.py" "$new" > "$tmp/new" ||
	{ fail "the oracle reads both vmlinux files"; finish; }

"$tool" diff "$old" "$new" > "$tmp/diff.out" 2> "$tmp/diff.err"
rc=$?
if [ "$rc" = 1 ]; then
	pass "diff 6.1 6.12 exits 1 (formats removed or changed)"
else
	fail "diff 6.1 6.12 exits 1 (formats removed or changed)" "exit $rc" "$(head -n 3 "$tmp/diff.err")"
fi
summary=$(grep '^printk-index: .* unchanged$' "$tmp/diff.err")
read -r removed added changed moved unchanged < <(echo "$summary" |
	sed -n 's/^printk-index: \([0-9]*\) removed, \([0-9]*\) added, \([0-9]*\) changed, \([0-9]*\) moved, \([0-9]*\) unchanged$/\1 \2 \3 \4 \5/p')
if [ -z "${unchanged:-}" ]; then
	fail "diff prints its summary" "$(tail -n 3 "$tmp/diff.err")"
	finish
fi

# The oracle's counts: lines are '<level> file:line function "format"'.
read -r n_old n_new common < <(/usr/bin/python3 - "$tmp/old" "$tmp/new" <<'EOF'
import collections, re, sys
line_re = re.compile(rb'^(<[^>]*>) (.*):[0-9]+ (\S+) (".*")$')
def entries(path):
    with open(path, "rb") as f:
        lines = f.read().splitlines()[1:]
    return collections.Counter(line_re.match(l).groups() for l in lines)
old, new = entries(sys.argv[1]), entries(sys.argv[2])
print(sum(old.values()), sum(new.values()), sum((old & new).values()))
EOF
)
if [ "$unchanged" = "$common" ] && [ $((removed + changed)) = $((n_old - common)) ] &&
   [ $((added + changed)) = $((n_new - common)) ]; then
	pass "diff's counts agree with the oracle's: $n_old and $n_new entries, $common in both"
else
	fail "diff's counts agree with the oracle's" "diff: $summary" \
		"oracle: 6.1 $n_old entries, 6.12 $n_new, $common in both"
fi
# And the lines: one 'removed'/'added' line per entry, 'changed' per pair.
lines="$(grep -c '^removed ' "$tmp/diff.out") $(grep -c '^added ' "$tmp/diff.out") $(grep -c '^changed ' "$tmp/diff.out")"
if [ "$lines" = "$removed $added $changed" ]; then
	pass "diff lists what its summary counts"
else
	fail "diff lists what its summary counts" "removed/added/changed lines: $lines; summary: $summary"
fi
{
	echo "6.1 default: $n_old entries; 6.12 default: $n_new entries"
	echo "${summary#printk-index: }"
} > "$build/tree-diff.txt"
finish
