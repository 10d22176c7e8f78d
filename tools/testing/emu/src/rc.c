// SPDX-License-Identifier: GPL-2.0
/*
 * Connected transports (RC, UC, XRC): the requester and the responder of
 * a QP, its error state and flush.
 *
 * Requester.  WQEs are taken from the send queue in order, up to the
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
 *
 * Responder.  Requests are taken in PSN order.  SEND and WRITE with
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
#include "wire.h"

/* sq_ent.flags */
enum {
	SQE_SIGNALED	= 1 << 0,
	SQE_SENT	= 1 << 1,	/* every packet transmitted */
	SQE_DONE	= 1 << 2,	/* acknowledged / answered */
	SQE_ERROR	= 1 << 3,	/* complete with sq_ent.synd */
	SQE_FENCE	= 1 << 4,
	SQE_RDATOM	= 1 << 5,	/* READ or atomic */
};

/* responder message in progress */
enum { RXM_NONE, RXM_SEND, RXM_WRITE };

/* per step, at most this many packets sent or received per QP */
#define STEP_BUDGET 16

/* RNR timer codes (5 bits) in microseconds */
static const uint32_t rnr_us[32] = {
	655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960,
	1280, 1920, 2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720,
	40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520,
};

bool qp_is_ud(const struct emu_qp *qp)
{
	return qp->st == MLX5X_QP_ST_UD || qp->st == MLX5X_QP_ST_QP0 ||
	       qp->st == MLX5X_QP_ST_QP1;
}

static bool is_rc(const struct emu_qp *qp)
{
	return qp->st == MLX5X_QP_ST_RC || qp->st == MLX5X_QP_ST_XRC;
}

static uint8_t qp_tp(const struct emu_qp *qp)
{
	switch (qp->st) {
	case MLX5X_QP_ST_UC:
		return TP_UC;
	case MLX5X_QP_ST_XRC:
		return TP_XRC;
	default:
		return qp_is_ud(qp) ? TP_UD : TP_RC;
	}
}

/* ACK timeout: 4.096 us * 2^timeout; 0 means wait forever */
static uint64_t ack_timeout_ns(const struct emu_qp *qp)
{
	uint32_t t = QPC_PATH(qp, MLX5X_ADS_ACK_TIMEOUT);

	if (!t)
		return 0;
	return 4096ull << MIN(t, 31u);
}

static struct emu_cq *msg_cq(struct emu *e, struct emu_qp *qp);

/* ---- runtime state ---- */

static void free_queues(struct emu_qp *qp)
{
	pkt_free_list(qp->eng.rxq_req);
	pkt_free_list(qp->eng.rxq_rsp);
	qp->eng.rxq_req = qp->eng.rxq_req_tail = NULL;
	qp->eng.rxq_rsp = qp->eng.rxq_rsp_tail = NULL;
}

void qp_free_rt(struct emu_qp *qp)
{
	free_queues(qp);
	free(qp->eng.ring);
	qp->eng.ring = NULL;
	qp->eng.ring_cap = 0;
}

/* back to the reset state: counters 0, nothing started, nothing queued */
static void qp_reset_rt(struct emu_qp *qp)
{
	struct eng_qp *r = &qp->eng;

	free_queues(qp);
	r->db = false;
	r->started = false;
	r->sq_head = 0;
	r->ring_first = r->ring_n = r->tx = 0;
	r->rnr_wait = r->wait_ack = r->err_pending = false;
	r->timer_at = 0;
	r->rq_ci = 0;
	r->cur_op = RXM_NONE;
	r->cur_drop = r->cur_has_wqe = false;
	r->cur_srqn = 0;
	r->nak_sent = false;
	r->rd.active = false;
	r->atomic_valid = false;
	r->comm_est = false;
}

void qp_start(struct emu *e, struct emu_qp *qp)
{
	struct eng_qp *r = &qp->eng;

	(void)e;
	switch (qp->state) {
	case MLX5X_QP_STATE_RST:
	case MLX5X_QP_STATE_INIT:
		qp_reset_rt(qp);
		break;
	case MLX5X_QP_STATE_RTR:
		r->epsn = QPC(qp, MLX5X_QPC_NEXT_RCV_PSN);
		break;
	case MLX5X_QP_STATE_RTS:
		if (!r->started) {
			r->npsn = QPC(qp, MLX5X_QPC_NEXT_SEND_PSN);
			r->last_acked = psn_add(r->npsn, 0xffffff);
			r->started = true;
		}
		r->retry_left = (uint8_t)QPC(qp, MLX5X_QPC_RETRY_COUNT);
		r->rnr_left = (uint8_t)QPC(qp, MLX5X_QPC_RNR_RETRY);
		break;
	default:
		break;
	}
}

static struct sq_ent *ent_at(struct emu_qp *qp, uint32_t i)
{
	struct eng_qp *r = &qp->eng;

	return &r->ring[(r->ring_first + i) % r->ring_cap];
}

static int ring_push(struct emu_qp *qp, struct sq_ent **out)
{
	struct eng_qp *r = &qp->eng;

	if (!r->ring) {
		r->ring_cap = MAX(sq_wqebbs(qp), 1u);
		r->ring = calloc(r->ring_cap, sizeof(*r->ring));
		if (!r->ring)
			return -ENOMEM;
		r->ring_first = r->ring_n = 0;
	}
	if (r->ring_n == r->ring_cap)
		return -ENOSPC;
	*out = ent_at(qp, r->ring_n++);
	memset(*out, 0, sizeof(**out));
	return 0;
}

static void ring_pop(struct emu_qp *qp)
{
	struct eng_qp *r = &qp->eng;

	r->ring_first = (r->ring_first + 1) % r->ring_cap;
	r->ring_n--;
	if (r->tx)
		r->tx--;
}

/* ---- packets ---- */

static void fill_path(struct emu *e, struct emu_qp *qp, struct wire_pkt *p)
{
	const uint8_t *path = qp->qpc + MLX5X_QPC_PRI_PATH_OFF;
	uint32_t sgid = PGET(path, MLX5X_ADS_SRC_ADDR_INDEX);

	p->slid = e->port.lid;
	p->dlid = (uint16_t)PGET(path, MLX5X_ADS_RLID);
	p->sl = (uint8_t)PGET(path, MLX5X_ADS_SL);
	p->grh = PGET(path, MLX5X_ADS_GRH);
	if (p->grh) {
		p->hop_limit = (uint8_t)PGET(path, MLX5X_ADS_HOP_LIMIT);
		p->tclass = (uint8_t)PGET(path, MLX5X_ADS_TCLASS);
		p->flow_label = PGET(path, MLX5X_ADS_FLOW_LABEL);
		memcpy(p->dgid, path + MLX5X_ADS_RGID_RIP_OFF, 16);
		if (sgid < EMU_NUM_GIDS)
			memcpy(p->sgid, e->port.gids[sgid], 16);
	}
	p->tp = qp_tp(qp);
	p->dqpn = QPC(qp, MLX5X_QPC_REMOTE_QPN);
	p->sqpn = qp->qpn;
}

static void xmit(struct emu *e, struct emu_qp *qp, struct wire_pkt *p,
		 uint64_t now)
{
	qp->eng.tx_pkts++;
	qp->eng.last_tx_ns = now;
	e->eng.st.pkts++;
	wire_xmit(e, p);
}

/* ACK (aeth AETH_ACK) or NAK for psn */
static void send_ack(struct emu *e, struct emu_qp *qp, uint32_t psn,
		     uint8_t aeth, uint64_t now)
{
	struct wire_pkt *p = pkt_alloc(0);

	if (!p)
		return;
	fill_path(e, qp, p);
	p->op = PKT_ACK;
	p->psn = psn;
	p->npkt = 1;
	p->aeth = aeth;
	if (aeth != AETH_ACK) {
		e->eng.st.naks++;
		if ((aeth & AETH_TYPE_MASK) == AETH_RNR_NAK)
			e->eng.st.rnr_naks++;
	}
	xmit(e, qp, p, now);
}

/* ---- error state ---- */

static void post_flush(struct emu *e, struct emu_cq *cq, struct emu_qp *qp,
		       uint8_t opcode, uint8_t wqe_op, uint16_t counter)
{
	struct cqe_info ci = {
		.opcode = opcode,
		.wqe_opcode = wqe_op,
		.syndrome = MLX5X_CQE_SYND_WR_FLUSH_ERR,
		.vendor = 0xf9,
		.wqe_counter = counter,
	};

	if (cq)
		cq_post(e, cq, qp, &ci);
	e->eng.st.flushed++;
}

/* flush what is posted on the SQ and RQ; the QP is in the error state */
void qp_flush(struct emu *e, struct emu_qp *qp)
{
	struct eng_qp *r = &qp->eng;
	uint16_t pi;
	uint32_t n;

	while (r->ring_n) {
		struct sq_ent *s = ent_at(qp, 0);

		post_flush(e, qp->scq, qp, MLX5X_CQE_REQ_ERR, s->opcode, s->idx);
		ring_pop(qp);
	}
	r->tx = 0;
	while (qp->sq_len && !sq_producer(e, qp, &pi)) {
		uint16_t left = (uint16_t)(pi - r->sq_head);
		uint8_t op, nbb;

		if (!left || left > sq_wqebbs(qp))
			break;
		sq_peek(e, qp, r->sq_head, &op, &nbb);
		post_flush(e, qp->scq, qp, MLX5X_CQE_REQ_ERR, op, r->sq_head);
		r->sq_head += MIN((uint16_t)nbb, left);
	}
	if (r->cur_has_wqe) {
		post_flush(e, msg_cq(e, qp), qp, MLX5X_CQE_RESP_ERR, 0,
			   r->cur_wqe);
		r->cur_has_wqe = false;
	}
	r->cur_srqn = 0;
	r->cur_op = RXM_NONE;
	if (!qp->srq) {
		while (!rq_avail(e, qp, &n) && n) {
			post_flush(e, qp->rcq, qp, MLX5X_CQE_RESP_ERR, 0,
				   r->rq_ci);
			r->rq_ci++;
		}
	}
	free_queues(qp);
	r->rd.active = false;
	r->rnr_wait = r->wait_ack = r->err_pending = false;
	eng_qp_timer(e, qp, 0);
}

void qp_to_err(struct emu *e, struct emu_qp *qp)
{
	if (qp->state == MLX5X_QP_STATE_ERR)
		return;
	emu_dbg("QP 0x%x: -> ERR", qp->qpn);
	qp->state = MLX5X_QP_STATE_ERR;
	eng_err_add(e, qp);
	PSET(qp->qpc, MLX5X_QPC_STATE, qp->state);
	qp_flush(e, qp);
	/* no more receive WQEs will be taken from the SRQ for this QP */
	if (qp->srq)
		eng_qp_event(e, qp, MLX5X_EVENT_SRQ_LAST_WQE);
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
		struct sq_ent *s = ent_at(qp, 0);

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
			ring_pop(qp);
			qp_to_err(e, qp);
			return false;
		}
		if (!(s->flags & SQE_DONE))
			break;
		req_complete(e, qp, s);
		ring_pop(qp);
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
		struct sq_ent *s = ent_at(qp, i);

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
		struct sq_ent *s = ent_at(qp, i);
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
		struct sq_ent *s = ent_at(qp, i);
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
		ent_at(qp, i)->flags |= SQE_ERROR;
		ent_at(qp, i)->synd = synd;
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
		if ((ent_at(qp, i)->flags & (SQE_RDATOM | SQE_DONE)) ==
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
	if (ring_push(qp, &s))
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
	struct sq_ent *s = ent_at(qp, r->tx);
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
	fill_path(e, qp, p);
	p->xrc_srqn = w->xrc_srqn;
	xmit(e, qp, p, now);
	if (s->flags & SQE_SENT) {
		r->tx++;
		/* UC: sent is done; there are no acknowledgements */
		if (!is_rc(qp))
			s->flags |= SQE_DONE;
	}
	if (is_rc(qp) && ack_timeout_ns(qp) && !r->rnr_wait) {
		r->wait_ack = true;
		eng_qp_timer(e, qp, now + ack_timeout_ns(qp));
	}
	return true;
}

/* send what the requester can; true if more work is left */
static bool req_step(struct emu *e, struct emu_qp *qp, uint64_t now)
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
	s = ent_at(qp, i);
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
	s = ent_at(qp, i);
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

	if (!is_rc(qp))
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

static struct emu_cq *msg_cq(struct emu *e, struct emu_qp *qp)
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
	struct emu_cq *cq = msg_cq(e, qp);

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

	if (!is_rc(qp)) {
		/* UC: the message is dropped, the QP stays */
		r->cur_drop = !p->last;
		r->cur_op = RXM_NONE;
		r->epsn = psn_add(p->psn, p->npkt);
		return;
	}
	send_ack(e, qp, p->psn, AETH_NAK | nak, now);
	if (r->cur_has_wqe && synd) {
		struct cqe_info ci = {
			.opcode = MLX5X_CQE_RESP_ERR,
			.syndrome = synd,
			.wqe_counter = r->cur_wqe,
		};
		struct emu_cq *cq = msg_cq(e, qp);

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
	if (is_rc(qp))
		send_ack(e, qp, psn_add(p->psn, p->npkt - 1), AETH_ACK, now);
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
			if (is_rc(qp)) {
				send_ack(e, qp, p->psn, AETH_RNR_NAK |
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
		if (is_rc(qp))
			send_ack(e, qp, p->psn, AETH_RNR_NAK |
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
	fill_path(e, qp, p);
	p->op = PKT_READ_RESP;
	p->psn = rd->psn;
	p->npkt = msg_pkts(seg, qp_mtu(qp));
	p->first = rd->off == 0;
	p->last = rd->off + seg == rd->len;
	rd->psn = psn_add(rd->psn, p->npkt);
	rd->off += seg;
	if (p->last)
		rd->active = false;
	xmit(e, qp, p, now);
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
	fill_path(e, qp, a);
	a->op = PKT_ATOMIC_ACK;
	a->psn = p->psn;
	a->npkt = 1;
	a->aeth = AETH_ACK;
	a->orig = v;
	xmit(e, qp, a, now);
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
		fill_path(e, qp, a);
		a->op = PKT_ATOMIC_ACK;
		a->psn = p->psn;
		a->npkt = 1;
		a->orig = r->atomic_orig;
		xmit(e, qp, a, now);
		return;
	}
	send_ack(e, qp, psn_add(r->epsn, 0xffffff), AETH_ACK, now);
}

static bool rx_state_ok(struct emu_qp *qp)
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
	if (!is_rc(qp)) {
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
			send_ack(e, qp, r->epsn, AETH_NAK | NAK_PSN_SEQ, now);
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
static bool resp_step(struct emu *e, struct emu_qp *qp, uint64_t now)
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

/* ---- a QP's turn ---- */

static void drop_all(struct emu *e, struct emu_qp *qp)
{
	uint64_t n = 0;
	struct wire_pkt *p;

	for (p = qp->eng.rxq_req; p; p = p->next)
		n++;
	for (p = qp->eng.rxq_rsp; p; p = p->next)
		n++;
	e->eng.st.pkts_dropped += n;
	qp->eng.drops += n;
	free_queues(qp);
}

static void req_rx_all(struct emu *e, struct emu_qp *qp, uint64_t now)
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

bool qp_step(struct emu *e, struct emu_qp *qp, uint64_t now)
{
	bool more = false;

	qp->eng.db = false;
	switch (qp->state) {
	case MLX5X_QP_STATE_ERR:
		drop_all(e, qp);
		qp_flush(e, qp);
		return false;
	case MLX5X_QP_STATE_RTR:
	case MLX5X_QP_STATE_RTS:
	case MLX5X_QP_STATE_SQD:
		break;
	default:
		drop_all(e, qp);
		return false;
	}
	if (qp_is_ud(qp)) {
		drop_all(e, qp);	/* UD receives are handled at routing */
		if (qp->state == MLX5X_QP_STATE_RTS)
			more = req_step(e, qp, now);
		return more;
	}
	more = resp_step(e, qp, now);
	req_rx_all(e, qp, now);
	if (qp->state == MLX5X_QP_STATE_RTS && req_step(e, qp, now))
		more = true;
	return more || qp->eng.rxq_req || qp->eng.rxq_rsp;
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
		if (!(ent_at(qp, i)->flags & (SQE_DONE | SQE_ERROR)) &&
		    ent_at(qp, i)->npkt)
			break;
	if (i == r->ring_n ||
	    (!(ent_at(qp, i)->flags & SQE_SENT) && !ent_at(qp, i)->sent)) {
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
		qp->qpn, ent_at(qp, i)->psn);
	s = ent_at(qp, i);
	psn = psn_add(r->last_acked, 1);
	if (psn_diff(psn, s->psn) < 0 || psn_diff(psn, s->psn) >= (int32_t)s->npkt)
		psn = s->psn;
	rewind_to(qp, psn);
	if (r->tx > i)
		r->tx = i;
	eng_qp_timer(e, qp, now + ack_timeout_ns(qp));
	eng_qp_ready(e, qp);
}

/* a packet routed to this QP (emu.lock held) */
static bool is_rdatom_pkt(const struct wire_pkt *p)
{
	return p->op == PKT_READ_REQ || p->op == PKT_CMP_SWAP ||
	       p->op == PKT_FETCH_ADD;
}

/* a new READ/atomic finds 2^log_rra_max ones already held */
static bool rra_full(struct emu_qp *qp, const struct wire_pkt *p)
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

void qp_rx(struct emu *e, struct emu_qp *qp, struct wire_pkt *p)
{
	struct eng_qp *r = &qp->eng;
	bool rsp = p->op == PKT_READ_RESP || p->op == PKT_ACK ||
		   p->op == PKT_ATOMIC_ACK;

	r->rx_pkts++;
	if (qp_is_ud(qp)) {
		if (!rsp && rx_state_ok(qp))
			ud_recv(e, qp, p);
		else
			e->eng.st.pkts_dropped++;
		pkt_free(p);
		return;
	}
	if (!rx_state_ok(qp) || (rsp && qp->state == MLX5X_QP_STATE_RTR)) {
		e->eng.st.pkts_dropped++;
		r->drops++;
		pkt_free(p);
		return;
	}
	p->next = NULL;
	if (rsp) {
		if (r->rxq_rsp_tail)
			r->rxq_rsp_tail->next = p;
		else
			r->rxq_rsp = p;
		r->rxq_rsp_tail = p;
	} else {
		p->rd_over = rra_full(qp, p);
		if (r->rxq_req_tail)
			r->rxq_req_tail->next = p;
		else
			r->rxq_req = p;
		r->rxq_req_tail = p;
	}
	eng_qp_ready(e, qp);
}
