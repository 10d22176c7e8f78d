// SPDX-License-Identifier: GPL-2.0
/*
 * Objects: numbers, references and state.  PD/XRCD/UAR, memory keys,
 * CQs, SRQs (all three forms) and QPs with their validation and the QP
 * state machine.
 */
#include <stdlib.h>

#include "harness.h"

static unsigned int run(struct th *t, uint8_t *in, uint32_t inlen,
			uint8_t *out, uint32_t outlen)
{
	return th_status(t, in, inlen, out, outlen);
}

static unsigned int destroy(struct th *t, uint16_t op, uint32_t num)
{
	uint8_t in[16] = { 0 }, out[16];

	th_hdr(in, op, 0);
	put_be32(in + 8, num & 0xffffff);
	return run(t, in, 16, out, 16);
}

static void test_numbers(void)
{
	struct th t;
	uint32_t pd, x;

	th_setup(&t);
	th_init_hca(&t);
	pd = th_alloc_num(&t, MLX5X_CMD_OP_ALLOC_PD);
	ok(pd != t.pd, "a second PD gets another number");
	x = th_alloc_num(&t, MLX5X_CMD_OP_ALLOC_XRCD);
	is_u(t.e.obj[OBJ_XRCD].live, 1, "XRCD live count 1");
	ok(t.uar >= EMU_UAR_FIRST && t.uar < EMU_UAR_LIMIT,
	   "the UAR index is a BAR0 page past the init segment, below MSI-X");
	is_u(destroy(&t, MLX5X_CMD_OP_DEALLOC_PD, 0x777), MLX5X_CMD_STAT_BAD_RES,
	     "DEALLOC_PD of an unknown PD -> BAD_RES");
	is_u(destroy(&t, MLX5X_CMD_OP_DEALLOC_PD, pd), 0, "DEALLOC_PD");
	is_u(destroy(&t, MLX5X_CMD_OP_DEALLOC_PD, pd), MLX5X_CMD_STAT_BAD_RES,
	     "DEALLOC_PD twice -> BAD_RES");
	is_u(destroy(&t, MLX5X_CMD_OP_DEALLOC_XRCD, x), 0, "DEALLOC_XRCD");
	is_u(destroy(&t, MLX5X_CMD_OP_DEALLOC_UAR, 2), MLX5X_CMD_STAT_BAD_RES,
	     "DEALLOC_UAR of an init segment page -> BAD_RES");
	is_u(th_alloc_num(&t, MLX5X_CMD_OP_ALLOC_PD) != pd, 1,
	     "a freed PD number is not handed out again at once");
	th_teardown(&t);
}

static uint8_t *mkey_in(uint32_t pd, uint32_t mode, uint32_t n_mtt,
			uint32_t *inlen)
{
	uint8_t *in, *mkc;

	*inlen = MLX5X_CREATE_MKEY_IN_LEN + 8 * n_mtt;
	in = calloc(1, *inlen);
	mkc = in + MLX5X_CREATE_MKEY_IN_MKC_OFF;
	th_hdr(in, MLX5X_CMD_OP_CREATE_MKEY, 0);
	PSET(mkc, MLX5X_MKC_ACCESS_MODE_1_0, mode & 3);
	PSET(mkc, MLX5X_MKC_ACCESS_MODE_4_2, mode >> 2);
	PSET(mkc, MLX5X_MKC_PD, pd);
	PSET(mkc, MLX5X_MKC_LR, 1);
	PSET(mkc, MLX5X_MKC_LW, 1);
	PSET(mkc, MLX5X_MKC_MKEY_7_0, 0x42);
	PSET(mkc, MLX5X_MKC_LOG_PAGE_SIZE, 12);
	return in;
}

static void test_mkey(void)
{
	uint8_t out[MLX5X_QUERY_MKEY_OUT_LEN], *in, *mkc;
	struct emu_mkey *mk;
	uint32_t inlen, idx;
	struct th t;

	th_setup(&t);
	th_init_hca(&t);
	in = mkey_in(t.pd, MLX5X_MKC_ACCESS_MODE_MTT, 4, &inlen);
	mkc = in + MLX5X_CREATE_MKEY_IN_MKC_OFF;
	put_be64(mkc + MLX5X_MKC_START_ADDR_OFF, 0x7f0000001800ull);
	put_be64(mkc + MLX5X_MKC_LEN_OFF, 0x2000);
	PSET(mkc, MLX5X_MKC_TRANSLATIONS_OCTWORD_SIZE, 1);	/* 2 MTTs */
	is_u(run(&t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "2 MTTs for 8 KiB at offset 0x800 (3 pages) -> BAD_PARAM");
	PSET(mkc, MLX5X_MKC_TRANSLATIONS_OCTWORD_SIZE, 4);	/* 8 MTTs */
	is_u(run(&t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_INP_LEN,
	     "8 MTTs announced, 4 present -> BAD_INP_LEN");
	PSET(mkc, MLX5X_MKC_TRANSLATIONS_OCTWORD_SIZE, 2);	/* 4 MTTs */
	put_be64(in + MLX5X_CREATE_MKEY_IN_MTT_OFF, 0x123000);
	PSET(mkc, MLX5X_MKC_PD, 0x999);
	is_u(run(&t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_RES,
	     "an unknown PD -> BAD_RES");
	PSET(mkc, MLX5X_MKC_PD, t.pd);
	PSET(mkc, MLX5X_MKC_ACCESS_MODE_1_0, MLX5X_MKC_ACCESS_MODE_KLMS);
	is_u(run(&t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "KLM access mode (not advertised) -> BAD_PARAM");
	PSET(mkc, MLX5X_MKC_ACCESS_MODE_1_0, MLX5X_MKC_ACCESS_MODE_MTT);
	is_u(run(&t, in, inlen, out, 16), 0, "CREATE_MKEY in MTT mode");
	idx = PGET(out, MLX5X_CREATE_MKEY_OUT_MKEY_INDEX);
	mk = objtab_get(&t.e.obj[OBJ_MKEY], idx);
	ok(mk && mk->key == (idx << 8 | 0x42) && mk->n_mtt == 4 &&
	   mk->mtt[0] == 0x123000 && mk->len == 0x2000 && mk->lw && !mk->rw,
	   "the translation is kept: key, MTTs, length, access");
	is_u(destroy(&t, MLX5X_CMD_OP_DEALLOC_PD, t.pd), MLX5X_CMD_STAT_BAD_RES_STATE,
	     "DEALLOC_PD while an mkey uses it -> BAD_RES_STATE");
	{
		uint8_t q[16] = { 0 };

		th_hdr(q, MLX5X_CMD_OP_QUERY_MKEY, 0);
		PSET(q, MLX5X_QUERY_MKEY_IN_MKEY_INDEX, idx);
		is_u(run(&t, q, 16, out, sizeof(out)), 0, "QUERY_MKEY");
		is_u(get_be64(out + MLX5X_QUERY_MKEY_OUT_MKC_OFF +
			      MLX5X_MKC_LEN_OFF), 0x2000, "... length");
	}
	is_u(destroy(&t, MLX5X_CMD_OP_DESTROY_MKEY, idx), 0, "DESTROY_MKEY");
	is_u(destroy(&t, MLX5X_CMD_OP_DEALLOC_PD, t.pd), 0, "then DEALLOC_PD");
	free(in);

	in = mkey_in(t.pd = th_alloc_num(&t, MLX5X_CMD_OP_ALLOC_PD),
		     MLX5X_MKC_ACCESS_MODE_PA, 0, &inlen);
	PSET(in + MLX5X_CREATE_MKEY_IN_MKC_OFF, MLX5X_MKC_LENGTH64, 1);
	is_u(run(&t, in, inlen, out, 16), 0, "CREATE_MKEY PA, length64");
	free(in);
	th_teardown(&t);
}

static uint8_t *cq_in(struct th *t, uint32_t log_size, uint32_t eqn,
		      uint32_t npas, uint32_t *inlen)
{
	uint8_t *in, *cqc;
	uint32_t i;

	*inlen = MLX5X_CREATE_CQ_IN_LEN + 8 * npas;
	in = calloc(1, *inlen);
	cqc = in + MLX5X_CREATE_CQ_IN_CQC_OFF;
	th_hdr(in, MLX5X_CMD_OP_CREATE_CQ, 0);
	PSET(cqc, MLX5X_CQC_LOG_CQ_SIZE, log_size);
	PSET(cqc, MLX5X_CQC_UAR_PAGE, t->uar);
	PSET(cqc, MLX5X_CQC_C_EQN, eqn);
	put_be64(cqc + MLX5X_CQC_DBR_ADDR_OFF, th_alloc(t, 64, 64));
	for (i = 0; i < npas; i++)
		put_be64(in + MLX5X_CREATE_CQ_IN_PAS_OFF + 8 * i,
			 th_alloc(t, 4096, 4096));
	return in;
}

static void test_cq(void)
{
	uint8_t out[MLX5X_QUERY_CQ_OUT_LEN], *in, *cqc;
	uint32_t inlen, eqn, cqn;
	struct th t;

	th_setup(&t);
	th_init_hca(&t);
	eqn = th_create_eq(&t, 4, 0, 1, NULL);
	in = cq_in(&t, 7, eqn, 1, &inlen);	/* 128 x 64 B = 2 pages */
	cqc = in + MLX5X_CREATE_CQ_IN_CQC_OFF;
	is_u(run(&t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_INP_LEN,
	     "CQ of two pages with one PAS entry -> BAD_INP_LEN");
	PSET(cqc, MLX5X_CQC_LOG_CQ_SIZE, 6);
	PSET(cqc, MLX5X_CQC_C_EQN, eqn + 1);
	is_u(run(&t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_RES,
	     "CQ on an EQ that does not exist -> BAD_RES");
	PSET(cqc, MLX5X_CQC_C_EQN, eqn);
	PSET(cqc, MLX5X_CQC_CQE_SZ, 2);
	is_u(run(&t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "cqe_sz 2 -> BAD_PARAM");
	PSET(cqc, MLX5X_CQC_CQE_SZ, 0);
	put_be64(in + MLX5X_CREATE_CQ_IN_PAS_OFF, 0x7000001000ull);
	is_u(run(&t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "CQ buffer outside guest memory -> BAD_PARAM");
	put_be64(in + MLX5X_CREATE_CQ_IN_PAS_OFF, th_alloc(&t, 4096, 4096) + 64);
	is_u(run(&t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "misaligned PAS entry -> BAD_PARAM");
	put_be64(in + MLX5X_CREATE_CQ_IN_PAS_OFF, th_alloc(&t, 4096, 4096));
	put_be64(cqc + MLX5X_CQC_DBR_ADDR_OFF, 0x1);
	is_u(run(&t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "misaligned doorbell record -> BAD_PARAM");
	put_be64(cqc + MLX5X_CQC_DBR_ADDR_OFF, th_alloc(&t, 64, 64));
	is_u(run(&t, in, inlen, out, 16), 0, "CREATE_CQ");
	cqn = PGET(out, MLX5X_CREATE_CQ_OUT_CQN);
	is_u(t.e.obj[OBJ_CQ].live, 1, "one live CQ");
	is_u(destroy(&t, MLX5X_CMD_OP_DESTROY_EQ, eqn), MLX5X_CMD_STAT_BAD_RES_STATE,
	     "DESTROY_EQ with a CQ on it -> BAD_RES_STATE");
	{
		uint8_t q[16] = { 0 };

		th_hdr(q, MLX5X_CMD_OP_QUERY_CQ, 0);
		PSET(q, MLX5X_CQ_IN_CQN, cqn);
		is_u(run(&t, q, 16, out, sizeof(out)), 0, "QUERY_CQ");
		is_u(PGET(out + MLX5X_QUERY_CQ_OUT_CQC_OFF, MLX5X_CQC_C_EQN), eqn,
		     "... c_eqn kept");
	}
	{
		/* arm doorbell: sn 2, solicited, ci 5 */
		uint8_t v[8];

		put_be32(v, 2u << 28 | 1u << 24 | 5);
		put_be32(v + 4, cqn);
		emu_bar0_write(&t.e, t.uar * 4096ull + MLX5X_UAR_CQ_DB_OFF, v, 8);
		struct emu_cq *cq = objtab_get(&t.e.obj[OBJ_CQ], cqn);

		ok(cq->armed && cq->arm_sn == 2 && cq->arm_cmd == 1 &&
		   cq->arm_ci == 5, "CQ arm doorbell recorded (sn, cmd, ci)");
	}
	is_u(destroy(&t, MLX5X_CMD_OP_DESTROY_CQ, cqn), 0, "DESTROY_CQ");
	is_u(destroy(&t, MLX5X_CMD_OP_DESTROY_EQ, eqn), 0, "then DESTROY_EQ");
	free(in);
	th_teardown(&t);
}

/* DEALLOC_UAR while a CQ still names the page, as mlx5_ib may do. */
static void test_uar_dealloc_in_use(void)
{
	uint32_t inlen, eqn, uar, cqn, live;
	uint8_t out[16], *in;
	struct th t;

	th_setup(&t);
	th_init_hca(&t);
	eqn = th_create_eq(&t, 4, 0, 1, NULL);
	uar = th_alloc_num(&t, MLX5X_CMD_OP_ALLOC_UAR);
	live = t.e.obj[OBJ_UAR].live;
	in = cq_in(&t, 6, eqn, 1, &inlen);
	PSET(in + MLX5X_CREATE_CQ_IN_CQC_OFF, MLX5X_CQC_UAR_PAGE, uar);
	is_u(run(&t, in, inlen, out, 16), 0, "CREATE_CQ on a second UAR");
	cqn = PGET(out, MLX5X_CREATE_CQ_OUT_CQN);
	is_u(destroy(&t, MLX5X_CMD_OP_DEALLOC_UAR, uar), 0,
	     "DEALLOC_UAR while a CQ uses it succeeds, as in firmware");
	is_u(t.e.obj[OBJ_UAR].live, live - 1, "... and its number is free");
	is_u(destroy(&t, MLX5X_CMD_OP_DEALLOC_UAR, uar), MLX5X_CMD_STAT_BAD_RES,
	     "DEALLOC_UAR of it again -> BAD_RES");
	is_u(destroy(&t, MLX5X_CMD_OP_DESTROY_CQ, cqn), 0,
	     "DESTROY_CQ after its UAR went (the last user frees it)");
	free(in);
	in = cq_in(&t, 6, eqn, 1, &inlen);
	PSET(in + MLX5X_CREATE_CQ_IN_CQC_OFF, MLX5X_CQC_UAR_PAGE,
	     th_alloc_num(&t, MLX5X_CMD_OP_ALLOC_UAR));
	is_u(run(&t, in, inlen, out, 16), 0, "a CQ left for teardown");
	th_teardown(&t);	/* drops the CQ before its UAR (ASan: no UAF) */
	free(in);
}

struct qp_env {
	struct th t;
	uint32_t eqn, cqn, srqn, xrcd;
};

static void qp_env(struct qp_env *q)
{
	th_setup(&q->t);
	th_init_hca(&q->t);
	q->eqn = th_create_eq(&q->t, 4, 0, 1, NULL);
	q->cqn = th_create_cq(&q->t, 4, q->eqn);
	q->xrcd = th_alloc_num(&q->t, MLX5X_CMD_OP_ALLOC_XRCD);
}

/* an RC QP: 16-entry RQ of 64 B, 16 WQEBB SQ: 2 KiB, one page */
static uint8_t *qp_in(struct qp_env *q, uint32_t st, uint32_t *inlen)
{
	uint8_t *in, *qpc;

	th_reserved(&q->t, q->eqn);	/* the SRQ and XRCD it names */
	q->srqn = q->t.rsv_srqn;
	*inlen = MLX5X_CREATE_QP_IN_LEN + 8;
	in = calloc(1, *inlen);
	qpc = in + MLX5X_QP_IN_QPC_OFF;
	th_hdr(in, MLX5X_CMD_OP_CREATE_QP, 0);
	PSET(qpc, MLX5X_QPC_ST, st);
	PSET(qpc, MLX5X_QPC_PD, q->t.pd);
	PSET(qpc, MLX5X_QPC_UAR_PAGE, q->t.uar);
	PSET(qpc, MLX5X_QPC_LOG_RQ_SIZE, 4);
	PSET(qpc, MLX5X_QPC_LOG_RQ_STRIDE, 2);
	PSET(qpc, MLX5X_QPC_LOG_SQ_SIZE, 4);
	PSET(qpc, MLX5X_QPC_CQN_SND, q->cqn);
	PSET(qpc, MLX5X_QPC_CQN_RCV, q->cqn);
	PSET(qpc, MLX5X_QPC_XRCD, q->xrcd);
	PSET(qpc, MLX5X_QPC_SRQN_RMPN_XRQN, q->srqn);
	put_be64(qpc + MLX5X_QPC_DBR_ADDR_OFF, th_alloc(&q->t, 64, 64));
	put_be64(in + MLX5X_CREATE_QP_IN_PAS_OFF, th_alloc(&q->t, 4096, 4096));
	return in;
}

static unsigned int modify(struct qp_env *q, uint16_t op, uint32_t qpn,
			   uint32_t opt, void (*fill)(uint8_t *qpc))
{
	uint8_t in[MLX5X_QP_MODIFY_IN_LEN] = { 0 }, out[16];

	th_hdr(in, op, 0);
	PSET(in, MLX5X_QP_IN_QPN, qpn);
	put_be32(in + MLX5X_QP_IN_OPT_PARAM_MASK_OFF, opt);
	if (fill)
		fill(in + MLX5X_QP_IN_QPC_OFF);
	return run(&q->t, in, sizeof(in), out, 16);
}

static void fill_init(uint8_t *qpc)
{
	PSET(qpc, MLX5X_QPC_RWE, 1);
	prm_set(qpc, MLX5X_QPC_PRI_PATH_OFF + MLX5X_ADS_VHCA_PORT_NUM_OFF,
		MLX5X_ADS_VHCA_PORT_NUM_MASK, 1);
}

static void fill_rtr(uint8_t *qpc)
{
	PSET(qpc, MLX5X_QPC_MTU, MLX5X_QPC_MTU_1K);
	PSET(qpc, MLX5X_QPC_REMOTE_QPN, 0x1234);
	PSET(qpc, MLX5X_QPC_NEXT_RCV_PSN, 0xabcde);
	PSET(qpc, MLX5X_QPC_MIN_RNR_NAK, 12);
	prm_set(qpc, MLX5X_QPC_PRI_PATH_OFF + MLX5X_ADS_RLID_OFF,
		MLX5X_ADS_RLID_MASK, 0x99);
	/* a connected QP's path names its port at RTR too (as mlx5_ib's AV) */
	prm_set(qpc, MLX5X_QPC_PRI_PATH_OFF + MLX5X_ADS_VHCA_PORT_NUM_OFF,
		MLX5X_ADS_VHCA_PORT_NUM_MASK, 1);
}

static void fill_rts(uint8_t *qpc)
{
	PSET(qpc, MLX5X_QPC_NEXT_SEND_PSN, 0x777);
	PSET(qpc, MLX5X_QPC_RETRY_COUNT, 7);
	PSET(qpc, MLX5X_QPC_RNR_RETRY, 7);
	PSET(qpc, MLX5X_QPC_MIN_RNR_NAK, 3);	/* not selected: ignored */
}

static uint8_t query_state(struct qp_env *q, uint32_t qpn, uint8_t *qpc_out)
{
	uint8_t in[16] = { 0 }, out[MLX5X_QUERY_QP_OUT_LEN + 8];

	th_hdr(in, MLX5X_CMD_OP_QUERY_QP, 0);
	PSET(in, MLX5X_QP_IN_QPN, qpn);
	if (run(&q->t, in, 16, out, sizeof(out)))
		return 0xff;
	if (qpc_out)
		memcpy(qpc_out, out + MLX5X_QUERY_QP_OUT_QPC_OFF, MLX5X_QPC_LEN);
	return (uint8_t)PGET(out + MLX5X_QUERY_QP_OUT_QPC_OFF, MLX5X_QPC_STATE);
}

static void test_qp_create(void)
{
	uint8_t out[16], *in, *qpc;
	struct qp_env q;
	uint32_t inlen;

	qp_env(&q);
	in = qp_in(&q, MLX5X_QP_ST_RC, &inlen);
	qpc = in + MLX5X_QP_IN_QPC_OFF;
	PSET(qpc, MLX5X_QPC_ST, 0x9);
	is_u(run(&q.t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "raw Ethertype QP (not supported) -> BAD_PARAM");
	PSET(qpc, MLX5X_QPC_ST, MLX5X_QP_ST_RC);
	PSET(qpc, MLX5X_QPC_CQN_SND, 0x555);
	is_u(run(&q.t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_RES,
	     "unknown send CQ -> BAD_RES");
	PSET(qpc, MLX5X_QPC_CQN_SND, q.cqn);
	PSET(qpc, MLX5X_QPC_LOG_RQ_SIZE, 9);
	is_u(run(&q.t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_INP_LEN,
	     "queues larger than the PAS list -> BAD_INP_LEN");
	PSET(qpc, MLX5X_QPC_LOG_RQ_SIZE, 4);
	PSET(qpc, MLX5X_QPC_RQ_TYPE, MLX5X_QP_RQ_SRQ);
	PSET(qpc, MLX5X_QPC_SRQN_RMPN_XRQN, 0x42);
	is_u(run(&q.t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_RES,
	     "SRQ-attached QP with an unknown SRQ -> BAD_RES");
	PSET(qpc, MLX5X_QPC_RQ_TYPE, MLX5X_QP_RQ_NON_ZERO);
	PSET(qpc, MLX5X_QPC_SRQN_RMPN_XRQN, q.srqn);
	PSET(qpc, MLX5X_QPC_STATE, MLX5X_QP_STATE_RTS);
	is_u(run(&q.t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "creating a QP in RTS -> BAD_PARAM");
	PSET(qpc, MLX5X_QPC_STATE, 0);
	is_u(q.t.e.obj[OBJ_QP].live, 0, "no QP was created by the failures");
	is_u(q.t.e.obj[OBJ_CQ].created, 2, "... and no reference leaked");
	is_u(run(&q.t, in, inlen, out, 16), 0, "CREATE_QP RC");
	ok(PGET(out, MLX5X_CREATE_QP_OUT_QPN) >= 2, "QPN is not 0 or 1");
	is_u(destroy(&q.t, MLX5X_CMD_OP_DESTROY_CQ, q.cqn),
	     MLX5X_CMD_STAT_BAD_RES_STATE, "DESTROY_CQ under a QP -> BAD_RES_STATE");
	is_u(destroy(&q.t, MLX5X_CMD_OP_DEALLOC_XRCD, q.xrcd),
	     MLX5X_CMD_STAT_BAD_RES_STATE, "DEALLOC_XRCD under a QP -> BAD_RES_STATE");
	is_u(destroy(&q.t, MLX5X_CMD_OP_DESTROY_QP,
		     PGET(out, MLX5X_CREATE_QP_OUT_QPN)), 0, "DESTROY_QP");
	is_u(destroy(&q.t, MLX5X_CMD_OP_DESTROY_CQ, q.cqn), 0, "then DESTROY_CQ");
	free(in);
	th_teardown(&q.t);
}

static void test_qp_states(void)
{
	uint8_t out[16], *in, qpc[MLX5X_QPC_LEN];
	struct qp_env q;
	uint32_t inlen, qpn;

	qp_env(&q);
	in = qp_in(&q, MLX5X_QP_ST_RC, &inlen);
	run(&q.t, in, inlen, out, 16);
	qpn = PGET(out, MLX5X_CREATE_QP_OUT_QPN);
	free(in);
	is_u(query_state(&q, qpn, NULL), MLX5X_QP_STATE_RST, "a new QP is in RST");
	is_u(modify(&q, MLX5X_CMD_OP_INIT2RTR_QP, qpn, 0, fill_rtr),
	     MLX5X_CMD_STAT_BAD_QP_STATE, "INIT2RTR from RST -> BAD_QP_STATE");
	is_u(modify(&q, MLX5X_CMD_OP_RST2INIT_QP, 0x999, 0, fill_init),
	     MLX5X_CMD_STAT_BAD_RES, "RST2INIT of an unknown QP -> BAD_RES");
	is_u(modify(&q, MLX5X_CMD_OP_RST2INIT_QP, qpn, 0, fill_init), 0,
	     "RST2INIT");
	is_u(modify(&q, MLX5X_CMD_OP_RST2INIT_QP, qpn, 0, fill_init),
	     MLX5X_CMD_STAT_BAD_QP_STATE, "RST2INIT twice -> BAD_QP_STATE");
	is_u(modify(&q, MLX5X_CMD_OP_INIT2RTR_QP, qpn, 0, fill_rtr), 0,
	     "INIT2RTR");
	is_u(modify(&q, MLX5X_CMD_OP_RTR2RTS_QP, qpn, 0, fill_rts), 0, "RTR2RTS");
	is_u(query_state(&q, qpn, qpc), MLX5X_QP_STATE_RTS, "QUERY_QP says RTS");
	is_u(PGET(qpc, MLX5X_QPC_REMOTE_QPN), 0x1234, "... remote QPN from RTR");
	is_u(PGET(qpc, MLX5X_QPC_NEXT_RCV_PSN), 0xabcde, "... receive PSN");
	is_u(PGET(qpc, MLX5X_QPC_NEXT_SEND_PSN), 0x777, "... send PSN from RTS");
	is_u(PGET(qpc, MLX5X_QPC_MTU), MLX5X_QPC_MTU_1K, "... MTU");
	is_u(PGET(qpc, MLX5X_QPC_RWE), 1, "... remote write enable from INIT");
	is_u(PGET(qpc, MLX5X_QPC_MIN_RNR_NAK), 12,
	     "... min_rnr_nak unselected at RTS kept the RTR value");
	is_u(prm_get(qpc, MLX5X_QPC_PRI_PATH_OFF + MLX5X_ADS_VHCA_PORT_NUM_OFF,
		     MLX5X_ADS_VHCA_PORT_NUM_MASK), 1, "... port from INIT kept");
	is_u(prm_get(qpc, MLX5X_QPC_PRI_PATH_OFF + MLX5X_ADS_RLID_OFF,
		     MLX5X_ADS_RLID_MASK), 0x99, "... remote LID from RTR path");
	is_u(modify(&q, MLX5X_CMD_OP_RTS2RTS_QP, qpn, MLX5X_QP_OPTPAR_RNR_TIMEOUT,
		    fill_rts), 0, "RTS2RTS selecting the RNR timer");
	query_state(&q, qpn, qpc);
	is_u(PGET(qpc, MLX5X_QPC_MIN_RNR_NAK), 3, "... now taken");
	is_u(modify(&q, MLX5X_CMD_OP_2ERR_QP, qpn, 0, NULL), 0, "2ERR");
	is_u(query_state(&q, qpn, NULL), MLX5X_QP_STATE_ERR, "QUERY_QP says ERR");
	is_u(modify(&q, MLX5X_CMD_OP_RTR2RTS_QP, qpn, 0, fill_rts),
	     MLX5X_CMD_STAT_BAD_QP_STATE, "RTR2RTS from ERR -> BAD_QP_STATE");
	is_u(modify(&q, MLX5X_CMD_OP_2RST_QP, qpn, 0, NULL), 0, "2RST");
	is_u(query_state(&q, qpn, NULL), MLX5X_QP_STATE_RST, "back in RST");
	is_u(destroy(&q.t, MLX5X_CMD_OP_DESTROY_QP, qpn), 0, "DESTROY_QP");
	is_u(query_state(&q, qpn, NULL), 0xff, "QUERY_QP of a destroyed QP fails");
	th_teardown(&q.t);
}

static void test_srq(void)
{
	uint8_t out[16], *in, *srqc;
	uint32_t inlen = MLX5X_CREATE_SRQ_IN_LEN + 8, srqn;
	struct qp_env q;

	qp_env(&q);
	in = calloc(1, inlen);
	srqc = in + MLX5X_CREATE_SRQ_IN_SRQC_OFF;
	th_hdr(in, MLX5X_CMD_OP_CREATE_SRQ, 0);
	PSET(srqc, MLX5X_SRQC_LOG_SRQ_SIZE, 4);
	PSET(srqc, MLX5X_SRQC_LOG_RQ_STRIDE, 2);
	PSET(srqc, MLX5X_SRQC_PD, q.t.pd);
	PSET(srqc, MLX5X_SRQC_XRCD, q.xrcd);
	PSET(srqc, MLX5X_SRQC_CQN, q.cqn + 5);
	put_be64(srqc + MLX5X_SRQC_DBR_ADDR_OFF, th_alloc(&q.t, 64, 64));
	put_be64(in + MLX5X_CREATE_SRQ_IN_PAS_OFF, th_alloc(&q.t, 4096, 4096));
	is_u(run(&q.t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_RES,
	     "SRQ on an unknown CQ -> BAD_RES");
	PSET(srqc, MLX5X_SRQC_CQN, q.cqn);
	is_u(run(&q.t, in, inlen, out, 16), 0, "CREATE_SRQ");
	srqn = PGET(out, MLX5X_CREATE_SRQ_OUT_SRQN);
	is_u(destroy(&q.t, MLX5X_CMD_OP_DEALLOC_PD, q.t.pd),
	     MLX5X_CMD_STAT_BAD_RES_STATE, "DEALLOC_PD under an SRQ -> BAD_RES_STATE");
	is_u(destroy(&q.t, MLX5X_CMD_OP_DESTROY_SRQ, srqn), 0, "DESTROY_SRQ");
	free(in);
	th_teardown(&q.t);
}

/* ISSI 1 forms of an SRQ: an XRC SRQ with a user index, and an RMP */
static void test_xrc_srq(struct qp_env *q)
{
	uint8_t out[MLX5X_QUERY_SRQ_OUT_LEN], *in, *srqc;
	uint32_t inlen = MLX5X_CREATE_SRQ_IN_LEN + 8, srqn;

	in = calloc(1, inlen);
	srqc = in + MLX5X_CREATE_SRQ_IN_SRQC_OFF;
	th_hdr(in, MLX5X_CMD_OP_CREATE_XRC_SRQ, 0);
	PSET(srqc, MLX5X_SRQC_LOG_SRQ_SIZE, 4);
	PSET(srqc, MLX5X_SRQC_LOG_RQ_STRIDE, 2);
	PSET(srqc, MLX5X_SRQC_PD, q->t.pd);
	PSET(srqc, MLX5X_SRQC_CQN, q->cqn);
	PSET(srqc, MLX5X_XRC_SRQC_USER_INDEX, 0x1234);
	put_be64(srqc + MLX5X_SRQC_DBR_ADDR_OFF, th_alloc(&q->t, 64, 64));
	put_be64(in + MLX5X_CREATE_SRQ_IN_PAS_OFF, th_alloc(&q->t, 4096, 4096));
	is_u(run(&q->t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "CREATE_XRC_SRQ without an XRC domain -> BAD_PARAM");
	PSET(srqc, MLX5X_SRQC_XRCD, q->xrcd);
	PSET(in, MLX5X_CREATE_XRC_SRQ_IN_UMEM_VALID, 1);
	is_u(run(&q->t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "CREATE_XRC_SRQ on a umem (no DEVX) -> BAD_PARAM");
	PSET(in, MLX5X_CREATE_XRC_SRQ_IN_UMEM_VALID, 0);
	is_u(run(&q->t, in, inlen, out, 16), 0, "CREATE_XRC_SRQ");
	srqn = PGET(out, MLX5X_CREATE_SRQ_OUT_SRQN);
	is_u(q->t.e.obj[OBJ_SRQ].live, 1, "one SRQ, no leak from the refusals");
	is_u(destroy(&q->t, MLX5X_CMD_OP_DESTROY_SRQ, srqn), MLX5X_CMD_STAT_BAD_RES,
	     "DESTROY_SRQ of an XRC SRQ (other command family) -> BAD_RES");
	is_u(destroy(&q->t, MLX5X_CMD_OP_DESTROY_RMP, srqn), MLX5X_CMD_STAT_BAD_RES,
	     "DESTROY_RMP of an XRC SRQ -> BAD_RES");
	memset(in, 0, 16);
	th_hdr(in, MLX5X_CMD_OP_ARM_XRC_SRQ, 0);
	PSET(in, MLX5X_SRQ_IN_SRQN, srqn);
	PSET(in, MLX5X_ARM_RQ_IN_LWM, 3);
	is_u(run(&q->t, in, 16, out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "ARM_XRC_SRQ with op_mod 0 -> BAD_PARAM");
	th_hdr(in, MLX5X_CMD_OP_ARM_XRC_SRQ, MLX5X_ARM_XRC_SRQ_OPMOD_XRC_SRQ);
	is_u(run(&q->t, in, 16, out, 16), 0, "ARM_XRC_SRQ");
	th_hdr(in, MLX5X_CMD_OP_QUERY_XRC_SRQ, 0);
	is_u(run(&q->t, in, 16, out, sizeof(out)), 0, "QUERY_XRC_SRQ");
	srqc = out + MLX5X_QUERY_SRQ_OUT_SRQC_OFF;
	ok(PGET(srqc, MLX5X_XRC_SRQC_USER_INDEX) == 0x1234 &&
	   PGET(srqc, MLX5X_SRQC_LWM) == 3 &&
	   PGET(srqc, MLX5X_SRQC_XRCD) == q->xrcd &&
	   PGET(srqc, MLX5X_SRQC_STATE) == MLX5X_SRQC_STATE_GOOD,
	   "... user index, limit, XRC domain, state good");
	is_u(q->t.e.obj[OBJ_SRQ].slot[srqn] ?
	     ((struct emu_srq *)q->t.e.obj[OBJ_SRQ].slot[srqn])->eng.uidx : 0,
	     0x1234, "... and its CQEs will carry the user index");
	is_u(destroy(&q->t, MLX5X_CMD_OP_DESTROY_XRC_SRQ, srqn), 0,
	     "DESTROY_XRC_SRQ");
	is_u(destroy(&q->t, MLX5X_CMD_OP_DESTROY_XRC_SRQ, srqn),
	     MLX5X_CMD_STAT_BAD_RES, "DESTROY_XRC_SRQ again -> BAD_RES");
	free(in);
}

static uint8_t *rmp_in(struct qp_env *q, uint32_t *inlen)
{
	uint8_t *in, *wq;

	*inlen = MLX5X_CREATE_RMP_IN_LEN + 8;
	in = calloc(1, *inlen);
	wq = in + MLX5X_RMP_CMD_RMPC_OFF + MLX5X_RMPC_WQ_OFF;
	th_hdr(in, MLX5X_CMD_OP_CREATE_RMP, 0);
	PSET(in + MLX5X_RMP_CMD_RMPC_OFF, MLX5X_RMPC_STATE,
	     MLX5X_RMPC_STATE_RDY);
	PSET(wq, MLX5X_WQ_LOG_SZ, 4);
	PSET(wq, MLX5X_WQ_LOG_STRIDE, 6);	/* 64-byte WQEs */
	PSET(wq, MLX5X_WQ_PD, q->t.pd);
	put_be64(wq + MLX5X_WQ_DBR_ADDR_OFF, th_alloc(&q->t, 64, 64));
	put_be64(in + MLX5X_CREATE_RMP_IN_PAS_OFF, th_alloc(&q->t, 4096, 4096));
	return in;
}

static void rmp_refusals(struct qp_env *q, uint8_t *in, uint32_t inlen)
{
	uint8_t *wq = in + MLX5X_RMP_CMD_RMPC_OFF + MLX5X_RMPC_WQ_OFF;
	uint8_t out[16];

	PSET(in + MLX5X_RMP_CMD_RMPC_OFF, MLX5X_RMPC_STATE, 0);
	is_u(run(&q->t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "CREATE_RMP not in state ready -> BAD_PARAM");
	PSET(in + MLX5X_RMP_CMD_RMPC_OFF, MLX5X_RMPC_STATE,
	     MLX5X_RMPC_STATE_RDY);
	PSET(wq, MLX5X_WQ_TYPE, 1);
	is_u(run(&q->t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "CREATE_RMP of a cyclic WQ (an SRQ is a linked list) -> BAD_PARAM");
	PSET(wq, MLX5X_WQ_TYPE, MLX5X_WQ_TYPE_LINKED_LIST);
	PSET(wq, MLX5X_WQ_LOG_STRIDE, 3);
	is_u(run(&q->t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "CREATE_RMP with 8-byte WQEs -> BAD_PARAM");
	PSET(wq, MLX5X_WQ_LOG_STRIDE, 6);
	PSET(wq, MLX5X_WQ_LOG_SZ, 9);
	is_u(run(&q->t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_INP_LEN,
	     "CREATE_RMP larger than its PAS list -> BAD_INP_LEN");
	PSET(wq, MLX5X_WQ_LOG_SZ, 4);
	PSET(wq, MLX5X_WQ_PD, 0x777);
	is_u(run(&q->t, in, inlen, out, 16), MLX5X_CMD_STAT_BAD_RES,
	     "CREATE_RMP in an unknown PD -> BAD_RES");
	PSET(wq, MLX5X_WQ_PD, q->t.pd);
	is_u(q->t.e.obj[OBJ_SRQ].live, 0, "no RMP left by the refusals");
}

static unsigned int modify_rmp(struct qp_env *q, uint32_t rmpn,
			       uint32_t cur, uint64_t mask, uint16_t lwm)
{
	uint8_t in[MLX5X_MODIFY_RMP_IN_LEN] = { 0 }, out[16];
	uint8_t *rmpc = in + MLX5X_RMP_CMD_RMPC_OFF;

	th_hdr(in, MLX5X_CMD_OP_MODIFY_RMP, 0);
	PSET(in, MLX5X_RMP_IN_RMPN, rmpn);
	PSET(in, MLX5X_MODIFY_RMP_IN_STATE, cur);
	put_be64(in + MLX5X_MODIFY_RMP_IN_BITMASK_OFF, mask);
	PSET(rmpc, MLX5X_RMPC_STATE, MLX5X_RMPC_STATE_RDY);
	PSET(rmpc + MLX5X_RMPC_WQ_OFF, MLX5X_WQ_LWM, lwm);
	return run(&q->t, in, sizeof(in), out, 16);
}

static void test_rmp(struct qp_env *q)
{
	uint8_t out[MLX5X_QUERY_RMP_OUT_LEN], *in, *qin, *wq;
	uint32_t inlen, qinlen, rmpn, qpn;

	in = rmp_in(q, &inlen);
	rmp_refusals(q, in, inlen);
	is_u(run(&q->t, in, inlen, out, 16), 0, "CREATE_RMP");
	rmpn = PGET(out, MLX5X_CREATE_RMP_OUT_RMPN);
	qin = qp_in(q, MLX5X_QP_ST_RC, &qinlen);
	PSET(qin + MLX5X_QP_IN_QPC_OFF, MLX5X_QPC_RQ_TYPE, MLX5X_QP_RQ_SRQ);
	PSET(qin + MLX5X_QP_IN_QPC_OFF, MLX5X_QPC_SRQN_RMPN_XRQN, rmpn);
	is_u(run(&q->t, qin, qinlen, out, 16), 0, "CREATE_QP on the RMP");
	qpn = PGET(out, MLX5X_CREATE_QP_OUT_QPN);
	is_u(destroy(&q->t, MLX5X_CMD_OP_DESTROY_RMP, rmpn),
	     MLX5X_CMD_STAT_BAD_RES_STATE, "DESTROY_RMP under a QP -> BAD_RES_STATE");
	is_u(modify_rmp(q, rmpn, MLX5X_RMPC_STATE_RDY, 2, 5),
	     MLX5X_CMD_STAT_BAD_PARAM, "MODIFY_RMP of a field other than lwm -> BAD_PARAM");
	is_u(modify_rmp(q, rmpn, MLX5X_RMPC_STATE_ERR, 1, 5),
	     MLX5X_CMD_STAT_BAD_RES_STATE,
	     "MODIFY_RMP naming the wrong current state -> BAD_RES_STATE");
	is_u(modify_rmp(q, rmpn + 1, MLX5X_RMPC_STATE_RDY, 1, 5),
	     MLX5X_CMD_STAT_BAD_RES, "MODIFY_RMP of an unknown RMP -> BAD_RES");
	is_u(modify_rmp(q, rmpn, MLX5X_RMPC_STATE_RDY, 1, 5), 0,
	     "MODIFY_RMP lwm (arm the limit)");
	memset(in, 0, 16);
	th_hdr(in, MLX5X_CMD_OP_QUERY_RMP, 0);
	PSET(in, MLX5X_RMP_IN_RMPN, rmpn);
	is_u(run(&q->t, in, 16, out, sizeof(out)), 0, "QUERY_RMP");
	wq = out + MLX5X_RMP_CMD_RMPC_OFF + MLX5X_RMPC_WQ_OFF;
	ok(PGET(out + MLX5X_RMP_CMD_RMPC_OFF, MLX5X_RMPC_STATE) ==
	   MLX5X_RMPC_STATE_RDY && PGET(wq, MLX5X_WQ_LWM) == 5 &&
	   PGET(wq, MLX5X_WQ_LOG_STRIDE) == 6 && PGET(wq, MLX5X_WQ_PD) == q->t.pd,
	   "... ready, limit 5, 64-byte WQEs, its PD");
	th_hdr(in, MLX5X_CMD_OP_QUERY_SRQ, 0);
	is_u(run(&q->t, in, 16, out, sizeof(out)), MLX5X_CMD_STAT_BAD_RES,
	     "QUERY_SRQ of an RMP -> BAD_RES");
	is_u(destroy(&q->t, MLX5X_CMD_OP_DESTROY_QP, qpn), 0, "DESTROY_QP");
	is_u(destroy(&q->t, MLX5X_CMD_OP_DESTROY_RMP, rmpn), 0, "DESTROY_RMP");
	is_u(q->t.e.obj[OBJ_SRQ].live, 1, "no SRQ left but the reserved one");
	free(qin);
	free(in);
}

static void test_srq_issi1(void)
{
	struct qp_env q;

	qp_env(&q);
	test_xrc_srq(&q);
	test_rmp(&q);
	th_teardown(&q.t);
}

static void test_leaks(void)
{
	uint8_t in[16] = { 0 }, out[16];
	struct qp_env q;

	qp_env(&q);
	is_u(emu_live_objects(&q.t.e), 5, "UAR, PD, EQ, CQ, XRCD alive");
	th_hdr(in, MLX5X_CMD_OP_TEARDOWN_HCA, 0);
	run(&q.t, in, 16, out, 16);
	is_u(q.t.e.obj[OBJ_CQ].live, 0, "TEARDOWN_HCA drops what is left");
	is_u(emu_live_objects(&q.t.e), 5,
	     "... and the report still counts them as never destroyed");
	th_teardown(&q.t);
}

int main(void)
{
	test_numbers();
	test_mkey();
	test_cq();
	test_uar_dealloc_in_use();
	test_qp_create();
	test_qp_states();
	test_srq();
	test_srq_issi1();
	test_leaks();
	return tap_done();
}
