#!/bin/busybox sh
# shellcheck shell=dash
# PID 1 of the test guest: mount the usual filesystems, run the test payload
# that make-initramfs.sh packed, then power off. Built-in KUnit suites have
# already run by the time this starts; their results are on the console.
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
echo "percpu-guest: user space up on $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs"

if [ -x /kselftest/run_kselftest.sh ]; then
	cd /kselftest && ./run_kselftest.sh
	cd /
fi

# The host checks for this line: without it the guest died or hung.
echo "percpu-guest: done"
reboot -f
