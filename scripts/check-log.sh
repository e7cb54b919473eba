#!/bin/bash
# Judge a test boot: what parse-console.sh read from the flavor's console,
# against what the flavor asks for. Writes the report
# (build/logs/FLAVOR.report, which ends with the counts) and the results
# (build/logs/FLAVOR.results.json: the counts, the problems, and the
# commands that reproduce the boot, the exact QEMU line included).
#
# Fails on: a guest that never reached "percpu-guest: done"; a kernel
# report outside the windows in which a test provokes and checks one
# itself, or a window that never closed; a kernel that did not run in the
# preemption model the flavor's cmdline asks for, or not under PREEMPT_RT
# when built for it; CONFIG_DEBUG_PERCPU built in without its checks
# started; a taint other than the flavor's "tainted="; a failed KUnit case
# (other than those "kunit-fails-on-base=" names, which must fail) or a
# suite of tests/kunit-suites that did not run; a test module that did not
# load; where kselftests were installed, a runner that did not start, a
# plan its results do not fill, a failed test or a runner that exited
# non-zero.
# Usage: check-log.sh FLAVOR
set -euo pipefail
# One sort order for comm and the parser's lists, whatever the user's locale.
export LC_ALL=C
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

flavor=${1:?usage: check-log.sh FLAVOR}
log=$LOG_DIR/$flavor.log
report=$LOG_DIR/$flavor.report
results=$LOG_DIR/$flavor.results.json
[[ -f $log ]] || die "$log is missing; run 'make boot FLAVOR=$flavor' first"
console=$("$REPO_DIR/scripts/parse-console.sh" "$log")
# fact FILTER: jq FILTER over what the console showed, raw.
fact() {
	jq -r "$1" <<<"$console"
}

# What the flavor asks for; a console judged without its flavor file (a
# recorded one) is held to the flavor-independent rules only.
field() {
	[[ ! -f ${CONFIGS_DIR:-$REPO_DIR/configs}/flavors/$flavor ]] || flavor_field "$flavor" "$1"
}
kconfig=$BUILD_DIR/kernel-$flavor/.config
[[ -z $(field kernel) ]] || kconfig=$BUILD_DIR/kernel-$(field kernel)/.config
# built OPTION: the flavor's kernel has OPTION=y.
built() {
	[[ -f $kconfig ]] && grep -q "^$1=y" "$kconfig"
}

problems=()
[[ $(fact .guest_done) == true ]] || problems+=("the guest never finished its tests (crash or early exit)")
line=$(fact '.unclosed_window_line // empty')
[[ -z $line ]] || problems+=("the provoked-report window opened on line $line never closed (the test crashed?)")
[[ $(fact '.unexpected_reports | length') -eq 0 ]] ||
	problems+=("unexpected kernel reports:"$'\n'"$(fact '.unexpected_reports[]')")
[[ $(fact '.missing_kunit_reruns | length') -eq 0 ]] ||
	problems+=("KUnit suites the flavor runs twice were not in debugfs:"$'\n'"$(fact '.missing_kunit_reruns[]')")
[[ $(fact '.failed_module_loads | length') -eq 0 ]] ||
	problems+=("test modules did not load:"$'\n'"$(fact '.failed_module_loads[]')")
# A flavor that boots a PREEMPT_DYNAMIC kernel in a given model must run in it.
mode=$(field cmdline | grep -oE 'preempt=[a-z]+' | cut -d= -f2 || true)
[[ -z $mode || $(fact '.preempt_model // empty') == "$mode" ]] ||
	problems+=("the kernel did not print 'Dynamic Preempt: $mode'; is CONFIG_PREEMPT_DYNAMIC set?")
! built CONFIG_PREEMPT_RT || [[ $(fact '.version // empty') == *PREEMPT_RT* ]] ||
	problems+=("CONFIG_PREEMPT_RT is set but the kernel's version line lacks PREEMPT_RT")
# With CONFIG_DEBUG_PERCPU built in, its suite skips every case where the
# checks are off, which would pass silently.
! built CONFIG_DEBUG_PERCPU || [[ $(fact .debug_checks_enabled) == true ]] ||
	problems+=("CONFIG_DEBUG_PERCPU is built in but the log lacks 'percpu: debug checks enabled'")
# 262144, TAINT_TEST, is what KUnit always sets.
want_taint=$(field tainted)
[[ -z $want_taint || $(fact '.taint // "?"') == "$want_taint" ]] ||
	problems+=("the kernel ended tainted '$(fact '.taint // "?"')', not $want_taint; see Documentation/admin-guide/tainted-kernels.rst")

# KUnit. A flavor may name cases that fail on v7.3.4 as well
# ("kunit-fails-on-base=SUITE.CASE ..."): counted as skipped, as long as
# kunit.py's verdict has no other cause (another failed case, a suite that
# failed without a failed case); one of them that passes fails the flavor,
# for its line to be removed.
k_pass=$(fact .kunit.passed) k_fail=$(fact .kunit.failed) k_skip=$(fact .kunit.skipped)
fails_on_base=$(field kunit-fails-on-base | tr ' ' '\n' | sed '/^$/d' | sort -u)
failed_cases=$(fact '.kunit.failed_cases[]')
if [[ $(fact .kunit.verdict_failed) == true ]]; then
	explained=$(comm -12 <(echo "$failed_cases") <(echo "$fails_on_base") | sed '/^$/d' | cut -d. -f1 | sort -u)
	if [[ -z $failed_cases ]] || comm -23 <(echo "$failed_cases") <(echo "$fails_on_base") | grep -q . ||
		comm -23 <(fact '.kunit.failed_suites[]') <(echo "$explained") | grep -q .; then
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
	[[ -z $option || ! -f $kconfig ]] || grep -qE "^$option=[ym]$" "$kconfig" || continue
	fact '.kunit.suites[]' | grep -qx -- "$suite" || problems+=("KUnit suite '$suite' did not run")
done < <(list_file "${KUNIT_SUITES:-$REPO_DIR/tests/kunit-suites}")

# kselftest: where build-kselftest.sh installed tests for the guest, the
# runner must start, give as many results as its plan says, fail none and
# exit 0 (a test that did not run is a failure, never silence).
ks_pass=0 ks_fail=0 ks_skip=0
if [[ $(fact '.kselftest != null') == true ]]; then
	ks_pass=$(fact .kselftest.passed) ks_fail=$(fact .kselftest.failed) ks_skip=$(fact .kselftest.skipped)
	plan=$(fact '.kselftest.plan // "none"') ran=$(fact .kselftest.results)
	[[ $plan == "$ran" ]] || problems+=("the kselftest runner planned $plan tests and reported $ran")
	[[ $ks_fail -eq 0 ]] || problems+=("$ks_fail kselftest(s) failed")
	# The runner's own totals must be what its result lines say (an XFAIL
	# is an "ok" line: passed here).
	totals=$(fact '.kselftest.totals // empty | "\(.pass + .xfail) \(.fail + .error + .xpass) \(.skip)"')
	[[ -n $totals ]] || problems+=("the kselftest runner printed no totals")
	[[ -z $totals || $totals == "$ks_pass $ks_fail $ks_skip" ]] ||
		problems+=("the kselftest runner's totals (passed, failed, skipped: $totals) are not its result lines' ($ks_pass $ks_fail $ks_skip)")
	status=$(fact '.kselftest.runner_status // empty')
	[[ -n $status ]] || problems+=("the guest printed no 'percpu-guest: kselftest runner exited' line")
	[[ -z $status || $status == 0 ]] || problems+=("the kselftest runner exited with status $status, not 0")
elif [[ -f $BUILD_DIR/kselftest-$flavor/kselftest-args ]]; then
	problems+=("kselftests were installed for the guest but their runner never started")
fi

{
	echo "== $flavor: KUnit =="
	fact .kunit.text
	if [[ $(fact '.kselftest.results // 0') -gt 0 ]]; then
		echo "== $flavor: kselftest =="
		fact '.kselftest.lines[]'
	fi
	if [[ $ks_fail -gt 0 ]]; then
		echo "== $flavor: what the failed kselftests said =="
		fact .kselftest.failed_said
	fi
	[[ -z $fails_on_base ]] ||
		echo "== $flavor: failing on v7.3.4 as well, counted as skipped: $(tr '\n' ' ' <<<"$fails_on_base")=="
	echo "== $flavor: KUnit $k_pass passed, $k_fail failed, $k_skip skipped;" \
		"kselftest $ks_pass passed, $ks_fail failed, $ks_skip skipped =="
	for p in ${problems[@]+"${problems[@]}"}; do echo "FAIL: $p"; done
} >"$report"

qemu_line=
[[ ! -f ${log%.log}.qemu ]] || qemu_line=$(<"${log%.log}.qemu")
# What make test ran: the flavor's build, kselftests, guest, boot and this.
reproduce="${BOOT_APPEND:+BOOT_APPEND=$(printf '%q' "$BOOT_APPEND") }scripts/test-flavor.sh $flavor"
jq -n --arg flavor "$flavor" --arg log "$log" --arg qemu "$qemu_line" --arg reproduce "$reproduce" \
	--argjson kunit "$(jq -n --argjson p "$k_pass" --argjson f "$k_fail" --argjson s "$k_skip" \
		'{passed: $p, failed: $f, skipped: $s}')" \
	--argjson kselftest "$(jq -n --argjson p "$ks_pass" --argjson f "$ks_fail" --argjson s "$ks_skip" \
		'{passed: $p, failed: $f, skipped: $s}')" \
	--argjson problems "$(printf '%s\0' ${problems[@]+"${problems[@]}"} | jq -Rs 'split("\u0000") | map(select(. != ""))')" '
	{
		flavor: $flavor,
		result: (if ($problems | length) == 0 then "pass" else "fail" end),
		tests: {kunit: $kunit, kselftest: $kselftest},
		problems: $problems,
		console: $log,
		reproduce: $reproduce,
		qemu: (if $qemu == "" then null else $qemu end)
	}' >"$results"
cat "$report"
[[ ${#problems[@]} -eq 0 ]] || die "test boot of flavor $flavor failed (${problems[0]%%$'\n'*}); see $log"
