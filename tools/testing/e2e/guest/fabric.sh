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
#   cross/*              RC/UC/UD pingpong and perftest, A serves, B calls
#   ipoib/*              IPoIB on both ports, B's interface in its own
#                        network namespace: ping, a TCP transfer
#   cm/*                 rdma_cm: rping, ucmatose, ib_send_lat -R (B's end in
#                        the namespace) and the pyverbs rdmacm tests
#   nvmeof/*             nvmet-rdma target on A, nvme-rdma host on B, fio
# A step whose prerequisite is missing (no SM: the port configures itself;
# no IPoIB carrier) is recorded as a skip naming the reason, never a pass.
# Knobs (job.env): FABRIC_DRIVERS FABRIC_PARTS FABRIC_TCP_MIB
# FABRIC_NVME_MIB PP_ITERS PERF_ITERS PERF_BW_ITERS PY_TIMEOUT.

FAB_NET=10.77.0
FAB_ADDR_A=$FAB_NET.1
FAB_ADDR_B=$FAB_NET.2
FAB_NS=fabpeer
FAB_NQN=nqn.2024-01.org.mlx5x:fabric
HAVE_SM=0
IPOIB_UP=0
NO_SM_WHY="the ports configured themselves (emulator without an SMA): no subnet manager, no SA"

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
# mlx5_core for both): driver_override, so a later comparison can run
# upstream on one function and mlx5x on the other.
fabric_bind() {
	local log=$1 i=0 f drv drivers
	read -ra drivers <<< "${FABRIC_DRIVERS:-mlx5_core mlx5_core}"
	for f in $FNS; do
		drv=${drivers[$i]:-mlx5_core}
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
		if [ "$NEED_MLX5X" = 1 ]; then
			timeout -k 5 120 insmod /job/mlx5x.ko
		fi
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

# opensm on port A, unless the ports are ACTIVE already (self-configured)
fabric_opensm() {
	local guid
	# Give a self-configuring port the time to show it (it is ACTIVE
	# once the driver is up); a port waiting for an SM stays INIT.
	wait_both_active 5
	if [ "$(fab_state "$DEV_A")" = 4 ] && [ "$(fab_state "$DEV_B")" = 4 ] &&
		[ "$(fab_sm_lid "$DEV_A")" = "$(fab_lid "$DEV_A")" ]; then
		record fabric/opensm skip "$NO_SM_WHY (ports ACTIVE with LIDs $(fab_lid "$DEV_A") and $(fab_lid "$DEV_B") before any SM)"
		return 0
	fi
	guid=0x$(fab_guid "$DEV_A")
	if ! start_opensm "$DEV_A" 180 || ! wait_both_active 60; then
		record fabric/opensm fail "port states: $DEV_A $(fab_state "$DEV_A"), $DEV_B $(fab_state "$DEV_B"); opensm: $(excerpt "$LOGS/opensm.out") $(grep -iE 'err|fail' "$LOGS/opensm.log" 2>/dev/null | tail -n 2 | tr '\n' ' ' | cut -c1-200)"
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

# cross_pingpong NAME PROGRAM ARGS...: server on A, client on B
cross_pingpong() {
	local name=$1
	shift
	PAIR_SRV=(-d "$DEV_A")
	PAIR_CLI=(-d "$DEV_B")
	if run_pair "$name" "$PP_TIMEOUT" "$@" -n "$PP_ITERS"; then
		pingpong_record "$name" "$PP_ITERS iters $DEV_B -> $DEV_A"
	else
		record "$name" fail "$PAIR_ERR"
	fi
}

# cross_perftest NAME KIND ITERS PROGRAM ARGS...
cross_perftest() {
	local name=$1 kind=$2 iters=$3
	shift 3
	PAIR_SRV=(-d "$DEV_A")
	PAIR_CLI=(-d "$DEV_B")
	if run_pair "$name" "$PERF_TIMEOUT" "$@" -F -n "$iters"; then
		perftest_record "$name" "$kind"
	else
		record "$name" fail "$PAIR_ERR"
	fi
}

fabric_cross() {
	local s
	fabric_perfquery_before
	for s in 1 4096 65536; do
		cross_pingpong "cross/rc/poll/s$s" ibv_rc_pingpong -s "$s"
	done
	cross_pingpong cross/rc/event/s4096 ibv_rc_pingpong -s 4096 -e
	cross_pingpong cross/uc/s4096 ibv_uc_pingpong -s 4096
	cross_pingpong cross/ud/s1024 ibv_ud_pingpong -s 1024
	cross_perftest cross/ib_send_lat lat "$PERF_ITERS" ib_send_lat
	cross_perftest cross/ib_write_bw bw "$PERF_BW_ITERS" ib_write_bw
	cross_perftest cross/ib_read_lat lat "$PERF_ITERS" ib_read_lat
	cross_perftest cross/ib_send_bw bw "$PERF_BW_ITERS" ib_send_bw
	fabric_perfquery_after
}

# --- IPoIB ------------------------------------------------------------------

fab_netdev() { ls "/sys/class/infiniband/$1/device/net/" 2>/dev/null | head -n1; }
in_ns() { ip netns exec "$FAB_NS" "$@"; }

IPOIB_PARTS="ipoib/up ipoib/ping ipoib/ping-mtu ipoib/ping-64k ipoib/ping-back ipoib/tcp"

fabric_ipoib() {
	local log t0 end n
	log=$(logname ipoib/up)
	if [ $HAVE_SM = 0 ]; then
		for n in $IPOIB_PARTS; do
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
		for n in ${IPOIB_PARTS#ipoib/up }; do
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
	fab_tcp
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

# a TCP transfer from A to B's namespace, checked with sha256
fab_tcp() {
	local log mib=${FABRIC_TCP_MIB:-64} port=5201 spid t0 secs tx rx end
	log=$(logname ipoib/tcp)
	head -c $((mib << 20)) /dev/urandom > /tmp/fab-tx
	rm -f /tmp/fab-rx
	in_ns timeout -k 5 600 socat -u \
		"TCP-LISTEN:$port,bind=$FAB_ADDR_B,reuseaddr" CREATE:/tmp/fab-rx \
		> "$log.server" 2>&1 &
	spid=$!
	end=$((SECONDS + 30))
	while [ $SECONDS -lt $end ] &&
		[ -z "$(in_ns ss -Hltn "sport = :$port" 2>/dev/null)" ]; do
		sleep 0.2
	done
	t0=$(uptime_s)
	timeout -k 5 600 socat -u OPEN:/tmp/fab-tx "TCP:$FAB_ADDR_B:$port" > "$log" 2>&1
	wait "$spid"
	secs=$(elapsed "$t0")
	tx=$(sha256sum < /tmp/fab-tx | cut -c1-64)
	rx=$(sha256sum < /tmp/fab-rx 2>/dev/null | cut -c1-64)
	if [ "$tx" = "$rx" ]; then
		local rate
		rate=$(awk -v m="$mib" -v s="$secs" 'BEGIN { printf "%.1f", (s > 0 ? m / s : 0) }')
		perf ipoib/tcp throughput "$rate" MiB/s
		record ipoib/tcp pass "$mib MiB A -> B in $secs s ($rate MiB/s), sha256 ${tx:0:16}... matches"
	else
		record ipoib/tcp fail "sha256 differs (sent ${tx:0:16}, received ${rx:0:16}, $(stat -c %s /tmp/fab-rx 2>/dev/null) bytes): $(excerpt "$log") $(excerpt "$log.server")"
	fi
	rm -f /tmp/fab-tx /tmp/fab-rx
}

# --- rdma_cm ------------------------------------------------------------------

CM_PARTS="cm/rping cm/ucmatose cm/ib_send_lat_R pyverbs/test_rdmacm"

fabric_cm() {
	local n
	if [ $IPOIB_UP = 0 ]; then
		for n in $CM_PARTS; do
			record "$n" skip "rdma_cm resolves IPoIB addresses: no IPoIB carrier"
		done
		return
	fi
	# rdma_cm servers open no TCP socket: wait for the listening cm_id.
	PAIR_SRV=(-s -a "$FAB_ADDR_A" -C 10 -v)
	PAIR_CLI=(-c -a "$FAB_ADDR_A" -C 10 -v)
	PAIR_CLI_PRE=(ip netns exec "$FAB_NS")
	PAIR_ADDR=none PAIR_WAIT=cm
	if run_pair cm/rping 120 rping; then
		record cm/rping pass "10 ping-pongs, client in $FAB_NS -> $FAB_ADDR_A: $(grep -c 'ping data' "$PAIR_OUT") lines"
	else
		record cm/rping fail "$PAIR_ERR"
	fi
	PAIR_SRV=(-b "$FAB_ADDR_A")
	PAIR_CLI=(-s "$FAB_ADDR_A")
	PAIR_CLI_PRE=(ip netns exec "$FAB_NS")
	PAIR_ADDR=none PAIR_WAIT=cm
	if run_pair cm/ucmatose 120 ucmatose; then
		record cm/ucmatose pass "$(grep -m1 'data transfers complete' "$PAIR_OUT" || tail -n1 "$PAIR_OUT")"
	else
		record cm/ucmatose fail "$PAIR_ERR"
	fi
	PAIR_SRV=(-d "$DEV_A")
	PAIR_CLI=(-d "$DEV_B")
	PAIR_CLI_PRE=(ip netns exec "$FAB_NS")
	PAIR_ADDR=$FAB_ADDR_A PAIR_WAIT=cm
	if run_pair cm/ib_send_lat_R "$PERF_TIMEOUT" ib_send_lat -R -F -n "$PERF_ITERS"; then
		perftest_record cm/ib_send_lat_R lat
	else
		record cm/ib_send_lat_R fail "$PAIR_ERR"
	fi
	# rdma-core's rdmacm tests: both ends on A's address (their design)
	( cd /usr/src/rdma/rdma-core/tests && timeout -k 10 900 python3 /job/pyverbs-run.py \
		--dev "$DEV_A" --timeout "$PY_TIMEOUT" --only test_rdmacm --exclude "" --out /job )
	case $? in
	0 | 1) ;;
	*) record pyverbs/runner fail "rdmacm runner died" ;;
	esac
}

# --- NVMe over RDMA -----------------------------------------------------------

NVME_HOST_PARTS="nvmeof/connect nvmeof/fio nvmeof/disconnect nvmeof/unload"
NVME_PARTS="nvmeof/target $NVME_HOST_PARTS nvmeof/target-down"
NVMET=/sys/kernel/config/nvmet

# Both kernel ends live in the initial network namespace (nvmet-rdma and
# nvme-rdma create their rdma_cm ids there), so B's interface comes back,
# and policy routing sends what B's address sends to A's out of B's port:
# the local table's rule moves behind a rule for that pair, and both
# interfaces accept packets from a local address (A's ARP answers B).
fabric_nvme_net() {
	in_ns ip link set "$IF_B" netns 1 &&
	ip addr add "$FAB_ADDR_B/32" dev "$IF_B" &&
	ip link set "$IF_B" up &&
	ip route add table 177 "$FAB_ADDR_A/32" dev "$IF_B" src "$FAB_ADDR_B" &&
	ip route add table 178 "$FAB_ADDR_B/32" dev "$IF_A" src "$FAB_ADDR_A" &&
	ip rule add pref 10 iif lo from "$FAB_ADDR_B" to "$FAB_ADDR_A" lookup 177 &&
	ip rule add pref 11 iif lo from "$FAB_ADDR_A" to "$FAB_ADDR_B" lookup 178 &&
	ip rule add pref 100 lookup local &&
	ip rule del pref 0 lookup local &&
	for i in all "$IF_A" "$IF_B"; do
		sysctl -qw "net.ipv4.conf.$i.accept_local=1" "net.ipv4.conf.$i.rp_filter=0" || return 1
	done
}

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
	echo "$FAB_ADDR_A" > "$NVMET/ports/1/addr_traddr" &&
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
	local log n mib=${FABRIC_NVME_MIB:-32}
	if [ $IPOIB_UP = 0 ]; then
		for n in $NVME_PARTS; do
			record "$n" skip "nvme-rdma connects through rdma_cm over IPoIB: no IPoIB carrier"
		done
		return
	fi
	log=$(logname nvmeof/target)
	if ! { fabric_nvme_net && fabric_nvme_target; } >> "$log" 2>&1; then
		record nvmeof/target fail "$(excerpt "$log" 3)"
		return
	fi
	record nvmeof/target pass "nvmet-rdma on $FAB_ADDR_A:4420 ($DEV_A), file namespace of $((mib + 64)) MiB"
	log=$(logname nvmeof/connect)
	# nvme-rdma registers every I/O with fast registration work requests
	# and refuses a device without them (the target needs none); mlx5_ib
	# offers them when UMR may rewrite translations
	# (umr_modify_entity_size_disabled 0, as the emulated ConnectX-5)
	if ! ibv_devinfo -v -d "$DEV_B" 2>/dev/null | grep -q MEM_MGT_EXTENSIONS; then
		for n in $NVME_HOST_PARTS; do
			record "$n" skip "nvme-rdma needs fast registration (IB_WR_REG_MR: MEM_MGT_EXTENSIONS), which $DEV_B does not offer"
		done
	else
		fabric_nvme_host "$mib"
	fi
	log=$(logname nvmeof/target-down)
	if fabric_nvme_target_down > "$log" 2>&1; then
		record nvmeof/target-down pass "port, namespace and subsystem removed, nvmet-rdma unloaded"
	else
		record nvmeof/target-down fail "$(excerpt "$log")"
	fi
}

# fabric_nvme_host MIB: connect from B, fio, disconnect, unload nvme-rdma.
# The disconnect drains each queue's QP: mlx5_ib moves it to error, posts
# one receive by its doorbell record alone and waits for its flush.
fabric_nvme_host() {
	local mib=$1 log n dev end x0 hostnqn
	log=$(logname nvmeof/connect)
	hostnqn=nqn.2014-08.org.nvmexpress:uuid:$(cat /proc/sys/kernel/random/uuid)
	x0=$(port_xmit "$DEV_B")
	if ! { modprobe nvme-rdma &&
		timeout -k 5 120 nvme connect -t rdma -a "$FAB_ADDR_A" -s 4420 \
			-w "$FAB_ADDR_B" -n "$FAB_NQN" --hostnqn "$hostnqn" \
			--keep-alive-tmo=60; } >> "$log" 2>&1; then
		record nvmeof/connect fail "$(excerpt "$log" 3) dmesg: $(dmesg_tail nvme)"
		for n in nvmeof/fio nvmeof/disconnect; do record "$n" skip "not connected"; done
		fabric_nvme_unload
	else
		end=$((SECONDS + 60))
		dev=
		while [ $SECONDS -lt $end ]; do
			dev=$(nvme_dev) && [ -n "$dev" ] && break
			sleep 0.5
		done
		if [ -z "$dev" ] || [ ! -b "/dev/$dev" ]; then
			record nvmeof/connect fail "connected, but no namespace block device in 60 s"
		else
			record nvmeof/connect pass "/dev/$dev from $FAB_ADDR_B ($DEV_B) to $FAB_ADDR_A ($DEV_A)"
			fabric_fio "$dev" "$mib" "$x0"
		fi
		log=$(logname nvmeof/disconnect)
		if timeout -k 5 60 nvme disconnect -n "$FAB_NQN" > "$log" 2>&1 &&
			! nvme_dev > /dev/null; then
			record nvmeof/disconnect pass "$(head -n1 "$log")"
			fabric_nvme_unload
		else
			record nvmeof/disconnect fail "$(excerpt "$log") dmesg: $(dmesg_tail nvme)"
			# its rdma_cm ids would outlive an unload
			record nvmeof/unload skip "the disconnect failed"
		fi
	fi
}

fabric_nvme_unload() {
	local log
	log=$(logname nvmeof/unload)
	if modprobe -r nvme-rdma > "$log" 2>&1 && [ ! -d /sys/module/nvme_rdma ]; then
		record nvmeof/unload pass "nvme-rdma unloaded"
	else
		record nvmeof/unload fail "$(excerpt "$log") dmesg: $(dmesg_tail nvme)"
	fi
}

# fabric_fio DEV MIB XMIT0: write MIB MiB with crc32c, read back, verify
fabric_fio() {
	local dev=$1 mib=$2 x0=$3 log x1 w r
	log=$(logname nvmeof/fio)
	if timeout -k 10 1200 fio --name=nvmeof --filename="/dev/$dev" \
		--rw=write --bs=128k --size="${mib}M" --ioengine=libaio \
		--iodepth=8 --direct=1 --verify=crc32c --do_verify=1 \
		--verify_fatal=1 --verify_state_save=0 --output-format=json > "$log" 2>&1 &&
		python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(j["jobs"][0]["error"])' "$log" 2>/dev/null; then
		w=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; print("%.1f %.1f" % (j["write"]["bw"]/1024, j["read"]["bw"]/1024))' "$log")
		r=${w#* }
		w=${w% *}
		x1=$(port_xmit "$DEV_B")
		perf nvmeof/fio write "$w" MiB/s
		perf nvmeof/fio verify_read "$r" MiB/s
		record nvmeof/fio pass "$mib MiB written ($w MiB/s) and verified with crc32c ($r MiB/s read); $DEV_B PortXmitData ${x0:-?} -> ${x1:-?}"
	else
		record nvmeof/fio fail "$(grep -m2 -iE 'error|verify|bad' "$log" | tr '\n' ' ' | cut -c1-200) $(excerpt "$log")"
	fi
}

# --- the suite ------------------------------------------------------------------

fabric_teardown() {
	local log=$LOGS/fabric-teardown.log
	[ -d /sys/module/ib_ipoib ] && ip netns del "$FAB_NS" >> "$log" 2>&1
	[ -d /sys/module/ib_ipoib ] && modprobe -r ib_ipoib >> "$log" 2>&1
	stop_opensm
	modprobe -r rdma_ucm ib_umad >> "$log" 2>&1
	# a function bound to mlx5x (teardown unloads the upstream pair)
	if [ -d /sys/module/mlx5x ] && ! timeout -k 5 180 rmmod mlx5x >> "$log" 2>&1; then
		record rmmod/mlx5x fail "$(excerpt "$log")"
	fi
}

fabric_upstream() {
	local p
	if ! fabric_setup; then
		teardown
		return
	fi
	for p in ${FABRIC_PARTS:-opensm ports diag cross ipoib cm nvme}; do
		"fabric_$p"
	done
	fabric_teardown
	teardown
}
