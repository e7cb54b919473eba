#!/bin/bash
# Boot flavor FLAVOR in QEMU with its initramfs; the guest runs the tests and
# powers off. The serial console goes to build/logs/<flavor>.log. A guest
# that does not finish within BOOT_TIMEOUT seconds is killed and reported.
# Usage: boot.sh FLAVOR
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

flavor=${1:?usage: boot.sh FLAVOR}
out=${KERNEL_OUT:-$BUILD_DIR/kernel-$(flavor_kernel "$flavor")}
arch=$(flavor_arch "$flavor")
use_arch "$arch"
kernel=$out/$KERNEL_IMAGE
initrd=${INITRAMFS:-$BUILD_DIR/initramfs-$flavor.cpio}
log=${BOOT_LOG:-$LOG_DIR/$flavor.log}
qemu=${QEMU:-$QEMU_SYSTEM}
timeout=${BOOT_TIMEOUT:-300}

[[ -f $kernel ]] || die "$kernel is missing; run 'make kernel FLAVOR=$flavor' first"
[[ -f $initrd ]] || die "$initrd is missing; run 'make initramfs FLAVOR=$flavor' first"
command -v "$qemu" >/dev/null || die "$qemu not found; install it with: apt-get install $QEMU_PACKAGE"
mkdir -p "$LOG_DIR"

# Two vCPUs: as many as this machine has cores, so TCG's threads do not
# queue for them; enough for migration, hotplug and cross-CPU counting.
# BOOT_CPUS asks for others, as QEMU's -smp takes them ("8"); for many possible
# CPUs with few online, give -smp N and maxcpus= in BOOT_APPEND: x86 does
# not count the CPUs that -smp's maxcpus= adds disabled as possible.
cpus=${BOOT_CPUS:-2}
grep -q '^CONFIG_SMP=y' "$out/.config" || cpus=1
cmdline=$(flavor_field "$flavor" cmdline)

# KVM runs guests of the host's own architecture only.
accel=tcg
[[ -z ${QEMU:-} && $arch == "$(uname -m)" ]] && kvm_works "$qemu" "$kernel" && accel=kvm

qemu_command=("$qemu" "${QEMU_MACHINE[@]}" -accel "$accel" -m 1G -smp "$cpus"
	-nodefaults -display none -monitor none -serial stdio -no-reboot
	-kernel "$kernel" -initrd "$initrd"
	-append "console=$GUEST_CONSOLE panic=-1 $cmdline ${BOOT_APPEND:-}")
# The exact command beside the console, for the results to name.
printf '%q ' "${qemu_command[@]}" | sed 's/ $/\n/' >"${log%.log}.qemu"
progress "boot: $flavor, $arch, $cpus CPUs, $accel${cmdline:+, $cmdline}"
rc=0
timeout --kill-after=5 "$timeout" "${qemu_command[@]}" </dev/null >"$log" 2>&1 || rc=$?

if [[ $rc -eq 124 || $rc -eq 137 ]]; then
	echo "---- last 40 console lines of $log ----" >&2
	tail -n 40 "$log" >&2
	die "boot of flavor $flavor timed out after ${timeout}s; see $log"
fi
[[ $rc -eq 0 ]] || die "qemu exited with status $rc for flavor $flavor; see $log"
