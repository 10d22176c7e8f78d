#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# host-deps.sh PKG...: install those of the Debian packages PKG that the
# host lacks, from the mirror its apt already uses.  Every set-up step names
# what it needs here, so a freshly installed machine gets it on first use
# and a configured one pays one dpkg-query.  Progress goes to stderr: callers
# may capture stdout.

set -euo pipefail

missing=()
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
printf '[host-deps %s] installing on the host: %s\n' "$(date +%T)" "${missing[*]}" >&2
# A fresh machine may have no (or stale) package lists.
apt-get -o DPkg::Lock::Timeout=900 -q update >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 -q -y \
	--no-install-recommends install "${missing[@]}" >/dev/null
