#!/bin/bash
# The series' KUnit suites the way upstream runs a suite: the tree's own
# tools/testing/kunit/kunit.py, with the .kunitconfig the series puts beside
# them (mm/tests/.kunitconfig), built for x86_64 and booted in QEMU with two
# CPUs. kunit.py writes its own .config (the .kunitconfig over Kconfig's
# defaults), so it builds in its own directory, build/kernel-kunitpy; the
# compiler goes through ccache like every other build.
# Writes build/logs/kunitpy.results.json: its counts, for make test's totals.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

kunitconfig_dir=mm/tests
out=$BUILD_DIR/kernel-kunitpy
log=$LOG_DIR/kunitpy.log
results=$LOG_DIR/kunitpy.results.json
rm -f "$results"
[[ -f $SRC_DIR/$kunitconfig_dir/.kunitconfig ]] ||
	die "$SRC_DIR has no $kunitconfig_dir/.kunitconfig; run 'make apply' first"
mkdir -p "$out" "$LOG_DIR"

progress "kunit.py: build and run --kunitconfig=$kunitconfig_dir (x86_64, QEMU, 2 CPUs)"
status=0
(cd "$SRC_DIR" && tools/testing/kunit/kunit.py build --kunitconfig="$kunitconfig_dir" \
	--arch=x86_64 --build_dir="$out" --jobs="$(nproc)" --make_options CC="ccache gcc") \
	>"$log" 2>&1 || status=$?
# kunit.py asks QEMU for KVM first, and QEMU takes a /dev/kvm whose guests
# never run (as on this machine) without falling back to TCG: where the
# probe's guest does not print, the run gets a /dev/kvm that cannot be
# opened as KVM, in a mount namespace of its own.
hide_kvm=()
if [[ $status -eq 0 && -e /dev/kvm ]] && ! kvm_works qemu-system-x86_64 "$out/arch/x86/boot/bzImage"; then
	hide_kvm=(unshare --mount sh -c 'mount --bind /dev/null /dev/kvm && exec "$@"' hide-kvm)
	echo "kunit.py: KVM does not run guests here; QEMU gets TCG" >>"$log"
fi
[[ $status -ne 0 ]] || (cd "$SRC_DIR" && "${hide_kvm[@]}" tools/testing/kunit/kunit.py exec \
	--arch=x86_64 --build_dir="$out" --qemu_args="-smp 2" --timeout=900) \
	>>"$log" 2>&1 || status=$?
tail -n 30 "$log"
# kunit.py's summary: "Testing complete. Ran N tests: passed: P, failed: F, skipped: S".
summary=$(grep -E 'Testing complete\. Ran' "$log" | tail -1 || true)
[[ -n $summary ]] || die "kunit.py printed no test summary (status $status); see $log"
# summary_count KEY: the number after "KEY: " in the summary, 0 if absent.
summary_count() {
	grep -oE "$1: [0-9]+" <<<"$summary" | grep -oE '[0-9]+' || echo 0
}
p=$(summary_count passed) s=$(summary_count skipped)
f=$(($(summary_count failed) + $(summary_count crashed) + $(summary_count errors)))
echo "kunit.py --kunitconfig=$kunitconfig_dir: $p passed, $f failed, $s skipped"
jq -n --argjson p "$p" --argjson f "$f" --argjson s "$s" --arg dir "$kunitconfig_dir" '{
	result: (if $f == 0 and $p > 0 then "pass" else "fail" end),
	tests: {kunit: {passed: $p, failed: $f, skipped: $s}},
	reproduce: "scripts/check-kunitpy.sh (kunit.py build and exec --kunitconfig=\($dir) --arch=x86_64)"
}' >"$results"
[[ $status -eq 0 ]] || die "kunit.py failed (status $status); see $log"
[[ $p -gt 0 ]] || die "kunit.py ran no passing case; see $log"
