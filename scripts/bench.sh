#!/bin/bash
# make bench: workloads run on the base kernel and on the series, booted
# alternately, BENCH_ROUNDS times each (default 5), reported as one table:
# per workload and metric, the median on each kernel and the series/base
# ratio, plus the spread of the base's own rounds, which is how far apart
# two runs of the same kernel land. Report: build/logs/bench.report.
#
# Workloads, each a kselftest of the series that prints one line
# "round R: sent S counted C lost L pps P" per round:
# - netdevsim-tx: drivers/net/netdevsim/percpu-stats.sh. Upstream
#   netdevsim counts in per-CPU dstats since 6.17, so base and series run
#   the same driver: a regression check, nothing lost on either.
# - prp-rx: net/hsr/prp_master_stats.sh. The base's PRP master counts in
#   plain dev->stats and loses updates when both slaves receive at once;
#   the series counts in dstats and loses none.
#
# Both kernels get the same config (flavor "bench": preempt without lock
# debugging or test suites, plus the net drivers) and the same guest, whose
# user space and tests come from the series' tree. The base is built in
# its own worktree (build/bench-src), so the user's tree is never checked
# out over.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

rounds=${BENCH_ROUNDS:-5}
worktree=$BUILD_DIR/bench-src
configs=$BUILD_DIR/bench-configs
report=$LOG_DIR/bench.report
scripts=$REPO_DIR/scripts
# workload name, then its kselftest as TARGET:TEST
workloads=(
	"netdevsim-tx drivers/net/netdevsim:percpu-stats.sh"
	"prp-rx net/hsr:prp_master_stats.sh"
)

[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "BENCH_ROUNDS=$rounds is not a positive number; set e.g. BENCH_ROUNDS=5"
git -C "$SRC_DIR" rev-parse -q --verify base >/dev/null || die "no base in $SRC_DIR; run 'make base apply' first"
for workload in "${workloads[@]}"; do
	test=${workload#* }
	[[ -f $SRC_DIR/tools/testing/selftests/${test/://} ]] ||
		die "$SRC_DIR has no ${test/://}; run 'make apply' first"
done
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

# The guest runs the workloads' tests only, one round each per boot.
for workload in "${workloads[@]}"; do
	echo "${workload#* } host-tools"
done >"$configs/kselftest-targets"
KSELFTEST_TARGETS=$configs/kselftest-targets "$scripts/build-kselftest.sh" bench

for kernel in base series; do
	src=$SRC_DIR
	[[ $kernel == base ]] && src=$worktree
	out=$BUILD_DIR/kernel-bench-$kernel
	progress "bench: building the $kernel kernel"
	KERNEL_SRC=$src KERNEL_OUT=$out BUILD_LOG=$LOG_DIR/build-bench-$kernel.log \
		"$scripts/build-kernel.sh" bench
	KERNEL_SRC=$src KERNEL_OUT=$out INITRAMFS=$BUILD_DIR/initramfs-bench-$kernel.cpio \
		"$scripts/make-initramfs.sh" bench
done

# round_lines LOG: "WORKLOAD sent S lost L pps P", one line per workload
# whose test printed a round line in the boot log LOG.
round_lines() {
	local workload
	for workload in "${workloads[@]}"; do
		test_round_lines "$1" "${workload#* }" |
			awk -v name="${workload%% *}" '{ print name, "sent", $4, "lost", $8, "pps", $10 }'
	done
}

results=$LOG_DIR/bench.rounds
: >"$results"
for ((round = 1; round <= rounds; round++)); do
	for kernel in base series; do
		log=$LOG_DIR/bench-$kernel-$round.log
		progress "bench: round $round of $rounds, $kernel kernel"
		KERNEL_OUT=$BUILD_DIR/kernel-bench-$kernel INITRAMFS=$BUILD_DIR/initramfs-bench-$kernel.cpio \
			BOOT_LOG=$log BOOT_APPEND="ROUNDS=1" "$scripts/boot.sh" bench
		lines=$(round_lines "$log")
		if ! grep -q '^percpu-guest: done' "$log" ||
			[[ $(grep -c . <<<"$lines") -ne ${#workloads[@]} ]]; then
			die "the $kernel kernel did not finish round $round of every workload; see $log"
		fi
		while read -r line; do
			echo "$kernel $round $line"
		done <<<"$lines" >>"$results"
	done
done

# column KERNEL WORKLOAD FIELD: that field of every round, one a line.
column() {
	awk -v k="$1" -v w="$2" -v f="$3" '$1 == k && $3 == w { for (i = 4; i < NF; i += 2) if ($i == f) print $(i + 1) }' "$results"
}

# median: the middle of the numbers on stdin (the lower one of two).
median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# spread: half the range of the numbers on stdin, in percent of their median.
spread() {
	sort -n | awk '{ v[NR] = $1 } END { m = v[int((NR + 1) / 2)]; if (m) printf "%.1f", 50 * (v[NR] - v[1]) / m; else print "-" }'
}

# row WORKLOAD METRIC BASE SERIES: one line of the table.
row() {
	printf '%-14s %-10s %12s %12s %8s\n' "$1" "$2" "$3" "$4" \
		"$(awk -v s="$4" -v b="$3" 'BEGIN { if (b) printf "%.3f", s / b; else print "-" }')"
}

{
	echo "base and series booted alternately, $rounds rounds each (medians)"
	printf '%-14s %-10s %12s %12s %8s\n' workload metric base series ratio
	for workload in "${workloads[@]}"; do
		name=${workload%% *}
		row "$name" packets/s "$(column base "$name" pps | median)" "$(column series "$name" pps | median)"
		row "$name" lost "$(column base "$name" lost | median)" "$(column series "$name" lost | median)"
	done
	echo
	echo "spread of the base's own rounds (half their range over the median), packets/s:"
	for workload in "${workloads[@]}"; do
		name=${workload%% *}
		echo "  $name: ±$(column base "$name" pps | spread)%"
	done
	echo
	echo "per round (kernel round workload sent lost pps):"
	cat "$results"
} >"$report"
cat "$report"
