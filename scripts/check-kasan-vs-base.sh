#!/bin/bash
# One KASAN kernel (flavor kasan), built from the base and from the series,
# each booted with tests/kasan-percpu's modules, which misuse per-CPU
# memory four ways: a read after free of this CPU's copy, a write after
# free of another CPU's copy, a one-byte write past an area, a read of an
# unloaded module's static per-CPU variable. The series' kernel must
# report each at the access, naming the function that made it and the
# CPU whose copy it touched, and run on; the base's must
# report none, as v7.3.4's KASAN does not check per-CPU memory.
# KUnit does not run in these boots (kunit.enable=0: the flavor's suites
# are make test-full's), kasan_multi_shot lets every report through, and
# the series' DEBUG_PERCPU is off (percpu_debug=off), as in most KASAN
# kernels: the stacks the reports give are KASAN's own records.
# make test-extra: the base's KASAN build fits neither budget.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

scripts=$REPO_DIR/scripts
worktree=$BUILD_DIR/kasan-base-src
flavor=kasan

[[ -f $SRC_DIR/mm/kasan/kasan_test_c.c ]] || die "$SRC_DIR is not an applied tree; run 'make apply' first"
base_worktree "$worktree"
git -C "$worktree" checkout -q --detach base

# boot_with_misuses KERNEL: build KERNEL (base or series) in flavor kasan,
# the module against it, its initramfs, and boot it; the console goes to
# build/logs/kasan-vs-base-KERNEL.log.
boot_with_misuses() {
	local kernel=$1 src=$SRC_DIR out=$BUILD_DIR/kernel-kasan
	local payload=$BUILD_DIR/kasan-payload-$kernel initramfs=$BUILD_DIR/initramfs-kasan-misuse-$kernel.cpio
	local log=$LOG_DIR/build-kasan-vs-base-$kernel.log allow_missing=
	# The base lacks the series' options (DEBUG_PERCPU, its suites).
	if [[ $kernel == base ]]; then
		src=$worktree out=$BUILD_DIR/kernel-kasan-base allow_missing=1
	fi
	progress "kasan-vs-base: building the $kernel kernel, flavor $flavor"
	ALLOW_MISSING_OPTIONS=$allow_missing KERNEL_SRC=$src KERNEL_OUT=$out BUILD_LOG=$log \
		"$scripts/build-kernel.sh" "$flavor"
	rm -rf "$payload"
	cp -r "$REPO_DIR/tests/kasan-percpu" "$payload"
	cp "$REPO_DIR/tests/bench/percpu_alloc_bench.c" "$payload/"
	make -C "$out" M="$payload" modules >>"$log" 2>&1 ||
		die "tests/kasan-percpu/'s modules do not build against the $kernel kernel; see $log"
	KERNEL_SRC=$src KERNEL_OUT=$out INITRAMFS=$initramfs GUEST_PAYLOAD=$payload \
		"$scripts/make-initramfs.sh" "$flavor"
	KERNEL_OUT=$out INITRAMFS=$initramfs BOOT_APPEND="kunit.enable=0 kasan_multi_shot percpu_debug=off" \
		boot_tcg_retry "$flavor" "$LOG_DIR/kasan-vs-base-$kernel.log" 'kasan-payload: begin'
}

for kernel in base series; do
	boot_with_misuses "$kernel"
done

"$scripts/judge-kasan-vs-base.sh" "$LOG_DIR/kasan-vs-base-base.log" "$LOG_DIR/kasan-vs-base-series.log"
