/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlx5x PRM layouts: the command interface.
 *
 * Shared by the mlx5x kernel driver and the emulated ConnectX
 * (tools/testing/emu).  Plain C: only <linux/types.h>, no libc, no
 * kernel helpers.  Every multi-byte device field is big-endian.
 *
 * Naming convention used by all prm_*.h headers:
 *   <AREA>_<FIELD>_OFF   byte offset of the big-endian 32-bit word that
 *                        holds the field (always 4-byte aligned), or of
 *                        the first byte for 64-bit fields and arrays;
 *   <AREA>_<FIELD>_MASK  mask of the field inside that word once it is
 *                        converted to host order (a compile-time constant,
 *                        usable with FIELD_GET/be32_get_bits);
 *   <AREA>_LEN           size in bytes of a structure (enum constant).
 * A field without _MASK is a whole 64-bit word or a byte array.
 */
#ifndef MLX5X_PRM_CMD_H
#define MLX5X_PRM_CMD_H

#include <linux/types.h>

/* Command queue entry (descriptor), one per slot of the command queue. */
#define MLX5X_CMD_LAY_TYPE_OFF		0x00	/* byte: transport type */
#define MLX5X_CMD_LAY_INLEN_OFF		0x04	/* total input length */
#define MLX5X_CMD_LAY_IN_PTR_OFF	0x08	/* 8 bytes: first input mailbox */
#define MLX5X_CMD_LAY_IN_OFF		0x10	/* first 16 input bytes */
#define MLX5X_CMD_LAY_OUT_OFF		0x20	/* first 16 output bytes */
#define MLX5X_CMD_LAY_OUT_PTR_OFF	0x30	/* 8 bytes: first output mailbox */
#define MLX5X_CMD_LAY_OUTLEN_OFF	0x38	/* total output length */
#define MLX5X_CMD_LAY_TOKEN_OFF		0x3c	/* byte */
#define MLX5X_CMD_LAY_SIG_OFF		0x3d	/* byte */
#define MLX5X_CMD_LAY_STATUS_OWN_OFF	0x3f	/* byte: delivery status, owner */

#define MLX5X_CMD_OWNER_MASK		0x01	/* in status_own: 1 = device */
#define MLX5X_CMD_DELIVERY_MASK		0xfe	/* in status_own */
#define MLX5X_CMD_DELIVERY_SHIFT	1

enum {
	MLX5X_CMD_LAY_LEN		= 0x40,
	MLX5X_CMD_INLINE_LEN		= 0x10,
	MLX5X_CMD_TYPE_PCI		= 0x7,
	/* the last slot of the queue is reserved for MANAGE_PAGES */
	MLX5X_CMD_MAX_SLOTS		= 32,
};

/* Mailbox block: one link of an input or output chain. */
#define MLX5X_MBOX_DATA_OFF		0x000	/* 512 bytes of payload */
#define MLX5X_MBOX_NEXT_OFF		0x230	/* 8 bytes: next block or 0 */
#define MLX5X_MBOX_BLOCK_NUM_OFF	0x238	/* 0, 1, 2, ... */
#define MLX5X_MBOX_TOKEN_OFF		0x23d	/* byte: same as descriptor */
#define MLX5X_MBOX_CTRL_SIG_OFF		0x23e	/* byte */
#define MLX5X_MBOX_SIG_OFF		0x23f	/* byte */

enum {
	MLX5X_MBOX_DATA_LEN		= 0x200,
	MLX5X_MBOX_LEN			= 0x240,
	/* mailbox blocks are 1 KiB aligned */
	MLX5X_MBOX_ALIGN		= 0x400,
};

/* Common command header: every input starts with opcode/uid/op_mod. */
#define MLX5X_CMD_IN_OPCODE_OFF		0x00
#define MLX5X_CMD_IN_OPCODE_MASK	0xffff0000U
#define MLX5X_CMD_IN_UID_OFF		0x00
#define MLX5X_CMD_IN_UID_MASK		0x0000ffffU
#define MLX5X_CMD_IN_OP_MOD_OFF		0x04
#define MLX5X_CMD_IN_OP_MOD_MASK	0x0000ffffU
/* ... and every output with status/syndrome. */
#define MLX5X_CMD_OUT_STATUS_OFF	0x00
#define MLX5X_CMD_OUT_STATUS_MASK	0xff000000U
#define MLX5X_CMD_OUT_SYNDROME_OFF	0x04
#define MLX5X_CMD_OUT_SYNDROME_MASK	0xffffffffU

enum {
	/* input/output of commands that carry nothing else */
	MLX5X_CMD_HDR_IN_LEN		= 0x10,
	MLX5X_CMD_HDR_OUT_LEN		= 0x10,
	/* minimum input: opcode + op_mod */
	MLX5X_CMD_MIN_IN_LEN		= 0x08,
	/* minimum output: status + syndrome */
	MLX5X_CMD_MIN_OUT_LEN		= 0x08,
};

/* Delivery status (status_own bits 7:1), set by the command transport. */
enum mlx5x_cmd_delivery {
	MLX5X_CMD_DELIV_OK		= 0x00,
	MLX5X_CMD_DELIV_SIGNATURE	= 0x01,
	MLX5X_CMD_DELIV_TOKEN		= 0x02,
	MLX5X_CMD_DELIV_BAD_BLOCK	= 0x03,
	MLX5X_CMD_DELIV_OUT_PTR_ALIGN	= 0x04,
	MLX5X_CMD_DELIV_IN_PTR_ALIGN	= 0x05,
	MLX5X_CMD_DELIV_FW_ERR		= 0x06,
	MLX5X_CMD_DELIV_IN_LENGTH	= 0x07,
	MLX5X_CMD_DELIV_OUT_LENGTH	= 0x08,
	MLX5X_CMD_DELIV_RES_NOT_CLEAR	= 0x09,
	MLX5X_CMD_DELIV_BAD_DESC	= 0x10,
};

/* Command status (output byte 0), set by the command itself. */
enum mlx5x_cmd_status {
	MLX5X_CMD_STAT_OK		= 0x00,
	MLX5X_CMD_STAT_INT_ERR		= 0x01,
	MLX5X_CMD_STAT_BAD_OP		= 0x02,
	MLX5X_CMD_STAT_BAD_PARAM	= 0x03,
	MLX5X_CMD_STAT_BAD_SYS_STATE	= 0x04,
	MLX5X_CMD_STAT_BAD_RES		= 0x05,
	MLX5X_CMD_STAT_RES_BUSY		= 0x06,
	MLX5X_CMD_STAT_NOT_READY	= 0x07,
	MLX5X_CMD_STAT_LIM		= 0x08,
	MLX5X_CMD_STAT_BAD_RES_STATE	= 0x09,
	MLX5X_CMD_STAT_IX		= 0x0a,
	MLX5X_CMD_STAT_NO_RES		= 0x0f,
	MLX5X_CMD_STAT_BAD_QP_STATE	= 0x10,
	MLX5X_CMD_STAT_BAD_PKT		= 0x30,
	MLX5X_CMD_STAT_BAD_SIZE_OUTS_CQES = 0x40,
	MLX5X_CMD_STAT_BAD_INP_LEN	= 0x50,
	MLX5X_CMD_STAT_BAD_OUTP_LEN	= 0x51,
};

/* Opcodes (input dword 0, bits 31:16). */
enum mlx5x_cmd_opcode {
	MLX5X_CMD_OP_QUERY_HCA_CAP		= 0x100,
	MLX5X_CMD_OP_QUERY_ADAPTER		= 0x101,
	MLX5X_CMD_OP_INIT_HCA			= 0x102,
	MLX5X_CMD_OP_TEARDOWN_HCA		= 0x103,
	MLX5X_CMD_OP_ENABLE_HCA			= 0x104,
	MLX5X_CMD_OP_DISABLE_HCA		= 0x105,
	MLX5X_CMD_OP_QUERY_PAGES		= 0x107,
	MLX5X_CMD_OP_MANAGE_PAGES		= 0x108,
	MLX5X_CMD_OP_SET_HCA_CAP		= 0x109,
	MLX5X_CMD_OP_QUERY_ISSI			= 0x10a,
	MLX5X_CMD_OP_SET_ISSI			= 0x10b,
	MLX5X_CMD_OP_SET_DRIVER_VERSION		= 0x10d,
	MLX5X_CMD_OP_CREATE_MKEY		= 0x200,
	MLX5X_CMD_OP_QUERY_MKEY			= 0x201,
	MLX5X_CMD_OP_DESTROY_MKEY		= 0x202,
	MLX5X_CMD_OP_QUERY_SPECIAL_CONTEXTS	= 0x203,
	MLX5X_CMD_OP_CREATE_EQ			= 0x301,
	MLX5X_CMD_OP_DESTROY_EQ			= 0x302,
	MLX5X_CMD_OP_QUERY_EQ			= 0x303,
	MLX5X_CMD_OP_GEN_EQE			= 0x304,
	MLX5X_CMD_OP_CREATE_CQ			= 0x400,
	MLX5X_CMD_OP_DESTROY_CQ			= 0x401,
	MLX5X_CMD_OP_QUERY_CQ			= 0x402,
	MLX5X_CMD_OP_MODIFY_CQ			= 0x403,
	MLX5X_CMD_OP_CREATE_QP			= 0x500,
	MLX5X_CMD_OP_DESTROY_QP			= 0x501,
	MLX5X_CMD_OP_RST2INIT_QP		= 0x502,
	MLX5X_CMD_OP_INIT2RTR_QP		= 0x503,
	MLX5X_CMD_OP_RTR2RTS_QP			= 0x504,
	MLX5X_CMD_OP_RTS2RTS_QP			= 0x505,
	MLX5X_CMD_OP_SQERR2RTS_QP		= 0x506,
	MLX5X_CMD_OP_2ERR_QP			= 0x507,
	MLX5X_CMD_OP_2RST_QP			= 0x50a,
	MLX5X_CMD_OP_QUERY_QP			= 0x50b,
	MLX5X_CMD_OP_SQD_RTS_QP			= 0x50c,
	MLX5X_CMD_OP_MAD_IFC			= 0x50d,
	MLX5X_CMD_OP_INIT2INIT_QP		= 0x50e,
	MLX5X_CMD_OP_CREATE_SRQ			= 0x700,
	MLX5X_CMD_OP_DESTROY_SRQ		= 0x701,
	MLX5X_CMD_OP_QUERY_SRQ			= 0x702,
	MLX5X_CMD_OP_ARM_RQ			= 0x703,
	MLX5X_CMD_OP_CREATE_XRC_SRQ		= 0x705,
	MLX5X_CMD_OP_DESTROY_XRC_SRQ		= 0x706,
	MLX5X_CMD_OP_QUERY_XRC_SRQ		= 0x707,
	MLX5X_CMD_OP_ARM_XRC_SRQ		= 0x708,
	MLX5X_CMD_OP_QUERY_VPORT_STATE		= 0x750,
	MLX5X_CMD_OP_QUERY_NIC_VPORT_CONTEXT	= 0x754,
	MLX5X_CMD_OP_MODIFY_NIC_VPORT_CONTEXT	= 0x755,
	MLX5X_CMD_OP_QUERY_HCA_VPORT_CONTEXT	= 0x762,
	MLX5X_CMD_OP_MODIFY_HCA_VPORT_CONTEXT	= 0x763,
	MLX5X_CMD_OP_QUERY_HCA_VPORT_GID	= 0x764,
	MLX5X_CMD_OP_QUERY_HCA_VPORT_PKEY	= 0x765,
	MLX5X_CMD_OP_QUERY_VPORT_COUNTER	= 0x770,
	MLX5X_CMD_OP_ALLOC_Q_COUNTER		= 0x771,
	MLX5X_CMD_OP_DEALLOC_Q_COUNTER		= 0x772,
	MLX5X_CMD_OP_QUERY_Q_COUNTER		= 0x773,
	MLX5X_CMD_OP_ALLOC_PD			= 0x800,
	MLX5X_CMD_OP_DEALLOC_PD			= 0x801,
	MLX5X_CMD_OP_ALLOC_UAR			= 0x802,
	MLX5X_CMD_OP_DEALLOC_UAR		= 0x803,
	MLX5X_CMD_OP_ACCESS_REG			= 0x805,
	MLX5X_CMD_OP_ATTACH_TO_MCG		= 0x806,
	MLX5X_CMD_OP_DETACH_FROM_MCG		= 0x807,
	MLX5X_CMD_OP_NOP			= 0x80d,
	MLX5X_CMD_OP_ALLOC_XRCD			= 0x80e,
	MLX5X_CMD_OP_DEALLOC_XRCD		= 0x80f,
	MLX5X_CMD_OP_ALLOC_TRANSPORT_DOMAIN	= 0x816,
	MLX5X_CMD_OP_DEALLOC_TRANSPORT_DOMAIN	= 0x817,
	MLX5X_CMD_OP_CREATE_RMP			= 0x90c,
	MLX5X_CMD_OP_MODIFY_RMP			= 0x90d,
	MLX5X_CMD_OP_DESTROY_RMP		= 0x90e,
	MLX5X_CMD_OP_QUERY_RMP			= 0x90f,
	MLX5X_CMD_OP_CREATE_GENERAL_OBJECT	= 0xa00,
	MLX5X_CMD_OP_CREATE_UCTX		= 0xa04,
	MLX5X_CMD_OP_DESTROY_UCTX		= 0xa06,
};

#endif /* MLX5X_PRM_CMD_H */
