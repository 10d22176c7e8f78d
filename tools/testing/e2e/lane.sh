#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One e2e lane: build what it needs, boot the test VM, run the suite, parse.
#
#   lane.sh DRIVER SUITE      DRIVER: rxe | upstream | mlx5x | mixed | all
#                             SUITE:  full | bringup | faults (mlx5x only)
#                                     | fabric (upstream, mlx5x, mixed, all)
#                                     | fwevents (upstream, mlx5x)
#                                     | fuzz (upstream, mlx5x)
#
#   rxe       soft-RoCE on a dummy netdev; checks the rig itself.
#   upstream  the guest kernel's own mlx5_core + mlx5_ib on the emulated
#             ConnectX (tools/testing/emu).
#   mlx5x     our mlx5x.ko on the emulated ConnectX (mlx5_core never loads).
#   mixed     suite fabric only: the emulator's two linked functions, the
#             first bound to mlx5_core + mlx5_ib, the second to mlx5x
#             (driver_override), every exchange in both directions.
#   all       suite fabric only: the fabric suites of upstream, mixed and
#             mlx5x one after the other in one boot (MLX5X_FABRIC_PHASES),
#             the functions rebound between them; each lane's results,
#             kernel log and emulator figures are its own (its result
#             files as if it had booted alone).
#
# Suite faults boots once with one emulated function per scenario, each
# with one fault injected by its emulator (see "fault suite" below).  Suite
# fabric boots with two functions of one emulator whose ports are linked
# back to back (guest/fabric.sh): opensm, diagnostics, traffic across the
# link, IPoIB, rdma_cm and NVMe over RDMA (MLX5X_FABRIC_DRIVERS binds each
# function: both to the lane's driver, or upstream and mlx5x on lane
# mixed).  Suite fwevents boots once with
# two functions whose emulators start events (page requests, link flap, EQ
# overrun, internal error) or change how they complete commands (late, out
# of slot order, coalesced) when the guest asks (see "firmware-event suite"
# below).  Suite fuzz runs the uverbs fuzzer (fuzz/uvfuzz.c, guest/fuzz.sh)
# on the device, then unloads the driver; on lane upstream its findings are
# figures (skip lines), not failures.
#
# Guest kernel: MLX5X_KERNEL (`make e2e KERNEL=`), debian (default: the
# root tree's own) or debug (tools/testing/vm/build-debug-kernel.sh: KASAN,
# KFENCE, lockdep, debug objects, UBSAN; lane mlx5x only, any suite).  On
# the debug kernel the lane is named DRIVER-SUITE-debug, its timeouts are
# doubled, and the line dmesg/debug fails on any report of those checkers
# or any WARN or BUG, with no allowance.
#
# Results: $MLX5X_RESULTS/e2e-NAME.tsv (one line per test),
# build/results/lane-NAME.md (human table), the job dir build/e2e/NAME/
# (console.log, out.log, logs/, dmesg.txt, emulator report), where NAME is
# DRIVER-SUITE (DRIVER-SUITE-debug on the debug kernel) unless
# MLX5X_E2E_NAME says otherwise.
# Known failures: tools/testing/e2e/known-DRIVER.txt (lane mixed: those of
# both drivers and known-mixed.txt).  Exit status non-zero on any failure.
#
# Knobs (environment, defaults per lane below): MLX5X_E2E_PP_SIZES,
# MLX5X_E2E_PP_ITERS, MLX5X_E2E_PERF_ITERS, MLX5X_E2E_PERF_BW_ITERS,
# MLX5X_E2E_PY_ONLY, MLX5X_E2E_PY_EXCLUDE (comma-separated module
# patterns), MLX5X_E2E_PY_TIMEOUT (s per module), MLX5X_E2E_CYCLES
# (insmod/rmmod cycles of mlx5x bringup), MLX5X_E2E_PARTS (subset of
# "devinfo pingpong perftest pyverbs"), MLX5X_VM_TIMEOUT (s),
# MLX5X_EMU_TRACE=1, MLX5X_PARAMS (insmod parameters), MLX5X_EMU_PORT
# (self|sm), the fabric suite's MLX5X_FABRIC_DRIVERS, MLX5X_FABRIC_DIRS,
# MLX5X_FABRIC_PARTS, MLX5X_FABRIC_PHASES (lane all).

set -uo pipefail

TOP=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=host-lib.sh
. "$TOP/tools/testing/e2e/host-lib.sh"

DRIVER=${1:-}
SUITE=${2:-full}
GUEST_KERNEL=${MLX5X_KERNEL:-debian}
case $GUEST_KERNEL in debian | debug) ;; *)
	echo "unknown guest kernel '$GUEST_KERNEL' (KERNEL=debian|debug)" >&2; exit 2 ;;
esac
case $DRIVER in rxe | upstream | mlx5x | mixed | all) ;; *)
	echo "usage: $0 rxe|upstream|mlx5x|mixed|all [full|bringup|faults|fabric|fwevents|fuzz]" >&2; exit 2 ;;
esac
case $SUITE in full | bringup | faults | fabric | fwevents | fuzz) ;; *)
	echo "usage: $0 rxe|upstream|mlx5x|mixed|all [full|bringup|faults|fabric|fwevents|fuzz]" >&2; exit 2 ;;
esac
[ "$DRIVER/$SUITE" = rxe/bringup ] && {
	echo "lane rxe has no bringup suite (it has no device to bring up)" >&2
	exit 2
}
[ "$SUITE" = faults ] && [ "$DRIVER" != mlx5x ] && {
	echo "suite faults exists for lane mlx5x only" >&2
	exit 2
}
[ "$SUITE" = fabric ] && [ "$DRIVER" = rxe ] && {
	echo "suite fabric needs the emulated device (lanes upstream, mlx5x, mixed)" >&2
	exit 2
}
case $DRIVER in mixed | all)
	[ "$SUITE" = fabric ] || { echo "lane $DRIVER runs suite fabric only" >&2; exit 2; } ;;
esac
[ "$SUITE" = fwevents ] && [ "$DRIVER" = rxe ] && {
	echo "suite fwevents needs the emulated device (lanes upstream, mlx5x)" >&2
	exit 2
}
[ "$SUITE" = fuzz ] && [ "$DRIVER" = rxe ] && {
	echo "suite fuzz speaks mlx5's udata: lanes upstream, mlx5x" >&2
	exit 2
}

# The debug kernel builds in no mlx5_core, mlx5_ib nor rdma_rxe.
[ "$GUEST_KERNEL" = debug ] && [ "$DRIVER" != mlx5x ] && {
	echo "KERNEL=debug exists for lane mlx5x only" >&2
	exit 2
}

KSUFFIX=
[ "$GUEST_KERNEL" = debian ] || KSUFFIX=-$GUEST_KERNEL
NAME=${MLX5X_E2E_NAME:-$DRIVER-$SUITE$KSUFFIX}
# The emulated port: sm (INIT with LID 0 until a subnet manager configures
# it; the lanes start opensm) or self (ACTIVE with a LID from power-on).
# The upstream lanes and every fabric suite are on a subnet; the mlx5x
# lanes follow MLX5X_PORT (host-lib.sh, the one switch they share with
# make run).
if [ "$DRIVER" = upstream ] || [ "$SUITE" = fabric ]; then
	EMU_PORT=${MLX5X_EMU_PORT:-sm}
else
	EMU_PORT=${MLX5X_EMU_PORT:-$MLX5X_PORT}
fi
# shellcheck disable=SC2034 # read by hlog
HLOG_TAG=e2e-$NAME
RESULTS=${MLX5X_RESULTS:-$TOP/build/results}
TSV=$RESULTS/e2e-$NAME.tsv
MD=$TOP/build/results/lane-$NAME.md
JOB=$TOP/build/e2e/$NAME
# set_known LANE: the known-failure files of LANE; the mixed lane runs
# both drivers, so it takes both drivers' entries and its own.
set_known() {
	case $1 in
	mixed) KNOWN=("$E2EDIR/known-upstream.txt" "$E2EDIR/known-mlx5x.txt" "$E2EDIR/known-mixed.txt") ;;
	*) KNOWN=("$E2EDIR/known-$1.txt") ;;
	esac
}
set_known "$DRIVER"
mkdir -p "$RESULTS" "$TOP/build/results" "$TOP/build/e2e"
# Two runs of one lane would share (and wipe) one job dir: serialize them.
exec 8> "$TOP/build/e2e/.$NAME.lock"
if ! flock -n 8; then
	hlog "another run of lane $NAME is in progress; waiting for it"
	flock 8
fi
: > "$TSV"
T0=$SECONDS
EMU_PID=
# functions of a two-function emulator (reports emu-TAG-report.txt)
EMU_TAGS=

trap 'stop_emu' EXIT

# fail_early WHY: the lane cannot run at all; one clear failure line.
fail_early() {
	hlog "FAIL: $*"
	printf '%s/lane\tfail\t%s\n' "$DRIVER" "$*" >> "$TSV"
	write_md
	exit 1
}

# --- per-lane defaults --------------------------------------------------

lane_defaults() {
	# TCG is slow, but 1000 pingpong iterations cost seconds (rxe at
	# 64 KiB, the slowest, about 5 s a mode): enough to catch a lost
	# completion event, which a few hundred round trips may not.
	PP_SIZES=${MLX5X_E2E_PP_SIZES:-"1 4096 65536"}
	PP_ITERS=${MLX5X_E2E_PP_ITERS:-1000}
	PERF_ITERS=${MLX5X_E2E_PERF_ITERS:-500}
	PERF_BW_ITERS=${MLX5X_E2E_PERF_BW_ITERS:-200}
	PY_ONLY=${MLX5X_E2E_PY_ONLY:-}
	PY_TIMEOUT=${MLX5X_E2E_PY_TIMEOUT:-300}
	CYCLES=${MLX5X_E2E_CYCLES:-20}
	PARTS=${MLX5X_E2E_PARTS:-"devinfo pingpong perftest pyverbs"}
	# The fabric suite binds each function to its driver (driver_override)
	# and runs its exchanges in one direction, or in both when the two
	# ends are different drivers (fabric.sh: FABRIC_DIRS).
	case $DRIVER in
	mlx5x) FABRIC_DRIVERS=${MLX5X_FABRIC_DRIVERS:-"mlx5x mlx5x"} ;;
	mixed) FABRIC_DRIVERS=${MLX5X_FABRIC_DRIVERS:-"mlx5_core mlx5x"} ;;
	*) FABRIC_DRIVERS=${MLX5X_FABRIC_DRIVERS:-"mlx5_core mlx5_core"} ;;
	esac
	# Lane all: LANE:DRIVER_A,DRIVER_B:DIRS per phase, in order; the
	# upstream pair first (the emulator's reference), mlx5x alone last.
	FABRIC_PHASES=
	if [ "$DRIVER" = all ]; then
		FABRIC_PHASES=${MLX5X_FABRIC_PHASES:-"upstream:mlx5_core,mlx5_core:b2a mixed:mlx5_core,mlx5x:b2a,a2b mlx5x:mlx5x,mlx5x:b2a"}
		# every driver of a phase (what to build)
		FABRIC_DRIVERS=$(tr ' ' '\n' <<< "$FABRIC_PHASES" | cut -d: -f2 | tr ',' ' ' | paste -sd' ')
	fi
	if [ "$DRIVER" = mixed ]; then
		FABRIC_DIRS=${MLX5X_FABRIC_DIRS:-"b2a a2b"}
	else
		FABRIC_DIRS=${MLX5X_FABRIC_DIRS:-b2a}
	fi
	# mlx5x also shows itself through the rdma tool and sysfs (observe),
	# and runs the robustness checks; last, as they unload it.
	[ "$DRIVER" != mlx5x ] || PARTS=${MLX5X_E2E_PARTS:-"$PARTS observe robust"}
	# The full suites on the emulator start with the workload of the
	# firmware-command differential (tools/testing/fwdiff).
	if [ "$DRIVER" != rxe ] && [ "$SUITE" = full ]; then
		PARTS=${MLX5X_E2E_PARTS:-"fwdiff $PARTS"}
	fi
	if [ "$DRIVER" = rxe ]; then
		PY_EXCLUDE=${MLX5X_E2E_PY_EXCLUDE:-}
		VM_TMO=${MLX5X_VM_TIMEOUT:-1500}
	else
		# Vendor-specific (DEVX, DR, ...) and other vendors' modules.  The
		# rdmacm tests need an IPoIB address: the guest brings one up on a
		# port of a subnet and leaves them out (a skip line) otherwise.
		PY_EXCLUDE=${MLX5X_E2E_PY_EXCLUDE:-"test_mlx5_*,test_efa*,test_cuda*"}
		if [ "$SUITE" = faults ]; then
			VM_TMO=${MLX5X_VM_TIMEOUT:-2100}
		elif [ "$SUITE" = fwevents ]; then
			VM_TMO=${MLX5X_VM_TIMEOUT:-900}
		elif [ "$SUITE" = fuzz ]; then
			VM_TMO=${MLX5X_VM_TIMEOUT:-$((FUZZ_TIME + 900))}
		elif [ "$SUITE" = fabric ]; then
			VM_TMO=${MLX5X_VM_TIMEOUT:-2400}
			# two directions: most of the suite twice
			case $FABRIC_DIRS in *" "*) VM_TMO=${MLX5X_VM_TIMEOUT:-3600} ;; esac
			[ -z "$FABRIC_PHASES" ] || VM_TMO=${MLX5X_VM_TIMEOUT:-7200}
		elif [ "$SUITE" = bringup ]; then
			VM_TMO=${MLX5X_VM_TIMEOUT:-900}
		else
			VM_TMO=${MLX5X_VM_TIMEOUT:-1800}
		fi
	fi
	# KASAN, lockdep and debug objects make every allocation, lock and
	# memory access slower, on top of TCG: twice the time as a margin.
	if [ "$GUEST_KERNEL" = debug ]; then
		[ -n "${MLX5X_VM_TIMEOUT:-}" ] || VM_TMO=$((VM_TMO * 2))
		[ -n "${MLX5X_E2E_PY_TIMEOUT:-}" ] || PY_TIMEOUT=$((PY_TIMEOUT * 2))
	fi
}

write_env() {
	cat > "$JOB/job.env" <<-EOF
	LANE=$DRIVER
	SUITE=$SUITE
	KERNEL=$GUEST_KERNEL
	PP_SIZES="$PP_SIZES"
	PP_ITERS=$PP_ITERS
	PP_TIMEOUT=$((120 + PP_ITERS / 5))
	PERF_ITERS=$PERF_ITERS
	PERF_BW_ITERS=$PERF_BW_ITERS
	PERF_TIMEOUT=180
	PY_ONLY="$PY_ONLY"
	PY_EXCLUDE="$PY_EXCLUDE"
	PY_TIMEOUT=$PY_TIMEOUT
	PY_TOTAL_TIMEOUT=$((VM_TMO - 120))
	CYCLES=$CYCLES
	SUITE_PARTS="$PARTS"
	MLX5X_PARAMS="${MLX5X_PARAMS:-}"
	FABRIC_DRIVERS="$FABRIC_DRIVERS"
	FABRIC_DIRS="$FABRIC_DIRS"
	FABRIC_PHASES="$FABRIC_PHASES"
	FABRIC_PARTS="${MLX5X_FABRIC_PARTS:-}"
	FABRIC_TCP_MIB=${MLX5X_FABRIC_TCP_MIB:-64}
	FABRIC_NVME_MIB=${MLX5X_FABRIC_NVME_MIB:-32}
	EOF
	[ "$SUITE" != faults ] || fault_env >> "$JOB/job.env"
	[ "$SUITE" != fwevents ] || fwev_env >> "$JOB/job.env"
	[ "$SUITE" != fuzz ] || fuzz_env >> "$JOB/job.env"
}

# --- fuzz suite (upstream, mlx5x) -----------------------------------------
#
# A fixed seed, so make check runs the same operations each time (only
# where the SIGKILLs land varies); MLX5X_FUZZ_SEED picks another.
FUZZ_SEED=${MLX5X_FUZZ_SEED:-1}
FUZZ_OPS=${MLX5X_FUZZ_OPS:-200000}
FUZZ_PROCS=${MLX5X_FUZZ_PROCS:-4}
FUZZ_KILLS=${MLX5X_FUZZ_KILLS:-8}
# a bound on the run whatever the host's load (the ops figure says if hit)
FUZZ_TIME=${MLX5X_FUZZ_TIME:-600}

# ib_core's own warning (not rate-limited) when a consumer's PSN does not
# fit 24 bits: the fuzzer sends such PSNs on purpose.
FUZZ_DMESG_ALLOW='_ib_modify_qp (rq|sq)_psn overflow, masking to 24 bits$'

fuzz_env() {
	cat <<-EOF
	FUZZ_SEED=$FUZZ_SEED
	FUZZ_OPS=$FUZZ_OPS
	FUZZ_PROCS=$FUZZ_PROCS
	FUZZ_KILLS=$FUZZ_KILLS
	FUZZ_TIME=$FUZZ_TIME
	EOF
}

# fuzz_upstream_info IN OUT: on lane upstream the fuzzer measures the
# in-tree driver; what it finds there is reported, not failed.
fuzz_upstream_info() {
	awk -F'\t' -v OFS='\t' '$2 == "fail" { $2 = "skip"; $3 = "upstream finding (informational): " $3 } { print }' "$1" > "$2"
}

# fwdiff_emu_args: with the fwdiff part, the emulator writes the field
# trace of every command up to the workload's end marker (its last SRQ
# limit, MARK_LIMIT in guest/fwdiff.py) to $JOB/ftrace.txt.
FWDIFF_STOP=MODIFY_RMP:rmpc.wq.lwm=0x1a5
fwdiff_emu_args() {
	case " $PARTS " in
	*" fwdiff "*) echo "--ftrace $JOB/ftrace.txt --ftrace-stop $FWDIFF_STOP" ;;
	esac
}

# --- fault suite (mlx5x) --------------------------------------------------
#
# One emulator instance per scenario, attached in this order (so the
# guest finds them in this order on the bus); each has its own firmware
# version, which the guest checks to be sure it drives the instance it
# thinks.  The guest records one line per scenario from its side (driver
# behaviour, dmesg); fault_lines folds the emulator's view (report, trace)
# into the same line.
#   cmd-timeout    QUERY_ADAPTER (ready stage, events mode) never completes
#   cmd-status     the 2nd CREATE_EQ (1st completion EQ) fails with a status
#                  (FAULT_STATUS_NTH: the async EQ's is the 1st)
#   cmd-delay      command EQEs arrive FAULT_DELAY_MS after the owner bit
#   cmd-reorder    commands rung together complete highest slot first
#   cmd-coalesce   command EQEs of a window merge into one (slot vector)
#   cmd-duplicate  a command's EQE comes again when its slot is rung next
#   cmd-irq-drop   the interrupts of the first command EQEs are lost
#   health-report  a health syndrome without the recovery-flow request
#   health         a fatal health syndrome (recovery flow requested)
#   matrix         no fault at start-up: the guest sets one command failure
#                  after another through the request directory ctl-matrix
#                  (guest/faultmatrix.py); the exit report must show every
#                  page back and, alive, only the objects the matrix's
#                  refused teardown DESTROYs left by design
# MLX5X_E2E_FAULT_TAGS runs a subset (in this order; a development aid).
# The matrix is not in the default set: on the driver as it stands some
# of its entries leave the function refusing the next bind, so it runs
# only when named (MLX5X_E2E_FAULT_TAGS=matrix).

FAULT_ALL_TAGS="cmd-timeout cmd-status cmd-delay cmd-reorder cmd-coalesce cmd-duplicate cmd-irq-drop health-report health matrix"
FAULT_TAGS=${MLX5X_E2E_FAULT_TAGS:-${FAULT_ALL_TAGS% matrix}}
# the firmware version of each scenario: 16.35.4031 onwards, by its place
# in FAULT_ALL_TAGS (a subset keeps them)
FAULT_FWS=$(for t in $FAULT_TAGS; do
	n=$(tr ' ' '\n' <<< "$FAULT_ALL_TAGS" | grep -nx -- "$t" | cut -d: -f1)
	echo "16.35.$((4030 + ${n:-0}))"
done | paste -sd' ')
FAULT_CMD_TMO_MS=3000
FAULT_TIMEOUT_OP=QUERY_ADAPTER
FAULT_TIMEOUT_OPCODE=0x101
FAULT_STATUS_OP=CREATE_EQ
FAULT_STATUS_OPCODE=0x301
FAULT_STATUS=0x3
FAULT_STATUS_NAME="bad parameter"
FAULT_STATUS_SYND=0x0badc0de
FAULT_STATUS_NTH=2
FAULT_HEALTH_SYND=0x7
FAULT_HEALTH_DELAY_MS=5000
FAULT_HEALTH_POLL_MS=500
FAULT_REPORT_SYND=0x10
FAULT_DELAY_MS=1500
FAULT_WINDOW_MS=20
FAULT_DUP_HOLD_MS=50
FAULT_IRQ_DROP=3
FAULT_WATCHDOG_MS=200

fault_env() {
	cat <<-EOF
	FAULT_TAGS="$FAULT_TAGS"
	FAULT_FWS="$FAULT_FWS"
	FAULT_REPORT_SYND=$FAULT_REPORT_SYND
	FAULT_WATCHDOG_MS=$FAULT_WATCHDOG_MS
	FAULT_CMD_TMO_MS=$FAULT_CMD_TMO_MS
	FAULT_TIMEOUT_OP=$FAULT_TIMEOUT_OP
	FAULT_TIMEOUT_OPCODE=$FAULT_TIMEOUT_OPCODE
	FAULT_STATUS_OP=$FAULT_STATUS_OP
	FAULT_STATUS_OPCODE=$FAULT_STATUS_OPCODE
	FAULT_STATUS=$FAULT_STATUS
	FAULT_STATUS_NAME="$FAULT_STATUS_NAME"
	FAULT_STATUS_SYND=$FAULT_STATUS_SYND
	FAULT_HEALTH_SYND=$FAULT_HEALTH_SYND
	FAULT_HEALTH_POLL_MS=$FAULT_HEALTH_POLL_MS
	EOF
}

# fault_emu_args TAG: the emulator options of one scenario.
fault_emu_args() {
	case $1 in
	cmd-timeout) echo "--fault-cmd-timeout=$FAULT_TIMEOUT_OP" ;;
	cmd-status) echo "--fault-cmd-status=$FAULT_STATUS_OP:$FAULT_STATUS:$FAULT_STATUS_SYND:$FAULT_STATUS_NTH" ;;
	cmd-delay) echo "--cmd-completion=delay:$FAULT_DELAY_MS" ;;
	cmd-reorder) echo "--cmd-completion=reorder:$FAULT_WINDOW_MS" ;;
	cmd-coalesce) echo "--cmd-completion=coalesce:$FAULT_WINDOW_MS" ;;
	cmd-duplicate) echo "--cmd-completion=duplicate:$FAULT_DUP_HOLD_MS" ;;
	cmd-irq-drop) echo "--fault-cmd-irq-drop=$FAULT_IRQ_DROP" ;;
	health-report) echo "--fault-health=$FAULT_REPORT_SYND:$FAULT_HEALTH_DELAY_MS" ;;
	health) echo "--fault-health=$FAULT_HEALTH_SYND:$FAULT_HEALTH_DELAY_MS:rfr" ;;
	matrix) echo "--events-ctl $JOB/ctl-matrix" ;;
	esac
}

# start_fault_emus: one emulator per scenario; sets SOCKOPT.
start_fault_emus() {
	local tag i=0 fws
	read -ra fws <<< "$FAULT_FWS"
	mkdir -p "$JOB/ctl-matrix"
	for tag in $FAULT_TAGS; do
		# shellcheck disable=SC2046 # one option per scenario
		start_emu "$JOB" "$(printf 0x0002c90300e5f0%02x $((i + 1)))" "$tag" --trace \
			--log "$JOB/emu-$tag.log" --fw "${fws[$i]}" $(fault_emu_args "$tag") ||
			return 1
		hlog "emulator $tag listening (pid $EMU_PID, fw ${fws[$i]}, $(fault_emu_args "$tag"))"
		SOCKOPT+=(-s "vfu-$tag.sock")
		i=$((i + 1))
	done
}

# emu_violations REPORT: the firmware rules the driver broke, as
# "viol_name=N ..." (nothing if none); fails unless violations=0.
emu_violations() {
	local n
	n=$(report_value "$1" violations)
	[ "$n" = 0 ] && return 0
	echo "violations=${n:-?}: $(grep -E '^viol_.*=[1-9]' "$1" | tr '\n' ' ')"
	return 1
}

# emu_leaks TAG: "live_objects=0 pages_held=0" from the report and no
# firmware-rule violation, or fail.
emu_leaks() {
	local r=$JOB/emu-$1-report.txt live pages viol rc=0
	[ -s "$r" ] || { echo "no report ($(basename "$r"))"; return 1; }
	live=$(report_value "$r" live_objects)
	pages=$(report_value "$r" pages_held)
	viol=$(emu_violations "$r") || rc=1
	echo "live_objects=${live:-?} pages_held=${pages:-?}${viol:+ $viol}"
	[ "$live" = 0 ] && [ "$pages" = 0 ] && [ $rc = 0 ]
}

# emu_logged TAG N ERE WHAT: the emulator of scenario TAG logged N lines
# matching ERE and kept nothing; prints a detail.
emu_logged() {
	local n leaks rc=0
	n=$(grep -cE "$3" "$JOB/emu-$1.log" 2>/dev/null)
	leaks=$(emu_leaks "$1") || rc=1
	[ "${n:-0}" -eq "$2" ] || rc=1
	echo "${n:-0} of $2 $4, $leaks"
	return $rc
}

# After the syndrome the driver must send nothing; the pages the dead
# device still holds are exactly those the driver freed locally.
emu_check_health() {
	local log=$JOB/emu-health.log r=$JOB/emu-health-report.txt at after held freed
	at=$(grep -nm1 "fault: health syndrome $FAULT_HEALTH_SYND raised" "$log" 2>/dev/null | cut -d: -f1)
	[ -n "$at" ] || { echo "syndrome never raised (not read by the driver?)"; return 1; }
	after=$(tail -n +"$at" "$log" | grep -c ' cmd slot=')
	held=$(report_value "$r" pages_held)
	freed=$(sed -n 's/^HEALTH_FREED_LOCALLY=//p' "$JOB/faults.env" 2>/dev/null)
	echo "syndrome raised, $after commands after it, pages_held=${held:-?}, freed locally ${freed:-?}"
	[ "$after" -eq 0 ] && [ -n "$held" ] && [ "$held" = "$freed" ]
}

# A syndrome without the recovery-flow request changes nothing: the
# driver keeps sending commands (its teardown) and the firmware gets its
# pages back through them.
emu_check_health_report() {
	local log=$JOB/emu-health-report.log at after leaks rc=0
	at=$(grep -nm1 "fault: health syndrome $FAULT_REPORT_SYND raised" "$log" 2>/dev/null | cut -d: -f1)
	[ -n "$at" ] || { echo "syndrome never raised (not read by the driver?)"; return 1; }
	after=$(tail -n +"$at" "$log" | grep -c ' cmd slot=')
	leaks=$(emu_leaks health-report) || rc=1
	echo "syndrome raised, $after commands after it, $leaks"
	[ "$after" -gt 0 ] && [ $rc -eq 0 ]
}

# emu_check_completion TAG KEY OP N: no leak, and the report's KEY OP N
# (-gt/-eq): the completion mode or fault really happened.
emu_check_completion() {
	local r=$JOB/emu-$1-report.txt leaks rc=0 v
	leaks=$(emu_leaks "$1") || rc=1
	v=$(report_value "$r" "$2")
	echo "$2=${v:-?} (want $3 $4), cmd_eqes=$(report_value "$r" cmd_eqes), cmds=$(report_value "$r" cmds), $leaks"
	[ $rc -eq 0 ] && [ -n "$v" ] && [ "$v" "$3" "$4" ]
}

# The matrix's emulator at exit: every page back, no rule broken, and
# alive only the objects the guest counted as left by design (a refused
# DESTROY at unbind leaves its object with the firmware, which drops it
# at TEARDOWN_HCA).
emu_check_matrix() {
	local r=$JOB/emu-matrix-report.txt live pages want viol rc=0
	[ -s "$r" ] || { echo "no report ($(basename "$r"))"; return 1; }
	live=$(report_value "$r" live_objects)
	pages=$(report_value "$r" pages_held)
	want=$(sed -n 's/^MATRIX_DROPPED=//p' "$JOB/faults.env" 2>/dev/null)
	viol=$(emu_violations "$r") || rc=1
	echo "live_objects=${live:-?} (dropped by design ${want:-?}) pages_held=${pages:-?}, $(report_value "$r" cmds) commands, $(report_value "$r" events_done) requests${viol:+, $viol}"
	[ "$live" = "$want" ] && [ "$pages" = 0 ] && [ $rc -eq 0 ]
}

# fault_line TAG GUEST_LINE: one scenario's line with the emulator's view
# folded in; it passes only if both sides do.
fault_line() {
	local tag=$1 st det emu erc
	case $tag in
	cmd-timeout)
		emu=$(emu_logged cmd-timeout 2 \
			"fault: command $FAULT_TIMEOUT_OP in slot [0-9]+ left pending" \
			"$FAULT_TIMEOUT_OP left pending") ;;
	cmd-status)
		emu=$(emu_logged cmd-status 1 \
			"op=$FAULT_STATUS_OP\\($FAULT_STATUS_OPCODE\\) .*\\($FAULT_STATUS\\) synd=$FAULT_STATUS_SYND .*\\(injected\\)" \
			"injected $FAULT_STATUS_OP failures") ;;
	cmd-delay) emu=$(emu_check_completion cmd-delay cmd_delayed -gt 0) ;;
	cmd-reorder) emu=$(emu_check_completion cmd-reorder cmd_reordered -gt 0) ;;
	cmd-coalesce) emu=$(emu_check_completion cmd-coalesce cmd_coalesced -gt 0) ;;
	cmd-duplicate) emu=$(emu_check_completion cmd-duplicate cmd_eqes_dup -gt 0) ;;
	cmd-irq-drop) emu=$(emu_check_completion cmd-irq-drop cmd_irqs_lost -eq "$FAULT_IRQ_DROP") ;;
	health-report) emu=$(emu_check_health_report) ;;
	health) emu=$(emu_check_health) ;;
	matrix) emu=$(emu_check_matrix) ;;
	esac
	erc=$?
	if [ -z "$2" ]; then
		printf 'faults/%s\tfail\tthe scenario did not run | emulator: %s\n' "$tag" "$emu"
		return
	fi
	st=$(cut -f2 <<< "$2")
	det=$(cut -f3 <<< "$2")
	if [ "$st" = pass ] && [ $erc -eq 0 ]; then
		printf 'faults/%s\tpass\t%s | emulator: %s\n' "$tag" "$det" "$emu"
	else
		printf 'faults/%s\tfail\tguest: %s | emulator: %s\n' "$tag" "$det" "$emu"
	fi
}

# fault_lines: the guest's lines in their order, each scenario's with the
# emulator's view folded in; a scenario the guest never reached fails.
fault_lines() {
	local line tag seen=" "
	while IFS= read -r line; do
		tag=${line%%$'\t'*}
		tag=${tag#faults/}
		if [[ " $FAULT_TAGS " == *" $tag "* ]]; then
			fault_line "$tag" "$line"
			seen+="$tag "
		else
			printf '%s\n' "$line"
		fi
	done < "$JOB/results.tsv"
	for tag in $FAULT_TAGS; do
		[[ "$seen" == *" $tag "* ]] || fault_line "$tag" ""
	done
}

# --- firmware-event suite (upstream, mlx5x) ----------------------------
#
# Two emulator instances with request directories in the job dir (the
# guest writes requests there, see guest/fwevents.sh); firmware versions
# tell the functions apart.
#   ev   --events pages,port,cmd-completion: page requests and a link flap
#        under traffic; then, once per FWEV_CMD_MODES word, the guest
#        unbinds the driver, has the emulator complete commands that way
#        (the cmd-completion request), binds it again and runs
#        guest/cmdload.py (processes creating and destroying PDs, MRs,
#        CQs and QPs at once, so several command slots are busy) beside a
#        pingpong pair, and unbinds.  Must end with live_objects=0
#        pages_held=0, no firmware-rule violation or device error, and the
#        counter of each mode (cmd_delayed, cmd_reordered, cmd_coalesced)
#        above 0.  duplicate stays in the mlx5x fault suite: mlx5_core
#        does not survive a repeated EQE.
#   err  --events eq-overrun,internal-error,die: the firmware fails; the
#        driver resets the function (FLR or the firmware's own reset),
#        which drops the objects and pages it held (freed by the driver
#        locally), and loads again; its report must show the overrun, one
#        fatal syndrome, the reset, and nothing left once the driver
#        unloaded but what the reset dropped (mlx5x: unless the device
#        was then made to die).
# The messages these events make the drivers log are allowed explicitly
# (FWEV_DMESG_ALLOW_*); nothing else may appear.

# the fabric suite's first function (A)
FAB_GUID_A=0x0002c90300fab0a1

FWEV_FW_EV=16.35.4041
FWEV_FW_ERR=16.35.4042
FWEV_PP_ITERS=${MLX5X_E2E_FWEV_ITERS:-3000}
# Windows and delay of the completion modes: every command waits for its
# EQE that much longer in mlx5_core (it ends commands by the event), so
# they stay short; the delay stays below mlx5x's command watchdog period
# (1 s), which would otherwise complete the command from its owner bit
# first (and say so).
FWEV_CMD_MODES=${MLX5X_E2E_FWEV_CMD_MODES:-"delay:20 reorder:10 coalesce:10"}
FWEV_CMD_PROCS=4
FWEV_CMD_ROUNDS=${MLX5X_E2E_FWEV_CMD_ROUNDS:-3}
FWEV_CMD_PP_ITERS=200
# How fwevents/unplug removes ev: sysfs (the PCI core's removal) or qmp
# (device_del through QEMU's monitor; QEMU 11.1 aborts on it)
FWEV_UNPLUG=${MLX5X_E2E_FWEV_UNPLUG:-sysfs}
# upstream (mlx5_core health.c, main.c): the fatal error with the health
# buffer it prints, then the recovery: the SW reset semaphore taken, the
# firmware reset through nic_interface, the unload, the slot reset and
# the reload.
FWEV_DMESG_ALLOW_upstream='poll_health:[0-9]+:\(pid [0-9]+\): Fatal error 5 detected$'
FWEV_DMESG_ALLOW_upstream+='|print_health_info:[0-9]+:\(pid [0-9]+\): '
FWEV_DMESG_ALLOW_upstream+='|mlx5_health_try_recover:[0-9]+:\(pid [0-9]+\): (handling bad device here|starting health recovery flow)$'
FWEV_DMESG_ALLOW_upstream+='|mlx5_handle_bad_state:[0-9]+:\(pid [0-9]+\): Expected to see disabled NIC but it is full driver$'
FWEV_DMESG_ALLOW_upstream+='|mlx5_error_sw_reset:[0-9]+:\(pid [0-9]+\): (start|end)$'
FWEV_DMESG_ALLOW_upstream+='|reset_fw_if_needed:[0-9]+:\(pid [0-9]+\): Issuing FW Reset$'
FWEV_DMESG_ALLOW_upstream+='|mlx5_wait_for_pages:[0-9]+:\(pid [0-9]+\): Skipping wait for vf pages stage$'
# mlx5x (health.c, cmd.c, pagealloc.c, hca.c): the overrun syndrome
# warning, the fatal syndrome and the killed command interface, and at
# rmmod the dead function's pages freed locally
FWEV_DMESG_ALLOW_mlx5x='mlx5x [0-9a-f:.]+: health: syndrome 0xc \(async EQ buffer overrun\), ext 0x0, no recovery flow requested: reported, device kept in service$'
FWEV_DMESG_ALLOW_mlx5x+='|mlx5x [0-9a-f:.]+: health: fatal syndrome 0x1 \(firmware internal error\), ext 0x0, rfr 1, entering error state$'
FWEV_DMESG_ALLOW_mlx5x+='|mlx5x [0-9a-f:.]+: command interface killed: DMA stopped, commands complete locally from now on$'
FWEV_DMESG_ALLOW_mlx5x+='|mlx5x [0-9a-f:.]+: [0-9]+ firmware pages not returned, freeing them locally$'
FWEV_DMESG_ALLOW_mlx5x+='|mlx5x [0-9a-f:.]+: page reclaim incomplete: -5$'
# the recovery (main.c), and the device death after it: not answering,
# taken down and left so
FWEV_DMESG_ALLOW_mlx5x+='|mlx5x [0-9a-f:.]+: function in the error state: taking it down; (recovering|not recovering: .*)$'
FWEV_DMESG_ALLOW_mlx5x+='|mlx5x [0-9a-f:.]+: health: device not responding \(reads all ones\), entering error state$'
FWEV_DMESG_ALLOW_mlx5x+='|mlx5x [0-9a-f:.]+: function left down: unbind and bind it to try again$'

fwev_env() {
	cat <<-EOF
	FWEV_FW_EV=$FWEV_FW_EV
	FWEV_FW_ERR=$FWEV_FW_ERR
	FWEV_PP_ITERS=$FWEV_PP_ITERS
	FWEV_CMD_MODES="$FWEV_CMD_MODES"
	FWEV_CMD_PROCS=$FWEV_CMD_PROCS
	FWEV_CMD_ROUNDS=$FWEV_CMD_ROUNDS
	FWEV_CMD_PP_ITERS=$FWEV_CMD_PP_ITERS
	FWEV_QMP_EV=vfu0
	FWEV_UNPLUG=$FWEV_UNPLUG
	EOF
}

# host_ctl_serve: the guest's requests to the host while the VM runs,
# "SEQ WORD ARG" in $JOB/ctl-host/req answered "SEQ ok|error DETAIL" in
# $JOB/ctl-host/ack, as the emulators' --events-ctl: "unplug ID"
# hot-unplugs QEMU device ID through the QMP socket (qmp.py); "snapshot
# PHASE" saves the emulator's reports as they are now for a fabric phase
# (emu_snapshot).
host_ctl_serve() {
	local dir=$JOB/ctl-host seq word arg ans
	while :; do
		if [ -e "$dir/req" ]; then
			read -r seq word arg < "$dir/req"
			rm -f "$dir/req"
			case $word in
			unplug) ans=$(python3 "$E2EDIR/qmp.py" "$JOB/qmp.sock" device_del "$arg" 150) ;;
			snapshot) ans=$(emu_snapshot "$arg") ;;
			*) ans="error unknown request '$word'" ;;
			esac
			hlog "guest request $word $arg: $ans"
			echo "$seq $ans" > "$dir/ack.tmp" && mv "$dir/ack.tmp" "$dir/ack"
		fi
		sleep 0.2
	done
}

# emu_snapshot PHASE: the reports of both functions of the fabric
# emulator now (SIGUSR1 prints them to emu.out), saved as
# phase-PHASE/emu-{a,b}-snap.txt; prints "ok" or "error WHY".
emu_snapshot() {
	local dir=$JOB/phase-$1 n i
	mkdir -p "$dir"
	n=$(grep -c '^dma_refused=' "$JOB/emu.out")
	kill -USR1 "$EMU_PID" 2>/dev/null || { echo "error the emulator is gone"; return; }
	for ((i = 0; i < 100; i++)); do
		[ "$(grep -c '^dma_refused=' "$JOB/emu.out")" -ge $((n + 2)) ] && break
		sleep 0.1
	done
	[ "$(grep -c '^dma_refused=' "$JOB/emu.out")" -ge $((n + 2)) ] ||
		{ echo "error no reports from the emulator in 10 s"; return; }
	# the last two reports (each from "emu=" to "dma_refused="), by GUID
	awk -v d="$dir" -v ga="$FAB_GUID_A" '
		/^emu=/ { r = ""; on = 1 }
		on { r = r $0 "\n" }
		/^guid=/ { g = substr($0, 6) }
		/^dma_refused=/ && on { rep[g] = r; on = 0 }
		END { for (g in rep) printf "%s", rep[g] > (d "/emu-" (g == ga ? "a" : "b") "-snap.txt") }' "$JOB/emu.out"
	echo "ok live_objects $(report_value "$dir/emu-a-snap.txt" live_objects) $(report_value "$dir/emu-b-snap.txt" live_objects)"
}

start_fwev_emus() {
	mkdir -p "$JOB/ctl-ev" "$JOB/ctl-err"
	start_emu "$JOB" 0x0002c90300e5e001 ev --trace --log "$JOB/emu-ev.log" \
		--fw "$FWEV_FW_EV" --events pages,port,cmd-completion \
		--events-ctl "$JOB/ctl-ev" ||
		return 1
	SOCKOPT+=(-s vfu-ev.sock)
	start_emu "$JOB" 0x0002c90300e5e002 err --trace --log "$JOB/emu-err.log" \
		--fw "$FWEV_FW_ERR" --events eq-overrun,internal-error,die \
		--events-ctl "$JOB/ctl-err" || return 1
	SOCKOPT+=(-s vfu-err.sock)
	hlog "emulators ev and err listening (ctl dirs $JOB/ctl-ev, $JOB/ctl-err)"
}

# fwev_cmd_lines REPORT: each completion mode acted on ev (its counter
# is not 0), which broke no firmware rule and saw no device error.
fwev_cmd_lines() {
	local m key v acted= idle=
	for m in $FWEV_CMD_MODES; do
		case ${m%%:*} in
		delay) key=cmd_delayed ;;
		reorder) key=cmd_reordered ;;
		coalesce) key=cmd_coalesced ;;
		*) key=cmd_${m%%:*} ;;
		esac
		v=$(report_value "$1" "$key")
		if [ "${v:-0}" -gt 0 ]; then
			acted+="${acted:+, }$key=$v"
		else
			idle+="${idle:+, }$key=${v:-?}"
		fi
	done
	if [ -z "$idle" ]; then
		printf 'emu/cmd-completion\tpass\t%s of %s commands; mode now %s\n' \
			"$acted" "$(report_value "$1" cmds)" "$(report_value "$1" cmd_mode)"
	else
		printf 'emu/cmd-completion\tfail\tmodes that never acted: %s%s\n' \
			"$idle" "${acted:+ (acted: $acted)}"
	fi
	local viol
	if viol=$(emu_violations "$1"); then
		echo "emu/violations-ev	pass	0 firmware-rule violations"
	else
		echo "emu/violations-ev	fail	$viol"
	fi
	check_emu_violations "$1" -ev
}

# fwev_emu_lines: the emulators' view of the suite.
fwev_emu_lines() {
	local r=$JOB/emu-ev-report.txt e=$JOB/emu-err-report.txt
	local live pages req ports refused ovr synd rfr
	if [ -s "$r" ]; then
		live=$(report_value "$r" live_objects)
		pages=$(report_value "$r" pages_held)
		req=$(report_value "$r" page_requests)
		ports=$(report_value "$r" port_changes)
		refused=$(report_value "$r" events_refused)
		if [ "$live" = 0 ] && [ "$pages" = 0 ] && [ "${req:-0}" -gt 0 ] &&
			[ "$ports" = 2 ] && [ "$refused" = 0 ]; then
			printf 'emu/ev\tpass\tlive_objects=0 pages_held=0, %s page requests, %s port changes, given %s taken %s\n' \
				"$req" "$ports" "$(report_value "$r" pages_given)" "$(report_value "$r" pages_taken)"
		else
			printf 'emu/ev\tfail\tlive_objects=%s pages_held=%s page_requests=%s port_changes=%s (want 2) events_refused=%s\n' \
				"${live:-?}" "${pages:-?}" "${req:-?}" "${ports:-?}" "${refused:-?}"
		fi
		fwev_cmd_lines "$r"
	else
		printf 'emu/ev\tfail\tno report (%s)\n' "$(tail -n 2 "$JOB/emu-ev.out" 2>/dev/null | tr '\n' ' ')"
	fi
	if [ -s "$e" ]; then
		local fatal resets live now
		ovr=$(report_value "$e" eq_overruns)
		fatal=$(report_value "$e" health_fatal)
		resets=$(awk -F= '/^(flrs|fw_resets)=/ { n += $2 } END { print n + 0 }' "$e")
		# objects the reset dropped count as live; the rest must be gone
		live=$(report_value "$e" live_objects)
		now=$(awk -F= '/^live_objects=/ { l = $2 } /^dropped_/ { d += $2 } END { print l - d }' "$e")
		local dead left
		dead=$(report_value "$e" dead)
		left="no object or page left but the $((live - now)) the reset dropped"
		# a device that died keeps what it held at its death
		[ "$dead" = 1 ] && left="dead since (dead_reads=$(report_value "$e" dead_reads)), holding $now object(s) and $(report_value "$e" pages_live) page(s) the driver freed locally"
		if [ "$ovr" = 1 ] && [ "$fatal" = 1 ] && [ "$resets" -ge 1 ] &&
			{ [ "$dead" = 1 ] || { [ "$now" = 0 ] && [ "$(report_value "$e" pages_live)" = 0 ]; }; }; then
			printf 'emu/err\tpass\teq_overruns=1, one fatal syndrome (0x1 with RFR), then flrs=%s fw_resets=%s; after the driver unloaded: %s\n' \
				"$(report_value "$e" flrs)" "$(report_value "$e" fw_resets)" "$left"
		else
			printf 'emu/err\tfail\teq_overruns=%s health_fatal=%s flrs=%s fw_resets=%s dead=%s live_objects=%s (%s not dropped by a reset) pages_live=%s\n' \
				"${ovr:-?}" "${fatal:-?}" "$(report_value "$e" flrs)" "$(report_value "$e" fw_resets)" "${dead:-?}" "${live:-?}" "$now" "$(report_value "$e" pages_live)"
		fi
	else
		printf 'emu/err\tfail\tno report (%s)\n' "$(tail -n 2 "$JOB/emu-err.out" 2>/dev/null | tr '\n' ' ')"
	fi
}

# --- result post-processing ----------------------------------------------

# known_files: the lane's known-failure files that exist.
known_files() {
	local f
	for f in "${KNOWN[@]}"; do
		[ -f "$f" ] && echo "$f"
	done
}

# known_list: "id<TAB>reason" for each test entry of the known files.
known_list() {
	known_files | while read -r f; do
		awk '/^[ \t]*(#|$)/ || $1 == "dmesg" { next }
			{ id = $1; r = $0; sub(/^[ \t]*[^ \t]+[ \t]*/, "", r); print id "\t" r }' "$f"
	done
}

# known_dmesg: the extended regexes of "dmesg /ERE/ reason" entries
# (the ERE cannot contain a slash).
known_dmesg() {
	known_files | while read -r f; do
		sed -n 's|^dmesg[ \t]*/\([^/]*\)/.*|\1|p' "$f"
	done
}

# apply_known IN OUT: known failures become skips; known ones that pass
# are flagged; a pyverbs module whose failures are all known passes.
apply_known() {
	known_list > "$JOB/known.tsv"
	awk -F'\t' -v OFS='\t' -v knownfile="$(known_files | xargs -r -n1 basename | paste -sd' ')" '
	FILENAME == ARGV[1] { known[$1] = $2; next }
	FILENAME == ARGV[2] { tstat[$1] = $2; next }
	{
		n++; name[n] = $1; st[n] = $2; det[n] = $3; seen[$1] = 1
		if ($1 in known) {
			if ($2 == "fail") {
				st[n] = "skip"; det[n] = "known: " known[$1] " | " $3
			} else if ($2 == "pass") {
				det[n] = "known failure now passes: drop it from " knownfile " | " $3
			}
		}
		if (st[n] == "fail" && $1 ~ /^pyverbs\/[^\/]*\./) {
			m = $1; sub(/\..*/, "", m); badmod[m] = 1
		}
	}
	END {
		for (i = 1; i <= n; i++) {
			if (st[i] == "fail" && name[i] ~ /^pyverbs\/[^.]*$/ &&
			    det[i] ~ /^run=/ && !(name[i] in badmod)) {
				st[i] = (det[i] ~ / pass=0 /) ? "skip" : "pass"
				det[i] = det[i] " (failures all known)"
			}
			print name[i], st[i], det[i]
		}
		# Known pyverbs failures that now pass have no line of their own.
		for (k in known) {
			if (seen[k] || k !~ /^pyverbs\//) continue
			t = substr(k, 9)
			if (tstat[t] == "pass")
				print k, "pass", "known failure now passes: drop it from " knownfile
		}
	}' "$JOB/known.tsv" "$JOB/pyverbs-tests.tsv" "$1" > "$2"
}

# strip_uverbs_fork_lockdep: the kernel log on stdin without one report
# of the guest kernel's own: lockdep's circular dependency between
# ib_uverbs' disassociation_lock and mmap_lock.  ib_core (6.12) takes the
# lock under a forking process's mmap_lock (rdma_umap_open, when fork
# copies a device mapping) and mmap_lock under the lock
# (uverbs_user_mmap_disassociate, when a device goes away under a context
# whose mappings remain); any driver's removal under such a context shows
# it, and no driver lock is in the chain.  The report is dropped whole,
# from its ruler line to the end of its stack dump; any other report
# stays.  Lockdep turns itself off after a report, so a lane that shows
# it checks nothing after it: the removals that do are the last parts.
strip_uverbs_fork_lockdep() {
	awk '
	function flush() {
		if (n && !(blk ~ /disassociation_lock/ &&
			   blk ~ /uverbs_user_mmap_disassociate/))
			for (i = 1; i <= n; i++) print b[i]
		n = 0; blk = ""; inrep = 0
	}
	/=====================================================/ && !inrep {
		flush(); b[++n] = $0; blk = $0; ruler = 1; next
	}
	ruler && /WARNING: possible circular locking dependency detected/ {
		b[++n] = $0; blk = blk "\n" $0; inrep = 1; ruler = 0; next
	}
	ruler { ruler = 0; flush() }
	inrep {
		b[++n] = $0; blk = blk "\n" $0
		if ($0 ~ /<\/TASK>/) flush()
		next
	}
	{ print }
	END { flush() }'
}

# check_dmesg: kernel warnings, errors and traces from the lane's drivers,
# and any oops/WARN/BUG at all, minus the known-file's dmesg allowances.
check_dmesg() {
	local raw=$JOB/dmesg-raw.txt pat hits allow what
	if [ -s "$raw" ]; then
		strip_uverbs_fork_lockdep < "$raw" > "$JOB/dmesg-checked.txt"
		raw=$JOB/dmesg-checked.txt
	fi
	if [ ! -s "$raw" ]; then
		# The vm line already fails when the job did not finish.
		case $vmrc in
		99 | 124) echo "dmesg	skip	no guest dmesg: the job did not finish" ;;
		*) echo "dmesg	fail	guest dmesg not saved" ;;
		esac
		return
	fi
	case $DRIVER in
	rxe) pat='rxe|rdma|ib_|infiniband' ;;
	upstream) pat='mlx5|rdma|ib_|infiniband' ;;
	mlx5x | mixed) pat='mlx5x|mlx5|rdma|ib_|infiniband' ;;
	esac
	allow=$(known_dmesg | paste -sd'|')
	if [ "$SUITE" = fwevents ]; then
		local v=FWEV_DMESG_ALLOW_$DRIVER
		allow=${allow:+$allow|}${!v}
	fi
	[ "$SUITE" != fuzz ] || allow=${allow:+$allow|}$FUZZ_DMESG_ALLOW
	# mlx5x's command watchdog completes commands whose interrupt was not
	# taken within its period (1 s): allowed only when the guest logged a
	# stall of its own clock as long (a vCPU the host did not run).  Lost
	# interrupts are the fault suite's to check (cmd-irq-drop).
	if [ "$SUITE/$DRIVER" = fuzz/mlx5x ] &&
		grep -q 'clocksource: Long readout interval' "$raw"; then
		allow=${allow:+$allow|}'command watchdog: [0-9]+ completions by a missed interrupt \([0-9]+ EQEs polled\), 0 without an event$'
	fi
	# The fault suite provokes driver errors; its scenarios check them.
	if [ "$SUITE" = faults ]; then
		pat='^$'
		what="no oops, WARNING, BUG or call trace (driver errors are the scenarios' to check)"
	else
		what="no warnings, errors or traces from ${pat//|/, }"
	fi
	hits=$( { grep -E '^<[0-4]>' "$raw" | grep -iE "$pat"
		grep -E 'Call Trace|WARNING:|BUG:|Oops|general protection|UBSAN|KASAN|RIP:|list_(add|del) corruption|refcount_t' "$raw"
		} | if [ -n "$allow" ]; then grep -vE "$allow"; else cat; fi | sort -u)
	if [ -z "$hits" ]; then
		echo "dmesg	pass	$what"
	else
		echo "dmesg	fail	$(echo "$hits" | wc -l) line(s): $(echo "$hits" | head -n 2 | sed 's/^<[0-9]>//' | tr '\t\n' '  ' | cut -c1-240)"
	fi
}

# Reports of the debug kernel's checkers (KASAN, KFENCE, lockdep, debug
# objects, UBSAN, atomic sleep), and any WARN, BUG or oops.
DEBUG_REPORTS='BUG:|WARNING:|UBSAN:|ODEBUG:|Oops|general protection fault|kernel BUG at'
DEBUG_REPORTS+='|list_(add|del) corruption|INFO: trying to register non-static key'
DEBUG_REPORTS+='|turning off the locking correctness validator'

# kernel_log: the guest's kernel messages without level or time stamp:
# the saved dmesg, and the console's kernel lines (a report printed after
# the save, or by a guest that never finished, is only there).
kernel_log() {
	local ts='^\[ *[0-9]+\.[0-9]+\] '
	{
		sed 's/^<[0-9]*>//' "$JOB/dmesg-raw.txt" 2>/dev/null
		grep -E "$ts" "$JOB/console.log" 2>/dev/null
	} | sed -E "s/$ts//" | awk '!seen[$0]++' | strip_uverbs_fork_lockdep
}

# check_debug_dmesg: the checkers ran (KASAN, KFENCE and lockdep announce
# themselves at boot) and reported nothing: unlike check_dmesg, no
# known-file allowance applies.
check_debug_dmesg() {
	local log on=() hits
	log=$(kernel_log)
	if [ -z "$log" ]; then
		echo "dmesg/debug	fail	no guest kernel log (dmesg-raw.txt, console.log)"
		return
	fi
	grep -q 'KernelAddressSanitizer initialized' <<< "$log" && on+=(KASAN)
	grep -q '^kfence: initialized' <<< "$log" && on+=(KFENCE)
	grep -q 'Lock dependency validator' <<< "$log" && on+=(lockdep)
	hits=$(grep -E "$DEBUG_REPORTS" <<< "$log")
	if [ -n "$hits" ]; then
		echo "dmesg/debug	fail	$(wc -l <<< "$hits") report line(s): $(head -n 3 <<< "$hits" | tr '\t\n' '  ' | cut -c1-300)"
	elif [ ${#on[@]} -ne 3 ]; then
		echo "dmesg/debug	fail	checkers not all on: only ${on[*]:-none} announced at boot (want KASAN, KFENCE, lockdep)"
	else
		echo "dmesg/debug	pass	${on[*]} on ($KREL); no KASAN, KFENCE, lockdep, UBSAN, ODEBUG, WARN or BUG report"
	fi
}

# check_emu_report [TAG]: the report of the emulator (of function TAG
# of the fabric suite's emulator: emu-TAG-report.txt).
check_emu_report() {
	local tag=${1:+-$1} r live pages
	r=$JOB/emu$tag-report.txt
	if [ ! -s "$r" ]; then
		echo "emu/leaks$tag	fail	no emulator report ($r); emulator output: $(tail -n 2 "$JOB/emu.out" 2>/dev/null | tr '\n' ' ')"
		return
	fi
	live=$(report_value "$r" live_objects)
	pages=$(report_value "$r" pages_held)
	if [ "$live" = 0 ] && [ "$pages" = 0 ]; then
		echo "emu/leaks$tag	pass	live_objects=0 pages_held=0"
	else
		echo "emu/leaks$tag	fail	live_objects=${live:-?} pages_held=${pages:-?}"
	fi
	# Every firmware rule held (the emulator counts each broken one).
	local viol
	if viol=$(emu_violations "$r"); then
		echo "emu/violations$tag	pass	0 firmware-rule violations; $(report_value "$r" cmds_checked_reserved) commands checked for reserved bits"
	else
		echo "emu/violations$tag	fail	$viol"
	fi
	[ "$SUITE" != fabric ] || check_emu_violations "$r" "$tag"
	# The firmware version the driver reported (on the first function)
	# must be the emulator's.
	[ -z "$tag" ] || [ "$tag" = -a ] || return 0
	local emu_fw dev_fw
	emu_fw=$(report_value "$r" fw_ver)
	dev_fw=$(sed -n 's/^[[:space:]]*fw_ver:[[:space:]]*//p' "$JOB/logs/devinfo.log" 2>/dev/null | head -n1)
	if [ -n "$emu_fw" ] && [ -n "$dev_fw" ]; then
		if [ "$emu_fw" = "$dev_fw" ]; then
			echo "emu/fw_ver	pass	ibv_devinfo fw_ver $dev_fw = emulator's"
		else
			echo "emu/fw_ver	fail	ibv_devinfo fw_ver $dev_fw, emulator reports $emu_fw"
		fi
	fi
}

# Counters of the report, beside the firmware rules, that count a driver (or
# guest) breaking the device: malformed BAR or doorbell accesses, command delivery and DMA
# errors, unknown opcodes, EQ overruns, WQEs or keys the engine refused.
# The fabric suite has no negative test, so each must stay 0.
EMU_VIOLATIONS="bar_bad uar_bad eng_db_bad cmd_unknown cmd_delivery_errors
	cmd_dma_errors eq_overruns eng_mkey_faults eng_dma_faults eng_wqe_faults"

# check_emu_violations REPORT TAG
check_emu_violations() {
	local k v bad=
	for k in $EMU_VIOLATIONS; do
		v=$(report_value "$1" "$k")
		[ "${v:-0}" = 0 ] || bad+=" $k=$v"
	done
	if [ -z "$bad" ]; then
		echo "emu/device-errors$2	pass	0 of: $(tr -s ' \t\n' ' ' <<< "$EMU_VIOLATIONS" | sed 's/ $//')"
	else
		echo "emu/device-errors$2	fail	$bad"
	fi
}

# check_emu_link: the fabric's two ports were on one link and both sent
# packets (the suite's cross traffic addresses the other port's LID).
check_emu_link() {
	local a=$JOB/emu-a-report.txt b=$JOB/emu-b-report.txt pa pb
	pa=$(report_value "$a" eng_pkts)
	pb=$(report_value "$b" eng_pkts)
	if [ "$(report_value "$a" link)" = peer ] && [ "$(report_value "$b" link)" = peer ] &&
		[ "${pa:-0}" -gt 0 ] && [ "${pb:-0}" -gt 0 ]; then
		echo "emu/link	pass	ports linked; packets sent: a $pa, b $pb"
	else
		echo "emu/link	fail	link a=$(report_value "$a" link) b=$(report_value "$b" link), packets a ${pa:-?} b ${pb:-?}"
	fi
}

# vm_line RC: the VM run itself as a test.
vm_line() {
	local boot wall
	boot=$(sed -n 's/^boot_to_job=//p' "$JOB/vm-run.txt" 2>/dev/null)
	wall=$(sed -n 's/^wall=//p' "$JOB/vm-run.txt" 2>/dev/null)
	case $1 in
	124) echo "vm	fail	timeout: killed after ${VM_TMO} s (see $JOB/console.log)" ;;
	99) echo "vm	fail	the job never ran (boot failure?): $(grep -v '^\s*$' "$JOB/console.log" 2>/dev/null | tail -n 1 | cut -c1-160)" ;;
	97 | 98) echo "vm	fail	guest run.sh died (rc $1)" ;;
	*) echo "vm	pass	boot-to-job ${boot:-?} s, VM wall ${wall:-?} s" ;;
	esac
}

write_md() {
	local f
	{
		echo "# e2e lane $DRIVER, suite $SUITE${KSUFFIX:+, $GUEST_KERNEL kernel}"
		echo
		echo "$(date -u '+%Y-%m-%d %H:%M UTC'), guest kernel ${KREL:-?}, lane wall $((SECONDS - T0)) s." \
			"Job dir: ${JOB#"$TOP"/}/."
		echo
		printf '%s passed, %s failed, %s skipped\n\n' \
			"$(grep -cP '\tpass\t' "$TSV")" "$(grep -cP '\tfail\t' "$TSV")" \
			"$(grep -cP '\tskip\t' "$TSV")"
		echo "| test | result | detail |"
		echo "|---|---|---|"
		# Per-module pyverbs lines and all-skipped modules go below.
		grep -vP '^[^\t]*/pyverbs/test_[a-z0-9_]*\t' "$TSV" |
			awk -F'\t' '{ gsub(/\|/, "\\|", $3); printf "| %s | %s | %s |\n", $1, $2, $3 }'
		if [ -s "$JOB/perf.tsv" ]; then
			echo
			echo "## Figures"
			echo
			echo "| test | metric | value | unit |"
			echo "|---|---|---|---|"
			awk -F'\t' '{ printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4 }' "$JOB/perf.tsv"
		fi
		if [ -s "$JOB/pyverbs-summary.txt" ]; then
			echo
			echo "## pyverbs ($(basename "$(readlink -f "${ROOT:-}/usr/src/rdma/rdma-core")"), one process per module)"
			echo
			echo "Total: $(cat "$JOB/pyverbs-summary.txt")"
			echo
			echo "| module | result | counts |"
			echo "|---|---|---|"
			grep -P '^[^\t]*/pyverbs/test_[a-z0-9_]*\t' "$TSV" |
				awk -F'\t' '{ m = $1; sub(/.*\/pyverbs\//, "", m); printf "| %s | %s | %s |\n", m, $2, $3 }'
		fi
		f=$(known_files | xargs -r -n1 basename | paste -sd' ')
		if [ -n "$f" ]; then
			echo
			echo "Known failures ($f):"
			echo
			known_list | awk -F'\t' '{ printf "- `%s`: %s\n", $1, $2 }'
		fi
	} > "$MD"
}

# lane_results: the lane's result lines from its job dir (JOB) and the
# host's checks, known failures applied, into TSV; then its table (MD).
lane_results() {
	local t
	touch "$JOB/results.tsv" "$JOB/pyverbs-tests.tsv"
	{
		if [ "$SUITE" = faults ]; then
			fault_lines
		else
			cat "$JOB/results.tsv"
		fi
		vm_line "$vmrc"
		check_dmesg
		[ "$GUEST_KERNEL" != debug ] || check_debug_dmesg
		if [ "$SUITE" = fwevents ]; then
			fwev_emu_lines
		elif [ "$DRIVER" != rxe ] && [ "$SUITE" != faults ]; then
			if [ -n "$EMU_TAGS" ]; then
				for t in $EMU_TAGS; do
					check_emu_report "$t"
				done
			else
				check_emu_report
			fi
		fi
		[ "$SUITE" != fabric ] || check_emu_link
		# The fuzzer never rings a doorbell: the device saw no bad access.
		if [ "$SUITE" = fuzz ] && [ -z "$EMU_TAGS" ]; then
			check_emu_violations "$JOB/emu-report.txt" ""
		elif [ "$SUITE" = fuzz ]; then
			for t in $EMU_TAGS; do
				check_emu_violations "$JOB/emu-$t-report.txt" "-$t"
			done
		fi
	} > "$JOB/raw.tsv"
	if [ "$SUITE/$DRIVER" = fuzz/upstream ]; then
		fuzz_upstream_info "$JOB/raw.tsv" "$JOB/raw-info.tsv"
		mv "$JOB/raw-info.tsv" "$JOB/raw.tsv"
	fi
	apply_known "$JOB/raw.tsv" "$JOB/final.tsv"
	awk -F'\t' -v OFS='\t' -v p="$DRIVER" 'NF { $1 = p "/" $1; print }' "$JOB/final.tsv" > "$TSV"
	write_md
}

# phase_report SNAP PREV OUT: the emulator report SNAP with the counters
# that add up over a boot (rule violations, device errors, commands
# checked, packets) made those since the report PREV.
phase_report() {
	[ "$1" != /dev/null ] || { rm -f "$3"; return; }
	awk -F= -v OFS='=' -v acc=" $(tr -s ' \t\n' ' ' <<< "$EMU_VIOLATIONS") " '
		FILENAME == ARGV[1] { prev[$1] = $2; next }
		$2 ~ /^[0-9]+$/ && ($1 == "violations" || $1 ~ /^viol_/ ||
			$1 == "cmds_checked_reserved" || $1 == "eng_pkts" ||
			index(acc, " " $1 " ")) { $2 = $2 - prev[$1] }
		{ print }' "$2" "$1" > "$3"
}

# phase_results: lane all: each phase's results as its own lane's, from
# its directory phase-LANE of the job dir: its guest lines, the kernel
# log from its marker on, the emulator's reports as the guest left them
# (the last phase's are the exit reports); returns the failures.
phase_results() {
	local top=$JOB ph lane prev_a=/dev/null prev_b=/dev/null first=1 d f src fails=0 last
	for ph in $FABRIC_PHASES; do last=$ph; done
	for ph in $FABRIC_PHASES; do
		lane=${ph%%:*}
		d=$top/phase-$lane
		mkdir -p "$d"
		cp "$top/vm-run.txt" "$d/" 2>/dev/null
		cp "$top/console.log" "$d/" 2>/dev/null
		awk -v m="mlx5x-e2e: fabric phase $lane:" -v on="$first" '
			index($0, "mlx5x-e2e: fabric phase ") { on = index($0, m) > 0 } on' \
			"$top/dmesg-raw.txt" > "$d/dmesg-raw.txt" 2>/dev/null
		for f in a b; do
			src=$d/emu-$f-snap.txt
			[ "$ph" != "$last" ] || src=$top/emu-$f-report.txt
			[ -s "$src" ] || src=/dev/null
			if [ "$f" = a ]; then
				phase_report "$src" "$prev_a" "$d/emu-a-report.txt"
				prev_a=$src
			else
				phase_report "$src" "$prev_b" "$d/emu-b-report.txt"
				prev_b=$src
			fi
		done
		cp "$top/emu.out" "$d/" 2>/dev/null
		JOB=$d DRIVER=$lane NAME=$lane-$SUITE
		set_known "$lane"
		TSV=$RESULTS/e2e-$NAME.tsv
		MD=$TOP/build/results/lane-$NAME.md
		EMU_TAGS="a b"
		lane_results
		lane_summary || fails=$((fails + 1))
		first=0
	done
	JOB=$top
	return $fails
}

# lane_summary: one line for the lane's counts; 1 on failures
lane_summary() {
	local pass fail skip
	pass=$(grep -cP '\tpass\t' "$TSV")
	fail=$(grep -cP '\tfail\t' "$TSV")
	skip=$(grep -cP '\tskip\t' "$TSV")
	hlog "lane $NAME: $pass pass, $fail fail, $skip skip in $((SECONDS - T0)) s; table: ${MD#"$TOP"/}"
	if [ "$fail" -ne 0 ]; then
		grep -P '\tfail\t' "$TSV" | sed 's/^/    FAIL /' >&2
		return 1
	fi
}

# --- main ----------------------------------------------------------------

# boot_lane: build, prepare the job dir, boot; sets vmrc.
boot_lane() {
	local guid
	rm -rf "$JOB"
	mkdir -p "$JOB"
	local missing=()
	# The fabric suite may bind one function to mlx5x (driver_override).
	if [ "$DRIVER" = mlx5x ] || { [ "$SUITE" = fabric ] &&
		[[ " $FABRIC_DRIVERS " == *" mlx5x "* ]]; }; then
		if build_ko "$JOB"; then
			hlog "mlx5x.ko built: $(stat -c %s "$JOB/mlx5x.ko") bytes"
		else
			missing+=("$MISSING")
		fi
	fi
	if [ "$DRIVER" != rxe ]; then
		build_emu || missing+=("$MISSING")
	fi
	if [ "$SUITE" = fuzz ]; then
		build_uvfuzz "$JOB" || missing+=("$MISSING")
	fi
	[ ${#missing[@]} -eq 0 ] || fail_early "$(printf '%s; ' "${missing[@]}" | sed 's/; $//')"
	cp "$E2EDIR"/guest/{run.sh,lib.sh,suite.sh,faults.sh,fwevents.sh,robust.sh,fabric.sh,fuzz.sh,pyverbs-run.py,robust.py,fwdiff.py,cmdload.py,faultmatrix.py} "$JOB/"
	chmod +x "$JOB/run.sh"
	write_env

	SOCKOPT=()
	QMPOPT=()
	HOSTCTL_PID=
	if [ "$SUITE" = faults ]; then
		start_fault_emus || fail_early "$MISSING"
	elif [ "$SUITE" = fabric ]; then
		start_emu_link "$JOB" "$FAB_GUID_A" 0x0002c90300fab0b1 --port "$EMU_PORT" ||
			fail_early "$MISSING"
		hlog "emulator listening (pid $EMU_PID): two functions, ports linked, port mode $EMU_PORT; drivers $FABRIC_DRIVERS"
		SOCKOPT=(-s vfu-a.sock -s vfu-b.sock)
		EMU_TAGS="a b"
		if [ -n "$FABRIC_PHASES" ]; then
			# the guest asks for the emulator's reports between phases
			mkdir -p "$JOB/ctl-host"
			host_ctl_serve &
			HOSTCTL_PID=$!
		fi
	elif [ "$SUITE" = fwevents ]; then
		start_fwev_emus || fail_early "$MISSING"
		# ev is the first function: vfu0 in QEMU (FWEV_QMP_EV)
		QMPOPT=(-Q qmp.sock)
		mkdir -p "$JOB/ctl-host"
		host_ctl_serve &
		HOSTCTL_PID=$!
	elif [ "$DRIVER" != rxe ]; then
		# Distinct GUIDs per lane, so two lanes never look alike.
		case $DRIVER in upstream) guid=0x0002c90300e50001 ;; *) guid=0x0002c90300e50002 ;; esac
		if [ "$EMU_PORT" = sm ]; then
			# A port comes up only with a link partner: a second
			# function, linked back to back, is the neighbour the
			# subnet manager sweeps to.  The tests use the first.
			# shellcheck disable=SC2046 # one word per option
			start_emu_link "$JOB" "$guid" "${guid%?}f" --port sm -- $(fwdiff_emu_args) ||
				fail_early "$MISSING"
			hlog "emulator listening (pid $EMU_PID, guid $guid and its link partner, port mode sm)"
			SOCKOPT=(-s vfu-a.sock -s vfu-b.sock)
			EMU_TAGS="a b"
		else
			# shellcheck disable=SC2046 # one word per option
			start_emu "$JOB" "$guid" "" --port "$EMU_PORT" $(fwdiff_emu_args) ||
				fail_early "$MISSING"
			hlog "emulator listening (pid $EMU_PID, guid $guid, port mode $EMU_PORT)"
			SOCKOPT=(-s vfu.sock)
		fi
	fi
	debug_kernel_job "$JOB"
	"$VMDIR/vm-run.sh" -t "$VM_TMO" "${VMOPT[@]}" "${SOCKOPT[@]}" "${QMPOPT[@]}" "$JOB"
	vmrc=$?
	if [ -n "$HOSTCTL_PID" ]; then
		kill "$HOSTCTL_PID" 2>/dev/null
		wait "$HOSTCTL_PID" 2>/dev/null
	fi
	stop_emu
}

hlog "lane $DRIVER, suite $SUITE: job dir $JOB"
rig_root || fail_early "the VM root tree is not available (tools/testing/vm/build-rootfs.sh failed)"
lane_defaults
if [ "${MLX5X_E2E_REPARSE:-0}" = 1 ]; then
	# Development aid: re-parse the last run's job dir without booting.
	vmrc=$(sed -n 's/^rc=//p' "$JOB/vm-run.txt" 2>/dev/null)
	vmrc=${vmrc:-99}
	[ ! -e "$JOB/emu-a-report.txt" ] || EMU_TAGS="a b"
else
	boot_lane
fi

if [ -n "$FABRIC_PHASES" ]; then
	# the lanes' own files hold the results (this one only an early failure)
	[ -s "$TSV" ] || rm -f "$TSV"
	phase_results
	exit $(($? > 0))
fi
lane_results
lane_summary
