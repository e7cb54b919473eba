#!/bin/bash
# `series` must name exactly the files in patches/, each once.
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
echo "series names the $(wc -l <<<"$listed") patches in patches/"
