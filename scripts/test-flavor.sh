#!/bin/bash
# Build, pack, boot and judge one flavor: the whole test run of one kernel.
# Usage: test-flavor.sh FLAVOR
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

flavor=${1:?usage: test-flavor.sh FLAVOR}
scripts=$REPO_DIR/scripts
# make test counts what this boot's results say, never an earlier boot's.
rm -f "$LOG_DIR/$flavor.results.json"

progress "kernel: building flavor $flavor"
"$scripts/build-kernel.sh" "$flavor"
progress "kselftest: installing for flavor $flavor"
"$scripts/build-kselftest.sh" "$flavor"
progress "initramfs: packing flavor $flavor"
"$scripts/make-initramfs.sh" "$flavor"
# An int3 oops once user space is up fails the flavor (see boot_tcg_retry).
boot_status=0
boot_tcg_retry "$flavor" "${BOOT_LOG:-$LOG_DIR/$flavor.log}" '^percpu-guest: user space up' || boot_status=$?
# A boot that failed or timed out is judged too: its results name the QEMU
# line and count what ran before it stopped.
progress "check: judging $LOG_DIR/$flavor.log"
judge_status=0
"$scripts/check-log.sh" "$flavor" || judge_status=$?
[[ $boot_status -eq 0 ]] || die "the boot of flavor $flavor failed (status $boot_status); see $LOG_DIR/$flavor.log"
exit "$judge_status"
