#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The report of `make bench`: bench.md, bench.json and bench-*.png.

Inputs (the job dir of tools/testing/e2e/bench.sh):
  bench.tsv   round TAB driver TAB metric TAB value TAB unit (the guest's)
  marks.tsv   N TAB phase name TAB trace line count (the host's stamps)
  emu.out     the emulator's counter reports, two per mark (SIGUSR1)
  emu.log     the emulator's command trace (fn0: upstream, fn1: mlx5x)
  ops.tsv     round TAB driver TAB ctl metric TAB operations (the guest's)
The emulator's figures of a phase are the differences of its counters and
the trace lines between the phase's mark and the next one.
"""
import argparse
import json
import re
import statistics
import sys
from pathlib import Path

DRIVERS = ("upstream", "mlx5x")
FN = {"upstream": "fn0", "mlx5x": "fn1"}

# metric prefix -> (section, chart, higher is better)
SECTIONS = [
    ("probe_", "bring-up and teardown", "bringup", False),
    ("remove_", "bring-up and teardown", "bringup", False),
    ("ctl_", "control path (ops/s; p1: one process, p4: four)", "ctl", True),
    ("evlat_", "event path", "event", False),
    ("rc_pingpong_e", "event path", "event", False),
    ("send_lat_e", "event path", "event", False),
    ("send_lat", "data path", "data", False),
    ("write_bw", "data path", "data", True),
    ("read_lat", "data path", "data", False),
    ("emu_", "the instrument (emulator's own cost)", "emu", False),
]


def section_of(metric):
    if metric.endswith("_fw_cmds_per_op"):
        return ("control path: firmware commands per operation (the whole run's,"
                " set-up included)", "ctlcmds", False)
    for pre, title, chart, higher in SECTIONS:
        if metric.startswith(pre):
            return title, chart, higher
    return "other", "other", False


def parse_reports(text):
    """The emulator's key=value reports in order, each a dict."""
    reps, cur = [], None
    for line in text.splitlines():
        if line == "emu=mlx5x-emu":
            cur = {}
            reps.append(cur)
        elif cur is not None and "=" in line:
            k, v = line.split("=", 1)
            cur[k] = v
    return reps


def num(d, k):
    try:
        return float(d.get(k, "nan"))
    except ValueError:
        return float("nan")


TRACE_RE = re.compile(r"^\[\s*[0-9.]+\] (fn\d) info: cmd slot=\d+ op=\S+ .* (\d+)us")


def trace_cmds(lines, a, b, tag):
    """(count, device microseconds) of tag's commands in lines[a:b]."""
    n, us = 0, 0
    for line in lines[a:b]:
        m = TRACE_RE.match(line)
        if m and m.group(1) == tag:
            n += 1
            us += int(m.group(2))
    return n, us


def emu_figures(job):
    """Per-phase figures from the marks, counter snapshots and trace."""
    out = []
    marks_f, rep_f, log_f = job / "marks.tsv", job / "emu.out", job / "emu.log"
    if not (marks_f.exists() and rep_f.exists() and log_f.exists()):
        return out
    marks = []
    for line in marks_f.read_text().splitlines():
        f = line.split("\t")
        if len(f) == 3:
            marks.append((int(f[0]), f[1], int(f[2])))
    reps = parse_reports(rep_f.read_text(errors="replace"))
    by_guid = {}
    for r in reps:
        by_guid.setdefault(r.get("guid"), []).append(r)
    guids = sorted(by_guid)
    snaps = {d: by_guid[g] for d, g in zip(DRIVERS, guids)} if len(guids) == 2 else {}
    lines = log_f.read_text(errors="replace").splitlines()
    all_us = {d: [] for d in DRIVERS}
    for line in lines:
        m = TRACE_RE.match(line)
        if m:
            for d in DRIVERS:
                if FN[d] == m.group(1):
                    all_us[d].append(int(m.group(2)))
    for d in DRIVERS:
        if all_us[d]:
            out.append(("all", d, "emu_cmd_device_us_median",
                        statistics.median(all_us[d]), "us"))
    ops = {}
    if (job / "ops.tsv").exists():
        for line in (job / "ops.tsv").read_text().splitlines():
            f = line.split("\t")
            if len(f) == 4 and f[3].isdigit():
                ops[(f[0], f[1], f[2])] = int(f[3])
    for i, (n, name, ln) in enumerate(marks[:-1]):
        f = name.split()
        if len(f) != 3 or f[1] not in DRIVERS:
            continue
        rnd, d, phase = f
        nxt = marks[i + 1]
        cnt, us = trace_cmds(lines, ln, nxt[2], FN[d])
        s = snaps.get(d, [])
        a = s[n] if n < len(s) else None
        b = s[nxt[0]] if nxt[0] < len(s) else None
        if phase.startswith("ctl_") and a and b and ops.get((rnd, d, phase)):
            # commands of the figure's whole run (set-up included) per op
            out.append((rnd, d, phase + "_fw_cmds_per_op",
                        (num(b, "cmds") - num(a, "cmds")) / ops[(rnd, d, phase)],
                        "commands/op"))
        if phase in ("probe", "remove"):
            out.append((rnd, d, phase + "_fw_cmds", cnt, "commands"))
            out.append((rnd, d, phase + "_fw_device_ms", us / 1000.0, "ms"))
        elif phase == "evlat" and a and b:
            ev = num(b, "eng_cq_events") - num(a, "eng_cq_events")
            irq = num(b, "msix_fired") - num(a, "msix_fired")
            eqes = ev + num(b, "cmd_eqes") - num(a, "cmd_eqes") + \
                num(b, "eng_async_events") - num(a, "eng_async_events")
            arms = num(b, "cq_arms") - num(a, "cq_arms")
            if irq > 0:
                out.append((rnd, d, "evlat_emu_eqes_per_msix", eqes / irq, "EQE/MSI-X"))
            if ev > 0:
                out.append((rnd, d, "evlat_emu_msix_per_cq_event", irq / ev, "MSI-X/event"))
                out.append((rnd, d, "evlat_emu_arms_per_cq_event", arms / ev, "arm/event"))
    return out


def read_figures(job):
    rows = []
    f = job / "bench.tsv"
    if f.exists():
        for line in f.read_text().splitlines():
            p = line.split("\t")
            if len(p) != 5:
                continue
            try:
                rows.append((p[0], p[1], p[2], float(p[3]), p[4]))
            except ValueError:
                continue
    return rows + emu_figures(job)


def aggregate(rows):
    """[{metric, driver, median, min, max, unit, n, ratio}], first-seen order."""
    vals, units, order = {}, {}, []
    for _rnd, d, m, v, u in rows:
        if m not in units:
            order.append(m)
        units[m] = u
        vals.setdefault((m, d), []).append(float(v))
    res = []
    for m in order:
        med = {d: statistics.median(vals[(m, d)]) for d in DRIVERS if (m, d) in vals}
        ratio = None
        if len(med) == 2 and med["upstream"]:
            ratio = med["mlx5x"] / med["upstream"]
        for d in DRIVERS:
            if (m, d) not in vals:
                continue
            v = vals[(m, d)]
            title, chart, higher = section_of(m)
            res.append({"metric": m, "driver": d, "median": med[d], "min": min(v),
                        "max": max(v), "unit": units[m], "n": len(v),
                        "ratio": ratio, "section": title, "chart": chart,
                        "higher_is_better": higher})
    return res


def fmt(x):
    if x is None:
        return "-"
    a = abs(x)
    if a >= 1000:
        return "%.0f" % x
    if a >= 100:
        return "%.1f" % x
    if a >= 1:
        return "%.2f" % x
    return "%.3f" % x


def markdown(agg, meta):
    out = ["# make bench: upstream mlx5_core+mlx5_ib and mlx5x on one emulator", ""]
    out += [meta, ""]
    out += ["Median [min, max] over the rounds on each driver; ratio = median mlx5x /"
            " median upstream (above 1 is better for ops/s and MiB/s, below 1 for times"
            " and counts).  Figures only: TCG, a loaded host; compare the drivers of"
            " one run.", ""]
    by = {}
    for e in agg:
        by.setdefault(e["section"], {}).setdefault(e["metric"], {})[e["driver"]] = e
    order = list(dict.fromkeys(t for _p, t, _c, _h in SECTIONS))
    for sec in sorted(by, key=lambda t: order.index(t) if t in order else
                      (order.index(SECTIONS[2][1]) + 0.5 if "control" in t else 99)):
        out += ["## " + sec, "",
                "| metric | unit | upstream | mlx5x | mlx5x/upstream | n |",
                "|---|---|---|---|---|---|"]
        for m, ds in by[sec].items():
            cells = []
            for d in DRIVERS:
                e = ds.get(d)
                cells.append("%s [%s, %s]" % (fmt(e["median"]), fmt(e["min"]), fmt(e["max"]))
                             if e else "-")
            e = next(iter(ds.values()))
            ns = "/".join(str(ds[d]["n"]) if d in ds else "0" for d in DRIVERS)
            out.append("| %s | %s | %s | %s | %s | %s |" % (
                m, e["unit"], cells[0], cells[1], fmt(e["ratio"]), ns))
        out.append("")
    return "\n".join(out)


def charts(agg, outdir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    made = []
    groups = {}
    for e in agg:
        groups.setdefault(e["chart"], []).append(e)
    for chart, es in groups.items():
        metrics = list(dict.fromkeys(e["metric"] for e in es))
        fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(metrics) + 2), 4.5))
        w = 0.4
        for k, d in enumerate(DRIVERS):
            xs, ys, lo, hi, labels = [], [], [], [], []
            for i, m in enumerate(metrics):
                e = next((x for x in es if x["metric"] == m and x["driver"] == d), None)
                if not e:
                    continue
                # bars relative to upstream's median: one scale for all units
                base = next((x["median"] for x in es if x["metric"] == m and
                             x["driver"] == "upstream"), None) or e["median"] or 1
                xs.append(i + (k - 0.5) * w)
                ys.append(e["median"] / base)
                lo.append((e["median"] - e["min"]) / base)
                hi.append((e["max"] - e["median"]) / base)
                labels.append(fmt(e["median"]))
            ax.bar(xs, ys, w, yerr=[lo, hi], capsize=3, label=d,
                   color=("tab:blue", "tab:orange")[k])
            # the absolute median (in the metric's unit) on each bar
            for x, y, h, t in zip(xs, ys, hi, labels):
                ax.text(x, y + h, t, ha="center", va="bottom", fontsize=6,
                        rotation=90)
        tops = [e["max"] / b for e in es for b in [next(
            (x["median"] for x in es if x["metric"] == e["metric"] and
             x["driver"] == "upstream"), None) or e["median"] or 1]]
        bottoms = [e["min"] / (e["median"] or 1) for e in es if e["min"] > 0]
        if max(tops, default=1) > 8 or min(bottoms, default=1) < 0.1:
            ax.set_yscale("log")  # ratios of 50, spreads of 100
        ax.set_xticks(range(len(metrics)))
        units = {e["metric"]: e["unit"] for e in es}
        ax.set_xticklabels(["%s (%s)" % (m, units[m]) for m in metrics],
                           rotation=35, ha="right", fontsize=7)
        ax.set_ylabel("median / upstream median (bars: min..max)")
        ax.axhline(1.0, color="grey", lw=0.5)
        ax.set_title("make bench: " + chart)
        ax.legend()
        fig.tight_layout()
        p = outdir / ("bench-%s.png" % chart)
        fig.savefig(p, dpi=90)
        plt.close(fig)
        made.append(p.name)
    return made


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--job", required=True, type=Path)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--host", default="")
    ap.add_argument("--wall", default="")
    ap.add_argument("--load-start", default="")
    ap.add_argument("--no-charts", action="store_true")
    a = ap.parse_args()
    rows = read_figures(a.job)
    if not rows:
        print("bench: no figures in %s" % a.job, file=sys.stderr)
        return 1
    agg = aggregate(rows)
    rounds = len({r for r, *_ in rows if r != "all"})
    meta = ("QEMU TCG (no KVM), guest 2 vCPUs, one emulator process serving both "
            "functions (same build, same options: --port self, --trace); %d rounds, "
            "workloads alternating upstream, mlx5x.  Host: %s%s; bench wall %s s.  "
            "rxe is not measured (a boot of its own, no emulated hardware)."
            % (rounds, a.host, ", load average %s at the start" % a.load_start
               if a.load_start else "", a.wall or "?"))
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / "bench.json").write_text(json.dumps(
        {"meta": meta, "drivers": list(DRIVERS), "figures": agg}, indent=1) + "\n")
    md = markdown(agg, meta)
    if not a.no_charts:
        md += "\nCharts: " + ", ".join(charts(agg, a.out)) + "\n"
    (a.out / "bench.md").write_text(md)
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
