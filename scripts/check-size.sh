#!/bin/bash
# The debug checks must cost production kernels next to nothing when
# CONFIG_DEBUG_PERCPU is off: at the end of the debug posting (the mainline
# fixes before it included), vmlinux code of the preempt flavor (without
# the test suites, which the base tree does not have) may grow by at most
# SIZE_LIMIT bytes (default 256) over the base tree, and hot per_cpu_ptr()
# users and free_percpu() must disassemble the same. Also measured there:
# the option built in and off by default, as a distribution would ship it.
# The postings after it (drivers, the allocator's cache) are measured by
# their own checks. Three more cold builds, 36 minutes cold here: make
# test-extra (make test-full would not fit its 150 minutes with it).
#
# Builds base and the debug posting's end in a separate worktree
# (build/size-src), so the user's tree is never checked out over, and writes
# build/logs/size.report.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

limit=${SIZE_LIMIT:-256}
# Callers of per_cpu_ptr()/per_cpu() on hot or common paths.
hot_functions=(__percpu_counter_sum smp_call_function_many_cond nr_iowait free_percpu)
worktree=$BUILD_DIR/size-src
report=$LOG_DIR/size.report

need_base "base apply"
debug_end=$(posting_end_commit debug)
base_worktree "$worktree"
mkdir -p "$LOG_DIR"

# build_at COMMIT FLAVOR NAME: build vmlinux of COMMIT in FLAVOR (size-off:
# preempt without the suites, the option, tracing and KVM; size-debug: with
# the option built in and off by default) into build/kernel-NAME.
build_at() {
	local commit=$1 flavor=$2 name=$3
	git -C "$worktree" checkout -q --detach "$commit"
	KERNEL_SRC=$worktree KERNEL_OUT=$BUILD_DIR/kernel-$name \
		BUILD_LOG=$LOG_DIR/build-$name.log "$REPO_DIR/scripts/build-kernel.sh" "$flavor" vmlinux
}

# Bytes of code: the sizes of all text symbols. (The .text section itself is
# padded to an alignment boundary, so its size hides growth.)
text_size() {
	nm -S -t d "$BUILD_DIR/kernel-$1/vmlinux" | awk '$3 ~ /^[tT]$/ { sum += $2 } END { print sum }'
}

# Disassembly of one function with everything that moves when unrelated code
# grows (addresses, RIP displacements, absolute data addresses) taken out.
disassembly() {
	objdump -d --no-show-raw-insn --disassemble="$2" "$BUILD_DIR/kernel-$1/vmlinux" |
		sed -n '/^[0-9a-f]* <.*>:$/,$p' |
		sed -E -e 's/^ *[0-9a-f]+:\t//' -e 's/^[0-9a-f]+ </</' \
			-e 's/[0-9a-f]{16} </</g' -e 's/-?0x[0-9a-f]+\(%rip\)/(%rip)/g' \
			-e 's/# [0-9a-f]+ </# </' -e 's/[$]0xffffffff[0-9a-f]{8}/IMM_ADDR/g' \
			-e 's/-0x[0-9a-f]{8}\(/ADDR(/g'
}

progress "size: building base and the end of the debug posting"
build_at base size-off size-base
build_at "$debug_end" size-off size-off
build_at "$debug_end" size-debug size-debug
base_text=$(text_size size-base)
off_text=$(text_size size-off)
debug_text=$(text_size size-debug)
problems=()
exec 3>"$report"
say() { echo "$@"; echo "$@" >&3; }
say "== size: vmlinux code (text symbols), preempt flavor without test suites, base against the end of the debug posting =="
say "base $base_text bytes; debug posting $off_text ($((off_text - base_text)) bytes)"
say "debug posting with CONFIG_DEBUG_PERCPU built in (off by default): $debug_text ($((debug_text - off_text)) bytes over it without)"
say "$("$REPO_DIR/scripts/size-table.sh" "base=$BUILD_DIR/kernel-size-base/vmlinux" \
	"debug-posting=$BUILD_DIR/kernel-size-off/vmlinux" "debug-posting+DEBUG_PERCPU=$BUILD_DIR/kernel-size-debug/vmlinux")"
for fn in "${hot_functions[@]}"; do
	before=$(disassembly size-base "$fn")
	after=$(disassembly size-off "$fn")
	if [[ -z $before ]]; then
		problems+=("$fn is not in the base vmlinux")
	elif [[ $before == "$after" ]]; then
		say "$fn: same code in the debug posting ($(grep -c . <<<"$before") lines)"
	else
		say "$fn: code differs in the debug posting:"
		say "$(diff <(echo "$before") <(echo "$after") | head -20)"
		problems+=("$fn compiles differently in the debug posting")
	fi
done
[[ $((off_text - base_text)) -le $limit ]] ||
	problems+=("code grew by $((off_text - base_text)) bytes in the debug posting (limit $limit)")
for p in "${problems[@]}"; do say "FAIL: $p"; done
exec 3>&-
git -C "$worktree" checkout -q --detach base
[[ ${#problems[@]} -eq 0 ]] || die "${problems[0]}; see $report"
