#!/bin/bash
# The printk index benchmarks ('make bench'): one Markdown table, printed and
# written to OUTPUT_FILE.  test/bench/README.md says what each row means and
# how it is measured.
#
# Two guests are booted (default, then noindex) with the kernels already in
# $tbuild/kernel-{default,noindex}; nothing here builds a kernel.  Timings
# under TCG are noisy, so every figure is a median of many repetitions, and
# the results are ratios of two medians taken in the same boot (interleaved),
# except where a row says it compares two boots.
#
# usage: run-bench.sh OUTPUT_FILE
# environment: BUILD (default <repo>/build) and KERNEL (default 6.1), SHARED (default <repo>/../shared),
#   BENCH_ENTRIES (printk call sites of the generated module, default 5000),
#   TIMEOUT (seconds per guest, default 600), JOBS, KVM (see qemu/run-guest.sh)
set -euo pipefail

[ $# = 1 ] || { echo "usage: $0 OUTPUT_FILE" >&2; exit 2; }
output=$(realpath -m "$1")
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/test/bench
# One tree's build folder (BUILD/KERNEL, as in the Makefile).
tbuild=$(realpath -m "${BUILD:-$top/build}/${KERNEL:-6.1}")
SHARED=$(realpath -m "${SHARED:-$top/../shared}")
N=${BENCH_ENTRIES:-5000}
export TIMEOUT=${TIMEOUT:-600} JOBS=${JOBS:-$(nproc)}
work=$tbuild/bench
start=$(date +%s)

log() { echo "bench: $*" >&2; }
die() { echo "bench: $*" >&2; exit 1; }

for v in default noindex; do
	for f in vmlinux arch/x86/boot/bzImage .config; do
		[ -e "$tbuild/kernel-$v/$f" ] ||
			die "no $tbuild/kernel-$v/$f: build the kernels first (make kernel VARIANT=$v)"
	done
done
grep -q '^CONFIG_PRINTK_INDEX=y' "$tbuild/kernel-default/.config" || die "kernel-default has no PRINTK_INDEX"
grep -q '^CONFIG_DEBUG_FS=y' "$tbuild/kernel-default/.config" || die "kernel-default has no DEBUG_FS"
! grep -q '^CONFIG_PRINTK_INDEX=y' "$tbuild/kernel-noindex/.config" || die "kernel-noindex has PRINTK_INDEX"

rm -rf "$work"
mkdir -p "$work"

# ---------------------------------------------------------------- build
# The same static helper the guest gets from initramfs/build.sh, for the
# host-side timings.
gcc -Wall -Wextra -O2 -static -o "$work/pi_bench" "$top/test/guest-tools/pi_bench.c"

# The generated module: N printk call sites, built for both kernels.  Module
# builds write into the kernel's build folder: take the lock that
# scripts/build-kernel.sh takes, so that a kernel build going on at the same
# time is not disturbed.
mkdir -p "$work/src/pi_bmem"
cp "$here/pi_bmem/Kbuild" "$work/src/pi_bmem/"
"$here/pi_bmem/gen-pi_bmem.py" "$N" "$work/src/pi_bmem/pi_bmem.c"
for v in default noindex; do
	kout=$tbuild/kernel-$v
	log "building pi_bmem ($N printk calls) and the $v guest image"
	flock "$kout.lock" "$top/scripts/build-module.sh" "$kout" "$work/src/pi_bmem" "$JOBS" >/dev/null
	# The guest image, with pi_bench (test/guest-tools/) and the sample
	# modules; our own copy, so that the harness's images are left alone.
	flock "$kout.lock" "$top/initramfs/build.sh" "$v" "$kout" "$work/initramfs-$v.cpio.gz" >/dev/null
	ov=$work/overlay-$v
	mkdir -p "$ov/bench"
	cp "$kout/ext-modules/pi_bmem/pi_bmem.ko" "$ov/bench/"
done
# The same modules without their index: .printk_index (the entry pointers)
# and its relocations removed, so that the kernel sees 0 entries and
# everything else (code, strings, size of the rest) is unchanged.
ovd=$work/overlay-default/bench
for m in pi_bmem:"$ovd/pi_bmem.ko" pi_sample:"$tbuild/kernel-default/ext-modules/pi_sample/pi_sample.ko"; do
	objcopy --remove-section=.printk_index --remove-section=.rela.printk_index \
		"${m#*:}" "$ovd/${m%%:*}_noidx.ko"
done
[ -f "$tbuild/kernel-noindex/ext-modules/pi_sample/pi_sample.ko" ] || die "no pi_sample.ko for noindex"

# ---------------------------------------------------------------- guests
cat > "$work/overlay-default/bench/guest.sh" <<'EOF'
# Default variant: both views, one boot.  Every line starts with a tag.
S=/sys/kernel/printk_index D=/sys/kernel/debug/printk/index M=/lib/modules B=/bench
dmesg -n 1	# keep module messages off the (slow, emulated) serial console
set -e
# Row 8: the guest booted with initcall_debug; pi_init() makes vmlinux's
# files.  Without KALLSYMS the initcall is named by its address, PI_INIT.
echo "pi_init $(dmesg | sed -n 's/.*initcall \(pi_init+[^ ]*\|PI_INIT\) returned \(-*[0-9]*\) after \([0-9]*\) usecs.*/ret=\2 usecs=\3/p')"
echo "vmlinux lines=$(wc -l < $S/vmlinux) bytes=$(wc -c < $S/vmlinux) md5=$(md5sum < $S/vmlinux | cut -d' ' -f1)"
cmp -s $S/vmlinux $D/vmlinux && echo "views same=1" || echo "views same=0"
# Row 1 in three rounds, for a figure of the spread between runs.
for r in 1 2 3; do echo "readcmp$r $(pi_bench readcmp $D/vmlinux $S/vmlinux 50)"; done
echo "readcmp4k $(pi_bench readcmp $D/vmlinux $S/vmlinux 50 4096)"
echo "sys_pread $(pi_bench preadcmp $S/vmlinux 4096 200)"
echo "dbg_pread $(pi_bench preadcmp $D/vmlinux 4096 50)"
insmod $M/pi_sample.ko; echo "sample lines=$(wc -l < $S/pi_sample)"; rmmod pi_sample
insmod $B/pi_sample_noidx.ko; echo "sample_noidx lines=$(wc -l < $S/pi_sample)"; rmmod pi_sample
insmod $B/pi_bmem.ko; echo "bmem lines=$(wc -l < $S/pi_bmem) bytes=$(wc -c < $S/pi_bmem)"; rmmod pi_bmem
insmod $B/pi_bmem_noidx.ko; echo "bmem_noidx lines=$(wc -l < $S/pi_bmem)"; rmmod pi_bmem
echo "sample_load $(pi_bench modload $M/pi_sample.ko pi_sample 200)"
echo "sample_cmp $(pi_bench modcmp $B/pi_sample_noidx.ko $M/pi_sample.ko pi_sample 200)"
echo "bmem_load $(pi_bench modload $B/pi_bmem.ko pi_bmem 20)"
echo "bmem_cmp $(pi_bench modcmp $B/pi_bmem_noidx.ko $B/pi_bmem.ko pi_bmem 20)"
echo "bmem_mem $(pi_bench modmem $B/pi_bmem.ko $B/pi_bmem_noidx.ko pi_bmem 15)"
echo "done"
EOF
pi_init_addr=$(nm "$tbuild/kernel-default/vmlinux" | awk '$3 == "pi_init" { print "0x" $1 }')
[ -n "$pi_init_addr" ] || die "no pi_init in kernel-default/vmlinux"
sed -i "s/PI_INIT/$pi_init_addr/" "$work/overlay-default/bench/guest.sh"
cat > "$work/overlay-noindex/bench/guest.sh" <<'EOF'
# noindex variant: the same module loads as in the default guest.
M=/lib/modules B=/bench
dmesg -n 1
set -e
[ ! -e /sys/kernel/printk_index ] && echo "noindex ok=1" || echo "noindex ok=0"
echo "sample_load $(pi_bench modload $M/pi_sample.ko pi_sample 200)"
echo "bmem_load $(pi_bench modload $B/pi_bmem.ko pi_bmem 20)"
echo "done"
EOF
for v in default noindex; do
	log "booting $v (TCG; a few minutes)"
	t0=$(date +%s)
	append=
	[ "$v" = default ] && append=initcall_debug	# row 8
	if ! "$top/qemu/run-guest.sh" --variant "$v" --kernel "$tbuild/kernel-$v/arch/x86/boot/bzImage" \
		--initrd "$work/initramfs-$v.cpio.gz" --overlay "$work/overlay-$v" ${append:+--append "$append"} \
		--log-dir "$work/logs-$v" --cmd 'sh /bench/guest.sh' > "$work/guest-$v.txt"; then
		cat "$work/guest-$v.txt" >&2
		die "the $v guest failed (console log: $work/logs-$v/console.log)"
	fi
	grep -qx "done" "$work/guest-$v.txt" || { cat "$work/guest-$v.txt" >&2; die "the $v guest did not finish"; }
	log "$v guest: $(( $(date +%s) - t0 ))s"
done

# ---------------------------------------------------------------- host
log "comparing vmlinux object files (default vs noindex)"
"$here/objsize.py" "$tbuild/kernel-default" "$tbuild/kernel-noindex" "$work/objsize-details.txt" |
	sed 's/^/obj /' > "$work/objsize.txt"
# (awk may be mawk, without strtonum: hex numbers go through the shell.)
pi_hex=$(readelf -S -W "$tbuild/kernel-default/vmlinux" |
	awk '{ sub(/^ *\[ *[0-9]+\] */, ""); if ($1 == ".printk_index") print $5 }')
pi_sec=$((16#${pi_hex:-0}))
# Every pi_entry is a static object named _entry.N: count them and take their size.
read -r pi_count pi_hex < <(nm -S "$tbuild/kernel-default/vmlinux" |
	awk '$4 ~ /^_entry\.[0-9]+$/ { n++; s = $2 } END { print n + 0, s "" }')
pi_size=$((16#${pi_hex:-0}))
# How far apart the records lie: their size when they are side by side, 64
# when the compiler pads each to a 32-byte boundary.
pi_layout=$(/usr/bin/python3 "$top/test/host/pi_oracle.py" --layout "$tbuild/kernel-default/vmlinux")
pi_gap=${pi_layout##* }
size "$tbuild/kernel-default/vmlinux" "$tbuild/kernel-noindex/vmlinux" > "$work/size.txt"

tooldir=$top/tools/printk-index
tool_bench=
if grep -q '^bench:' "$tooldir/Makefile" 2>/dev/null; then
	log "printk-index bench (about 3.5 minutes)"
	if make -s -C "$tooldir" bench SHARED_DATA="$SHARED/data" > "$work/tool-bench.txt" 2>&1; then
		tool_bench=1
	else
		log "make -C tools/printk-index bench failed, see $work/tool-bench.txt"
	fi
fi
extract=
make -s -C "$tooldir" printk-index >/dev/null 2>&1 || true
tool_help=$("$tooldir/printk-index" help 2>&1 || true)
if [ -x "$tooldir/printk-index" ] && [[ $tool_help == *extract* ]]; then
	mkdir -p "$work/extract"
	"$tooldir/printk-index" extract -o "$work/extract" "$tbuild/kernel-default/vmlinux" >/dev/null
	extract=$("$work/pi_bench" run 20 "$tooldir/printk-index" extract -o "$work/extract" "$tbuild/kernel-default/vmlinux")
fi

# ---------------------------------------------------------------- coverage
# Row 7: the drivers guest's log against the index with and without the
# wrapper patches (builds the unwrapped kernel the first time).
if ! "$here/coverage.sh" "$work" > /dev/null 2> "$work/coverage.err"; then
	tail -n 20 "$work/coverage.err" >&2
	echo "| 7 | Coverage of the drivers guest's log | drivers | – | **failed**: see $work/coverage.err | – | – |" > "$work/coverage.md"
fi

# Row 9: what the index's listing of dynamic debug call sites costs: the
# drivers kernel (DYNAMIC_DEBUG) with the series and without the wrapper
# patches (built by coverage.sh above).
for k in kernel-drivers-unwrapped kernel-drivers; do
	/usr/bin/python3 "$here/dyndbg_cost.py" "$tbuild/$k/vmlinux" > "$work/dyndbg-$k.txt" ||
		die "dyndbg_cost.py $tbuild/$k/vmlinux failed"
done

# ---------------------------------------------------------------- table
# kv FILE TAG KEY: the value of KEY on the line of FILE that starts with TAG.
kv() {
	local v
	v=$(awk -v tag="$2" -v key="$3" '$1 == tag { for (i = 2; i <= NF; i++) if (index($i, key "=") == 1) { print substr($i, length(key) + 2); exit } }' "$1")
	[ -n "$v" ] || { grep "^$2 " "$1" >&2; die "no $3 in the '$2' line of $1"; }
	echo "$v"
}
g=$work/guest-default.txt gn=$work/guest-noindex.txt o=$work/objsize.txt
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
ms() { calc '%.2f ms' "$1 / 1e6"; }
us() { calc '%.0f µs' "$1 / 1e3"; }
yes_no() { awk "BEGIN { exit !($1) }" && echo yes || echo "**no**"; }

vm_lines=$(kv "$g" vmlinux lines) vm_bytes=$(kv "$g" vmlinux bytes) vm_md5=$(kv "$g" vmlinux md5)
vm_entries=$pi_count
same=$(kv "$g" views same)
# Row 1
# The round with the median ratio, and the range of the three.
read -r r_round r_lo r_hi < <(for r in 1 2 3; do echo "$r $(kv "$g" readcmp$r ratio_b_a)"; done |
	sort -k2,2g | awk '{ r[NR] = $1; v[NR] = $2 } END { print r[2], v[1], v[3] }')
r_dbg=$(kv "$g" readcmp"$r_round" median_a_ns) r_sys=$(kv "$g" readcmp"$r_round" median_b_ns)
r_ratio=$(kv "$g" readcmp"$r_round" ratio_b_a) r_reps=$(kv "$g" readcmp"$r_round" reps)
r4_dbg=$(kv "$g" readcmp4k median_a_ns) r4_sys=$(kv "$g" readcmp4k median_b_ns) r4_ratio=$(kv "$g" readcmp4k ratio_b_a)
# Row 2
sp_h=$(kv "$g" sys_pread head_ns) sp_t=$(kv "$g" sys_pread tail_ns) sp_r=$(kv "$g" sys_pread ratio_tail_head)
sp_reps=$(kv "$g" sys_pread reps)
dp_h=$(kv "$g" dbg_pread head_ns) dp_t=$(kv "$g" dbg_pread tail_ns) dp_r=$(kv "$g" dbg_pread ratio_tail_head)
dp_reps=$(kv "$g" dbg_pread reps)
# Row 3
bm_lines=$(kv "$g" bmem lines) bm_noidx_lines=$(kv "$g" bmem_noidx lines)
bm_entries=$((bm_lines - 1))
mem_delta=$(kv "$g" bmem_mem slab_a_minus_b) mem_reps=$(kv "$g" bmem_mem reps)
mem_a=$(kv "$g" bmem_mem slab_a) mem_b=$(kv "$g" bmem_mem slab_b)
mem_per=$(calc '%.2f' "$mem_delta / $bm_entries")
mem_table=$(( bm_entries * 4 ))
# kmalloc of more than a page takes 2^order pages (SLOB and SLUB alike).
mem_alloc=$(awk -v b="$mem_table" 'BEGIN { p = 4096; while (p < b) p *= 2; print p }')
vm_alloc=$(awk -v b="$(( vm_entries * 4 ))" 'BEGIN { p = 4096; while (p < b) p *= 2; print p }')
# Row 4
code_delta=$(kv "$o" obj other_code_delta) rodata_delta=$(kv "$o" obj other_rodata_delta)
data_delta=$(kv "$o" obj other_data_delta) bss_delta=$(kv "$o" obj other_bss_delta)
code_objs=$(kv "$o" obj other_code_bytes_differ_objs) objs=$(kv "$o" obj objects_without)
idx_code=$(kv "$o" obj index_code_delta)
# The code of the module loader's lookup of .printk_index (kernel/module/)
# is index code too; everything else is a printk caller.
caller_code=$(echo "$code_objs" | tr ',' '\n' | awk '$0 != "-" && $0 !~ /^kernel\/module\// { n++ } END { print n + 0 }')
module_code=$(echo "$code_objs" | tr ',' '\n' | sed -n 's|^kernel/module/[^:]*:||p' | awk '{ s += $1 } END { print s + 0 }')
read -r _ t_with d_with < <(sed -n 2p "$work/size.txt" | awk '{ print "x", $1, $2 }')
read -r _ t_without d_without < <(sed -n 3p "$work/size.txt" | awk '{ print "x", $1, $2 }')
tx_with=$(size -A "$tbuild/kernel-default/vmlinux" | awk '$1 == ".text" { print $2 }')
tx_without=$(size -A "$tbuild/kernel-noindex/vmlinux" | awk '$1 == ".text" { print $2 }')
# Row 5
sl_def=$(kv "$g" sample_load total_ns) sl_no=$(kv "$gn" sample_load total_ns)
sl_reps=$(kv "$g" sample_load reps)
sc_a=$(kv "$g" sample_cmp total_a_ns) sc_b=$(kv "$g" sample_cmp total_b_ns) sc_r=$(kv "$g" sample_cmp ratio_b_a)
sc_reps=$(kv "$g" sample_cmp reps)
bl_def=$(kv "$g" bmem_load total_ns) bl_no=$(kv "$gn" bmem_load total_ns)
bl_reps=$(kv "$g" bmem_load reps)
bc_a=$(kv "$g" bmem_cmp total_a_ns) bc_b=$(kv "$g" bmem_cmp total_b_ns) bc_r=$(kv "$g" bmem_cmp ratio_b_a)
bc_reps=$(kv "$g" bmem_cmp reps)
sample_entries=$(( $(kv "$g" sample lines) - 1 ))
# Row 8
init_us=$(kv "$g" pi_init usecs) init_ret=$(kv "$g" pi_init ret)
defconfig_index=$SHARED/data/x86_64_defconfig-6.1.192-vmlinux.printk_index
[ -f "$defconfig_index" ] || die "no $defconfig_index"
defconfig_entries=$(( $(wc -l < "$defconfig_index") - 1 ))	# less the header
# Row 9
dd_val() { sed -n "s/.*\b$2=\([0-9]*\).*/\1/p" "$work/dyndbg-$1.txt"; }
dd_n=$(dd_val kernel-drivers descriptors) dd_listed=$(dd_val kernel-drivers listed)
dd_s=$(dd_val kernel-drivers stride) dd_k=$(dd_val kernel-drivers entries_at_sites)
dd_n0=$(dd_val kernel-drivers-unwrapped descriptors) dd_s0=$(dd_val kernel-drivers-unwrapped stride)
dd_k0=$(dd_val kernel-drivers-unwrapped entries_at_sites)
# An entry is a pi_entry record and its .printk_index pointer.
dd_per_site=$(calc '%.1f' "$dd_s - $dd_s0 + ($dd_n ? $dd_k * ($pi_size + 8) / $dd_n : 0)")

{
echo "| # | Measurement | Variant | Entries | Result | Goal | Met |"
echo "|---|---|---|---|---|---|---|"
echo "| 1 | Whole read of \`vmlinux\`, 64 KiB reads: sysfs / debugfs (3 rounds of $r_reps samples each, interleaved, one boot; the median round) | default | $vm_entries ($vm_lines lines with the header, $vm_bytes B) | $(ms "$r_sys") / $(ms "$r_dbg") = **$r_ratio** (rounds: $r_lo to $r_hi) | ≤ 1 | $(yes_no "$r_ratio <= 1") |"
echo "| 1b | The same with 4 KiB reads (kernfs serves a binary attribute at most a page per \`read()\`, so the 64 KiB reads of row 1 are 4 KiB reads for sysfs only) | default | $vm_entries | $(ms "$r4_sys") / $(ms "$r4_dbg") = **$r4_ratio** | – | – |"
echo "| 2a | \`pread\` of 4 KiB, last / first, sysfs (median of $sp_reps samples each, interleaved) | default | $vm_entries | $(us "$sp_t") / $(us "$sp_h") = **$sp_r** | ≤ 2 | $(yes_no "$sp_r <= 2") |"
echo "| 2b | \`pread\` of 4 KiB, last / first, debugfs (median of $dp_reps samples each, interleaved) | default | $vm_entries | $(us "$dp_t") / $(us "$dp_h") = **$dp_r** | (none: seq_file walks from the start) | – |"
echo "| 3 | Resident memory of the sysfs view per entry: \`Slab:\` growth on insmod of pi_bmem minus that of the same .ko without .printk_index (median of $mem_reps each, one boot) | default | $bm_entries | $mem_a − $mem_b = $mem_delta B → **$mem_per B/entry** (table: $mem_table B, one $mem_alloc B block) | ≤ 8 B/entry | $(yes_no "$mem_per <= 8") |"
echo "| 4a | Code (.text*) of the $objs vmlinux objects other than kernel/printk/index*.o and lib/kunit/, PRINTK_INDEX=y − n | default − noindex | $vm_entries | **$code_delta B**: printk callers $caller_code objects differ; kernel/module/ (loader's \`.printk_index\` lookup) ${module_code:-0} B | 0 B outside index code | $(yes_no "$caller_code == 0 && $code_delta == ${module_code:-0}") |"
echo "| 4b | Data those objects gain: \`.printk_index\` / \`pi_entry\` records ($pi_count × $pi_size B) + \`__func__\`/\`__FILE__\` strings / .data / .bss | default − noindex | $vm_entries | $pi_sec B / $(( pi_count * pi_size )) B, laid out $pi_gap B apart (oracle \`--layout\`); rodata total +$rodata_delta B, .data +$data_delta B, .bss +$bss_delta B | (data only) | – |"
echo "| 4c | \`size vmlinux\` text / data, for reference: the \`.text\` output section is padded ($tx_with vs $tx_without B), so whole-vmlinux sizes hide code changes (the index's own code: +$idx_code B) | default vs noindex | $vm_entries | text $t_with vs $t_without (+$(( t_with - t_without ))), data $d_with vs $d_without (+$(( d_with - d_without ))) | – | – |"
echo "| 5a | insmod+rmmod of pi_sample.ko (finit_module + delete_module, median of $sl_reps samples; two boots) | default / noindex | $sample_entries | $(ms "$sl_def") / $(ms "$sl_no") = **$(calc '%.3f' "$sl_def / $sl_no")** | ≈ 1 | – |"
echo "| 5b | the same, pi_sample.ko with / without its \`.printk_index\` (interleaved, median of $sc_reps samples, one boot) | default | $sample_entries | $(ms "$sc_b") / $(ms "$sc_a") = **$sc_r** | ≈ 1 | – |"
echo "| 5c | insmod+rmmod of pi_bmem.ko (median of $bl_reps samples; two boots) | default / noindex | $bm_entries | $(ms "$bl_def") / $(ms "$bl_no") = **$(calc '%.3f' "$bl_def / $bl_no")** | – | – |"
echo "| 5d | the same, pi_bmem.ko with / without its \`.printk_index\` (interleaved, median of $bc_reps samples, one boot) | default | $bm_entries | $(ms "$bc_b") / $(ms "$bc_a") = **$bc_r** | – | – |"
if [ -n "$tool_bench" ]; then
	m_rate=$(sed -n 's/^matcher: .* \([0-9]*\) lines\/s.*/\1/p' "$work/tool-bench.txt")
	n_rate=$(sed -n 's/^naive regexec loop: .* \([0-9]*\) lines\/s.*/\1/p' "$work/tool-bench.txt")
	speedup=$(sed -n 's/^speedup: \([0-9.]*\)x.*/\1/p' "$work/tool-bench.txt")
	idx_n=$(sed -n 's/^index: \([0-9]*\) entries.*/\1/p' "$work/tool-bench.txt" | head -n 1)
	# "passes: 5, CPU lines/s of each, fastest first: F ... S"
	m_range=$(sed -n 's/^passes: .*: \([0-9]*\) .* \([0-9]*\)$/\2 to \1/p' "$work/tool-bench.txt")
	echo "| 6a | \`printk-index match\` throughput in CPU time of its one thread, median of five passes over the log (\`make -C tools/printk-index bench\`, host; the wall-clock rate is in tool-bench.txt) | host | $idx_n | **$m_rate lines/s** (passes: $m_range); naive regexec loop $n_rate lines/s: **${speedup}×** | ≥ 10⁶ lines/s; ≥ 100× | $(yes_no "$m_rate >= 1000000"); $(yes_no "$speedup >= 100") |"
	f_rate=$(sed -n 's/^follow: .* \([0-9]*\) records\/s.*/\1/p' "$work/tool-bench.txt")
	[ -z "$f_rate" ] ||
		echo "| 6c | \`printk-index match --follow\`: kmsg records parsed, attributed and written as JSON lines (host, one core) | host | $idx_n | **$f_rate records/s** | – | – |"
	c_total=$(sed -n 's/^total: \([0-9.]*\) s.*/\1/p' "$work/tool-bench.txt")
	c_quality=$(sed -n 's/^quality: \([0-9]* of [0-9]*\) rules found their own format strong$/\1/p' "$work/tool-bench.txt")
	c_stale=$(sed -n 's/^check: .* \([0-9]*\) rules stale$/\1/p' "$work/tool-bench.txt")
	[ -z "$c_total" ] ||
		echo "| 6d | \`printk-index check\`: 1,000 generated rules (100 of them reworded) against the whole index, wall time including index and rule preparation (host, one core) | host | $idx_n | **$c_total s**; $c_quality rules found their own format strong, $c_stale of the 100 reworded ones stale | < 2 s | $(yes_no "$c_total < 2") |"
	# "peers: LOG: ENGINE N lines/s (...); match/ENGINE R.Rx": per log, each
	# peer's ratio; bench_peers has compared every answer before (make
	# bench fails on a difference)
	p_ratios=$(awk '/^peers: .* lines\/s .*; match\// {
		lg = $2; sub(/:$/, "", lg)
		for (i = 1; i <= NF; i++) if ($i ~ /^match\//) r = $(i + 1)
		sub(/x$/, "×", r)
		out[lg] = out[lg] (out[lg] == "" ? "" : ", ") $3 " " r
		if (!(lg in seen)) { seen[lg] = 1; order[++n] = lg }
		v = r; sub(/×$/, "", v); if (min == "" || v + 0 < min) min = v + 0
	} END { for (i = 1; i <= n; i++) printf "%s%s: %s", (i > 1 ? "; " : ""), order[i], out[order[i]]; print "|" min }' "$work/tool-bench.txt")
	p_min=${p_ratios##*|}
	[ -z "$p_min" ] ||
		echo "| 6e | \`match\` (single-line attribution) vs its peers on the same logs: Hyperscan, one database and split specific/generic; PCRE2-JIT behind a literal prefilter; every answer compared first (\`bench_peers\`, CPU time, 10⁶ lines each) | host | $idx_n | how many times faster \`match\` is: ${p_ratios%|*} | faster than each | $(yes_no "$p_min > 1") |"
else
	echo "| 6a | \`printk-index match\` throughput | host | – | no \`bench\` target in tools/printk-index | – | – |"
fi
if [ -n "$extract" ]; then
	ex_ns=$(echo "$extract" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^median_ns=/) print substr($i, 11) }')
	ex_md5=$(md5sum < "$work/extract/vmlinux" | cut -d' ' -f1)
	ex_same=$([ "$ex_md5" = "$vm_md5" ] && echo "byte-identical to the guest's sysfs file" || echo "**differs from the guest's sysfs file**")
	echo "| 6b | \`printk-index extract\` of kernel-default/vmlinux (host, fork+exec, median of 20) | default | $vm_entries | **$(ms "$ex_ns")**; output $ex_same | – | – |"
else
	echo "| 6b | \`printk-index extract\` | host | – | no \`extract\` subcommand | – | – |"
fi
cat "$work/coverage.md"
echo "| 8 | Boot time of pi_init(), which creates vmlinux's debugfs and sysfs files and sizes every line of vmlinux's index for the sysfs file (\`initcall_debug\`, one boot, TCG: slower than hardware; the guest's clock steps by $(ms "$(kv "$g" readcmp1 clock_res_ns)"), so the figure is ± one step) | default | $vm_entries | **$init_us µs** (returned $init_ret): $(calc '%.2f' "$init_us / $vm_entries") µs/entry, so about $(calc '%.0f' "$init_us / $vm_entries * $defconfig_entries / 1000") ms for the $defconfig_entries entries of an x86_64 defconfig vmlinux at the same rate | – | – |"
echo "| 9 | Dynamic debug call sites in the index: sites listed from their \`struct _ddebug\` descriptors / descriptors in vmlinux; bytes per descriptor; \`.printk_index\` entries with a site's file:line (a second record of it); bytes per site = descriptor growth + such entries × ($pi_size + 8) B / sites | drivers-unwrapped → drivers | $dd_n | $dd_listed of $dd_n listed; $dd_s0 → $dd_s B per descriptor; entries at sites $dd_k0 → $dd_k: **$dd_per_site B/site** | 0 B/site | $(yes_no "$dd_per_site == 0") |"
echo
echo "Checks: sysfs and debugfs views byte-identical in the guest: $([ "$same" = 1 ] && echo yes || echo "**no**");" \
	"pi_bmem without .printk_index has a header-only file: $([ "$bm_noidx_lines" = 1 ] && echo yes || echo "**no**");" \
	"vmlinux's own view (computed, not measured): $vm_entries × 4 B = $(( vm_entries * 4 )) B in one $vm_alloc B block ($(calc '%.2f' "$vm_alloc / $vm_entries") B/entry)."
echo "TCG guests, timed with the $(kv "$g" readcmp1 clock) clock (the guest's CLOCK_MONOTONIC steps by $(ms "$(kv "$g" readcmp1 clock_res_ns)")); medians of interleaved repetitions; rows 5a and 5c compare two boots and are noisier than the same-boot rows 5b and 5d." \
	"Raw output: $work (guest-*.txt, objsize-details.txt, tool-bench.txt). Total $(( $(date +%s) - start ))s."
} > "$work/table.md"
mkdir -p "$(dirname "$output")"
cp "$work/table.md" "$output"
cat "$output"
