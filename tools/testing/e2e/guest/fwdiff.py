#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The workload of the firmware-command differential (tools/testing/fwdiff).

One deterministic sequence of verbs, the same on every lane: it creates,
modifies, queries and destroys each object type and makes each QP
transition that both upstream mlx5 and mlx5x support, always with the same
attributes, so that the emulator's field trace (--ftrace) of the two
drivers can be compared command by command.  Two markers delimit it in
the trace: its first step sets an SRQ limit of START_LIMIT (what comes
before is the drivers' bring-up and the context), its last an SRQ limit
of MARK_LIMIT, the --ftrace-stop the lane passes to the emulator.  Both
drivers send an SRQ limit as MODIFY_RMP with rmpc.wq.lwm = the limit.

    fwdiff.py --dev DEV [--port N]

Prints one line per step; exits 0 when every step worked.
"""
import argparse
import mmap
import os
import sys

import pyverbs.enums as e
from pyverbs.addr import AHAttr
from pyverbs.cq import CQ
from pyverbs.device import Context
from pyverbs.mr import MR, MW
from pyverbs.pd import PD
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr, QPInitAttrEx
from pyverbs.srq import SRQ, SrqAttr, SrqInitAttr, SrqInitAttrEx
from pyverbs.xrcd import XRCD, XRCDInitAttr

# The markers (tools/testing/e2e/lane.sh and tools/testing/fwdiff/run.sh
# use the same numbers).
START_LIMIT = 0x1a4
MARK_LIMIT = 0x1a5
MARK_SRQ_WR = 1000

ACCESS = (e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_WRITE |
          e.IBV_ACCESS_REMOTE_READ | e.IBV_ACCESS_REMOTE_ATOMIC)
PSN = 0x1234
QKEY = 0x11111111


def step(what):
    print('fwdiff: ' + what, flush=True)


class Workload:
    def __init__(self, dev, port):
        self.ctx = Context(name=dev)
        self.port = port
        self.lid = self.ctx.query_port(port).lid
        step('context %s, port %d, lid %d' % (dev, port, self.lid))

    # --- QP transitions -------------------------------------------------

    def attr(self, state):
        a = QPAttr(qp_state=state, port_num=self.port,
                   path_mtu=e.IBV_MTU_1024)
        a.pkey_index = 0
        return a

    def to_init(self, qp, qpt):
        a = self.attr(e.IBV_QPS_INIT)
        mask = e.IBV_QP_STATE | e.IBV_QP_PKEY_INDEX | e.IBV_QP_PORT
        if qpt == e.IBV_QPT_UD:
            a.qkey = QKEY
            mask |= e.IBV_QP_QKEY
        else:
            a.qp_access_flags = ACCESS if qpt != e.IBV_QPT_UC else \
                e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_WRITE
            mask |= e.IBV_QP_ACCESS_FLAGS
        qp.modify(a, mask)

    def to_rtr(self, qp, qpt, dqpn):
        a = self.attr(e.IBV_QPS_RTR)
        mask = e.IBV_QP_STATE
        if qpt != e.IBV_QPT_UD:
            a.ah_attr = AHAttr(dlid=self.lid, sl=0, port_num=self.port)
            a.dest_qp_num = dqpn
            a.rq_psn = PSN
            mask |= (e.IBV_QP_AV | e.IBV_QP_PATH_MTU | e.IBV_QP_DEST_QPN |
                     e.IBV_QP_RQ_PSN)
        if qpt in (e.IBV_QPT_RC, e.IBV_QPT_XRC_RECV):
            a.max_dest_rd_atomic = 4
            a.min_rnr_timer = 12
            mask |= e.IBV_QP_MAX_DEST_RD_ATOMIC | e.IBV_QP_MIN_RNR_TIMER
        qp.modify(a, mask)

    def to_rts(self, qp, qpt):
        a = self.attr(e.IBV_QPS_RTS)
        a.sq_psn = PSN
        mask = e.IBV_QP_STATE | e.IBV_QP_SQ_PSN
        if qpt in (e.IBV_QPT_RC, e.IBV_QPT_XRC_SEND):
            a.timeout = 14
            a.retry_cnt = 7
            a.rnr_retry = 7
            a.max_rd_atomic = 4
            mask |= (e.IBV_QP_TIMEOUT | e.IBV_QP_RETRY_CNT |
                     e.IBV_QP_RNR_RETRY | e.IBV_QP_MAX_QP_RD_ATOMIC)
        qp.modify(a, mask)

    def rts_to_rts(self, qp, qpt):
        a = self.attr(e.IBV_QPS_RTS)
        if qpt == e.IBV_QPT_UD:
            a.qkey = QKEY + 1
            mask = e.IBV_QP_QKEY
        elif qpt == e.IBV_QPT_UC:
            a.qp_access_flags = e.IBV_ACCESS_LOCAL_WRITE
            mask = e.IBV_QP_ACCESS_FLAGS
        else:
            a.min_rnr_timer = 14
            a.qp_access_flags = e.IBV_ACCESS_LOCAL_WRITE | \
                e.IBV_ACCESS_REMOTE_READ
            mask = e.IBV_QP_MIN_RNR_TIMER | e.IBV_QP_ACCESS_FLAGS
        qp.modify(a, mask)

    def cycle(self, name, qp, qpt):
        """RST-INIT-INIT-RTR-RTS-RTS-ERR-RST, queried on the way."""
        self.to_init(qp, qpt)
        a = self.attr(e.IBV_QPS_INIT)
        qp.modify(a, e.IBV_QP_STATE | e.IBV_QP_PKEY_INDEX)
        if qpt == e.IBV_QPT_XRC_RECV:
            self.to_rtr(qp, qpt, qp.qp_num)
            qp.query(e.IBV_QP_STATE | e.IBV_QP_CAP)
            step('%s: RST-INIT-INIT-RTR, queried' % name)
        else:
            self.to_rtr(qp, qpt, qp.qp_num)
            self.to_rts(qp, qpt)
            qp.query(e.IBV_QP_STATE | e.IBV_QP_CAP)
            self.rts_to_rts(qp, qpt)
            step('%s: RST-INIT-INIT-RTR-RTS-RTS, queried' % name)
        qp.modify(self.attr(e.IBV_QPS_ERR), e.IBV_QP_STATE)
        qp.modify(self.attr(e.IBV_QPS_RESET), e.IBV_QP_STATE)
        step('%s: ERR, RST' % name)

    # --- the sequence ---------------------------------------------------

    def marker(self, pd, limit, what):
        srq = SRQ(pd, SrqInitAttr(SrqAttr(max_wr=MARK_SRQ_WR, max_sge=1)))
        srq.modify(SrqAttr(srq_limit=limit), e.IBV_SRQ_LIMIT)
        step('%s marker: SRQ limit 0x%x' % (what, limit))
        srq.close()

    def run(self):
        ctx = self.ctx
        pd = PD(ctx)
        self.marker(pd, START_LIMIT, 'start')
        self.ctx.query_device()
        self.ctx.query_gid(self.port, 0)
        self.ctx.query_pkey(self.port, 0)
        step('device, gid, pkey queried')

        pd2 = PD(ctx)
        scq = CQ(ctx, 63)
        rcq = CQ(ctx, 127)
        scq.resize(255)
        step('PDs, CQs; CQ resized to 255')

        mr = MR(pd, 2 * mmap.PAGESIZE, ACCESS | e.IBV_ACCESS_MW_BIND)
        lmr = MR(pd, mmap.PAGESIZE, e.IBV_ACCESS_LOCAL_WRITE)
        mr.rereg(e.IBV_REREG_MR_CHANGE_ACCESS, pd,
                 access=e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_READ)
        mr.rereg(e.IBV_REREG_MR_CHANGE_PD, pd2)
        mr.rereg(e.IBV_REREG_MR_CHANGE_PD | e.IBV_REREG_MR_CHANGE_ACCESS,
                 pd, access=ACCESS | e.IBV_ACCESS_MW_BIND)
        buf = mmap.mmap(-1, 4 * mmap.PAGESIZE)
        addr = _address(buf)
        mr.rereg(e.IBV_REREG_MR_CHANGE_TRANSLATION, pd, addr=addr,
                 length=4 * mmap.PAGESIZE)
        step('MRs; rereg access, PD, PD+access, translation')
        mw1 = MW(pd, e.IBV_MW_TYPE_1)
        mw2 = MW(pd, e.IBV_MW_TYPE_2)
        step('MW type 1 and 2')

        srq = SRQ(pd, SrqInitAttr(SrqAttr(max_wr=64, max_sge=2)))
        srq.modify(SrqAttr(srq_limit=16), e.IBV_SRQ_LIMIT)
        srq.query()
        step('SRQ: created, armed, queried')

        xrcd = XRCD(ctx, XRCDInitAttr(e.IBV_XRCD_INIT_ATTR_FD |
                                      e.IBV_XRCD_INIT_ATTR_OFLAGS,
                                      os.O_CREAT, -1))
        xa = SrqInitAttrEx(max_wr=64, max_sge=2)
        xa.srq_type = e.IBV_SRQT_XRC
        xa.pd = pd
        xa.xrcd = xrcd
        xa.cq = rcq
        xa.comp_mask = (e.IBV_SRQ_INIT_ATTR_TYPE | e.IBV_SRQ_INIT_ATTR_PD |
                        e.IBV_SRQ_INIT_ATTR_CQ | e.IBV_SRQ_INIT_ATTR_XRCD)
        xsrq = SRQ(ctx, xa)
        xsrq.modify(SrqAttr(srq_limit=8), e.IBV_SRQ_LIMIT)
        xsrq.query()
        step('XRCD, XRC SRQ: created, armed, queried')

        cap = QPCap(max_send_wr=16, max_recv_wr=16, max_send_sge=2,
                    max_recv_sge=2, max_inline_data=64)
        qps = []
        for name, qpt in (('RC', e.IBV_QPT_RC), ('UC', e.IBV_QPT_UC),
                          ('UD', e.IBV_QPT_UD)):
            qp = QP(pd, QPInitAttr(qp_type=qpt, scq=scq, rcq=rcq, cap=cap))
            qps.append((name, qp, qpt))
        qp = QP(pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=scq, rcq=rcq,
                               srq=srq, cap=QPCap(max_send_wr=16,
                                                  max_recv_wr=0,
                                                  max_send_sge=2,
                                                  max_recv_sge=0)))
        qps.append(('RC+SRQ', qp, e.IBV_QPT_RC))
        xs = QPInitAttrEx(qp_type=e.IBV_QPT_XRC_SEND, scq=scq, rcq=scq,
                          cap=QPCap(max_send_wr=16, max_recv_wr=0,
                                    max_send_sge=2, max_recv_sge=0),
                          comp_mask=e.IBV_QP_INIT_ATTR_PD, pd=pd)
        qps.append(('XRC initiator', QP(ctx, xs), e.IBV_QPT_XRC_SEND))
        xr = QPInitAttrEx(qp_type=e.IBV_QPT_XRC_RECV,
                          comp_mask=e.IBV_QP_INIT_ATTR_XRCD, xrcd=xrcd)
        qps.append(('XRC target', QP(ctx, xr), e.IBV_QPT_XRC_RECV))
        step('QPs created: ' + ', '.join(n for n, _, _ in qps))
        for name, qp, qpt in qps:
            self.cycle(name, qp, qpt)

        # Destroyed in a fixed order, children first.
        for _, qp, _ in reversed(qps):
            qp.close()
        xsrq.close()
        xrcd.close()
        srq.close()
        mw2.close()
        mw1.close()
        lmr.close()
        mr.close()
        rcq.close()
        scq.close()
        pd2.close()
        step('all destroyed')

        # The end marker: nothing after it is traced.
        self.marker(pd, MARK_LIMIT, 'end')
        pd.close()
        ctx.close()


def _address(buf):
    import ctypes
    return ctypes.addressof(ctypes.c_char.from_buffer(buf))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--dev', required=True)
    ap.add_argument('--port', type=int, default=1)
    a = ap.parse_args()
    Workload(a.dev, a.port).run()
    step('done')
    return 0


if __name__ == '__main__':
    sys.exit(main())
