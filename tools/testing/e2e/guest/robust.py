# SPDX-License-Identifier: GPL-2.0
"""Robustness checks of the mlx5x lane that need verbs objects (pyverbs).

    robust.py mmap DEV          mmap() of the uverbs file: what must be refused
    robust.py cq-overrun DEV    a CQ overrun reaches user space as CQ_ERR
    robust.py srq DEV           SRQ requests and changes that must be refused
    robust.py rereg-umr DEV     in-place re-registrations past the UMR rings
    robust.py rereg-readonly DEV  a read-only pin never becomes writable
    robust.py lost DEV          a context held across the loss of its
                                device: DEVICE_FATAL, then verbs fail

Prints one result line per check, "name TAB pass|fail TAB detail", for
guest/robust.sh to record.  A check that cannot reach its verdict (the
process dies, a blocking call never returns) prints nothing for it, and the
shell side records that as a failure.
"""

import ctypes
import errno
import mmap
import os
import sys

from pyverbs.addr import AHAttr
from pyverbs.cq import CQ
from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.pyverbs_error import PyverbsRDMAError
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
from pyverbs.srq import SRQ, SrqAttr, SrqInitAttr
from pyverbs.wr import SGE, RecvWR, SendWR
import pyverbs.enums as e

PG = mmap.PAGESIZE
# mlx5 mmap page offsets: command in bits 15:8; mlx5x serves only its UAR
# entries, at commands 9..255 (page offsets 0x900..0xffff).
CMD_SHIFT = 8


def result(name, ok, detail):
    print('%s\t%s\t%s' % (name, 'pass' if ok else 'fail', detail), flush=True)


def uverbs_mappings():
    """(fd, [page offsets]) of this process's uverbs file and its mappings."""
    fd = None
    for f in os.listdir('/proc/self/fd'):
        try:
            if os.readlink('/proc/self/fd/' + f).startswith('/dev/infiniband/uverbs'):
                fd = int(f)
        except OSError:
            pass
    pgoffs = []
    with open('/proc/self/maps') as maps:
        for line in maps:
            cols = line.split()
            if len(cols) >= 6 and cols[5].startswith('/dev/infiniband/uverbs'):
                pgoffs.append(int(cols[2], 16) // PG)
    return fd, pgoffs


def check_mmap(dev):
    ctx = Context(name=dev)
    pd = PD(ctx)
    cq = CQ(ctx, 4)   # libmlx5 maps its UAR by the first CQ at the latest
    fd, pgoffs = uverbs_mappings()
    if fd is None or not pgoffs:
        result('mmap/valid-uar', False,
               'no uverbs fd (%s) or no UAR mapped by libmlx5 (%s)' % (fd, pgoffs))
        return
    uar = pgoffs[0]
    free = 0xffff   # the last entry offset: in range, never allocated here
    if free in pgoffs:
        free = 0xfffe
    PS, PW, PX = mmap.PROT_READ, mmap.PROT_WRITE, mmap.PROT_EXEC
    SH, PR = mmap.MAP_SHARED, mmap.MAP_PRIVATE
    # name, what, page offset, length, flags, prot, expected errno (0: maps)
    cases = [
        ('legacy-uar-page0-refused', 'legacy static UAR page (cmd 0)',
         0, PG, SH, PW, errno.EINVAL),
        ('legacy-clock-page-refused', 'legacy core clock page (cmd 5)',
         5 << CMD_SHIFT, PG, SH, PS, errno.EINVAL),
        ('offset-out-of-range-refused', 'entry command with an extended index',
         (1 << 16) | (9 << CMD_SHIFT), PG, SH, PW, errno.EINVAL),
        ('unallocated-entry-refused', 'entry offset no UAR was allocated at',
         free, PG, SH, PW, errno.EINVAL),
        ('uar-double-length-refused', "libmlx5's UAR, two pages long",
         uar, 2 * PG, SH, PW, errno.EINVAL),
        ('uar-map-private-refused', "libmlx5's UAR, MAP_PRIVATE",
         uar, PG, PR, PW, errno.EINVAL),
        ('uar-prot-exec-refused', "libmlx5's UAR, PROT_EXEC",
         uar, PG, SH, PW | PX, errno.EPERM),
        ('valid-uar', "libmlx5's UAR mapped again, one page, shared",
         uar, PG, SH, PW, 0),
    ]
    for name, what, pgoff, length, flags, prot, want in cases:
        try:
            m = mmap.mmap(fd, length, flags=flags, prot=prot, offset=pgoff * PG)
            m.close()
            got = 0
        except OSError as ex:
            got = ex.errno
        detail = '%s (page offset 0x%x, %d bytes): %s, expected %s' % (
            what, pgoff, length,
            'mapped' if got == 0 else errno.errorcode.get(got, str(got)),
            'to map' if want == 0 else errno.errorcode[want])
        result('mmap/' + name, got == want, detail)
    cq.close()
    pd.close()
    ctx.close()


def rc_qp(pd, scq, rcq):
    cap = QPCap(max_send_wr=16, max_recv_wr=16, max_send_sge=1, max_recv_sge=1)
    return QP(pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=scq, rcq=rcq, cap=cap))


def connect(ctx, me, peer, access=0):
    attr = QPAttr(port_num=1)
    attr.qp_access_flags = access
    attr.dest_qp_num = peer.qp_num
    attr.ah_attr = AHAttr(dlid=ctx.query_port(1).lid, port_num=1)
    attr.max_dest_rd_atomic = 1
    attr.max_rd_atomic = 1
    attr.min_rnr_timer = 12
    attr.timeout = 14
    attr.retry_cnt = 7
    attr.rnr_retry = 7
    me.to_rts(attr)


def wait_event(ctx, want, most):
    """The async events of ctx until want (at most most of them)."""
    seen = []
    while not seen or (seen[-1] != want and len(seen) < most):
        ev = ctx.get_async_event()
        seen.append(int(ev.event_type))
        ev.ack()
    return seen


def check_cq_overrun(dev):
    """More signalled sends than the send CQ holds, never polled."""
    ctx = Context(name=dev)
    pd = PD(ctx)
    small = CQ(ctx, 1)
    big = CQ(ctx, 64)
    a = rc_qp(pd, small, big)
    b = rc_qp(pd, big, big)
    connect(ctx, a, b)
    connect(ctx, b, a)
    mr = MR(pd, 4096, e.IBV_ACCESS_LOCAL_WRITE)
    n = 16   # the QPs' depth; the small CQ holds far fewer
    if small.cqe >= n // 2:
        result('cq-overrun-event', False, 'a CQ asked for 1 CQE holds %d' % small.cqe)
        return
    for _ in range(n):
        b.post_recv(RecvWR(num_sge=1, sg=[SGE(mr.buf, 64, mr.lkey)]))
    for _ in range(n):
        a.post_send(SendWR(num_sge=1, sg=[SGE(mr.buf, 64, mr.lkey)]))
    # Blocks until an event arrives; robust.sh's timeout covers "never".
    seen = wait_event(ctx, e.IBV_EVENT_CQ_ERR, 8)
    ok = seen[-1] == e.IBV_EVENT_CQ_ERR
    result('cq-overrun-event', ok,
           '%d signalled sends on a CQ of %d CQE(s), never polled: async events %s, %s' % (
               n, small.cqe, seen,
               'IBV_EVENT_CQ_ERR delivered' if ok else 'expected IBV_EVENT_CQ_ERR (%d)' %
               e.IBV_EVENT_CQ_ERR))
    for o in (a, b, mr, small, big, pd, ctx):
        o.close()


def rdma_errno(fn):
    """0 if fn() succeeds, else the errno of its PyverbsRDMAError."""
    try:
        fn()
        return 0
    except PyverbsRDMAError as ex:
        return ex.error_code


def errname(n):
    return 'success' if n == 0 else errno.errorcode.get(n, str(n))


def srq_result(name, what, got, want):
    result('srq/' + name, got == want,
           '%s: %s, expected %s' % (what, errname(got), errname(want)))


def check_srq(dev):
    """What the kernel must refuse of an SRQ request libmlx5 passes on."""
    ctx = Context(name=dev)
    pd = PD(ctx)
    # libmlx5 asks for WQE signatures (flags) when this is set: not offered
    os.environ['MLX5_SRQ_SIGNATURE'] = '1'
    got = rdma_errno(lambda: SRQ(pd, SrqInitAttr(SrqAttr(max_wr=16))).close())
    del os.environ['MLX5_SRQ_SIGNATURE']
    srq_result('signature-refused', 'create_srq with MLX5_SRQ_FLAG_SIGNATURE',
               got, errno.EOPNOTSUPP)
    srq = SRQ(pd, SrqInitAttr(SrqAttr(max_wr=16)))
    size = srq.query().max_wr + 1
    srq_result('resize-refused', 'modify_srq IBV_SRQ_MAX_WR (no resize, as mlx5)',
               rdma_errno(lambda: srq.modify(SrqAttr(max_wr=64), e.IBV_SRQ_MAX_WR)),
               errno.EINVAL)
    srq_result('limit-beyond-size-refused',
               'modify_srq IBV_SRQ_LIMIT %d on an SRQ of %d WQEs' % (size, size),
               rdma_errno(lambda: srq.modify(SrqAttr(srq_limit=size), e.IBV_SRQ_LIMIT)),
               errno.EINVAL)
    got = rdma_errno(lambda: srq.modify(SrqAttr(srq_limit=size - 1), e.IBV_SRQ_LIMIT))
    armed = srq.query().srq_limit if got == 0 else -1
    result('srq/limit-armed', got == 0 and armed == size - 1,
           'modify_srq IBV_SRQ_LIMIT %d: %s, query_srq reports limit %d' % (
               size - 1, errname(got), armed))
    for o in (srq, pd, ctx):
        o.close()


def rdma_write(qp, cq, src, rkey, addr):
    """One signalled RDMA WRITE of 64 bytes; its completion status."""
    wr = SendWR(opcode=e.IBV_WR_RDMA_WRITE, num_sge=1,
                sg=[SGE(src.buf, 64, src.lkey)])
    wr.set_wr_rdma(rkey, addr)
    qp.post_send(wr)
    # Blocks until the completion; robust.sh's timeout covers "never".
    while True:
        n, wcs = cq.poll()
        if n:
            return wcs[0].status


def check_rereg_umr(dev):
    """More in-place re-registrations than the UMR rings hold."""
    ctx = Context(name=dev)
    pd = PD(ctx)
    pd2 = PD(ctx)
    cq = CQ(ctx, 64)
    a = rc_qp(pd, cq, cq)
    b = rc_qp(pd, cq, cq)
    lw, rw, rr = (e.IBV_ACCESS_LOCAL_WRITE, e.IBV_ACCESS_REMOTE_WRITE,
                  e.IBV_ACCESS_REMOTE_READ)
    connect(ctx, a, b)
    connect(ctx, b, a, rw)
    src = MR(pd, 4096, lw)
    dst = MR(pd, 4096, lw | rw)
    keys = (dst.lkey, dst.rkey)
    both = e.IBV_REREG_MR_CHANGE_PD | e.IBV_REREG_MR_CHANGE_ACCESS
    # 150 UMR WQEs: the 64-CQE ring and the 32-WQE send ring wrap twice;
    # the last one leaves dst on pd with remote write.
    n, moved = 150, 0
    for i in range(n):
        dst.rereg(both, pd if i % 2 else pd2, 0, 0,
                  lw | rw if i % 2 else lw | rr)
        moved += (dst.lkey, dst.rkey) != keys
    result('rereg-umr/keys-kept', moved == 0,
           '%d PD+access re-registrations of one MR: keys 0x%x/0x%x %s' % (
               n, keys[0], keys[1],
               'kept' if not moved else 'changed %d times' % moved))
    st = rdma_write(a, cq, src, keys[1], dst.buf)
    result('rereg-umr/write-after', st == e.IBV_WC_SUCCESS,
           'RDMA WRITE with the original rkey after them: status %d, want %d' % (
               st, e.IBV_WC_SUCCESS))
    dst.rereg(e.IBV_REREG_MR_CHANGE_ACCESS, pd, 0, 0, lw)
    st = rdma_write(a, cq, src, dst.rkey, dst.buf)
    result('rereg-umr/write-refused', st == e.IBV_WC_REM_ACCESS_ERR,
           'the same WRITE once the rereg dropped remote write: status %d, want %d' % (
               st, e.IBV_WC_REM_ACCESS_ERR))
    for o in (a, b, src, dst, cq, pd2, pd, ctx):
        o.close()


def readonly_file_page():
    """Address of one page of a file mapped PROT_READ, MAP_SHARED."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                          ctypes.c_int, ctypes.c_int, ctypes.c_long)
    fd = os.open('/tmp', os.O_TMPFILE | os.O_RDWR, 0o600)
    os.write(fd, b'r' * PG)
    addr = libc.mmap(None, PG, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
    os.close(fd)
    if addr in (None, ctypes.c_void_p(-1).value):
        sys.exit('mmap of a read-only file page: errno %d' % ctypes.get_errno())
    return addr


def check_rereg_readonly(dev):
    """A read-only pin never becomes writable by re-registration."""
    ctx = Context(name=dev)
    pd = PD(ctx)
    addr = readonly_file_page()
    mr = MR(pd, PG, e.IBV_ACCESS_REMOTE_READ, address=addr)
    want = e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_WRITE
    got = rdma_errno(lambda: mr.rereg(e.IBV_REREG_MR_CHANGE_ACCESS, pd, 0, 0,
                                      want))
    result('rereg-readonly/write-refused', got == errno.EACCES,
           'rereg of a PROT_READ file page (MR read-only) to local+remote '
           'write: %s, expected %s' % (errname(got), errname(errno.EACCES)))
    got = rdma_errno(lambda: mr.rereg(e.IBV_REREG_MR_CHANGE_ACCESS, pd, 0, 0,
                                      e.IBV_ACCESS_REMOTE_READ))
    result('rereg-readonly/read-kept', got == 0,
           'rereg of the same MR to remote read only: %s' % errname(got))
    for o in (mr, pd, ctx):
        o.close()


def check_lost(dev):
    """A context with objects while the device is lost (fatal error,
    death, removal): IBV_EVENT_DEVICE_FATAL arrives, later verbs fail
    with an error instead of hanging, and everything can still be closed.
    Prints "ready" once the objects exist: the caller then loses the
    device."""
    ctx = Context(name=dev)
    pd = PD(ctx)
    cq = CQ(ctx, 16)
    qp = rc_qp(pd, cq, cq)
    mr = MR(pd, 4096, e.IBV_ACCESS_LOCAL_WRITE)
    print('ready', flush=True)
    seen = wait_event(ctx, e.IBV_EVENT_DEVICE_FATAL, 16)
    fatal = seen[-1] == e.IBV_EVENT_DEVICE_FATAL
    result('lost-event', fatal, 'async events %s%s' % (
        seen, '' if fatal else ', no IBV_EVENT_DEVICE_FATAL (%d)' %
        e.IBV_EVENT_DEVICE_FATAL))
    pd_err = rdma_errno(lambda: PD(ctx).close())
    cq_err = rdma_errno(lambda: CQ(ctx, 4).close())
    result('lost-verbs-fail', pd_err != 0 and cq_err != 0,
           'after the loss: alloc_pd %s, create_cq %s' % (errname(pd_err),
                                                         errname(cq_err)))
    errs = [errname(rdma_errno(o.close)) for o in (qp, mr, cq, pd)]
    ctx.close()
    result('lost-closed', True, 'destroy QP, MR, CQ, PD: %s; context closed' %
           ', '.join(errs))


def main():
    checks = {'mmap': check_mmap, 'cq-overrun': check_cq_overrun,
              'srq': check_srq, 'rereg-umr': check_rereg_umr,
              'rereg-readonly': check_rereg_readonly, 'lost': check_lost}
    if len(sys.argv) != 3 or sys.argv[1] not in checks:
        sys.exit('usage: robust.py %s DEV' % '|'.join(checks))
    checks[sys.argv[1]](sys.argv[2])


if __name__ == '__main__':
    main()
