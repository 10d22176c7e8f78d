// SPDX-License-Identifier: GPL-2.0
/*
 * The requester of a connected QP (RC, UC, XRC initiator).
 *
 * WQEs are taken from the send queue in order, up to the
 * producer counter of the doorbell record, and kept on the QP's ring
 * until they complete.  Each gets the PSNs of its MTU packets; data goes
 * out in segments of up to 64 KiB.  RC completes a WQE when an ACK (or
 * its READ response / atomic ACK) covers its last PSN, in order, with a
 * CQE if it was signaled; UC completes it once sent.  An RNR NAK rewinds
 * to the NAKed PSN and waits for the responder's RNR timer, up to
 * rnr_retry times (7: forever); a silent peer is retried after the ACK
 * timeout up to retry_count times.  An error completes the WQE it hit
 * with its syndrome, moves the QP to the error state and flushes the
 * rest.
 */
#include <errno.h>
#include <stdlib.h>

#include "engine.h"
#include "log.h"
#include "rc_int.h"
#include "wire.h"

/* RNR timer codes (5 bits) in microseconds */
static const uint32_t rnr_us[32] = {
	655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960,
	1280, 1920, 2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720,
	40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520,
};

/* ACK timeout: 4.096 us * 2^timeout; 0 means wait forever */
static uint64_t ack_timeout_ns(const struct emu_qp *qp)
{
	uint32_t t = QPC_PATH(qp, MLX5X_ADS_ACK_TIMEOUT);

	if (!t)
		return 0;
	return 4096ull << MIN(t, 31u);
}

/* ---- requester: completions ---- */

static void req_complete(struct emu *e, struct emu_qp *qp, struct sq_ent *s)
{
	struct cqe_info ci = {
		.opcode = MLX5X_CQE_REQ,
		.wqe_opcode = s->opcode,
		.wqe_counter = s->idx,
		.byte_cnt = (uint32_t)s->len,
	};

	qp->eng.wqes++;
	if (!(s->flags & SQE_SIGNALED) || !qp->scq)
		return;
	qp->eng.cqes++;
	cq_post(e, qp->scq, qp, &ci);
}

/* complete finished WQEs from the oldest; false if the QP left RTS/SQD */
static bool req_retire(struct emu *e, struct emu_qp *qp)
{
	struct eng_qp *r = &qp->eng;

	while (r->ring_n) {
		struct sq_ent *s = rc_ent(qp, 0);

		if (s->flags & SQE_ERROR) {
			struct cqe_info ci = {
				.opcode = MLX5X_CQE_REQ_ERR,
				.wqe_opcode = s->opcode,
				.wqe_counter = s->idx,
				.syndrome = s->synd,
			};

			emu_dbg("QP 0x%x: WQE %u completes with syndrome 0x%x",
				qp->qpn, s->idx, s->synd);
			if (qp->scq)
				cq_post(e, qp->scq, qp, &ci);
			rc_ring_pop(qp);
			qp_to_err(e, qp);
			return false;
		}
		if (!(s->flags & SQE_DONE))
			break;
		req_complete(e, qp, s);
		rc_ring_pop(qp);
	}
	if (!r->ring_n && r->wait_ack) {
		r->wait_ack = false;
		if (!r->rnr_wait)
			eng_qp_timer(e, qp, 0);
	}
	return true;
}

/* ring position of the WQE whose PSNs include psn, or ring_n */
static uint32_t ent_of_psn(struct emu_qp *qp, uint32_t psn)
{
	uint32_t i;

	for (i = 0; i < qp->eng.ring_n; i++) {
		struct sq_ent *s = rc_ent(qp, i);

		if (s->npkt && psn_diff(psn, s->psn) >= 0 &&
		    psn_diff(psn, s->psn) < (int32_t)s->npkt)
			return i;
	}
	return qp->eng.ring_n;
}

/* mark every WQE whose last PSN is at or before psn acknowledged */
static void ack_upto(struct emu_qp *qp, uint32_t psn)
{
	uint32_t i;

	for (i = 0; i < qp->eng.ring_n; i++) {
		struct sq_ent *s = rc_ent(qp, i);
		uint32_t last = psn_add(s->psn, s->npkt ? s->npkt - 1 : 0);

		if (s->flags & (SQE_DONE | SQE_ERROR))
			continue;
		if (psn_diff(last, psn) > 0)
			break;
		if (!(s->flags & SQE_SENT))
			break;
		/* a READ or atomic is answered with data, not an ACK */
		if (s->flags & SQE_RDATOM)
			break;
		s->flags |= SQE_DONE;
	}
	qp->eng.last_acked = psn;
}

/* retransmit from psn: everything from that WQE on goes out again */
static void rewind_to(struct emu_qp *qp, uint32_t psn)
{
	uint32_t mtu = qp_mtu(qp), i, at = ent_of_psn(qp, psn);

	for (i = at; i < qp->eng.ring_n; i++) {
		struct sq_ent *s = rc_ent(qp, i);
		uint64_t off = 0;

		if (s->flags & (SQE_DONE | SQE_ERROR) || !s->npkt)
			continue;
		if (i == at)
			off = (uint64_t)psn_diff(psn, s->psn) * mtu;
		s->flags &= ~SQE_SENT;
		if (s->opcode == MLX5X_OPCODE_RDMA_READ)
			s->rcvd = MIN(off, s->len);
		else if (!(s->flags & SQE_RDATOM))
			s->sent = MIN(off, s->len);
		else
			s->sent = 0;
	}
	if (at < qp->eng.ring_n && at < qp->eng.tx)
		qp->eng.tx = at;
	qp->eng.retries++;
}

static void fail_ent(struct emu_qp *qp, uint32_t i, uint8_t synd)
{
	if (i < qp->eng.ring_n) {
		rc_ent(qp, i)->flags |= SQE_ERROR;
		rc_ent(qp, i)->synd = synd;
	}
	qp->eng.err_pending = true;
}

/* ---- requester: transmit ---- */

static int check_local(struct emu *e, struct emu_qp *qp, const struct swqe *w)
{
	unsigned int acc = ACC_LR;
	uint32_t i;

	if (w->opcode == MLX5X_OPCODE_RDMA_READ ||
	    w->opcode == MLX5X_OPCODE_ATOMIC_CS ||
	    w->opcode == MLX5X_OPCODE_ATOMIC_FA)
		acc = ACC_LW;
	for (i = 0; i < w->nsge; i++)
		if (mkey_check(e, w->sge[i].lkey, qp->pd, w->sge[i].addr,
			       w->sge[i].len, acc, NULL))
			return MLX5X_CQE_SYND_LOCAL_PROT_ERR;
	/* the QP's own message limit (qpc.log_msg_max, at most the cap) */
	if (w->len > (1ull << QPC(qp, MLX5X_QPC_LOG_MSG_MAX)))
		return MLX5X_CQE_SYND_LOCAL_LENGTH_ERR;
	return 0;
}

/* READs and atomics started and not completed */
static uint32_t outstanding_rdatom(struct emu_qp *qp)
{
	uint32_t i, n = 0;

	for (i = 0; i < qp->eng.ring_n; i++)
		if ((rc_ent(qp, i)->flags & (SQE_RDATOM | SQE_DONE)) ==
		    SQE_RDATOM)
			n++;
	return n;
}

static bool is_rdatom_op(uint8_t opcode)
{
	return opcode == MLX5X_OPCODE_RDMA_READ ||
	       opcode == MLX5X_OPCODE_ATOMIC_CS ||
	       opcode == MLX5X_OPCODE_ATOMIC_FA;
}

/*
 * The requester keeps at most 2^log_sra_max READs and atomics in flight
 * (PRM qpc.log_sra_max; IBTA "initiator depth"): the next one waits for
 * a response, so a responder honouring its own depth never has to NAK.
 */
static bool sra_full(struct emu_qp *qp, const struct swqe *w)
{
	return is_rdatom_op(w->opcode) &&
	       outstanding_rdatom(qp) >= 1u << QPC(qp, MLX5X_QPC_LOG_SRA_MAX);
}

static uint32_t wqe_pkts(const struct swqe *w, uint32_t mtu)
{
	switch (w->opcode) {
	case MLX5X_OPCODE_NOP:
	case MLX5X_OPCODE_UMR:
		return 0;
	case MLX5X_OPCODE_ATOMIC_CS:
	case MLX5X_OPCODE_ATOMIC_FA:
		return 1;
	default:
		return msg_pkts(w->len, mtu);
	}
}

/* take the next WQE from the send queue; false if there is none */
static bool req_fetch(struct emu *e, struct emu_qp *qp)
{
	struct eng_qp *r = &qp->eng;
	struct swqe *w = e->eng.scratch;
	struct sq_ent *s;
	uint16_t pi;
	int synd;

	if (r->err_pending || sq_producer(e, qp, &pi) || pi == r->sq_head)
		return false;
	if ((uint16_t)(pi - r->sq_head) > sq_wqebbs(qp)) {
		emu_warn("QP 0x%x: SQ producer %u is %u WQEBBs ahead of %u",
			 qp->qpn, pi, (uint16_t)(pi - r->sq_head), r->sq_head);
		return false;
	}
	synd = sq_fetch(e, qp, r->sq_head, w);
	if (!synd && w->fence && outstanding_rdatom(qp))
		return false;	/* fenced behind READ/atomic: wait */
	if (!synd && sra_full(qp, w))
		return false;	/* initiator depth reached: wait */
	if (rc_ring_push(qp, &s))
		return false;
	s->idx = r->sq_head;
	s->nbb = w->nbb ? w->nbb : 1;
	/* a WQE longer than what was posted: malformed */
	if (s->nbb > (uint16_t)(pi - r->sq_head)) {
		s->nbb = (uint8_t)(uint16_t)(pi - r->sq_head);
		if (!synd)
			synd = MLX5X_CQE_SYND_LOCAL_QP_OP_ERR;
	}
	s->opcode = w->opcode;
	s->len = w->len;
	if (w->ce >= MLX5X_WQE_CE_ALWAYS)
		s->flags |= SQE_SIGNALED;
	if (w->opcode == MLX5X_OPCODE_RDMA_READ ||
	    w->opcode == MLX5X_OPCODE_ATOMIC_CS ||
	    w->opcode == MLX5X_OPCODE_ATOMIC_FA)
		s->flags |= SQE_RDATOM;
	r->sq_head += s->nbb;
	if (!synd && w->opcode == MLX5X_OPCODE_UMR)
		synd = umr_exec(e, qp, w);
	else if (!synd)
		synd = check_local(e, qp, w);
	if (synd) {
		fail_ent(qp, r->ring_n - 1, (uint8_t)synd);
		return false;
	}
	s->npkt = wqe_pkts(w, qp_mtu(qp));
	s->psn = r->npsn;
	r->npsn = psn_add(r->npsn, s->npkt);
	if (!s->npkt)
		s->flags |= SQE_SENT | SQE_DONE;	/* local: completes in order */
	return true;
}

static uint8_t pkt_op_of(uint8_t opcode)
{
	switch (opcode) {
	case MLX5X_OPCODE_RDMA_WRITE:
	case MLX5X_OPCODE_RDMA_WRITE_IMM:
		return PKT_WRITE;
	case MLX5X_OPCODE_RDMA_READ:
		return PKT_READ_REQ;
	case MLX5X_OPCODE_ATOMIC_CS:
		return PKT_CMP_SWAP;
	case MLX5X_OPCODE_ATOMIC_FA:
		return PKT_FETCH_ADD;
	default:
		return PKT_SEND;
	}
}

/* a request without payload: READ (the rest of it) or atomic */
static struct wire_pkt *build_rdatom(struct emu_qp *qp, struct sq_ent *s,
				     const struct swqe *w)
{
	uint32_t mtu = qp_mtu(qp);
	struct wire_pkt *p = pkt_alloc(0);

	if (!p)
		return NULL;
	p->op = pkt_op_of(s->opcode);
	p->first = p->last = true;
	p->va = w->raddr;
	p->rkey = w->rkey;
	if (p->op == PKT_READ_REQ) {
		/* a retried READ asks for what has not arrived */
		p->psn = psn_add(s->psn, (uint32_t)(s->rcvd / mtu));
		p->va += s->rcvd;
		p->dma_len = (uint32_t)(s->len - s->rcvd);
		p->npkt = msg_pkts(p->dma_len, mtu);
	} else {
		p->psn = s->psn;
		p->npkt = 1;
		p->dma_len = 8;
		p->swap_add = w->swap_add;
		p->compare = w->compare;
	}
	s->flags |= SQE_SENT;
	return p;
}

/* the next segment of a SEND or WRITE */
static struct wire_pkt *build_seg(struct emu *e, struct emu_qp *qp,
				  struct sq_ent *s, const struct swqe *w,
				  int *synd)
{
	uint32_t mtu = qp_mtu(qp);
	uint64_t seg = MIN(s->len - s->sent, (uint64_t)WIRE_SEG_MAX);
	struct wire_pkt *p = pkt_alloc((uint32_t)seg);

	if (!p)
		return NULL;
	if (w->inl)
		memcpy(p->data, w->inl_data + s->sent, seg);
	else if (seg && sg_copy(e, qp->pd, w->sge, w->nsge, s->sent, p->data,
				seg, false)) {
		*synd = MLX5X_CQE_SYND_LOCAL_PROT_ERR;
		pkt_free(p);
		return NULL;
	}
	p->op = pkt_op_of(s->opcode);
	p->psn = psn_add(s->psn, (uint32_t)(s->sent / mtu));
	p->npkt = msg_pkts(seg, mtu);
	p->first = s->sent == 0;
	p->last = s->sent + seg == s->len;
	if (p->op == PKT_WRITE && p->first) {
		p->va = w->raddr;
		p->rkey = w->rkey;
		p->dma_len = (uint32_t)s->len;
	}
	if (p->last) {
		p->se = w->se;
		p->has_imm = s->opcode == MLX5X_OPCODE_SEND_IMM ||
			     s->opcode == MLX5X_OPCODE_RDMA_WRITE_IMM ||
			     s->opcode == MLX5X_OPCODE_SEND_INVAL;
		p->inv = s->opcode == MLX5X_OPCODE_SEND_INVAL;
		memcpy(p->imm, w->imm, 4);
	}
	s->sent += seg;
	if (s->sent == s->len)
		s->flags |= SQE_SENT;
	return p;
}

/* transmit one packet of the WQE at ring position tx */
static bool req_tx_one(struct emu *e, struct emu_qp *qp, uint64_t now)
{
	struct eng_qp *r = &qp->eng;
	struct sq_ent *s = rc_ent(qp, r->tx);
	struct swqe *w = e->eng.scratch;
	struct wire_pkt *p;
	int synd = 0;

	if ((s->flags & (SQE_SENT | SQE_ERROR)) || !s->npkt) {
		r->tx++;
		return true;
	}
	if (r->err_pending)
		return false;
	synd = sq_fetch(e, qp, s->idx, w);
	if (!synd && qp_is_ud(qp))
		synd = ud_send(e, qp, w, now);
	if (synd) {
		fail_ent(qp, r->tx, (uint8_t)synd);
		return false;
	}
	if (qp_is_ud(qp)) {
		s->flags |= SQE_SENT | SQE_DONE;
		r->tx++;
		return true;
	}
	if (s->flags & SQE_RDATOM)
		p = build_rdatom(qp, s, w);
	else
		p = build_seg(e, qp, s, w, &synd);
	if (!p) {
		if (synd)
			fail_ent(qp, r->tx, (uint8_t)synd);
		return false;
	}
	rc_fill_path(e, qp, p);
	p->xrc_srqn = w->xrc_srqn;
	rc_xmit(e, qp, p, now);
	if (s->flags & SQE_SENT) {
		r->tx++;
		/* UC: sent is done; there are no acknowledgements */
		if (!rc_reliable(qp))
			s->flags |= SQE_DONE;
	}
	if (rc_reliable(qp) && ack_timeout_ns(qp) && !r->rnr_wait) {
		r->wait_ack = true;
		eng_qp_timer(e, qp, now + ack_timeout_ns(qp));
	}
	return true;
}

/* send what the requester can; true if more work is left */
bool rc_req_step(struct emu *e, struct emu_qp *qp, uint64_t now)
{
	struct eng_qp *r = &qp->eng;
	unsigned int budget = STEP_BUDGET;

	if (r->rnr_wait)
		return false;
	while (budget--) {
		if (r->tx < r->ring_n) {
			if (!req_tx_one(e, qp, now))
				break;
		} else if (!req_fetch(e, qp)) {
			break;
		}
		if (!req_retire(e, qp))
			return false;
	}
	if (!req_retire(e, qp))
		return false;
	return budget == (unsigned int)-1;
}

/* ---- requester: responses ---- */

static void rsp_read(struct emu *e, struct emu_qp *qp, struct wire_pkt *p)
{
	uint32_t i = ent_of_psn(qp, p->psn), mtu = qp_mtu(qp);
	struct swqe *w = e->eng.scratch;
	struct sq_ent *s;

	if (i == qp->eng.ring_n)
		return;
	s = rc_ent(qp, i);
	if (s->opcode != MLX5X_OPCODE_RDMA_READ || (s->flags & SQE_DONE) ||
	    p->psn != psn_add(s->psn, (uint32_t)(s->rcvd / mtu)) ||
	    p->len > s->len - s->rcvd)
		return;		/* not the response expected next: ignore */
	if (i)
		ack_upto(qp, psn_add(s->psn, 0xffffff));
	if (sq_fetch(e, qp, s->idx, w) ||
	    sg_copy(e, qp->pd, w->sge, w->nsge, s->rcvd, p->data, p->len,
		    true)) {
		fail_ent(qp, i, MLX5X_CQE_SYND_LOCAL_PROT_ERR);
		return;
	}
	s->rcvd += p->len;
	if (p->last) {
		s->flags |= SQE_DONE;
		qp->eng.last_acked = psn_add(s->psn, s->npkt - 1);
	}
}

static void rsp_atomic(struct emu *e, struct emu_qp *qp, struct wire_pkt *p)
{
	uint32_t i = ent_of_psn(qp, p->psn);
	struct swqe *w = e->eng.scratch;
	struct sq_ent *s;
	uint8_t le[8];
	unsigned int b;

	if (i == qp->eng.ring_n)
		return;
	s = rc_ent(qp, i);
	if (!(s->flags & SQE_RDATOM) || s->opcode == MLX5X_OPCODE_RDMA_READ ||
	    (s->flags & SQE_DONE))
		return;
	if (i)
		ack_upto(qp, psn_add(s->psn, 0xffffff));
	/*
	 * The original value lands in host (little-endian) order once
	 * SET_HCA_CAP(ATOMIC) selected that mode, in big-endian order (the
	 * boot mode, atomic_req_8B_endianness_mode 0) before.
	 */
	for (b = 0; b < 8; b++)
		le[e->hca.atomic_req_mode ? b : 7 - b] =
			(uint8_t)(p->orig >> (8 * b));
	if (sq_fetch(e, qp, s->idx, w) ||
	    sg_copy(e, qp->pd, w->sge, w->nsge, 0, le, 8, true)) {
		fail_ent(qp, i, MLX5X_CQE_SYND_LOCAL_PROT_ERR);
		return;
	}
	s->flags |= SQE_DONE;
	qp->eng.last_acked = s->psn;
}

static void rsp_nak(struct emu *e, struct emu_qp *qp, struct wire_pkt *p,
		    uint64_t now)
{
	struct eng_qp *r = &qp->eng;
	uint32_t i;

	/* everything before the NAKed PSN is acknowledged */
	ack_upto(qp, psn_add(p->psn, 0xffffff));
	i = ent_of_psn(qp, p->psn);
	if ((p->aeth & AETH_TYPE_MASK) == AETH_RNR_NAK) {
		r->rnr_naks++;
		if (!r->rnr_left) {
			fail_ent(qp, i, MLX5X_CQE_SYND_RNR_RETRY_EXC_ERR);
			return;
		}
		if (r->rnr_left != 7)
			r->rnr_left--;
		rewind_to(qp, p->psn);
		r->rnr_wait = true;
		r->wait_ack = false;
		eng_qp_timer(e, qp, now + 1000ull *
			     rnr_us[p->aeth & AETH_VAL_MASK]);
		return;
	}
	switch (p->aeth & AETH_VAL_MASK) {
	case NAK_PSN_SEQ:
		rewind_to(qp, p->psn);
		break;
	case NAK_INVALID_REQ:
		fail_ent(qp, i, MLX5X_CQE_SYND_REMOTE_INVAL_REQ_ERR);
		break;
	case NAK_REMOTE_ACCESS:
		fail_ent(qp, i, MLX5X_CQE_SYND_REMOTE_ACCESS_ERR);
		break;
	default:
		fail_ent(qp, i, MLX5X_CQE_SYND_REMOTE_OP_ERR);
		break;
	}
}

static void req_rx(struct emu *e, struct emu_qp *qp, struct wire_pkt *p,
		   uint64_t now)
{
	struct eng_qp *r = &qp->eng;

	if (!rc_reliable(qp))
		return;
	switch (p->op) {
	case PKT_READ_RESP:
		rsp_read(e, qp, p);
		break;
	case PKT_ATOMIC_ACK:
		rsp_atomic(e, qp, p);
		break;
	case PKT_ACK:
		if (p->aeth != AETH_ACK) {
			rsp_nak(e, qp, p, now);
			break;
		}
		ack_upto(qp, p->psn);
		break;
	default:
		return;
	}
	/* progress: the retry budget starts again */
	r->retry_left = (uint8_t)QPC(qp, MLX5X_QPC_RETRY_COUNT);
	if (r->wait_ack && !r->rnr_wait)
		eng_qp_timer(e, qp, now + ack_timeout_ns(qp));
}

void rc_req_rx_all(struct emu *e, struct emu_qp *qp, uint64_t now)
{
	struct eng_qp *r = &qp->eng;

	while (r->rxq_rsp && qp->state != MLX5X_QP_STATE_ERR) {
		struct wire_pkt *p = r->rxq_rsp;

		r->rxq_rsp = p->next;
		if (!r->rxq_rsp)
			r->rxq_rsp_tail = NULL;
		req_rx(e, qp, p, now);
		pkt_free(p);
		if (!req_retire(e, qp))
			break;
	}
}

void qp_timer_fired(struct emu *e, struct emu_qp *qp, uint64_t now)
{
	struct eng_qp *r = &qp->eng;
	struct sq_ent *s;
	uint32_t i, psn;

	if (r->rnr_wait) {
		r->rnr_wait = false;
		eng_qp_ready(e, qp);
		return;
	}
	if (!r->wait_ack || qp->state != MLX5X_QP_STATE_RTS)
		return;
	e->eng.st.timeouts++;
	/* the oldest WQE not answered yet */
	for (i = 0; i < r->ring_n; i++)
		if (!(rc_ent(qp, i)->flags & (SQE_DONE | SQE_ERROR)) &&
		    rc_ent(qp, i)->npkt)
			break;
	if (i == r->ring_n ||
	    (!(rc_ent(qp, i)->flags & SQE_SENT) && !rc_ent(qp, i)->sent)) {
		/* nothing is waiting for an answer */
		r->wait_ack = false;
		eng_qp_ready(e, qp);
		return;
	}
	if (!r->retry_left) {
		r->wait_ack = false;
		fail_ent(qp, i, MLX5X_CQE_SYND_TRANSPORT_RETRY_EXC_ERR);
		req_retire(e, qp);
		return;
	}
	r->retry_left--;
	emu_dbg("QP 0x%x: ACK timeout, retransmitting from PSN 0x%x",
		qp->qpn, rc_ent(qp, i)->psn);
	s = rc_ent(qp, i);
	psn = psn_add(r->last_acked, 1);
	if (psn_diff(psn, s->psn) < 0 || psn_diff(psn, s->psn) >= (int32_t)s->npkt)
		psn = s->psn;
	rewind_to(qp, psn);
	if (r->tx > i)
		r->tx = i;
	eng_qp_timer(e, qp, now + ack_timeout_ns(qp));
	eng_qp_ready(e, qp);
}

