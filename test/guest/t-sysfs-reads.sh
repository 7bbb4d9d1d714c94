# Reads of the sysfs view at every block size and offset return exactly the
# bytes of the whole file (the debugfs view where there is one), and reads
# past the end return nothing.
. ./lib.sh

cases=$((READ_CHECKS * 2 + 2))
ktap_plan $cases
idx=$SYSFS_INDEX
if ! have_index; then
	for i in $(seq $cases); do skip "sysfs reads $i" "no sysfs index in $VARIANT"; done
	ktap_done
fi

if have_debugfs; then
	cat $DEBUGFS_INDEX/vmlinux > /tmp/ref
else
	dd if=$idx/vmlinux of=/tmp/ref bs=1048576 2>/dev/null
fi
read_checks "vmlinux" $idx/vmlinux /tmp/ref short
size=$(stat -c %s $idx/vmlinux)
check "reads at and past the end return 0 bytes" sh -c \
	"test \$(dd if=$idx/vmlinux bs=4096 iflag=skip_bytes skip=$size 2>/dev/null | wc -c) = 0 &&
	 test \$(dd if=$idx/vmlinux bs=4096 iflag=skip_bytes skip=$((size + 100000)) 2>/dev/null | wc -c) = 0"
dd if=$idx/vmlinux of=/tmp/tail.out bs=4096 iflag=skip_bytes skip=$((size - 10)) 2>/dev/null
tail -c 10 /tmp/ref > /tmp/tail.ref
check "a read straddling the end returns the last 10 bytes" same_file /tmp/tail.out /tmp/tail.ref

module_read_checks $idx
ktap_done
