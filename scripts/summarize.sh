#!/bin/bash
# Print what a test boot showed, readable in ten seconds: the test totals,
# each kind of per-CPU misuse the debug checks caught (the first line of its
# first report), and the driver tests' counted versus sent frames.
# Reads $LOG_DIR/FLAVOR.log and the report check-log.sh wrote.
# Usage: summarize.sh FLAVOR
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

flavor=${1:?usage: summarize.sh FLAVOR}
log=$LOG_DIR/$flavor.log
report=$LOG_DIR/$flavor.report
[[ -f $log && -f $report ]] || die "no log or report for flavor $flavor; run 'make boot check FLAVOR=$flavor' first"

# The kinds of misuse, in the order the documentation lists them: a label,
# then what the report's first line says after "percpu: ".
kinds=(
	"bad CPU number|per_cpu_ptr() of CPU"
	"free of a foreign pointer|free_percpu() of a pointer alloc_percpu() did not return"
	"free of a static variable|free_percpu() of a static per-CPU variable"
	"misaligned free|free_percpu() of a misaligned pointer"
	"free inside an area|free_percpu() of a pointer inside an area"
	"double free|free_percpu() of an area that is not allocated"
	"write after free|write after free"
)

# Kernel lines only (the tests echo them with "# " in front), without the
# serial console's carriage returns and printk timestamps.
reports=$(tr -d '\r' <"$log" | sed -n -E 's/^(\[ *[0-9.]+\] )?percpu: /percpu: /p')

echo "== summary: flavor $flavor =="
sed -n -E 's/^== [^:]+: (KUnit .*) ==$/\1/p' "$report"
echo "Misuse the debug checks caught (first line of the first report of each kind):"
for kind in "${kinds[@]}"; do
	label=${kind%%|*} text=${kind#*|}
	first=$(grep -m1 -F "percpu: $text" <<<"$reports" || true)
	printf '  %-26s %s\n' "$label:" "${first:-not seen (checks off, or the test did not run)}"
done
# The driver tests: a label, then the test as TARGET:TEST.
drivers=(
	"netdevsim, per-CPU dstats upstream|drivers/net/netdevsim:percpu-stats.sh"
	"HSR/PRP master, converted by the series|net/hsr:prp_master_stats.sh"
)
echo "Drivers under load from every CPU (frames sent, counted by the driver's counters):"
for driver in "${drivers[@]}"; do
	rounds=$(test_round_lines "$log" "${driver#*|}")
	echo "  ${driver%%|*}:"
	if [[ -n $rounds ]]; then
		while read -r round; do echo "    $round"; done <<<"$rounds"
	else
		echo "    not run"
	fi
done
