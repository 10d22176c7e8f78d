#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Print the path of the pristine Debian linux-source tree used by the KUnit
# runner (kunit.py, the kernel tree to graft into) and by `make compat`
# (checkpatch.pl).  It is unpacked once from the tarball in the VM root
# tree into $MLX5X_CACHE/kunit/ and never written to afterwards: runs work
# on hard-link copies of it.  Builds the root tree first if needed.
#
# Progress goes to stderr; the path is the only thing on stdout.

set -euo pipefail

TOP=$(cd "$(dirname "$0")/../../.." && pwd)
CACHE=${MLX5X_CACHE:-/var/cache/mlx5x}
K=$CACHE/kunit

log() { printf '[kunit-src %s] %s\n' "$(date +%T)" "$*" >&2; }

ROOT=$("$TOP/tools/testing/vm/build-rootfs.sh")
# Hold the root tree while reading from it: a build of a newer recipe
# then leaves it alone (build-rootfs.sh, drop_old_trees).
if [ -e "$ROOT.ready" ]; then
	exec 8<"$ROOT.ready"
	flock -s 8
fi
TAR=$(find "$ROOT/usr/src" -maxdepth 1 -name 'linux-source-*.tar.xz' | sort -V | tail -n1)
[ -n "$TAR" ] || { log "no linux-source tarball in $ROOT/usr/src"; exit 1; }
NAME=$(basename "$TAR" .tar.xz)
STAMP=$(stat -c '%s %Y' "$TAR")

mkdir -p "$K"
exec 9>"$K/source.lock"
flock 9

if [ -d "$K/$NAME" ] && [ "$(cat "$K/$NAME.stamp" 2>/dev/null)" = "$STAMP" ]; then
	echo "$K/$NAME"
	exit 0
fi

log "unpacking $(basename "$TAR") into $K (about 20 s, 1.7 GB)"
rm -rf "${K:?}/$NAME" "$K/$NAME.stamp" "$K/.unpack"
mkdir "$K/.unpack"
tar -xJf "$TAR" -C "$K/.unpack"
mv "$K/.unpack/$NAME" "$K/$NAME"
rmdir "$K/.unpack"
# A different source tree makes the incremental build directory stale.
rm -rf "$K/build-um"
echo "$STAMP" > "$K/$NAME.stamp"
echo "$K/$NAME"
