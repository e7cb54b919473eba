#!/bin/bash
# Exporting the applied tree must reproduce patches/ and series byte for byte.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

"$REPO_DIR/scripts/apply.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp "$QUEUE_DIR/series" "$scratch/series"
QUEUE_DIR=$scratch "$REPO_DIR/scripts/export.sh"
if ! diff -ru "$QUEUE_DIR/patches" "$scratch/patches" || ! diff -u "$QUEUE_DIR/series" "$scratch/series"; then
	die "apply then export changed the queue (diff above); run 'make apply export' and commit the result"
fi
echo "apply then export gives the same queue"
