# Per-CPU data patch series: the Makefile only names the steps; each step is
# one script in scripts/. FLAVOR picks a configs/flavors/ file.
FLAVOR ?= preempt
export FLAVOR
export PIPELINE_START := $(shell date +%s)

.PHONY: run test test-full test-extra cpu-hole kasan-vs-base bench kunitpy docs cross send deps base apply export kernel initramfs boot check clean

run:		# base, apply, build, boot, test, report
	@scripts/run.sh
test:		# every check that fits 70 minutes cold: scripts, queue, patches, bisect, x86 flavors
	@scripts/test.sh
test-full:	# make test plus what does not fit its budget: arm64, i386, KASAN, size, cross builds, KASAN builds, CPU hole, torture, kunit.py
	@TEST_SET=full scripts/test.sh
test-extra:	# what fits neither budget, alone: x86_64_defconfig's size, free_percpu()'s irqs-off time, KASAN base vs series, KASAN on arm64
	@TEST_SET=extra scripts/test.sh
cpu-hole:	# the BPF and perf fixes on arm64 with a hole in cpu_possible_mask: base, then fixes
	@scripts/deps.sh arm64
	@scripts/check-cpu-hole.sh
kasan-vs-base:	# one KASAN kernel from base and series, four per-CPU misuses: reported by the series' only
	@scripts/check-kasan-vs-base.sh
bench:		# netdevsim statistics load: base vs series, packets/s and lost updates
	@scripts/bench.sh
kunitpy:	# the series' KUnit suites through the tree's kunit.py and mm/tests/.kunitconfig
	@scripts/check-kunitpy.sh
docs:		# kernel-doc of the touched files, and the core-api book against the base's
	@scripts/check-docs.sh
cross:		# DEBUG_PERCPU=y on x86-64, i386, arm64, riscv64, ppc64le, s390x, m68k (tinyconfig)
	@scripts/deps.sh cross
	@scripts/check-cross-builds.sh
send:		# every posting as b4 mails, offline: build/outgoing/<posting>/*.eml
	@scripts/send.sh
deps:
	@scripts/deps.sh
base:
	@scripts/base.sh
apply:
	@scripts/apply.sh
export:
	@scripts/export.sh
kernel:
	@scripts/build-kernel.sh $(FLAVOR)
initramfs:
	@scripts/make-initramfs.sh $(FLAVOR)
boot:
	@scripts/boot.sh $(FLAVOR)
check:
	@scripts/check-log.sh $(FLAVOR)
clean:		# build outputs only; build/linux (your tree) is kept
	rm -rf build/kernel-* build/initramfs-* build/logs build/bisect-passed
