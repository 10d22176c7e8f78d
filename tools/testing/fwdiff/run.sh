#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The firmware-command differential: the same verbs workload
# (tools/testing/e2e/guest/fwdiff.py) under upstream mlx5 and under mlx5x,
# each traced field by field by the emulator (--ftrace), compared by
# compare.py against the allow-list allow.txt.
#
#   run.sh              `make fwdiff`: boot both lanes with the workload
#                       only (job dirs build/e2e/fwdiff-{upstream,mlx5x}),
#                       then compare
#   run.sh --compare UPSTREAM_JOB MLX5X_JOB
#                       compare the traces two lane runs left (make check
#                       uses the upstream-full and mlx5x-full lanes, which
#                       start with the workload: no extra boot)
#
# Results: $MLX5X_RESULTS/fwdiff.tsv (one line per difference: skip when
# allowed, fail when not), build/results/fwdiff.md (the table).

set -uo pipefail

TOP=$(cd "$(dirname "$0")/../../.." && pwd)
D=$TOP/tools/testing/fwdiff
RESULTS=${MLX5X_RESULTS:-$TOP/build/results}
TSV=$RESULTS/fwdiff.tsv
mkdir -p "$RESULTS" "$TOP/build/results"

compare() {
	: > "$TSV"
	python3 "$D/compare.py" "$1/ftrace.txt" "$2/ftrace.txt" \
		--allow "$D/allow.txt" --tsv "$TSV" \
		--md "$TOP/build/results/fwdiff.md"
}

if [ "${1:-}" = --compare ]; then
	[ $# -eq 3 ] || { echo "usage: $0 [--compare UPSTREAM_JOB MLX5X_JOB]" >&2; exit 2; }
	compare "$2" "$3"
	exit
fi

rc=0
for drv in upstream mlx5x; do
	MLX5X_E2E_PARTS=fwdiff MLX5X_E2E_NAME=fwdiff-$drv \
		"$TOP/tools/testing/e2e/lane.sh" "$drv" full || rc=1
done
compare "$TOP/build/e2e/fwdiff-upstream" "$TOP/build/e2e/fwdiff-mlx5x" || rc=1
exit $rc
