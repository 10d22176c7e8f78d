# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# (DEV and the PAIR_* settings are read by lib.sh and suite.sh)
# The fabric suite: two emulated HCAs (two PCI functions of one emulator
# process) whose ports are joined back to back, so everything here crosses
# a link.  Sourced by run.sh.  Steps, each a result line:
#   fabric/setup         both functions bound (driver_override per function)
#   fabric/opensm        opensm on port A brings both ports to ACTIVE
#   fabric/ports         both ACTIVE, distinct LIDs (SM-assigned with opensm)
#   diag/*               ibstat, sminfo, ibnetdiscover, saquery, smpquery,
#                        perfquery (its counters move with traffic)
#   cross/*              RC/UC/UD pingpong and perftest between the HCAs
#   ipoib/*              IPoIB on both ports, B's interface in its own
#                        network namespace: ping, a TCP transfer
#   cm/*                 rdma_cm: rping, ucmatose, ib_send_lat -R (B's end in
#                        the namespace) and the pyverbs rdmacm tests
#   nvmeof/*             nvmet-rdma target on one HCA, nvme-rdma host on the
#                        other, fio
# Directions (FABRIC_DIRS): X2Y puts the end that opens an exchange (the
# client, the NVMe host, the TCP sender) on HCA X and the end that serves
# on Y.  A lane with one driver runs one direction (b2a; a2b for the TCP
# transfer) under the plain names above; the mixed lane (upstream on A,
# mlx5x on B) runs the cross, cm, TCP and NVMe steps in both, named
# GROUP/DIR/TEST (cross/a2b/ib_read_bw, nvmeof/b2a/fio).
# A step whose prerequisite is missing (no SM: the port configures itself;
# no IPoIB carrier) is recorded as a skip naming the reason, never a pass.
# Knobs (job.env): FABRIC_DRIVERS FABRIC_DIRS FABRIC_PARTS FABRIC_TCP_MIB
# FABRIC_NVME_MIB PP_ITERS PERF_ITERS PERF_BW_ITERS PY_TIMEOUT MLX5X_PARAMS.

FAB_NET=10.77.0
FAB_ADDR_A=$FAB_NET.1
FAB_ADDR_B=$FAB_NET.2
FAB_NS=fabpeer
FAB_NQN=nqn.2024-01.org.mlx5x:fabric
HAVE_SM=0
IPOIB_UP=0
NO_SM_WHY="the ports configured themselves (emulator without an SMA): no subnet manager, no SA"
# Reads outstanding per QP in the read and atomic tests (the emulated
# device allows 16: log_max_ra_req_qp 4); several, so responses overlap.
FAB_OUTS=8
read -ra FAB_DIRS <<< "${FABRIC_DIRS:-b2a}"
# where the results go: /job, or a phase's directory (fabric_phase)
FAB_OUT=/job

# fab_roles DIR: the two ends of direction DIR: SRV_* serves, CLI_* opens;
# *_PRE is the prefix that runs a command in that end's network namespace
# (B's, while its interface lives there: see fabric_ipoib).
fab_roles() {
	FAB_DIR=$1
	if [ "$1" = a2b ]; then
		SRV_DEV=$DEV_B SRV_ADDR=$FAB_ADDR_B CLI_DEV=$DEV_A CLI_ADDR=$FAB_ADDR_A
		SRV_PRE=(ip netns exec "$FAB_NS") CLI_PRE=()
	else
		SRV_DEV=$DEV_A SRV_ADDR=$FAB_ADDR_A CLI_DEV=$DEV_B CLI_ADDR=$FAB_ADDR_B
		SRV_PRE=() CLI_PRE=(ip netns exec "$FAB_NS")
	fi
}

# fab_name GROUP TEST: the result name in the current direction.
fab_name() {
	if [ ${#FAB_DIRS[@]} -gt 1 ]; then
		echo "$1/$FAB_DIR/$2"
	else
		echo "$1/$2"
	fi
}

# Mellanox functions in bus order: the first is the emulator's vfu-a.
fab_functions() {
	local f
	for f in /sys/bus/pci/devices/*; do
		[ "$(cat "$f/vendor" 2>/dev/null)" = 0x15b3 ] && basename "$f"
	done | sort
}

# the RDMA device on PCI function BDF
fab_ibdev() {
	local d
	for d in /sys/bus/pci/devices/"$1"/infiniband/*; do
		[ -e "$d" ] && { basename "$d"; return 0; }
	done
	return 1
}

# port state number (4 ACTIVE) and LID of DEV port 1
fab_state() { cut -d: -f1 < "/sys/class/infiniband/$1/ports/1/state" 2>/dev/null; }
fab_lid() { printf '%d' "$(cat "/sys/class/infiniband/$1/ports/1/lid" 2>/dev/null)"; }
fab_sm_lid() { printf '%d' "$(cat "/sys/class/infiniband/$1/ports/1/sm_lid" 2>/dev/null)"; }
fab_guid() {
	tr -d ':' < "/sys/class/infiniband/$1/ports/1/gids/0" | cut -c17-32
}

uptime_s() { cut -d' ' -f1 /proc/uptime; }
elapsed() { awk -v a="$1" -v b="$(uptime_s)" 'BEGIN { printf "%.1f", b - a }'; }

# wait_both_active SECONDS
wait_both_active() {
	local end=$((SECONDS + $1))
	while [ $SECONDS -lt $end ]; do
		[ "$(fab_state "$DEV_A")" = 4 ] && [ "$(fab_state "$DEV_B")" = 4 ] &&
			return 0
		sleep 0.2
	done
	return 1
}

# Bind each function to the driver FABRIC_DRIVERS names for it (default
# mlx5_core for both): driver_override, so one VM can run upstream on one
# function and mlx5x on the other.  A function bound to another driver
# (an earlier phase's) is unbound first; fabric_setup probes it anew.
fabric_bind() {
	local log=$1 i=0 f drv drivers cur
	read -ra drivers <<< "${FABRIC_DRIVERS:-mlx5_core mlx5_core}"
	for f in $FNS; do
		drv=${drivers[$i]:-mlx5_core}
		cur=$(basename "$(readlink "/sys/bus/pci/devices/$f/driver" 2>/dev/null)" 2>/dev/null)
		if [ -n "$cur" ] && [ "$cur" != "$drv" ]; then
			echo "$f" > "/sys/bus/pci/devices/$f/driver/unbind" || return 1
		fi
		echo "$drv" > "/sys/bus/pci/devices/$f/driver_override" || return 1
		echo "$f -> $drv" >> "$log"
		case $drv in
		mlx5_core) NEED_UPSTREAM=1 ;;
		mlx5x) NEED_MLX5X=1 ;;
		*) echo "unknown driver $drv" >> "$log"; return 1 ;;
		esac
		i=$((i + 1))
	done
}

# fab_probe_unbound: probe the functions an earlier phase left unbound
# (their drivers loaded already, so nothing probes them by itself)
fab_probe_unbound() {
	local f
	for f in $FNS; do
		[ -e "/sys/bus/pci/devices/$f/driver" ] && continue
		echo "$f" > /sys/bus/pci/drivers_probe || return 1
	done
}

fabric_setup() {
	local log rc n
	log=$(logname fabric/setup)
	FNS=$(fab_functions)
	n=$(echo "$FNS" | grep -c .)
	if [ "$n" -ne 2 ]; then
		record fabric/setup fail "$n Mellanox functions, want 2: $(lspci -d 15b3: | tr '\n' ' ')"
		return 1
	fi
	NEED_UPSTREAM=0 NEED_MLX5X=0
	fabric_bind "$log" || { record fabric/setup fail "driver_override: $(excerpt "$log")"; return 1; }
	T_LOAD=$(uptime_s)
	{
		modprobe -a ib_core ib_uverbs rdma_ucm ib_umad &&
		if [ "$NEED_UPSTREAM" = 1 ]; then
			timeout -k 5 120 modprobe mlx5_core && timeout -k 5 120 modprobe mlx5_ib
		fi &&
		if [ "$NEED_MLX5X" = 1 ] && [ ! -d /sys/module/mlx5x ]; then
			# shellcheck disable=SC2086 # name=value parameters
			timeout -k 5 120 insmod /job/mlx5x.ko $MLX5X_PARAMS
		fi &&
		fab_probe_unbound
	} >> "$log" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		record fabric/setup fail "loading the drivers $(rc_detail $rc): $(excerpt "$log") dmesg: $(dmesg_tail mlx5)"
		return 1
	fi
	local end=$((SECONDS + 120)) a b
	# shellcheck disable=SC2086 # two PCI addresses
	set -- $FNS
	while [ $SECONDS -lt $end ]; do
		DEV_A=$(fab_ibdev "$1") && DEV_B=$(fab_ibdev "$2") && break
		sleep 0.2
	done
	if [ -z "${DEV_A:-}" ] || [ -z "${DEV_B:-}" ]; then
		record fabric/setup fail "no RDMA device on both functions after 120 s ($1: ${DEV_A:-none}, $2: ${DEV_B:-none}); dmesg: $(dmesg_tail mlx5)"
		return 1
	fi
	DEV=$DEV_A
	a=$(fab_guid "$DEV_A")
	b=$(fab_guid "$DEV_B")
	if [ "$a" = "$b" ]; then
		record fabric/setup fail "both ports have GUID $a"
		return 1
	fi
	record fabric/setup pass "$1 $DEV_A (guid $a), $2 $DEV_B (guid $b) after $(elapsed "$T_LOAD") s"
}

# opensm on port A, unless the ports configured themselves: each has a
# LID from power-on and is its own SM (a port waiting for an SM has LID 0;
# one an SM configured before has B's SM LID at A)
fabric_opensm() {
	local guid lb
	lb=$(fab_lid "$DEV_B")
	if [ "$(fab_lid "$DEV_A")" != 0 ] && [ "$lb" != 0 ] &&
		[ "$(fab_sm_lid "$DEV_B")" = "$lb" ] && wait_both_active 30; then
		record fabric/opensm skip "$NO_SM_WHY (ports ACTIVE with LIDs $(fab_lid "$DEV_A") and $lb before any SM)"
		return 0
	fi
	guid=0x$(fab_guid "$DEV_A")
	if ! start_opensm "$DEV_A" 180 || ! wait_both_active 60; then
		record fabric/opensm fail "port states: $DEV_A $(fab_state "$DEV_A"), $DEV_B $(fab_state "$DEV_B"); opensm: ${SM_ERR:-$(excerpt "$LOGS/opensm.out")} $(grep -iE 'err|fail' "$LOGS/opensm.log" 2>/dev/null | tail -n 2 | tr '\n' ' ' | cut -c1-200)"
		return 1
	fi
	HAVE_SM=1
	T_ACTIVE=$(elapsed "$T_LOAD")
	perf fabric/opensm modprobe_to_active "$T_ACTIVE" s
	record fabric/opensm pass "opensm on $DEV_A ($guid): both ports ACTIVE $T_ACTIVE s after modprobe"
}

fabric_ports() {
	local la lb sa sb
	la=$(fab_lid "$DEV_A")
	lb=$(fab_lid "$DEV_B")
	sa=$(fab_sm_lid "$DEV_A")
	sb=$(fab_sm_lid "$DEV_B")
	if [ "$(fab_state "$DEV_A")" != 4 ] || [ "$(fab_state "$DEV_B")" != 4 ]; then
		record fabric/ports fail "not both ACTIVE: $DEV_A $(fab_state "$DEV_A"), $DEV_B $(fab_state "$DEV_B")"
	elif [ "$la" = 0 ] || [ "$lb" = 0 ] || [ "$la" = "$lb" ]; then
		record fabric/ports fail "LIDs $la and $lb"
	elif [ $HAVE_SM = 1 ] && { [ "$sa" != "$la" ] || [ "$sb" != "$la" ]; }; then
		record fabric/ports fail "SM LID $sa / $sb, opensm runs on LID $la"
	else
		record fabric/ports pass "ACTIVE, LIDs $la and $lb, SM LID $sa$([ $HAVE_SM = 1 ] && echo ' (opensm)')"
	fi
}

# --- diagnostics (MADs: SMPs and GMPs over QP0/QP1) -----------------------

# diag_run NAME CMD...: run under a timeout into NAME's log; 0 on success
diag_run() {
	local log
	log=$(logname "$1")
	shift
	timeout -k 5 60 "$@" > "$log" 2>&1
}

# PortXmitData of DEV port 1 (4-octet words), from its PMA
port_xmit() {
	timeout -k 5 30 perfquery -C "$1" -P 1 2>/dev/null |
		sed -n 's/^PortXmitData:\.*//p'
}

fabric_diag() {
	local log la lb n links
	la=$(fab_lid "$DEV_A")
	lb=$(fab_lid "$DEV_B")
	log=$(logname diag/ibstat)
	if diag_run diag/ibstat ibstat "$DEV_A" && ibstat "$DEV_B" >> "$log" 2>&1 &&
		[ "$(grep -c 'State: Active' "$log")" -eq 2 ]; then
		record diag/ibstat pass "both ports Active, base LIDs $(grep 'Base lid' "$log" | awk '{print $3}' | tr '\n' ' ')"
	else
		record diag/ibstat fail "$(excerpt "$log" 4)"
	fi
	if [ $HAVE_SM = 0 ]; then
		for n in sminfo ibnetdiscover saquery smpquery perfquery; do
			record "diag/$n" skip "$NO_SM_WHY"
		done
		return
	fi
	log=$(logname diag/sminfo)
	if diag_run diag/sminfo sminfo -C "$DEV_B" -P 1 &&
		grep -q "sm lid $la .*SMINFO_MASTER" "$log"; then
		record diag/sminfo pass "from $DEV_B: $(head -n1 "$log")"
	else
		record diag/sminfo fail "$(excerpt "$log")"
	fi
	log=$(logname diag/ibnetdiscover)
	if diag_run diag/ibnetdiscover ibnetdiscover -C "$DEV_A" -P 1; then
		n=$(grep -c '^Ca' "$log")
		# each end of a link lists its port with the peer: two lines a link
		links=$(($(grep -c '^\[[0-9]*\].*"' "$log") / 2))
		if [ "$n" -eq 2 ] && [ "$links" -eq 1 ]; then
			record diag/ibnetdiscover pass "$n CAs, $links link"
		else
			record diag/ibnetdiscover fail "$n CAs, $links links: $(excerpt "$log" 3)"
		fi
	else
		record diag/ibnetdiscover fail "$(excerpt "$log")"
	fi
	log=$(logname diag/saquery)
	if diag_run diag/saquery saquery -C "$DEV_B" -P 1 NodeRecord; then
		n=$(grep -c 'NodeRecord dump' "$log")
		if [ "$n" -eq 2 ]; then
			record diag/saquery pass "the SA knows $n nodes"
		else
			record diag/saquery fail "$n node records: $(excerpt "$log")"
		fi
	else
		record diag/saquery fail "$(excerpt "$log")"
	fi
	log=$(logname diag/smpquery)
	if diag_run diag/smpquery smpquery -C "$DEV_A" -P 1 nodeinfo "$lb" &&
		grep -qi "^Guid:\.*0x$(fab_guid "$DEV_B")\$" "$log" &&
		smpquery -C "$DEV_A" -P 1 portinfo "$lb" >> "$log" 2>&1 &&
		grep -qi "^Lid:\.*$lb\$" "$log"; then
		record diag/smpquery pass "NodeInfo and PortInfo of LID $lb from $DEV_A"
	else
		record diag/smpquery fail "$(excerpt "$log" 3)"
	fi
}

# perfquery: PortXmitData of B must grow with traffic B sends (run
# around the cross-traffic part)
PERF_X0=
fabric_perfquery_before() {
	[ $HAVE_SM = 1 ] && PERF_X0=$(port_xmit "$DEV_B")
}

fabric_perfquery_after() {
	local x1
	[ $HAVE_SM = 1 ] || return 0
	x1=$(port_xmit "$DEV_B")
	if [ -n "$PERF_X0" ] && [ -n "$x1" ] && [ "$x1" -gt "$PERF_X0" ]; then
		record diag/perfquery pass "$DEV_B PortXmitData $PERF_X0 -> $x1 (x4 octets) over the traffic"
	else
		record diag/perfquery fail "$DEV_B PortXmitData '${PERF_X0}' -> '${x1}': $(timeout 30 perfquery -C "$DEV_B" -P 1 2>&1 | tail -n 2 | tr '\n' ' ')"
	fi
}

# --- traffic between the two HCAs -----------------------------------------

# cross_pingpong TEST PROGRAM ARGS...: across the link in the current
# direction (the TCP exchange of the two ends stays in the guest)
cross_pingpong() {
	local name
	name=$(fab_name cross "$1")
	shift
	PAIR_SRV=(-d "$SRV_DEV")
	PAIR_CLI=(-d "$CLI_DEV")
	if run_pair "$name" "$PP_TIMEOUT" "$@" -n "$PP_ITERS"; then
		pingpong_record "$name" "$PP_ITERS iters $CLI_DEV -> $SRV_DEV"
	else
		record "$name" fail "$PAIR_ERR"
	fi
}

# cross_perftest TEST KIND ITERS PROGRAM ARGS...
cross_perftest() {
	local name kind=$2 iters=$3
	name=$(fab_name cross "$1")
	shift 3
	PAIR_SRV=(-d "$SRV_DEV")
	PAIR_CLI=(-d "$CLI_DEV")
	if run_pair "$name" "$PERF_TIMEOUT" "$@" -F -n "$iters"; then
		perftest_record "$name" "$kind"
	else
		record "$name" fail "$PAIR_ERR"
	fi
}

fabric_cross() {
	local s d
	fabric_perfquery_before
	for d in "${FAB_DIRS[@]}"; do
		fab_roles "$d"
		for s in 1 4096 65536; do
			cross_pingpong "rc/poll/s$s" ibv_rc_pingpong -s "$s"
		done
		cross_pingpong rc/event/s4096 ibv_rc_pingpong -s 4096 -e
		cross_pingpong uc/s4096 ibv_uc_pingpong -s 4096
		cross_pingpong ud/s1024 ibv_ud_pingpong -s 1024
		cross_perftest ib_send_lat lat "$PERF_ITERS" ib_send_lat
		cross_perftest ib_write_bw bw "$PERF_BW_ITERS" ib_write_bw
		# the responder serves FAB_OUTS reads (atomics) at once
		cross_perftest ib_read_lat lat "$PERF_ITERS" ib_read_lat -o "$FAB_OUTS"
		cross_perftest ib_read_bw bw "$PERF_BW_ITERS" ib_read_bw -o "$FAB_OUTS"
		cross_perftest ib_atomic_bw bw "$PERF_BW_ITERS" ib_atomic_bw -o "$FAB_OUTS"
		cross_perftest ib_send_bw bw "$PERF_BW_ITERS" ib_send_bw
	done
	fabric_perfquery_after
}

# --- IPoIB ------------------------------------------------------------------

fab_netdev() { ls "/sys/class/infiniband/$1/device/net/" 2>/dev/null | head -n1; }
in_ns() { ip netns exec "$FAB_NS" "$@"; }

IPOIB_PARTS="ipoib/up ipoib/ping ipoib/ping-mtu ipoib/ping-64k ipoib/ping-back"

# the TCP transfers' names: one per direction on a lane of two
ipoib_tcp_names() {
	local d
	if [ ${#FAB_DIRS[@]} -gt 1 ]; then
		for d in "${FAB_DIRS[@]}"; do
			echo "ipoib/$d/tcp"
		done
	else
		echo ipoib/tcp
	fi
}

fabric_ipoib() {
	local log t0 end n d
	log=$(logname ipoib/up)
	if [ $HAVE_SM = 0 ]; then
		for n in $IPOIB_PARTS $(ipoib_tcp_names); do
			record "$n" skip "IPoIB joins its broadcast group through the SA: $NO_SM_WHY"
		done
		return
	fi
	t0=$(uptime_s)
	if ! modprobe ib_ipoib > "$log" 2>&1; then
		record ipoib/up fail "modprobe ib_ipoib: $(excerpt "$log")"
		return
	fi
	end=$((SECONDS + 60))
	while [ $SECONDS -lt $end ]; do
		IF_A=$(fab_netdev "$DEV_A") && IF_B=$(fab_netdev "$DEV_B") &&
			[ -n "$IF_A" ] && [ -n "$IF_B" ] && break
		sleep 0.2
	done
	{
		ip netns add "$FAB_NS" &&
		ip link set "$IF_B" netns "$FAB_NS" &&
		in_ns ip link set lo up &&
		ip addr add "$FAB_ADDR_A/24" dev "$IF_A" &&
		ip link set "$IF_A" up &&
		in_ns ip addr add "$FAB_ADDR_B/24" dev "$IF_B" &&
		in_ns ip link set "$IF_B" up
	} >> "$log" 2>&1 || {
		record ipoib/up fail "interfaces '$IF_A' '$IF_B': $(excerpt "$log")"
		return
	}
	end=$((SECONDS + 120))
	while [ $SECONDS -lt $end ]; do
		[ "$(cat "/sys/class/net/$IF_A/carrier" 2>/dev/null)" = 1 ] &&
			[ "$(in_ns cat "/sys/class/net/$IF_B/carrier" 2>/dev/null)" = 1 ] &&
			break
		sleep 0.5
	done
	{ ip addr show "$IF_A"; in_ns ip addr show "$IF_B"; } >> "$log" 2>&1
	if [ "$(cat "/sys/class/net/$IF_A/carrier" 2>/dev/null)" != 1 ] ||
		[ "$(in_ns cat "/sys/class/net/$IF_B/carrier" 2>/dev/null)" != 1 ]; then
		record ipoib/up fail "no carrier after 120 s (broadcast group joined?): $(dmesg_tail ib[0-9])"
		for n in ${IPOIB_PARTS#ipoib/up } $(ipoib_tcp_names); do
			record "$n" skip "no IPoIB carrier (ipoib/up failed)"
		done
		return
	fi
	IPOIB_UP=1
	IPOIB_MTU=$(cat "/sys/class/net/$IF_A/mtu")
	t0=$(elapsed "$t0")
	perf ipoib/up modprobe_to_carrier "$t0" s
	record ipoib/up pass "$IF_A $FAB_ADDR_A, $IF_B $FAB_ADDR_B in netns $FAB_NS, mode $(cat "/sys/class/net/$IF_A/mode"), mtu $IPOIB_MTU, carrier $t0 s after modprobe"
	# the largest datagram that needs no fragment, then 60000 bytes in
	# fragments, then from B's namespace back to A
	fab_ping ipoib/ping init -c 5 -i 0.2 "$FAB_ADDR_B"
	fab_ping ipoib/ping-mtu init -c 5 -i 0.2 -M "do" -s $((IPOIB_MTU - 28)) "$FAB_ADDR_B"
	fab_ping ipoib/ping-64k init -c 3 -i 0.5 -s 60000 "$FAB_ADDR_B"
	fab_ping ipoib/ping-back "$FAB_NS" -c 3 -i 0.2 "$FAB_ADDR_A"
	if [ ${#FAB_DIRS[@]} -gt 1 ]; then
		for d in "${FAB_DIRS[@]}"; do
			fab_roles "$d"
			fab_tcp
		done
	else
		fab_roles a2b
		fab_tcp
	fi
	rm -f /tmp/fab-tx
}

# fab_ping NAME NETNS(init: the initial one) PING-ARGS...: every echo
# answered
fab_ping() {
	local name=$1 pre=() log avg
	[ "$2" = init ] || pre=(ip netns exec "$2")
	shift 2
	log=$(logname "$name")
	if timeout -k 5 60 "${pre[@]}" ping -W 5 "$@" > "$log" 2>&1 &&
		grep -q ' 0% packet loss' "$log"; then
		avg=$(sed -n 's|^rtt .* = [0-9.]*/\([0-9.]*\)/.*|\1|p' "$log")
		perf "$name" rtt_avg "$avg" ms
		record "$name" pass "$(grep 'packets transmitted' "$log"), rtt avg $avg ms"
	else
		record "$name" fail "$(excerpt "$log")"
	fi
}

# a TCP transfer from the current direction's client to its server (one
# of them in B's namespace), checked with sha256
fab_tcp() {
	local log mib=${FABRIC_TCP_MIB:-64} port=5201 spid t0 secs tx rx end name
	name=$(fab_name ipoib tcp)
	log=$(logname "$name")
	# one random file (and its digest) for every direction: under TCG
	# making 64 MiB of it takes longer than sending them
	if [ ! -s /tmp/fab-tx ]; then
		head -c $((mib << 20)) /dev/urandom > /tmp/fab-tx
		FAB_TX_SHA=$(sha256sum < /tmp/fab-tx | cut -c1-64)
	fi
	tx=$FAB_TX_SHA
	rm -f /tmp/fab-rx
	"${SRV_PRE[@]}" timeout -k 5 600 socat -u \
		"TCP-LISTEN:$port,bind=$SRV_ADDR,reuseaddr" CREATE:/tmp/fab-rx \
		> "$log.server" 2>&1 &
	spid=$!
	end=$((SECONDS + 30))
	while [ $SECONDS -lt $end ] &&
		[ -z "$("${SRV_PRE[@]}" ss -Hltn "sport = :$port" 2>/dev/null)" ]; do
		sleep 0.2
	done
	t0=$(uptime_s)
	"${CLI_PRE[@]}" timeout -k 5 600 socat -u OPEN:/tmp/fab-tx "TCP:$SRV_ADDR:$port" > "$log" 2>&1
	wait "$spid"
	secs=$(elapsed "$t0")
	rx=$(sha256sum < /tmp/fab-rx 2>/dev/null | cut -c1-64)
	if [ "$tx" = "$rx" ]; then
		local rate
		rate=$(awk -v m="$mib" -v s="$secs" 'BEGIN { printf "%.1f", (s > 0 ? m / s : 0) }')
		perf "$name" throughput "$rate" MiB/s
		record "$name" pass "$mib MiB $CLI_ADDR -> $SRV_ADDR in $secs s ($rate MiB/s), sha256 ${tx:0:16}... matches"
	else
		record "$name" fail "sha256 differs (sent ${tx:0:16}, received ${rx:0:16}, $(stat -c %s /tmp/fab-rx 2>/dev/null) bytes): $(excerpt "$log") $(excerpt "$log.server")"
	fi
	rm -f /tmp/fab-rx
}

# --- rdma_cm ------------------------------------------------------------------

CM_TESTS="rping ucmatose ib_send_lat_R"

fabric_cm() {
	local n d
	if [ $IPOIB_UP = 0 ]; then
		for d in "${FAB_DIRS[@]}"; do
			fab_roles "$d"
			for n in $CM_TESTS; do
				record "$(fab_name cm "$n")" skip "rdma_cm resolves IPoIB addresses: no IPoIB carrier"
			done
		done
		record pyverbs/test_rdmacm skip "rdma_cm resolves IPoIB addresses: no IPoIB carrier"
		return
	fi
	for d in "${FAB_DIRS[@]}"; do
		fab_roles "$d"
		fabric_cm_dir
	done
	# rdma-core's rdmacm tests: both ends on A's address (their design)
	( cd /usr/src/rdma/rdma-core/tests && timeout -k 10 900 python3 /job/pyverbs-run.py \
		--dev "$DEV_A" --timeout "$PY_TIMEOUT" --only test_rdmacm --exclude "" --out "$FAB_OUT" )
	case $? in
	0 | 1) ;;
	*) record pyverbs/runner fail "rdmacm runner died" ;;
	esac
}

# fabric_cm_dir: rping, ucmatose and ib_send_lat -R in the current
# direction: the server on its HCA's address, the client on the other
# HCA, one of them in B's namespace.  rdma_cm servers open no TCP
# socket: run_pair waits for the listening cm_id.
fabric_cm_dir() {
	local name
	name=$(fab_name cm rping)
	PAIR_SRV=(-s -a "$SRV_ADDR" -C 10 -v)
	PAIR_CLI=(-c -a "$SRV_ADDR" -C 10 -v)
	PAIR_SRV_PRE=("${SRV_PRE[@]}") PAIR_CLI_PRE=("${CLI_PRE[@]}")
	PAIR_ADDR=none PAIR_WAIT=cm
	if run_pair "$name" 120 rping; then
		record "$name" pass "10 ping-pongs, client $CLI_ADDR -> $SRV_ADDR: $(grep -c 'ping data' "$PAIR_OUT") lines"
	else
		record "$name" fail "$PAIR_ERR"
	fi
	name=$(fab_name cm ucmatose)
	PAIR_SRV=(-b "$SRV_ADDR")
	PAIR_CLI=(-s "$SRV_ADDR")
	PAIR_SRV_PRE=("${SRV_PRE[@]}") PAIR_CLI_PRE=("${CLI_PRE[@]}")
	PAIR_ADDR=none PAIR_WAIT=cm
	if run_pair "$name" 120 ucmatose; then
		record "$name" pass "$(grep -m1 'data transfers complete' "$PAIR_OUT" || tail -n1 "$PAIR_OUT")"
	else
		record "$name" fail "$PAIR_ERR"
	fi
	name=$(fab_name cm ib_send_lat_R)
	PAIR_SRV=(-d "$SRV_DEV")
	PAIR_CLI=(-d "$CLI_DEV")
	PAIR_SRV_PRE=("${SRV_PRE[@]}") PAIR_CLI_PRE=("${CLI_PRE[@]}")
	PAIR_ADDR=$SRV_ADDR PAIR_WAIT=cm
	if run_pair "$name" "$PERF_TIMEOUT" ib_send_lat -R -F -n "$PERF_ITERS"; then
		perftest_record "$name" lat
	else
		record "$name" fail "$PAIR_ERR"
	fi
}

# --- NVMe over RDMA -----------------------------------------------------------

NVME_HOST_TESTS="connect fio disconnect unload"
NVME_TESTS="target $NVME_HOST_TESTS target-down"
NVMET=/sys/kernel/config/nvmet
FAB_NVME_NET=0

# Both kernel ends live in the initial network namespace (nvmet-rdma and
# nvme-rdma create their rdma_cm ids there), so B's interface comes back,
# and policy routing sends what one HCA's address sends to the other's
# out of its own port: the local table's rule moves behind a rule for
# each address pair, and both interfaces accept packets from a local
# address (A's ARP answers B and the other way round).  rdma_cm checks a
# connection request by a route lookup out of the port it came in on
# (to the requester, without "iif lo"): the main table has each peer's
# address on each port, or the listener on B refuses A's requests.
fabric_nvme_net() {
	[ $FAB_NVME_NET = 1 ] && return 0
	in_ns ip link set "$IF_B" netns 1 &&
	ip addr add "$FAB_ADDR_B/32" dev "$IF_B" &&
	ip link set "$IF_B" up &&
	ip route add "$FAB_ADDR_A/32" dev "$IF_B" src "$FAB_ADDR_B" &&
	ip route add "$FAB_ADDR_B/32" dev "$IF_A" src "$FAB_ADDR_A" &&
	ip route add table 177 "$FAB_ADDR_A/32" dev "$IF_B" src "$FAB_ADDR_B" &&
	ip route add table 178 "$FAB_ADDR_B/32" dev "$IF_A" src "$FAB_ADDR_A" &&
	ip rule add pref 10 iif lo from "$FAB_ADDR_B" to "$FAB_ADDR_A" lookup 177 &&
	ip rule add pref 11 iif lo from "$FAB_ADDR_A" to "$FAB_ADDR_B" lookup 178 &&
	ip rule add pref 100 lookup local &&
	ip rule del pref 0 lookup local &&
	for i in all "$IF_A" "$IF_B"; do
		sysctl -qw "net.ipv4.conf.$i.accept_local=1" "net.ipv4.conf.$i.rp_filter=0" || return 1
	done &&
	FAB_NVME_NET=1
}

# fabric_nvme_target: a file namespace exported on the serving HCA's
# address
fabric_nvme_target() {
	local s=$NVMET/subsystems/$FAB_NQN
	mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
	modprobe -a nvmet nvmet-rdma &&
	truncate -s $((${FABRIC_NVME_MIB:-256} + 64))M /tmp/nvmet.img &&
	mkdir "$s" && echo 1 > "$s/attr_allow_any_host" &&
	mkdir "$s/namespaces/1" &&
	echo -n /tmp/nvmet.img > "$s/namespaces/1/device_path" &&
	echo 1 > "$s/namespaces/1/buffered_io" &&
	echo 1 > "$s/namespaces/1/enable" &&
	mkdir "$NVMET/ports/1" &&
	echo rdma > "$NVMET/ports/1/addr_trtype" &&
	echo ipv4 > "$NVMET/ports/1/addr_adrfam" &&
	echo "$SRV_ADDR" > "$NVMET/ports/1/addr_traddr" &&
	echo 4420 > "$NVMET/ports/1/addr_trsvcid" &&
	ln -s "$s" "$NVMET/ports/1/subsystems/$FAB_NQN"
}

fabric_nvme_target_down() {
	local s=$NVMET/subsystems/$FAB_NQN
	rm -f "$NVMET/ports/1/subsystems/$FAB_NQN" &&
	rmdir "$NVMET/ports/1" &&
	echo 0 > "$s/namespaces/1/enable" &&
	rmdir "$s/namespaces/1" &&
	rmdir "$s" &&
	modprobe -r nvmet-rdma nvmet &&
	rm -f /tmp/nvmet.img
}

# the namespace block device of our subsystem, once it appears: the disk
# (nvmeXnY), whose device is the controller or, with native multipath,
# the subsystem; never a hidden path (nvmeXcYnZ), which has no /dev node
nvme_dev() {
	local b
	for b in /sys/block/nvme*n*; do
		case ${b##*/} in *c*) continue ;; esac
		[ "$(cat "$b/device/subsysnqn" 2>/dev/null)" = "$FAB_NQN" ] || continue
		echo "${b##*/}"
		return 0
	done
	return 1
}

fabric_nvme() {
	local n d
	if [ $IPOIB_UP = 0 ]; then
		for d in "${FAB_DIRS[@]}"; do
			fab_roles "$d"
			for n in $NVME_TESTS; do
				record "$(fab_name nvmeof "$n")" skip "nvme-rdma connects through rdma_cm over IPoIB: no IPoIB carrier"
			done
		done
		return
	fi
	for d in "${FAB_DIRS[@]}"; do
		fab_roles "$d"
		fabric_nvme_dir
	done
}

# fabric_nvme_dir: the target on the serving HCA, the host on the other.
fabric_nvme_dir() {
	local log n mib=${FABRIC_NVME_MIB:-32}
	log=$(logname "$(fab_name nvmeof target)")
	if ! { fabric_nvme_net && fabric_nvme_target; } >> "$log" 2>&1; then
		record "$(fab_name nvmeof target)" fail "$(excerpt "$log" 3)"
		return
	fi
	record "$(fab_name nvmeof target)" pass "nvmet-rdma on $SRV_ADDR:4420 ($SRV_DEV), file namespace of $((mib + 64)) MiB"
	# nvme-rdma registers every I/O with fast registration work requests
	# and refuses a device without them (the target needs none); mlx5_ib
	# offers them when UMR may rewrite translations
	# (umr_modify_entity_size_disabled 0, as the emulated ConnectX-5)
	if ! ibv_devinfo -v -d "$CLI_DEV" 2>/dev/null | grep -q MEM_MGT_EXTENSIONS; then
		for n in $NVME_HOST_TESTS; do
			record "$(fab_name nvmeof "$n")" skip "nvme-rdma needs fast registration (IB_WR_REG_MR: MEM_MGT_EXTENSIONS), which $CLI_DEV does not offer"
		done
	else
		fabric_nvme_host "$mib"
	fi
	log=$(logname "$(fab_name nvmeof target-down)")
	if fabric_nvme_target_down > "$log" 2>&1; then
		record "$(fab_name nvmeof target-down)" pass "port, namespace and subsystem removed, nvmet-rdma unloaded"
	else
		record "$(fab_name nvmeof target-down)" fail "$(excerpt "$log")"
	fi
}

# fabric_nvme_host MIB: connect from the client HCA, fio, disconnect,
# unload nvme-rdma.  The disconnect drains each queue's QP: the driver
# moves it to error, posts one receive by its doorbell record alone and
# waits for its flush.
fabric_nvme_host() {
	local mib=$1 log dev end x0 hostnqn
	log=$(logname "$(fab_name nvmeof connect)")
	hostnqn=nqn.2014-08.org.nvmexpress:uuid:$(cat /proc/sys/kernel/random/uuid)
	x0=$(port_xmit "$CLI_DEV")
	if ! { modprobe nvme-rdma &&
		timeout -k 5 120 nvme connect -t rdma -a "$SRV_ADDR" -s 4420 \
			-w "$CLI_ADDR" -n "$FAB_NQN" --hostnqn "$hostnqn" \
			--keep-alive-tmo=60; } >> "$log" 2>&1; then
		record "$(fab_name nvmeof connect)" fail "$(excerpt "$log" 3) dmesg: $(dmesg_tail nvme)"
		for n in fio disconnect; do record "$(fab_name nvmeof "$n")" skip "not connected"; done
		fabric_nvme_unload
	else
		end=$((SECONDS + 60))
		dev=
		while [ $SECONDS -lt $end ]; do
			dev=$(nvme_dev) && [ -n "$dev" ] && break
			sleep 0.5
		done
		if [ -z "$dev" ] || [ ! -b "/dev/$dev" ]; then
			record "$(fab_name nvmeof connect)" fail "connected, but no namespace block device in 60 s"
		else
			record "$(fab_name nvmeof connect)" pass "/dev/$dev from $CLI_ADDR ($CLI_DEV) to $SRV_ADDR ($SRV_DEV)"
			fabric_fio "$dev" "$mib" "$x0"
		fi
		log=$(logname "$(fab_name nvmeof disconnect)")
		if timeout -k 5 60 nvme disconnect -n "$FAB_NQN" > "$log" 2>&1 &&
			! nvme_dev > /dev/null; then
			record "$(fab_name nvmeof disconnect)" pass "$(head -n1 "$log")"
			fabric_nvme_unload
		else
			record "$(fab_name nvmeof disconnect)" fail "$(excerpt "$log") dmesg: $(dmesg_tail nvme)"
			# its rdma_cm ids would outlive an unload
			record "$(fab_name nvmeof unload)" skip "the disconnect failed"
		fi
	fi
}

fabric_nvme_unload() {
	local log
	log=$(logname "$(fab_name nvmeof unload)")
	if modprobe -r nvme-rdma > "$log" 2>&1 && [ ! -d /sys/module/nvme_rdma ]; then
		record "$(fab_name nvmeof unload)" pass "nvme-rdma unloaded"
	else
		record "$(fab_name nvmeof unload)" fail "$(excerpt "$log") dmesg: $(dmesg_tail nvme)"
	fi
}

# fabric_fio DEV MIB XMIT0: write MIB MiB with crc32c, read back, verify
fabric_fio() {
	local dev=$1 mib=$2 x0=$3 log x1 w r name
	name=$(fab_name nvmeof fio)
	log=$(logname "$name")
	if timeout -k 10 1200 fio --name=nvmeof --filename="/dev/$dev" \
		--rw=write --bs=128k --size="${mib}M" --ioengine=libaio \
		--iodepth=8 --direct=1 --verify=crc32c --do_verify=1 \
		--verify_fatal=1 --verify_state_save=0 --output-format=json > "$log" 2>&1 &&
		python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(j["jobs"][0]["error"])' "$log" 2>/dev/null; then
		w=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; print("%.1f %.1f" % (j["write"]["bw"]/1024, j["read"]["bw"]/1024))' "$log")
		r=${w#* }
		w=${w% *}
		x1=$(port_xmit "$CLI_DEV")
		perf "$name" write "$w" MiB/s
		perf "$name" verify_read "$r" MiB/s
		record "$name" pass "$mib MiB written ($w MiB/s) and verified with crc32c ($r MiB/s read); $CLI_DEV PortXmitData ${x0:-?} -> ${x1:-?}"
	else
		record "$name" fail "$(grep -m2 -iE 'error|verify|bad' "$log" | tr '\n' ' ' | cut -c1-200) $(excerpt "$log")"
	fi
}

# --- the suite ------------------------------------------------------------------

fabric_teardown() {
	local log=$LOGS/fabric-teardown.log
	[ -d /sys/module/ib_ipoib ] && ip netns del "$FAB_NS" >> "$log" 2>&1
	[ -d /sys/module/ib_ipoib ] && modprobe -r ib_ipoib >> "$log" 2>&1
	stop_opensm
	modprobe -r rdma_ucm ib_umad >> "$log" 2>&1
	[ $FAB_NVME_NET = 1 ] || return 0
	# the routing of fabric_nvme_net (its routes went with the interfaces)
	{
		ip rule add pref 0 lookup local
		ip rule del pref 100
		ip rule del pref 10
		ip rule del pref 11
	} >> "$log" 2>&1
	FAB_NVME_NET=0
}

fabric_run() {
	local p
	fabric_setup || return 1
	for p in ${FABRIC_PARTS:-opensm ports diag cross ipoib cm nvme}; do
		"fabric_$p"
	done
	fabric_teardown
}

# fabric_main: the suite on any lane; teardown (run.sh) unloads whatever
# drivers FABRIC_DRIVERS bound.  With FABRIC_PHASES, several lanes share
# this boot (fabric_phase).
fabric_main() {
	local ph last=
	if [ -z "${FABRIC_PHASES:-}" ]; then
		fabric_run
		teardown
		return
	fi
	for ph in $FABRIC_PHASES; do last=$ph; done
	for ph in $FABRIC_PHASES; do
		fabric_phase "$ph" "$last"
	done
}

# fabric_phase LANE:DRIVER_A,DRIVER_B:DIRS LAST: one lane's suite in a
# boot several share (lane.sh, lane "all"): the functions bound to its
# drivers (rebound from the last phase's), its directions, its results in
# /job/phase-LANE/ and its part of the kernel log after a marker line;
# then both functions unbound, so the emulator, asked for a snapshot of
# its reports, must hold nothing for them.  The last phase unloads the
# drivers instead and the emulator's exit reports are its.
fabric_phase() {
	local lane drv dirs log f
	IFS=: read -r lane drv dirs <<< "$1"
	FABRIC_DRIVERS=${drv//,/ }
	read -ra FAB_DIRS <<< "${dirs//,/ }"
	FAB_OUT=/job/phase-$lane
	RES=$FAB_OUT/results.tsv
	PERF=$FAB_OUT/perf.tsv
	LOGS=$FAB_OUT/logs
	mkdir -p "$LOGS"
	: > "$RES"
	: > "$PERF"
	HAVE_SM=0 IPOIB_UP=0 DEV_A='' DEV_B='' FAB_TX_SHA=''
	echo "<6>mlx5x-e2e: fabric phase $lane: drivers $FABRIC_DRIVERS, directions ${FAB_DIRS[*]}" > /dev/kmsg
	say "fabric phase $lane: drivers $FABRIC_DRIVERS, directions ${FAB_DIRS[*]}"
	fabric_run
	if [ "$1" = "$2" ]; then
		teardown
		return
	fi
	log=$(logname unbind)
	for f in $FNS; do
		[ -e "/sys/bus/pci/devices/$f/driver" ] || continue
		timeout -k 5 180 sh -c "echo $f > /sys/bus/pci/devices/$f/driver/unbind" >> "$log" 2>&1 ||
			echo "unbind $f failed" >> "$log"
	done
	if grep -q failed "$log" 2>/dev/null; then
		record unbind fail "$(excerpt "$log")"
	else
		record unbind pass "both functions unbound ($FABRIC_DRIVERS)"
	fi
	FWEV_REQ_TMO=60 fwev_req host snapshot "$lane" ||
		record emu/snapshot fail "the host took no emulator snapshot: $FWEV_ANS"
}
