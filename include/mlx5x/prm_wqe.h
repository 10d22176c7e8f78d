/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlx5x PRM layouts: work queue entries and queue doorbells.
 *
 * See prm_cmd.h for the naming convention.  Segments are 16 bytes (one
 * "DS"); a send WQE is a run of DSs, counted in the control segment, in
 * 64-byte basic blocks (WQEBBs) of the send queue; it may wrap from the
 * end of the send queue to its start.  A receive WQE is a fixed-stride
 * slot of data segments.  All fields are big-endian.
 */
#ifndef MLX5X_PRM_WQE_H
#define MLX5X_PRM_WQE_H

#include <linux/types.h>

enum {
	MLX5X_WQE_DS_LEN		= 16,
	MLX5X_WQE_DS_SHIFT		= 4,
	MLX5X_SEND_WQEBB_LEN		= 64,
	MLX5X_SEND_WQEBB_SHIFT		= 6,
};

/* Control segment: first DS of every send WQE. */
#define MLX5X_WQE_CTRL_OPMOD_OFF	0x00
#define MLX5X_WQE_CTRL_OPMOD_MASK	0xff000000U
#define MLX5X_WQE_CTRL_WQE_INDEX_OFF	0x00	/* WQEBB counter, 16 bits */
#define MLX5X_WQE_CTRL_WQE_INDEX_MASK	0x00ffff00U
#define MLX5X_WQE_CTRL_OPCODE_OFF	0x00
#define MLX5X_WQE_CTRL_OPCODE_MASK	0x000000ffU
#define MLX5X_WQE_CTRL_QPN_OFF		0x04
#define MLX5X_WQE_CTRL_QPN_MASK		0xffffff00U
#define MLX5X_WQE_CTRL_DS_OFF		0x04	/* WQE size in DSs */
#define MLX5X_WQE_CTRL_DS_MASK		0x0000003fU
#define MLX5X_WQE_CTRL_SIGNATURE_OFF	0x08
#define MLX5X_WQE_CTRL_SIGNATURE_MASK	0xff000000U
#define MLX5X_WQE_CTRL_FENCE_OFF	0x08
#define MLX5X_WQE_CTRL_FENCE_MASK	0x000000e0U
#define MLX5X_WQE_CTRL_CE_OFF		0x08	/* completion request */
#define MLX5X_WQE_CTRL_CE_MASK		0x0000000cU
#define MLX5X_WQE_CTRL_SE_OFF		0x08	/* solicited event */
#define MLX5X_WQE_CTRL_SE_MASK		0x00000002U
#define MLX5X_WQE_CTRL_IMM_OFF		0x0c	/* immediate / inval. rkey */

/* ce: 0 = CQE on error only; 2 = always; 3 = always, plus EQE */
enum {
	MLX5X_WQE_CE_ERROR_ONLY		= 0,
	MLX5X_WQE_CE_FIRST_ERROR	= 1,
	MLX5X_WQE_CE_ALWAYS		= 2,
	MLX5X_WQE_CE_ALWAYS_EQE		= 3,
};

/* fence modes */
enum {
	MLX5X_WQE_FENCE_NONE		= 0,
	MLX5X_WQE_FENCE_INITIATOR_SMALL	= 1,
	MLX5X_WQE_FENCE_FENCE		= 2,
	MLX5X_WQE_FENCE_STRONG_ORDERING	= 3,
	MLX5X_WQE_FENCE_FENCE_AND_INITIATOR_SMALL = 4,
};

/* send opcodes (control segment) */
enum mlx5x_wqe_opcode {
	MLX5X_OPCODE_NOP		= 0x00,
	MLX5X_OPCODE_SEND_INVAL		= 0x01,
	MLX5X_OPCODE_RDMA_WRITE		= 0x08,
	MLX5X_OPCODE_RDMA_WRITE_IMM	= 0x09,
	MLX5X_OPCODE_SEND		= 0x0a,
	MLX5X_OPCODE_SEND_IMM		= 0x0b,
	MLX5X_OPCODE_LSO		= 0x0e,
	MLX5X_OPCODE_RDMA_READ		= 0x10,
	MLX5X_OPCODE_ATOMIC_CS		= 0x11,
	MLX5X_OPCODE_ATOMIC_FA		= 0x12,
	MLX5X_OPCODE_ATOMIC_MASKED_CS	= 0x14,
	MLX5X_OPCODE_ATOMIC_MASKED_FA	= 0x15,
	MLX5X_OPCODE_BIND_MW		= 0x18,
	MLX5X_OPCODE_LOCAL_INVAL	= 0x1b,
	MLX5X_OPCODE_SET_PSV		= 0x20,
	MLX5X_OPCODE_UMR		= 0x25,
};

/*
 * Atomic capabilities (QUERY_HCA_CAP type ATOMIC): which atomic
 * operations and sizes the responder executes, and the byte order of the
 * 8-byte operand in memory (host order: mode 1).
 */
#define MLX5X_ATOMIC_CAP_REQ_8B_ENDIANNESS_OFF		0x08
#define MLX5X_ATOMIC_CAP_REQ_8B_ENDIANNESS_MASK		0xc0000000U
#define MLX5X_ATOMIC_CAP_SUPP_8B_ENDIANNESS_1_OFF	0x08
#define MLX5X_ATOMIC_CAP_SUPP_8B_ENDIANNESS_1_MASK	0x02000000U
#define MLX5X_ATOMIC_CAP_OPERATIONS_OFF			0x10
#define MLX5X_ATOMIC_CAP_OPERATIONS_MASK		0x0000ffffU
#define MLX5X_ATOMIC_CAP_SIZE_QP_OFF			0x14
#define MLX5X_ATOMIC_CAP_SIZE_QP_MASK			0x0000ffffU
#define MLX5X_ATOMIC_CAP_SIZE_DC_OFF			0x18
#define MLX5X_ATOMIC_CAP_SIZE_DC_MASK			0x0000ffffU

enum {
	MLX5X_ATOMIC_OPS_CMP_SWAP	= 1 << 0,
	MLX5X_ATOMIC_OPS_FETCH_ADD	= 1 << 1,
	MLX5X_ATOMIC_OPS_EXT_CMP_SWAP	= 1 << 2,
	MLX5X_ATOMIC_OPS_EXT_FETCH_ADD	= 1 << 3,
	MLX5X_ATOMIC_SIZE_8B		= 1 << 3,
	MLX5X_ATOMIC_REQ_MODE_HOST	= 1,
};

/*
 * UMR WQE (REG_UMR QP, opcode UMR): the control segment's immediate is
 * the mkey to modify; then the UMR control segment (48 bytes), an mkey
 * context (64 bytes) with the new values of the fields selected by
 * mkey_mask, and, for a translation update, a data segment.
 */
#define MLX5X_WQE_UMR_FLAGS_OFF		0x00
#define MLX5X_WQE_UMR_FLAGS_MASK	0xff000000U
#define MLX5X_WQE_UMR_XLT_OCTOWORDS_OFF	0x04
#define MLX5X_WQE_UMR_XLT_OCTOWORDS_MASK 0xffff0000U
#define MLX5X_WQE_UMR_XLT_OFFSET_OFF	0x04	/* octowords, bits 15:0 */
#define MLX5X_WQE_UMR_XLT_OFFSET_MASK	0x0000ffffU
#define MLX5X_WQE_UMR_MKEY_MASK_OFF	0x08	/* 8 bytes */
#define MLX5X_WQE_UMR_XLT_OFFSET_47_16_OFF 0x10	/* octowords, bits 47:16 */
#define MLX5X_WQE_UMR_XLT_OFFSET_47_16_MASK 0xffffffffU
#define MLX5X_WQE_UMR_CTRL_LEN		0x30
#define MLX5X_WQE_UMR_MKEY_LEN		0x40

enum {
	MLX5X_UMR_TRANSLATION_OFFSET_EN	= 1 << 4,
	MLX5X_UMR_CHECK_NOT_FREE	= 1 << 5,
	MLX5X_UMR_CHECK_FREE		= 2 << 5,
	MLX5X_UMR_INLINE		= 1 << 7,
	MLX5X_UMR_CHECK_QPN		= 1 << 3,	/* type 2 invalidate */
};

/*
 * Memory window bind on a user RC/UC send queue: a UMR WQE whose mkey
 * context carries the window's new tag, rights, start and length (and,
 * for type 2, the QP it is bound to), followed by an inline KLM (same
 * layout as a data segment: byte count, key, address) naming the MR.
 * Local invalidate is the same WQE with free = 1 and no KLM.  The KLM
 * list is padded to a multiple of 4 entries (64 bytes); its size is
 * xlt_octowords.
 */

/* mkey_mask: the mkey context fields a UMR WQE changes */
#define MLX5X_MKEY_MASK_LEN		0x1ULL
#define MLX5X_MKEY_MASK_PAGE_SIZE	0x2ULL
#define MLX5X_MKEY_MASK_START_ADDR	0x40ULL
#define MLX5X_MKEY_MASK_PD		0x80ULL
#define MLX5X_MKEY_MASK_EN_RINVAL	0x100ULL
#define MLX5X_MKEY_MASK_KEY		0x2000ULL
#define MLX5X_MKEY_MASK_QPN		0x4000ULL
#define MLX5X_MKEY_MASK_LR		0x20000ULL
#define MLX5X_MKEY_MASK_LW		0x40000ULL
#define MLX5X_MKEY_MASK_RR		0x80000ULL
#define MLX5X_MKEY_MASK_RW		0x100000ULL
#define MLX5X_MKEY_MASK_A		0x200000ULL
#define MLX5X_MKEY_MASK_SMALL_FENCE	0x800000ULL
#define MLX5X_MKEY_MASK_RO_WRITE	0x2000000ULL
#define MLX5X_MKEY_MASK_FREE		0x20000000ULL
#define MLX5X_MKEY_MASK_RO_READ		0x800000000000ULL

/* Remote address segment (RDMA and atomic operations). */
#define MLX5X_WQE_RADDR_VA_OFF		0x00	/* 8 bytes */
#define MLX5X_WQE_RADDR_RKEY_OFF	0x08
#define MLX5X_WQE_RADDR_RKEY_MASK	0xffffffffU

/* Atomic segment: swap (CS) or add (FA) operand, then compare. */
#define MLX5X_WQE_ATOMIC_SWAP_ADD_OFF	0x00	/* 8 bytes */
#define MLX5X_WQE_ATOMIC_COMPARE_OFF	0x08	/* 8 bytes */

/* XRC segment (XRC initiator QPs, after the control segment). */
#define MLX5X_WQE_XRC_SRQN_OFF		0x00
#define MLX5X_WQE_XRC_SRQN_MASK		0x00ffffffU

/*
 * Datagram segment (UD, QP0, QP1): a 48-byte address vector after the
 * control segment.
 */
#define MLX5X_WQE_AV_QKEY_OFF		0x00
#define MLX5X_WQE_AV_QKEY_MASK		0xffffffffU
#define MLX5X_WQE_AV_EXT_OFF		0x08	/* extended (48-byte) AV */
#define MLX5X_WQE_AV_EXT_MASK		0x80000000U
#define MLX5X_WQE_AV_DQPN_OFF		0x08
#define MLX5X_WQE_AV_DQPN_MASK		0x00ffffffU
#define MLX5X_WQE_AV_STAT_RATE_OFF	0x0c
#define MLX5X_WQE_AV_STAT_RATE_MASK	0xf0000000U
#define MLX5X_WQE_AV_SL_OFF		0x0c
#define MLX5X_WQE_AV_SL_MASK		0x0f000000U
#define MLX5X_WQE_AV_FL_OFF		0x0c	/* force loopback */
#define MLX5X_WQE_AV_FL_MASK		0x00800000U
#define MLX5X_WQE_AV_MLID_OFF		0x0c	/* source path bits */
#define MLX5X_WQE_AV_MLID_MASK		0x007f0000U
#define MLX5X_WQE_AV_RLID_OFF		0x0c
#define MLX5X_WQE_AV_RLID_MASK		0x0000ffffU
#define MLX5X_WQE_AV_RMAC_OFF		0x14	/* 6 bytes (Ethernet) */
#define MLX5X_WQE_AV_TCLASS_OFF		0x18
#define MLX5X_WQE_AV_TCLASS_MASK	0x0000ff00U
#define MLX5X_WQE_AV_HOP_LIMIT_OFF	0x18
#define MLX5X_WQE_AV_HOP_LIMIT_MASK	0x000000ffU
#define MLX5X_WQE_AV_GRH_OFF		0x1c
#define MLX5X_WQE_AV_GRH_MASK		0x40000000U
#define MLX5X_WQE_AV_SGID_INDEX_OFF	0x1c
#define MLX5X_WQE_AV_SGID_INDEX_MASK	0x0ff00000U
#define MLX5X_WQE_AV_FLOW_LABEL_OFF	0x1c
#define MLX5X_WQE_AV_FLOW_LABEL_MASK	0x000fffffU
#define MLX5X_WQE_AV_RGID_OFF		0x20	/* 16 bytes */

enum {
	MLX5X_WQE_AV_LEN		= 0x30,
	/* a Q_Key with this bit set means "use the QP's Q_Key" */
	MLX5X_QKEY_USE_QP		= 0x80000000U,
	MLX5X_GSI_QKEY			= 0x80010000U,
	MLX5X_GRH_LEN			= 40,
};

/*
 * Data (pointer) segment.  In a send WQE a byte_count with the inline
 * bit starts an inline segment: byte_count & ~bit bytes of data follow
 * the 4-byte header, padded to whole DSs.  In a receive WQE, a segment
 * with lkey MLX5X_INVALID_LKEY ends the scatter list.
 */
#define MLX5X_WQE_DATA_BYTE_COUNT_OFF	0x00
#define MLX5X_WQE_DATA_BYTE_COUNT_MASK	0x7fffffffU
#define MLX5X_WQE_DATA_INLINE_OFF	0x00
#define MLX5X_WQE_DATA_INLINE_MASK	0x80000000U
#define MLX5X_WQE_DATA_LKEY_OFF		0x04
#define MLX5X_WQE_DATA_LKEY_MASK	0xffffffffU
#define MLX5X_WQE_DATA_ADDR_OFF		0x08	/* 8 bytes */
#define MLX5X_WQE_INLINE_HDR_LEN	4

#define MLX5X_INVALID_LKEY		0x00000100U

/* SRQ WQE: a "next" segment, then data segments. */
#define MLX5X_WQE_SRQ_NEXT_INDEX_OFF	0x00
#define MLX5X_WQE_SRQ_NEXT_INDEX_MASK	0x0000ffffU

/*
 * QP doorbell record (8 bytes in host memory, qpc.dbr_addr): the receive
 * counter (RQ WQEs posted) then the send counter (SQ WQEBBs posted), each
 * a big-endian word of which the low 16 bits count.
 */
#define MLX5X_QP_DBR_RCV_OFF		0x00
#define MLX5X_QP_DBR_SND_OFF		0x04
#define MLX5X_QP_DBR_COUNTER_MASK	0x0000ffffU
/* SRQ doorbell record: WQEs posted, low 16 bits */
#define MLX5X_SRQ_DBR_COUNTER_OFF	0x00
#define MLX5X_SRQ_DBR_COUNTER_MASK	0x0000ffffU

/*
 * Send doorbell in the UAR page: the first 8 bytes of the last control
 * segment, as one 64-bit store to the start of a BlueFlame buffer; or,
 * BlueFlame, the whole WQE (whole 64-byte blocks) copied there.  The
 * BlueFlame registers are 512 bytes from 0x800, each used as
 * two alternating 256-byte buffers.  A 4 KiB UAR page holds four of them
 * (0x800, 0xa00, 0xc00, 0xe00), one per BlueFlame register index.
 */
#define MLX5X_UAR_BF_REG_LEN		0x200
#define MLX5X_UAR_BF_BUF_LEN		0x100
#define MLX5X_UAR_BF_END		0x1000

#endif /* MLX5X_PRM_WQE_H */
