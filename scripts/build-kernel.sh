#!/bin/bash
# Configure and build one variant: tinyconfig + base.config + default.config
# + <variant>.config (later fragments win), then bzImage and, when the variant
# has modules, the in-tree modules.  A fragment with a line "# pi-base:
# TARGET" starts from that configuration target (x86_64_defconfig) instead
# of tinyconfig.  A variant "a+b" applies a.config, then
# b.config.  With PI_LLVM=1 the kernel is built with clang and the LLVM
# tools (LLVM=1) instead of gcc.  Every option the fragments ask for must
# end up in the final .config: a fragment that Kconfig silently overrode (an
# unmet dependency, a misspelt symbol) fails the build instead of producing a
# kernel that tests something else.
#
# usage: build-kernel.sh TREE OUT FRAGMENTS_DIR VARIANT JOBS
set -euo pipefail

tree=$(realpath -m "$1") out=$(realpath -m "$2") frags=$(realpath -m "$3") variant=$4 jobs=$5

fragments=("$frags/base.config" "$frags/default.config")
if [ "$variant" != default ]; then
	for v in ${variant//+/ }; do
		fragments+=("$frags/$v.config")
	done
fi
for f in "${fragments[@]}"; do
	[ -r "$f" ] || { echo "kernel: no fragment $f (variants: $(cd "$frags" && ls *.config | sed 's/\.config$//' | grep -v '^base$' | tr '\n' ' '))" >&2; exit 1; }
done

# The harness's own make variables (M=, VARIANT=, CMD=) must not reach
# the kernel's make through the environment.
unset MAKEFLAGS MAKEOVERRIDES MFLAGS
# Fixed build identity, so that ccache hits across rebuilds and machines.
export KBUILD_BUILD_USER=printk-index KBUILD_BUILD_HOST=qemu
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
# No CCACHE_BASEDIR: its rewriting of paths to relative ones defeats the
# kernel's -fmacro-prefix-map, and __FILE__ (the index's file names) would
# become "../linux/init/main.c" instead of "init/main.c".
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
if [ "${PI_LLVM:-0}" = 1 ]; then
	kmake=(make -s -C "$tree" O="$out" LLVM=1 CC="ccache clang" HOSTCC="ccache clang" -j"$jobs")
else
	kmake=(make -s -C "$tree" O="$out" CC="ccache gcc" HOSTCC="ccache gcc" -j"$jobs")
fi

# The configuration the fragments are merged into: the last "pi-base".
start=$(sed -n 's/^# pi-base: *\([A-Za-z0-9_]*\) *$/\1/p' "${fragments[@]}" | tail -n 1)
start=${start:-tinyconfig}

mkdir -p "$out"
# Two builds in one output folder corrupt each other: take turns.
exec 9> "$out.lock"
flock 9
# Reconfigure only when a fragment, or the tree, changed since the last time.
confsum=$( (cat "${fragments[@]}"; git -C "$tree" rev-parse HEAD; echo "llvm=${PI_LLVM:-0}") | sha1sum | cut -d' ' -f1)
if [ ! -f "$out/.config" ] || [ "$(cat "$out/.pi-config-sum" 2>/dev/null)" != "$confsum" ]; then
	"${kmake[@]}" "$start" >/dev/null
	(cd "$out" && "$tree/scripts/kconfig/merge_config.sh" -m -O . .config "${fragments[@]}" >/dev/null)
	# Choice overrides in the fragments (KERNEL_GZIP, SLUB) make Kconfig
	# warn; the check below is what decides.
	"${kmake[@]}" olddefconfig > "$out/.pi-olddefconfig.log" 2>&1 ||
		{ cat "$out/.pi-olddefconfig.log" >&2; exit 1; }
	# The last word on each symbol is the last fragment that mentions it.
	want=$(cat "${fragments[@]}" | sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/&/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/&/p' |
		awk '{ k = ($1 == "#") ? $2 : substr($0, 1, index($0, "=") - 1); v[k] = $0; if (!(k in seen)) { seen[k] = 1; order[++n] = k } }
		     END { for (i = 1; i <= n; i++) print v[order[i]] }')
	bad=0
	while IFS= read -r line; do
		sym=${line#\# }; sym=${sym%% *}; sym=${sym%%=*}
		got=$(grep -E "^$sym=|^# $sym is not set" "$out/.config" || true)
		if [ "$line" != "$got" ] && ! { [ -z "$got" ] && [ "${line#\# }" != "$line" ]; }; then
			# check-series builds patches that come before the one adding a
			# symbol (the KUnit option): that symbol alone may be missing.
			if [ "${PI_ALLOW_UNDEFINED:-0}" = 1 ] &&
			   ! grep -rqE "^[[:space:]]*(menu)?config ${sym#CONFIG_}\$" --include='Kconfig*' "$tree"; then
				echo "kernel: $variant: n/a: '$line' (no such symbol in this tree yet)" >&2
				continue
			fi
			echo "kernel: $variant asks for '$line' but Kconfig gave '${got:-nothing}'" >&2
			bad=1
		fi
	done <<< "$want"
	if [ "$bad" != 0 ]; then
		rm -f "$out/.pi-config-sum"
		exit 1
	fi
	echo "$confsum" > "$out/.pi-config-sum"
fi

targets=(bzImage)
grep -q '^CONFIG_MODULES=y' "$out/.config" && targets+=(modules)
echo "kernel: building $variant (${targets[*]}) in $out"
"${kmake[@]}" "${targets[@]}"
