#!/bin/bash
# MAINTAINERS-snippet and the recipients of every patch.
#
# The snippet is inserted into the base's MAINTAINERS in alphabetical
# order, as a maintainer would apply it: its title must be new, each line
# a "X:<tab>value" field, and each F: pattern must match a file of the
# series. Every file the series adds must be the snippet's or have a
# subsystem section of its own. Then scripts/get_maintainer.pl, with that MAINTAINERS, runs on
# every patch of `series` as make send runs it (no git history, no roles), and
# each patch must reach the subsystems tests/maintainers-expected names
# for it: every address of each subsystem must be among its recipients.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

snippet=$QUEUE_DIR/MAINTAINERS-snippet
expected=$REPO_DIR/tests/maintainers-expected
git -C "$SRC_DIR" rev-parse -q --verify base >/dev/null || die "no base in $SRC_DIR; run 'make base apply' first"
[[ -f $snippet && -f $expected ]] || die "MAINTAINERS-snippet or tests/maintainers-expected is missing"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

title=$(head -1 "$snippet")
bad_line=$(tail -n +2 "$snippet" | grep -vnE '^[A-Z]:'$'\t''[^[:space:]]' || true)
[[ -z $bad_line ]] || die "MAINTAINERS-snippet line $bad_line is not a 'X:<tab>value' field"

mapfile -t snippet_patterns < <(sed -n 's/^F:\t//p' "$snippet")
for pattern in "${snippet_patterns[@]}"; do
	[[ -n $(git -C "$SRC_DIR" ls-files -- "$pattern" | head -1) ]] ||
		die "MAINTAINERS-snippet's 'F: $pattern' matches no file of the series; fix the path"
done
snippet_files=$(git -C "$SRC_DIR" ls-files -- "${snippet_patterns[@]}")

next=$(maintainers_with_snippet "$tmp/MAINTAINERS")

# Every file the series adds is the snippet's, or has a section of its own
# in the base (mm/percpu*.c, LKDTM, HSR, netdevsim), even one with only a
# list (HSR is orphaned); the umbrellas (mm/, Documentation/, selftests,
# the rest) do not count as one.
umbrellas='^(THE REST|MEMORY MANAGEMENT|DOCUMENTATION|KERNEL SELFTEST FRAMEWORK|CHAR and MISC DRIVERS|NETWORKING .*)$'
while read -r added; do
	grep -qxF "$added" <<<"$snippet_files" && continue
	sections=$(cd "$SRC_DIR" && ./scripts/get_maintainer.pl --mpath "$tmp/MAINTAINERS" --no-git \
		--no-git-fallback --roles -f "$added" | sed -nE 's/^[^(]*\([^:]*:(.*)\)$/\1/p' | sort -u)
	grep -qvE "$umbrellas" <<<"$sections" ||
		die "$added, which the series adds, has no MAINTAINERS section of its own; add 'F: $added' to MAINTAINERS-snippet"
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
[[ $failed -eq 0 ]] || die "get_maintainer.pl misses expected recipients (above); fix MAINTAINERS-snippet or tests/maintainers-expected"
echo "MAINTAINERS-snippet's '$title' goes in before '$next'; every patch reaches its subsystems"
