# Reads of the debugfs view at every block size and offset return the same
# bytes, and every entry.  Before "printk: index: fix pi_start() ..." a
# plain cat lost one entry per 4 KiB and bs=1 lost about half of the index.
. ./lib.sh

ktap_plan $((READ_CHECKS * 2 + 1))
idx=$DEBUGFS_INDEX
if ! have_debugfs_index; then
	for i in $(seq $((READ_CHECKS * 2 + 1))); do skip "debugfs reads $i" "no debugfs index in $VARIANT"; done
	ktap_done
fi

# A reference read in one big block: the count of its lines is checked
# against the ELF file, every other read against it.
dd if=$idx/vmlinux of=/tmp/ref bs=1048576 2>/dev/null
lines=$(wc -l < /tmp/ref)
check "whole read has every vmlinux entry" test "$lines" = "$(expected_vmlinux_lines)"
read_checks "vmlinux" $idx/vmlinux /tmp/ref

module_read_checks $idx
ktap_done
