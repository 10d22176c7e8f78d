/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Driver side of the PRM: the shared layouts from include/mlx5x/, the
 * accessors the driver uses on them, typed views of the fixed-size
 * device structures (pinned to the shared offsets), and the few layouts
 * the shared headers lack (candidates to move there, marked "extra").
 *
 * Fields are (byte offset of a big-endian dword, mask inside it) pairs
 * named <NAME>_OFF / <NAME>_MASK, accessed only through MLX5X_SET() and
 * MLX5X_GET(), so the byte order is never implicit and sparse checks
 * every access.
 */
#ifndef MLX5X_PRM_EXTRA_H
#define MLX5X_PRM_EXTRA_H

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/types.h>

/*
 * Not prm_iseg.h: its MLX5X_CMDIF_REV clashes with hw.h, which covers
 * the init segment for the driver.
 */
#include <mlx5x/prm_cmd.h>
#include <mlx5x/prm_eq.h>
#include <mlx5x/prm_hca.h>
#include <mlx5x/prm_obj.h>
#include <mlx5x/prm_port.h>

/* Field accessors over command boxes and EQEs (dword-aligned offsets). */
#define MLX5X_SET(buf, fld, val)					\
	be32p_replace_bits((__be32 *)((u8 *)(buf) + fld##_OFF), (val),	\
			   fld##_MASK)
#define MLX5X_GET(buf, fld)						\
	be32_get_bits(*(const __be32 *)((const u8 *)(buf) + fld##_OFF),	\
		      fld##_MASK)
/* Same, for a structure embedded at byte @base of the box. */
#define MLX5X_SET_AT(buf, base, fld, val)				\
	MLX5X_SET((u8 *)(buf) + (base), fld, val)

/**
 * struct mlx5x_cmd_layout - one command queue descriptor (64 bytes)
 * @type: transport type, MLX5X_CMD_TYPE_PCI
 * @inlen: total input length in bytes
 * @in_ptr: DMA address of the first input mailbox, or 0
 * @in: first MLX5X_CMD_INLINE_LEN input bytes
 * @out: first MLX5X_CMD_INLINE_LEN output bytes
 * @out_ptr: DMA address of the first output mailbox, or 0
 * @outlen: total output length in bytes
 * @token: rotating non-zero tag, repeated in every mailbox
 * @sig: signature (only checked when cmdif_checksum is on)
 * @status_own: owner bit (1 = device) and delivery status
 */
struct mlx5x_cmd_layout {
	u8 type;
	u8 rsvd0[3];
	__be32 inlen;
	__be64 in_ptr;
	u8 in[MLX5X_CMD_INLINE_LEN];
	u8 out[MLX5X_CMD_INLINE_LEN];
	__be64 out_ptr;
	__be32 outlen;
	u8 token;
	u8 sig;
	u8 rsvd1;
	u8 status_own;
} __packed;
static_assert(sizeof(struct mlx5x_cmd_layout) == MLX5X_CMD_LAY_LEN);
static_assert(offsetof(struct mlx5x_cmd_layout, in_ptr) == MLX5X_CMD_LAY_IN_PTR_OFF);
static_assert(offsetof(struct mlx5x_cmd_layout, in) == MLX5X_CMD_LAY_IN_OFF);
static_assert(offsetof(struct mlx5x_cmd_layout, out) == MLX5X_CMD_LAY_OUT_OFF);
static_assert(offsetof(struct mlx5x_cmd_layout, out_ptr) == MLX5X_CMD_LAY_OUT_PTR_OFF);
static_assert(offsetof(struct mlx5x_cmd_layout, outlen) == MLX5X_CMD_LAY_OUTLEN_OFF);
static_assert(offsetof(struct mlx5x_cmd_layout, token) == MLX5X_CMD_LAY_TOKEN_OFF);
static_assert(offsetof(struct mlx5x_cmd_layout, status_own) ==
	      MLX5X_CMD_LAY_STATUS_OWN_OFF);

/**
 * struct mlx5x_cmd_block - one mailbox of a command's input/output chain
 * @data: MLX5X_MBOX_DATA_LEN payload bytes
 * @next: DMA address of the next mailbox, 0 in the last one
 * @block_num: index of this mailbox in its chain
 * @token: the descriptor's token
 * @ctrl_sig: signature over the control fields
 * @sig: signature over the whole block
 */
struct mlx5x_cmd_block {
	u8 data[MLX5X_MBOX_DATA_LEN];
	u8 rsvd0[48];
	__be64 next;
	__be32 block_num;
	u8 rsvd1;
	u8 token;
	u8 ctrl_sig;
	u8 sig;
} __packed;
static_assert(sizeof(struct mlx5x_cmd_block) == MLX5X_MBOX_LEN);
static_assert(offsetof(struct mlx5x_cmd_block, next) == MLX5X_MBOX_NEXT_OFF);
static_assert(offsetof(struct mlx5x_cmd_block, block_num) ==
	      MLX5X_MBOX_BLOCK_NUM_OFF);
static_assert(offsetof(struct mlx5x_cmd_block, token) == MLX5X_MBOX_TOKEN_OFF);

/**
 * struct mlx5x_eqe - one event queue entry (64 bytes)
 * @type: event type (enum mlx5x_event_type)
 * @sub_type: event sub type
 * @data: type specific payload, read with MLX5X_GET() on the whole EQE
 * @signature: unused by the driver
 * @owner: bit 0 toggles on every pass of the producer
 */
struct mlx5x_eqe {
	u8 rsvd0;
	u8 type;
	u8 rsvd1;
	u8 sub_type;
	__be32 rsvd2[7];
	__be32 data[7];
	__be16 rsvd3;
	u8 signature;
	u8 owner;
} __packed;
static_assert(sizeof(struct mlx5x_eqe) == MLX5X_EQE_LEN);
static_assert(offsetof(struct mlx5x_eqe, type) == MLX5X_EQE_TYPE_OFF);
static_assert(offsetof(struct mlx5x_eqe, sub_type) == MLX5X_EQE_SUB_TYPE_OFF);
static_assert(offsetof(struct mlx5x_eqe, data) == MLX5X_EQE_DATA_OFF);
static_assert(offsetof(struct mlx5x_eqe, owner) == MLX5X_EQE_OWNER_OFF);

/* extra: EQE fields as (dword, mask) pairs where the shared header has bytes */
#define MLX5X_EQE_CMD_VECTOR_MASK	GENMASK(31, 0)
#define MLX5X_EQE_PAGES_FUNC_OFF	MLX5X_EQE_PAGES_EC_FUNCTION_OFF
#define MLX5X_EQE_PAGES_FUNC_MASK	GENMASK(15, 0)
#define MLX5X_EQE_PAGES_NUM_OFF		MLX5X_EQE_PAGES_NUM_PAGES_OFF
#define MLX5X_EQE_PAGES_NUM_MASK	GENMASK(31, 0)
#define MLX5X_EQE_PORT_NUM_OFF		MLX5X_EQE_PORT_OFF
#define MLX5X_EQE_PORT_NUM_MASK		GENMASK(31, 24 + MLX5X_EQE_PORT_SHIFT)
#define MLX5X_EQE_CQ_ERR_SYND_OFF	(MLX5X_EQE_CQ_ERR_SYNDROME_OFF & ~3)
#define MLX5X_EQE_CQ_ERR_SYND_MASK	GENMASK(7, 0)
static_assert((MLX5X_EQE_CQ_ERR_SYNDROME_OFF & 3) == 3);

/* extra: DESTROY_CQ input */
#define MLX5X_DESTROY_CQ_IN_CQN_OFF	0x008
#define MLX5X_DESTROY_CQ_IN_CQN_MASK	0x00ffffffU

/* extra: QUERY_ISSI supported bitmap as a (dword, mask) pair */
#define MLX5X_QUERY_ISSI_OUT_SUPPORTED_OFF	MLX5X_QUERY_ISSI_OUT_SUPPORTED_ISSI_DW0_OFF
#define MLX5X_QUERY_ISSI_OUT_SUPPORTED_MASK	GENMASK(31, 0)

/* extra: 32-bit page counts as (dword, mask) pairs */
#define MLX5X_QUERY_PAGES_OUT_NUM_MASK	GENMASK(31, 0)
#define MLX5X_QUERY_PAGES_OUT_NUM_OFF	MLX5X_QUERY_PAGES_OUT_NUM_PAGES_OFF
#define MLX5X_PAGES_IN_NUM_OFF		MLX5X_PAGES_IN_INPUT_NUM_ENTRIES_OFF
#define MLX5X_PAGES_IN_NUM_MASK		GENMASK(31, 0)
#define MLX5X_MANAGE_PAGES_OUT_NUM_OFF	MLX5X_MANAGE_PAGES_OUT_OUTPUT_NUM_ENTRIES_OFF
#define MLX5X_MANAGE_PAGES_OUT_NUM_MASK	GENMASK(31, 0)

/* Firmware pages are always 4 KiB, whatever the host page size. */
#define MLX5X_FW_PAGE_SHIFT		12
static_assert(BIT(MLX5X_FW_PAGE_SHIFT) == MLX5X_FW_PAGE_SIZE);

/*
 * extra: init segment health registers (prm_iseg.h has them but cannot
 * be included next to hw.h, see above).
 */
#define MLX5X_ISEG_HEALTH_FW_VER	0x230
#define MLX5X_ISEG_HEALTH_RFR_SYND	0x238
#define MLX5X_ISEG_HEALTH_SYND		0x23c	/* irisc, synd, ext_synd */
#define MLX5X_ISEG_HEALTH_COUNTER	0x1010
#define MLX5X_HEALTH_RFR		BIT(31)
#define MLX5X_HEALTH_SYND		GENMASK(23, 16)
#define MLX5X_HEALTH_EXT_SYND		GENMASK(15, 0)
#define MLX5X_NIC_IF_DISABLED		1
#define MLX5X_NIC_IF_SW_RESET		7
/* UAR indices 0..2 overlap the init segment. */
#define MLX5X_UAR_FIRST_INDEX		3

#endif /* MLX5X_PRM_EXTRA_H */
