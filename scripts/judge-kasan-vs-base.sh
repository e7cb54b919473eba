#!/bin/bash
# Judge the two consoles of check-kasan-vs-base.sh: the same KASAN kernel
# built from the base (BASE_LOG) and from the series (SERIES_LOG), each
# booted with tests/kasan-percpu's modules. The base must report none of
# the four misuses of per-CPU memory, the series each at the access,
# naming the function that made it and the CPU whose copy it touched, and,
# for the three dynamic areas, where the area was allocated (and freed,
# for the two used after free: an unloaded module's area, freed at once,
# keeps no stacks the report can find); both kernels must run on. Then
# what the checks cost in those boots, as a table.
# Usage: judge-kasan-vs-base.sh BASE_LOG SERIES_LOG
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

base_log=${1:?usage: judge-kasan-vs-base.sh BASE_LOG SERIES_LOG}
series_log=${2:?usage: judge-kasan-vs-base.sh BASE_LOG SERIES_LOG}
for log in "$base_log" "$series_log"; do
	[[ -f $log ]] || die "$log does not exist; run 'make kasan-vs-base'"
done

# reports LOG: KASAN's report titles in LOG, one "TYPE FUNCTION" a line;
# the function without the suffix of a compiler's clone (.isra.0).
reports() {
	tr -d '\r' <"$1" | sed -nE 's/.*BUG: KASAN: ([a-z-]+) in ([A-Za-z0-9_]+)[.+].*/\1 \2/p'
}

# ran_on LOG: the module went through its four misuses and the guest's
# init went on to its end after it.
ran_on() {
	tr -d '\r' <"$1" | sed -n '/percpu_kasan_misuse: done/,$p' | grep -q '^percpu-guest: done'
}

ran_on "$base_log" || die "the base's KASAN kernel did not run the module to its end; see $base_log"
ran_on "$series_log" || die "the series' KASAN kernel did not run on after the misuses; see $series_log"

base_reports=$(reports "$base_log")
[[ -z $base_reports ]] || die "the base's KASAN kernel reported: $(tr '\n' ';' <<<"$base_reports") (none expected); see $base_log"

expected="percpu-use-after-free percpu_read_after_free
percpu-use-after-free percpu_write_after_free_other_cpu
percpu-out-of-bounds percpu_write_past_end
percpu-use-after-free percpu_read_static_after_unload"
series_reports=$(reports "$series_log")
[[ $series_reports == "$expected" ]] ||
	die "the series' KASAN kernel reported: $(tr '\n' ';' <<<"$series_reports") instead of: $(tr '\n' ';' <<<"$expected"); see $series_log"

# Each report names the CPU whose copy (or unit, for a freed area whose
# space is not allocated again) was touched: the CPUs the module names, but for the
# overflow's, whichever CPU it ran on.
mapfile -t copies < <(tr -d '\r' <"$series_log" | sed -nE "s/.*belongs to (a freed area of )?CPU ([0-9]+)'s (copy|unit).*/\2/p")
mapfile -t named < <(tr -d '\r' <"$series_log" | sed -nE "s/.*percpu_kasan_misuse: .*CPU ([0-9]+)'s copy$/\1/p")
[[ ${#copies[@]} -eq 4 && ${#named[@]} -eq 3 && "${copies[0]} ${copies[1]} ${copies[3]}" == "${named[*]}" ]] ||
	die "the series' reports name the copies of CPUs ${copies[*]:-none}, the module touched those of CPUs ${named[*]:-none}; see $series_log"

# Where each dynamic area was allocated, and freed for the two used after
# free.
allocated=$(grep -c 'Allocated at:' "$series_log" || true)
freed=$(grep -c 'Freed at:' "$series_log" || true)
[[ $allocated -eq 3 && $freed -eq 2 ]] ||
	die "the series' reports give $allocated allocation and $freed free stacks, not 3 and 2; see $series_log"

# What the checks cost, from one boot of each kernel (QEMU TCG: behaviour,
# not cost on hardware; one boot each, so no spread): the per-CPU memory in
# use and the time when user space had run the payload's first line, and
# the alloc+free pairs.
cost_lines() {
	tr -d '\r' <"$1" | sed -nE \
		-e 's/.*kasan-payload: Percpu: ([0-9]+) kB after ([0-9.]+) s.*/percpu-kB \1\nuptime-s \2/p' \
		-e 's/.*percpu_alloc_bench: size ([0-9]+) batch ([0-9]+) cpus ([0-9]+) ns_per_pair ([0-9]+).*/pair-\1-b\2-c\3-ns \4/p'
}
echo "cost (KASAN, QEMU TCG, one boot each):"
join <(cost_lines "$base_log" | sort) <(cost_lines "$series_log" | sort) |
	awk '{ printf "  %-24s base %10s  series %10s  %.2f\n", $1, $2, $3, $2 ? $3 / $2 : 0 }'

echo "base: the four misuses unreported, the kernel ran on ($base_log)"
echo "series: reported at the access, the kernel ran on ($series_log):"
while read -r line; do
	echo "  $line"
done <<<"$series_reports"
