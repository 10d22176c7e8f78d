# SPDX-License-Identifier: GPL-2.0
"""Layouts computed from C sources at test time (no table of offsets).

Two readers:
  ifc_structs(text)   the kernel's mlx5_ifc.h: `struct mlx5_ifc_X_bits`
                      whose members are `u8 name[0xN]` (N bits), nested
                      ifc structs/unions and anonymous unions/structs;
                      offsets and sizes in bits.
  c_structs(text)     plain C structs of device.h/qp.h (u8, __be16,
                      __be32, __be64, arrays, unions, bitfields); offsets
                      and sizes in bits too, so one Field type serves both.

A Layout maps a dotted member path to a Field(bit offset, bit width).
"""
import re
from collections import namedtuple

Field = namedtuple('Field', 'off width')


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    # preprocessor lines (a #define may hold braces)
    text = re.sub(r'^\s*#[^\n]*(\\\n[^\n]*)*', ' ', text, flags=re.M)
    return text


def _fold(expr, consts):
    expr = re.sub(r'\b([A-Za-z_]\w*)\b',
                  lambda m: str(consts.get(m.group(1), m.group(1))), expr)
    expr = re.sub(r'(?<=[0-9a-fA-F])[uUlL]+\b', '', expr)
    return int(eval(expr, {'__builtins__': {}}))


def define_consts(raw):
    """Object-like #defines of the (comment-free) text that fold to an
    integer; run before the preprocessor lines are dropped."""
    consts = {}
    raw = raw.replace('\\\n', ' ')
    for name, val in re.findall(r'^\s*#\s*define\s+([A-Za-z_]\w*)[ \t]+(.+)$',
                                raw, flags=re.M):
        try:
            consts[name] = _fold(val, consts)
        except Exception:   # not an integer constant
            pass
    return consts


def enum_consts(text, consts=None):
    """Enumerators of the text (values that fold to an integer)."""
    consts = dict(consts or {})
    for body in re.findall(r'\benum\s*\w*\s*\{(.*?)\}', text, flags=re.S):
        nxt = 0
        for ent in body.split(','):
            ent = ent.strip()
            if not ent:
                continue
            name, _, val = ent.partition('=')
            name = name.strip()
            if val.strip():
                try:
                    nxt = _fold(val, consts)
                except Exception:   # not a plain integer: not a size
                    continue
            consts[name] = nxt
            nxt += 1
    return consts


def tokens(text):
    return re.findall(r'[A-Za-z_]\w*|0[xX][0-9a-fA-F]+|\d+|\S', text)


def cval(tok, consts):
    if tok in consts:
        return consts[tok]
    return int(tok, 0)


class Layout:
    """One struct or union: size in bits and its members by path."""

    def __init__(self, name, size, members):
        self.name = name
        self.size = size
        # path -> Field, in declaration order, nested paths included
        self.members = members

    def find(self, path):
        """A member by exact dotted path, or by its last component when
        that is unique in the whole (nested) layout.  Returns (path, Field)
        or raises KeyError with the reason."""
        if path in self.members:
            return path, self.members[path]
        hits = [p for p in self.members if p.split('.')[-1] == path]
        if len(hits) == 1:
            return hits[0], self.members[hits[0]]
        if not hits:
            raise KeyError('no member %s in %s' % (path, self.name))
        raise KeyError('%s is ambiguous in %s: %s' %
                       (path, self.name, ', '.join(hits)))


class _Parser:
    def __init__(self, toks, known, ifc):
        self.t = toks
        self.i = 0
        self.known = known      # name -> Layout (already parsed)
        self.ifc = ifc
        self.consts = {}

    def peek(self, k=0):
        return self.t[self.i + k] if self.i + k < len(self.t) else None

    def take(self, want=None):
        tok = self.t[self.i]
        if want is not None and tok != want:
            raise SyntaxError('expected %s, got %s at token %d' %
                              (want, tok, self.i))
        self.i += 1
        return tok

    def skip_attrs(self):
        while self.peek() in ('__packed', '__aligned', '__attribute__',
                              'const', 'volatile'):
            self.take()
            if self.peek() == '(':
                self.skip_parens()

    def skip_parens(self):
        depth = 0
        while True:
            tok = self.take()
            if tok == '(':
                depth += 1
            elif tok == ')':
                depth -= 1
                if depth == 0:
                    return

    def dims(self):
        n = 1
        flex = False
        while self.peek() == '[':
            self.take('[')
            if self.peek() == ']':
                flex = True
            else:
                expr = []
                while self.peek() != ']':
                    expr.append(self.take())
                n *= self.expr(expr)
            self.take(']')
        return (0 if flex else n), flex

    def expr(self, toks):
        s = ''.join(str(cval(x, self.consts)) if re.match(r'\w', x) else x
                    for x in toks)
        return int(eval(s, {'__builtins__': {}}))  # numbers and + * only

    C_TYPES = {'u8': 8, '__u8': 8, 'char': 8, 'u16': 16, '__be16': 16,
               '__u16': 16, 'u32': 32, '__be32': 32, '__u32': 32,
               'u64': 64, '__be64': 64, '__u64': 64, '__le32': 32,
               '__le16': 16, '__le64': 64}

    def body(self, is_union, prefix):
        """Members up to the closing brace: (size bits, members)."""
        members = {}
        off = 0
        size = 0
        bitpos = None   # C bitfield run: (unit start, unit bits, used)
        groups = 0      # open struct_group(name, ...): members as usual
        self.take('{')
        while self.peek() != '}':
            self.skip_attrs()
            tok = self.peek()
            if tok == 'struct_group':
                self.take()
                self.take('(')
                self.take()
                self.take(',')
                groups += 1
                continue
            if tok == ')' and groups:
                self.take()
                self.take(';')
                groups -= 1
                continue
            if tok in ('struct', 'union') and self.peek(1) in ('{',) or \
               tok in ('struct', 'union') and self.peek(1) not in ('{',) \
               and self.peek(2) == '{':
                # nested definition, named or anonymous
                kind = self.take()
                if self.peek() != '{':
                    self.take()     # a tag we do not need
                sub_size, sub = self.body(kind == 'union', '')
                self.skip_attrs()
                name = None
                if self.peek() != ';':
                    name = self.take()
                n, _ = self.dims()
                self.take(';')
                base = off if not is_union else 0
                pre = prefix + name + '.' if name else prefix
                if name:
                    members[prefix + name] = Field(base, sub_size * n)
                for p, f in sub.items():
                    members[pre + p] = Field(base + f.off, f.width)
                if is_union:
                    size = max(size, sub_size * n)
                else:
                    off += sub_size * n
                bitpos = None
                continue
            if tok == 'DECLARE_FLEX_ARRAY':
                self.skip_parens()
                self.take(';')
                continue
            if tok in ('struct', 'union'):
                self.take()
                tname = self.take()
                self.skip_attrs()
                name = self.take()
                n, _ = self.dims()
                self.take(';')
                lay = self.known.get(tname)
                if lay is None:
                    raise SyntaxError('%s used before it is defined' % tname)
                width = lay.size * n
                base = 0 if is_union else off
                members[prefix + name] = Field(base, width)
                for p, f in lay.members.items():
                    members[prefix + name + '.' + p] = Field(base + f.off,
                                                             f.width)
                if is_union:
                    size = max(size, width)
                else:
                    off += width
                bitpos = None
                continue
            # a scalar: u8 name[0xN] (ifc) or <ctype> name[N] / name:bits (C)
            ctype = self.take()
            name = self.take()
            if self.ifc:
                if ctype != 'u8':
                    raise SyntaxError('ifc member %s of type %s' %
                                      (name, ctype))
                n, _ = self.dims()
                width = n
            else:
                unit = self.C_TYPES.get(ctype)
                if unit is None:
                    raise SyntaxError('C type %s (member %s)' % (ctype, name))
                if self.peek() == ':':
                    self.take(':')
                    bits = cval(self.take(), self.consts)
                    self.take(';')
                    if bitpos is None or bitpos[2] + bits > bitpos[1]:
                        bitpos = [off, unit, 0]
                        off += unit
                        size = max(size, off)
                    members[prefix + name] = Field(bitpos[0] + bitpos[2],
                                                   bits)
                    bitpos[2] += bits
                    continue
                n, _ = self.dims()
                width = unit * n
                bitpos = None
            self.take(';')
            base = 0 if is_union else off
            members[prefix + name] = Field(base, width)
            if is_union:
                size = max(size, width)
            else:
                off += width
        self.take('}')
        return (size if is_union else max(size, off)), members

    def run(self, want):
        """Parse every top-level struct/union definition named by want()."""
        while self.peek() is not None:
            tok = self.take()
            if tok not in ('struct', 'union') or self.peek() is None:
                continue
            name = self.peek()
            if self.peek(1) != '{' or not want(name):
                continue
            self.take()
            start = self.i
            try:
                size, members = self.body(tok == 'union', '')
            except (SyntaxError, KeyError, ValueError, IndexError):
                if self.ifc:
                    raise
                # a C struct with types we do not model: not ours to check
                self.i = start
                continue
            self.known[name] = Layout(name, size, members)
        return self.known


def ifc_structs(text):
    """mlx5_ifc_fpga.h + mlx5_ifc.h (the order it includes them): {'qpc': Layout, ...} (the mlx5_ifc_ and _bits removed)."""
    defs = define_consts(re.sub(r'/\*.*?\*/', ' ', text, flags=re.S))
    text = strip_comments(text)
    p = _Parser(tokens(text), {}, ifc=True)
    p.consts = enum_consts(text, defs)
    p.run(lambda n: n.startswith('mlx5_ifc_'))
    out = {}
    for name, lay in p.known.items():
        short = re.sub(r'_bits$', '', name[len('mlx5_ifc_'):])
        lay.name = short
        out[short] = lay
    return out


def c_structs(text, names):
    """Plain C structs named in names (and those they embed)."""
    defs = define_consts(re.sub(r'/\*.*?\*/', ' ', text, flags=re.S))
    text = strip_comments(text)
    p = _Parser(tokens(text), {}, ifc=False)
    p.consts = enum_consts(text, defs)
    p.run(lambda n: True if names is None else n in names)
    return p.known

