# SPDX-License-Identifier: GPL-2.0
"""Many firmware commands in flight at once (pyverbs).

    cmdload.py PROCS ITERS

For each RDMA device named on a line of stdin: PROCS processes, started
at once, each open the device and ITERS times create a
PD, an MR, a CQ and two RC QPs, take the QPs through INIT, RTR and RTS
towards each other, and destroy it all again.  Every step is a firmware
command (ALLOC_PD, CREATE_MKEY, CREATE_CQ, CREATE_QP, the QP transitions,
their DESTROYs), and the processes issue them independently, so several
command slots are busy at once: what a device needs to complete commands
out of slot order or several in one event.

Prints one line per device, "ok DETAIL" or "fail DETAIL"; exits at the end
of stdin.  One process serves every round: pyverbs is imported once (that
takes seconds under TCG), the workers fork from it.
"""

import os
import sys
import time

from pyverbs.addr import AHAttr
from pyverbs.cq import CQ
from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
import pyverbs.enums as e

MR_LEN = 65536


def rc_qp(pd, cq):
    cap = QPCap(max_send_wr=16, max_recv_wr=16, max_send_sge=1,
                max_recv_sge=1)
    return QP(pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq, cap=cap))


def to_rts(me, peer, lid):
    attr = QPAttr(port_num=1)
    attr.dest_qp_num = peer.qp_num
    attr.ah_attr = AHAttr(dlid=lid, port_num=1)
    attr.max_dest_rd_atomic = 1
    attr.max_rd_atomic = 1
    attr.min_rnr_timer = 12
    attr.timeout = 14
    attr.retry_cnt = 7
    attr.rnr_retry = 7
    me.to_rts(attr)


def churn(dev, iters):
    """One worker: ITERS rounds of objects created and destroyed."""
    ctx = Context(name=dev)
    lid = ctx.query_port(1).lid
    for _ in range(iters):
        pd = PD(ctx)
        mr = MR(pd, MR_LEN, e.IBV_ACCESS_LOCAL_WRITE)
        cq = CQ(ctx, 32)
        a, b = rc_qp(pd, cq), rc_qp(pd, cq)
        to_rts(a, b, lid)
        to_rts(b, a, lid)
        for o in (a, b, cq, mr, pd):
            o.close()
    ctx.close()


def load(dev, procs, iters):
    """One device: PROCS workers at once; the verdict line."""
    t0 = time.monotonic()
    pids = []
    for _ in range(procs):
        pid = os.fork()
        if pid == 0:
            try:
                churn(dev, iters)
            except Exception as ex:  # say why; the verdict counts it
                print('worker %d: %s' % (os.getpid(), ex), file=sys.stderr,
                      flush=True)
                os._exit(1)
            os._exit(0)
        pids.append(pid)
    bad = 0
    for pid in pids:
        _, st = os.waitpid(pid, 0)
        bad += st != 0
    return '%s %d processes x %d rounds (PD, MR, CQ, 2 RC QPs to RTS, ' \
        'destroyed)%s in %.1f s' % ('fail' if bad else 'ok', procs, iters,
                                    ', %d failed' % bad if bad else '',
                                    time.monotonic() - t0)


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: cmdload.py PROCS ITERS < device names')
    procs, iters = int(sys.argv[1]), int(sys.argv[2])
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        if line.strip():
            print(load(line.strip(), procs, iters), flush=True)


if __name__ == '__main__':
    main()
