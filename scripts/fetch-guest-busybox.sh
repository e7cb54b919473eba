#!/bin/bash
# A foreign guest's busybox: Debian's busybox-static for ARCH (a Debian
# architecture: arm64, i386), unpacked into build/busybox-ARCH rather than
# installed, as it would replace the host's. apt learns about ARCH in a
# private setup under build/, so the machine's apt setup stays as it was.
# Usage: fetch-guest-busybox.sh ARCH
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[[ $# -eq 1 && ${1:-} =~ ^[a-z0-9]+$ ]] ||
	die "usage: fetch-guest-busybox.sh ARCH; name one Debian architecture (arm64, i386)"
arch=$1
dest=$BUILD_DIR/busybox-$arch
[[ -x $dest/bin/busybox ]] && exit 0
[[ -z ${NO_INSTALL:-} ]] || die "the $arch busybox is missing; run 'scripts/deps.sh $arch' to fetch it"
progress "deps: fetching busybox-static for $arch"
apt_dir=$BUILD_DIR/busybox-$arch.apt
# shellcheck disable=SC2034 # read by private_apt
APT_OPTIONS=(-o APT::Architectures::=amd64 -o "APT::Architectures::=$arch")
private_apt "$apt_dir" \
	"deb [arch=$arch signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(debian_mirror) bookworm main"
(cd "$apt_dir" && "${APT_GET:-apt-get}" "${APT_PRIVATE[@]}" -qq download "busybox-static:$arch") >/dev/null 2>&1 ||
	die "downloading busybox-static:$arch failed; run 'apt-get download busybox-static:$arch' by hand to see why"
deb=$(find "$apt_dir" -name "busybox-static_*_$arch.deb" | head -n1)
[[ -n $deb ]] || die "apt-get download left no busybox-static $arch package in $apt_dir"
rm -rf "$dest"
dpkg-deb -x "$deb" "$dest"
rm -rf "$apt_dir"
[[ -x $dest/bin/busybox ]] || die "busybox-static:$arch has no bin/busybox; check the package"
