#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check step bench-report: the generator of `make bench`'s report on
# a canned job dir (testdata/; no VM).  Checks the structure and the
# arithmetic, never a real figure: medians, min/max, the ratio, the
# emulator's per-phase figures cut by the marks, and the markdown rows.
# Results: $MLX5X_RESULTS/bench-report.tsv.

set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../../../.." && pwd)
RESULTS=${MLX5X_RESULTS:-$TOP/build/results}
TSV=$RESULTS/bench-report.tsv
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
mkdir -p "$RESULTS"
: > "$TSV"

if ! python3 "$HERE/report.py" --job "$HERE/testdata" --out "$OUT" --no-charts \
	--host test --wall 1 > "$OUT/stdout" 2>&1; then
	printf 'bench-report/run\tfail\t%s\n' "$(tail -n 2 "$OUT/stdout" | tr '\n\t' '  ')" >> "$TSV"
	exit 1
fi
python3 - "$OUT" >> "$TSV" <<'PY'
import json, sys
out = sys.argv[1]
res = []
def check(name, ok, detail):
    res.append("bench-report/%s\t%s\t%s" % (name, "pass" if ok else "fail", detail))
j = json.load(open(out + "/bench.json"))
figs = j["figures"]
keys = {"metric", "driver", "median", "min", "max", "unit", "ratio"}
check("json-keys", all(keys <= set(f) for f in figs),
      "%d figures, each with %s" % (len(figs), ", ".join(sorted(keys))))
check("spread", all(f["min"] <= f["median"] <= f["max"] for f in figs),
      "min <= median <= max")
get = {(f["metric"], f["driver"]): f for f in figs}
cq = get.get(("ctl_cq_p1", "mlx5x")), get.get(("ctl_cq_p1", "upstream"))
check("median-ratio", cq[0] and cq[1] and cq[0]["median"] == 290 and cq[1]["median"] == 110
      and abs(cq[0]["ratio"] - 290 / 110) < 1e-9 and cq[1]["min"] == 100 and cq[1]["max"] == 120,
      "ctl_cq_p1: medians 110 and 290 of three rounds, ratio 2.636")
one = get.get(("only_upstream", "upstream"))
check("one-driver", one and one["ratio"] is None and ("only_upstream", "mlx5x") not in get,
      "a metric of one driver has no ratio")
check("bad-line", not any(f["metric"] == "bad_line" for f in figs), "a non-numeric figure is dropped")
p = get.get(("probe_fw_cmds", "upstream")), get.get(("probe_fw_device_ms", "upstream"))
check("trace-phase", p[0] and p[0]["median"] == 3 and p[1] and abs(p[1]["median"] - 1.0) < 1e-9
      and ("probe_fw_cmds", "mlx5x") not in get,
      "probe phase: fn0's 3 commands, 1.0 ms between its marks; fn1's not counted")
e = get.get(("evlat_emu_eqes_per_msix", "upstream")), get.get(("evlat_emu_msix_per_cq_event", "upstream"))
check("counter-phase", e[0] and e[0]["median"] == 2 and e[1] and e[1]["median"] == 0.5,
      "evlat phase: 10 CQ events, 5 MSI-X from the snapshots of its marks")
c = get.get(("ctl_cq_p1_fw_cmds_per_op", "upstream"))
check("ops-phase", c and c["median"] == 1.0 and c["unit"] == "commands/op",
      "ctl_cq_p1: 3 commands between its marks over 3 operations")
md = open(out + "/bench.md").read()
rows = [l for l in md.splitlines() if l.startswith("| ") and not l.startswith("| metric")]
check("markdown", len(rows) == len({f["metric"] for f in figs})
      and "| ctl_cq_p1 | ops/s | 110.0 [100.0, 120.0] | 290.0 [280.0, 300.0] | 2.64 | 3/3 |" in md,
      "%d rows, one per metric, median [min, max] per driver" % len(rows))
print("\n".join(res))
PY
! grep -qP '\tfail\t' "$TSV"
