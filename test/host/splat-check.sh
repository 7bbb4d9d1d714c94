#!/bin/bash
# Fail when a guest's kernel log shows any report of a kernel problem.
# Fails closed: a log that is missing, unreadable or empty is a failure too.
#
# usage: splat-check.sh CONSOLE_LOG
# exit: 0 clean, 1 splat found (the lines are printed), 2 log unusable
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
# Between the fault-injection markers of test/guest/t-faults.sh, failed
# allocations dump stacks on purpose: only "Call Trace:" is let through there.
if ! text=$(tr -d '\r\0' < "$log"); then
	echo "splat-check: cannot read the guest log '$log'" >&2
	exit 2
fi
if echo "$text" |
   awk '/printk_index_test: fault injection begins/ { inject = 1 }
	/printk_index_test: fault injection ends/ { inject = 0 }
	{ print (inject && /Call Trace:/) ? "(stack dump of an injected fault)" : $0 }' |
   grep -E -n "$regex" >&2; then
	exit 1
fi
exit 0
