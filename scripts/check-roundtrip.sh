#!/bin/bash
# Applying the queue to a fresh branch and exporting it again must give
# patches/ and series back byte for byte. The apply happens in a scratch
# worktree of build/linux (build/roundtrip-src), so it is always a real
# git am from base, whatever state the user's branch is in.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

worktree=$BUILD_DIR/roundtrip-src
branch=percpu-roundtrip-check
need_base base
base_worktree "$worktree"
git -C "$worktree" checkout -q --detach base
git -C "$worktree" branch -q -D "$branch" 2>/dev/null || true
KERNEL_TREE=$worktree SERIES_BRANCH=$branch "$REPO_DIR/scripts/apply.sh"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp "$QUEUE_DIR/series" "$scratch/series"
QUEUE_DIR=$scratch KERNEL_TREE=$worktree "$REPO_DIR/scripts/export.sh"
if ! diff -ru "$QUEUE_DIR/patches" "$scratch/patches" || ! diff -u "$QUEUE_DIR/series" "$scratch/series"; then
	die "apply then export changed the queue (diff above); run 'make apply export' and commit the result"
fi
echo "apply then export gives the same queue"
