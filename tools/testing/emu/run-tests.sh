#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check` step "emu": build the emulated ConnectX and run its unit
# tests, once normally and once under AddressSanitizer + UBSan.  Writes
# $MLX5X_RESULTS/emu.tsv, one line per TAP test point:
#
#     emu/<binary>/<n> <TAB> pass|fail|skip <TAB> <description>
#
# (emu-asan/... for the sanitizer run), and exits non-zero on any failure.
# MLX5X_EMU_ASAN=0 skips the sanitizer run.

set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../../.." && pwd)
RESULTS=${MLX5X_RESULTS:-$TOP/build/results}
TSV=$RESULTS/emu.tsv
mkdir -p "$RESULTS"
: > "$TSV"
LOGDIR=$HERE/build/test-logs
mkdir -p "$LOGDIR"
rc=0

say() { printf '[emu %s] %s\n' "$(date +%T)" "$*"; }

# tap2tsv PREFIX: TAP on stdin -> tsv lines; a missing or short plan fails.
tap2tsv() {
	awk -v pfx="$1" -F'\t' '
	/^ok [0-9]+/ || /^not ok [0-9]+/ {
		st = ($1 ~ /^not/) ? "fail" : "pass"
		line = $0
		sub(/^(not )?ok [0-9]+ - /, "", line)
		n = $0; sub(/^(not )?ok /, "", n); sub(/ .*/, "", n)
		if (line ~ /# SKIP/) st = "skip"
		gsub(/\t/, " ", line)
		printf "%s/%03d\t%s\t%s\n", pfx, n, st, line
		seen++
		next
	}
	/^1\.\.[0-9]+/ { plan = substr($0, 4) + 0 }
	END {
		if (plan == 0 || seen != plan)
			printf "%s/plan\tfail\tplanned %d tests, saw %d (crash?)\n", pfx, plan, seen
	}'
}

# run_suite TAG BUILD_DIR
run_suite() {
	local tag=$1 dir=$2 t name out
	for t in "$dir"/tests/test_*; do
		[ -x "$t" ] || continue
		name=$(basename "$t")
		out=$LOGDIR/$tag-$name.tap
		timeout -k 5 120 "$t" > "$out" 2> "$out.stderr"
		local trc=$?
		tap2tsv "$tag/$name" < "$out" >> "$TSV"
		if [ $trc -ne 0 ]; then
			rc=1
			say "$tag/$name: exit $trc (see ${out#"$TOP"/})"
			if [ -s "$out.stderr" ]; then
				printf '%s/%s/exit\tfail\texit %d: %s\n' "$tag" "$name" "$trc" \
					"$(head -c 200 "$out.stderr" | tr '\t\n' '  ')" >> "$TSV"
			fi
		fi
	done
}

say "building (make -C tools/testing/emu)"
if ! nice make -s -C "$HERE" all tests > "$LOGDIR/build.log" 2>&1; then
	printf 'emu/build\tfail\t%s\n' "$(tail -n 3 "$LOGDIR/build.log" | tr '\t\n' '  ')" >> "$TSV"
	cat "$LOGDIR/build.log" >&2
	exit 1
fi
printf 'emu/build\tpass\tmlx5x-emu and unit tests, -Wall -Wextra -Werror\n' >> "$TSV"
run_suite emu "$HERE/build"

if [ "${MLX5X_EMU_ASAN:-1}" != 0 ]; then
	say "building the ASan/UBSan variant (make asan)"
	if nice make -s -C "$HERE" asan > "$LOGDIR/build-asan.log" 2>&1; then
		printf 'emu-asan/build\tpass\tAddressSanitizer + UBSan build\n' >> "$TSV"
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
			run_suite emu-asan "$HERE/build/asan"
	else
		printf 'emu-asan/build\tfail\t%s\n' "$(tail -n 3 "$LOGDIR/build-asan.log" | tr '\t\n' '  ')" >> "$TSV"
		rc=1
	fi
fi

pass=$(grep -cP '\tpass\t' "$TSV")
fail=$(grep -cP '\tfail\t' "$TSV")
skip=$(grep -cP '\tskip\t' "$TSV")
say "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] || { grep -P '\tfail\t' "$TSV" | sed 's/^/    FAIL /' >&2; rc=1; }
exit $rc
