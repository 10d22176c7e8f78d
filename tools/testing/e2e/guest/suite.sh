# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The common e2e suite, the same for every lane.  Sourced by run.sh after
# the lane's setup has exported DEV (the RDMA device under test) and GIDX
# (GID index for RoCE lanes; empty on InfiniBand, where LIDs are used).
# Knobs (job.env): PP_SIZES PP_ITERS PP_TIMEOUT PERF_ITERS PERF_BW_ITERS
# PERF_TIMEOUT PY_TIMEOUT PY_ONLY PY_EXCLUDE SUITE_PARTS.

# devinfo_field LOG KEY: the value of "KEY: value" in ibv_devinfo output.
devinfo_field() {
	sed -n "s/^[[:space:]]*$2:[[:space:]]*//p" "$1" | head -n1
}

suite_devinfo() {
	local log
	log=$(logname devinfo)
	timeout -k 5 60 ibv_devinfo -v -d "$DEV" > "$log" 2>&1
	local rc=$?
	if [ $rc -ne 0 ]; then
		record devinfo fail "ibv_devinfo -v $(rc_detail $rc): $(excerpt "$log")"
	elif ! grep -q "hca_id:[[:space:]]*$DEV\$" "$log"; then
		record devinfo fail "$DEV not listed: $(excerpt "$log")"
	elif ! grep -q 'state:[[:space:]]*PORT_ACTIVE' "$log"; then
		record devinfo fail "port 1 not PORT_ACTIVE: $(devinfo_field "$log" state)"
	else
		record devinfo pass "fw_ver $(devinfo_field "$log" fw_ver), $(devinfo_field "$log" link_layer), active_mtu $(devinfo_field "$log" active_mtu | cut -d' ' -f1), port_lid $(devinfo_field "$log" port_lid)"
	fi
}

# pingpong MODE SIZE: ibv_rc_pingpong, both ends in this guest.
suite_pingpong_one() {
	local mode=$1 size=$2 name ev=
	[ "$mode" = event ] && ev=-e
	name=pingpong/$mode/s$size
	if run_pair "$name" "$PP_TIMEOUT" ibv_rc_pingpong -d "$DEV" ${GIDX:+-g "$GIDX"} \
		-n "$PP_ITERS" -s "$size" $ev; then
		pingpong_record "$name" "$PP_ITERS iters"
	else
		record "$name" fail "$PAIR_ERR"
	fi
}

# pingpong_record NAME WHAT: the figures of the ibv_*_pingpong client in
# $PAIR_OUT, recorded as NAME's pass (or fail when there are none).
pingpong_record() {
	local name=$1 usec mbit
	usec=$(sed -n 's/.* = \([0-9.]*\) usec\/iter.*/\1/p' "$PAIR_OUT")
	mbit=$(sed -n 's/.* = \([0-9.]*\) Mbit\/sec.*/\1/p' "$PAIR_OUT")
	if [ -z "$usec" ]; then
		record "$name" fail "no usec/iter in output: $(excerpt "$PAIR_OUT")"
		return
	fi
	perf "$name" latency "$usec" usec/iter
	perf "$name" throughput "$mbit" Mbit/s
	record "$name" pass "$2, $usec usec/iter, $mbit Mbit/s"
}

suite_pingpong() {
	local s
	for s in $PP_SIZES; do
		suite_pingpong_one poll "$s"
	done
	for s in $PP_SIZES; do
		suite_pingpong_one event "$s"
	done
}

# perftest NAME KIND(lat|bw) ITERS PROGRAM [ARGS...]
suite_perftest_one() {
	local name=$1 kind=$2 iters=$3
	shift 3
	if ! run_pair "$name" "$PERF_TIMEOUT" "$@" -d "$DEV" ${GIDX:+-x "$GIDX"} \
		-F -n "$iters"; then
		record "$name" fail "$PAIR_ERR"
		return
	fi
	perftest_record "$name" "$kind"
}

# perftest_record NAME KIND(lat|bw): the figures of the perftest client in
# $PAIR_OUT, recorded as NAME's pass (or fail when there are none).
perftest_record() {
	local name=$1 kind=$2 row
	# The figures are the first numeric row after the "#bytes" header.
	row=$(awk '/#bytes/ { h = 1; next } h && $1 ~ /^[0-9]+$/ { print; exit }' "$PAIR_OUT")
	if [ -z "$row" ]; then
		record "$name" fail "no result row: $(excerpt "$PAIR_OUT")"
		return
	fi
	# shellcheck disable=SC2086 # split the row into its columns
	set -- $row
	if [ "$kind" = lat ]; then
		# bytes iters t_min t_max t_typical t_avg t_stdev p99 p99.9
		perf "$name" t_typical "$5" usec
		perf "$name" t_avg "$6" usec
		perf "$name" t_p99 "$8" usec
		record "$name" pass "$1 B x $2: typical $5 usec, avg $6 usec, p99 $8 usec"
	else
		# bytes iters bw_peak bw_avg msg_rate
		perf "$name" bw_avg "$4" MiB/s
		perf "$name" msg_rate "$5" Mpps
		record "$name" pass "$1 B x $2: avg $4 MiB/s, $5 Mpps"
	fi
}

suite_perftest() {
	suite_perftest_one perf/ib_send_lat lat "$PERF_ITERS" ib_send_lat
	suite_perftest_one perf/ib_send_lat_e lat "$PERF_ITERS" ib_send_lat -e
	suite_perftest_one perf/ib_write_bw bw "$PERF_BW_ITERS" ib_write_bw
	suite_perftest_one perf/ib_read_lat lat "$PERF_ITERS" ib_read_lat
}

# py_selected MODULE: the pyverbs module runs (PY_ONLY, PY_EXCLUDE).
py_selected() {
	local p
	if [ -n "$PY_ONLY" ]; then
		local hit=0
		for p in ${PY_ONLY//,/ }; do
			# shellcheck disable=SC2053 # a shell pattern
			[[ $1 == $p ]] && hit=1
		done
		[ $hit = 1 ] || return 1
	fi
	for p in ${PY_EXCLUDE//,/ }; do
		# shellcheck disable=SC2053 # a shell pattern
		[[ $1 == $p ]] && return 1
	done
	return 0
}

PY_IPOIB_ADDR=10.78.0.1
PY_IPOIB_IF=

# py_ipoib_up: an IPoIB interface with an address on DEV's port, for the
# rdmacm tests (rdma_cm resolves IP addresses; the tests take the
# device's first address).  On InfiniBand the interface gets its carrier
# once it joined the broadcast group through the SA, so this needs the
# subnet manager setup started (a port of a subnet); PY_IPOIB_WHY says
# why not.
py_ipoib_up() {
	local log end n
	log=$(logname pyverbs/ipoib)
	if [ -z "$SM_PID" ]; then
		PY_IPOIB_WHY="rdma_cm resolves IPoIB addresses, and IPoIB joins its broadcast group through the SA: no subnet manager on this port (it configured itself)"
		return 1
	fi
	# built into the debug kernel, which has no modules tree to probe
	[ -d /sys/module/ib_ipoib ] || modprobe ib_ipoib > "$log" 2>&1 ||
		{ PY_IPOIB_WHY="modprobe ib_ipoib: $(excerpt "$log")"; return 1; }
	end=$((SECONDS + 60))
	while [ $SECONDS -lt $end ] && [ -z "$PY_IPOIB_IF" ]; do
		for n in /sys/class/infiniband/"$DEV"/device/net/*; do
			[ -e "$n" ] && PY_IPOIB_IF=${n##*/} && break
		done
		[ -n "$PY_IPOIB_IF" ] || sleep 0.2
	done
	# the address first: the tests take the interface's first one
	if ! { [ -n "$PY_IPOIB_IF" ] && ip addr add "$PY_IPOIB_ADDR/24" dev "$PY_IPOIB_IF" &&
		ip link set "$PY_IPOIB_IF" up; } >> "$log" 2>&1; then
		PY_IPOIB_WHY="no IPoIB interface of $DEV with an address ('$PY_IPOIB_IF'): $(excerpt "$log")"
		return 1
	fi
	end=$((SECONDS + 120))
	while [ $SECONDS -lt $end ]; do
		[ "$(cat "/sys/class/net/$PY_IPOIB_IF/carrier" 2>/dev/null)" = 1 ] && break
		sleep 0.5
	done
	ip addr show "$PY_IPOIB_IF" >> "$log" 2>&1
	if [ "$(cat "/sys/class/net/$PY_IPOIB_IF/carrier" 2>/dev/null)" != 1 ]; then
		PY_IPOIB_WHY="$PY_IPOIB_IF has no carrier 120 s after link up (broadcast group not joined): $(dmesg_tail "$PY_IPOIB_IF")"
		return 1
	fi
	say "pyverbs: $PY_IPOIB_IF ($DEV) $PY_IPOIB_ADDR up for the rdmacm tests"
}

# py_ipoib_down: IPoIB gone again, before the parts that unload the
# driver (built into a kernel, as it may be in the debug one: its
# interface down and without the address)
py_ipoib_down() {
	local log
	log=$(logname pyverbs/ipoib)
	if [ ! -e /sys/module/ib_ipoib/initstate ]; then
		[ -z "$PY_IPOIB_IF" ] ||
			{ ip addr flush dev "$PY_IPOIB_IF"; ip link set "$PY_IPOIB_IF" down; } >> "$log" 2>&1
		return 0
	fi
	modprobe -r ib_ipoib >> "$log" 2>&1 ||
		record pyverbs/ipoib-unload fail "modprobe -r ib_ipoib: $(excerpt "$log")"
}

# rdma-core's pyverbs tests, one forked child per module (the stock
# single-process runner segfaults mid-run), each under its own alarm.
# On InfiniBand the rdmacm tests run over an IPoIB address on DEV's port
# (py_ipoib_up), as in the fabric suite, when there is a subnet manager.
suite_pyverbs() {
	local tests=/usr/src/rdma/rdma-core/tests rc exclude=$PY_EXCLUDE
	# 2 MiB pages for the huge-page traffic tests (128 MiB of the guest's
	# RAM): MRs on them take the large-page translation paths.
	echo 64 > /proc/sys/vm/nr_hugepages 2>/dev/null ||
		say "pyverbs: no 2 MiB huge pages ($(cat /proc/sys/vm/nr_hugepages 2>&1))"
	if [ "$LANE" != rxe ] && py_selected test_rdmacm && ! py_ipoib_up; then
		record pyverbs/test_rdmacm skip "$PY_IPOIB_WHY"
		exclude=${exclude:+$exclude,}test_rdmacm
	fi
	say "pyverbs: importing the test modules (10-20 s)"
	( cd "$tests" && timeout -k 10 "$PY_TOTAL_TIMEOUT" python3 /job/pyverbs-run.py \
		--dev "$DEV" ${GIDX:+--gid "$GIDX"} --timeout "$PY_TIMEOUT" \
		--only "$PY_ONLY" --exclude "$exclude" --out /job )
	rc=$?
	# The runner records its own lines; a runner that died records nothing.
	case $rc in
	0 | 1) ;;
	*) record pyverbs/runner fail "runner $(rc_detail $rc)" ;;
	esac
	py_ipoib_down
}

# The workload of the firmware-command differential (tools/testing/fwdiff):
# first in the suite, so that the emulator's field trace holds the
# bring-up and this workload and nothing else; it ends the trace itself
# (its last step is the --ftrace-stop marker).
suite_fwdiff() {
	local log
	log=$(logname fwdiff)
	timeout -k 5 300 python3 /job/fwdiff.py --dev "$DEV" > "$log" 2>&1
	local rc=$?
	if [ $rc -eq 0 ]; then
		record fwdiff/workload pass "$(grep -c '^fwdiff: ' "$log") steps; trace compared on the host (fwdiff step)"
	else
		record fwdiff/workload fail "fwdiff.py $(rc_detail $rc): $(excerpt "$log")"
	fi
}

# --- observe (mlx5x): what the rdma tool and sysfs show of the driver ---

# rdma_port_stat NAME: port 1's counter NAME as `rdma statistic` shows it.
rdma_port_stat() {
	rdma -j statistic show link "$DEV/1" 2>/dev/null | python3 -c '
import json, sys
try:
    print(json.load(sys.stdin)[0].get(sys.argv[1], ""))
except (ValueError, IndexError):
    print("")' "$1"
}

# A pingpong of PP_ITERS 64-byte messages each way, both QPs on port 1:
# the port's unicast packets rise by at least 2 x PP_ITERS each way, and
# the device's command counter by the commands the two processes made.
observe_counters() {
	local hw=/sys/class/infiniband/$DEV/hw_counters n=$PP_ITERS
	local c0 c1 tx0 tx1 rx0 rx1
	c0=$(cat "$hw/cmd_issued" 2>/dev/null)
	tx0=$(rdma_port_stat tx_ucast_pkts)
	rx0=$(rdma_port_stat rx_ucast_pkts)
	if [ -z "$c0" ] || [ -z "$tx0" ] || [ -z "$rx0" ]; then
		record observe/counters fail "missing: $hw/cmd_issued='$c0', rdma statistic tx_ucast_pkts='$tx0' rx_ucast_pkts='$rx0'"
		return
	fi
	if ! run_pair observe/pingpong "$PP_TIMEOUT" ibv_rc_pingpong -d "$DEV" \
		${GIDX:+-g "$GIDX"} -n "$n" -s 64; then
		record observe/counters fail "pingpong: $PAIR_ERR"
		return
	fi
	c1=$(cat "$hw/cmd_issued")
	tx1=$(rdma_port_stat tx_ucast_pkts)
	rx1=$(rdma_port_stat rx_ucast_pkts)
	# two processes: a context, PD, MR, CQ, QP, three transitions and the
	# teardown each, at least 10 commands
	if [ $((tx1 - tx0)) -ge $((2 * n)) ] && [ $((rx1 - rx0)) -ge $((2 * n)) ] &&
		[ $((c1 - c0)) -ge 20 ]; then
		record observe/counters pass "pingpong of 2 x $n messages: tx_ucast_pkts +$((tx1 - tx0)), rx_ucast_pkts +$((rx1 - rx0)), cmd_issued +$((c1 - c0))"
	else
		record observe/counters fail "pingpong of 2 x $n messages: tx_ucast_pkts +$((tx1 - tx0)), rx_ucast_pkts +$((rx1 - rx0)) (want >= $((2 * n))), cmd_issued +$((c1 - c0)) (want >= 20)"
	fi
}

# rdma_res_check KIND WANT...: the pingpong's objects of KIND in
# `rdma -j -dd res show KIND`, each with every WANT key (KEY or KEY=VALUE;
# the rdma tool shows a driver's own attributes with a drv_ prefix);
# prints "N objects: ..." and succeeds when there are at least two.
rdma_res_check() {
	rdma -j -dd res show "$1" 2>/dev/null | python3 -c '
import json, sys
dev, kind, want = sys.argv[1], sys.argv[2], sys.argv[3:]
try:
    objs = json.load(sys.stdin)
except ValueError:
    objs = []
mine = [o for o in objs if o.get("ifname") == dev and
        o.get("comm") == "ibv_rc_pingpong"]
def ok(o):
    for w in want:
        k, _, v = w.partition("=")
        if k not in o or (v and str(o[k]) != v):
            return False
    return True
good = [o for o in mine if ok(o)]
show = ", ".join(" ".join("%s=%s" % (k.split("=")[0], o.get(k.split("=")[0]))
                          for k in want) for o in good[:2])
print("%d of %d %s objects with %s%s" % (len(good), len(mine), kind,
      " ".join(want), (": " + show) if show else ""))
sys.exit(0 if len(good) >= 2 else 1)' "$DEV" "$@"
}

# While a long pingpong runs, `rdma res` lists its RC QPs in RTS, its CQs
# and MRs with mlx5x's details; once it is killed, none is left.
observe_resources() {
	local port=$NEXT_PORT log spid cpid qp= cq= mr= end left
	NEXT_PORT=$((NEXT_PORT + 1))
	log=$(logname observe/res)
	ibv_rc_pingpong -d "$DEV" ${GIDX:+-g "$GIDX"} -n 100000000 -s 64 \
		-p "$port" > "$log.server" 2>&1 &
	spid=$!
	if ! wait_listen "$port" "$spid" 60; then
		kill "$spid" 2>/dev/null
		wait "$spid" 2>/dev/null
		record observe/res fail "pingpong server never listened: $(excerpt "$log.server")"
		return
	fi
	ibv_rc_pingpong -d "$DEV" ${GIDX:+-g "$GIDX"} -n 100000000 -s 64 \
		-p "$port" 127.0.0.1 > "$log.client" 2>&1 &
	cpid=$!
	end=$((SECONDS + 60))
	while [ $SECONDS -lt $end ] && kill -0 "$cpid" 2>/dev/null; do
		rdma -dd res show qp > "$log.qp" 2>&1
		qp=$(rdma_res_check qp type=RC state=RTS drv_sq_wqebbs drv_rq_wqes drv_uar) &&
			cq=$(rdma_res_check cq drv_hw_cqn drv_eqn drv_cqe_size) &&
			mr=$(rdma_res_check mr drv_mkey_index drv_pages) && break
		qp= cq= mr=
		sleep 0.5
	done
	kill "$spid" "$cpid" 2>/dev/null
	wait "$spid" "$cpid" 2>/dev/null
	end=$((SECONDS + 30))
	while left=$(rdma -j res show qp 2>/dev/null | grep -c '"comm":"ibv_rc_pingpong"') &&
		[ "$left" -gt 0 ] && [ $SECONDS -lt $end ]; do
		sleep 0.5
	done
	if [ -z "$qp" ]; then
		record observe/res fail "no RTS QPs with mlx5x details seen while the pingpong ran; rdma -dd res show qp said: $(excerpt "$log.qp" 3); client: $(excerpt "$log.client")"
	elif [ "${left:-0}" -gt 0 ]; then
		record observe/res fail "$left QPs of the killed pingpong still listed"
	else
		record observe/res pass "$qp; $cq; $mr; none left after kill"
	fi
}

# trace-cmd records the mlx5x tracepoints over an event-mode pingpong:
# every command issued is done, without error, and the completion events
# show as EQEs and CQ notifications, at least one per message.
observe_trace() {
	local log dat rpid end n=$PP_ITERS issue done bad eqe cq
	log=$(logname observe/trace)
	dat=/tmp/observe-trace.dat
	trace-cmd record -e mlx5x -o "$dat" > "$log" 2>&1 &
	rpid=$!
	# recording has started once it says how to stop it
	end=$((SECONDS + 60))
	until grep -qs 'Hit Ctrl^C' "$log" || [ $SECONDS -ge $end ] ||
		! kill -0 "$rpid" 2>/dev/null; do
		sleep 0.2
	done
	if ! run_pair observe/trace-pingpong "$PP_TIMEOUT" ibv_rc_pingpong -d "$DEV" \
		${GIDX:+-g "$GIDX"} -n "$n" -s 64 -e; then
		kill -INT "$rpid" 2>/dev/null
		wait "$rpid"
		record observe/trace fail "pingpong: $PAIR_ERR"
		return
	fi
	kill -INT "$rpid"
	wait "$rpid"
	trace-cmd report -i "$dat" > "$log.report" 2>>"$log"
	issue=$(grep -c 'mlx5x_cmd_issue:' "$log.report")
	done=$(grep -c 'mlx5x_cmd_done:' "$log.report")
	bad=$(grep 'mlx5x_cmd_done:' "$log.report" | grep -vc ' err=0 ')
	eqe=$(grep -c 'mlx5x_eqe:' "$log.report")
	cq=$(grep -c 'mlx5x_cq_notify:' "$log.report")
	if [ "$issue" -ge 20 ] && [ "$issue" = "$done" ] && [ "$bad" = 0 ] &&
		[ "$eqe" -ge "$n" ] && [ "$cq" -ge "$n" ]; then
		record observe/trace pass "trace-cmd over a pingpong -e of 2 x $n: $issue commands issued and done, $eqe EQEs, $cq CQ notifications"
	else
		record observe/trace fail "trace-cmd: cmd_issue $issue, cmd_done $done ($bad with an error; want equal, >= 20, none failed), eqe $eqe, cq_notify $cq (want >= $n each): $(excerpt "$log")"
	fi
}

suite_observe() {
	observe_counters
	observe_resources
	observe_trace
}

run_suite() {
	local p
	for p in ${SUITE_PARTS:-devinfo pingpong perftest pyverbs}; do
		"suite_$p"
	done
}
