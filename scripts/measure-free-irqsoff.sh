#!/bin/bash
# How long free_percpu() keeps interrupts off as the allocator holds more
# chunks, with CONFIG_DEBUG_PERCPU's checks on and off (percpu_debug=):
# the validation must take constant time under pcpu_lock. Builds the
# flavor irqsoff (the irqsoff tracer, one cold build) and
# tests/irqsoff/percpu_free_irqsoff.c against it, boots it once with the
# checks on and once off, and prints per chunk count (2, 64 and 512: the
# first chunk and dynamic ones) the median and the longest pcpu_lock
# section of single free_percpu() calls of 32 KiB areas, which live in
# dynamic chunks. QEMU TCG: the scaling counts, not the microseconds.
# Fails when a boot gives no figure; it sets no limit. make test-extra.
# Report: build/logs/free-irqsoff.report.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

flavor=irqsoff
out=$BUILD_DIR/kernel-$flavor
payload=$BUILD_DIR/irqsoff-payload
report=$LOG_DIR/free-irqsoff.report
[[ -f $SRC_DIR/mm/percpu-debug.c ]] || die "$SRC_DIR has no mm/percpu-debug.c; run 'make apply' first"

progress "free-irqsoff: building flavor $flavor"
"$REPO_DIR/scripts/build-kernel.sh" "$flavor"
rm -rf "$payload"
cp -r "$REPO_DIR/tests/irqsoff" "$payload"
make -C "$out" M="$payload" modules >"$LOG_DIR/build-irqsoff-module.log" 2>&1 ||
	die "tests/irqsoff/percpu_free_irqsoff.c does not build; see $LOG_DIR/build-irqsoff-module.log"
GUEST_PAYLOAD=$payload "$REPO_DIR/scripts/make-initramfs.sh" "$flavor"

mkdir -p "$LOG_DIR"
{
	echo "== free_percpu() interrupts-off time against the number of chunks (QEMU TCG, 2 vCPUs: the scaling counts, not the microseconds) =="
	echo "| checks | chunks | free_percpu() sections | median µs | max µs |"
	echo "|---|---:|---:|---:|---:|"
} >"$report"
for checks in on off; do
	log=$LOG_DIR/free-irqsoff-$checks.log
	progress "free-irqsoff: booting with percpu_debug=$checks"
	BOOT_LOG=$log BOOT_APPEND="percpu_debug=$checks" "$REPO_DIR/scripts/boot.sh" "$flavor"
	lines=$(tr -d '\r' <"$log" | grep -E '^free-irqsoff: chunks [0-9]+ .*median_us [0-9]+$' || true)
	[[ $(grep -c . <<<"$lines") -eq 3 ]] ||
		die "the boot with percpu_debug=$checks gave $(grep -c . <<<"$lines") of 3 figures; see $log"
	awk -v checks="$checks" '{ printf "| %s | %s | %s of %s | %s | %s |\n", checks, $3, $7, $5, $11, $9 }' \
		<<<"$lines" >>"$report"
done
cat "$report"
