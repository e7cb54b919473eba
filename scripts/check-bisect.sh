#!/bin/bash
# Every patch of the applied series must compile on its own (bisectability)
# for FLAVOR (default preempt), and add no W=1, sparse (C=2) or kernel-doc
# warnings in what it touches. sparse is the one fetch-sparse.sh builds:
# Debian 12's cannot check 7.3.
#
# It walks base..HEAD of the applied tree in a separate worktree
# (build/bisect-src, built into build/kernel-bisect), so the user's tree is
# never checked out over. A whole kernel per patch does not fit the time a
# 7.3 build takes here, so each patch compiles only the objects it touches:
# its own .c files, plus a fixed set of heavy users of the per-CPU headers
# when it touches a kernel-wide header; the one full build of the series' tip is the
# flavor's own (test-flavor.sh). Warnings are compared on those objects
# before and after the patch. A patch that passed is remembered by its tree
# and its parent's tree, so warm runs skip it.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

flavor=${FLAVOR:-preempt}
worktree=$BUILD_DIR/bisect-src
out=$BUILD_DIR/kernel-bisect
passed_dir=$BUILD_DIR/bisect-passed
mkdir -p "$passed_dir" "$LOG_DIR/bisect"
sparse=$("$REPO_DIR/scripts/fetch-sparse.sh")

need_base "base apply"
base_worktree "$worktree"

# The flavor that compiles OBJECT: FLAVOR, but for the files only a
# kernel with the feature builds (KASAN's own, in mm/kasan/). A patch that
# touches those compiles all its objects in that flavor as well: the code
# it adds elsewhere for the feature (mm/percpu.c's for KASAN) builds only
# there. feature_flavors lists every flavor object_flavor() may give.
feature_flavors=(kasan)
object_flavor() {
	case $1 in
	mm/kasan/*) echo kasan ;;
	*) echo "$flavor" ;;
	esac
}

# object_warnings ALSO OBJECT...: compile the objects given at the
# worktree's commit with W=1 and sparse, each in its object_flavor() (in
# build/kernel-bisect, or build/kernel-bisect-<flavor> for another flavor)
# and, unless ALSO is "-", in flavor ALSO too; print their warnings
# without line numbers, so that moved code compares equal. Every object is
# compiled afresh, as warnings are printed only by a compile. Objects whose
# source does not exist there are left out; an object its flavor's config
# does not build fails to compile and fails the check. Returns non-zero
# when a build fails or sparse did not run (the log of the last build is
# $LOG_DIR/bisect/objects.log).
object_warnings() {
	local also=$1 obj fl dir log=$LOG_DIR/bisect/objects.log
	local -A objs_of=()
	shift
	for obj in "$@"; do
		[[ -f $worktree/${obj%.o}.c ]] || continue
		fl=$(object_flavor "$obj")
		objs_of[$fl]+="$obj "
		[[ $also == - || $also == "$fl" ]] || objs_of[$also]+="$obj "
	done
	: >"$log"
	for fl in "${!objs_of[@]}"; do
		dir=$out
		[[ $fl == "$flavor" ]] || dir=$out-$fl
		# shellcheck disable=SC2086 # a list of object paths
		set -- ${objs_of[$fl]}
		for obj in "$@"; do rm -f "$dir/$obj"; done
		KERNEL_SRC=$worktree KERNEL_OUT=$dir BUILD_LOG=$log ALLOW_MISSING_OPTIONS=1 \
			"$REPO_DIR/scripts/build-kernel.sh" "$fl" W=1 C=2 CHECK="$sparse" "$@" 2>/dev/null ||
			return 1
		# The kernel's Makefile skips sparse with a mere warning when it is too old.
		if grep -q 'specified, but .* is not available or not up to date' "$log" || ! grep -q ' CHECK ' "$log"; then
			echo "sparse did not run (see $log)" >&2
			return 1
		fi
		grep -E '(warning|error):' "$log" | sed -E 's/:[0-9]+:[0-9]+:/:/; s/:[0-9]+:/:/' || true
	done | sort -u
	return "${PIPESTATUS[0]}"
}

kerneldoc_warnings() {
	local files=() f
	for f in "$@"; do [[ -f $worktree/$f ]] && files+=("$f"); done
	[[ ${#files[@]} -gt 0 ]] || return 0
	(cd "$worktree" && scripts/kernel-doc -none "${files[@]}" 2>&1) |
		sed -E 's/:[0-9]+:/:/' | sort -u || true
}

# The flavor's fragments are part of what was verified.
config_key=$(cd "$REPO_DIR/configs/flavors" && cat "$flavor" "${feature_flavors[@]}" ../*.config |
	sha1sum | cut -c1-12)
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
	objs=() docs=() also=-
	for f in "${files[@]}"; do
		[[ $(object_flavor "${f%.c}.o") == "$flavor" ]] || also=$(object_flavor "${f%.c}.o")
		case $f in
		*.c)
			docs+=("$f")
			# A .c that another includes (mm/percpu-km.c) builds as the includer.
			mapfile -t includers < <(cd "$SRC_DIR" || exit
				grep -l "^#include \"$(basename "$f")\"" "$(dirname "$f")"/*.c 2>/dev/null)
			if [[ ${#includers[@]} -gt 0 ]]; then
				for c in "${includers[@]}"; do objs+=("${c%.c}.o"); done
			else
				objs+=("${f%.c}.o")
			fi
			;;
		include/*.h | arch/*/include/*.h) objs+=("${PERCPU_HEADER_USERS[@]}") docs+=("$f") ;;
		# A header beside its code: the patch's own .c files include it.
		*.h) docs+=("$f") ;;
		esac
	done
	# A .c among the header users would be compiled (and counted) twice.
	[[ ${#objs[@]} -eq 0 ]] || mapfile -t objs < <(printf '%s\n' "${objs[@]}" | sort -u)

	git -C "$worktree" checkout -q --detach "$parent"
	before_w=$(object_warnings "$also" "${objs[@]}") ||
		die "objects of base..$parent do not compile; see $LOG_DIR/bisect/objects.log"
	before_d=$(kerneldoc_warnings "${docs[@]}")

	git -C "$worktree" checkout -q --detach "$commit"
	progress "bisect: compiling what '$subject' touches"
	if ! after_w=$(object_warnings "$also" "${objs[@]}"); then
		echo "FAIL: '$subject' does not compile on its own; see $LOG_DIR/bisect/objects.log"
		grep -E 'error' "$LOG_DIR/bisect/objects.log" | head -10
		failed=1
		break
	fi
	after_d=$(kerneldoc_warnings "${docs[@]}")

	new_w=$(comm -13 <(echo "$before_w") <(echo "$after_w"))
	new_d=$(comm -13 <(echo "$before_d") <(echo "$after_d"))
	if [[ -n $new_w || -n $new_d ]]; then
		echo "FAIL: '$subject' adds warnings:"
		echo "$new_w$new_d"
		failed=1
	else
		echo "ok: $subject (compiles ${#objs[@]} objects; W=1/sparse warnings $(grep -c . <<<"$before_w" || true) -> $(grep -c . <<<"$after_w" || true), no new kernel-doc warnings)"
		touch "$passed_dir/$key"
	fi
	parent=$commit
done
[[ $failed -eq 0 ]] || die "a patch of the series is not bisectable or adds warnings (see above)"
