// SPDX-License-Identifier: GPL-2.0
/*
 * The responder of a connected QP (RC, UC, XRC target).
 *
 * Requests are taken in PSN order.  SEND and WRITE with
 * immediate consume a receive WQE (the QP's RQ or its SRQ): none there
 * is an RNR NAK (RC) or a drop (UC).  WRITE, READ and atomics check the
 * rkey (mkey, PD, access, bounds) and the QP's remote access flags.
 * READ responses are streamed one segment per step.  A responder error
 * NAKs the request, completes the receive WQE in error if one was taken,
 * and moves the QP to the error state.
 */
#include <errno.h>
#include <stdlib.h>

#include "engine.h"
#include "log.h"
#include "rc_int.h"
#include "wire.h"

/* ---- responder ---- */

/*
 * Where receives of the message in progress come from: an XRC target QP
 * takes them from the SRQ the message names (cur_srqn), of its own XRC
 * domain, and completes them on that SRQ's CQ; other QPs use their SRQ or
 * RQ and their receive CQ.
 */
static struct emu_srq *msg_srq(struct emu *e, struct emu_qp *qp)
{
	struct emu_srq *srq;

	if (!qp->eng.cur_srqn)
		return qp->srq;
	srq = objtab_get(&e->obj[OBJ_SRQ], qp->eng.cur_srqn);
	return srq && srq->xrcd && srq->xrcd == qp->xrcd ? srq : NULL;
}

struct emu_cq *rc_msg_cq(struct emu *e, struct emu_qp *qp)
{
	struct emu_srq *srq;

	if (!qp->eng.cur_srqn)
		return qp->rcq;
	srq = msg_srq(e, qp);
	return srq ? srq->cq : NULL;
}

/*
 * The protection domain of the responder's memory accesses: an XRC
 * target serves many processes, so the keys are those of the XRC SRQ the
 * request names, in that SRQ's PD.
 */
static struct emu_pd *resp_pd(struct emu *e, struct emu_qp *qp)
{
	struct emu_srq *srq;

	if (!qp->eng.cur_srqn)
		return qp->pd;
	srq = msg_srq(e, qp);
	return srq ? srq->pd : NULL;
}

/* XRC: the SRQ named by the packet; false if it is not usable */
static bool xrc_bind(struct emu *e, struct emu_qp *qp, struct wire_pkt *p)
{
	if (qp->st != MLX5X_QP_ST_XRC)
		return true;
	qp->eng.cur_srqn = p->xrc_srqn;
	return p->xrc_srqn && msg_srq(e, qp);
}

/* CQE fields that name the receive queue of the message */
static void msg_cqe_ids(struct emu *e, struct emu_qp *qp, struct cqe_info *ci)
{
	struct emu_srq *srq = msg_srq(e, qp);

	ci->srqn = srq ? srq->srqn : 0;
	/* CQE v1 names an XRC SRQ by its user index, v0 by its number */
	if (qp->eng.cur_srqn && srq) {
		ci->uidx_valid = true;
		ci->uidx = srq->eng.has_uidx &&
			   CAP(e, MLX5X_CAP_CQE_VERSION) == 1 ?
			   srq->eng.uidx : srq->srqn;
	}
}

/* the receive WQE for a new message: the SRQ's or the RQ's next one */
static int take_rwqe(struct emu *e, struct emu_qp *qp, uint16_t *idx)
{
	struct emu_srq *srq = msg_srq(e, qp);
	uint32_t n;

	if (srq) {
		if (srq_avail(e, srq, &n) || !n)
			return -EAGAIN;
		return srq_take(e, srq, idx) ? -EFAULT : 0;
	}
	if (qp->eng.cur_srqn || rq_avail(e, qp, &n) || !n)
		return -EAGAIN;
	*idx = qp->eng.rq_ci++;
	return 0;
}

static bool rwqe_ready(struct emu *e, struct emu_qp *qp)
{
	struct emu_srq *srq = msg_srq(e, qp);
	uint32_t n;

	if (srq)
		return !srq_avail(e, srq, &n) && n;
	return !qp->eng.cur_srqn && !rq_avail(e, qp, &n) && n;
}

static int read_rwqe(struct emu *e, struct emu_qp *qp, uint16_t idx,
		     struct rwqe *w)
{
	struct emu_srq *srq = msg_srq(e, qp);

	if (qp->eng.cur_srqn && !srq)
		return -ENOENT;
	return srq ? srq_read(e, srq, idx, w) : rq_read(e, qp, idx, w);
}

static void resp_cqe(struct emu *e, struct emu_qp *qp, struct wire_pkt *p,
		     uint8_t opcode, uint32_t bytes)
{
	struct cqe_info ci = {
		.opcode = opcode,
		.se = p->se,
		.wqe_counter = qp->eng.cur_wqe,
		.byte_cnt = bytes,
		.imm_valid = p->has_imm,
		.rqpn = p->sqpn,
		.slid = p->slid,
		.sl = p->sl,
		.grh = p->grh,
	};
	struct emu_cq *cq = rc_msg_cq(e, qp);

	msg_cqe_ids(e, qp, &ci);
	memcpy(ci.imm, p->imm, 4);
	qp->eng.cur_has_wqe = false;
	qp->eng.wqes++;
	if (cq) {
		qp->eng.cqes++;
		cq_post(e, cq, qp, &ci);
	}
}

/*
 * A responder error: NAK the request (RC), complete the receive WQE in
 * error if one was taken, raise the affiliated event, move to error.
 */
static void resp_fail(struct emu *e, struct emu_qp *qp, struct wire_pkt *p,
		      uint8_t nak, uint8_t synd, uint8_t event, uint64_t now)
{
	struct eng_qp *r = &qp->eng;

	if (!rc_reliable(qp)) {
		/* UC: the message is dropped, the QP stays */
		r->cur_drop = !p->last;
		r->cur_op = RXM_NONE;
		r->epsn = psn_add(p->psn, p->npkt);
		return;
	}
	rc_send_ack(e, qp, p->psn, AETH_NAK | nak, now);
	if (r->cur_has_wqe && synd) {
		struct cqe_info ci = {
			.opcode = MLX5X_CQE_RESP_ERR,
			.syndrome = synd,
			.wqe_counter = r->cur_wqe,
		};
		struct emu_cq *cq = rc_msg_cq(e, qp);

		msg_cqe_ids(e, qp, &ci);
		r->cur_has_wqe = false;
		if (cq)
			cq_post(e, cq, qp, &ci);
	}
	if (event)
		eng_qp_event(e, qp, event);
	qp_to_err(e, qp);
}

static void resp_ack(struct emu *e, struct emu_qp *qp, struct wire_pkt *p,
		     uint64_t now)
{
	qp->eng.epsn = psn_add(p->psn, p->npkt);
	if (rc_reliable(qp))
		rc_send_ack(e, qp, psn_add(p->psn, p->npkt - 1), AETH_ACK, now);
}

static void rx_send(struct emu *e, struct emu_qp *qp, struct wire_pkt *p,
		    uint64_t now)
{
	struct eng_qp *r = &qp->eng;
	struct rwqe w;

	if (p->first) {
		if (r->cur_op != RXM_NONE) {
			resp_fail(e, qp, p, NAK_INVALID_REQ, 0,
				  MLX5X_EVENT_WQ_INVAL_REQ_ERROR, now);
			return;
		}
		if (take_rwqe(e, qp, &r->cur_wqe)) {
			if (rc_reliable(qp)) {
				rc_send_ack(e, qp, p->psn, AETH_RNR_NAK |
					 (uint8_t)QPC(qp, MLX5X_QPC_MIN_RNR_NAK),
					 now);
			} else {
				r->cur_drop = !p->last;
				r->epsn = psn_add(p->psn, p->npkt);
			}
			return;
		}
		r->cur_has_wqe = true;
		r->cur_op = RXM_SEND;
		r->cur_off = 0;
	} else if (r->cur_op != RXM_SEND) {
		resp_fail(e, qp, p, NAK_INVALID_REQ, 0,
			  MLX5X_EVENT_WQ_INVAL_REQ_ERROR, now);
		return;
	}
	if (read_rwqe(e, qp, r->cur_wqe, &w)) {
		resp_fail(e, qp, p, NAK_REMOTE_OP,
			  MLX5X_CQE_SYND_LOCAL_QP_OP_ERR, 0, now);
		return;
	}
	if (r->cur_off + p->len > w.cap) {
		resp_fail(e, qp, p, NAK_INVALID_REQ,
			  MLX5X_CQE_SYND_LOCAL_LENGTH_ERR, 0, now);
		return;
	}
	/* SEND with Invalidate: the window goes before the message lands */
	if (p->last && p->inv &&
	    mw_remote_inval(e, resp_pd(e, qp), qp->qpn, get_be32(p->imm))) {
		resp_fail(e, qp, p, NAK_INVALID_REQ,
			  MLX5X_CQE_SYND_LOCAL_QP_OP_ERR,
			  MLX5X_EVENT_WQ_INVAL_REQ_ERROR, now);
		return;
	}
	if (p->len && sg_copy(e, resp_pd(e, qp), w.sge, w.nsge, r->cur_off, p->data,
			      p->len, true)) {
		resp_fail(e, qp, p, NAK_REMOTE_OP,
			  MLX5X_CQE_SYND_LOCAL_PROT_ERR, 0, now);
		return;
	}
	r->cur_off += p->len;
	if (p->last) {
		r->cur_op = RXM_NONE;
		resp_cqe(e, qp, p, p->inv ? MLX5X_CQE_RESP_SEND_INV :
			 p->has_imm ? MLX5X_CQE_RESP_SEND_IMM :
			 MLX5X_CQE_RESP_SEND, (uint32_t)r->cur_off);
	}
	resp_ack(e, qp, p, now);
}

static bool rkey_ok(struct emu *e, struct emu_qp *qp, uint32_t rkey,
		    uint64_t va, uint64_t len, unsigned int acc)
{
	bool qp_ok;

	switch (acc) {
	case ACC_RW:
		qp_ok = QPC(qp, MLX5X_QPC_RWE);
		break;
	case ACC_RR:
		qp_ok = QPC(qp, MLX5X_QPC_RRE);
		break;
	default:
		qp_ok = QPC(qp, MLX5X_QPC_RAE);
		break;
	}
	if (!qp_ok) {
		emu_dbg("QP 0x%x: remote access 0x%x not enabled", qp->qpn, acc);
		return false;
	}
	/* a zero-length RDMA touches no memory: no key to check */
	return !len || !mkey_check_qp(e, rkey, resp_pd(e, qp), qp->qpn, va, len,
				      acc, NULL);
}

static void rx_write(struct emu *e, struct emu_qp *qp, struct wire_pkt *p,
		     uint64_t now)
{
	struct eng_qp *r = &qp->eng;
	struct emu_mkey *mk;

	if (p->first) {
		if (r->cur_op != RXM_NONE) {
			resp_fail(e, qp, p, NAK_INVALID_REQ, 0,
				  MLX5X_EVENT_WQ_INVAL_REQ_ERROR, now);
			return;
		}
		if (!rkey_ok(e, qp, p->rkey, p->va, p->dma_len, ACC_RW)) {
			resp_fail(e, qp, p, NAK_REMOTE_ACCESS, 0,
				  MLX5X_EVENT_WQ_ACCESS_ERROR, now);
			return;
		}
		r->cur_op = RXM_WRITE;
		r->cur_va = p->va;
		r->cur_rkey = p->rkey;
		r->cur_left = p->dma_len;
		r->cur_off = 0;
	} else if (r->cur_op != RXM_WRITE) {
		resp_fail(e, qp, p, NAK_INVALID_REQ, 0,
			  MLX5X_EVENT_WQ_INVAL_REQ_ERROR, now);
		return;
	}
	if (p->len > r->cur_left || (p->last && p->len != r->cur_left)) {
		resp_fail(e, qp, p, NAK_INVALID_REQ, 0,
			  MLX5X_EVENT_WQ_INVAL_REQ_ERROR, now);
		return;
	}
	/* WRITE with immediate needs a receive WQE: check before writing */
	if (p->last && p->has_imm && !rwqe_ready(e, qp)) {
		if (p->first)
			r->cur_op = RXM_NONE;
		if (rc_reliable(qp))
			rc_send_ack(e, qp, p->psn, AETH_RNR_NAK |
				 (uint8_t)QPC(qp, MLX5X_QPC_MIN_RNR_NAK), now);
		else
			r->epsn = psn_add(p->psn, p->npkt);
		return;
	}
	if (p->len) {
		mk = mkey_lookup(e, r->cur_rkey);
		if (!mk || mkey_dma(e, mk, r->cur_va, p->data, p->len, true)) {
			resp_fail(e, qp, p, NAK_REMOTE_ACCESS, 0,
				  MLX5X_EVENT_WQ_ACCESS_ERROR, now);
			return;
		}
	}
	r->cur_va += p->len;
	r->cur_left -= p->len;
	r->cur_off += p->len;
	if (p->last) {
		r->cur_op = RXM_NONE;
		if (p->has_imm && !take_rwqe(e, qp, &r->cur_wqe)) {
			r->cur_has_wqe = true;
			resp_cqe(e, qp, p, MLX5X_CQE_RESP_WR_IMM,
				 (uint32_t)r->cur_off);
		}
	}
	resp_ack(e, qp, p, now);
}

static void rx_read(struct emu *e, struct emu_qp *qp, struct wire_pkt *p,
		    uint64_t now)
{
	struct eng_qp *r = &qp->eng;

	if (!rkey_ok(e, qp, p->rkey, p->va, p->dma_len, ACC_RR)) {
		resp_fail(e, qp, p, NAK_REMOTE_ACCESS, 0,
			  MLX5X_EVENT_WQ_ACCESS_ERROR, now);
		return;
	}
	r->rd.active = true;
	r->rd.psn = p->psn;
	r->rd.va = p->va;
	r->rd.rkey = p->rkey;
	r->rd.len = p->dma_len;
	r->rd.off = 0;
	r->epsn = psn_add(p->psn, msg_pkts(p->dma_len, qp_mtu(qp)));
}

/* one segment of the READ response in progress */
static void rd_step(struct emu *e, struct emu_qp *qp, uint64_t now)
{
	struct rd_resp *rd = &qp->eng.rd;
	uint32_t seg = MIN(rd->len - rd->off, (uint32_t)WIRE_SEG_MAX);
	struct wire_pkt *p = pkt_alloc(seg);
	struct emu_mkey *mk = NULL;

	if (!p)
		return;
	if (seg && (mkey_check_qp(e, rd->rkey, resp_pd(e, qp), qp->qpn,
				  rd->va + rd->off, seg, ACC_RR, &mk) ||
		    mkey_dma(e, mk, rd->va + rd->off, p->data, seg, false))) {
		/* the region went away under the READ */
		p->op = PKT_READ_REQ;
		p->psn = rd->psn;
		rd->active = false;
		resp_fail(e, qp, p, NAK_REMOTE_ACCESS, 0,
			  MLX5X_EVENT_WQ_ACCESS_ERROR, now);
		pkt_free(p);
		return;
	}
	rc_fill_path(e, qp, p);
	p->op = PKT_READ_RESP;
	p->psn = rd->psn;
	p->npkt = msg_pkts(seg, qp_mtu(qp));
	p->first = rd->off == 0;
	p->last = rd->off + seg == rd->len;
	rd->psn = psn_add(rd->psn, p->npkt);
	rd->off += seg;
	if (p->last)
		rd->active = false;
	rc_xmit(e, qp, p, now);
}

static void rx_atomic(struct emu *e, struct emu_qp *qp, struct wire_pkt *p,
		      uint64_t now)
{
	struct eng_qp *r = &qp->eng;
	struct wire_pkt *a;
	struct emu_mkey *mk;
	uint8_t b[8];
	uint64_t v = 0, nv;
	unsigned int i;

	if (p->va & 7) {
		resp_fail(e, qp, p, NAK_INVALID_REQ, 0,
			  MLX5X_EVENT_WQ_INVAL_REQ_ERROR, now);
		return;
	}
	if (!rkey_ok(e, qp, p->rkey, p->va, 8, ACC_RA)) {
		resp_fail(e, qp, p, NAK_REMOTE_ACCESS, 0,
			  MLX5X_EVENT_WQ_ACCESS_ERROR, now);
		return;
	}
	/*
	 * rae without an atomic_mode allows no atomic: the PRM's
	 * atomic_mode says which operand sizes the responder executes, 0
	 * none (mlx5_ib set_qpc_atomic_flags always writes one with rae).
	 * The request is an invalid one for this QP.
	 */
	if (!QPC(qp, MLX5X_QPC_ATOMIC_MODE)) {
		rule_hit(e, R_ATOMIC_NO_MODE, "QP 0x%x: atomic with rae but atomic_mode 0",
			 qp->qpn);
		resp_fail(e, qp, p, NAK_INVALID_REQ, 0,
			  MLX5X_EVENT_WQ_INVAL_REQ_ERROR, now);
		return;
	}
	mk = mkey_lookup(e, p->rkey);
	if (mkey_dma(e, mk, p->va, b, 8, false))
		goto fault;
	/* 8-byte atomics on host-order (little-endian) memory */
	for (i = 0; i < 8; i++)
		v |= (uint64_t)b[i] << (8 * i);
	if (p->op == PKT_CMP_SWAP)
		nv = v == p->compare ? p->swap_add : v;
	else
		nv = v + p->swap_add;
	for (i = 0; i < 8; i++)
		b[i] = (uint8_t)(nv >> (8 * i));
	if (nv != v && mkey_dma(e, mk, p->va, b, 8, true))
		goto fault;
	r->atomic_valid = true;
	r->atomic_psn = p->psn;
	r->atomic_orig = v;
	r->epsn = psn_add(p->psn, 1);
	a = pkt_alloc(0);
	if (!a)
		return;
	rc_fill_path(e, qp, a);
	a->op = PKT_ATOMIC_ACK;
	a->psn = p->psn;
	a->npkt = 1;
	a->aeth = AETH_ACK;
	a->orig = v;
	rc_xmit(e, qp, a, now);
	return;
fault:
	resp_fail(e, qp, p, NAK_REMOTE_ACCESS, 0, MLX5X_EVENT_WQ_ACCESS_ERROR,
		  now);
}

/* a request with a PSN already accepted: answer it again */
static void rx_duplicate(struct emu *e, struct emu_qp *qp, struct wire_pkt *p,
			 uint64_t now)
{
	struct eng_qp *r = &qp->eng;

	if (p->op == PKT_READ_REQ) {
		uint32_t epsn = r->epsn;

		/* a READ is answered again from the memory as it is now */
		rx_read(e, qp, p, now);
		r->epsn = epsn;
		return;
	}
	if ((p->op == PKT_CMP_SWAP || p->op == PKT_FETCH_ADD) &&
	    r->atomic_valid && r->atomic_psn == p->psn) {
		struct wire_pkt *a = pkt_alloc(0);

		if (!a)
			return;
		rc_fill_path(e, qp, a);
		a->op = PKT_ATOMIC_ACK;
		a->psn = p->psn;
		a->npkt = 1;
		a->orig = r->atomic_orig;
		rc_xmit(e, qp, a, now);
		return;
	}
	rc_send_ack(e, qp, psn_add(r->epsn, 0xffffff), AETH_ACK, now);
}

bool rc_rx_state_ok(struct emu_qp *qp)
{
	return qp->state == MLX5X_QP_STATE_RTR ||
	       qp->state == MLX5X_QP_STATE_RTS ||
	       qp->state == MLX5X_QP_STATE_SQD;
}

/* one request; false if it must wait (READ response in progress) */
static bool resp_rx(struct emu *e, struct emu_qp *qp, struct wire_pkt *p,
		    uint64_t now)
{
	struct eng_qp *r = &qp->eng;
	int32_t d;

	if (r->rd.active)
		return false;
	if (!r->comm_est && qp->state == MLX5X_QP_STATE_RTR)
		eng_qp_event(e, qp, MLX5X_EVENT_COMM_EST);
	r->comm_est = true;
	d = psn_diff(p->psn, r->epsn);
	if (!rc_reliable(qp)) {
		/* UC: lost packets end the message; a new one resyncs */
		if (d && !p->first)
			r->cur_drop = true;
		if (p->first) {
			r->cur_drop = false;
			r->cur_op = RXM_NONE;
			if (r->cur_has_wqe) {
				/* a message cut short: its WQE is reused */
				r->cur_has_wqe = false;
			}
		}
		if (r->cur_drop) {
			r->epsn = psn_add(p->psn, p->npkt);
			r->drops++;
			return true;
		}
		r->epsn = p->psn;
		d = 0;
	}
	if (d < 0) {
		rx_duplicate(e, qp, p, now);
		return true;
	}
	if (d > 0) {
		if (!r->nak_sent)
			rc_send_ack(e, qp, r->epsn, AETH_NAK | NAK_PSN_SEQ, now);
		r->nak_sent = true;
		return true;
	}
	r->nak_sent = false;
	/* every XRC request names its SRQ (XRCETH): receives and keys */
	if (!xrc_bind(e, qp, p)) {
		resp_fail(e, qp, p, NAK_INVALID_REQ, 0,
			  MLX5X_EVENT_WQ_INVAL_REQ_ERROR, now);
		return true;
	}
	/*
	 * More READs/atomics than log_rra_max lets the responder hold (PRM
	 * qpc.log_rra_max; IBTA 9.7.5.2.4: responder resources exceeded)
	 * are NAKed as invalid requests.
	 */
	if (p->rd_over) {
		e->eng.st.rra_naks++;
		resp_fail(e, qp, p, NAK_INVALID_REQ, 0,
			  MLX5X_EVENT_WQ_INVAL_REQ_ERROR, now);
		return true;
	}
	switch (p->op) {
	case PKT_SEND:
		rx_send(e, qp, p, now);
		break;
	case PKT_WRITE:
		rx_write(e, qp, p, now);
		break;
	case PKT_READ_REQ:
		rx_read(e, qp, p, now);
		break;
	case PKT_CMP_SWAP:
	case PKT_FETCH_ADD:
		rx_atomic(e, qp, p, now);
		break;
	default:
		resp_fail(e, qp, p, NAK_INVALID_REQ, 0,
			  MLX5X_EVENT_WQ_INVAL_REQ_ERROR, now);
		break;
	}
	return true;
}

/* true if more responder work is left */
bool rc_resp_step(struct emu *e, struct emu_qp *qp, uint64_t now)
{
	struct eng_qp *r = &qp->eng;
	unsigned int budget = STEP_BUDGET;

	while (budget && qp->state != MLX5X_QP_STATE_ERR) {
		struct wire_pkt *p;

		if (r->rd.active) {
			rd_step(e, qp, now);
			budget--;
			continue;
		}
		p = r->rxq_req;
		if (!p)
			break;
		if (!resp_rx(e, qp, p, now))
			continue;
		if (r->rxq_req == p) {
			r->rxq_req = p->next;
			if (!r->rxq_req)
				r->rxq_req_tail = NULL;
			pkt_free(p);
		}
		budget--;
	}
	return !budget && (r->rd.active || r->rxq_req);
}

static bool is_rdatom_pkt(const struct wire_pkt *p)
{
	return p->op == PKT_READ_REQ || p->op == PKT_CMP_SWAP ||
	       p->op == PKT_FETCH_ADD;
}

/* a new READ/atomic finds 2^log_rra_max ones already held */
bool rc_rra_full(struct emu_qp *qp, const struct wire_pkt *p)
{
	const struct wire_pkt *q;
	uint32_t held = qp->eng.rd.active;

	if (!is_rdatom_pkt(p))
		return false;
	for (q = qp->eng.rxq_req; q; q = q->next)
		if (is_rdatom_pkt(q) && !q->rd_over)
			held++;
	return held >= 1u << QPC(qp, MLX5X_QPC_LOG_RRA_MAX);
}
