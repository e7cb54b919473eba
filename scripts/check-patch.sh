#!/bin/bash
# The submission checks of one patch of the series, on the applied tree:
# checkpatch --strict clean, Signed-off-by by its author, and every file it
# adds covered by a MAINTAINERS entry (checkpatch's FILE_PATH_CHANGES
# warning asks exactly that; get_maintainer.pl answers it).
# Usage: check-patch.sh PATCH_NAME
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

name=${1:?usage: check-patch.sh PATCH_NAME}
patch=$QUEUE_DIR/patches/$name
[[ -f $patch ]] || die "$patch does not exist"
cd "$SRC_DIR"

# The base is Debian's source package, which has no git history: checkpatch
# cannot look up the upstream commit a Fixes: tag names (UNKNOWN_COMMIT_ID);
# the tag's form is still checked.
out=$(./scripts/checkpatch.pl --strict --ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID \
	--no-summary --terse "$patch" || true)
[[ -z $out ]] || { echo "$out"; die "checkpatch --strict reports problems in $name"; }

author=$(sed -n 's/^From: //p' "$patch" | head -1)
grep -q "^Signed-off-by: " "$patch" || die "$name has no Signed-off-by"
from_email=$(sed -n '/^From: /,/^Date: /p' "$patch" | grep -o '<[^>]*>' | head -1)
grep -q "^Signed-off-by: .*$from_email" "$patch" || die "$name lacks a Signed-off-by of its author $author"

while read -r added; do
	maint=$(./scripts/get_maintainer.pl --no-git --no-git-fallback --nol --no-rolestats -f "$added" 2>/dev/null |
		grep -v 'torvalds@' || true)
	[[ -n $maint ]] || die "$name adds $added, which no MAINTAINERS entry covers; extend MAINTAINERS"
done < <(awk '/^--- \/dev\/null/ { created = 1; next }
	/^\+\+\+ b\// { if (created) print substr($0, 7); created = 0 }' "$patch" | sort -u)
echo "$name: checkpatch --strict clean, signed off, new files maintained"
