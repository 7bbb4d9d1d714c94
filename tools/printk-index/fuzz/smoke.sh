#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A short, deterministic fuzz run: each harness for a fixed number of runs
# with a fixed seed, from its seed corpus. New inputs, crash reproducers
# and logs go to a temporary folder, never into the source tree; it is
# removed when every harness passes and kept (and named) when one fails.
# One line per harness, then "N passed, M failed".
#
#   fuzz/smoke.sh fuzz/fuzz_a:RUNS fuzz/fuzz_b:RUNS ...
set -uo pipefail
tmp=$(mktemp -d "${TMPDIR:-/tmp}/printk-index-fuzz.XXXXXX") || exit 1
passed=0 failed=0
# Same seed, same runs: the same inputs, given two more things. libFuzzer
# learns from the operands of comparisons, pointers among them, so the
# addresses must not move (no ASLR); and it must not re-read its corpus
# folder once a second (-reload=0), which depends on timing.
norand=
setarch "$(uname -m)" -R true 2>/dev/null && norand="setarch $(uname -m) -R"

for arg in "$@"; do
	f=${arg%:*} runs=${arg##*:}
	name=$(basename "$f")
	dir=$tmp/$name
	mkdir -p "$dir/corpus"
	# ELF images are larger than the text inputs
	ml=4096
	[ "$name" = fuzz_elf ] && ml=65536
	start=$SECONDS
	# The first folder gets the new inputs; the seeds are only read.
	# A per-input timeout turns a hang into a failure, not a stuck test.
	$norand "./$f" -seed=1 -runs="$runs" -reload=0 -max_len=$ml -timeout=60 \
		-artifact_prefix="$dir/" "$dir/corpus" "fuzz/seeds/$name" \
		>"$dir/log" 2>&1
	rc=$?
	secs=$((SECONDS - start))
	if [ $rc = 0 ]; then
		echo "fuzz-smoke: $name: ok, $runs runs in ${secs}s"
		passed=$((passed + 1))
		continue
	fi
	# what went wrong, from the sanitizer's or libFuzzer's report
	what=$(grep -m1 -o -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer): [a-z-]+( memory leaks| signal)?|[^ ]*: runtime error: .*' "$dir/log")
	repro=$(ls "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "$dir"/oom-* 2>/dev/null | head -n 1)
	echo "FAIL fuzz-smoke: $name: ${what:-exit status $rc}; reproducer ${repro:-none}; log $dir/log"
	# the first frames in our code
	grep -E '^ *#[0-9]+ .* in ' "$dir/log" | grep -v -E ' in (__|fuzzer::|main |_start|malloc|calloc|realloc|free)' |
		head -n 3 | sed 's/^ */    /'
	failed=$((failed + 1))
done

if [ $failed = 0 ]; then
	rm -rf "$tmp"
else
	echo "fuzz-smoke: kept $tmp; rerun one input with: ./fuzz/<harness> <reproducer>"
fi
echo "$passed passed, $failed failed"
[ $failed = 0 ]
