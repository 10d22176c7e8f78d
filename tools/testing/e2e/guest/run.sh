#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest entry point of an e2e lane (run by vm-init as /job/run.sh).
# job.env (written by lane.sh) names the lane, the suite and the knobs.
# Exit status: 0 when no test recorded a failure.

cd /job || exit 97
# shellcheck source=/dev/null
. ./job.env
. ./lib.sh
. ./suite.sh
. ./faults.sh
. ./fwevents.sh
. ./robust.sh
. ./fabric.sh
. ./fuzz.sh
# A kernel that is not the tree's own (the debug kernel) brings its
# modules.* indexes in the job dir; the tree's /lib/modules is read-only.
if [ -d "/job/modules/$(uname -r)" ]; then
	mount --bind /job/modules /lib/modules || exit 97
fi
mkdir -p "$LOGS"
: > "$RES"
: > "$PERF"

# --- lane setup: load the driver, find the device, export DEV/GIDX -----

setup_rxe() {
	local log
	log=$(logname setup)
	{
		modprobe -a rdma_rxe ib_uverbs rdma_ucm &&
		ip link add dummy0 type dummy &&
		ip addr add 192.168.77.1/24 dev dummy0 &&
		ip link set dummy0 up &&
		rdma link add rxe0 type rxe netdev dummy0
	} > "$log" 2>&1 || { record setup fail "rxe: $(excerpt "$log")"; return 1; }
	DEV=rxe0
	GIDX=1
	wait_port_active "$DEV" 30 ||
		{ record setup fail "rxe0 port 1 never ACTIVE"; return 1; }
	record setup pass "rdma_rxe on dummy0, $DEV, gid index $GIDX"
}

setup_upstream() {
	local log t0 rc
	log=$(logname setup)
	t0=$(cut -d' ' -f1 /proc/uptime)
	timeout -k 5 120 modprobe mlx5_core > "$log" 2>&1 &&
		timeout -k 5 120 modprobe mlx5_ib >> "$log" 2>&1 &&
		modprobe -a ib_uverbs rdma_ucm >> "$log" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		record setup fail "modprobe $(rc_detail $rc): $(excerpt "$log") dmesg: $(dmesg_tail mlx5)"
		return 1
	fi
	DEV=mlx5_0
	GIDX=
	if [ -z "$(lspci -d 15b3:)" ]; then
		record setup fail "no Mellanox PCI function in the guest (is the emulator attached?)"
		return 1
	fi
	if ! wait_ibdev "$DEV" 120; then
		record setup fail "no /sys/class/infiniband/$DEV after 120 s (lspci: $(lspci -d 15b3: | head -n1)); dmesg: $(dmesg_tail mlx5)"
		return 1
	fi
	setup_port || return 1
	record setup pass "mlx5_core+mlx5_ib bound, $DEV after $(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN{printf "%.1f", b-a}') s$SM_DETAIL"
}

# setup_port: DEV's port ACTIVE, through opensm on a port of a subnet;
# records the setup failure when opensm cannot bring it up.
setup_port() {
	if sm_port_up "$DEV" 180; then
		return 0
	fi
	if [ -n "$SM_PID" ]; then
		record setup fail "$DEV port 1 not ACTIVE under opensm: $(cat "/sys/class/infiniband/$DEV/ports/1/state"); ${SM_ERR:-$(excerpt "$LOGS/opensm.out")}"
		return 1
	fi
	say "warning: $DEV port 1 not ACTIVE after 180 s"
}

# The ib device mlx5x registered on the first function it drives (on a
# port of a subnet the second is the link partner), whatever its name.
mlx5x_ibdev() {
	local f d
	for f in /sys/bus/pci/drivers/mlx5x/*:*; do
		for d in "$f"/infiniband/*; do
			[ -e "$d" ] && { basename "$d"; return 0; }
		done
		return 1
	done
	return 1
}

wait_mlx5x_ibdev() {
	local end=$((SECONDS + $1))
	while [ $SECONDS -lt $end ]; do
		DEV=$(mlx5x_ibdev) && return 0
		sleep 0.2
	done
	return 1
}

# The PCI functions mlx5x is bound to.
mlx5x_bound() {
	local f n=0
	for f in /sys/bus/pci/drivers/mlx5x/*:*; do
		[ -e "$f" ] && n=$((n + 1))
	done
	echo $n
}

mlx5x_insmod() {
	local log=$1
	# shellcheck disable=SC2086 # MLX5X_PARAMS: name=value parameters
	modprobe -a ib_core ib_uverbs rdma_ucm >> "$log" 2>&1 &&
		timeout -k 5 120 insmod /job/mlx5x.ko $MLX5X_PARAMS >> "$log" 2>&1
}

setup_mlx5x() {
	local log t0 rc
	log=$(logname setup)
	t0=$(cut -d' ' -f1 /proc/uptime)
	[ -f /job/mlx5x.ko ] || { record setup fail "no /job/mlx5x.ko"; return 1; }
	mlx5x_insmod "$log"
	rc=$?
	if [ $rc -ne 0 ]; then
		record setup fail "insmod mlx5x.ko $(rc_detail $rc): $(excerpt "$log") dmesg: $(dmesg_tail mlx5x)"
		return 1
	fi
	GIDX=
	if [ -z "$(lspci -d 15b3:)" ]; then
		record setup fail "no Mellanox PCI function in the guest (is the emulator attached?)"
		return 1
	fi
	if [ "$(mlx5x_bound)" -eq 0 ]; then
		record setup fail "mlx5x loaded but bound no PCI function ($(lspci -nd 15b3: | head -n1)); dmesg: $(dmesg_tail mlx5x)"
		return 1
	fi
	# The bringup suite records a missing RDMA device as its devinfo
	# failure (and still runs its cycles); the full suite stops here.
	if [ "$SUITE" = bringup ]; then
		wait_mlx5x_ibdev 60 || DEV=
	elif ! wait_mlx5x_ibdev 120; then
		record setup fail "mlx5x bound $(mlx5x_bound) function(s) but registered no RDMA device in 120 s; dmesg: $(dmesg_tail mlx5x)"
		return 1
	fi
	SM_DETAIL=
	if [ -n "$DEV" ]; then
		setup_port || return 1
	fi
	record setup pass "mlx5x.ko bound to $(mlx5x_bound) function(s), RDMA device ${DEV:-none} after $(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN{printf "%.1f", b-a}') s$SM_DETAIL"
}

# --- teardown: unloading must complete (the emulator then reports leaks) -

teardown() {
	local log mods rc
	log=$(logname teardown)
	# every driver of the emulated functions (the fabric suite may bind
	# one function to each)
	case $LANE in
	upstream | mlx5x | mixed | all) mods="mlx5x mlx5_ib mlx5_core" ;;
	*) return 0 ;;
	esac
	# Unload only what is loaded: a failed probe is reported elsewhere.
	mods=$(for m in $mods; do [ -d "/sys/module/$m" ] && printf '%s ' "$m"; done)
	mods=${mods% }
	if [ -z "$mods" ] && [ -n "${ROBUST_UNLOADED:-}" ]; then
		record rmmod pass "done by robust/rmmod-open-context"
		return 0
	fi
	if [ -z "$mods" ]; then
		record rmmod skip "driver not loaded"
		return 0
	fi
	stop_opensm
	# shellcheck disable=SC2086 # a list of modules
	timeout -k 5 180 rmmod $mods > "$log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		record rmmod pass "rmmod $mods"
	else
		record rmmod fail "rmmod $mods $(rc_detail $rc): $(excerpt "$log")"
	fi
}

# --- bringup suites ------------------------------------------------------

bringup_devinfo() {
	SUITE_PARTS=devinfo run_suite
	local log
	log=$(logname devinfo)
	if grep -q 'link_layer:[[:space:]]*InfiniBand' "$log"; then
		record devinfo/link_layer pass InfiniBand
	else
		record devinfo/link_layer fail "link_layer $(devinfo_field "$log" link_layer)"
	fi
	if [ -n "$(devinfo_field "$log" fw_ver)" ]; then
		record devinfo/fw_ver pass "$(devinfo_field "$log" fw_ver)"
	else
		record devinfo/fw_ver fail "no fw_ver"
	fi
}

bringup_upstream() {
	bringup_devinfo
	teardown
}

# /proc/interrupts lines naming mlx5x vectors.
mlx5x_irqs() { grep -c 'mlx5x' /proc/interrupts; }

bringup_mlx5x() {
	local line n i log cf ok=0 fails=""
	line=$(dmesg | grep 'mlx5x' | grep -iE 'fw|firmware' | tail -n1 | sed 's/^\[[^]]*\] //')
	if [ -n "$line" ]; then
		record bringup/summary pass "$line"
	else
		record bringup/summary fail "no mlx5x summary line (fw version) in dmesg"
	fi
	n=$(mlx5x_irqs)
	grep 'mlx5x' /proc/interrupts > "$LOGS/interrupts.log"
	if [ "$n" -gt 0 ]; then
		record bringup/interrupts pass "$n mlx5x vectors: $(awk '{print $NF}' "$LOGS/interrupts.log" | tr '\n' ' ')"
	else
		record bringup/interrupts fail "no mlx5x line in /proc/interrupts"
	fi
	local had_dev=$DEV
	if [ -n "$DEV" ]; then
		bringup_devinfo
	else
		record devinfo fail "mlx5x bound the function but registered no RDMA device in 60 s; dmesg: $(dmesg_tail mlx5x)"
	fi
	teardown
	# Every cycle must bind the function again (and register the RDMA
	# device again if the first load did) and unload cleanly.
	log=$(logname cycles)
	for ((i = 1; i <= CYCLES; i++)); do
		echo "== cycle $i" >> "$log"
		cf=
		if ! mlx5x_insmod "$log"; then
			cf=" $i:insmod"
		elif [ "$(mlx5x_bound)" -eq 0 ]; then
			cf=" $i:not-bound"
		elif [ -n "$had_dev" ] && ! wait_mlx5x_ibdev 60; then
			cf=" $i:no-ibdev"
		fi
		if [ -d /sys/module/mlx5x ] &&
			! timeout -k 5 180 rmmod mlx5x >> "$log" 2>&1; then
			fails+="$cf $i:rmmod"
			break
		fi
		fails+=$cf
		[ -n "$cf" ] || ok=$((ok + 1))
	done
	if [ "$CYCLES" -eq 0 ]; then
		record bringup/cycles skip "MLX5X_E2E_CYCLES=0"
	elif [ -z "$fails" ]; then
		record bringup/cycles pass "$CYCLES insmod/rmmod cycles"
	else
		record bringup/cycles fail "$ok/$CYCLES clean; failed:$fails"
	fi
}

# --- main ----------------------------------------------------------------

say "lane $LANE, suite $SUITE"
if [ "$SUITE" = faults ]; then
	"faults_$LANE"
elif [ "$SUITE" = fabric ]; then
	fabric_main
elif "setup_$LANE"; then
	case $SUITE in
	full)
		run_suite
		teardown
		;;
	bringup) "bringup_$LANE" ;;
	fwevents)
		fwevents_main
		teardown
		;;
	fuzz)
		fuzz_main
		teardown
		;;
	esac
else
	# Still try to unload, so the emulator report shows what leaked.
	[ "$LANE" = rxe ] || teardown
fi
save_dmesg
lsmod > "$LOGS/lsmod.log" 2>&1
say "done (known failures not yet applied): $(grep -c $'\tpass\t' "$RES") pass, $(grep -c $'\tfail\t' "$RES") fail, $(grep -c $'\tskip\t' "$RES") skip"
! grep -q $'\tfail\t' "$RES"
