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

# rdma-core's pyverbs tests, one forked child per module (the stock
# single-process runner segfaults mid-run), each under its own alarm.
suite_pyverbs() {
	local tests=/usr/src/rdma/rdma-core/tests rc
	# 2 MiB pages for the huge-page traffic tests (128 MiB of the guest's
	# RAM): MRs on them take the large-page translation paths.
	echo 64 > /proc/sys/vm/nr_hugepages 2>/dev/null ||
		say "pyverbs: no 2 MiB huge pages ($(cat /proc/sys/vm/nr_hugepages 2>&1))"
	say "pyverbs: importing the test modules (10-20 s)"
	( cd "$tests" && timeout -k 10 "$PY_TOTAL_TIMEOUT" python3 /job/pyverbs-run.py \
		--dev "$DEV" ${GIDX:+--gid "$GIDX"} --timeout "$PY_TIMEOUT" \
		--only "$PY_ONLY" --exclude "$PY_EXCLUDE" --out /job )
	rc=$?
	# The runner records its own lines; a runner that died records nothing.
	case $rc in
	0 | 1) ;;
	*) record pyverbs/runner fail "runner $(rc_detail $rc)" ;;
	esac
}

run_suite() {
	local p
	for p in ${SUITE_PARTS:-devinfo pingpong perftest pyverbs}; do
		"suite_$p"
	done
}
