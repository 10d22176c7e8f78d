// SPDX-License-Identifier: GPL-2.0
/*
 * Simple resources and queues: UAR, PD, XRCD, CQ, and the UAR page
 * doorbells (the SRQ family is in srq.c).  Objects that others refer to keep a reference count and
 * cannot be destroyed while used (BAD_RES_STATE), as in firmware.
 */
#include <stdlib.h>

#include "cmd.h"
#include "engine.h"
#include "log.h"
#include "qp_int.h"

#define EMU_FILE_ID FILE_RES

/* ---- UAR / PD / XRCD: a number and a reference count ---- */

static int alloc_num(struct cmd_ctx *c, enum obj_type type, size_t size,
		     uint32_t out_off, uint32_t out_mask)
{
	uint32_t *obj, id;

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	obj = calloc(1, size);
	if (!obj)
		return CMD_FAIL(c, MLX5X_CMD_STAT_NO_RES);
	if (objtab_add(&c->e->obj[type], obj, &id)) {
		free(obj);
		return CMD_FAIL(c, MLX5X_CMD_STAT_NO_RES);
	}
	*obj = id;	/* every numbered object starts with its number */
	prm_set(c->out, out_off, out_mask, id);
	cmd_detail(c, "%s=%u", c->e->obj[type].name, id);
	return 0;
}

/* refs follows the number in struct emu_uar/emu_pd/emu_xrcd */
struct numbered {
	uint32_t num;
	uint32_t refs;
};

static int dealloc_num(struct cmd_ctx *c, enum obj_type type, uint32_t id)
{
	struct numbered *obj;

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	obj = objtab_get(&c->e->obj[type], id);
	if (!obj)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	if (obj->refs)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES_STATE);
	objtab_del(&c->e->obj[type], id);
	free(obj);
	cmd_detail(c, "%s=%u", c->e->obj[type].name, id);
	return 0;
}

int h_alloc_uar(struct cmd_ctx *c)
{
	return alloc_num(c, OBJ_UAR, sizeof(struct emu_uar),
			 MLX5X_ALLOC_UAR_OUT_UAR_OFF,
			 MLX5X_ALLOC_UAR_OUT_UAR_MASK);
}

int h_dealloc_uar(struct cmd_ctx *c)
{
	uint32_t id = PGET(c->in, MLX5X_DEALLOC_UAR_IN_UAR);
	struct emu_uar *uar;

	uar = objtab_get(&c->e->obj[OBJ_UAR], id);
	if (c->op_mod || !uar || !uar->refs)
		return dealloc_num(c, OBJ_UAR, id);
	/* still used: see struct emu_uar */
	objtab_del(&c->e->obj[OBJ_UAR], id);
	uar->dead = true;
	cmd_detail(c, "uar=%u (%u users keep it until they go)", id, uar->refs);
	return 0;
}

void uar_put(struct emu_uar *uar)
{
	if (!--uar->refs && uar->dead)
		free(uar);
}

int h_alloc_pd(struct cmd_ctx *c)
{
	return alloc_num(c, OBJ_PD, sizeof(struct emu_pd),
			 MLX5X_ALLOC_PD_OUT_PD_OFF, MLX5X_ALLOC_PD_OUT_PD_MASK);
}

int h_dealloc_pd(struct cmd_ctx *c)
{
	return dealloc_num(c, OBJ_PD, PGET(c->in, MLX5X_DEALLOC_PD_IN_PD));
}

int h_alloc_xrcd(struct cmd_ctx *c)
{
	return alloc_num(c, OBJ_XRCD, sizeof(struct emu_xrcd),
			 MLX5X_ALLOC_XRCD_OUT_XRCD_OFF,
			 MLX5X_ALLOC_XRCD_OUT_XRCD_MASK);
}

int h_dealloc_xrcd(struct cmd_ctx *c)
{
	return dealloc_num(c, OBJ_XRCD,
			   PGET(c->in, MLX5X_DEALLOC_XRCD_IN_XRCD));
}

/* ---- CQ ---- */

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
static bool cq_gone_recently(struct emu *e, uint32_t cqn, uint32_t uar)
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

/* ---- UAR page writes ---- */

static void cq_arm(struct emu *e, uint32_t index, const uint8_t *data)
{
	uint32_t word = get_be32(data);
	uint32_t cqn = get_be32(data + 4) & 0xffffff;
	struct emu_cq *cq = objtab_get(&e->obj[OBJ_CQ], cqn);

	if (!cq && cq_gone_recently(e, cqn, index)) {
		e->cq_arms_stale++;
		emu_dbg("CQ arm doorbell for CQ %u, destroyed: ignored", cqn);
		return;
	}
	if (!cq) {
		e->stats.uar_bad++;
		emu_warn("CQ arm doorbell for unknown CQ %u", cqn);
		return;
	}
	/*
	 * A doorbell counts only on the UAR page the CQ was created with
	 * (cqc.uar_page): the PRM makes a UAR page the doorbell space of
	 * its owner, and mlx5_ib/libmlx5 arm a CQ through that page.
	 */
	if (cq->uar->index != index) {
		rule_hit(e, R_CQ_ARM_FOREIGN_UAR,
			 "CQ %u armed through UAR %u, its UAR is %u (dropped)",
			 cqn, index, cq->uar->index);
		return;
	}
	cq->arms++;
	e->stats.cq_arms++;
	eng_cq_arm(e, cq, word);
}

void uar_write(struct emu *e, uint32_t index, uint32_t off,
	       const uint8_t *data, uint32_t len)
{
	e->stats.uar_writes++;
	if (!objtab_get(&e->obj[OBJ_UAR], index)) {
		e->stats.uar_bad++;
		emu_warn("write to unallocated UAR %u (+0x%x)", index, off);
		return;
	}
	if (off == MLX5X_UAR_CQ_DB_OFF && len == 8) {
		cq_arm(e, index, data);
	} else if (off == MLX5X_UAR_EQ_ARM_OFF && len == 4) {
		eq_doorbell(e, index, get_be32(data), true);
	} else if (off == MLX5X_UAR_EQ_UPDATE_OFF && len == 4) {
		eq_doorbell(e, index, get_be32(data), false);
	} else if (off >= MLX5X_UAR_BF_OFF) {
		/* send doorbells: executed by the transport engine */
		e->stats.sq_doorbells++;
		eng_uar_send(e, index, off, data, len);
	} else {
		e->stats.uar_bad++;
		emu_warn("UAR %u: write of %u bytes at +0x%x ignored", index,
			 len, off);
	}
}
