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
boot_tcg_retry "$flavor" "${BOOT_LOG:-$LOG_DIR/$flavor.log}" '^percpu-guest: user space up'
progress "check: judging $LOG_DIR/$flavor.log"
"$scripts/check-log.sh" "$flavor"
