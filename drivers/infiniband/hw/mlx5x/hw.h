/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The driver's view of the ConnectX programming interface.  The layouts
 * themselves live in include/mlx5x/ (shared with the emulated ConnectX);
 * this header adds only what is kernel-side: the field accessors and
 * typed views of the fixed-size device structures, pinned to the shared
 * offsets at compile time.
 *
 * Fields are (byte offset of a big-endian dword, mask inside it) pairs
 * named <NAME>_OFF / <NAME>_MASK, accessed only through MLX5X_SET() and
 * MLX5X_GET() on buffers and with be32_get_bits() on registers, so the
 * byte order is never implicit and sparse checks every access.
 */
#ifndef MLX5X_HW_H
#define MLX5X_HW_H

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/types.h>

#include <mlx5x/prm.h>

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

#endif /* MLX5X_HW_H */
