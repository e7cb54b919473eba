#!/bin/bash
# A module whose licence is not GPL-compatible may link a per-CPU variable
# exported with EXPORT_PER_CPU_SYMBOL() and must not link one exported with
# EXPORT_PER_CPU_SYMBOL_GPL(). Builds tests/export-license/ out of tree
# against FLAVOR's kernel, beside percpu_export_test.ko, which exports both
# (the project's percpu_export kselftest, tests/project-kselftests/percpu/,
# whose GPL user checks them at run time), once for each variable: modpost
# must accept the plain one and refuse the GPL-only one, by name.
# Usage: check-export-license.sh [FLAVOR]
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

flavor=${1:-preempt}
kernel_dir=$BUILD_DIR/kernel-$(flavor_kernel "$flavor")
work=$BUILD_DIR/export-license
exporter=$PROJECT_KSELFTESTS/percpu/percpu_export
[[ -f $kernel_dir/Module.symvers ]] ||
	die "flavor $flavor has no kernel in $kernel_dir; run 'make kernel FLAVOR=$flavor' first"
mkdir -p "$LOG_DIR"

# build VARIANT [make args...]: build the module in its own directory.
build() {
	local variant=$1
	shift
	rm -rf "${work:?}/$variant"
	mkdir -p "$work/$variant"
	cp "$REPO_DIR"/tests/export-license/* "$exporter"/percpu_export_test.[ch] "$work/$variant/"
	BUILD_LOG=$LOG_DIR/export-license-$variant.log \
		"$REPO_DIR/scripts/build-kernel.sh" "$flavor" M="$work/$variant" "$@" modules
}

if ! build plain 2>/dev/null || [[ ! -f $work/plain/percpu_export_nongpl.ko ]]; then
	die "the plain per-CPU variable did not link; see $LOG_DIR/export-license-plain.log"
fi
echo "ok: a non-GPL module links percpu_export_test_plain (EXPORT_PER_CPU_SYMBOL)"

if build gpl PERCPU_EXPORT_GPL=y 2>/dev/null; then
	die "a non-GPL module linked percpu_export_test_gpl, exported GPL-only"
fi
refusal="percpu_export_nongpl.ko: GPL-incompatible module uses GPL-only symbol 'percpu_export_test_gpl'"
grep -qF "$refusal" "$LOG_DIR/export-license-gpl.log" ||
	die "the GPL-only build failed, but not with: $refusal; see $LOG_DIR/export-license-gpl.log"
echo "ok: modpost refuses percpu_export_test_gpl: $refusal"
