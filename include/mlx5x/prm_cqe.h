/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlx5x PRM layouts: completion queue entries and the CQ doorbell record.
 *
 * See prm_cmd.h for the naming convention.  A CQE is 64 bytes; with
 * 128-byte CQEs the 64-byte entry is the second half of the slot.  The
 * device writes the last byte (opcode and owner) after the rest; the
 * owner bit of the entry at producer index pi is (pi >> log_cq_size) & 1,
 * 0 on the first pass.  Software initialises every entry to opcode
 * INVALID.
 */
#ifndef MLX5X_PRM_CQE_H
#define MLX5X_PRM_CQE_H

#include <linux/types.h>

enum {
	MLX5X_CQE_LEN			= 64,
	MLX5X_CQE_LOG_LEN		= 6,
};

/* Good completions (requester and responder). */
#define MLX5X_CQE_ML_PATH_OFF		0x10	/* byte at 0x11 */
#define MLX5X_CQE_ML_PATH_MASK		0x007f0000U
#define MLX5X_CQE_SLID_OFF		0x14
#define MLX5X_CQE_SLID_MASK		0x0000ffffU
#define MLX5X_CQE_GRH_OFF		0x18	/* 0: none, 1: GRH present */
#define MLX5X_CQE_GRH_MASK		0x30000000U
#define MLX5X_CQE_SL_OFF		0x18
#define MLX5X_CQE_SL_MASK		0x0f000000U
#define MLX5X_CQE_RQPN_OFF		0x18	/* source QP */
#define MLX5X_CQE_RQPN_MASK		0x00ffffffU
#define MLX5X_CQE_SRQN_UIDX_OFF		0x20	/* user index (cqe v1) */
#define MLX5X_CQE_SRQN_UIDX_MASK	0x00ffffffU
#define MLX5X_CQE_IMM_INVAL_PKEY_OFF	0x24	/* immediate, invalidated rkey, or P_Key (QP1) */
#define MLX5X_CQE_BYTE_CNT_OFF		0x2c
#define MLX5X_CQE_BYTE_CNT_MASK		0xffffffffU
#define MLX5X_CQE_TIMESTAMP_OFF		0x30	/* 8 bytes */
#define MLX5X_CQE_SOP_DROP_OFF		0x38	/* requester: WQE opcode */
#define MLX5X_CQE_SOP_DROP_MASK		0xff000000U
#define MLX5X_CQE_QPN_OFF		0x38
#define MLX5X_CQE_QPN_MASK		0x00ffffffU
#define MLX5X_CQE_WQE_COUNTER_OFF	0x3c
#define MLX5X_CQE_WQE_COUNTER_MASK	0xffff0000U
#define MLX5X_CQE_SIGNATURE_OFF		0x3c
#define MLX5X_CQE_SIGNATURE_MASK	0x0000ff00U
#define MLX5X_CQE_OP_OWN_OFF		0x3f	/* byte */

/* Error completions share the layout above except these. */
#define MLX5X_ERR_CQE_VENDOR_SYND_OFF	0x34	/* byte at 0x36 */
#define MLX5X_ERR_CQE_VENDOR_SYND_MASK	0x0000ff00U
#define MLX5X_ERR_CQE_SYNDROME_OFF	0x34	/* byte at 0x37 */
#define MLX5X_ERR_CQE_SYNDROME_MASK	0x000000ffU
#define MLX5X_ERR_CQE_WQE_OPCODE_OFF	0x38
#define MLX5X_ERR_CQE_WQE_OPCODE_MASK	0xff000000U

/* op_own byte: opcode in bits 7:4, format 3:2, solicited 1, owner 0 */
#define MLX5X_CQE_OPCODE_SHIFT		4
#define MLX5X_CQE_FORMAT_MASK		0x0c
#define MLX5X_CQE_SE_MASK		0x02
#define MLX5X_CQE_OWNER_MASK		0x01

enum mlx5x_cqe_opcode {
	MLX5X_CQE_REQ			= 0x0,
	MLX5X_CQE_RESP_WR_IMM		= 0x1,
	MLX5X_CQE_RESP_SEND		= 0x2,
	MLX5X_CQE_RESP_SEND_IMM		= 0x3,
	MLX5X_CQE_RESP_SEND_INV		= 0x4,
	MLX5X_CQE_RESIZE_CQ		= 0x5,
	MLX5X_CQE_SIG_ERR		= 0xc,
	MLX5X_CQE_REQ_ERR		= 0xd,
	MLX5X_CQE_RESP_ERR		= 0xe,
	MLX5X_CQE_INVALID		= 0xf,
};

enum mlx5x_cqe_syndrome {
	MLX5X_CQE_SYND_LOCAL_LENGTH_ERR		= 0x01,
	MLX5X_CQE_SYND_LOCAL_QP_OP_ERR		= 0x02,
	MLX5X_CQE_SYND_LOCAL_PROT_ERR		= 0x04,
	MLX5X_CQE_SYND_WR_FLUSH_ERR		= 0x05,
	MLX5X_CQE_SYND_MW_BIND_ERR		= 0x06,
	MLX5X_CQE_SYND_BAD_RESP_ERR		= 0x10,
	MLX5X_CQE_SYND_LOCAL_ACCESS_ERR		= 0x11,
	MLX5X_CQE_SYND_REMOTE_INVAL_REQ_ERR	= 0x12,
	MLX5X_CQE_SYND_REMOTE_ACCESS_ERR	= 0x13,
	MLX5X_CQE_SYND_REMOTE_OP_ERR		= 0x14,
	MLX5X_CQE_SYND_TRANSPORT_RETRY_EXC_ERR	= 0x15,
	MLX5X_CQE_SYND_RNR_RETRY_EXC_ERR	= 0x16,
	MLX5X_CQE_SYND_REMOTE_ABORTED_ERR	= 0x22,
};

/*
 * CQ doorbell record (8 bytes in host memory, cqc.dbr_addr): the consumer
 * counter software has reached, then the arm word of the last arm
 * request.  The arm doorbell (UAR + MLX5X_UAR_CQ_DB_OFF) carries the same
 * arm word followed by the CQ number; see MLX5X_CQ_DB_* in prm_eq.h.
 */
#define MLX5X_CQ_DBR_CI_OFF		0x00
#define MLX5X_CQ_DBR_CI_MASK		0x00ffffffU
#define MLX5X_CQ_DBR_ARM_OFF		0x04

/* syndrome of a CQ error event (EQE type CQ_ERROR) */
enum {
	MLX5X_CQ_ERR_SYND_OVERRUN	= 0x01,
	MLX5X_CQ_ERR_SYND_ACCESS	= 0x02,
};

/* resource type of a QP/SRQ asynchronous event (EQE data) */
enum {
	MLX5X_EVENT_QUEUE_TYPE_QP	= 0,
	MLX5X_EVENT_QUEUE_TYPE_RQ	= 1,
	MLX5X_EVENT_QUEUE_TYPE_SQ	= 2,
};

#endif /* MLX5X_PRM_CQE_H */
