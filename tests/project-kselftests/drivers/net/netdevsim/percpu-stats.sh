#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The project's own kselftest, posted nowhere: upstream netdevsim counts in
# dstats since 6.17, so this guards the netdev core's dstats helpers, not
# netdevsim (README.md, "Tests"). scripts/build-kselftest.sh copies it into
# the installed drivers/net/netdevsim target, beside the tree's tests.
#
# netdevsim counts its traffic in the netdev core's per-CPU statistics
# (dstats). Check that they lose no update when every online CPU transmits
# at once: the pktgen thread of each online CPU sends on its own tx queue
# of netdevsim device A, linked to netdevsim device B, all at the same time.
# A's tx queue Q feeds B's rx queue Q, whose NAPI runs on the sending CPU.
#
# With S the packets pktgen reports as sent in a round, each PKT_SIZE bytes:
#   A: tx_packets + tx_dropped == S, tx_bytes == tx_packets * PKT_SIZE
#   B: rx_packets + rx_dropped == A's tx_packets,
#      rx_bytes == rx_packets * (PKT_SIZE - ETH_HLEN)
# B counts a frame once the forward to it has pulled the Ethernet header.
# A drops, and counts in tx_dropped, a frame that finds B's rx ring full:
# with B's NAPI slow to run (under PREEMPT_RT, whose softirqs run in
# preemptible threads, in QEMU TCG) a few hundred of 200000 may be, and
# every one of them must be counted.
# pktgen sends to a MAC address that is not B's, so B's stack drops what it
# receives without answering; IPv6 is off on both devices and they have no
# IPv4 address, so nothing else transmits on them.
#
# Both devices stay in the current network namespace, so the script needs
# no "ip netns": POSIX sh plus cat, grep, sed, sleep, readlink, dirname, id,
# "ip link set DEV up" and optionally modprobe (busybox has them all).
#
# Environment:
#   PKTGEN_COUNT  packets each CPU sends per round (default: 200000 in all,
#                 shared by the online CPUs, so that the run time does not
#                 grow with their number)
#   ROUNDS        rounds to run (default 1); every round must count exactly
# Each round prints "# round R: sent S counted C lost L pps P", C being A's
# tx_packets plus tx_dropped, for scripts that compare kernels.

DIR="$(dirname "$(readlink -f "$0")")"
# shellcheck source=../../../kselftest/ktap_helpers.sh
. "$DIR"/../../../kselftest/ktap_helpers.sh

count=${PKTGEN_COUNT:-}
total=200000
rounds=${ROUNDS:-1}
pkt_size=60
eth_hlen=14
nsim_sys=/sys/bus/netdevsim
pg=/proc/net/pktgen
id_a=$((1000 + $$ % 1000 * 2))
id_b=$((id_a + 1))
created=

skip_all() {
	ktap_skip_all "$1"
	exit "$KSFT_SKIP"
}

# fail_all DESCRIPTION REASON: report the current test as failed and stop.
fail_all() {
	ktap_test_fail "$1"
	ktap_exit_fail_msg "$2"
}

# shellcheck disable=SC2317,SC2329 # run by the EXIT trap
cleanup() {
	[ -w "$pg/pgctrl" ] && echo reset >"$pg/pgctrl" 2>/dev/null
	for id in $created; do
		echo "$id" >"$nsim_sys/del_device"
	done
}

is_number() {
	case "$1" in
	'' | *[!0-9]*) return 1 ;;
	esac
}

online_cpus() {
	read -r ranges </sys/devices/system/cpu/online
	IFS=,
	for range in $ranges; do
		cpu=${range%-*}
		while [ "$cpu" -le "${range#*-}" ]; do
			echo "$cpu"
			cpu=$((cpu + 1))
		done
	done
}

# nsim_new ID: a netdevsim device with one port and one queue per online
# CPU, deleted on exit.
nsim_new() {
	echo "$1 1 $nr_cpus" >"$nsim_sys/new_device" || return 1
	created="$created $1"
}

# nsim_netdev ID: the name of the device's netdev.
nsim_netdev() {
	command -v udevadm >/dev/null && udevadm settle
	ls "$nsim_sys/devices/netdevsim$1/net/"
}

nr_tx_queues() {
	n=0
	for queue in /sys/class/net/"$1"/queues/tx-*; do
		[ -e "$queue" ] && n=$((n + 1))
	done
	echo "$n"
}

dev_up() {
	ipv6=/proc/sys/net/ipv6/conf/$1/disable_ipv6
	if [ -e "$ipv6" ] && ! echo 1 >"$ipv6"; then
		return 1
	fi
	ip link set dev "$1" up
}

dev_stat() {
	cat "/sys/class/net/$1/statistics/$2"
}

# expect DESCRIPTION ACTUAL EXPECTED: one test, passed if the two are equal.
expect() {
	if [ "$2" = "$3" ]; then
		ktap_test_pass "$1"
	else
		ktap_print_msg "$1: got $2, expected $3"
		ktap_test_fail "$1"
	fi
}

# pgset FILE COMMAND: one pktgen command, refused when the write fails or
# pktgen's "Result:" line in FILE does not say OK.
pgset() {
	if ! echo "$2" >"$1" 2>/dev/null || ! grep -q '^Result: OK' "$1"; then
		ktap_print_msg "pktgen refused '$2' in $1: $(grep '^Result:' "$1")"
		return 1
	fi
}

# pg_field FILE FIELD: a number pktgen reports for a device.
pg_field() {
	case "$2" in
	sofar) re='^ *pkts-sofar: *\([0-9]*\) .*' ;;
	errors) re='^ *pkts-sofar: .* errors: *\([0-9]*\).*' ;;
	queue) re='^ *cur_queue_map: *\([0-9]*\).*' ;;
	pps) re='^ *\([0-9]*\)pps .*' ;;
	esac
	sed -n "s/$re/\\1/p" "$1"
}

ktap_print_header
[ "$(id -u)" -eq 0 ] || skip_all "must run as root"
if [ -n "$count" ] && { ! is_number "$count" || [ "$count" -eq 0 ]; }; then
	skip_all "PKTGEN_COUNT=$count is not a positive number"
fi
if ! is_number "$rounds" || [ "$rounds" -eq 0 ]; then
	skip_all "ROUNDS=$rounds is not a positive number"
fi
[ -d $nsim_sys ] || modprobe netdevsim 2>/dev/null
[ -w $nsim_sys/new_device ] || skip_all "no netdevsim (CONFIG_NETDEVSIM)"
[ -w $nsim_sys/link_device ] ||
	skip_all "netdevsim cannot link devices ($nsim_sys/link_device)"
[ -d $pg ] || modprobe pktgen 2>/dev/null
[ -w $pg/pgctrl ] || skip_all "no pktgen (CONFIG_NET_PKTGEN)"
cpus=$(online_cpus)
nr_cpus=$(echo "$cpus" | grep -c .)
[ "$nr_cpus" -ge 2 ] || skip_all "needs at least 2 online CPUs"
[ -n "$count" ] || count=$((total / nr_cpus))
for cpu in $cpus; do
	[ -e "$pg/kpktgend_$cpu" ] ||
		skip_all "no pktgen thread for CPU $cpu (online since pktgen loaded?)"
done

ktap_set_plan $((2 + 5 * rounds))
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

# A and B, up, then linked: the link turns both carriers on.
test_name="netdevsim devices with $nr_cpus queues, linked, carrier on"
for id in $id_a $id_b; do
	nsim_new "$id" || fail_all "$test_name" "cannot create netdevsim$id"
done
dev_a=$(nsim_netdev $id_a)
dev_b=$(nsim_netdev $id_b)
if [ -z "$dev_a" ] || [ -z "$dev_b" ]; then
	fail_all "$test_name" "netdevsim$id_a or netdevsim$id_b has no netdev"
fi
for dev in "$dev_a" "$dev_b"; do
	[ "$(nr_tx_queues "$dev")" -eq "$nr_cpus" ] ||
		fail_all "$test_name" "$dev has $(nr_tx_queues "$dev") tx queues"
	dev_up "$dev" || fail_all "$test_name" "cannot set $dev up"
done
ifindex_a=$(cat "/sys/class/net/$dev_a/ifindex")
ifindex_b=$(cat "/sys/class/net/$dev_b/ifindex")
# link_device takes "netnsfd:ifindex netnsfd:ifindex": fd 3 is our netns.
echo "3:$ifindex_a 3:$ifindex_b" 3</proc/self/ns/net >$nsim_sys/link_device ||
	fail_all "$test_name" "cannot link $dev_a and $dev_b"
for dev in "$dev_a" "$dev_b"; do
	[ "$(cat "/sys/class/net/$dev/carrier")" = 1 ] ||
		fail_all "$test_name" "$dev has no carrier"
done
ktap_test_pass "$test_name"
ktap_print_msg "$dev_a sends to $dev_b, $nr_cpus queues each"

# One pktgen device per CPU, on the queue of the CPU's rank. Without the
# SHARED flag pktgen hands each skb over to the driver, which forwards it.
test_name="pktgen set up on every online CPU"
queue=0
for cpu in $cpus; do
	thread=$pg/kpktgend_$cpu
	if ! pgset "$thread" rem_device_all ||
	   ! pgset "$thread" "add_device $dev_a@$cpu"; then
		fail_all "$test_name" "CPU $cpu: cannot add $dev_a"
	fi
	for cmd in "count $count" "pkt_size $pkt_size" "delay 0" \
		"clone_skb 0" "flag !SHARED" \
		"queue_map_min $queue" "queue_map_max $queue" \
		"dst 198.51.100.1" "dst_mac 02:00:00:00:00:01"; do
		pgset "$pg/$dev_a@$cpu" "$cmd" ||
			fail_all "$test_name" "CPU $cpu: cannot set up $dev_a@$cpu"
	done
	queue=$((queue + 1))
done
ktap_test_pass "$test_name"

round=1
while [ "$round" -le "$rounds" ]; do
	tx_packets=$(dev_stat "$dev_a" tx_packets)
	tx_bytes=$(dev_stat "$dev_a" tx_bytes)
	tx_dropped=$(dev_stat "$dev_a" tx_dropped)
	rx_packets=$(dev_stat "$dev_b" rx_packets)
	rx_bytes=$(dev_stat "$dev_b" rx_bytes)
	rx_dropped=$(dev_stat "$dev_b" rx_dropped)

	echo start >$pg/pgctrl

	tx_packets=$(($(dev_stat "$dev_a" tx_packets) - tx_packets))
	tx_bytes=$(($(dev_stat "$dev_a" tx_bytes) - tx_bytes))
	tx_dropped=$(($(dev_stat "$dev_a" tx_dropped) - tx_dropped))
	# B counts a packet, received or dropped, when its NAPI takes it off
	# the rx queue, which may not have happened yet for the last ones.
	tries=0
	while :; do
		rx_now=$(($(dev_stat "$dev_b" rx_packets) - rx_packets))
		rx_drop_now=$(($(dev_stat "$dev_b" rx_dropped) - rx_dropped))
		[ $((rx_now + rx_drop_now)) -ge "$tx_packets" ] ||
			[ "$tries" -ge 10 ] && break
		sleep 1
		tries=$((tries + 1))
	done
	rx_packets=$rx_now
	rx_bytes=$(($(dev_stat "$dev_b" rx_bytes) - rx_bytes))
	rx_dropped=$(($(dev_stat "$dev_b" rx_dropped) - rx_dropped))

	# What pktgen sent: every CPU its count, on its own queue.
	sent=0
	pps=0
	pktgen_ok=yes
	queue=0
	for cpu in $cpus; do
		file=$pg/$dev_a@$cpu
		sofar=$(pg_field "$file" sofar)
		errors=$(pg_field "$file" errors)
		used=$(pg_field "$file" queue)
		rate=$(pg_field "$file" pps)
		sent=$((sent + ${sofar:-0}))
		pps=$((pps + ${rate:-0}))
		if [ "${sofar:-0}" -ne "$count" ] || [ "${errors:-1}" -ne 0 ] ||
		   [ "${used:--1}" -ne "$queue" ]; then
			ktap_print_msg "CPU $cpu: sent ${sofar:-?} errors ${errors:-?}" \
				"on queue ${used:-?}, not $count on queue $queue"
			pktgen_ok=no
		fi
		queue=$((queue + 1))
	done

	counted=$((tx_packets + tx_dropped))
	ktap_print_msg "round $round: sent $sent counted $counted lost $((sent - counted)) pps $pps"
	ktap_print_msg "round $round: $dev_a tx_packets $tx_packets" \
		"tx_bytes $tx_bytes tx_dropped $tx_dropped, $dev_b rx_packets" \
		"$rx_packets rx_bytes $rx_bytes rx_dropped $rx_dropped"

	expect "round $round: pktgen sent $count packets from each CPU on its own queue" \
		"$sent sent, every CPU as asked: $pktgen_ok" \
		"$((count * nr_cpus)) sent, every CPU as asked: yes"
	expect "round $round: tx_packets plus tx_dropped count every packet sent" \
		"$counted" "$sent"
	expect "round $round: tx_bytes counts every byte transmitted" \
		"$tx_bytes" $((tx_packets * pkt_size))
	expect "round $round: peer rx_packets plus rx_dropped count every packet transmitted" \
		"$((rx_packets + rx_dropped))" "$tx_packets"
	expect "round $round: peer rx_bytes counts every byte past the Ethernet header" \
		"$rx_bytes" $((rx_packets * (pkt_size - eth_hlen)))
	round=$((round + 1))
done

ktap_finished
