#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of `make bench` (run by vm-init as /job/run.sh).  Two emulated
# functions of one emulator: the first bound to mlx5_core+mlx5_ib
# (upstream), the second to mlx5x, by driver_override.  Every workload runs
# on each driver in turn, ROUNDS times (A B A B ...).  Figures go to
# /job/bench.tsv: round TAB driver TAB metric TAB value TAB unit.
# Phase marks (/job/mark/N.req, acknowledged by the host's N.ack) let the
# host cut the emulator's trace and counters per phase: marks.tsv there.
# Knobs (job.env): ROUNDS CTL_SECS EV_ITERS PP_ITERS PERF_ITERS
# PERF_BW_ITERS MMIO_READS.
# The per-driver variables (BDF_x, DEV_x, KDRV_x) are set and read by eval.
# shellcheck disable=SC2034,SC2154

cd /job || exit 97
# shellcheck source=/dev/null
. ./job.env
. ./lib.sh
. ./suite.sh
mkdir -p "$LOGS" /job/mark
: > "$RES"
: > "$PERF"
OUT=/job/bench.tsv
: > "$OUT"
: > /job/ops.tsv
VB=/job/vbench
MARK_N=0
PERF_TIMEOUT=180

# mark NAME: a phase boundary the host stamps on the emulator's trace and
# counters before the guest goes on.
mark() {
	local n=$MARK_N end=$((SECONDS + 30))
	MARK_N=$((MARK_N + 1))
	echo "$1" > "/job/mark/$n.tmp" && mv "/job/mark/$n.tmp" "/job/mark/$n.req"
	while [ ! -e "/job/mark/$n.ack" ] && [ $SECONDS -lt $end ]; do
		sleep 0.05
	done
}

# fig ROUND DRIVER METRIC VALUE UNIT
fig() { [ -n "$4" ] && printf '%s\t%s\t%s\t%s\t%s\n' "$@" >> "$OUT"; }
# val FILE KEY: "KEY value" line of vbench output
val() { sed -n "s/^$2 //p" "$1" | head -n1; }

# the two functions and their drivers
FNS=$(for f in /sys/bus/pci/devices/*; do
	[ "$(cat "$f/vendor" 2>/dev/null)" = 0x15b3 ] && basename "$f"; done | sort)
# shellcheck disable=SC2086 # two PCI addresses
set -- $FNS
BDF_upstream=${1:-} BDF_mlx5x=${2:-}
DRVS="upstream mlx5x"
KDRV_upstream=mlx5_core
KDRV_mlx5x=mlx5x

setup() {
	local log
	log=$(logname setup)
	if [ -z "$BDF_mlx5x" ]; then
		record bench/setup fail "want two Mellanox functions: $FNS"
		return 1
	fi
	echo 64 > /proc/sys/vm/nr_hugepages
	echo mlx5_core > "/sys/bus/pci/devices/$BDF_upstream/driver_override"
	echo mlx5x > "/sys/bus/pci/devices/$BDF_mlx5x/driver_override"
	mark setup
	{
		modprobe -a ib_core ib_uverbs rdma_ucm &&
		timeout -k 5 120 modprobe mlx5_core &&
		timeout -k 5 120 modprobe mlx5_ib &&
		timeout -k 5 120 insmod /job/mlx5x.ko
	} > "$log" 2>&1 || { record bench/setup fail "loading: $(excerpt "$log")"; return 1; }
	local d
	for d in $DRVS; do
		eval "wait_fn_dev $d" || { record bench/setup fail "no ib device for $d: $(dmesg_tail mlx5)"; return 1; }
	done
	record bench/setup pass "upstream $BDF_upstream $DEV_upstream, mlx5x $BDF_mlx5x $DEV_mlx5x, $(nproc) vCPUs"
}

# wait_fn_dev DRIVER: DEV_<driver> once registered and its port ACTIVE
wait_fn_dev() {
	local bdf dev end=$((SECONDS + 120))
	eval "bdf=\$BDF_$1"
	while [ $SECONDS -lt $end ]; do
		# shellcheck disable=SC2012 # ib device names are plain
		dev=$(ls "/sys/bus/pci/devices/$bdf/infiniband" 2>/dev/null | head -n1)
		[ -n "$dev" ] && break
		sleep 0.2
	done
	[ -n "$dev" ] || return 1
	eval "DEV_$1=$dev"
	wait_port_active "$dev" 60
}

# irqs DRIVER: interrupts so far on the vectors of the driver's function
irqs() {
	local bdf
	eval "bdf=\$BDF_$1"
	awk -v b="$bdf" 'index($0, b) { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i }
		END { print s + 0 }' /proc/interrupts
}

# --- workloads: each runs on one driver (DRIVER, DEV, BDF) ---------------

w_bringup() {
	local o=$LOGS/b-$R-$D.txt kd
	eval "kd=\$KDRV_$D"
	mark "$R $D remove"
	$VB unbind "$kd" "$BDF" > "$o" 2>&1 || { say "unbind $D: $(cat "$o")"; return 1; }
	fig "$R" "$D" remove_ms "$(val "$o" ms)" ms
	mark "$R $D mmio"
	$VB mmio "$BDF" "$MMIO_READS" > "$o" 2>&1 &&
		fig "$R" "$D" emu_bar_read_us "$(val "$o" us_per_read)" us
	mark "$R $D probe"
	$VB bind "$kd" "$BDF" > "$o" 2>&1 || { say "bind $D: $(cat "$o")"; return 1; }
	fig "$R" "$D" probe_to_ibdev_ms "$(val "$o" ms)" ms
	mark "$R $D probed"
	eval "DEV_$D=$(val "$o" dev)"
	DEV=$(val "$o" dev)
	wait_port_active "$DEV" 60 || say "warning: $DEV port not ACTIVE"
}

CTL_OPS="pd mr4k mr2m mr64m mr256m cq rcqp udqp srq"
# One vbench runs every OP at one process, then at four (forked workers,
# nothing exec'd per figure) and writes the figures' phase marks itself.
w_ctl() {
	local o=$LOGS/c-$R-$D.txt tag op p n secs rate
	# shellcheck disable=SC2086 # the OP list
	VBENCH_MARK_N=$MARK_N VBENCH_MARK_PREFIX="$R $D" \
		timeout -k 5 900 $VB ctl "$DEV" "$CTL_SECS" 1,4 $CTL_OPS > "$o" 2>&1 ||
		say "ctl on $D: $(excerpt "$o")"
	while [ -e "/job/mark/$MARK_N.req" ]; do
		MARK_N=$((MARK_N + 1))
	done
	# shellcheck disable=SC2034 # secs: a column of the line, not used
	while read -r tag op p n secs rate; do
		[ "$tag" = ctl ] || continue
		fig "$R" "$D" "ctl_${op}_p$p" "$rate" ops/s
		printf '%s\t%s\t%s\t%s\n' "$R" "$D" "ctl_${op}_p$p" "$n" >> /job/ops.tsv
	done < "$o"
	mark "$R $D ctl-done"
}

w_event() {
	local o=$LOGS/e-$R-$D.txt i0 i1
	mark "$R $D evlat"
	i0=$(irqs "$D")
	if timeout -k 5 120 $VB evlat "$DEV" "$EV_ITERS" > "$o" 2>&1; then
		i1=$(irqs "$D")
		fig "$R" "$D" evlat_p50 "$(val "$o" p50_us)" us
		fig "$R" "$D" evlat_p99 "$(val "$o" p99_us)" us
		fig "$R" "$D" evlat_irqs_per_event "$(awk -v a="$i0" -v b="$i1" -v n="$EV_ITERS" 'BEGIN { printf "%.2f", (b - a) / n }')" irq/event
	else
		say "evlat on $D: $(excerpt "$o")"
	fi
	mark "$R $D evlat-done"
	if run_pair "bench/pp-$R-$D" 300 ibv_rc_pingpong -d "$DEV" -n "$PP_ITERS" -s 64 -e; then
		fig "$R" "$D" rc_pingpong_e_lat "$(sed -n 's/.* = \([0-9.]*\) usec\/iter.*/\1/p' "$PAIR_OUT")" usec/iter
	else
		say "pingpong -e on $D: $PAIR_ERR"
	fi
	perf_one send_lat_e lat "$PERF_ITERS" ib_send_lat -e
}

# perf_one NAME KIND ITERS PROGRAM...: one perftest pair on DEV
perf_one() {
	local name=$1 kind=$2 iters=$3 row
	shift 3
	if ! run_pair "bench/$name-$R-$D" "$PERF_TIMEOUT" "$@" -d "$DEV" -F -n "$iters"; then
		say "$name on $D: $PAIR_ERR"
		return
	fi
	row=$(awk '/#bytes/ { h = 1; next } h && $1 ~ /^[0-9]+$/ { print; exit }' "$PAIR_OUT")
	# shellcheck disable=SC2086
	set -- $row
	if [ "$kind" = lat ]; then
		fig "$R" "$D" "${name}_typical" "${5:-}" usec
		fig "$R" "$D" "${name}_p99" "${8:-}" usec
	elif [ "${3:-0}" = 0.00 ]; then
		# a peak of 0: perftest's cycle clock failed under TCG, no figure
		say "$name on $D: perftest printed 0.00 MiB/s; dropped"
	else
		fig "$R" "$D" "${name}_avg" "${4:-}" MiB/s
	fi
}

w_data() {
	perf_one send_lat lat "$PERF_ITERS" ib_send_lat
	perf_one write_bw bw "$PERF_BW_ITERS" ib_write_bw
	perf_one read_lat lat "$PERF_ITERS" ib_read_lat
}

say "bench: $ROUNDS rounds, drivers in turn: $DRVS"
if setup; then
	for ((R = 1; R <= ROUNDS; R++)); do
		for W in bringup ctl event data; do
			for D in $DRVS; do
				eval "BDF=\$BDF_$D DEV=\$DEV_$D"
				say "round $R/$ROUNDS: $W on $D ($DEV)"
				"w_$W"
			done
		done
	done
	record bench/figures pass "$(wc -l < "$OUT") figures"
	mark end
fi
save_dmesg
