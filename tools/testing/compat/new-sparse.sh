#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Print the directory of a sparse new enough for 7.x kernel headers, which
# use __typeof_unqual__ (needs sparse >= 0.6.5; bookworm and trixie ship
# 0.6.4).  The binary comes from Debian testing (forky), fetched once with
# apt-get download into $MLX5X_CACHE/sparse-forky/ through a private apt
# configuration (the host's sources are not touched).  It needs glibc >=
# 2.38, so it runs inside the trixie root tree, not on a bookworm host.

set -euo pipefail

CACHE=${MLX5X_CACHE:-/var/cache/mlx5x}
D=$CACHE/sparse-forky

log() { printf '[compat %s] %s\n' "$(date +%T)" "$*" >&2; }

mkdir -p "$CACHE"
exec 9>"$CACHE/sparse-forky.lock"
flock 9
if [ -x "$D/usr/bin/sparse" ]; then
	echo "$D"
	exit 0
fi

log "fetching sparse from Debian forky (once, about 10 MB of apt indexes)"
A=$CACHE/sparse-forky.apt
rm -rf "$A" "$D"
mkdir -p "$A/lists/partial" "$A/cache/archives/partial"
echo "deb $("$(dirname "$0")/../host-mirror.sh") forky main" > "$A/sources.list"
APT=(-o "Dir::Etc::SourceList=$A/sources.list" -o Dir::Etc::SourceParts=/dev/null
     -o "Dir::State::Lists=$A/lists" -o "Dir::Cache=$A/cache"
     -o APT::Sandbox::User=root -q)
apt-get "${APT[@]}" update >&2
(cd "$A" && apt-get "${APT[@]}" download sparse >&2)
rm -rf "$D.tmp"
mkdir -p "$D.tmp"
deb=$(find "$A" -maxdepth 1 -name 'sparse_*.deb' | head -n1)
dpkg-deb -x "$deb" "$D.tmp"
mv "$D.tmp" "$D"
rm -rf "$A"
log "$(basename "$deb") unpacked into $D"
echo "$D"
