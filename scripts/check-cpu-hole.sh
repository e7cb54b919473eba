#!/bin/bash
# The BPF and perf fixes at the head of the series (postings bpf and perf)
# shown on the machine that has the bug: arm64, where smp_init_cpus()
# leaves out a CPU whose enable method fails and later CPUs stay possible,
# so cpu_possible_mask has a hole below nr_cpu_ids.
#
# QEMU's virt machine's device tree, dumped for 3 CPUs, gets an enable
# method no kernel knows on cpu@1, so CPU 1 is the hole. The flavor
# cpu-hole (arm64, NUMA, BPF, perf) is built from the base and from the
# fixes, and each boots the static tests/cpu-hole/cpu_hole_test.c as init:
#   - the base must show the bug: bpf_map_lookup_percpu_elem() of CPU 1
#     gives a pointer on all three per-CPU map types, and
#     perf_event_open(pid=0, cpu=1) does not fail with EINVAL (it oopses in
#     perf_event_alloc(), reading the hole's per_cpu(numa_node));
#   - with the fixes, every test passes and nothing oopses or warns.
# Builds in its own worktree (build/cpu-hole-src); about 6 minutes cold.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

flavor=cpu-hole
worktree=$BUILD_DIR/cpu-hole-src
work=$BUILD_DIR/cpu-hole
out=$BUILD_DIR/kernel-$flavor
use_arch "$(flavor_arch "$flavor")"
command -v dtc >/dev/null || die "dtc not found; run 'scripts/deps.sh arm64'"
command -v "$QEMU_SYSTEM" >/dev/null || die "$QEMU_SYSTEM not found; run 'scripts/deps.sh arm64'"
[[ -f /usr/aarch64-linux-gnu/lib/libc.a ]] || die "the arm64 C library is missing; run 'scripts/deps.sh arm64'"
need_base "base apply"

# The fixes are the postings bpf and perf, which come first in series.
fixes=$(posting_end_commit perf)
base_worktree "$worktree"
rm -rf "$work"
mkdir -p "$work" "$LOG_DIR"

# A device tree of QEMU's own for this machine, with cpu@1 left out by
# smp_init_cpus() ("Unsupported enable-method property").
"$QEMU_SYSTEM" "${QEMU_MACHINE[@]}" -machine dumpdtb="$work/virt.dtb" -smp 3 -m 512M \
	-display none >"$work/dumpdtb.log" 2>&1 || die "QEMU could not dump its device tree; see $work/dumpdtb.log"
dtc -q -I dtb -O dts -o "$work/virt.dts" "$work/virt.dtb"
awk '/cpu@1 \{/ { in_cpu1 = 1 } in_cpu1 && /enable-method/ { sub(/"psci"/, "\"none\""); in_cpu1 = 0; done = 1 } { print }
	END { if (!done) exit 1 }' "$work/virt.dts" >"$work/hole.dts" ||
	die "QEMU's device tree has no cpu@1 with an enable-method; see $work/virt.dts"
dtc -q -I dts -O dtb -o "$work/hole.dtb" "$work/hole.dts"

"${CROSS_COMPILE}gcc" -static -O2 -Wall -Wextra -Werror -o "$work/init" "$REPO_DIR/tests/cpu-hole/cpu_hole_test.c"

# build_and_boot COMMIT NAME: build the flavor at COMMIT, boot it, log to build/logs/cpu-hole-NAME.log.
build_and_boot() {
	local commit=$1 name=$2 log=$LOG_DIR/cpu-hole-$2.log
	git -C "$worktree" checkout -q --detach "$commit"
	progress "cpu-hole: building $name ($(git -C "$worktree" log -1 --format=%s))"
	KERNEL_SRC=$worktree KERNEL_OUT=$out BUILD_LOG=$LOG_DIR/build-$flavor-$name.log \
		"$REPO_DIR/scripts/build-kernel.sh" "$flavor"
	printf '%s\n' 'dir /dev 755 0 0' 'nod /dev/console 600 0 0 c 5 1' 'dir /sys 755 0 0' \
		"file /init $work/init 755 0 0" >"$work/initramfs.list"
	"$out/usr/gen_init_cpio" "$work/initramfs.list" >"$work/initramfs.cpio"
	progress "cpu-hole: booting $name with CPU 1 a hole"
	timeout --kill-after=5 120 "$QEMU_SYSTEM" "${QEMU_MACHINE[@]}" -dtb "$work/hole.dtb" -smp 3 -m 512M \
		-nodefaults -display none -monitor none -serial stdio -no-reboot \
		-kernel "$out/$KERNEL_IMAGE" -initrd "$work/initramfs.cpio" \
		-append "console=$GUEST_CONSOLE panic=-1" </dev/null >"$log" 2>&1 || true
	tr -d '\r' <"$log" >"$log.tmp" && mv "$log.tmp" "$log"
}

build_and_boot base base
build_and_boot "$fixes" fixes
git -C "$worktree" checkout -q --detach base

base_log=$LOG_DIR/cpu-hole-base.log fixes_log=$LOG_DIR/cpu-hole-fixes.log
problems=()
for log in "$base_log" "$fixes_log"; do
	grep -q '^# CPU 1 is a hole below nr_cpu_ids 3' "$log" ||
		problems+=("$(basename "$log"): the guest did not see CPU 1 as a hole")
	! grep -q '^not ok .*on possible CPU' "$log" ||
		problems+=("$(basename "$log"): a lookup on a possible CPU failed")
done
# The base: the bug, on every map type and in perf.
pointers=$(grep -c '^not ok .*lookup on CPU 1, not possible, gives NULL (got a pointer)' "$base_log" || true)
[[ $pointers -eq 3 ]] ||
	problems+=("the base gave a pointer for CPU 1 on $pointers of 3 map types; expected the bug on all")
if grep -q 'Unable to handle kernel' "$base_log"; then
	grep -q 'perf_event_alloc' "$base_log" ||
		problems+=("the base oopsed, but not in perf_event_alloc(); see $base_log")
	perf_on_base="oopses in perf_event_alloc()"
elif grep -q '^not ok .*perf_event_open' "$base_log"; then
	perf_on_base=$(grep -m1 '^not ok .*perf_event_open' "$base_log" | sed 's/.*(\(.*\))$/does not fail with EINVAL (\1)/')
else
	problems+=("perf_event_open() of CPU 1 failed with EINVAL on the base; see $base_log")
fi
# The fixes: everything passes.
grep -q '^# cpu-hole: done' "$fixes_log" || problems+=("the guest with the fixes did not finish; see $fixes_log")
! grep -q '^not ok' "$fixes_log" || problems+=("with the fixes: $(grep -m1 '^not ok' "$fixes_log")")
! grep -qE 'Unable to handle kernel|WARNING:|BUG:' "$fixes_log" ||
	problems+=("the kernel with the fixes oopsed or warned; see $fixes_log")

if [[ ${#problems[@]} -gt 0 ]]; then
	for p in "${problems[@]}"; do echo "FAIL: $p"; done
	die "${problems[0]}"
fi
echo "base: bpf_map_lookup_percpu_elem() of CPU 1 gives a pointer on 3 of 3 map types; perf_event_open() $perf_on_base"
echo "fixes: $(grep -c '^ok' "$fixes_log") of $(grep -c '^ok\|^not ok' "$fixes_log") pass: NULL for the hole, EINVAL from perf_event_open()"
