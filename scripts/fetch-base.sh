#!/bin/bash
# Download Debian's linux-source-7.3 (an `all` package that only holds the
# kernel tarball) and unpack it under build/download, printing the tarball's
# path. The package lives in the trixie-backports suite of the Debian mirror
# the machine already uses; apt is pointed at a private sources list, lists
# and cache directory, so the machine's apt setup and installed packages
# stay exactly as they were.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

dest=$BUILD_DIR/download
tarball=$dest/$BASE_PACKAGE.tar.xz
if [[ -f $tarball ]]; then
	echo "$tarball"
	exit 0
fi

mirror=$(debian_mirror)
apt_dir=$dest/apt
progress "base: downloading $BASE_PACKAGE from $BASE_SUITE"
private_apt "$apt_dir" "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $BASE_SUITE main"
mkdir -p "$apt_dir/deb"
(cd "$apt_dir/deb" && "${APT_GET:-apt-get}" "${APT_PRIVATE[@]}" -qq download "$BASE_PACKAGE") >"$apt_dir/download.log" 2>&1 ||
	die "apt-get download $BASE_PACKAGE failed (see $apt_dir/download.log); is it still in $BASE_SUITE?"
deb=$(find "$apt_dir/deb" -name "${BASE_PACKAGE}_*_all.deb" | head -n1)
[[ -n $deb ]] || die "apt-get download left no $BASE_PACKAGE package in $apt_dir/deb; run it by hand to see why"
dpkg-deb -x "$deb" "$apt_dir/unpack" || die "could not unpack $deb; delete $dest and try again"
[[ -f $apt_dir/unpack/usr/src/$BASE_PACKAGE.tar.xz ]] ||
	die "$deb holds no usr/src/$BASE_PACKAGE.tar.xz; the package changed its layout"
mv "$apt_dir/unpack/usr/src/$BASE_PACKAGE.tar.xz" "$tarball"
rm -rf "$apt_dir"
echo "$tarball"
