#!/bin/bash
# The series' documentation: scripts/kernel-doc -none must be clean on every
# .c and .h file the series touches, and the core-api book, which holds
# Documentation/core-api/percpu.rst, must build with Sphinx without a
# warning the base's core-api book does not have.
#
# Sphinx builds core-api alone (SPHINXDIRS=core-api), for the base in a
# worktree of its own (build/docs-src) and for the series in the applied
# tree, into build/docs-base and build/docs-series. A book built alone
# warns about its links into other books on the base as well; those
# compare equal. Warnings are compared without line numbers and without
# the source directory, so that lines moved by the series compare equal.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

worktree=$BUILD_DIR/docs-src
git -C "$SRC_DIR" rev-parse -q --verify base >/dev/null || die "no base in $SRC_DIR; run 'make base apply' first"
command -v sphinx-build >/dev/null || die "sphinx-build not found; run 'make deps' (python3-sphinx)"

mapfile -t touched < <(git -C "$SRC_DIR" diff --name-only --diff-filter=AM base HEAD -- '*.c' '*.h')
progress "docs: kernel-doc -none on the ${#touched[@]} C files the series touches"
kerneldoc=
[[ ${#touched[@]} -eq 0 ]] || kerneldoc=$(cd "$SRC_DIR" && scripts/kernel-doc -none "${touched[@]}" 2>&1)
[[ -z $kerneldoc ]] || { echo "$kerneldoc"; die "kernel-doc warns on files the series touches; fix their comments"; }

base_worktree "$worktree"
git -C "$worktree" checkout -q --detach base

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
echo "kernel-doc clean on ${#touched[@]} files; core-api book: $(grep -c . <<<"$base_warnings") warnings on the base, no new ones"
