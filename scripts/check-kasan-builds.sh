#!/bin/bash
# Compile the checks of per-CPU memory under KASAN, with W=1, in the
# configs no flavor boots: KASAN on UP (percpu-km), KASAN without
# KASAN_VMALLOC and without DEBUG_PERCPU, and KASAN on arm64 (flavor
# kasan-arm64, booted by make test-extra only). The objects are mm/percpu.o,
# mm/kasan/ and drivers/misc/lkdtm/, compiled afresh at the queue's tip;
# any warning or error fails the check. The kasan flavor's boot and
# check-bisect.sh's walk cover SMP with KASAN_VMALLOC and DEBUG_PERCPU.
# Usage: check-kasan-builds.sh
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

objects=(mm/percpu.o mm/kasan/ drivers/misc/lkdtm/)
flavors=(kasan-up kasan-novmalloc kasan-arm64)
[[ -f $SRC_DIR/mm/kasan/kasan_test_c.c ]] || die "$SRC_DIR is not an applied tree; run 'make apply' first"

for flavor in "${flavors[@]}"; do
	out=$BUILD_DIR/kernel-$flavor
	log=$LOG_DIR/build-kasan-objects-$flavor.log
	# Warnings are printed only by a compile: compile them afresh.
	rm -f "$out/mm/percpu.o" "$out"/mm/kasan/*.o "$out"/drivers/misc/lkdtm/*.o
	BUILD_LOG=$log "$REPO_DIR/scripts/build-kernel.sh" "$flavor" W=1 "${objects[@]}" ||
		die "flavor $flavor: the objects did not compile; see $log"
	warnings=$(grep -E '(warning|error):' "$log" || true)
	[[ -z $warnings ]] || die "flavor $flavor: warnings in $log:"$'\n'"$warnings"
	grep -qE '^ +CC +mm/percpu\.o' "$log" || die "flavor $flavor: mm/percpu.o was not compiled; see $log"
	progress "kasan builds: $flavor, ${objects[*]}: no warning"
done
echo "== kasan builds: ${#flavors[@]} configs, no warning =="
