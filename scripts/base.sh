#!/bin/bash
# Unpack Debian's linux-source-7.3 into build/linux and record it as a commit
# tagged `base`. The tarball is /usr/src/linux-source-7.3.tar.xz when the
# package is installed, else fetch-base.sh downloads it (BASE_TARBALL=path
# names another). Author, committer and dates are fixed, so the same tarball
# gives the same base hash on every machine; patches record it as base-commit.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

if [[ -n ${BASE_TARBALL:-} ]]; then
	[[ -f $BASE_TARBALL ]] || die "BASE_TARBALL=$BASE_TARBALL does not exist; name a $BASE_PACKAGE tarball"
elif [[ -f /usr/src/$BASE_PACKAGE.tar.xz ]]; then
	BASE_TARBALL=/usr/src/$BASE_PACKAGE.tar.xz
else
	[[ -z ${NO_INSTALL:-} ]] || die "no $BASE_PACKAGE tarball; run 'make base' without NO_INSTALL to download it"
	BASE_TARBALL=$("$REPO_DIR/scripts/fetch-base.sh")
fi

# The stamp ties the unpacked tree to the tarball it came from.
stamp=$(stat -c '%s %Y' "$BASE_TARBALL")
stamp_file=$SRC_DIR/.git/percpu-base-stamp
if [[ -f $stamp_file && $(cat "$stamp_file") == "$stamp" ]] &&
	git -C "$SRC_DIR" rev-parse -q --verify base >/dev/null; then
	progress "base: $(tree_version "$SRC_DIR") at $(git -C "$SRC_DIR" rev-parse --short base) (already there)"
	exit 0
fi

if [[ -e $SRC_DIR ]]; then
	# Never throw away work: the tree may hold the user's commits.
	[[ -f $stamp_file ]] || die "$SRC_DIR exists but was not made by this script; move it away"
	die "$BASE_TARBALL changed since $SRC_DIR was made; move $SRC_DIR away (it may hold your commits) and run 'make base' again"
fi

progress "base: unpacking $BASE_TARBALL"
# Unpack beside the final place and move it there only once it checks out,
# so a bad tarball leaves nothing behind.
unpack=$SRC_DIR.unpack
rm -rf "$unpack"
mkdir -p "$unpack"
trap 'rm -rf "$unpack"' EXIT
tar -xf "$BASE_TARBALL" -C "$unpack" --strip-components=1 ||
	die "could not unpack $BASE_TARBALL; delete it and run make base again"
[[ -f $unpack/Makefile ]] || die "$BASE_TARBALL holds no kernel tree; delete it and run make base again"

version=$(tree_version "$unpack")
[[ $version == "$BASE_SERIES".* ]] || die "$BASE_TARBALL holds Linux $version, not $BASE_SERIES.y; use Debian's $BASE_PACKAGE"
[[ $version == "$TESTED_VERSION" ]] ||
	warn "base is Linux $version; the series was tested on $TESTED_VERSION"
progress "base: committing Linux $version"
export GIT_AUTHOR_NAME="Debian $BASE_PACKAGE" GIT_AUTHOR_EMAIL="base@percpu.invalid"
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
export GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"
git -C "$unpack" init -q -b base-tree
# Debian's top-level .gitignore ignores everything, hence -f.
git -C "$unpack" add -f -A .
git -C "$unpack" -c commit.gpgsign=false commit -q --no-verify -m "Linux $version ($BASE_PACKAGE)"
git -C "$unpack" tag -f base >/dev/null
echo "$stamp" >"$unpack/.git/percpu-base-stamp"
mv "$unpack" "$SRC_DIR"
echo "Linux $version"
progress "base: Linux $version at $(git -C "$SRC_DIR" rev-parse --short base)"
