# Per-CPU data patch series: the Makefile only names the steps; each step is
# one script in scripts/. FLAVOR picks a configs/flavors/ file.
FLAVOR ?= preempt
export FLAVOR
export PIPELINE_START := $(shell date +%s)

.PHONY: run test bench deps base apply export kernel initramfs boot check clean

run:		# base, apply, build, boot, test, report
	@scripts/run.sh
test:		# every check: scripts, queue, patches, bisect builds, all flavors
	@scripts/test.sh
bench:		# netdevsim statistics load: base vs series, packets/s and lost updates
	@scripts/bench.sh
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
