#!/bin/bash
# The series' documentation: scripts/kernel-doc -none must give no warning
# on the .c and .h files the series touches that the same files of the base
# do not give (a file the series adds must be clean), and the core-api
# book, which holds Documentation/core-api/percpu.rst, must build with
# Sphinx without a warning the base's core-api book does not have. A
# warning the base already gives is another subsystem's to fix: rseq_types.h
# warns about an undocumented padding byte, and the series touches it only
# for struct mm_cid_pcpu. The core-api book still shows every kernel-doc
# warning of the files it pulls in, mm/percpu.c's among them.
#
# Sphinx builds core-api alone (SPHINXDIRS=core-api), for the base in the
# bisect walk's worktree (build/bisect-src: one more checkout of the whole
# tree would cost 1.8 GB for the same files), checked out at base, and for
# the series in the applied tree, into build/docs-base and
# build/docs-series. A book built alone
# warns about its links into other books on the base as well; those
# compare equal. Warnings are compared without line numbers and without
# the source directory, so that lines moved by the series compare equal.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

worktree=$BUILD_DIR/bisect-src
need_base "base apply"
command -v sphinx-build >/dev/null || die "sphinx-build not found; run 'make deps' (python3-sphinx)"

base_worktree "$worktree"
git -C "$worktree" checkout -q --detach base
# The worktree this check kept before it shared the bisect walk's: made by
# this script, holding nothing else, and 1.8 GB.
if git -C "$SRC_DIR" worktree list --porcelain | grep -qx "worktree $BUILD_DIR/docs-src"; then
	git -C "$SRC_DIR" worktree remove --force "$BUILD_DIR/docs-src"
fi

# kerneldoc_warnings SRC FILE...: kernel-doc's warnings on those of the
# FILEs that SRC has, without line numbers, sorted.
kerneldoc_warnings() {
	local src=$1 file output present=()
	shift
	for file in "$@"; do
		[[ ! -f $src/$file ]] || present+=("$file")
	done
	[[ ${#present[@]} -eq 0 ]] && return
	output=$(cd "$src" && scripts/kernel-doc -none "${present[@]}" 2>&1) ||
		die "kernel-doc failed in $src: $(head -1 <<<"$output")"
	# Anything but a warning is kernel-doc itself failing, which would
	# cancel out if it failed alike on both trees.
	! grep -qv '^Warning: ' <<<"${output:-Warning: }" ||
		die "kernel-doc printed more than warnings in $src: $(grep -v '^Warning: ' <<<"$output" | head -1)"
	[[ -z $output ]] ||
		sed -E 's|^(Warning: [^:]+):[0-9]+ |\1: |' <<<"$output" | sort -u
}

mapfile -t touched < <(git -C "$SRC_DIR" diff --name-only --diff-filter=AM base HEAD -- '*.c' '*.h')
progress "docs: kernel-doc -none on the ${#touched[@]} C files the series touches, against the base's"
base_kerneldoc=$(kerneldoc_warnings "$worktree" "${touched[@]}")
series_kerneldoc=$(kerneldoc_warnings "$SRC_DIR" "${touched[@]}")
new=$(comm -13 <(echo "$base_kerneldoc") <(echo "$series_kerneldoc"))
[[ -z $new ]] || { echo "$new"; die "the series adds kernel-doc warnings to the files it touches; fix their comments"; }

# core_api_warnings SRC OUT: build the core-api book of SRC into OUT and
# print its warnings, normalised and sorted.
core_api_warnings() {
	local src=$1 out=$2 log=$LOG_DIR/${2##*/}.log
	mkdir -p "$out"
	make -C "$src" O="$out" SPHINXDIRS=core-api htmldocs >"$log" 2>&1 ||
		die "the core-api book of $src does not build; see $log"
	{ grep -E 'WARNING|ERROR' "$log" || true; } |
		sed -E "s|$src/||g; s|:[0-9]+:|:|g" | sort -u
}

progress "docs: core-api book of the base"
base_warnings=$(core_api_warnings "$worktree" "$BUILD_DIR/docs-base")
progress "docs: core-api book of the series"
series_warnings=$(core_api_warnings "$SRC_DIR" "$BUILD_DIR/docs-series")
new=$(comm -13 <(echo "$base_warnings") <(echo "$series_warnings"))
[[ -z $new ]] || { echo "$new"; die "the series adds Sphinx warnings to the core-api book; fix the documents or kernel-doc above"; }
[[ -f $BUILD_DIR/docs-series/Documentation/output/core-api/percpu.html ]] ||
	die "the core-api book has no percpu page; is percpu.rst in Documentation/core-api/index.rst?"
echo "kernel-doc: no new warnings on ${#touched[@]} files; core-api book: $(grep -c . <<<"$base_warnings") warnings on the base, no new ones"
