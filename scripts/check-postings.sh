#!/bin/bash
# The postings as b4 writes them (make send) are what the queue holds:
#   - each posting has its mails, a cover letter when it has more than one
#     patch, "[PATCH <prefix> i/n]" subjects, and base-commit: and
#     change-id: where b4 puts them (the cover, or a lone patch's notes);
#   - b4's recipients (To: and Cc: of the first mail) are the ones kept in
#     tests/postings/<posting>/recipients;
#   - the patch mails of all postings, applied in series order with git am
#     onto base, give the same tree as patches/ applied in order.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

outgoing=$BUILD_DIR/outgoing
repo=$BUILD_DIR/outgoing-src
kept=$QUEUE_DIR/tests/postings

"$REPO_DIR/scripts/send.sh"
mapfile -t postings < <(series_postings)

# mail_recipients MAIL: "To: Name <address>" and "Cc: ..." lines, one per
# address, in the order the mail's headers give them.
mail_recipients() {
	python3 - "$1" <<-'EOF'
		import email, email.policy, email.utils, sys
		with open(sys.argv[1], "rb") as f:
		    msg = email.message_from_binary_file(f, policy=email.policy.compat32)
		for field in ("To", "Cc"):
		    for name, address in email.utils.getaddresses(msg.get_all(field, [])):
		        print(f"{field}: {email.utils.formataddr((name, address))}")
	EOF
}

failed=0
fail() {
	echo "FAIL: $*"
	failed=1
}

# expect_subject POSTING MAIL PREFIX: MAIL's subject starts with PREFIX.
expect_subject() {
	local subject
	subject=$(sed -n '/^Subject:/{s/^Subject: //p;q}' "$2")
	[[ $subject == "$3 "* ]] || fail "$1: ${2##*/} has subject '$subject', not '$3 ...'"
}

mails=()
for line in "${postings[@]}"; do
	read -r name on prefixes patches <<<"$line"
	count=$(wc -w <<<"$patches")
	dir=$outgoing/$name
	mapfile -t patch_mails < <(find "$dir" -name '*.eml' ! -name '0000-*' | sort)
	[[ ${#patch_mails[@]} -eq $count ]] || { fail "$name: ${#patch_mails[@]} patch mails, series has $count patches"; continue; }
	mails+=("${patch_mails[@]}")
	first=${patch_mails[0]}
	[[ $count -eq 1 ]] || first=$(find "$dir" -name '0000-*.eml')
	[[ -f $first ]] || { fail "$name: no cover letter mail (0000-*.eml)"; continue; }

	prefix="PATCH"
	[[ $prefixes == - ]] || prefix+=" ${prefixes//,/ }"
	if [[ $count -eq 1 ]]; then
		expect_subject "$name" "$first" "[$prefix]"
	else
		# b4 pads the numbers to the width of the count: 01/13.
		expect_subject "$name" "$first" "[$prefix $(printf '%0*d' ${#count} 0)/$count]"
		for i in "${!patch_mails[@]}"; do
			expect_subject "$name" "${patch_mails[i]}" "[$prefix $(printf '%0*d' ${#count} $((i + 1)))/$count]"
		done
	fi
	grep -qE '^base-commit: [0-9a-f]{40}$' "$first" || fail "$name: ${first##*/} has no base-commit:"
	grep -qE '^change-id: [0-9]{8}-[a-z0-9-]+$' "$first" || fail "$name: ${first##*/} has no change-id:"

	recipients=$(mail_recipients "$first")
	[[ -f $kept/$name/recipients ]] || {
		fail "$name has no $kept/$name/recipients; check b4's list in ${first##*/} and keep it there"
		continue
	}
	if ! diff -u "$kept/$name/recipients" <(echo "$recipients") >"$LOG_DIR/recipients-$name.diff" 2>&1; then
		cat "$LOG_DIR/recipients-$name.diff"
		fail "$name: b4's recipients differ from $kept/$name/recipients (diff above); fix MAINTAINERS-snippet or, if intended, update that file"
	else
		echo "ok: $name, $count patches on $on: $(grep -c '^To:' <<<"$recipients") To, $(grep -c '^Cc:' <<<"$recipients") Cc"
	fi
done
[[ $failed -eq 0 ]] || die "the postings are not what the queue holds (above)"

# The mails in series order onto base, then the queue itself onto base.
tree_of() {
	local name=$1 file
	shift
	git -C "$repo" checkout -q -f --detach base
	for file in "$@"; do
		git -C "$repo" am -q --keep-cr "$file" >/dev/null 2>&1 || {
			git -C "$repo" am --abort >/dev/null 2>&1 || true
			die "${file##*/} of $name does not apply in series order onto base"
		}
	done
	git -C "$repo" rev-parse 'HEAD^{tree}'
}
export GIT_COMMITTER_NAME="percpu series" GIT_COMMITTER_EMAIL="series@percpu.invalid"
mailed=$(tree_of "the mails" "${mails[@]}")
mapfile -t queue < <(series_patches | sed "s|^|$QUEUE_DIR/patches/|")
queued=$(tree_of "the queue" "${queue[@]}")
git -C "$repo" checkout -q -f --detach base
[[ $mailed == "$queued" ]] || die "the mails give tree $mailed, patches/ gives $queued; run 'make send' again"
echo "${#postings[@]} postings, ${#mails[@]} patch mails: applied in order onto base they give patches/' tree $queued"
