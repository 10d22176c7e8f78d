#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once) the debug guest kernel: Debian's linux-source (the tree the
# KUnit runner unpacks, tools/testing/kunit/linux-source.sh) configured
# with allnoconfig plus debug.config (KASAN, KFENCE, lockdep, debug
# objects, UBSAN, everything the lanes use built in), compiled with the
# host's gcc, and cached outside the repository under
# $MLX5X_CACHE/kdebug-HASH, HASH covering the fragment (comments aside),
# the source version and the compiler.
#
# Prints the path of the ready build directory on stdout: its
# arch/x86/boot/bzImage boots the VM (vm-run.sh -k), mlx5x.ko builds
# against it (make -C DIR M=...), and DIR/mods/lib/modules/RELEASE holds
# the modules.* indexes a guest's modprobe needs (everything is built in).
# Progress goes to stderr; build-time.txt in the directory records the
# cold build's wall and CPU time.
#
# Users of a build hold a shared flock on DIR.ready while they use it; a
# build for a newer fragment or source drops older ones that nobody holds.
#
# Environment: MLX5X_CACHE (default /var/cache/mlx5x), MLX5X_JOBS (make
# jobs, default 2).

set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../../.." && pwd)
CACHE=${MLX5X_CACHE:-/var/cache/mlx5x}
FRAG=$HERE/debug.config
JOBS=${MLX5X_JOBS:-2}

log() { printf '[kdebug %s] %s\n' "$(date +%T)" "$*" >&2; }

"$TOP/tools/testing/host-deps.sh" gcc make flex bison bc libelf-dev libssl-dev kmod
SRC=$("$TOP/tools/testing/kunit/linux-source.sh")

# Comment lines are left out, so rewording a comment keeps the build.
build_hash() {
	{
		grep -v '^[[:space:]]*#' "$FRAG"
		basename "$SRC"
		cat "$SRC.stamp"
		gcc --version | head -n1
	} | sha256sum | cut -c1-12
}

# Every CONFIG_ line of the fragment must survive olddefconfig: a symbol
# whose dependencies are missing silently drops out otherwise.
check_config() {
	local line sym bad=0
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) sym=${line%%=*} ;;
		"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *} ;;
		*) continue ;;
		esac
		if ! grep -qxF "$line" "$1/.config"; then
			# "is not set" and absent mean the same.
			case $line in "# "*) grep -q "^$sym=" "$1/.config" || continue ;; esac
			log "debug.config: $line did not stick (got: $(grep -E "^$sym=|^# $sym " "$1/.config" || echo absent))"
			bad=1
		fi
	done < "$FRAG"
	return $bad
}

# progress LOG PID: one line a minute while make PID runs.
progress() {
	local t0=$SECONDS
	while kill -0 "$2" 2>/dev/null; do
		sleep 60 &
		wait $! || true
		kill -0 "$2" 2>/dev/null || break
		log "building: $(grep -c '^  CC ' "$1" || true) files compiled, $(((SECONDS - t0) / 60)) min"
	done
}

compile() {
	local dir=$1 obj=$1/build rc pid tick
	mkdir -p "$obj"
	make -s -C "$SRC" O="$obj" KCONFIG_ALLCONFIG="$FRAG" allnoconfig >&2
	check_config "$obj" || return 1
	log "compiling $(basename "$SRC") into $obj (-j$JOBS; over an hour on 2 busy cores)"
	local tf=$dir/time.raw
	set +e
	/usr/bin/time -o "$tf" -f '%e %U %S' nice make -C "$obj" -j"$JOBS" bzImage modules \
		> "$dir/build.log" 2>&1 &
	pid=$!
	# Not on stdout nor holding the lock: a caller reading the path must
	# not wait for the ticker's last sleep.
	progress "$dir/build.log" "$pid" >&2 9>&- &
	tick=$!
	wait "$pid"
	rc=$?
	kill "$tick" 2>/dev/null
	set -e
	if [ $rc -ne 0 ]; then
		log "kernel build failed (log: $dir/build.log):"
		grep -E -m5 'error|Error' "$dir/build.log" >&2 || tail -n 5 "$dir/build.log" >&2
		return 1
	fi
	make -s -C "$obj" INSTALL_MOD_PATH="$dir/mods" modules_install >> "$dir/build.log" 2>&1
	awk '{ printf "wall=%.0f\ncpu=%.0f\n", $1, $2 + $3 }' "$tf" > "$dir/build-time.txt"
	rm -f "$tf"
}

# drop_old HASH: remove the builds of other hashes that nobody holds.
drop_old() {
	local d
	for d in "$CACHE"/kdebug-*; do
		case $d in "$CACHE/kdebug-$1"* | *.ready | *.log) continue ;; esac
		[ -d "$d" ] || continue
		if [ -e "$d.ready" ]; then
			flock -n -x "$d.ready" rm -rf "$d" ||
				{ log "keeping $d: still in use"; continue; }
			rm -f "$d.ready"
		else
			rm -rf "$d"
		fi
	done
}

main() {
	local hash dir
	hash=$(build_hash)
	dir=$CACHE/kdebug-$hash
	exec 9>"$CACHE/kdebug.lock"
	if ! flock -n 9; then
		log "another debug kernel build is running; waiting for it"
		flock 9
	fi
	if [ -e "$dir.ready" ]; then
		echo "$dir/build"
		return 0
	fi
	# An interrupted build resumes where make left off.
	compile "$dir"
	drop_old "$hash"
	touch "$dir.ready"
	log "debug kernel $(cat "$dir/build/include/config/kernel.release") ready:" \
		"$(tr '\n' ' ' < "$dir/build-time.txt")(seconds); $dir/build"
	echo "$dir/build"
}

main "$@"
