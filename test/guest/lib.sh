# KTAP helpers for the guest tests (busybox sh).  A test script says how many
# cases it has with ktap_plan, then reports each with ok/fail/skip or with
# check, which runs a command and reports its status.  The host counts the
# results; a script that dies before reporting all of them is a failure.

_ktap_n=0
_ktap_failed=0

ktap_plan() {
	echo "KTAP version 1"
	echo "1..$1"
}

ok() {
	_ktap_n=$((_ktap_n + 1))
	echo "ok $_ktap_n $1"
}

# fail NAME [DIAGNOSTIC...]: report a failed case; the diagnostics go before
# it as KTAP comment lines.
fail() {
	local name=$1 d
	_ktap_n=$((_ktap_n + 1))
	_ktap_failed=1
	shift
	for d in "$@"; do echo "# $d"; done
	echo "not ok $_ktap_n $name"
}

skip() {
	_ktap_n=$((_ktap_n + 1))
	echo "ok $_ktap_n $1 # SKIP $2"
}

# check NAME COMMAND...: ok when COMMAND succeeds; its output becomes
# diagnostics when it fails.
check() {
	local name=$1 _out
	shift
	if _out=$("$@" 2>&1); then
		ok "$name"
	else
		fail "$name" "command: $*" "$(echo "$_out" | head -n 20 | sed 's/^/  /')"
	fi
}

ktap_done() {
	exit $_ktap_failed
}

# The two views of the printk index, and where a module's file lives in each.
SYSFS_INDEX=/sys/kernel/printk_index
DEBUGFS_INDEX=/sys/kernel/debug/printk/index
MODULES=/lib/modules
# The kernel log as it was when the tests started (saved by the guest's init).
BOOT_DMESG=/tmp/boot.dmesg

HEADER='# <level/flags> filename:line function "format"'

# feature NAME: this variant is declared to have NAME (test/guest/features,
# copied into /test/features for the variant).  Tests decide by the
# declaration, not by what the guest shows: a missing feature that was
# declared fails its tests (and t-features.sh) rather than skipping them.
feature() { grep -qx "$1" /test/features; }
have_index() { feature index; }
have_debugfs() { feature debugfs; }
have_debugfs_index() { feature debugfs && feature index; }
have_modules() { feature modules; }

# The number of lines of vmlinux's index after the header (entries with a
# format, and dynamic debug call sites the index lists), counted on the
# host from the ELF file (test/host/pi_count.py).
expected_vmlinux_lines() { echo $(( $(cut -d' ' -f2 /test/vmlinux.count) + 1 )); }

# bad_lines FILE: the lines of an index file that are neither the header nor
# '<level[,c]> file:line function "format"'.
bad_lines() {
	sed -n '1!p' "$1" | grep -Ev '^<(-1|[0-7]|[0-7],c|c)> [^ ]+:[0-9]+ [^ ]+ ".*"$'
	sed -n '1p' "$1" | grep -vxF "$HEADER"
}

# same_file A B: byte for byte, with a diff of the first differences.
same_file() {
	cmp "$1" "$2" >/dev/null 2>&1 && return 0
	cmp "$1" "$2"
	diff "$1" "$2" | head -n 10
	return 1
}

# The debug variant's long loops (KASAN and lockdep under TCG make each
# step slow) run with LOOPS=long (make test-full); make test, and so CI,
# runs them short (LOOPS=short) to fit its time.  Other variants are fast
# and always run them whole.
short_loops() {
	[ "$VARIANT" = debug ] && [ "${LOOPS:-short}" != long ]
}

READ_SIZES="1 7 100 1000 4095 4096 65536"
# How many cases read_checks reports.
READ_CHECKS=8

# read_checks NAME FILE REFERENCE [BYTEWISE]: FILE read with every block size
# in READ_SIZES, and reassembled from reads at many offsets (lseek + read of
# varying lengths, straddling lines and pages), must equal REFERENCE byte for
# byte.  With BYTEWISE "short", the one-byte reads are skipped under
# short_loops: a sysfs read renders a line for each byte of vmlinux's file,
# four minutes of the debug variant's run.  Reports READ_CHECKS cases.
read_checks() {
	local name=$1 file=$2 ref=$3 bs size maxchunk off len
	for bs in $READ_SIZES; do
		if [ $bs = 1 ] && [ "${4:-}" = short ] && short_loops; then
			skip "$name: read with bs=1" "LOOPS=short in $VARIANT (make test-full reads it)"
			continue
		fi
		dd if="$file" of=/tmp/read.out bs=$bs 2>/dev/null
		check "$name: read with bs=$bs" same_file /tmp/read.out "$ref"
	done
	size=$(wc -c < "$ref")
	maxchunk=$((size / 40 + 2))
	off=0
	: > /tmp/read.out
	while [ $off -lt $((size + 3)) ]; do
		len=$(( (off * 7 + 13) % maxchunk + 1 ))
		dd if="$file" bs=$len count=1 iflag=skip_bytes,fullblock skip=$off 2>/dev/null >> /tmp/read.out
		off=$((off + len))
	done
	check "$name: reassembled from reads at many offsets" same_file /tmp/read.out "$ref"
}

# vmlinux_checks FILE: the header, the line grammar and the number of lines
# of a vmlinux index file already read into FILE.  Reports 3 cases.
vmlinux_checks() {
	local lines want
	check "header line" test "$(head -n 1 "$1")" = "$HEADER"
	check "every line parses" test -z "$(bad_lines "$1")"
	lines=$(wc -l < "$1")
	want=$(expected_vmlinux_lines)
	if [ "$lines" = "$want" ]; then
		ok "one line per vmlinux entry ($want)"
	else
		fail "one line per vmlinux entry" "read $lines lines, the ELF file has $want (header included)"
	fi
}

# module_read_checks DIR: read_checks on the sample module's file in DIR
# while it is loaded, or skips without modules.  Reports READ_CHECKS cases.
module_read_checks() {
	local i
	if have_modules; then
		insmod $MODULES/pi_sample.ko
		read_checks "pi_sample" "$1/pi_sample" /test/pi_sample.golden
		rmmod pi_sample
	else
		for i in $(seq $READ_CHECKS); do skip "module reads $i" "no modules in $VARIANT"; done
	fi
}
