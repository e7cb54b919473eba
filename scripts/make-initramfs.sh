#!/bin/bash
# Pack build/initramfs-<flavor>.cpio with the tree's usr/gen_init_cpio:
# busybox-static, the guest init, the flavor's modules, when built the
# kselftest install directory build/kselftest-<flavor> and, for a guest of
# the host's architecture, the Debian tools of tests/guest-tools.
# Usage: make-initramfs.sh FLAVOR
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

flavor=${1:?usage: make-initramfs.sh FLAVOR}
src=${KERNEL_SRC:-$SRC_DIR}
out=${KERNEL_OUT:-$BUILD_DIR/kernel-$(flavor_kernel "$flavor")}
cpio=${INITRAMFS:-$BUILD_DIR/initramfs-$flavor.cpio}
stage=${cpio%.cpio}
arch=$(flavor_arch "$flavor")
use_arch "$arch"
busybox=$GUEST_BUSYBOX

[[ -x $out/usr/gen_init_cpio ]] || die "$out/usr/gen_init_cpio is missing; run 'make kernel FLAVOR=$flavor' first"
[[ -f $busybox ]] || die "$busybox is missing; run 'make deps' to get the $arch busybox"
file -L "$busybox" | grep -q 'statically linked' ||
	die "$busybox is not a static busybox; run 'make deps' (Debian's busybox-static)"

rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp}
cp "$busybox" "$stage/bin/busybox"
cp "$REPO_DIR/scripts/guest-init.sh" "$stage/init"
chmod 755 "$stage/init"
if [[ $arch == "$(uname -m)" ]]; then
	"$REPO_DIR/scripts/stage-guest-tools.sh" "$stage"
fi

if grep -q '^CONFIG_MODULES=y' "$out/.config" && [[ -s $out/modules.order ]]; then
	make -s -C "$src" O="$out" ARCH="$KERNEL_ARCH" INSTALL_MOD_PATH="$stage" INSTALL_MOD_STRIP=1 \
		modules_install >/dev/null
	# The modules of tests/test-modules this flavor built, for the guest to load.
	mkdir -p "$stage/etc"
	wanted=$(list_file "$REPO_DIR/tests/test-modules")
	(cd "$stage" && find lib/modules -name '*.ko') | while read -r ko; do
		if grep -qxF "$(basename "$ko" .ko)" <<<"$wanted"; then echo "/$ko"; fi
	done >"$stage/etc/test-modules"
fi
if [[ -d $BUILD_DIR/kselftest-$flavor ]]; then
	cp -a "$BUILD_DIR/kselftest-$flavor" "$stage/kselftest"
fi
# A directory of programs for the guest to run after the tests (make
# bench's), as /payload; guest-init runs its "run".
if [[ -n ${GUEST_PAYLOAD:-} ]]; then
	[[ -x $GUEST_PAYLOAD/run ]] || die "GUEST_PAYLOAD=$GUEST_PAYLOAD has no executable 'run'"
	cp -a "$GUEST_PAYLOAD" "$stage/payload"
fi

# gen_init_cpio takes a list: one line per directory, file and link.
list=$stage.list
{
	(cd "$stage" && find . -mindepth 1 | sort) | while read -r path; do
		entry=${path#.}
		mode=$(stat -c '%a' "$stage$entry")
		if [[ -L $stage$entry ]]; then
			echo "slink $entry $(readlink "$stage$entry") $mode 0 0"
		elif [[ -d $stage$entry ]]; then
			echo "dir $entry $mode 0 0"
		else
			echo "file $entry $stage$entry $mode 0 0"
		fi
	done
	echo "nod /dev/console 600 0 0 c 5 1"
} >"$list"
"$out/usr/gen_init_cpio" "$list" >"$cpio"
