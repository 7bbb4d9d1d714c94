#!/bin/bash
# 'make test': the boot tests of each tree, then the host tests; one summary
# line at the end.  Boot tests first because they build the kernels and the
# sample modules, which the host tests read (extract of vmlinux and .ko
# files against the oracle and the goldens); without them those cases fail.
#
# A guest under TCG keeps one core busy and builds want both, so the kernels
# and initramfs images are built ahead by one background builder
# (build-ahead.sh), in plan order and at a lower priority, while the guests
# of the variants already built run (boot-test.sh waits for each build).  The guests
# keep their speed and their timeouts; the builds take what they leave.
#
# usage: run-all.sh TREE:VARIANT[,VARIANT...]...   (6.1:default,nodebugfs 6.12:default)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
start=$(date +%s)
total_p=0 total_f=0 total_s=0
# The host tests compare what the trees in the plan built (PI_TEST_TREES).
steps=() builds=() PI_TEST_TREES=
for plan in "$@"; do
	[[ $plan == *:* ]] || { echo "test: '$plan' is not TREE:VARIANT,..."; exit 1; }
	tree=${plan%%:*} variants=${plan#*:}
	steps+=("env KERNEL=$tree $top/test/boot-test.sh ${variants//,/ }")
	for v in ${variants//,/ }; do builds+=("$tree/$v"); done
	PI_TEST_TREES="$PI_TEST_TREES $tree"
done
export PI_TEST_TREES=${PI_TEST_TREES# }
steps+=("$top/test/run-host-tests.sh")

export PI_BUILDS
PI_BUILDS=$(mktemp -d)
setsid nice -n 10 "$top/test/build-ahead.sh" "$PI_BUILDS" "${builds[@]}" &
export PI_BUILDER=$!
trap 'kill -- -$PI_BUILDER 2>/dev/null; wait; rm -rf "$PI_BUILDS"' EXIT

for step in "${steps[@]}"; do
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
