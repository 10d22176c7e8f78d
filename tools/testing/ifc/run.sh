#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make ifc` / make check step "ifc": every offset, mask and length of
# include/mlx5x checked against the kernel's own layouts (mlx5_ifc.h and
# the queue-entry structs of device.h/qp.h) of the Debian linux-source
# tree the KUnit step uses.  One line per definition in
# $MLX5X_RESULTS/ifc.tsv; see check.py and ifc-map.txt.

set -uo pipefail

TOP=$(cd "$(dirname "$0")/../../.." && pwd)
RESULTS=${MLX5X_RESULTS:-$TOP/build/results}
TSV=$RESULTS/ifc.tsv
mkdir -p "$RESULTS"
: > "$TSV"

if ! SRC=$("$TOP/tools/testing/kunit/linux-source.sh"); then
	printf 'ifc/source\tfail\tno kernel source tree (tools/testing/kunit/linux-source.sh failed)\n' >> "$TSV"
	exit 1
fi
echo "[ifc] kernel layouts from $SRC/include/linux/mlx5"
python3 "$TOP/tools/testing/ifc/check.py" --src "$SRC" --tsv "$TSV"
