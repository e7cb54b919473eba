#!/bin/bash
# Read the serial console of a test boot and print, as one JSON object,
# what it shows: no judgement here (check-log.sh judges it against the
# flavor, and bats runs both on recorded consoles).
#
# - kernel reports (WARNING, BUG, Oops, lockdep, panic, RCU stall, UBSAN,
#   KASAN...) outside the windows in which a test provokes one and checks
#   it itself: a window runs from "provoked report begins: NAME" to
#   "provoked report ends: NAME" (KUnit cases and kselftests print them),
#   from LKDTM's "Performing direct entry TYPE" to the kselftest result of
#   lkdtm's TYPE.sh, and over KASAN's KUnit suite, which judges each of its
#   reports; a window still open at the end;
# - the KUnit results, through the tree's kunit.py, which reads one KTAP
#   document: the built-in suites print one at boot and each test module
#   one more, so the console is cut at every top-level "KTAP version" and
#   each part parsed alone (into LOG's .ktap-N.log and .ktap-N.json);
# - the kselftest runner's plan, result lines, totals and exit status;
# - what the guest and the kernel said of themselves: the end of the
#   tests, the preemption model, the version line, the debug checks,
#   the taint, test modules that did not load, KUnit reruns not found.
# Usage: parse-console.sh LOG
set -euo pipefail
# One sort order for comm, sort and jq, whatever the user's locale.
export LC_ALL=C
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

log=${1:?usage: parse-console.sh LOG}
kunit_py=$SRC_DIR/tools/testing/kunit/kunit.py
[[ -f $log ]] || die "$log is missing; boot a flavor first (make boot FLAVOR=...)"
# kunit.py works in the tree: it needs the absolute paths.
log=$(realpath "$log")
[[ -f $kunit_py ]] || die "$kunit_py is missing; run 'make base' first"
console=$(mktemp)
trap 'rm -f "$console"' EXIT
# Without carriage returns and NUL bytes (a NUL makes grep call the whole
# console binary and print nothing of it).
tr -d '\r\000' <"$log" >"$console"

# lines PATTERN: the console's lines that match PATTERN, as a JSON array.
lines() {
	grep -E "$1" "$console" | jq -R . | jq -s . || true
}

report_pattern='WARNING:|BUG:|Oops|Kernel panic|general protection fault|kernel BUG at|'
report_pattern+='possible recursive locking|circular locking|inconsistent lock state|'
report_pattern+='DEBUG_LOCKS_WARN_ON|INFO: trying to register non-static key|INFO: task .* blocked|'
report_pattern+='rcu: INFO:|detected stall|UBSAN:|KASAN:|Unable to handle kernel|Internal error:'
# The console's lines outside the windows, each with its line number, and
# "unclosed-window:N" for a window opened on line N and never closed.
outside=$(awk '
	/provoked report begins: / { inside = FNR; next }
	/provoked report ends: / { inside = 0; next }
	/^ *# Subtest: kasan$/ { inside = FNR; kasan = 1; next }
	kasan && /^(not )?ok [0-9]+ kasan$/ { inside = 0; kasan = 0; next }
	# The type is the capitals after "direct entry ": a kernel message
	# may follow on the same console line.
	/lkdtm: Performing direct entry / {
		lkdtm = $0
		sub(/.*lkdtm: Performing direct entry /, "", lkdtm)
		match(lkdtm, /^[A-Z0-9_]+/)
		lkdtm = substr(lkdtm, 1, RLENGTH)
		inside = FNR
		next
	}
	lkdtm != "" && /^(not )?ok [0-9]+ selftests: lkdtm: / &&
		index($0, "selftests: lkdtm: " lkdtm ".sh") { inside = 0; lkdtm = ""; next }
	!inside { print FNR ":" $0 }
	END { if (inside) print "unclosed-window:" inside }' "$console")
unclosed=$(sed -n 's/^unclosed-window:\([0-9]*\)$/\1/p' <<<"$outside")
unexpected=$(grep -E "^[0-9]+:.*($report_pattern)" <<<"$outside" | jq -R . | jq -s . || true)

# KUnit: each KTAP document parsed by kunit.py; its JSON kept beside LOG.
ktap=${log%.log}.ktap-
rm -f "$ktap"*.log "$ktap"*.json
awk -v out="$ktap" '/^KTAP version/ { n++ } n { print > (out n ".log") }' "$console"
kunit_text='' verdict_failed=false jsons=()
for doc in "$ktap"*.log; do
	if [[ ! -f $doc ]] || ! grep -q '# Subtest:' "$doc"; then continue; fi
	json=${doc%.log}.json
	jsons+=("$json")
	kunit_text+=$(python3 "$kunit_py" parse --json="$json" "$doc" 2>&1)$'\n' || verdict_failed=true
done
# Drop kunit.py's timestamps, rules and file notes; keep suites and cases.
kunit_text=$(grep -vE '^(\[[0-9:]+\] )?(=+|Test results stored.*)?$' <<<"$kunit_text" |
	sed -e 's/^\[[0-9:]*\] //' || true)
# Suites as the KTAP documents name them (a suite whose setup failed has
# no case for kunit.py's JSON to group), and the suites KTAP says failed
# (kunit.py's JSON gives a suite no verdict of its own).
ktap_suites=$(cat "$ktap"*.log 2>/dev/null | sed -n 's/^    # Subtest: \([A-Za-z0-9_]*\)$/\1/p' | jq -R . | jq -s . || true)
ktap_failed=$(cat "$ktap"*.log 2>/dev/null | sed -n 's/^not ok [0-9]* \([A-Za-z0-9_]*\)$/\1/p' | jq -R . | jq -s . || true)
kunit=$(jq -s --arg text "$kunit_text" --argjson verdict_failed "$verdict_failed" \
	--argjson ktap_suites "$ktap_suites" --argjson ktap_failed "$ktap_failed" '
	[.[] | .. | objects | select(.test_cases? != null)] as $suites |
	[$suites[] | .name as $s | .test_cases[] | {suite: $s, name, status}] as $cases |
	{
		documents: length,
		passed: [$cases[] | select(.status == "PASS")] | length,
		failed: [$cases[] | select(.status == "FAIL" or .status == "ERROR")] | length,
		skipped: [$cases[] | select(.status == "SKIP")] | length,
		suites: ([$suites[] | .name] + $ktap_suites) | unique,
		failed_cases: [$cases[] | select(.status == "FAIL" or .status == "ERROR") |
			"\(.suite).\(.name)"] | unique,
		failed_suites: $ktap_failed | unique,
		verdict_failed: $verdict_failed,
		text: $text
	}' ${jsons[@]+"${jsons[@]}"} </dev/null)

# kselftest: run_kselftest.sh's TAP ("TAP version 13", its plan, one line
# per test program, "# Totals: ..."), and its exit status, which
# guest-init.sh prints.
kselftest=null
if grep -q '^TAP version 13$' "$console"; then
	ks_lines=$(grep -E '^(not )?ok [0-9]+ selftests: ' "$console" || true)
	# What the failed programs said: their failed cases and messages, the
	# last ones only, so that a CI log's tail shows why.
	said=$(awk '/^# selftests: / { said = "" }
		/^# (not ok|# )/ { said = said $0 "\n" }
		/^not ok [0-9]+ selftests: / { printf "%s", said; said = "" }' "$console" | tail -n 8)
	kselftest=$(jq -n --arg lines "$ks_lines" --arg said "$said" \
		--arg plan "$(awk '/^TAP version 13$/ { header = 1 } header && /^1\.\.[0-9]+$/ { print substr($0, 4); exit }' "$console")" \
		--arg totals "$(sed -n 's/^# Totals: \(pass:.*xfail:.*\)$/\1/p' "$console" | tail -n 1)" \
		--arg status "$(sed -n 's/^percpu-guest: kselftest runner exited \([0-9]*\)$/\1/p' "$console" | tail -n 1)" '
		($lines | split("\n") | map(select(. != ""))) as $l |
		{
			plan: ($plan | tonumber? // null),
			results: ($l | length),
			passed: [$l[] | select(startswith("ok ") and (contains("# SKIP") | not))] | length,
			failed: [$l[] | select(startswith("not ok "))] | length,
			skipped: [$l[] | select(startswith("ok ") and contains("# SKIP"))] | length,
			totals: (if $totals == "" then null else
				$totals | [splits(" ") | split(":") | {(.[0]): (.[1] | tonumber)}] | add end),
			runner_status: ($status | tonumber? // null),
			lines: $l,
			failed_said: $said
		}')
fi

# first/last PATTERN: \1 of the first or last line PATTERN matches.
first() { sed -n "s/$1/\\1/p" "$console" | head -n 1; }
last() { sed -n "s/$1/\\1/p" "$console" | tail -n 1; }
jq -n --arg log "$log" \
	--argjson guest_done "$(grep -q 'percpu-guest: done' "$console" && echo true || echo false)" \
	--arg model "$(first '.*Dynamic Preempt: \([a-z]*\).*')" \
	--arg version "$(grep -m1 -oE 'Linux version .*' "$console" || true)" \
	--argjson debug "$(grep -q 'percpu: debug checks enabled' "$console" && echo true || echo false)" \
	--arg taint "$(last '^percpu-guest: tainted \([0-9]*\).*')" \
	--argjson failed_loads "$(lines '^percpu-guest: loading .* failed')" \
	--argjson missing_reruns "$(lines '^percpu-guest: no KUnit suite .* to run again')" \
	--arg unclosed "$unclosed" --argjson unexpected "$unexpected" \
	--argjson kunit "$kunit" --argjson kselftest "$kselftest" '
	def orNull: if . == "" then null else . end;
	{
		console: $log,
		guest_done: $guest_done,
		preempt_model: ($model | orNull),
		version: ($version | orNull),
		debug_checks_enabled: $debug,
		taint: ($taint | orNull),
		failed_module_loads: $failed_loads,
		missing_kunit_reruns: $missing_reruns,
		unclosed_window_line: ($unclosed | tonumber? // null),
		unexpected_reports: $unexpected,
		kunit: $kunit,
		kselftest: $kselftest
	}'
