#!/bin/bash
# The postings as b4 writes them (make mails) are what the queue holds:
#   - each posting has one mail per patch, and a cover letter mail when it
#     has more than one patch; the subjects are "[PATCH <prefix> i/n]";
#     every mail is from the project's sender;
#   - the first mail (the cover, or a lone patch with the cover's text
#     below its ---) has the cover's subject and every line of its body,
#     base-commit: naming the posting's start (the base, or the posting
#     its on= names applied) and change-id:;
#   - b4's recipients (To: and Cc: of the first mail, in any order) are
#     the ones kept in postings/<posting>/recipients;
#   - the patch mails of all postings, applied in series order with git am
#     onto base, give the same tree as patches/ applied in order.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

kept=$QUEUE_DIR/postings

"$REPO_DIR/scripts/write-mails.sh"
list=$(series_postings)
[[ -f $OUTGOING_DIR/postings ]] || die "make mails wrote no $OUTGOING_DIR/postings; run 'make mails' and see its errors"

# mail_headers MAIL: "Subject: ...", "From: ..." and one "To: ..." or
# "Cc: ..." line per address, unfolded, in the order of the headers.
mail_headers() {
	python3 - "$1" <<-'EOF'
		import email, email.policy, email.utils, sys
		with open(sys.argv[1], "rb") as f:
		    msg = email.message_from_binary_file(f, policy=email.policy.compat32)
		print("Subject: " + " ".join(str(msg["Subject"]).split()))
		for field in ("From", "To", "Cc"):
		    for name, address in email.utils.getaddresses(msg.get_all(field, [])):
		        print(f"{field}: {email.utils.formataddr((name, address))}")
	EOF
}

failed=0
fail() {
	echo "FAIL: $*"
	failed=1
}

# check_mail POSTING MAIL PREFIX: MAIL's subject starts with PREFIX and it
# comes from the project's sender. Leaves MAIL's headers in $headers.
check_mail() {
	local subject
	headers=$(mail_headers "$2")
	subject=$(sed -n 's/^Subject: //p' <<<"$headers")
	[[ $subject == "$3 "* ]] || fail "$1: ${2##*/} has subject '$subject', not '$3 ...'"
	[[ $(sed -n 's/^From: //p' <<<"$headers") == "$PROJECT_SENDER" ]] ||
		fail "$1: ${2##*/} is not from $PROJECT_SENDER"
}

mails=()
while read -r name on prefixes patches; do
	count=$(wc -w <<<"$patches")
	dir=$OUTGOING_DIR/$name
	covers=$(( count > 1 ? 1 : 0 ))
	mapfile -t patch_mails < <(find "$dir" -name '*.eml' ! -name '0000-*' | sort)
	total=$(find "$dir" -name '*.eml' | wc -l)
	if [[ ${#patch_mails[@]} -ne $count || $total -ne $((count + covers)) ]]; then
		fail "$name: $total mails, ${#patch_mails[@]} of them patches; series has $count patches"
		continue
	fi
	mails+=("${patch_mails[@]}")
	first=${patch_mails[0]}
	[[ $covers -eq 0 ]] || first=$(find "$dir" -name '0000-*.eml')

	prefix="PATCH"
	[[ $prefixes == - ]] || prefix+=" ${prefixes//,/ }"
	if [[ $count -eq 1 ]]; then
		check_mail "$name" "$first" "[$prefix]"
	else
		# b4 pads the numbers to the width of the count: 01/13.
		for i in "${!patch_mails[@]}"; do
			check_mail "$name" "${patch_mails[i]}" "[$prefix $(printf '%0*d' ${#count} $((i + 1)))/$count]"
		done
		check_mail "$name" "$first" "[$prefix $(printf '%0*d' ${#count} 0)/$count]"
		cover_subject=$(head -1 "$kept/$name/cover")
		[[ $(sed -n 's/^Subject: //p' <<<"$headers") == *"] $cover_subject" ]] ||
			fail "$name: the cover mail's subject is not '$cover_subject' (line 1 of $kept/$name/cover)"
	fi
	# The cover's body, but for the recipients' lines b4 takes as trailers.
	missing=$(tail -n +3 "$kept/$name/cover" | grep -vE '^((To|Cc): |$)' | grep -vxFf "$first" || true)
	[[ -z $missing ]] || fail "$name: ${first##*/} lacks these lines of its cover letter: $(head -3 <<<"$missing")"

	read -r _ start _ < <(grep "^$name " "$OUTGOING_DIR/postings")
	want=$(git -C "$SRC_DIR" rev-parse base)
	[[ $on == base ]] || read -r _ _ want < <(grep "^$on " "$OUTGOING_DIR/postings")
	[[ $start == "$want" ]] || fail "$name: make mails started it at $start, not on ${on}'s $want"
	grep -qxF "base-commit: $start" "$first" || fail "$name: ${first##*/} does not say base-commit: $start"
	grep -qE '^change-id: [0-9]{8}-[a-z0-9-]+$' "$first" || fail "$name: ${first##*/} has no change-id:"

	# $headers are still the first mail's, which b4 addresses to all.
	# Compared as sets: get_maintainer.pl lists maintainers of the same
	# rank in perl's hash order, which changes from run to run.
	recipients=$(grep -E '^(To|Cc): ' <<<"$headers")
	if [[ ! -f $kept/$name/recipients ]]; then
		fail "$name has no $kept/$name/recipients; check b4's list in ${first##*/} and keep it there"
	elif ! diff -u <(sort "$kept/$name/recipients") <(sort <<<"$recipients"); then
		fail "$name: b4's recipients differ from $kept/$name/recipients (diff above); fix the patches' MAINTAINERS lines or, if intended, update that file"
	else
		echo "ok: $name, $count patches on $on: $(grep -c '^To:' <<<"$recipients") To, $(grep -c '^Cc:' <<<"$recipients") Cc"
	fi
done <<<"$list"
[[ $failed -eq 0 ]] || die "the postings are not what the queue holds (above)"

# tree_of WHAT FILE...: the tree git am of the FILEs onto base gives, in
# b4's repository (the script's own).
tree_of() {
	local what=$1 file
	shift
	git -C "$OUTGOING_REPO" checkout -q -f --detach base || die "$OUTGOING_REPO has no base; run 'make mails'"
	for file in "$@"; do
		git -C "$OUTGOING_REPO" am -q --keep-cr "$file" >/dev/null 2>&1 || {
			git -C "$OUTGOING_REPO" am --abort >/dev/null 2>&1 || true
			die "${file##*/} of $what does not apply in series order onto base"
		}
	done
	git -C "$OUTGOING_REPO" rev-parse 'HEAD^{tree}'
}
export GIT_COMMITTER_NAME="percpu series" GIT_COMMITTER_EMAIL="series@percpu.invalid"
mailed=$(tree_of "the mails" "${mails[@]}")
mapfile -t queue < <(series_patches | sed "s|^|$QUEUE_DIR/patches/|")
queued=$(tree_of "the queue" "${queue[@]}")
git -C "$OUTGOING_REPO" checkout -q -f --detach base
[[ $mailed == "$queued" ]] || die "the mails give tree $mailed, patches/ gives $queued; run 'make mails' again"
echo "$(wc -l <<<"$list") postings, ${#mails[@]} patch mails: applied in order onto base they give patches/' tree $queued"
