# The printk-index tool in the guest: it lists the index files exactly as
# the kernel wrote them, attributes every message of the sample module to
# its call site, and attributes every line of the guest's own boot log.
. ./lib.sh

ktap_plan 6
idx=$SYSFS_INDEX

if ! have_index; then
	printk-index list > /tmp/out 2> /tmp/err
	rc=$?
	check "noindex: list fails with exit 2 and says why" sh -c \
		"test $rc = 2 && grep -q 'printk-index' /tmp/err"
	for i in $(seq 2 6); do skip "tool case $i" "no index in $VARIANT"; done
	ktap_done
fi

check "list vmlinux prints the file back byte for byte" sh -c \
	"printk-index list $idx/vmlinux | cmp - $idx/vmlinux"
check "list of the whole folder parses every file" sh -c "printk-index list > /tmp/all"
# The boot log: everything the kernel printed before any module was loaded.
# A line only catch-all formats (no literal text: KUnit's "%s %zd %s%s%s")
# print is reported unattributed; -v says so on the line after its text.
printk-index match -v $BOOT_DMESG > /tmp/boot.match 2> /tmp/boot.summary
rc=$?
only_catch_all_unattributed() {
	grep -q '^[0-9]* [a-z]' /tmp/boot.match &&
	awk '$2 == "unattributed" { getline; getline; if ($0 !~ /^    only catch-all formats print it/) bad++ }
	     END { exit bad > 0 }' /tmp/boot.match
}
check "every boot log line is attributed or printed by catch-all formats only (exit $rc: $(cat /tmp/boot.summary))" \
	sh -c "test $rc = 0" && only_catch_all_unattributed

if ! have_modules; then
	for i in 4 5 6; do skip "module case $i" "no modules in $VARIANT"; done
	ktap_done
fi

dmesg -c > /dev/null
insmod $MODULES/pi_sample.ko
check "list of a module file prints it back byte for byte" sh -c \
	"printk-index list $idx/pi_sample | cmp - /test/pi_sample.golden"
# The module's own messages (the kernel may print others meanwhile, and says
# "taints kernel" only at the first load of the boot).  The very long format
# is left out: printk cuts its message short, so no format but a generic one
# can match what is left of it.  With their levels ("<3>", dmesg -r), as
# t-follow reads them: a level tells dev_err_probe()'s line from
# dev_warn_probe()'s generic entry in vmlinux.
dmesg -r | grep -E 'pi_sample:| pisample0 |^<[0-9]+>no level 1$|^<[0-9]+>default level 1$' |
	grep -v -e 'loading out-of-tree module taints kernel' -e 'a very long format' > /tmp/module.log
printk-index match /tmp/module.log > /tmp/module.out 2>/dev/null
rc=$?
cut -d' ' -f2- /tmp/module.out > /tmp/module.match
check "match attributes each module message to its call site (exit $rc)" sh -c \
	"test $rc = 0 && cmp /tmp/module.match /test/pi_sample.match"
rmmod pi_sample
printk-index match /tmp/module.log > /tmp/module.out 2>/dev/null
rc=$?
check "after rmmod the module's messages are no longer attributed to it (exit $rc)" sh -c \
	"test $rc = 0 && test \$(wc -l < /tmp/module.out) = \$(wc -l < /tmp/module.log) &&
	 ! grep -q ' pi_sample pi_sample.c:' /tmp/module.out"
ktap_done
