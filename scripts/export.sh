#!/bin/bash
# Regenerate patches/ and series from the commits base..HEAD of the applied
# tree. Output is stable across machines and git versions: no commit hashes,
# no signature, fixed names; only the base-commit line ties it to the base.
# Banner comments in `series` ("# ...") are kept before the patch they precede.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

tree=${KERNEL_TREE:-$SRC_DIR}
git -C "$tree" rev-parse -q --verify base >/dev/null ||
	die "$tree has no 'base' tag; run 'make base' (or tag your base commit) first"
require_clean_tree "$tree"
count=$(git -C "$tree" rev-list --count base..HEAD)
[[ $count -gt 0 ]] || die "no commits between base and HEAD in $tree; nothing to export"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Pin every setting a user's git config could vary, so that the output
# depends on the commits alone.
git -C "$tree" -c core.abbrev=12 -c diff.noprefix=false -c diff.mnemonicPrefix=false \
	-c diff.renames=true -c diff.algorithm=myers -c diff.indentHeuristic=true \
	-c diff.context=3 -c diff.interHunkContext=0 -c diff.suppressBlankEmpty=false \
	-c format.thread=false -c format.signOff=false -c format.coverLetter=false \
	format-patch -q --no-signature --zero-commit --no-numbered --base=base \
	--no-to --no-cc --no-add-header --suffix=.patch --filename-max-length=64 \
	-o "$tmp" base..HEAD >/dev/null

# Keep banners: remember which patch each comment block preceded.
declare -A banner_before=()
if [[ -f $QUEUE_DIR/series ]]; then
	pending=""
	while IFS= read -r line; do
		if [[ $line == \#* || -z $line ]]; then
			pending+="$line"$'\n'
		else
			banner_before[$line]=$pending
			pending=""
		fi
	done <"$QUEUE_DIR/series"
fi

rm -rf "$QUEUE_DIR/patches"
mkdir -p "$QUEUE_DIR/patches"
{
	for patch in "$tmp"/*.patch; do
		name=$(basename "$patch")
		cp "$patch" "$QUEUE_DIR/patches/$name"
		printf '%s' "${banner_before[$name]:-}"
		echo "$name"
	done
} >"$QUEUE_DIR/series.new"
mv "$QUEUE_DIR/series.new" "$QUEUE_DIR/series"
# The own tree now matches the queue: tell apply.sh nothing is unexported.
if [[ $tree == "$SRC_DIR" ]]; then
	echo "$(queue_hash) $(git -C "$tree" rev-parse HEAD)" >"$tree/.git/percpu-applied"
fi
progress "export: $count patches written to patches/"
