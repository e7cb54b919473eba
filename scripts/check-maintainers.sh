#!/bin/bash
# Who maintains what the series adds, and who gets each patch.
#
# The series adds no MAINTAINERS section and no maintainer: the patches
# that add files list them, as F: lines, in the section of the subsystem
# they belong to (PER-CPU MEMORY ALLOCATOR). MAINTAINERS-snippet is that
# section as the series leaves it, for a reader of the queue: it must be
# the applied tree's section, with the base's M:, R: and L: lines, and
# each of its F: patterns must match a file. Every file the series adds
# must be in a section of its own subsystem (the umbrellas do not count).
# Then scripts/get_maintainer.pl, with the applied tree's MAINTAINERS, runs
# on every patch of `series` as make mails runs it (no git history, no
# roles), and each patch must reach the subsystems
# tests/maintainers-expected names for it: every address of each
# subsystem must be among its recipients.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

snippet=$QUEUE_DIR/MAINTAINERS-snippet
expected=$REPO_DIR/tests/maintainers-expected
need_base "base apply"
[[ -f $snippet && -f $expected ]] || die "MAINTAINERS-snippet or tests/maintainers-expected is missing"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
series_maintainers "$tmp/MAINTAINERS"
git -C "$SRC_DIR" show base:MAINTAINERS >"$tmp/MAINTAINERS.base"

# section FILE TITLE: the section TITLE of the MAINTAINERS file FILE.
section() {
	awk -v title="$2" '$0 == title { on = 1 } on && $0 == "" { exit } on' "$1"
}
title=$(head -1 "$snippet")
[[ -n $(section "$tmp/MAINTAINERS.base" "$title") ]] ||
	die "MAINTAINERS-snippet's '$title' is not a section of the base's MAINTAINERS; the series adds none"
section "$tmp/MAINTAINERS" "$title" | diff -u - "$snippet" >&2 ||
	die "MAINTAINERS-snippet is not the applied tree's '$title' (diff above); copy the section from the tree"
# The series names no new maintainer, reviewer or list: those stay the base's.
diff <(section "$tmp/MAINTAINERS.base" "$title" | grep -v '^F:') <(grep -v '^F:' "$snippet") >&2 ||
	die "MAINTAINERS-snippet changes the base's '$title' other than by F: lines (diff above)"

mapfile -t snippet_patterns < <(sed -n 's/^F:\t//p' "$snippet")
for pattern in "${snippet_patterns[@]}"; do
	[[ -n $(git -C "$SRC_DIR" ls-files -- "$pattern" | head -1) ]] ||
		die "MAINTAINERS-snippet's 'F: $pattern' matches no file of the series; fix the path"
done

# Every file the series adds has a section of its own in the applied tree
# (mm/percpu*.c, mm/tests/percpu*, LKDTM, HSR, netdevsim), even one with
# only a list (HSR is orphaned); the umbrellas (mm/, Documentation/,
# selftests, the rest) do not count as one.
umbrellas='^(THE REST|MEMORY MANAGEMENT|DOCUMENTATION|KERNEL SELFTEST FRAMEWORK|CHAR and MISC DRIVERS|NETWORKING .*)$'
while read -r added; do
	sections=$(cd "$SRC_DIR" && ./scripts/get_maintainer.pl --mpath "$tmp/MAINTAINERS" --no-git \
		--no-git-fallback --roles -f "$added" | sed -nE 's/^[^(]*\([^:]*:(.*)\)$/\1/p' | sort -u)
	grep -qvE "$umbrellas" <<<"$sections" ||
		die "$added, which the series adds, has no MAINTAINERS section of its own; add an F: line for it to its subsystem's section in the patch that adds it"
done < <(git -C "$SRC_DIR" diff --name-only --diff-filter=A base HEAD)

# subsystem_addresses TAG: the addresses tests/maintainers-expected gives TAG.
subsystem_addresses() {
	awk -v tag="@$1" '$1 == tag { for (i = 2; i <= NF; i++) print $i; found = 1 }
		END { exit !found }' "$expected" || die "tests/maintainers-expected has no subsystem @$1"
}

failed=0
while read -r patch; do
	number=${patch%%-*}
	mapfile -t tags < <(awk -v n="$number" '$1 == n { for (i = 2; i <= NF; i++) print $i }' "$expected")
	[[ ${#tags[@]} -gt 0 ]] || die "tests/maintainers-expected names no subsystem for $patch; add a line '$number <subsystem>...'"
	recipients=$(cd "$SRC_DIR" && ./scripts/get_maintainer.pl --mpath "$tmp/MAINTAINERS" \
		"${GET_MAINTAINER_ARGS[@]}" "$QUEUE_DIR/patches/$patch")
	missing=()
	for tag in "${tags[@]}"; do
		while read -r address; do
			grep -qiF "<$address>" <<<"$recipients" || grep -qixF "$address" <<<"$recipients" ||
				missing+=("$tag:$address")
		done < <(subsystem_addresses "$tag")
	done
	if [[ ${#missing[@]} -gt 0 ]]; then
		echo "FAIL: $patch does not reach ${missing[*]}"
		failed=1
	else
		echo "ok: $patch reaches ${tags[*]} ($(grep -c . <<<"$recipients") recipients)"
	fi
done < <(series_patches)
[[ $failed -eq 0 ]] || die "get_maintainer.pl misses expected recipients (above); fix the patches' MAINTAINERS lines or tests/maintainers-expected"
echo "MAINTAINERS-snippet is the applied tree's '$title'; every patch reaches its subsystems"
