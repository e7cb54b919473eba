#!/bin/bash
# Build a sparse that can check 7.3 into build/tools/sparse and print its
# path. Bookworm's sparse 0.6.4 cannot parse 7.3's headers
# (__typeof_unqual__), and the kernel's Makefile then skips C=1/C=2 with a
# mere warning. Debian sid's source package of sparse can; its binary
# package needs a newer glibc than Debian 12's, so the source is fetched
# through a private apt setup (the machine's stays untouched) and built
# here. The result must pass the tree's own scripts/checker-valid.sh.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

tools=$BUILD_DIR/tools
sparse=$tools/sparse/sparse
checker_valid=$SRC_DIR/scripts/checker-valid.sh
[[ -f $checker_valid ]] || die "$checker_valid is missing; run 'make base' first"
if [[ -x $sparse && $(sh "$checker_valid" "$sparse") == 1 ]]; then
	echo "$sparse"
	exit 0
fi

mirror=$(debian_mirror)
progress "sparse: fetching and building Debian sid's sparse"
private_apt "$tools/apt" "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror sid main"
mkdir -p "$tools/apt/src"
(cd "$tools/apt/src" && "${APT_GET:-apt-get}" "${APT_PRIVATE[@]}" -qq source --download-only sparse) \
	>"$tools/apt/source.log" 2>&1 ||
	die "downloading sid's sparse source failed (see $tools/apt/source.log); check the network"
orig=$(find "$tools/apt/src" -name 'sparse_*.orig.tar.*' | head -n1)
[[ -n $orig ]] || die "sid's sparse source has no orig tarball in $tools/apt/src; the package changed"
rm -rf "$tools/sparse"
mkdir -p "$tools/sparse"
tar -xf "$orig" -C "$tools/sparse" --strip-components=1
make -C "$tools/sparse" -j"$(nproc)" sparse >"$tools/apt/build.log" 2>&1 ||
	die "building sparse failed (see $tools/apt/build.log)"
rm -rf "$tools/apt"
[[ $(sh "$checker_valid" "$sparse") == 1 ]] ||
	die "the sparse built from sid ($("$sparse" --version)) cannot check this tree; see scripts/checker-valid.sh"
echo "$sparse"
