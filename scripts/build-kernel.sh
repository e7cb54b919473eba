#!/bin/bash
# Build flavor FLAVOR for its architecture into build/kernel-<flavor> (an O= directory that
# external modules can build against). Extra make arguments (W=1, C=1, a
# single object) may follow the flavor. Output goes to build/logs.
# Usage: build-kernel.sh FLAVOR [make args...]
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

flavor=${1:?usage: build-kernel.sh FLAVOR [make args...]}
shift
# A flavor with a kernel= line boots another flavor's kernel: build that one.
flavor=$(flavor_kernel "$flavor")
src=${KERNEL_SRC:-$SRC_DIR}
out=${KERNEL_OUT:-$BUILD_DIR/kernel-$flavor}
log=${BUILD_LOG:-$LOG_DIR/build-$flavor.log}
mkdir -p "$LOG_DIR" "$CCACHE_DIR"

"$REPO_DIR/scripts/config-kernel.sh" "$flavor" "$src" "$out"
arch=$(flavor_arch "$flavor")
use_arch "$arch"

cc=${CROSS_COMPILE}gcc
command -v "$cc" >/dev/null || die "$cc not found; run 'make deps' to install the cross compiler"
command -v ccache >/dev/null && cc="ccache $cc"
# Fixed build identity: identical sources give identical objects (and ccache hits).
export KBUILD_BUILD_TIMESTAMP="Sat Jan  1 00:00:00 UTC 2000"
export KBUILD_BUILD_USER=percpu KBUILD_BUILD_HOST=series
if ! make -C "$src" O="$out" ARCH="$KERNEL_ARCH" CC="$cc" -j"$(nproc)" "$@" >"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -20 >&2 || true
	die "build of flavor $flavor failed; see $log"
fi
