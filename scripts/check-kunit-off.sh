#!/bin/bash
# CONFIG_DEBUG_PERCPU must build with CONFIG_KUNIT=n, as a randconfig or a
# distribution kernel may configure it. A whole kernel does not fit the
# budget for one more config, so this compiles the objects that define the
# checks and the heavy per_cpu_ptr() users the bisect walk also compiles
# (flavor kunit-off, never booted), into build/kernel-kunit-off.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

kconfig=$BUILD_DIR/kernel-kunit-off/.config
"$REPO_DIR/scripts/build-kernel.sh" kunit-off mm/percpu-debug.o "${PERCPU_HEADER_USERS[@]}"
grep -q '^CONFIG_DEBUG_PERCPU=y' "$kconfig" || die "flavor kunit-off has no CONFIG_DEBUG_PERCPU=y; see configs/flavors/kunit-off"
! grep -q '^CONFIG_KUNIT=y' "$kconfig" || die "flavor kunit-off has CONFIG_KUNIT=y; see configs/kunit-off.config"
echo "built without KUnit: mm/percpu-debug.o ${PERCPU_HEADER_USERS[*]}"
