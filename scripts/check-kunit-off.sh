#!/bin/bash
# CONFIG_DEBUG_PERCPU must build with CONFIG_KUNIT=n, as a randconfig or a
# distribution kernel may configure it. A whole kernel does not fit the
# budget for one more config, so this compiles the objects that define the
# checks and a few heavy users of per_cpu_ptr() (flavor kunit-off, never
# booted), into build/kernel-kunit-off.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

objects=(mm/percpu.o mm/percpu-debug.o kernel/smp.o kernel/workqueue.o
	lib/percpu_counter.o arch/x86/kernel/setup_percpu.o)
"$REPO_DIR/scripts/build-kernel.sh" kunit-off "${objects[@]}"
kconfig=$BUILD_DIR/kernel-kunit-off/.config
grep -q '^CONFIG_DEBUG_PERCPU=y' "$kconfig" || die "flavor kunit-off has no CONFIG_DEBUG_PERCPU=y; see configs/flavors/kunit-off"
! grep -q '^CONFIG_KUNIT=y' "$kconfig" || die "flavor kunit-off has CONFIG_KUNIT=y; see configs/kunit-off.config"
for obj in "${objects[@]}"; do
	[[ -f $BUILD_DIR/kernel-kunit-off/$obj ]] || die "$obj was not built with CONFIG_KUNIT=n"
done
echo "built without KUnit: ${objects[*]}"
