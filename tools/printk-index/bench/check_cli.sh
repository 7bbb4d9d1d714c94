#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/check_cli.sh BINARY INDEX N: time "printk-index check" itself,
# verdicts and output included, on N rules made from the index's own
# literal text: the text of every 3rd format up to its first conversion
# (at least 12 bytes), regex-escaped; every tenth rule has its first word
# of 4+ letters renamed to Xyzzy, so that it should not be live.
bin=$1 index=$2 n=${3:-1000}
rules=$(mktemp) out=$(mktemp) err=$(mktemp)
trap 'rm -f "$rules" "$out" "$err"' EXIT
awk -v n="$n" '
	NR > 1 && NR % 3 == 0 {
		f = $0; sub(/^[^"]*"/, "", f); sub(/"$/, "", f)
		sub(/%.*/, "", f); gsub(/\\n/, "", f)
		if (length(f) < 12 || index(f, "\\")) next
		gsub(/[][.^$*+?(){}|\\]/, "\\\\&", f)
		if (k % 10 == 9 && !sub(/[A-Za-z][A-Za-z][A-Za-z][A-Za-z]+/, "Xyzzy", f)) next
		printf "r%d\t%s\n", k, f
		if (++k == n) exit
	}' "$index" > "$rules"
echo "rules: $(wc -l < "$rules") from $index"
TIMEFORMAT='check command: %R s wall, %U s user, %S s sys'
time "$bin" check --index "$index" "$rules" > "$out" 2> "$err"
tail -1 "$err"
