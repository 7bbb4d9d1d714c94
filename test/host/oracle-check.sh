#!/bin/bash
# The index oracle (pi_oracle.py) against everything else that claims to
# know a build's index, on the host: printk-index extract on the vmlinux and
# every sample module .ko of each built kernel, the checked-in goldens, the
# "index:" comments of pi_sample.c, pi_count.py's count, and diff's counts
# between the two trees' default kernels.  Then the same
# comparisons on deliberately corrupted copies, which must fail: a check
# that cannot fail proves nothing.  Ends with "N passed, M failed".
#
# 6.1's kernel-default (with its sample modules, built by 'make initramfs')
# must be there: without it this fails.  Every other built variant of either
# tree (BUILD/<tree>/kernel-<variant>) is checked too.
#
# usage: oracle-check.sh   (BUILD as in the Makefile)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
oracle=$top/test/host/pi_oracle.py
tool=$top/tools/printk-index/printk-index
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

pass() { echo "ok - $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; shift; printf '%s\n' "$@" | sed 's/^/    /'; failed=$((failed + 1)); }

# differ A B: nothing when A and B are the same bytes, else where they part.
differ() {
	cmp -s "$1" "$2" && return 0
	cmp "$1" "$2" 2>&1 | head -n 1
	diff "$1" "$2" | head -n 4 | cut -c 1-160
	return 1
}

# same NAME A B: one case, A and B byte for byte.
same() {
	local out
	if out=$(differ "$2" "$3"); then pass "$1"; else fail "$1" "$out"; fi
}

# must_differ NAME A B: one case, A and B must not be the same bytes (the
# corrupted-input tests: differ() must see the damage).
must_differ() {
	if differ "$2" "$3" >/dev/null; then
		fail "$1" "the check passed on a corrupted input"
	else
		pass "$1"
	fi
}

# The source whose index: comments state its module's index.
sample_src=$top/test/modules/pi_sample/pi_sample.c

if ! make -s -C "$top/tools/printk-index" printk-index > "$tmp/make.log" 2>&1; then
	fail "printk-index builds" "$(tail -n 5 "$tmp/make.log")"
	echo "$passed passed, $failed failed"
	exit 1
fi

# check_layout NAME ELF: one case, ELF's index entries lie side by side:
# every one at a 4-byte boundary and 44 bytes (its size) from the next,
# where two are adjacent, not the 64 that gcc's 32-byte alignment of
# aggregates gives them (the series' patch "do not let gcc pad index
# entries").  For vmlinux and pi_sample.ko, which have entries side by side,
# of kernels without KASAN.
check_layout() {
	local out n
	out=$("$oracle" --layout "$2") || { fail "$1: oracle reads its layout"; return; }
	n=${out%% *}
	if [ "$out" = "$n $n 44" ]; then
		pass "$1: $n index entries side by side, 44 bytes apart"
	else
		fail "$1: index entries side by side, 44 bytes apart" \
			"entries, 4-byte aligned, smallest gap: $out"
	fi
}

# check_descriptors NAME KOUT: one case, the dynamic debug descriptors of
# KOUT's vmlinux are 56 bytes apart with CONFIG_JUMP_LABEL, 40 without:
# the two layouts that the readers of descriptors (the kernel's, extract's,
# the oracle's) take on a real kernel.
check_descriptors() {
	local want=40 out
	grep -q '^CONFIG_JUMP_LABEL=y' "$2/.config" && want=56
	out=$("$oracle" --descriptors "$2/vmlinux")
	if [ "${out#* }" = "$want" ] && [ "${out%% *}" -gt 0 ]; then
		pass "$1: vmlinux has ${out%% *} dynamic debug descriptors of $want bytes"
	else
		fail "$1: vmlinux's dynamic debug descriptors are $want bytes" "descriptors, stride: $out"
	fi
}

# check_kernel KOUT NAME: every comparison for one built kernel, named
# TREE/VARIANT ("6.1/default"); its files in $tmp start with TREE-VARIANT.
check_kernel() {
	local kout=$1 v=$2 f=${2/\//-} dir name ko golden n out dyndbg kasan
	"$oracle" "$kout/vmlinux" > "$tmp/$f.vmlinux.oracle" || { fail "$v: oracle reads vmlinux"; return; }
	"$tool" extract "$kout/vmlinux" > "$tmp/$f.vmlinux.extract" 2>&1 || true
	same "$v: extract of vmlinux equals the oracle" "$tmp/$f.vmlinux.oracle" "$tmp/$f.vmlinux.extract"
	# pi_count.py (what the guest counts lines with) against the oracle.
	n=$("$oracle" --count "$kout/vmlinux")
	if [ "$n" = "$("$top/test/host/pi_count.py" "$kout/vmlinux")" ] &&
	   [ "${n#* }" = $(($(wc -l < "$tmp/$f.vmlinux.oracle") - 1)) ]; then
		pass "$v: pi_count.py and the oracle count $n"
	else
		fail "$v: pi_count.py and the oracle count alike" "oracle: $n, pi_count.py: $("$top/test/host/pi_count.py" "$kout/vmlinux")"
	fi
	# KASAN puts a redzone after every global, so the entries of a KASAN
	# kernel's modules are never side by side: no layout check there.
	kasan=
	grep -q '^CONFIG_KASAN=y' "$kout/.config" && kasan=1
	[ -n "$kasan" ] || check_layout "$v: vmlinux" "$kout/vmlinux"
	dyndbg=
	grep -q '^CONFIG_DYNAMIC_DEBUG=y' "$kout/.config" && dyndbg=--dynamic-debug
	[ -z "$dyndbg" ] || check_descriptors "$v" "$kout"
	grep -q '^CONFIG_MODULES=y' "$kout/.config" || return
	for dir in "$top"/test/modules/*/; do
		name=$(basename "$dir")
		set -- "$kout/ext-modules/$name"/*.ko
		if [ ! -e "$1" ]; then
			fail "$v: $name built" "no $kout/ext-modules/$name/*.ko (make initramfs KERNEL=${v%/*} VARIANT=${v#*/})"
			continue
		fi
		for ko in "$@"; do
			"$oracle" "$ko" > "$tmp/$f.$name.oracle" || { fail "$v: oracle reads $ko"; continue; }
			"$tool" extract "$ko" > "$tmp/$f.$name.extract" 2>&1 || true
			same "$v: extract of $(basename "$ko") equals the oracle" "$tmp/$f.$name.oracle" "$tmp/$f.$name.extract"
			[ "$name" = pi_sample ] && [ -z "$kasan" ] &&
				check_layout "$v: $(basename "$ko")" "$ko"
		done
		# A golden belongs to the one module its folder builds, and
		# NAME.VARIANT.golden to that variant only (a module whose calls
		# depend on the configuration).  The goldens are of kernels
		# without dynamic debug: with it, the series indexes pr_debug()
		# sites too, and pi_sample.c's "index: dyndbg" comments (checked
		# below) say which.
		for golden in "$dir"*.golden; do
			[ -e "$golden" ] || continue
			case ${golden##*/} in
			"$name.golden" | "$name.${v#*/}.golden") ;;
			*) continue ;;
			esac
			if [ -n "$dyndbg" ] && grep -q 'index: dyndbg ' "$dir"*.c; then
				continue
			fi
			if [ $# != 1 ]; then
				fail "$v: $(basename "$golden") has one module" "$dir builds $# modules"
				continue
			fi
			same "$v: $(basename "$golden") equals the oracle" "$golden" "$tmp/$f.$name.oracle"
		done
	done
	# pi_wrappers.c's comments, in the variant that makes all its calls.
	set -- "$top/test/modules/pi_wrappers/pi_wrappers.${v#*/}.golden"
	[ ! -e "$1" ] || source_check "$v: the oracle of pi_wrappers.ko and its golden equal pi_wrappers.c's index: comments" \
		"$top/test/modules/pi_wrappers/pi_wrappers.c" "$tmp/$f.pi_wrappers.oracle" "$1"
	if [ -e "$tmp/$f.pi_sample.oracle" ]; then
		set -- "$tmp/$f.pi_sample.oracle"
		name="the oracle of pi_sample.ko (with dynamic debug)"
		if [ -z "$dyndbg" ]; then
			set -- "$@" "$top/test/modules/pi_sample/pi_sample.golden"
			name="the oracle of pi_sample.ko and pi_sample.golden"
		fi
		source_check "$v: $name equal pi_sample.c's index: comments" $dyndbg "$sample_src" "$@"
	fi
}

# source_check NAME [--dynamic-debug] SOURCE ORACLE [GOLDEN]: the case NAME
# passes when SOURCE's "index:" comments state the oracle's lines (and the
# golden's) but for file:line.
source_check() {
	local name=$1 out
	shift
	if out=$("$top/test/host/pi_source_check.py" "$@"); then
		pass "$name"
	else
		fail "$name" "$out"
	fi
}

if [ ! -f "$build/6.1/kernel-default/vmlinux" ]; then
	fail "6.1 kernel-default is built" "no $build/6.1/kernel-default/vmlinux: run 'make initramfs' (or set PI_TESTS_ALLOW_MISSING=1 to run the host tests without it)"
fi
# The harness's variants only (a kconfig fragment each): make bench builds
# kernel-drivers-unwrapped beside them, without the sample modules.  Without
# the index, vmlinux has no .printk_index: the oracle must say so (the guest
# then expects no index file) rather than print a header.
for kout in "$build"/*/kernel-*/; do
	kout=${kout%/}
	[ -f "$top/kconfig-fragments/${kout##*/kernel-}.config" ] && [ -f "$kout/vmlinux" ] || continue
	tree=${kout%/kernel-*}
	tree=${tree##*/}
	if grep -q '^CONFIG_PRINTK_INDEX=y' "$kout/.config"; then
		check_kernel "$kout" "$tree/${kout##*/kernel-}"
		continue
	fi
	n=$("$oracle" --count "$kout/vmlinux")
	if [ "$n" = "0 0" ]; then pass "$tree/${kout##*/}: no index, no entries"; else fail "$tree/${kout##*/}: no index, no entries" "oracle counts $n"; fi
done

# The checks themselves, on corrupted copies, each of which must fail:
# what a golden, or all three readers at once, would show with one line
# number off by one or one level wrong, and pi_sample.c with an index
# comment wrong or missing.
# corrupt SRC DST SED_SCRIPT: DST is SRC edited; fails if nothing changed.
corrupt() {
	sed "$3" "$1" > "$2"
	! cmp -s "$1" "$2" || { echo "self-test: '$3' did not change $1" >&2; return 1; }
}

# source_check_fails NAME SOURCE INDEX: one case, pi_source_check.py must
# reject INDEX against SOURCE.
source_check_fails() {
	if "$top/test/host/pi_source_check.py" "$2" "$3" > /dev/null; then
		fail "$1" "pi_source_check.py passed it"
	else
		pass "$1"
	fi
}

idx=$tmp/6.1-default.pi_sample.oracle
if [ -e "$idx" ]; then
	golden=$top/test/modules/pi_sample/pi_sample.golden
	# pr_err() of pi_sample_levels() is at line 44, pr_warn() at 45.
	line='s/^\(<3> pi_sample\.c:\)44 \(pi_sample_levels\)/\145 \2/'
	level='s/^<4> \(pi_sample\.c:45 \)/<3> \1/'
	if corrupt "$golden" "$tmp/line.golden" "$line" &&
	   corrupt "$golden" "$tmp/level.golden" "$level" &&
	   corrupt "$idx" "$tmp/line.index" "$line" &&
	   corrupt "$idx" "$tmp/level.index" "$level" &&
	   corrupt "$sample_src" "$tmp/level.c" '45s/index: <4>/index: <3>/' &&
	   corrupt "$sample_src" "$tmp/none.c" '44s|\t/\* index:.*||'; then
		must_differ "self-test: a golden with a wrong line number fails against the oracle" "$tmp/line.golden" "$idx"
		must_differ "self-test: a golden with a wrong level fails against the oracle" "$tmp/level.golden" "$idx"
		source_check_fails "self-test: readers agreeing on a wrong line number fail against pi_sample.c" "$sample_src" "$tmp/line.index"
		source_check_fails "self-test: readers agreeing on a wrong level fail against pi_sample.c" "$sample_src" "$tmp/level.index"
		source_check_fails "self-test: pi_sample.c with a wrong level fails" "$tmp/level.c" "$idx"
		source_check_fails "self-test: pi_sample.c with a call not annotated fails" "$tmp/none.c" "$idx"
	else
		fail "self-test: the corrupted copies" "a corruption did not apply (see above)"
	fi
fi

# printk-index diff between the two trees' default kernels, what a
# monitoring team upgrading from 6.1 to 6.12 needs to know, against counts
# made here from the oracle's reading of each vmlinux (check_kernel above).
# An entry is the same in both when its file, function, level and format
# are (its line may move), so
#   unchanged           = the entries both kernels have (as multisets),
#   removed + changed   = 6.1's other entries,
#   added + changed     = 6.12's other entries,
# and the exit status is 1, since between two LTS kernels formats were
# removed or reworded.  The summary goes to BUILD/tree-diff.txt (README).
check_tree_diff() {
	local old=$build/6.1/kernel-default/vmlinux new=$build/6.12/kernel-default/vmlinux
	local rc summary removed added changed moved unchanged n_old n_new common lines
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
		return
	fi
	# The oracle's lines are '<level> file:line function "format"'.
	read -r n_old n_new common < <(/usr/bin/python3 - "$tmp/6.1-default.vmlinux.oracle" "$tmp/6.12-default.vmlinux.oracle" <<'EOF'
import collections, re, sys
line_re = re.compile(rb'^(<[^>]*>) (.*):[0-9]+ (\S+) (".*")$')
def entries(path):
    with open(path, "rb") as f:
        return collections.Counter(line_re.match(l).groups() for l in f.read().splitlines()[1:])
old, new = entries(sys.argv[1]), entries(sys.argv[2])
print(sum(old.values()), sum(new.values()), sum((old & new).values()))
EOF
)
	if [ "$unchanged" = "$common" ] && [ $((removed + changed)) = $((n_old - common)) ] &&
	   [ $((added + changed)) = $((n_new - common)) ]; then
		pass "diff 6.1 6.12 counts as the oracle does: $n_old and $n_new entries, $common in both"
	else
		fail "diff 6.1 6.12 counts as the oracle does" "diff: $summary" \
			"oracle: 6.1 $n_old entries, 6.12 $n_new, $common in both"
	fi
	lines="$(grep -c '^removed ' "$tmp/diff.out") $(grep -c '^added ' "$tmp/diff.out") $(grep -c '^changed ' "$tmp/diff.out")"
	if [ "$lines" = "$removed $added $changed" ]; then
		pass "diff 6.1 6.12 lists what its summary counts"
	else
		fail "diff 6.1 6.12 lists what its summary counts" "removed/added/changed lines: $lines; summary: $summary"
	fi
	printf '6.1 default: %s entries; 6.12 default: %s entries\n%s\n' \
		"$n_old" "$n_new" "${summary#printk-index: }" > "$build/tree-diff.txt"
}

# PI_TEST_TREES: the trees whose kernels this run built (make test sets
# it from its plan); without 6.12 among them, the diff is a declared skip.
skipped=0
if [ -e "$tmp/6.1-default.vmlinux.oracle" ] && [ -e "$tmp/6.12-default.vmlinux.oracle" ]; then
	check_tree_diff
elif [ -n "${PI_TESTS_ALLOW_MISSING:-}" ]; then
	echo "skip - diff 6.1 6.12: a default kernel is not built (PI_TESTS_ALLOW_MISSING)"
	skipped=1
elif [ -n "${PI_TEST_TREES:-}" ] && [[ " $PI_TEST_TREES " != *" 6.12 "* ]]; then
	echo "skip - diff 6.1 6.12: 6.12 is not in this run's plan (PI_TEST_TREES=$PI_TEST_TREES)"
	skipped=1
else
	fail "the default kernels of 6.1 and 6.12 are built, for diff 6.1 6.12" \
		"make kernel KERNEL=6.12 VARIANT=default (make test builds both)"
fi

if [ "$skipped" != 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" = 0 ]
