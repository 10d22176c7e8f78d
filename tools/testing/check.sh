#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check`: every test of the project, in dependency order, then one
# summary.  Each step is a script that writes its results to
# $MLX5X_RESULTS/<step>.tsv, one line per test:
#
#     <test name> TAB pass|fail|skip TAB <detail>
#
# A step that exits non-zero without recording a failure gets one recorded
# for it, so a crashed step can never pass silently.  The last line printed
# is "N passed, N failed, N skipped".

set -uo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
T=$TOP/tools/testing
export MLX5X_CACHE=${MLX5X_CACHE:-/var/cache/mlx5x}
export MLX5X_RESULTS=${MLX5X_RESULTS:-$TOP/build/results}
rm -rf "$MLX5X_RESULTS"
mkdir -p "$MLX5X_RESULTS"

T0=$SECONDS
log() { printf '\n=== [check %s +%ds] %s\n' "$(date +%T)" $((SECONDS - T0)) "$*"; }

# step NAME COMMAND...: run one step, guarantee a result file.
step() {
	local name=$1 t=$SECONDS rc
	shift
	log "$name: $*"
	"$@"
	rc=$?
	if [ $rc -ne 0 ] && ! grep -qP '\tfail\t' "$MLX5X_RESULTS/$name.tsv" 2>/dev/null; then
		printf '%s\tfail\texit code %d\n' "$name" $rc >> "$MLX5X_RESULTS/$name.tsv"
	fi
	if [ ! -s "$MLX5X_RESULTS/$name.tsv" ]; then
		printf '%s\tfail\tstep recorded no result\n' "$name" >> "$MLX5X_RESULTS/$name.tsv"
	fi
	log "$name: done in $((SECONDS - t)) s (rc=$rc)"
}

# What the host itself builds and runs with (the emulator, its tests, the
# lane scripts); a freshly installed machine may lack some of it.
"$T/host-deps.sh" gcc make libc6-dev python3 util-linux ||
	{ echo "check: could not install the host's build tools" >&2; exit 1; }

# Steps.  The emulator's unit tests and the module build come first: they
# are quick and catch most breakage before the slow VM lanes.
[ -x "$T/emu/run-tests.sh" ] && step emu "$T/emu/run-tests.sh"
# include/mlx5x against the kernel's own layouts (host only, seconds).
step ifc "$T/ifc/run.sh"
step compat "$T/compat/run.sh"
step kunit "$T/kunit/run.sh"
# make bench's report generator on a canned run (no VM, no figure asserted)
step bench-report "$T/e2e/bench/test-report.sh"
# VM lanes as DRIVER:SUITE[@KERNEL] (the guest kernel, lane.sh's
# MLX5X_KERNEL: debian when not given); a lane joins this list once it
# passes.
# The fabric suite runs on three lanes: upstream, mlx5x (both functions)
# and mixed (upstream on one function, mlx5x on the other).  By default
# in one boot, lane "all" (lane.sh: one boot, one emulator, one opensm
# bring-up instead of three), which writes each lane's results as its
# own; MLX5X_CHECK_FABRIC_BOOTS=3 boots each, MLX5X_CHECK_FABRIC=0 runs
# the upstream one only.
FABRIC_LANES=upstream:fabric
if [ "${MLX5X_CHECK_FABRIC:-1}" = 1 ]; then
	FABRIC_LANES=all:fabric
	[ "${MLX5X_CHECK_FABRIC_BOOTS:-1}" = 3 ] &&
		FABRIC_LANES="upstream:fabric mixed:fabric mlx5x:fabric"
fi
LANES=${MLX5X_LANES:-"rxe:full upstream:bringup upstream:full $FABRIC_LANES upstream:fwevents mlx5x:bringup mlx5x:faults mlx5x:fwevents mlx5x:fuzz mlx5x:full@debug"}
has_lane() { case " $LANES " in *" $1 "*) return 0 ;; esac; return 1; }
for lane in $LANES; do
	ds=${lane%@*} kernel=
	[ "$ds" = "$lane" ] || kernel=${lane#*@}
	name=e2e-${ds%%:*}-${ds#*:}${kernel:+-$kernel}
	# lane all writes e2e-{upstream,mixed,mlx5x}-fabric.tsv: the step is
	# named after one of them, where a crash is then recorded
	[ "$ds" != all:fabric ] || name=e2e-mixed-fabric
	step "$name" \
		env MLX5X_KERNEL="${kernel:-debian}" "$T/e2e/lane.sh" "${ds%%:*}" "${ds#*:}"
done
# The mlx5x full suite, on whichever kernel it ran (the lane name).
MLX5X_FULL=
if has_lane mlx5x:full; then
	MLX5X_FULL=mlx5x-full
elif has_lane mlx5x:full@debug; then
	MLX5X_FULL=mlx5x-full-debug
fi

# The firmware-command differential: the upstream and mlx5x full lanes
# start with the same workload, traced field by field by the emulator.
if has_lane upstream:full && [ -n "$MLX5X_FULL" ]; then
	step fwdiff "$T/fwdiff/run.sh" --compare "$TOP/build/e2e/upstream-full" \
		"$TOP/build/e2e/$MLX5X_FULL"
fi

# Lanes side by side (build/results/compare-*.md).  Asserted: on the
# pyverbs tests both ran, the upstream lane passes at least as many as
# rxe.  mlx5x against upstream is shown, not asserted (its verbs grow).
compare_lanes() {
	local rc=0
	if has_lane rxe:full && has_lane upstream:full; then
		python3 "$T/e2e/compare.py" --check --tsv "$MLX5X_RESULTS/compare.tsv" \
			--md "$TOP/build/results/compare-upstream-vs-rxe.md" \
			rxe-full upstream-full || rc=1
	fi
	if has_lane upstream:full && [ -n "$MLX5X_FULL" ]; then
		python3 "$T/e2e/compare.py" \
			--md "$TOP/build/results/compare-mlx5x-vs-upstream.md" \
			upstream-full "$MLX5X_FULL"
	fi
	return $rc
}
if has_lane rxe:full && has_lane upstream:full; then
	step compare compare_lanes
else
	compare_lanes
fi

summary() {
	local f pass fail skip
	pass=0 fail=0 skip=0
	printf '\n%-22s %6s %6s %6s\n' step passed failed skipped
	for f in "$MLX5X_RESULTS"/*.tsv; do
		local p x s
		p=$(grep -cP '\tpass(\t|$)' "$f")
		x=$(grep -cP '\tfail(\t|$)' "$f")
		s=$(grep -cP '\tskip(\t|$)' "$f")
		printf '%-22s %6d %6d %6d\n' "$(basename "$f" .tsv)" "$p" "$x" "$s"
		pass=$((pass + p)) fail=$((fail + x)) skip=$((skip + s))
	done
	if [ $fail -ne 0 ]; then
		echo
		echo "Failures:"
		grep -hP '\tfail(\t|$)' "$MLX5X_RESULTS"/*.tsv | sed 's/^/  /'
	fi
	echo
	echo "make check took $((SECONDS - T0)) s"
	echo "$pass passed, $fail failed, $skip skipped"
	[ $fail -eq 0 ]
}
summary
