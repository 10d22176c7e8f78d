// SPDX-License-Identifier: GPL-2.0
/*
 * Datagram transport: UD QPs and the special QPs (QP0 for SMPs, QP1 for
 * GMPs).  A send WQE carries its address vector; the message (at most
 * one MTU) goes out as one packet and the WQE completes once sent.  A
 * receiving QP takes a receive WQE for it, puts the 40-byte GRH (when the
 * packet has one) in front of the payload, and completes it; no WQE, a
 * wrong Q_Key or a message too long for the buffer drops the datagram
 * (the last one with an error completion), and the QP stays usable.
 */
#include <errno.h>

#include "engine.h"
#include "log.h"
#include "wire.h"

#define UD_MTU 4096u
#define PKEY_FULL 0x8000u
#define PKEY_DEFAULT 0xffffu

/* the P_Key of the QP's context (qpc primary path pkey_index) */
static uint16_t qp_pkey(struct emu *e, const struct emu_qp *qp)
{
	uint32_t i = QPC_PATH(qp, MLX5X_ADS_PKEY_INDEX);

	/* QP0 ignores P_Keys: SMPs carry the default (IBTA §14.2.2) */
	if (qp->st == MLX5X_QP_ST_QP0 || i >= EMU_NUM_PKEYS)
		return PKEY_DEFAULT;
	return e->port.pkeys[i];
}

/*
 * P_Key matching (IBTA vol. 1 §10.9, partitions): the low 15 bits equal,
 * not 0, and at least one of the two a full member.
 */
static bool pkey_match(uint16_t a, uint16_t b)
{
	return (a & 0x7fff) && (a & 0x7fff) == (b & 0x7fff) &&
	       ((a | b) & PKEY_FULL);
}

/* QP1 takes any P_Key of the port's table (IBTA §10.9, the GSI) */
static bool pkey_in_table(struct emu *e, uint16_t pkey)
{
	unsigned int i;

	for (i = 0; i < EMU_NUM_PKEYS; i++)
		if (pkey_match(e->port.pkeys[i], pkey))
			return true;
	return false;
}

/* the source QP number on the wire: the special QPs are 0 and 1 */
static uint32_t wire_qpn(const struct emu_qp *qp)
{
	if (qp->st == MLX5X_QP_ST_QP0)
		return 0;
	if (qp->st == MLX5X_QP_ST_QP1)
		return 1;
	return qp->qpn;
}

int ud_send(struct emu *e, struct emu_qp *qp, const struct swqe *w,
	    uint64_t now)
{
	struct wire_pkt *p;

	if (w->opcode == MLX5X_OPCODE_NOP)
		return 0;
	if (w->len > UD_MTU)
		return MLX5X_CQE_SYND_LOCAL_LENGTH_ERR;
	p = pkt_alloc((uint32_t)w->len);
	if (!p)
		return MLX5X_CQE_SYND_LOCAL_QP_OP_ERR;
	if (w->inl)
		memcpy(p->data, w->inl_data, w->len);
	else if (w->len && sg_copy(e, qp->pd, w->sge, w->nsge, 0, p->data,
				   w->len, false)) {
		pkt_free(p);
		return MLX5X_CQE_SYND_LOCAL_PROT_ERR;
	}
	p->slid = e->port.lid;
	p->dlid = w->av.dlid;
	/* directed-route SMPs: permissive SLID too (IBTA §14.2.2) */
	if (qp->st == MLX5X_QP_ST_QP0 && p->dlid == 0xffff)
		p->slid = 0xffff;
	p->pkey = qp_pkey(e, qp);
	p->block_lb = QPC(qp, MLX5X_QPC_BLOCK_LB_MC);
	p->sl = w->av.sl;
	p->grh = w->av.grh;
	if (p->grh) {
		p->hop_limit = w->av.hop_limit;
		p->tclass = w->av.tclass;
		p->flow_label = w->av.flow_label;
		memcpy(p->dgid, w->av.dgid, 16);
		if (w->av.sgid_index < EMU_NUM_GIDS)
			memcpy(p->sgid, e->port.gids[w->av.sgid_index], 16);
	}
	p->tp = TP_UD;
	p->op = PKT_SEND;
	p->first = p->last = true;
	p->npkt = 1;
	p->se = w->se;
	p->has_imm = w->opcode == MLX5X_OPCODE_SEND_IMM;
	memcpy(p->imm, w->imm, 4);
	p->dqpn = w->av.dqpn;
	p->sqpn = wire_qpn(qp);
	p->qkey = w->av.qkey & MLX5X_QKEY_USE_QP ? QPC(qp, MLX5X_QPC_Q_KEY) :
						   w->av.qkey;
	qp->eng.tx_pkts++;
	e->eng.st.pkts++;
	(void)now;
	wire_xmit(e, p);
	return 0;
}

/* QP0 checks neither P_Key nor Q_Key (IBTA vol. 1 ch. 9 packet checks) */
static bool pkey_ok(struct emu *e, struct emu_qp *qp, struct wire_pkt *p)
{
	bool ok;

	if (qp->st == MLX5X_QP_ST_QP0)
		return true;
	if (qp->st == MLX5X_QP_ST_QP1)
		ok = pkey_in_table(e, p->pkey);
	else
		ok = pkey_match(qp_pkey(e, qp), p->pkey);
	if (!ok)
		e->port.pkey_viol++;
	return ok;
}

static bool qkey_ok(struct emu *e, struct emu_qp *qp, struct wire_pkt *p)
{
	if (qp->st == MLX5X_QP_ST_QP0)
		return true;
	if (qp->st == MLX5X_QP_ST_QP1)
		return p->qkey == MLX5X_GSI_QKEY;
	if (p->qkey == QPC(qp, MLX5X_QPC_Q_KEY))
		return true;
	e->port.qkey_viol++;
	return false;
}

/* the GRH as it lands in the first 40 bytes of the receive buffer */
static void build_grh(const struct wire_pkt *p, uint8_t *g)
{
	memset(g, 0, MLX5X_GRH_LEN);
	put_be32(g, 6u << 28 | (uint32_t)p->tclass << 20 |
		 (p->flow_label & 0xfffff));
	put_be16(g + 4, (uint16_t)(p->len + 8 + 4));	/* BTH+DETH+ICRC */
	g[6] = 0x1b;					/* next header: IBA */
	g[7] = p->hop_limit;
	memcpy(g + 8, p->sgid, 16);
	memcpy(g + 24, p->dgid, 16);
}

void ud_recv(struct emu *e, struct emu_qp *qp, struct wire_pkt *p)
{
	struct cqe_info ci = {
		.opcode = p->has_imm ? MLX5X_CQE_RESP_SEND_IMM :
				       MLX5X_CQE_RESP_SEND,
		.se = p->se,
		.byte_cnt = MLX5X_GRH_LEN + p->len,
		.imm_valid = p->has_imm,
		.rqpn = p->sqpn,
		.slid = p->slid,
		.sl = p->sl,
		.grh = p->grh,
		.srqn = qp->srq ? qp->srq->srqn : 0,
		/* QP1: the received P_Key (mlx5_ib looks up its index) */
		.pkey_index = qp->st == MLX5X_QP_ST_QP1 ? p->pkey : 0,
	};
	uint8_t grh[MLX5X_GRH_LEN];
	struct rwqe w;
	uint16_t idx;
	uint32_t n;
	int ret;

	if (p->tp != TP_UD || !pkey_ok(e, qp, p) || !qkey_ok(e, qp, p))
		goto drop;
	if (qp->srq)
		ret = srq_avail(e, qp->srq, &n) || !n ||
		      srq_take(e, qp->srq, &idx);
	else
		ret = rq_avail(e, qp, &n) || !n;
	if (ret)
		goto drop;	/* no receive WQE: the datagram is lost */
	if (!qp->srq)
		idx = qp->eng.rq_ci++;
	memcpy(ci.imm, p->imm, 4);
	ci.wqe_counter = idx;
	if (qp->srq ? srq_read(e, qp->srq, idx, &w) : rq_read(e, qp, idx, &w))
		goto fail;
	if (MLX5X_GRH_LEN + (uint64_t)p->len > w.cap) {
		ci.syndrome = MLX5X_CQE_SYND_LOCAL_LENGTH_ERR;
		goto error;
	}
	if (p->grh) {
		build_grh(p, grh);
		if (sg_copy(e, qp->pd, w.sge, w.nsge, 0, grh, sizeof(grh), true))
			goto prot;
	}
	if (p->len && sg_copy(e, qp->pd, w.sge, w.nsge, MLX5X_GRH_LEN, p->data,
			      p->len, true))
		goto prot;
	qp->eng.wqes++;
	if (qp->rcq) {
		qp->eng.cqes++;
		cq_post(e, qp->rcq, qp, &ci);
	}
	return;
prot:
	ci.syndrome = MLX5X_CQE_SYND_LOCAL_PROT_ERR;
	goto error;
fail:
	ci.syndrome = MLX5X_CQE_SYND_LOCAL_QP_OP_ERR;
error:
	ci.opcode = MLX5X_CQE_RESP_ERR;
	if (qp->rcq)
		cq_post(e, qp->rcq, qp, &ci);
	return;
drop:
	qp->eng.drops++;
	e->eng.st.pkts_dropped++;
}
