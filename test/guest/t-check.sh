# printk-index check in the guest: log-monitoring rules against the running
# kernel's own index (/sys/kernel/printk_index), with exact verdicts: a rule
# for a message every boot prints is live by its vmlinux call site, a
# renamed message is stale (exit 1), unsupported syntax is an error naming
# the rule (exit 2), and a rule for the sample module's message is live by
# pi_sample only while it is loaded (then unknown: a %pV pass-through of
# vmlinux could print it; exit 0, 1 with --strict).
. ./lib.sh

ktap_plan 6
rules=/test/check.rules

if ! have_index; then
	printk-index check $rules > /tmp/out 2> /tmp/err
	rc=$?
	check "noindex: check fails with exit 2 and says why" sh -c \
		"test $rc = 2 && grep -q 'printk-index' /tmp/err"
	for i in $(seq 2 6); do skip "check case $i" "no index in $VARIANT"; done
	ktap_done
fi

printk-index check $rules > /tmp/check.out 2> /tmp/check.err
rc=$?
check "boot messages: every rule live, exit 0 ($(cat /tmp/check.err))" sh -c \
	"test $rc = 0 && grep -q '^$rules:3 init live: ' /tmp/check.out &&
	 grep -q '^$rules:4 cmdline live: ' /tmp/check.out"
check "the live entries are init/main.c's call sites, with their levels" sh -c \
	"grep -q '^    live vmlinux <6> init/main.c:[0-9]* run_init_process \"Run %s as init process\\\\n\" 20/20\$' /tmp/check.out &&
	 grep -q '^    live vmlinux <5> init/main.c:[0-9]* start_kernel \"Kernel command line: %s\\\\n\" 21/21\$' /tmp/check.out"

# The same message, renamed as a rule written for another kernel would have it.
printf 'renamed\tRun \\S+ as the init process\n' > /tmp/stale.rules
printk-index check /tmp/stale.rules > /tmp/check.out 2> /tmp/check.err
rc=$?
check "a renamed message is stale: exit 1" sh -c \
	"test $rc = 1 && grep -q '^/tmp/stale.rules:1 renamed stale: ' /tmp/check.out &&
	 grep -q '1 rules: 0 live, 0 live-by-arguments, 0 unknown, 1 stale' /tmp/check.err"

printf 'ok\tRun \\S+ as init process\nbackref\t(a)\\1\n' > /tmp/bad.rules
printk-index check /tmp/bad.rules > /tmp/check.out 2> /tmp/check.err
rc=$?
check "unsupported syntax: exit 2, naming file:line, label and construct" sh -c \
	"test $rc = 2 && grep -q '/tmp/bad.rules:2: rule backref: offset 3: back-reference' /tmp/check.err"

if ! have_modules; then
	for i in 5 6; do skip "module case $i" "no modules in $VARIANT"; done
	ktap_done
fi

printf 'load\tpi_sample: loading \\(fail_init=\\d+\\)\n' > /tmp/module.rules
rmmod pi_sample 2> /dev/null
# Where the golden index file says the message is.
site=$(sed -n 's/^<6> \(pi_sample\.c:[0-9]*\) pi_sample_init "pi_sample: loading (fail_init=%d)\\n"$/\1/p' /test/pi_sample.golden)
insmod $MODULES/pi_sample.ko
printk-index check /tmp/module.rules > /tmp/check.out 2> /tmp/check.err
rc=$?
check "with pi_sample loaded its message is live, exit 0" sh -c \
	"test $rc = 0 && grep -q '^/tmp/module.rules:1 load live: ' /tmp/check.out &&
	 grep -qF '    live pi_sample <6> $site pi_sample_init \"pi_sample: loading (fail_init=%d)\\n\" 31/31' /tmp/check.out"
rmmod pi_sample
printk-index check /tmp/module.rules > /tmp/check.out 2> /tmp/check.err
rc=$?
printk-index check --strict /tmp/module.rules > /dev/null 2>&1
strict=$?
check "after rmmod the same rule is unknown: exit 0, 1 with --strict" sh -c \
	"test $rc = 0 && test $strict = 1 &&
	 grep -q '^/tmp/module.rules:1 load unknown: ' /tmp/check.out &&
	 grep -q '^    through vmlinux ' /tmp/check.out"
ktap_done
