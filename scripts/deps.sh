#!/bin/bash
# Install the Debian packages the pipeline and its checks need, when missing.
# NO_INSTALL=1 only reports what is missing.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

packages=(
	linux-source-6.1 xz-utils git make gcc bc flex bison libelf-dev libssl-dev
	cpio kmod file ccache qemu-system-x86 busybox-static python3 perl jq
	bats shellcheck sparse rsync python3-ply python3-git
)
missing=()
for pkg in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	[[ $status == "install ok installed" ]] || missing+=("$pkg")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

[[ -z ${NO_INSTALL:-} ]] || die "missing packages: ${missing[*]}; install them with: apt-get install ${missing[*]}"
[[ $(id -u) -eq 0 ]] || die "missing packages: ${missing[*]}; run as root or: sudo apt-get install ${missing[*]}"
progress "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
	apt-get update -qq >/dev/null 2>&1 || true
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
		die "apt-get install ${missing[*]} failed; run it by hand to see why"
fi
