/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Driver-side helpers for the transport engine tests: memory keys, CQs,
 * QPs and their state transitions made by commands, and a data path that
 * writes WQEs, doorbell records and doorbells the way libmlx5 does
 * (send WQEs in 64-byte basic blocks with wrap-around, receive WQEs with
 * the invalid-lkey terminator, the CQ arm word in the record before the
 * UAR write) and polls CQEs and EQEs by their owner bits.  The engine
 * runs on a virtual clock, synchronously: th_run() executes everything
 * that is due.
 */
#ifndef EMU_ENG_TH_H
#define EMU_ENG_TH_H

#include <stdlib.h>

#include "engine.h"
#include "harness.h"
#include "wire.h"

/* a user virtual address range, unrelated to the bus addresses */
#define TE_VA_BASE	0x00007f1200000000ull

struct te {
	struct th t;
	uint64_t now;		/* virtual clock, ns */
	uint64_t va_next;
	uint32_t async_eqn, comp_eqn;
	uint64_t async_ring, comp_ring;
	uint32_t async_ci, comp_ci;
	unsigned int log_eq;
};

struct tmr {
	uint32_t key;
	uint64_t va, len, iova;
	uint8_t *host;
};

struct tcq {
	uint32_t cqn;
	uint64_t buf, dbr;
	unsigned int log_size, cqe_sz;
	uint32_t ci;
	uint8_t sn;
};

struct tqp {
	uint32_t qpn;
	uint8_t st;
	uint64_t buf, dbr;
	unsigned int log_rq, log_rq_stride, log_sq;	/* stride: 16 << x */
	uint16_t sq_pi, rq_pi;
	uint32_t uidx;
	struct tcq *scq, *rcq;
	uint32_t srqn;
	uint32_t xrcd;		/* XRC domain */
};

struct tsrq {
	uint32_t srqn;
	uint64_t buf, dbr;
	unsigned int log_size, log_stride;
	uint16_t head, counter;
};

struct tcqe {
	uint8_t opcode, syndrome, wqe_op;
	bool se;
	uint16_t wqe_counter;
	uint32_t byte_cnt, qpn, uidx, rqpn;
	uint16_t slid;
	uint8_t imm[4];		/* or, on QP1, the received P_Key */
};

static inline uint64_t te_clock(void *arg)
{
	return *(uint64_t *)arg;
}

static inline void te_run(struct te *x)
{
	eng_drain(&x->t.e, x->now);
}

static inline void te_advance(struct te *x, uint64_t ns)
{
	x->now += ns;
	te_run(x);
}

static inline void te_must(struct te *x, void *in, uint32_t inlen, void *out,
			   uint32_t outlen, const char *what)
{
	unsigned int st = th_status(&x->t, in, inlen, out, outlen);

	if (st) {
		diag("%s failed: status 0x%x syndrome 0x%x", what, st,
		     th_syndrome(out));
		abort();
	}
}

static inline uint64_t te_async_mask(void)
{
	return 1ull << MLX5X_EVENT_CQ_ERROR | 1ull << MLX5X_EVENT_COMM_EST |
	       1ull << MLX5X_EVENT_WQ_CATAS_ERROR |
	       1ull << MLX5X_EVENT_WQ_INVAL_REQ_ERROR |
	       1ull << MLX5X_EVENT_WQ_ACCESS_ERROR |
	       1ull << MLX5X_EVENT_SRQ_LAST_WQE |
	       1ull << MLX5X_EVENT_SRQ_RQ_LIMIT;
}

/* a device up to INIT_HCA, an async EQ (vector 0), a completion EQ (1) */
static inline void te_setup(struct te *x)
{
	memset(x, 0, sizeof(*x));
	th_setup(&x->t);
	th_init_hca(&x->t);
	x->t.e.eng.clock = te_clock;
	x->t.e.eng.clock_arg = &x->now;
	x->now = 1000000000ull;
	x->va_next = TE_VA_BASE;
	x->log_eq = 6;
	x->async_eqn = th_create_eq(&x->t, x->log_eq, te_async_mask(), 0,
				    &x->async_ring);
	x->comp_eqn = th_create_eq(&x->t, x->log_eq, 0, 1, &x->comp_ring);
}

static inline void te_teardown(struct te *x)
{
	th_teardown(&x->t);
}

/* ---- memory keys ---- */

enum {
	TMR_LR = 1, TMR_LW = 2, TMR_RR = 4, TMR_RW = 8, TMR_A = 16,
	TMR_ALL = 31,
};

static inline struct tmr te_mr_pd(struct te *x, uint64_t len, unsigned int acc,
				  uint32_t pd)
{
	uint64_t pages = (len + 4095) / 4096 + 1;
	uint32_t n = (uint32_t)((pages + 1) & ~1ull);
	uint32_t inlen = MLX5X_CREATE_MKEY_IN_LEN + 8 * n, i;
	uint8_t *in = calloc(1, inlen), out[16];
	uint8_t *mkc = in + MLX5X_CREATE_MKEY_IN_MKC_OFF;
	static uint8_t variant = 0x11;
	struct tmr m;

	/* a buffer that starts 0x123 bytes into its first page */
	m.iova = th_alloc(&x->t, pages * 4096, 4096);
	m.va = x->va_next + 0x123;
	x->va_next += (pages + 1) * 4096;
	m.len = len;
	m.host = th_host(&x->t, m.iova) + 0x123;
	th_hdr(in, MLX5X_CMD_OP_CREATE_MKEY, 0);
	PSET(mkc, MLX5X_MKC_ACCESS_MODE_1_0, MLX5X_MKC_ACCESS_MODE_MTT);
	PSET(mkc, MLX5X_MKC_LR, !!(acc & TMR_LR));
	PSET(mkc, MLX5X_MKC_LW, !!(acc & TMR_LW));
	PSET(mkc, MLX5X_MKC_RR, !!(acc & TMR_RR));
	PSET(mkc, MLX5X_MKC_RW, !!(acc & TMR_RW));
	PSET(mkc, MLX5X_MKC_A, !!(acc & TMR_A));
	PSET(mkc, MLX5X_MKC_QPN, 0xffffff);
	PSET(mkc, MLX5X_MKC_MKEY_7_0, variant);
	PSET(mkc, MLX5X_MKC_PD, pd);
	put_be64(mkc + MLX5X_MKC_START_ADDR_OFF, m.va);
	put_be64(mkc + MLX5X_MKC_LEN_OFF, len);
	PSET(mkc, MLX5X_MKC_TRANSLATIONS_OCTWORD_SIZE, n / 2);
	PSET(mkc, MLX5X_MKC_LOG_PAGE_SIZE, 12);
	put_be32(in + MLX5X_CREATE_MKEY_IN_TRANSLATIONS_ACTUAL_OFF, n / 2);
	for (i = 0; i < pages; i++)
		put_be64(in + MLX5X_CREATE_MKEY_IN_MTT_OFF + 8 * i,
			 m.iova + 4096ull * i);
	te_must(x, in, inlen, out, 16, "CREATE_MKEY");
	m.key = PGET(out, MLX5X_CREATE_MKEY_OUT_MKEY_INDEX) << 8 | variant;
	variant++;
	free(in);
	return m;
}

static inline struct tmr te_mr(struct te *x, uint64_t len, unsigned int acc)
{
	return te_mr_pd(x, len, acc, x->t.pd);
}

/* a kernel-style DMA key: PA mode, all of memory */
static inline uint32_t te_pa_mkey(struct te *x, uint32_t pd)
{
	uint8_t in[MLX5X_CREATE_MKEY_IN_LEN] = { 0 }, out[16];
	uint8_t *mkc = in + MLX5X_CREATE_MKEY_IN_MKC_OFF;

	th_hdr(in, MLX5X_CMD_OP_CREATE_MKEY, 0);
	PSET(mkc, MLX5X_MKC_ACCESS_MODE_1_0, MLX5X_MKC_ACCESS_MODE_PA);
	PSET(mkc, MLX5X_MKC_LR, 1);
	PSET(mkc, MLX5X_MKC_LW, 1);
	PSET(mkc, MLX5X_MKC_LENGTH64, 1);
	PSET(mkc, MLX5X_MKC_QPN, 0xffffff);
	PSET(mkc, MLX5X_MKC_MKEY_7_0, 0x5a);
	PSET(mkc, MLX5X_MKC_PD, pd);
	te_must(x, in, sizeof(in), out, 16, "CREATE_MKEY PA");
	return PGET(out, MLX5X_CREATE_MKEY_OUT_MKEY_INDEX) << 8 | 0x5a;
}

static inline void te_destroy_mkey(struct te *x, uint32_t key)
{
	uint8_t in[16] = { 0 }, out[16];

	th_hdr(in, MLX5X_CMD_OP_DESTROY_MKEY, 0);
	PSET(in, MLX5X_DESTROY_MKEY_IN_MKEY_INDEX, key >> 8);
	te_must(x, in, 16, out, 16, "DESTROY_MKEY");
}

/* ---- CQs and EQs ---- */

static inline void te_cq_opts(struct te *x, struct tcq *cq, unsigned int log,
			      unsigned int cqe_sz, bool oi)
{
	uint32_t bytes = cqe_sz << log;
	uint32_t npages = (bytes + 4095) / 4096, i;
	uint32_t inlen = MLX5X_CREATE_CQ_IN_LEN + 8 * npages;
	uint8_t *in = calloc(1, inlen), out[16];
	uint8_t *cqc = in + MLX5X_CREATE_CQ_IN_CQC_OFF;
	uint8_t *b;

	memset(cq, 0, sizeof(*cq));
	cq->log_size = log;
	cq->cqe_sz = cqe_sz;
	cq->buf = th_alloc(&x->t, npages * 4096ull, 4096);
	cq->dbr = th_alloc(&x->t, 64, 64);
	b = th_host(&x->t, cq->buf);
	for (i = 0; i < (1u << log); i++)
		b[cqe_sz * i + cqe_sz - 1] = MLX5X_CQE_INVALID << 4;
	th_hdr(in, MLX5X_CMD_OP_CREATE_CQ, 0);
	PSET(cqc, MLX5X_CQC_LOG_CQ_SIZE, log);
	PSET(cqc, MLX5X_CQC_CQE_SZ, cqe_sz == 128 ? MLX5X_CQE_SIZE_128 :
		      MLX5X_CQE_SIZE_64);
	PSET(cqc, MLX5X_CQC_OI, oi);
	PSET(cqc, MLX5X_CQC_UAR_PAGE, x->t.uar);
	PSET(cqc, MLX5X_CQC_C_EQN, x->comp_eqn);
	put_be64(cqc + MLX5X_CQC_DBR_ADDR_OFF, cq->dbr);
	for (i = 0; i < npages; i++)
		put_be64(in + MLX5X_CREATE_CQ_IN_PAS_OFF + 8 * i,
			 cq->buf + 4096ull * i);
	te_must(x, in, inlen, out, 16, "CREATE_CQ");
	cq->cqn = PGET(out, MLX5X_CREATE_CQ_OUT_CQN);
	free(in);
}

static inline void te_cq(struct te *x, struct tcq *cq, unsigned int log)
{
	te_cq_opts(x, cq, log, 64, false);
}

static inline struct emu_cq *te_emu_cq(struct te *x, struct tcq *cq)
{
	return objtab_get(&x->t.e.obj[OBJ_CQ], cq->cqn);
}

/* poll one CQE like libmlx5; 0 if the CQ is empty */
static inline int te_poll(struct te *x, struct tcq *cq, struct tcqe *o)
{
	uint8_t *c = th_host(&x->t, cq->buf) +
		     (uint64_t)(cq->ci & ((1u << cq->log_size) - 1)) * cq->cqe_sz +
		     cq->cqe_sz - 64;
	uint8_t own = c[MLX5X_CQE_OP_OWN_OFF];

	memset(o, 0, sizeof(*o));
	if ((own >> 4) == MLX5X_CQE_INVALID ||
	    (own & 1) != ((cq->ci >> cq->log_size) & 1))
		return 0;
	o->opcode = own >> 4;
	o->se = own & MLX5X_CQE_SE_MASK;
	o->wqe_counter = (uint16_t)PGET(c, MLX5X_CQE_WQE_COUNTER);
	o->byte_cnt = PGET(c, MLX5X_CQE_BYTE_CNT);
	o->qpn = PGET(c, MLX5X_CQE_QPN);
	o->uidx = PGET(c, MLX5X_CQE_SRQN_UIDX);
	o->rqpn = PGET(c, MLX5X_CQE_RQPN);
	o->slid = (uint16_t)PGET(c, MLX5X_CQE_SLID);
	o->wqe_op = (uint8_t)PGET(c, MLX5X_CQE_SOP_DROP);
	o->syndrome = (uint8_t)PGET(c, MLX5X_ERR_CQE_SYNDROME);
	memcpy(o->imm, c + MLX5X_CQE_IMM_INVAL_PKEY_OFF, 4);
	cq->ci++;
	put_be32(th_host(&x->t, cq->dbr), cq->ci & 0xffffff);
	return 1;
}

/* srqn_uidx of a CQE: the QP's user index with cqe v1, else the SRQ */
static inline uint32_t te_uidx(struct te *x, const struct tqp *qp,
			       uint32_t srqn)
{
	if (CAP(&x->t.e, MLX5X_CAP_CQE_VERSION) == 1)
		return qp->uidx;
	return srqn;
}

static inline int te_poll_n(struct te *x, struct tcq *cq, struct tcqe *o,
			    int max)
{
	int n = 0;

	while (n < max && te_poll(x, cq, &o[n]))
		n++;
	return n;
}

/* ibv_req_notify_cq: record first, then the UAR doorbell */
static inline void te_arm(struct te *x, struct tcq *cq, bool solicited)
{
	uint32_t word = (uint32_t)(cq->sn & 3) << 28 |
			(solicited ? 1u << 24 : 0) | (cq->ci & 0xffffff);
	uint8_t db[8];

	put_be32(th_host(&x->t, cq->dbr) + 4, word);
	put_be32(db, word);
	put_be32(db + 4, cq->cqn);
	emu_bar0_write(&x->t.e, (uint64_t)x->t.uar * EMU_PAGE_SIZE +
		       MLX5X_UAR_CQ_DB_OFF, db, 8);
}

/* an EQE on ring/ci (owner 0 on the first pass); its type or -1 */
static inline int te_eqe(struct te *x, uint64_t ring, uint32_t *ci,
			 uint8_t *data)
{
	uint8_t *q = th_host(&x->t, ring) +
		     64ull * (*ci & ((1u << x->log_eq) - 1));

	if ((q[MLX5X_EQE_OWNER_OFF] & 1) != ((*ci >> x->log_eq) & 1))
		return -1;
	if (data)
		memcpy(data, q, 64);
	(*ci)++;
	return q[MLX5X_EQE_TYPE_OFF];
}

/* completion EQEs naming cqn since the last call */
static inline int te_comp_events(struct te *x, uint32_t cqn)
{
	uint8_t d[64];
	int n = 0;

	while (te_eqe(x, x->comp_ring, &x->comp_ci, d) >= 0)
		if ((get_be32(d + MLX5X_EQE_COMP_CQN_OFF) & 0xffffff) == cqn)
			n++;
	return n;
}

/* count async EQEs of a type (and for resource num, ~0: any) */
static inline int te_async_events(struct te *x, uint8_t type, uint32_t num)
{
	uint8_t d[64];
	int t, n = 0;

	while ((t = te_eqe(x, x->async_ring, &x->async_ci, d)) >= 0) {
		uint32_t r = type == MLX5X_EVENT_CQ_ERROR ?
			     get_be32(d + MLX5X_EQE_CQ_ERR_CQN_OFF) :
			     get_be32(d + MLX5X_EQE_QP_SRQ_NUM_OFF);

		if (t == type && (num == ~0u || (r & 0xffffff) == num))
			n++;
	}
	return n;
}

/* ---- QPs ---- */

static inline void te_qp_type_pd(struct te *x, struct tqp *qp, uint8_t st,
				 struct tcq *scq, struct tcq *rcq,
				 unsigned int log_rq, unsigned int log_sq,
				 uint32_t srqn, uint32_t pd, uint32_t xrcd)
{
	uint64_t rq_len, sq_len, bytes;
	uint32_t npages, inlen, i;
	uint8_t *in, out[16], *qpc;
	static uint32_t uidx = 0x100;

	memset(qp, 0, sizeof(*qp));
	qp->xrcd = xrcd;
	qp->st = st;
	qp->log_rq = srqn ? 0 : log_rq;
	qp->log_rq_stride = 2;		/* 64-byte RQ WQEs: 4 SGEs */
	qp->log_sq = log_sq;
	qp->scq = scq;
	qp->rcq = rcq;
	qp->srqn = srqn;
	qp->uidx = uidx++;
	rq_len = srqn ? 0 : 16ull << (log_rq + qp->log_rq_stride);
	sq_len = log_sq ? 64ull << log_sq : 0;
	bytes = rq_len + sq_len;
	npages = (uint32_t)((bytes + 4095) / 4096);
	qp->buf = th_alloc(&x->t, npages * 4096ull, 4096);
	qp->dbr = th_alloc(&x->t, 64, 64);
	inlen = MLX5X_CREATE_QP_IN_LEN + 8 * npages;
	in = calloc(1, inlen);
	qpc = in + MLX5X_QP_IN_QPC_OFF;
	th_hdr(in, MLX5X_CMD_OP_CREATE_QP, 0);
	PSET(qpc, MLX5X_QPC_ST, st);
	PSET(qpc, MLX5X_QPC_PM_STATE, MLX5X_QP_PM_MIGRATED);
	PSET(qpc, MLX5X_QPC_PD, pd);
	PSET(qpc, MLX5X_QPC_UAR_PAGE, x->t.uar);
	PSET(qpc, MLX5X_QPC_USER_INDEX, qp->uidx);
	PSET(qpc, MLX5X_QPC_LOG_RQ_SIZE, qp->log_rq);
	PSET(qpc, MLX5X_QPC_LOG_RQ_STRIDE, qp->log_rq_stride);
	PSET(qpc, MLX5X_QPC_LOG_SQ_SIZE, log_sq);
	PSET(qpc, MLX5X_QPC_CQN_SND, scq->cqn);
	PSET(qpc, MLX5X_QPC_CQN_RCV, rcq->cqn);
	if (srqn) {
		PSET(qpc, MLX5X_QPC_RQ_TYPE, MLX5X_QP_RQ_SRQ);
		PSET(qpc, MLX5X_QPC_SRQN_RMPN_XRQN, srqn);
	}
	PSET(qpc, MLX5X_QPC_XRCD, xrcd);
	if (!log_sq)
		PSET(qpc, MLX5X_QPC_NO_SQ, 1);
	put_be64(qpc + MLX5X_QPC_DBR_ADDR_OFF, qp->dbr);
	for (i = 0; i < npages; i++)
		put_be64(in + MLX5X_CREATE_QP_IN_PAS_OFF + 8 * i,
			 qp->buf + 4096ull * i);
	te_must(x, in, inlen, out, 16, "CREATE_QP");
	qp->qpn = PGET(out, MLX5X_CREATE_QP_OUT_QPN);
	free(in);
}

static inline void te_qp_type(struct te *x, struct tqp *qp, uint8_t st,
			      struct tcq *scq, struct tcq *rcq,
			      unsigned int log_rq, unsigned int log_sq,
			      uint32_t srqn)
{
	te_qp_type_pd(x, qp, st, scq, rcq, log_rq, log_sq, srqn, x->t.pd, 0);
}

static inline void te_qp(struct te *x, struct tqp *qp, struct tcq *scq,
			 struct tcq *rcq)
{
	te_qp_type(x, qp, MLX5X_QP_ST_RC, scq, rcq, 4, 4, 0);
}

static inline struct emu_qp *te_emu_qp(struct te *x, struct tqp *qp)
{
	return objtab_get(&x->t.e.obj[OBJ_QP], qp->qpn);
}

static inline unsigned int te_modify(struct te *x, struct tqp *qp,
				     uint16_t op, uint8_t *qpc_in,
				     uint32_t optpar)
{
	uint8_t in[MLX5X_QP_MODIFY_IN_LEN] = { 0 }, out[16];

	th_hdr(in, op, 0);
	PSET(in, MLX5X_QP_IN_QPN, qp->qpn);
	put_be32(in + MLX5X_QP_IN_OPT_PARAM_MASK_OFF, optpar);
	if (qpc_in)
		memcpy(in + MLX5X_QP_IN_QPC_OFF, qpc_in, MLX5X_QPC_LEN);
	return th_status(&x->t, in, sizeof(in), out, 16);
}

struct te_conn {
	uint32_t rqpn;
	uint16_t dlid;
	uint32_t rpsn, spsn;
	uint8_t mtu;		/* qpc encoding */
	uint8_t min_rnr, rnr_retry, retry, timeout;
	bool rre, rwe, rae;
	bool grh;
	uint8_t dgid[16];
};

static inline struct te_conn te_conn_default(struct te *x, struct tqp *peer)
{
	struct te_conn c = {
		.rqpn = peer->qpn,
		.dlid = x->t.e.port.lid,
		.rpsn = 0x100, .spsn = 0x100,
		.mtu = MLX5X_QPC_MTU_1K,
		.min_rnr = 12, .rnr_retry = 7, .retry = 7, .timeout = 14,
		.rre = true, .rwe = true, .rae = true,
	};

	return c;
}

/* RST -> INIT -> RTR -> RTS with the attributes a connection sets */
static inline unsigned int te_connect(struct te *x, struct tqp *qp,
				      const struct te_conn *c, bool rts)
{
	uint8_t qpc[MLX5X_QPC_LEN] = { 0 };
	uint8_t *path = qpc + MLX5X_QPC_PRI_PATH_OFF;
	unsigned int st;

	PSET(path, MLX5X_ADS_VHCA_PORT_NUM, 1);
	PSET(qpc, MLX5X_QPC_Q_KEY, qp->st == MLX5X_QP_ST_QP1 ? MLX5X_GSI_QKEY :
				   0x1111);
	if (!c) {
		/* datagram QPs: no peer, no path */
		st = te_modify(x, qp, MLX5X_CMD_OP_RST2INIT_QP, qpc, 0);
		memset(qpc, 0, sizeof(qpc));
		if (!st)
			st = te_modify(x, qp, MLX5X_CMD_OP_INIT2RTR_QP, qpc, 0);
		if (!st && rts)
			st = te_modify(x, qp, MLX5X_CMD_OP_RTR2RTS_QP, qpc, 0);
		return st;
	}
	PSET(qpc, MLX5X_QPC_RRE, c->rre);
	PSET(qpc, MLX5X_QPC_RWE, c->rwe);
	PSET(qpc, MLX5X_QPC_RAE, c->rae);
	st = te_modify(x, qp, MLX5X_CMD_OP_RST2INIT_QP, qpc, 0);
	if (st)
		return st;
	memset(qpc, 0, sizeof(qpc));
	PSET(qpc, MLX5X_QPC_MTU, c->mtu);
	PSET(qpc, MLX5X_QPC_LOG_MSG_MAX, 30);
	PSET(qpc, MLX5X_QPC_REMOTE_QPN, c->rqpn);
	PSET(qpc, MLX5X_QPC_NEXT_RCV_PSN, c->rpsn);
	PSET(qpc, MLX5X_QPC_MIN_RNR_NAK, c->min_rnr);
	PSET(path, MLX5X_ADS_RLID, c->dlid);
	PSET(path, MLX5X_ADS_VHCA_PORT_NUM, 1);
	if (c->grh) {
		PSET(path, MLX5X_ADS_GRH, 1);
		PSET(path, MLX5X_ADS_HOP_LIMIT, 64);
		memcpy(path + MLX5X_ADS_RGID_RIP_OFF, c->dgid, 16);
	}
	st = te_modify(x, qp, MLX5X_CMD_OP_INIT2RTR_QP, qpc, 0);
	if (st || !rts)
		return st;
	memset(qpc, 0, sizeof(qpc));
	PSET(qpc, MLX5X_QPC_NEXT_SEND_PSN, c->spsn);
	PSET(qpc, MLX5X_QPC_RETRY_COUNT, c->retry);
	PSET(qpc, MLX5X_QPC_RNR_RETRY, c->rnr_retry);
	PSET(path, MLX5X_ADS_ACK_TIMEOUT, c->timeout);
	return te_modify(x, qp, MLX5X_CMD_OP_RTR2RTS_QP, qpc, 0);
}

/* two QPs connected to each other, default attributes */
static inline void te_pair(struct te *x, struct tqp *a, struct tqp *b)
{
	struct te_conn ca = te_conn_default(x, b), cb = te_conn_default(x, a);

	if (te_connect(x, a, &ca, true) || te_connect(x, b, &cb, true))
		abort();
}

/* ---- the data path ---- */

struct tsge {
	uint32_t lkey;
	uint64_t addr;
	uint32_t len;
};

static inline uint8_t *te_sq_bb(struct te *x, struct tqp *qp, uint32_t bb)
{
	uint64_t rq_len = qp->srqn ? 0 : 16ull << (qp->log_rq + qp->log_rq_stride);

	return th_host(&x->t, qp->buf) + rq_len +
	       64ull * (bb & ((1u << qp->log_sq) - 1));
}

/* write len bytes at byte offset off of the WQE starting at bb, wrapping */
static inline void te_sq_put(struct te *x, struct tqp *qp, uint16_t bb,
			     uint32_t off, const void *src, uint32_t len)
{
	const uint8_t *s = src;

	while (len) {
		uint32_t b = bb + off / 64, o = off % 64;
		uint32_t n = MIN(len, 64 - o);

		memcpy(te_sq_bb(x, qp, b) + o, s, n);
		s += n;
		off += n;
		len -= n;
	}
}

enum {
	TE_SIGNALED = 1, TE_SOLICITED = 2, TE_INLINE = 4, TE_FENCE = 8,
};

struct tsend {
	uint8_t opcode;
	unsigned int flags;
	uint32_t imm;		/* host value, stored big-endian */
	uint64_t raddr;
	uint32_t rkey;
	uint64_t swap_add, compare;
	const struct tsge *sg;
	unsigned int nsge;
	const void *inl;	/* TE_INLINE: these bytes */
	uint32_t inl_len;
	/* UD, QP0, QP1 */
	uint32_t dqpn, qkey;
	uint16_t dlid;
	bool grh;		/* with a GRH to dgid (SGID index 0) */
	uint8_t dgid[16];
	/* XRC */
	uint32_t xrc_srqn;
};

/* build one WQE at sq_pi; returns its WQEBB counter */
static inline uint16_t te_post(struct te *x, struct tqp *qp,
			       const struct tsend *s)
{
	uint8_t w[1024] = { 0 };
	uint32_t pos = 16, i, ds;
	uint16_t idx = qp->sq_pi;

	PSET(w, MLX5X_WQE_CTRL_WQE_INDEX, idx);
	PSET(w, MLX5X_WQE_CTRL_OPCODE, s->opcode);
	PSET(w, MLX5X_WQE_CTRL_QPN, qp->qpn);
	w[11] = (s->flags & TE_SIGNALED ? 0x08 : 0) |
		(s->flags & TE_SOLICITED ? 0x02 : 0) |
		(s->flags & TE_FENCE ? 0x80 : 0);
	put_be32(w + MLX5X_WQE_CTRL_IMM_OFF, s->imm);
	if (qp->st == MLX5X_QP_ST_XRC) {
		PSET(w + pos, MLX5X_WQE_XRC_SRQN, s->xrc_srqn);
		pos += 16;
	}
	if (qp->st == MLX5X_QP_ST_UD || qp->st == MLX5X_QP_ST_QP1 ||
	    qp->st == MLX5X_QP_ST_QP0) {
		uint8_t *av = w + pos;

		put_be32(av + MLX5X_WQE_AV_QKEY_OFF, s->qkey);
		put_be32(av + MLX5X_WQE_AV_EXT_OFF, 0x80000000u | s->dqpn);
		PSET(av, MLX5X_WQE_AV_RLID, s->dlid);
		if (s->grh) {
			PSET(av, MLX5X_WQE_AV_GRH, 1);
			PSET(av, MLX5X_WQE_AV_HOP_LIMIT, 1);
			memcpy(av + MLX5X_WQE_AV_RGID_OFF, s->dgid, 16);
		}
		pos += MLX5X_WQE_AV_LEN;
	}
	switch (s->opcode) {
	case MLX5X_OPCODE_RDMA_WRITE:
	case MLX5X_OPCODE_RDMA_WRITE_IMM:
	case MLX5X_OPCODE_RDMA_READ:
	case MLX5X_OPCODE_ATOMIC_CS:
	case MLX5X_OPCODE_ATOMIC_FA:
		put_be64(w + pos, s->raddr);
		put_be32(w + pos + 8, s->rkey);
		pos += 16;
		break;
	}
	if (s->opcode == MLX5X_OPCODE_ATOMIC_CS ||
	    s->opcode == MLX5X_OPCODE_ATOMIC_FA) {
		put_be64(w + pos, s->swap_add);
		put_be64(w + pos + 8, s->compare);
		pos += 16;
	}
	if (s->flags & TE_INLINE) {
		put_be32(w + pos, 0x80000000u | s->inl_len);
		memcpy(w + pos + 4, s->inl, s->inl_len);
		pos += (4 + s->inl_len + 15) & ~15u;
	} else {
		for (i = 0; i < s->nsge; i++) {
			if (!s->sg[i].len)
				continue;	/* libmlx5 skips these */
			put_be32(w + pos, s->sg[i].len);
			put_be32(w + pos + 4, s->sg[i].lkey);
			put_be64(w + pos + 8, s->sg[i].addr);
			pos += 16;
		}
	}
	ds = pos / 16;
	PSET(w, MLX5X_WQE_CTRL_DS, ds);
	te_sq_put(x, qp, idx, 0, w, pos);
	qp->sq_pi += (uint16_t)((pos + 63) / 64);
	return idx;
}

/* doorbell record, then the 8-byte doorbell of the last WQE's control */
static inline void te_ring_at(struct te *x, struct tqp *qp, uint16_t last,
			      uint32_t bf_off)
{
	uint8_t db[8];

	put_be32(th_host(&x->t, qp->dbr) + 4, qp->sq_pi);
	memcpy(db, te_sq_bb(x, qp, last), 8);
	emu_bar0_write(&x->t.e, (uint64_t)x->t.uar * EMU_PAGE_SIZE + bf_off,
		       db, 8);
}

static inline void te_ring(struct te *x, struct tqp *qp, uint16_t last)
{
	te_ring_at(x, qp, last, MLX5X_UAR_BF_OFF);
}

static inline uint16_t te_send(struct te *x, struct tqp *qp,
			       const struct tsend *s)
{
	uint16_t idx = te_post(x, qp, s);

	te_ring(x, qp, idx);
	return idx;
}

/* a receive WQE with up to 4 SGEs and the terminator */
static inline void te_recv(struct te *x, struct tqp *qp, const struct tsge *sg,
			   unsigned int n)
{
	uint32_t stride = 16u << qp->log_rq_stride, i, k = 0;
	uint8_t *w = th_host(&x->t, qp->buf) +
		     (uint64_t)(qp->rq_pi & ((1u << qp->log_rq) - 1)) * stride;

	memset(w, 0, stride);
	for (i = 0; i < n; i++, k++) {
		put_be32(w + 16 * k, sg[i].len);
		put_be32(w + 16 * k + 4, sg[i].lkey);
		put_be64(w + 16 * k + 8, sg[i].addr);
	}
	if (k < stride / 16)
		put_be32(w + 16 * k + 4, MLX5X_INVALID_LKEY);
	qp->rq_pi++;
	put_be32(th_host(&x->t, qp->dbr), qp->rq_pi);
}

static inline struct tsge te_sge(const struct tmr *m, uint64_t off,
				 uint32_t len)
{
	struct tsge s = { m->key, m->va + off, len };

	return s;
}

#endif /* EMU_ENG_TH_H */
