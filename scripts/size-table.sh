#!/bin/bash
# Print, as a Markdown table, what a kernel image spends on code and on the
# tables a WARN and a static key add: the bytes of all text symbols (the
# .text section is padded to an alignment boundary, which hides growth),
# __bug_table (one entry a WARN or BUG site), __jump_table (one entry a
# static branch site) and .data..once (one byte a WARN_ONCE site where the
# architecture keeps its once-flags in data). Each image after the first
# also gets its difference to the first, and in per cent for code.
# Usage: size-table.sh NAME=VMLINUX...
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

[[ $# -ge 1 ]] || die "usage: size-table.sh NAME=VMLINUX..."
sections=(__bug_table __jump_table .data..once)

# The linker script brackets each table with symbols; some of the tables
# sit inside .data, so section headers do not show them.
table_bounds=(__start___bug_table:__stop___bug_table __start___jump_table:__stop___jump_table
	__start_once:__end_once)

# sizes VMLINUX: the code bytes, then each table's size (0 if absent).
# Addresses are subtracted in bash: awk's doubles cannot hold them exactly.
sizes() {
	local vmlinux=$1 bound start stop
	local -A addr
	while read -r value _ name; do addr[$name]=$value; done < <(nm "$vmlinux" | grep -E ' (__start_|__stop_|__end_)')
	nm -S -t d "$vmlinux" | awk '$3 ~ /^[tT]$/ { code += $2 } END { printf "%d", code }'
	for bound in "${table_bounds[@]}"; do
		start=${addr[${bound%:*}]:-0} stop=${addr[${bound#*:}]:-0}
		printf ' %d' $((16#$stop - 16#$start))
	done
	echo
}

echo "| image | code (text symbols) | ${sections[*]/%/ |}"
printf '|---|---:|%s\n' "$(printf -- '---:|%.0s' "${sections[@]}")"
first=()
for arg in "$@"; do
	name=${arg%%=*} vmlinux=${arg#*=}
	[[ -f $vmlinux ]] || die "$vmlinux is missing; build it first"
	read -ra now <<<"$(sizes "$vmlinux")"
	row="| $name |"
	for i in "${!now[@]}"; do
		cell=${now[$i]}
		if [[ ${#first[@]} -gt 0 ]]; then
			delta=$((now[i] - first[i]))
			cell+=" ($(printf '%+d' "$delta")"
			[[ $i -ne 0 ]] || cell+=", $(awk -v d="$delta" -v b="${first[0]}" 'BEGIN { printf "%+.2f%%", 100 * d / b }')"
			cell+=")"
		fi
		row+=" $cell |"
	done
	echo "$row"
	[[ ${#first[@]} -gt 0 ]] || first=("${now[@]}")
done
