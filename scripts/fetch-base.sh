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
# The scripts' tests put a stand-in here.
apt_get=${APT_GET:-apt-get}
tarball=$dest/$BASE_PACKAGE.tar.xz
if [[ -f $tarball ]]; then
	echo "$tarball"
	exit 0
fi

# The mirror of the machine's own Debian release, as apt itself reads it.
# shellcheck disable=SC1091 # a system file
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[[ -n $codename ]] || die "/etc/os-release names no release; this needs a Debian machine"
# shellcheck disable=SC2016 # $(...) are apt's format fields
mirror=$("$apt_get" indextargets --no-release-info --format '$(RELEASE) $(REPO_URI)' |
	awk -v release="$codename" '$1 == release { print $2; exit }')
[[ -n $mirror ]] || die "the machine's apt sources name no mirror for Debian $codename; add one, or put $BASE_PACKAGE.tar.xz in /usr/src"

apt_dir=$dest/apt
rm -rf "$apt_dir"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/deb"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $BASE_SUITE main" \
	>"$apt_dir/sources.list"
apt_private=(
	-o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache"
	-o APT::Sandbox::User=root
)
progress "base: downloading $BASE_PACKAGE from $BASE_SUITE"
"$apt_get" "${apt_private[@]}" -qq update >"$apt_dir/update.log" 2>&1 ||
	die "apt-get update of $BASE_SUITE failed (see $apt_dir/update.log); check the network or the mirror $mirror"
(cd "$apt_dir/deb" && "$apt_get" "${apt_private[@]}" -qq download "$BASE_PACKAGE") >"$apt_dir/download.log" 2>&1 ||
	die "apt-get download $BASE_PACKAGE failed (see $apt_dir/download.log); is it still in $BASE_SUITE?"
deb=$(find "$apt_dir/deb" -name "${BASE_PACKAGE}_*_all.deb" | head -n1)
[[ -n $deb ]] || die "apt-get download left no $BASE_PACKAGE package in $apt_dir/deb; run it by hand to see why"
dpkg-deb -x "$deb" "$apt_dir/unpack" || die "could not unpack $deb; delete $dest and try again"
[[ -f $apt_dir/unpack/usr/src/$BASE_PACKAGE.tar.xz ]] ||
	die "$deb holds no usr/src/$BASE_PACKAGE.tar.xz; the package changed its layout"
mv "$apt_dir/unpack/usr/src/$BASE_PACKAGE.tar.xz" "$tarball"
rm -rf "$apt_dir"
echo "$tarball"
