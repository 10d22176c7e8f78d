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
 */
#include <linux/slab.h>

#include "cmd.h"
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

static int fw_srqc_create(struct mlx5x_cmd *cmd, u16 opcode,
			  const struct mlx5x_srq_params *p, bool uidx,
			  u32 *srqn)
{
	__be32 out[MLX5X_CMD_HDR_OUT_LEN / 4] = {};
	size_t inlen;
	void *srqc;
	void *in;
	int err;

	in = mlx5x_fw_pas_box(opcode, MLX5X_CREATE_SRQ_IN_LEN,
			      MLX5X_CREATE_SRQ_IN_PAS_OFF, &p->pas, p->pas.n,
			      &inlen);
	if (!in)
		return -ENOMEM;
	srqc = in + MLX5X_CREATE_SRQ_IN_SRQC_OFF;
	mlx5x_srqc_encode(srqc, p);
	if (uidx)
		MLX5X_SET(srqc, MLX5X_XRC_SRQC_USER_INDEX, p->user_index);
	err = mlx5x_cmd_exec(cmd, in, inlen, out, sizeof(out));
	if (!err)
		*srqn = MLX5X_GET(out, MLX5X_CREATE_SRQ_OUT_SRQN);
	kvfree(in);
	return err;
}

/* DESTROY_SRQ, DESTROY_XRC_SRQ, DESTROY_RMP: header and number */
static int fw_srq_destroy(struct mlx5x_cmd *cmd, u16 opcode, u32 srqn)
{
	__be32 out[MLX5X_CMD_HDR_OUT_LEN / 4] = {};
	__be32 in[MLX5X_CMD_HDR_IN_LEN / 4] = {};

	mlx5x_cmd_in_hdr(in, opcode, 0);
	MLX5X_SET(in, MLX5X_SRQ_IN_SRQN, srqn);
	return mlx5x_cmd_exec(cmd, in, sizeof(in), out, sizeof(out));
}

static int fw_srqc_query(struct mlx5x_cmd *cmd, u16 opcode, u32 srqn,
			 struct mlx5x_srq_state *st)
{
	__be32 in[MLX5X_CMD_HDR_IN_LEN / 4] = {};
	const void *srqc;
	void *out;
	int err;

	out = kzalloc(MLX5X_QUERY_SRQ_OUT_LEN, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	mlx5x_cmd_in_hdr(in, opcode, 0);
	MLX5X_SET(in, MLX5X_SRQ_IN_SRQN, srqn);
	err = mlx5x_cmd_exec(cmd, in, sizeof(in), out, MLX5X_QUERY_SRQ_OUT_LEN);
	if (!err) {
		srqc = out + MLX5X_QUERY_SRQ_OUT_SRQC_OFF;
		st->lwm = MLX5X_GET(srqc, MLX5X_SRQC_LWM);
		st->err = MLX5X_GET(srqc, MLX5X_SRQC_STATE) !=
			  MLX5X_SRQC_STATE_GOOD;
	}
	kfree(out);
	return err;
}

/* ARM_RQ (op_mod SRQ) and ARM_XRC_SRQ share their input layout. */
static int fw_srqc_arm(struct mlx5x_cmd *cmd, u16 opcode, u16 op_mod,
		       u32 srqn, u16 lwm)
{
	__be32 out[MLX5X_CMD_HDR_OUT_LEN / 4] = {};
	__be32 in[MLX5X_CMD_HDR_IN_LEN / 4] = {};

	mlx5x_cmd_in_hdr(in, opcode, op_mod);
	MLX5X_SET(in, MLX5X_SRQ_IN_SRQN, srqn);
	MLX5X_SET(in, MLX5X_ARM_RQ_IN_LWM, lwm);
	return mlx5x_cmd_exec(cmd, in, sizeof(in), out, sizeof(out));
}

int mlx5x_fw_create_srq(struct mlx5x_cmd *cmd,
			const struct mlx5x_srq_params *p, u32 *srqn)
{
	return fw_srqc_create(cmd, MLX5X_CMD_OP_CREATE_SRQ, p, false, srqn);
}

int mlx5x_fw_destroy_srq(struct mlx5x_cmd *cmd, u32 srqn)
{
	return fw_srq_destroy(cmd, MLX5X_CMD_OP_DESTROY_SRQ, srqn);
}

int mlx5x_fw_query_srq(struct mlx5x_cmd *cmd, u32 srqn,
		       struct mlx5x_srq_state *st)
{
	return fw_srqc_query(cmd, MLX5X_CMD_OP_QUERY_SRQ, srqn, st);
}

int mlx5x_fw_arm_rq(struct mlx5x_cmd *cmd, u32 srqn, u16 lwm)
{
	return fw_srqc_arm(cmd, MLX5X_CMD_OP_ARM_RQ, MLX5X_ARM_RQ_OPMOD_SRQ,
			   srqn, lwm);
}

int mlx5x_fw_create_xrc_srq(struct mlx5x_cmd *cmd,
			    const struct mlx5x_srq_params *p, u32 *srqn)
{
	return fw_srqc_create(cmd, MLX5X_CMD_OP_CREATE_XRC_SRQ, p, true, srqn);
}

int mlx5x_fw_destroy_xrc_srq(struct mlx5x_cmd *cmd, u32 srqn)
{
	return fw_srq_destroy(cmd, MLX5X_CMD_OP_DESTROY_XRC_SRQ, srqn);
}

int mlx5x_fw_query_xrc_srq(struct mlx5x_cmd *cmd, u32 srqn,
			   struct mlx5x_srq_state *st)
{
	return fw_srqc_query(cmd, MLX5X_CMD_OP_QUERY_XRC_SRQ, srqn, st);
}

int mlx5x_fw_arm_xrc_srq(struct mlx5x_cmd *cmd, u32 srqn, u16 lwm)
{
	return fw_srqc_arm(cmd, MLX5X_CMD_OP_ARM_XRC_SRQ,
			   MLX5X_ARM_XRC_SRQ_OPMOD_XRC_SRQ, srqn, lwm);
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

int mlx5x_fw_create_rmp(struct mlx5x_cmd *cmd,
			const struct mlx5x_srq_params *p, u32 *rmpn)
{
	__be32 out[MLX5X_CMD_HDR_OUT_LEN / 4] = {};
	size_t inlen;
	void *rmpc;
	void *in;
	int err;

	in = mlx5x_fw_pas_box(MLX5X_CMD_OP_CREATE_RMP, MLX5X_CREATE_RMP_IN_LEN,
			      MLX5X_CREATE_RMP_IN_PAS_OFF, &p->pas, p->pas.n,
			      &inlen);
	if (!in)
		return -ENOMEM;
	rmpc = in + MLX5X_RMP_CMD_RMPC_OFF;
	MLX5X_SET(rmpc, MLX5X_RMPC_STATE, MLX5X_RMPC_STATE_RDY);
	mlx5x_rmp_wq_encode(rmpc + MLX5X_RMPC_WQ_OFF, p);
	err = mlx5x_cmd_exec(cmd, in, inlen, out, sizeof(out));
	if (!err)
		*rmpn = MLX5X_GET(out, MLX5X_CREATE_RMP_OUT_RMPN);
	kvfree(in);
	return err;
}

int mlx5x_fw_destroy_rmp(struct mlx5x_cmd *cmd, u32 rmpn)
{
	return fw_srq_destroy(cmd, MLX5X_CMD_OP_DESTROY_RMP, rmpn);
}

int mlx5x_fw_query_rmp(struct mlx5x_cmd *cmd, u32 rmpn,
		       struct mlx5x_srq_state *st)
{
	__be32 in[MLX5X_CMD_HDR_IN_LEN / 4] = {};
	const void *rmpc;
	void *out;
	int err;

	out = kzalloc(MLX5X_QUERY_RMP_OUT_LEN, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	mlx5x_cmd_in_hdr(in, MLX5X_CMD_OP_QUERY_RMP, 0);
	MLX5X_SET(in, MLX5X_RMP_IN_RMPN, rmpn);
	err = mlx5x_cmd_exec(cmd, in, sizeof(in), out, MLX5X_QUERY_RMP_OUT_LEN);
	if (!err) {
		rmpc = out + MLX5X_RMP_CMD_RMPC_OFF;
		st->lwm = MLX5X_GET(rmpc + MLX5X_RMPC_WQ_OFF, MLX5X_WQ_LWM);
		st->err = MLX5X_GET(rmpc, MLX5X_RMPC_STATE) !=
			  MLX5X_RMPC_STATE_RDY;
	}
	kfree(out);
	return err;
}

/* Ready to ready, changing only the limit (which arms the event). */
int mlx5x_fw_modify_rmp_lwm(struct mlx5x_cmd *cmd, u32 rmpn, u16 lwm)
{
	__be32 out[MLX5X_CMD_HDR_OUT_LEN / 4] = {};
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
	err = mlx5x_cmd_exec(cmd, in, MLX5X_MODIFY_RMP_IN_LEN, out,
			     sizeof(out));
	kfree(in);
	return err;
}
