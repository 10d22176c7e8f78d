// SPDX-License-Identifier: GPL-2.0
/*
 * Connected transports (RC, UC, XRC): what the requester (rc_req.c) and
 * the responder (rc_resp.c) of a QP share: its runtime state and send
 * ring, the packets it builds, its error state and flush, and its turn in
 * the engine (qp_step) with the routing of packets to its two sides.
 */
#include <errno.h>
#include <stdlib.h>

#include "engine.h"
#include "log.h"
#include "rc_int.h"
#include "wire.h"

bool qp_is_ud(const struct emu_qp *qp)
{
	return qp->st == MLX5X_QP_ST_UD || qp->st == MLX5X_QP_ST_QP0 ||
	       qp->st == MLX5X_QP_ST_QP1;
}

bool rc_reliable(const struct emu_qp *qp)
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

/* ---- runtime state ---- */

void rc_free_queues(struct emu_qp *qp)
{
	pkt_free_list(qp->eng.rxq_req);
	pkt_free_list(qp->eng.rxq_rsp);
	qp->eng.rxq_req = qp->eng.rxq_req_tail = NULL;
	qp->eng.rxq_rsp = qp->eng.rxq_rsp_tail = NULL;
}

void qp_free_rt(struct emu_qp *qp)
{
	rc_free_queues(qp);
	free(qp->eng.ring);
	qp->eng.ring = NULL;
	qp->eng.ring_cap = 0;
}

/* back to the reset state: counters 0, nothing started, nothing queued */
static void qp_reset_rt(struct emu_qp *qp)
{
	struct eng_qp *r = &qp->eng;

	rc_free_queues(qp);
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

struct sq_ent *rc_ent(struct emu_qp *qp, uint32_t i)
{
	struct eng_qp *r = &qp->eng;

	return &r->ring[(r->ring_first + i) % r->ring_cap];
}

int rc_ring_push(struct emu_qp *qp, struct sq_ent **out)
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
	*out = rc_ent(qp, r->ring_n++);
	memset(*out, 0, sizeof(**out));
	return 0;
}

void rc_ring_pop(struct emu_qp *qp)
{
	struct eng_qp *r = &qp->eng;

	r->ring_first = (r->ring_first + 1) % r->ring_cap;
	r->ring_n--;
	if (r->tx)
		r->tx--;
}

/* ---- packets ---- */

void rc_fill_path(struct emu *e, struct emu_qp *qp, struct wire_pkt *p)
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

void rc_xmit(struct emu *e, struct emu_qp *qp, struct wire_pkt *p,
		 uint64_t now)
{
	qp->eng.tx_pkts++;
	qp->eng.last_tx_ns = now;
	e->eng.st.pkts++;
	wire_xmit(e, p);
}

/* ACK (aeth AETH_ACK) or NAK for psn */
void rc_send_ack(struct emu *e, struct emu_qp *qp, uint32_t psn,
		     uint8_t aeth, uint64_t now)
{
	struct wire_pkt *p = pkt_alloc(0);

	if (!p)
		return;
	rc_fill_path(e, qp, p);
	p->op = PKT_ACK;
	p->psn = psn;
	p->npkt = 1;
	p->aeth = aeth;
	if (aeth != AETH_ACK) {
		e->eng.st.naks++;
		if ((aeth & AETH_TYPE_MASK) == AETH_RNR_NAK)
			e->eng.st.rnr_naks++;
	}
	rc_xmit(e, qp, p, now);
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
		struct sq_ent *s = rc_ent(qp, 0);

		post_flush(e, qp->scq, qp, MLX5X_CQE_REQ_ERR, s->opcode, s->idx);
		rc_ring_pop(qp);
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
		post_flush(e, rc_msg_cq(e, qp), qp, MLX5X_CQE_RESP_ERR, 0,
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
	rc_free_queues(qp);
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
	rc_free_queues(qp);
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
			more = rc_req_step(e, qp, now);
		return more;
	}
	more = rc_resp_step(e, qp, now);
	rc_req_rx_all(e, qp, now);
	if (qp->state == MLX5X_QP_STATE_RTS && rc_req_step(e, qp, now))
		more = true;
	return more || qp->eng.rxq_req || qp->eng.rxq_rsp;
}

/* a packet routed to this QP (emu.lock held) */
void qp_rx(struct emu *e, struct emu_qp *qp, struct wire_pkt *p)
{
	struct eng_qp *r = &qp->eng;
	bool rsp = p->op == PKT_READ_RESP || p->op == PKT_ACK ||
		   p->op == PKT_ATOMIC_ACK;

	r->rx_pkts++;
	if (qp_is_ud(qp)) {
		if (!rsp && rc_rx_state_ok(qp))
			ud_recv(e, qp, p);
		else
			e->eng.st.pkts_dropped++;
		pkt_free(p);
		return;
	}
	if (!rc_rx_state_ok(qp) || (rsp && qp->state == MLX5X_QP_STATE_RTR)) {
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
		p->rd_over = rc_rra_full(qp, p);
		if (r->rxq_req_tail)
			r->rxq_req_tail->next = p;
		else
			r->rxq_req = p;
		r->rxq_req_tail = p;
	}
	eng_qp_ready(e, qp);
}
