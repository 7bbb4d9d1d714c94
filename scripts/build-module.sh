#!/bin/bash
# Build an out-of-tree module folder against a built kernel (its O= folder).
# The build happens in a copy under the kernel's folder, so that the source
# folder stays clean and one folder can be built for several variants.
#
# usage: build-module.sh KOUT MODULE_DIR JOBS
set -euo pipefail
kout=$(realpath -m "$1") src=$(realpath -m "$2") jobs=$3

grep -q '^CONFIG_MODULES=y' "$kout/.config" ||
	{ echo "module: $(basename "$kout") has no module support (CONFIG_MODULES=n)" >&2; exit 1; }
dst=$kout/ext-modules/$(basename "$src")
mkdir -p "$dst"
cp -a "$src/." "$dst/"
# The harness's own make variables (M=, VARIANT=, CMD=) must not reach
# the kernel's make through the environment.
unset MAKEFLAGS MAKEOVERRIDES MFLAGS
export KBUILD_BUILD_USER=printk-index KBUILD_BUILD_HOST=qemu
make -s -C "$kout" M="$dst" CC="ccache gcc" -j"$jobs" modules
ls "$dst"/*.ko
