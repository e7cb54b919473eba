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
#   - fork-exit, fork-exec, cgroup, netns: percpu_load's loops per
#     second, one looping process per CPU: fork and exit, fork and exec
#     (static-doexec style; fork and exec each build an mm_struct, with
#     its per-CPU data), mkdir and rmdir of a memory cgroup, unshare of a
#     network namespace (each allocates many per-CPU areas);
#   - torture: the series' mm/tests/percpu_torture.c, built against each
#     kernel, TORTURE_SECONDS (default 10) per boot: its allocations; a
#     boot whose torture run does not end in SUCCESS stops the bench, so
#     make test-full runs one round as its torture check of the base.
#
# Both kernels get the same config (flavor "bench": preempt without lock
# debugging or test suites, plus the net drivers and memory cgroups) and
# the same guest, whose user space and tests come from the series' tree.
# The base is built in its own worktree (build/bench-src), so the user's
# tree is never checked out over. BENCH_SERIES_POSTING=NAME builds the
# series only up to the end of posting NAME, in a worktree of its own
# (build/bench-series-src), to measure what the postings up to it do.
#
# Then counts, not timings: both kernels again with lock_stat and the
# percpu trace events (flavor "bench-counts"), booted once each with
# BENCH_COUNT_CPUS (8) vCPUs, give per loop of each percpu_load load the
# per-CPU allocations and their bytes and the acquisitions and contentions
# of pcpu_lock and pcpu_alloc_mutex; booted again with 2 vCPUs of
# BENCH_POSSIBLE_CPUS possible ("64 254"), the allocations' bytes as the
# possible CPUs grow. With more vCPUs than the host has cores, TCG's
# timings measure the host: only counts are reported from these boots.
# BENCH_ROUNDS=0 gives the counts alone, without the timed rounds.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

rounds=${BENCH_ROUNDS:-5}
count_cpus=${BENCH_COUNT_CPUS:-8}
possible_cpus=${BENCH_POSSIBLE_CPUS-64 254}
loads=(fork-exit fork-exec cgroup netns)
worktree=$BUILD_DIR/bench-src
kselftest_targets=$BUILD_DIR/bench-kselftest-targets
report=$LOG_DIR/bench.report
scripts=$REPO_DIR/scripts
# workload name, then its kselftest as TARGET:TEST
workloads=(
	"netdevsim-tx drivers/net/netdevsim:percpu-stats.sh"
	"prp-rx net/hsr:prp_master_stats.sh"
)

[[ $rounds =~ ^(0|[1-9][0-9]*)$ ]] || die "BENCH_ROUNDS=$rounds is not a number; set e.g. BENCH_ROUNDS=5, or 0 for the counts alone"
[[ $count_cpus =~ ^(0|[1-9][0-9]*)$ && $count_cpus -le 254 ]] ||
	die "BENCH_COUNT_CPUS=$count_cpus is not a number up to 254; set e.g. 8, or 0 to skip the counting boots"
[[ $rounds -gt 0 || $count_cpus -gt 0 || -n ${possible_cpus// /} ]] ||
	die "BENCH_ROUNDS=0, BENCH_COUNT_CPUS=0 and no BENCH_POSSIBLE_CPUS leave nothing to measure; set one of them"
# Each counting boot is keyed by its number of possible CPUs.
seen=" $count_cpus "
for n in $possible_cpus; do
	# QEMU 7.2's x86 guest with 255 CPUs dies early in its boot here;
	# with 254 it boots.
	[[ $n =~ ^[1-9][0-9]*$ && $n -ge 2 && $n -le 254 ]] ||
		die "BENCH_POSSIBLE_CPUS holds $n; give numbers from 2 to 254, e.g. \"64 254\", or nothing"
	[[ $seen != *" $n "* ]] ||
		die "BENCH_POSSIBLE_CPUS holds $n twice, or as BENCH_COUNT_CPUS too; give each number once"
	seen+="$n "
done
need_base "base apply"
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
series_src=$SRC_DIR
if [[ -n ${BENCH_SERIES_POSTING:-} ]]; then
	series_src=$BUILD_DIR/bench-series-src
	series_end=$(posting_end_commit "$BENCH_SERIES_POSTING")
	base_worktree "$series_src"
	git -C "$series_src" checkout -q --detach "$series_end"
fi

mkdir -p "$LOG_DIR"

# The guest runs the workloads' tests only, one round each per boot.
for workload in "${workloads[@]}"; do
	echo "${workload#* } host-tools"
done >"$kselftest_targets"
KSELFTEST_TARGETS=$kselftest_targets "$scripts/build-kselftest.sh" bench

# percpu_load, static: the guest has no C library.
percpu_load=$BUILD_DIR/bench-percpu_load
gcc -O2 -Wall -static -o "$percpu_load" "$REPO_DIR/tests/bench/percpu_load.c" ||
	die "cannot build tests/bench/percpu_load.c statically; run 'make deps' (libc6-dev)"

# build_guest FLAVOR KERNEL: the kernel (base or series) of FLAVOR, the
# payload built against it and its initramfs.
build_guest() {
	local flavor=$1 kernel=$2 src=$series_src
	local out=$BUILD_DIR/kernel-$flavor-$kernel payload=$BUILD_DIR/$flavor-payload-$kernel
	local log=$LOG_DIR/build-$flavor-$kernel.log
	[[ $kernel == base ]] && src=$worktree
	progress "bench: building the $kernel kernel, flavor $flavor"
	KERNEL_SRC=$src KERNEL_OUT=$out BUILD_LOG=$log "$scripts/build-kernel.sh" "$flavor"
	# The same module sources, built against this kernel: the benchmark,
	# and the series' allocator torture test, so that the base is
	# tortured by the same code.
	rm -rf "$payload"
	cp -r "$REPO_DIR/tests/bench" "$payload"
	cp "$percpu_load" "$payload/percpu_load"
	cp "$SRC_DIR/mm/tests/percpu_torture.c" "$payload/"
	echo 'obj-m += percpu_torture.o' >>"$payload/Kbuild"
	make -C "$out" M="$payload" modules >>"$log" 2>&1 ||
		die "tests/bench/percpu_alloc_bench.c or percpu_torture.c does not build against the $kernel kernel; see $log"
	KERNEL_SRC=$src KERNEL_OUT=$out INITRAMFS=$BUILD_DIR/initramfs-$flavor-$kernel.cpio \
		GUEST_PAYLOAD=$payload "$scripts/make-initramfs.sh" "$flavor"
}

if [[ $rounds -gt 0 ]]; then
	for kernel in base series; do
		build_guest bench "$kernel"
	done
fi

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
		match($0, /percpu_load: [a-z-]+ cpus [0-9]+ seconds [0-9.]+ per_second [0-9]+/) {
			split(substr($0, RSTART, RLENGTH), f, " ")
			print f[2], "loops/s", f[8]
		}
		match($0, /percpu_torture: allocs: [0-9]+ frees: [0-9]+ .* errors: [0-9]+/) {
			n = split(substr($0, RSTART, RLENGTH), f, " ")
			torture = "torture allocs " f[3] " errors " f[n]
		}
		/percpu_torture: End of test: SUCCESS/ && torture { print torture; torture = "" }'
}

# The lines a boot must give: one per driver workload (one round a boot),
# 16 of the allocator module (4 sizes, 2 batch sizes, 1 and all CPUs), one
# per percpu_load load and one of a torture run that ended in SUCCESS.
expected_lines=$((${#workloads[@]} + 16 + ${#loads[@]} + 1))

results=$LOG_DIR/bench.rounds
: >"$results"
for ((round = 1; round <= rounds; round++)); do
	for kernel in base series; do
		log=$LOG_DIR/bench-$kernel-$round.log
		progress "bench: round $round of $rounds, $kernel kernel"
		KERNEL_OUT=$BUILD_DIR/kernel-bench-$kernel INITRAMFS=$BUILD_DIR/initramfs-bench-$kernel.cpio \
			BOOT_APPEND="ROUNDS=1 TORTURE_SECONDS=${TORTURE_SECONDS:-10}" boot_tcg_retry bench "$log"
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

# count_lines LOG: per percpu_load load of the counting boot LOG, one line
# "LOAD loops N allocs N bytes N pcpu_lock-acq N pcpu_lock-con N
# pcpu_alloc_mutex-acq N pcpu_alloc_mutex-con N": the load's counts less
# those of its 0-second run ("setup-LOAD"), which starts and ends the
# workers without a loop (a lock that lock_stat does not list was not
# taken: 0). A load without its loop count, or without the allocation or
# lock lines of either run, gives "LOAD missing".
count_lines() {
	tr -d '\r' <"$1" | awk -v loads="${loads[*]}" '
		match($0, /percpu_load: [a-z-]+ cpus [0-9]+ seconds [0-9.]+ per_second [0-9]+ loops [0-9]+/) {
			split(substr($0, RSTART, RLENGTH), f, " ")
			if (f[6] > 0)
				loops[f[2]] = f[10]
		}
		match($0, /percpu_allocs: [a-z-]+ [0-9]+ bytes [0-9]+/) {
			split(substr($0, RSTART, RLENGTH), f, " ")
			allocs[f[2]] = f[3]; bytes[f[2]] = f[5]
		}
		match($0, /lock_stat: [a-z-]+.*/) {
			k = split(substr($0, RSTART, RLENGTH), f, " ")
			locked[f[2]] = 1
			for (i = 3; i + 4 <= k; i += 5) {
				acq[f[2], f[i]] = f[i + 2]; con[f[2], f[i]] = f[i + 4]
			}
		}
		END {
			n = split(loads, order, " ")
			split("pcpu_lock pcpu_alloc_mutex", locks, " ")
			for (j = 1; j <= n; j++) {
				l = order[j]; s = "setup-" l
				if (!(l in loops) || !(l in allocs) || !(s in allocs) ||
				    !(l in locked) || !(s in locked)) {
					print l, "missing"
					continue
				}
				printf "%s loops %d allocs %.0f bytes %.0f", l, loops[l],
					allocs[l] - allocs[s], bytes[l] - bytes[s]
				for (i = 1; i <= 2; i++)
					printf " %s-acq %.0f %s-con %.0f", locks[i],
						acq[l, locks[i]] - acq[s, locks[i]], locks[i],
						con[l, locks[i]] - con[s, locks[i]]
				print ""
			}
		}'
}

# boot_counting_guest KERNEL POSSIBLE ONLINE LOG: boot KERNEL's bench-counts
# guest with POSSIBLE vCPUs, ONLINE of them brought up (maxcpus=: x86
# counts only the CPUs QEMU's tables list as enabled as possible, so
# -smp's maxcpus= would not do), its console to LOG.
boot_counting_guest() {
	KERNEL_OUT=$BUILD_DIR/kernel-bench-counts-$1 \
		INITRAMFS=$BUILD_DIR/initramfs-bench-counts-$1.cpio \
		BOOT_CPUS=$2 BOOT_TIMEOUT=1800 BOOT_APPEND="maxcpus=$3 LOAD_SECONDS=2" \
		boot_tcg_retry bench-counts "$4"
}

# counting_boot KERNEL POSSIBLE ONLINE: the counting boot of KERNEL with
# POSSIBLE CPUs, ONLINE of them online; add its counts to $counts as
# "KERNEL POSSIBLE LOAD ...".
counting_boot() {
	local kernel=$1 possible=$2 online=$3 log lines line
	log=$LOG_DIR/bench-counts-$kernel-$possible.log
	progress "bench: counting boot, $kernel kernel, $possible possible CPUs, $online online"
	boot_counting_guest "$kernel" "$possible" "$online" "$log"
	tr -d '\r' <"$log" | grep -q "nr_cpu_ids:$possible " ||
		die "the $kernel kernel's counting boot does not have $possible possible CPUs (nr_cpu_ids); see $log"
	grep -q '^percpu-guest: done' "$log" ||
		die "the $kernel kernel's counting boot ($possible CPUs) did not finish; see $log"
	lines=$(count_lines "$log")
	! grep -q ' missing$' <<<"$lines" ||
		die "the $kernel kernel's counting boot ($possible CPUs) lacks counts of: $(awk '$2 == "missing" { printf " %s", $1 }' <<<"$lines"); see $log"
	while read -r line; do
		echo "$kernel $possible $line"
	done <<<"$lines" >>"$counts"
}

counts=$LOG_DIR/bench.counts
: >"$counts"
if [[ $count_cpus -gt 0 || -n ${possible_cpus// /} ]]; then
	for kernel in base series; do
		build_guest bench-counts "$kernel"
		[[ $count_cpus -eq 0 ]] || counting_boot "$kernel" "$count_cpus" "$count_cpus"
		for n in $possible_cpus; do
			counting_boot "$kernel" "$n" 2
		done
	done
fi

# per_loop KERNEL CPUS LOAD METRIC: that count of the counting boot with
# -smp CPUS, per loop.
per_loop() {
	awk -v k="$1" -v c="$2" -v l="$3" -v m="$4" '$1 == k && $2 == c && $3 == l {
		for (i = 4; i < NF; i += 2) if ($i == m) v = $(i + 1)
		for (i = 4; i < NF; i += 2) if ($i == "loops") n = $(i + 1)
		if (n) printf "%.2f", v / n; else print "-"
	}' "$counts"
}

# column KERNEL WORKLOAD METRIC: that metric of every round, one a line.
column() {
	awk -v k="$1" -v w="$2" -v m="$3" '$1 == k && $3 == w { for (i = 4; i < NF; i += 2) if ($i == m) print $(i + 1) }' "$results"
}

# median: the middle of the numbers on stdin (the lower one of two).
median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# ratio SERIES BASE: SERIES/BASE to three places, "-" without a base.
ratio() {
	awk -v s="$1" -v b="$2" 'BEGIN { if (b + 0) printf "%.3f", s / b; else print "-" }'
}

# spread: half the range of the numbers on stdin, in percent of their median.
spread() {
	sort -n | awk '{ v[NR] = $1 } END { m = v[int((NR + 1) / 2)]; if (m) printf "±%.1f%%", 50 * (v[NR] - v[1]) / m; else print "-" }'
}

format='%-18s %-10s %10s %10s %7s %12s\n'
{
	echo "series: ${BENCH_SERIES_POSTING:+the queue up to posting }${BENCH_SERIES_POSTING:-the whole queue}"
	if [[ $rounds -gt 0 ]]; then
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
					"$(ratio "$series" "$base")" \
					"$(column base "$name" "$metric" | spread)"
			done
		echo
		echo "per round (kernel round workload metric value...): $results"
	else
		echo "no timed rounds (BENCH_ROUNDS=0)"
	fi
	if [[ $count_cpus -gt 0 ]]; then
		echo
		echo "counts per loop, one boot of each kernel with $count_cpus vCPUs, lock_stat and"
		echo "the percpu trace events (counts only: TCG with more vCPUs than host cores)"
		# shellcheck disable=SC2059
		printf "$format" load count base series "" ""
		for load in "${loads[@]}"; do
			for metric in allocs bytes pcpu_lock-acq pcpu_lock-con pcpu_alloc_mutex-acq pcpu_alloc_mutex-con; do
				# shellcheck disable=SC2059
				printf "$format" "$load" "$metric" "$(per_loop base "$count_cpus" "$load" "$metric")" \
					"$(per_loop series "$count_cpus" "$load" "$metric")" "" ""
			done
		done
	fi
	if [[ -n ${possible_cpus// /} ]]; then
		echo
		echo "per-CPU bytes allocated per loop, 2 vCPUs of N possible (fork-exit builds one"
		echo "mm per loop, fork-exec two)"
		# shellcheck disable=SC2059
		printf "$format" load "possible" base series ratio ""
		for n in $possible_cpus; do
			for load in fork-exit fork-exec; do
				base=$(per_loop base "$n" "$load" bytes)
				series=$(per_loop series "$n" "$load" bytes)
				# shellcheck disable=SC2059
				printf "$format" "$load" "$n" "$base" "$series" \
					"$(ratio "$series" "$base")" ""
			done
		done
	fi
	[[ ! -s $counts ]] || echo "raw counts (kernel -smp load name value...): $counts"
} >"$report"
cat "$report"
