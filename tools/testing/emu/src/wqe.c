// SPDX-License-Identifier: GPL-2.0
/*
 * Work queue entries as the device reads them from guest memory: send
 * WQEs (control segment, transport segments, data/inline segments, with
 * wrap-around at the end of the send queue), receive WQEs of a QP's RQ
 * and of an SRQ (with its linked free list), and the producer counters of
 * the doorbell records.  Nothing here is trusted: a WQE that does not
 * parse is reported with the syndrome its completion will carry.
 */
#include <errno.h>

#include "engine.h"
#include "log.h"

/* a data segment's byte count of 0 means 2 GiB */
#define DS_ZERO_LEN 0x80000000u

static int dbr_read16(struct emu *e, uint64_t addr, uint16_t *v)
{
	uint8_t b[4];

	if (gm_read(&e->gm, addr, b, sizeof(b)))
		return -EFAULT;
	*v = (uint16_t)(get_be32(b) & MLX5X_QP_DBR_COUNTER_MASK);
	return 0;
}

int sq_producer(struct emu *e, struct emu_qp *qp, uint16_t *pi)
{
	return dbr_read16(e, qp->dbr + MLX5X_QP_DBR_SND_OFF, pi);
}

/* len bytes from byte off of WQEBB bb, wrapping at the end of the SQ */
static int sq_read(struct emu *e, struct emu_qp *qp, uint32_t bb,
		   uint32_t off, uint8_t *buf, uint32_t len)
{
	uint64_t start = ((uint64_t)(bb & (sq_wqebbs(qp) - 1))
			  << MLX5X_SEND_WQEBB_SHIFT) + off;

	while (len) {
		uint32_t n;

		start %= qp->sq_len;
		n = (uint32_t)MIN((uint64_t)len, qp->sq_len - start);
		if (pas_read(e, &qp->pas, qp->rq_len + start, buf, n))
			return -EFAULT;
		buf += n;
		start += n;
		len -= n;
	}
	return 0;
}

static bool op_valid(uint8_t st, uint8_t op)
{
	switch (st) {
	case MLX5X_QP_ST_RC:
	case MLX5X_QP_ST_XRC:
		return op == MLX5X_OPCODE_SEND || op == MLX5X_OPCODE_SEND_IMM ||
		       op == MLX5X_OPCODE_SEND_INVAL ||
		       op == MLX5X_OPCODE_RDMA_WRITE ||
		       op == MLX5X_OPCODE_RDMA_WRITE_IMM ||
		       op == MLX5X_OPCODE_RDMA_READ ||
		       op == MLX5X_OPCODE_ATOMIC_CS ||
		       op == MLX5X_OPCODE_ATOMIC_FA || op == MLX5X_OPCODE_NOP ||
		       op == MLX5X_OPCODE_UMR;
	case MLX5X_QP_ST_UC:
		return op == MLX5X_OPCODE_SEND || op == MLX5X_OPCODE_SEND_IMM ||
		       op == MLX5X_OPCODE_RDMA_WRITE ||
		       op == MLX5X_OPCODE_RDMA_WRITE_IMM ||
		       op == MLX5X_OPCODE_NOP || op == MLX5X_OPCODE_UMR;
	case MLX5X_QP_ST_UD:
	case MLX5X_QP_ST_QP0:
	case MLX5X_QP_ST_QP1:
		return op == MLX5X_OPCODE_SEND || op == MLX5X_OPCODE_SEND_IMM ||
		       op == MLX5X_OPCODE_NOP;
	case MLX5X_QP_ST_REG_UMR:
		return op == MLX5X_OPCODE_NOP || op == MLX5X_OPCODE_UMR;
	default:
		return false;
	}
}

/*
 * UMR: the kernel's REG_UMR QP, and on an RC or UC send queue fast
 * registration and local invalidation of an MR of the QP's PD, or memory
 * window bind/invalidate (umr.c checks which).  An XRC send queue would
 * carry its XRC segment first: not supported.
 */
static bool umr_allowed(uint8_t st)
{
	return st == MLX5X_QP_ST_REG_UMR || st == MLX5X_QP_ST_RC ||
	       st == MLX5X_QP_ST_UC;
}

static bool is_datagram(uint8_t st)
{
	return st == MLX5X_QP_ST_UD || st == MLX5X_QP_ST_QP0 ||
	       st == MLX5X_QP_ST_QP1;
}

static void parse_av(const uint8_t *av, struct ud_av *a)
{
	a->qkey = PGET(av, MLX5X_WQE_AV_QKEY);
	a->dqpn = PGET(av, MLX5X_WQE_AV_DQPN);
	a->dlid = (uint16_t)PGET(av, MLX5X_WQE_AV_RLID);
	a->sl = (uint8_t)PGET(av, MLX5X_WQE_AV_SL);
	a->grh = PGET(av, MLX5X_WQE_AV_GRH);
	a->sgid_index = (uint8_t)PGET(av, MLX5X_WQE_AV_SGID_INDEX);
	a->tclass = (uint8_t)PGET(av, MLX5X_WQE_AV_TCLASS);
	a->hop_limit = (uint8_t)PGET(av, MLX5X_WQE_AV_HOP_LIMIT);
	a->flow_label = PGET(av, MLX5X_WQE_AV_FLOW_LABEL);
	memcpy(a->dgid, av + MLX5X_WQE_AV_RGID_OFF, 16);
}

/* the segments between the control segment and the data */
static int parse_transport(struct emu_qp *qp, const uint8_t *raw,
			   uint32_t end, uint32_t *pos, struct swqe *w)
{
	uint32_t p = *pos;

	if (qp->st == MLX5X_QP_ST_XRC && w->opcode != MLX5X_OPCODE_NOP) {
		if (p + MLX5X_WQE_DS_LEN > end)
			return MLX5X_CQE_SYND_LOCAL_QP_OP_ERR;
		w->xrc_srqn = PGET(raw + p, MLX5X_WQE_XRC_SRQN);
		p += MLX5X_WQE_DS_LEN;
	}
	if (is_datagram(qp->st) && w->opcode != MLX5X_OPCODE_NOP) {
		if (p + MLX5X_WQE_AV_LEN > end)
			return MLX5X_CQE_SYND_LOCAL_QP_OP_ERR;
		parse_av(raw + p, &w->av);
		p += MLX5X_WQE_AV_LEN;
	}
	switch (w->opcode) {
	case MLX5X_OPCODE_RDMA_WRITE:
	case MLX5X_OPCODE_RDMA_WRITE_IMM:
	case MLX5X_OPCODE_RDMA_READ:
	case MLX5X_OPCODE_ATOMIC_CS:
	case MLX5X_OPCODE_ATOMIC_FA:
		if (p + MLX5X_WQE_DS_LEN > end)
			return MLX5X_CQE_SYND_LOCAL_QP_OP_ERR;
		w->raddr = get_be64(raw + p + MLX5X_WQE_RADDR_VA_OFF);
		w->rkey = PGET(raw + p, MLX5X_WQE_RADDR_RKEY);
		p += MLX5X_WQE_DS_LEN;
		break;
	default:
		break;
	}
	if (w->opcode == MLX5X_OPCODE_ATOMIC_CS ||
	    w->opcode == MLX5X_OPCODE_ATOMIC_FA) {
		if (p + MLX5X_WQE_DS_LEN > end)
			return MLX5X_CQE_SYND_LOCAL_QP_OP_ERR;
		w->swap_add = get_be64(raw + p + MLX5X_WQE_ATOMIC_SWAP_ADD_OFF);
		w->compare = get_be64(raw + p + MLX5X_WQE_ATOMIC_COMPARE_OFF);
		p += MLX5X_WQE_DS_LEN;
	}
	*pos = p;
	return 0;
}

static int parse_data(const uint8_t *raw, uint32_t end, uint32_t pos,
		      struct swqe *w)
{
	while (pos < end) {
		const uint8_t *s = raw + pos;
		uint32_t bc = get_be32(s + MLX5X_WQE_DATA_BYTE_COUNT_OFF);

		if (bc & MLX5X_WQE_DATA_INLINE_MASK) {
			uint32_t n = bc & MLX5X_WQE_DATA_BYTE_COUNT_MASK;

			if (pos + MLX5X_WQE_INLINE_HDR_LEN + n > end ||
			    w->inl_len + n > SWQE_MAX_INLINE || w->nsge)
				return MLX5X_CQE_SYND_LOCAL_LENGTH_ERR;
			memcpy(w->inl_data + w->inl_len,
			       s + MLX5X_WQE_INLINE_HDR_LEN, n);
			w->inl = true;
			w->inl_len += n;
			w->len += n;
			pos += ALIGN_UP(MLX5X_WQE_INLINE_HDR_LEN + n,
					MLX5X_WQE_DS_LEN);
			continue;
		}
		if (w->inl || w->nsge == SWQE_MAX_SGE)
			return MLX5X_CQE_SYND_LOCAL_QP_OP_ERR;
		w->sge[w->nsge].len = bc ? bc : DS_ZERO_LEN;
		w->sge[w->nsge].lkey = get_be32(s + MLX5X_WQE_DATA_LKEY_OFF);
		w->sge[w->nsge].addr = get_be64(s + MLX5X_WQE_DATA_ADDR_OFF);
		w->len += w->sge[w->nsge].len;
		w->nsge++;
		pos += MLX5X_WQE_DS_LEN;
	}
	return 0;
}

/*
 * UMR: its two segments as they are, and the translation list, if any:
 * inline (kept in inl_data, inl_len bytes) or a data segment pointing
 * at it (umr_sge).  A window's inline KLM is read as a data segment too.
 */
static int parse_umr(const uint8_t *raw, uint32_t end, struct swqe *w)
{
	uint32_t pos = MLX5X_WQE_DS_LEN + sizeof(w->umr);

	if (end < pos)
		return MLX5X_CQE_SYND_LOCAL_QP_OP_ERR;
	memcpy(w->umr, raw + MLX5X_WQE_DS_LEN, sizeof(w->umr));
	if (PGET(w->umr, MLX5X_WQE_UMR_FLAGS) & MLX5X_UMR_INLINE) {
		w->inl_len = MIN(end - pos, (uint32_t)SWQE_MAX_INLINE);
		memcpy(w->inl_data, raw + pos, w->inl_len);
	}
	if (end >= pos + MLX5X_WQE_DS_LEN) {
		w->umr_data = true;
		w->umr_sge.len = get_be32(raw + pos) &
				 MLX5X_WQE_DATA_BYTE_COUNT_MASK;
		w->umr_sge.lkey = get_be32(raw + pos + MLX5X_WQE_DATA_LKEY_OFF);
		w->umr_sge.addr = get_be64(raw + pos + MLX5X_WQE_DATA_ADDR_OFF);
	}
	return 0;
}

static uint32_t max_send_wqe(struct emu *e)
{
	uint32_t m = CAP(e, MLX5X_CAP_MAX_WQE_SZ_SQ);

	return MIN(m ? m : 1024u, (uint32_t)(SWQE_MAX_SGE + 4) *
					 MLX5X_WQE_DS_LEN);
}

/* opcode and WQEBBs of the WQE at idx, quietly (flush of garbage) */
void sq_peek(struct emu *e, struct emu_qp *qp, uint16_t idx, uint8_t *opcode,
	     uint8_t *nbb)
{
	uint8_t raw[MLX5X_WQE_DS_LEN];
	uint32_t ds;

	*opcode = 0;
	*nbb = 1;
	if (!qp->sq_len || sq_read(e, qp, idx, 0, raw, sizeof(raw)))
		return;
	*opcode = (uint8_t)PGET(raw, MLX5X_WQE_CTRL_OPCODE);
	ds = PGET(raw, MLX5X_WQE_CTRL_DS);
	if (ds)
		*nbb = (uint8_t)DIV_ROUND_UP(ds * MLX5X_WQE_DS_LEN,
					     MLX5X_SEND_WQEBB_LEN);
}

int sq_fetch(struct emu *e, struct emu_qp *qp, uint16_t idx, struct swqe *w)
{
	uint8_t raw[(SWQE_MAX_SGE + 4) * MLX5X_WQE_DS_LEN];
	uint32_t end, pos = MLX5X_WQE_DS_LEN;
	int ret;

	memset(w, 0, offsetof(struct swqe, inl_data));
	w->idx = idx;
	if (!qp->sq_len || sq_read(e, qp, idx, 0, raw, MLX5X_WQE_DS_LEN))
		return MLX5X_CQE_SYND_LOCAL_QP_OP_ERR;
	w->opcode = (uint8_t)PGET(raw, MLX5X_WQE_CTRL_OPCODE);
	w->opmod = (uint8_t)PGET(raw, MLX5X_WQE_CTRL_OPMOD);
	w->ds = (uint8_t)PGET(raw, MLX5X_WQE_CTRL_DS);
	w->qpn = PGET(raw, MLX5X_WQE_CTRL_QPN);
	w->fence = (uint8_t)PGET(raw, MLX5X_WQE_CTRL_FENCE);
	w->ce = (uint8_t)PGET(raw, MLX5X_WQE_CTRL_CE);
	w->se = PGET(raw, MLX5X_WQE_CTRL_SE);
	memcpy(w->imm, raw + MLX5X_WQE_CTRL_IMM_OFF, 4);
	end = (uint32_t)w->ds * MLX5X_WQE_DS_LEN;
	w->nbb = (uint8_t)DIV_ROUND_UP(MAX(end, 1u), MLX5X_SEND_WQEBB_LEN);
	if (!w->ds || end > max_send_wqe(e) || end > qp->sq_len) {
		e->eng.st.wqe_faults++;
		emu_warn("QP 0x%x: WQE %u has %u DSs", qp->qpn, idx, w->ds);
		w->nbb = 1;
		return MLX5X_CQE_SYND_LOCAL_QP_OP_ERR;
	}
	if ((uint16_t)PGET(raw, MLX5X_WQE_CTRL_WQE_INDEX) != idx ||
	    w->qpn != qp->qpn || !op_valid(qp->st, w->opcode) ||
	    (w->opcode == MLX5X_OPCODE_UMR && !umr_allowed(qp->st))) {
		e->eng.st.wqe_faults++;
		emu_warn("QP 0x%x: bad WQE at %u: index %u qpn 0x%x opcode 0x%x",
			 qp->qpn, idx, PGET(raw, MLX5X_WQE_CTRL_WQE_INDEX),
			 w->qpn, w->opcode);
		return MLX5X_CQE_SYND_LOCAL_QP_OP_ERR;
	}
	if (sq_read(e, qp, idx, 0, raw, end))
		return MLX5X_CQE_SYND_LOCAL_QP_OP_ERR;
	if (w->opcode == MLX5X_OPCODE_UMR)
		return parse_umr(raw, end, w);
	ret = parse_transport(qp, raw, end, &pos, w);
	if (!ret)
		ret = parse_data(raw, end, pos, w);
	if (ret)
		e->eng.st.wqe_faults++;
	if (w->opcode == MLX5X_OPCODE_ATOMIC_CS ||
	    w->opcode == MLX5X_OPCODE_ATOMIC_FA) {
		/* the result buffer: exactly 8 bytes */
		if (!ret && w->len != 8)
			ret = MLX5X_CQE_SYND_LOCAL_LENGTH_ERR;
	}
	return ret;
}

/* ---- receive queues ---- */

static uint32_t rq_log_stride(const struct emu_qp *qp)
{
	return QPC(qp, MLX5X_QPC_LOG_RQ_STRIDE) + MLX5X_WQE_DS_SHIFT;
}

int rq_avail(struct emu *e, struct emu_qp *qp, uint32_t *n)
{
	uint16_t pi;

	if (!qp->rq_len || dbr_read16(e, qp->dbr + MLX5X_QP_DBR_RCV_OFF, &pi))
		return -EFAULT;
	/* a counter further ahead than the queue holds posts no more */
	*n = MIN((uint32_t)(uint16_t)(pi - qp->eng.rq_ci),
		 (uint32_t)(qp->rq_len >> rq_log_stride(qp)));
	return 0;
}

/* data segments of a receive WQE, up to the terminating segment */
static void parse_scatter(const uint8_t *raw, uint32_t len, struct rwqe *w)
{
	uint32_t pos;

	w->nsge = 0;
	w->cap = 0;
	for (pos = 0; pos + MLX5X_WQE_DS_LEN <= len &&
	     w->nsge < RWQE_MAX_SGE; pos += MLX5X_WQE_DS_LEN) {
		const uint8_t *s = raw + pos;
		uint32_t lkey = get_be32(s + MLX5X_WQE_DATA_LKEY_OFF);
		uint32_t bc = get_be32(s + MLX5X_WQE_DATA_BYTE_COUNT_OFF) &
			      MLX5X_WQE_DATA_BYTE_COUNT_MASK;

		if (lkey == MLX5X_INVALID_LKEY)
			break;
		w->sge[w->nsge].lkey = lkey;
		w->sge[w->nsge].len = bc ? bc : DS_ZERO_LEN;
		w->sge[w->nsge].addr = get_be64(s + MLX5X_WQE_DATA_ADDR_OFF);
		w->cap += w->sge[w->nsge].len;
		w->nsge++;
	}
}

int rq_read(struct emu *e, struct emu_qp *qp, uint16_t idx, struct rwqe *w)
{
	uint32_t ls = rq_log_stride(qp);
	uint32_t nwqe = (uint32_t)(qp->rq_len >> ls);
	uint32_t skip = QPC(qp, MLX5X_QPC_WQ_SIGNATURE) ? MLX5X_WQE_DS_LEN : 0;
	uint8_t raw[RWQE_MAX_SGE * MLX5X_WQE_DS_LEN];
	uint32_t len = MIN(1u << ls, (uint32_t)sizeof(raw));

	w->idx = idx;
	if (!nwqe || skip >= len ||
	    pas_read(e, &qp->pas, (uint64_t)(idx & (nwqe - 1)) << ls, raw, len))
		return -EFAULT;
	parse_scatter(raw + skip, len - skip, w);
	return 0;
}

int srq_avail(struct emu *e, struct emu_srq *srq, uint32_t *n)
{
	uint16_t pi;

	if (dbr_read16(e, srq->dbr + MLX5X_SRQ_DBR_COUNTER_OFF, &pi))
		return -EFAULT;
	*n = MIN((uint32_t)(uint16_t)(pi - srq->eng.count),
		 1u << srq->log_size);
	return 0;
}

static uint64_t srq_wqe_off(const struct emu_srq *srq, uint16_t idx)
{
	uint32_t mask = (1u << srq->log_size) - 1;

	return (uint64_t)(idx & mask) << (srq->log_stride + MLX5X_WQE_DS_SHIFT);
}

int srq_read(struct emu *e, struct emu_srq *srq, uint16_t idx,
	     struct rwqe *w)
{
	uint8_t raw[RWQE_MAX_SGE * MLX5X_WQE_DS_LEN];
	uint32_t len = MIN(16u << srq->log_stride, (uint32_t)sizeof(raw));

	w->idx = idx;
	if (len <= MLX5X_WQE_DS_LEN ||
	    pas_read(e, &srq->pas, srq_wqe_off(srq, idx), raw, len))
		return -EFAULT;
	parse_scatter(raw + MLX5X_WQE_DS_LEN, len - MLX5X_WQE_DS_LEN, w);
	return 0;
}

int srq_take(struct emu *e, struct emu_srq *srq, uint16_t *idx)
{
	uint8_t next[4];
	uint32_t mask = (1u << srq->log_size) - 1;

	*idx = srq->eng.head & mask;
	if (pas_read(e, &srq->pas, srq_wqe_off(srq, *idx), next, sizeof(next)))
		return -EFAULT;
	srq->eng.head = (uint16_t)(PGET(next, MLX5X_WQE_SRQ_NEXT_INDEX) & mask);
	srq->eng.count++;
	srq->eng.taken++;
	if (srq->eng.lwm) {
		uint32_t left;

		if (!srq_avail(e, srq, &left) && left < srq->eng.lwm) {
			srq->eng.lwm = 0;
			eng_srq_event(e, srq, MLX5X_EVENT_SRQ_RQ_LIMIT);
		}
	}
	return 0;
}
