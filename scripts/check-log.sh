#!/bin/bash
# Judge the console log of a test boot and write its report.
#
# Fails on: a guest that never reached "percpu-guest: done"; any kernel
# report (WARNING, BUG, Oops, lockdep, panic, RCU stall...) outside the
# windows in which a test provokes and checks one itself: such a test
# brackets its misuse with the lines "provoked report begins: NAME" and
# "provoked report ends: NAME" (KUnit cases print them), and an LKDTM run
# is a window from LKDTM's "lkdtm: Performing direct entry TYPE" to the
# kselftest result line of lkdtm's TYPE.sh, and KASAN's KUnit suite is one
# from its start to its result; an unclosed window; a kernel
# that did not run in the preemption model the flavor's cmdline asks for,
# or not under PREEMPT_RT when built for it; a failed or missing
# KUnit suite (parsed by the tree's kunit.py); a test module that did not
# load; a failed kselftest.
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
report_pattern+='DEBUG_LOCKS_WARN_ON|INFO: trying to register non-static key|INFO: task .* blocked|'
report_pattern+='rcu: INFO:|detected stall|UBSAN:|KASAN:|Unable to handle kernel|Internal error:'
# Lines outside the provoked-report windows, with their line numbers.
outside=$(awk '{ sub(/\r$/, "") }
	/provoked report begins: / { inside = FNR; next }
	/provoked report ends: / { inside = 0; next }
	# The KASAN suite provokes its reports and judges each one itself
	# (KUNIT_EXPECT_KASAN_FAIL fails a case whose report did not come or
	# was not expected): while it runs is one window.
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
	END { if (inside) print "unclosed-window:" inside }' "$log")
unclosed=$(grep -oE '^unclosed-window:[0-9]+' <<<"$outside" | cut -d: -f2 || true)
[[ -z $unclosed ]] || problems+=("the provoked-report window opened on line $unclosed never closed (the test crashed?)")
unexpected=$(grep -E "^[0-9]+:.*($report_pattern)" <<<"$outside" || true)
[[ -z $unexpected ]] || problems+=("unexpected kernel reports:"$'\n'"$unexpected")
missing_reruns=$(grep -E '^percpu-guest: no KUnit suite .* to run again' "$log" || true)
[[ -z $missing_reruns ]] || problems+=("KUnit suites the flavor runs twice were not in debugfs:"$'\n'"$missing_reruns")
failed_loads=$(grep -E '^percpu-guest: loading .* failed' "$log" || true)
[[ -z $failed_loads ]] || problems+=("test modules did not load:"$'\n'"$failed_loads")
grep -q 'percpu-guest: done' "$log" || problems+=("the guest never finished its tests (crash or early exit)")
# A flavor that boots a PREEMPT_DYNAMIC kernel in a given model must run in it.
mode=
if [[ -f ${CONFIGS_DIR:-$REPO_DIR/configs}/flavors/$flavor ]]; then
	mode=$(flavor_field "$flavor" cmdline | grep -oE 'preempt=[a-z]+' | cut -d= -f2 || true)
fi
if [[ -n $mode ]] && ! grep -qE "Dynamic Preempt: $mode([^a-z]|$)" "$log"; then
	problems+=("the kernel did not print 'Dynamic Preempt: $mode'; is CONFIG_PREEMPT_DYNAMIC set?")
fi

# A kernel with CONFIG_DEBUG_PERCPU built in must have started its checks
# (its suite skips every case where they are off, which would pass silently).
kconfig=
if [[ -f ${CONFIGS_DIR:-$REPO_DIR/configs}/flavors/$flavor ]]; then
	kconfig=$BUILD_DIR/kernel-$(flavor_kernel "$flavor")/.config
fi
if [[ -n $kconfig && -f $kconfig ]] && grep -q '^CONFIG_DEBUG_PERCPU=y' "$kconfig" &&
	! grep -q 'percpu: debug checks enabled' "$log"; then
	problems+=("CONFIG_DEBUG_PERCPU is built in but the log lacks 'percpu: debug checks enabled'")
fi
# A flavor whose file says "tainted=N" must end its tests with exactly
# those taint flags (262144, TAINT_TEST, is what KUnit always sets).
want_taint=
if [[ -f ${CONFIGS_DIR:-$REPO_DIR/configs}/flavors/$flavor ]]; then
	want_taint=$(flavor_field "$flavor" tainted)
fi
if [[ -n $want_taint ]]; then
	taint=$(sed -n 's/^percpu-guest: tainted \([0-9]*\).*/\1/p' "$log" | tail -n 1)
	[[ $taint == "$want_taint" ]] ||
		problems+=("the kernel ended tainted '${taint:-?}', not $want_taint; see Documentation/admin-guide/tainted-kernels.rst")
fi
# A PREEMPT_RT kernel says so in its version line.
if [[ -n $kconfig && -f $kconfig ]] && grep -q '^CONFIG_PREEMPT_RT=y' "$kconfig" &&
	! grep -qE '^(\[ *[0-9.]+\] )?Linux version .* PREEMPT_RT' "$log"; then
	problems+=("CONFIG_PREEMPT_RT is set but the kernel's version line lacks PREEMPT_RT")
fi

# KUnit, through the tree's own parser. kunit.py reads one KTAP document:
# built-in suites print one at boot, each test module one more, so the log
# is cut at every top-level "KTAP version" line and each part parsed alone.
kunit_out="" k_pass=0 k_fail=0 k_skip=0 jsons=() kunit_failed=
rm -f "$LOG_DIR/$flavor".ktap-*.log "$LOG_DIR/$flavor".ktap-*.json
awk -v out="$LOG_DIR/$flavor.ktap-" '/^KTAP version/ { n++ } n { print > (out n ".log") }' "$log"
for doc in "$LOG_DIR/$flavor".ktap-*.log; do
	if [[ ! -f $doc ]] || ! grep -q "# Subtest:" "$doc"; then continue; fi
	json=${doc%.log}.json
	jsons+=("$json")
	kunit_out+=$(python3 "$kunit_py" parse --json="$json" "$doc" 2>&1)$'\n' || kunit_failed=1
	read -r p f s <<<"$(jq -r '[.. | objects | .test_cases? // empty | .[] | .status] |
		"\(map(select(. == "PASS")) | length) \(map(select(. == "FAIL" or . == "ERROR")) | length) \(map(select(. == "SKIP")) | length)"' "$json")"
	k_pass=$((k_pass + p)) k_fail=$((k_fail + f)) k_skip=$((k_skip + s))
done
# A flavor may name KUnit cases that fail on v7.3.4 as well
# ("kunit-fails-on-base=SUITE.CASE ..."): those are counted as skipped, as
# long as kunit.py's verdict has no other cause (another failed case, a
# suite that failed without a failed case); one of them that passes fails
# the flavor, for its line to be removed.
fails_on_base=
if [[ -f ${CONFIGS_DIR:-$REPO_DIR/configs}/flavors/$flavor ]]; then
	fails_on_base=$(flavor_field "$flavor" kunit-fails-on-base | tr ' ' '\n' | sed '/^$/d' | sort -u)
fi
failed_cases=
if [[ -n $kunit_failed ]]; then
	failed_cases=$(jq -r '.. | objects | select(.test_cases? != null) | .name as $s |
		.test_cases[] | select(.status == "FAIL" or .status == "ERROR") | "\($s).\(.name)"' "${jsons[@]}" | sort -u)
	failed_suites=$(jq -r '.. | objects | select(.test_cases? != null and
		(.status == "FAIL" or .status == "ERROR")) | .name' "${jsons[@]}" | sort -u)
	explained=$(comm -12 <(echo "$failed_cases") <(echo "$fails_on_base") | sed '/^$/d' | cut -d. -f1 | sort -u)
	if [[ -z $failed_cases ]] || comm -23 <(echo "$failed_cases") <(echo "$fails_on_base") | grep -q . ||
		comm -23 <(echo "$failed_suites") <(echo "$explained") | grep -q .; then
		problems+=("KUnit reported failures")
	fi
fi
for case in $fails_on_base; do
	if grep -qx -- "$case" <<<"$failed_cases"; then
		k_fail=$((k_fail - 1)) k_skip=$((k_skip + 1))
	else
		problems+=("$case, which kunit-fails-on-base names, did not fail; remove it from configs/flavors/$flavor")
	fi
done
while read -r suite option; do
	# A suite that needs an option runs only where the kernel has it.
	if [[ -n $option && -n $kconfig && -f $kconfig ]] && ! grep -qE "^$option=[ym]$" "$kconfig"; then
		continue
	fi
	[[ ${#jsons[@]} -gt 0 ]] && jq --arg s "$suite" '[.. | objects | select(.name? == $s)] | length > 0' "${jsons[@]}" 2>/dev/null | grep -q true ||
		problems+=("KUnit suite '$suite' did not run")
done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "${KUNIT_SUITES:-$REPO_DIR/tests/kunit-suites}")

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
	if [[ $ks_fail -gt 0 ]]; then
		# What a failed program said: its failed cases and its messages,
		# the last ones only, so that a CI log's tail shows why.
		echo "== $flavor: what the failed kselftests said =="
		awk '/^# selftests: / { said = "" }
			/^# (not ok|# )/ { said = said $0 "\n" }
			/^not ok [0-9]+ selftests: / { printf "%s", said; said = "" }' "$log" | tail -n 8
	fi
	[[ -z $fails_on_base ]] ||
		echo "== $flavor: failing on v7.3.4 as well, counted as skipped: $(tr '\n' ' ' <<<"$fails_on_base")=="
	echo "== $flavor: KUnit $k_pass passed, $k_fail failed, $k_skip skipped;" \
		"kselftest $ks_pass passed, $ks_fail failed, $ks_skip skipped =="
	for p in "${problems[@]}"; do echo "FAIL: $p"; done
} >"$report"
cat "$report"
[[ ${#problems[@]} -eq 0 ]] || die "test boot of flavor $flavor failed (${problems[0]%%$'\n'*}); see $log"
