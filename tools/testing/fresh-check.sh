#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make fresh-check`: the README's two commands, run the way a new user runs
# them.  A Debian 12 (bookworm) tree is built from nothing with mmdebstrap,
# holding what a freshly installed machine with the standard system
# utilities has, plus git and make to clone and start; a
# clone of this repository's HEAD is put in it; then, as root inside the
# tree (chroot with /proc, /sys and /dev mounted), `make run` and `make
# check` run with no kernel headers and an empty MLX5X_CACHE.  Every step
# that installs packages or fills the cache therefore runs for real, which
# a development machine (and CI, whose cache is warm) never does.
#
# Only committed work is tested (the clone is of HEAD).  The tree lives
# outside the repository, in $MLX5X_CACHE/fresh-check, and is rebuilt on
# every run; its cache inside (the VM root tree, the kernel source, the
# KUnit build) is thrown away with it.  Expect a cold `make check` (about
# 25 min on 2 cores) plus a few minutes of package installs.
#
# The last line printed is the inner `make check`'s "N passed, N failed"
# line; the exit status is non-zero when either command failed.

set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${MLX5X_CACHE:-/var/cache/mlx5x}
TREE=$CACHE/fresh-check
OUT=$TOP/build/results/fresh-check
T0=$SECONDS

log() { printf '[fresh-check %s +%ds] %s\n' "$(date +%T)" $((SECONDS - T0)) "$*" >&2; }

[ "$(id -u)" = 0 ] || { echo "fresh-check: run as root (chroot, mounts)" >&2; exit 1; }

umount_tree() {
	local m

	# Deepest first; a lazy unmount so a stray process cannot wedge us.
	for m in $(awk -v t="$TREE" '$2 == t || index($2, t "/") == 1 {print $2}' /proc/mounts | sort -r); do
		umount -l "$m" 2>/dev/null || true
	done
}
trap umount_tree EXIT

build_tree() {
	local mirror

	mirror=$("$TOP/tools/testing/host-mirror.sh")
	umount_tree
	rm -rf "$TREE"
	mkdir -p "$(dirname "$TREE")"
	log "mmdebstrap bookworm from $mirror (a fresh Debian 12: standard tools, git, make)"
	mmdebstrap --variant=standard --arch=amd64 \
		--include=ca-certificates,git,make,procps bookworm "$TREE" \
		"deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
		>"$CACHE/fresh-check.log" 2>&1 ||
		{ tail -n 30 "$CACHE/fresh-check.log" >&2; return 1; }
	cp /etc/resolv.conf "$TREE/etc/resolv.conf"
	# A new machine here comes with this host's apt settings (proxy,
	# validity checks of a mirror that serves a frozen archive, ...):
	# they belong to the machine, not to the project.
	cp -n /etc/apt/apt.conf.d/* "$TREE/etc/apt/apt.conf.d/" 2>/dev/null || true
	git clone -q --no-hardlinks "$TOP" "$TREE/root/mlx5x"
	log "clone of $(git -C "$TOP" rev-parse --short HEAD) in the tree"
}

mount_tree() {
	# The tree's root must be a mount point, as a machine's / is: the rig
	# makes private mount namespaces (unshare --propagation private),
	# which the kernel refuses for a root that is a plain directory.
	mount --bind "$TREE" "$TREE"
	mount --make-private "$TREE"
	mount -t proc proc "$TREE/proc"
	mount --rbind /sys "$TREE/sys"
	mount --make-rslave "$TREE/sys"
	mount --rbind /dev "$TREE/dev"
	mount --make-rslave "$TREE/dev"
	mount -t tmpfs tmpfs "$TREE/tmp"
}

# in_tree CMD: one of the README's commands, as root in a login-like
# environment, its output both shown and kept.
in_tree() {
	local name=$1 rc

	shift
	log "make $name (output in $OUT/$name.log)"
	set +e
	chroot "$TREE" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		bash -c "cd /root/mlx5x && $*" 2>&1 | tee "$OUT/$name.log"
	rc=${PIPESTATUS[0]}
	set -e
	log "make $name: exit $rc"
	return "$rc"
}

mkdir -p "$OUT"
"$TOP/tools/testing/host-deps.sh" mmdebstrap git
build_tree
mount_tree
[ -z "$(find "$TREE/usr/src" -maxdepth 1 -name 'linux-headers-*' 2>/dev/null)" ] ||
	{ log "the fresh tree has kernel headers; it must not"; exit 1; }

rc=0
in_tree run "make run" || rc=1
in_tree check "make check" || rc=1
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$OUT/check.log" | tail -n1 || true)
log "wall $((SECONDS - T0)) s; make run and make check ran in a fresh bookworm tree"
echo "${line:-make check printed no summary line}"
[ -n "$line" ] || rc=1
exit $rc
