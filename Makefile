# printk index in sysfs: build, boot and test harness.
#
# Everything that is built (the kernel tree, kernels, initramfs images, guest
# logs) goes to $(BUILD); the repository holds only patches and tooling.
# 'make help' lists the targets.

SHELL := /bin/bash
.DEFAULT_GOAL := help

TOP       := $(CURDIR)
BUILD     ?= $(TOP)/build
# Which Debian linux-source tree: 6.1 (Debian 12's linux-source) or 6.12
# (linux-source-6.12, Debian 13's kernel).  Each tree has its own series in
# patches/<tree>/ and its own build folder, so both build side by side.
KERNEL    ?= 6.1
TREES     := 6.1 6.12
ifeq ($(filter $(KERNEL),$(TREES)),)
$(error KERNEL=$(KERNEL): the trees are $(TREES))
endif
TARBALL   := /usr/src/linux-source-$(KERNEL).tar.xz
TREE_BUILD := $(BUILD)/$(KERNEL)
TREE      := $(TREE_BUILD)/linux
PATCHES   := $(TOP)/patches/$(KERNEL)
VARIANT   ?= default
KOUT       = $(TREE_BUILD)/kernel-$(VARIANT)
JOBS      ?= $(shell nproc)
TIMEOUT   ?= 300
KVM       ?= 0
SHARED    ?= $(TOP)/../shared
SERIES_VERSION ?= 5

comma := ,
space := $(eval) $(eval)

# Variants booted by 'make boot-test', in order.
BOOT_VARIANTS ?= default nodebugfs noindex nomodules drivers debug
# What 'make test' boots: every variant on 6.1 and, on 6.12, the three that
# cover both views, the goldens, KUnit and the wrappers (README has the time
# this takes from a fresh clone).  KERNELS=6.1 tests one tree; 'make
# test-full' boots every variant on both, with the debug variant's long loops.
KERNELS ?= 6.1 6.12
TEST_VARIANTS_6.1 ?= $(BOOT_VARIANTS)
TEST_VARIANTS_6.12 ?= default nodebugfs drivers
# The debug variant's stress and fault-injection loops: short (CI) or long.
LOOPS ?= short
TEST_PLAN = $(foreach k,$(KERNELS),$(k):$(subst $(space),$(comma),$(strip $(TEST_VARIANTS_$(k)))))
# The trees whose source package the goals need.
SOURCES := $(if $(filter test-full,$(MAKECMDGOALS)),$(TREES),$(if $(filter test,$(MAKECMDGOALS)),$(KERNELS),$(KERNEL)))

# Debian packages the harness needs, and a command that shows each is there.
# clang fuzzes printk-index in host-test; its libFuzzer runtime is in
# libclang-rt-14-dev, which Debian 12's clang only recommends.  pyelftools
# reads ELF files for the index oracle (test/host/pi_oracle.py).  lld and
# llvm: check-series also builds the series with clang (LLVM=1).
# libvectorscan-dev and libpcre2-dev: printk-index's bench times match
# against Hyperscan and PCRE2 (tools/printk-index/bench/bench_peers.c).
PACKAGES := $(foreach k,$(SOURCES),linux-source-$(k):/usr/src/linux-source-$(k).tar.xz) gcc:gcc make:make \
	libelf-dev:/usr/include/libelf.h libssl-dev:/usr/include/openssl/ssl.h bc:bc \
	flex:flex bison:bison qemu-system-x86:qemu-system-x86_64 \
	busybox-static:/bin/busybox cpio:cpio ccache:ccache python3:python3 \
	xz-utils:xz git:git perl:perl gzip:gzip e2fsprogs:/sbin/mkfs.ext4 \
	python3-ply:/usr/lib/python3/dist-packages/ply python3-git:/usr/lib/python3/dist-packages/git zlib1g-dev:/usr/lib/x86_64-linux-gnu/libz.a \
	python3-pyelftools:/usr/lib/python3/dist-packages/elftools \
	clang:clang lld:ld.lld llvm:llvm-ar libclang-rt-14-dev:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a \
	libvectorscan-dev:/usr/include/hs/hs.h libpcre2-dev:/usr/include/pcre2.h

# CMD goes to the guest through the environment, so that any quoting and
# newlines in it arrive intact; $(value) keeps make from expanding its $.
override CMD := $(value CMD)
export BUILD KERNEL TREE_BUILD TREE JOBS TIMEOUT KVM SHARED CMD LOOPS
# ccache in depend mode: a lookup hashes the source and the headers listed by
# the compiler's -MMD output instead of running the preprocessor first, so a
# miss costs little more than the compile.  On a cold cache (a fresh CI
# machine) the 6.1 default kernel took 476 s with ccache's default mode,
# 334 s without ccache and 325 s in depend mode (two cores, 2026-12-07).
# What depend mode gives up, hits between variants whose preprocessed sources
# agree, did not pay for itself: nodebugfs after default took 336 s.
export CCACHE_DEPEND ?= 1

.PHONY: help deps tree export-patches kernel modules module initramfs run test \
	host-test boot-test test-full bench bench-defconfig corpus check-series checkpatch clean distclean

help:
	@echo 'printk index in sysfs: kernel patch series, QEMU harness and tools'
	@echo
	@echo 'First steps:  make run     boot the patched kernel, show the printk index'
	@echo '              make test    boot every variant and run the guest tests, then the host tests'
	@echo
	@echo 'Targets:'
	@echo '  deps                  install missing Debian packages (as root), or say which are missing'
	@echo '  tree                  extract linux-source-$(KERNEL) into $(TREE), apply patches/$(KERNEL)/series'
	@echo '  export-patches        write the tree'"'"'s commits on top of "base" back to patches/$(KERNEL)/'
	@echo '  kernel [VARIANT=v]    build bzImage (and modules) for a variant'
	@echo '  module M=dir [VARIANT=v]  build an out-of-tree module against that kernel'
	@echo '  initramfs [VARIANT=v] build the guest image (busybox, sample modules, tests)'
	@echo '  run [VARIANT=v] [CMD=..] [OVERLAY=dir]  boot in QEMU, run CMD as root, exit with its status'
	@echo '  test                  boot-test of TEST_PLAN ($(TEST_PLAN)), then host-test; ends with "N passed, M failed"'
	@echo '  test-full             the same with every variant on both trees and LOOPS=long'
	@echo '  host-test             host-side unit tests only'
	@echo '  boot-test             boot each of BOOT_VARIANTS and run the guest tests in test/guest/'
	@echo '  bench                 build default, noindex, drivers and drivers without patches 7-12, boot them, print the cost table (test/bench/)'
	@echo '  bench-defconfig       x86_64_defconfig with and without the wrapper patches: its boot log'"'"'s coverage'
	@echo '  corpus                provoke WARN, OOM, ext4 errors, link flaps, lockdep, KASAN, a hung task in'
	@echo '                        guests; record their logs and indexes (CORPUS_OUT, default the build folder)'
	@echo '  check-series          build (gcc; clang and EFI stub too) and boot the kernel after each patch'
	@echo '  checkpatch            scripts/checkpatch.pl --strict on every patch'
	@echo '  clean / distclean     drop kernel builds and images / the whole build folder'
	@echo
	@echo 'Variables:'
	@echo '  KERNEL=$(KERNEL)  the tree every target works on: one of $(TREES)'
	@echo '  KERNELS="$(KERNELS)"  the trees make test boots; TEST_VARIANTS_<tree> the variants on each'
	@echo '  LOOPS=$(LOOPS)  the debug variant'"'"'s stress and fault loops: short or long'
	@echo '  VARIANT=$(VARIANT)  one of: $(patsubst kconfig-fragments/%.config,%,$(filter-out kconfig-fragments/base.config,$(wildcard kconfig-fragments/*.config)))'
	@echo '  BOOT_VARIANTS="$(BOOT_VARIANTS)"'
	@echo '  KVM=1 use KVM instead of TCG;  TIMEOUT=$(TIMEOUT) seconds before a guest is killed'
	@echo '  JOBS=$(JOBS)  BUILD=$(BUILD)'

# Install what is missing when we are root; otherwise say exactly what to install.
deps:
	@missing=; for p in $(PACKAGES); do pkg=$${p%%:*}; what=$${p#*:}; \
		if [ "$${what#/}" != "$$what" ]; then [ -e "$$what" ] || missing="$$missing $$pkg"; \
		else command -v "$$what" >/dev/null || missing="$$missing $$pkg"; fi; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "deps: installing$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
		else echo "deps: missing Debian packages:$$missing (run: sudo apt-get install$$missing)"; exit 1; fi; \
	fi

tree: deps
	@scripts/tree.sh $(TARBALL) $(TREE) $(PATCHES)

export-patches:
	@scripts/export-patches.sh $(TREE) $(PATCHES) $(TOP)/patches/cover-letter.txt $(TOP)/CHANGES $(SERIES_VERSION)

kernel: tree
	@scripts/build-kernel.sh $(TREE) $(KOUT) $(TOP)/kconfig-fragments $(VARIANT) $(JOBS)

# An out-of-tree module folder, built against the variant's kernel.
module: kernel
	@[ -n "$(M)" ] || { echo "module: say which folder: make module M=<dir>"; exit 1; }
	@$(TOP)/scripts/build-module.sh $(KOUT) $(abspath $(M)) $(JOBS)

# The sample modules and the guest image for one variant.
initramfs: kernel
	@$(TOP)/initramfs/build.sh $(VARIANT) $(KOUT) $(TREE_BUILD)/initramfs-$(VARIANT).cpio.gz

run: initramfs
	@$(TOP)/qemu/run-guest.sh --variant $(VARIANT) --kernel $(KOUT)/arch/x86/boot/bzImage \
		--initrd $(TREE_BUILD)/initramfs-$(VARIANT).cpio.gz \
		--log-dir $(TREE_BUILD)/logs/run-$(VARIANT) \
		$(if $(OVERLAY),--overlay $(abspath $(OVERLAY))) \
		$${CMD:+--cmd "$$CMD"}

host-test: deps
	@$(TOP)/test/run-host-tests.sh

boot-test: deps
	@$(TOP)/test/boot-test.sh $(BOOT_VARIANTS)

# The whole suite: one summary line at the end, non-zero exit on any failure.
test: deps
	@$(TOP)/test/run-all.sh $(TEST_PLAN)

# Every variant on both trees, the debug loops at full length: the run
# before a series goes out (about twice CI's time).
test-full: KERNELS = 6.1 6.12
test-full: TEST_VARIANTS_6.12 = $(BOOT_VARIANTS)
test-full: LOOPS = long
test-full: deps
	@$(TOP)/test/run-all.sh $(TEST_PLAN)

# Costs of the series (test/bench/README.md says what each row measures).
bench: deps
	@$(MAKE) -s kernel VARIANT=default
	@$(MAKE) -s kernel VARIANT=noindex
	@$(MAKE) -s kernel VARIANT=drivers
	@$(TOP)/test/bench/run-bench.sh $(TREE_BUILD)/bench.md

# Coverage on x86_64_defconfig (test/bench/defconfig.sh): not part of
# 'make test': a cold build of each kernel is about an hour of CPU (README).
bench-defconfig: tree
	@$(TOP)/test/bench/defconfig.sh $(TREE_BUILD)/bench-defconfig

# Into the build folder; CORPUS_OUT=tools/printk-index/tests/data refreshes
# the tool's test data (whose tests then need checking).
CORPUS_OUT ?= $(TREE_BUILD)/corpus/out
corpus: tree
	@$(TOP)/test/corpus/provoke.sh $(TREE_BUILD)/corpus $(abspath $(CORPUS_OUT))

check-series: tree
	@scripts/check-series.sh $(TREE) $(TREE_BUILD)/check-series $(TOP)/kconfig-fragments $(JOBS)

checkpatch: tree
	@scripts/checkpatch.sh $(TREE) $(PATCHES)

clean:
	rm -rf $(TREE_BUILD)/kernel-* $(TREE_BUILD)/initramfs-* $(TREE_BUILD)/logs $(TREE_BUILD)/check-series

distclean:
	rm -rf $(BUILD)
