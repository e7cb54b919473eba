#!/usr/bin/env bats
# Tests of the pipeline scripts: bad input gives one clear error line and
# leaves the user's data as it was.

load helpers

@test "base: a named tarball that does not exist is one error naming it" {
	export BASE_TARBALL=$SCRATCH/none/linux-source-7.3.tar.xz
	run "$SCRIPTS/base.sh"
	assert_one_error "BASE_TARBALL=$BASE_TARBALL does not exist"
	[ ! -e "$SRC_DIR" ]
}

# An apt-get stand-in: the machine's sources name one mirror per release;
# "download" writes a linux-source-7.3 package holding a small tarball.
# Every call's arguments are recorded in $SCRATCH/apt.calls.
fake_apt() {
	local bin=$SCRATCH/bin pkg=$SCRATCH/pkg
	mkdir -p "$bin" "$pkg/DEBIAN" "$pkg/usr/src"
	make_tarball "$pkg/usr/src/linux-source-7.3.tar.xz" 7.3.4
	printf 'Package: linux-source-7.3\nVersion: 7.3.4-1\nArchitecture: all\nMaintainer: t <t@t.invalid>\nDescription: t\n' \
		>"$pkg/DEBIAN/control"
	dpkg-deb -b "$pkg" "$SCRATCH/linux-source-7.3_7.3.4-1_all.deb" >/dev/null
	mkdir -p "$SCRATCH/bb/DEBIAN" "$SCRATCH/bb/bin"
	printf 'Package: busybox-static\nVersion: 1\nArchitecture: arm64\nMaintainer: t <t@t.invalid>\nDescription: t\n' \
		>"$SCRATCH/bb/DEBIAN/control"
	install -m 755 /dev/null "$SCRATCH/bb/bin/busybox"
	dpkg-deb -b "$SCRATCH/bb" "$SCRATCH/busybox-static_1_arm64.deb" >/dev/null
	cat >"$bin/apt-get" <<EOF
#!/bin/bash
echo "\$*" >>"$SCRATCH/apt.calls"
case " \$* " in
*" indextargets "*) printf 'bookworm-security http://security.example/debian-security/\nbookworm http://mirror.example/debian/\n' ;;
*" update "*) cp "\${2#*=}" "$SCRATCH/sources.list.used" ;;
*" download busybox-static:arm64 "*) cp "$SCRATCH/busybox-static_1_arm64.deb" . ;;
*" download "*) cp "$SCRATCH/linux-source-7.3_7.3.4-1_all.deb" . ;;
esac
EOF
	chmod +x "$bin/apt-get"
	export APT_GET=$bin/apt-get
}

@test "base: a fresh clone (no build/ yet) gets the base through a private apt setup" {
	[ -e /usr/src/linux-source-7.3.tar.xz ] && skip "the machine has linux-source-7.3 installed"
	fake_apt
	unset NO_INSTALL
	export BUILD_DIR=$SCRATCH/fresh/build LOG_DIR=$SCRATCH/fresh/build/logs SRC_DIR=$SCRATCH/fresh/build/linux
	# make run's first steps, in order.
	NO_INSTALL=1 "$SCRIPTS/deps.sh"
	run "$SCRIPTS/base.sh"
	[ "$status" -eq 0 ]
	git -C "$SRC_DIR" rev-parse -q --verify base
	[ -f "$BUILD_DIR/download/linux-source-7.3.tar.xz" ]
	# The mirror of the machine's own release, with the backports suite.
	grep -qx 'deb \[signed-by=[^]]*\] http://mirror.example/debian/ trixie-backports main' "$SCRATCH/sources.list.used"
	# apt's sources, lists and cache are private: the machine's stay as they were.
	grep -q ' download linux-source-7.3$' "$SCRATCH/apt.calls"
	while read -r call; do
		[[ $call == indextargets* ]] && continue
		[[ $call == *"Dir::Etc::SourceList=$BUILD_DIR/download/apt/sources.list "* ]]
		[[ $call == *"Dir::Etc::SourceParts=/dev/null "* ]]
		[[ $call == *"Dir::State::Lists=$BUILD_DIR/download/apt/lists "* ]]
		[[ $call == *"Dir::Cache=$BUILD_DIR/download/apt/cache "* ]]
	done <"$SCRATCH/apt.calls"
}

@test "base: a tarball that is not 7.3.y is refused and leaves nothing" {
	export BASE_TARBALL=$SCRATCH/linux.tar.xz
	make_tarball "$BASE_TARBALL" 5.10.0
	run "$SCRIPTS/base.sh"
	assert_one_error "holds Linux 5.10.0, not 7.3.y"
	[ ! -e "$SRC_DIR" ]
	[ ! -e "$SRC_DIR.unpack" ]
}

@test "base: another 7.3.y is used with a warning naming the tested release" {
	export BASE_TARBALL=$SCRATCH/linux.tar.xz
	make_tarball "$BASE_TARBALL" 7.3.1
	run "$SCRIPTS/base.sh"
	[ "$status" -eq 0 ]
	[[ $output == *"warning: base is Linux 7.3.1; the series was tested on 7.3.4"* ]]
	git -C "$SRC_DIR" rev-parse -q --verify base
}

@test "base: the base commit is the same on every run and a second run reuses it" {
	export BASE_TARBALL=$SCRATCH/linux.tar.xz
	make_tarball "$BASE_TARBALL" 7.3.4
	"$SCRIPTS/base.sh"
	first=$(git -C "$SRC_DIR" rev-parse base)
	run "$SCRIPTS/base.sh"
	[ "$status" -eq 0 ]
	[[ $output == *"already there"* ]]
	SRC_DIR=$SCRATCH/other "$SCRIPTS/base.sh"
	[ "$(git -C "$SCRATCH/other" rev-parse base)" = "$first" ]
}

@test "base: a tree it did not make is never replaced" {
	export BASE_TARBALL=$SCRATCH/linux.tar.xz
	make_tarball "$BASE_TARBALL" 7.3.4
	mkdir -p "$SRC_DIR" && echo mine >"$SRC_DIR/work"
	run "$SCRIPTS/base.sh"
	assert_one_error "was not made by this script"
	[ "$(cat "$SRC_DIR/work")" = mine ]
}

@test "apply: a patch that does not apply is named, the am aborted, the tree clean" {
	make_git_tree "$SRC_DIR"
	make_queue "$SRC_DIR"
	sed -i 's/^ int percpu;$/ int someone_else;/' "$QUEUE_DIR/patches/0001-"*.patch
	run "$SCRIPTS/apply.sh"
	assert_one_error "patch 0001-mm-percpu-one.patch does not apply"
	[ -z "$(git -C "$SRC_DIR" status --porcelain)" ]
	[ ! -d "$SRC_DIR/.git/rebase-apply" ]
}

@test "apply: series naming a missing patch is one error" {
	make_git_tree "$SRC_DIR"
	make_queue "$SRC_DIR"
	echo 0003-missing.patch >>"$QUEUE_DIR/series"
	run "$SCRIPTS/apply.sh"
	assert_one_error "0003-missing.patch, which does not exist"
}

@test "apply: the series lands on its own branch and export gives it back unchanged" {
	make_git_tree "$SRC_DIR"
	make_queue "$SRC_DIR"
	sed -i '1i # Tests' "$QUEUE_DIR/series"
	cp -a "$QUEUE_DIR" "$SCRATCH/before"
	"$SCRIPTS/apply.sh"
	[ "$(git -C "$SRC_DIR" rev-list --count base..percpu-series)" -eq 2 ]
	"$SCRIPTS/export.sh"
	diff -r "$SCRATCH/before" "$QUEUE_DIR"
}

@test "apply: commits not yet exported are never thrown away" {
	make_git_tree "$SRC_DIR"
	make_queue "$SRC_DIR"
	"$SCRIPTS/apply.sh"
	echo 'int mine;' >>"$SRC_DIR/mm/percpu.c"
	git -C "$SRC_DIR" commit -q -am "my work"
	mine=$(git -C "$SRC_DIR" rev-parse HEAD)
	echo '# changed' >>"$QUEUE_DIR/series"
	run "$SCRIPTS/apply.sh"
	assert_one_error "run 'make export'"
	[ "$(git -C "$SRC_DIR" rev-parse percpu-series)" = "$mine" ]
}

@test "apply: a dirty user tree is refused and left exactly as it was" {
	user=$SCRATCH/user
	make_git_tree "$user"
	make_queue "$user"
	echo 'int uncommitted;' >>"$user/mm/percpu.c"
	cp "$user/mm/percpu.c" "$SCRATCH/expected"
	head=$(git -C "$user" rev-parse HEAD)
	KERNEL_TREE=$user run "$SCRIPTS/apply.sh"
	assert_one_error "uncommitted changes"
	cmp "$user/mm/percpu.c" "$SCRATCH/expected"
	[ "$(git -C "$user" rev-parse HEAD)" = "$head" ]
	[ "$(git -C "$user" symbolic-ref --short HEAD)" = main ]
	! git -C "$user" rev-parse -q --verify percpu-series
}

@test "apply: a user tree gets a new branch; the user's branch is not touched" {
	user=$SCRATCH/user
	make_git_tree "$user"
	make_queue "$user"
	head=$(git -C "$user" rev-parse main)
	KERNEL_TREE=$user run "$SCRIPTS/apply.sh"
	[ "$status" -eq 0 ]
	[ "$(git -C "$user" rev-parse main)" = "$head" ]
	[ "$(git -C "$user" rev-list --count main..percpu-series)" -eq 2 ]
	KERNEL_TREE=$user run "$SCRIPTS/apply.sh"
	assert_one_error "branch percpu-series already exists"
}

@test "apply: a failed apply on a user tree returns to the user's branch" {
	user=$SCRATCH/user
	make_git_tree "$user"
	make_queue "$user"
	sed -i 's/^ int percpu;$/ int someone_else;/' "$QUEUE_DIR/patches/0001-"*.patch
	KERNEL_TREE=$user run "$SCRIPTS/apply.sh"
	assert_one_error "does not apply"
	[ "$(git -C "$user" symbolic-ref --short HEAD)" = main ]
	[ -z "$(git -C "$user" status --porcelain)" ]
	! git -C "$user" rev-parse -q --verify percpu-series
}

@test "export: a dirty tree is refused" {
	make_git_tree "$SRC_DIR"
	echo 'int dirty;' >>"$SRC_DIR/mm/percpu.c"
	run "$SCRIPTS/export.sh"
	assert_one_error "uncommitted changes"
}

@test "check-queue: a patch file the series does not name is reported" {
	make_git_tree "$SRC_DIR"
	make_queue "$SRC_DIR"
	touch "$QUEUE_DIR/patches/0009-stray.patch"
	run "$SCRIPTS/check-queue.sh"
	assert_one_error "0009-stray.patch"
}

# A QEMU stand-in that prints a console and never exits.
fake_hanging_qemu() {
	cat >"$SCRATCH/qemu" <<'QEMU'
#!/bin/bash
for i in $(seq 1 60); do echo "console line $i"; done
sleep 600
QEMU
	chmod +x "$SCRATCH/qemu"
	export CONFIGS_DIR=$SCRATCH/configs
	mkdir -p "$CONFIGS_DIR/flavors" "$BUILD_DIR/kernel-hang/arch/x86/boot"
	echo base.config >"$CONFIGS_DIR/flavors/hang"
	touch "$BUILD_DIR/kernel-hang/arch/x86/boot/bzImage" "$BUILD_DIR/initramfs-hang.cpio"
	echo CONFIG_SMP=y >"$BUILD_DIR/kernel-hang/.config"
}

@test "boot: a hanging guest is killed at the timeout with its last 40 lines" {
	fake_hanging_qemu
	QEMU=$SCRATCH/qemu BOOT_TIMEOUT=2 run "$SCRIPTS/boot.sh" hang
	assert_one_error "timed out after 2s"
	[[ $output == *"console line 60"* ]]
	[[ $output == *"console line 21"* ]]
	[[ $output != *"console line 20"$'\n'* ]]
	[ -f "$LOG_DIR/hang.log" ]
}

# fake_boot FLAVOR IMAGE FLAVOR_LINES: a built SMP kernel IMAGE (its path
# in the O= directory) and an initramfs for FLAVOR, whose file holds
# FLAVOR_LINES, and a QEMU stand-in ($SCRATCH/qemu) that records in
# $SCRATCH/qemu.args how it was started.
fake_boot() {
	printf '#!/bin/bash\necho "$*" >"%s/qemu.args"\n' "$SCRATCH" >"$SCRATCH/qemu"
	chmod +x "$SCRATCH/qemu"
	export CONFIGS_DIR=$SCRATCH/configs
	mkdir -p "$CONFIGS_DIR/flavors" "$(dirname "$BUILD_DIR/kernel-$1/$2")"
	printf '%s\n' "$3" >"$CONFIGS_DIR/flavors/$1"
	touch "$BUILD_DIR/kernel-$1/$2" "$BUILD_DIR/initramfs-$1.cpio"
	echo CONFIG_SMP=y >"$BUILD_DIR/kernel-$1/.config"
}

@test "boot: an arm64 flavor boots its Image on the virt machine's PL011 console" {
	fake_boot a64 arch/arm64/boot/Image "$(printf 'arch=arm64\nbase.config')"
	QEMU=$SCRATCH/qemu "$SCRIPTS/boot.sh" a64
	args=$(cat "$SCRATCH/qemu.args")
	[[ $args == "-machine virt -cpu cortex-a57 -accel tcg -m 1G -smp 2 "* ]]
	[[ $args == *"-kernel $BUILD_DIR/kernel-a64/arch/arm64/boot/Image "* ]]
	[[ $args == *"console=ttyAMA0 "* ]]
}

@test "arch: a flavor builds for x86_64 unless it names another arch, which must be known" {
	export CONFIGS_DIR=$SCRATCH/configs
	mkdir -p "$CONFIGS_DIR/flavors"
	echo base.config >"$CONFIGS_DIR/flavors/plain"
	printf 'arch=sparc\nbase.config\n' >"$CONFIGS_DIR/flavors/odd"
	[ "$(bash -c '. "$1"; flavor_arch plain' _ "$SCRIPTS/lib.sh")" = x86_64 ]
	run bash -c '. "$1"; use_arch "$(flavor_arch odd)"' _ "$SCRIPTS/lib.sh"
	assert_one_error "architecture 'sparc' is not supported"
}

# check-log needs the real tree's kunit.py.
use_real_tree() {
	[ -f "$REPO_DIR/build/linux/tools/testing/kunit/kunit.py" ] || skip "no base tree yet (make base)"
	export SRC_DIR=$REPO_DIR/build/linux
	mkdir -p "$LOG_DIR"
	cp "$REPO_DIR/tests/data/boot-ok.log" "$LOG_DIR/fake.log"
	# The suites the recorded log ran.
	export KUNIT_SUITES=$SCRATCH/kunit-suites
	echo percpu >"$KUNIT_SUITES"
}

@test "check-log: a clean boot with passing suites passes" {
	use_real_tree
	run "$SCRIPTS/check-log.sh" fake
	[ "$status" -eq 0 ]
	[[ $output == *"KUnit 2 passed, 0 failed, 0 skipped"* ]]
}

@test "check-log: a WARNING nobody asked for fails the boot" {
	use_real_tree
	sed -i '/percpu-guest: done/i WARNING: CPU: 1 PID: 1 at mm/percpu.c:1 pcpu_alloc+0x1/0x2' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "unexpected kernel reports"
}

@test "check-log: a report inside a provoked-report window passes" {
	use_real_tree
	sed -i '/percpu-guest: done/i provoked report begins: some_case\npercpu: free_percpu() of a static per-CPU variable\nWARNING: at some_case+0x1/0x2, CPU#0: kunit_try_catch/9\nprovoked report ends: some_case' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	[ "$status" -eq 0 ]
}

@test "check-log: a report after a provoked-report window fails" {
	use_real_tree
	sed -i '/percpu-guest: done/i provoked report begins: some_case\nprovoked report ends: some_case\nWARNING: at pcpu_alloc+0x1/0x2, CPU#0: swapper/0/1' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "unexpected kernel reports"
}

@test "check-log: a provoked-report window that never closes fails" {
	use_real_tree
	sed -i '/percpu-guest: done/i provoked report begins: some_case\nBUG: kernel NULL pointer dereference' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "never closed"
}

# add_kasan_suite AFTER: a passing KASAN suite in the fake log, whose case
# provoked a report, followed by the line AFTER (none if empty).
add_kasan_suite() {
	sed -i -e '3s/1\.\.1/1..2/' -e "/^ok 1 percpu/a\\
    KTAP version 1\\
    # Subtest: kasan\\
    1..1\\
BUG: KASAN: percpu-use-after-free in percpu_uaf_read+0x1/0x2\\
    ok 1 percpu_uaf_read\\
ok 2 kasan${1:+\\
$1}" "$LOG_DIR/fake.log"
}

# fake_flavor_fails_on_base CASE: the fake flavor names CASE as failing on
# the base too.
fake_flavor_fails_on_base() {
	export CONFIGS_DIR=$SCRATCH/configs
	mkdir -p "$CONFIGS_DIR/flavors"
	printf 'base.config\nkunit-fails-on-base=%s\n' "$1" >"$CONFIGS_DIR/flavors/fake"
}

@test "check-log: a case that fails on the base too, as the flavor says, counts as skipped" {
	use_real_tree
	fake_flavor_fails_on_base percpu.per_cpu_static_copies_are_independent
	sed -i -e 's/^    ok 2 per_cpu_static_copies_are_independent/    not ok 2 per_cpu_static_copies_are_independent/' \
		-e 's/^ok 1 percpu/not ok 1 percpu/' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	[ "$status" -eq 0 ]
	[[ $output == *"KUnit 1 passed, 0 failed, 1 skipped"* ]]
}

@test "check-log: another failing case, or a named one that passes, fails the flavor" {
	use_real_tree
	fake_flavor_fails_on_base percpu.per_cpu_static_copies_are_independent
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "did not fail"
	sed -i -e 's/^    ok 1 per_cpu_static_is_lvalue_on_every_possible_cpu/    not ok 1 per_cpu_static_is_lvalue_on_every_possible_cpu/' \
		-e 's/^    ok 2 per_cpu_static_copies_are_independent/    not ok 2 per_cpu_static_copies_are_independent/' \
		-e 's/^ok 1 percpu/not ok 1 percpu/' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "KUnit reported failures"
}

@test "check-log: a KASAN report while the KASAN suite runs passes" {
	use_real_tree
	add_kasan_suite ''
	run "$SCRIPTS/check-log.sh" fake
	[ "$status" -eq 0 ]
	[[ $output == *"KUnit 3 passed, 0 failed, 0 skipped"* ]]
}

@test "check-log: a KASAN report after the KASAN suite fails" {
	use_real_tree
	add_kasan_suite 'BUG: KASAN: percpu-out-of-bounds in pcpu_alloc+0x1/0x2'
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "unexpected kernel reports"
}

@test "check-log: an LKDTM run is a window up to its kselftest result" {
	use_real_tree
	sed -i '/percpu-guest: done/i # selftests: lkdtm: PERCPU_FREE_DOUBLE.sh\n[   9.1] lkdtm: Performing direct entry PERCPU_FREE_DOUBLE\n[   9.2] WARNING: at lkdtm_PERCPU_FREE_DOUBLE+0x1/0x2\n# [   9.2] WARNING: at lkdtm_PERCPU_FREE_DOUBLE+0x1/0x2\nok 1 selftests: lkdtm: PERCPU_FREE_DOUBLE.sh' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	[ "$status" -eq 0 ]
}

@test "check-log: an LKDTM window closes on a serial console's CRLF lines" {
	use_real_tree
	sed -i '/percpu-guest: done/i [   9.1] lkdtm: Performing direct entry PERCPU_FREE_DOUBLE\r\n[   9.2] WARNING: at lkdtm_PERCPU_FREE_DOUBLE+0x1/0x2\r\nok 1 selftests: lkdtm: PERCPU_FREE_DOUBLE.sh\r' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	[ "$status" -eq 0 ]
}

@test "check-log: an LKDTM window opens when a kernel message shares the console line" {
	use_real_tree
	sed -i '/percpu-guest: done/i # lkdtm: Performing direct entry PERCPU_FREE_DOUBLEclocksource: Watchdog remote CPU 1 read timed out\n[   9.2] WARNING: at lkdtm_PERCPU_FREE_DOUBLE+0x1/0x2\nok 1 selftests: lkdtm: PERCPU_FREE_DOUBLE.sh' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	[ "$status" -eq 0 ]
}

@test "check-log: a report after an LKDTM run's result line fails" {
	use_real_tree
	sed -i '/percpu-guest: done/i [   9.1] lkdtm: Performing direct entry PERCPU_FREE_DOUBLE\nok 1 selftests: lkdtm: PERCPU_FREE_DOUBLE.sh\n[   9.3] WARNING: at pcpu_alloc+0x1/0x2' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "unexpected kernel reports"
}

@test "check-log: an LKDTM run whose result never comes fails" {
	use_real_tree
	sed -i '/percpu-guest: done/i [   9.1] lkdtm: Performing direct entry PERCPU_FREE_DOUBLE\nok 1 selftests: lkdtm: PERCPU_FREE_STATIC.sh' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "never closed"
}

@test "check-log: a PREEMPT_RT kernel whose version line lacks PREEMPT_RT fails" {
	use_real_tree
	export CONFIGS_DIR=$SCRATCH/configs
	mkdir -p "$CONFIGS_DIR/flavors" "$BUILD_DIR/kernel-fake"
	echo base.config >"$CONFIGS_DIR/flavors/fake"
	echo CONFIG_PREEMPT_RT=y >"$BUILD_DIR/kernel-fake/.config"
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "lacks PREEMPT_RT"
	sed -i '1i Linux version 7.3.4+ (percpu@series) #1 SMP PREEMPT_RT Sat Jan  1 00:00:00 UTC 2000' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	[ "$status" -eq 0 ]
}

@test "check-log: a guest that never finished fails" {
	use_real_tree
	sed -i '/percpu-guest: done/d' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "never finished"
}

@test "check-log: a failing KUnit case fails the boot" {
	use_real_tree
	sed -i 's/^    ok 2 /    not ok 2 /' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "KUnit reported failures"
}

@test "config: an option whose dependencies are unmet is named" {
	[ -f "$REPO_DIR/build/linux/Makefile" ] || skip "no base tree yet (make base)"
	export CONFIGS_DIR=$SCRATCH/configs
	mkdir -p "$CONFIGS_DIR/flavors"
	cp "$REPO_DIR/configs/base.config" "$CONFIGS_DIR/"
	printf 'CONFIG_KASAN_INLINE=y\n' >"$CONFIGS_DIR/wish.config"
	printf 'base.config\nwish.config\n' >"$CONFIGS_DIR/flavors/wish"
	run "$SCRIPTS/config-kernel.sh" wish "$REPO_DIR/build/linux" "$BUILD_DIR/kernel-wish"
	assert_one_error "CONFIG_KASAN_INLINE=y (got unset)"
}

@test "apply: after a failed apply, a fixed queue applies" {
	make_git_tree "$SRC_DIR"
	make_queue "$SRC_DIR"
	cp "$QUEUE_DIR/patches/0002-"*.patch "$SCRATCH/good.patch"
	sed -i 's/^ int percpu_one;$/ int someone_else;/' "$QUEUE_DIR/patches/0002-"*.patch
	run "$SCRIPTS/apply.sh"
	assert_one_error "patch 0002-mm-percpu-two.patch does not apply"
	cp "$SCRATCH/good.patch" "$QUEUE_DIR/patches/0002-"*.patch
	"$SCRIPTS/apply.sh"
	[ "$(git -C "$SRC_DIR" rev-list --count base..percpu-series)" -eq 2 ]
}

@test "apply: a user tree in the middle of a git am is refused" {
	user=$SCRATCH/user
	make_git_tree "$user"
	make_queue "$user"
	mkdir -p "$user/.git/rebase-apply"
	KERNEL_TREE=$user run "$SCRIPTS/apply.sh"
	assert_one_error "git am or rebase in progress"
}

@test "check-log: a lockdep report fails the boot" {
	use_real_tree
	sed -i '/percpu-guest: done/i INFO: trying to register non-static key.' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "unexpected kernel reports"
}

@test "size: a tree without base is one error saying what to run" {
	mkdir -p "$SRC_DIR"
	git -C "$SRC_DIR" init -q
	run "$SCRIPTS/check-size.sh"
	assert_one_error "no base in $SRC_DIR; run 'make base apply' first"
}

@test "kselftest: a target the tree does not have is named" {
	make_git_tree "$SRC_DIR"
	run "$SCRIPTS/build-kselftest.sh" preempt
	assert_one_error "kselftest target 'drivers/net/netdevsim' is not in $SRC_DIR"
}

# kselftest_run [RESULT...]: a run_kselftest.sh run as the guest prints it,
# its plan taken from the arguments, each "ok NAME" or "not ok NAME",
# then its totals and its exit status (KSELFTEST_PLAN, KSELFTEST_EXIT
# override them), before "percpu-guest: done" in the recorded log.
kselftest_run() {
	local n=0 pass=0 fail=0 result run
	run="TAP version 13\\n1..${KSELFTEST_PLAN:-$#}\\n"
	for result in "$@"; do
		n=$((n + 1))
		run+="${result% *} $n selftests: percpu: ${result##* }\\n"
		if [[ $result == not* ]]; then fail=$((fail + 1)); else pass=$((pass + 1)); fi
	done
	run+="# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:0 error:0\\n"
	run+="percpu-guest: kselftest runner exited ${KSELFTEST_EXIT:-$((fail > 0))}"
	sed -i "/percpu-guest: done/i $run" "$LOG_DIR/fake.log"
}

@test "check-log: a kselftest that fails fails the boot" {
	use_real_tree
	kselftest_run "ok a.sh" "not ok percpu_debug.sh"
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "1 kselftest(s) failed"
	[[ $output == *"kselftest 1 passed, 1 failed, 0 skipped"* ]]
}

@test "check-log: passing kselftests pass, and are counted in the results" {
	use_real_tree
	kselftest_run "ok a.sh" "ok b.sh"
	run "$SCRIPTS/check-log.sh" fake
	[ "$status" -eq 0 ]
	[ "$(jq -c .tests.kselftest "$LOG_DIR/fake.results.json")" = '{"passed":2,"failed":0,"skipped":0}' ]
	[ "$(jq -r .result "$LOG_DIR/fake.results.json")" = pass ]
}

@test "check-log: a kselftest the runner planned and never reported fails the boot" {
	use_real_tree
	KSELFTEST_PLAN=3 kselftest_run "ok a.sh" "ok b.sh"
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "the kselftest runner planned 3 tests and reported 2"
}

@test "check-log: a kselftest runner that exits non-zero fails the boot" {
	use_real_tree
	KSELFTEST_EXIT=1 kselftest_run "ok a.sh"
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "the kselftest runner exited with status 1, not 0"
}

@test "check-log: kselftest totals that are not the runner's result lines fail the boot" {
	use_real_tree
	kselftest_run "ok a.sh" "ok b.sh"
	sed -i 's/^# Totals: pass:2 fail:0 /# Totals: pass:1 fail:1 /' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "the kselftest runner's totals (passed, failed, skipped: 1 1 0) are not its result lines' (2 0 0)"
}

@test "check-log: a guest that does not say how the kselftest runner exited fails the boot" {
	use_real_tree
	kselftest_run "ok a.sh"
	sed -i '/^percpu-guest: kselftest runner exited/d' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "the guest printed no 'percpu-guest: kselftest runner exited' line"
}

@test "check-log: kselftests installed for a guest that never ran them fail the boot" {
	use_real_tree
	mkdir -p "$BUILD_DIR/kselftest-fake"
	echo "-c percpu" >"$BUILD_DIR/kselftest-fake/kselftest-args"
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "kselftests were installed for the guest but their runner never started"
}

@test "check-log: a flavor's kernel must end with the taint flags it names" {
	use_real_tree
	export CONFIGS_DIR=$SCRATCH/configs
	mkdir -p "$CONFIGS_DIR/flavors"
	printf 'tainted=262144\n' >"$CONFIGS_DIR/flavors/fake"
	sed -i '/percpu-guest: done/i percpu-guest: tainted 262656' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "the kernel ended tainted '262656', not 262144"
	sed -i 's/^percpu-guest: tainted 262656$/percpu-guest: tainted 262144/' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	[ "$status" -eq 0 ]
}

@test "check-log: a suite the flavor runs twice that is not in debugfs fails the boot" {
	use_real_tree
	sed -i '/percpu-guest: done/i percpu-guest: no KUnit suite percpu in debugfs to run again' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "KUnit suites the flavor runs twice were not in debugfs"
}

@test "check-log: a failed kselftest's failed cases are shown" {
	use_real_tree
	sed -i '/percpu-guest: done/i TAP version 13\n1..1\n# selftests: percpu: percpu_debug.sh\n# ok 1 first case\n# not ok 2 second case\n# # got 3, expected 4\nnot ok 1 selftests: percpu: percpu_debug.sh # exit=1' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	[[ $output == *$'# not ok 2 second case\n# # got 3, expected 4'* ]]
	[[ $output != *"# ok 1 first case"* ]]
}

# A selftests tree whose install puts percpu/t.sh and
# lkdtm/PERCPU_FREE_DOUBLE.sh in place, and an empty drivers/net/netdevsim,
# into which the project's own percpu-stats.sh goes.
fake_selftests() {
	local dir=$SRC_DIR/tools/testing/selftests
	mkdir -p "$dir/percpu" "$dir/drivers/net/netdevsim" "$dir/lkdtm"
	printf 'install:\n\tmkdir -p $(KSFT_INSTALL_PATH)/percpu $(KSFT_INSTALL_PATH)/drivers/net/netdevsim $(KSFT_INSTALL_PATH)/lkdtm\n\ttouch $(KSFT_INSTALL_PATH)/percpu/t.sh $(KSFT_INSTALL_PATH)/lkdtm/PERCPU_FREE_DOUBLE.sh\n' >"$dir/Makefile"
	export KSELFTEST_TARGETS=$SCRATCH/kselftest-targets
	printf '# a comment\npercpu\ndrivers/net/netdevsim:percpu-stats.sh\nlkdtm:PERCPU_FREE_DOUBLE.sh host-tools\n' >"$KSELFTEST_TARGETS"
}

@test "kselftest: whole targets and single tests become run_kselftest.sh arguments" {
	make_git_tree "$SRC_DIR"
	fake_selftests
	"$SCRIPTS/build-kselftest.sh" preempt
	[ "$(cat "$BUILD_DIR/kselftest-preempt/kselftest-args")" = "-c percpu -t drivers/net/netdevsim:percpu-stats.sh -t lkdtm:PERCPU_FREE_DOUBLE.sh " ]
}

@test "kselftest: an option a target's config sets that the kernel lacks is one error, unless listed with its reason" {
	make_git_tree "$SRC_DIR"
	fake_selftests
	printf 'CONFIG_PERCPU_TORTURE_TEST=m\nCONFIG_SMP=y\n' >"$SRC_DIR/tools/testing/selftests/percpu/config"
	mkdir -p "$BUILD_DIR/kernel-preempt"
	printf 'CONFIG_SMP=y\n# CONFIG_PERCPU_TORTURE_TEST is not set\n' >"$BUILD_DIR/kernel-preempt/.config"
	export KSELFTEST_CONFIG_DIFFERENCES=$SCRATCH/differences
	echo 'percpu up PERCPU_TORTURE_TEST: another flavor' >"$KSELFTEST_CONFIG_DIFFERENCES"
	run "$SCRIPTS/build-kselftest.sh" preempt
	assert_one_error "the preempt kernel lacks what these kselftest targets' configs set: percpu:CONFIG_PERCPU_TORTURE_TEST;"
	echo 'percpu * SMP,PERCPU_TORTURE_TEST: a reason' >"$KSELFTEST_CONFIG_DIFFERENCES"
	"$SCRIPTS/build-kselftest.sh" preempt
	# The lazy flavor boots the preempt kernel: a line for either counts.
	echo 'percpu preempt PERCPU_TORTURE_TEST: a reason' >"$KSELFTEST_CONFIG_DIFFERENCES"
	"$SCRIPTS/build-kselftest.sh" lazy
}

@test "kselftest: the project's own tests go into their installed targets and the list" {
	make_git_tree "$SRC_DIR"
	fake_selftests
	"$SCRIPTS/build-kselftest.sh" preempt
	local installed=$BUILD_DIR/kselftest-preempt
	cmp "$installed/drivers/net/netdevsim/percpu-stats.sh" \
		"$REPO_DIR/tests/project-kselftests/drivers/net/netdevsim/percpu-stats.sh"
	[ -x "$installed/drivers/net/netdevsim/percpu-stats.sh" ]
	grep -qxF drivers/net/netdevsim:percpu-stats.sh "$installed/kselftest-list.txt"
	# A target this run did not install gets none of them.
	printf 'install:\n\tmkdir -p $(KSFT_INSTALL_PATH)/percpu\n' \
		>"$SRC_DIR/tools/testing/selftests/Makefile"
	printf 'percpu\n' >"$KSELFTEST_TARGETS"
	"$SCRIPTS/build-kselftest.sh" preempt
	[ ! -e "$installed/drivers" ]
}

@test "kselftest: a test that needs the host's tools is left out of a guest of another arch" {
	make_git_tree "$SRC_DIR"
	fake_selftests
	export CONFIGS_DIR=$SCRATCH/configs
	mkdir -p "$CONFIGS_DIR/flavors"
	printf 'arch=arm64\nbase.config\n' >"$CONFIGS_DIR/flavors/a64"
	run "$SCRIPTS/build-kselftest.sh" a64
	[ "$status" -eq 0 ]
	[[ $output == *"lkdtm:PERCPU_FREE_DOUBLE.sh needs the host's tools"* ]]
	[ "$(cat "$BUILD_DIR/kselftest-a64/kselftest-args")" = "-c percpu -t drivers/net/netdevsim:percpu-stats.sh " ]
}

@test "kselftest: a flavor with kselftests=none gets none" {
	make_git_tree "$SRC_DIR"
	export CONFIGS_DIR=$SCRATCH/configs
	mkdir -p "$CONFIGS_DIR/flavors" "$BUILD_DIR/kselftest-quiet"
	printf 'kernel=preempt\nkselftests=none\n' >"$CONFIGS_DIR/flavors/quiet"
	run "$SCRIPTS/build-kselftest.sh" quiet
	[ "$status" -eq 0 ]
	[ ! -e "$BUILD_DIR/kselftest-quiet" ]
}

@test "kselftest: a flavor with kselftests=TARGET gets that target's lines only" {
	make_git_tree "$SRC_DIR"
	fake_selftests
	export CONFIGS_DIR=$SCRATCH/configs
	mkdir -p "$CONFIGS_DIR/flavors"
	printf 'kernel=preempt\nkselftests=lkdtm\n' >"$CONFIGS_DIR/flavors/picky"
	"$SCRIPTS/build-kselftest.sh" picky
	[ "$(cat "$BUILD_DIR/kselftest-picky/kselftest-args")" = "-t lkdtm:PERCPU_FREE_DOUBLE.sh " ]
}

@test "cross builds: an unknown target is one error naming the known ones" {
	make_git_tree "$SRC_DIR"
	touch "$SRC_DIR/mm/percpu-debug.c"
	run "$SCRIPTS/check-cross-builds.sh" sparc
	assert_one_error "unknown target 'sparc'; use: x86_64 i386 arm64 riscv64 ppc64le s390x m68k"
}

@test "kselftest: a single test its target does not install is named" {
	make_git_tree "$SRC_DIR"
	fake_selftests
	rm "$SRC_DIR/tools/testing/selftests/Makefile"
	printf 'install:\n\tmkdir -p $(KSFT_INSTALL_PATH)/percpu $(KSFT_INSTALL_PATH)/drivers/net/netdevsim\n' \
		>"$SRC_DIR/tools/testing/selftests/Makefile"
	printf 'percpu\ndrivers/net/netdevsim:absent.sh\n' >"$KSELFTEST_TARGETS"
	run "$SCRIPTS/build-kselftest.sh" preempt
	assert_one_error "kselftest absent.sh is not installed by target drivers/net/netdevsim"
}

@test "bench: a round count that is not a number is one error" {
	BENCH_ROUNDS=five run "$SCRIPTS/bench.sh"
	assert_one_error "BENCH_ROUNDS=five is not a number"
}

@test "bench: no rounds, no counting boots and no possible CPUs is one error" {
	BENCH_ROUNDS=0 BENCH_COUNT_CPUS=0 BENCH_POSSIBLE_CPUS= run "$SCRIPTS/bench.sh"
	assert_one_error "leave nothing to measure"
}

@test "bench: a number of possible CPUs given twice is one error" {
	BENCH_COUNT_CPUS=8 BENCH_POSSIBLE_CPUS="8 64" run "$SCRIPTS/bench.sh"
	assert_one_error "BENCH_POSSIBLE_CPUS holds 8 twice, or as BENCH_COUNT_CPUS too"
}

@test "bench: a vCPU count for the counting boots that is not a number is one error" {
	BENCH_COUNT_CPUS=eight run "$SCRIPTS/bench.sh"
	assert_one_error "BENCH_COUNT_CPUS=eight is not a number up to 254"
}

@test "bench: a tree without the series' workload tests is one error saying what to run" {
	make_git_tree "$SRC_DIR"
	run "$SCRIPTS/bench.sh"
	assert_one_error "run 'make apply' first"
}

@test "export-license: a flavor with no kernel built is one error saying what to run" {
	run "$SCRIPTS/check-export-license.sh" preempt
	assert_one_error "run 'make kernel FLAVOR=preempt' first"
}

@test "boot: a flavor with kernel= boots that flavor's kernel with its own cmdline" {
	printf '#!/bin/bash\necho "$*" >"%s/qemu.args"\n' "$SCRATCH" >"$SCRATCH/qemu"
	chmod +x "$SCRATCH/qemu"
	export CONFIGS_DIR=$SCRATCH/configs
	mkdir -p "$CONFIGS_DIR/flavors" "$BUILD_DIR/kernel-full/arch/x86/boot"
	printf 'base.config\ncmdline=preempt=full\n' >"$CONFIGS_DIR/flavors/full"
	printf 'kernel=full\ncmdline=preempt=lazy\n' >"$CONFIGS_DIR/flavors/lazy"
	touch "$BUILD_DIR/kernel-full/arch/x86/boot/bzImage" "$BUILD_DIR/initramfs-lazy.cpio"
	echo CONFIG_SMP=y >"$BUILD_DIR/kernel-full/.config"
	QEMU=$SCRATCH/qemu "$SCRIPTS/boot.sh" lazy
	args=$(cat "$SCRATCH/qemu.args")
	[[ $args == *"-kernel $BUILD_DIR/kernel-full/arch/x86/boot/bzImage "* ]]
	[[ $args == *"-initrd $BUILD_DIR/initramfs-lazy.cpio "* ]]
	[[ $args == *" preempt=lazy "* ]]
	[[ $args != *"preempt=full"* ]]
}

# fake_console_qemu FIRST LATER: a QEMU stand-in whose first boot prints
# FIRST and every later one LATER; $SCRATCH/boots counts the boots.
fake_console_qemu() {
	cat >"$SCRATCH/qemu" <<QEMU
#!/bin/bash
echo x >>"$SCRATCH/boots"
if [[ \$(wc -l <"$SCRATCH/boots") -eq 1 ]]; then printf '%b\\n' '$1'; else printf '%b\\n' '$2'; fi
QEMU
	chmod +x "$SCRATCH/qemu"
}

@test "boot: an int3 oops before user space boots once more, the first log kept beside" {
	fake_boot tcg arch/x86/boot/bzImage base.config
	fake_console_qemu 'Oops: int3' 'percpu-guest: user space up'
	QEMU=$SCRATCH/qemu run bash -c ". '$SCRIPTS/lib.sh'; boot_tcg_retry tcg '$LOG_DIR/tcg.log' '^percpu-guest: user space up'"
	[ "$status" -eq 0 ]
	[[ $output == *"booting again"* ]]
	[ "$(wc -l <"$SCRATCH/boots")" -eq 2 ]
	grep -q '^Oops: int3' "$LOG_DIR/tcg.log.tcg-int3"
	grep -q '^percpu-guest: user space up' "$LOG_DIR/tcg.log"
}

@test "boot: an int3 oops after user space is up stands, and so does a second one" {
	fake_boot tcg arch/x86/boot/bzImage base.config
	fake_console_qemu 'percpu-guest: user space up\nOops: int3' 'Oops: int3'
	QEMU=$SCRATCH/qemu bash -c ". '$SCRIPTS/lib.sh'; boot_tcg_retry tcg '$LOG_DIR/tcg.log' '^percpu-guest: user space up'"
	[ "$(wc -l <"$SCRATCH/boots")" -eq 1 ]
	[ ! -e "$LOG_DIR/tcg.log.tcg-int3" ]
	rm "$SCRATCH/boots"
	fake_console_qemu 'Oops: int3' 'Oops: int3'
	QEMU=$SCRATCH/qemu bash -c ". '$SCRIPTS/lib.sh'; boot_tcg_retry tcg '$LOG_DIR/tcg.log'" 2>/dev/null
	[ "$(wc -l <"$SCRATCH/boots")" -eq 2 ]
	grep -q '^Oops: int3' "$LOG_DIR/tcg.log"
}

@test "boot: BOOT_CPUS is what QEMU's -smp gets, two vCPUs without it" {
	fake_boot smp arch/x86/boot/bzImage base.config
	QEMU=$SCRATCH/qemu "$SCRIPTS/boot.sh" smp
	[[ $(cat "$SCRATCH/qemu.args") == *" -smp 2 "* ]]
	BOOT_CPUS=2,maxcpus=64 QEMU=$SCRATCH/qemu "$SCRIPTS/boot.sh" smp
	[[ $(cat "$SCRATCH/qemu.args") == *" -smp 2,maxcpus=64 "* ]]
}

@test "check-log: a kernel that did not run in the flavor's preemption model fails" {
	use_real_tree
	export CONFIGS_DIR=$SCRATCH/configs
	mkdir -p "$CONFIGS_DIR/flavors"
	printf 'base.config\ncmdline=preempt=lazy\n' >"$CONFIGS_DIR/flavors/fake"
	sed -i '1i Dynamic Preempt: full' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	assert_one_error "did not print 'Dynamic Preempt: lazy'"
	sed -i '1i Dynamic Preempt: lazy' "$LOG_DIR/fake.log"
	run "$SCRIPTS/check-log.sh" fake
	[ "$status" -eq 0 ]
}

@test "test: an unknown TEST_SET is one error before anything runs" {
	TEST_SET=fast run "$SCRIPTS/test.sh"
	assert_one_error "TEST_SET=fast is not known"
	[ ! -e "$LOG_DIR/test/deps.log" ]
}

@test "deps: in a fresh clone, the arm64 busybox comes through a private apt setup that knows arm64" {
	fake_apt
	unset NO_INSTALL
	export BUILD_DIR=$SCRATCH/fresh/build
	run "$SCRIPTS/fetch-guest-busybox.sh" arm64
	[ "$status" -eq 0 ]
	[ -x "$BUILD_DIR/busybox-arm64/bin/busybox" ]
	grep -q 'APT::Architectures::=arm64' "$SCRATCH/apt.calls"
	while read -r call; do
		[[ $call == indextargets* ]] && continue
		[[ $call == *"Dir::Etc::SourceList=$BUILD_DIR/busybox-arm64.apt/sources.list "* ]]
		[[ $call == *"Dir::State::Lists=$BUILD_DIR/busybox-arm64.apt/lists "* ]]
	done <"$SCRATCH/apt.calls"
}

@test "guest tools: a host program and the libraries ldd lists land in the stage" {
	export GUEST_TOOLS=$SCRATCH/guest-tools
	printf '# comment\ncomm coreutils\n' >"$GUEST_TOOLS"
	mkdir -p "$SCRATCH/stage"
	"$SCRIPTS/stage-guest-tools.sh" "$SCRATCH/stage"
	[ -x "$SCRATCH/stage/usr/local/bin/comm" ]
	ldd "$(command -v comm)" | grep -q libc.so.6
	[ -n "$(find "$SCRATCH/stage" -name 'libc.so.6')" ]
	[ -n "$(find "$SCRATCH/stage" -name 'ld-linux*')" ]
}

@test "guest tools: a program the host lacks is one error naming its package" {
	export GUEST_TOOLS=$SCRATCH/guest-tools
	printf 'no-such-tool-here somepackage\n' >"$GUEST_TOOLS"
	mkdir -p "$SCRATCH/stage"
	run "$SCRIPTS/stage-guest-tools.sh" "$SCRATCH/stage"
	assert_one_error "'no-such-tool-here' is not installed on this machine; run 'make deps' (Debian package somepackage)"
}

@test "summarize: totals, the first report of each misuse kind and the driver's figures" {
	mkdir -p "$LOG_DIR"
	printf '%s\r\n' '[    1.5] percpu: per_cpu_ptr() of CPU 2, which is not possible (possible: 0-1)' \
		'# percpu: free_percpu() of a misaligned pointer' \
		'[    2.0] percpu: per_cpu_ptr() of CPU 9, which is not possible (possible: 0-1)' \
		'# selftests: drivers/net/netdevsim: percpu-stats.sh' \
		'# # round 1: sent 10 counted 10 lost 0 pps 5' \
		'ok 1 selftests: drivers/net/netdevsim: percpu-stats.sh' \
		'# selftests: net/hsr: prp_master_stats.sh' \
		'# # round 1: sent 20 counted 19 lost 1 pps 7' >"$LOG_DIR/fake.log"
	echo '== fake: KUnit 3 passed, 0 failed, 0 skipped; kselftest 1 passed, 0 failed, 0 skipped ==' >"$LOG_DIR/fake.report"
	run "$SCRIPTS/summarize.sh" fake
	[ "$status" -eq 0 ]
	[[ $output == *"KUnit 3 passed, 0 failed, 0 skipped; kselftest 1 passed"* ]]
	[[ $output == *"bad CPU number:            percpu: per_cpu_ptr() of CPU 2,"* ]]
	[[ $output != *"CPU 9"* ]]
	# The echo of a report by a test ("# percpu: ...") is not the kernel's.
	[[ $output == *"misaligned free:           not seen"* ]]
	# Each driver's rounds under its own label.
	[[ $output == *"netdevsim, per-CPU dstats upstream:"$'\n'"    round 1: sent 10 counted 10 lost 0 pps 5"* ]]
	[[ $output == *"HSR/PRP master, converted by the series:"$'\n'"    round 1: sent 20 counted 19 lost 1 pps 7"* ]]
}

@test "summarize: a flavor that has not booted is one error" {
	run "$SCRIPTS/summarize.sh" nothing-here
	assert_one_error "no log or report for flavor nothing-here"
}

# postings_series LINE...: a series of these lines, each "@N" standing for
# an (empty) patch file 000N-p.patch.
postings_series() {
	local line
	mkdir -p "$QUEUE_DIR/patches"
	: >"$QUEUE_DIR/series"
	for line in "$@"; do
		if [[ $line == @* ]]; then
			echo "000${line#@}-p.patch" >>"$QUEUE_DIR/series"
			touch "$QUEUE_DIR/patches/000${line#@}-p.patch"
		else
			echo "$line" >>"$QUEUE_DIR/series"
		fi
	done
}

@test "postings: banners give each posting its base, prefixes and patches" {
	postings_series '# posting: one' '# topic' @1 '' '# posting: two on=one prefix=RFC,net' @2 @3
	run bash -c ". '$SCRIPTS/lib.sh'; series_postings"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "one base - 0001-p.patch" ]
	[ "${lines[1]}" = "two one RFC,net 0002-p.patch 0003-p.patch" ]
}

@test "postings: a patch before the first banner is one error" {
	postings_series @1 '# posting: one' @2
	run bash -c ". '$SCRIPTS/lib.sh'; series_postings"
	assert_one_error "0001-p.patch comes before the first"
}

@test "postings: on= must name an earlier posting" {
	postings_series '# posting: one on=two' @1 '# posting: two' @2
	run bash -c ". '$SCRIPTS/lib.sh'; series_postings"
	assert_one_error "not an earlier posting"
}

@test "postings: more than 15 patches in one posting is one error" {
	postings_series '# posting: big'
	for i in $(seq 10 25); do echo "00$i-p.patch" >>"$QUEUE_DIR/series"; done
	run bash -c ". '$SCRIPTS/lib.sh'; series_postings"
	assert_one_error "big has 16 patches; split it"
}

@test "check-queue: a posting without its cover letter is one error" {
	postings_series '# posting: one' @1 '# posting: two' @2
	mkdir -p "$QUEUE_DIR/postings/one" "$QUEUE_DIR/postings/two"
	for f in cover recipients; do
		echo x >"$QUEUE_DIR/postings/one/$f"
	done
	echo x >"$QUEUE_DIR/postings/two/recipients"
	run "$SCRIPTS/check-queue.sh"
	assert_one_error "posting two has no postings/two/cover"
	echo x >"$QUEUE_DIR/postings/two/cover"
	run "$SCRIPTS/check-queue.sh"
	[ "$status" -eq 0 ]
	[[ $output == *"as 2 postings" ]]
}

@test "check-queue: a wrong posting banner stops it with one error" {
	postings_series @1 '# posting: one' @2
	run "$SCRIPTS/check-queue.sh"
	assert_one_error "0001-p.patch comes before the first"
}

# image_object FILE CODE BUG: an object with CODE bytes of text and a bug
# table of BUG bytes between the linker script's bounds.
image_object() {
	printf '%s\n' '.text' '.globl f' '.type f, @function' 'f:' ".fill $2, 1, 0x90" ".size f, $2" \
		'.data' '.globl __start___bug_table' '__start___bug_table:' ".fill $3, 1, 0" \
		'.globl __stop___bug_table' '__stop___bug_table:' | as -o "$1" -
}

@test "size-table: each image's code and tables, and the growth over the first" {
	image_object "$SCRATCH/a.o" 100 24
	image_object "$SCRATCH/b.o" 150 48
	run "$SCRIPTS/size-table.sh" "base=$SCRATCH/a.o" "series=$SCRATCH/b.o"
	[ "$status" -eq 0 ]
	[[ ${lines[2]} == "| base | 100 | 24 | 0 | 0 |" ]]
	[[ ${lines[3]} == "| series | 150 (+50, +50.00%) | 48 (+24) | 0 (+0) | 0 (+0) |" ]]
	run "$SCRIPTS/size-table.sh" "base=$SCRATCH/missing.o"
	assert_one_error "missing.o is missing; build it first"
}

@test "README's send recipe leaves the sender as the only author and signer" {
	local repo=$SCRATCH/send start recipe project
	project=$(. "$SCRIPTS/lib.sh" && echo "$PROJECT_SENDER")
	make_git_tree "$repo"
	start=$(git -C "$repo" rev-parse HEAD)
	for n in 1 2; do
		echo "$n" >"$repo/f$n"
		git -C "$repo" add "f$n"
		git -C "$repo" commit -q --author="$project" -m "patch $n" -m "Signed-off-by: $project"
	done
	recipe=$(sed -n '/^    project=/,/^    git rebase/p' "$REPO_DIR/README.md" | sed 's/^    //')
	[[ $recipe == *'git rebase "$start"'* ]]
	(cd "$repo" && unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL &&
		git config user.name "Jane Sender" && git config user.email jane@example.org &&
		eval "$recipe" >/dev/null 2>&1)
	run git -C "$repo" log --format='%an <%ae>|%(trailers:key=Signed-off-by,separator=;)' "$start"..
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	for line in "${lines[@]}"; do
		[[ $line == "Jane Sender <jane@example.org>|Signed-off-by: Jane Sender <jane@example.org>" ]]
	done
}

# judge-kasan-vs-base.sh on the consoles of one make kasan-vs-base run
# (tests/data/kasan-vs-base/: from user space up), and on copies broken
# the way a wrong kernel would break them.
kasan_consoles=$REPO_DIR/tests/data/kasan-vs-base

@test "kasan-vs-base: the recorded consoles pass, the series' four reports named" {
	run "$SCRIPTS/judge-kasan-vs-base.sh" "$kasan_consoles/base.log" "$kasan_consoles/series.log"
	[ "$status" -eq 0 ]
	[[ ${lines[-4]} == "  percpu-use-after-free percpu_read_after_free" ]]
	[[ ${lines[-3]} == "  percpu-use-after-free percpu_write_after_free_other_cpu" ]]
	[[ ${lines[-2]} == "  percpu-out-of-bounds percpu_write_past_end" ]]
	[[ ${lines[-1]} == "  percpu-use-after-free percpu_read_static_after_unload" ]]
}

@test "kasan-vs-base: a report on the base fails" {
	{ cat "$kasan_consoles/base.log"; grep -m1 'BUG: KASAN' "$kasan_consoles/series.log"; } >"$SCRATCH/base.log"
	run "$SCRIPTS/judge-kasan-vs-base.sh" "$SCRATCH/base.log" "$kasan_consoles/series.log"
	assert_one_error "the base's KASAN kernel reported: percpu-use-after-free percpu_read_after_free; (none expected)"
}

@test "kasan-vs-base: a misuse the series does not report fails" {
	grep -v 'BUG: KASAN: percpu-out-of-bounds' "$kasan_consoles/series.log" >"$SCRATCH/series.log"
	run "$SCRIPTS/judge-kasan-vs-base.sh" "$kasan_consoles/base.log" "$SCRATCH/series.log"
	assert_one_error "the series' KASAN kernel reported: percpu-use-after-free percpu_read_after_free;percpu-use-after-free percpu_write_after_free_other_cpu;percpu-use-after-free percpu_read_static_after_unload; instead of"
}

@test "kasan-vs-base: a series kernel that stops at a report fails" {
	sed '/^percpu_kasan_misuse: done/,$d' "$kasan_consoles/series.log" >"$SCRATCH/series.log"
	run "$SCRIPTS/judge-kasan-vs-base.sh" "$kasan_consoles/base.log" "$SCRATCH/series.log"
	assert_one_error "the series' KASAN kernel did not run on after the misuses"
}

@test "kasan-vs-base: a report without the area's stacks fails" {
	grep -v '^Freed at:' "$kasan_consoles/series.log" >"$SCRATCH/series.log"
	run "$SCRIPTS/judge-kasan-vs-base.sh" "$kasan_consoles/base.log" "$SCRATCH/series.log"
	assert_one_error "the series' reports give 3 allocation and 0 free stacks, not 3 and 2"
}

# The README is what a newcomer runs from: whatever it shows must exist.
readme=$REPO_DIR/README.md

# makefile_targets: the Makefile's targets, one a line.
makefile_targets() {
	sed -n -E 's/^([a-z][a-z0-9-]*):.*/\1/p' "$REPO_DIR/Makefile"
}

@test "README: at most 300 lines, the quick start on its first screen" {
	[ "$(wc -l <"$readme")" -le 300 ]
	head -n 60 "$readme" | grep -q '^    make run '
	head -n 60 "$readme" | grep -q '^    == summary: flavor preempt =='
}

@test "README: every make target it shows is in the Makefile, and make help lists every target" {
	local target shown targets
	targets=$(makefile_targets)
	# In code: `make X`, or an indented command line.
	shown=$(grep -oE '(^    |`)make [a-z][a-z0-9-]*' "$readme" | awk '{ print $2 }' | sort -u)
	[ -n "$shown" ]
	for target in $shown; do
		grep -qx "$target" <<<"$targets" || { echo "README shows make $target, which the Makefile lacks"; false; }
	done
	run make -s -C "$REPO_DIR" help
	[ "$status" -eq 0 ]
	for target in $targets; do
		grep -qE "^  make $target +[^ ]" <<<"$output" || { echo "make help lacks $target"; false; }
	done
	# A bare make prints the list and starts nothing.
	run make -s -C "$REPO_DIR"
	[[ ${lines[0]} == "  make help "* ]]
}

@test "README: every script it names exists" {
	local name names
	names=$(grep -oE '[a-z][a-z0-9_-]*\.(sh|py)\b' "$readme" | sort -u)
	[ -n "$names" ]
	for name in $names; do
		# The project's scripts and tests, or a kselftest the patches add.
		[[ -n $(find "$REPO_DIR/scripts" "$REPO_DIR/tests" -name "$name" -print -quit) ]] ||
			grep -q "^+++ b/.*/$name\$" "$REPO_DIR"/patches/*.patch ||
			[[ $name == kunit.py || $name == merge_config.sh ]] ||
			{ echo "README names $name, which is nowhere"; false; }
	done
	for name in $(grep -oE 'scripts/[a-z][a-z0-9_.-]*' "$readme" | sort -u); do
		[ -e "$REPO_DIR/$name" ] || { echo "README names $name, which does not exist"; false; }
	done
}

@test "README: the outside tools it shows are installed by deps.sh" {
	local tool
	for tool in b4 patatt git-email; do
		grep -qE "^[[:space:]].*\b$tool\b" "$SCRIPTS/deps.sh" || { echo "deps.sh does not install $tool"; false; }
	done
	command -v b4
	command -v patatt
	[ -x "$(git --exec-path)/git-send-email" ]
}

# Consoles of real 7.3 boots, kept under tests/data/consoles/, judged as
# their flavor: what make test saw, and a failing one.
recorded_console() {
	use_real_tree
	xz -dc "$REPO_DIR/tests/data/consoles/$1.log.xz" >"$LOG_DIR/$2.log"
}

@test "check-log: a recorded kasan console of a kernel without red zones fails on exactly its two cases" {
	recorded_console kasan-oob-check-broken kasan
	run "$SCRIPTS/check-log.sh" kasan
	assert_one_error "KUnit reported failures"
	[[ $output == *"not ok 72 percpu_oob_right"* || $output == *"[FAILED] percpu_oob_right"* ]]
	[[ $output == *"== kasan: KUnit 93 passed, 2 failed, 25 skipped;"* ]]
	[ "$(jq -c '[.result, .tests.kunit]' "$LOG_DIR/kasan.results.json")" = '["fail",{"passed":93,"failed":2,"skipped":25}]' ]
}

# fragments FLAVOR: the configs/ fragments a flavor file lists, in order.
fragments() {
	grep -vE '^(#|$)|=' "$REPO_DIR/configs/flavors/$1"
}

@test "flavors: the size check's kernels stay the preempt flavor's, less the suites, the option, tracing and KVM" {
	[ "$(fragments size-off)" = "$(fragments preempt | grep -vxE '(tests(-as-modules)?|debug-percpu|tracing|kvm-x86)\.config')" ]
	[ "$(fragments size-debug)" = "$(fragments size-off; printf 'debug-percpu.config\ndebug-percpu-by-param.config')" ]
	[ "$(fragments bench-counts)" = "$(fragments bench; echo bench-counts.config)" ]
}

@test "flavors: every fragment a flavor lists exists, and every flavor is in the README's table" {
	local file flavor fragment
	for file in "$REPO_DIR"/configs/flavors/*; do
		flavor=${file##*/}
		for fragment in $(fragments "$flavor"); do
			[ -f "$REPO_DIR/configs/$fragment" ] || { echo "$flavor lists $fragment, which configs/ lacks"; false; }
		done
		grep -qE "^\| .*\`$flavor\`.* \|" "$REPO_DIR/README.md" || { echo "the README's flavors table lacks $flavor"; false; }
	done
}

@test "check-log: the recorded preempt console of make test passes, its counts in the results" {
	recorded_console preempt preempt
	run "$SCRIPTS/check-log.sh" preempt
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.result, .tests]' "$LOG_DIR/preempt.results.json")" = \
		'["pass",{"kunit":{"passed":37,"failed":0,"skipped":0},"kselftest":{"passed":12,"failed":0,"skipped":0}}]' ]
	# The parser's own view of it.
	run "$SCRIPTS/parse-console.sh" "$LOG_DIR/preempt.log"
	[ "$(jq -c '[.guest_done, .preempt_model, .kselftest.plan, .kselftest.runner_status, (.unexpected_reports | length)]' <<<"$output")" = '[true,"full",12,0,0]' ]
}
