#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make run`: build the rig, the emulated ConnectX and mlx5x.ko, boot the
# test VM with the emulated HCA attached, load mlx5x, show ibv_devinfo and
# real RDMA exchanges (ibv_rc_pingpong between two RC QPs on mlx5x_0, in
# poll and in event mode), unload.  What is not built yet is said plainly,
# and the VM still boots to show the driver-less state.  The emulated port
# is MLX5X_PORT's (host-lib.sh; MLX5X_EMU_PORT overrides): on a port of a
# subnet (sm) the HCA has a link partner (a second function, linked back
# to back) and the guest shows opensm bringing the port up.
#
# Transcript: build/demo/transcript.txt (the guest's output); the whole
# console in build/demo/console.log.  Exit 0 only when the demo ran.

set -uo pipefail

TOP=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=../e2e/host-lib.sh
. "$TOP/tools/testing/e2e/host-lib.sh"
# shellcheck disable=SC2034 # read by hlog
HLOG_TAG=run
JOB=$TOP/build/demo
# shellcheck disable=SC2034 # set by start_emu, read by stop_emu
EMU_PID=
trap 'stop_emu' EXIT

missing=()
"$TOP/tools/testing/host-deps.sh" gcc make libc6-dev ||
	{ hlog "FAIL: could not install the host's build tools"; exit 1; }
hlog "root tree of the test VM (first time: about 5 min)"
rig_root || { hlog "FAIL: could not build the VM root tree"; exit 1; }
mkdir -p "$TOP/build"
exec 8> "$TOP/build/.demo.lock"
if ! flock -n 8; then
	hlog "another make run is in progress; waiting for it"
	flock 8
fi
rm -rf "$JOB"
mkdir -p "$JOB"

if build_ko "$JOB"; then
	hlog "mlx5x.ko built for the guest kernel $KREL"
else
	missing+=("$MISSING")
fi
emu_ok=0
if build_emu; then
	emu_ok=1
else
	missing+=("$MISSING")
fi

cp "$VMDIR/demo-guest.sh" "$JOB/run.sh"
chmod +x "$JOB/run.sh"
EMU_PORT=${MLX5X_EMU_PORT:-$MLX5X_PORT}
echo "PORT=$EMU_PORT" > "$JOB/demo.env"
# the report of the demo's function (emu-a-report.txt beside a partner)
REPORT=$JOB/emu-report.txt
SOCKOPT=()
if [ $emu_ok -eq 1 ] && [ "$EMU_PORT" = sm ]; then
	if start_emu_link "$JOB" 0x0002c90300d30001 0x0002c90300d3000f --port sm; then
		SOCKOPT=(-s vfu-a.sock -s vfu-b.sock)
		REPORT=$JOB/emu-a-report.txt
	else
		missing+=("$MISSING")
	fi
elif [ $emu_ok -eq 1 ]; then
	if start_emu "$JOB" 0x0002c90300d30001 "" --port "$EMU_PORT"; then
		SOCKOPT=(-s vfu.sock)
	else
		missing+=("$MISSING")
	fi
fi

for m in "${missing[@]}"; do
	hlog "MISSING: $m"
done
if [ ${#SOCKOPT[@]} -eq 0 ]; then
	hlog "booting the VM without an emulated ConnectX, to show the driver-less state"
fi

"$VMDIR/vm-run.sh" -q -t 900 "${SOCKOPT[@]}" "$JOB"
rc=$?
stop_emu
cp "$JOB/out.log" "$JOB/transcript.txt" 2>/dev/null

echo
echo "================ transcript (build/demo/transcript.txt) ================"
cat "$JOB/transcript.txt" 2>/dev/null || tail -n 20 "$JOB/console.log"
echo "========================================================================"
if [ -s "$REPORT" ]; then
	# The figures that say the exchange was real and nothing leaked.
	echo "emulated ConnectX after the run (port mode $EMU_PORT; full report: build/demo/${REPORT##*/}):"
	for k in live_objects pages_held cmds cmds_failed created_qp eng_pkts eng_cqes eng_cq_events; do
		printf '  %-14s %s\n' "$k" "$(report_value "$REPORT" "$k")"
	done
fi
for m in "${missing[@]}"; do
	echo "MISSING: $m"
done
leak=0
for r in "$JOB"/emu-report.txt "$JOB"/emu-[ab]-report.txt; do
	[ -s "$r" ] || continue
	if [ "$(report_value "$r" live_objects)" != 0 ] ||
		[ "$(report_value "$r" pages_held)" != 0 ]; then
		echo "the emulated ConnectX still holds objects or pages after rmmod (${r##*/})"
		leak=1
	fi
done
if [ $rc -eq 0 ] && [ ${#missing[@]} -eq 0 ] && [ $leak -eq 0 ]; then
	echo "make run: demo complete."
	exit 0
fi
echo "make run: the demo did not run to the end (guest rc $rc)."
exit 1
