#!/bin/bash
# The arm64 guest's busybox: Debian's busybox-static for arm64, unpacked
# into build/busybox-arm64 rather than installed, as it would replace the
# host's. apt learns about arm64 in a private setup under build/, so the
# machine's apt setup stays as it was.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

dest=$BUILD_DIR/busybox-arm64
[[ -x $dest/bin/busybox ]] && exit 0
[[ -z ${NO_INSTALL:-} ]] || die "the arm64 busybox is missing; run 'scripts/deps.sh arm64' to fetch it"
progress "deps: fetching busybox-static for arm64"
apt_dir=$BUILD_DIR/busybox-arm64.apt
# shellcheck disable=SC2034 # read by private_apt
APT_OPTIONS=(-o APT::Architectures::=amd64 -o APT::Architectures::=arm64)
private_apt "$apt_dir" \
	"deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(debian_mirror) bookworm main"
(cd "$apt_dir" && "${APT_GET:-apt-get}" "${APT_PRIVATE[@]}" -qq download busybox-static:arm64) >/dev/null 2>&1 ||
	die "downloading busybox-static:arm64 failed; run 'apt-get download busybox-static:arm64' by hand to see why"
deb=$(find "$apt_dir" -name 'busybox-static_*_arm64.deb' | head -n1)
[[ -n $deb ]] || die "apt-get download left no busybox-static arm64 package in $apt_dir"
rm -rf "$dest"
dpkg-deb -x "$deb" "$dest"
rm -rf "$apt_dir"
[[ -x $dest/bin/busybox ]] || die "busybox-static:arm64 has no bin/busybox; check the package"
