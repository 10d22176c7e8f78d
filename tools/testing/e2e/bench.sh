#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make bench`: pingpong and perftest figures of every lane side by side in
# build/results/bench.md.  Figures only: nothing here passes or fails on a
# number (TCG timing depends on host load; compare lanes of the same run).
#
# Each lane runs its full suite without pyverbs (job dirs build/e2e/bench-*);
# a lane that cannot run yet is listed with the reason.  Exit status 1 only
# when no lane produced a figure.
#
# Environment: MLX5X_BENCH_LANES (default "rxe upstream mlx5x"), and the
# lane knobs of lane.sh; bench defaults: MLX5X_E2E_PP_SIZES="1 4096 65536",
# MLX5X_E2E_PP_ITERS=500, MLX5X_E2E_PERF_ITERS=1000,
# MLX5X_E2E_PERF_BW_ITERS=500.

set -uo pipefail

TOP=$(cd "$(dirname "$0")/../../.." && pwd)
LANES=${MLX5X_BENCH_LANES:-"rxe upstream mlx5x"}
OUT=$TOP/build/results/bench.md
RES=$TOP/build/bench
mkdir -p "$RES" "$TOP/build/results"

export MLX5X_E2E_PARTS="devinfo pingpong perftest"
export MLX5X_E2E_PP_SIZES=${MLX5X_E2E_PP_SIZES:-"1 4096 65536"}
export MLX5X_E2E_PP_ITERS=${MLX5X_E2E_PP_ITERS:-500}
export MLX5X_E2E_PERF_ITERS=${MLX5X_E2E_PERF_ITERS:-1000}
export MLX5X_E2E_PERF_BW_ITERS=${MLX5X_E2E_PERF_BW_ITERS:-500}

T0=$SECONDS
notes=()
ran=()
for lane in $LANES; do
	printf '[bench %s] lane %s\n' "$(date +%T)" "$lane" >&2
	MLX5X_RESULTS=$RES MLX5X_E2E_NAME=bench-$lane \
		"$TOP/tools/testing/e2e/lane.sh" "$lane" full
	rc=$?
	perf=$TOP/build/e2e/bench-$lane/perf.tsv
	if [ -s "$perf" ]; then
		ran+=("$lane")
	fi
	if [ $rc -ne 0 ]; then
		notes+=("$lane: $(grep -P '\tfail\t' "$RES/e2e-bench-$lane.tsv" | head -n 1 | cut -f1,3 | tr '\t' ' ')")
	fi
done

{
	echo "# perftest and pingpong figures, lanes side by side"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), QEMU TCG (no KVM), $(nproc) host CPUs," \
		"load average $(cut -d' ' -f1-3 /proc/loadavg); $((SECONDS - T0)) s."
	echo "pingpong: ibv_rc_pingpong -n $MLX5X_E2E_PP_ITERS; perftest: lat -n $MLX5X_E2E_PERF_ITERS," \
		"ib_write_bw -n $MLX5X_E2E_PERF_BW_ITERS (64 KiB). Both ends in one guest."
	echo "Figures depend heavily on host load; compare lanes of one run only."
	echo
	if [ ${#ran[@]} -gt 0 ]; then
		printf '| test | metric |'
		printf ' %s |' "${ran[@]}"
		printf '\n|---|---|'
		printf -- '---|%.0s' "${ran[@]}"
		printf '\n'
		# Rows in first-seen order over all lanes; a missing figure is "-".
		for lane in "${ran[@]}"; do
			awk -F'\t' -v l="$lane" '{ print l "\t" $0 }' \
				"$TOP/build/e2e/bench-$lane/perf.tsv"
		done | awk -F'\t' -v lanes="${ran[*]}" '
			{ k = $2 "\t" $3 " [" $5 "]"; if (!(k in seen)) { seen[k] = 1; order[++n] = k }
			  v[k, $1] = $4 }
			END {
				nl = split(lanes, L, " ")
				for (i = 1; i <= n; i++) {
					split(order[i], kk, "\t")
					printf "| %s | %s |", kk[1], kk[2]
					for (j = 1; j <= nl; j++)
						printf " %s |", ((order[i], L[j]) in v) ? v[order[i], L[j]] : "-"
					printf "\n"
				}
			}'
	else
		echo "No lane produced figures."
	fi
	if [ ${#notes[@]} -gt 0 ]; then
		echo
		echo "Lanes with failures or not available:"
		echo
		printf -- '- %s\n' "${notes[@]}"
	fi
} > "$OUT"

cat "$OUT"
[ ${#ran[@]} -gt 0 ]
