# Per-CPU data patch series: the Makefile only names the steps; each step is
# one script in scripts/. FLAVOR picks a configs/flavors/ file.
# Each target's "##" comment is its line in make help: what it does, then
# its time on a 2-core machine (cold: fresh clone, empty ccache; warm:
# ccache filled), as the README's table of times has them.
.DEFAULT_GOAL := help
FLAVOR ?= preempt
export FLAVOR
export PIPELINE_START := $(shell date +%s)

.PHONY: help run test test-full test-extra cpu-hole kasan-vs-base bench kunitpy docs cross mails send deps base apply export kernel initramfs boot check clean

help:		## this list (the variables you may set: README, "Scripts and variables")
	@awk -F':[^#]*## ' '/^[a-z][a-z0-9-]*:.*## / { printf "  make %-14s %s\n", $$1, $$2 }' $(firstword $(MAKEFILE_LIST))
run:		## the main job: base, apply, build, boot in QEMU, test, summary (11m cold, 33 s warm)
	@scripts/run.sh
test:		## every check that fits 70 minutes cold (54 min cold, 28 min warm)
	@scripts/test.sh
test-full:	## make test plus arm64, i386, KASAN flavors, cross and KASAN builds, CPU hole, torture, kunit.py (139 min cold)
	@TEST_SET=full scripts/test.sh
test-extra:	## alone, what fits neither budget: size checks, free_percpu() irqs-off, KASAN base vs series, KASAN on arm64 (hours cold)
	@TEST_SET=extra scripts/test.sh
cpu-hole:	## the bpf and perf fixes on arm64 with a hole in cpu_possible_mask: base, then fixes (6 min)
	@scripts/deps.sh arm64
	@scripts/check-cpu-hole.sh
kasan-vs-base:	## one KASAN kernel from base and series, four per-CPU misuses reported by the series only (90 s warm)
	@scripts/check-kasan-vs-base.sh
bench:		## allocator and driver workloads, base vs series, booted alternately, and lock counts (25 min warm)
	@scripts/bench.sh
kunitpy:	## the series' KUnit suites through the tree's kunit.py and mm/tests/.kunitconfig (9 min cold)
	@scripts/check-kunitpy.sh
docs:		## kernel-doc of the touched files, and the core-api book against the base's (2 min)
	@scripts/check-docs.sh
cross:		## DEBUG_PERCPU=y on x86-64, i386, arm64, riscv64, ppc64le, s390x, m68k tinyconfigs (19 min cold)
	@scripts/deps.sh cross
	@scripts/check-cross-builds.sh
mails:		## every posting as b4 mails, offline, sending nothing: build/outgoing/<posting>/*.eml (2-3 min)
	@scripts/write-mails.sh
send:		## old name of make mails, kept for a while: it sends nothing
	@echo "make send is now make mails: it writes the mails and sends nothing"
	@scripts/write-mails.sh
deps:		## install the Debian packages make run needs (seconds once installed)
	@scripts/deps.sh
base:		## unpack Debian's linux-source-7.3 into build/linux and tag it base (40 s cold, 1 s warm)
	@scripts/base.sh
apply:		## git am the series onto a new branch percpu-series of build/linux or KERNEL_TREE (25 s)
	@scripts/apply.sh
export:		## rewrite patches/ and series from base..HEAD of build/linux or KERNEL_TREE (5 s)
	@scripts/export.sh
kernel:		## build FLAVOR's kernel into build/kernel-FLAVOR (7-14 min cold, under a minute warm)
	@scripts/build-kernel.sh $(FLAVOR)
initramfs:	## FLAVOR's guest: busybox, modules, its kselftests installed (under a minute)
	@scripts/build-kselftest.sh $(FLAVOR)
	@scripts/make-initramfs.sh $(FLAVOR)
boot:		## boot FLAVOR in QEMU, console to build/logs/FLAVOR.log (30 s to 5 min)
	@scripts/boot.sh $(FLAVOR)
check:		## judge FLAVOR's console into build/logs/FLAVOR.report (seconds)
	@scripts/check-log.sh $(FLAVOR)
clean:		## remove build outputs; build/linux (your tree) is kept
	rm -rf build/kernel-* build/initramfs-* build/logs build/bisect-passed
