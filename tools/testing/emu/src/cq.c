// SPDX-License-Identifier: GPL-2.0
/*
 * Completion queue commands: CREATE, DESTROY, QUERY and MODIFY_CQ.  A CQ
 * names its EQ and its UAR page (the arm doorbell must come through it)
 * and is referenced by the QPs and SRQs that complete on it, so it cannot
 * be destroyed while they live (BAD_RES_STATE), as in firmware.  What the
 * device writes to a CQ is the engine's (cqe.c, cq_arm.c).
 */
#include <stdlib.h>

#include "cmd.h"
#include "engine.h"
#include "log.h"
#include "qp_int.h"

#define EMU_FILE_ID FILE_CQ

int h_create_cq(struct cmd_ctx *c)
{
	const uint8_t *cqc = c->in + MLX5X_CREATE_CQ_IN_CQC_OFF;
	uint32_t log_size = PGET(cqc, MLX5X_CQC_LOG_CQ_SIZE);
	uint32_t cqe_sz = PGET(cqc, MLX5X_CQC_CQE_SZ);
	struct emu *e = c->e;
	struct emu_uar *uar;
	struct emu_eq *eq;
	struct emu_cq *cq;
	uint64_t dbr;

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (log_size > CAP(e, MLX5X_CAP_LOG_MAX_CQ_SZ) ||
	    cqe_sz > MLX5X_CQE_SIZE_128)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	/* no umem (DEVX), no compression, no APU */
	if (PGET(c->in, MLX5X_CREATE_CQ_IN_CQ_UMEM_VALID) ||
	    PGET(cqc, MLX5X_CQC_DBR_UMEM_VALID) ||
	    PGET(cqc, MLX5X_CQC_CQE_COMP_EN))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	/* a ConnectX-5 stamps CQEs from its free-running clock (qp_check.c) */
	if (!ts_format_ok(e, PGET(cqc, MLX5X_CQC_CQ_TIMESTAMP_FORMAT)))
		return cmd_rule(c, R_CQ_TS_FORMAT, "cq_timestamp_format %u",
				PGET(cqc, MLX5X_CQC_CQ_TIMESTAMP_FORMAT));
	dbr = get_be64(cqc + MLX5X_CQC_DBR_ADDR_OFF);
	if ((dbr & 7) || !gm_check(&e->gm, dbr, 8, GM_PROT_READ | GM_PROT_WRITE))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	uar = objtab_get(&e->obj[OBJ_UAR], PGET(cqc, MLX5X_CQC_UAR_PAGE));
	eq = objtab_get(&e->obj[OBJ_EQ], PGET(cqc, MLX5X_CQC_C_EQN));
	if (!uar || !eq)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return CMD_FAIL(c, MLX5X_CMD_STAT_NO_RES);
	cq->log_cqe_size = (uint8_t)(6 + cqe_sz);
	if (CMD_GET_PAS(c, MLX5X_CREATE_CQ_IN_PAS_OFF,
			PGET(cqc, MLX5X_CQC_LOG_PAGE_SIZE),
			PGET(cqc, MLX5X_CQC_PAGE_OFFSET),
			(uint64_t)1 << (log_size + cq->log_cqe_size), &cq->pas)) {
		free(cq);
		return c->status;
	}
	if (objtab_add(&e->obj[OBJ_CQ], cq, &cq->cqn)) {
		pas_free(&cq->pas);
		free(cq);
		return CMD_FAIL(c, MLX5X_CMD_STAT_NO_RES);
	}
	cq->log_size = (uint8_t)log_size;
	cq->dbr = dbr;
	cq->oi = PGET(cqc, MLX5X_CQC_OI);
	cq->uar = uar;
	cq->eq = eq;
	uar->refs++;
	eq->refs++;
	memcpy(cq->cqc, cqc, MLX5X_CQC_LEN);
	PSET(c->out, MLX5X_CREATE_CQ_OUT_CQN, cq->cqn);
	cmd_detail(c, "cqn=%u log_size=%u cqe=%u eqn=%u uar=%u", cq->cqn,
		   log_size, 1u << cq->log_cqe_size, eq->eqn, uar->index);
	return 0;
}

static struct emu_cq *get_cq(struct cmd_ctx *c)
{
	return objtab_get(&c->e->obj[OBJ_CQ], PGET(c->in, MLX5X_CQ_IN_CQN));
}

static void cq_gone_note(struct emu *e, const struct emu_cq *cq)
{
	unsigned int i = e->cq_gone_next++ % ARRAY_SIZE(e->cq_gone);

	e->cq_gone[i].cqn = cq->cqn;
	e->cq_gone[i].uar = cq->uar->index;
}

/* an arm doorbell for a CQ just destroyed, through its own UAR */
bool cq_gone_recently(struct emu *e, uint32_t cqn, uint32_t uar)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(e->cq_gone); i++)
		if (e->cq_gone[i].cqn == cqn && e->cq_gone[i].uar == uar)
			return true;
	return false;
}

int h_destroy_cq(struct cmd_ctx *c)
{
	struct emu_cq *cq = get_cq(c);

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (!cq)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	if (cq->refs)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES_STATE);
	objtab_del(&c->e->obj[OBJ_CQ], cq->cqn);
	cq_gone_note(c->e, cq);
	uar_put(cq->uar);
	cq->eq->refs--;
	cmd_detail(c, "cqn=%u arms=%llu", cq->cqn, (unsigned long long)cq->arms);
	pas_free(&cq->pas);
	free(cq);
	return 0;
}

int h_query_cq(struct cmd_ctx *c)
{
	struct emu_cq *cq = get_cq(c);
	uint8_t *cqc = c->out + MLX5X_QUERY_CQ_OUT_CQC_OFF;

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (!cq)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	memcpy(cqc, cq->cqc, MLX5X_CQC_LEN);
	PSET(cqc, MLX5X_CQC_PRODUCER_COUNTER, cq->prod & 0xffffff);
	return 0;
}

/* moderation and resize are not advertised (cq_moderation, cq_resize) */
int h_modify_cq(struct cmd_ctx *c)
{
	if (c->op_mod > MLX5X_MODIFY_CQ_OPMOD_RESIZE)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (!get_cq(c))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	/* resize is the transport engine's (engine.c, rc.c) */
	if (c->op_mod == MLX5X_MODIFY_CQ_OPMOD_RESIZE &&
	    CAP(c->e, MLX5X_CAP_CQ_RESIZE))
		return eng_modify_cq_resize(c, get_cq(c));
	return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
}
