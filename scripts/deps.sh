#!/bin/bash
# Install the Debian packages the pipeline and its checks need, when missing.
# The x86-64 pipeline's always; with the argument "arm64" also the cross
# compiler, its C library, QEMU for arm64, dtc and the arm64 guest's busybox, with "i386" the
# i386 guest's busybox (make test-full; the host's gcc and
# qemu-system-x86 build and boot x86-32), with "cross" the cross compilers
# of the cross-architecture build check (check-cross-builds.sh).
# NO_INSTALL=1 only reports what is missing.
# Usage: deps.sh [arm64] [i386] [cross]
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

with_arm64='' with_i386='' with_cross=''
for arg in "$@"; do
	case $arg in
	arm64) with_arm64=1 ;;
	i386) with_i386=1 ;;
	cross) with_cross=1 ;;
	*) die "unknown argument '$arg'; usage: deps.sh [arm64] [i386] [cross]" ;;
	esac
done

packages=(
	xz-utils git make gcc bc flex bison libelf-dev libssl-dev
	cpio kmod file ccache qemu-system-x86 busybox-static python3 perl jq
	bats shellcheck sparse rsync python3-ply python3-git
	coreutils iproute2 netsniff-ng libc6-dev python3-sphinx python3-yaml b4
	# What the README shows for a real send (none of it runs here).
	patatt git-email
)
# The arm64 C library and dtc: the static guest program of the CPU-hole
# check (check-cpu-hole.sh) and the device tree it edits.
[[ -z $with_arm64 ]] || packages+=(gcc-aarch64-linux-gnu qemu-system-arm libc6-dev-arm64-cross
	device-tree-compiler)
[[ -z $with_cross ]] || packages+=(gcc-aarch64-linux-gnu gcc-riscv64-linux-gnu
	gcc-powerpc64le-linux-gnu gcc-s390x-linux-gnu gcc-m68k-linux-gnu)
missing=()
for pkg in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	[[ $status == "install ok installed" ]] || missing+=("$pkg")
done


if [[ ${#missing[@]} -gt 0 ]]; then
	[[ -z ${NO_INSTALL:-} ]] || die "missing packages: ${missing[*]}; install them with: apt-get install ${missing[*]}"
	[[ $(id -u) -eq 0 ]] || die "missing packages: ${missing[*]}; run as root or: sudo apt-get install ${missing[*]}"
	progress "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
		apt-get update -qq >/dev/null 2>&1 || true
		apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
			die "apt-get install ${missing[*]} failed; run it by hand to see why"
	fi
fi
[[ -z $with_arm64 ]] || "$REPO_DIR/scripts/fetch-guest-busybox.sh" arm64
[[ -z $with_i386 ]] || "$REPO_DIR/scripts/fetch-guest-busybox.sh" i386
