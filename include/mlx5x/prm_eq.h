/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlx5x PRM layouts: event queues, EQEs, and the UAR doorbell page.
 *
 * See prm_cmd.h for the naming convention.
 */
#ifndef MLX5X_PRM_EQ_H
#define MLX5X_PRM_EQ_H

#include <linux/types.h>

/* EQ context (64 bytes), in CREATE_EQ input and QUERY_EQ output. */
#define MLX5X_EQC_STATUS_OFF                         0x000
#define MLX5X_EQC_STATUS_MASK                        0xf0000000U
#define MLX5X_EQC_EC_OFF                             0x000
#define MLX5X_EQC_EC_MASK                            0x00040000U
#define MLX5X_EQC_OI_OFF                             0x000
#define MLX5X_EQC_OI_MASK                            0x00020000U
#define MLX5X_EQC_ST_OFF                             0x000
#define MLX5X_EQC_ST_MASK                            0x00000f00U
#define MLX5X_EQC_PAGE_OFFSET_OFF                    0x008
#define MLX5X_EQC_PAGE_OFFSET_MASK                   0x00000fc0U
#define MLX5X_EQC_LOG_EQ_SIZE_OFF                    0x00c
#define MLX5X_EQC_LOG_EQ_SIZE_MASK                   0x1f000000U
#define MLX5X_EQC_UAR_PAGE_OFF                       0x00c
#define MLX5X_EQC_UAR_PAGE_MASK                      0x00ffffffU
#define MLX5X_EQC_INTR_OFF                           0x014
#define MLX5X_EQC_INTR_MASK                          0x00000fffU
#define MLX5X_EQC_LOG_PAGE_SIZE_OFF                  0x018
#define MLX5X_EQC_LOG_PAGE_SIZE_MASK                 0x1f000000U
#define MLX5X_EQC_CONSUMER_COUNTER_OFF               0x028
#define MLX5X_EQC_CONSUMER_COUNTER_MASK              0x00ffffffU
#define MLX5X_EQC_PRODUCER_COUNTER_OFF               0x02c
#define MLX5X_EQC_PRODUCER_COUNTER_MASK              0x00ffffffU

#define MLX5X_CREATE_EQ_IN_EQC_OFF		0x010
#define MLX5X_CREATE_EQ_IN_EVENT_BITMASK_OFF	0x058	/* 4 x 64-bit masks */
#define MLX5X_CREATE_EQ_IN_PAS_OFF		0x110	/* 8 bytes each */
#define MLX5X_CREATE_EQ_OUT_EQ_NUMBER_OFF	0x008
#define MLX5X_CREATE_EQ_OUT_EQ_NUMBER_MASK	0x000000ffU
#define MLX5X_DESTROY_EQ_IN_EQ_NUMBER_OFF	0x008
#define MLX5X_DESTROY_EQ_IN_EQ_NUMBER_MASK	0x000000ffU
#define MLX5X_QUERY_EQ_IN_EQ_NUMBER_OFF		0x008
#define MLX5X_QUERY_EQ_IN_EQ_NUMBER_MASK	0x000000ffU
#define MLX5X_QUERY_EQ_OUT_EQC_OFF		0x010
#define MLX5X_QUERY_EQ_OUT_EVENT_BITMASK_OFF	0x058	/* first 64-bit mask */
#define MLX5X_QUERY_EQ_OUT_PAS_OFF		0x110

enum {
	MLX5X_EQC_LEN			= 0x40,
	MLX5X_CREATE_EQ_IN_LEN		= 0x110,	/* + 8 per PAS entry */
	MLX5X_CREATE_EQ_OUT_LEN		= 0x10,
	MLX5X_QUERY_EQ_OUT_LEN		= 0x110,	/* + 8 per PAS entry */
	MLX5X_EQ_EVENT_BITMASK_WORDS	= 4,
	/* EQ numbers travel in 8 bits of the EQ doorbell */
	MLX5X_MAX_EQN			= 0xff,
};

/*
 * EQ entry (64 bytes).  The owner bit of the entry at producer index pi
 * is (pi >> log_eq_size) & 1: 0 on the first pass, toggling per wrap.
 */
#define MLX5X_EQE_TYPE_OFF		0x01	/* byte */
#define MLX5X_EQE_SUB_TYPE_OFF		0x03	/* byte */
#define MLX5X_EQE_DATA_OFF		0x20	/* 28 bytes, per type */
#define MLX5X_EQE_SIGNATURE_OFF		0x3e	/* byte */
#define MLX5X_EQE_OWNER_OFF		0x3f	/* byte, bit 0 */
#define MLX5X_EQE_OWNER_MASK		0x01

/*
 * Type-specific data.  Offsets are from the start of the EQE; the byte
 * forms (marked "byte") are for writers that fill the data bytewise.
 */
/* command completion: bitmask of completed slots */
#define MLX5X_EQE_CMD_VECTOR_OFF	0x20
#define MLX5X_EQE_CMD_VECTOR_MASK	0xffffffffU
/* completion */
#define MLX5X_EQE_COMP_CQN_OFF		0x38
#define MLX5X_EQE_COMP_CQN_MASK		0x00ffffffU
/* page request: num_pages > 0 asks for pages, < 0 offers them back */
#define MLX5X_EQE_PAGES_EC_FUNCTION_OFF	0x20
#define MLX5X_EQE_PAGES_EC_FUNCTION_MASK 0x80000000U
#define MLX5X_EQE_PAGES_FUNC_ID_OFF	0x20
#define MLX5X_EQE_PAGES_FUNC_ID_MASK	0x0000ffffU
#define MLX5X_EQE_PAGES_NUM_PAGES_OFF	0x24
#define MLX5X_EQE_PAGES_NUM_PAGES_MASK	0xffffffffU	/* signed */
/* port change */
#define MLX5X_EQE_PORT_OFF		0x28
#define MLX5X_EQE_PORT_MASK		0xf0000000U
/* QP/SRQ async event */
#define MLX5X_EQE_QP_SRQ_TYPE_OFF	0x34	/* byte */
#define MLX5X_EQE_QP_SRQ_NUM_OFF	0x38
#define MLX5X_EQE_QP_SRQ_NUM_MASK	0x00ffffffU
/* CQ error */
#define MLX5X_EQE_CQ_ERR_CQN_OFF	0x20
#define MLX5X_EQE_CQ_ERR_CQN_MASK	0x00ffffffU
#define MLX5X_EQE_CQ_ERR_SYND_OFF	0x28
#define MLX5X_EQE_CQ_ERR_SYND_MASK	0x000000ffU
#define MLX5X_EQE_CQ_ERR_SYNDROME_OFF	(MLX5X_EQE_CQ_ERR_SYND_OFF + 3)	/* byte */

enum {
	MLX5X_EQE_LEN			= 0x40,
	MLX5X_EQE_LOG_LEN		= 6,
};

/* EQE types; also the bit numbers of the CREATE_EQ event bitmask. */
enum mlx5x_event_type {
	MLX5X_EVENT_COMP		= 0x00,
	MLX5X_EVENT_PATH_MIG		= 0x01,
	MLX5X_EVENT_COMM_EST		= 0x02,
	MLX5X_EVENT_SQ_DRAINED		= 0x03,
	MLX5X_EVENT_CQ_ERROR		= 0x04,
	MLX5X_EVENT_WQ_CATAS_ERROR	= 0x05,
	MLX5X_EVENT_PATH_MIG_FAILED	= 0x07,
	MLX5X_EVENT_INTERNAL_ERROR	= 0x08,
	MLX5X_EVENT_PORT_CHANGE		= 0x09,
	MLX5X_EVENT_CMD			= 0x0a,
	MLX5X_EVENT_PAGE_REQUEST	= 0x0b,
	MLX5X_EVENT_WQ_INVAL_REQ_ERROR	= 0x10,
	MLX5X_EVENT_WQ_ACCESS_ERROR	= 0x11,
	MLX5X_EVENT_SRQ_CATAS_ERROR	= 0x12,
	MLX5X_EVENT_SRQ_LAST_WQE	= 0x13,
	MLX5X_EVENT_SRQ_RQ_LIMIT	= 0x14,
};

/* sub_type of a PORT_CHANGE EQE */
enum mlx5x_port_change_subtype {
	MLX5X_PORT_CHANGE_DOWN		= 1,
	MLX5X_PORT_CHANGE_ACTIVE	= 4,
	MLX5X_PORT_CHANGE_INITIALIZED	= 5,
	MLX5X_PORT_CHANGE_LID		= 6,
	MLX5X_PORT_CHANGE_PKEY		= 7,
	MLX5X_PORT_CHANGE_GUID		= 8,
	MLX5X_PORT_CHANGE_CLIENT_REREG	= 9,
};

/*
 * UAR page layout (one 4 KiB page of BAR0 per UAR index).  Doorbells are
 * big-endian; the EQ doorbell value is eqn << 24 | (ci & 0xffffff), the
 * CQ doorbell a 64-bit store of {sn << 28 | cmd | ci, cqn}.
 */
#define MLX5X_UAR_CQ_DB_OFF		0x20	/* 64-bit CQ arm */
#define MLX5X_UAR_EQ_ARM_OFF		0x40	/* update EQ ci and arm */
#define MLX5X_UAR_EQ_UPDATE_OFF		0x48	/* update EQ ci only */
#define MLX5X_UAR_BF_OFF		0x800	/* send doorbell / BlueFlame */
#define MLX5X_EQ_DB_EQN_MASK		0xff000000U
#define MLX5X_EQ_DB_CI_MASK		0x00ffffffU
#define MLX5X_CQ_DB_SN_MASK		0x30000000U
#define MLX5X_CQ_DB_CMD_MASK		0x07000000U
#define MLX5X_CQ_DB_CI_MASK		0x00ffffffU

enum {
	MLX5X_UAR_PAGE_LEN		= 0x1000,
	MLX5X_CQ_DB_CMD_ARM_NEXT	= 0,
	MLX5X_CQ_DB_CMD_ARM_SOLICITED	= 1,
};

#endif /* MLX5X_PRM_EQ_H */
