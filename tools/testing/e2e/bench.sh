#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make bench`: upstream mlx5_core+mlx5_ib and mlx5x side by side on equal
# terms.  One VM, one emulator process serving two ConnectX functions
# (same build, same options); the first is bound to upstream, the second
# to mlx5x (driver_override).  Every workload runs on each driver in turn,
# ROUNDS times (A B A B ...): bring-up and teardown, control path (vbench
# ctl, 1 and 4 processes), event path (vbench evlat, ibv_rc_pingpong -e,
# ib_send_lat -e), data path (ib_send_lat, ib_write_bw, ib_read_lat) and
# the instrument's floor (BAR0 read round trip of an unbound function).
# Phase marks from the guest let this script stamp the emulator's trace
# and counters (SIGUSR1 reports) per phase: commands, device time, events
# and interrupts of each driver.
#
# Output: build/results/bench.md, bench.json, bench-*.png; the job dir is
# build/bench/job.  Figures only: nothing here passes or fails on a number;
# exit status 1 when no figure was produced.
#
# Environment: MLX5X_BENCH_ROUNDS (5), MLX5X_BENCH_CTL_SECS (1.0, per
# control-path figure), MLX5X_BENCH_EV_ITERS (200), MLX5X_BENCH_PP_ITERS
# (200), MLX5X_BENCH_PERF_ITERS (300), MLX5X_BENCH_PERF_BW_ITERS (200),
# MLX5X_VM_TIMEOUT (2400 s).  rxe is not measured: it needs a boot of its
# own and measures no emulated hardware.

set -uo pipefail

TOP=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=host-lib.sh
. "$TOP/tools/testing/e2e/host-lib.sh"
# shellcheck disable=SC2034 # read by hlog
HLOG_TAG=bench
BENCHDIR=$E2EDIR/bench
JOB=$TOP/build/bench/job
RESDIR=$TOP/build/results
ROUNDS=${MLX5X_BENCH_ROUNDS:-5}
VM_TMO=${MLX5X_VM_TIMEOUT:-2400}
mkdir -p "$RESDIR" "$TOP/build/bench"
exec 8> "$TOP/build/bench/.lock"
flock -n 8 || { hlog "another make bench runs here; waiting"; flock 8; }
T0=$SECONDS
# shellcheck disable=SC2034 # host-lib's start_emu_link and stop_emu use it
EMU_PIDS=()
WATCH_PID=
trap 'stop_watch; stop_emu' EXIT

stop_watch() {
	[ -n "$WATCH_PID" ] || return 0
	kill "$WATCH_PID" 2>/dev/null
	wait "$WATCH_PID" 2>/dev/null
	WATCH_PID=
}

# build_vbench: the workload program, compiled in the root tree against
# its libibverbs (the tree has the library and rdma-core's sources, not
# the -dev package).
build_vbench() {
	local src=$ROOT/usr/src/rdma/rdma-core scr=$TOP/build/bench/vbench
	rm -rf "$scr"
	mkdir -p "$scr/inc/infiniband"
	cp "$src/libibverbs/verbs.h" "$src/libibverbs/verbs_api.h" \
		"$src/kernel-headers/rdma/ib_user_ioctl_verbs.h" "$scr/inc/infiniband/" &&
		cp -r "$src/kernel-headers/rdma" "$scr/inc/" &&
		cp "$BENCHDIR/vbench.c" "$scr/" || return 1
	# shellcheck disable=SC2016
	ROOT=$ROOT W=$scr nice unshare -m --propagation private sh -c '
		mount -t tmpfs tmpfs "$ROOT/run"; mkdir "$ROOT/run/w"
		mount --bind "$W" "$ROOT/run/w"
		exec chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin sh -c \
			"cd /run/w && gcc -O2 -Wall -Iinc -o vbench vbench.c /usr/lib/x86_64-linux-gnu/libibverbs.so.1 -lpthread"' \
		> "$scr/build.log" 2>&1 && cp "$scr/vbench" "$JOB/vbench"
}

# watch_marks: stamp each guest phase mark N (mark/N.req) with the line
# count of the emulator's trace and a counter snapshot of both functions
# (SIGUSR1: the reports go to emu.out), then acknowledge it (N.ack).
watch_marks() {
	local n=0 i want
	: > "$JOB/marks.tsv"
	while :; do
		if [ -e "$JOB/mark/$n.req" ]; then
			printf '%s\t%s\t%s\n' "$n" "$(cat "$JOB/mark/$n.req")" \
				"$(wc -l < "$JOB/emu.log")" >> "$JOB/marks.tsv"
			want=$((2 * (n + 1)))
			# shellcheck disable=SC2153 # set by start_emu_link
			kill -USR1 "$EMU_PID" 2>/dev/null
			for ((i = 0; i < 100; i++)); do
				[ "$(grep -c '^dma_refused=' "$JOB/emu.out")" -ge $want ] && break
				sleep 0.05
			done
			touch "$JOB/mark/$n.ack"
			n=$((n + 1))
		else
			sleep 0.05
		fi
	done
}

report() {
	/usr/bin/python3 "$BENCHDIR/report.py" --job "$JOB" --out "$RESDIR" \
		--host "$(nproc) host CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end" \
		--wall $((SECONDS - T0)) ${REPORT_START:+--load-start "$REPORT_START"}
}

if [ "${MLX5X_BENCH_REPARSE:-0}" = 1 ]; then
	# development aid: the report of the last run, without booting
	report
	exit $?
fi

hlog "host: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
REPORT_START=$(cut -d' ' -f1-3 /proc/loadavg)
"$TOP/tools/testing/host-deps.sh" python3-matplotlib || { hlog "cannot install python3-matplotlib"; exit 1; }
rig_root || { hlog "the VM root tree is not available"; exit 1; }
rm -rf "$JOB"
mkdir -p "$JOB/mark"
# The emulator and vbench build while the module does; the second
# build_emu only checks (make finds it up to date) and names a failure.
build_emu & EMU_BG=$!
build_vbench & VB_BG=$!
build_ko "$JOB" || { hlog "$MISSING"; exit 1; }
wait "$EMU_BG"
build_emu || { hlog "$MISSING"; exit 1; }
wait "$VB_BG" || { hlog "vbench failed to build: $(tail -n 3 "$TOP/build/bench/vbench/build.log")"; exit 1; }
hlog "built in $((SECONDS - T0)) s"
cp "$BENCHDIR/guest.sh" "$JOB/run.sh"
cp "$E2EDIR/guest/lib.sh" "$E2EDIR/guest/suite.sh" "$JOB/"
chmod +x "$JOB/run.sh"
cat > "$JOB/job.env" <<-EOF
ROUNDS=$ROUNDS
CTL_SECS=${MLX5X_BENCH_CTL_SECS:-1.0}
EV_ITERS=${MLX5X_BENCH_EV_ITERS:-200}
PP_ITERS=${MLX5X_BENCH_PP_ITERS:-200}
PERF_ITERS=${MLX5X_BENCH_PERF_ITERS:-300}
PERF_BW_ITERS=${MLX5X_BENCH_PERF_BW_ITERS:-200}
MMIO_READS=${MLX5X_BENCH_MMIO_READS:-2000}
EOF
# Both functions self-configure their ports: no subnet manager traffic
# to tell apart from the drivers' own.  The trace gives per-command times.
MLX5X_EMU_TRACE=1 start_emu_link "$JOB" 0x0002c90300be0001 0x0002c90300be0002 --port self ||
	{ hlog "$MISSING"; exit 1; }
hlog "emulator pid $EMU_PID: fn0 (upstream) and fn1 (mlx5x), ports linked, trace on"
watch_marks &
WATCH_PID=$!
hlog "booting: $ROUNDS rounds, guest progress follows"
# the guest console, its progress lines only
"$VMDIR/vm-run.sh" -t "$VM_TMO" -s vfu-a.sock -s vfu-b.sock "$JOB" |
	grep --line-buffered 'e2e \[' >&2
hlog "VM done (rc $(cat "$JOB/rc" 2>/dev/null || echo none))"
stop_watch
stop_emu
report
