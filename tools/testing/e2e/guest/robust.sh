# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Robustness checks (suite part "robust", lane mlx5x): what the driver must
# refuse, and what it must survive.  Sourced by run.sh; needs DEV.  Runs
# last: its final check unloads the driver with a user context still open.
#
#   robust/mmap/*                   mmap() of the uverbs file: legacy and
#                                   out-of-range offsets, an unallocated
#                                   entry, the wrong length, MAP_PRIVATE and
#                                   PROT_EXEC are refused with their errno;
#                                   libmlx5's own UAR still maps
#   robust/cq-overrun-event         an overrun CQ reaches user space as
#                                   IBV_EVENT_CQ_ERR
#   robust/cq-overrun-logged        ... and the driver logged it once
#   robust/srq/*                    SRQ WQE signatures (a udata flag),
#                                   resizing and a limit beyond the SRQ are
#                                   refused; a limit within it is armed
#   robust/rereg-umr/keys-kept      150 in-place PD/access re-registrations
#                                   (the UMR rings wrap) keep the keys
#   robust/rereg-umr/write-after    ... and the MR has the last rights:
#                                   an RDMA WRITE with the old rkey works,
#   robust/rereg-umr/write-refused  and fails once remote write is dropped
#   robust/rereg-readonly/write-refused  an MR on a PROT_READ file page
#                                   (pinned read-only) cannot be made
#                                   writable by rereg: EACCES
#   robust/rereg-readonly/read-kept ... while a rereg to read access works
#   robust/kill9-mid-traffic        both ends of a running pingpong die by
#                                   SIGKILL
#   robust/kill9-then-pingpong      a new pingpong works afterwards
#   robust/rmmod-open-context       rmmod completes while a process holds
#                                   a context with a QP (disassociation)

# shellcheck disable=SC2034 # read by run.sh's teardown
ROBUST_UNLOADED=

# robust_py KIND NAME...: robust.py KIND's result lines; each NAME it did
# not give a verdict for is a failure.
robust_py() {
	local kind=$1 log rc name st det
	local -A got=()
	shift
	log=$(logname "robust/$kind")
	timeout -k 5 120 python3 /job/robust.py "$kind" "$DEV" > "$log" 2>&1
	rc=$?
	# Few forks: under TCG each one costs a noticeable time.
	while IFS=$'\t' read -r name st det; do
		case $st in pass | fail) got[$name]="$st"$'\t'"$det" ;; esac
	done < "$log"
	for name in "$@"; do
		if [ -n "${got[$name]:-}" ]; then
			record "robust/$name" "${got[$name]%%$'\t'*}" "${got[$name]#*$'\t'}"
		else
			record "robust/$name" fail "no verdict: robust.py $kind $(rc_detail $rc): $(excerpt "$log")"
		fi
	done
}

robust_mmap() {
	robust_py mmap mmap/legacy-uar-page0-refused mmap/legacy-clock-page-refused \
		mmap/offset-out-of-range-refused mmap/unallocated-entry-refused \
		mmap/uar-double-length-refused mmap/uar-map-private-refused \
		mmap/uar-prot-exec-refused mmap/valid-uar
}

robust_srq() {
	robust_py srq srq/signature-refused srq/resize-refused \
		srq/limit-beyond-size-refused srq/limit-armed
}

overrun_lines() { dmesg | grep -cE 'mlx5x .*CQ error on CQN 0x[0-9a-f]+, syndrome 0x1 \(overrun\)'; }

robust_cq_overrun() {
	local before after
	before=$(overrun_lines)
	robust_py cq-overrun cq-overrun-event
	after=$(overrun_lines)
	# known-mlx5x.txt lets this line through the dmesg check: it must come
	# from this check alone.
	if [ "$before" -eq 0 ] && [ "$after" -eq 1 ]; then
		record robust/cq-overrun-logged pass "one 'CQ error ... (overrun)' line in dmesg, from this check"
	else
		record robust/cq-overrun-logged fail "overrun lines in dmesg: $before before the check, $after after (want 0, 1)"
	fi
}

# wait_grep FILE ERE SECONDS PID: until FILE matches ERE, or PID died.
wait_grep() {
	local end=$((SECONDS + $3))
	while [ $SECONDS -lt $end ]; do
		grep -qE "$2" "$1" 2>/dev/null && return 0
		kill -0 "$4" 2>/dev/null || return 1
		sleep 0.2
	done
	return 1
}

# Both ends of a long event-mode pingpong are killed mid-traffic (no
# timeout(1) wrapper: the signal must hit the verbs process itself;
# stdbuf execs it, and makes its "remote address" line visible at once).
robust_kill9() {
	local log port=$NEXT_PORT spid cpid src crc
	NEXT_PORT=$((NEXT_PORT + 1))
	log=$(logname robust/kill9)
	ibv_rc_pingpong -d "$DEV" -n 1000000 -s 4096 -e -p "$port" > "$log.server" 2>&1 &
	spid=$!
	if ! wait_listen "$port" "$spid" 60; then
		kill -9 "$spid" 2>/dev/null
		wait "$spid"
		record robust/kill9-mid-traffic fail "server never listened: $(excerpt "$log.server")"
		return
	fi
	stdbuf -oL ibv_rc_pingpong -d "$DEV" -n 1000000 -s 4096 -e -p "$port" 127.0.0.1 > "$log.client" 2>&1 &
	cpid=$!
	# Connected: the client printed its peer; traffic follows at once.
	wait_grep "$log.client" 'remote address' 60 "$cpid"
	sleep 1
	if ! kill -0 "$spid" 2>/dev/null || ! kill -0 "$cpid" 2>/dev/null; then
		kill -9 "$spid" "$cpid" 2>/dev/null
		wait "$spid"; src=$?
		wait "$cpid"; crc=$?
		record robust/kill9-mid-traffic fail "an end exited before the kill (server $(rc_detail $src), client $(rc_detail $crc)): $(excerpt "$log.client")"
		return
	fi
	kill -9 "$spid" "$cpid"
	wait "$spid"; src=$?
	wait "$cpid"; crc=$?
	if [ $src -eq 137 ] && [ $crc -eq 137 ]; then
		record robust/kill9-mid-traffic pass "server and client of an event-mode 4096 B pingpong killed by SIGKILL while running"
	else
		record robust/kill9-mid-traffic fail "server exit $src, client exit $crc (want 137 both)"
	fi
	if run_pair robust/kill9-then-pingpong "$PP_TIMEOUT" ibv_rc_pingpong -d "$DEV" -n 100 -s 4096; then
		record robust/kill9-then-pingpong pass "a new pingpong after the kill: $(sed -n 's/.* = \([0-9.]*\) usec\/iter.*/\1/p' "$PAIR_OUT") usec/iter"
	else
		record robust/kill9-then-pingpong fail "$PAIR_ERR"
	fi
}

# A pingpong server waiting for its peer holds a context, PD, MR, CQ, QP
# and the mapped UAR; rmmod must still complete (the core disassociates
# the context) and the emulator must end with nothing held (emu/leaks).
robust_rmmod_open() {
	local log port=$NEXT_PORT spid rc fds f
	NEXT_PORT=$((NEXT_PORT + 1))
	log=$(logname robust/rmmod-open-context)
	ibv_rc_pingpong -d "$DEV" -n 100 -p "$port" > "$log.server" 2>&1 &
	spid=$!
	if ! wait_listen "$port" "$spid" 60; then
		kill -9 "$spid" 2>/dev/null
		wait "$spid"
		record robust/rmmod-open-context fail "pingpong server never listened: $(excerpt "$log.server")"
		return
	fi
	fds=
	for f in "/proc/$spid/fd"/*; do
		case $(readlink "$f") in
		/dev/infiniband/uverbs*) fds=$(readlink "$f") ;;
		esac
	done
	timeout -k 5 60 rmmod mlx5x > "$log" 2>&1
	rc=$?
	kill -9 "$spid" 2>/dev/null
	wait "$spid"
	# shellcheck disable=SC2034 # read by run.sh's teardown
	ROBUST_UNLOADED=1
	if [ -z "$fds" ]; then
		record robust/rmmod-open-context fail "the server held no uverbs file before rmmod"
	elif [ $rc -ne 0 ]; then
		record robust/rmmod-open-context fail "rmmod mlx5x $(rc_detail $rc) with pid $spid holding $fds: $(excerpt "$log")"
	elif [ -d /sys/module/mlx5x ]; then
		record robust/rmmod-open-context fail "rmmod returned 0 but mlx5x is still loaded"
	else
		record robust/rmmod-open-context pass "rmmod mlx5x completed while a pingpong server held $fds (QP created, waiting for its peer)"
	fi
}

suite_robust() {
	if [ "$LANE" != mlx5x ]; then
		record robust skip "robustness checks are for lane mlx5x"
		return
	fi
	robust_mmap
	robust_cq_overrun
	robust_srq
	robust_py rereg-umr rereg-umr/keys-kept rereg-umr/write-after \
		rereg-umr/write-refused
	robust_py rereg-readonly rereg-readonly/write-refused \
		rereg-readonly/read-kept
	robust_kill9
	robust_rmmod_open
}
