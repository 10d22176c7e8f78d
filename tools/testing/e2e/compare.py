#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Side-by-side comparison of two e2e lanes of one run.

    compare.py [--check] [--md FILE] [--tsv FILE] REF LANE

REF and LANE are lane names (rxe-full, upstream-full, mlx5x-full): their
job directories build/e2e/NAME/ hold pyverbs-tests.tsv (one line per
pyverbs test: id, status, message) and perf.tsv (test, metric, value,
unit).  Writes a markdown table (per pyverbs module pass / fail+error /
skip for each lane, then the perftest and pingpong figures) and, with
--check, one result line for make check:

  the tests both lanes ran (skipped by neither) are counted; LANE must
  pass at least as many of them as REF, and every test REF passes that
  LANE ran but did not pass is named in the detail.

Figures are never asserted: TCG timing depends on host load.
"""

import argparse
import collections
import os
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))


def read_tsv(path, ncols):
    rows = []
    if not os.path.exists(path):
        return None
    with open(path) as f:
        for line in f:
            cols = line.rstrip('\n').split('\t')
            if len(cols) >= ncols:
                rows.append(cols)
    return rows


def lane_dir(name):
    return os.path.join(os.environ.get('MLX5X_E2E_DIR',
                                       os.path.join(TOP, 'build', 'e2e')),
                        name)


def load(name):
    """{test id: status} of the lane's pyverbs tests, and its figures."""
    rows = read_tsv(os.path.join(lane_dir(name), 'pyverbs-tests.tsv'), 2)
    perf = read_tsv(os.path.join(lane_dir(name), 'perf.tsv'), 4) or []
    tests = None if rows is None else {r[0]: r[1] for r in rows}
    return tests, perf


def module_counts(tests):
    counts = collections.defaultdict(lambda: [0, 0, 0])
    for tid, st in tests.items():
        mod = tid.split('.')[0]
        if st == 'pass':
            counts[mod][0] += 1
        elif st in ('fail', 'error'):
            counts[mod][1] += 1
        else:
            counts[mod][2] += 1
    return counts


def module_table(ref, lane, rt, lt):
    rc, lc = module_counts(rt), module_counts(lt)
    out = ['| module | %s pass/fail+err/skip | %s pass/fail+err/skip |'
           % (ref, lane), '|---|---|---|']
    tot = [[0, 0, 0], [0, 0, 0]]
    for mod in sorted(set(rc) | set(lc)):
        cells = []
        for i, c in enumerate((rc, lc)):
            if mod in c:
                cells.append('%d/%d/%d' % tuple(c[mod]))
                tot[i] = [a + b for a, b in zip(tot[i], c[mod])]
            else:
                cells.append('-')
        out.append('| %s | %s | %s |' % (mod, cells[0], cells[1]))
    out.append('| **total** | %d/%d/%d | %d/%d/%d |'
               % (tuple(tot[0]) + tuple(tot[1])))
    return out


def ran(st):
    return st in ('pass', 'fail', 'error')


def both_ran(rt, lt):
    common = [t for t in rt if t in lt and ran(rt[t]) and ran(lt[t])]
    rp = sum(rt[t] == 'pass' for t in common)
    lp = sum(lt[t] == 'pass' for t in common)
    lost = sorted(t for t in common if rt[t] == 'pass' and lt[t] != 'pass')
    only_ref = sorted(t for t in rt if rt[t] == 'pass' and
                      (t not in lt or not ran(lt[t])))
    only_lane = sorted(t for t in lt if lt[t] == 'pass' and
                       (t not in rt or not ran(rt[t])))
    return common, rp, lp, lost, only_ref, only_lane


def perf_table(ref, lane, rp, lp):
    vals = collections.OrderedDict()
    for i, rows in enumerate((rp, lp)):
        for test, metric, value, unit in (r[:4] for r in rows):
            vals.setdefault((test, metric, unit), ['-', '-'])[i] = value
    out = ['| test | metric | %s | %s | unit |' % (ref, lane),
           '|---|---|---|---|---|']
    for (test, metric, unit), (a, b) in sorted(vals.items()):
        out.append('| %s | %s | %s | %s | %s |' % (test, metric, a, b, unit))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--md')
    ap.add_argument('--tsv')
    ap.add_argument('ref')
    ap.add_argument('lane')
    args = ap.parse_args()
    name = 'compare/%s-vs-%s' % (args.lane, args.ref)
    (rt, rperf), (lt, lperf) = load(args.ref), load(args.lane)
    if rt is None or lt is None:
        missing = args.ref if rt is None else args.lane
        line = '%s\tfail\tno pyverbs results of lane %s (%s)\n' % (
            name, missing, lane_dir(missing))
        if args.tsv:
            open(args.tsv, 'a').write(line)
        sys.stderr.write(line)
        return 1
    common, rp, lp, lost, only_ref, only_lane = both_ran(rt, lt)
    md = ['# %s vs %s' % (args.lane, args.ref), '']
    md += module_table(args.ref, args.lane, rt, lt)
    md += ['', 'Tests both lanes ran (skipped by neither): %d; %s passes %d, '
           '%s passes %d.' % (len(common), args.ref, rp, args.lane, lp)]
    if lost:
        md += ['', 'Passed on %s, not on %s:' % (args.ref, args.lane), '']
        md += ['- ' + t for t in lost]
    md += ['', 'Passed on %s only (the other skipped it): %d; on %s only: %d.'
           % (args.ref, len(only_ref), args.lane, len(only_lane))]
    for title, ids in (('only ' + args.ref, only_ref),
                       ('only ' + args.lane, only_lane)):
        if ids:
            md += ['', '<details><summary>%s</summary>' % title, '']
            md += ['- ' + t for t in ids]
            md += ['', '</details>']
    md += ['', 'Figures (one run, TCG: compare lanes of the same run only):',
           '']
    md += perf_table(args.ref, args.lane, rperf, lperf)
    text = '\n'.join(md) + '\n'
    if args.md:
        with open(args.md, 'w') as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    ok = lp >= rp
    detail = 'both ran %d: %s passes %d, %s passes %d' % (
        len(common), args.lane, lp, args.ref, rp)
    if lost:
        detail += '; passed on %s only: %s' % (args.ref, ', '.join(lost))
    print('%s: %s' % (name, detail))
    if args.check and args.tsv:
        with open(args.tsv, 'a') as f:
            f.write('%s\t%s\t%s\n' % (name, 'pass' if ok else 'fail',
                                      detail))
    return 0 if ok or not args.check else 1


if __name__ == '__main__':
    sys.exit(main())
