#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Print the Debian mirror this host's apt already uses (the first non-security
# URI of its deb822 sources, else of sources.list).  Everything the rig
# downloads comes from there, so a machine behind its own mirror or proxy
# needs no extra configuration and no host name is built into the scripts.

set -euo pipefail

m=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources |
	awk '{print $2}' | grep -v -e security -e '^$' | grep -i debian | head -n1 || true)
[ -n "$m" ] || m=$(grep -hsE '^deb[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list |
	awk '{for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; break }}' |
	grep -v security | grep -i debian | head -n1 || true)
if [ -z "$m" ]; then
	echo "host-mirror: no Debian mirror in /etc/apt/sources.list{,.d}; configure apt first" >&2
	exit 1
fi
echo "${m%/}"
