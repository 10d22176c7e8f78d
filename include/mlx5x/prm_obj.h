/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlx5x PRM layouts: UAR, PD, XRCD, memory keys, CQs and SRQs.
 *
 * See prm_cmd.h for the naming convention.
 */
#ifndef MLX5X_PRM_OBJ_H
#define MLX5X_PRM_OBJ_H

#include <linux/types.h>

/* ALLOC_UAR / DEALLOC_UAR, ALLOC_PD / DEALLOC_PD, ALLOC_XRCD / DEALLOC_XRCD */
#define MLX5X_ALLOC_UAR_OUT_UAR_OFF                  0x008
#define MLX5X_ALLOC_UAR_OUT_UAR_MASK                 0x00ffffffU
#define MLX5X_DEALLOC_UAR_IN_UAR_OFF                 0x008
#define MLX5X_DEALLOC_UAR_IN_UAR_MASK                0x00ffffffU
#define MLX5X_ALLOC_PD_OUT_PD_OFF                    0x008
#define MLX5X_ALLOC_PD_OUT_PD_MASK                   0x00ffffffU
#define MLX5X_DEALLOC_PD_IN_PD_OFF                   0x008
#define MLX5X_DEALLOC_PD_IN_PD_MASK                  0x00ffffffU
#define MLX5X_ALLOC_XRCD_OUT_XRCD_OFF                0x008
#define MLX5X_ALLOC_XRCD_OUT_XRCD_MASK               0x00ffffffU
#define MLX5X_DEALLOC_XRCD_IN_XRCD_OFF               0x008
#define MLX5X_DEALLOC_XRCD_IN_XRCD_MASK              0x00ffffffU

/*
 * Queue buffers are described by a PAS list: one 64-bit page address per
 * page of 1 << (log_page_size + 12) bytes.  page_offset counts units of
 * page_size / 64 from the start of the first page.
 */
enum {
	MLX5X_PAS_LEN			= 8,
	MLX5X_ADAPTER_PAGE_SHIFT	= 12,
	MLX5X_PAGE_OFFSET_QUANTA_SHIFT	= 6,
};

/* Memory key context (64 bytes). */
#define MLX5X_MKC_FREE_OFF                           0x000
#define MLX5X_MKC_FREE_MASK                          0x40000000U
#define MLX5X_MKC_ACCESS_MODE_4_2_OFF                0x000
#define MLX5X_MKC_ACCESS_MODE_4_2_MASK               0x1c000000U
#define MLX5X_MKC_UMR_EN_OFF                         0x000
#define MLX5X_MKC_UMR_EN_MASK                        0x00008000U
#define MLX5X_MKC_A_OFF                              0x000
#define MLX5X_MKC_A_MASK                             0x00004000U
#define MLX5X_MKC_RW_OFF                             0x000
#define MLX5X_MKC_RW_MASK                            0x00002000U
#define MLX5X_MKC_RR_OFF                             0x000
#define MLX5X_MKC_RR_MASK                            0x00001000U
#define MLX5X_MKC_LW_OFF                             0x000
#define MLX5X_MKC_LW_MASK                            0x00000800U
#define MLX5X_MKC_LR_OFF                             0x000
#define MLX5X_MKC_LR_MASK                            0x00000400U
#define MLX5X_MKC_ACCESS_MODE_1_0_OFF                0x000
#define MLX5X_MKC_ACCESS_MODE_1_0_MASK               0x00000300U
#define MLX5X_MKC_QPN_OFF                            0x004
#define MLX5X_MKC_QPN_MASK                           0xffffff00U
#define MLX5X_MKC_MKEY_7_0_OFF                       0x004
#define MLX5X_MKC_MKEY_7_0_MASK                      0x000000ffU
#define MLX5X_MKC_LENGTH64_OFF                       0x00c
#define MLX5X_MKC_LENGTH64_MASK                      0x80000000U
#define MLX5X_MKC_EN_RINVAL_OFF                      0x00c /* type 2 window */
#define MLX5X_MKC_EN_RINVAL_MASK                     0x01000000U
#define MLX5X_MKC_PD_OFF                             0x00c
#define MLX5X_MKC_PD_MASK                            0x00ffffffU
#define MLX5X_MKC_START_ADDR_OFF                     0x010 /* 8 bytes */
#define MLX5X_MKC_LEN_OFF                            0x018 /* 8 bytes */
#define MLX5X_MKC_TRANSLATIONS_OCTWORD_SIZE_OFF      0x034
#define MLX5X_MKC_TRANSLATIONS_OCTWORD_SIZE_MASK     0xffffffffU
#define MLX5X_MKC_LOG_PAGE_SIZE_OFF                  0x038
#define MLX5X_MKC_LOG_PAGE_SIZE_MASK                 0x0000003fU

/* mkey access mode: access_mode_4_2 << 2 | access_mode_1_0 */
enum mlx5x_mkc_access_mode {
	MLX5X_MKC_ACCESS_MODE_PA	= 0,
	MLX5X_MKC_ACCESS_MODE_MTT	= 1,
	MLX5X_MKC_ACCESS_MODE_KLMS	= 2,
	MLX5X_MKC_ACCESS_MODE_KSM	= 3,
};

#define MLX5X_CREATE_MKEY_IN_PG_ACCESS_OFF		0x00c
#define MLX5X_CREATE_MKEY_IN_PG_ACCESS_MASK		0x80000000U
#define MLX5X_CREATE_MKEY_IN_MKEY_UMEM_VALID_OFF	0x00c
#define MLX5X_CREATE_MKEY_IN_MKEY_UMEM_VALID_MASK	0x40000000U
#define MLX5X_CREATE_MKEY_IN_MKC_OFF			0x010
#define MLX5X_CREATE_MKEY_IN_TRANSLATIONS_ACTUAL_OFF	0x060	/* octwords */
#define MLX5X_CREATE_MKEY_IN_MTT_OFF			0x110	/* 8 bytes each */
#define MLX5X_CREATE_MKEY_OUT_MKEY_INDEX_OFF		0x008
#define MLX5X_CREATE_MKEY_OUT_MKEY_INDEX_MASK		0x00ffffffU
#define MLX5X_DESTROY_MKEY_IN_MKEY_INDEX_OFF		0x008
#define MLX5X_DESTROY_MKEY_IN_MKEY_INDEX_MASK		0x00ffffffU
#define MLX5X_QUERY_MKEY_IN_MKEY_INDEX_OFF		0x008
#define MLX5X_QUERY_MKEY_IN_MKEY_INDEX_MASK		0x00ffffffU
#define MLX5X_QUERY_MKEY_OUT_MKC_OFF			0x010
#define MLX5X_QUERY_MKEY_OUT_MTT_OFF			0x110	/* 4 entries */

/* an mkey (lkey/rkey) is index << 8 | mkey_7_0 */
#define MLX5X_MKEY_INDEX_SHIFT		8
#define MLX5X_MKEY_VARIANT_MASK		0x000000ffU
/* mkc.qpn of a key not bound to a QP */
#define MLX5X_MKC_QPN_NONE		0xffffff
/* MTT entries carry the page address; low bits are flags */
#define MLX5X_MTT_ADDR_MASK		0xfffffffffffffff8ULL
/* bit 0: the page may be read, bit 1: written (fast registration) */
#define MLX5X_MTT_READ_EN		0x1ULL
#define MLX5X_MTT_WRITE_EN		0x2ULL

enum {
	MLX5X_MKC_LEN			= 0x40,
	MLX5X_CREATE_MKEY_IN_LEN	= 0x110,	/* + 8 per MTT entry */
	MLX5X_QUERY_MKEY_OUT_LEN	= 0x130,
};

/* Completion queue context (64 bytes). */
#define MLX5X_CQC_STATUS_OFF                         0x000
#define MLX5X_CQC_STATUS_MASK                        0xf0000000U
#define MLX5X_CQC_DBR_UMEM_VALID_OFF                 0x000
#define MLX5X_CQC_DBR_UMEM_VALID_MASK                0x02000000U
#define MLX5X_CQC_CQE_SZ_OFF                         0x000
#define MLX5X_CQC_CQE_SZ_MASK                        0x00e00000U
#define MLX5X_CQC_CC_OFF                             0x000
#define MLX5X_CQC_CC_MASK                            0x00100000U
#define MLX5X_CQC_SCQE_BREAK_MODERATION_EN_OFF       0x000
#define MLX5X_CQC_SCQE_BREAK_MODERATION_EN_MASK      0x00040000U
#define MLX5X_CQC_OI_OFF                             0x000
#define MLX5X_CQC_OI_MASK                            0x00020000U
#define MLX5X_CQC_CQ_PERIOD_MODE_OFF                 0x000
#define MLX5X_CQC_CQ_PERIOD_MODE_MASK                0x00018000U
#define MLX5X_CQC_CQE_COMP_EN_OFF                    0x000
#define MLX5X_CQC_CQE_COMP_EN_MASK                   0x00004000U
#define MLX5X_CQC_ST_OFF                             0x000
#define MLX5X_CQC_ST_MASK                            0x00000f00U
#define MLX5X_CQC_PAGE_OFFSET_OFF                    0x008
#define MLX5X_CQC_PAGE_OFFSET_MASK                   0x00000fc0U
#define MLX5X_CQC_CQ_TIMESTAMP_FORMAT_OFF            0x008
#define MLX5X_CQC_CQ_TIMESTAMP_FORMAT_MASK           0x00000003U
#define MLX5X_CQC_LOG_CQ_SIZE_OFF                    0x00c
#define MLX5X_CQC_LOG_CQ_SIZE_MASK                   0x1f000000U
#define MLX5X_CQC_UAR_PAGE_OFF                       0x00c
#define MLX5X_CQC_UAR_PAGE_MASK                      0x00ffffffU
#define MLX5X_CQC_CQ_PERIOD_OFF                      0x010
#define MLX5X_CQC_CQ_PERIOD_MASK                     0x0fff0000U
#define MLX5X_CQC_CQ_MAX_COUNT_OFF                   0x010
#define MLX5X_CQC_CQ_MAX_COUNT_MASK                  0x0000ffffU
#define MLX5X_CQC_C_EQN_OFF                          0x014
#define MLX5X_CQC_C_EQN_MASK                         0xffffffffU
#define MLX5X_CQC_LOG_PAGE_SIZE_OFF                  0x018
#define MLX5X_CQC_LOG_PAGE_SIZE_MASK                 0x1f000000U
#define MLX5X_CQC_LAST_NOTIFIED_INDEX_OFF            0x020
#define MLX5X_CQC_LAST_NOTIFIED_INDEX_MASK           0x00ffffffU
#define MLX5X_CQC_LAST_SOLICIT_INDEX_OFF             0x024
#define MLX5X_CQC_LAST_SOLICIT_INDEX_MASK            0x00ffffffU
#define MLX5X_CQC_CONSUMER_COUNTER_OFF               0x028
#define MLX5X_CQC_CONSUMER_COUNTER_MASK              0x00ffffffU
#define MLX5X_CQC_PRODUCER_COUNTER_OFF               0x02c
#define MLX5X_CQC_PRODUCER_COUNTER_MASK              0x00ffffffU
#define MLX5X_CQC_DBR_ADDR_OFF                       0x038 /* 8 bytes */

/* cqe_sz */
enum {
	MLX5X_CQE_SIZE_64		= 0,
	MLX5X_CQE_SIZE_128		= 1,
};

#define MLX5X_CREATE_CQ_IN_CQC_OFF		0x010
#define MLX5X_CREATE_CQ_IN_CQ_UMEM_VALID_OFF	0x05c
#define MLX5X_CREATE_CQ_IN_CQ_UMEM_VALID_MASK	0x80000000U
#define MLX5X_CREATE_CQ_IN_PAS_OFF		0x110
#define MLX5X_CREATE_CQ_OUT_CQN_OFF		0x008
#define MLX5X_CREATE_CQ_OUT_CQN_MASK		0x00ffffffU
/* DESTROY_CQ and QUERY_CQ inputs */
#define MLX5X_CQ_IN_CQN_OFF			0x008
#define MLX5X_CQ_IN_CQN_MASK			0x00ffffffU
#define MLX5X_MODIFY_CQ_IN_FIELD_SELECT_OFF	0x00c
#define MLX5X_MODIFY_CQ_IN_CQC_OFF		0x010
#define MLX5X_MODIFY_CQ_IN_PAS_OFF		0x110
#define MLX5X_QUERY_CQ_OUT_CQC_OFF		0x010
#define MLX5X_QUERY_CQ_OUT_PAS_OFF		0x110

/* MODIFY_CQ op_mod and field_select bits */
enum {
	MLX5X_MODIFY_CQ_OPMOD_MODIFY	= 0,
	MLX5X_MODIFY_CQ_OPMOD_RESIZE	= 1,
	MLX5X_MODIFY_CQ_SEL_PERIOD	= 1 << 0,
	MLX5X_MODIFY_CQ_SEL_COUNT	= 1 << 1,
	MLX5X_MODIFY_CQ_SEL_OI		= 1 << 2,
	MLX5X_MODIFY_CQ_SEL_PERIOD_MODE	= 1 << 4,
	/* op_mod RESIZE: which cqc fields the new ring takes */
	MLX5X_MODIFY_CQ_RESIZE_LOG_SIZE	= 1 << 0,
	MLX5X_MODIFY_CQ_RESIZE_PG_OFFSET = 1 << 1,
	MLX5X_MODIFY_CQ_RESIZE_PG_SIZE	= 1 << 2,
};

enum {
	MLX5X_CQC_LEN			= 0x40,
	MLX5X_CREATE_CQ_IN_LEN		= 0x110,	/* + 8 per PAS entry */
	MLX5X_QUERY_CQ_OUT_LEN		= 0x110,
};

/* Shared receive queue context (64 bytes). */
#define MLX5X_SRQC_STATE_OFF                         0x000
#define MLX5X_SRQC_STATE_MASK                        0xf0000000U
#define MLX5X_SRQC_LOG_SRQ_SIZE_OFF                  0x000
#define MLX5X_SRQC_LOG_SRQ_SIZE_MASK                 0x0f000000U
#define MLX5X_SRQC_WQ_SIGNATURE_OFF                  0x004
#define MLX5X_SRQC_WQ_SIGNATURE_MASK                 0x80000000U
#define MLX5X_SRQC_CONT_SRQ_OFF                      0x004
#define MLX5X_SRQC_CONT_SRQ_MASK                     0x40000000U
#define MLX5X_SRQC_RLKY_OFF                          0x004
#define MLX5X_SRQC_RLKY_MASK                         0x10000000U
#define MLX5X_SRQC_LOG_RQ_STRIDE_OFF                 0x004
#define MLX5X_SRQC_LOG_RQ_STRIDE_MASK                0x07000000U
#define MLX5X_SRQC_XRCD_OFF                          0x004
#define MLX5X_SRQC_XRCD_MASK                         0x00ffffffU
#define MLX5X_SRQC_PAGE_OFFSET_OFF                   0x008
#define MLX5X_SRQC_PAGE_OFFSET_MASK                  0xfc000000U
#define MLX5X_SRQC_CQN_OFF                           0x008
#define MLX5X_SRQC_CQN_MASK                          0x00ffffffU
#define MLX5X_SRQC_LOG_PAGE_SIZE_OFF                 0x010
#define MLX5X_SRQC_LOG_PAGE_SIZE_MASK                0x3f000000U
#define MLX5X_SRQC_PD_OFF                            0x018
#define MLX5X_SRQC_PD_MASK                           0x00ffffffU
#define MLX5X_SRQC_LWM_OFF                           0x01c
#define MLX5X_SRQC_LWM_MASK                          0xffff0000U
#define MLX5X_SRQC_WQE_CNT_OFF                       0x01c
#define MLX5X_SRQC_WQE_CNT_MASK                      0x0000ffffU
#define MLX5X_SRQC_DBR_ADDR_OFF                      0x028 /* 8 bytes */

#define MLX5X_CREATE_SRQ_IN_SRQC_OFF		0x010
#define MLX5X_CREATE_SRQ_IN_PAS_OFF		0x110
#define MLX5X_CREATE_SRQ_OUT_SRQN_OFF		0x008
#define MLX5X_CREATE_SRQ_OUT_SRQN_MASK		0x00ffffffU
/* DESTROY_SRQ, QUERY_SRQ and ARM_RQ inputs */
#define MLX5X_SRQ_IN_SRQN_OFF			0x008
#define MLX5X_SRQ_IN_SRQN_MASK			0x00ffffffU
#define MLX5X_ARM_RQ_IN_LWM_OFF			0x00c
#define MLX5X_ARM_RQ_IN_LWM_MASK		0x0000ffffU
#define MLX5X_QUERY_SRQ_OUT_SRQC_OFF		0x010
#define MLX5X_QUERY_SRQ_OUT_PAS_OFF		0x110

enum {
	MLX5X_SRQC_LEN			= 0x40,
	MLX5X_CREATE_SRQ_IN_LEN		= 0x110,	/* + 8 per PAS entry */
	MLX5X_QUERY_SRQ_OUT_LEN		= 0x110,
	MLX5X_SRQC_STATE_GOOD		= 0,
	MLX5X_SRQC_STATE_ERROR		= 1,
	/* ARM_RQ op_mod */
	MLX5X_ARM_RQ_OPMOD_SRQ		= 1,
	MLX5X_ARM_RQ_OPMOD_XRQ		= 2,
};

/*
 * XRC SRQ (ISSI 1): CREATE/DESTROY/QUERY/ARM_XRC_SRQ use the SRQ command
 * layouts above; the context is the SRQ context plus the user index that
 * CQE version 1 reports for receives completed from the XRC SRQ.
 */
#define MLX5X_XRC_SRQC_UIDX_EQ_SRQN_OFF		0x010
#define MLX5X_XRC_SRQC_UIDX_EQ_SRQN_MASK	0x80000000U
#define MLX5X_XRC_SRQC_USER_INDEX_OFF		0x010
#define MLX5X_XRC_SRQC_USER_INDEX_MASK		0x00ffffffU
#define MLX5X_CREATE_XRC_SRQ_IN_UMEM_VALID_OFF	0x05c
#define MLX5X_CREATE_XRC_SRQ_IN_UMEM_VALID_MASK	0x80000000U

enum {
	/* ARM_XRC_SRQ op_mod */
	MLX5X_ARM_XRC_SRQ_OPMOD_XRC_SRQ	= 1,
};

/*
 * Work queue context (192 bytes), here as the receive queue of an RMP:
 * the ISSI 1 form of a basic SRQ.  Sizes are logs of bytes, not of
 * 16-byte units as in the SRQ context.
 */
#define MLX5X_WQ_TYPE_OFF			0x000
#define MLX5X_WQ_TYPE_MASK			0xf0000000U
#define MLX5X_WQ_SIGNATURE_OFF			0x000
#define MLX5X_WQ_SIGNATURE_MASK			0x08000000U
#define MLX5X_WQ_PAGE_OFFSET_OFF		0x004
#define MLX5X_WQ_PAGE_OFFSET_MASK		0x001f0000U
#define MLX5X_WQ_LWM_OFF			0x004
#define MLX5X_WQ_LWM_MASK			0x0000ffffU
#define MLX5X_WQ_PD_OFF				0x008
#define MLX5X_WQ_PD_MASK			0x00ffffffU
#define MLX5X_WQ_DBR_ADDR_OFF			0x010 /* 8 bytes */
#define MLX5X_WQ_LOG_STRIDE_OFF			0x020
#define MLX5X_WQ_LOG_STRIDE_MASK		0x000f0000U
#define MLX5X_WQ_LOG_PG_SZ_OFF			0x020
#define MLX5X_WQ_LOG_PG_SZ_MASK			0x00001f00U
#define MLX5X_WQ_LOG_SZ_OFF			0x020
#define MLX5X_WQ_LOG_SZ_MASK			0x0000001fU
#define MLX5X_WQ_UMEM_VALID_OFF			0x024
#define MLX5X_WQ_UMEM_VALID_MASK		0xc0000000U	/* dbr, wq */

/* RMP context: state, then the work queue at +0x30 */
#define MLX5X_RMPC_STATE_OFF			0x000
#define MLX5X_RMPC_STATE_MASK			0x00f00000U
#define MLX5X_RMPC_WQ_OFF			0x030

/* CREATE_RMP, MODIFY_RMP inputs and QUERY_RMP output: context at 0x20 */
#define MLX5X_RMP_CMD_RMPC_OFF			0x020
#define MLX5X_CREATE_RMP_IN_PAS_OFF		0x110
#define MLX5X_CREATE_RMP_OUT_RMPN_OFF		0x008
#define MLX5X_CREATE_RMP_OUT_RMPN_MASK		0x00ffffffU
/* DESTROY_RMP, QUERY_RMP and MODIFY_RMP inputs */
#define MLX5X_RMP_IN_RMPN_OFF			0x008
#define MLX5X_RMP_IN_RMPN_MASK			0x00ffffffU
#define MLX5X_MODIFY_RMP_IN_STATE_OFF		0x008
#define MLX5X_MODIFY_RMP_IN_STATE_MASK		0xf0000000U
#define MLX5X_MODIFY_RMP_IN_BITMASK_OFF		0x010 /* 8 bytes */
#define MLX5X_MODIFY_RMP_IN_BITMASK_LWM		1ULL

enum {
	MLX5X_WQ_LEN			= 0xc0,
	MLX5X_RMPC_LEN			= 0xf0,		/* with its WQ */
	MLX5X_CREATE_RMP_IN_LEN		= 0x110,	/* + 8 per PAS entry */
	MLX5X_MODIFY_RMP_IN_LEN		= 0x110,
	MLX5X_QUERY_RMP_OUT_LEN		= 0x110,
	MLX5X_WQ_TYPE_LINKED_LIST	= 0,
	MLX5X_RMPC_STATE_RDY		= 1,
	MLX5X_RMPC_STATE_ERR		= 3,
};

#endif /* MLX5X_PRM_OBJ_H */
