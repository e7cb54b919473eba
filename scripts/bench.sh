#!/bin/bash
# make bench: workloads run on the base kernel and on the series, booted
# alternately, BENCH_ROUNDS times each (default 5), reported as one table:
# per workload and metric, the median on each kernel and the series/base
# ratio, plus the spread of the base's own rounds, which is how far apart
# two runs of the same kernel land. Report: build/logs/bench.report.
#
# Workloads:
# - Driver statistics, each a kselftest (of the series, or the project's
#   own in tests/project-kselftests) that prints one line
#   "round R: sent S counted C lost L pps P" per round:
#   - netdevsim-tx: drivers/net/netdevsim/percpu-stats.sh, the project's.
#     Upstream netdevsim counts in per-CPU dstats since 6.17, so base and
#     series run the same driver: a regression check, nothing lost on
#     either.
#   - prp-rx: net/hsr/prp_master_stats.sh. The base's PRP master counts in
#     plain dev->stats and loses updates when both slaves receive at once;
#     the series counts in dstats and loses none.
# - The per-CPU allocator (tests/bench/, built against each kernel):
#   - alloc-SIZE-bB-cC: percpu_alloc_bench.ko's ns per alloc_percpu() +
#     free_percpu() pair of SIZE bytes, in batches of B, on C CPUs at once;
#   - fork-exit: fork_exit's forks per second, one forking process per
#     CPU (each fork allocates an mm_struct's per-CPU counters);
#   - torture: the series' mm/tests/percpu_torture.c, built against each
#     kernel, TORTURE_SECONDS (default 10) per boot: its allocations; a
#     boot whose torture run does not end in SUCCESS stops the bench, so
#     make test-full runs one round as its torture check of the base.
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
# A workload's test is the series' kselftest or the project's own
# ($PROJECT_KSELFTESTS, which build-kselftest.sh installs beside).
for workload in "${workloads[@]}"; do
	test=${workload#* }
	[[ -f $SRC_DIR/tools/testing/selftests/${test/://} ||
	   -f $PROJECT_KSELFTESTS/${test/://} ]] ||
		die "$SRC_DIR has no ${test/://}; run 'make apply' first"
done
base_worktree "$worktree"
git -C "$worktree" checkout -q --detach base

rm -rf "$configs"
mkdir -p "$configs/flavors" "$LOG_DIR"
cp "$REPO_DIR"/configs/*.config "$configs/"
printf '%s\n' base.config smp.config preempt.config net.config bench-torture.config >"$configs/flavors/bench"
export CONFIGS_DIR=$configs

# The guest runs the workloads' tests only, one round each per boot.
for workload in "${workloads[@]}"; do
	echo "${workload#* } host-tools"
done >"$configs/kselftest-targets"
KSELFTEST_TARGETS=$configs/kselftest-targets "$scripts/build-kselftest.sh" bench

# fork_exit, static: the guest has no C library.
fork_exit=$BUILD_DIR/bench-fork_exit
gcc -O2 -Wall -static -o "$fork_exit" "$REPO_DIR/tests/bench/fork_exit.c" ||
	die "cannot build tests/bench/fork_exit.c statically; run 'make deps' (libc6-dev)"

for kernel in base series; do
	src=$SRC_DIR
	[[ $kernel == base ]] && src=$worktree
	out=$BUILD_DIR/kernel-bench-$kernel
	payload=$BUILD_DIR/bench-payload-$kernel
	progress "bench: building the $kernel kernel"
	KERNEL_SRC=$src KERNEL_OUT=$out BUILD_LOG=$LOG_DIR/build-bench-$kernel.log \
		"$scripts/build-kernel.sh" bench
	# The same module sources, built against this kernel: the benchmark,
	# and the series' allocator torture test, so that the base is
	# tortured by the same code.
	rm -rf "$payload"
	cp -r "$REPO_DIR/tests/bench" "$payload"
	cp "$fork_exit" "$payload/fork_exit"
	cp "$SRC_DIR/mm/tests/percpu_torture.c" "$payload/"
	echo 'obj-m += percpu_torture.o' >>"$payload/Kbuild"
	make -C "$out" M="$payload" modules >>"$LOG_DIR/build-bench-$kernel.log" 2>&1 ||
		die "tests/bench/percpu_alloc_bench.c does not build against the $kernel kernel; see $LOG_DIR/build-bench-$kernel.log"
	KERNEL_SRC=$src KERNEL_OUT=$out INITRAMFS=$BUILD_DIR/initramfs-bench-$kernel.cpio \
		GUEST_PAYLOAD=$payload "$scripts/make-initramfs.sh" bench
done

# round_lines LOG: one line per workload measured in the boot log LOG:
# "WORKLOAD METRIC VALUE [METRIC VALUE...]".
round_lines() {
	local workload
	for workload in "${workloads[@]}"; do
		test_round_lines "$1" "${workload#* }" |
			awk -v name="${workload%% *}" '{ print name, "packets/s", $10, "lost", $8 }'
	done
	tr -d '\r' <"$1" | awk '
		match($0, /percpu_alloc_bench: size [0-9]+ batch [0-9]+ cpus [0-9]+ ns_per_pair [0-9]+/) {
			split(substr($0, RSTART, RLENGTH), f, " ")
			printf "alloc-%s-b%s-c%s ns/pair %s\n", f[3], f[5], f[7], f[9]
		}
		match($0, /fork_exit: cpus [0-9]+ seconds [0-9.]+ forks_per_second [0-9]+/) {
			split(substr($0, RSTART, RLENGTH), f, " ")
			print "fork-exit forks/s", f[7]
		}
		match($0, /percpu_torture: allocs: [0-9]+ frees: [0-9]+ .* errors: [0-9]+/) {
			n = split(substr($0, RSTART, RLENGTH), f, " ")
			torture = "torture allocs " f[3] " errors " f[n]
		}
		/percpu_torture: End of test: SUCCESS/ && torture { print torture; torture = "" }'
}

# The lines a boot must give: one per driver workload (one round a boot),
# 16 of the allocator module (4 sizes, 2 batch sizes, 1 and all CPUs), one
# of fork_exit and one of a torture run that ended in SUCCESS.
expected_lines=$((${#workloads[@]} + 16 + 1 + 1))

results=$LOG_DIR/bench.rounds
: >"$results"
for ((round = 1; round <= rounds; round++)); do
	for kernel in base series; do
		log=$LOG_DIR/bench-$kernel-$round.log
		progress "bench: round $round of $rounds, $kernel kernel"
		KERNEL_OUT=$BUILD_DIR/kernel-bench-$kernel INITRAMFS=$BUILD_DIR/initramfs-bench-$kernel.cpio \
			BOOT_LOG=$log BOOT_APPEND="ROUNDS=1 TORTURE_SECONDS=${TORTURE_SECONDS:-10}" \
			"$scripts/boot.sh" bench
		lines=$(round_lines "$log")
		if ! grep -q '^percpu-guest: done' "$log" ||
			[[ $(grep -c . <<<"$lines") -ne $expected_lines ]]; then
			die "the $kernel kernel did not finish round $round of every workload; see $log"
		fi
		while read -r line; do
			echo "$kernel $round $line"
		done <<<"$lines" >>"$results"
	done
done

# column KERNEL WORKLOAD METRIC: that metric of every round, one a line.
column() {
	awk -v k="$1" -v w="$2" -v m="$3" '$1 == k && $3 == w { for (i = 4; i < NF; i += 2) if ($i == m) print $(i + 1) }' "$results"
}

# median: the middle of the numbers on stdin (the lower one of two).
median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# spread: half the range of the numbers on stdin, in percent of their median.
spread() {
	sort -n | awk '{ v[NR] = $1 } END { m = v[int((NR + 1) / 2)]; if (m) printf "±%.1f%%", 50 * (v[NR] - v[1]) / m; else print "-" }'
}

format='%-18s %-10s %10s %10s %7s %12s\n'
{
	echo "base and series booted alternately, $rounds rounds each: medians, series/base,"
	echo "and the spread of the base's own rounds (half their range over their median)"
	# shellcheck disable=SC2059 # the format is this script's own
	printf "$format" workload metric base series ratio base-spread
	# Every workload and metric, in the order the first boot printed them.
	awk '$1 == "base" && $2 == 1 { for (i = 4; i < NF; i += 2) print $3, $i }' "$results" |
		while read -r name metric; do
			base=$(column base "$name" "$metric" | median)
			series=$(column series "$name" "$metric" | median)
			# shellcheck disable=SC2059
			printf "$format" "$name" "$metric" "$base" "$series" \
				"$(awk -v s="$series" -v b="$base" 'BEGIN { if (b) printf "%.3f", s / b; else print "-" }')" \
				"$(column base "$name" "$metric" | spread)"
		done
	echo
	echo "per round (kernel round workload metric value...): $results"
} >"$report"
cat "$report"
