#!/bin/bash
# The main job: obtain the base, apply the series, build the preempt flavor,
# boot it in QEMU, run the tests, print the report and a short summary.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

flavor=${FLAVOR:-preempt}
scripts=$REPO_DIR/scripts

progress "deps: checking packages"
"$scripts/deps.sh"
"$scripts/base.sh"
"$scripts/apply.sh"
"$scripts/test-flavor.sh" "$flavor"
progress "run: done; console log in $LOG_DIR/$flavor.log"
"$scripts/summarize.sh" "$flavor"
