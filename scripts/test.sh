#!/bin/bash
# Every check, in pipeline order. Each check's output goes to
# build/logs/test/<check>.log; one line per check here, then the totals over
# all checks and the tests inside them (bats cases, KUnit cases, kselftests).
#
# TEST_SET=full (make test-full) adds what does not fit make test's time
# budget: flavors whose file says "set=full" (arm64, i386, kasan), the
# cross-architecture builds, the KASAN configs no flavor boots compiled,
# the BPF and perf fixes on an arm64 guest with a hole in
# cpu_possible_mask, the torture test on base and series, and kunit.py
# with the series' .kunitconfig.
# TEST_SET=extra (make test-extra) runs only what fits neither budget: the
# size checks (the preempt flavor's vmlinux without the option, and
# x86_64_defconfig with it built in), free_percpu()'s interrupts-off time
# against the number of chunks, one KASAN kernel built from the base and
# from the series, booted with four misuses of per-CPU memory (reported by
# the series' only), and the flavors whose file says "set=extra"
# (kasan-arm64).
# The README says which check goes where and why.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

scripts=$REPO_DIR/scripts
test_logs=$LOG_DIR/test
mkdir -p "$test_logs"
# The totals are summed over this run's results files only.
rm -f "$test_logs"/*.json

# check NAME COMMAND...: run one check, show its last lines on failure,
# and write its results, build/logs/test/NAME.json: pass or fail, its
# time, the command that reproduces it and its log.
check() {
	local name=$1 log=$test_logs/$1.log start=$SECONDS result=pass
	shift
	if "$@" >"$log" 2>&1; then
		printf 'PASS %-60s %4ss\n' "$name" $((SECONDS - start))
	else
		result=fail
		printf 'FAIL %-60s %4ss  (%s)\n' "$name" $((SECONDS - start)) "$log"
		tail -n 15 "$log" | sed 's/^/     | /'
	fi
	jq -n --arg check "$name" --arg result "$result" --argjson seconds $((SECONDS - start)) \
		--arg command "${*#"$REPO_DIR/"}" --arg log "$log" \
		'{check: $check, result: $result, seconds: $seconds, command: $command, log: $log, tests: {}}' \
		>"$test_logs/$name.json"
}

# tests_from NAME RESULTS: add to check NAME's results the test counts of
# the results file RESULTS (a flavor's boot, kunit.py), when it was written.
tests_from() {
	local json=$test_logs/$1.json
	[[ -f $2 ]] || return 0
	jq --slurpfile inner "$2" '.tests += $inner[0].tests' "$json" >"$json.new"
	mv "$json.new" "$json"
}

# bats_tests NAME: check NAME's TAP output counted into its results, as
# the "bats" kind of test.
bats_tests() {
	local log=$test_logs/$1.log json=$test_logs/$1.json ok skip not_ok
	ok=$(grep -cE '^ok [0-9]+' "$log" || true)
	skip=$(grep -cE '^ok [0-9]+ .*# skip' "$log" || true)
	not_ok=$(grep -cE '^not ok [0-9]+' "$log" || true)
	jq --argjson p $((ok - skip)) --argjson f "$not_ok" --argjson s "$skip" \
		'.tests.bats = {passed: $p, failed: $f, skipped: $s}' "$json" >"$json.new"
	mv "$json.new" "$json"
}

# totals: each kind of count over this run's results, then the line that
# ends make test: checks and tests passed and failed, tests skipped.
totals() {
	local line
	line=$(jq -rs '
		. as $all |
		def count(result): [$all[] | select(.result == result)] | length;
		def sum(kinds; what): [$all[] | .tests | to_entries[] | select(.key | IN(kinds)) | .value[what]] | add // 0;
		([$all[] | .tests | keys[]] | unique) as $kinds |
		"checks \(count("pass")) passed, \(count("fail")) failed" +
			([$kinds[] as $k | "; \($k) \(sum($k; "passed")) passed, \(sum($k; "failed")) failed, \(sum($k; "skipped")) skipped"] | add // ""),
		"\(count("pass") + sum($kinds[]; "passed")) passed, \(count("fail") + sum($kinds[]; "failed")) failed, \(sum($kinds[]; "skipped")) skipped"
	' "$test_logs"/*.json) || die "the results in $test_logs do not add up; see its .json files"
	echo "$line"
	[[ ${line##*$'\n'} == *" passed, 0 failed, "* ]]
}

# flavors SET...: build, boot and judge each flavor whose file's "set=" is
# one of SET ("" for those without one: make test's), counting its tests.
flavors() {
	local file flavor
	for file in "$REPO_DIR"/configs/flavors/*; do
		flavor=${file##*/}
		[[ " ${*/#/=} " == *" =$(flavor_field "$flavor" set) "* ]] || continue
		check "flavor-$flavor" "$scripts/test-flavor.sh" "$flavor"
		tests_from "flavor-$flavor" "$LOG_DIR/$flavor.results.json"
	done
}

full='' extra=''
case ${TEST_SET:-} in
"") ;;
full) full=1 ;;
extra) extra=1 ;;
*) die "TEST_SET=${TEST_SET} is not known; leave it unset (make test) or use full (make test-full) or extra (make test-extra)" ;;
esac

if [[ -n $extra ]]; then
	check deps "$scripts/deps.sh"
	check base "$scripts/base.sh"
	check apply "$scripts/apply.sh"
	check size "$scripts/check-size.sh"
	check size-x86_64_defconfig "$scripts/check-size-defconfig.sh"
	check free-percpu-irqsoff-scaling "$scripts/measure-free-irqsoff.sh"
	check kasan-vs-base "$scripts/check-kasan-vs-base.sh"
	check deps-arm64 "$scripts/deps.sh" arm64
	flavors extra
	totals
	exit
fi

check deps "$scripts/deps.sh" ${full:+arm64 i386 cross}
check shellcheck shellcheck "$scripts"/*.sh "$REPO_DIR/.ci/run"
check base "$scripts/base.sh"
check scripts-bats bats --tap "$REPO_DIR/tests"
bats_tests scripts-bats
check apply "$scripts/apply.sh"
check series-names-patches "$scripts/check-queue.sh"
check export-round-trip "$scripts/check-roundtrip.sh"
while read -r patch; do
	check "checkpatch-${patch%.patch}" "$scripts/check-patch.sh" "$patch"
done < <(series_patches)
check maintainers-snippet-recipients "$scripts/check-maintainers.sh"
check postings-b4-mails "$scripts/check-postings.sh"
check bisect-w1-sparse-kerneldoc "$scripts/check-bisect.sh"
check docs-kerneldoc-core-api-book "$scripts/check-docs.sh"
check debug-percpu-builds-without-kunit "$scripts/check-kunit-off.sh"
# CONFIG_DEBUG_PERCPU on seven architectures, as 0-day would build it.
[[ -z $full ]] || check cross-arch-builds "$scripts/check-cross-builds.sh"
# The KASAN configs no flavor boots (UP, no KASAN_VMALLOC, arm64), compiled.
[[ -z $full ]] || check kasan-builds "$scripts/check-kasan-builds.sh"
# The BPF and perf fixes on arm64 with CPU 1 a hole in cpu_possible_mask:
# the bug on the base, none with the fixes.
[[ -z $full ]] || check cpu-hole-arm64-bpf-perf "$scripts/check-cpu-hole.sh"
# kunit.py writes a config of its own (the .kunitconfig over Kconfig's
# defaults), so it is one more cold x86-64 build: make test-full.
if [[ -n $full ]]; then
	check kunitpy-mm-tests "$scripts/check-kunitpy.sh"
	tests_from kunitpy-mm-tests "$LOG_DIR/kunitpy.results.json"
fi
# make test-full: the allocator torture test for a minute, in the flavors'
# percpu kselftest and, through one round of make bench, on the base too.
if [[ -n $full ]]; then
	export BOOT_APPEND="TORTURE_SECONDS=60"
	check torture-base-and-series env BENCH_ROUNDS=1 BENCH_COUNT_CPUS=0 BENCH_POSSIBLE_CPUS= \
		TORTURE_SECONDS=60 "$scripts/bench.sh"
fi
flavors "" ${full:+full}
# Needs the preempt flavor's kernel, which exports the test's variables.
check export-license-percpu "$scripts/check-export-license.sh" preempt

totals
