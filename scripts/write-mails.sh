#!/bin/bash
# Write every posting of the queue as mails, offline, the way b4 sends it:
# build/outgoing/<posting>/*.eml, one directory per "# posting:" banner of
# `series` (lib.sh's series_postings says what a banner holds).
#
# The work happens in a repository of the script's own, build/outgoing-src
# (it borrows build/linux's objects, and holds only the base and b4's
# branches), so b4's branches and rewrites never touch the user's tree.
# For each posting, in series order:
#   - its patches are applied with git am onto its start: the base, or
#     the posting its banner's on= names, applied the same way (commit
#     dates are the author dates, so the same queue gives the same start);
#   - that branch, b4/<posting>, is enrolled with `b4 prep -e <start>`;
#   - the cover letter is postings/<posting>/cover (subject line,
#     blank line, body) and the subject prefixes are the banner's prefix=;
#   - `b4 prep --auto-to-cc` adds the recipients get_maintainer.pl gives
#     with the MAINTAINERS the whole series leaves;
#   - `b4 send -o --no-sign` writes the mails.
# build/outgoing/postings lists "<posting> <start> <tip>" for the checks.
# The mails come from the identity that signs the patches off; README.md
# says how a sender signs off and sends with their own.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

repo=$OUTGOING_REPO
covers=$QUEUE_DIR/postings
log=$LOG_DIR/outgoing-b4.log

command -v b4 >/dev/null || die "b4 not found; run 'make deps' (Debian's b4)"
# What follows relies on b4 0.12's prep and send (bookworm's).
[[ $(b4 --version 2>/dev/null) == 0.12.* ]] ||
	warn "b4 $(b4 --version 2>/dev/null) is not the 0.12 this was written for; check the mails"
need_base base
list=$(series_postings)

# The repository is the script's: a run that did not finish (b4 killed
# mid-rewrite) leaves no stamp, and the next run starts it afresh. A
# revision b4 really sent from here is tagged sent/...; starting afresh
# would lose its tracking, so such a repository is the user's to move.
if [[ -d $repo/.git ]] && [[ -n $(git -C "$repo" tag -l 'sent/*') ]]; then
	die "$repo holds postings b4 has sent (tags sent/*); clone them into your own tree and remove $repo"
fi
if [[ ! -f $repo/.git/outgoing-complete ]]; then
	rm -rf "$repo"
	git init -q "$repo"
	echo "$SRC_DIR/.git/objects" >"$repo/.git/objects/info/alternates"
fi
rm -f "$repo/.git/outgoing-complete"
git -C "$repo" fetch -q --force "$SRC_DIR" 'refs/tags/base:refs/tags/base'
git -C "$repo" checkout -q -f --detach base
git -C "$repo" for-each-ref --format='delete %(refname)' refs/heads/b4/ | git -C "$repo" update-ref --stdin

# Nothing of the user's may change the mails: no global or system git
# config (an editor, sendemail.from, signing), no ~/.get_maintainer.conf.
# b4 gets the sender, the cover (its editor copies the file in), the
# recipients' commands, and an SMTP server, without which b4 0.12 will
# not even write mails to -o.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 HOME=$BUILD_DIR/outgoing-home
mkdir -p "$HOME" "$LOG_DIR"
maintainers=$repo/.git/outgoing-MAINTAINERS cover_copy=$repo/.git/outgoing-cover
series_maintainers "$maintainers"
get_maintainer="scripts/get_maintainer.pl --mpath $(printf '%q' "$maintainers") ${GET_MAINTAINER_ARGS[*]}"
sender_name=${PROJECT_SENDER% <*} sender_email=${PROJECT_SENDER##*<}
sender_email=${sender_email%>}
b4_settings=(
	user.name "$sender_name"
	user.email "$sender_email"
	core.editor "cp $(printf '%q' "$cover_copy")"
	sendemail.smtpserver /bin/false
	b4.send-auto-to-cmd "$get_maintainer --nol"
	b4.send-auto-cc-cmd "$get_maintainer --nom"
)
export GIT_CONFIG_COUNT=$((${#b4_settings[@]} / 2))
for ((i = 0; i < GIT_CONFIG_COUNT; i++)); do
	export "GIT_CONFIG_KEY_$i=${b4_settings[2 * i]}" "GIT_CONFIG_VALUE_$i=${b4_settings[2 * i + 1]}"
done
export GIT_COMMITTER_NAME=$sender_name GIT_COMMITTER_EMAIL=$sender_email

# b4 must never wait for a terminal or an editor.
b4_quiet() {
	echo "== b4 $*" >>"$log"
	timeout 300 b4 "$@" </dev/null >>"$log" 2>&1 ||
		die "b4 $* failed in $repo; see the end of $log"
}

: >"$log"
new=$OUTGOING_DIR.new
rm -rf "$new"
mkdir -p "$new"
declare -A tip=()
while read -r name on prefixes patches; do
	[[ -f $covers/$name/cover ]] || die "posting $name has no cover letter; write $covers/$name/cover"
	start=$(git -C "$repo" rev-parse base) where="the base"
	[[ $on == base ]] || start=${tip[$on]} where="posting $on"

	git -C "$repo" checkout -q -f -B "b4/$name" "$start"
	for patch in $patches; do
		if ! git -C "$repo" am -q --committer-date-is-author-date "$QUEUE_DIR/patches/$patch" >>"$log" 2>&1; then
			git -C "$repo" am --abort >/dev/null 2>&1 || true
			die "$patch does not apply onto $where; fix the on= of posting $name in series (see $log)"
		fi
	done
	tip[$name]=$(git -C "$repo" rev-parse HEAD)
	echo "$name $start ${tip[$name]}" >>"$new/postings"

	cp "$covers/$name/cover" "$cover_copy"
	(
		cd "$repo"
		b4_quiet prep -e "$start"
		b4_quiet prep --edit-cover
		if [[ $prefixes != - ]]; then
			read -ra prefix_words <<<"${prefixes//,/ }"
			b4_quiet prep --set-prefixes "${prefix_words[@]}"
		fi
		b4_quiet prep --auto-to-cc
		b4_quiet send -o "$new/$name" --no-sign
	)
	progress "mails: posting $name, $(wc -w <<<"$patches") patches on ${on}: $(find "$new/$name" -name '*.eml' | wc -l) mails"
done <<<"$list"
git -C "$repo" checkout -q -f --detach base
touch "$repo/.git/outgoing-complete"
rm -rf "$OUTGOING_DIR"
mv "$new" "$OUTGOING_DIR"
progress "mails: the mails are in $OUTGOING_DIR/<posting>/"
