#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One e2e lane: build what it needs, boot the test VM, run the suite, parse.
#
#   lane.sh DRIVER SUITE      DRIVER: rxe | upstream | mlx5x
#                             SUITE:  full | bringup
#
#   rxe       soft-RoCE on a dummy netdev; checks the rig itself.
#   upstream  the guest kernel's own mlx5_core + mlx5_ib on the emulated
#             ConnectX (tools/testing/emu).
#   mlx5x     our mlx5x.ko on the emulated ConnectX (mlx5_core never loads).
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
case $SUITE in full | bringup) ;; *)
	echo "usage: $0 rxe|upstream|mlx5x [full|bringup]" >&2; exit 2 ;;
esac
[ "$DRIVER/$SUITE" = rxe/bringup ] && {
	echo "lane rxe has no bringup suite (it has no device to bring up)" >&2
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
	# TCG is slow; rxe stays lean so `make check` stays within budget.
	PP_SIZES=${MLX5X_E2E_PP_SIZES:-"1 4096 65536"}
	PP_ITERS=${MLX5X_E2E_PP_ITERS:-200}
	PERF_ITERS=${MLX5X_E2E_PERF_ITERS:-500}
	PERF_BW_ITERS=${MLX5X_E2E_PERF_BW_ITERS:-200}
	PY_ONLY=${MLX5X_E2E_PY_ONLY:-}
	PY_TIMEOUT=${MLX5X_E2E_PY_TIMEOUT:-300}
	CYCLES=${MLX5X_E2E_CYCLES:-20}
	PARTS=${MLX5X_E2E_PARTS:-"devinfo pingpong perftest pyverbs"}
	if [ "$DRIVER" = rxe ]; then
		PY_EXCLUDE=${MLX5X_E2E_PY_EXCLUDE:-}
		VM_TMO=${MLX5X_VM_TIMEOUT:-1500}
	else
		# Vendor-specific (DEVX, DR, ...) and other vendors' modules, and
		# rdmacm (needs IPoIB addressing; waits ~30 s per test without it).
		PY_EXCLUDE=${MLX5X_E2E_PY_EXCLUDE:-"test_mlx5_*,test_efa*,test_rdmacm,test_cuda*"}
		if [ "$SUITE" = bringup ]; then
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
	PP_TIMEOUT=120
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
	local raw=$JOB/dmesg-raw.txt pat hits allow
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
	hits=$( { grep -E '^<[0-4]>' "$raw" | grep -iE "$pat"
		grep -E 'Call Trace|WARNING:|BUG:|Oops|general protection|UBSAN|KASAN|RIP:|list_(add|del) corruption|refcount_t' "$raw"
		} | if [ -n "$allow" ]; then grep -vE "$allow"; else cat; fi | sort -u)
	if [ -z "$hits" ]; then
		echo "dmesg	pass	no warnings, errors or traces from ${pat//|/, }"
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
	cp "$E2EDIR"/guest/{run.sh,lib.sh,suite.sh,pyverbs-run.py} "$JOB/"
	chmod +x "$JOB/run.sh"
	write_env

	SOCKOPT=()
	if [ "$DRIVER" != rxe ]; then
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
	cat "$JOB/results.tsv"
	vm_line "$vmrc"
	check_dmesg
	[ "$DRIVER" = rxe ] || check_emu_report
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
