// SPDX-License-Identifier: GPL-2.0-only
/*
 * Typed firmware commands of shared receive queues.  A basic or XRC SRQ
 * has three firmware forms, picked by the verbs from the ISSI in use:
 *
 *   ISSI 0: CREATE_SRQ / QUERY_SRQ / ARM_RQ / DESTROY_SRQ, any SRQ;
 *   ISSI 1: CREATE_RMP / QUERY_RMP / MODIFY_RMP / DESTROY_RMP, basic SRQs
 *	     (a receive memory pool: a linked-list work queue context);
 *   ISSI 1: CREATE_XRC_SRQ / QUERY_XRC_SRQ / ARM_XRC_SRQ / DESTROY_XRC_SRQ.
 *
 * The SRQ and XRC SRQ commands share the SRQ context layout; the RMP
 * commands describe the same queue as a work queue, whose stride and
 * size are logs of bytes and WQEs and whose page offset has five bits.
 * One table (fw_srq_forms) names the commands of each form; the verbs
 * call mlx5x_fw_srq_*() with the form and never pick a command.
 */
#include <linux/slab.h>

#include "cmd.h"
#include "fw_cmds.h"
#include "fw_verbs.h"

/* ---- SRQ context form (CREATE_SRQ, CREATE_XRC_SRQ) ---- */

void mlx5x_srqc_encode(void *srqc, const struct mlx5x_srq_params *p)
{
	MLX5X_SET(srqc, MLX5X_SRQC_LOG_SRQ_SIZE, p->log_size);
	/* the SRQ context counts the stride in 16-byte units */
	MLX5X_SET(srqc, MLX5X_SRQC_LOG_RQ_STRIDE, p->wqe_shift - 4);
	MLX5X_SET(srqc, MLX5X_SRQC_XRCD, p->xrcd);
	MLX5X_SET(srqc, MLX5X_SRQC_PAGE_OFFSET, p->pas.page_offset);
	MLX5X_SET(srqc, MLX5X_SRQC_CQN, p->cqn);
	MLX5X_SET(srqc, MLX5X_SRQC_LOG_PAGE_SIZE,
		  mlx5x_fw_log_page_size(p->pas.pgsz));
	MLX5X_SET(srqc, MLX5X_SRQC_PD, p->pdn);
	mlx5x_fw_set64(srqc, MLX5X_SRQC_DBR_ADDR_OFF, p->dbr);
}

/**
 * struct fw_srq_ops - the commands of one firmware form of an SRQ
 * @create: CREATE_SRQ, CREATE_XRC_SRQ or CREATE_RMP
 * @destroy: its DESTROY
 * @query: its QUERY
 * @arm: what sets the limit and arms its event: ARM_RQ, ARM_XRC_SRQ, or
 *	MODIFY_RMP (ready to ready, the limit only)
 * @arm_op_mod: op_mod of @arm
 * @rmp: the work queue (RMP) layout, else the SRQ context
 * @uidx: the context carries the user index (XRC SRQ)
 */
struct fw_srq_ops {
	u16 create;
	u16 destroy;
	u16 query;
	u16 arm;
	u16 arm_op_mod;
	bool rmp;
	bool uidx;
};

static const struct fw_srq_ops fw_srq_forms[] = {
	[MLX5X_SRQ_FORM_SRQ] = {
		.create = MLX5X_CMD_OP_CREATE_SRQ,
		.destroy = MLX5X_CMD_OP_DESTROY_SRQ,
		.query = MLX5X_CMD_OP_QUERY_SRQ,
		.arm = MLX5X_CMD_OP_ARM_RQ,
		.arm_op_mod = MLX5X_ARM_RQ_OPMOD_SRQ,
	},
	[MLX5X_SRQ_FORM_XRC_SRQ] = {
		.create = MLX5X_CMD_OP_CREATE_XRC_SRQ,
		.destroy = MLX5X_CMD_OP_DESTROY_XRC_SRQ,
		.query = MLX5X_CMD_OP_QUERY_XRC_SRQ,
		.arm = MLX5X_CMD_OP_ARM_XRC_SRQ,
		.arm_op_mod = MLX5X_ARM_XRC_SRQ_OPMOD_XRC_SRQ,
		.uidx = true,
	},
	[MLX5X_SRQ_FORM_RMP] = {
		.create = MLX5X_CMD_OP_CREATE_RMP,
		.destroy = MLX5X_CMD_OP_DESTROY_RMP,
		.query = MLX5X_CMD_OP_QUERY_RMP,
		.arm = MLX5X_CMD_OP_MODIFY_RMP,
		.rmp = true,
	},
};

static const struct fw_srq_ops *fw_srq_ops(enum mlx5x_srq_form form)
{
	return &fw_srq_forms[form];
}

/* ---- SRQ context form (CREATE_SRQ, CREATE_XRC_SRQ) ---- */

static void *fw_srqc_box(const struct fw_srq_ops *ops,
			 const struct mlx5x_srq_params *p, size_t *inlen)
{
	void *srqc;
	void *in;

	in = mlx5x_fw_pas_box(ops->create, MLX5X_CREATE_SRQ_IN_LEN,
			      MLX5X_CREATE_SRQ_IN_PAS_OFF, &p->pas, p->pas.n,
			      inlen);
	if (!in)
		return NULL;
	srqc = in + MLX5X_CREATE_SRQ_IN_SRQC_OFF;
	mlx5x_srqc_encode(srqc, p);
	if (ops->uidx)
		MLX5X_SET(srqc, MLX5X_XRC_SRQC_USER_INDEX, p->user_index);
	return in;
}

static void fw_srqc_state(const void *out, struct mlx5x_srq_state *st)
{
	const void *srqc = out + MLX5X_QUERY_SRQ_OUT_SRQC_OFF;

	st->lwm = MLX5X_GET(srqc, MLX5X_SRQC_LWM);
	st->err = MLX5X_GET(srqc, MLX5X_SRQC_STATE) != MLX5X_SRQC_STATE_GOOD;
}

/* ARM_RQ (op_mod SRQ) and ARM_XRC_SRQ share their input layout. */
static int fw_srqc_arm(struct mlx5x_cmd *cmd, const struct fw_srq_ops *ops,
		       u32 srqn, u16 lwm)
{
	__be32 in[MLX5X_CMD_HDR_IN_LEN / 4] = {};

	mlx5x_cmd_in_hdr(in, ops->arm, ops->arm_op_mod);
	MLX5X_SET(in, MLX5X_SRQ_IN_SRQN, srqn);
	MLX5X_SET(in, MLX5X_ARM_RQ_IN_LWM, lwm);
	return mlx5x_cmd_exec_in(cmd, in, sizeof(in));
}

/* ---- RMP form (basic SRQs at ISSI 1) ---- */

void mlx5x_rmp_wq_encode(void *wq, const struct mlx5x_srq_params *p)
{
	MLX5X_SET(wq, MLX5X_WQ_TYPE, MLX5X_WQ_TYPE_LINKED_LIST);
	MLX5X_SET(wq, MLX5X_WQ_PAGE_OFFSET, p->pas.page_offset);
	MLX5X_SET(wq, MLX5X_WQ_PD, p->pdn);
	mlx5x_fw_set64(wq, MLX5X_WQ_DBR_ADDR_OFF, p->dbr);
	/* a work queue counts the stride in bytes */
	MLX5X_SET(wq, MLX5X_WQ_LOG_STRIDE, p->wqe_shift);
	MLX5X_SET(wq, MLX5X_WQ_LOG_PG_SZ, mlx5x_fw_log_page_size(p->pas.pgsz));
	MLX5X_SET(wq, MLX5X_WQ_LOG_SZ, p->log_size);
}

static void *fw_rmp_box(const struct mlx5x_srq_params *p, size_t *inlen)
{
	void *rmpc;
	void *in;

	in = mlx5x_fw_pas_box(MLX5X_CMD_OP_CREATE_RMP, MLX5X_CREATE_RMP_IN_LEN,
			      MLX5X_CREATE_RMP_IN_PAS_OFF, &p->pas, p->pas.n,
			      inlen);
	if (!in)
		return NULL;
	rmpc = in + MLX5X_RMP_CMD_RMPC_OFF;
	MLX5X_SET(rmpc, MLX5X_RMPC_STATE, MLX5X_RMPC_STATE_RDY);
	mlx5x_rmp_wq_encode(rmpc + MLX5X_RMPC_WQ_OFF, p);
	return in;
}

static void fw_rmp_state(const void *out, struct mlx5x_srq_state *st)
{
	const void *rmpc = out + MLX5X_RMP_CMD_RMPC_OFF;

	st->lwm = MLX5X_GET(rmpc + MLX5X_RMPC_WQ_OFF, MLX5X_WQ_LWM);
	st->err = MLX5X_GET(rmpc, MLX5X_RMPC_STATE) != MLX5X_RMPC_STATE_RDY;
}

/* Ready to ready, changing only the limit (which arms the event). */
static int fw_rmp_arm(struct mlx5x_cmd *cmd, u32 rmpn, u16 lwm)
{
	void *rmpc;
	void *in;
	int err;

	in = kzalloc(MLX5X_MODIFY_RMP_IN_LEN, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	mlx5x_cmd_in_hdr(in, MLX5X_CMD_OP_MODIFY_RMP, 0);
	MLX5X_SET(in, MLX5X_MODIFY_RMP_IN_STATE, MLX5X_RMPC_STATE_RDY);
	MLX5X_SET(in, MLX5X_RMP_IN_RMPN, rmpn);
	mlx5x_fw_set64(in, MLX5X_MODIFY_RMP_IN_BITMASK_OFF,
		       MLX5X_MODIFY_RMP_IN_BITMASK_LWM);
	rmpc = in + MLX5X_RMP_CMD_RMPC_OFF;
	MLX5X_SET(rmpc, MLX5X_RMPC_STATE, MLX5X_RMPC_STATE_RDY);
	MLX5X_SET(rmpc + MLX5X_RMPC_WQ_OFF, MLX5X_WQ_LWM, lwm);
	err = mlx5x_cmd_exec_in(cmd, in, MLX5X_MODIFY_RMP_IN_LEN);
	kfree(in);
	return err;
}

/* ---- any form ---- */

/*
 * The SRQ's number is at one place in the input of every form's
 * commands: the SRQ context form's name serves.
 */
static_assert(MLX5X_SRQ_IN_SRQN_OFF == MLX5X_RMP_IN_RMPN_OFF);
static_assert(MLX5X_SRQ_IN_SRQN_MASK == MLX5X_RMP_IN_RMPN_MASK);

/* Also for the device's reserved SRQs (devr.c). */
int mlx5x_fw_srq_create(struct mlx5x_cmd *cmd, enum mlx5x_srq_form form,
			const struct mlx5x_srq_params *p, u32 *srqn)
{
	const struct fw_srq_ops *ops = fw_srq_ops(form);
	size_t inlen;
	void *in;
	int err;

	in = ops->rmp ? fw_rmp_box(p, &inlen) : fw_srqc_box(ops, p, &inlen);
	if (!in)
		return -ENOMEM;
	err = mlx5x_fw_exec_new_id(cmd, in, inlen, srqn);
	kvfree(in);
	return err;
}

int mlx5x_fw_srq_destroy(struct mlx5x_cmd *cmd, enum mlx5x_srq_form form,
			 u32 srqn)
{
	return mlx5x_fw_exec_id(cmd, fw_srq_ops(form)->destroy, srqn);
}

int mlx5x_fw_srq_query(struct mlx5x_cmd *cmd, enum mlx5x_srq_form form,
		       u32 srqn, struct mlx5x_srq_state *st)
{
	const struct fw_srq_ops *ops = fw_srq_ops(form);
	size_t outlen = ops->rmp ? MLX5X_QUERY_RMP_OUT_LEN :
				   MLX5X_QUERY_SRQ_OUT_LEN;
	__be32 in[MLX5X_CMD_HDR_IN_LEN / 4] = {};
	void *out;
	int err;

	out = kzalloc(outlen, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	mlx5x_cmd_in_hdr(in, ops->query, 0);
	MLX5X_SET(in, MLX5X_SRQ_IN_SRQN, srqn);
	err = mlx5x_cmd_exec(cmd, in, sizeof(in), out, outlen);
	if (err)
		goto out;
	if (ops->rmp)
		fw_rmp_state(out, st);
	else
		fw_srqc_state(out, st);
out:
	kfree(out);
	return err;
}

/* Set the limit and arm the limit event. */
int mlx5x_fw_srq_arm(struct mlx5x_cmd *cmd, enum mlx5x_srq_form form,
		     u32 srqn, u16 lwm)
{
	const struct fw_srq_ops *ops = fw_srq_ops(form);

	if (ops->rmp)
		return fw_rmp_arm(cmd, srqn, lwm);
	return fw_srqc_arm(cmd, ops, srqn, lwm);
}
