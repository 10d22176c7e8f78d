// SPDX-License-Identifier: GPL-2.0
/*
 * Firmware rules (rules.c): each refusal with its exact status and
 * syndrome and its counter in the report, the sequences upstream mlx5
 * sends accepted, and the data-path rules (atomic modes, READ/atomic
 * depths, doorbells through foreign UAR pages, arm records).
 */
#include <stdio.h>

#include "eng_th.h"

#define PATH(o) (MLX5X_QPC_PRI_PATH_OFF + (o))
#define PSET_PATH(qpc, f, v) prm_set((qpc), PATH(f##_OFF), f##_MASK, (v))

/* a modify with the given context; status, syndrome in *synd */
static unsigned int modify_s(struct te *x, struct tqp *qp, uint16_t op,
			     const uint8_t *qpc, uint32_t optpar,
			     uint32_t *synd)
{
	uint8_t in[MLX5X_QP_MODIFY_IN_LEN] = { 0 }, out[16];
	unsigned int st;

	th_hdr(in, op, 0);
	PSET(in, MLX5X_QP_IN_QPN, qp->qpn);
	put_be32(in + MLX5X_QP_IN_OPT_PARAM_MASK_OFF, optpar);
	memcpy(in + MLX5X_QP_IN_QPC_OFF, qpc, MLX5X_QPC_LEN);
	st = th_status(&x->t, in, sizeof(in), out, 16);
	*synd = th_syndrome(out);
	return st;
}

/* the refusal of rule r: status, syndrome and one more on its counter */
static void refused(struct te *x, unsigned int st, uint32_t synd,
		    enum emu_rule r, unsigned int want, const char *what)
{
	static uint64_t seen[R_NUM];

	ok(st == want && synd == EMU_RULE_SYND(r) &&
	   x->t.e.viol[r] == seen[r] + 1,
	   "%s: status 0x%x (want 0x%x), syndrome 0x%x (want 0x%x), counted %llu",
	   what, st, want, synd, EMU_RULE_SYND(r),
	   (unsigned long long)x->t.e.viol[r]);
	seen[r] = x->t.e.viol[r];
}

/* a fresh RC QP taken to INIT the way mlx5_ib does */
static void rc_init(struct te *x, struct tqp *qp, struct tcq *cq)
{
	uint8_t qpc[MLX5X_QPC_LEN] = { 0 };
	uint32_t synd;

	te_qp(x, qp, cq, cq);
	PSET_PATH(qpc, MLX5X_ADS_VHCA_PORT_NUM, 1);
	PSET(qpc, MLX5X_QPC_PD, x->t.pd);
	PSET(qpc, MLX5X_QPC_RWE, 1);
	if (modify_s(x, qp, MLX5X_CMD_OP_RST2INIT_QP, qpc, 0, &synd))
		abort();
}

/* INIT2RTR context of a connected QP, as mlx5_ib fills it */
static void rtr_ctx(struct te *x, uint8_t *qpc, uint32_t rqpn)
{
	memset(qpc, 0, MLX5X_QPC_LEN);
	PSET(qpc, MLX5X_QPC_MTU, MLX5X_QPC_MTU_4K);
	PSET(qpc, MLX5X_QPC_LOG_MSG_MAX, 30);
	PSET(qpc, MLX5X_QPC_REMOTE_QPN, rqpn);
	PSET(qpc, MLX5X_QPC_LOG_RRA_MAX, 4);
	PSET_PATH(qpc, MLX5X_ADS_RLID, x->t.e.port.lid);
	PSET_PATH(qpc, MLX5X_ADS_VHCA_PORT_NUM, 1);
}

static void t_optpar(void)
{
	uint8_t qpc[MLX5X_QPC_LEN];
	struct tqp rc, ud, qp1;
	struct tcq cq;
	struct te x;
	uint32_t synd;
	unsigned int st;

	te_setup(&x);
	te_cq(&x, &cq, 4);
	rc_init(&x, &rc, &cq);
	rtr_ctx(&x, qpc, 0x77);
	st = modify_s(&x, &rc, MLX5X_CMD_OP_INIT2RTR_QP, qpc,
		      MLX5X_QP_OPTPAR_PRIMARY_ADDR_PATH, &synd);
	refused(&x, st, synd, R_QP_OPTPAR, MLX5X_CMD_STAT_BAD_PARAM,
		"RC INIT2RTR with PRIMARY_ADDR_PATH (not in the PRM's cell)");
	st = modify_s(&x, &rc, MLX5X_CMD_OP_INIT2RTR_QP, qpc,
		      MLX5X_QP_OPTPAR_RRA_MAX, &synd);
	refused(&x, st, synd, R_QP_OPTPAR, MLX5X_CMD_STAT_BAD_PARAM,
		"RC INIT2RTR with RRA_MAX (required there, never optional)");
	is_u(te_emu_qp(&x, &rc)->state, MLX5X_QP_STATE_INIT,
	     "a refused modify leaves the QP in INIT");
	/* MAX_DEST_RD_ATOMIC | ACCESS_FLAGS | PKEY_INDEX, masked by mlx5_ib */
	PSET(qpc, MLX5X_QPC_RRE, 1);
	PSET(qpc, MLX5X_QPC_RAE, 1);
	PSET(qpc, MLX5X_QPC_ATOMIC_MODE, MLX5X_QPC_ATOMIC_MODE_IB_COMP);
	is_u(modify_s(&x, &rc, MLX5X_CMD_OP_INIT2RTR_QP, qpc,
		      MLX5X_QP_OPTPAR_RRE | MLX5X_QP_OPTPAR_RAE |
		      MLX5X_QP_OPTPAR_RWE | MLX5X_QP_OPTPAR_PKEY_INDEX, &synd),
	     0, "RC INIT2RTR with upstream's RRE|RAE|RWE|PKEY_INDEX");
	memset(qpc, 0, sizeof(qpc));
	PSET(qpc, MLX5X_QPC_RETRY_COUNT, 7);
	st = modify_s(&x, &rc, MLX5X_CMD_OP_RTR2RTS_QP, qpc,
		      MLX5X_QP_OPTPAR_RETRY_COUNT, &synd);
	refused(&x, st, synd, R_QP_OPTPAR, MLX5X_CMD_STAT_BAD_PARAM,
		"RC RTR2RTS with RETRY_COUNT optional");
	is_u(modify_s(&x, &rc, MLX5X_CMD_OP_RTR2RTS_QP, qpc, 0, &synd), 0,
	     "RC RTR2RTS, mask 0");
	is_u(modify_s(&x, &rc, MLX5X_CMD_OP_RTS2RTS_QP, qpc,
		      MLX5X_QP_OPTPAR_COUNTER_SET_ID, &synd), 0,
	     "RTS2RTS binding a counter (COUNTER_SET_ID alone)");

	/* UD: Q_Key may change at RTS2RTS; QP1 takes no optional bit */
	te_qp_type(&x, &ud, MLX5X_QP_ST_UD, &cq, &cq, 4, 4, 0);
	te_qp_type(&x, &qp1, MLX5X_QP_ST_QP1, &cq, &cq, 4, 4, 0);
	is_u(te_connect(&x, &ud, NULL, true) | te_connect(&x, &qp1, NULL, true),
	     0, "UD and QP1 to RTS, as mlx5_ib (mask 0, fixed MTUs)");
	memset(qpc, 0, sizeof(qpc));
	PSET(qpc, MLX5X_QPC_Q_KEY, 0x4242);
	is_u(modify_s(&x, &ud, MLX5X_CMD_OP_RTS2RTS_QP, qpc,
		      MLX5X_QP_OPTPAR_Q_KEY, &synd), 0, "UD RTS2RTS with Q_KEY");
	st = modify_s(&x, &qp1, MLX5X_CMD_OP_RTS2RTS_QP, qpc,
		      MLX5X_QP_OPTPAR_Q_KEY, &synd);
	refused(&x, st, synd, R_QP_OPTPAR, MLX5X_CMD_STAT_BAD_PARAM,
		"QP1 RTS2RTS with Q_KEY (no optional bit for QP1)");
	te_teardown(&x);
}

static void t_ranges(void)
{
	uint8_t qpc[MLX5X_QPC_LEN] = { 0 };
	struct tqp a, b;
	struct tcq cq;
	struct te x;
	uint32_t synd;
	unsigned int st;

	te_setup(&x);
	te_cq(&x, &cq, 4);
	te_qp(&x, &a, &cq, &cq);
	PSET(qpc, MLX5X_QPC_PD, x.t.pd);
	st = modify_s(&x, &a, MLX5X_CMD_OP_RST2INIT_QP, qpc, 0, &synd);
	refused(&x, st, synd, R_QP_PORT, MLX5X_CMD_STAT_BAD_PARAM,
		"RST2INIT with vhca_port_num 0");
	PSET_PATH(qpc, MLX5X_ADS_VHCA_PORT_NUM, 2);
	st = modify_s(&x, &a, MLX5X_CMD_OP_RST2INIT_QP, qpc, 0, &synd);
	refused(&x, st, synd, R_QP_PORT, MLX5X_CMD_STAT_BAD_PARAM,
		"RST2INIT on port 2 of a one-port device");
	PSET_PATH(qpc, MLX5X_ADS_VHCA_PORT_NUM, 1);
	PSET_PATH(qpc, MLX5X_ADS_PKEY_INDEX, EMU_NUM_PKEYS);
	st = modify_s(&x, &a, MLX5X_CMD_OP_RST2INIT_QP, qpc, 0, &synd);
	refused(&x, st, synd, R_QP_PKEY_INDEX, MLX5X_CMD_STAT_BAD_PARAM,
		"RST2INIT with P_Key index 128 of 128");
	PSET_PATH(qpc, MLX5X_ADS_PKEY_INDEX, 0);
	PSET(qpc, MLX5X_QPC_RAE, 1);
	PSET(qpc, MLX5X_QPC_ATOMIC_MODE, 2);
	st = modify_s(&x, &a, MLX5X_CMD_OP_RST2INIT_QP, qpc, 0, &synd);
	refused(&x, st, synd, R_QP_ATOMIC_MODE, MLX5X_CMD_STAT_BAD_PARAM,
		"atomic_mode CX (2), not offered");
	PSET(qpc, MLX5X_QPC_ATOMIC_MODE, MLX5X_QPC_ATOMIC_MODE_8B);
	st = modify_s(&x, &a, MLX5X_CMD_OP_RST2INIT_QP, qpc, 0, &synd);
	refused(&x, st, synd, R_QP_ATOMIC_MODE, MLX5X_CMD_STAT_BAD_PARAM,
		"atomic_mode 8B without extended atomics");
	PSET(qpc, MLX5X_QPC_ATOMIC_MODE, MLX5X_QPC_ATOMIC_MODE_IB_COMP);
	is_u(modify_s(&x, &a, MLX5X_CMD_OP_RST2INIT_QP, qpc, 0, &synd), 0,
	     "RST2INIT port 1, P_Key index 0, rae with atomic_mode IB_COMP");

	rtr_ctx(&x, qpc, 0x77);
	PSET(qpc, MLX5X_QPC_MTU, 0);
	st = modify_s(&x, &a, MLX5X_CMD_OP_INIT2RTR_QP, qpc, 0, &synd);
	refused(&x, st, synd, R_QP_MTU, MLX5X_CMD_STAT_BAD_PARAM,
		"INIT2RTR with mtu 0 (no silent 1 KiB)");
	PSET(qpc, MLX5X_QPC_MTU, 6);
	st = modify_s(&x, &a, MLX5X_CMD_OP_INIT2RTR_QP, qpc, 0, &synd);
	refused(&x, st, synd, R_QP_MTU, MLX5X_CMD_STAT_BAD_PARAM,
		"INIT2RTR with mtu 6 (8 KiB)");
	rtr_ctx(&x, qpc, 0x77);
	PSET(qpc, MLX5X_QPC_LOG_MSG_MAX, 31);
	st = modify_s(&x, &a, MLX5X_CMD_OP_INIT2RTR_QP, qpc, 0, &synd);
	refused(&x, st, synd, R_QP_MSG_MAX, MLX5X_CMD_STAT_BAD_PARAM,
		"INIT2RTR with log_msg_max 31 > log_max_msg 30");
	rtr_ctx(&x, qpc, 0x77);
	PSET(qpc, MLX5X_QPC_LOG_RRA_MAX, 5);
	st = modify_s(&x, &a, MLX5X_CMD_OP_INIT2RTR_QP, qpc, 0, &synd);
	refused(&x, st, synd, R_QP_RRA, MLX5X_CMD_STAT_BAD_PARAM,
		"INIT2RTR with log_rra_max 5 > log_max_ra_res_qp 4");
	rtr_ctx(&x, qpc, 0x77);
	PSET_PATH(qpc, MLX5X_ADS_VHCA_PORT_NUM, 0);
	st = modify_s(&x, &a, MLX5X_CMD_OP_INIT2RTR_QP, qpc, 0, &synd);
	refused(&x, st, synd, R_QP_PORT, MLX5X_CMD_STAT_BAD_PARAM,
		"RC INIT2RTR whose path names no port");
	rtr_ctx(&x, qpc, 0x77);
	PSET_PATH(qpc, MLX5X_ADS_RLID, 0);
	st = modify_s(&x, &a, MLX5X_CMD_OP_INIT2RTR_QP, qpc, 0, &synd);
	refused(&x, st, synd, R_QP_RLID, MLX5X_CMD_STAT_BAD_PARAM,
		"INIT2RTR to LID 0");
	PSET_PATH(qpc, MLX5X_ADS_RLID, 0xc001);
	st = modify_s(&x, &a, MLX5X_CMD_OP_INIT2RTR_QP, qpc, 0, &synd);
	refused(&x, st, synd, R_QP_RLID, MLX5X_CMD_STAT_BAD_PARAM,
		"INIT2RTR to a multicast LID");
	rtr_ctx(&x, qpc, 0x77);
	PSET_PATH(qpc, MLX5X_ADS_GRH, 1);
	PSET_PATH(qpc, MLX5X_ADS_SRC_ADDR_INDEX, EMU_NUM_GIDS);
	st = modify_s(&x, &a, MLX5X_CMD_OP_INIT2RTR_QP, qpc, 0, &synd);
	refused(&x, st, synd, R_QP_SGID_INDEX, MLX5X_CMD_STAT_BAD_PARAM,
		"INIT2RTR with a GRH from GID index 8 of 8");
	rtr_ctx(&x, qpc, 0x77);
	PSET_PATH(qpc, MLX5X_ADS_STAT_RATE, 4);
	st = modify_s(&x, &a, MLX5X_CMD_OP_INIT2RTR_QP, qpc, 0, &synd);
	refused(&x, st, synd, R_QP_STAT_RATE, MLX5X_CMD_STAT_BAD_PARAM,
		"INIT2RTR at static rate 200G (not in stat_rate_support)");
	PSET_PATH(qpc, MLX5X_ADS_STAT_RATE, 3);
	is_u(modify_s(&x, &a, MLX5X_CMD_OP_INIT2RTR_QP, qpc, 0, &synd), 0,
	     "INIT2RTR at 100G, 4 KiB MTU, log_rra_max 4");
	memset(qpc, 0, sizeof(qpc));
	PSET(qpc, MLX5X_QPC_LOG_SRA_MAX, 5);
	st = modify_s(&x, &a, MLX5X_CMD_OP_RTR2RTS_QP, qpc, 0, &synd);
	refused(&x, st, synd, R_QP_SRA, MLX5X_CMD_STAT_BAD_PARAM,
		"RTR2RTS with log_sra_max 5 > log_max_ra_req_qp 4");
	PSET(qpc, MLX5X_QPC_LOG_SRA_MAX, 4);
	is_u(modify_s(&x, &a, MLX5X_CMD_OP_RTR2RTS_QP, qpc, 0, &synd), 0,
	     "RTR2RTS with log_sra_max 4");

	/* a UD QP's INIT2RTR has no path: port 0 there is upstream's */
	te_qp_type(&x, &b, MLX5X_QP_ST_UD, &cq, &cq, 4, 4, 0);
	is_u(te_connect(&x, &b, NULL, false), 0,
	     "UD INIT2RTR without a path (vhca_port_num 0)");
	te_teardown(&x);
}

/* CREATE_QP input for rule tests: an RC QP naming the reserved objects */
static uint8_t *create_in(struct te *x, struct tcq *cq, uint32_t *inlen)
{
	uint8_t *in, *qpc;

	th_reserved(&x->t, x->comp_eqn);
	*inlen = MLX5X_CREATE_QP_IN_LEN + 8;
	in = calloc(1, *inlen);
	qpc = in + MLX5X_QP_IN_QPC_OFF;
	th_hdr(in, MLX5X_CMD_OP_CREATE_QP, 0);
	PSET(qpc, MLX5X_QPC_ST, MLX5X_QP_ST_RC);
	PSET(qpc, MLX5X_QPC_PD, x->t.pd);
	PSET(qpc, MLX5X_QPC_UAR_PAGE, x->t.uar);
	PSET(qpc, MLX5X_QPC_LOG_RQ_SIZE, 4);
	PSET(qpc, MLX5X_QPC_LOG_RQ_STRIDE, 2);
	PSET(qpc, MLX5X_QPC_LOG_SQ_SIZE, 4);
	PSET(qpc, MLX5X_QPC_CQN_SND, cq->cqn);
	PSET(qpc, MLX5X_QPC_CQN_RCV, cq->cqn);
	PSET(qpc, MLX5X_QPC_SRQN_RMPN_XRQN, x->t.rsv_srqn);
	PSET(qpc, MLX5X_QPC_XRCD, x->t.rsv_xrcd);
	put_be64(qpc + MLX5X_QPC_DBR_ADDR_OFF, th_alloc(&x->t, 64, 64));
	put_be64(in + MLX5X_CREATE_QP_IN_PAS_OFF, th_alloc(&x->t, 4096, 4096));
	return in;
}

static unsigned int create_s(struct te *x, uint8_t *in, uint32_t inlen,
			     uint32_t *synd, uint32_t *qpn)
{
	uint8_t out[16];
	unsigned int st = th_status(&x->t, in, inlen, out, 16);

	*synd = th_syndrome(out);
	if (qpn)
		*qpn = PGET(out, MLX5X_CREATE_QP_OUT_QPN);
	return st;
}

static void t_create(void)
{
	static const struct {
		uint32_t off, mask, bad;
		enum emu_rule r;
		unsigned int st;
		const char *what;
	} cases[] = {
#define F(f) MLX5X_QPC_##f##_OFF, MLX5X_QPC_##f##_MASK
		{ F(PD), 0, R_QP_PD, MLX5X_CMD_STAT_BAD_RES, "pd 0 on an RC QP" },
		{ F(CQN_RCV), 0, R_QP_CQ, MLX5X_CMD_STAT_BAD_RES,
		  "cqn_rcv 0 (no CQ 0: mlx5_ib names c0)" },
		{ F(CQN_SND), 0x777, R_QP_CQ, MLX5X_CMD_STAT_BAD_RES,
		  "an unknown send CQ" },
		{ F(SRQN_RMPN_XRQN), 0, R_QP_SRQ, MLX5X_CMD_STAT_BAD_RES,
		  "srqn 0 without an SRQ (mlx5_ib names s1)" },
		{ F(XRCD), 0, R_QP_XRCD, MLX5X_CMD_STAT_BAD_RES,
		  "xrcd 0 (mlx5_ib names xrcdn1)" },
		{ F(UAR_PAGE), 0x55, R_QP_UAR, MLX5X_CMD_STAT_BAD_RES,
		  "an unallocated UAR page" },
		{ F(TS_FORMAT), MLX5X_TS_FORMAT_REAL_TIME, R_QP_TS_FORMAT,
		  MLX5X_CMD_STAT_BAD_PARAM, "ts_format REAL_TIME on a ConnectX-5" },
		{ F(TS_FORMAT), 3, R_QP_TS_FORMAT, MLX5X_CMD_STAT_BAD_PARAM,
		  "ts_format 3 (reserved)" },
#undef F
	};
	uint8_t *in, *qpc, cqin[MLX5X_CREATE_CQ_IN_LEN + 8] = { 0 }, out[16];
	uint32_t inlen, synd, qpn, saved, live;
	unsigned int i, st;
	struct tcq cq;
	struct te x;

	te_setup(&x);
	te_cq(&x, &cq, 4);
	in = create_in(&x, &cq, &inlen);
	qpc = in + MLX5X_QP_IN_QPC_OFF;
	live = x.t.e.obj[OBJ_QP].live;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		saved = prm_get(qpc, cases[i].off, cases[i].mask);
		prm_set(qpc, cases[i].off, cases[i].mask, cases[i].bad);
		st = create_s(&x, in, inlen, &synd, NULL);
		refused(&x, st, synd, cases[i].r, cases[i].st, cases[i].what);
		prm_set(qpc, cases[i].off, cases[i].mask, saved);
	}
	is_u(x.t.e.obj[OBJ_QP].live, live, "no QP left by the refusals");
	PSET(qpc, MLX5X_QPC_TS_FORMAT, MLX5X_TS_FORMAT_DEFAULT);
	is_u(create_s(&x, in, inlen, &synd, NULL), 0,
	     "RC QP with ts_format DEFAULT, the reserved SRQ and XRCD");

	/* REG_UMR: no PD until RST2INIT, but fre */
	PSET(qpc, MLX5X_QPC_ST, MLX5X_QP_ST_REG_UMR);
	PSET(qpc, MLX5X_QPC_PD, 0);
	PSET(qpc, MLX5X_QPC_RQ_TYPE, MLX5X_QP_RQ_ZERO_LEN);
	st = create_s(&x, in, inlen, &synd, NULL);
	refused(&x, st, synd, R_QP_UMR_FRE, MLX5X_CMD_STAT_BAD_PARAM,
		"REG_UMR QP without fre");
	PSET(qpc, MLX5X_QPC_FRE, 1);
	PSET(qpc, MLX5X_QPC_RLKY, 1);
	PSET(qpc, MLX5X_QPC_LATENCY_SENSITIVE, 1);
	is_u(create_s(&x, in, inlen, &synd, &qpn), 0,
	     "REG_UMR QP as mlx5_ib creates it (pd 0, fre, rlky)");
	{
		struct tqp umr = { .qpn = qpn, .st = MLX5X_QP_ST_REG_UMR };
		uint8_t c[MLX5X_QPC_LEN] = { 0 };

		PSET_PATH(c, MLX5X_ADS_VHCA_PORT_NUM, 1);
		st = modify_s(&x, &umr, MLX5X_CMD_OP_RST2INIT_QP, c, 0, &synd);
		refused(&x, st, synd, R_QP_PD, MLX5X_CMD_STAT_BAD_RES,
			"REG_UMR RST2INIT without a PD");
		is_u(te_connect(&x, &umr, NULL, true), 0,
		     "REG_UMR to RTS: PD at RST2INIT, 4 KiB/12, mask 0");
		ok(te_emu_qp(&x, &umr)->pd &&
		   te_emu_qp(&x, &umr)->pd->pdn == x.t.pd,
		   "... its PD is the one RST2INIT named");
	}
	free(in);

	/* the CQ's timestamp format */
	th_hdr(cqin, MLX5X_CMD_OP_CREATE_CQ, 0);
	PSET(cqin + MLX5X_CREATE_CQ_IN_CQC_OFF, MLX5X_CQC_CQ_TIMESTAMP_FORMAT,
	     MLX5X_TS_FORMAT_REAL_TIME);
	st = th_status(&x.t, cqin, sizeof(cqin), out, 16);
	refused(&x, st, th_syndrome(out), R_CQ_TS_FORMAT,
		MLX5X_CMD_STAT_BAD_PARAM, "CQ with a real-time timestamp format");
	te_teardown(&x);
}

/* QUERY_HCA_CAP(ATOMIC) current value of the requester mode */
static uint32_t atomic_mode_cur(struct th *t, bool cur)
{
	uint8_t in[16] = { 0 }, out[MLX5X_QUERY_HCA_CAP_OUT_LEN];

	th_hdr(in, MLX5X_CMD_OP_QUERY_HCA_CAP,
	       MLX5X_CAP_TYPE_ATOMIC << 1 | (cur ? 1 : 0));
	if (th_status(t, in, 16, out, sizeof(out)))
		return 0xff;
	return PGET(out + MLX5X_QUERY_HCA_CAP_OUT_CAP_OFF,
		    MLX5X_ATOMIC_CAP_REQ_8B_ENDIANNESS) |
	       PGET(out + MLX5X_QUERY_HCA_CAP_OUT_CAP_OFF,
		    MLX5X_ATOMIC_CAP_SUPP_8B_ENDIANNESS_1) << 4;
}

static void t_atomic_cap(void)
{
	uint8_t in[MLX5X_SET_HCA_CAP_IN_LEN] = { 0 }, out[16];
	uint8_t *cap = in + MLX5X_SET_HCA_CAP_IN_CAP_OFF;
	unsigned int st;
	struct th t;

	th_setup(&t);
	th_enable_hca(&t);
	is_u(atomic_mode_cur(&t, true), 0x10,
	     "boot: requester mode 0 (big endian), mode 1 supported");
	th_hdr(in, MLX5X_CMD_OP_SET_HCA_CAP, MLX5X_CAP_TYPE_ATOMIC << 1);
	PSET(cap, MLX5X_ATOMIC_CAP_REQ_8B_ENDIANNESS, 2);
	st = th_status(&t, in, sizeof(in), out, 16);
	ok(st == MLX5X_CMD_STAT_BAD_PARAM &&
	   th_syndrome(out) == EMU_RULE_SYND(R_SET_CAP_ATOMIC) &&
	   t.e.viol[R_SET_CAP_ATOMIC] == 1,
	   "SET_HCA_CAP(ATOMIC) mode 2 refused (status 0x%x)", st);
	is_u(atomic_mode_cur(&t, true), 0x10, "... nothing changed");
	th_set_atomic_cap(&t);
	is_u(atomic_mode_cur(&t, true), 0x11,
	     "SET_HCA_CAP(ATOMIC) as mlx5_core: host endianness now");
	th_teardown(&t);
}

/* ---- the data path ---- */

struct apair {
	struct te x;
	struct tcq cqa, cqb;
	struct tqp a, b;
	struct tmr ma, mb;
};

/* a -> b connected with depths sra (a) and rra (b); b's atomic mode */
static void apair(struct apair *p, uint8_t sra, uint8_t rra, bool amode)
{
	struct te_conn ca, cb;

	te_setup(&p->x);
	te_cq(&p->x, &p->cqa, 6);
	te_cq(&p->x, &p->cqb, 6);
	te_qp(&p->x, &p->a, &p->cqa, &p->cqa);
	te_qp(&p->x, &p->b, &p->cqb, &p->cqb);
	ca = te_conn_default(&p->x, &p->b);
	cb = te_conn_default(&p->x, &p->a);
	ca.sra = sra;
	cb.rra = rra;
	cb.no_atomic_mode = !amode;
	if (te_connect(&p->x, &p->a, &ca, true) ||
	    te_connect(&p->x, &p->b, &cb, true))
		abort();
	p->ma = te_mr(&p->x, 8192, TMR_ALL);
	p->mb = te_mr(&p->x, 8192, TMR_ALL);
}

/* the 8-byte aligned target of the atomics in b's region */
static uint64_t aoff(const struct apair *p)
{
	return (8 - (p->mb.va & 7)) & 7;
}

static uint64_t fetch_add(struct apair *p, struct tcqe *c)
{
	struct tsge r = te_sge(&p->ma, 0, 8);
	uint64_t v = 0x1122334455667788ull;

	memcpy(p->mb.host + aoff(p), &v, 8);
	te_send(&p->x, &p->a, &(struct tsend){ .opcode = MLX5X_OPCODE_ATOMIC_FA,
		.flags = TE_SIGNALED, .raddr = p->mb.va + aoff(p),
		.rkey = p->mb.key, .swap_add = 1, .sg = &r, .nsge = 1 });
	te_run(&p->x);
	memset(c, 0, sizeof(*c));
	te_poll(&p->x, &p->cqa, c);
	memcpy(&v, p->ma.host, 8);
	return v;
}

static void t_atomics(void)
{
	struct apair p;
	struct tcqe c;
	uint64_t v;

	apair(&p, 0, 0, true);
	v = fetch_add(&p, &c);
	ok(c.opcode == MLX5X_CQE_REQ && v == 0x1122334455667788ull,
	   "host-order requester mode: original value as in memory");
	p.x.t.e.hca.atomic_req_mode = 0;	/* as at boot, before the SET */
	v = fetch_add(&p, &c);
	ok(c.opcode == MLX5X_CQE_REQ && v == 0x8877665544332211ull,
	   "boot requester mode: the original value arrives big endian (0x%llx)",
	   (unsigned long long)v);
	te_teardown(&p.x);

	apair(&p, 0, 0, false);
	v = fetch_add(&p, &c);
	ok(c.opcode == MLX5X_CQE_REQ_ERR &&
	   c.syndrome == MLX5X_CQE_SYND_REMOTE_INVAL_REQ_ERR,
	   "rae without atomic_mode: the atomic fails as an invalid request (op %u synd 0x%x)",
	   c.opcode, c.syndrome);
	memcpy(&v, p.mb.host + aoff(&p), 8);
	is_u(v, 0x1122334455667788ull, "... and memory is untouched");
	is_u(p.x.t.e.viol[R_ATOMIC_NO_MODE], 1, "... counted as a broken rule");
	te_teardown(&p.x);
}

/* two READs of 4 KiB posted at once; CQEs in c[2] */
static int two_reads(struct apair *p, struct tcqe *c)
{
	struct tsge r1 = te_sge(&p->ma, 0, 4096), r2 = te_sge(&p->ma, 4096, 4096);

	te_post(&p->x, &p->a, &(struct tsend){ .opcode = MLX5X_OPCODE_RDMA_READ,
		.flags = TE_SIGNALED, .raddr = p->mb.va, .rkey = p->mb.key,
		.sg = &r1, .nsge = 1 });
	te_send(&p->x, &p->a, &(struct tsend){ .opcode = MLX5X_OPCODE_RDMA_READ,
		.flags = TE_SIGNALED, .raddr = p->mb.va + 4096,
		.rkey = p->mb.key, .sg = &r2, .nsge = 1 });
	te_run(&p->x);
	memset(c, 0, 2 * sizeof(*c));
	return te_poll_n(&p->x, &p->cqa, c, 2);
}

static void t_depths(void)
{
	struct apair p;
	struct tcqe c[2];
	int n;

	/* requester depth 1, responder depth 1: the second READ waits */
	apair(&p, 0, 0, true);
	n = two_reads(&p, c);
	ok(n == 2 && c[0].opcode == MLX5X_CQE_REQ &&
	   c[1].opcode == MLX5X_CQE_REQ && !p.x.t.e.eng.st.rra_naks,
	   "log_sra_max 0: two READs one after the other, no NAK (%d CQEs)", n);
	te_teardown(&p.x);

	/* requester depth 8 against responder depth 1: NAK */
	apair(&p, 3, 0, true);
	n = two_reads(&p, c);
	ok(n == 2 && c[0].opcode == MLX5X_CQE_REQ &&
	   c[1].opcode == MLX5X_CQE_REQ_ERR &&
	   c[1].syndrome == MLX5X_CQE_SYND_REMOTE_INVAL_REQ_ERR &&
	   p.x.t.e.eng.st.rra_naks == 1,
	   "beyond log_rra_max: the responder NAKs the second READ (synd 0x%x, %llu NAKs)",
	   c[1].syndrome, (unsigned long long)p.x.t.e.eng.st.rra_naks);
	te_teardown(&p.x);

	/* both 8: two in flight, accepted */
	apair(&p, 3, 3, true);
	n = two_reads(&p, c);
	ok(n == 2 && c[0].opcode == MLX5X_CQE_REQ &&
	   c[1].opcode == MLX5X_CQE_REQ,
	   "log_sra_max 3 against log_rra_max 3: both READs complete");
	te_teardown(&p.x);
}

/* a message longer than the QP's log_msg_max fails locally */
static void t_msg_max(void)
{
	struct tcq cqa, cqb;
	struct te_conn ca, cb;
	struct tqp a, b;
	struct tcqe c = { 0 };
	struct tmr m;
	struct tsge s;
	struct te x;

	te_setup(&x);
	te_cq(&x, &cqa, 4);
	te_cq(&x, &cqb, 4);
	te_qp(&x, &a, &cqa, &cqa);
	te_qp(&x, &b, &cqb, &cqb);
	ca = te_conn_default(&x, &b);
	cb = te_conn_default(&x, &a);
	ca.log_msg_max = 10;
	if (te_connect(&x, &a, &ca, true) || te_connect(&x, &b, &cb, true))
		abort();
	m = te_mr(&x, 4096, TMR_ALL);
	s = te_sge(&m, 0, 1025);
	te_send(&x, &a, &(struct tsend){ .opcode = MLX5X_OPCODE_RDMA_WRITE,
		.flags = TE_SIGNALED, .raddr = m.va + 2048, .rkey = m.key,
		.sg = &s, .nsge = 1 });
	te_run(&x);
	ok(te_poll(&x, &cqa, &c) && c.opcode == MLX5X_CQE_REQ_ERR &&
	   c.syndrome == MLX5X_CQE_SYND_LOCAL_LENGTH_ERR,
	   "1025 B on a QP with log_msg_max 10: local length error (synd 0x%x)",
	   c.syndrome);
	te_teardown(&x);
}

static void t_doorbells(void)
{
	struct apair p;
	struct tcqe c;
	struct tsge s;
	uint32_t other, word;
	uint16_t idx;
	uint8_t db[8];

	apair(&p, 0, 0, true);
	other = th_alloc_num(&p.x.t, MLX5X_CMD_OP_ALLOC_UAR);
	te_run(&p.x);		/* the QPs idle: only a doorbell starts them */
	s = te_sge(&p.ma, 0, 16);
	idx = te_post(&p.x, &p.a, &(struct tsend){
		.opcode = MLX5X_OPCODE_RDMA_WRITE, .flags = TE_SIGNALED,
		.raddr = p.mb.va, .rkey = p.mb.key, .sg = &s, .nsge = 1 });
	put_be32(th_host(&p.x.t, p.a.dbr) + 4, p.a.sq_pi);
	memcpy(db, te_sq_bb(&p.x, &p.a, idx), 8);
	emu_bar0_write(&p.x.t.e, (uint64_t)other * EMU_PAGE_SIZE +
		       MLX5X_UAR_BF_OFF, db, 8);
	te_run(&p.x);
	ok(!te_poll(&p.x, &p.cqa, &c) &&
	   p.x.t.e.viol[R_SQ_DB_FOREIGN_UAR] == 1,
	   "send doorbell through another UAR page: dropped and counted");
	te_ring(&p.x, &p.a, idx);
	te_run(&p.x);
	ok(te_poll(&p.x, &p.cqa, &c) && c.opcode == MLX5X_CQE_REQ,
	   "... the same WQE rung on the QP's own page runs");

	/* CQ arm through a foreign page: no arm, no event */
	word = (uint32_t)(p.cqa.sn & 3) << 28 | (p.cqa.ci & 0xffffff);
	put_be32(th_host(&p.x.t, p.cqa.dbr) + 4, word);
	put_be32(db, word);
	put_be32(db + 4, p.cqa.cqn);
	emu_bar0_write(&p.x.t.e, (uint64_t)other * EMU_PAGE_SIZE +
		       MLX5X_UAR_CQ_DB_OFF, db, 8);
	ok(!te_emu_cq(&p.x, &p.cqa)->armed &&
	   p.x.t.e.viol[R_CQ_ARM_FOREIGN_UAR] == 1,
	   "CQ arm through another UAR page: dropped and counted");
	/* a record holding a later arm (re-armed before the device read it) */
	put_be32(th_host(&p.x.t, p.cqa.dbr) + 4,
		 (word & ~MLX5X_CQ_DB_CI_MASK) | ((word + 1) & MLX5X_CQ_DB_CI_MASK));
	emu_bar0_write(&p.x.t.e, (uint64_t)p.x.t.uar * EMU_PAGE_SIZE +
		       MLX5X_UAR_CQ_DB_OFF, db, 8);
	is_u(p.x.t.e.viol[R_CQ_ARM_DBR_MISMATCH], 0,
	     "record ahead of its doorbell (armed again since): not counted");
	/* the record still holds the previous arm: written after the ring */
	put_be32(th_host(&p.x.t, p.cqa.dbr) + 4,
		 (word & ~MLX5X_CQ_DB_CI_MASK) | ((word - 1) & MLX5X_CQ_DB_CI_MASK));
	emu_bar0_write(&p.x.t.e, (uint64_t)p.x.t.uar * EMU_PAGE_SIZE +
		       MLX5X_UAR_CQ_DB_OFF, db, 8);
	is_u(p.x.t.e.viol[R_CQ_ARM_DBR_MISMATCH], 1,
	     "record behind its doorbell: counted");
	te_arm(&p.x, &p.cqa, false);
	is_u(p.x.t.e.viol[R_CQ_ARM_DBR_MISMATCH], 1,
	     "record written first, as libmlx5: not counted");
	te_teardown(&p.x);
}

/* the report lists every rule and the total */
static void t_report(void)
{
	char buf[8192] = { 0 };
	struct te x;
	FILE *fp;

	te_setup(&x);
	x.t.e.viol[R_QP_MTU] = 2;
	x.t.e.viol[R_SQ_DB_FOREIGN_UAR] = 1;
	fp = fmemopen(buf, sizeof(buf) - 1, "w");
	emu_report(&x.t.e, fp);
	fclose(fp);
	ok(strstr(buf, "\nviol_qp_mtu=2\n") &&
	   strstr(buf, "\nviol_sq_doorbell_foreign_uar=1\n") &&
	   strstr(buf, "\nviol_qp_opt_param=0\n") &&
	   strstr(buf, "\nviolations=3\n"),
	   "report: viol_<rule> for every rule and violations=<sum>");
	te_teardown(&x);
}

int main(void)
{
	t_optpar();
	t_ranges();
	t_create();
	t_atomic_cap();
	t_atomics();
	t_depths();
	t_msg_max();
	t_doorbells();
	t_report();
	return tap_done();
}
