#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check every offset, mask and length of include/mlx5x against the
kernel's own layout definitions.

    check.py --src LINUX_SOURCE [--tsv OUT] [--map ifc-map.txt]

Our layouts are ours (include/mlx5x/prm_*.h).  The kernel describes the
same device in include/linux/mlx5/mlx5_ifc.h (`u8 name[0xN]` members, N
bits each) and, for queue entries the firmware does not own (WQEs, CQEs,
EQEs, the initialization segment), in plain C structs of device.h and
qp.h.  Both are read here at test time and their layouts computed; the
map file (ifc-map.txt) says which kernel member each of our definitions
describes.  Each definition is checked by its suffix:

  _OFF   the byte offset of the 32-bit word holding the field (fields
         with a _MASK, or narrower than a word), or of its first byte
         (64-bit fields, arrays, nested structures);
  _MASK  exactly the field's bits in that word once in host order
         (C structs: inside the member's bytes, the C member being the
         whole byte/word the bitfield lives in);
  _LEN   the size of the structure.

One TSV line per definition: pass, fail (a mismatch, or no mapping at
all) or skip (no counterpart in the kernel, with the map file's reason).
"""
import argparse
import fnmatch
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layouts  # noqa: E402

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '../../..'))
SUFFIXES = ('_OFF', '_MASK', '_LEN')


def our_defs(incdir):
    """{name: (value, file)} of every constant of include/mlx5x."""
    vals, where = {}, {}
    pending = []
    for fn in sorted(os.listdir(incdir)):
        if not fn.endswith('.h'):
            continue
        text = open(os.path.join(incdir, fn)).read()
        text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
        for name, val in re.findall(
                r'^\s*#\s*define\s+(MLX5X_\w+)[ \t]+(\S[^\n]*)$', text,
                flags=re.M):
            pending.append((name, val, fn))
        for body in re.findall(r'\benum\s*\w*\s*\{(.*?)\}', text, flags=re.S):
            nxt = 0
            for ent in body.split(','):
                name, _, val = ent.strip().partition('=')
                name = name.strip()
                if not name:
                    continue
                pending.append((name, val.strip() or str(nxt), fn))
                try:
                    nxt = layouts._fold(val or str(nxt), vals) + 1
                except Exception:
                    nxt += 1
    for _ in range(3):      # definitions may refer to later ones
        for name, val, fn in pending:
            if name in vals:
                continue
            try:
                vals[name] = layouts._fold(val, vals)
                where[name] = fn
            except Exception:
                pass
    return {n: (vals[n], where[n]) for n in vals if n.endswith(SUFFIXES)}


class Map:
    """ifc-map.txt: area, map and none lines."""

    def __init__(self, path):
        self.areas = []     # (prefix, target)
        self.maps = {}      # name -> target
        self.nones = []     # (glob, reason)
        for ln, line in enumerate(open(path), 1):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            kind, _, rest = line.partition(' ')
            rest = rest.strip()
            if kind == 'area':
                prefix, target = rest.split()
                self.areas.append((prefix, target))
            elif kind == 'map':
                name, target = rest.split()
                self.maps[name] = target
            elif kind == 'none':
                glob, _, reason = rest.partition(' ')
                self.nones.append((glob, reason.strip()))
            else:
                raise SystemExit('%s:%d: unknown line kind %s' %
                                 (path, ln, kind))
        self.areas.sort(key=lambda a: -len(a[0]))

    def resolve(self, name):
        """('map', target) | ('none', reason) | (None, why)."""
        if name in self.maps:
            return 'map', self.maps[name]
        for glob, reason in self.nones:
            if fnmatch.fnmatchcase(name, glob):
                return 'none', reason
        for prefix, target in self.areas:
            if name.startswith(prefix):
                stem = name[len(prefix):]
                for suf in SUFFIXES:
                    if stem.endswith(suf):
                        stem = stem[:-len(suf)]
                        break
                if name == prefix + 'LEN':
                    return 'map', target
                stem = stem.lower()
                return 'map', target + '.' + stem
        return None, 'not in ifc-map.txt'


def word_mask(f):
    """The field's bits in its 32-bit word, host order; None if it
    straddles words or is wider than one."""
    shift = 32 - (f.off % 32) - f.width
    if f.width > 32 or shift < 0:
        return None
    return ((1 << f.width) - 1) << shift


class Checker:
    def __init__(self, ifc, cstructs, defs):
        self.ifc = ifc
        self.c = cstructs
        self.defs = defs

    def lookup(self, target):
        """target 'struct.path' or 'c:struct.path' -> (desc, Field, is_c)"""
        is_c = target.startswith('c:')
        if is_c:
            target = target[2:]
        sname, _, path = target.partition('.')
        table = self.c if is_c else self.ifc
        lay = table.get(sname)
        if lay is None:
            raise KeyError('no struct %s in %s' %
                           (sname, 'device.h/qp.h' if is_c else 'mlx5_ifc.h'))
        if not path:
            return sname, layouts.Field(0, lay.size), is_c, True
        full, f = lay.find(path)
        return sname + '.' + full, f, is_c, False

    def check(self, name, value, target):
        """(ok, detail).  A _LEN target may end in :off (the member's
        offset: a header length), :end (offset + size) or :log2 (ours is
        the log2 of the size)."""
        how = ''
        for suffix in (':off', ':end', ':log2'):
            if target.endswith(suffix):
                target, how = target[:-len(suffix)], suffix[1:]
        parts = target.split('+')
        fields = [self.lookup(t) for t in parts]
        desc = '+'.join(d for d, _, _, _ in fields)
        if name.endswith('_LEN'):
            d, f, _, _ = fields[0]
            if how == 'off':        # a header: the bytes before a member
                size, what = f.off // 8, 'offset'
            elif how == 'end':      # the bytes up to a member's end
                size, what = (f.off + f.width) // 8, 'end'
            else:
                size, what = f.width // 8, 'size'
            if how == 'log2':
                return (1 << value == size,
                        '%s: %d bytes, ours 1 << %d' % (d, size, value))
            return (value == size and f.width % 8 == 0,
                    '%s: %s %d bytes (0x%x), ours 0x%x' %
                    (d, what, size, size, value))
        if name.endswith('_OFF'):
            d, f, is_c, _ = fields[0]
            has_mask = name[:-4] + '_MASK' in self.defs
            word = f.off // 32 * 4
            if is_c and f.width < 32 and f.off % 8 == 0 and \
               value == f.off // 8:
                # a byte or halfword member addressed by itself
                return True, '%s: byte 0x%x width %d, ours 0x%x' % (
                    d, f.off // 8, f.width, value)
            if has_mask or (f.width < 32 and f.off % 8) or \
               (not is_c and f.width < 32 and word_mask(f) is not None and
                value == word):
                ok = value == word
                what = 'word 0x%x' % word
            else:
                ok = f.off % 8 == 0 and value == f.off // 8
                what = 'byte 0x%x' % (f.off // 8)
            return ok, '%s: bit 0x%x width %d -> %s, ours 0x%x' % (
                d, f.off, f.width, what, value)
        # _MASK
        want = 0
        words = set()
        for d, f, is_c, _ in fields:
            m = word_mask(f)
            if m is None:
                return False, '%s: bit 0x%x width %d is no field of one ' \
                    '32-bit word, ours 0x%x' % (d, f.off, f.width, value)
            want |= m
            words.add(f.off // 32)
        if len(words) != 1:
            return False, '%s: fields in different words' % desc
        if any(is_c for _, _, is_c, _ in fields):
            ok = value != 0 and value & ~want == 0
            f = fields[0][1]
            pair = self.defs.get(name[:-5] + '_OFF')
            if not ok and pair and pair[0] == f.off // 8 and \
               value < (1 << f.width):
                # the mask of a byte member addressed by itself
                return True, '%s: mask 0x%x inside the %d-bit member at ' \
                    'byte 0x%x' % (desc, value, f.width, f.off // 8)
            return ok, '%s: member bits 0x%08x, ours 0x%08x (inside)' % (
                desc, want, value)
        return value == want, '%s: 0x%08x, ours 0x%08x' % (desc, want, value)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--src', required=True, help='kernel source tree')
    ap.add_argument('--tsv')
    ap.add_argument('--map', default=os.path.join(os.path.dirname(
        os.path.abspath(__file__)), 'ifc-map.txt'))
    ap.add_argument('--include', default=os.path.join(TOP, 'include/mlx5x'))
    ap.add_argument('-v', action='store_true', help='print every line')
    a = ap.parse_args()

    m5 = os.path.join(a.src, 'include/linux/mlx5')
    ifc = layouts.ifc_structs(open(os.path.join(m5, 'mlx5_ifc_fpga.h')).read()
                              + open(os.path.join(m5, 'mlx5_ifc.h')).read())
    cst = layouts.c_structs(open(os.path.join(m5, 'device.h')).read() +
                            open(os.path.join(m5, 'qp.h')).read(), None)
    defs = our_defs(a.include)
    mp = Map(a.map)
    chk = Checker(ifc, cst, defs)

    lines = []
    n = {'pass': 0, 'fail': 0, 'skip': 0}
    for name in sorted(defs):
        value, fn = defs[name]
        kind, target = mp.resolve(name)
        if kind == 'none':
            st, det = 'skip', 'no counterpart: ' + target
        elif kind is None:
            st, det = 'fail', '%s (%s): %s' % (fn, hex(value), target)
        else:
            try:
                ok, det = chk.check(name, value, target)
                st = 'pass' if ok else 'fail'
            except KeyError as e:
                st, det = 'fail', 'map %s: %s' % (target, e.args[0])
        n[st] += 1
        lines.append('ifc/%s\t%s\t%s' % (name, st, det))
    lines.append('ifc/summary\t%s\t%d definitions: %d checked (%d match, '
                 '%d mismatch or unmapped), %d without counterpart' % (
                     'pass' if not n['fail'] else 'fail', len(defs),
                     n['pass'] + n['fail'], n['pass'], n['fail'], n['skip']))
    if a.tsv:
        with open(a.tsv, 'a') as f:
            f.write('\n'.join(lines) + '\n')
    for line in lines:
        if a.v or '\tfail\t' in line or line.startswith('ifc/summary'):
            print(line.replace('\t', '  '))
    return 1 if n['fail'] else 0


if __name__ == '__main__':
    sys.exit(main())
