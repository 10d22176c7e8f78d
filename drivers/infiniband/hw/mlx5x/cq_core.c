// SPDX-License-Identifier: GPL-2.0-only
/*
 * The core CQ: CREATE_CQ and publication for the event path, and the
 * fenced destroy, for every CQ the driver creates (user CQs of the
 * verbs layer and the kernel's own, such as the UMR queue's).  The
 * caller owns the ring, the doorbell record and the handlers; this file
 * owns the order of the steps.
 *
 * A refused DESTROY_CQ leaves the CQ as it was: published, its events
 * still delivered, the device still free to write its ring.  The caller
 * keeps all of it (CQ, ring, doorbell record, handler context) and may
 * try again; a caller that cannot keep the CQ object leaks it instead.
 */
#include "cmd.h"
#include "cq_table.h"
#include "eq.h"
#include "fw_cmds.h"
#include "fw_verbs.h"
#include "hw.h"
#include "ring.h"

/**
 * mlx5x_core_cq_create() - create a CQ and publish it for the event path
 * @cmd: command engine
 * @tbl: the CQ table the EQs look CQ numbers up in
 * @eq: completion EQ the CQ reports to
 * @p: CREATE_CQ parameters but the EQ, which @eq gives
 * @cq: @cq->comp and @cq->event set; @cq->cqn is set here
 *
 * No completion can be lost to the publication coming last: the device
 * raises an event only for an armed CQ, and the CQ number the arming
 * needs is known once this returns.
 *
 * Return: 0, or the error of CREATE_CQ or of the insertion (the CQ is
 * then destroyed again).
 */
int mlx5x_core_cq_create(struct mlx5x_cmd *cmd, struct mlx5x_cq_table *tbl,
			 struct mlx5x_eq *eq, struct mlx5x_cq_params *p,
			 struct mlx5x_core_cq *cq)
{
	int err;

	p->eqn = eq->eqn;
	err = mlx5x_fw_create_cq(cmd, p, &cq->cqn);
	if (err)
		return err;
	cq->bh = &eq->cqbh;
	cq->irqn = eq->irqn;
	err = mlx5x_cq_table_insert(tbl, cq);
	if (err)
		mlx5x_fw_destroy_cq(cmd, cq->cqn);
	return err;
}

struct cq_core_destroy {
	struct mlx5x_cmd *cmd;
	u32 cqn;
};

static int cq_core_fw_destroy(void *arg)
{
	struct cq_core_destroy *d = arg;

	return mlx5x_fw_destroy_cq(d->cmd, d->cqn);
}

/**
 * mlx5x_core_cq_destroy() - the fenced destroy of a published CQ
 * @cmd: command engine
 * @tbl: the table @cq is published in
 * @cq: the CQ
 *
 * Out of the table, DESTROY_CQ, then mlx5x_cq_quiesce(): no handler runs
 * on @cq once this returns 0.  Sleeps.
 *
 * Return: 0, @cq may be freed; or DESTROY_CQ's error, @cq is back in the
 * table and live (see the top of this file).
 */
int mlx5x_core_cq_destroy(struct mlx5x_cmd *cmd, struct mlx5x_cq_table *tbl,
			  struct mlx5x_core_cq *cq)
{
	struct cq_core_destroy d = { .cmd = cmd, .cqn = cq->cqn };
	int err;

	err = mlx5x_res_destroy(&tbl->res, cq->cqn, &cq->res,
				cq_core_fw_destroy, &d);
	if (err)
		return err;
	mlx5x_cq_quiesce(cq);
	return 0;
}

/* ---- rings of 64-byte CQEs the kernel polls ---- */

/**
 * mlx5x_cqe_sw_owns() - does software own a CQE
 * @cqe: the CQE at consumer counter @ctr
 * @ctr: the consumer counter
 * @log_n: log2 of the CQ's entries
 *
 * Software owns a CQE the device wrote (the ring starts out with the
 * invalid opcode, mlx5x_cq_ring_invalidate()) whose owner bit is the
 * parity of @ctr's pass.  The caller reads the rest of the CQE only
 * after a dma_rmb(): the device writes op_own last.
 *
 * Return: true if software owns it.
 */
bool mlx5x_cqe_sw_owns(const void *cqe, u32 ctr, u8 log_n)
{
	u8 op_own = READ_ONCE(*((const u8 *)cqe + MLX5X_CQE_OP_OWN_OFF));

	return op_own >> MLX5X_CQE_OPCODE_SHIFT != MLX5X_CQE_INVALID &&
	       (op_own & MLX5X_CQE_OWNER_MASK) == mlx5x_ring_pass(ctr, log_n);
}

/**
 * mlx5x_cq_ring_invalidate() - make every CQE of a new ring the device's
 * @r: a ring of 64-byte CQEs, before CREATE_CQ
 *
 * The invalid opcode, so no CQE is software's before the device writes
 * one, whatever the owner bit of the zeroed memory says.
 */
void mlx5x_cq_ring_invalidate(struct mlx5x_ring *r)
{
	u32 i;

	for (i = 0; i < 1U << r->log_n; i++)
		*((u8 *)mlx5x_ring_entry(r, i) + MLX5X_CQE_OP_OWN_OFF) =
			MLX5X_CQE_INVALID << MLX5X_CQE_OPCODE_SHIFT;
}
