// SPDX-License-Identifier: GPL-2.0
/*
 * Shared receive queues in their three firmware forms:
 *   CREATE_SRQ       ISSI 0: basic and XRC SRQs alike;
 *   CREATE_XRC_SRQ   ISSI 1: XRC SRQs, with the user index CQE v1 reports;
 *   CREATE_RMP       ISSI 1: basic SRQs, described by a work queue context.
 * mlx5_ib picks the form by the ISSI it set.  All three share one number
 * space because a QP names any of them in srqn_rmpn_xrqn.  Each command
 * family only acts on objects it made (BAD_RES otherwise), and an SRQ a QP
 * still uses cannot be destroyed (BAD_RES_STATE), as in firmware.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "engine.h"
#include "log.h"

#define EMU_FILE_ID FILE_SRQ

/* the receive queue geometry and references, whichever form gave them */
struct srq_geom {
	uint32_t log_size;
	uint32_t log_stride;	/* of 16-byte units */
	uint32_t log_pg;	/* page size, log of 4 KiB units */
	uint32_t page_off;	/* in 1/64 of a page */
	uint64_t dbr;
	uint32_t pdn, xrcdn, cqn;
};

static int srq_refs(struct cmd_ctx *c, const struct srq_geom *g,
		    struct emu_srq *srq)
{
	struct emu *e = c->e;

	srq->pd = objtab_get(&e->obj[OBJ_PD], g->pdn);
	/* 0 means "none" for the optional XRC domain and CQ */
	srq->xrcd = g->xrcdn ? objtab_get(&e->obj[OBJ_XRCD], g->xrcdn) : NULL;
	srq->cq = g->cqn ? objtab_get(&e->obj[OBJ_CQ], g->cqn) : NULL;
	if (!srq->pd || (g->xrcdn && !srq->xrcd) || (g->cqn && !srq->cq))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	return 0;
}

static int srq_new(struct cmd_ctx *c, const struct srq_geom *g,
		   uint32_t pas_off, uint8_t kind, struct emu_srq **out)
{
	uint64_t len = (uint64_t)1 << (g->log_size + g->log_stride + 4);
	struct emu *e = c->e;
	struct emu_srq *srq;

	if (g->log_size > CAP(e, MLX5X_CAP_LOG_MAX_SRQ_SZ))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if ((g->dbr & 3) || !gm_check(&e->gm, g->dbr, 4, GM_PROT_READ))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	srq = calloc(1, sizeof(*srq));
	if (!srq)
		return CMD_FAIL(c, MLX5X_CMD_STAT_NO_RES);
	if (srq_refs(c, g, srq) ||
	    CMD_GET_PAS(c, pas_off, g->log_pg, g->page_off, len, &srq->pas)) {
		free(srq);
		return c->status;
	}
	if (objtab_add(&e->obj[OBJ_SRQ], srq, &srq->srqn)) {
		pas_free(&srq->pas);
		free(srq);
		return CMD_FAIL(c, MLX5X_CMD_STAT_NO_RES);
	}
	srq->kind = kind;
	srq->log_size = (uint8_t)g->log_size;
	srq->log_stride = (uint8_t)g->log_stride;
	srq->dbr = g->dbr;
	srq->pd->refs++;
	if (srq->xrcd)
		srq->xrcd->refs++;
	if (srq->cq)
		srq->cq->refs++;
	cmd_detail(c, "srqn=%u log_size=%u stride=%u pd=%u", srq->srqn,
		   g->log_size, 16u << g->log_stride, srq->pd->pdn);
	*out = srq;
	return 0;
}

/*
 * The three families' DESTROY and QUERY commands have one layout (the
 * number at 0x08) and differ in the kind they accept and where the query
 * puts the context: one handler each, the family found by opcode.
 */
static const struct srq_family {
	uint16_t destroy, query;
	uint8_t kind;
	uint32_t ctx_off, ctx_len;	/* context in the QUERY output */
} families[] = {
	{ MLX5X_CMD_OP_DESTROY_SRQ, MLX5X_CMD_OP_QUERY_SRQ, SRQ_KIND_SRQ,
	  MLX5X_QUERY_SRQ_OUT_SRQC_OFF, MLX5X_SRQC_LEN },
	{ MLX5X_CMD_OP_DESTROY_XRC_SRQ, MLX5X_CMD_OP_QUERY_XRC_SRQ, SRQ_KIND_XRC,
	  MLX5X_QUERY_SRQ_OUT_SRQC_OFF, MLX5X_SRQC_LEN },
	{ MLX5X_CMD_OP_DESTROY_RMP, MLX5X_CMD_OP_QUERY_RMP, SRQ_KIND_RMP,
	  MLX5X_RMP_CMD_RMPC_OFF, MLX5X_RMPC_LEN },
};

static const struct srq_family *family_of(uint16_t op)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(families); i++)
		if (families[i].destroy == op || families[i].query == op)
			return &families[i];
	return NULL;	/* not reached: the table routes only these */
}

/* the SRQ of @kind the command names, or NULL */
static struct emu_srq *srq_get(struct cmd_ctx *c, uint8_t kind)
{
	struct emu_srq *srq = objtab_get(&c->e->obj[OBJ_SRQ],
					 PGET(c->in, MLX5X_SRQ_IN_SRQN));

	return srq && srq->kind == kind ? srq : NULL;
}

/* the object a DESTROY or QUERY names, of its family's kind */
static int srq_of_cmd(struct cmd_ctx *c, const struct srq_family **f,
		      struct emu_srq **srq)
{
	*f = family_of(c->op);
	*srq = *f ? srq_get(c, (*f)->kind) : NULL;
	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (!*srq)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	return 0;
}

/* DESTROY_SRQ, DESTROY_XRC_SRQ, DESTROY_RMP */
int h_destroy_srq(struct cmd_ctx *c)
{
	const struct srq_family *f;
	struct emu_srq *srq;

	if (srq_of_cmd(c, &f, &srq))
		return c->status;
	if (srq->refs)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES_STATE);
	objtab_del(&c->e->obj[OBJ_SRQ], srq->srqn);
	srq->pd->refs--;
	if (srq->xrcd)
		srq->xrcd->refs--;
	if (srq->cq)
		srq->cq->refs--;
	cmd_detail(c, "srqn=%u", srq->srqn);
	pas_free(&srq->pas);
	free(srq);
	return 0;
}

/* QUERY_SRQ, QUERY_XRC_SRQ, QUERY_RMP: the context as created */
int h_query_srq(struct cmd_ctx *c)
{
	const struct srq_family *f;
	struct emu_srq *srq;

	if (srq_of_cmd(c, &f, &srq))
		return c->status;
	memcpy(c->out + f->ctx_off, srq->ctx, f->ctx_len);
	return 0;
}

/* ---- SRQ context form: CREATE_SRQ and CREATE_XRC_SRQ ---- */

static void srqc_geom(const uint8_t *srqc, struct srq_geom *g)
{
	g->log_size = PGET(srqc, MLX5X_SRQC_LOG_SRQ_SIZE);
	g->log_stride = PGET(srqc, MLX5X_SRQC_LOG_RQ_STRIDE);
	g->log_pg = PGET(srqc, MLX5X_SRQC_LOG_PAGE_SIZE);
	g->page_off = PGET(srqc, MLX5X_SRQC_PAGE_OFFSET);
	g->dbr = get_be64(srqc + MLX5X_SRQC_DBR_ADDR_OFF);
	g->pdn = PGET(srqc, MLX5X_SRQC_PD);
	g->xrcdn = PGET(srqc, MLX5X_SRQC_XRCD);
	g->cqn = PGET(srqc, MLX5X_SRQC_CQN);
}

static int srqc_create(struct cmd_ctx *c, uint8_t kind, struct emu_srq **srq)
{
	const uint8_t *srqc = c->in + MLX5X_CREATE_SRQ_IN_SRQC_OFF;
	struct srq_geom g;

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	srqc_geom(srqc, &g);
	if (srq_new(c, &g, MLX5X_CREATE_SRQ_IN_PAS_OFF, kind, srq))
		return c->status;
	memcpy((*srq)->ctx, srqc, MLX5X_SRQC_LEN);
	PSET(c->out, MLX5X_CREATE_SRQ_OUT_SRQN, (*srq)->srqn);
	return 0;
}

int h_create_srq(struct cmd_ctx *c)
{
	struct emu_srq *srq;

	return srqc_create(c, SRQ_KIND_SRQ, &srq);
}

/* ARM_RQ (op_mod SRQ) and ARM_XRC_SRQ: same input, lwm in the context */
static int srqc_arm(struct cmd_ctx *c, uint16_t op_mod, uint8_t kind)
{
	struct emu_srq *srq = srq_get(c, kind);
	uint16_t lwm = (uint16_t)PGET(c->in, MLX5X_ARM_RQ_IN_LWM);

	if (c->op_mod != op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (!srq)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	PSET(srq->ctx, MLX5X_SRQC_LWM, lwm);
	eng_arm_rq(c->e, srq, lwm);
	return 0;
}

int h_arm_rq(struct cmd_ctx *c)
{
	return srqc_arm(c, MLX5X_ARM_RQ_OPMOD_SRQ, SRQ_KIND_SRQ);
}

/*
 * An XRC SRQ's receives complete with its user index in the CQE (CQE
 * version 1), or with its number when the context says they are equal.
 */
int h_create_xrc_srq(struct cmd_ctx *c)
{
	const uint8_t *srqc = c->in + MLX5X_CREATE_SRQ_IN_SRQC_OFF;
	struct emu_srq *srq;

	/* umem-backed queues are for DEVX user contexts, not advertised */
	if (PGET(c->in, MLX5X_CREATE_XRC_SRQ_IN_UMEM_VALID) ||
	    !PGET(srqc, MLX5X_SRQC_XRCD))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (srqc_create(c, SRQ_KIND_XRC, &srq))
		return c->status;
	srq->eng.has_uidx = true;
	srq->eng.uidx = PGET(srqc, MLX5X_XRC_SRQC_UIDX_EQ_SRQN) ?
			srq->srqn : PGET(srqc, MLX5X_XRC_SRQC_USER_INDEX);
	return 0;
}

int h_arm_xrc_srq(struct cmd_ctx *c)
{
	return srqc_arm(c, MLX5X_ARM_XRC_SRQ_OPMOD_XRC_SRQ, SRQ_KIND_XRC);
}

/* ---- RMP form: a linked-list work queue context ---- */

/* stride of a receive WQE: 16 bytes (one data segment) to 2 KiB */
#define RMP_LOG_STRIDE_MIN	4
#define RMP_LOG_STRIDE_MAX	11

static int rmp_geom(struct cmd_ctx *c, const uint8_t *wq, struct srq_geom *g)
{
	uint32_t stride = PGET(wq, MLX5X_WQ_LOG_STRIDE);

	if (PGET(wq, MLX5X_WQ_TYPE) != MLX5X_WQ_TYPE_LINKED_LIST ||
	    PGET(wq, MLX5X_WQ_UMEM_VALID) ||
	    stride < RMP_LOG_STRIDE_MIN || stride > RMP_LOG_STRIDE_MAX)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	memset(g, 0, sizeof(*g));
	g->log_size = PGET(wq, MLX5X_WQ_LOG_SZ);
	g->log_stride = stride - 4;
	g->log_pg = PGET(wq, MLX5X_WQ_LOG_PG_SZ);
	g->page_off = PGET(wq, MLX5X_WQ_PAGE_OFFSET);
	g->dbr = get_be64(wq + MLX5X_WQ_DBR_ADDR_OFF);
	g->pdn = PGET(wq, MLX5X_WQ_PD);
	return 0;
}

/* an RMP is created ready; receive completions go to each QP's CQ */
int h_create_rmp(struct cmd_ctx *c)
{
	const uint8_t *rmpc = c->in + MLX5X_RMP_CMD_RMPC_OFF;
	const uint8_t *wq = rmpc + MLX5X_RMPC_WQ_OFF;
	struct emu_srq *srq;
	struct srq_geom g;

	if (c->op_mod ||
	    PGET(rmpc, MLX5X_RMPC_STATE) != MLX5X_RMPC_STATE_RDY)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (rmp_geom(c, wq, &g) ||
	    srq_new(c, &g, MLX5X_CREATE_RMP_IN_PAS_OFF, SRQ_KIND_RMP, &srq))
		return c->status;
	memcpy(srq->ctx, rmpc, MLX5X_RMPC_LEN);
	PSET(c->out, MLX5X_CREATE_RMP_OUT_RMPN, srq->srqn);
	return 0;
}

/*
 * MODIFY_RMP: ready to ready, and the only field it may change is the
 * limit (bitmask lwm), which arms the SRQ limit event as ARM_RQ does.
 * The input names the current state; a wrong one is BAD_RES_STATE.
 */
int h_modify_rmp(struct cmd_ctx *c)
{
	const uint8_t *rmpc = c->in + MLX5X_RMP_CMD_RMPC_OFF;
	uint64_t mask = get_be64(c->in + MLX5X_MODIFY_RMP_IN_BITMASK_OFF);
	const uint8_t *wq = rmpc + MLX5X_RMPC_WQ_OFF;
	struct emu_srq *srq = srq_get(c, SRQ_KIND_RMP);
	uint16_t lwm;

	if (c->op_mod || (mask & ~MLX5X_MODIFY_RMP_IN_BITMASK_LWM) ||
	    PGET(rmpc, MLX5X_RMPC_STATE) != MLX5X_RMPC_STATE_RDY)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (!srq)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	if (PGET(c->in, MLX5X_MODIFY_RMP_IN_STATE) !=
	    PGET(srq->ctx, MLX5X_RMPC_STATE))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES_STATE);
	if (!(mask & MLX5X_MODIFY_RMP_IN_BITMASK_LWM))
		return 0;
	lwm = (uint16_t)PGET(wq, MLX5X_WQ_LWM);
	PSET(srq->ctx + MLX5X_RMPC_WQ_OFF, MLX5X_WQ_LWM, lwm);
	cmd_detail(c, "rmpn=%u lwm=%u", srq->srqn, lwm);
	eng_arm_rq(c->e, srq, lwm);
	return 0;
}
