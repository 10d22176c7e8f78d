# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# Guest-side helpers of the e2e suite, sourced by run.sh.  Runs in the test
# VM (bash, read-only root, job share at /job).  Results go to
#   /job/results.tsv  name TAB pass|fail|skip TAB detail   (one line per test)
#   /job/perf.tsv     test TAB metric TAB value TAB unit   (figures)
# and every command's output to /job/logs/<test>.log.

RES=/job/results.tsv
PERF=/job/perf.tsv
LOGS=/job/logs

say() { echo "e2e [$(cut -d' ' -f1 /proc/uptime)s] $*"; }

# record NAME STATUS DETAIL
record() {
	local d
	d=$(printf '%s' "$3" | tr '\t\n' '  ')
	printf '%s\t%s\t%s\n' "$1" "$2" "$d" >> "$RES"
	say "$2: $1${d:+ ($d)}"
}

# perf TEST METRIC VALUE UNIT
perf() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >> "$PERF"; }

logname() { echo "$LOGS/$(echo "$1" | tr '/ ' '__').log"; }

# A one-line excerpt of a log for a failure detail.
excerpt() {
	grep -v '^\s*$' "$1" 2>/dev/null | tail -n "${2:-2}" | tr '\t\n' '  ' | cut -c1-200
}

# dmesg_tail WORD: the last two kernel log lines mentioning WORD, one line.
dmesg_tail() {
	dmesg | grep -i -- "$1" | tail -n 2 | sed 's/^\[ *[0-9.]*\] //' | tr '\n' ' ' | cut -c1-300
}

# rc_detail RC: human text for a command's exit code under timeout(1).
rc_detail() {
	case $1 in
	124) echo "timed out" ;;
	137) echo "killed after timeout" ;;
	*) echo "exit $1" ;;
	esac
}

# wait_listen PORT PID SECONDS: wait until a TCP listener on PORT exists
# (the server side of a pingpong/perftest pair), or PID died; in the
# network namespace of the prefix PAIR_SRV_PRE, if any.
wait_listen() {
	local end=$((SECONDS + $3))
	while [ $SECONDS -lt $end ]; do
		[ -n "$("${PAIR_SRV_PRE[@]}" ss -Hltn "sport = :$1" 2>/dev/null)" ] && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

NEXT_PORT=18600

# run_pair NAME TIMEOUT CMD...: run CMD as a server in the background and
# again with 127.0.0.1 appended as its client, both under TIMEOUT; the
# client's output is left in $PAIR_OUT.  Returns 0 when both ends exit 0.
# Two ends that differ (the fabric suite: one HCA each, one end in
# another network namespace, an rdma_cm server) are set up by the arrays
# PAIR_SRV and PAIR_CLI (options appended to each end's CMD), PAIR_SRV_PRE
# and PAIR_CLI_PRE (a prefix for that end's command, e.g. ip netns exec),
# PAIR_ADDR (the server's address; none: the client's options name it)
# and PAIR_WAIT (tcp, or cm for an rdma_cm listener); run_pair resets them.
run_pair() {
	local name=$1 tmo=$2 port=$NEXT_PORT log spid src crc waited
	shift 2
	NEXT_PORT=$((NEXT_PORT + 1))
	log=$(logname "$name")
	PAIR_OUT=$log.client
	PAIR_ERR=
	timeout -k 5 "$tmo" "${PAIR_SRV_PRE[@]}" "$@" "${PAIR_SRV[@]}" -p "$port" \
		> "$log.server" 2>&1 &
	spid=$!
	# the listener shows in the server's network namespace
	if [ "${PAIR_WAIT:-tcp}" = cm ]; then
		wait_cm_listen "$port" "$spid" 60
	else
		wait_listen "$port" "$spid" 60
	fi
	waited=$?
	if [ $waited -ne 0 ]; then
		wait "$spid"
		src=$?
		PAIR_ERR="server never listened ($(rc_detail $src)): $(excerpt "$log.server")"
		pair_reset
		return 1
	fi
	local addr=("${PAIR_ADDR:-127.0.0.1}")
	[ "${PAIR_ADDR:-}" = none ] && addr=()
	timeout -k 5 "$tmo" "${PAIR_CLI_PRE[@]}" "$@" "${PAIR_CLI[@]}" -p "$port" \
		"${addr[@]}" > "$PAIR_OUT" 2>&1
	crc=$?
	wait "$spid"
	src=$?
	pair_reset
	if [ $crc -ne 0 ] || [ $src -ne 0 ]; then
		PAIR_ERR="client $(rc_detail $crc), server $(rc_detail $src): $(excerpt "$PAIR_OUT") | $(excerpt "$log.server" 1)"
		return 1
	fi
	return 0
}

pair_reset() {
	PAIR_SRV=()
	PAIR_CLI=()
	PAIR_SRV_PRE=()
	PAIR_CLI_PRE=()
	PAIR_ADDR=
	PAIR_WAIT=
}
pair_reset

# wait_cm_listen PORT PID SECONDS: wait until an rdma_cm listener on PORT
# exists (perftest -R, rping, ucmatose open no TCP socket), or PID died.
wait_cm_listen() {
	local end=$((SECONDS + $3))
	while [ $SECONDS -lt $end ]; do
		"${PAIR_SRV_PRE[@]}" rdma resource show cm_id 2>/dev/null |
			grep -q "state LISTEN .*src-addr [^ ]*:$1 " && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.2
	done
	return 1
}

# Waits are by deadline, not by iteration count: under TCG every fork of
# a polling loop costs milliseconds.

# wait_ibdev NAME SECONDS: wait for /sys/class/infiniband/NAME (no udev).
wait_ibdev() {
	local end=$((SECONDS + $2))
	while [ $SECONDS -lt $end ]; do
		[ -e "/sys/class/infiniband/$1" ] && return 0
		sleep 0.2
	done
	return 1
}

# wait_port_active DEV SECONDS
wait_port_active() {
	local end=$((SECONDS + $2)) f=/sys/class/infiniband/$1/ports/1/state
	while [ $SECONDS -lt $end ]; do
		grep -q ACTIVE "$f" 2>/dev/null && return 0
		sleep 0.2
	done
	return 1
}

# start_opensm DEV SECONDS: a subnet manager on DEV port 1 (the emulated
# port waits in INIT with LID 0 for one), until the port is ACTIVE; fails
# at once when opensm exits (it could not bind to the port's QP0/QP1:
# SM_ERR has its first error).  Its log is logs/opensm.log; sets SM_PID.
SM_PID=
start_opensm() {
	local guid end
	guid=0x$(tr -d ':' < "/sys/class/infiniband/$1/ports/1/gids/0" | cut -c17-32)
	SM_ERR=
	modprobe ib_umad || return 1
	# the root is read-only: the GUID-to-LID cache goes to /tmp
	mkdir -p /tmp/opensm-cache
	OSM_CACHE_DIR=/tmp/opensm-cache opensm -g "$guid" -f "$LOGS/opensm.log" \
		> "$LOGS/opensm.out" 2>&1 &
	SM_PID=$!
	end=$((SECONDS + $2))
	while [ $SECONDS -lt $end ]; do
		grep -q ACTIVE "/sys/class/infiniband/$1/ports/1/state" 2>/dev/null && return 0
		if ! kill -0 "$SM_PID" 2>/dev/null; then
			SM_ERR="opensm exited: $(grep -m1 ' ERR ' "$LOGS/opensm.log" 2>/dev/null | sed 's/.*-> //' | cut -c1-160)"
			return 1
		fi
		sleep 0.2
	done
	return 1
}

# sm_port_up DEV SECONDS: DEV's port 1 ACTIVE (within SECONDS of opensm's
# start, or 60 s without it).  A port
# with LID 0 waits for a subnet manager (the emulator's --port sm: INIT
# until one configures it), so opensm is started on it; a port that has a
# LID is ACTIVE already or becomes so by itself (self-configured, or set
# up by an SM before a driver reload: the firmware keeps it).  SM_DETAIL
# says when opensm brought it up.
sm_port_up() {
	local lid
	SM_DETAIL=
	lid=$(cat "/sys/class/infiniband/$1/ports/1/lid" 2>/dev/null)
	if [ "$lid" = 0x0 ] && ! grep -q ACTIVE "/sys/class/infiniband/$1/ports/1/state"; then
		start_opensm "$1" "$2" || return 1
		SM_DETAIL=", opensm: ACTIVE with LID $(printf %d "$(cat "/sys/class/infiniband/$1/ports/1/lid")")"
		return 0
	fi
	wait_port_active "$1" 60
}

stop_opensm() {
	[ -n "$SM_PID" ] || return 0
	kill "$SM_PID" 2>/dev/null
	wait "$SM_PID" 2>/dev/null
	SM_PID=
}

# save_dmesg: the whole kernel log, for the host-side check.
# The raw form keeps the log levels (<3>, <4>, ...) for the host's check.
save_dmesg() {
	dmesg > /job/dmesg.txt 2>&1
	dmesg -r > /job/dmesg-raw.txt 2>&1
}

# ---- users of a device that is lost (fatal error, death, removal) ----

# kill_tree PID...: timeout(1) wrappers and the command each one runs
# (a SIGKILL to the wrapper alone leaves its command running).
kill_tree() {
	local p
	for p in "$@"; do
		pkill -KILL -P "$p" 2>/dev/null
		kill -KILL "$p" 2>/dev/null
	done
}

# lost_start DEV LOG: robust.py lost on DEV in the background (pid in
# LOST_PID): a context with a PD, CQ, QP and MR that waits for the
# device's async events; returns once its objects exist.
lost_start() {
	local end=$((SECONDS + 60))
	timeout -k 5 600 python3 /job/robust.py lost "$1" > "$2" 2>&1 &
	LOST_PID=$!
	LOST_LOG=$2
	while [ $SECONDS -lt $end ]; do
		grep -q '^ready' "$2" && return 0
		kill -0 "$LOST_PID" 2>/dev/null || break
		sleep 0.2
	done
	return 1
}

# lost_end SECONDS: wait for it to finish; LOST_DET is its verdicts in
# one line; 0 if every one passed and it ended by itself in time.
lost_end() {
	local end=$((SECONDS + $1)) bad=
	while [ $SECONDS -lt $end ] && kill -0 "$LOST_PID" 2>/dev/null; do
		sleep 0.2
	done
	if kill -0 "$LOST_PID" 2>/dev/null; then
		kill_tree "$LOST_PID"
		bad="still blocked $1 s after the loss"
	fi
	wait "$LOST_PID" 2>/dev/null
	LOST_DET=$(grep -E '^lost-' "$LOST_LOG" | cut -f1,3 | tr '\t\n' ': ' | sed 's/: $//')
	[ "$(grep -cE '^lost-[a-z-]+	pass	' "$LOST_LOG")" -eq 3 ] || bad+="${bad:+; }verdicts: $(excerpt "$LOST_LOG" 3)"
	LOST_DET="${bad:+$bad; }$LOST_DET"
	[ -z "$bad" ]
}

# ecq_start DEV NAME: an event-mode pingpong pair on DEV in the
# background (pids in ECQ_SRV, ECQ_CLI), with far more iterations than
# it gets to run: both ends spend their time blocked in
# ibv_get_cq_event() when the device goes.
ecq_start() {
	local port=$NEXT_PORT
	NEXT_PORT=$((NEXT_PORT + 1))
	ECQ_LOG=$(logname "$2")
	timeout -k 5 900 ibv_rc_pingpong -e -d "$1" -n 100000000 -s 64 \
		-p "$port" > "$ECQ_LOG.server" 2>&1 &
	ECQ_SRV=$!
	wait_listen "$port" "$ECQ_SRV" 60 || return 1
	timeout -k 5 900 ibv_rc_pingpong -e -d "$1" -n 100000000 -s 64 \
		-p "$port" 127.0.0.1 > "$ECQ_LOG.client" 2>&1 &
	ECQ_CLI=$!
	sleep 1
	kill -0 "$ECQ_CLI" 2>/dev/null && kill -0 "$ECQ_SRV" 2>/dev/null
}

# ecq_why LOG: the first complaint of a pingpong end, one line.
ecq_why() {
	grep -m1 -iE 'fail|error|couldn|unable' "$1" 2>/dev/null | tr '\t' ' ' | cut -c1-80
}

# ecq_end SECONDS: both ends must have returned from ibv_get_cq_event
# and exited within SECONDS (with an error: the device is gone); ECQ_DET
# says how.
ecq_end() {
	local end=$((SECONDS + $1)) src crc hung=
	while [ $SECONDS -lt $end ] &&
		{ kill -0 "$ECQ_CLI" 2>/dev/null || kill -0 "$ECQ_SRV" 2>/dev/null; }; do
		sleep 0.2
	done
	kill -0 "$ECQ_CLI" 2>/dev/null && hung+=" client"
	kill -0 "$ECQ_SRV" 2>/dev/null && hung+=" server"
	[ -z "$hung" ] || kill_tree "$ECQ_CLI" "$ECQ_SRV"
	wait "$ECQ_CLI"
	crc=$?
	wait "$ECQ_SRV"
	src=$?
	ECQ_DET="client $(rc_detail $crc) ($(ecq_why "$ECQ_LOG.client")), server $(rc_detail $src) ($(ecq_why "$ECQ_LOG.server"))"
	[ -z "$hung" ] || { ECQ_DET="still blocked after $1 s:$hung; $ECQ_DET"; return 1; }
	return 0
}

# ibdev_ino DEV: the inode of DEV's sysfs directory, a new one once the
# driver has unregistered the device and registered it again.
ibdev_ino() { stat -L -c %i "/sys/class/infiniband/$1" 2>/dev/null; }
