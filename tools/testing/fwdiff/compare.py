#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the firmware command streams of upstream mlx5 and mlx5x.

    compare.py UPSTREAM_FTRACE MLX5X_FTRACE [--allow allow.txt]
               [--tsv OUT.tsv] [--md OUT.md]

Each input is the emulator's field trace (--ftrace, see
tools/testing/emu/src/ftrace.c) of one lane: the bring-up and the
workload of tools/testing/e2e/guest/fwdiff.py, up to its end marker.
The workload's start marker (--start, the command of its first SRQ
limit) splits each trace in two phases: what comes before it (the
driver's bring-up, its kernel-internal objects, the user context) forms
groups named "bringup:<opcode>", the workload's commands plain
"<opcode>" groups, so that the drivers' own objects do not blur the
comparison of what the workload asked for (the UMR QP, which upstream
makes on first use, is compared in whichever phase it appears, and so
are the keys of mlx5_ib's MR cache, group "cache:CREATE_MKEY").

Commands are grouped by (opcode, op_mod, QP service type for QP
commands); for every field of a group the set of values each driver sent
is compared after normalisation: object numbers, keys, addresses, page
counts and sizes that depend on where memory happened to be become a
class ("0" stays "0", anything else "#"), so that only choices a driver
makes remain.  A group one driver never sends is a difference too.

Every difference must be in the allow-list (allow.txt) with its reason;
one that is not fails.  An allow-list entry that matches nothing passes
with a note to drop it.
"""
import argparse
import fnmatch
import re
import sys

# qpc.st / emulator QP service types, for readable group names
ST = {0x0: 'RC', 0x1: 'UC', 0x2: 'UD', 0x3: 'XRC', 0x4: 'MLX', 0x5: 'DCI',
      0x6: 'DCT', 0x7: 'QP0', 0x8: 'QP1', 0xc: 'REG_UMR'}

# Values that name an object, a key or an address: only zero or not.
OBJ = re.compile(r'(^|\.)(qpn|input_qpn|remote_qpn|deth_sqpn|cqn|cqn_snd|'
                 r'cqn_rcv|srqn|rmpn|srqn_rmpn_xrqn|pd|xrcd|uar|uar_page|'
                 r'eq_number|c_eqn|mkey_index|mkey_7_0|qpn|user_index|uid|'
                 r'dbr_addr|start_addr|rgid_rip|rlid|sw_owner_id|'
                 r'system_image_guid|port_guid|node_guid|function_id)$')
# Values that follow from where and how memory was allocated.
MEM = re.compile(r'(^|\.)(inlen|log_page_size|page_offset|log_pg_sz|'
                 r'input_num_entries|translations_actual|'
                 r'translations_octword_size)$')


def norm(field, value):
    if OBJ.search(field):
        return '0' if re.fullmatch(r'(0x)?0+', value) else '#'
    if MEM.search(field):
        return '*'
    return value


def mr_cache_key(kv):
    """A key of mlx5_ib's MR cache: an MTT key created free with umr_en
    and no translations, for UMR to load later.  The cache fills (and
    refills) from a work queue whenever its pools run low, at bring-up
    or amid the workload, so such keys are compared as a group of their
    own ("cache:CREATE_MKEY") in whichever phase they come."""
    return kv.get('mkc.free') == '0x1' and kv.get('mkc.umr_en') == '0x1' \
        and kv.get('mkc.access_mode_1_0') == '0x1' \
        and int(kv.get('translations_actual', '0'), 16) == 0


def parse(path, start):
    """{group: {field: set(values)}}, started, ended (bools)"""
    groups = {}
    started = ended = False
    s_op, s_field, s_val = start
    for line in open(path, errors='replace'):
        if line.startswith('end: '):
            ended = True
            break
        kv = dict(t.split('=', 1) for t in line.split() if '=' in t)
        if 'op' not in kv:
            continue
        if not started and kv['op'] == s_op and s_field in kv and \
           int(kv[s_field], 16) == s_val:
            started = True
            continue
        op, op_mod = kv.pop('op'), kv.pop('op_mod')
        st = kv.pop('qp.st', None)
        if op == 'CREATE_QP':
            st = kv.get('qpc.st')
        key = op if started else 'bringup:' + op
        if st is not None:
            key += '/' + ST.get(int(st, 16), st)
            # Each driver has one UMR QP, made at bring-up or on first
            # use: compared wherever it was made.
            if ST.get(int(st, 16)) == 'REG_UMR':
                key = key.replace('bringup:', '')
        if op == 'CREATE_MKEY' and mr_cache_key(kv):
            key = 'cache:' + op
        g = groups.setdefault((key, op_mod), {})
        g.setdefault('(command)', set()).add('issued')
        for f, v in kv.items():
            g.setdefault(f, set()).add(norm(f, v))
    return groups, started, ended


def load_allow(path):
    rules = []
    if not path:
        return rules
    for ln, line in enumerate(open(path), 1):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        parts = line.split(None, 3)
        if len(parts) < 4:
            raise SystemExit('%s:%d: want "GROUP OP_MOD FIELD reason"' %
                             (path, ln))
        rules.append({'group': parts[0], 'op_mod': parts[1],
                      'field': parts[2], 'reason': parts[3], 'line': ln,
                      'used': 0})
    return rules


def allowed(rules, group, op_mod, field):
    for r in rules:
        if fnmatch.fnmatchcase(group, r['group']) and \
           fnmatch.fnmatchcase(op_mod, r['op_mod']) and \
           fnmatch.fnmatchcase(field, r['field']):
            r['used'] += 1
            return r
    return None


def fmt(values):
    return '{' + ','.join(sorted(values)) + '}' if values else '(not sent)'


def diff(up, x):
    """[(group, op_mod, field, upstream values, mlx5x values)]"""
    out = []
    for gk in sorted(set(up) | set(x)):
        gu, gx = up.get(gk, {}), x.get(gk, {})
        if not gu or not gx:
            out.append((gk[0], gk[1], '(command)',
                        gu.get('(command)', set()),
                        gx.get('(command)', set())))
            continue
        for f in sorted(set(gu) | set(gx)):
            vu, vx = gu.get(f, set()), gx.get(f, set())
            if vu != vx:
                out.append((gk[0], gk[1], f, vu, vx))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('upstream')
    ap.add_argument('mlx5x')
    ap.add_argument('--allow')
    ap.add_argument('--start', default='MODIFY_RMP:rmpc.wq.lwm=0x1a4',
                    help='OP:FIELD=VALUE of the workload\'s first command')
    ap.add_argument('--tsv')
    ap.add_argument('--md')
    a = ap.parse_args()

    lines = []
    traces = {}
    s_op, rest = a.start.split(':', 1)
    s_field, s_val = rest.split('=', 1)
    start = (s_op, s_field, int(s_val, 0))
    for name, path in (('upstream', a.upstream), ('mlx5x', a.mlx5x)):
        try:
            traces[name] = parse(path, start)
        except OSError as err:
            lines.append('fwdiff/trace-%s\tfail\tno field trace: %s' %
                         (name, err))
            continue
        if not traces[name][1]:
            lines.append('fwdiff/trace-%s\tfail\t%s: the workload\'s start '
                         'marker (%s) is not in the trace' % (name, path,
                                                             a.start))
        elif not traces[name][2]:
            lines.append('fwdiff/trace-%s\tfail\t%s: the workload\'s end '
                         'marker never reached the emulator' % (name, path))
        else:
            lines.append('fwdiff/trace-%s\tpass\t%d command groups up to '
                         'the end marker' % (name, len(traces[name][0])))
    if len(traces) < 2:
        return finish(a, lines, [], [])

    rules = load_allow(a.allow)
    diffs = diff(traces['upstream'][0], traces['mlx5x'][0])
    rows = []
    for group, op_mod, field, vu, vx in diffs:
        r = allowed(rules, group, op_mod, field)
        det = 'upstream %s, mlx5x %s' % (fmt(vu), fmt(vx))
        name = 'fwdiff/%s/%s/%s' % (group, op_mod, field)
        if r:
            lines.append('%s\tskip\tallowed: %s | %s' % (name, r['reason'],
                                                          det))
        else:
            lines.append('%s\tfail\tnot in the allow-list | %s' % (name, det))
        rows.append((group, op_mod, field, fmt(vu), fmt(vx),
                     r['reason'] if r else 'NOT ALLOWED'))
    for r in rules:
        if not r['used']:
            lines.append('fwdiff/allow-line-%d\tpass\tallow-list entry "%s %s '
                         '%s" matches no difference now: drop it' %
                         (r['line'], r['group'], r['op_mod'], r['field']))
    nfail = sum('\tfail\t' in ln for ln in lines)
    lines.append('fwdiff/summary\t%s\t%d differences: %d allowed, %d not' % (
        'fail' if nfail else 'pass', len(diffs),
        sum(1 for r in rows if r[5] != 'NOT ALLOWED'),
        sum(1 for r in rows if r[5] == 'NOT ALLOWED')))
    return finish(a, lines, rows, diffs)


def finish(a, lines, rows, diffs):
    if a.tsv:
        with open(a.tsv, 'a') as f:
            f.write('\n'.join(lines) + '\n')
    if a.md:
        with open(a.md, 'w') as f:
            f.write('# Firmware commands: mlx5x against upstream mlx5\n\n')
            f.write('%d differences (values normalised: object numbers, '
                    'keys and addresses as 0 or #, memory layout as *).\n\n'
                    % len(diffs))
            f.write('| command | op_mod | field | upstream | mlx5x | reason |\n')
            f.write('|---|---|---|---|---|---|\n')
            for r in rows:
                f.write('| %s |\n' % ' | '.join(x.replace('|', '\\|')
                                                for x in r))
    # Failures, notes and the summary; the allowed differences are in
    # the tsv and the md table.
    for ln in lines:
        if '\tfail\t' in ln or 'drop it' in ln or \
           ln.startswith('fwdiff/summary'):
            print(ln.replace('\t', '  '))
    return 1 if any('\tfail\t' in ln for ln in lines) else 0


if __name__ == '__main__':
    sys.exit(main())
