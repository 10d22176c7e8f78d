#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One e2e lane: build what it needs, boot the test VM, run the suite, parse.
#
#   lane.sh DRIVER SUITE      DRIVER: rxe | upstream | mlx5x
#                             SUITE:  full | bringup | faults (mlx5x only)
#
#   rxe       soft-RoCE on a dummy netdev; checks the rig itself.
#   upstream  the guest kernel's own mlx5_core + mlx5_ib on the emulated
#             ConnectX (tools/testing/emu).
#   mlx5x     our mlx5x.ko on the emulated ConnectX (mlx5_core never loads).
#
# Suite faults boots once with one emulated function per scenario, each with one
# fault injected by its emulator (see "fault suite" below).
#
# Results: $MLX5X_RESULTS/e2e-NAME.tsv (one line per test),
# build/results/lane-NAME.md (human table), the job dir build/e2e/NAME/
# (console.log, out.log, logs/, dmesg.txt, emulator report), where NAME is
# DRIVER-SUITE unless MLX5X_E2E_NAME says otherwise.
# Known failures: tools/testing/e2e/known-DRIVER.txt.  Exit status non-zero
# on any failure.
#
# Knobs (environment, defaults per lane below): MLX5X_E2E_PP_SIZES,
# MLX5X_E2E_PP_ITERS, MLX5X_E2E_PERF_ITERS, MLX5X_E2E_PERF_BW_ITERS,
# MLX5X_E2E_PY_ONLY, MLX5X_E2E_PY_EXCLUDE (comma-separated module
# patterns), MLX5X_E2E_PY_TIMEOUT (s per module), MLX5X_E2E_CYCLES
# (insmod/rmmod cycles of mlx5x bringup), MLX5X_E2E_PARTS (subset of
# "devinfo pingpong perftest pyverbs"), MLX5X_VM_TIMEOUT (s),
# MLX5X_EMU_TRACE=1, MLX5X_PARAMS (insmod parameters).

set -uo pipefail

TOP=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=host-lib.sh
. "$TOP/tools/testing/e2e/host-lib.sh"

DRIVER=${1:-}
SUITE=${2:-full}
case $DRIVER in rxe | upstream | mlx5x) ;; *)
	echo "usage: $0 rxe|upstream|mlx5x [full|bringup]" >&2; exit 2 ;;
esac
case $SUITE in full | bringup | faults) ;; *)
	echo "usage: $0 rxe|upstream|mlx5x [full|bringup|faults]" >&2; exit 2 ;;
esac
[ "$DRIVER/$SUITE" = rxe/bringup ] && {
	echo "lane rxe has no bringup suite (it has no device to bring up)" >&2
	exit 2
}
[ "$SUITE" = faults ] && [ "$DRIVER" != mlx5x ] && {
	echo "suite faults exists for lane mlx5x only" >&2
	exit 2
}

NAME=${MLX5X_E2E_NAME:-$DRIVER-$SUITE}
# shellcheck disable=SC2034 # read by hlog
HLOG_TAG=e2e-$NAME
RESULTS=${MLX5X_RESULTS:-$TOP/build/results}
TSV=$RESULTS/e2e-$NAME.tsv
MD=$TOP/build/results/lane-$NAME.md
JOB=$TOP/build/e2e/$NAME
KNOWN=$E2EDIR/known-$DRIVER.txt
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
	# mlx5x also runs the robustness checks; last, as they unload it.
	[ "$DRIVER" != mlx5x ] || PARTS=${MLX5X_E2E_PARTS:-"$PARTS robust"}
	if [ "$DRIVER" = rxe ]; then
		PY_EXCLUDE=${MLX5X_E2E_PY_EXCLUDE:-}
		VM_TMO=${MLX5X_VM_TIMEOUT:-1500}
	else
		# Vendor-specific (DEVX, DR, ...) and other vendors' modules, and
		# rdmacm (needs IPoIB addressing; waits ~30 s per test without it).
		PY_EXCLUDE=${MLX5X_E2E_PY_EXCLUDE:-"test_mlx5_*,test_efa*,test_rdmacm,test_cuda*"}
		if [ "$SUITE" = faults ]; then
			VM_TMO=${MLX5X_VM_TIMEOUT:-1200}
		elif [ "$SUITE" = bringup ]; then
			VM_TMO=${MLX5X_VM_TIMEOUT:-900}
		else
			VM_TMO=${MLX5X_VM_TIMEOUT:-1800}
		fi
	fi
}

write_env() {
	cat > "$JOB/job.env" <<-EOF
	LANE=$DRIVER
	SUITE=$SUITE
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
	EOF
	[ "$SUITE" != faults ] || fault_env >> "$JOB/job.env"
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

FAULT_TAGS="cmd-timeout cmd-status cmd-delay cmd-reorder cmd-coalesce cmd-duplicate cmd-irq-drop health-report health"
FAULT_FWS="16.35.4031 16.35.4032 16.35.4033 16.35.4034 16.35.4035 16.35.4036 16.35.4037 16.35.4038 16.35.4039"
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
	esac
}

# start_fault_emus: one emulator per scenario; sets SOCKOPT.
start_fault_emus() {
	local tag i=0 fws
	read -ra fws <<< "$FAULT_FWS"
	for tag in $FAULT_TAGS; do
		# shellcheck disable=SC2046 # one option per scenario
		start_emu "$JOB" "0x0002c90300e5f00$((i + 1))" "$tag" --trace \
			--log "$JOB/emu-$tag.log" --fw "${fws[$i]}" $(fault_emu_args "$tag") ||
			return 1
		hlog "emulator $tag listening (pid $EMU_PID, fw ${fws[$i]}, $(fault_emu_args "$tag"))"
		SOCKOPT+=(-s "vfu-$tag.sock")
		i=$((i + 1))
	done
}

# emu_leaks TAG: "live_objects=0 pages_held=0" from the report, or fail.
emu_leaks() {
	local r=$JOB/emu-$1-report.txt live pages
	[ -s "$r" ] || { echo "no report ($(basename "$r"))"; return 1; }
	live=$(report_value "$r" live_objects)
	pages=$(report_value "$r" pages_held)
	echo "live_objects=${live:-?} pages_held=${pages:-?}"
	[ "$live" = 0 ] && [ "$pages" = 0 ]
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
	cmd-delay) emu=$(emu_check_completion cmd-delay cmd_eqes_late -gt 0) ;;
	cmd-reorder) emu=$(emu_check_completion cmd-reorder cmds -gt 0) ;;
	cmd-coalesce) emu=$(emu_check_completion cmd-coalesce cmd_eqes_late -gt 0) ;;
	cmd-duplicate) emu=$(emu_check_completion cmd-duplicate cmd_eqes_dup -gt 0) ;;
	cmd-irq-drop) emu=$(emu_check_completion cmd-irq-drop cmd_irqs_lost -eq "$FAULT_IRQ_DROP") ;;
	health-report) emu=$(emu_check_health_report) ;;
	health) emu=$(emu_check_health) ;;
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

# --- result post-processing ----------------------------------------------

# known_list: "id<TAB>reason" for each test entry of the known file.
known_list() {
	[ -f "$KNOWN" ] || return 0
	awk '/^[ \t]*(#|$)/ || $1 == "dmesg" { next }
		{ id = $1; r = $0; sub(/^[ \t]*[^ \t]+[ \t]*/, "", r); print id "\t" r }' "$KNOWN"
}

# known_dmesg: the extended regexes of "dmesg /ERE/ reason" entries
# (the ERE cannot contain a slash).
known_dmesg() {
	[ -f "$KNOWN" ] || return 0
	sed -n 's|^dmesg[ \t]*/\([^/]*\)/.*|\1|p' "$KNOWN"
}

# apply_known IN OUT: known failures become skips; known ones that pass
# are flagged; a pyverbs module whose failures are all known passes.
apply_known() {
	known_list > "$JOB/known.tsv"
	awk -F'\t' -v OFS='\t' -v knownfile="$(basename "$KNOWN")" '
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

# check_dmesg: kernel warnings, errors and traces from the lane's drivers,
# and any oops/WARN/BUG at all, minus the known-file's dmesg allowances.
check_dmesg() {
	local raw=$JOB/dmesg-raw.txt pat hits allow what
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
	mlx5x) pat='mlx5x|mlx5|rdma|ib_|infiniband' ;;
	esac
	allow=$(known_dmesg | paste -sd'|')
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

check_emu_report() {
	local r=$JOB/emu-report.txt live pages
	if [ ! -s "$r" ]; then
		echo "emu/leaks	fail	no emulator report ($r); emulator output: $(tail -n 2 "$JOB/emu.out" 2>/dev/null | tr '\n' ' ')"
		return
	fi
	live=$(report_value "$r" live_objects)
	pages=$(report_value "$r" pages_held)
	if [ "$live" = 0 ] && [ "$pages" = 0 ]; then
		echo "emu/leaks	pass	live_objects=0 pages_held=0"
	else
		echo "emu/leaks	fail	live_objects=${live:-?} pages_held=${pages:-?}"
	fi
	# The firmware version the driver reported must be the emulator's.
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
		echo "# e2e lane $DRIVER, suite $SUITE"
		echo
		echo "$(date -u '+%Y-%m-%d %H:%M UTC'), guest kernel ${KREL:-?}, lane wall $((SECONDS - T0)) s." \
			"Job dir: build/e2e/$NAME/."
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
		f=$KNOWN
		if [ -f "$f" ]; then
			echo
			echo "Known failures ($(basename "$f")):"
			echo
			known_list | awk -F'\t' '{ printf "- `%s`: %s\n", $1, $2 }'
		fi
	} > "$MD"
}

# --- main ----------------------------------------------------------------

# boot_lane: build, prepare the job dir, boot; sets vmrc.
boot_lane() {
	local guid
	rm -rf "$JOB"
	mkdir -p "$JOB"
	local missing=()
	if [ "$DRIVER" = mlx5x ]; then
		if build_ko "$JOB"; then
			hlog "mlx5x.ko built: $(stat -c %s "$JOB/mlx5x.ko") bytes"
		else
			missing+=("$MISSING")
		fi
	fi
	if [ "$DRIVER" != rxe ]; then
		build_emu || missing+=("$MISSING")
	fi
	[ ${#missing[@]} -eq 0 ] || fail_early "$(printf '%s; ' "${missing[@]}" | sed 's/; $//')"
	cp "$E2EDIR"/guest/{run.sh,lib.sh,suite.sh,faults.sh,robust.sh,pyverbs-run.py,robust.py} "$JOB/"
	chmod +x "$JOB/run.sh"
	write_env

	SOCKOPT=()
	if [ "$SUITE" = faults ]; then
		start_fault_emus || fail_early "$MISSING"
	elif [ "$DRIVER" != rxe ]; then
		# Distinct GUIDs per lane, so two lanes never look alike.
		case $DRIVER in upstream) guid=0x0002c90300e50001 ;; *) guid=0x0002c90300e50002 ;; esac
		start_emu "$JOB" "$guid" || fail_early "$MISSING"
		hlog "emulator listening (pid $EMU_PID, guid $guid)"
		SOCKOPT=(-s vfu.sock)
	fi
	"$VMDIR/vm-run.sh" -t "$VM_TMO" "${SOCKOPT[@]}" "$JOB"
	vmrc=$?
	stop_emu
}

hlog "lane $DRIVER, suite $SUITE: job dir $JOB"
rig_root || fail_early "the VM root tree is not available (tools/testing/vm/build-rootfs.sh failed)"
lane_defaults
if [ "${MLX5X_E2E_REPARSE:-0}" = 1 ]; then
	# Development aid: re-parse the last run's job dir without booting.
	vmrc=$(sed -n 's/^rc=//p' "$JOB/vm-run.txt" 2>/dev/null)
	vmrc=${vmrc:-99}
else
	boot_lane
fi

touch "$JOB/results.tsv" "$JOB/pyverbs-tests.tsv"
{
	if [ "$SUITE" = faults ]; then
		fault_lines
	else
		cat "$JOB/results.tsv"
	fi
	vm_line "$vmrc"
	check_dmesg
	[ "$DRIVER" = rxe ] || [ "$SUITE" = faults ] || check_emu_report
} > "$JOB/raw.tsv"
apply_known "$JOB/raw.tsv" "$JOB/final.tsv"
awk -F'\t' -v OFS='\t' -v p="$DRIVER" 'NF { $1 = p "/" $1; print }' "$JOB/final.tsv" > "$TSV"

write_md
pass=$(grep -cP '\tpass\t' "$TSV")
fail=$(grep -cP '\tfail\t' "$TSV")
skip=$(grep -cP '\tskip\t' "$TSV")
hlog "lane $NAME: $pass pass, $fail fail, $skip skip in $((SECONDS - T0)) s; table: ${MD#"$TOP"/}"
if [ "$fail" -ne 0 ]; then
	grep -P '\tfail\t' "$TSV" | sed 's/^/    FAIL /' >&2
	exit 1
fi
exit 0
