#!/bin/bash
# Install the kselftests of tests/kselftest-targets from the tree into
# build/kselftest-<flavor>, which make-initramfs.sh packs for the guest.
# A test whose kernel options the flavor lacks skips itself in the guest.
# Usage: build-kselftest.sh FLAVOR
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

flavor=${1:?usage: build-kselftest.sh FLAVOR}
src=${KERNEL_SRC:-$SRC_DIR}
install_dir=$BUILD_DIR/kselftest-$flavor
log=$LOG_DIR/kselftest-$flavor.log
targets=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$REPO_DIR/tests/kselftest-targets" | tr '\n' ' ')
mkdir -p "$LOG_DIR"

for target in $targets; do
	[[ -d $src/tools/testing/selftests/$target ]] ||
		die "kselftest target '$target' is not in $src; apply the series or fix tests/kselftest-targets"
done
rm -rf "$install_dir"
if ! make -C "$src/tools/testing/selftests" ARCH=x86_64 TARGETS="$targets" \
	KSFT_INSTALL_PATH="$install_dir" install >"$log" 2>&1; then
	tail -20 "$log" >&2
	die "kselftest install for flavor $flavor failed; see $log"
fi
