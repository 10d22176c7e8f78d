#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the test VM once under QEMU TCG and run one job in it.
#
#   vm-run.sh [options] JOBDIR
#
# JOBDIR must contain an executable run.sh.  The guest mounts JOBDIR
# read-write at /job, runs /job/run.sh as root, writes its exit code to
# /job/rc and powers off.  QEMU itself runs inside the root tree (chroot,
# private mount namespace), so the host needs no QEMU and nothing stays
# mounted after the run; concurrent runs with different job dirs are safe.
#
# Options:
#   -t SECONDS   kill timeout for QEMU (default $MLX5X_VM_TIMEOUT or 1800)
#   -s SOCKET    attach an emulated PCI device served by vfio-user on this
#                unix socket; the path must lie inside JOBDIR (QEMU sees
#                the job dir only).  May be repeated, one root port each.
#   -m MEM       guest RAM (default 2G)
#   -c CPUS      guest vCPUs (default 2)
#   -a ARGS      extra kernel command line
#   -k BZIMAGE   boot this kernel image (a host path) without an initrd
#                instead of the tree's own kernel; it must have what the
#                boot needs built in (9p root over virtio; e.g. the debug
#                kernel of build-debug-kernel.sh)
#   -q           do not copy the guest console to stdout (console.log only)
#   -Q NAME      a QMP monitor on the unix socket JOBDIR/NAME (QEMU listens,
#                does not wait for a client); the vfio-user devices are
#                named vfu0, vfu1, ... in -s order, e.g. for device_del
#
# Exit status: the job's rc; 124 when QEMU was killed by the timeout;
# 99 when the job never ran (no rc file: boot failure, QEMU error).
#
# Environment: MLX5X_ROOTFS (use this tree instead of building/looking it
# up with build-rootfs.sh), MLX5X_CACHE.

set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)

usage() {
	sed -n '4,/^$/s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

log() { printf '[vm %s] %s\n' "$(date +%T)" "$*" >&2; }

TMO=${MLX5X_VM_TIMEOUT:-1800}
MEM=2G
CPUS=2
EXTRA=
QUIET=0
QMP=
SOCKS=()
KHOST=
while getopts "t:s:m:c:a:k:qQ:h" o; do
	case $o in
	t) TMO=$OPTARG ;;
	s) SOCKS+=("$OPTARG") ;;
	m) MEM=$OPTARG ;;
	c) CPUS=$OPTARG ;;
	a) EXTRA=$OPTARG ;;
	k) KHOST=$OPTARG ;;
	q) QUIET=1 ;;
	Q) QMP=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
JOBDIR=$(cd "$1" && pwd)
[ -x "$JOBDIR/run.sh" ] || { log "no executable $JOBDIR/run.sh"; exit 2; }
case $TMO in '' | *[!0-9]*) log "bad timeout '$TMO'"; exit 2 ;; esac
case $QMP in */* | .*) log "QMP socket name '$QMP': a plain file name in the job dir"; exit 2 ;; esac

ROOT=${MLX5X_ROOTFS:-}
if [ -z "$ROOT" ]; then
	ROOT=$("$HERE/build-rootfs.sh")
fi
[ -d "$ROOT/boot" ] || { log "no root tree at '$ROOT'"; exit 2; }
# Hold the tree while QEMU runs (inherited by it): a build of a newer
# recipe then leaves this tree alone (build-rootfs.sh, drop_old_trees).
if [ -e "$ROOT.ready" ]; then
	exec 6< "$ROOT.ready"
	flock -s 6
fi

# The guest kernel is the newest vmlinuz in the tree's /boot (the tree also
# carries newer *headers* for compat builds, but only one kernel image).
# shellcheck disable=SC2012 # kernel file names are plain
KIMG=$(cd "$ROOT/boot" && ls vmlinuz-* 2>/dev/null | sort -V | tail -n1)
[ -n "$KIMG" ] || { log "no kernel in $ROOT/boot"; exit 2; }
KREL=${KIMG#vmlinuz-}
KBOOT=(-kernel "/boot/vmlinuz-$KREL" -initrd "/boot/initrd.img-$KREL")
if [ -n "$KHOST" ]; then
	[ -f "$KHOST" ] || { log "no kernel image at '$KHOST'"; exit 2; }
	KHOST=$(realpath "$KHOST")
	KREL="$KHOST (no initrd)"
	# Bound into the namespace below: QEMU sees the root tree only.
	KBOOT=(-kernel /run/vm/kernel)
elif [ ! -f "$ROOT/boot/initrd.img-$KREL" ]; then
	log "no initrd for $KREL"
	exit 2
fi

# Device options, one PCIe root port per vfio-user socket.
DEVARGS=()
i=0
for s in "${SOCKS[@]}"; do
	case $s in /*) ;; *) s=$JOBDIR/$s ;; esac
	s=$(realpath -m "$s")
	case $s in
	"$JOBDIR"/*) ;;
	*) log "socket $s is outside the job dir $JOBDIR"; exit 2 ;;
	esac
	[ -S "$s" ] || { log "no listening socket at $s"; exit 2; }
	DEVARGS+=(-device "pcie-root-port,id=rp$i,chassis=$((i + 1)),slot=$i"
		-device "{\"driver\":\"vfio-user-pci\",\"id\":\"vfu$i\",\"bus\":\"rp$i\",\"socket\":{\"type\":\"unix\",\"path\":\"/run/vm/job/${s#"$JOBDIR"/}\"}}")
	i=$((i + 1))
done

rm -f "$JOBDIR/rc" "$JOBDIR/.rc" "$JOBDIR/console.log"

APPEND="console=ttyS0 root=root rootfstype=9p"
APPEND+=" rootflags=trans=virtio,version=9p2000.L,msize=524288,cache=loose"
APPEND+=" ro init=/sbin/vm-init panic=-1 quiet loglevel=4 fsck.mode=skip"
APPEND+=" ${EXTRA}"

# shellcheck disable=SC2054 # QEMU options are comma lists
QEMU=(qemu-system-x86_64
	-machine q35,memory-backend=mem -accel tcg -cpu max -m "$MEM" -smp "$CPUS"
	-object "memory-backend-memfd,id=mem,size=$MEM,share=on"
	-nographic -vga none -no-reboot -monitor none
	"${KBOOT[@]}"
	-append "$APPEND"
	-virtfs local,path=/run/vm/tree,mount_tag=root,security_model=none,readonly=on
	-virtfs local,path=/run/vm/job,mount_tag=job,security_model=none
	-nic none
	"${DEVARGS[@]}")
[ -z "$QMP" ] || QEMU+=(-qmp "unix:/run/vm/job/$QMP,server=on,wait=off")

# The namespace script gets everything through its environment and argv,
# so no host path is ever re-parsed by a shell.
# shellcheck disable=SC2016
NSSCRIPT='
	set -e
	mount --bind /proc "$ROOT/proc"
	mount --rbind /dev "$ROOT/dev"
	mount --bind /sys "$ROOT/sys"
	mount -t tmpfs -o mode=0755 tmpfs "$ROOT/run"
	mkdir -p "$ROOT/run/vm/tree" "$ROOT/run/vm/job"
	# Non-recursive: the bare tree, without the /proc, /dev, /sys binds.
	mount --bind "$ROOT" "$ROOT/run/vm/tree"
	mount --bind "$JOBDIR" "$ROOT/run/vm/job"
	if [ -n "$KHOST" ]; then
		touch "$ROOT/run/vm/kernel"
		mount --bind "$KHOST" "$ROOT/run/vm/kernel"
	fi
	exec chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		timeout -k 10 "$TMO" "$@"'

log "boot started: kernel $KREL, ${CPUS} vCPU, $MEM, timeout ${TMO}s${SOCKS:+, vfio-user ${SOCKS[*]}}${QMP:+, QMP $JOBDIR/$QMP}, job $JOBDIR"
T0=$EPOCHREALTIME
set +e
# Outer timeout as a last resort in case QEMU ignores SIGKILL's parent
# (e.g. stuck in the namespace setup); stdin is never the caller's tty.
ROOT=$ROOT JOBDIR=$JOBDIR TMO=$TMO KHOST=$KHOST \
	timeout -k 10 $((TMO + 60)) \
	unshare --mount --propagation private -- bash -c "$NSSCRIPT" vm-ns "${QEMU[@]}" \
	</dev/null 2>&1 | sed -u 's/\r//g; s/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g' | {
		if [ $QUIET -eq 1 ]; then
			cat > "$JOBDIR/console.log"
		else
			tee "$JOBDIR/console.log"
		fi
	}
qrc=${PIPESTATUS[0]}
set -e
WALL=$(awk -v a="$T0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')

BOOT=$(sed -n 's/^vm-init: job starts at uptime \([0-9.]*\) s.*/\1/p' "$JOBDIR/console.log" | head -n1)
if [ -s "$JOBDIR/rc" ]; then
	rc=$(tr -dc '0-9' < "$JOBDIR/rc")
	rc=${rc:-99}
	log "job rc=$rc, wall ${WALL}s, boot-to-job ${BOOT:-?}s (qemu rc=$qrc)"
elif [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	rc=124
	log "TIMEOUT: job killed after ${TMO}s (wall ${WALL}s, boot-to-job ${BOOT:-never}s); see $JOBDIR/console.log"
else
	rc=99
	log "job never ran or never finished (qemu rc=$qrc, wall ${WALL}s); last console lines:"
	tail -n 15 "$JOBDIR/console.log" | sed 's/^/    /' >&2
fi
printf 'wall=%s\nboot_to_job=%s\nqemu_rc=%s\nrc=%s\n' \
	"$WALL" "${BOOT:-}" "$qrc" "$rc" > "$JOBDIR/vm-run.txt"
exit "$rc"
