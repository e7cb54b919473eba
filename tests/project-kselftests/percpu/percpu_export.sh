#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The project's own kselftest, posted nowhere (README.md, "The series"):
# per-CPU variables one module exports, with EXPORT_PER_CPU_SYMBOL() and
# EXPORT_PER_CPU_SYMBOL_GPL(), used from another module. A module reaches
# another's per-CPU variable through a symbol that is an offset, which the
# module loader relocates: percpu_export_user_test checks that every copy
# it reaches through per_cpu_ptr() and this_cpu_*() is the one
# percpu_export_test sees, and reports in one line how many copies it
# checked and how many were wrong. The test passes when that line says 4
# copies per possible CPU (two variables, before and after a this_cpu_*()
# update on every online CPU) and none wrong, and the kernel logged no
# warning meanwhile. scripts/build-kselftest.sh builds the two modules of
# percpu_export/ against the flavor's kernel and installs them beside this
# script, in the tree's percpu target.
#
# Written for busybox ash as well as for other POSIX shells.

DIR=$(dirname "$(readlink -f "$0")")
# shellcheck source=/dev/null
. "$DIR/../kselftest/ktap_helpers.sh"

modules=$DIR/percpu_export
reports='BUG:|WARNING:|Oops|Call Trace:|sleeping function called'

ktap_print_header
if [ "$(id -u)" -ne 0 ]; then
	ktap_skip_all "must run as root"
	exit "$KSFT_SKIP"
fi
if [ ! -f "$modules/percpu_export_user_test.ko" ]; then
	ktap_skip_all "percpu_export/*.ko not built (a kernel without modules?)"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 1

possible=$(awk -F, '{ n = 0; for (i = 1; i <= NF; i++) {
	split($i, r, "-"); n += (r[2] == "" ? 1 : r[2] - r[1] + 1) } print n }' \
	/sys/devices/system/cpu/possible)
want="$((4 * possible)) copies checked on $possible possible CPUs, 0 wrong"

rmmod percpu_export_user_test 2>/dev/null
rmmod percpu_export_test 2>/dev/null
mark="percpu_export.sh[$$]: begins"
echo "$mark" >/dev/kmsg
insmod "$modules/percpu_export_test.ko" ||
	ktap_exit_fail_msg "percpu_export_test.ko does not load"
# Its load fails when a copy is wrong; the result line says why.
insmod "$modules/percpu_export_user_test.ko" && rmmod percpu_export_user_test
rmmod percpu_export_test

log=$(dmesg | awk -v mark="$mark" 'seen { print } index($0, mark) { seen = 1 }')
result=$(printf '%s\n' "$log" | sed -n 's/.*percpu_export_user_test: result: //p' | tail -n 1)
found=$(printf '%s\n' "$log" | grep -E "$reports")
echo "# result: ${result:-none}"
if [ -n "$found" ]; then
	printf '%s\n' "$found" | sed 's/^/# /'
	ktap_test_fail "exported per-CPU variables: the kernel reported a problem"
elif [ "$result" != "$want" ]; then
	ktap_test_fail "exported per-CPU variables: expected '$want'"
else
	ktap_test_pass "exported per-CPU variables: every copy is the exporter's"
fi
ktap_finished
