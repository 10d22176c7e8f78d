/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlx5x PRM layouts: queue pairs.
 *
 * See prm_cmd.h for the naming convention.
 */
#ifndef MLX5X_PRM_QP_H
#define MLX5X_PRM_QP_H

#include <linux/types.h>

/* QP context (0xe8 bytes), in CREATE_QP, the modify commands, QUERY_QP. */
#define MLX5X_QPC_STATE_OFF                          0x000
#define MLX5X_QPC_STATE_MASK                         0xf0000000U
#define MLX5X_QPC_LAG_TX_PORT_AFFINITY_OFF           0x000
#define MLX5X_QPC_LAG_TX_PORT_AFFINITY_MASK          0x0f000000U
#define MLX5X_QPC_ST_OFF                             0x000
#define MLX5X_QPC_ST_MASK                            0x00ff0000U
#define MLX5X_QPC_PM_STATE_OFF                       0x000
#define MLX5X_QPC_PM_STATE_MASK                      0x00001800U
#define MLX5X_QPC_OFFLOAD_TYPE_OFF                   0x000
#define MLX5X_QPC_OFFLOAD_TYPE_MASK                  0x000000f0U
#define MLX5X_QPC_END_PADDING_MODE_OFF               0x000
#define MLX5X_QPC_END_PADDING_MODE_MASK              0x0000000cU
#define MLX5X_QPC_WQ_SIGNATURE_OFF                   0x004
#define MLX5X_QPC_WQ_SIGNATURE_MASK                  0x80000000U
#define MLX5X_QPC_BLOCK_LB_MC_OFF                    0x004
#define MLX5X_QPC_BLOCK_LB_MC_MASK                   0x40000000U
#define MLX5X_QPC_ATOMIC_LIKE_WRITE_EN_OFF           0x004
#define MLX5X_QPC_ATOMIC_LIKE_WRITE_EN_MASK          0x20000000U
#define MLX5X_QPC_LATENCY_SENSITIVE_OFF              0x004
#define MLX5X_QPC_LATENCY_SENSITIVE_MASK             0x10000000U
#define MLX5X_QPC_DRAIN_SIGERR_OFF                   0x004
#define MLX5X_QPC_DRAIN_SIGERR_MASK                  0x04000000U
#define MLX5X_QPC_PD_OFF                             0x004
#define MLX5X_QPC_PD_MASK                            0x00ffffffU
#define MLX5X_QPC_MTU_OFF                            0x008
#define MLX5X_QPC_MTU_MASK                           0xe0000000U
#define MLX5X_QPC_LOG_MSG_MAX_OFF                    0x008
#define MLX5X_QPC_LOG_MSG_MAX_MASK                   0x1f000000U
#define MLX5X_QPC_LOG_RQ_SIZE_OFF                    0x008
#define MLX5X_QPC_LOG_RQ_SIZE_MASK                   0x00780000U
#define MLX5X_QPC_LOG_RQ_STRIDE_OFF                  0x008
#define MLX5X_QPC_LOG_RQ_STRIDE_MASK                 0x00070000U
#define MLX5X_QPC_NO_SQ_OFF                          0x008
#define MLX5X_QPC_NO_SQ_MASK                         0x00008000U
#define MLX5X_QPC_LOG_SQ_SIZE_OFF                    0x008
#define MLX5X_QPC_LOG_SQ_SIZE_MASK                   0x00007800U
#define MLX5X_QPC_RETRY_MODE_OFF                     0x008
#define MLX5X_QPC_RETRY_MODE_MASK                    0x00000300U
#define MLX5X_QPC_TS_FORMAT_OFF                      0x008
#define MLX5X_QPC_TS_FORMAT_MASK                     0x000000c0U
#define MLX5X_QPC_RLKY_OFF                           0x008
#define MLX5X_QPC_RLKY_MASK                          0x00000010U
#define MLX5X_QPC_ULP_STATELESS_OFFLOAD_MODE_OFF     0x008
#define MLX5X_QPC_ULP_STATELESS_OFFLOAD_MODE_MASK    0x0000000fU
#define MLX5X_QPC_COUNTER_SET_ID_OFF                 0x00c
#define MLX5X_QPC_COUNTER_SET_ID_MASK                0xff000000U
#define MLX5X_QPC_UAR_PAGE_OFF                       0x00c
#define MLX5X_QPC_UAR_PAGE_MASK                      0x00ffffffU
#define MLX5X_QPC_USER_INDEX_OFF                     0x010
#define MLX5X_QPC_USER_INDEX_MASK                    0x00ffffffU
#define MLX5X_QPC_LOG_PAGE_SIZE_OFF                  0x014
#define MLX5X_QPC_LOG_PAGE_SIZE_MASK                 0x1f000000U
#define MLX5X_QPC_REMOTE_QPN_OFF                     0x014
#define MLX5X_QPC_REMOTE_QPN_MASK                    0x00ffffffU
#define MLX5X_QPC_PRI_PATH_OFF                       0x018 /* 44 bytes */
#define MLX5X_QPC_ALT_PATH_OFF                       0x044 /* 44 bytes */
#define MLX5X_QPC_LOG_ACK_REQ_FREQ_OFF               0x070
#define MLX5X_QPC_LOG_ACK_REQ_FREQ_MASK              0xf0000000U
#define MLX5X_QPC_LOG_SRA_MAX_OFF                    0x070
#define MLX5X_QPC_LOG_SRA_MAX_MASK                   0x00e00000U
#define MLX5X_QPC_RETRY_COUNT_OFF                    0x070
#define MLX5X_QPC_RETRY_COUNT_MASK                   0x00070000U
#define MLX5X_QPC_RNR_RETRY_OFF                      0x070
#define MLX5X_QPC_RNR_RETRY_MASK                     0x0000e000U
#define MLX5X_QPC_FRE_OFF                            0x070
#define MLX5X_QPC_FRE_MASK                           0x00000800U
#define MLX5X_QPC_CUR_RNR_RETRY_OFF                  0x070
#define MLX5X_QPC_CUR_RNR_RETRY_MASK                 0x00000700U
#define MLX5X_QPC_CUR_RETRY_COUNT_OFF                0x070
#define MLX5X_QPC_CUR_RETRY_COUNT_MASK               0x000000e0U
#define MLX5X_QPC_NEXT_SEND_PSN_OFF                  0x078
#define MLX5X_QPC_NEXT_SEND_PSN_MASK                 0x00ffffffU
#define MLX5X_QPC_CQN_SND_OFF                        0x07c
#define MLX5X_QPC_CQN_SND_MASK                       0x00ffffffU
#define MLX5X_QPC_DETH_SQPN_OFF                      0x080
#define MLX5X_QPC_DETH_SQPN_MASK                     0x00ffffffU
#define MLX5X_QPC_LAST_ACKED_PSN_OFF                 0x088
#define MLX5X_QPC_LAST_ACKED_PSN_MASK                0x00ffffffU
#define MLX5X_QPC_SSN_OFF                            0x08c
#define MLX5X_QPC_SSN_MASK                           0x00ffffffU
#define MLX5X_QPC_LOG_RRA_MAX_OFF                    0x090
#define MLX5X_QPC_LOG_RRA_MAX_MASK                   0x00e00000U
#define MLX5X_QPC_ATOMIC_MODE_OFF                    0x090
#define MLX5X_QPC_ATOMIC_MODE_MASK                   0x000f0000U
#define MLX5X_QPC_RRE_OFF                            0x090
#define MLX5X_QPC_RRE_MASK                           0x00008000U
#define MLX5X_QPC_RWE_OFF                            0x090
#define MLX5X_QPC_RWE_MASK                           0x00004000U
#define MLX5X_QPC_RAE_OFF                            0x090
#define MLX5X_QPC_RAE_MASK                           0x00002000U
#define MLX5X_QPC_PAGE_OFFSET_OFF                    0x090
#define MLX5X_QPC_PAGE_OFFSET_MASK                   0x00000fc0U
#define MLX5X_QPC_CD_SLAVE_SEND_OFF                  0x090
#define MLX5X_QPC_CD_SLAVE_SEND_MASK                 0x00000002U
#define MLX5X_QPC_CD_MASTER_OFF                      0x090
#define MLX5X_QPC_CD_MASTER_MASK                     0x00000001U
#define MLX5X_QPC_MIN_RNR_NAK_OFF                    0x094
#define MLX5X_QPC_MIN_RNR_NAK_MASK                   0x1f000000U
#define MLX5X_QPC_NEXT_RCV_PSN_OFF                   0x094
#define MLX5X_QPC_NEXT_RCV_PSN_MASK                  0x00ffffffU
#define MLX5X_QPC_XRCD_OFF                           0x098
#define MLX5X_QPC_XRCD_MASK                          0x00ffffffU
#define MLX5X_QPC_CQN_RCV_OFF                        0x09c
#define MLX5X_QPC_CQN_RCV_MASK                       0x00ffffffU
#define MLX5X_QPC_DBR_ADDR_OFF                       0x0a0 /* 8 bytes */
#define MLX5X_QPC_Q_KEY_OFF                          0x0a8
#define MLX5X_QPC_Q_KEY_MASK                         0xffffffffU
#define MLX5X_QPC_RQ_TYPE_OFF                        0x0ac
#define MLX5X_QPC_RQ_TYPE_MASK                       0x07000000U
#define MLX5X_QPC_SRQN_RMPN_XRQN_OFF                 0x0ac
#define MLX5X_QPC_SRQN_RMPN_XRQN_MASK                0x00ffffffU
#define MLX5X_QPC_RMSN_OFF                           0x0b0
#define MLX5X_QPC_RMSN_MASK                          0x00ffffffU
#define MLX5X_QPC_HW_SQ_WQEBB_COUNTER_OFF            0x0b4
#define MLX5X_QPC_HW_SQ_WQEBB_COUNTER_MASK           0xffff0000U
#define MLX5X_QPC_SW_SQ_WQEBB_COUNTER_OFF            0x0b4
#define MLX5X_QPC_SW_SQ_WQEBB_COUNTER_MASK           0x0000ffffU
#define MLX5X_QPC_HW_RQ_COUNTER_OFF                  0x0b8
#define MLX5X_QPC_HW_RQ_COUNTER_MASK                 0xffffffffU
#define MLX5X_QPC_SW_RQ_COUNTER_OFF                  0x0bc
#define MLX5X_QPC_SW_RQ_COUNTER_MASK                 0xffffffffU
#define MLX5X_QPC_CGS_OFF                            0x0c4
#define MLX5X_QPC_CGS_MASK                           0x00010000U
#define MLX5X_QPC_CS_REQ_OFF                         0x0c4
#define MLX5X_QPC_CS_REQ_MASK                        0x0000ff00U
#define MLX5X_QPC_CS_RES_OFF                         0x0c4
#define MLX5X_QPC_CS_RES_MASK                        0x000000ffU
#define MLX5X_QPC_DBR_UMEM_VALID_OFF                 0x0d0
#define MLX5X_QPC_DBR_UMEM_VALID_MASK                0x10000000U

/* Address path (0x2c bytes), at MLX5X_QPC_PRI_PATH_OFF / _ALT_PATH_OFF. */
#define MLX5X_ADS_FL_OFF                             0x000
#define MLX5X_ADS_FL_MASK                            0x80000000U
#define MLX5X_ADS_FREE_AR_OFF                        0x000
#define MLX5X_ADS_FREE_AR_MASK                       0x40000000U
#define MLX5X_ADS_PKEY_INDEX_OFF                     0x000
#define MLX5X_ADS_PKEY_INDEX_MASK                    0x0000ffffU
#define MLX5X_ADS_GRH_OFF                            0x004
#define MLX5X_ADS_GRH_MASK                           0x00800000U
#define MLX5X_ADS_MLID_OFF                           0x004
#define MLX5X_ADS_MLID_MASK                          0x007f0000U
#define MLX5X_ADS_RLID_OFF                           0x004
#define MLX5X_ADS_RLID_MASK                          0x0000ffffU
#define MLX5X_ADS_ACK_TIMEOUT_OFF                    0x008
#define MLX5X_ADS_ACK_TIMEOUT_MASK                   0xf8000000U
#define MLX5X_ADS_SRC_ADDR_INDEX_OFF                 0x008
#define MLX5X_ADS_SRC_ADDR_INDEX_MASK                0x00ff0000U
#define MLX5X_ADS_STAT_RATE_OFF                      0x008
#define MLX5X_ADS_STAT_RATE_MASK                     0x00000f00U
#define MLX5X_ADS_HOP_LIMIT_OFF                      0x008
#define MLX5X_ADS_HOP_LIMIT_MASK                     0x000000ffU
#define MLX5X_ADS_TCLASS_OFF                         0x00c
#define MLX5X_ADS_TCLASS_MASK                        0x0ff00000U
#define MLX5X_ADS_FLOW_LABEL_OFF                     0x00c
#define MLX5X_ADS_FLOW_LABEL_MASK                    0x000fffffU
#define MLX5X_ADS_RGID_RIP_OFF                       0x010 /* 16 bytes */
#define MLX5X_ADS_SL_OFF                             0x024
#define MLX5X_ADS_SL_MASK                            0x0f000000U
#define MLX5X_ADS_VHCA_PORT_NUM_OFF                  0x024
#define MLX5X_ADS_VHCA_PORT_NUM_MASK                 0x00ff0000U

/* CREATE_QP; the modify commands share the layout of the first 0x110 bytes */
#define MLX5X_CREATE_QP_IN_INPUT_QPN_OFF	0x008
#define MLX5X_CREATE_QP_IN_INPUT_QPN_MASK	0x00ffffffU
#define MLX5X_QP_IN_OPT_PARAM_MASK_OFF		0x010
#define MLX5X_QP_IN_QPC_OFF			0x018
#define MLX5X_CREATE_QP_IN_WQ_UMEM_VALID_OFF	0x10c
#define MLX5X_CREATE_QP_IN_WQ_UMEM_VALID_MASK	0x80000000U
#define MLX5X_CREATE_QP_IN_PAS_OFF		0x110
#define MLX5X_CREATE_QP_OUT_QPN_OFF		0x008
#define MLX5X_CREATE_QP_OUT_QPN_MASK		0x00ffffffU
/* DESTROY_QP, *2*_QP, QUERY_QP inputs */
#define MLX5X_QP_IN_QPN_OFF			0x008
#define MLX5X_QP_IN_QPN_MASK			0x00ffffffU
#define MLX5X_QUERY_QP_OUT_OPT_PARAM_MASK_OFF	0x010
#define MLX5X_QUERY_QP_OUT_QPC_OFF		0x018
#define MLX5X_QUERY_QP_OUT_PAS_OFF		0x110

enum {
	MLX5X_QPC_LEN			= 0xe8,
	MLX5X_ADS_LEN			= 0x2c,
	MLX5X_CREATE_QP_IN_LEN		= 0x110,	/* + 8 per PAS entry */
	MLX5X_CREATE_QP_OUT_LEN		= 0x10,
	MLX5X_QP_MODIFY_IN_LEN		= 0x110,
	MLX5X_QP_MODIFY_OUT_LEN		= 0x10,
	MLX5X_QUERY_QP_OUT_LEN		= 0x110,	/* + 8 per PAS entry */
};

/* qpc.state */
enum mlx5x_qp_state {
	MLX5X_QP_STATE_RST		= 0,
	MLX5X_QP_STATE_INIT		= 1,
	MLX5X_QP_STATE_RTR		= 2,
	MLX5X_QP_STATE_RTS		= 3,
	MLX5X_QP_STATE_SQER		= 4,
	MLX5X_QP_STATE_SQD		= 5,
	MLX5X_QP_STATE_ERR		= 6,
};

/* qpc.st: service type */
enum mlx5x_qp_st {
	MLX5X_QP_ST_RC			= 0x0,
	MLX5X_QP_ST_UC			= 0x1,
	MLX5X_QP_ST_UD			= 0x2,
	MLX5X_QP_ST_XRC			= 0x3,
	MLX5X_QP_ST_MLX			= 0x4,
	MLX5X_QP_ST_DCI			= 0x5,
	MLX5X_QP_ST_DCT			= 0x6,
	MLX5X_QP_ST_QP0			= 0x7,
	MLX5X_QP_ST_QP1			= 0x8,
	MLX5X_QP_ST_REG_UMR		= 0xc,
};

/* qpc.pm_state */
enum {
	MLX5X_QP_PM_ARMED		= 0x0,
	MLX5X_QP_PM_REARM		= 0x1,
	MLX5X_QP_PM_MIGRATED		= 0x3,
};

/* qpc.rq_type */
enum {
	MLX5X_QP_RQ_NON_ZERO		= 0x0,
	MLX5X_QP_RQ_SRQ			= 0x1,
	MLX5X_QP_RQ_CRQ			= 0x2,
	MLX5X_QP_RQ_ZERO_LEN		= 0x3,
};

/* qpc.log_ack_req_freq mlx5_ib sets: an ACK request every 2^8 packets */
#define MLX5X_QP_LOG_ACK_REQ_FREQ	8

/* qpc.mtu */
enum {
	MLX5X_QPC_MTU_256		= 0x1,
	MLX5X_QPC_MTU_512		= 0x2,
	MLX5X_QPC_MTU_1K		= 0x3,
	MLX5X_QPC_MTU_2K		= 0x4,
	MLX5X_QPC_MTU_4K		= 0x5,
};

/* qpc.ts_format (and the cq_timestamp_format of the CQ context) */
#define MLX5X_TS_FORMAT_FREE_RUNNING	0x0
#define MLX5X_TS_FORMAT_DEFAULT		0x1
#define MLX5X_TS_FORMAT_REAL_TIME	0x2

/* qpc.atomic_mode: 0 leaves atomics off; n >= 3 allows 2^n-byte operands */
#define MLX5X_QPC_ATOMIC_MODE_IB_COMP	0x1
#define MLX5X_QPC_ATOMIC_MODE_8B	0x3

/* opt_param_mask bits of the modify commands */
enum mlx5x_qp_optpar {
	MLX5X_QP_OPTPAR_ALT_ADDR_PATH	= 1 << 0,
	MLX5X_QP_OPTPAR_RRE		= 1 << 1,
	MLX5X_QP_OPTPAR_RAE		= 1 << 2,
	MLX5X_QP_OPTPAR_RWE		= 1 << 3,
	MLX5X_QP_OPTPAR_PKEY_INDEX	= 1 << 4,
	MLX5X_QP_OPTPAR_Q_KEY		= 1 << 5,
	MLX5X_QP_OPTPAR_RNR_TIMEOUT	= 1 << 6,
	MLX5X_QP_OPTPAR_PRIMARY_ADDR_PATH = 1 << 7,
	MLX5X_QP_OPTPAR_SRA_MAX		= 1 << 8,
	MLX5X_QP_OPTPAR_RRA_MAX		= 1 << 9,
	MLX5X_QP_OPTPAR_PM_STATE	= 1 << 10,
	MLX5X_QP_OPTPAR_RETRY_COUNT	= 1 << 12,
	MLX5X_QP_OPTPAR_RNR_RETRY	= 1 << 13,
	MLX5X_QP_OPTPAR_ACK_TIMEOUT	= 1 << 14,
	MLX5X_QP_OPTPAR_LAG_TX_AFF	= 1 << 15,
	MLX5X_QP_OPTPAR_PRI_PORT	= 1 << 16,
	MLX5X_QP_OPTPAR_SRQN		= 1 << 18,
	MLX5X_QP_OPTPAR_CQN_RCV		= 1 << 19,
	MLX5X_QP_OPTPAR_COUNTER_SET_ID	= 1 << 25,
};

#endif /* MLX5X_PRM_QP_H */
