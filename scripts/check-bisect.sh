#!/bin/bash
# Every patch of the applied series must build on its own (bisectability)
# for FLAVOR (default preempt), and add no W=1, sparse (C=2) or kernel-doc
# warnings in what it touches.
#
# It walks base..HEAD of the applied tree in a separate worktree
# (build/bisect-src, built into build/kernel-bisect), so the user's tree is
# never checked out over. Warnings are compared before and after each patch
# on the objects it touches: its own .c files, plus a fixed set of heavy
# users of the per-CPU headers when it touches a header. A patch that passed
# is remembered by its tree and its parent's tree, so warm runs skip it.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

flavor=${FLAVOR:-preempt}
worktree=$BUILD_DIR/bisect-src
out=$BUILD_DIR/kernel-bisect
passed_dir=$BUILD_DIR/bisect-passed
# Objects that see most of include/linux/percpu*.h and the arch offset setup.
header_users=(mm/percpu.o mm/vmstat.o kernel/smp.o kernel/workqueue.o
	lib/percpu_counter.o arch/x86/kernel/setup_percpu.o)
mkdir -p "$passed_dir" "$LOG_DIR/bisect"

git -C "$SRC_DIR" rev-parse -q --verify base >/dev/null || die "no base in $SRC_DIR; run 'make base apply' first"
if [[ ! -d $worktree ]]; then
	git -C "$SRC_DIR" worktree prune
	git -C "$SRC_DIR" worktree add -q --detach "$worktree" base
fi

# Warnings of W=1 + sparse for the objects given, at the worktree's commit,
# without line numbers so that moved code compares equal.
object_warnings() {
	local objs=() obj
	# Only what the flavor builds: an object the config leaves out (a
	# debug option's file, say) would not even compile on its own. Before
	# the first full build in a fresh output directory that is unknown, and
	# every object is taken.
	for obj in "$@"; do
		[[ -f $worktree/${obj%.o}.c ]] || continue
		[[ -f $out/$obj || ! -f $out/vmlinux ]] && objs+=("$obj")
	done
	[[ ${#objs[@]} -gt 0 ]] || return 0
	KERNEL_SRC=$worktree KERNEL_OUT=$out BUILD_LOG=$LOG_DIR/bisect/objects.log \
		ALLOW_MISSING_OPTIONS=1 "$REPO_DIR/scripts/build-kernel.sh" "$flavor" W=1 C=2 "${objs[@]}" 2>/dev/null
	grep -E '(warning|error):' "$LOG_DIR/bisect/objects.log" |
		sed -E 's/:[0-9]+:[0-9]+:/:/; s/:[0-9]+:/:/' | sort -u || true
}

kerneldoc_warnings() {
	local files=() f
	for f in "$@"; do [[ -f $worktree/$f ]] && files+=("$f"); done
	[[ ${#files[@]} -gt 0 ]] || return 0
	(cd "$worktree" && scripts/kernel-doc -none "${files[@]}" 2>&1) |
		sed -E 's/:[0-9]+:/:/' | sort -u || true
}

# The flavor's fragments are part of what was verified.
config_key=$(cat "$REPO_DIR/configs/flavors/$flavor" "$REPO_DIR"/configs/*.config | sha1sum | cut -c1-12)
mapfile -t commits < <(git -C "$SRC_DIR" rev-list --reverse base..HEAD)
parent=base
failed=0
for commit in "${commits[@]}"; do
	subject=$(git -C "$SRC_DIR" log -1 --format=%s "$commit")
	key=$(git -C "$SRC_DIR" rev-parse "$parent^{tree}" | cut -c1-12)-$(git -C "$SRC_DIR" rev-parse "$commit^{tree}" | cut -c1-12)-$config_key
	if [[ -f $passed_dir/$key ]]; then
		echo "ok: $subject (verified before)"
		parent=$commit
		continue
	fi

	mapfile -t files < <(git -C "$SRC_DIR" diff --name-only "$parent" "$commit")
	objs=() docs=()
	for f in "${files[@]}"; do
		case $f in
		*.c) objs+=("${f%.c}.o") docs+=("$f") ;;
		*.h) objs+=("${header_users[@]}") docs+=("$f") ;;
		esac
	done

	git -C "$worktree" checkout -q --detach "$parent"
	before_w=$(object_warnings "${objs[@]}")
	before_d=$(kerneldoc_warnings "${docs[@]}")

	git -C "$worktree" checkout -q --detach "$commit"
	progress "bisect: building '$subject'"
	if ! KERNEL_SRC=$worktree KERNEL_OUT=$out BUILD_LOG=$LOG_DIR/bisect/build.log \
		ALLOW_MISSING_OPTIONS=1 "$REPO_DIR/scripts/build-kernel.sh" "$flavor" 2>/dev/null; then
		echo "FAIL: '$subject' does not build on its own; see $LOG_DIR/bisect/build.log"
		grep -E 'error' "$LOG_DIR/bisect/build.log" | head -10
		failed=1
		break
	fi
	after_w=$(object_warnings "${objs[@]}")
	after_d=$(kerneldoc_warnings "${docs[@]}")

	new_w=$(comm -13 <(echo "$before_w") <(echo "$after_w"))
	new_d=$(comm -13 <(echo "$before_d") <(echo "$after_d"))
	if [[ -n $new_w || -n $new_d ]]; then
		echo "FAIL: '$subject' adds warnings:"
		echo "$new_w$new_d"
		failed=1
	else
		echo "ok: $subject (builds; W=1/sparse warnings $(grep -c . <<<"$before_w" || true) -> $(grep -c . <<<"$after_w" || true), no new kernel-doc warnings)"
		touch "$passed_dir/$key"
	fi
	parent=$commit
done
[[ $failed -eq 0 ]] || die "a patch of the series is not bisectable or adds warnings (see above)"
