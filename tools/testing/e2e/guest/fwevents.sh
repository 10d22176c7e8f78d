# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2153
# (FWEV_* come from job.env)
# Firmware-event suite (sourced by run.sh), lanes upstream and mlx5x: two
# emulated functions whose emulators start events on request (lane.sh):
#   ev   page requests (give, release, bursts) and a link flap, with
#        traffic running; must end with nothing leaked.
#   err  an EQ overrun, then an internal error: the function's users see
#        it die, the driver resets it and registers it again; then
#        (mlx5x) the device dies for good: found, users told, left down.
# Last (mlx5x), ev is removed in the middle of its users' traffic.
# Then ev's driver is unbound and bound again once per command completion
# mode (late, out of slot order, coalesced EQEs): the emulator switches
# while no driver is bound, so bring-up, a concurrent workload and
# teardown all run under the mode.
# Requests go through the job share: /job/ctl-TAG/req, answered in
# /job/ctl-TAG/ack (tools/testing/emu/README.rst).  Each behaviour is one
# test line; lane.sh adds the emulators' reports.
#
# job.env: FWEV_FW_EV, FWEV_FW_ERR (firmware versions that tell the two
# functions apart), FWEV_QMP_EV (ev's device name in QEMU), FWEV_UNPLUG
# (sysfs or qmp), FWEV_PP_ITERS, FWEV_CMD_MODES (MODE:MS words),
# FWEV_CMD_PROCS, FWEV_CMD_ROUNDS (cmdload.py), FWEV_CMD_PP_ITERS.

FWEV_SEQ=0

# fwev_dev FW: the RDMA device whose firmware version is FW.
fwev_dev() {
	local d
	for d in /sys/class/infiniband/*; do
		[ "$(cat "$d/fw_ver" 2>/dev/null)" = "$1" ] && basename "$d" && return 0
	done
	return 1
}

# fwev_req TAG WORD [ARG]: one request to emulator TAG; the answer's
# detail in FWEV_ANS; 0 if it says ok.
fwev_req() {
	local dir=/job/ctl-$1 end ack
	FWEV_SEQ=$((FWEV_SEQ + 1))
	rm -f "$dir/ack"
	echo "$FWEV_SEQ $2 ${3:-}" > "$dir/req.tmp" && mv "$dir/req.tmp" "$dir/req"
	end=$((SECONDS + ${FWEV_REQ_TMO:-30}))
	while [ $SECONDS -lt $end ]; do
		# (builtins: under TCG every process started costs)
		ack=
		read -r ack 2>/dev/null < "$dir/ack"
		if [ "${ack%% *}" = "$FWEV_SEQ" ]; then
			FWEV_ANS=${ack#* }
			echo "$2 ${3:-}: $FWEV_ANS" >> "$(logname fwevents-requests)"
			[ "${FWEV_ANS%% *}" = ok ]
			return
		fi
		sleep 0.1
	done
	FWEV_ANS="no answer from $1 in ${FWEV_REQ_TMO:-30} s"
	return 1
}

# fwev_val KEY: KEY=value (a number) from the last answer.
fwev_val() {
	[[ " $FWEV_ANS" =~ \ $1=([0-9]+) ]] && echo "${BASH_REMATCH[1]}"
}

# fwev_wait_held TAG WANT SECONDS: until the emulator holds WANT pages.
fwev_wait_held() {
	local end=$((SECONDS + $3))
	while [ $SECONDS -lt $end ]; do
		fwev_req "$1" query && [ "$(fwev_val held)" = "$2" ] && return 0
		sleep 0.5
	done
	return 1
}

# fwev_traffic_start NAME: a pingpong pair on EVDEV in the background.
fwev_traffic_start() {
	local port=$NEXT_PORT log
	NEXT_PORT=$((NEXT_PORT + 1))
	log=$(logname "$1")
	timeout -k 5 600 ibv_rc_pingpong -d "$EVDEV" -n "$FWEV_PP_ITERS" -s 4096 \
		-p "$port" > "$log.server" 2>&1 &
	FWEV_SRV=$!
	wait_listen "$port" "$FWEV_SRV" 60
	timeout -k 5 600 ibv_rc_pingpong -d "$EVDEV" -n "$FWEV_PP_ITERS" -s 4096 \
		-p "$port" 127.0.0.1 > "$log.client" 2>&1 &
	FWEV_CLI=$!
	FWEV_TLOG=$log
}

# fwev_traffic_end: 0 if both ends finished cleanly; FWEV_TDET says so.
fwev_traffic_end() {
	local src crc
	while kill -0 "$FWEV_CLI" 2>/dev/null && kill -0 "$FWEV_SRV" 2>/dev/null; do
		sleep 0.5
	done
	# An end that gave up (a link flap: the transport retry error on
	# either side) leaves its peer waiting for ever for a message that
	# never comes.
	if kill -0 "$FWEV_SRV" 2>/dev/null; then
		wait "$FWEV_CLI"
		crc=$?
		[ $crc -eq 0 ] || kill "$FWEV_SRV" 2>/dev/null
		wait "$FWEV_SRV"
		src=$?
	else
		wait "$FWEV_SRV"
		src=$?
		[ $src -eq 0 ] || kill "$FWEV_CLI" 2>/dev/null
		wait "$FWEV_CLI"
		crc=$?
	fi
	if [ $crc -eq 0 ] && [ $src -eq 0 ]; then
		FWEV_TDET="$FWEV_PP_ITERS pingpong iterations: $(sed -n 's/.* = \([0-9.]*\) usec\/iter.*/\1 usec\/iter/p' "$FWEV_TLOG.client")"
		return 0
	fi
	FWEV_TDET="pingpong client $(rc_detail $crc), server $(rc_detail $src): $(excerpt "$FWEV_TLOG.client")"
	return 1
}

fwev_bad() { FWEV_BAD+="${FWEV_BAD:+; }$1"; }

# fwev_asyncwatch DEV LOG: ibv_asyncwatch on DEV in the background (pid
# in FWEV_AW), line-buffered into LOG; returns once it has opened the
# device, so no event raised after this is missed.
fwev_asyncwatch() {
	local end=$((SECONDS + 60))
	timeout -k 5 600 stdbuf -oL ibv_asyncwatch -d "$1" > "$2" 2>&1 &
	FWEV_AW=$!
	while [ $SECONDS -lt $end ]; do
		grep -q 'async event FD' "$2" && return 0
		kill -0 "$FWEV_AW" 2>/dev/null || break
		sleep 0.2
	done
	fwev_bad "ibv_asyncwatch -d $1 did not start: $(excerpt "$2")"
	return 1
}

# fwev_pages NAME N COUNT: COUNT requests of N pages each (N < 0:
# release) while traffic runs; the driver must answer every one.
fwev_pages() {
	local name=fwevents/$1 n=$2 count=$3 held0 want
	FWEV_BAD=
	fwev_req ev query || { record "$name" fail "query: $FWEV_ANS"; return; }
	held0=$(fwev_val held)
	want=$((held0 + n * count))
	fwev_traffic_start "$1-traffic"
	sleep 1
	if [ "$count" -eq 1 ]; then
		fwev_req ev pages "$n" || fwev_bad "pages $n: $FWEV_ANS"
	else
		fwev_req ev pages-burst "$count:$n" || fwev_bad "pages-burst $count:$n: $FWEV_ANS"
	fi
	if ! fwev_wait_held ev "$want" 60; then
		fwev_bad "device holds $(fwev_val held) pages, want $want"
	elif [ "$n" -lt 0 ] && [ "$(fwev_val releasable)" != 0 ]; then
		fwev_bad "$(fwev_val releasable) released pages not taken back"
	fi
	fwev_traffic_end || fwev_bad "traffic: $FWEV_TDET"
	if [ -z "$FWEV_BAD" ]; then
		record "$name" pass "$count x $n pages: device held $held0, now $want; $FWEV_TDET"
	else
		record "$name" fail "$FWEV_BAD"
	fi
}

# fwev_port_state DEV: "4: ACTIVE" and such, from sysfs (ib_query_port).
fwev_port_state() { cat "/sys/class/infiniband/$1/ports/1/state" 2>/dev/null; }

# fwev_wait_state DEV WORD SECONDS
fwev_wait_state() {
	local end=$((SECONDS + $3))
	while [ $SECONDS -lt $end ]; do
		[[ "$(fwev_port_state "$1")" == *"$2"* ]] && return 0
		sleep 0.2
	done
	return 1
}

# Link flap with traffic across it: the port reads DOWN then ACTIVE
# again (sysfs, ibv_devinfo), user space gets PORT_ERR and PORT_ACTIVE,
# and traffic works before, across and after.
fwev_flap() {
	local name=fwevents/port-flap log aw devinfo
	FWEV_BAD=
	log=$(logname port-flap)
	aw=$log.asyncwatch
	devinfo=$log.devinfo
	fwev_asyncwatch "$EVDEV" "$aw"
	fwev_traffic_start port-flap-traffic
	sleep 1
	fwev_req ev port down || fwev_bad "port down: $FWEV_ANS"
	fwev_wait_state "$EVDEV" DOWN 30 || fwev_bad "port state $(fwev_port_state "$EVDEV") after port down"
	timeout -k 5 60 ibv_devinfo -d "$EVDEV" > "$devinfo" 2>&1
	grep -q 'state:[[:space:]]*PORT_DOWN' "$devinfo" ||
		fwev_bad "ibv_devinfo while down: $(devinfo_field "$devinfo" state)"
	fwev_req ev port up || fwev_bad "port up: $FWEV_ANS"
	fwev_wait_state "$EVDEV" ACTIVE 30 || fwev_bad "port state $(fwev_port_state "$EVDEV") after port up"
	timeout -k 5 60 ibv_devinfo -d "$EVDEV" >> "$devinfo" 2>&1
	# Nothing crosses a link that is down: RC traffic across the flap
	# survives it only if the port came back within the QPs' retry
	# budget, else it ends with the transport retry error, as on a cable.
	if fwev_traffic_end; then
		FWEV_FLAP="traffic survived the flap"
	elif grep -q 'retry counter exceeded' "$FWEV_TLOG.client" "$FWEV_TLOG.server" 2>/dev/null; then
		FWEV_FLAP="traffic across the flap ended with the retry error (link down longer than the retry budget)"
	else
		fwev_bad "traffic across the flap: $FWEV_TDET"
	fi
	run_pair port-flap-after 120 ibv_rc_pingpong -d "$EVDEV" -n 200 -s 4096 ||
		fwev_bad "traffic after the flap: $PAIR_ERR"
	sleep 1
	kill "$FWEV_AW" 2>/dev/null
	wait "$FWEV_AW" 2>/dev/null
	grep -q 'IBV_EVENT_PORT_ERR' "$aw" || fwev_bad "no IBV_EVENT_PORT_ERR async event: $(excerpt "$aw")"
	grep -q 'IBV_EVENT_PORT_ACTIVE' "$aw" || fwev_bad "no IBV_EVENT_PORT_ACTIVE async event: $(excerpt "$aw")"
	if [ -z "$FWEV_BAD" ]; then
		record "$name" pass "DOWN then ACTIVE (sysfs, ibv_devinfo), async events $(grep -o 'IBV_EVENT_PORT_[A-Z]*' "$aw" | tr '\n' ' '); $FWEV_FLAP; 200 more after"
	else
		record "$name" fail "$FWEV_BAD"
	fi
}

# The PCI function (0000:00:xx.x) of an RDMA device.
fwev_pci() { basename "$(readlink -f "/sys/class/infiniband/$1/device")"; }

# fwev_report_count: how many health reports the driver made for the err
# function so far: devlink's fw reporter error count (mlx5_core), the
# driver's own log lines (mlx5x).
fwev_report_count() {
	case $LANE in
	upstream)
		devlink health show "pci/$ERRPCI" reporter fw 2>/dev/null |
			sed -n 's/.*error \([0-9]*\).*/\1/p' | head -n1 ;;
	mlx5x)
		dmesg | grep -F "mlx5x $ERRPCI: " | grep -c 'health: syndrome 0xc' ;;
	esac
}

# EQ overrun: firmware writes one page request more than the EQ holds
# while the driver cannot consume; the emulator says it detected the
# overrun (health syndrome 0xc, no recover flow) and the driver reports
# it without treating it as fatal.
fwev_eq_overrun() {
	local name=fwevents/eq-overrun before after end log
	FWEV_BAD=
	log=$(logname eq-overrun)
	before=$(fwev_report_count)
	fwev_req err eq-overrun || fwev_bad "eq-overrun: $FWEV_ANS"
	local what=$FWEV_ANS
	end=$((SECONDS + 30))
	while [ $SECONDS -lt $end ]; do
		after=$(fwev_report_count)
		[ "${after:-0}" -gt "${before:-0}" ] && break
		sleep 0.5
	done
	[ "${after:-0}" -gt "${before:-0}" ] ||
		fwev_bad "driver did not report the syndrome in 30 s (reports ${before:-?} -> ${after:-?})"
	if [ "$LANE" = upstream ]; then
		devlink health diagnose "pci/$ERRPCI" reporter fw > "$log" 2>&1
		grep -q 'async EQ buffer overrun' "$log" ||
			fwev_bad "devlink fw diagnose: $(excerpt "$log")"
	else
		dmesg | grep -F "mlx5x $ERRPCI: " | grep 'health: syndrome 0xc' > "$log"
	fi
	[ -e "/sys/class/infiniband/$ERRDEV" ] || fwev_bad "$ERRDEV went away: the overrun was treated as fatal"
	if [ -z "$FWEV_BAD" ]; then
		record "$name" pass "${what#ok }; driver reports ${before:-0} -> $after: $(grep -o 'async EQ buffer overrun' "$log" | head -n1)"
	else
		record "$name" fail "$FWEV_BAD"
	fi
}

# Internal error: syndrome 0x1 with the recover flow requested, the
# health counter stalled.  The driver must find it (health poll), put the
# function in the error state and tell user space IBV_EVENT_DEVICE_FATAL
# (fwevents/internal-error); the users' blocked ibv_get_cq_event() calls
# return and their later verbs fail (fwevents/fatal-users); then it
# resets the function and registers the RDMA device again, on which a
# new pingpong works (fwevents/recovery, with the time from the request
# to the device usable again).
fwev_internal_error() {
	local name=fwevents/internal-error log aw end re ino0 t0 t1 t2 t3 dev=
	local ubad=
	FWEV_BAD=
	log=$(logname internal-error)
	aw=$log.asyncwatch
	fwev_asyncwatch "$ERRDEV" "$aw"
	lost_start "$ERRDEV" "$log.lost" || ubad="robust.py lost did not start: $(excerpt "$log.lost")"
	ecq_start "$ERRDEV" internal-error-ecq || ubad+="${ubad:+; }event-mode pingpong did not start: $(excerpt "$ECQ_LOG.client")"
	ino0=$(ibdev_ino "$ERRDEV")
	t0=$(fwev_up)
	t1=$t0
	fwev_req err internal-error || fwev_bad "internal-error: $FWEV_ANS"
	case $LANE in
	upstream) re='Fatal error [0-9]+ detected' ;;
	mlx5x) re='health: fatal syndrome 0x1 ' ;;
	esac
	end=$((SECONDS + 60))
	while [ $SECONDS -lt $end ]; do
		dmesg | grep -F "$ERRPCI" | grep -qE "$re" &&
			grep -q IBV_EVENT_DEVICE_FATAL "$aw" && break
		sleep 0.5
	done
	t1=$(fwev_up)
	dmesg | grep -F "$ERRPCI" | grep -qE "$re" || fwev_bad "no '$re' in dmesg"
	grep -q IBV_EVENT_DEVICE_FATAL "$aw" || fwev_bad "no IBV_EVENT_DEVICE_FATAL: $(excerpt "$aw")"
	ecq_end 120 || ubad+="${ubad:+; }event-mode pingpong: $ECQ_DET"
	lost_end 120 || ubad+="${ubad:+; }open context: $LOST_DET"
	kill "$FWEV_AW" 2>/dev/null
	wait "$FWEV_AW" 2>/dev/null
	dmesg | grep -F "$ERRPCI" > "$log.dmesg"
	if [ -z "$FWEV_BAD" ]; then
		record "$name" pass "'$(grep -E "$re" "$log.dmesg" | head -n1 | sed 's/^\[ *[0-9.]*\] //' | cut -c1-120)', IBV_EVENT_DEVICE_FATAL after $(fwev_dt "$t0" "$t1") s"
	else
		record "$name" fail "$FWEV_BAD"
	fi
	if [ -z "$ubad" ]; then
		record fwevents/fatal-users pass "blocked ibv_get_cq_event returned: $ECQ_DET; open context: $LOST_DET"
	else
		record fwevents/fatal-users fail "$ubad"
	fi
	# the driver resets the function and registers the device again
	FWEV_BAD=
	end=$((SECONDS + 240))
	while [ $SECONDS -lt $end ]; do
		dev=$(fwev_dev "$FWEV_FW_ERR") && [ "$(ibdev_ino "$dev")" != "$ino0" ] &&
			grep -q ACTIVE "/sys/class/infiniband/$dev/ports/1/state" 2>/dev/null && break
		dev=
		sleep 0.5
	done
	t2=$(fwev_up)
	if [ -z "$dev" ]; then
		fwev_bad "no RDMA device with fw $FWEV_FW_ERR registered again with an ACTIVE port $(fwev_dt "$t0" "$t2") s after the error: $(dmesg | grep -F "$ERRPCI" | tail -n 2 | tr '\n' ' ' | cut -c1-200)"
	elif ! run_pair internal-error-after 120 ibv_rc_pingpong -d "$dev" -n 200 -s 4096; then
		fwev_bad "pingpong on $dev after the recovery: $PAIR_ERR"
	fi
	t3=$(fwev_up)
	local rec
	rec=$(dmesg | grep -F "$ERRPCI" | grep -oE 'health recovery (failed|succeeded)|recovery (done|failed)[^,]*' | tail -n1)
	dmesg | grep -F "$ERRPCI" > "$log.dmesg"
	if [ -z "$FWEV_BAD" ]; then
		ERRDEV=$dev
		record fwevents/recovery pass "$dev unregistered and registered again, port ACTIVE $(fwev_dt "$t0" "$t2") s after the request, 200 pingpong iterations done $(fwev_dt "$t0" "$t3") s after it${rec:+ ('$rec')}"
	else
		record fwevents/recovery fail "$FWEV_BAD"
	fi
}

# Device death (lane mlx5x), after the recovery: the emulator stops
# answering (every BAR read all-ones).  The health poll must find it
# within its interval ("device not responding"), the users get
# IBV_EVENT_DEVICE_FATAL, blocked ibv_get_cq_event() calls return and
# later verbs fail, the function is left down (a reset does not bring a
# dead device back) and its RDMA device goes; rmmod later completes.
fwev_death() {
	local name=fwevents/death log end t0 t1 t2 re='health: device not responding'
	FWEV_BAD=
	log=$(logname death)
	lost_start "$ERRDEV" "$log.lost" || fwev_bad "robust.py lost did not start: $(excerpt "$log.lost")"
	ecq_start "$ERRDEV" death-ecq || fwev_bad "event-mode pingpong did not start: $(excerpt "$ECQ_LOG.client")"
	t0=$(fwev_up)
	t1=$t0
	fwev_req err die || fwev_bad "die: $FWEV_ANS"
	end=$((SECONDS + 60))
	while [ $SECONDS -lt $end ]; do
		dmesg | grep -F "mlx5x $ERRPCI: " | grep -q "$re" && break
		sleep 0.2
	done
	t1=$(fwev_up)
	dmesg | grep -F "mlx5x $ERRPCI: " | grep -q "$re" || fwev_bad "no '$re' in 60 s"
	ecq_end 120 || fwev_bad "event-mode pingpong: $ECQ_DET"
	lost_end 120 || fwev_bad "open context: $LOST_DET"
	end=$((SECONDS + 60))
	while [ $SECONDS -lt $end ] && fwev_dev "$FWEV_FW_ERR" > /dev/null; do
		sleep 0.5
	done
	t2=$(fwev_up)
	fwev_dev "$FWEV_FW_ERR" > /dev/null && fwev_bad "$ERRDEV still registered 60 s after the death"
	dmesg | grep -F "mlx5x $ERRPCI: " > "$log.dmesg"
	if [ -z "$FWEV_BAD" ]; then
		record "$name" pass "found $(fwev_dt "$t0" "$t1") s after it (health poll every $(cat /sys/module/mlx5x/parameters/health_poll_ms) ms), $ERRDEV gone after $(fwev_dt "$t0" "$t2") s: '$(grep -m1 'left down\|recovery failed' "$log.dmesg" | sed 's/^\[ *[0-9.]*\] mlx5x [^ ]* //' | cut -c1-100)'; blocked ibv_get_cq_event returned: $ECQ_DET; open context: $LOST_DET"
	else
		record "$name" fail "$FWEV_BAD"
	fi
}

# Removal under traffic (lane mlx5x), last: ev's function is bound again
# and removed while an event-mode pingpong is blocked in
# ibv_get_cq_event() and a context holds objects.  Both must end
# (DEVICE_FATAL, errors), the function must be gone, and nothing may
# hang; lane.sh checks ev's emulator report for leaks (the remove ran on
# a device still answering, so every object and page goes back).  The
# removal is the PCI core's (sysfs remove: what pciehp runs for a slot
# that empties); FWEV_UNPLUG=qmp has the host hot-unplug the device
# through QEMU's monitor instead (guest request "unplug" in
# /job/ctl-host; device_del on its PCIe root port), which QEMU 11.1's
# vfio-user client does not survive (it aborts in
# memory_region_del_subregion()).
fwev_unplug() {
	local name=fwevents/unplug log t0 t1
	FWEV_BAD=
	log=$(logname unplug)
	if ! fwev_bindctl bind "$log" || ! fwev_wait_ev 120 ||
		! wait_port_active "$EVDEV" 60; then
		record "$name" fail "ev not back for the unplug: $(excerpt "$log")"
		return
	fi
	lost_start "$EVDEV" "$log.lost" || fwev_bad "robust.py lost did not start: $(excerpt "$log.lost")"
	ecq_start "$EVDEV" unplug-ecq || fwev_bad "event-mode pingpong did not start: $(excerpt "$ECQ_LOG.client")"
	t0=$(fwev_up)
	local what
	if [ "${FWEV_UNPLUG:-sysfs}" = qmp ]; then
		FWEV_REQ_TMO=180 fwev_req host unplug "$FWEV_QMP_EV" || fwev_bad "unplug $FWEV_QMP_EV: $FWEV_ANS"
		what="device_del: ${FWEV_ANS#ok }"
	else
		timeout -k 5 180 bash -c 'echo 1 > "$1"' _ "/sys/bus/pci/devices/$EVPCI/remove" >> "$log" 2>&1 ||
			fwev_bad "sysfs remove of $EVPCI: $(excerpt "$log")"
		what="sysfs remove"
	fi
	t1=$(fwev_up)
	ecq_end 120 || fwev_bad "event-mode pingpong: $ECQ_DET"
	lost_end 120 || fwev_bad "open context: $LOST_DET"
	[ ! -e "/sys/bus/pci/devices/$EVPCI" ] || fwev_bad "$EVPCI still there"
	fwev_dev "$FWEV_FW_EV" > /dev/null && fwev_bad "an RDMA device with fw $FWEV_FW_EV is still registered"
	if [ -z "$FWEV_BAD" ]; then
		record "$name" pass "$EVPCI removed ($what) $(fwev_dt "$t0" "$t1") s after the request; blocked ibv_get_cq_event returned: $ECQ_DET; open context: $LOST_DET"
	else
		record "$name" fail "$FWEV_BAD"
	fi
}

# fwev_driver: the PCI driver of the emulated functions in this lane.
fwev_driver() { case $LANE in upstream) echo mlx5_core ;; *) echo mlx5x ;; esac; }

# fwev_bound: ev's function is bound to its driver.
fwev_bound() { [ -e "/sys/bus/pci/drivers/$(fwev_driver)/$EVPCI" ]; }

# fwev_bindctl bind|unbind LOG: bind or unbind ev's function; the write
# returns once the driver's probe or remove has finished.
fwev_bindctl() {
	echo "$1 $EVPCI" >> "$2"
	# shellcheck disable=SC2016 # the inner shell expands them
	timeout -k 5 300 bash -c 'echo "$1" > "$2"' _ "$EVPCI" \
		"/sys/bus/pci/drivers/$(fwev_driver)/$1" >> "$2" 2>&1
}

# fwev_wait_ev SECONDS: until ev's RDMA device is there again (EVDEV).
fwev_wait_ev() {
	local end=$((SECONDS + $1))
	while [ $SECONDS -lt $end ]; do
		EVDEV=$(fwev_dev "$FWEV_FW_EV") && return 0
		sleep 0.5
	done
	return 1
}

# fwev_up: the guest's uptime in seconds (no process spawned).
fwev_up() { local up _; read -r up _ < /proc/uptime; echo "${up:-0}"; }

# fwev_dt FROM TO: seconds between two fwev_up readings, one decimal.
fwev_dt() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# fwev_warn_lines: kernel log lines of warning level or worse from the RDMA
# drivers, and any trace, as the lane's dmesg check counts them (a slow
# TCG host makes the kernel warn about itself, e.g. hrtimer: interrupt
# took N ns, which says nothing of the device).
fwev_warn_lines() {
	dmesg -l emerg,alert,crit,err,warn |
		grep -iE 'mlx5|rdma|ib_|infiniband|Call Trace|WARNING:|BUG:|Oops'
}

# fwev_warns: how many so far.
fwev_warns() { fwev_warn_lines | wc -l; }

# fwev_cmd_load NAME: one round of cmdload.py (FWEV_CMD_PROCS processes
# creating and destroying objects, started by fwev_cmd_modes) with a
# pingpong pair beside it, on EVDEV.
fwev_cmd_load() {
	local log pid rc line=
	log=$(logname "$1")
	(run_pair "$1-pingpong" 300 ibv_rc_pingpong -d "$EVDEV" \
		-n "$FWEV_CMD_PP_ITERS" -s 4096 ||
		{ echo "$PAIR_ERR" > "$log.pingpong-err"; exit 1; }) &
	pid=$!
	NEXT_PORT=$((NEXT_PORT + 1))
	# (a loader that died must not kill this shell by SIGPIPE; the
	# coprocess's descriptors exist in this shell only, not in a subshell)
	trap '' PIPE
	printf '%s\n' "$EVDEV" 2>> "$log" 1>&"$FWEV_LOAD_IN"
	rc=$?
	trap - PIPE
	if [ $rc -ne 0 ] || ! read -r -t 300 line <&"$FWEV_LOAD_OUT"; then
		fwev_bad "cmdload.py: no verdict${line:+ ($line)}: $(excerpt "$(logname cmdload)")"
	elif [ "${line%% *}" != ok ]; then
		fwev_bad "cmdload.py: $line; $(excerpt "$(logname cmdload)")"
	fi
	wait "$pid" || fwev_bad "pingpong: $(cat "$log.pingpong-err" 2>/dev/null)"
	FWEV_LOAD=${line#ok }
}

# fwev_cmd_mode MODE:MS: with ev's driver unbound, the emulator completes
# commands the MODE way from now on; the driver binds (its bring-up under
# the mode), runs fwev_cmd_load and unbinds (its teardown too).  The
# emulator's counter of that mode (in the switch's answer, then a query)
# must have grown, and the kernel must have logged no warning meanwhile.
fwev_cmd_mode() {
	local kind=${1%%:*} name log key c0 c1 n0 n1 w0 w1 t0 t1 t2 t3
	name=fwevents/cmd-$kind
	log=$(logname "cmd-$kind")
	FWEV_BAD=
	FWEV_LOAD=
	case $kind in
	delay) key=cmd_delayed ;;
	reorder) key=cmd_reordered ;;
	coalesce) key=cmd_coalesced ;;
	*) record "$name" fail "no counter known for mode $1"; return ;;
	esac
	w0=$(fwev_warns)
	# the answer has the counters up to the switch
	fwev_req ev cmd-completion "$1" ||
		{ record "$name" fail "cmd-completion $1: $FWEV_ANS"; return; }
	c0=$(fwev_val "$key")
	n0=$(fwev_val cmds)
	t0=$(fwev_up)
	t1=$t0
	t2=$t0
	if ! fwev_bindctl bind "$log"; then
		fwev_bad "bind failed: $(excerpt "$log")"
	elif ! fwev_wait_ev 120; then
		fwev_bad "no RDMA device with fw $FWEV_FW_EV 120 s after the bind"
	elif ! wait_port_active "$EVDEV" 60; then
		fwev_bad "$EVDEV port 1 not ACTIVE: $(fwev_port_state "$EVDEV")"
	else
		t1=$(fwev_up)
		fwev_cmd_load "cmd-$kind-load"
	fi
	t2=$(fwev_up)
	if fwev_bound && ! fwev_bindctl unbind "$log"; then
		fwev_bad "unbind failed: $(excerpt "$log")"
	fi
	t3=$(fwev_up)
	w1=$(fwev_warns)
	[ "$w1" -eq "$w0" ] ||
		fwev_bad "$((w1 - w0)) kernel warning(s): $(fwev_warn_lines | tail -n "$((w1 - w0))" | head -n 2 | tr '\n' ' ' | cut -c1-200)"
	if fwev_req ev query; then
		c1=$(fwev_val "$key")
		n1=$(fwev_val cmds)
		[ "${c1:-0}" -gt "${c0:-0}" ] ||
			fwev_bad "$key ${c0:-?} -> ${c1:-?}: the mode never acted"
	else
		fwev_bad "query: $FWEV_ANS"
	fi
	if [ -z "$FWEV_BAD" ]; then
		record "$name" pass "$1: bind $(fwev_dt "$t0" "$t1") s, $FWEV_LOAD beside $FWEV_CMD_PP_ITERS pingpong iterations ($(fwev_dt "$t1" "$t2") s in all), unbind $(fwev_dt "$t2" "$t3") s: $((n1 - n0)) commands, $key +$((c1 - c0))"
	else
		record "$name" fail "$1: $FWEV_BAD"
	fi
}

# Command completions as the PRM allows them beyond one prompt EQE per
# command, on ev: its driver unbound (under the prompt mode), then one
# fwev_cmd_mode per FWEV_CMD_MODES word; the emulator ends back at prompt
# with the function unbound (lane.sh reads its report: each mode's
# counter, no leak, no violation).
fwev_cmd_modes() {
	local log mode FWEV_LOAD_IN FWEV_LOAD_OUT
	log=$(logname cmd-modes)
	EVPCI=$(fwev_pci "$EVDEV")
	if ! fwev_bindctl unbind "$log"; then
		record fwevents/cmd-modes fail "unbind $EVPCI from $(fwev_driver): $(excerpt "$log")"
		return
	fi
	# one loader for every mode: python and pyverbs start once
	coproc FWEV_LOADER { exec python3 /job/cmdload.py "$FWEV_CMD_PROCS" \
		"$FWEV_CMD_ROUNDS" 2>> "$(logname cmdload)"; }
	FWEV_LOAD_IN=${FWEV_LOADER[1]}
	FWEV_LOAD_OUT=${FWEV_LOADER[0]}
	for mode in $FWEV_CMD_MODES; do
		fwev_cmd_mode "$mode"
	done
	kill "$FWEV_LOADER_PID" 2>/dev/null
	wait "$FWEV_LOADER_PID" 2>/dev/null
	fwev_req ev cmd-completion prompt ||
		record fwevents/cmd-modes fail "back to prompt: $FWEV_ANS"
}

fwevents_main() {
	local end=$((SECONDS + 120))
	# the second function may register after the one setup waited for
	while [ $SECONDS -lt $end ]; do
		EVDEV=$(fwev_dev "$FWEV_FW_EV")
		ERRDEV=$(fwev_dev "$FWEV_FW_ERR")
		[ -n "$EVDEV" ] && [ -n "$ERRDEV" ] && break
		sleep 0.5
	done
	if [ -z "$EVDEV" ] || [ -z "$ERRDEV" ]; then
		record fwevents/devices fail "no RDMA device with fw $FWEV_FW_EV (${EVDEV:-none}) or $FWEV_FW_ERR (${ERRDEV:-none})"
		return
	fi
	ERRPCI=$(fwev_pci "$ERRDEV")
	wait_port_active "$EVDEV" 60
	record fwevents/devices pass "ev $EVDEV ($(fwev_pci "$EVDEV")), err $ERRDEV ($ERRPCI)"
	fwev_pages pages-give 64 1
	fwev_pages pages-reclaim -64 1
	fwev_pages pages-give-burst 16 8
	fwev_pages pages-reclaim-burst -16 8
	fwev_flap
	fwev_cmd_modes
	fwev_eq_overrun
	fwev_internal_error
	if [ "$LANE" = mlx5x ]; then
		fwev_death
		fwev_unplug
	fi
}
