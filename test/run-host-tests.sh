#!/bin/bash
# Host-side unit tests: the harness's own parsers and checks, then the
# user-space tool's tests when the tool is there.  Ends with "N passed, M failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
passed=0 failed=0 skipped=0

# python unittest: "Ran N tests" and "FAILED (failures=F, errors=E)".
out=$(python3 "$top/test/host/test_ktap.py" 2>&1)
n=$(echo "$out" | sed -n 's/^Ran \([0-9]*\) tests\{0,1\}.*/\1/p')
f=$(echo "$out" | sed -n 's/^FAILED (\(.*\))/\1/p' | grep -o '[0-9]\+' | paste -sd+ | bc)
[ -n "$n" ] || { echo "$out"; n=0; f=1; }
f=${f:-0}
[ "$f" = 0 ] || echo "$out"
echo "host-test: harness: $((n - f)) passed, $f failed"
passed=$((passed + n - f)) failed=$((failed + f))

# tally NAME SHOW_RE MISSING_HINT OUTPUT: add the "N passed, M failed" line
# of OUTPUT to the totals, showing its lines that match SHOW_RE; no such line
# is one failure.
tally() {
	local name=$1 show=$2 hint=$3 out=$4 line p f
	line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
	if [ -z "$line" ]; then
		echo "$out" | tail -n 30
		echo "host-test: $name: did not report$hint"
		failed=$((failed + 1))
		return
	fi
	echo "$out" | grep -E "$show" | head -n 50
	echo "host-test: $name: $line"
	read -r p _ f _ s _ <<< "${line//,/}"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + ${s:-0}))
}

if [ -f "$top/tools/printk-index/Makefile" ]; then
	# The tool's tests need the shared index and the default kernel's build:
	# a missing one fails them, unless PI_TESTS_ALLOW_MISSING is set (a quick
	# run without a kernel build), and then the summary says so.
	tally printk-index '^(FAIL|not ok|SKIP|assertions:)' "" \
		"$(make -s -C "$top/tools/printk-index" test SHARED_DATA="${SHARED:-$top/../shared}/data" \
			KBUILD_DIR="${BUILD:-$top/build}/kernel-default" 2>&1)"
	# A short, deterministic libFuzzer + ASan/UBSan run of every harness
	# (make fuzz runs longer). Without clang this fails: make deps installs it.
	tally "printk-index fuzz" '^(FAIL|    #|fuzz-smoke: kept)' " (clang with libFuzzer missing? make deps)" \
		"$(make -s -C "$top/tools/printk-index" fuzz-smoke 2>&1)"
fi
if [ "$skipped" != 0 ]; then
	echo "host-test: $skipped cases skipped for missing inputs (PI_TESTS_ALLOW_MISSING=${PI_TESTS_ALLOW_MISSING-})"
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" = 0 ]
