# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2012
# (variables here are read by the scripts that source this file)
# Host-side helpers shared by lane.sh, run-demo.sh and bench.sh (sourced).
# Expects TOP (repository root) to be set.

VMDIR=$TOP/tools/testing/vm
E2EDIR=$TOP/tools/testing/e2e
EMUDIR=$TOP/tools/testing/emu
# MLX5X_EMU overrides the emulator binary (and skips building it).
EMU_BIN=${MLX5X_EMU:-$EMUDIR/build/mlx5x-emu}

# The emulated port of the mlx5x lanes (bringup, full, fuzz) and of
# `make run`: sm, a port of a subnet that opensm brings up through the
# firmware SMA (MAD_IFC and QP0), as on a real InfiniBand subnet and as
# the upstream lanes have it; self, ACTIVE with a LID from power-on, with
# no subnet manager.  The one place to flip; MLX5X_EMU_PORT overrides it
# for one run.
MLX5X_PORT=sm

hlog() { printf '[%s %s] %s\n' "${HLOG_TAG:-e2e}" "$(date +%T)" "$*" >&2; }

# The guest kernel: debian, the tree's own, or debug, the one of
# build-debug-kernel.sh (lane.sh takes it from MLX5X_KERNEL).
GUEST_KERNEL=debian

# rig_root: build or look up the VM root tree and the guest kernel; sets
# ROOT and KREL, and for the debug kernel KBUILD (its build directory)
# and KIMAGE (its bzImage).
rig_root() {
	ROOT=${MLX5X_ROOTFS:-}
	if [ -z "$ROOT" ]; then
		ROOT=$("$VMDIR/build-rootfs.sh") || return 1
	fi
	export MLX5X_ROOTFS=$ROOT
	case $GUEST_KERNEL in
	debian) ;;
	debug) rig_debug_kernel; return ;;
	*) hlog "unknown guest kernel '$GUEST_KERNEL' (KERNEL=debian|debug)"; return 1 ;;
	esac
	KREL=$(cd "$ROOT/boot" && ls vmlinuz-* 2>/dev/null | sort -V | tail -n1)
	KREL=${KREL#vmlinuz-}
	if [ -z "$KREL" ] || [ ! -d "$ROOT/lib/modules/$KREL/build" ]; then
		hlog "no guest kernel or headers in $ROOT"
		return 1
	fi
}

# rig_debug_kernel: build or look up the debug kernel, and hold it (fd 4,
# shared) for the caller's lifetime so no newer build drops it meanwhile.
rig_debug_kernel() {
	KBUILD=$("$VMDIR/build-debug-kernel.sh") || return 1
	KIMAGE=$KBUILD/arch/x86/boot/bzImage
	KREL=$(cat "$KBUILD/include/config/kernel.release") || return 1
	exec 4< "${KBUILD%/build}.ready"
	flock -s 4
}

# ko_make DIR: make mlx5x.ko from the sources in DIR against the guest
# kernel, with the compiler that built that kernel: the root tree's (in
# a chroot) for Debian's, the host's for the debug kernel.
ko_make() {
	if [ "$GUEST_KERNEL" = debug ]; then
		nice make -C "$KBUILD" M="$1" -j2 modules
		return
	fi
	# Shared hold on the tree (see drop_old_trees in build-rootfs.sh).
	[ -e "$ROOT.ready" ] && exec 6< "$ROOT.ready" && flock -s 6
	# shellcheck disable=SC2016
	ROOT=$ROOT W=$1 KREL=$KREL nice unshare -m --propagation private sh -c '
		mount --bind /proc "$ROOT/proc"; mount --rbind /dev "$ROOT/dev"
		mount -t tmpfs tmpfs "$ROOT/run"; mkdir "$ROOT/run/w"
		mount --bind "$W" "$ROOT/run/w"
		exec chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			make -C "/lib/modules/$KREL/build" M=/run/w -j2 modules'
}

# build_emu: make the emulated ConnectX if its sources exist.  Sets
# MISSING to a sentence when there is no emulator binary afterwards.
build_emu() {
	MISSING=
	if [ -z "${MLX5X_EMU:-}" ] && [ -f "$EMUDIR/Makefile" ]; then
		hlog "building the emulator (make -C tools/testing/emu)"
		nice make -s -C "$EMUDIR" >&2 ||
			{ MISSING="the emulator failed to build (make -C tools/testing/emu)"; return 1; }
	fi
	if [ ! -x "$EMU_BIN" ]; then
		MISSING="no emulated ConnectX yet: tools/testing/emu not built ($EMU_BIN missing)"
		return 1
	fi
}

# build_ko OUTDIR: build mlx5x.ko against the guest kernel's headers inside
# the root tree, from a scratch copy of the driver sources (no objects in
# the source tree).  Copies the module to OUTDIR/mlx5x.ko.  Sets MISSING and
# leaves the build log in build/mlx5x-ko/build.log on failure.
build_ko() {
	local out=$1 scr=$TOP/build/mlx5x-ko ko
	MISSING=
	if [ ! -d "$TOP/drivers/infiniband/hw/mlx5x" ] ||
		! ls "$TOP"/drivers/infiniband/hw/mlx5x/*.c >/dev/null 2>&1; then
		MISSING="no mlx5x driver sources yet (drivers/infiniband/hw/mlx5x/*.c)"
		return 1
	fi
	mkdir -p "$TOP/build"
	# One scratch dir for every user (lanes, make run): one build at a time.
	exec 7> "$TOP/build/.mlx5x-ko.lock"
	flock 7
	rm -rf "$scr"
	mkdir -p "$scr/src"
	(cd "$TOP" && tar cf - --exclude='*.o' --exclude='*.ko' --exclude='*.mod*' \
		--exclude='.*.cmd' --exclude='modules.order' --exclude='Module.symvers' \
		Kbuild drivers include 2>/dev/null) | tar xf - -C "$scr/src"
	hlog "building mlx5x.ko for $KREL"
	if ! ko_make "$scr/src" > "$scr/build.log" 2>&1; then
		MISSING="mlx5x.ko failed to build (log: build/mlx5x-ko/build.log): $(grep -m1 -E 'error|Error' "$scr/build.log")"
		exec 7>&-
		return 1
	fi
	ko=$(find "$scr/src" -name mlx5x.ko | head -n1)
	if [ -z "$ko" ]; then
		MISSING="the driver build produced no mlx5x.ko (log: build/mlx5x-ko/build.log)"
		exec 7>&-
		return 1
	fi
	cp "$ko" "$out/mlx5x.ko"
	exec 7>&- 6<&-
}

# debug_kernel_job JOBDIR: what a job on the debug kernel needs beside
# the image: the modules.* indexes (everything is built in, so modprobe
# of ib_core and friends only has to find them there; the guest binds
# JOBDIR/modules over /lib/modules), and vm-run.sh options in VMOPT.
debug_kernel_job() {
	VMOPT=()
	[ "$GUEST_KERNEL" = debug ] || return 0
	mkdir -p "$1/modules"
	cp -r "${KBUILD%/build}/mods/lib/modules/$KREL" "$1/modules/"
	# The checkers' boot lines must survive a long run's messages: the
	# lane looks for them at the end.
	VMOPT=(-k "$KIMAGE" -a log_buf_len=4M)
}

# start_emu JOBDIR GUID [TAG [OPTION...]]: start an emulator on
# JOBDIR/vfu.sock (vfu-TAG.sock) and wait until it listens; its output,
# report and log are emu.out, emu-report.txt, emu.log (emu-TAG.*).  Adds
# its pid to EMU_PIDS and sets EMU_PID.  MLX5X_EMU_TRACE=1 adds --trace;
# MLX5X_EMU_ARGS adds options to every instance (e.g.
# --fault-cmd-timeout=QUERY_ADAPTER), OPTIONs to this one.
start_emu() {
	local job=$1 guid=$2 tag=${3:+-$3} i trace=() pid
	shift $(($# < 3 ? $# : 3))
	[ "${MLX5X_EMU_TRACE:-0}" = 1 ] && trace=(--trace --log "$job/emu$tag.log")
	rm -f "$job/vfu$tag.sock" "$job/emu$tag-report.txt"
	# shellcheck disable=SC2086 # MLX5X_EMU_ARGS is a list of options
	"$EMU_BIN" --socket "$job/vfu$tag.sock" --guid "$guid" \
		--report "$job/emu$tag-report.txt" "${trace[@]}" ${MLX5X_EMU_ARGS:-} \
		"$@" > "$job/emu$tag.out" 2>&1 7>&- 8>&- &
	pid=$!
	EMU_PID=$pid
	EMU_PIDS+=("$pid")
	for ((i = 0; i < 300; i++)); do
		[ -S "$job/vfu$tag.sock" ] && return 0
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	MISSING="the emulator did not listen on $job/vfu$tag.sock: $(tail -n 3 "$job/emu$tag.out" | tr '\n' ' ')"
	stop_emu
	return 1
}

# start_emu_link JOBDIR GUID_A GUID_B [OPTION...]: one emulator process
# serving two functions whose ports are linked back to back, on
# JOBDIR/vfu-a.sock and vfu-b.sock; its output and log are emu.out and
# emu.log, the reports emu-a-report.txt and emu-b-report.txt.  OPTIONs
# and MLX5X_EMU_ARGS go before the first --socket: they apply to both;
# those after a "--" apply to the first function only.
# Sets EMU_PID and adds it to EMU_PIDS.
start_emu_link() {
	local job=$1 ga=$2 gb=$3 i trace=() pid f both=() first=()
	shift 3
	while [ $# -gt 0 ] && [ "$1" != -- ]; do both+=("$1"); shift; done
	[ $# -eq 0 ] || { shift; first=("$@"); }
	[ "${MLX5X_EMU_TRACE:-0}" = 1 ] && trace=(--trace --log "$job/emu.log")
	for f in a b; do
		rm -f "$job/vfu-$f.sock" "$job/emu-$f-report.txt"
	done
	# shellcheck disable=SC2086 # MLX5X_EMU_ARGS is a list of options
	"$EMU_BIN" "${trace[@]}" ${MLX5X_EMU_ARGS:-} "${both[@]}" \
		--socket "$job/vfu-a.sock" --guid "$ga" --report "$job/emu-a-report.txt" "${first[@]}" \
		--socket "$job/vfu-b.sock" --guid "$gb" --report "$job/emu-b-report.txt" \
		> "$job/emu.out" 2>&1 7>&- 8>&- &
	pid=$!
	EMU_PID=$pid
	EMU_PIDS+=("$pid")
	for ((i = 0; i < 300; i++)); do
		[ -S "$job/vfu-a.sock" ] && [ -S "$job/vfu-b.sock" ] && return 0
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	MISSING="the emulator did not listen on $job/vfu-a.sock and vfu-b.sock: $(tail -n 3 "$job/emu.out" | tr '\n' ' ')"
	stop_emu
	return 1
}

# any_alive PID...: true while one of them runs.
any_alive() {
	local p
	for p in "$@"; do
		kill -0 "$p" 2>/dev/null && return 0
	done
	return 1
}

# stop_emu: every emulator exits by itself once QEMU disconnects; give
# them time to write their reports, then insist.
stop_emu() {
	local pids=() i
	[ -n "${EMU_PIDS[*]:-}" ] && pids=("${EMU_PIDS[@]}")
	[ -n "${EMU_PID:-}" ] && [[ " ${pids[*]} " != *" $EMU_PID "* ]] && pids+=("$EMU_PID")
	[ ${#pids[@]} -gt 0 ] || return 0
	for ((i = 0; i < 150; i++)); do
		any_alive "${pids[@]}" || break
		sleep 0.1
	done
	if any_alive "${pids[@]}"; then
		kill -TERM "${pids[@]}" 2>/dev/null
		for ((i = 0; i < 100; i++)); do
			any_alive "${pids[@]}" || break
			sleep 0.1
		done
		kill -KILL "${pids[@]}" 2>/dev/null
	fi
	wait "${pids[@]}" 2>/dev/null
	EMU_PID=
	EMU_PIDS=()
}

# report_value FILE KEY: a value from the emulator's key=value report.
report_value() { sed -n "s/^$2=//p" "$1" 2>/dev/null | head -n1; }

# build_uvfuzz OUTDIR: the uverbs fuzzer, compiled in the root tree
# against the guest's own uapi headers and C library (it needs nothing
# else).  Copies it to OUTDIR/uvfuzz; sets MISSING on failure and leaves
# the log in build/uvfuzz/build.log.
build_uvfuzz() {
	local scr=$TOP/build/uvfuzz
	MISSING=
	rm -rf "$scr"
	mkdir -p "$scr"
	cp "$E2EDIR/fuzz/uvfuzz.c" "$scr/" || { MISSING="no tools/testing/e2e/fuzz/uvfuzz.c"; return 1; }
	# shellcheck disable=SC2016
	if ! ROOT=$ROOT W=$scr nice unshare -m --propagation private sh -c '
		mount -t tmpfs tmpfs "$ROOT/run"; mkdir "$ROOT/run/w"
		mount --bind "$W" "$ROOT/run/w"
		exec chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin sh -c \
			"cd /run/w && gcc -O2 -Wall -Wextra -Werror -o uvfuzz uvfuzz.c"' \
		> "$scr/build.log" 2>&1; then
		MISSING="uvfuzz failed to build (log: build/uvfuzz/build.log): $(grep -m1 -E 'error' "$scr/build.log")"
		return 1
	fi
	cp "$scr/uvfuzz" "$1/uvfuzz"
}
