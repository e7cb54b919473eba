#!/bin/bash
# The build check 0-day would run for CONFIG_DEBUG_PERCPU on every
# architecture Debian cross-compiles for (make test-full). Per architecture:
#   - tinyconfig with configs/cross.config (and SMP where the architecture
#     makes it an option), built and linked into vmlinux;
#   - the files the series touches, compiled with CONFIG_DEBUG_PERCPU=n;
#   - the same files without SMP, with the option on, where SMP is an
#     option (m68k has no SMP: its vmlinux is the !SMP build).
# Fails on a build error, on an option the fragment asked for that Kconfig
# dropped, and on a compiler warning in a file the series touches.
# Usage: check-cross-builds.sh [TARGET...]   (default: every target below)
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# TARGET: make's ARCH, CROSS_COMPILE ("-" for the host's gcc), whether SMP
# is an option there, and what the architecture needs beyond tinyconfig.
declare -A arch_of cross_of smp_of extra_of
add_target() {
	arch_of[$1]=$2 cross_of[$1]=$3 smp_of[$1]=$4 extra_of[$1]=${5:-}
}
add_target x86_64 x86_64 - optional 'CONFIG_64BIT=y'
add_target i386 i386 - optional '# CONFIG_64BIT is not set'
add_target arm64 arm64 aarch64-linux-gnu- always
add_target riscv64 riscv riscv64-linux-gnu- optional 'CONFIG_ARCH_RV64I=y'
# A 64-bit Book3S kernel is always SMP.
add_target ppc64le powerpc powerpc64le-linux-gnu- always \
	$'CONFIG_PPC64=y\nCONFIG_PPC_BOOK3S_64=y\nCONFIG_CPU_LITTLE_ENDIAN=y'
add_target s390x s390 s390x-linux-gnu- always
add_target m68k m68k m68k-linux-gnu- never
all_targets=(x86_64 i386 arm64 riscv64 ppc64le s390x m68k)

# What the series touches, as these configurations build it: kbuild
# compiles a single object it is asked for even where the configuration
# leaves it out (lib/percpu_counter.o without SMP), so only those that are
# in. The percpu counters are a heavy user of the per-CPU headers.
touched_objects=(mm/percpu.o mm/mm_init.o kernel/module/main.o)
smp_objects=(lib/percpu_counter.o)
touched_files='(mm/percpu[^ ]*\.[ch]|include/linux/percpu[^ ]*\.h|mm/mm_init\.[ch]|kernel/module/main\.c)'

src=$SRC_DIR
[[ -f $src/mm/percpu-debug.c ]] || die "$src has no mm/percpu-debug.c; run 'make apply' first"
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")
for target in "${targets[@]}"; do
	[[ -n ${arch_of[$target]:-} ]] || die "unknown target '$target'; use: ${all_targets[*]}"
done
mkdir -p "$LOG_DIR" "$CCACHE_DIR"
export KBUILD_BUILD_TIMESTAMP="Sat Jan  1 00:00:00 UTC 2000"
export KBUILD_BUILD_USER=percpu KBUILD_BUILD_HOST=series

# kmake TARGET OUT LOG ARGS...: make in the tree for TARGET's architecture.
kmake() {
	local target=$1 out=$2 log=$3 cross=${cross_of[$1]}
	shift 3
	[[ $cross != - ]] || cross=
	make -C "$src" O="$out" ARCH="${arch_of[$target]}" CROSS_COMPILE="$cross" \
		CC="ccache ${cross}gcc" -j"$(nproc)" "$@" >>"$log" 2>&1
}

# set_options TARGET OUT LOG OPTION=VALUE...: change .config, then check
# that Kconfig kept what was asked.
set_options() {
	local target=$1 out=$2 log=$3 option
	shift 3
	for option in "$@"; do
		case $option in
		*=n) "$src/scripts/config" --file "$out/.config" --disable "${option%=n}" ;;
		*=y) "$src/scripts/config" --file "$out/.config" --enable "${option%=y}" ;;
		esac
	done
	kmake "$target" "$out" "$log" olddefconfig
	for option in "$@"; do
		case $option in
		*=n) ! grep -q "^CONFIG_${option%=n}=y" "$out/.config" ;;
		*=y) grep -q "^CONFIG_${option%=y}=y" "$out/.config" ;;
		esac || die "$target: Kconfig did not keep CONFIG_$option; see $log"
	done
}

# warnings_in_touched_files LOG: the compiler's warnings about our files.
warnings_in_touched_files() {
	grep -E "$touched_files:[0-9]+:[0-9]+: warning:" "$1" | sort -u || true
}

failed=0
for target in "${targets[@]}"; do
	start=$SECONDS target_failed=0
	cross=${cross_of[$target]}
	[[ $cross != - ]] || cross=
	command -v "${cross}gcc" >/dev/null || die "${cross}gcc not found; run 'scripts/deps.sh cross'"
	out=$BUILD_DIR/cross-$target
	log=$LOG_DIR/cross-$target.log
	mkdir -p "$out"
	: >"$log"

	fragment=$out/cross-fragment.config
	{
		cat "${CONFIGS_DIR:-$REPO_DIR/configs}/cross.config"
		[[ -z ${extra_of[$target]} ]] || echo "${extra_of[$target]}"
		[[ ${smp_of[$target]} != optional ]] || echo CONFIG_SMP=y
	} >"$fragment"
	kmake "$target" "$out" "$log" tinyconfig ||
		die "$target: tinyconfig failed; see $log"
	(cd "$src" && ARCH=${arch_of[$target]} scripts/kconfig/merge_config.sh -m -O "$out" \
		"$out/.config" "$fragment") >>"$log" 2>&1 || die "$target: merge_config.sh failed; see $log"
	asked=(DEBUG_PERCPU=y BUG=y MODULES=y)
	[[ ${smp_of[$target]} != optional ]] || asked+=(SMP=y)
	set_options "$target" "$out" "$log" "${asked[@]}"

	steps=()
	smp=SMP
	[[ ${smp_of[$target]} != never ]] || smp='!SMP'
	if kmake "$target" "$out" "$log" vmlinux; then
		steps+=("vmlinux ($smp)")
	else
		echo "FAIL: $target: vmlinux with DEBUG_PERCPU=y ($smp) does not build; see $log"
		failed=1
		continue
	fi

	objects=("${touched_objects[@]}")
	[[ ${smp_of[$target]} == never ]] || objects+=("${smp_objects[@]}")
	set_options "$target" "$out" "$log" DEBUG_PERCPU=n
	if kmake "$target" "$out" "$log" "${objects[@]}"; then
		steps+=("objects with DEBUG_PERCPU=n")
	else
		echo "FAIL: $target: the touched files do not compile with DEBUG_PERCPU=n; see $log"
		target_failed=1
	fi

	if [[ ${smp_of[$target]} == optional ]]; then
		set_options "$target" "$out" "$log" DEBUG_PERCPU=y SMP=n
		if kmake "$target" "$out" "$log" "${touched_objects[@]}" mm/percpu-debug.o; then
			steps+=("objects without SMP")
		else
			echo "FAIL: $target: the touched files do not compile without SMP; see $log"
			target_failed=1
		fi
	fi

	warnings=$(warnings_in_touched_files "$log")
	if [[ -n $warnings ]]; then
		echo "FAIL: $target: warnings in files the series touches:"
		while read -r line; do echo "  $line"; done <<<"$warnings"
		target_failed=1
	fi
	if [[ $target_failed -eq 0 ]]; then
		joined=$(printf '%s, ' "${steps[@]}")
		printf 'ok: %-8s %s (%ss)\n' "$target" "${joined%, }" $((SECONDS - start))
	fi
	failed=$((failed | target_failed))
done
[[ $failed -eq 0 ]] || die "the cross-architecture builds failed (above)"
echo "${#targets[@]} architectures build CONFIG_DEBUG_PERCPU"
