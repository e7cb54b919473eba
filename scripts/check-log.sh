#!/bin/bash
# Judge the console log of a test boot and write its report.
#
# Fails on: a guest that never reached "percpu-guest: done"; any kernel
# report (WARNING, BUG, Oops, lockdep, panic, RCU stall...) outside a window
# that a test opened on purpose with "percpu-expect-report: begin" and closed
# with "percpu-expect-report: end" after checking the report; a failed or
# missing KUnit suite (parsed by the tree's kunit.py); a failed kselftest.
# Usage: check-log.sh FLAVOR
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

flavor=${1:?usage: check-log.sh FLAVOR}
log=$LOG_DIR/$flavor.log
report=$LOG_DIR/$flavor.report
kunit_py=$SRC_DIR/tools/testing/kunit/kunit.py
[[ -f $log ]] || die "$log is missing; run 'make boot FLAVOR=$flavor' first"
[[ -f $kunit_py ]] || die "$kunit_py is missing; run 'make base' first"

problems=()

# Kernel reports nobody asked for.
report_pattern='WARNING:|BUG:|Oops|Kernel panic|general protection fault|kernel BUG at|'
report_pattern+='possible recursive locking|circular locking|inconsistent lock state|'
report_pattern+='DEBUG_LOCKS_WARN_ON|INFO: task .* blocked|rcu: INFO:|detected stall|UBSAN:|KASAN:'
unexpected=$(awk -v pat="$report_pattern" '
	/percpu-expect-report: begin/ { inside = 1; next }
	/percpu-expect-report: end/ { inside = 0; next }
	!inside && $0 ~ pat { print FNR ": " $0 }' "$log")
[[ -z $unexpected ]] || problems+=("unexpected kernel reports:"$'\n'"$unexpected")
grep -q 'percpu-guest: done' "$log" || problems+=("the guest never finished its tests (crash or early exit)")

# KUnit, through the tree's own parser.
json=$LOG_DIR/$flavor.kunit.json
kunit_out=$(python3 "$kunit_py" parse --json="$json" "$log" 2>&1) || problems+=("KUnit reported failures")
kunit_counts=$(jq -r '[.. | objects | .test_cases? // empty | .[] | .status] |
	"\(map(select(. == "PASS")) | length) \(map(select(. == "FAIL" or . == "ERROR")) | length) \(map(select(. == "SKIP")) | length)"' "$json" 2>/dev/null || echo "0 0 0")
read -r k_pass k_fail k_skip <<<"$kunit_counts"
while read -r suite; do
	jq -e --arg s "$suite" '[.. | objects | select(.name? == $s)] | length > 0' "$json" >/dev/null 2>&1 ||
		problems+=("KUnit suite '$suite' did not run")
done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$REPO_DIR/tests/kunit-suites")

# kselftest: the runner prints one TAP line per test program.
ks_lines=$(grep -E '^(not )?ok [0-9]+ selftests: ' "$log" || true)
ks_skip=$(grep -c '# SKIP' <<<"$ks_lines" || true)
ks_fail=$(grep -c '^not ok' <<<"$ks_lines" || true)
ks_pass=$(($(grep -c '^ok' <<<"$ks_lines" || true) - ks_skip))
[[ $ks_fail -eq 0 ]] || problems+=("$ks_fail kselftest(s) failed")

{
	echo "== $flavor: KUnit =="
	# Drop kunit.py's timestamps, rules and file notes; keep suites and cases.
	grep -vE '^(\[[0-9:]+\] )?(=+|Test results stored.*)?$' <<<"$kunit_out" |
		sed -e 's/^\[[0-9:]*\] //' || true
	if [[ -n $ks_lines ]]; then
		echo "== $flavor: kselftest =="
		echo "$ks_lines"
	fi
	echo "== $flavor: KUnit $k_pass passed, $k_fail failed, $k_skip skipped;" \
		"kselftest $ks_pass passed, $ks_fail failed, $ks_skip skipped =="
	for p in "${problems[@]}"; do echo "FAIL: $p"; done
} >"$report"
cat "$report"
[[ ${#problems[@]} -eq 0 ]] || die "test boot of flavor $flavor failed (${problems[0]%%$'\n'*}); see $log"
