/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlx5x PRM layouts: HCA vport context, GID and P_Key tables, and the
 * access registers an InfiniBand port uses.
 *
 * See prm_cmd.h for the naming convention.
 */
#ifndef MLX5X_PRM_PORT_H
#define MLX5X_PRM_PORT_H

#include <linux/types.h>

/* HCA vport context (0x200 bytes). */
#define MLX5X_HVC_FIELD_SELECT_OFF                   0x000
#define MLX5X_HVC_FIELD_SELECT_MASK                  0xffffffffU
#define MLX5X_HVC_SM_VIRT_AWARE_OFF                  0x020
#define MLX5X_HVC_SM_VIRT_AWARE_MASK                 0x80000000U
#define MLX5X_HVC_HAS_SMI_OFF                        0x020
#define MLX5X_HVC_HAS_SMI_MASK                       0x40000000U
#define MLX5X_HVC_HAS_RAW_OFF                        0x020
#define MLX5X_HVC_HAS_RAW_MASK                       0x20000000U
#define MLX5X_HVC_GRH_REQUIRED_OFF                   0x020
#define MLX5X_HVC_GRH_REQUIRED_MASK                  0x10000000U
#define MLX5X_HVC_NUM_PORT_PLANE_OFF                 0x020
#define MLX5X_HVC_NUM_PORT_PLANE_MASK                0x00ff0000U
#define MLX5X_HVC_PORT_PHYSICAL_STATE_OFF            0x020
#define MLX5X_HVC_PORT_PHYSICAL_STATE_MASK           0x0000f000U
#define MLX5X_HVC_VPORT_STATE_POLICY_OFF             0x020
#define MLX5X_HVC_VPORT_STATE_POLICY_MASK            0x00000f00U
#define MLX5X_HVC_PORT_STATE_OFF                     0x020
#define MLX5X_HVC_PORT_STATE_MASK                    0x000000f0U
#define MLX5X_HVC_VPORT_STATE_OFF                    0x020
#define MLX5X_HVC_VPORT_STATE_MASK                   0x0000000fU
#define MLX5X_HVC_SYSTEM_IMAGE_GUID_OFF              0x028 /* 8 bytes */
#define MLX5X_HVC_PORT_GUID_OFF                      0x030 /* 8 bytes */
#define MLX5X_HVC_NODE_GUID_OFF                      0x038 /* 8 bytes */
#define MLX5X_HVC_CAP_MASK1_OFF                      0x040
#define MLX5X_HVC_CAP_MASK1_MASK                     0xffffffffU
#define MLX5X_HVC_CAP_MASK1_FIELD_SELECT_OFF         0x044
#define MLX5X_HVC_CAP_MASK1_FIELD_SELECT_MASK        0xffffffffU
#define MLX5X_HVC_CAP_MASK2_OFF                      0x048
#define MLX5X_HVC_CAP_MASK2_MASK                     0xffffffffU
#define MLX5X_HVC_CAP_MASK2_FIELD_SELECT_OFF         0x04c
#define MLX5X_HVC_CAP_MASK2_FIELD_SELECT_MASK        0xffffffffU
#define MLX5X_HVC_LID_OFF                            0x060
#define MLX5X_HVC_LID_MASK                           0xffff0000U
#define MLX5X_HVC_INIT_TYPE_REPLY_OFF                0x060
#define MLX5X_HVC_INIT_TYPE_REPLY_MASK               0x00000f00U
#define MLX5X_HVC_LMC_OFF                            0x060
#define MLX5X_HVC_LMC_MASK                           0x000000e0U
#define MLX5X_HVC_SUBNET_TIMEOUT_OFF                 0x060
#define MLX5X_HVC_SUBNET_TIMEOUT_MASK                0x0000001fU
#define MLX5X_HVC_SM_LID_OFF                         0x064
#define MLX5X_HVC_SM_LID_MASK                        0xffff0000U
#define MLX5X_HVC_SM_SL_OFF                          0x064
#define MLX5X_HVC_SM_SL_MASK                         0x0000f000U
#define MLX5X_HVC_QKEY_VIOLATION_COUNTER_OFF         0x068
#define MLX5X_HVC_QKEY_VIOLATION_COUNTER_MASK        0xffff0000U
#define MLX5X_HVC_PKEY_VIOLATION_COUNTER_OFF         0x068
#define MLX5X_HVC_PKEY_VIOLATION_COUNTER_MASK        0x0000ffffU

/* field_select bits of MODIFY_HCA_VPORT_CONTEXT */
enum {
	MLX5X_HVC_SEL_PORT_GUID		= 1 << 0,
	MLX5X_HVC_SEL_NODE_GUID		= 1 << 1,
	MLX5X_HVC_SEL_STATE_POLICY	= 1 << 2,
};

/* vport_state / port_state and port_physical_state */
enum {
	MLX5X_PORT_STATE_DOWN		= 1,
	MLX5X_PORT_STATE_INIT		= 2,
	MLX5X_PORT_STATE_ARMED		= 3,
	MLX5X_PORT_STATE_ACTIVE		= 4,
	MLX5X_PORT_PHYS_POLLING		= 2,
	MLX5X_PORT_PHYS_DISABLED	= 3,
	MLX5X_PORT_PHYS_LINK_UP		= 5,
};

/*
 * QUERY_HCA_VPORT_CONTEXT, MODIFY_HCA_VPORT_CONTEXT, QUERY_HCA_VPORT_GID
 * and QUERY_HCA_VPORT_PKEY share the vport selector in input word 2.
 */
#define MLX5X_HCA_VPORT_IN_OTHER_VPORT_OFF	0x008
#define MLX5X_HCA_VPORT_IN_OTHER_VPORT_MASK	0x80000000U
#define MLX5X_HCA_VPORT_IN_PORT_NUM_OFF		0x008
#define MLX5X_HCA_VPORT_IN_PORT_NUM_MASK	0x000f0000U
#define MLX5X_HCA_VPORT_IN_VPORT_NUMBER_OFF	0x008
#define MLX5X_HCA_VPORT_IN_VPORT_NUMBER_MASK	0x0000ffffU
/* gid_index / pkey_index; 0xffff asks for the whole table */
#define MLX5X_HCA_VPORT_IN_INDEX_OFF		0x00c
#define MLX5X_HCA_VPORT_IN_INDEX_MASK		0x0000ffffU
#define MLX5X_HCA_VPORT_CONTEXT_OFF		0x010	/* in query out / modify in */
#define MLX5X_QUERY_HCA_VPORT_GID_OUT_GIDS_NUM_OFF  0x00c
#define MLX5X_QUERY_HCA_VPORT_GID_OUT_GIDS_NUM_MASK 0xffff0000U
#define MLX5X_QUERY_HCA_VPORT_GID_OUT_GID_OFF	0x010	/* 16 bytes each */
#define MLX5X_QUERY_HCA_VPORT_PKEY_OUT_PKEY_OFF	0x010	/* 4 bytes each */
#define MLX5X_PKEY_ENTRY_PKEY_MASK		0x0000ffffU

enum {
	MLX5X_HVC_LEN				= 0x200,
	MLX5X_QUERY_HCA_VPORT_CONTEXT_IN_LEN	= 0x10,
	MLX5X_QUERY_HCA_VPORT_CONTEXT_OUT_LEN	= 0x210,
	MLX5X_MODIFY_HCA_VPORT_CONTEXT_IN_LEN	= 0x210,
	MLX5X_QUERY_HCA_VPORT_GID_OUT_LEN	= 0x10,	/* + 16 per GID */
	MLX5X_QUERY_HCA_VPORT_PKEY_OUT_LEN	= 0x10,	/* + 4 per P_Key */
	MLX5X_GID_LEN				= 16,
	MLX5X_PKEY_ENTRY_LEN			= 4,
	MLX5X_HCA_VPORT_ALL_ENTRIES		= 0xffff,
};

/* ACCESS_REG: op_mod 0 writes, 1 reads; register data follows at 0x10 */
#define MLX5X_ACCESS_REG_IN_REGISTER_ID_OFF	0x008
#define MLX5X_ACCESS_REG_IN_REGISTER_ID_MASK	0x0000ffffU
#define MLX5X_ACCESS_REG_IN_ARGUMENT_OFF	0x00c
#define MLX5X_ACCESS_REG_DATA_OFF		0x010	/* in input and output */

enum {
	MLX5X_ACCESS_REG_WRITE		= 0,
	MLX5X_ACCESS_REG_READ		= 1,
	MLX5X_ACCESS_REG_HDR_LEN	= 0x10,
};

enum mlx5x_reg_id {
	MLX5X_REG_QCAM			= 0x4019,
	MLX5X_REG_PCAP			= 0x5001,
	MLX5X_REG_PMTU			= 0x5003,
	MLX5X_REG_PTYS			= 0x5004,
	MLX5X_REG_PAOS			= 0x5006,
	MLX5X_REG_PPCNT			= 0x5008,
	MLX5X_REG_PVLC			= 0x500f,
	MLX5X_REG_PCAM			= 0x507f,
	MLX5X_REG_NODE_DESC		= 0x6001,
	MLX5X_REG_HOST_ENDIANNESS	= 0x7004,
	MLX5X_REG_MCAM			= 0x907f,
	MLX5X_REG_DTOR			= 0xc00e,
};

/* PTYS: port type and speed (0x40 bytes) */
#define MLX5X_PTYS_AN_DISABLE_ADMIN_OFF              0x000
#define MLX5X_PTYS_AN_DISABLE_ADMIN_MASK             0x40000000U
#define MLX5X_PTYS_AN_DISABLE_CAP_OFF                0x000
#define MLX5X_PTYS_AN_DISABLE_CAP_MASK               0x20000000U
#define MLX5X_PTYS_LOCAL_PORT_OFF                    0x000
#define MLX5X_PTYS_LOCAL_PORT_MASK                   0x00ff0000U
#define MLX5X_PTYS_PLANE_IND_OFF                     0x000
#define MLX5X_PTYS_PLANE_IND_MASK                    0x000000f0U
#define MLX5X_PTYS_PROTO_MASK_OFF                    0x000
#define MLX5X_PTYS_PROTO_MASK_MASK                   0x00000007U
#define MLX5X_PTYS_AN_STATUS_OFF                     0x004
#define MLX5X_PTYS_AN_STATUS_MASK                    0xf0000000U
#define MLX5X_PTYS_DATA_RATE_OPER_OFF                0x004
#define MLX5X_PTYS_DATA_RATE_OPER_MASK               0x0000ffffU
#define MLX5X_PTYS_EXT_ETH_PROTO_CAPABILITY_OFF      0x008
#define MLX5X_PTYS_EXT_ETH_PROTO_CAPABILITY_MASK     0xffffffffU
#define MLX5X_PTYS_ETH_PROTO_CAPABILITY_OFF          0x00c
#define MLX5X_PTYS_ETH_PROTO_CAPABILITY_MASK         0xffffffffU
#define MLX5X_PTYS_IB_LINK_WIDTH_CAPABILITY_OFF      0x010
#define MLX5X_PTYS_IB_LINK_WIDTH_CAPABILITY_MASK     0xffff0000U
#define MLX5X_PTYS_IB_PROTO_CAPABILITY_OFF           0x010
#define MLX5X_PTYS_IB_PROTO_CAPABILITY_MASK          0x0000ffffU
#define MLX5X_PTYS_EXT_ETH_PROTO_ADMIN_OFF           0x014
#define MLX5X_PTYS_EXT_ETH_PROTO_ADMIN_MASK          0xffffffffU
#define MLX5X_PTYS_ETH_PROTO_ADMIN_OFF               0x018
#define MLX5X_PTYS_ETH_PROTO_ADMIN_MASK              0xffffffffU
#define MLX5X_PTYS_IB_LINK_WIDTH_ADMIN_OFF           0x01c
#define MLX5X_PTYS_IB_LINK_WIDTH_ADMIN_MASK          0xffff0000U
#define MLX5X_PTYS_IB_PROTO_ADMIN_OFF                0x01c
#define MLX5X_PTYS_IB_PROTO_ADMIN_MASK               0x0000ffffU
#define MLX5X_PTYS_EXT_ETH_PROTO_OPER_OFF            0x020
#define MLX5X_PTYS_EXT_ETH_PROTO_OPER_MASK           0xffffffffU
#define MLX5X_PTYS_ETH_PROTO_OPER_OFF                0x024
#define MLX5X_PTYS_ETH_PROTO_OPER_MASK               0xffffffffU
#define MLX5X_PTYS_IB_LINK_WIDTH_OPER_OFF            0x028
#define MLX5X_PTYS_IB_LINK_WIDTH_OPER_MASK           0xffff0000U
#define MLX5X_PTYS_IB_PROTO_OPER_OFF                 0x028
#define MLX5X_PTYS_IB_PROTO_OPER_MASK                0x0000ffffU
#define MLX5X_PTYS_CONNECTOR_TYPE_OFF                0x02c
#define MLX5X_PTYS_CONNECTOR_TYPE_MASK               0x0000000fU

/* PTYS proto_mask and IB link width / speed encodings */
enum {
	MLX5X_PTYS_PROTO_IB		= 1 << 0,
	MLX5X_PTYS_PROTO_EN		= 1 << 2,
	MLX5X_PTYS_WIDTH_1X		= 1 << 0,
	MLX5X_PTYS_WIDTH_2X		= 1 << 1,
	MLX5X_PTYS_WIDTH_4X		= 1 << 2,
	MLX5X_PTYS_WIDTH_8X		= 1 << 3,
	MLX5X_PTYS_WIDTH_12X		= 1 << 4,
	MLX5X_PTYS_SPEED_SDR		= 1 << 0,
	MLX5X_PTYS_SPEED_DDR		= 1 << 1,
	MLX5X_PTYS_SPEED_QDR		= 1 << 2,
	MLX5X_PTYS_SPEED_FDR10		= 1 << 3,
	MLX5X_PTYS_SPEED_FDR		= 1 << 4,
	MLX5X_PTYS_SPEED_EDR		= 1 << 5,
	MLX5X_PTYS_SPEED_HDR		= 1 << 6,
};

/* PMTU: MTUs in bytes (0x10 bytes) */
#define MLX5X_PMTU_LOCAL_PORT_OFF                    0x000
#define MLX5X_PMTU_LOCAL_PORT_MASK                   0x00ff0000U
#define MLX5X_PMTU_MAX_MTU_OFF                       0x004
#define MLX5X_PMTU_MAX_MTU_MASK                      0xffff0000U
#define MLX5X_PMTU_ADMIN_MTU_OFF                     0x008
#define MLX5X_PMTU_ADMIN_MTU_MASK                    0xffff0000U
#define MLX5X_PMTU_OPER_MTU_OFF                      0x00c
#define MLX5X_PMTU_OPER_MTU_MASK                     0xffff0000U

/* PVLC: virtual lanes (0x10 bytes); vl_hw_cap is 1, 2, 4, 8 or 15 */
#define MLX5X_PVLC_LOCAL_PORT_OFF                    0x000
#define MLX5X_PVLC_LOCAL_PORT_MASK                   0x00ff0000U
#define MLX5X_PVLC_VL_HW_CAP_OFF                     0x004
#define MLX5X_PVLC_VL_HW_CAP_MASK                    0x0000000fU
#define MLX5X_PVLC_VL_ADMIN_OFF                      0x008
#define MLX5X_PVLC_VL_ADMIN_MASK                     0x0000000fU
#define MLX5X_PVLC_VL_OPERATIONAL_OFF                0x00c
#define MLX5X_PVLC_VL_OPERATIONAL_MASK               0x0000000fU

/* HOST_ENDIANNESS (0x10 bytes): he = 0 on little-endian hosts */
#define MLX5X_HOST_ENDIANNESS_HE_OFF	0x000
#define MLX5X_HOST_ENDIANNESS_HE_MASK	0x80000000U

/* PPCNT: port counters (0x100 bytes); grp selects the counter group */
#define MLX5X_PPCNT_LOCAL_PORT_OFF	0x000
#define MLX5X_PPCNT_LOCAL_PORT_MASK	0x00ff0000U
#define MLX5X_PPCNT_GRP_OFF		0x000
#define MLX5X_PPCNT_GRP_MASK		0x0000003fU
#define MLX5X_PPCNT_CLR_OFF		0x004
#define MLX5X_PPCNT_CLR_MASK		0x80000000U
#define MLX5X_PPCNT_COUNTER_SET_OFF	0x008	/* 248 bytes */

/*
 * QUERY_VPORT_COUNTER: traffic counters of the vport, each a pair of
 * 64-bit big-endian {packets, octets}.
 */
#define MLX5X_QUERY_VPORT_COUNTER_IN_CLEAR_OFF		0x018
#define MLX5X_QUERY_VPORT_COUNTER_IN_CLEAR_MASK		0x80000000U
#define MLX5X_VPORT_COUNTER_RX_ERRORS_OFF		0x010
#define MLX5X_VPORT_COUNTER_TX_ERRORS_OFF		0x020
#define MLX5X_VPORT_COUNTER_RX_IB_UNICAST_OFF		0x030
#define MLX5X_VPORT_COUNTER_TX_IB_UNICAST_OFF		0x040
#define MLX5X_VPORT_COUNTER_RX_IB_MULTICAST_OFF		0x050
#define MLX5X_VPORT_COUNTER_TX_IB_MULTICAST_OFF		0x060

enum {
	MLX5X_QUERY_VPORT_COUNTER_IN_LEN	= 0x20,
	MLX5X_QUERY_VPORT_COUNTER_OUT_LEN	= 0x210,
	MLX5X_REG_PPCNT_LEN		= 0x100,
};

enum {
	MLX5X_REG_PTYS_LEN		= 0x40,
	MLX5X_REG_PMTU_LEN		= 0x10,
	MLX5X_REG_PVLC_LEN		= 0x10,
	MLX5X_REG_HOST_ENDIANNESS_LEN	= 0x10,
	MLX5X_REG_NODE_DESC_LEN		= 0x40,	/* the node description */
};

/* PCAP: port capability mask (0x14 bytes); word 0 is PortInfo.CapabilityMask */
#define MLX5X_PCAP_LOCAL_PORT_OFF	0x000
#define MLX5X_PCAP_LOCAL_PORT_MASK	0x00ff0000U
#define MLX5X_PCAP_CAP_MASK0_OFF	0x004
#define MLX5X_PCAP_CAP_MASK0_MASK	0xffffffffU

/*
 * MAD_IFC: a MAD for the firmware's SMA/PMA.  op_mod bit 0 ignores the
 * M_Key check, bit 1 the B_Key check; the 256-byte request MAD is at
 * 0x10 of the input, the response MAD at 0x10 of the output.
 */
#define MLX5X_MAD_IFC_IN_REMOTE_LID_OFF		0x008
#define MLX5X_MAD_IFC_IN_REMOTE_LID_MASK	0xffff0000U
#define MLX5X_MAD_IFC_IN_PLANE_INDEX_OFF	0x008
#define MLX5X_MAD_IFC_IN_PLANE_INDEX_MASK	0x0000ff00U
#define MLX5X_MAD_IFC_IN_PORT_OFF		0x008
#define MLX5X_MAD_IFC_IN_PORT_MASK		0x000000ffU
#define MLX5X_MAD_IFC_IN_MAD_OFF		0x010
#define MLX5X_MAD_IFC_OUT_MAD_OFF		0x010

/* ATTACH_TO_MCG / DETACH_FROM_MCG: a UD QP and a multicast GID */
#define MLX5X_MCG_IN_QPN_OFF			0x008
#define MLX5X_MCG_IN_QPN_MASK			0x00ffffffU
#define MLX5X_MCG_IN_MGID_OFF			0x010	/* 16 bytes */

enum {
	MLX5X_REG_PCAP_LEN		= 0x14,
	MLX5X_MAD_IFC_IGNORE_MKEY	= 1 << 0,
	MLX5X_MAD_IFC_IGNORE_BKEY	= 1 << 1,
	MLX5X_MAD_LEN			= 256,
	MLX5X_MAD_IFC_IN_LEN		= 0x110,
	MLX5X_MAD_IFC_OUT_LEN		= 0x110,
	MLX5X_MCG_IN_LEN		= 0x20,
};

#endif /* MLX5X_PRM_PORT_H */
