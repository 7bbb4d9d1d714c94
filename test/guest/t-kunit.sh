# The printk index's KUnit suite (CONFIG_PRINTK_INDEX_KUNIT_TEST) ran at boot
# in the kernel; its KTAP is in the kernel log.  Each of its cases becomes
# one result here, so a failing KUnit case fails the run by name.  It reads
# the boot log init saved: by now other tests may have flooded the ring
# buffer or cleared it.
. ./lib.sh

cp $BOOT_DMESG /tmp/dmesg
# The suite's block: from its "# Subtest:" line to its own result line.
sed -n '/^    # Subtest: printk_index$/,/^\(not \)\{0,1\}ok [0-9]* printk_index$/p' /tmp/dmesg > /tmp/kunit
if ! feature kunit; then
	ktap_plan 1
	check "no printk index KUnit suite in $VARIANT" test ! -s /tmp/kunit
	ktap_done
fi

# Cases at four spaces, parameters of a parameterised case at eight.
cases=$(grep -cE '^ +(not )?ok [0-9]+ ' /tmp/kunit)
ktap_plan $((cases + 2))
if [ ! -s /tmp/kunit ]; then
	# A debug kernel logs so much at boot that a small ring buffer loses
	# the suite's lines before init saves them (qemu/debug.args asks for a
	# larger one).
	fail "KUnit suite printk_index ran and passed" "the suite's KTAP is not in dmesg" \
		"$(grep -c . /tmp/dmesg) lines in dmesg, first: $(head -n 1 /tmp/dmesg)"
	ktap_done
fi
check "KUnit suite printk_index ran and passed" grep -qE '^ok [0-9]+ printk_index$' /tmp/kunit
# The module notifier's case is built only with modules: it must be there
# exactly when they are.
if have_modules; then
	check "KUnit case pi_module_notify_test ran (modules)" grep -qE '^    ok [0-9]+ pi_module_notify_test$' /tmp/kunit
else
	check "no KUnit case pi_module_notify_test without modules" sh -c '! grep -q pi_module_notify_test /tmp/kunit'
fi
grep -E '^ +(not )?ok [0-9]+ ' /tmp/kunit > /tmp/kunit.results
while read -r status rest; do
	[ "$status" = not ] && rest=${rest#ok }
	name=${rest#* }
	if [ "$status" = ok ]; then ok "kunit: $name"; else fail "kunit: $name"; fi
done < /tmp/kunit.results
ktap_done
