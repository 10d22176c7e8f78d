#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make kunit`: run the driver's KUnit suites with the kernel's own
# tools/testing/kunit/kunit.py on UML, against the Debian linux-source of
# the kernel the VM rig uses.
#
# The pristine source tree is unpacked once into $MLX5X_CACHE/kunit/
# (linux-source.sh).  Each run works on a fresh hard-link copy of it
# ($MLX5X_CACHE/kunit/tree) with the driver grafted in: a symlink to this
# repository's driver directory, plus one line each in the hw/ Makefile and
# in drivers/infiniband/Kconfig (after "endif # !UML", since every hw/
# driver is sourced inside "if !UML").  Those two files are edited with
# sed -i, which replaces the file and so breaks the hard link; nothing is
# ever written in place into the copy, which would write through into the
# pristine tree.  The UML build directory $MLX5X_CACHE/kunit/build-um is
# kept between runs for incremental builds (cold: ~8-15 min of CPU; warm:
# ~20-30 s).
#
# Results: $MLX5X_RESULTS/kunit.tsv, one line per test case (parameterized
# cases: one per parameter) plus one for sparse on the driver directory.
# Exits non-zero if kunit.py does (a failed or crashed test, a build error,
# or no test run at all) or if any line failed.

set -uo pipefail

TOP=$(cd "$(dirname "$0")/../../.." && pwd)
HERE=$TOP/tools/testing/kunit
export MLX5X_CACHE=${MLX5X_CACHE:-/var/cache/mlx5x}
RESULTS=${MLX5X_RESULTS:-$TOP/build/results}
K=$MLX5X_CACHE/kunit
OUT=$TOP/build/kunit
DRV=drivers/infiniband/hw/mlx5x
TSV=$RESULTS/kunit.tsv
T0=$SECONDS
FAILS=0

# Debugging aids for the UML kernel on top of the driver's .kunitconfig
# (which stays arch-neutral): KASAN (UML supports it on x86_64) and lockdep.
# Changing this list makes the next run a cold build.
DEBUG_KCONFIG="CONFIG_DEBUG_KERNEL=y CONFIG_KASAN=y CONFIG_PROVE_LOCKING=y"

mkdir -p "$RESULTS" "$OUT" "$K"

log() { printf '[kunit %s +%ds] %s\n' "$(date +%T)" $((SECONDS - T0)) "$*"; }

result() {
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$TSV"
	[ "$2" != fail ] || FAILS=$((FAILS + 1))
}

host_deps() {
	"$TOP/tools/testing/host-deps.sh" gcc make flex bison bc libelf-dev libssl-dev python3 sparse
}

# graft SRC TREE: fresh hard-link copy of SRC with the driver grafted in.
graft() {
	local src=$1 tree=$2 f

	rm -rf "$tree"
	cp -al "$src" "$tree"
	ln -sfn "$TOP/$DRV" "$tree/$DRV"
	sed -i '$a obj-$(CONFIG_MLX5X_INFINIBAND)\t\t+= mlx5x/' \
		"$tree/drivers/infiniband/hw/Makefile"
	sed -i '/^endif # !UML/a source "drivers/infiniband/hw/mlx5x/Kconfig"' \
		"$tree/drivers/infiniband/Kconfig"
	grep -q 'hw/mlx5x/Kconfig' "$tree/drivers/infiniband/Kconfig" || {
		log "cannot graft: no 'endif # !UML' in drivers/infiniband/Kconfig"
		return 1
	}
	# The edited files are identical every run: give them back the pristine
	# mtimes so kbuild does not treat them as changed.
	for f in drivers/infiniband/hw/Makefile drivers/infiniband/Kconfig; do
		touch -r "$src/$f" "$tree/$f"
	done
}

# Print build progress while kunit.py (which is silent while building) runs.
progress() {
	local n

	while sleep 60; do
		n=$(find "$K/build-um" -name '*.o' 2>/dev/null | wc -l)
		log "still building: $n objects in build-um (a cold build has about 2000)"
	done
}

# json_to_tsv JSON: one line per leaf test case, named suite.case[.param].
json_to_tsv() {
	python3 - "$1" >> "$TSV" <<'EOF'
import json
import sys

STATUS = {"PASS": "pass", "SKIP": "skip"}


def walk(group, path):
    for case in group.get("test_cases", []):
        name = ".".join(path + [case["name"]])
        status = STATUS.get(case["status"], "fail")
        detail = "" if status == "pass" else case["status"]
        print(f"{name}\t{status}\t{detail}".replace("\n", " "))
    for sub in group.get("sub_groups", []):
        walk(sub, path + [sub["name"]])


with open(sys.argv[1]) as f:
    walk(json.load(f), [])
EOF
}

# sparse (C=2) on the driver directory of the UML build (objects exist).
run_sparse() {
	local tree=$1 slog=$OUT/sparse-um.log

	: > "$slog"
	MLX5X_SPARSE=sparse MLX5X_SPARSE_LOG=$slog \
		make -C "$tree" ARCH=um O="$K/build-um" C=2 \
		CHECK="$TOP/tools/testing/compat/sparse-wrap.sh" "$DRV/" \
		> "$OUT/sparse-um.build.log" 2>&1 || {
		result sparse-um fail "make exit $?: see $OUT/sparse-um.build.log"
		return
	}
	local n
	n=$(grep -c '  CHECK ' "$OUT/sparse-um.build.log")
	if [ "$n" -eq 0 ]; then
		result sparse-um fail "sparse did not run"
	elif [ -s "$slog" ]; then
		result sparse-um fail "$(head -n1 "$slog" | cut -c1-200)"
	else
		result sparse-um pass "C=2 on $n files: 0 findings"
	fi
}

main() {
	local src tree=$K/tree rc kargs=() opt ticker

	# One run at a time: the tree copy, the build dir and (for runs from
	# the same checkout) the logs and the results file are shared.
	exec 9>"$K/run.lock"
	flock -n 9 || { log "waiting for another make kunit run to finish"; flock 9; }
	: > "$TSV"

	host_deps || { result setup fail "cannot install host packages"; exit 1; }
	src=$("$HERE/linux-source.sh") || { result setup fail "no kernel source"; exit 1; }

	log "grafting $DRV into a hard-link copy of $(basename "$src")"
	graft "$src" "$tree" || { result graft fail "see log"; exit 1; }

	for opt in $DEBUG_KCONFIG; do
		kargs+=(--kconfig_add "$opt")
	done
	[ -f "$K/build-um/.config" ] || log "cold build: about 8 min of CPU on 2 cores (longer under load)"
	progress &
	ticker=$!
	rm -f "$OUT/kunit.json"
	log "kunit.py run --arch=um (log: $OUT/kunit.log)"
	(cd "$tree" && PYTHONDONTWRITEBYTECODE=1 nice -n 10 \
		python3 tools/testing/kunit/kunit.py run --arch=um \
		--build_dir="$K/build-um" --kunitconfig="$DRV" \
		--jobs="$(nproc)" --json="$OUT/kunit.json" "${kargs[@]}") \
		> "$OUT/kunit.log" 2>&1
	rc=$?
	kill "$ticker" 2>/dev/null
	wait "$ticker" 2>/dev/null
	grep -E '^\[[0-9:]+\] ' "$OUT/kunit.log" | grep -v '^\[[0-9:]*\] *$' | tail -n 40

	if [ -s "$OUT/kunit.json" ]; then
		json_to_tsv "$OUT/kunit.json" || result kunit-json fail "cannot parse $OUT/kunit.json"
	fi
	if [ $rc -ne 0 ]; then
		result kunit.py fail "exit $rc: $(grep -m1 -E 'ERROR|error:|Missing|FAILED|CRASHED' "$OUT/kunit.log" | cut -c1-200)"
	fi
	FAILS=$(grep -cP '\tfail\t' "$TSV")

	if [ $rc -eq 0 ]; then
		log "sparse C=2 on $DRV (UML build)"
		run_sparse "$tree"
	fi

	log "done: $(grep -cP '\tpass\t' "$TSV") passed, $FAILS failed, $(grep -cP '\tskip\t' "$TSV") skipped"
	[ $rc -eq 0 ] && [ "$FAILS" -eq 0 ]
}

main "$@"
