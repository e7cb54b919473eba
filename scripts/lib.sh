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
# The project's own kselftests, installed beside the tree's (build-kselftest.sh).
# shellcheck disable=SC2034 # used by the scripts that source this file
PROJECT_KSELFTESTS=$REPO_DIR/tests/project-kselftests
# The base: Debian's linux-source-7.3, from the trixie-backports suite of
# the machine's Debian mirror. The release the series was last tested on;
# other 7.3.y only warn.
export BASE_PACKAGE=linux-source-7.3 BASE_SUITE=trixie-backports BASE_SERIES=7.3
export TESTED_VERSION=7.3.4
SERIES_BRANCH=${SERIES_BRANCH:-percpu-series}
# x86-64 objects that see most of include/linux/percpu*.h and the arch
# offset setup: what the bisect walk compiles for a patch to a kernel-wide
# header, and what check-kunit-off.sh compiles without KUnit.
# shellcheck disable=SC2034 # used by the scripts that source this file
PERCPU_HEADER_USERS=(mm/percpu.o mm/vmstat.o kernel/smp.o kernel/workqueue.o
	lib/percpu_counter.o arch/x86/kernel/setup_percpu.o)
# Debian's python3 carries the modules deps.sh installs (ply, git for the
# tree's spdxcheck.py); a user-level python earlier in PATH may not.
export PATH=/usr/bin:/bin:$PATH
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
# Paths below the repository enter ccache's keys relative to the build
# directory, so a clone at another path (CI's) hits the same cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$REPO_DIR}

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

# The postings the queue is sent as, from the banners in `series`:
#   # posting: NAME [on=EARLIER-POSTING] [prefix=WORD[,WORD]]
# heads the patches up to the next posting banner. on= names the posting
# this one applies on top of (default: the base release); prefix= adds
# subject prefixes ([PATCH net]). Prints one line per posting:
# "NAME ON PREFIXES PATCH...", PREFIXES "-" when there are none. Dies on a
# patch before the first banner, a repeated or unknown name, an unknown
# key, an empty posting or one of more than 15 patches (netdev's limit,
# and a fair one for any list).
series_postings() {
	local postings
	postings=$(awk '
		function fail(msg) { print "series line " NR ": " msg; bad = 1; exit 1 }
		function flush() {
			if (name == "") return
			if (count == 0) fail("posting " name " has no patches")
			if (count > 15) fail("posting " name " has " count " patches; split it (at most 15)")
			print name, on, prefix, patches
		}
		/^# posting:/ {
			flush()
			name = $3; on = "base"; prefix = "-"; patches = ""; count = 0
			if (name == "" || name !~ /^[a-z0-9][a-z0-9-]*$/) fail("a posting needs a name of a-z, 0-9 and -")
			if (name in known) fail("posting " name " is named twice")
			for (i = 4; i <= NF; i++) {
				if ($i ~ /^on=/) on = substr($i, 4)
				else if ($i ~ /^prefix=[^,]+(,[^,]+)*$/) prefix = substr($i, 8)
				else fail("\"" $i "\" is not on=POSTING or prefix=WORD[,WORD]")
			}
			if (on != "base" && !(on in known)) fail("posting " name " is on " on ", which is not an earlier posting")
			known[name] = 1
			next
		}
		{ sub(/#.*/, ""); sub(/[[:space:]]+$/, "") }
		$0 == "" { next }
		{
			if (name == "") fail($0 " comes before the first \"# posting:\" banner")
			patches = patches (count ? " " : "") $0; count++
		}
		END { if (!bad) flush() }
	' "$QUEUE_DIR/series") || die "${postings##*$'\n'}; fix the posting banners in series"
	echo "$postings"
}

# need_base MAKE_TARGETS: stop unless $SRC_DIR has the base tree (tag
# base), saying which make targets give what the caller needs ("base", or
# "base apply" for the series too).
need_base() {
	git -C "$SRC_DIR" rev-parse -q --verify base >/dev/null ||
		die "no base in $SRC_DIR; run 'make $1' first"
}

# list_file FILE: FILE's lines without their comments, and no blank ones:
# the project's lists (kselftest targets, KUnit suites, test modules).
list_file() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1"
}

# base_worktree DIR: a detached worktree of $SRC_DIR in DIR, made at base
# when missing, for a check that builds other commits than the user's:
# the user's checkout is never touched.
base_worktree() {
	if [[ ! -d $1 ]]; then
		git -C "$SRC_DIR" worktree prune
		git -C "$SRC_DIR" worktree add -q --detach "$1" base
	fi
}

# posting_end_commit NAME: the commit of the applied tree ($SRC_DIR) that
# ends posting NAME of series, its patches and those of every posting
# before it applied.
posting_end_commit() {
	local count commit
	count=$(series_postings | awk -v name="$1" '{ n += NF - 3 } $1 == name { print n; found = 1; exit }
		END { if (!found) print 0 }')
	[[ $count -gt 0 ]] || die "series has no posting $1"
	commit=$(git -C "$SRC_DIR" rev-list --reverse base..HEAD | sed -n "${count}p")
	[[ -n $commit ]] || die "the applied tree has fewer than $count patches; run 'make apply'"
	echo "$commit"
}

# get_maintainer.pl as the checks and b4 run it: no git history (Debian's
# tree has one commit), no Fixes: lookups (their commits are not in it), no
# roles; with the MAINTAINERS the series leaves (series_maintainers).
# shellcheck disable=SC2034 # used by the scripts that source this file
GET_MAINTAINER_ARGS=(--no-git --no-git-fallback --no-rolestats --no-fixes)
# make mails: b4's repository, its mails, and the identity the patches are
# signed off with, which the dry-run mails come from.
# shellcheck disable=SC2034 # used by write-mails.sh and check-postings.sh
OUTGOING_REPO=$BUILD_DIR/outgoing-src OUTGOING_DIR=$BUILD_DIR/outgoing
# shellcheck disable=SC2034
PROJECT_SENDER="Seed 1a85f44a maintainers <maintainers@users.noreply.a-seed-1a85f44a.example>"

# series_maintainers OUT: the MAINTAINERS the series leaves (the applied
# tree's, with the F: lines its patches add), written to OUT.
series_maintainers() {
	git -C "$SRC_DIR" show HEAD:MAINTAINERS >"$1" 2>/dev/null ||
		die "the applied tree in $SRC_DIR has no MAINTAINERS; run 'make apply'"
}

# kvm_works QEMU KERNEL: whether a guest of the host's architecture gets to
# print under KVM. On some hosts /dev/kvm exists but guests never run, and
# QEMU does not fall back to TCG for that. The answer is kept for this host
# boot in build/kvm-probe.
kvm_works() {
	local qemu=$1 kernel=$2 probe=$BUILD_DIR/kvm-probe id answer boot_id
	boot_id=$(cat /proc/sys/kernel/random/boot_id)
	if [[ -f $probe ]] && read -r id answer <"$probe" && [[ $id == "$boot_id" ]]; then
		[[ $answer == yes ]]
		return
	fi
	answer=no
	if [[ -w /dev/kvm ]]; then
		timeout 15 "$qemu" -accel kvm -m 256M -smp 1 -nodefaults -display none \
			-monitor none -serial stdio -no-reboot -kernel "$kernel" \
			-append "console=ttyS0 panic=-1 rdinit=/none" </dev/null >"$probe.log" 2>&1 || true
		grep -q 'Linux version' "$probe.log" && answer=yes
	fi
	mkdir -p "$BUILD_DIR"
	echo "$boot_id $answer" >"$probe"
	[[ $answer == yes ]]
}

# Kernel version of the tree in $1, e.g. 6.1.192.
tree_version() {
	local mk=$1/Makefile v p s
	v=$(sed -n 's/^VERSION = //p' "$mk")
	p=$(sed -n 's/^PATCHLEVEL = //p' "$mk")
	s=$(sed -n 's/^SUBLEVEL = //p' "$mk")
	echo "$v.$p.$s"
}

# flavor_field FLAVOR NAME: the value of the flavor file's "NAME=" line.
# A flavor file lists config fragments, one a line, and may have the lines
# arch=<name> (default x86_64), kernel=<flavor> (boot that flavor's kernel
# instead of building one) and cmdline=<words> (added to the kernel's).
flavor_field() {
	local file=${CONFIGS_DIR:-$REPO_DIR/configs}/flavors/$1
	[[ -f $file ]] || die "no flavor '$1'; add configs/flavors/$1"
	sed -n "s/^$2=//p" "$file"
}

# The flavor whose kernel FLAVOR boots: its own, or the one its kernel= names.
flavor_kernel() {
	local kernel
	kernel=$(flavor_field "$1" kernel)
	echo "${kernel:-$1}"
}

# A flavor builds for x86_64 unless its kernel's file has a line "arch=<name>".
flavor_arch() {
	local arch
	arch=$(flavor_field "$(flavor_kernel "$1")" arch)
	echo "${arch:-x86_64}"
}

# use_arch ARCH: set what building and booting for ARCH needs: make's ARCH
# and CROSS_COMPILE, the image QEMU boots, QEMU itself, its machine options,
# the serial console and the static busybox for the guest.
# shellcheck disable=SC2034 # read by the scripts that source this file
use_arch() {
	case $1 in
	x86_64)
		KERNEL_ARCH=x86_64 CROSS_COMPILE='' KERNEL_IMAGE=arch/x86/boot/bzImage
		QEMU_SYSTEM=qemu-system-x86_64 QEMU_PACKAGE=qemu-system-x86
		QEMU_MACHINE=() GUEST_CONSOLE=ttyS0
		GUEST_BUSYBOX=${BUSYBOX:-/bin/busybox}
		;;
	arm64)
		KERNEL_ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- KERNEL_IMAGE=arch/arm64/boot/Image
		QEMU_SYSTEM=qemu-system-aarch64 QEMU_PACKAGE=qemu-system-arm
		QEMU_MACHINE=(-machine virt -cpu cortex-a57) GUEST_CONSOLE=ttyAMA0
		# deps.sh unpacks Debian's busybox-static:arm64 here.
		GUEST_BUSYBOX=$BUILD_DIR/busybox-arm64/bin/busybox
		;;
	i386)
		# The host's gcc builds x86-32 (-m32) and qemu-system-x86 has
		# qemu-system-i386; deps.sh unpacks busybox-static:i386 here.
		KERNEL_ARCH=i386 CROSS_COMPILE='' KERNEL_IMAGE=arch/x86/boot/bzImage
		QEMU_SYSTEM=qemu-system-i386 QEMU_PACKAGE=qemu-system-x86
		QEMU_MACHINE=() GUEST_CONSOLE=ttyS0
		GUEST_BUSYBOX=$BUILD_DIR/busybox-i386/bin/busybox
		;;
	*)
		die "architecture '$1' is not supported; use x86_64, i386 or arm64 in the flavor's arch= line"
		;;
	esac
	export CROSS_COMPILE
}

# The mirror the machine's own apt sources name for its Debian release, as
# apt itself reads them. APT_GET is a stand-in in the scripts' tests.
debian_mirror() {
	local codename mirror
	# shellcheck disable=SC1091 # a system file
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	[[ -n $codename ]] || die "/etc/os-release names no release; this needs a Debian machine"
	# shellcheck disable=SC2016 # $(...) are apt's format fields
	mirror=$("${APT_GET:-apt-get}" indextargets --no-release-info --format '$(RELEASE) $(REPO_URI)' |
		awk -v release="$codename" '$1 == release { print $2; exit }')
	[[ -n $mirror ]] || die "the machine's apt sources name no mirror for Debian $codename; add one"
	echo "$mirror"
}

# private_apt DIR SOURCES_LINE...: an apt setup of its own under DIR (sources
# list, lists, cache) naming only the given lines, updated; afterwards
# "${APT_PRIVATE[@]}" are the apt-get options that use it, with those of
# APT_OPTIONS (an array the caller may set) added. The machine's apt setup
# and installed packages are never touched.
private_apt() {
	local dir=$1
	shift
	rm -rf "$dir"
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	printf '%s\n' "$@" >"$dir/sources.list"
	APT_PRIVATE=(
		-o Dir::Etc::SourceList="$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache"
		-o APT::Sandbox::User=root "${APT_OPTIONS[@]}"
	)
	"${APT_GET:-apt-get}" "${APT_PRIVATE[@]}" -qq update >"$dir/update.log" 2>&1 ||
		die "apt-get update of '$*' failed (see $dir/update.log); check the network or the mirror"
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

# test_round_lines LOG TARGET:TEST: the lines "round R: sent S counted C
# lost L pps P" that kselftest TEST of TARGET printed in the boot log LOG
# (the driver tests print one per round).
test_round_lines() {
	tr -d '\r' <"$1" | awk -v header="selftests: ${2%%:*}: ${2#*:}" '
		index($0, header) { inside = 1; next }
		/selftests: / { inside = 0 }
		inside && match($0, /round [0-9]+: sent [0-9]+ counted [0-9]+ lost -?[0-9]+ pps [0-9]+/) {
			print substr($0, RSTART, RLENGTH)
		}'
}

# boot_tcg_retry FLAVOR LOG [STANDS_AFTER]: boot.sh FLAVOR with BOOT_LOG=LOG
# and the caller's environment; after an int3 oops, boot once more, keeping
# the first log beside as LOG.tcg-int3. QEMU's multi-threaded TCG can run a
# stale translation of code another vCPU has just patched with
# text_poke_bp(), and the kernel then oopses on the int3 (seen at the switch
# to the tsc clocksource, in about one boot of fifteen here): such a boot
# tells nothing of the kernel. A second such oops stands, and so does one
# after a line matching STANDS_AFTER (a flavor's test run: user space up).
boot_tcg_retry() {
	local flavor=$1 log=$2 stands_after=${3:-}
	# Each failure returned by hand: a caller may test this function's
	# status, which turns set -e off inside it.
	BOOT_LOG=$log "$REPO_DIR/scripts/boot.sh" "$flavor" || return
	grep -q '^Oops: int3' "$log" || return 0
	if [[ -n $stands_after ]] && grep -q -- "$stands_after" "$log"; then
		return 0
	fi
	cp "$log" "$log.tcg-int3"
	warn "an int3 oops (QEMU TCG text patching) in $log, booting again; first log: $log.tcg-int3"
	BOOT_LOG=$log "$REPO_DIR/scripts/boot.sh" "$flavor"
}
