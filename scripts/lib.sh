# shellcheck shell=bash
# Shared helpers for the pipeline scripts. Sourced, never run.
#
# Every script stops with one line "error: <what is wrong>; <how to fix it>"
# and a non-zero status; progress goes to stderr as "[  12s] step: message".

REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$REPO_DIR/build}
# Where `series` and patches/ live (tests point this at scratch queues).
QUEUE_DIR=${QUEUE_DIR:-$REPO_DIR}
SRC_DIR=${SRC_DIR:-$BUILD_DIR/linux}
LOG_DIR=${LOG_DIR:-$BUILD_DIR/logs}
# The release the series was last tested on; other 6.1.y only warn.
export TESTED_VERSION=6.1.192
SERIES_BRANCH=${SERIES_BRANCH:-percpu-series}
# Debian's python3 carries the modules deps.sh installs (ply, git for the
# tree's spdxcheck.py); a user-level python earlier in PATH may not.
export PATH=/usr/bin:/bin:$PATH
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}

die() {
	echo "error: $*" >&2
	exit 1
}

warn() {
	echo "warning: $*" >&2
}

# Seconds since the first script of this run started (make exports it).
: "${PIPELINE_START:=$(date +%s)}"
export PIPELINE_START

progress() {
	printf '[%4ss] %s\n' "$(($(date +%s) - PIPELINE_START))" "$*" >&2
}

# Names of the series' patches in apply order: `series` minus comments and blanks.
series_patches() {
	local series=$QUEUE_DIR/series
	[[ -f $series ]] || die "$series is missing; create it (one patch file name per line)"
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$series"
}

# Kernel version of the tree in $1, e.g. 6.1.192.
tree_version() {
	local mk=$1/Makefile v p s
	v=$(sed -n 's/^VERSION = //p' "$mk")
	p=$(sed -n 's/^PATCHLEVEL = //p' "$mk")
	s=$(sed -n 's/^SUBLEVEL = //p' "$mk")
	echo "$v.$p.$s"
}

require_clean_tree() {
	local tree=$1
	if [[ -n $(git -C "$tree" status --porcelain --untracked-files=no) ]]; then
		die "$tree has uncommitted changes; commit or stash them first"
	fi
}

# Identifies the queue's content; apply records it so a warm run can skip.
queue_hash() {
	local name
	{
		series_patches
		while read -r name; do cat "$QUEUE_DIR/patches/$name"; done < <(series_patches)
	} | sha256sum | cut -d' ' -f1
}
