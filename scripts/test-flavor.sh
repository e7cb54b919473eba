#!/bin/bash
# Build, pack, boot and judge one flavor: the whole test run of one kernel.
# Usage: test-flavor.sh FLAVOR
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

flavor=${1:?usage: test-flavor.sh FLAVOR}
scripts=$REPO_DIR/scripts

progress "kernel: building flavor $flavor"
"$scripts/build-kernel.sh" "$flavor"
progress "kselftest: installing for flavor $flavor"
"$scripts/build-kselftest.sh" "$flavor"
progress "initramfs: packing flavor $flavor"
"$scripts/make-initramfs.sh" "$flavor"
"$scripts/boot.sh" "$flavor"
# QEMU's multi-threaded TCG can run a stale translation of code another
# vCPU has just patched with text_poke_bp(), and the kernel then oopses on
# the int3 while it boots, before user space runs (seen at the switch to
# the tsc clocksource, in about one boot of fifteen here). Such a boot
# tells nothing of the series: boot once more and keep its log beside.
# An int3 oops once user space is up still fails the flavor.
log=${BOOT_LOG:-$LOG_DIR/$flavor.log}
if grep -q '^Oops: int3' "$log" && ! grep -q '^percpu-guest: user space up' "$log"; then
	cp "$log" "$log.tcg-int3"
	warn "flavor $flavor: int3 oops before user space (QEMU TCG text patching), booting again; first log: $log.tcg-int3"
	"$scripts/boot.sh" "$flavor"
fi
progress "check: judging $LOG_DIR/$flavor.log"
"$scripts/check-log.sh" "$flavor"
