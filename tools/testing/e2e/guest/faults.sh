# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2153
# (FAULT_* come from job.env)
# Fault suite of lane mlx5x (sourced by run.sh): one emulated ConnectX
# function per scenario, each with one fault injected (or one way of
# completing commands chosen) by its emulator (lane.sh), driven one at a
# time.  driver_override keeps mlx5x off the functions a scenario
# does not use.  Each scenario records one line from the guest's side
# (driver behaviour, dmesg text); lane.sh then folds the emulator's view
# (report, trace) into the same line.
#
# job.env: FAULT_TAGS (the scenarios, in bus order), FAULT_FWS (firmware
# version per function, in bus order), FAULT_WATCHDOG_MS, FAULT_REPORT_SYND,
# FAULT_CMD_TMO_MS, FAULT_TIMEOUT_OP/_OPCODE, FAULT_STATUS_OP/_OPCODE,
# FAULT_STATUS, FAULT_STATUS_NAME, FAULT_STATUS_SYND, FAULT_HEALTH_SYND,
# FAULT_HEALTH_POLL_MS.

FAULT_ENV=/job/faults.env

# The emulated functions in bus order (= the order of the -s options).
emu_functions() {
	local d
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor" 2>/dev/null)" = 0x15b3 ] && basename "$d"
	done | sort
}

# only_function F: F is the one function mlx5x may bind (or none).
only_function() {
	local d
	for d in $FAULT_FNS; do
		if [ "$d" = "$1" ]; then
			echo mlx5x > "/sys/bus/pci/devices/$d/driver_override"
		else
			echo none > "/sys/bus/pci/devices/$d/driver_override"
		fi
	done
}

bound_to_mlx5x() {
	[ "$(basename "$(readlink -f "/sys/bus/pci/devices/$1/driver")")" = mlx5x ]
}

# Kernel log lines of function F since fault_begin, without timestamps.
fault_dmesg() {
	dmesg | tail -n +"$((FAULT_MARK + 1))" | sed 's/^\[ *[0-9.]*\] //' |
		grep -F "mlx5x $1: "
}

# fault_count F ERE: how many of F's lines since fault_begin match.
fault_count() { fault_dmesg "$1" | grep -cE "$2"; }

# fault_begin F: a new scenario on F; the log from here on is its own.
fault_begin() {
	FAULT_MARK=$(dmesg | wc -l)
	FAULT_BAD=
	FAULT_LOG=$(logname "faults-$2")
	only_function "$1"
	say "fault scenario $2 on $1"
}

# fault_fw TAG: the firmware version of scenario TAG's function.
fault_fw() {
	local n
	n=$(echo "$FAULT_TAGS" | tr ' ' '\n' | grep -nx "$1" | cut -d: -f1)
	echo "$FAULT_FWS" | cut -d' ' -f"$n"
}

# fault_expect WHAT OK: note a failed expectation (OK is a status).
fault_expect() { [ "$2" -eq 0 ] || FAULT_BAD+="${FAULT_BAD:+; }$1"; }

# fault_want F N ERE WHAT: F logged exactly N lines matching ERE.
fault_want() {
	local n
	n=$(fault_count "$1" "$3")
	[ "$n" -eq "$2" ]
	fault_expect "$n of $2 $4" $?
}

# fault_insmod [PARAM=VALUE...]: load mlx5x; 0 if insmod succeeded.
fault_insmod() {
	timeout -k 5 120 insmod /job/mlx5x.ko "$@" >> "$FAULT_LOG" 2>&1
}

fault_rmmod() {
	[ -d /sys/module/mlx5x ] || return 0
	timeout -k 5 180 rmmod mlx5x >> "$FAULT_LOG" 2>&1
}

fault_record() {
	local name=faults/$1
	fault_dmesg "$2" > "$(logname "$name").dmesg"
	if [ -z "$FAULT_BAD" ]; then
		record "$name" pass "$3"
	else
		record "$name" fail "$FAULT_BAD"
	fi
}

# (a) A command that never completes in events mode: the ready stage's
# QUERY_ADAPTER.  The engine must give up after its timeout (after the
# missed-event poll found nothing), quarantine the slot, say which
# command, and stay usable: the probe completes, rmmod completes and a
# second insmod does the same again.
fault_cmd_timeout() {
	local f=$1 i re fw
	fault_begin "$f" cmd-timeout
	for i in 1 2; do
		fault_insmod cmd_timeout_ms="$FAULT_CMD_TMO_MS"
		fault_expect "insmod $i failed" $?
		bound_to_mlx5x "$f"
		fault_expect "not bound after insmod $i" $?
		fault_rmmod
		fault_expect "rmmod $i failed" $?
	done
	# Each function has its own firmware version: is it the right one?
	fw=$(fault_fw cmd-timeout)
	fault_want "$f" 2 "firmware $fw, command" "'firmware $fw' lines"
	re="cmd $FAULT_TIMEOUT_OP\\($FAULT_TIMEOUT_OPCODE\\) op_mod 0x0: no completion after $FAULT_CMD_TMO_MS ms \\(events mode\\), slot [0-9]+ quarantined"
	fault_want "$f" 2 "$re" "timeout lines naming $FAULT_TIMEOUT_OP"
	fault_want "$f" 2 ' ready: ' "ready lines"
	fault_want "$f" 0 'probe stage|killed' "probe-stage/killed lines"
	fault_record cmd-timeout "$f" "2x insmod: $FAULT_TIMEOUT_OP timed out after $FAULT_CMD_TMO_MS ms in events mode, slot quarantined, probe completed ('ready'); 2x rmmod ok"
}

# (b) A command failing with a bad status late in the probe (the first
# completion EQ's CREATE_EQ, in events mode): the probe fails naming the
# opcode, status and syndrome, unwinds every stage and leaves nothing
# behind (the emulator's report, checked by lane.sh); rmmod completes.
fault_cmd_status() {
	local f=$1 fw re
	fault_begin "$f" cmd-status
	fault_insmod
	fault_expect "insmod failed" $?
	! bound_to_mlx5x "$f"
	fault_expect "bound although the probe should fail" $?
	fault_rmmod
	fault_expect "rmmod failed" $?
	fw=$(fault_fw cmd-status)
	fault_want "$f" 1 "firmware $fw, command" "'firmware $fw' lines"
	re="cmd $FAULT_STATUS_OP\\($FAULT_STATUS_OPCODE\\) op_mod 0x0 failed: status $FAULT_STATUS_NAME\\($FAULT_STATUS\\), syndrome $FAULT_STATUS_SYND\$"
	fault_want "$f" 1 "$re" "lines naming $FAULT_STATUS_OP, status and syndrome"
	fault_want "$f" 1 'probe stage eqs failed: -22$' "'probe stage eqs failed' lines"
	fault_want "$f" 0 'not returned|incomplete|killed' "lines about pages not returned or a killed engine"
	fault_record cmd-status "$f" "probe failed at stage eqs: '$(fault_dmesg "$f" | grep -E -m1 "$re" | sed 's/^mlx5x [^ ]* //')'; rmmod ok"
}

# fault_pair NAME: one loopback ibv_rc_pingpong pair on DEV, in the
# background (its own port); PAIR_PIDS collects it.
fault_pair() {
	(run_pair "$1" 300 ibv_rc_pingpong -d "$DEV" -n 200 -s 1024 ||
		{ echo "$PAIR_ERR" > "$(logname "$1").err"; exit 1; }) &
	PAIR_PIDS+=" $!"
	NEXT_PORT=$((NEXT_PORT + 1))
}

# (c) Command completions the PRM allows beyond one prompt EQE per
# command (late, out of slot order, several slots in one EQE, an EQE
# again once the slot is rung anew) or a lost interrupt: probe, two
# pingpong pairs at once (their commands overlap on the queue) and rmmod
# all work; no command ends early (an event for a slot the device owns
# is not its end), times out or is failed, nothing is quarantined or
# killed.  The watchdog runs every FAULT_WATCHDOG_MS: a completion whose
# event or interrupt went missing costs two of those at most, not the
# command timeout.
# lane.sh checks the emulator's side (the mode really happened, nothing
# leaked).
fault_completion() {
	local f=$1 tag=$2 i fw pid bad=0
	fault_begin "$f" "$tag"
	fault_insmod cmd_watchdog_ms="$FAULT_WATCHDOG_MS" cmd_timeout_ms=20000
	fault_expect "insmod failed" $?
	bound_to_mlx5x "$f"
	fault_expect "not bound after insmod" $?
	PAIR_PIDS=
	if wait_mlx5x_ibdev 120 && wait_port_active "$DEV" 60; then
		fault_pair "faults-$tag-a"
		fault_pair "faults-$tag-b"
		for pid in $PAIR_PIDS; do
			wait "$pid" || bad=$((bad + 1))
		done
		[ $bad -eq 0 ]
		fault_expect "$bad of 2 pingpong pairs failed ($(cat "$LOGS"/faults-"$tag"-*.err 2>/dev/null | head -c 300))" $?
	else
		fault_expect "no RDMA device with an active port" 1
	fi
	fault_rmmod
	fault_expect "rmmod failed" $?
	fw=$(fault_fw "$tag")
	fault_want "$f" 1 "firmware $fw, command" "'firmware $fw' lines"
	fault_want "$f" 0 'no completion after|quarantined|still owned|killed|probe stage|failed|delivery status' \
		"timeout, quarantine, kill or failure lines"
	i=$(fault_count "$f" 'command watchdog: ')
	fault_record "$tag" "$f" "probe, 2 concurrent pingpong pairs, rmmod: no early, failed or timed-out command; $i watchdog lines"
}

# (d) A health syndrome without the recovery-flow request: reported once,
# the function stays in service (lane.sh checks the emulator still gets
# commands after it and gets its pages back through them).
fault_health_report() {
	local f=$1 end
	fault_begin "$f" health-report
	fault_insmod health_poll_ms="$FAULT_HEALTH_POLL_MS"
	fault_expect "insmod failed" $?
	bound_to_mlx5x "$f"
	fault_expect "not bound after insmod" $?
	end=$((SECONDS + 60))
	until [ "$(fault_count "$f" 'health: syndrome')" -gt 0 ]; do
		[ $SECONDS -lt $end ] || break
		sleep 0.2
	done
	# two more polls: the same syndrome is not reported again
	sleep $((2 * FAULT_HEALTH_POLL_MS / 1000 + 1))
	fault_rmmod
	fault_expect "rmmod failed" $?
	fault_want "$f" 1 "health: syndrome $FAULT_REPORT_SYND \\(.*\\), ext 0x[0-9a-f]+, no recovery flow requested: reported, device kept in service\$" \
		"report lines for syndrome $FAULT_REPORT_SYND"
	fault_want "$f" 1 'health: ' "health lines"
	fault_want "$f" 0 'fatal|killed|not returned' "fatal, killed or pages-not-returned lines"
	fault_record health-report "$f" "'$(fault_dmesg "$f" | grep -m1 'health: syndrome' | sed 's/^mlx5x [^ ]* //')', logged once; rmmod ok"
}

# (e) A fatal health syndrome once the function is up: the poller puts
# it in the error state, logs that once, the engine stops sending
# commands (lane.sh checks the emulator saw none), the function is taken
# down (recovery switched off: the emulator raises the syndrome again
# after every INIT_HCA), freeing locally the pages the dead device still
# holds, and rmmod completes.
fault_health() {
	local f=$1 end freed fw
	fault_begin "$f" health
	fault_insmod health_poll_ms="$FAULT_HEALTH_POLL_MS" recover=0
	fault_expect "insmod failed" $?
	bound_to_mlx5x "$f"
	fault_expect "not bound after insmod" $?
	fault_want "$f" 1 ' ready: ' "ready lines before the syndrome"
	end=$((SECONDS + 60))
	until fault_count "$f" 'health: fatal syndrome' > /dev/null; do
		[ $SECONDS -lt $end ] || break
		sleep 0.2
	done
	fault_rmmod
	fault_expect "rmmod failed" $?
	fw=$(fault_fw health)
	fault_want "$f" 1 "firmware $fw, command" "'firmware $fw' lines"
	fault_want "$f" 1 "health: fatal syndrome $FAULT_HEALTH_SYND \\(.*\\), ext 0x[0-9a-f]+, rfr 1, entering error state\$" \
		"fatal syndrome $FAULT_HEALTH_SYND lines in 60 s"
	# The error state is logged once: no other health line at all.
	fault_want "$f" 1 'health: ' "health lines"
	fault_want "$f" 1 'command interface killed' "'command interface killed' lines"
	freed=$(fault_dmesg "$f" | sed -n 's/.* \([0-9]*\) firmware pages not returned, freeing them locally$/\1/p')
	[ -n "$freed" ]
	fault_expect "no 'pages freed locally' line" $?
	echo "HEALTH_FREED_LOCALLY=${freed:-}" >> "$FAULT_ENV"
	fault_record health "$f" "error state: '$(fault_dmesg "$f" | grep -m1 'health: fatal' | sed 's/^mlx5x [^ ]* //')', logged once; rmmod ok, ${freed:-?} pages freed locally"
}

# (f) The fault matrix (faultmatrix.py): every command of a bind, the
# fwdiff.py workload and an unbind, failed once at its first and last
# occurrence in each phase it appears in, by one emulator told over its
# request directory (/job/ctl-matrix) which command to fail next.  mlx5x
# stays loaded; the script binds and unbinds the function itself and
# records one line per entry and a summary (lane.sh adds the emulator's
# exit report to it).
fault_matrix() {
	local f=$1 kmsg
	fault_begin "$f" matrix
	only_function none
	fault_insmod
	fault_expect "insmod failed" $?
	echo mlx5x > "/sys/bus/pci/devices/$f/driver_override"
	if [ -z "$FAULT_BAD" ]; then
		# the kernel's side as it happens, for a matrix that hangs
		dmesg -w > "$LOGS/faults-matrix.kmsg" 2>&1 &
		kmsg=$!
		timeout -k 5 1200 python3 /job/faultmatrix.py --pci "$f" \
			--ctl /job/ctl-matrix >> "$FAULT_LOG" 2>&1 ||
			fault_expect "faultmatrix.py: $(excerpt "$FAULT_LOG")" 1
		kill "$kmsg"
		wait "$kmsg" 2>/dev/null
	fi
	fault_rmmod
	fault_expect "rmmod failed" $?
	# faultmatrix.py wrote its lines; only the suite's own failures here
	[ -z "$FAULT_BAD" ] || record faults/matrix-run fail "$FAULT_BAD"
}

faults_mlx5x() {
	local n want tag
	: > "$FAULT_ENV"
	[ -f /job/mlx5x.ko ] || { record faults/setup fail "no /job/mlx5x.ko"; return 1; }
	FAULT_FNS=$(emu_functions | tr '\n' ' ')
	FAULT_FNS=${FAULT_FNS% }
	n=$(echo "$FAULT_FNS" | wc -w)
	want=$(echo "$FAULT_TAGS" | wc -w)
	if [ "$n" -ne "$want" ]; then
		record faults/setup fail "$n emulated functions, want $want: $FAULT_FNS"
		return 1
	fi
	if ! modprobe -a ib_core ib_uverbs > "$(logname faults-setup)" 2>&1; then
		record faults/setup fail "modprobe ib_core ib_uverbs: $(excerpt "$(logname faults-setup)")"
		return 1
	fi
	echo "FAULT_FNS=\"$FAULT_FNS\"" >> "$FAULT_ENV"
	record faults/setup pass "functions $FAULT_FNS"
	# shellcheck disable=SC2086 # one word per function
	set -- $FAULT_FNS
	for tag in $FAULT_TAGS; do
		case $tag in
		cmd-timeout) fault_cmd_timeout "$1" ;;
		cmd-status) fault_cmd_status "$1" ;;
		cmd-*) fault_completion "$1" "$tag" ;;
		health-report) fault_health_report "$1" ;;
		health) fault_health "$1" ;;
		matrix) fault_matrix "$1" ;;
		esac
		shift
	done
	only_function none
}
