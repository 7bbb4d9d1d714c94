#!/bin/bash
# Record the kernel reports fleets monitor, as real kernels print them, for
# printk-index's log corpus ('make corpus'): two guests, each console log
# kept with the index of the kernel and module that printed it.
#
#   defconfig  x86_64_defconfig with the series (the kernel of 'make
#              bench-defconfig'): e1000 link flaps (QEMU's set_link through
#              QMP), ext4 errors on a corrupted file system mounted with
#              errors=remount-ro, a WARN() from test/corpus/pi_provoke, a
#              netdev_warn() without a device from it, and the OOM killer
#              (a dd whose buffer outgrows the guest).
#   debug      the debug variant (KASAN, lockdep, hung task detection):
#              a lockdep circular locking report, a KASAN slab-out-of-bounds
#              report and a hung task, each from pi_provoke (the hung task
#              timeout, 2 s for it, is back to 0 before the rmmod, whose
#              delayed kobject release could take as long).
#
# Each provocation is bracketed by "pi_provoke: begin/end KIND" lines and
# the splat check is told which report each bracket must hold
# (run-guest.sh --expect-report): a report outside its bracket, or a
# bracket without its report, fails the run as in a test.
#
# Writes OUT/provoked-defconfig/ and OUT/provoked-debug/, each with
# console.log (the serial console, CR removed) and index/ (what printk-index
# extract reads from the kernel's vmlinux and pi_provoke.ko).  'make
# corpus' writes them to the build folder; the tool's tests read the copy
# in tools/printk-index/tests/data/, refreshed on purpose ('make corpus
# CORPUS_OUT=tools/printk-index/tests/data', then the tests' expectations
# checked).  Not part of 'make test': the defconfig kernel is an hour of
# CPU to build cold.
#
# usage: provoke.sh WORK_DIR OUT_DIR
# environment: BUILD, KERNEL, JOBS as for the Makefile
set -euo pipefail

[ $# = 2 ] || { echo "usage: $0 WORK_DIR OUT_DIR" >&2; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/bench/lib.sh"
bench_paths "$1"
out=$(realpath -m "$2")

log() { echo "corpus: $*" >&2; }

for v in defconfig debug; do
	log "building the $v kernel and image"
	make -s -C "$top" initramfs KERNEL="${KERNEL:-6.1}" VARIANT=$v >&2
	"$top/scripts/build-module.sh" "$tbuild/kernel-$v" "$top/test/corpus/pi_provoke" "${JOBS:-2}" >/dev/null
	mkdir -p "$work/overlay-$v/corpus"
	cp "$tbuild/kernel-$v/ext-modules/pi_provoke/pi_provoke.ko" "$work/overlay-$v/corpus/"
done
make -s -C "$top/tools/printk-index" >&2

# The guest's helpers: mark a bracket, wait for COUNT lines of a pattern.
helpers='mark() { echo "pi_provoke: $*" > /dev/kmsg; }
wait_for() {
	i=0
	while [ $i -lt 120 ] && [ $(dmesg | grep -c "$1") -lt $2 ]; do sleep 1; i=$((i + 1)); done
	[ $(dmesg | grep -c "$1") -ge $2 ] || { echo "no $2 lines of \"$1\" after 120 s"; exit 1; }
}'

# A file system whose directory names an inode that debugfs cleared: the
# lookup finds a deleted inode, ext4_lookup() reports the corruption.
bad=$work/corrupt.ext4
rm -f "$bad"
echo "a file whose inode is cleared" > "$work/file.txt"
PATH=$PATH:/usr/sbin:/sbin mkfs.ext4 -q -F -L pi-corrupt "$bad" 8M
PATH=$PATH:/usr/sbin:/sbin debugfs -w -R "write $work/file.txt file" "$bad" >/dev/null 2>&1
PATH=$PATH:/usr/sbin:/sbin debugfs -w -R "clri file" "$bad" >/dev/null 2>&1

# The link flaps, from the host: once e1000 reports its link up, take it
# down and up twice through QMP, each time after the guest saw the change.
flap() {
	exec python3 - "$1" "$2" <<'EOF'
import json, socket, sys, time
sock_path, console = sys.argv[1], sys.argv[2]

def count(text):
    try:
        return open(console, errors="replace").read().count(text)
    except OSError:
        return 0

def wait(text, n):
    for _ in range(600):
        if count(text) >= n:
            return
        time.sleep(0.5)
    sys.exit("flap: no %d lines of %r in %s" % (n, text, console))

wait("NIC Link is Up", 1)
s = socket.socket(socket.AF_UNIX)
s.connect(sock_path)
f = s.makefile("rw")
f.readline()                                        # QMP greeting

def command(verb, **arguments):
    f.write(json.dumps({"execute": verb, "arguments": arguments}) + "\n")
    f.flush()
    while True:                                     # skip events
        reply = json.loads(f.readline())
        if "return" in reply or "error" in reply:
            if "error" in reply:
                sys.exit("flap: %s: %s" % (verb, reply["error"]))
            return

command("qmp_capabilities")
for n in (1, 2):
    command("set_link", name="nic0", up=False)
    wait("NIC Link is Down", n)
    command("set_link", name="nic0", up=True)
    wait("NIC Link is Up", n + 1)
EOF
}

log "booting the defconfig guest (link flaps, ext4 errors, WARN, OOM)"
gd=$work/guest-defconfig
mkdir -p "$gd"
rm -f "$gd/console.log" "$work/qmp.sock"
"$top/qemu/run-guest.sh" --variant defconfig --memory 512 --timeout 900 \
	--kernel "$tbuild/kernel-defconfig/arch/x86/boot/bzImage" \
	--initrd "$tbuild/initramfs-defconfig.cpio.gz" --overlay "$work/overlay-defconfig" \
	--log-dir "$gd" \
	--qemu-arg -netdev --qemu-arg user,id=net0 \
	--qemu-arg -device --qemu-arg e1000,netdev=net0,id=nic0 \
	--qemu-arg -drive --qemu-arg "file=$bad,if=virtio,format=raw" \
	--qemu-arg -qmp --qemu-arg "unix:$work/qmp.sock,server=on,wait=off" \
	--expect-report 'warn=WARNING: CPU: .* pi_provoke' \
	--expect-report 'oom=invoked oom-killer' \
	--cmd "$helpers"'
ip link set eth0 up || exit 1
wait_for "NIC Link is Up" 3
wait_for "NIC Link is Down" 2
mkdir -p /mnt && mount -t ext4 -o errors=remount-ro /dev/vda /mnt || exit 1
cat /mnt/file 2>/dev/null && { echo "a cleared inode was read"; exit 1; }
wait_for "Remounting filesystem read-only" 1
umount /mnt
mark begin warn
insmod /corpus/pi_provoke.ko warn=1 && rmmod pi_provoke
mark end warn
insmod /corpus/pi_provoke.ko null_netdev=1 && rmmod pi_provoke
mark begin oom
echo 1 > /proc/sys/vm/overcommit_memory
dd if=/dev/zero of=/dev/null bs=768M count=1 2>/dev/null && { echo "dd was not killed"; exit 1; }
wait_for "Out of memory: Killed process" 1
mark end oom' &
guest=$!
flap "$work/qmp.sock" "$gd/console.log" & flapper=$!
# an interrupted run leaves neither QEMU nor the flapper behind
stop_defconfig_guest() {
	pkill -P "$guest" 2>/dev/null || true
	kill "$guest" "$flapper" 2>/dev/null || true
}
trap stop_defconfig_guest EXIT
guest_rc=0 flap_rc=0
wait $guest || guest_rc=$?
# The guest ends once it has seen the last flap, which the flapper sees in
# the console log within a poll; one that is still waiting will wait alone.
for _ in 1 2 3 4 5; do kill -0 $flapper 2>/dev/null && sleep 1; done
kill $flapper 2>/dev/null || true
wait $flapper || flap_rc=$?
if [ $guest_rc != 0 ] || [ $flap_rc != 0 ]; then
	log "the defconfig guest failed (guest $guest_rc, link flaps $flap_rc), see $gd/console.log"
	exit 1
fi

log "booting the debug guest (lockdep, KASAN, hung task)"
gb=$work/guest-debug
"$top/qemu/run-guest.sh" --variant debug \
	--kernel "$tbuild/kernel-debug/arch/x86/boot/bzImage" \
	--initrd "$tbuild/initramfs-debug.cpio.gz" --overlay "$work/overlay-debug" \
	--log-dir "$gb" \
	--expect-report 'lockdep=WARNING: possible circular locking dependency detected' \
	--expect-report 'kasan=BUG: KASAN: slab-out-of-bounds in pi_' \
	--expect-report 'hang=INFO: task pi_provoke_hang:[0-9]* blocked for more than' \
	--cmd "$helpers"'
mark begin lockdep
insmod /corpus/pi_provoke.ko lockdep=1 && rmmod pi_provoke
mark end lockdep
mark begin kasan
insmod /corpus/pi_provoke.ko kasan=1 && rmmod pi_provoke
mark end kasan
mark begin hang
echo 2 > /proc/sys/kernel/hung_task_timeout_secs
insmod /corpus/pi_provoke.ko hang=1 || exit 1
wait_for "blocked for more than" 1
echo 0 > /proc/sys/kernel/hung_task_timeout_secs
rmmod pi_provoke
mark end hang' || { log "the debug guest failed, see $gb/console.log"; exit 1; }

for v in defconfig debug; do
	d=$out/provoked-$v
	rm -rf "$d"
	mkdir -p "$d/index"
	tr -d '\r' < "$work/guest-$v/console.log" > "$d/console.log"
	"$tool" extract -o "$d/index" "$tbuild/kernel-$v/vmlinux" \
		"$tbuild/kernel-$v/ext-modules/pi_provoke/pi_provoke.ko" > /dev/null
	log "$d: $(wc -l < "$d/console.log") lines, index of $(ls "$d/index" | tr '\n' ' ')"
done
