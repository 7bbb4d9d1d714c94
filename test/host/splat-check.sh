#!/bin/bash
# Fail when a guest's kernel log shows any report of a kernel problem.
# Fails closed: a log that is missing, unreadable or empty is a failure too.
#
# usage: splat-check.sh [--expect KIND=REGEX]... CONSOLE_LOG
# exit: 0 clean, 1 splat found (the lines are printed), 2 log unusable
#
# --expect is for the runs that provoke reports on purpose ('make corpus',
# test/corpus/provoke.sh), never for a test run: the guest brackets each
# provocation with "pi_provoke: begin KIND" and "pi_provoke: end KIND"
# lines.  Inside a bracket of a declared KIND, a line matching REGEX (the
# report it provokes) and the stack trace's "Call Trace:" are expected,
# and there must be such a REGEX line; any other report there fails as
# anywhere else.  A declared KIND without its bracket, and a bracket begun
# inside another, fail too.
expects=()
while [ $# -gt 1 ] && [ "$1" = --expect ]; do
	case $2 in
	[a-z]*=?*) expects+=("$2") ;;
	*) echo "splat-check: --expect wants KIND=REGEX, not '$2'" >&2; exit 2 ;;
	esac
	shift 2
done
[ $# = 1 ] || { echo "usage: splat-check.sh [--expect KIND=REGEX]... CONSOLE_LOG" >&2; exit 2; }
log=$1
if [ ! -f "$log" ] || [ ! -r "$log" ] || [ ! -s "$log" ]; then
	echo "splat-check: cannot read the guest log '$log'" >&2
	exit 2
fi
# One pattern per kind of report the kernel's detectors print.
patterns=(
	'WARNING:'              # WARN(), lockdep's "WARNING: possible ..." reports
	'BUG:'                  # BUG(), KASAN's "BUG: KASAN: ...", sleeping in atomic
	'Oops'
	'Call Trace:'
	'general protection fault'
	'Kernel panic'
	'KASAN'
	'UBSAN'
	'kmemleak: .*new suspected memory leak'
	'unreferenced object 0x'
	'INFO: possible'        # lockdep
	'INFO: task .* blocked for more than'
	'ODEBUG:'               # debugobjects
	'list_(add|del) corruption'
	'refcount_t: '
	'kobject: .* is not initialized'
	'sysfs: cannot create duplicate filename'
	'rcu: INFO: .*detected stalls'
)
regex=$(IFS='|'; echo "${patterns[*]}")
if ! text=$(tr -d '\r\0' < "$log"); then
	echo "splat-check: cannot read the guest log '$log'" >&2
	exit 2
fi
# Between the fault-injection markers of test/guest/t-faults.sh, failed
# allocations dump stacks on purpose: only "Call Trace:" is let through there.
# The patterns go through the environment: awk -v would undo backslashes.
echo "$text" | SPLAT="$regex" EXPECTS="$(printf '%s\n' "${expects[@]}")" awk '
	BEGIN {
		splat = ENVIRON["SPLAT"]
		n = split(ENVIRON["EXPECTS"], e, "\n")
		for (i = 1; i <= n; i++)
			if (e[i] != "")
				want[substr(e[i], 1, index(e[i], "=") - 1)] = substr(e[i], index(e[i], "=") + 1)
	}
	/printk_index_test: fault injection begins/ { inject = 1 }
	/printk_index_test: fault injection ends/ { inject = 0 }
	match($0, /pi_provoke: begin [a-z_-]+/) {
		kind = substr($0, RSTART + 18, RLENGTH - 18)
		if (region != "") {
			print "splat-check: pi_provoke " kind ": begun inside " region > "/dev/stderr"
			bad = 1
		}
		if (kind in want) {
			region = kind; found = 0; seen[kind] = 1
			next
		}
	}
	region != "" && index($0, "pi_provoke: end " region) {
		if (!found) {
			print "splat-check: pi_provoke " region ": no line matches \"" want[region] "\"" > "/dev/stderr"
			bad = 1
		}
		region = ""
		next
	}
	region != "" && $0 ~ want[region] { found = 1; next }
	region != "" && /Call Trace:/ { next }
	inject && /Call Trace:/ { next }
	$0 ~ splat { print NR ":" $0 > "/dev/stderr"; bad = 1 }
	END {
		if (region != "") {
			print "splat-check: pi_provoke " region ": no end line" > "/dev/stderr"
			bad = 1
		}
		for (kind in want)
			if (!(kind in seen)) {
				print "splat-check: pi_provoke " kind ": expected, never begun" > "/dev/stderr"
				bad = 1
			}
		exit bad
	}'
