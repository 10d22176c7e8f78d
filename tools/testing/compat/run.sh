#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make compat`: build mlx5x.ko with W=1 and sparse (C=2) against every
# supported kernel, check what the module links against and that it was
# built for the right kernel, and run checkpatch --strict on our kernel
# sources.
#
# Kernels: Debian 12's 6.1 headers on the host (installed when missing),
# and every linux-headers-*-amd64 in the VM root tree (the 6.12 guest
# kernel and the newest trixie-backports kernel, 7.x).  Those are built
# inside the tree with chroot in a private mount namespace: their kbuild
# tools need trixie's userland and gcc 14.  Each kernel builds from a
# scratch copy under build/compat/<kver>/, never in the source tree.
#
# Results: $MLX5X_RESULTS/compat.tsv, one line per kernel x check
# (build, warnings, sparse, depends, vermagic) and per checkpatch'd file.
# Exits non-zero on any failure.

set -uo pipefail

TOP=$(cd "$(dirname "$0")/../../.." && pwd)
HERE=$TOP/tools/testing/compat
export MLX5X_CACHE=${MLX5X_CACHE:-/var/cache/mlx5x}
RESULTS=${MLX5X_RESULTS:-$TOP/build/results}
OUT=$TOP/build/compat
DRV=drivers/infiniband/hw/mlx5x
TSV=$RESULTS/compat.tsv
# 7.x splits the uverbs object machinery (uverbs_idr_class, ...) out of
# ib_uverbs into ib_uverbs_support; the driver's UAR object needs it.
ALLOWED_DEPS="ib_core ib_uverbs ib_uverbs_support"
FAILS=0
T0=$SECONDS

mkdir -p "$RESULTS" "$OUT"
# One run per checkout at a time: the scratch copies and results are shared.
exec 9>"$OUT/.lock"
flock -n 9 || { echo "[compat] waiting for another make compat run to finish"; flock 9; }
: > "$TSV"

log() { printf '[compat %s +%ds] %s\n' "$(date +%T)" $((SECONDS - T0)) "$*"; }

# result NAME pass|fail|skip DETAIL
result() {
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$TSV"
	printf '  %-44s %s%s\n' "$1" "$2" "${3:+  ($3)}"
	[ "$2" != fail ] || FAILS=$((FAILS + 1))
}

# Host tools: compiler, sparse, modinfo, checkpatch's perl, unshare/chroot.
host_deps() {
	"$TOP/tools/testing/host-deps.sh" gcc make sparse kmod perl xz-utils util-linux bc flex bison libelf-dev
}

# Newest Debian 12 6.1 headers on the host; installs linux-headers-amd64
# (which is 6.1 on bookworm) when there are none.
host_kdir() {
	local d

	d=$(find /usr/src -maxdepth 1 -name 'linux-headers-6.1.*-amd64' | sort -V | tail -n1)
	if [ -z "$d" ]; then
		# stdout is this function's result: progress goes to stderr.
		log "no 6.1 headers on the host: apt-get install linux-headers-amd64" >&2
		apt-get -o DPkg::Lock::Timeout=900 -q update >/dev/null
		apt-get -o DPkg::Lock::Timeout=900 -q -y install linux-headers-amd64 >/dev/null
		d=$(find /usr/src -maxdepth 1 -name 'linux-headers-6.1.*-amd64' | sort -V | tail -n1)
	fi
	echo "$d"
}

# prepare KVER: fresh scratch copy of the module sources in $OUT/KVER/src.
prepare() {
	local w=$OUT/$1

	rm -rf "$w"
	mkdir -p "$w/src"
	cp -a "$TOP/Kbuild" "$TOP/drivers" "$w/src/"
	[ -d "$TOP/include" ] && cp -a "$TOP/include" "$w/src/"
	# Stray objects from an in-place `make` must not leak into the copy.
	find "$w/src" \( -name '*.o' -o -name '*.ko' -o -name '*.mod*' -o -name '.*.cmd' \
		-o -name 'mlx5x_autoconf.h' \) -delete
	: > "$w/sparse.log"
}

# build_host KVER KDIR: the 6.1 build, on the host.
build_host() {
	local w=$OUT/$1

	MLX5X_SPARSE=sparse MLX5X_SPARSE_LOG=$w/sparse.log \
		nice -n 10 make -C "$2" M="$w/src" W=1 C=2 \
		CHECK="$HERE/sparse-wrap.sh" -j"$(nproc)" modules > "$w/build.log" 2>&1
}

# build_tree KVER ROOT: a build inside the VM root tree.  /run in the tree
# is a private tmpfs holding the work dir, this directory (the sparse
# wrapper) and, for 7.x, a newer sparse; nothing is written to the tree.
build_tree() {
	local kver=$1 root=$2 w=$OUT/$1 extra="" sparse=sparse sdir=""

	# 7.x headers use __typeof_unqual__, which needs sparse >= 0.6.5, and
	# Debian's 7.x headers package lacks scripts/checker-valid.sh, so the
	# kernel Makefile would silently turn C=2 off: force it back on
	# (KBUILD_CHECKSRC on the command line beats the Makefile's reset).
	if grep -q checker-valid "$root/lib/modules/$kver/build/Makefile" 2>/dev/null ||
	   grep -qs checker-valid "$root/usr/src/linux-headers-${kver%-amd64}-common/Makefile"; then
		sdir=$("$HERE/new-sparse.sh") || return 1
		sparse=/run/sparse/usr/bin/sparse
		[ -e "$root/usr/src/linux-headers-${kver%-amd64}-common/scripts/checker-valid.sh" ] ||
			extra="KBUILD_CHECKSRC=2"
	fi

	# shellcheck disable=SC2016
	ROOT=$root WORK=$w TOOLS=$HERE SDIR=$sdir KVER=$kver SPARSE=$sparse EXTRA=$extra \
	NPROC=$(nproc) unshare -m --propagation private sh -ec '
		mount --bind /proc "$ROOT/proc"
		mount --rbind /dev "$ROOT/dev"
		mount -t tmpfs tmpfs "$ROOT/run"
		mkdir "$ROOT/run/w" "$ROOT/run/t" "$ROOT/run/sparse"
		mount --bind "$WORK" "$ROOT/run/w"
		mount --bind "$TOOLS" "$ROOT/run/t"
		[ -z "$SDIR" ] || mount --bind "$SDIR" "$ROOT/run/sparse"
		exec chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 \
			MLX5X_SPARSE="$SPARSE" MLX5X_SPARSE_LOG=/run/w/sparse.log \
			nice -n 10 make -C "/lib/modules/$KVER/build" M=/run/w/src W=1 C=2 \
			CHECK=/run/t/sparse-wrap.sh $EXTRA -j"$NPROC" modules' \
		> "$w/build.log" 2>&1
}

# check KVER BUILD_RC: one result line per check for one kernel.
check() {
	local kver=$1 rc=$2 w=$OUT/$1 ko n_cc n_check warn deps bad dep vm

	ko=$w/src/$DRV/mlx5x.ko
	if [ "$rc" -ne 0 ] || [ ! -f "$ko" ]; then
		result "$kver:build" fail "make exit $rc: $(grep -m1 -E 'error|Error' "$w/build.log" | cut -c1-200)"
		for c in warnings sparse depends vermagic; do
			result "$kver:$c" skip "no module built"
		done
		return
	fi
	result "$kver:build" pass "$(grep -c 'CC \[M\]' "$w/build.log") objects"

	# Compiler (W=1), modpost and objtool diagnostics.
	warn=$(grep -cE '(warning|error|WARNING|ERROR)[:[]' "$w/build.log")
	if [ "$warn" -eq 0 ]; then
		result "$kver:warnings" pass "W=1: 0 warnings"
	else
		result "$kver:warnings" fail "W=1: $warn: $(grep -m1 -E '(warning|error|WARNING|ERROR)[:[]' "$w/build.log" | cut -c1-200)"
	fi

	# sparse must have run on every C file, and found nothing.
	n_cc=$(grep 'CC \[M\]' "$w/build.log" | grep -vc '\.mod\.o\|module-common')
	n_check=$(grep -c '  CHECK ' "$w/build.log")
	if [ "$n_check" -lt "$n_cc" ]; then
		result "$kver:sparse" fail "sparse ran on $n_check of $n_cc files"
	elif [ -s "$w/sparse.log" ]; then
		result "$kver:sparse" fail "$(grep -c . "$w/sparse.log") lines: $(head -n1 "$w/sparse.log" | cut -c1-200)"
	else
		result "$kver:sparse" pass "C=2 on $n_check files: 0 findings"
	fi

	# Only the inbox RDMA core may be linked against; never mlx5_core/mlx5_ib.
	deps=$(modinfo -F depends "$ko")
	bad=""
	for dep in ${deps//,/ }; do
		[[ " $ALLOWED_DEPS " == *" $dep "* ]] || bad="$bad $dep"
	done
	if [ -z "$bad" ]; then
		result "$kver:depends" pass "depends='$deps'"
	else
		result "$kver:depends" fail "not allowed:$bad"
	fi

	vm=$(modinfo -F vermagic "$ko")
	if [ "${vm%% *}" = "$kver" ]; then
		result "$kver:vermagic" pass "$vm"
	else
		result "$kver:vermagic" fail "vermagic '$vm'"
	fi
}

# checkpatch --strict on every kernel source file of ours.  --no-tree:
# we are not in a kernel tree.  No message type is ignored: the sources
# are written to pass the in-tree rules unchanged.
run_checkpatch() {
	local src cp f out

	src=$("$TOP/tools/testing/kunit/linux-source.sh") || {
		result checkpatch fail "no kernel source tree for checkpatch.pl"
		return
	}
	cp=$src/scripts/checkpatch.pl
	cd "$TOP" || return
	while read -r f; do
		out=$(perl "$cp" --strict --no-tree --terse --show-types -f "$f" 2>&1)
		if [ -z "$out" ]; then
			result "checkpatch:$f" pass ""
		else
			result "checkpatch:$f" fail "$(printf '%s' "$out" | head -n1 | cut -c1-200)"
			printf '%s\n' "$out" | sed 's/^/      /'
		fi
	done < <(find Kbuild $DRV -type f \( -name '*.[ch]' -o -name Kconfig -o -name Kbuild \) \
			! -name '*.mod.c' ! -name 'mlx5x_autoconf.h' | sort)
}

main() {
	local root kdir kver rc

	host_deps || { result setup fail "cannot install host packages"; exit 1; }
	log "checkpatch --strict"
	run_checkpatch

	kdir=$(host_kdir)
	if [ -z "$kdir" ]; then
		result "6.1:build" fail "no Debian 12 6.1 headers and apt could not install them"
	else
		kver=${kdir#/usr/src/linux-headers-}
		log "$kver (host)"
		prepare "$kver"
		build_host "$kver" "$kdir"
		check "$kver" $?
	fi

	root=$("$TOP/tools/testing/vm/build-rootfs.sh") || {
		result rootfs fail "tools/testing/vm/build-rootfs.sh failed"
		exit 1
	}
	# Hold the tree while building in it: a build of a newer recipe then
	# leaves it alone (build-rootfs.sh, drop_old_trees).
	if [ -e "$root.ready" ]; then
		exec 6<"$root.ready"
		flock -s 6
	fi
	for kdir in $(find "$root/usr/src" -maxdepth 1 -name 'linux-headers-*-amd64' | sort -V); do
		kver=${kdir##*/linux-headers-}
		log "$kver (VM root tree)"
		prepare "$kver"
		build_tree "$kver" "$root"
		rc=$?
		check "$kver" $rc
	done

	log "done: $(grep -cP '\tpass\t' "$TSV") passed, $FAILS failed; logs in $OUT/<kver>/"
	[ "$FAILS" -eq 0 ]
}

main "$@"
