/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlx5x PRM layouts: HCA life cycle, ISSI, firmware pages, capabilities,
 * adapter and special contexts.
 *
 * See prm_cmd.h for the naming convention.  Offsets of command fields are
 * relative to the start of the command input or output.
 */
#ifndef MLX5X_PRM_HCA_H
#define MLX5X_PRM_HCA_H

#include <linux/types.h>

/* ENABLE_HCA / DISABLE_HCA (same input layout) */
#define MLX5X_ENABLE_HCA_IN_EMBEDDED_CPU_FUNCTION_OFF	0x008
#define MLX5X_ENABLE_HCA_IN_EMBEDDED_CPU_FUNCTION_MASK	0x80000000U
#define MLX5X_ENABLE_HCA_IN_FUNCTION_ID_OFF		0x008
#define MLX5X_ENABLE_HCA_IN_FUNCTION_ID_MASK		0x0000ffffU

/* QUERY_ISSI / SET_ISSI */
#define MLX5X_QUERY_ISSI_OUT_CURRENT_ISSI_OFF		0x008
#define MLX5X_QUERY_ISSI_OUT_CURRENT_ISSI_MASK		0x0000ffffU
#define MLX5X_QUERY_ISSI_OUT_SUPPORTED_ISSI_DW0_OFF	0x06c	/* bit n: ISSI n */
#define MLX5X_QUERY_ISSI_OUT_SUPPORTED_ISSI_DW0_MASK	0xffffffffU
#define MLX5X_SET_ISSI_IN_CURRENT_ISSI_OFF		0x008
#define MLX5X_SET_ISSI_IN_CURRENT_ISSI_MASK		0x0000ffffU

/* QUERY_PAGES / MANAGE_PAGES (same input layout) */
#define MLX5X_PAGES_IN_EMBEDDED_CPU_FUNCTION_OFF	0x008
#define MLX5X_PAGES_IN_EMBEDDED_CPU_FUNCTION_MASK	0x80000000U
#define MLX5X_PAGES_IN_FUNCTION_ID_OFF			0x008
#define MLX5X_PAGES_IN_FUNCTION_ID_MASK			0x0000ffffU
#define MLX5X_PAGES_IN_INPUT_NUM_ENTRIES_OFF		0x00c
#define MLX5X_PAGES_IN_INPUT_NUM_ENTRIES_MASK		0xffffffffU
#define MLX5X_PAGES_IN_PAS_OFF				0x010	/* 8 bytes each */
#define MLX5X_QUERY_PAGES_OUT_EMBEDDED_CPU_FUNCTION_OFF	0x008
#define MLX5X_QUERY_PAGES_OUT_EMBEDDED_CPU_FUNCTION_MASK 0x80000000U
#define MLX5X_QUERY_PAGES_OUT_FUNCTION_ID_OFF		0x008
#define MLX5X_QUERY_PAGES_OUT_FUNCTION_ID_MASK		0x0000ffffU
#define MLX5X_QUERY_PAGES_OUT_NUM_PAGES_OFF		0x00c
#define MLX5X_QUERY_PAGES_OUT_NUM_PAGES_MASK		0xffffffffU	/* signed */
#define MLX5X_MANAGE_PAGES_OUT_OUTPUT_NUM_ENTRIES_OFF	0x008
#define MLX5X_MANAGE_PAGES_OUT_OUTPUT_NUM_ENTRIES_MASK	0xffffffffU
#define MLX5X_MANAGE_PAGES_OUT_PAS_OFF			0x010	/* 8 bytes each */

/* QUERY_PAGES op_mod */
enum mlx5x_query_pages_mode {
	MLX5X_PAGES_BOOT		= 1,
	MLX5X_PAGES_INIT		= 2,
	MLX5X_PAGES_REGULAR		= 3,
};

/* MANAGE_PAGES op_mod */
enum mlx5x_manage_pages_mode {
	MLX5X_PAGES_CANT_GIVE		= 0,
	MLX5X_PAGES_GIVE		= 1,
	MLX5X_PAGES_TAKE		= 2,
};

enum {
	MLX5X_QUERY_ISSI_OUT_LEN	= 0x70,
	MLX5X_QUERY_PAGES_OUT_LEN	= 0x10,
	MLX5X_MANAGE_PAGES_IN_LEN	= 0x10,	/* + 8 * input_num_entries */
	MLX5X_MANAGE_PAGES_OUT_LEN	= 0x10,	/* + 8 * output_num_entries */
	/* firmware pages are 4 KiB whatever the host page size */
	MLX5X_FW_PAGE_SHIFT		= 12,
	MLX5X_FW_PAGE_SIZE		= 1 << MLX5X_FW_PAGE_SHIFT,
};

/* INIT_HCA / TEARDOWN_HCA */
#define MLX5X_INIT_HCA_IN_SW_VHCA_ID_OFF		0x00c
#define MLX5X_INIT_HCA_IN_SW_VHCA_ID_MASK		0x3fff0000U
#define MLX5X_INIT_HCA_IN_SW_OWNER_ID_OFF		0x010	/* 16 bytes */
#define MLX5X_TEARDOWN_HCA_IN_PROFILE_OFF		0x008
#define MLX5X_TEARDOWN_HCA_IN_PROFILE_MASK		0x0000ffffU
#define MLX5X_TEARDOWN_HCA_OUT_STATE_OFF		0x00c
#define MLX5X_TEARDOWN_HCA_OUT_STATE_MASK		0x00000001U

enum mlx5x_teardown_profile {
	MLX5X_TEARDOWN_GRACEFUL		= 0,
	MLX5X_TEARDOWN_FORCE_CLOSE	= 1,
	MLX5X_TEARDOWN_PREPARE_FAST	= 2,
};

enum {
	MLX5X_INIT_HCA_IN_LEN		= 0x20,
};

/* SET_DRIVER_VERSION */
#define MLX5X_SET_DRIVER_VERSION_IN_VERSION_OFF		0x010	/* 64 bytes */
enum {
	MLX5X_SET_DRIVER_VERSION_IN_LEN	= 0x50,
};

/* QUERY_HCA_CAP / SET_HCA_CAP: op_mod = type << 1 | mode */
#define MLX5X_QUERY_HCA_CAP_IN_OTHER_FUNCTION_OFF	0x008
#define MLX5X_QUERY_HCA_CAP_IN_OTHER_FUNCTION_MASK	0x80000000U
#define MLX5X_QUERY_HCA_CAP_IN_FUNCTION_ID_OFF		0x008
#define MLX5X_QUERY_HCA_CAP_IN_FUNCTION_ID_MASK		0x0000ffffU
#define MLX5X_QUERY_HCA_CAP_OUT_CAP_OFF			0x010
#define MLX5X_SET_HCA_CAP_IN_CAP_OFF			0x010
#define MLX5X_HCA_CAP_OPMOD_MODE_MASK			0x0001U
#define MLX5X_HCA_CAP_OPMOD_TYPE_MASK			0xfffeU

enum mlx5x_cap_mode {
	MLX5X_CAP_MODE_MAX		= 0,
	MLX5X_CAP_MODE_CUR		= 1,
};

enum mlx5x_cap_type {
	MLX5X_CAP_TYPE_GENERAL		= 0x00,
	MLX5X_CAP_TYPE_ETHERNET_OFFLOADS	= 0x01,
	MLX5X_CAP_TYPE_ODP			= 0x02,
	MLX5X_CAP_TYPE_ATOMIC		= 0x03,
	MLX5X_CAP_TYPE_ROCE			= 0x04,
	MLX5X_CAP_TYPE_IPOIB_OFFLOADS	= 0x05,
	MLX5X_CAP_TYPE_IPOIB_ENHANCED	= 0x06,
	MLX5X_CAP_TYPE_FLOW_TABLE		= 0x07,
	MLX5X_CAP_TYPE_ESWITCH_FLOW_TABLE	= 0x08,
	MLX5X_CAP_TYPE_ESWITCH		= 0x09,
	MLX5X_CAP_TYPE_QOS			= 0x0c,
	MLX5X_CAP_TYPE_DEBUG			= 0x0d,
	MLX5X_CAP_TYPE_DEV_MEM		= 0x0f,
	MLX5X_CAP_TYPE_DEV_EVENT		= 0x14,
	MLX5X_CAP_TYPE_GENERAL_2		= 0x20,
	MLX5X_CAP_TYPE_PORT_SELECTION	= 0x25,
	MLX5X_CAP_TYPE_ADV_VIRTUALIZATION	= 0x26,
};

/* RoCE capabilities (QUERY_HCA_CAP type ROCE), read only with cap.roce */
#define MLX5X_ROCE_CAP_QP_TS_FORMAT_OFF			0x000
#define MLX5X_ROCE_CAP_QP_TS_FORMAT_MASK		0x00000003U

/* sq_ts_format, rq_ts_format, roce qp_ts_format: what the device offers */
enum {
	MLX5X_TS_CAP_FREE_RUNNING		= 0x0,
	MLX5X_TS_CAP_REAL_TIME			= 0x1,
	MLX5X_TS_CAP_FREE_RUNNING_AND_REAL_TIME	= 0x2,
};

enum {
	/* capability area of QUERY_HCA_CAP output / SET_HCA_CAP input */
	MLX5X_HCA_CAP_LEN		= 0x1000,
	/* the general capability structure proper */
	MLX5X_HCA_CAP_GENERAL_LEN	= 0x100,
	MLX5X_QUERY_HCA_CAP_IN_LEN	= 0x10,
	MLX5X_QUERY_HCA_CAP_OUT_LEN	= 0x1010,
	MLX5X_SET_HCA_CAP_IN_LEN	= 0x1010,
};

/* port_type */
enum {
	MLX5X_CAP_PORT_TYPE_IB		= 0,
	MLX5X_CAP_PORT_TYPE_ETH		= 1,
};

/*
 * General device capabilities (type 0).  Offsets are relative to the
 * capability structure, i.e. add MLX5X_QUERY_HCA_CAP_OUT_CAP_OFF for the
 * position in a QUERY_HCA_CAP output.
 */
#define MLX5X_CAP_PAGE_REQUEST_DISABLE_OFF           0x000
#define MLX5X_CAP_PAGE_REQUEST_DISABLE_MASK          0x02000000U
#define MLX5X_CAP_HCA_CAP_2_OFF                      0x004
#define MLX5X_CAP_HCA_CAP_2_MASK                     0x80000000U
#define MLX5X_CAP_LOG_MAX_SRQ_SZ_OFF                 0x010
#define MLX5X_CAP_LOG_MAX_SRQ_SZ_MASK                0xff000000U
#define MLX5X_CAP_LOG_MAX_QP_SZ_OFF                  0x010
#define MLX5X_CAP_LOG_MAX_QP_SZ_MASK                 0x00ff0000U
#define MLX5X_CAP_EVENT_CAP_OFF                      0x010
#define MLX5X_CAP_EVENT_CAP_MASK                     0x00008000U
#define MLX5X_CAP_LOG_MAX_QP_OFF                     0x010
#define MLX5X_CAP_LOG_MAX_QP_MASK                    0x0000001fU
#define MLX5X_CAP_LOG_MAX_SRQ_OFF                    0x014
#define MLX5X_CAP_LOG_MAX_SRQ_MASK                   0x001f0000U
#define MLX5X_CAP_LOG_MAX_CQ_SZ_OFF                  0x018
#define MLX5X_CAP_LOG_MAX_CQ_SZ_MASK                 0x00ff0000U
#define MLX5X_CAP_LOG_MAX_CQ_OFF                     0x018
#define MLX5X_CAP_LOG_MAX_CQ_MASK                    0x0000001fU
#define MLX5X_CAP_LOG_MAX_EQ_SZ_OFF                  0x01c
#define MLX5X_CAP_LOG_MAX_EQ_SZ_MASK                 0xff000000U
#define MLX5X_CAP_LOG_MAX_MKEY_OFF                   0x01c
#define MLX5X_CAP_LOG_MAX_MKEY_MASK                  0x003f0000U
#define MLX5X_CAP_LOG_MAX_KLM_LIST_SIZE_OFF          0x020
#define MLX5X_CAP_LOG_MAX_KLM_LIST_SIZE_MASK         0x0000003fU
#define MLX5X_CAP_TERMINATE_SCATTER_LIST_MKEY_OFF    0x01c
#define MLX5X_CAP_TERMINATE_SCATTER_LIST_MKEY_MASK   0x00000200U
#define MLX5X_CAP_DUMP_FILL_MKEY_OFF                 0x01c
#define MLX5X_CAP_DUMP_FILL_MKEY_MASK                0x00000080U
#define MLX5X_CAP_FAST_TEARDOWN_OFF                  0x01c
#define MLX5X_CAP_FAST_TEARDOWN_MASK                 0x00000010U
#define MLX5X_CAP_LOG_MAX_EQ_OFF                     0x01c
#define MLX5X_CAP_LOG_MAX_EQ_MASK                    0x0000000fU
#define MLX5X_CAP_FORCE_TEARDOWN_OFF                 0x020
#define MLX5X_CAP_FORCE_TEARDOWN_MASK                0x00008000U
#define MLX5X_CAP_NULL_MKEY_OFF                      0x020
#define MLX5X_CAP_NULL_MKEY_MASK                     0x00000040U
#define MLX5X_CAP_LOG_MAX_RA_REQ_QP_OFF              0x028
#define MLX5X_CAP_LOG_MAX_RA_REQ_QP_MASK             0x003f0000U
#define MLX5X_CAP_LOG_MAX_RA_RES_QP_OFF              0x028
#define MLX5X_CAP_LOG_MAX_RA_RES_QP_MASK             0x0000003fU
#define MLX5X_CAP_RELEASE_ALL_PAGES_OFF              0x028
#define MLX5X_CAP_RELEASE_ALL_PAGES_MASK             0x04000000U
#define MLX5X_CAP_CACHE_LINE_128BYTE_OFF             0x02c
#define MLX5X_CAP_CACHE_LINE_128BYTE_MASK            0x08000000U
#define MLX5X_CAP_QCAM_REG_OFF                       0x02c
#define MLX5X_CAP_QCAM_REG_MASK                      0x00010000U
#define MLX5X_CAP_GID_TABLE_SIZE_OFF                 0x02c
#define MLX5X_CAP_GID_TABLE_SIZE_MASK                0x0000ffffU
#define MLX5X_CAP_MAX_QP_CNT_OFF                     0x030
#define MLX5X_CAP_MAX_QP_CNT_MASK                    0x03ff0000U
#define MLX5X_CAP_VPORT_COUNTERS_OFF                 0x030
#define MLX5X_CAP_VPORT_COUNTERS_MASK                0x40000000U
#define MLX5X_CAP_DEBUG_OFF                          0x030
#define MLX5X_CAP_DEBUG_MASK                         0x10000000U
#define MLX5X_CAP_PKEY_TABLE_SIZE_OFF                0x030
#define MLX5X_CAP_PKEY_TABLE_SIZE_MASK               0x0000ffffU
#define MLX5X_CAP_VPORT_GROUP_MANAGER_OFF            0x034
#define MLX5X_CAP_VPORT_GROUP_MANAGER_MASK           0x80000000U
#define MLX5X_CAP_IB_VIRT_OFF                        0x034
#define MLX5X_CAP_IB_VIRT_MASK                       0x20000000U
#define MLX5X_CAP_NIC_FLOW_TABLE_OFF                 0x034
#define MLX5X_CAP_NIC_FLOW_TABLE_MASK                0x02000000U
#define MLX5X_CAP_ESWITCH_MANAGER_OFF                0x034
#define MLX5X_CAP_ESWITCH_MANAGER_MASK               0x01000000U
#define MLX5X_CAP_DEVICE_MEMORY_OFF                  0x034
#define MLX5X_CAP_DEVICE_MEMORY_MASK                 0x00800000U
#define MLX5X_CAP_MCAM_REG_OFF                       0x034
#define MLX5X_CAP_MCAM_REG_MASK                      0x00400000U
#define MLX5X_CAP_PCAM_REG_OFF                       0x034
#define MLX5X_CAP_PCAM_REG_MASK                      0x00200000U
#define MLX5X_CAP_LOCAL_CA_ACK_DELAY_OFF             0x034
#define MLX5X_CAP_LOCAL_CA_ACK_DELAY_MASK            0x001f0000U
#define MLX5X_CAP_PORT_MODULE_EVENT_OFF              0x034
#define MLX5X_CAP_PORT_MODULE_EVENT_MASK             0x00008000U
#define MLX5X_CAP_PORT_TYPE_OFF                      0x034
#define MLX5X_CAP_PORT_TYPE_MASK                     0x00000300U
#define MLX5X_CAP_NUM_PORTS_OFF                      0x034
#define MLX5X_CAP_NUM_PORTS_MASK                     0x000000ffU
#define MLX5X_CAP_LOG_MAX_MSG_OFF                    0x038
#define MLX5X_CAP_LOG_MAX_MSG_MASK                   0x1f000000U
#define MLX5X_CAP_TEMP_WARN_EVENT_OFF                0x038
#define MLX5X_CAP_TEMP_WARN_EVENT_MASK               0x00008000U
#define MLX5X_CAP_GENERAL_NOTIFICATION_EVENT_OFF     0x038
#define MLX5X_CAP_GENERAL_NOTIFICATION_EVENT_MASK    0x00002000U
#define MLX5X_CAP_FPGA_OFF                           0x038
#define MLX5X_CAP_FPGA_MASK                          0x00000400U
#define MLX5X_CAP_STAT_RATE_SUPPORT_OFF              0x03c
#define MLX5X_CAP_STAT_RATE_SUPPORT_MASK             0xffff0000U
#define MLX5X_CAP_CQE_VERSION_OFF                    0x03c
#define MLX5X_CAP_CQE_VERSION_MASK                   0x0000000fU
#define MLX5X_CAP_STRIDING_RQ_OFF                    0x040
#define MLX5X_CAP_STRIDING_RQ_MASK                   0x40000000U
#define MLX5X_CAP_IPOIB_ENHANCED_OFFLOADS_OFF        0x040
#define MLX5X_CAP_IPOIB_ENHANCED_OFFLOADS_MASK       0x10000000U
#define MLX5X_CAP_IPOIB_BASIC_OFFLOADS_OFF           0x040
#define MLX5X_CAP_IPOIB_BASIC_OFFLOADS_MASK          0x08000000U
#define MLX5X_CAP_UMR_MODIFY_ENTITY_SIZE_DISABLED_OFF 0x040
#define MLX5X_CAP_UMR_MODIFY_ENTITY_SIZE_DISABLED_MASK 0x01000000U
#define MLX5X_CAP_UMR_MODIFY_ATOMIC_DISABLED_OFF     0x040
#define MLX5X_CAP_UMR_MODIFY_ATOMIC_DISABLED_MASK    0x00800000U
#define MLX5X_CAP_UMR_FENCE_OFF                      0x040 /* bits 0x20a-0x20b */
#define MLX5X_CAP_UMR_FENCE_MASK                     0x00300000U
#define MLX5X_CAP_CMDIF_CHECKSUM_OFF                 0x040
#define MLX5X_CAP_CMDIF_CHECKSUM_MASK                0x0000c000U
#define MLX5X_CAP_DCT_OFF                            0x040
#define MLX5X_CAP_DCT_MASK                           0x00000020U
#define MLX5X_CAP_QOS_OFF                            0x040
#define MLX5X_CAP_QOS_MASK                           0x00000010U
#define MLX5X_CAP_ETH_NET_OFFLOADS_OFF               0x040
#define MLX5X_CAP_ETH_NET_OFFLOADS_MASK              0x00000008U
#define MLX5X_CAP_ROCE_OFF                           0x040
#define MLX5X_CAP_ROCE_MASK                          0x00000004U
#define MLX5X_CAP_ATOMIC_OFF                         0x040
#define MLX5X_CAP_ATOMIC_MASK                        0x00000002U
#define MLX5X_CAP_CQ_OI_OFF                          0x044
#define MLX5X_CAP_CQ_OI_MASK                         0x80000000U
#define MLX5X_CAP_CQ_RESIZE_OFF                      0x044
#define MLX5X_CAP_CQ_RESIZE_MASK                     0x40000000U
#define MLX5X_CAP_CQ_MODERATION_OFF                  0x044
#define MLX5X_CAP_CQ_MODERATION_MASK                 0x20000000U
#define MLX5X_CAP_PG_OFF                             0x044
#define MLX5X_CAP_PG_MASK                            0x01000000U
#define MLX5X_CAP_BLOCK_LB_MC_OFF                    0x044
#define MLX5X_CAP_BLOCK_LB_MC_MASK                   0x00800000U
#define MLX5X_CAP_CD_OFF                             0x044
#define MLX5X_CAP_CD_MASK                            0x00080000U
#define MLX5X_CAP_APM_OFF                            0x044
#define MLX5X_CAP_APM_MASK                           0x00020000U
#define MLX5X_CAP_IMAICL_OFF                         0x044
#define MLX5X_CAP_IMAICL_MASK                        0x00004000U
#define MLX5X_CAP_QKV_OFF                            0x044
#define MLX5X_CAP_QKV_MASK                           0x00000200U
#define MLX5X_CAP_PKV_OFF                            0x044
#define MLX5X_CAP_PKV_MASK                           0x00000100U
#define MLX5X_CAP_SET_DETH_SQPN_OFF                  0x044
#define MLX5X_CAP_SET_DETH_SQPN_MASK                 0x00000080U
#define MLX5X_CAP_XRC_OFF                            0x044
#define MLX5X_CAP_XRC_MASK                           0x00000008U
#define MLX5X_CAP_UD_OFF                             0x044
#define MLX5X_CAP_UD_MASK                            0x00000004U
#define MLX5X_CAP_UC_OFF                             0x044
#define MLX5X_CAP_UC_MASK                            0x00000002U
#define MLX5X_CAP_RC_OFF                             0x044
#define MLX5X_CAP_RC_MASK                            0x00000001U
#define MLX5X_CAP_UAR_4K_OFF                         0x048
#define MLX5X_CAP_UAR_4K_MASK                        0x80000000U
#define MLX5X_CAP_PORT_SELECTION_CAP_OFF             0x048
#define MLX5X_CAP_PORT_SELECTION_CAP_MASK            0x00008000U
#define MLX5X_CAP_UMEM_UID_0_OFF                     0x048
#define MLX5X_CAP_UMEM_UID_0_MASK                    0x00002000U
#define MLX5X_CAP_LOG_PG_SZ_OFF                      0x048
#define MLX5X_CAP_LOG_PG_SZ_MASK                     0x000000ffU
#define MLX5X_CAP_BF_OFF                             0x04c
#define MLX5X_CAP_BF_MASK                            0x80000000U
#define MLX5X_CAP_DRIVER_VERSION_OFF                 0x04c
#define MLX5X_CAP_DRIVER_VERSION_MASK                0x40000000U
#define MLX5X_CAP_MKEY_BY_NAME_OFF                   0x04c
#define MLX5X_CAP_MKEY_BY_NAME_MASK                  0x02000000U
#define MLX5X_CAP_LOG_BF_REG_SIZE_OFF                0x04c
#define MLX5X_CAP_LOG_BF_REG_SIZE_MASK               0x001f0000U
#define MLX5X_CAP_LAG_MASTER_OFF                     0x04c
#define MLX5X_CAP_LAG_MASTER_MASK                    0x00000010U
#define MLX5X_CAP_NUM_LAG_PORTS_OFF                  0x04c
#define MLX5X_CAP_NUM_LAG_PORTS_MASK                 0x0000000fU
#define MLX5X_CAP_MAX_WQE_SZ_SQ_OFF                  0x050
#define MLX5X_CAP_MAX_WQE_SZ_SQ_MASK                 0x0000ffffU
#define MLX5X_CAP_MAX_WQE_SZ_RQ_OFF                  0x054
#define MLX5X_CAP_MAX_WQE_SZ_RQ_MASK                 0x0000ffffU
#define MLX5X_CAP_MAX_QP_MCG_OFF                     0x05c
#define MLX5X_CAP_MAX_QP_MCG_MASK                    0x01ffffffU
#define MLX5X_CAP_LOG_MAX_MCG_OFF                    0x060
#define MLX5X_CAP_LOG_MAX_MCG_MASK                   0x000000ffU
#define MLX5X_CAP_LOG_MAX_TRANSPORT_DOMAIN_OFF       0x064
#define MLX5X_CAP_LOG_MAX_TRANSPORT_DOMAIN_MASK      0x1f000000U
#define MLX5X_CAP_LOG_MAX_PD_OFF                     0x064
#define MLX5X_CAP_LOG_MAX_PD_MASK                    0x001f0000U
#define MLX5X_CAP_LOG_MAX_XRCD_OFF                   0x064
#define MLX5X_CAP_LOG_MAX_XRCD_MASK                  0x0000001fU
#define MLX5X_CAP_LOG_MAX_RQ_OFF                     0x06c
#define MLX5X_CAP_LOG_MAX_RQ_MASK                    0x1f000000U
#define MLX5X_CAP_LOG_MAX_SQ_OFF                     0x06c
#define MLX5X_CAP_LOG_MAX_SQ_MASK                    0x001f0000U
#define MLX5X_CAP_ROCE_RW_SUPPORTED_OFF              0x074
#define MLX5X_CAP_ROCE_RW_SUPPORTED_MASK             0x40000000U
#define MLX5X_CAP_VHCA_STATE_OFF                     0x07c
#define MLX5X_CAP_VHCA_STATE_MASK                    0x00200000U
#define MLX5X_CAP_LOG_MAX_CURRENT_UC_LIST_OFF        0x07c
#define MLX5X_CAP_LOG_MAX_CURRENT_UC_LIST_MASK       0x0000001fU
#define MLX5X_CAP_GENERAL_OBJ_TYPES_OFF              0x080 /* 8 bytes */
#define MLX5X_CAP_SQ_TS_FORMAT_OFF                   0x088
#define MLX5X_CAP_SQ_TS_FORMAT_MASK                  0xc0000000U
#define MLX5X_CAP_RQ_TS_FORMAT_OFF                   0x088
#define MLX5X_CAP_RQ_TS_FORMAT_MASK                  0x30000000U
#define MLX5X_CAP_LOG_MAX_UCTX_OFF                   0x08c
#define MLX5X_CAP_LOG_MAX_UCTX_MASK                  0x1f000000U
#define MLX5X_CAP_CRYPTO_OFF                         0x08c
#define MLX5X_CAP_CRYPTO_MASK                        0x00400000U
#define MLX5X_CAP_IPSEC_OFFLOAD_OFF                  0x08c
#define MLX5X_CAP_IPSEC_OFFLOAD_MASK                 0x00200000U
#define MLX5X_CAP_MAX_NUM_EQS_OFF                    0x08c
#define MLX5X_CAP_MAX_NUM_EQS_MASK                   0x0000ffffU
#define MLX5X_CAP_TLS_TX_OFF                         0x090
#define MLX5X_CAP_TLS_TX_MASK                        0x40000000U
#define MLX5X_CAP_TLS_RX_OFF                         0x090
#define MLX5X_CAP_TLS_RX_MASK                        0x20000000U
#define MLX5X_CAP_LOG_UAR_PAGE_SZ_OFF                0x090
#define MLX5X_CAP_LOG_UAR_PAGE_SZ_MASK               0x0000ffffU
#define MLX5X_CAP_DEVICE_FREQUENCY_MHZ_OFF           0x098
#define MLX5X_CAP_DEVICE_FREQUENCY_MHZ_MASK          0xffffffffU
#define MLX5X_CAP_DEVICE_FREQUENCY_KHZ_OFF           0x09c
#define MLX5X_CAP_DEVICE_FREQUENCY_KHZ_MASK          0xffffffffU
#define MLX5X_CAP_NUM_OF_UARS_PER_PAGE_OFF           0x0a4
#define MLX5X_CAP_NUM_OF_UARS_PER_PAGE_MASK          0xffffffffU
#define MLX5X_CAP_ADV_VIRTUALIZATION_OFF             0x0ac
#define MLX5X_CAP_ADV_VIRTUALIZATION_MASK            0x00000040U
#define MLX5X_CAP_CQE_128_ALWAYS_OFF                 0x0b4
#define MLX5X_CAP_CQE_128_ALWAYS_MASK                0x00000004U
#define MLX5X_CAP_CQE_COMPRESSION_OFF                0x0b4
#define MLX5X_CAP_CQE_COMPRESSION_MASK               0x00000001U
#define MLX5X_CAP_TAG_MATCHING_OFF                   0x0bc
#define MLX5X_CAP_TAG_MATCHING_MASK                  0x00008000U
#define MLX5X_CAP_NUM_VHCA_PORTS_OFF                 0x0c0
#define MLX5X_CAP_NUM_VHCA_PORTS_MASK                0x0000ff00U
#define MLX5X_CAP_SW_OWNER_ID_OFF                    0x0c0
#define MLX5X_CAP_SW_OWNER_ID_MASK                   0x00000002U
#define MLX5X_CAP_SF_OFF                             0x0d0
#define MLX5X_CAP_SF_MASK                            0x80000000U
#define MLX5X_CAP_LOG_MAX_SF_OFF                     0x0d0
#define MLX5X_CAP_LOG_MAX_SF_MASK                    0x1f000000U
#define MLX5X_CAP_NUM_TOTAL_DYNAMIC_VF_MSIX_OFF      0x0e0
#define MLX5X_CAP_NUM_TOTAL_DYNAMIC_VF_MSIX_MASK     0x00ffffffU
#define MLX5X_CAP_DATA_DIRECT_OFF                    0x0e8
#define MLX5X_CAP_DATA_DIRECT_MASK                   0x00002000U

/* QUERY_ADAPTER */
#define MLX5X_QUERY_ADAPTER_OUT_IEEE_VENDOR_ID_OFF	0x028
#define MLX5X_QUERY_ADAPTER_OUT_IEEE_VENDOR_ID_MASK	0x00ffffffU
#define MLX5X_QUERY_ADAPTER_OUT_VSD_VENDOR_ID_OFF	0x02c
#define MLX5X_QUERY_ADAPTER_OUT_VSD_VENDOR_ID_MASK	0x0000ffffU
#define MLX5X_QUERY_ADAPTER_OUT_VSD_OFF			0x030	/* 208 bytes */
#define MLX5X_QUERY_ADAPTER_OUT_PSID_OFF		0x100	/* 16 bytes */
enum {
	MLX5X_QUERY_ADAPTER_OUT_LEN	= 0x110,
	MLX5X_QUERY_ADAPTER_VSD_LEN	= 208,
	MLX5X_QUERY_ADAPTER_PSID_LEN	= 16,
};

/* QUERY_SPECIAL_CONTEXTS */
#define MLX5X_QUERY_SPECIAL_CONTEXTS_OUT_DUMP_FILL_MKEY_OFF	0x008
#define MLX5X_QUERY_SPECIAL_CONTEXTS_OUT_RESD_LKEY_OFF		0x00c
#define MLX5X_QUERY_SPECIAL_CONTEXTS_OUT_NULL_MKEY_OFF		0x010
#define MLX5X_QUERY_SPECIAL_CONTEXTS_OUT_TERMINATE_SCATTER_MKEY_OFF 0x014
#define MLX5X_QUERY_SPECIAL_CONTEXTS_OUT_REPEATED_MKEY_OFF	0x018
enum {
	MLX5X_QUERY_SPECIAL_CONTEXTS_OUT_LEN	= 0x20,
};

/* umr_fence: what a UMR WQE on a send queue must be fenced with */
enum {
	MLX5X_CAP_UMR_FENCE_STRONG	= 0,
	MLX5X_CAP_UMR_FENCE_SMALL	= 1,
	MLX5X_CAP_UMR_FENCE_NONE	= 2,
};

#endif /* MLX5X_PRM_HCA_H */
