# printk-index match --follow in the guest: it streams /dev/kmsg records as
# JSON lines while a module loads, attributes each of the module's messages
# to its call site (the same golden as t-tool.sh), its pr_cont line to the
# base and continuation entries in order, reports records lost to a ring
# buffer overrun and goes on, and stops with exit 0 on SIGTERM.
. ./lib.sh

ktap_plan 8
out=/tmp/follow.json

# wait_for PATTERN [WRITE]: until the follower's output has a line matching
# PATTERN (grep -E), writing WRITE to /dev/kmsg each round if given (the
# follower starts at the end of the log: a record written before it
# reached it would never show); gives up after about 30 seconds.
wait_for() {
	local i=0
	while ! grep -qE "$1" $out 2>/dev/null; do
		[ $i -ge 150 ] && return 1
		[ -n "$2" ] && echo "$2" > /dev/kmsg
		usleep 200000
		i=$((i + 1))
	done
}

# The module's messages as the follower attributed them, in the shape of
# t-tool.sh's golden ("attributed MODULE FILE:LINE FUNCTION +OTHERS"): the
# messages t-tool.sh keeps, from the records written after insmod.
module_lines() {
	pi_jsonl $out message attribution.generic attribution.module attribution.file \
		attribution.line attribution.function attribution.others |
	sed -n '/^follow-insmod	/,$p' |
	grep -E '^[^	]*(pi_sample:| pisample0 )|^no level 1	|^default level 1	' |
	grep -v -e 'loading out-of-tree module taints kernel' -e 'a very long format' |
	awk -F'	' '{ printf "%s %s %s:%s %s +%s\n", $2 == "false" ? "attributed" : ($2 == "true" ? "generic" : "unattributed"), $3, $4, $5, $6, $7 }'
}

printk-index match --follow > $out 2> /tmp/follow.err &
pid=$!
check "the follower reports records written to /dev/kmsg after it started" \
	wait_for '"message":"follow-ready"' follow-ready

if ! have_index; then
	check "noindex: records stream with a null attribution" sh -c \
		"grep '\"message\":\"follow-ready\"' $out | grep -q '\"attribution\":null}\$' &&
		 grep -q 'no printk index' /tmp/follow.err"
	skip "pr_cont pieces" "no index in $VARIANT"
elif ! have_modules; then
	skip "module messages" "no modules in $VARIANT"
	skip "pr_cont pieces" "no modules in $VARIANT"
else
	echo follow-insmod > /dev/kmsg
	insmod $MODULES/pi_sample.ko
	echo follow-loaded > /dev/kmsg
	wait_for '"message":"follow-loaded"'
	module_lines > /tmp/follow.match
	check "each pi_sample message is attributed to its call site" \
		same_file /tmp/follow.match /test/pi_sample.match
	pi_jsonl $out message attribution.pieces.file attribution.pieces.line \
		attribution.pieces.function > /tmp/follow.pieces
	check "the pr_cont line is attributed to its base and continuation entries in order" \
		grep -qxF "pi_sample: counting: 2 done	pi_sample.c,pi_sample.c,pi_sample.c	54,55,56	pi_sample_continuation,pi_sample_continuation,pi_sample_continuation" \
		/tmp/follow.pieces
	rmmod pi_sample
fi

# A flood while the follower is stopped: records of 900 bytes, as many as
# would fill the ring buffer almost twice (CONFIG_LOG_BUF_SHIFT=17: 128 KiB;
# the debug variant boots with log_buf_len=4M, which the kernel logs). Debug
# level, so that the console does not print them; one open per record, so
# that /dev/kmsg's per-open rate limit does not drop them.
buf_bytes=$(sed -n 's/.*printk: log_buf_len: \([0-9]*\) bytes$/\1/p' $BOOT_DMESG | head -n 1)
buf_bytes=${buf_bytes:-131072}
pad=$(printf '%0880d' 0)
kill -STOP $pid
i=0
while [ $i -lt $((buf_bytes / 512 + 100)) ]; do
	echo "<15>follow-flood $i: $pad" > /dev/kmsg
	i=$((i + 1))
done
kill -CONT $pid
wait_for '"message":"follow-after-flood"' follow-after-flood
after_flood=$?
check "a flood past the ring buffer gives a lost-records line and the stream goes on" sh -c \
	"test $after_flood = 0 &&
	 grep -qE '^\{\"lost\":[1-9][0-9]*,\"seq\":[0-9]+,\"reason\":\"overrun\"\}\$' $out"

kill -TERM $pid
wait $pid
rc=$?
check "SIGTERM stops the follower with exit status 0" sh -c \
	"test $rc = 0 || { echo exit status $rc; cat /tmp/follow.err; exit 1; }"
check "every output line is one JSON object" pi_jsonl $out
check "a device that is not /dev/kmsg is refused with exit 2" sh -c \
	"printk-index match --follow /dev/null; test \$? = 2"
check "--from-start --no-wait reads the whole buffer and ends by itself" sh -c \
	"timeout 60 printk-index match --follow --from-start --no-wait > /tmp/all.json &&
	 pi_jsonl /tmp/all.json && grep -q '\"message\":\"follow-after-flood\"' /tmp/all.json"
ktap_done
