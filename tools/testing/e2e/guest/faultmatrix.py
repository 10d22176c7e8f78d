#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The fault matrix: every firmware command mlx5x sends, failed once.

    faultmatrix.py --pci BDF --ctl DIR [--results FILE] [--logs DIR]

BDF is an emulated function no driver is bound to, whose driver_override
says mlx5x (mlx5x loaded); DIR the request directory of its emulator
(--events-ctl: "fail", "census" and "state" requests, see
tools/testing/emu/src/fault.c).

First a clean run, the trace: bind, the fwdiff.py workload, unbind, with
the emulator's census of executed commands taken between the three
phases.  Every opcode a phase sent is then failed (bad parameter, a
syndrome of its own) at its first and at its last occurrence in that
phase, counting from the moment the fault is set, one entry at a time:

  probe     the bind fails with an errno, not bound, the driver's
            "cmd NAME(0xOP) ... failed" and "probe stage" lines name the
            command, nothing stays with the firmware.
  workload  the verb that sent it fails with EINVAL, the process exits
            without cleaning up (the kernel does), nothing more stays
            with the firmware than the bound device holds idle.
  teardown  the unbind completes, the driver logs the refused command,
            every page comes back; a refused DESTROY/DEALLOC leaves its
            object (and the objects it holds, which the firmware will not
            free under it) with the firmware, which frees them at
            TEARDOWN_HCA (the emulator counts them dropped).

Every entry also wants no WARNING/BUG/oops in the kernel log and the
device working afterwards: the next bind succeeds, and the next workload
runs until its own fault (the matrix ends with a clean bind, the whole
workload and an unbind).  A probe command whose failure mlx5x tolerates
by design (TOLERATED) must leave the device bound and working instead.

One result line per entry, faults/matrix/NAME/N/PHASE, and a summary line
faults/matrix with the matrix size; figures to /job/perf.tsv.
"""
import argparse
import errno
import faulthandler
import os
import re
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwdiff  # noqa: E402  (the workload; imports pyverbs once)
from pyverbs.pyverbs_error import PyverbsError  # noqa: E402

STATUS = 0x3                    # bad parameter: EINVAL for mlx5x
STATUS_NAME = 'bad parameter'
SYNDROME = 0x0fa17ed0
DRV = '/sys/bus/pci/drivers/mlx5x'
BAD_KMSG = re.compile(r'WARNING:|BUG:|Oops|Call Trace|general protection|'
                      r'UBSAN|KASAN|refcount_t|list_(add|del) corruption')
# Probe failures mlx5x survives by design: the line it logs, and why.
TOLERATED = (
    (re.compile(r': no board id \(QUERY_ADAPTER: -22\)$'),
     'the board id is cosmetic'),
    (re.compile(r': no UMR QP \(-22\): rereg makes new keys$'),
     'UMR is optional: without it rereg makes new keys'),
)
# Workload commands no verb of the workload reports when they fail, why,
# and the objects the failure leaves with the firmware until TEARDOWN_HCA.
WORKLOAD_TOLERATED = {
    # libibverbs reads the port's sysfs attributes (state, rate: the vport
    # context, PTYS) when it lists the devices, before the context opens;
    # a failed read is skipped
    'ACCESS_REG': ('a sysfs read of libibverbs, skipped', 0),
    'QUERY_HCA_VPORT_CONTEXT': ('a sysfs read of libibverbs, skipped', 0),
    # destroying a QP moves it to RESET first, best effort, as mlx5_ib does
    '2RST_QP': ("the destroy's move to RESET, best effort", 0),
    # a context's UARs go at its close, which cannot fail
    'DEALLOC_UAR': ('at the context close, which cannot fail: the UAR '
                    'stays with the firmware', 1),
    # ib_core cannot take a refused dealloc of a domain opened without a
    # file (it counts it in use again), so mlx5x drops it
    'DEALLOC_XRCD': ('refused domain dropped by mlx5x: it stays with the '
                     'firmware', 1),
}
# Entries not run: open bugs the matrix found, which would also leave a
# WARNING in the kernel log (and objects behind) for the lane's check.
KNOWN = {
    # ib_core's rereg: mlx5x returns a new MR (new key); the old key's
    # refused DESTROY_MKEY leaves the old MR's uobject half assigned, its
    # PD in use (dealloc PD: EBUSY) and __uverbs_cleanup_ufile() warns
    ('DESTROY_MKEY', 1, 'workload'):
        "refused DESTROY_MKEY of the old key in rereg: ib_core warns",
    # the XRC target QP's refused destroy: ib_core's shared QP is gone for
    # the user, the real QP keeps its XRC domain in use (EBUSY), the
    # ufile cleanup warns and the QP stays until TEARDOWN_HCA
    ('DESTROY_QP', 1, 'workload'):
        'refused DESTROY_QP of an XRC target QP: ib_core warns',
    # the kernel UMR queue's refused destroy at unbind: its CQ (or the QP
    # on it) stays published in the HCA's table, as a refused destroy of
    # a verbs CQ does, and the table's teardown warns about the entry
    ('DESTROY_CQ', 1, 'teardown'):
        "refused DESTROY_CQ of the UMR queue's CQ: the CQ table warns",
    ('DESTROY_QP', 1, 'teardown'):
        "refused DESTROY_QP of the UMR QP: its CQ stays, the CQ table warns",
}
# printk's per call site limit (DEFAULT_RATELIMIT_INTERVAL/_BURST): the
# driver's command-failure line is rate limited, as mlx5_core's is
RL_INTERVAL_US, RL_BURST = 5000000, 10
# Commands whose failure mlx5x leaves to the caller to report, unlogged:
# a refused CQ resize is an ordinary outcome of ibv_resize_cq.
QUIET = ('MODIFY_CQ',)
# A refused teardown destroy leaves its object with the firmware until
# TEARDOWN_HCA frees the function's resources, and with it the objects it
# holds (the firmware refuses to free those under it): one or more.
DROPS_ONE = ('DESTROY_', 'DEALLOC_')


class Emu:
    """The emulator's request channel (tools/testing/emu/README.rst)."""

    def __init__(self, ctl):
        self.ctl = ctl
        self.seq = 0
        self.opcodes = {}       # name -> number, from the census

    def path(self, name):
        return os.path.join(self.ctl, name)

    def drop(self, name):
        """Remove a file the emulator replaces, before it does: a file
        renamed over from the host side, never removed by the guest, can
        leave the guest's 9p client waiting on the old inode."""
        try:
            os.unlink(self.path(name))
        except FileNotFoundError:
            pass

    def read(self, name):
        try:
            fd = os.open(self.path(name), os.O_RDONLY)
        except FileNotFoundError:
            return ''
        try:
            return os.read(fd, 65536).decode()
        finally:
            os.close(fd)

    def req(self, word, arg=''):
        self.seq += 1
        self.drop('ack')
        tmp = self.path('req.tmp')
        with open(tmp, 'w') as f:
            f.write('%d %s %s\n' % (self.seq, word, arg))
        os.rename(tmp, self.path('req'))
        end = time.monotonic() + 30
        while time.monotonic() < end:
            ack = self.read('ack').strip()
            seq, _, rest = ack.partition(' ')
            if seq == str(self.seq):
                ok, _, detail = rest.partition(' ')
                if ok != 'ok':
                    raise RuntimeError('%s %s: %s' % (word, arg, detail))
                return detail
            time.sleep(0.02)
        raise RuntimeError('%s %s: no answer in 30 s' % (word, arg))

    def census(self):
        self.drop('census')
        self.req('census')
        counts = {}
        for line in self.read('census').splitlines():
            name, op, n = line.split()
            counts[name] = int(n)
            self.opcodes[name] = int(op, 16)
        return counts

    def state(self):
        d = self.req('state')
        v = dict(kv.split('=', 1) for kv in d.split() if '=' in kv)
        return {'live': int(v['live_objects']), 'pages': int(v['pages_held']),
                'fired': d.endswith(' fired'), 'text': d}


class Kmsg:
    """The kernel log from a mark on (/dev/kmsg, one record a read)."""

    def __init__(self):
        self.fd = os.open('/dev/kmsg', os.O_RDONLY | os.O_NONBLOCK)
        os.lseek(self.fd, 0, os.SEEK_END)
        self.cmd_fail_us = []   # when each command-failure line came

    def new(self):
        lines = []
        while True:
            try:
                rec = os.read(self.fd, 8192).decode(errors='replace')
            except BlockingIOError:
                return lines
            except BrokenPipeError:     # overwritten: go on from there
                continue
            head, _, msg = rec.partition(';')
            msg = msg.split('\n', 1)[0]
            if ') op_mod 0x' in msg and 'failed: status' in msg:
                self.cmd_fail_us.append(int(head.split(',')[2]))
            lines.append(msg)

    def rate_limited(self):
        """The last rate-limit interval saw a burst of failure lines: the
        kernel may have dropped the next one."""
        if not self.cmd_fail_us:
            return False
        now = int(open('/proc/uptime').read().split()[0].replace('.', '')) * 10000
        recent = [u for u in self.cmd_fail_us if now - u < 2 * RL_INTERVAL_US]
        return len(recent) >= RL_BURST


def diff(after, before):
    return {k: n - before.get(k, 0) for k, n in after.items()
            if n > before.get(k, 0)}


def sysfs_write(path, value, tmo=120):
    """Write to sysfs from a thread: a hung probe must not hang us."""
    res = {}

    def run():
        # one write(2): a buffered file whose flush failed writes again
        # when it is freed, which would bind a second time
        fd = os.open(path, os.O_WRONLY)
        try:
            os.write(fd, value.encode())
            res['err'] = 0
        except OSError as ex:
            res['err'] = ex.errno
        finally:
            os.close(fd)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(tmo)
    if t.is_alive():
        raise RuntimeError('write of %s to %s hung for %d s: %s' %
                           (value, path, tmo, kernel_stack(t.native_id)))
    return res['err']


def kernel_stack(tid):
    """Where a hung thread waits in the kernel, on one line."""
    try:
        with open('/proc/self/task/%d/stack' % tid) as f:
            return ' < '.join(x.split()[-1] for x in f.read().splitlines()[:8])
    except OSError as ex:
        return 'no stack (%s)' % ex.strerror


class Matrix:
    def __init__(self, a):
        self.pci = a.pci
        self.emu = Emu(a.ctl)
        self.kmsg = Kmsg()
        self.results = a.results
        self.logs = a.logs
        self.lines = []
        self.quiet = None       # state with no driver bound
        self.idle = None        # state of the bound device, idle
        self.dev = None
        self.drops = 0          # objects refused destroys left, by design
        self.times = {'probe': 0.0, 'workload': 0.0, 'teardown': 0.0}
        self.carry = 0          # by-design drops not yet seen at an unbind

    # --- the device ------------------------------------------------------

    def bound(self):
        return os.path.exists(os.path.join(DRV, self.pci))

    def bind(self):
        print('faultmatrix: bind', flush=True)
        return sysfs_write(os.path.join(DRV, 'bind'), self.pci)

    def unbind(self):
        print('faultmatrix: unbind', flush=True)
        return sysfs_write(os.path.join(DRV, 'unbind'), self.pci)

    def wait_ready(self, tmo=60):
        """The RDMA device of the function, its port ACTIVE; its name."""
        d = '/sys/bus/pci/devices/%s/infiniband' % self.pci
        end = time.monotonic() + tmo
        while time.monotonic() < end:
            try:
                name = os.listdir(d)[0]
                with open('/sys/class/infiniband/%s/ports/1/state' % name) as f:
                    if 'ACTIVE' in f.read():
                        return name
            except (OSError, IndexError):
                pass
            time.sleep(0.1)
        return None

    def workload(self, tag):
        """fwdiff.py's workload in a child that exits on the first error
        without cleaning up; (errno or 0, last lines of its output)."""
        log = os.path.join(self.logs, 'faults-matrix-%s.log' % tag)
        rd, wr = os.pipe()
        pid = os.fork()
        if not pid:
            os.close(rd)
            fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            code = 0
            try:
                fwdiff.Workload(self.dev, 1).run()
            except PyverbsError as ex:
                print('verb failed: %s' % ex, flush=True)
                code = getattr(ex, 'error_code', 0) or errno.EPROTO
            except Exception as ex:     # anything else is a test bug
                print('workload error: %r' % ex, flush=True)
                code = 255
            os.write(wr, b'%d' % code)
            os._exit(0)
        os.close(wr)
        out = b''
        end = time.monotonic() + 180
        while time.monotonic() < end:
            r, _ = os.waitpid(pid, os.WNOHANG)
            if r:
                break
            time.sleep(0.05)
        else:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            os.close(rd)
            return -1, 'workload hung for 180 s'
        out = os.read(rd, 16)
        os.close(rd)
        with open(log) as f:
            tail = [x.strip() for x in f if x.strip()][-1:]
        return int(out or b'-1'), ' '.join(tail)[:160]

    # --- the trace --------------------------------------------------------

    def trace(self):
        """A clean bind, workload and unbind: what each phase sends."""
        c0 = self.emu.census()
        err = self.bind()
        if err:
            raise RuntimeError('clean bind failed: %s' % os.strerror(err))
        c1 = self.emu.census()
        self.dev = self.wait_ready()
        if not self.dev:
            raise RuntimeError('no RDMA device with an active port in 60 s')
        c2 = self.emu.census()
        self.idle = self.emu.state()
        rc, tail = self.workload('trace')
        if rc:
            raise RuntimeError('clean workload failed: %s' % tail)
        c3 = self.emu.census()
        self.unbind()
        c4 = self.emu.census()
        self.quiet = self.emu.state()
        if self.quiet['live'] or self.quiet['pages']:
            raise RuntimeError('clean run left %s' % self.quiet['text'])
        late = diff(c2, c1)
        if late:
            # commands after the probe returned: in no phase, not failed
            print('faultmatrix: commands between probe and workload: %s' % late)
        return {'probe': diff(c1, c0), 'workload': diff(c3, c2),
                'teardown': diff(c4, c3)}

    # --- one entry --------------------------------------------------------

    def arm(self, op, nth):
        print('faultmatrix: fail %s %d' % (op, nth), flush=True)
        self.kmsg.new()
        self.emu.req('fail', '%s %d 0x%x 0x%x' % (op, nth, STATUS, SYNDROME))

    def kernel_checks(self, op, bad):
        """The driver's line naming the command; no WARN, BUG or oops."""
        lines = self.kmsg.new()
        want = ('mlx5x %s: cmd ' % self.pci,
                '(0x%x) op_mod 0x' % self.emu.opcodes[op],
                'failed: status %s(0x%x), syndrome 0x%08x' %
                (STATUS_NAME, STATUS, SYNDROME))
        named = [x for x in lines if all(w in x for w in want)]
        if not named and op not in QUIET and not self.kmsg.rate_limited():
            bad.append("no 'cmd %s ... failed: status %s' line" % (op, STATUS_NAME))
        for x in lines:
            if BAD_KMSG.search(x):
                bad.append('kernel: ' + x[:120])
                break
        return lines

    def leaks(self, st, ref, bad, drop=0, more=False):
        """The emulator holds @drop objects more than @ref (at least that
        many with @more) and as many pages."""
        dl, dp = st['live'] - ref['live'], st['pages'] - ref['pages']
        if (dl < drop if more else dl != drop) or dp:
            bad.append('emulator: %+d objects%s, %+d pages' %
                       (dl, ' (want %s%+d)' % ('>= ' if more else '', drop)
                        if drop else '', dp))
        return dl

    def fired(self, st, bad):
        if not st['fired']:
            bad.append('the fault never fired (%s)' % st['text'])

    def probe(self, op, nth):
        bad = []
        self.arm(op, nth)
        err = self.bind()
        st = self.emu.state()
        self.fired(st, bad)
        lines = self.kernel_checks(op, bad)
        if self.bound():
            why = [w for r, w in TOLERATED if any(r.search(x) for x in lines)]
            if not why:
                bad.append('bound although %s failed' % op)
            self.unbind()
            what = 'bound, tolerated: ' + '; '.join(why)
        else:
            stage = [x for x in lines if 'probe stage' in x]
            if not err:
                bad.append('bind returned no error')
            if not stage:
                bad.append("no 'probe stage ... failed' line")
            what = 'bind: %s; %s' % (os.strerror(err) if err else 'ok',
                                     stage[0].split(': ', 1)[-1] if stage else '?')
        self.quiescent(bad)
        return bad, what

    def workload_entry(self, op, nth):
        bad = []
        self.arm(op, nth)
        rc, tail = self.workload('%s-%d' % (op, nth))
        st = self.emu.state()
        self.fired(st, bad)
        self.kernel_checks(op, bad)
        why, drop = WORKLOAD_TOLERATED.get(op, (None, 0))
        if rc == errno.EINVAL:
            what, drop = 'verb: %s' % os.strerror(rc), 0
        elif rc == -1 and 'Failed to query' in tail:
            # libibverbs answers its sysfs-backed queries (GID, P_Key)
            # with -1, the read's errno not passed on by pyverbs
            what, drop = 'verb: -1 (%s)' % tail.split(': ')[-1], 0
        elif not rc and why:
            what = 'tolerated: %s' % why
            self.carry += drop
        else:
            what = ''
            bad.append('workload: %s, want EINVAL (%s)' %
                       (os.strerror(rc) if rc > 0 else 'rc %d' % rc, tail))
        self.leaks(st, self.idle, bad, drop)
        self.idle = st
        return bad, what

    def teardown(self, op, nth):
        bad = []
        self.arm(op, nth)
        self.unbind()
        self.fired(self.emu.state(), bad)
        self.kernel_checks(op, bad)
        if self.bound():
            bad.append('still bound after unbind')
        drop = 1 if op.startswith(DROPS_ONE) else 0
        n = self.quiescent(bad, drop)
        return bad, 'unbound%s' % ('; %d objects left for TEARDOWN_HCA' % n
                                    if drop else '')

    def try_bind(self):
        err = self.bind()
        if err:
            return 'bind failed: %s' % os.strerror(err)
        self.dev = self.wait_ready()
        if not self.dev:
            return 'no RDMA device with an active port in 60 s'
        self.idle = self.emu.state()
        return None

    def quiescent(self, bad, drop=0):
        """No driver bound: the emulator holds what it held the last time,
        plus what refused destroys left by design since (a refused destroy
        at unbind: its object, and those it holds, which the firmware
        refuses to free under it); how many that were."""
        st = self.emu.state()
        n = self.leaks(st, self.quiet, bad, drop + self.carry, drop > 0)
        self.drops += max(n, 0)
        self.carry = 0
        self.quiet = st
        return n

    def clean_bind(self):
        """The device works after what came before: bind, RDMA device.
        If not, a function reset (firmware back to power-on) may bring it
        back for the rest of the matrix; (problem, whether it stays)."""
        broken = self.try_bind()
        if not broken:
            return None, False
        if self.bound():
            self.unbind()
        err = sysfs_write('/sys/bus/pci/devices/%s/reset' % self.pci, '1')
        # what the reset dropped counts from here
        self.quiet = self.emu.state()
        if err:
            return broken + '; function reset: %s' % os.strerror(err), True
        again = self.try_bind()
        if again:
            return broken + '; after a function reset: ' + again, True
        return broken + ' (a function reset brought it back)', False

    # --- results ------------------------------------------------------------

    def record(self, name, bad, what):
        """One result line; @bad: the failed expectations, None: skipped."""
        st = 'skip' if bad is None else 'fail' if bad else 'pass'
        det = '; '.join(bad) if bad else what
        det = det.replace('\t', ' ').replace('\n', ' ')
        line = '%s\t%s\t%s' % (name, st, det)
        self.lines.append(line)
        with open(self.results, 'a') as f:
            f.write(line + '\n')
        print('faultmatrix: %s: %s (%s)' % (st, name, det), flush=True)

    def settle(self, entries, broken):
        """Record entries once the next bind said whether the device still
        works after them."""
        for name, bad, what in entries:
            if broken and bad is not None:
                bad.append('afterwards: ' + broken)
            self.record(name, bad, what)

    def timed(self, phase, fn, op, n):
        name = 'faults/matrix/%s/%d/%s' % (op, n, phase)
        if (op, n, phase) in KNOWN:
            return (name, None, 'known: ' + KNOWN[(op, n, phase)])
        t = time.monotonic()
        bad, what = fn(op, n)
        self.times[phase] += time.monotonic() - t
        return ('faults/matrix/%s/%d/%s' % (op, n, phase), bad, what)

    def run(self):
        t0 = time.monotonic()
        phases = self.trace()
        t_trace = time.monotonic() - t0
        ent = {p: [(op, n) for op in sorted(c) for n in sorted({1, c[op]})]
               for p, c in phases.items()}
        # one cycle: a probe entry, a clean bind, workload entries, a
        # teardown entry (or a clean unbind)
        ncyc = max(len(ent['probe']), len(ent['teardown']), 1)
        per = -(-len(ent['workload']) // ncyc)
        pending = []            # entries whose "works afterwards" is open
        broken = None
        for i in range(ncyc):
            if i < len(ent['probe']):
                pending.append(self.timed('probe', self.probe,
                                          *ent['probe'][i]))
            broken, fatal = self.clean_bind()
            self.settle(pending, broken)
            pending = []
            if fatal:
                break
            broken = None
            for op, n in ent['workload'][i * per:(i + 1) * per]:
                pending.append(self.timed('workload', self.workload_entry,
                                          op, n))
            if i < len(ent['teardown']):
                pending.append(self.timed('teardown', self.teardown,
                                          *ent['teardown'][i]))
                continue
            self.unbind()
            bad = []
            self.quiescent(bad)
            for _, b, _ in pending:
                if b is not None:
                    b.extend('at the unbind after it: ' + x for x in bad)
        if not broken:
            broken = self.final(pending)
        self.summary(ent, phases, t0, t_trace, broken)

    def final(self, pending):
        """After the matrix: bind, the whole workload, unbind."""
        bad = []
        broken, fatal = self.clean_bind()
        self.settle(pending, broken)
        if broken:
            bad.append(broken)
        if not fatal:
            rc, tail = self.workload('after')
            if rc:
                bad.append('workload failed: %s' % tail)
            self.unbind()
            self.quiescent(bad)
        self.record('faults/matrix/after', bad,
                    'bind, the whole workload, unbind: ok')
        return broken if fatal else None

    def summary(self, ent, phases, t0, t_trace, broken):
        wall = time.monotonic() - t0
        n = len(self.lines)
        fails = sum(1 for x in self.lines if '\tfail\t' in x)
        size = ', '.join('%s %d opcodes -> %d' % (p, len(phases[p]), len(ent[p]))
                         for p in ('probe', 'workload', 'teardown'))
        total = sum(len(e) for e in ent.values())
        skips = sum(1 for x in self.lines if '\tskip\t' in x)
        what = ('%d entries (opcode x first/last occurrence x phase: %s), '
                '%d known and not run; %d objects dropped by design; %.0f s'
                % (total, size, skips, self.drops, wall))
        bad = []
        if fails:
            bad.append('%d of %d lines failed' % (fails, n))
        if broken:
            bad.append('stopped after %d of %d entries: %s' %
                       (n - 1, total, broken))
        if bad:
            bad.append(what)
        self.record('faults/matrix', bad, 'all passed: ' + what)
        with open('/job/perf.tsv', 'a') as f:
            for k, v in (('wall', wall), ('trace', t_trace)) + tuple(
                    ('%s-entries' % p, self.times[p]) for p in self.times):
                f.write('faults/matrix\t%s\t%.1f\ts\n' % (k, v))
            f.write('faults/matrix\tentries\t%d\tcount\n' % total)
        with open('/job/faults.env', 'a') as f:
            f.write('MATRIX_DROPPED=%d\n' % self.drops)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--pci', required=True)
    ap.add_argument('--ctl', required=True)
    ap.add_argument('--results', default='/job/results.tsv')
    ap.add_argument('--logs', default='/job/logs')
    a = ap.parse_args()
    # a hang shows where: every thread's stack every 5 min
    faulthandler.dump_traceback_later(300, repeat=True)
    m = Matrix(a)
    try:
        m.run()
    except RuntimeError as ex:
        m.record('faults/matrix', [str(ex)], '')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
