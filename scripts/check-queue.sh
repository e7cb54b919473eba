#!/bin/bash
# `series` must name exactly the files in patches/, each once, under
# "# posting:" banners (lib.sh's series_postings), and each posting must
# have its cover letter and expected recipients in postings/.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

listed=$(series_patches | sort)
present=$(find "$QUEUE_DIR/patches" -maxdepth 1 -type f -name '*.patch' -printf '%f\n' | sort)
dups=$(uniq -d <<<"$listed")
[[ -z $dups ]] || die "series names these more than once: $(echo "$dups" | tr '\n' ' ')"
only_series=$(comm -23 <(echo "$listed") <(echo "$present") | tr '\n' ' ')
only_dir=$(comm -13 <(echo "$listed") <(echo "$present") | tr '\n' ' ')
[[ -z ${only_series// /} ]] || die "series names patches that do not exist: $only_series"
[[ -z ${only_dir// /} ]] || die "patches/ holds files series does not name: $only_dir"
list=$(series_postings)
declare -A posting_names=()
while read -r name _; do
	posting_names[$name]=1
	for file in cover recipients; do
		[[ -s $QUEUE_DIR/postings/$name/$file ]] ||
			die "posting $name has no postings/$name/$file; write it (README: Sending a posting)"
	done
done <<<"$list"
for dir in "$QUEUE_DIR"/postings/*/; do
	[[ -d $dir ]] || continue
	name=$(basename "$dir")
	[[ -n ${posting_names[$name]:-} ]] ||
		die "postings/$name belongs to no posting in series; remove it or add its banner"
done
echo "series names the $(wc -l <<<"$listed") patches in patches/, as ${#posting_names[@]} postings"
