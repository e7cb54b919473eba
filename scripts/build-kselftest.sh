#!/bin/bash
# Install the kselftests of tests/kselftest-targets from the tree, and the
# project's own of tests/project-kselftests, into build/kselftest-<flavor>,
# which make-initramfs.sh packs for the guest, and write there the
# run_kselftest.sh arguments that pick the listed tests (kselftest-args). A test whose kernel options the flavor lacks skips
# itself in the guest.
# Usage: build-kselftest.sh FLAVOR
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

flavor=${1:?usage: build-kselftest.sh FLAVOR}
src=${KERNEL_SRC:-$SRC_DIR}
install_dir=$BUILD_DIR/kselftest-$flavor
objects_dir=$BUILD_DIR/kselftest-objects-$flavor
log=$LOG_DIR/kselftest-$flavor.log
arch=$(flavor_arch "$flavor")
# A flavor whose file says "kselftests=none" boots without any, one whose
# file says "kselftests=TARGET..." with the lines of those targets only.
wanted_targets=$(flavor_field "$flavor" kselftests)
if [[ $wanted_targets == none ]]; then
	rm -rf "$install_dir" "$objects_dir"
	progress "kselftest: none for flavor $flavor"
	exit 0
fi
# One test or target a line; "host-tools" tests only where the guest has them.
entries=$(list_file "${KSELFTEST_TARGETS:-$REPO_DIR/tests/kselftest-targets}" |
	while read -r entry needs; do
		if [[ -n $wanted_targets && " $wanted_targets " != *" ${entry%%:*} "* ]]; then
			continue
		fi
		if [[ $needs == host-tools && $arch != "$(uname -m)" ]]; then
			progress "kselftest: $entry needs the host's tools, which a $arch guest lacks; not run" >&2
			continue
		fi
		echo "$entry"
	done)
targets=$(cut -d: -f1 <<<"$entries" | sort -u | tr '\n' ' ')
mkdir -p "$LOG_DIR"

for target in $targets; do
	[[ -d $src/tools/testing/selftests/$target ]] ||
		die "kselftest target '$target' is not in $src; apply the series or fix tests/kselftest-targets"
done
# Each target's own config is what its tests expect of the kernel: an
# option it sets that the flavor's kernel lacks must be listed, with the
# reason, in tests/kselftest-config-differences. (make bench installs its
# tests before it builds its kernels, into kernel-bench-{base,series}: its
# guests are not checked.)
kernel=$(flavor_kernel "$flavor")
kernel_config=$BUILD_DIR/kernel-$kernel/.config
differences=${KSELFTEST_CONFIG_DIFFERENCES:-$REPO_DIR/tests/kselftest-config-differences}
if [[ -f $kernel_config ]]; then
	unlisted=$(for target in $targets; do
		target_config=$src/tools/testing/selftests/$target/config
		[[ -f $target_config ]] || continue
		sed -n 's/^CONFIG_\([A-Z0-9_]*\)=[ym]$/\1/p' "$target_config" |
			while read -r option; do
				grep -qE "^CONFIG_$option=[ym]$" "$kernel_config" && continue
				awk -v t="$target" -v o="$option" -v f="$flavor" -v k="$kernel" '
					$1 == t && ($2 == "*" || index("," $2 ",", "," f ",") || index("," $2 ",", "," k ",")) {
						sub(/:.*/, "", $3)
						if (index("," $3 ",", "," o ",")) found = 1
					}
					END { exit !found }' "$differences" || echo "$target:CONFIG_$option"
			done
	done | tr '\n' ' ')
	[[ -z $unlisted ]] ||
		die "the $flavor kernel lacks what these kselftest targets' configs set: ${unlisted% }; add them to a flavor's fragments or, with the reason, to $differences"
fi
use_arch "$arch"
rm -rf "$install_dir" "$objects_dir"
# BUILD= keeps what the selftests generate (lkdtm's per-type scripts, say)
# out of the source tree, where a later git add -f would put it in a patch.
if ! make -C "$src/tools/testing/selftests" ARCH="$KERNEL_ARCH" TARGETS="$targets" \
	BUILD="$objects_dir" KSFT_INSTALL_PATH="$install_dir" install >"$log" 2>&1; then
	tail -20 "$log" >&2
	die "kselftest install for flavor $flavor failed; see $log"
fi
# The project's own kselftests, which no posting carries, are laid out in
# tests/project-kselftests as in tools/testing/selftests: each executable
# goes into its target's installed directory, when this run installed that
# target, and into the list run_kselftest.sh picks tests from. A directory
# with a Kbuild file holds the test's modules: they are built against the
# flavor's kernel, as selftests/livepatch/test_modules are, and only the
# .ko files are installed, in the same place.
overlay=$PROJECT_KSELFTESTS
while read -r test; do
	[[ -d $install_dir/${test%/*} ]] || continue
	install -m 755 "$overlay/$test" "$install_dir/$test"
	echo "${test%/*}:${test##*/}" >>"$install_dir/kselftest-list.txt"
done < <(cd "$overlay" && find . -type f -perm -u+x -printf '%P\n' | sort)
while read -r modules; do
	[[ -d $install_dir/${modules%/*} ]] || continue
	if ! grep -qx 'CONFIG_MODULES=y' "$kernel_config" 2>/dev/null; then
		progress "kselftest: $modules not built: the $flavor kernel has no modules"
		continue
	fi
	work=$objects_dir/project/$modules
	mkdir -p "$work" "$install_dir/$modules"
	cp "$overlay/$modules"/* "$work/"
	BUILD_LOG=$LOG_DIR/kselftest-$flavor-${modules//\//-}.log \
		"$REPO_DIR/scripts/build-kernel.sh" "$flavor" M="$work" modules
	cp "$work"/*.ko "$install_dir/$modules/"
done < <(cd "$overlay" && find . -name Kbuild -printf '%h\n' | sed 's|^\./||' | sort)
while read -r entry; do
	if [[ $entry == *:* ]]; then
		[[ -f $install_dir/${entry%%:*}/${entry#*:} ]] ||
			die "kselftest ${entry#*:} is not installed by target ${entry%%:*}; fix tests/kselftest-targets"
		echo "-t $entry"
	else
		echo "-c $entry"
	fi
done <<<"$entries" | tr '\n' ' ' >"$install_dir/kselftest-args"
