#!/bin/bash
# Write build/kernel-<flavor>/.config: tinyconfig, then the flavor's fragments
# merged in order by the tree's merge_config.sh, then olddefconfig.
# Fails naming every option a fragment asked for that did not survive
# (merge_config drops options whose dependencies are unmet).
# Usage: config-kernel.sh FLAVOR [SRC_TREE] [OUT_DIR]
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

flavor=${1:?usage: config-kernel.sh FLAVOR [SRC_TREE] [OUT_DIR]}
flavor=$(flavor_kernel "$flavor")
src=${2:-$SRC_DIR}
out=${3:-$BUILD_DIR/kernel-$flavor}
configs=${CONFIGS_DIR:-$REPO_DIR/configs}
flavor_file=$configs/flavors/$flavor
[[ -f $flavor_file ]] || die "no flavor '$flavor'; choose one of: $(find "$configs/flavors" -type f -printf '%f ')"
[[ -f $src/Makefile ]] || die "$src is not a kernel tree; run 'make base' first"

arch=$(flavor_arch "$flavor")
use_arch "$arch"
fragments=()
while read -r name; do
	[[ -z $name || $name == \#* || $name == *=* ]] && continue
	[[ -f $configs/$name ]] || die "flavor $flavor names configs/$name, which does not exist"
	fragments+=("$configs/$name")
done <"$flavor_file"

mkdir -p "$out" "$LOG_DIR"
# Kconfig's answer depends only on the fragments, the tree's Kconfig files
# and tinyconfig's fragments, the architecture, the compiler and this
# script. The three Kconfig runs take 10 to 25 s, paid twice per patch by
# the bisect walk: when none of those inputs changed and .config is still
# the one written then, keep it.
inputs_key=$({
	cat "$0" "${fragments[@]}"
	echo "$KERNEL_ARCH"
	"${CROSS_COMPILE}gcc" --version 2>/dev/null | head -n 1
	(cd "$src" && find . -path ./.git -prune -o \( -name 'Kconfig*' -o -name 'tiny*.config' \) -type f -print |
		LC_ALL=C sort | xargs cat)
} | sha1sum | cut -d' ' -f1)
stamp=$out/.config-inputs
if [[ -f $out/.config && -f $stamp ]] &&
	[[ "$(cat "$stamp")" == "$inputs_key $(sha1sum <"$out/.config" | cut -d' ' -f1)" ]]; then
	configured=yes
else
	configured=
	rm -f "$stamp"
fi

# Kconfig's notes about overrides are expected here; keep them in a log.
log=$LOG_DIR/config-$flavor.log
if [[ -z $configured ]] && ! { make -s -C "$src" O="$out" ARCH="$KERNEL_ARCH" tinyconfig &&
	(cd "$src" && ARCH=$KERNEL_ARCH scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" "${fragments[@]}") &&
	make -s -C "$src" O="$out" ARCH="$KERNEL_ARCH" olddefconfig; } >"$log" 2>&1; then
	die "configuring flavor $flavor failed; see $log"
fi

# What the fragments asked for, the last fragment winning, against the result.
missing=$(awk '
	FNR == NR {
		if (match($0, /^CONFIG_[A-Za-z0-9_]+=/)) { opt = substr($0, 1, RLENGTH - 1); want[opt] = $0 }
		else if (match($0, /^# CONFIG_[A-Za-z0-9_]+ is not set/)) { split($0, w, " "); want[w[2]] = "" }
		next
	}
	{
		if (match($0, /^CONFIG_[A-Za-z0-9_]+=/)) have[substr($0, 1, RLENGTH - 1)] = $0
	}
	END {
		for (opt in want) {
			if (want[opt] == "" && opt in have) print opt " (asked unset, is " have[opt] ")"
			else if (want[opt] != "") {
				got = (opt in have) ? have[opt] : "unset"
				if (got != want[opt]) print want[opt] " (got " got ")"
			}
		}
	}' <(cat "${fragments[@]}") "$out/.config" | sort)
if [[ -n $missing ]]; then
	if [[ ${ALLOW_MISSING_OPTIONS:-} == 1 ]]; then
		warn "flavor $flavor: options missing from .config (allowed here): $(echo "$missing" | tr '\n' ';')"
	else
		die "flavor $flavor: options missing from the final .config: $(echo "$missing" | tr '\n' ';') fix their dependencies in configs/"
	fi
fi
echo "$inputs_key $(sha1sum <"$out/.config" | cut -d' ' -f1)" >"$stamp"
