#!/bin/bash
# Boot each variant of one tree (KERNEL, 6.1 unless set) and run the guest
# tests (test/guest/run-all) in it.
# Each variant's results are parsed from its KTAP; a variant that does not
# build, does not boot, times out, reports nothing, or whose kernel log shows
# a splat counts as failed.  Ends with "N passed, M failed".
#
# usage: [KERNEL=tree] boot-test.sh VARIANT...
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
export KERNEL=${KERNEL:-6.1}
build=${BUILD:-$top/build}/$KERNEL

# build VARIANT LOG: the kernel and initramfs of VARIANT, made by
# build-ahead.sh: under run-all.sh by its builder, which runs ahead of the
# guests (PI_BUILDS, PI_BUILDER) and is waited for; otherwise here and now.
build() {
	local t0 rc secs dir=${PI_BUILDS:-}
	t0=$(date +%s)
	if [ -z "$dir" ]; then
		echo "boot-test: $KERNEL/$1: building"
		dir=$own_builds
		"$top/test/build-ahead.sh" "$dir" "$KERNEL/$1"
	else
		echo "boot-test: $KERNEL/$1: waiting for the builder"
	fi
	while [ ! -e "$dir/$KERNEL-$1.rc" ]; do
		if ! kill -0 "${PI_BUILDER:-}" 2>/dev/null && [ ! -e "$dir/$KERNEL-$1.rc" ]; then
			echo "the builder (build-ahead.sh) ended before building $KERNEL/$1" > "$2"
			return 1
		fi
		sleep 2
	done
	cp "$dir/$KERNEL-$1.log" "$2"
	read -r rc secs < "$dir/$KERNEL-$1.rc"
	echo "boot-test: $KERNEL/$1: built in ${secs}s, waited $(($(date +%s) - t0))s"
	return "$rc"
}
own_builds=$(mktemp -d)
trap 'rm -rf "$own_builds"' EXIT

passed=0 failed=0 skipped=0
for v in "$@"; do
	logdir=$build/logs/boot-test-$v
	rm -rf "$logdir"
	mkdir -p "$logdir"
	if ! build "$v" "$logdir/build.log"; then
		tail -n 30 "$logdir/build.log"
		echo "FAIL $KERNEL/$v: the kernel or its initramfs did not build (log: $logdir/build.log)"
		failed=$((failed + 1))
		continue
	fi
	echo "boot-test: $KERNEL/$v: booting"
	start=$(date +%s)
	"$top/qemu/run-guest.sh" --variant "$v" --kernel "$build/kernel-$v/arch/x86/boot/bzImage" \
		--initrd "$build/initramfs-$v.cpio.gz" --log-dir "$logdir" \
		--cmd "LOOPS=${LOOPS:-short} sh /test/run-all" > "$logdir/ktap.log" 2> "$logdir/run.err"
	rc=$?
	cat "$logdir/run.err"
	summary=$("$top/test/host/ktap.py" --name "$KERNEL/$v" "$logdir/ktap.log")
	krc=$?
	echo "$summary" | grep -v '^ktap:' || true
	read -r p f s < <(echo "$summary" | sed -n 's/^ktap: .*: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p')
	passed=$((passed + ${p:-0})) failed=$((failed + ${f:-1})) skipped=$((skipped + ${s:-0}))
	# run-guest.sh exits 0 or with the runner's status; anything from 124 up
	# is the guest itself failing (timeout, panic, splat).
	if [ "$rc" -ge 124 ]; then
		echo "FAIL $KERNEL/$v: guest failed (exit $rc), console log: $logdir/console.log"
		failed=$((failed + 1))
	elif ! "$top/test/host/splat-check.sh" "$logdir/console.log" 2>/dev/null; then
		echo "FAIL $KERNEL/$v: kernel splat in $logdir/console.log"
		failed=$((failed + 1))
	fi
	echo "boot-test: $KERNEL/$v: ${p:-0} passed, ${f:-?} failed, ${s:-0} skipped in $(( $(date +%s) - start ))s (ktap exit $krc)"
done
# Guest skips are declared: a case the variant's .config says it lacks.
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
