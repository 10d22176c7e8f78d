// SPDX-License-Identifier: GPL-2.0
/*
 * Simple resources: UAR, PD, XRCD, and the UAR page doorbells (CQs are in
 * cq.c, the SRQ family in srq.c).  Objects that others refer to keep a
 * reference count and cannot be destroyed while used (BAD_RES_STATE), as
 * in firmware.
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
