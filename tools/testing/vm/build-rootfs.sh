#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once) the Debian trixie root tree the test VM boots from, and cache
# it outside the repository.  The tree is keyed by a hash of its recipe (this
# script and the guest PID-1 wrapper, comments aside): change either and the next run builds
# a new tree and drops the old one.
#
# Prints the path of the ready tree on stdout (progress goes to stderr).
#
# Environment: MLX5X_CACHE (default /var/cache/mlx5x).

set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${MLX5X_CACHE:-/var/cache/mlx5x}

log() { printf '[rig %s] %s\n' "$(date +%T)" "$*" >&2; }

# Comment lines are left out, so rewording a comment keeps the cached tree.
recipe_hash() {
	cat "$HERE/build-rootfs.sh" "$HERE/guest/vm-init" |
		grep -v '^[[:space:]]*#' | sha256sum | cut -c1-12
}


# Guest packages, installed in ONE apt transaction: qemu comes from
# trixie-backports, and a separate later install would have to reconcile the
# backported libraries it pulled in (libelf, libdw) with trixie's, which apt
# refuses.  One transaction resolves them together.
PKGS="qemu-system-x86 qemu-utils ipxe-qemu linux-image-amd64 linux-headers-amd64
      linux-source build-essential kmod rdma-core ibverbs-utils ibverbs-providers
      rdmacm-utils perftest python3-pyverbs infiniband-diags iproute2 pciutils
      busybox initramfs-tools sparse dpkg-dev python3 procps less strace gdb
      xz-utils opensm nvme-cli fio trace-cmd iputils-ping socat"

in_root() {
	chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"
}

# Newest kernel headers in trixie-backports (for `make compat`); empty if none.
bpo_headers_pkg() {
	local ver
	ver=$(in_root apt-cache madison linux-headers-amd64 |
		awk -F'|' '/trixie-backports/ {gsub(/ /,"",$2); print $2; exit}')
	[ -n "$ver" ] || return 0
	in_root apt-cache show "linux-headers-amd64=$ver" |
		grep -o 'linux-headers-[0-9][^ ,]*' | head -n1
}

fetch_rdma_source() {
	in_root bash -ec '
		mkdir -p /usr/src/rdma && cd /usr/src/rdma
		V=$(dpkg-query -W -f="\${Version}" rdma-core); U=${V%-*}
		apt-get -q source --tar-only "rdma-core=$V" >/dev/null
		apt-get -q source --diff-only "rdma-core=$V" >/dev/null
		tar xf rdma-core_$U.orig.tar.*
		tar xf rdma-core_$V.debian.tar.* -C rdma-core-$U
		cd rdma-core-$U
		if [ -f debian/patches/series ]; then
			grep -v "^#" debian/patches/series | while read -r p; do
				[ -n "$p" ] && patch -s -p1 < "debian/patches/$p"
			done
		fi
		cd .. && rm -f rdma-core_*.tar.* && ln -sfn rdma-core-$U rdma-core
		python3 -m compileall -q rdma-core/tests >/dev/null'
}

setup_initramfs() {
	sed -i 's/^MODULES=.*/MODULES=list/' "$ROOT/etc/initramfs-tools/initramfs.conf"
	printf '%s\n' 9p 9pnet 9pnet_virtio netfs >> "$ROOT/etc/initramfs-tools/modules"
	in_root update-initramfs -u -k all >/dev/null 2>&1
}

build_tree() {
	local mirror bpo devices
	mirror=$("$HERE/../host-mirror.sh")
	log "mmdebstrap trixie from $mirror (about 2 min)"
	mmdebstrap --variant=minbase --arch=amd64 --dpkgopt=force-unsafe-io \
		--include=ca-certificates trixie "$ROOT" \
		"deb $mirror trixie main" \
		"deb $mirror trixie-updates main" \
		"deb $mirror trixie-backports main" \
		"deb-src $mirror trixie main" >"$ROOT.log" 2>&1 ||
		{ tail -n 30 "$ROOT.log" >&2; return 1; }

	printf '#!/bin/sh\nexit 101\n' > "$ROOT/usr/sbin/policy-rc.d"
	chmod +x "$ROOT/usr/sbin/policy-rc.d"
	echo mlx5x-vm > "$ROOT/etc/hostname"
	printf 'Package: src:qemu src:seabios\nPin: release n=trixie-backports\nPin-Priority: 990\n' \
		> "$ROOT/etc/apt/preferences.d/qemu-backports"
	# Slim initrd from the start: the kernel postinst then builds it once.
	mkdir -p "$ROOT/etc/initramfs-tools/conf.d"
	echo MODULES=list > "$ROOT/etc/initramfs-tools/conf.d/mlx5x"

	mount --bind /proc "$ROOT/proc"
	mount --rbind /dev "$ROOT/dev"
	mount --bind /sys "$ROOT/sys"
	trap 'umount -l "$ROOT/proc" "$ROOT/dev" "$ROOT/sys" 2>/dev/null || true' RETURN

	in_root apt-get -q update >&2
	bpo=$(bpo_headers_pkg)
	log "apt install in the tree (about 4 min): guest kernel, QEMU, rdma-core; compat headers: ${bpo:-none}"
	# shellcheck disable=SC2086
	in_root apt-get -q -y --no-install-recommends \
		-o Dpkg::Options::=--force-unsafe-io install $PKGS $bpo >>"$ROOT.log" 2>&1 ||
		{ tail -n 30 "$ROOT.log" >&2; return 1; }

	log "rdma-core source for the pyverbs tests"
	fetch_rdma_source
	log "slim initramfs with 9p"
	setup_initramfs

	install -m 0755 "$HERE/guest/vm-init" "$ROOT/sbin/vm-init"
	mkdir -p "$ROOT/job"
	in_root apt-get clean
	# Capture first: with pipefail, grep -q closing the pipe early could
	# fail the check through SIGPIPE.
	devices=$(in_root qemu-system-x86_64 -device help)
	grep -q vfio-user-pci <<<"$devices" ||
		{ log "QEMU in the tree has no vfio-user-pci"; return 1; }
}

# Drop the trees of older recipes, but keep the newest of them (a compat or
# KUnit run may still be reading it) and any tree still in use: users of a
# tree (vm-run.sh, the module builds) hold a shared flock on its .ready
# marker while they run.  What is kept goes on a later build.
drop_old_trees() {
	local t keep
	keep=$(ls -1t "$CACHE"/rootfs-*.ready 2>/dev/null |
		grep -v "/rootfs-$1.ready" | head -n1 || true)
	keep=${keep%.ready}
	for t in "$CACHE"/rootfs-*; do
		case $t in
		"$CACHE/rootfs-$1"* | *.log | *.ready | "$keep") continue ;;
		esac
		[ -d "$t" ] || continue
		if [ -e "$t.ready" ]; then
			flock -n -x "$t.ready" rm -rf "$t" "$t.log" ||
				{ log "keeping $t: still in use"; continue; }
			rm -f "$t.ready"
		else
			rm -rf "$t" "$t.log"
		fi
	done
}

main() {
	local hash
	hash=$(recipe_hash)
	ROOT=$CACHE/rootfs-$hash
	mkdir -p "$CACHE"

	exec 9>"$CACHE/rootfs.lock"
	flock 9
	if [ -e "$ROOT.ready" ]; then
		echo "$ROOT"
		return 0
	fi

	command -v mmdebstrap >/dev/null || {
		log "installing mmdebstrap on the host"
		apt-get -q update >&2
		apt-get -o DPkg::Lock::Timeout=900 -q -y install mmdebstrap >&2
	}
	local t0=$SECONDS
	rm -rf "$ROOT" "$ROOT.log"
	build_tree
	drop_old_trees "$hash"
	touch "$ROOT.ready"
	ln -sfn "rootfs-$hash" "$CACHE/rootfs"
	log "root tree ready in $((SECONDS - t0)) s: $ROOT ($(du -sh "$ROOT" | cut -f1))"
	echo "$ROOT"
}

main "$@"
