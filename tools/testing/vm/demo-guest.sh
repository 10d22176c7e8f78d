#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of `make run` (copied into the job dir as run.sh): load mlx5x
# on the emulated ConnectX, show the device and one real RDMA exchange.
# On a port of a subnet (demo.env PORT=sm) the port waits in INIT with
# LID 0 until opensm, started here, brings it up.
# Prints a transcript: "$ command" lines followed by their output.
# Exit 0 only when the whole demo ran.

cd /job || exit 97
PORT=self
# shellcheck source=/dev/null
[ -f /job/demo.env ] && . /job/demo.env
SM_PID=

show() {
	echo "\$ $*"
	"$@" 2>&1
	local rc=$?
	[ $rc -eq 0 ] || echo "(exit $rc)"
	return $rc
}

banner() { printf '\n### %s\n' "$*"; }

# the RDMA device on the first function mlx5x drives (the second, on a
# subnet, is the link partner)
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

port_state() { cat "/sys/class/infiniband/$dev/ports/1/state" 2>/dev/null; }
port_lid() { cat "/sys/class/infiniband/$dev/ports/1/lid" 2>/dev/null; }

# subnet_up: opensm on the port, until it is ACTIVE (180 s)
subnet_up() {
	local guid end
	guid=0x$(tr -d ':' < "/sys/class/infiniband/$dev/ports/1/gids/0" | cut -c17-32)
	banner "a port of a subnet: $(port_state), LID $(port_lid) until a subnet manager configures it"
	show ibstat "$dev" 1
	show modprobe ib_umad || return 1
	mkdir -p /tmp/opensm-cache
	echo "\$ opensm -g $guid &"
	OSM_CACHE_DIR=/tmp/opensm-cache opensm -g "$guid" -f /tmp/opensm.log > /tmp/opensm.out 2>&1 &
	SM_PID=$!
	end=$((SECONDS + 180))
	while [ $SECONDS -lt $end ] && ! grep -q ACTIVE "/sys/class/infiniband/$dev/ports/1/state"; do
		kill -0 "$SM_PID" 2>/dev/null || break
		sleep 0.5
	done
	sed 's/^/  opensm: /' /tmp/opensm.out
	# why it gave up, if it did (e.g. no QP0/QP1 to bind to)
	kill -0 "$SM_PID" 2>/dev/null || grep ' ERR ' /tmp/opensm.log | head -n 3 | sed 's/^/  opensm.log: /'
	show ibstat "$dev" 1
	if ! grep -q ACTIVE "/sys/class/infiniband/$dev/ports/1/state"; then
		if kill -0 "$SM_PID" 2>/dev/null; then
			echo "(the port is not ACTIVE 180 s after opensm started)"
		else
			echo "(opensm exited: the port stays INIT without a subnet manager)"
		fi
		return 1
	fi
	echo "(opensm brought the port up: LID $(printf %d "$(port_lid)"), SM LID $(printf %d "$(cat "/sys/class/infiniband/$dev/ports/1/sm_lid")"))"
}

stop_sm() {
	[ -n "$SM_PID" ] || return 0
	kill "$SM_PID" 2>/dev/null
	wait "$SM_PID" 2>/dev/null
	SM_PID=
}

banner "guest: $(uname -r), $(nproc) vCPUs"
show lspci -nn
if [ -z "$(lspci -d 15b3:)" ]; then
	echo "(no Mellanox/NVIDIA PCI function: no emulated ConnectX is attached)"
fi

if [ ! -f /job/mlx5x.ko ]; then
	echo "(no mlx5x.ko in the job: the driver was not built)"
	exit 3
fi

banner "load mlx5x (mlx5_core stays unloaded)"
show modprobe -a ib_core ib_uverbs
show insmod /job/mlx5x.ko || exit 4
show modinfo -F depends /job/mlx5x.ko
dmesg | grep -E 'mlx5x' | sed 's/^/  dmesg: /'
if [ -z "$(lspci -d 15b3:)" ]; then
	show rmmod mlx5x
	exit 3
fi

echo "\$ grep mlx5x /proc/interrupts"
grep mlx5x /proc/interrupts | awk '{ print "  irq", $1, $NF }'

# Registration happens in probe; allow for a slow TCG guest.
end=$((SECONDS + 30))
dev=
while [ $SECONDS -lt $end ]; do
	dev=$(mlx5x_ibdev) && break
	sleep 0.5
done
if [ -z "$dev" ]; then
	echo "(mlx5x is bound but registered no RDMA device: no verbs yet)"
	show rmmod mlx5x
	exit 5
fi

if [ "$(port_lid)" = 0x0 ] && ! grep -q ACTIVE "/sys/class/infiniband/$dev/ports/1/state"; then
	if ! subnet_up; then
		stop_sm
		show rmmod mlx5x
		exit 8
	fi
else
	echo "(port mode $PORT: $dev port 1 $(port_state), LID $(printf %d "$(port_lid)") without a subnet manager)"
fi

banner "the RDMA device"
show ibv_devices
show ibv_devinfo -d "$dev" || exit 6

# pingpong PORT ARGS...: ibv_rc_pingpong server and client, both in this
# guest, each with its own QP on the device; shows both ends' output.
pingpong() {
	local port=$1 spid src crc end
	shift
	ibv_rc_pingpong -d "$dev" -p "$port" "$@" > /tmp/server.log 2>&1 &
	spid=$!
	end=$((SECONDS + 60))
	while [ $SECONDS -lt $end ] && [ -z "$(ss -Hltn "sport = :$port")" ]; do
		kill -0 $spid 2>/dev/null || break
		sleep 0.2
	done
	echo "\$ ibv_rc_pingpong -d $dev -p $port $* &            # server"
	echo "\$ ibv_rc_pingpong -d $dev -p $port $* 127.0.0.1    # client"
	timeout -k 5 120 ibv_rc_pingpong -d "$dev" -p "$port" "$@" 127.0.0.1 > /tmp/client.log 2>&1
	crc=$?
	timeout 30 tail --pid=$spid -f /dev/null
	wait $spid
	src=$?
	sed 's/^/  server: /' /tmp/server.log
	sed 's/^/  client: /' /tmp/client.log
	[ $crc -eq 0 ] || echo "(client exit $crc)"
	[ $src -eq 0 ] || echo "(server exit $src)"
	[ $crc -eq 0 ] && [ $src -eq 0 ]
}

banner "RDMA exchange: ibv_rc_pingpong, two RC QPs on $dev (poll mode)"
pingpong 18515 -n 100 -s 4096
ok1=$?
banner "RDMA exchange in event mode (-e: completion channel, CQ events)"
pingpong 18516 -n 100 -s 4096 -e
ok2=$?

banner "unload"
stop_sm
show rmmod mlx5x || exit 7
[ $ok1 -eq 0 ] && [ $ok2 -eq 0 ]
