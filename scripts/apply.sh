#!/bin/bash
# Apply `series` with git am (strict: no fuzz, no 3-way) onto a fresh branch.
#
# Own tree (build/linux): branch percpu-series is recreated from tag `base`,
# but only when it holds nothing that patches/ lacks (export first).
# KERNEL_TREE=/path: the user's tree; it must be clean, a new branch is made
# from its HEAD, and the user's branch is never reset or checked out over.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# Apply every patch; on failure name it, show why, abort, and return 1.
am_series() {
	local tree=$1 name out
	while read -r name; do
		if ! out=$(git -C "$tree" am --quiet --keep-cr "$QUEUE_DIR/patches/$name" 2>&1); then
			echo "$out" | grep -E '^(error|Patch failed)' | head -10 | sed 's/^/  git am: /' >&2
			git -C "$tree" am --abort >/dev/null 2>&1 || true
			echo "error: patch $name does not apply; refresh it against base (make apply up to it, fix, make export)" >&2
			return 1
		fi
	done < <(series_patches)
}

while read -r name; do
	[[ -f $QUEUE_DIR/patches/$name ]] || die "series names patches/$name, which does not exist; fix series"
done < <(series_patches)

if [[ -z $(git config user.email || true) ]]; then
	export GIT_COMMITTER_NAME="percpu series" GIT_COMMITTER_EMAIL="series@percpu.invalid"
fi

if [[ -n ${KERNEL_TREE:-} ]]; then
	tree=$KERNEL_TREE
	git -C "$tree" rev-parse --git-dir >/dev/null 2>&1 || die "$tree is not a git tree; KERNEL_TREE must name a git checkout"
	require_clean_tree "$tree"
	# --git-path answers relative to the tree, so ask from inside it.
	if (cd "$tree" && [[ -d $(git rev-parse --git-path rebase-apply) ]]); then
		die "$tree has a git am or rebase in progress; finish or abort it first"
	fi
	orig=$(git -C "$tree" symbolic-ref -q --short HEAD || git -C "$tree" rev-parse HEAD)
	branch=$SERIES_BRANCH
	git -C "$tree" rev-parse -q --verify "refs/heads/$branch" >/dev/null &&
		die "branch $branch already exists in $tree; delete it or set SERIES_BRANCH=another-name"
	git -C "$tree" checkout -q -b "$branch"
	if ! am_series "$tree"; then
		git -C "$tree" checkout -q "$orig"
		git -C "$tree" branch -q -D "$branch"
		exit 1
	fi
	progress "apply: $(series_patches | wc -l) patches on new branch $branch in $tree"
	exit 0
fi

tree=$SRC_DIR
git -C "$tree" rev-parse -q --verify base >/dev/null 2>&1 || die "$tree has no base; run 'make base' first"
require_clean_tree "$tree"
stamp=$tree/.git/percpu-applied
hash=$(queue_hash)
branch_tip=$(git -C "$tree" rev-parse -q --verify "refs/heads/$SERIES_BRANCH" || true)
head=$(git -C "$tree" symbolic-ref -q --short HEAD || true)

if [[ -n $branch_tip ]]; then
	read -r applied_hash applied_tip 2>/dev/null <"$stamp" || true
	if [[ $branch_tip != "${applied_tip:-}" && $branch_tip != "$(git -C "$tree" rev-parse base)" ]]; then
		die "$SERIES_BRANCH in $tree has commits not exported to patches/; run 'make export' or delete the branch"
	fi
	if [[ ${applied_hash:-} == "$hash" && $head == "$SERIES_BRANCH" ]]; then
		progress "apply: $(series_patches | wc -l) patches (already applied)"
		exit 0
	fi
fi

git -C "$tree" checkout -q -B "$SERIES_BRANCH" base
if ! am_series "$tree"; then
	# What did apply came from the queue: a later apply may replace it.
	echo "partial $(git -C "$tree" rev-parse HEAD)" >"$stamp"
	exit 1
fi
echo "$hash $(git -C "$tree" rev-parse HEAD)" >"$stamp"
progress "apply: $(series_patches | wc -l) patches on $SERIES_BRANCH"
