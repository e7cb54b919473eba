#!/bin/bash
# What CONFIG_DEBUG_PERCPU costs a distribution-like kernel: x86_64_defconfig
# of the base against the end of the debug posting (the mainline fixes
# before it included) with the option built in and off by default (debug-percpu.config, debug-percpu-by-param.config), as the code
# bytes, __bug_table, __jump_table and .data..once (size-table.sh). Two cold
# defconfig builds, about 50 minutes here: make test-extra. Writes
# build/logs/size-defconfig.report. It measures; it sets no limit (the size
# check, check-size.sh, does, on the flavor's config).
#
# Builds in its own worktree of the applied tree (build/size-defconfig-src),
# so the user's checkout is never touched.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

worktree=$BUILD_DIR/size-defconfig-src
report=$LOG_DIR/size-defconfig.report
configs=${CONFIGS_DIR:-$REPO_DIR/configs}

need_base "base apply"
debug_end=$(posting_end_commit debug)
base_worktree "$worktree"
mkdir -p "$LOG_DIR" "$CCACHE_DIR"
export KBUILD_BUILD_TIMESTAMP="Sat Jan  1 00:00:00 UTC 2000"
export KBUILD_BUILD_USER=percpu KBUILD_BUILD_HOST=series

# build_defconfig COMMIT NAME [FRAGMENT...]: vmlinux of COMMIT's
# x86_64_defconfig with the fragments merged, in build/kernel-NAME.
build_defconfig() {
	local commit=$1 name=$2 out=$BUILD_DIR/kernel-$2 log=$LOG_DIR/build-$2.log
	shift 2
	git -C "$worktree" checkout -q --detach "$commit"
	progress "size-defconfig: building $name"
	{
		make -C "$worktree" O="$out" x86_64_defconfig &&
			if [[ $# -gt 0 ]]; then
				(cd "$worktree" && scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" "$@") &&
					make -C "$worktree" O="$out" olddefconfig
			fi &&
			make -C "$worktree" O="$out" CC="ccache gcc" -j"$(nproc)" vmlinux
	} >"$log" 2>&1 || die "building $name failed; see $log"
}

build_defconfig base defconfig-base
build_defconfig "$debug_end" defconfig-debug "$configs/debug-percpu.config" "$configs/debug-percpu-by-param.config"
grep -q '^CONFIG_DEBUG_PERCPU=y' "$BUILD_DIR/kernel-defconfig-debug/.config" ||
	die "Kconfig dropped CONFIG_DEBUG_PERCPU from the defconfig build; see $LOG_DIR/build-defconfig-debug.log"
git -C "$worktree" checkout -q --detach base

{
	echo "== size: x86_64_defconfig, base against the debug posting with CONFIG_DEBUG_PERCPU built in, off by default =="
	"$REPO_DIR/scripts/size-table.sh" "base=$BUILD_DIR/kernel-defconfig-base/vmlinux" \
		"debug-posting+DEBUG_PERCPU=$BUILD_DIR/kernel-defconfig-debug/vmlinux"
} | tee "$report"
