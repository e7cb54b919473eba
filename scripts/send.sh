#!/bin/bash
# Write every posting of the queue as mails, offline, the way b4 sends it:
# build/outgoing/<posting>/*.eml, one directory per "# posting:" banner of
# `series` (lib.sh's series_postings says what a banner holds).
#
# The work happens in a repository of its own, build/outgoing-src (a
# clone of build/linux that shares its objects), so b4's branches and
# rewrites never touch the user's tree. For each posting, in series order:
#   - its patches are applied with git am onto its start: the base, or the
#     tip of the posting its banner's on= names (commit dates are the
#     author dates, so the same queue gives the same commits);
#   - that branch, b4/<posting>, is enrolled with `b4 prep -e <start>`;
#   - the cover letter is tests/postings/<posting>/cover (subject line,
#     blank line, body) and the subject prefixes are the banner's prefix=;
#   - `b4 prep --auto-to-cc` adds the recipients get_maintainer.pl gives,
#     with MAINTAINERS-snippet inserted into the base's MAINTAINERS;
#   - `b4 send -o build/outgoing/<posting> --no-sign` writes the mails.
# Mails come from the identity that signs the patches off; README.md says
# how a sender signs off and sends with their own.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

repo=$BUILD_DIR/outgoing-src
outgoing=$BUILD_DIR/outgoing
covers=$QUEUE_DIR/tests/postings
sender_name="Seed 1a85f44a maintainers"
sender_email="maintainers@users.noreply.a-seed-1a85f44a.example"

command -v b4 >/dev/null || die "b4 not found; run 'make deps' (Debian's b4)"
git -C "$SRC_DIR" rev-parse -q --verify base >/dev/null || die "no base in $SRC_DIR; run 'make base' first"
mapfile -t postings < <(series_postings)

if [[ ! -d $repo/.git ]]; then
	rm -rf "$repo"
	git clone -q --shared --no-checkout "$SRC_DIR" "$repo"
fi
# A revision b4 really sent from here is tagged sent/...; re-enrolling
# would lose its tracking, so such a repository is the user's to move.
[[ -z $(git -C "$repo" tag -l 'sent/*') ]] ||
	die "$repo holds postings b4 has sent (tags sent/*); fetch them into your own tree and remove $repo"
git -C "$repo" fetch -q --force "$SRC_DIR" 'refs/tags/base:refs/tags/base'
git -C "$repo" am --abort >/dev/null 2>&1 || true
git -C "$repo" checkout -q -f --detach base

# b4 and git read their settings from these: the sender, the recipients'
# commands (get_maintainer.pl as b4 runs it by default, without git
# history or Fixes: lookups, which Debian's tree cannot answer), and an
# SMTP server, without which b4 0.12 refuses even to write mails to -o.
maintainers=$outgoing/MAINTAINERS
mkdir -p "$outgoing"
maintainers_with_snippet "$maintainers" >/dev/null
get_maintainer="scripts/get_maintainer.pl --mpath $maintainers --no-git --no-git-fallback --no-rolestats --no-fixes"
b4_settings=(
	user.name "$sender_name"
	user.email "$sender_email"
	sendemail.smtpserver /bin/false
	b4.send-auto-to-cmd "$get_maintainer --nol"
	b4.send-auto-cc-cmd "$get_maintainer --nom"
	am.keepcr true
)
export GIT_CONFIG_COUNT=$((${#b4_settings[@]} / 2))
for ((i = 0; i < GIT_CONFIG_COUNT; i++)); do
	export "GIT_CONFIG_KEY_$i=${b4_settings[2 * i]}" "GIT_CONFIG_VALUE_$i=${b4_settings[2 * i + 1]}"
done
export GIT_COMMITTER_NAME=$sender_name GIT_COMMITTER_EMAIL=$sender_email

# b4 must never wait for a terminal or an editor.
b4_quiet() {
	local log=$LOG_DIR/outgoing-b4.log
	if ! timeout 300 b4 "$@" </dev/null >>"$log" 2>&1; then
		tail -n 5 "$log" >&2
		die "b4 $* failed in $repo (see $log); check the cover letter and b4's message above"
	fi
}

mkdir -p "$LOG_DIR"
: >"$LOG_DIR/outgoing-b4.log"
declare -A tip=()
for line in "${postings[@]}"; do
	read -r name on prefixes patches <<<"$line"
	cover=$covers/$name/cover
	[[ -f $cover ]] || die "posting $name has no cover letter; write $cover (subject line, blank line, body)"
	start=base
	[[ $on == base ]] || start=${tip[$on]}

	git -C "$repo" checkout -q -f -B "b4/$name" "$start"
	for patch in $patches; do
		git -C "$repo" am -q --committer-date-is-author-date "$QUEUE_DIR/patches/$patch" >/dev/null 2>&1 || {
			git -C "$repo" am --abort >/dev/null 2>&1 || true
			die "$patch does not apply on top of posting ${on}; fix the on= of posting $name in series"
		}
	done
	tip[$name]=$(git -C "$repo" rev-parse HEAD)

	(
		cd "$repo"
		b4_quiet prep -e "$start"
		EDITOR="cp $cover" b4_quiet prep --edit-cover
		if [[ $prefixes != - ]]; then
			read -ra prefix_words <<<"${prefixes//,/ }"
			b4_quiet prep --set-prefixes "${prefix_words[@]}"
		fi
		b4_quiet prep --auto-to-cc
		rm -rf "${outgoing:?}/$name"
		b4_quiet send -o "$outgoing/$name" --no-sign
	)
	progress "send: posting $name, $(wc -w <<<"$patches") patches on ${on}: $(find "$outgoing/$name" -name '*.eml' | wc -l) mails in $outgoing/$name"
done
git -C "$repo" checkout -q -f --detach base
