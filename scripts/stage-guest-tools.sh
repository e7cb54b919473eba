#!/bin/bash
# Copy the host's programs listed in tests/guest-tools, and the shared
# libraries ldd says they load, into an initramfs staging directory: the
# guest then runs Debian's real tools where the tests need more than
# busybox. Only for a guest of the host's architecture (the programs are the
# host's own); other guests keep busybox alone.
# Usage: stage-guest-tools.sh STAGE_DIR
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

stage=${1:?usage: stage-guest-tools.sh STAGE_DIR}
list=${GUEST_TOOLS:-$REPO_DIR/tests/guest-tools}
[[ -d $stage ]] || die "$stage is not a directory; pass the initramfs staging directory"

mkdir -p "$stage/usr/local/bin"
while read -r tool package; do
	path=$(command -v "$tool" 2>/dev/null) ||
		die "'$tool' is not installed on this machine; run 'make deps' (Debian package $package)"
	cp -L "$path" "$stage/usr/local/bin/$tool"
	# "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)" and the
	# loader's "/lib64/ld-linux-x86-64.so.2 (0x...)": each at its own path.
	ldd "$path" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'
done < <(list_file "$list") | sort -u | while read -r lib; do
	mkdir -p "$stage$(dirname "$lib")"
	cp -L "$lib" "$stage$lib"
done
# Scripts name their shell as /bin/bash, which busybox does not provide.
if [[ -x $stage/usr/local/bin/bash ]]; then
	mkdir -p "$stage/bin"
	ln -sf /usr/local/bin/bash "$stage/bin/bash"
fi
