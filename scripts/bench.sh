#!/bin/bash
# make bench: workloads run on the base kernel and on the series, one
# after the other, reported as one table: per workload and metric, the
# median over BENCH_ROUNDS rounds (default 5) on each kernel and the
# series/base ratio. Report: build/logs/bench.report.
#
# Workloads today: the netdevsim statistics load (the series' kselftest
# drivers/net/netdevsim/percpu-stats.sh). Since 6.17 upstream netdevsim
# counts in per-CPU dstats itself, so base and series run the same driver
# and the figure is a regression check (series/base near 1, nothing lost);
# later workloads add rows to the same table.
#
# Both kernels get the same config (flavor "bench": preempt without lock
# debugging or test suites, plus netdevsim and pktgen) and the same guest.
# The base is built in its own worktree (build/bench-src), so the user's
# tree is never checked out over.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

rounds=${BENCH_ROUNDS:-5}
worktree=$BUILD_DIR/bench-src
configs=$BUILD_DIR/bench-configs
report=$LOG_DIR/bench.report
scripts=$REPO_DIR/scripts
test=drivers/net/netdevsim:percpu-stats.sh
test_script=tools/testing/selftests/${test/://}

[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "BENCH_ROUNDS=$rounds is not a positive number; set e.g. BENCH_ROUNDS=5"
git -C "$SRC_DIR" rev-parse -q --verify base >/dev/null || die "no base in $SRC_DIR; run 'make base apply' first"
[[ -f $SRC_DIR/$test_script ]] || die "$SRC_DIR has no $test_script; run 'make apply' first"
if [[ ! -d $worktree ]]; then
	git -C "$SRC_DIR" worktree prune
	git -C "$SRC_DIR" worktree add -q --detach "$worktree" base
fi
git -C "$worktree" checkout -q --detach base

rm -rf "$configs"
mkdir -p "$configs/flavors" "$LOG_DIR"
cp "$REPO_DIR"/configs/*.config "$configs/"
printf '%s\n' base.config smp.config preempt.config net.config >"$configs/flavors/bench"
export CONFIGS_DIR=$configs

# The guest's user space, the test included, comes from the series' tree;
# it runs that one test only.
"$scripts/build-kselftest.sh" bench
echo "-t $test" >"$BUILD_DIR/kselftest-bench/kselftest-args"

# median: the middle of the numbers on stdin (the lower one of two).
median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

declare -A pps lost
per_round=""
for kernel in base series; do
	src=$SRC_DIR
	[[ $kernel == base ]] && src=$worktree
	out=$BUILD_DIR/kernel-bench-$kernel
	initramfs=$BUILD_DIR/initramfs-bench-$kernel.cpio
	log=$LOG_DIR/bench-$kernel.log
	progress "bench: building the $kernel kernel"
	KERNEL_SRC=$src KERNEL_OUT=$out BUILD_LOG=$LOG_DIR/build-bench-$kernel.log \
		"$scripts/build-kernel.sh" bench
	KERNEL_SRC=$src KERNEL_OUT=$out INITRAMFS=$initramfs "$scripts/make-initramfs.sh" bench
	KERNEL_OUT=$out INITRAMFS=$initramfs BOOT_LOG=$log BOOT_APPEND="ROUNDS=$rounds" \
		"$scripts/boot.sh" bench
	results=$(grep -oE 'round [0-9]+: sent [0-9]+ counted [0-9]+ lost -?[0-9]+ pps [0-9]+' "$log" || true)
	if ! grep -q '^percpu-guest: done' "$log" || [[ $(grep -c . <<<"$results") -ne $rounds ]]; then
		die "the $kernel kernel did not finish $rounds rounds; see $log"
	fi
	pps[$kernel]=$(awk '{ print $10 }' <<<"$results" | median)
	lost[$kernel]=$(awk '{ print $8 }' <<<"$results" | median)
	per_round+="$kernel: $(awk '{ print "sent " $4 " lost " $8 " pps " $10 }' <<<"$results" | paste -sd';' | sed 's/;/; /g')"$'\n'
done

# row WORKLOAD METRIC BASE SERIES: one line of the table.
row() {
	printf '%-14s %-14s %12s %12s %8s\n' "$1" "$2" "$3" "$4" \
		"$(awk -v s="$4" -v b="$3" 'BEGIN { if (b) printf "%.3f", s / b; else print "-" }')"
}

{
	echo "base against series, $rounds rounds each (medians)"
	printf '%-14s %-14s %12s %12s %8s\n' workload metric base series ratio
	row netdevsim-tx packets/s "${pps[base]}" "${pps[series]}"
	row netdevsim-tx lost "${lost[base]}" "${lost[series]}"
	echo "netdevsim-tx: pktgen on every CPU into a linked netdevsim pair; per round:"
	printf '%s' "$per_round"
} >"$report"
cat "$report"
