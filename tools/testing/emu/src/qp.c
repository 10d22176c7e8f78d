// SPDX-License-Identifier: GPL-2.0
/*
 * Queue pairs: creation with its resources, the state machine of the
 * modify commands, and a truthful QUERY_QP.
 *
 * The device keeps one accumulated QP context.  Each transition takes
 * from the command's context the fields that transition defines, plus
 * the optional ones selected by opt_param_mask; everything else stays
 * as it was.
 */
#include <stdlib.h>

#include "cmd.h"
#include "engine.h"
#include "log.h"

#define EMU_FILE_ID FILE_QP

#define PATH(o) (MLX5X_QPC_PRI_PATH_OFF + (o))

/* groups of context fields a transition may take */
enum {
	F_ACCESS	= 1u << 0,
	F_PKEY		= 1u << 1,
	F_PORT		= 1u << 2,
	F_QKEY		= 1u << 3,
	F_PATH		= 1u << 4,
	F_ALT_PATH	= 1u << 5,
	F_MTU		= 1u << 6,
	F_RQPN		= 1u << 7,
	F_RPSN		= 1u << 8,
	F_RRA		= 1u << 9,
	F_RNR		= 1u << 10,
	F_SPSN		= 1u << 11,
	F_RETRY		= 1u << 12,
	F_RNR_RETRY	= 1u << 13,
	F_SRA		= 1u << 14,
	F_ACK_TO	= 1u << 15,
	F_COUNTER	= 1u << 16,
	F_PM		= 1u << 17,
	F_LAG		= 1u << 18,
	F_RRE		= 1u << 19,
	F_RWE		= 1u << 20,
	F_RAE		= 1u << 21,
};

static const struct {
	uint32_t group;
	uint32_t off, mask;
} fields[] = {
	{ F_ACCESS | F_RRE, MLX5X_QPC_RRE_OFF, MLX5X_QPC_RRE_MASK },
	{ F_ACCESS | F_RWE, MLX5X_QPC_RWE_OFF, MLX5X_QPC_RWE_MASK },
	{ F_ACCESS | F_RAE, MLX5X_QPC_RAE_OFF, MLX5X_QPC_RAE_MASK },
	{ F_PKEY, PATH(MLX5X_ADS_PKEY_INDEX_OFF), MLX5X_ADS_PKEY_INDEX_MASK },
	{ F_PORT, PATH(MLX5X_ADS_VHCA_PORT_NUM_OFF),
	  MLX5X_ADS_VHCA_PORT_NUM_MASK },
	{ F_QKEY, MLX5X_QPC_Q_KEY_OFF, MLX5X_QPC_Q_KEY_MASK },
	/* the primary path minus P_Key index and port, which have own bits */
	{ F_PATH, PATH(0x00), 0xffff0000u },
	{ F_PATH, PATH(0x04), 0xffffffffu },
	{ F_PATH, PATH(0x08), 0xffffffffu },
	{ F_PATH, PATH(0x0c), 0xffffffffu },
	{ F_PATH, PATH(0x10), 0xffffffffu },
	{ F_PATH, PATH(0x14), 0xffffffffu },
	{ F_PATH, PATH(0x18), 0xffffffffu },
	{ F_PATH, PATH(0x1c), 0xffffffffu },
	{ F_PATH, PATH(0x20), 0xffffffffu },
	{ F_PATH, PATH(0x24), 0xff00ffffu },
	{ F_PATH, PATH(0x28), 0xffffffffu },
	{ F_MTU, MLX5X_QPC_MTU_OFF, MLX5X_QPC_MTU_MASK },
	{ F_MTU, MLX5X_QPC_LOG_MSG_MAX_OFF, MLX5X_QPC_LOG_MSG_MAX_MASK },
	{ F_RQPN, MLX5X_QPC_REMOTE_QPN_OFF, MLX5X_QPC_REMOTE_QPN_MASK },
	{ F_RPSN, MLX5X_QPC_NEXT_RCV_PSN_OFF, MLX5X_QPC_NEXT_RCV_PSN_MASK },
	{ F_RRA, MLX5X_QPC_LOG_RRA_MAX_OFF, MLX5X_QPC_LOG_RRA_MAX_MASK },
	{ F_RNR, MLX5X_QPC_MIN_RNR_NAK_OFF, MLX5X_QPC_MIN_RNR_NAK_MASK },
	{ F_SPSN, MLX5X_QPC_NEXT_SEND_PSN_OFF, MLX5X_QPC_NEXT_SEND_PSN_MASK },
	{ F_RETRY, MLX5X_QPC_RETRY_COUNT_OFF, MLX5X_QPC_RETRY_COUNT_MASK },
	{ F_RNR_RETRY, MLX5X_QPC_RNR_RETRY_OFF, MLX5X_QPC_RNR_RETRY_MASK },
	{ F_SRA, MLX5X_QPC_LOG_SRA_MAX_OFF, MLX5X_QPC_LOG_SRA_MAX_MASK },
	{ F_ACK_TO, PATH(MLX5X_ADS_ACK_TIMEOUT_OFF), MLX5X_ADS_ACK_TIMEOUT_MASK },
	{ F_COUNTER, MLX5X_QPC_COUNTER_SET_ID_OFF, MLX5X_QPC_COUNTER_SET_ID_MASK },
	{ F_PM, MLX5X_QPC_PM_STATE_OFF, MLX5X_QPC_PM_STATE_MASK },
	{ F_LAG, MLX5X_QPC_LAG_TX_PORT_AFFINITY_OFF,
	  MLX5X_QPC_LAG_TX_PORT_AFFINITY_MASK },
};

/* opt_param_mask bit -> field group */
static const struct {
	uint32_t optpar, group;
} optional[] = {
	{ MLX5X_QP_OPTPAR_ALT_ADDR_PATH, F_ALT_PATH },
	{ MLX5X_QP_OPTPAR_RRE, F_RRE },
	{ MLX5X_QP_OPTPAR_RAE, F_RAE },
	{ MLX5X_QP_OPTPAR_RWE, F_RWE },
	{ MLX5X_QP_OPTPAR_PKEY_INDEX, F_PKEY },
	{ MLX5X_QP_OPTPAR_Q_KEY, F_QKEY },
	{ MLX5X_QP_OPTPAR_RNR_TIMEOUT, F_RNR },
	{ MLX5X_QP_OPTPAR_PRIMARY_ADDR_PATH, F_PATH },
	{ MLX5X_QP_OPTPAR_SRA_MAX, F_SRA },
	{ MLX5X_QP_OPTPAR_RRA_MAX, F_RRA },
	{ MLX5X_QP_OPTPAR_PM_STATE, F_PM },
	{ MLX5X_QP_OPTPAR_RETRY_COUNT, F_RETRY },
	{ MLX5X_QP_OPTPAR_RNR_RETRY, F_RNR_RETRY },
	{ MLX5X_QP_OPTPAR_ACK_TIMEOUT, F_ACK_TO },
	{ MLX5X_QP_OPTPAR_LAG_TX_AFF, F_LAG },
	{ MLX5X_QP_OPTPAR_PRI_PORT, F_PORT },
	{ MLX5X_QP_OPTPAR_COUNTER_SET_ID, F_COUNTER },
};

#define ANY_STATE 0xff

static const struct {
	uint16_t op;
	uint8_t from, to;
	uint32_t required;	/* groups always taken */
	uint32_t allowed;	/* groups opt_param_mask may add */
} transitions[] = {
	{ MLX5X_CMD_OP_RST2INIT_QP, MLX5X_QP_STATE_RST, MLX5X_QP_STATE_INIT,
	  F_ACCESS | F_PKEY | F_PORT | F_QKEY | F_COUNTER, F_LAG },
	{ MLX5X_CMD_OP_INIT2INIT_QP, MLX5X_QP_STATE_INIT, MLX5X_QP_STATE_INIT,
	  0, F_ACCESS | F_PKEY | F_PORT | F_QKEY | F_COUNTER | F_LAG },
	{ MLX5X_CMD_OP_INIT2RTR_QP, MLX5X_QP_STATE_INIT, MLX5X_QP_STATE_RTR,
	  F_PATH | F_MTU | F_RQPN | F_RPSN | F_RRA | F_RNR,
	  F_ACCESS | F_PKEY | F_QKEY | F_ALT_PATH | F_LAG | F_COUNTER },
	{ MLX5X_CMD_OP_RTR2RTS_QP, MLX5X_QP_STATE_RTR, MLX5X_QP_STATE_RTS,
	  F_SPSN | F_RETRY | F_RNR_RETRY | F_SRA | F_ACK_TO,
	  F_ACCESS | F_RNR | F_ALT_PATH | F_PM | F_QKEY | F_COUNTER },
	{ MLX5X_CMD_OP_RTS2RTS_QP, MLX5X_QP_STATE_RTS, MLX5X_QP_STATE_RTS,
	  0, F_ACCESS | F_RNR | F_ALT_PATH | F_PATH | F_PM | F_QKEY |
	  F_ACK_TO | F_COUNTER | F_LAG },
	{ MLX5X_CMD_OP_SQERR2RTS_QP, MLX5X_QP_STATE_SQER, MLX5X_QP_STATE_RTS,
	  0, F_ACCESS | F_RNR | F_QKEY },
	{ MLX5X_CMD_OP_SQD_RTS_QP, MLX5X_QP_STATE_SQD, MLX5X_QP_STATE_RTS,
	  0, F_ACCESS | F_RNR | F_ALT_PATH | F_PATH | F_PM | F_QKEY |
	  F_ACK_TO | F_RETRY | F_RNR_RETRY | F_SRA | F_RRA },
	{ MLX5X_CMD_OP_2ERR_QP, ANY_STATE, MLX5X_QP_STATE_ERR, 0, 0 },
	{ MLX5X_CMD_OP_2RST_QP, ANY_STATE, MLX5X_QP_STATE_RST, 0, 0 },
};

static const char *state_name(uint8_t s)
{
	static const char *const n[] = {
		"RST", "INIT", "RTR", "RTS", "SQER", "SQD", "ERR",
	};

	return s < ARRAY_SIZE(n) ? n[s] : "?";
}

static void take_fields(struct emu_qp *qp, const uint8_t *qpc, uint32_t groups)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fields); i++)
		if (fields[i].group & groups)
			prm_set(qp->qpc, fields[i].off, fields[i].mask,
				prm_get(qpc, fields[i].off, fields[i].mask));
	if (groups & F_ALT_PATH)
		memcpy(qp->qpc + MLX5X_QPC_ALT_PATH_OFF,
		       qpc + MLX5X_QPC_ALT_PATH_OFF, MLX5X_ADS_LEN);
}

static struct emu_qp *get_qp(struct cmd_ctx *c)
{
	return objtab_get(&c->e->obj[OBJ_QP], PGET(c->in, MLX5X_QP_IN_QPN));
}

int h_modify_qp(struct cmd_ctx *c)
{
	const uint8_t *qpc = c->in + MLX5X_QP_IN_QPC_OFF;
	struct emu_qp *qp = get_qp(c);
	uint32_t opt, groups;
	unsigned int i, t;
	uint8_t from;

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (!qp)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	for (t = 0; t < ARRAY_SIZE(transitions); t++)
		if (transitions[t].op == c->op)
			break;
	if (t == ARRAY_SIZE(transitions))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_OP);
	if (transitions[t].from != ANY_STATE && transitions[t].from != qp->state)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_QP_STATE);
	groups = transitions[t].required;
	if (c->inlen >= MLX5X_QP_MODIFY_IN_LEN) {
		opt = get_be32(c->in + MLX5X_QP_IN_OPT_PARAM_MASK_OFF);
		for (i = 0; i < ARRAY_SIZE(optional); i++)
			if (opt & optional[i].optpar)
				groups |= optional[i].group &
					  /* F_ACCESS allows each of its bits */
					  (transitions[t].allowed & F_ACCESS ?
					   transitions[t].allowed | F_RRE |
					   F_RWE | F_RAE : transitions[t].allowed);
		take_fields(qp, qpc, groups);
	}
	cmd_detail(c, "qpn=0x%x %s->%s", qp->qpn, state_name(qp->state),
		   state_name(transitions[t].to));
	from = qp->state;
	qp->state = transitions[t].to;
	PSET(qp->qpc, MLX5X_QPC_STATE, qp->state);
	qp->transitions++;
	eng_qp_modified(c->e, qp, from);
	return 0;
}

int h_query_qp(struct cmd_ctx *c)
{
	struct emu_qp *qp = get_qp(c);
	uint32_t room, i;

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (!qp)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	memcpy(c->out + MLX5X_QUERY_QP_OUT_QPC_OFF, qp->qpc, MLX5X_QPC_LEN);
	room = (c->outlen - MLX5X_QUERY_QP_OUT_PAS_OFF) / MLX5X_PAS_LEN;
	for (i = 0; i < qp->pas.n && i < room; i++)
		put_be64(c->out + MLX5X_QUERY_QP_OUT_PAS_OFF + i * MLX5X_PAS_LEN,
			 qp->pas.addr[i]);
	cmd_detail(c, "qpn=0x%x state=%s", qp->qpn, state_name(qp->state));
	return 0;
}

static bool st_supported(uint8_t st)
{
	switch (st) {
	case MLX5X_QP_ST_RC:
	case MLX5X_QP_ST_UC:
	case MLX5X_QP_ST_UD:
	case MLX5X_QP_ST_XRC:
	case MLX5X_QP_ST_QP0:
	case MLX5X_QP_ST_QP1:
	case MLX5X_QP_ST_REG_UMR:
		return true;
	default:
		return false;
	}
}

/* look up the objects the context names; 0 means none where optional */
static int qp_refs(struct cmd_ctx *c, const uint8_t *qpc, struct emu_qp *qp)
{
	struct emu *e = c->e;
	uint32_t scqn = PGET(qpc, MLX5X_QPC_CQN_SND);
	uint32_t rcqn = PGET(qpc, MLX5X_QPC_CQN_RCV);
	uint32_t xrcdn = PGET(qpc, MLX5X_QPC_XRCD);
	uint32_t rq_type = PGET(qpc, MLX5X_QPC_RQ_TYPE);

	qp->pd = objtab_get(&e->obj[OBJ_PD], PGET(qpc, MLX5X_QPC_PD));
	qp->uar = objtab_get(&e->obj[OBJ_UAR], PGET(qpc, MLX5X_QPC_UAR_PAGE));
	qp->scq = scqn ? objtab_get(&e->obj[OBJ_CQ], scqn) : NULL;
	qp->rcq = rcqn ? objtab_get(&e->obj[OBJ_CQ], rcqn) : NULL;
	qp->xrcd = xrcdn ? objtab_get(&e->obj[OBJ_XRCD], xrcdn) : NULL;
	/*
	 * The UMR QP has no PD (mlx5_ib leaves qpc.pd 0); an XRC target QP
	 * has no send queue and no UAR (qpc.uar_page 0).
	 */
	if ((!qp->pd && PGET(qpc, MLX5X_QPC_ST) != MLX5X_QP_ST_REG_UMR) ||
	    (!qp->uar && (PGET(qpc, MLX5X_QPC_UAR_PAGE) ||
			  !PGET(qpc, MLX5X_QPC_NO_SQ))) ||
	    (scqn && !qp->scq) || (rcqn && !qp->rcq) ||
	    (xrcdn && !qp->xrcd))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	if (rq_type == MLX5X_QP_RQ_SRQ) {
		qp->srq = objtab_get(&e->obj[OBJ_SRQ],
				     PGET(qpc, MLX5X_QPC_SRQN_RMPN_XRQN));
		if (!qp->srq)
			return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	} else if (rq_type != MLX5X_QP_RQ_NON_ZERO &&
		   rq_type != MLX5X_QP_RQ_ZERO_LEN) {
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	}
	return 0;
}

static int qp_sizes(struct cmd_ctx *c, const uint8_t *qpc, struct emu_qp *qp)
{
	uint32_t max = CAP(c->e, MLX5X_CAP_LOG_MAX_QP_SZ);
	uint32_t log_rq = PGET(qpc, MLX5X_QPC_LOG_RQ_SIZE);
	uint32_t log_sq = PGET(qpc, MLX5X_QPC_LOG_SQ_SIZE);

	if (log_rq > max || log_sq > max)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (PGET(qpc, MLX5X_QPC_RQ_TYPE) == MLX5X_QP_RQ_NON_ZERO)
		qp->rq_len = (uint64_t)16 << (log_rq +
					      PGET(qpc, MLX5X_QPC_LOG_RQ_STRIDE));
	if (!PGET(qpc, MLX5X_QPC_NO_SQ))
		qp->sq_len = (uint64_t)64 << log_sq;	/* 64-byte WQEBBs */
	return 0;
}

static void qp_get_refs(struct emu_qp *qp, int d)
{
	if (qp->pd)
		qp->pd->refs += d;
	if (qp->uar && d > 0)
		qp->uar->refs++;
	else if (qp->uar)
		uar_put(qp->uar);
	if (qp->scq)
		qp->scq->refs += d;
	if (qp->rcq)
		qp->rcq->refs += d;
	if (qp->srq)
		qp->srq->refs += d;
	if (qp->xrcd)
		qp->xrcd->refs += d;
}

static int check_create(struct cmd_ctx *c, const uint8_t *qpc)
{
	struct emu *e = c->e;
	uint64_t dbr = get_be64(qpc + MLX5X_QPC_DBR_ADDR_OFF);

	if (c->op_mod || PGET(c->in, MLX5X_CREATE_QP_IN_INPUT_QPN))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	/* no umem objects (DEVX) */
	if (PGET(c->in, MLX5X_CREATE_QP_IN_WQ_UMEM_VALID) ||
	    PGET(qpc, MLX5X_QPC_DBR_UMEM_VALID))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (!st_supported((uint8_t)PGET(qpc, MLX5X_QPC_ST)) ||
	    PGET(qpc, MLX5X_QPC_STATE) != MLX5X_QP_STATE_RST)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if ((dbr & 3) || !gm_check(&e->gm, dbr, 8, GM_PROT_READ | GM_PROT_WRITE))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	return 0;
}

int h_create_qp(struct cmd_ctx *c)
{
	const uint8_t *qpc = c->in + MLX5X_QP_IN_QPC_OFF;
	struct emu *e = c->e;
	struct emu_qp *qp;

	if (check_create(c, qpc))
		return c->status;
	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return CMD_FAIL(c, MLX5X_CMD_STAT_NO_RES);
	if (qp_refs(c, qpc, qp) || qp_sizes(c, qpc, qp))
		goto fail;
	if (qp->rq_len + qp->sq_len &&
	    CMD_GET_PAS(c, MLX5X_CREATE_QP_IN_PAS_OFF,
			PGET(qpc, MLX5X_QPC_LOG_PAGE_SIZE),
			PGET(qpc, MLX5X_QPC_PAGE_OFFSET),
			qp->rq_len + qp->sq_len, &qp->pas))
		goto fail;
	if (objtab_add(&e->obj[OBJ_QP], qp, &qp->qpn)) {
		CMD_FAIL(c, MLX5X_CMD_STAT_NO_RES);
		goto fail;
	}
	qp->st = (uint8_t)PGET(qpc, MLX5X_QPC_ST);
	qp->state = MLX5X_QP_STATE_RST;
	qp->dbr = get_be64(qpc + MLX5X_QPC_DBR_ADDR_OFF);
	memcpy(qp->qpc, qpc, MLX5X_QPC_LEN);
	qp_get_refs(qp, 1);
	PSET(c->out, MLX5X_CREATE_QP_OUT_QPN, qp->qpn);
	cmd_detail(c, "qpn=0x%x st=0x%x pd=%u scq=%u rcq=%u rq=%llu sq=%llu",
		   qp->qpn, qp->st, qp->pd ? qp->pd->pdn : 0,
		   qp->scq ? qp->scq->cqn : 0,
		   qp->rcq ? qp->rcq->cqn : 0, (unsigned long long)qp->rq_len,
		   (unsigned long long)qp->sq_len);
	return 0;
fail:
	pas_free(&qp->pas);
	free(qp);
	return c->status;
}

int h_destroy_qp(struct cmd_ctx *c)
{
	struct emu_qp *qp = get_qp(c);

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (!qp)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	objtab_del(&c->e->obj[OBJ_QP], qp->qpn);
	mcg_qp_gone(c->e, qp->qpn);
	qp_get_refs(qp, -1);
	cmd_detail(c, "qpn=0x%x state=%s", qp->qpn, state_name(qp->state));
	eng_qp_release(c->e, qp);
	pas_free(&qp->pas);
	free(qp);
	return 0;
}
