#!/bin/busybox sh
# shellcheck shell=dash
# PID 1 of the test guest: mount the usual filesystems, run the test payload
# that make-initramfs.sh packed, then power off. Built-in KUnit suites have
# already run by the time this starts; their results are on the console.
/bin/busybox --install -s
# Debian's tools that stage-guest-tools.sh packed come before busybox's.
export PATH=/usr/local/bin:/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
# /run, also as /var/run: "ip netns" keeps its namespaces there.
mkdir -p /run /var
mount -t tmpfs tmpfs /run
ln -s /run /var/run
# devtmpfs has no /dev/std* links; kselftest's runner writes to /dev/stdout.
ln -s /proc/self/fd /dev/fd
ln -s /proc/self/fd/0 /dev/stdin
ln -s /proc/self/fd/1 /dev/stdout
ln -s /proc/self/fd/2 /dev/stderr
echo "percpu-guest: user space up on $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs"

# Test modules (suites built as =m) run when loaded; KUnit prints their
# results on the console, each module's as a KTAP document of its own.
if [ -s /etc/test-modules ]; then
	echo "percpu-guest: loading test modules: $(tr '\n' ' ' </etc/test-modules)"
	while read -r module; do
		insmod "$module" || echo "percpu-guest: loading $module failed"
	done </etc/test-modules
fi

# kselftest's runner calls "/usr/bin/timeout --foreground", an option
# busybox's timeout lacks: it gets Debian's timeout where the guest has it,
# else (a guest of another architecture than the host's) a wrapper that
# drops the option; the runner's timeout works the same here.
rm -f /usr/bin/timeout
if [ -x /usr/local/bin/timeout ]; then
	ln -s /usr/local/bin/timeout /usr/bin/timeout
else
	# shellcheck disable=SC2016 # the wrapper expands $1 and $@ itself
	printf '#!/bin/sh\n[ "$1" = --foreground ] && shift\nexec /bin/busybox timeout "$@"\n' >/usr/bin/timeout
	chmod 755 /usr/bin/timeout
fi

# The tests build-kselftest.sh picked. NAME=VALUE words on the kernel
# command line reach them as variables (the kernel gives them to init).
if [ -x /kselftest/run_kselftest.sh ]; then
	# shellcheck disable=SC2046 # one word per argument
	cd /kselftest && ./run_kselftest.sh $(cat kselftest-args)
	# A runner that exits non-zero lost or failed tests: the host checks.
	echo "percpu-guest: kselftest runner exited $?"
	cd /
fi

# What make bench packs beside the tests (make-initramfs.sh's GUEST_PAYLOAD).
[ -x /payload/run ] && /payload/run

# A second run of the named KUnit suites (percpu_guest_kunit_rerun=a,b on
# the kernel command line), as a developer reruns a suite through debugfs:
# it must pass again in the same boot. The console's log level is lowered
# meanwhile, so that only the results file, one KTAP document per suite,
# reaches the log; a panic (panic_on_warn) still would.
if [ -n "${percpu_guest_kunit_rerun:-}" ]; then
	level=$(cut -f1 /proc/sys/kernel/printk)
	for suite in $(echo "$percpu_guest_kunit_rerun" | tr , ' '); do
		if [ -e "/sys/kernel/debug/kunit/$suite/run" ]; then
			echo 1 >/proc/sys/kernel/printk
			echo run >"/sys/kernel/debug/kunit/$suite/run"
			echo "$level" >/proc/sys/kernel/printk
			echo "percpu-guest: second run of KUnit suite $suite:"
			cat "/sys/kernel/debug/kunit/$suite/results"
		else
			echo "percpu-guest: no KUnit suite $suite in debugfs to run again"
		fi
	done
fi

# Every taint flag the tests left, for check-log.sh to compare.
echo "percpu-guest: tainted $(cat /proc/sys/kernel/tainted)"

# The host checks for this line: without it the guest died or hung.
echo "percpu-guest: done"
reboot -f
