# printk index in sysfs: build, boot and test harness.
#
# Everything that is built (the kernel tree, kernels, initramfs images, guest
# logs) goes to $(BUILD); the repository holds only patches and tooling.
# 'make help' lists the targets.

SHELL := /bin/bash
.DEFAULT_GOAL := help

TOP       := $(CURDIR)
BUILD     ?= $(TOP)/build
TARBALL   ?= $(firstword $(wildcard /usr/src/linux-source-6.1.tar.xz) /usr/src/linux-source-6.1.tar.xz)
TREE      := $(BUILD)/linux
VARIANT   ?= default
KOUT       = $(BUILD)/kernel-$(VARIANT)
JOBS      ?= $(shell nproc)
TIMEOUT   ?= 300
KVM       ?= 0
SHARED    ?= $(TOP)/../shared
SERIES_VERSION ?= 4

# Variants booted by 'make boot-test', in order.
BOOT_VARIANTS ?= default nodebugfs noindex nomodules drivers debug

# Debian packages the harness needs, and a command that shows each is there.
# clang fuzzes printk-index in host-test; its libFuzzer runtime is in
# libclang-rt-14-dev, which Debian 12's clang only recommends.  pyelftools
# reads ELF files for the index oracle (test/host/pi_oracle.py).  lld and
# llvm: check-series also builds the series with clang (LLVM=1).
PACKAGES := linux-source-6.1:/usr/src/linux-source-6.1.tar.xz gcc:gcc make:make \
	libelf-dev:/usr/include/libelf.h libssl-dev:/usr/include/openssl/ssl.h bc:bc \
	flex:flex bison:bison qemu-system-x86:qemu-system-x86_64 \
	busybox-static:/bin/busybox cpio:cpio ccache:ccache python3:python3 \
	xz-utils:xz git:git perl:perl gzip:gzip e2fsprogs:/sbin/mkfs.ext4 \
	python3-ply:/usr/lib/python3/dist-packages/ply python3-git:/usr/lib/python3/dist-packages/git zlib1g-dev:/usr/lib/x86_64-linux-gnu/libz.a \
	python3-pyelftools:/usr/lib/python3/dist-packages/elftools \
	clang:clang lld:ld.lld llvm:llvm-ar libclang-rt-14-dev:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a

# CMD goes to the guest through the environment, so that any quoting and
# newlines in it arrive intact.
# newlines in it arrive intact; $(value) keeps make from expanding its $.
override CMD := $(value CMD)
export BUILD TREE JOBS TIMEOUT KVM SHARED CMD

.PHONY: help deps tree export-patches kernel modules module initramfs run test \
	host-test boot-test bench check-series checkpatch clean distclean

help:
	@echo 'printk index in sysfs: kernel patch series, QEMU harness and tools'
	@echo
	@echo 'First steps:  make run     boot the patched kernel, show the printk index'
	@echo '              make test    host tests, then boot every variant and run the guest tests'
	@echo
	@echo 'Targets:'
	@echo '  deps                  install missing Debian packages (as root), or say which are missing'
	@echo '  tree                  extract linux-source into $(TREE), apply patches/series'
	@echo '  export-patches        write the tree'"'"'s commits on top of "base" back to patches/'
	@echo '  kernel [VARIANT=v]    build bzImage (and modules) for a variant'
	@echo '  module M=dir [VARIANT=v]  build an out-of-tree module against that kernel'
	@echo '  initramfs [VARIANT=v] build the guest image (busybox, sample modules, tests)'
	@echo '  run [VARIANT=v] [CMD=..] [OVERLAY=dir]  boot in QEMU, run CMD as root, exit with its status'
	@echo '  test                  host-test, then boot-test; ends with "N passed, M failed"'
	@echo '  host-test             host-side unit tests only'
	@echo '  boot-test             boot each of BOOT_VARIANTS and run the guest tests in test/guest/'
	@echo '  bench                 build default and noindex, boot both, print the cost table (test/bench/)'
	@echo '  check-series          build (gcc; clang and EFI stub too) and boot the kernel after each patch'
	@echo '  checkpatch            scripts/checkpatch.pl --strict on every patch'
	@echo '  clean / distclean     drop kernel builds and images / the whole build folder'
	@echo
	@echo 'Variables:'
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
	@scripts/tree.sh $(TARBALL) $(TREE) $(TOP)/patches

export-patches:
	@scripts/export-patches.sh $(TREE) $(TOP)/patches $(TOP)/CHANGES $(SERIES_VERSION)

kernel: tree
	@scripts/build-kernel.sh $(TREE) $(KOUT) $(TOP)/kconfig-fragments $(VARIANT) $(JOBS)

# An out-of-tree module folder, built against the variant's kernel.
module: kernel
	@[ -n "$(M)" ] || { echo "module: say which folder: make module M=<dir>"; exit 1; }
	@$(TOP)/scripts/build-module.sh $(KOUT) $(abspath $(M)) $(JOBS)

# The sample modules and the guest image for one variant.
initramfs: kernel
	@$(TOP)/initramfs/build.sh $(VARIANT) $(KOUT) $(BUILD)/initramfs-$(VARIANT).cpio.gz

run: initramfs
	@$(TOP)/qemu/run-guest.sh --variant $(VARIANT) --kernel $(KOUT)/arch/x86/boot/bzImage \
		--initrd $(BUILD)/initramfs-$(VARIANT).cpio.gz \
		--log-dir $(BUILD)/logs/run-$(VARIANT) \
		$(if $(OVERLAY),--overlay $(abspath $(OVERLAY))) \
		$${CMD:+--cmd "$$CMD"}

host-test: deps
	@$(TOP)/test/run-host-tests.sh

boot-test: deps
	@$(TOP)/test/boot-test.sh $(BOOT_VARIANTS)

# The whole suite: one summary line at the end, non-zero exit on any failure.
test: deps
	@$(TOP)/test/run-all.sh $(BOOT_VARIANTS)

# Costs of the series (test/bench/README.md says what each row measures).
bench: deps
	@$(MAKE) -s kernel VARIANT=default
	@$(MAKE) -s kernel VARIANT=noindex
	@$(MAKE) -s kernel VARIANT=drivers
	@$(TOP)/test/bench/run-bench.sh $(BUILD)/bench.md

check-series: tree
	@scripts/check-series.sh $(TREE) $(BUILD)/check-series $(TOP)/kconfig-fragments $(JOBS)

checkpatch: tree
	@scripts/checkpatch.sh $(TREE) $(TOP)/patches

clean:
	rm -rf $(BUILD)/kernel-* $(BUILD)/initramfs-* $(BUILD)/logs $(BUILD)/check-series

distclean:
	rm -rf $(BUILD)
