#!/bin/bash
# Host-side unit tests: the harness's own parsers and checks, then the
# user-space tool's tests when the tool is there.  Ends with "N passed, M failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
passed=0 failed=0 skipped=0

# pyunit NAME PYTHON SCRIPT: run a python unittest file and add its
# "Ran N tests" and "FAILED (failures=F, errors=E)" to the totals.
pyunit() {
	local name=$1 out n f
	out=$("$2" "$3" 2>&1)
	n=$(echo "$out" | sed -n 's/^Ran \([0-9]*\) tests\{0,1\}.*/\1/p')
	f=$(echo "$out" | sed -n 's/^FAILED (\(.*\))/\1/p' | grep -o '[0-9]\+' | paste -sd+ | bc)
	f=${f:-0}
	# No "Ran N tests": the script did not run; one failure, nothing passed.
	[ -n "$n" ] || { n=1; f=1; }
	[ "$f" = 0 ] || echo "$out"
	echo "host-test: $name: $((n - f)) passed, $f failed"
	passed=$((passed + n - f)) failed=$((failed + f))
}
pyunit harness python3 "$top/test/host/test_ktap.py"
# Debian's python3, which has python3-pyelftools (make deps).
pyunit "index oracle" /usr/bin/python3 "$top/test/host/test_pi_oracle.py"

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
			KBUILD_DIR="${BUILD:-$top/build}/6.1/kernel-default" 2>&1)"
	# A short, deterministic libFuzzer + ASan/UBSan run of every harness
	# (make fuzz runs longer). Without clang this fails: make deps installs it.
	tally "printk-index fuzz" '^(FAIL|    #|fuzz-smoke: kept)' " (clang with libFuzzer missing? make deps)" \
		"$(make -s -C "$top/tools/printk-index" fuzz-smoke SHARED_DATA="${SHARED:-$top/../shared}/data" 2>&1)"
fi
# The index oracle against the built kernel: fails without a build, unless
# inputs may be missing (PI_TESTS_ALLOW_MISSING); then it counts as skipped.
if [ -n "${PI_TESTS_ALLOW_MISSING:-}" ] && [ ! -e "${BUILD:-$top/build}/6.1/kernel-default/vmlinux" ]; then
	echo "host-test: index oracle vs build: NOT RUN (no kernel build, PI_TESTS_ALLOW_MISSING):" \
		"no kernel, module or golden was compared with the oracle"
	skipped=$((skipped + 1))
else
	tally "index oracle vs build" '^(FAIL|    )' " (no kernel build? make initramfs, or PI_TESTS_ALLOW_MISSING=1)" \
		"$("$top/test/host/oracle-check.sh" 2>&1)"
fi
if [ "$skipped" != 0 ]; then
	echo "host-test: $skipped cases skipped for missing inputs (PI_TESTS_ALLOW_MISSING=${PI_TESTS_ALLOW_MISSING-})"
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" = 0 ]
