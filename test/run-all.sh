#!/bin/bash
# 'make test': the boot tests of each tree, then the host tests; one summary
# line at the end.  Boot tests first because they build the kernels and the
# sample modules, which the host tests read (extract of vmlinux and .ko
# files against the oracle and the goldens); without them those cases fail.
#
# usage: run-all.sh TREE:VARIANT[,VARIANT...]...   (6.1:default,nodebugfs 6.12:default)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
start=$(date +%s)
total_p=0 total_f=0 total_s=0
# The host tests compare what the trees in the plan built (PI_TEST_TREES).
steps=() PI_TEST_TREES=
for plan in "$@"; do
	[[ $plan == *:* ]] || { echo "test: '$plan' is not TREE:VARIANT,..."; exit 1; }
	steps+=("env KERNEL=${plan%%:*} $top/test/boot-test.sh ${plan#*:}")
	PI_TEST_TREES="$PI_TEST_TREES ${plan%%:*}"
done
export PI_TEST_TREES=${PI_TEST_TREES# }
steps+=("$top/test/run-host-tests.sh")
for step in "${steps[@]}"; do
	step=${step//,/ }
	out=$(mktemp)
	t0=$(date +%s)
	$step 2>&1 | tee "$out"
	echo "test: ${step#env } took $(( $(date +%s) - t0 ))s"
	line=$(tail -n 1 "$out")
	rm -f "$out"
	if [[ $line =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed(,\ ([0-9]+)\ skipped)?$ ]]; then
		total_p=$((total_p + BASH_REMATCH[1])) total_f=$((total_f + BASH_REMATCH[2]))
		total_s=$((total_s + ${BASH_REMATCH[4]:-0}))
	else
		echo "test: $step ended without a summary"
		total_f=$((total_f + 1))
	fi
done
echo "test: took $(( $(date +%s) - start ))s"
# Skips are declared ones only (a variant built without the feature, or
# inputs allowed missing): say how many.
if [ "$total_s" != 0 ]; then
	echo "$total_p passed, $total_f failed, $total_s skipped"
else
	echo "$total_p passed, $total_f failed"
fi
[ "$total_f" = 0 ]
