// SPDX-License-Identifier: GPL-2.0-only
/*
 * Typed firmware commands of the verbs layer.  Each wrapper builds its
 * input box from a host-order parameter structure, runs it through the
 * command engine and decodes the output; the encoders and decoders of
 * the object contexts (mkc, cqc, qpc) are separate pure functions so the
 * KUnit suites can check them bit by bit.
 */
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_umem.h>
#include <rdma/iter.h>

#include <mlx5x/prm_wqe.h>

#include "cmd.h"
#include "fw_cmds.h"
#include "fw_verbs.h"

/* the largest atomic operand mlx5_ib knows a mode for: 256 bytes */
#define MLX5X_ATOMIC_MODE_MAX		8

/* qpc.pm_state of a QP without alternate path: migrated */
#define MLX5X_QP_PM_STATE_MIGRATED	3

/* 64-bit big-endian device fields (addresses, lengths, GUIDs). */
static void fw_set64(void *buf, size_t off, u64 v)
{
	__be64 be = cpu_to_be64(v);

	memcpy((u8 *)buf + off, &be, sizeof(be));
}

static __be64 fw_get_be64(const void *buf, size_t off)
{
	__be64 be;

	memcpy(&be, (const u8 *)buf + off, sizeof(be));
	return be;
}

/* ---- capabilities, adapter, registers, vport ---- */

/*
 * qpc.atomic_mode as mlx5_ib derives it: with extended atomics, log2 of
 * the largest operand up to 256 bytes (at least 8 bytes); else the
 * IB-compatible mode if the two standard operations exist; else none.
 */
static u8 verbs_atomic_mode(u32 ops, u32 sizes)
{
	u32 known = sizes & GENMASK(MLX5X_ATOMIC_MODE_MAX, 0);

	if ((ops & (MLX5X_ATOMIC_OPS_EXT_CMP_SWAP |
		    MLX5X_ATOMIC_OPS_EXT_FETCH_ADD)) && known)
		return max_t(u8, __fls(known), MLX5X_QPC_ATOMIC_MODE_8B);
	if ((ops & MLX5X_ATOMIC_OPS_CMP_SWAP) &&
	    (ops & MLX5X_ATOMIC_OPS_FETCH_ADD))
		return MLX5X_QPC_ATOMIC_MODE_IB_COMP;
	return 0;
}

void mlx5x_verbs_caps_decode(const void *cap, const void *atomic_cap,
			     struct mlx5x_verbs_caps *c)
{
	u32 ops, sizes;

	c->log_max_qp = MLX5X_GET(cap, MLX5X_CAP_LOG_MAX_QP);
	c->log_max_qp_sz = MLX5X_GET(cap, MLX5X_CAP_LOG_MAX_QP_SZ);
	c->log_max_cq = MLX5X_GET(cap, MLX5X_CAP_LOG_MAX_CQ);
	c->log_max_cq_sz = MLX5X_GET(cap, MLX5X_CAP_LOG_MAX_CQ_SZ);
	c->log_max_mkey = MLX5X_GET(cap, MLX5X_CAP_LOG_MAX_MKEY);
	c->log_max_pd = MLX5X_GET(cap, MLX5X_CAP_LOG_MAX_PD);
	c->log_max_srq_sz = MLX5X_GET(cap, MLX5X_CAP_LOG_MAX_SRQ_SZ);
	c->log_max_srq = MLX5X_GET(cap, MLX5X_CAP_LOG_MAX_SRQ);
	c->xrc = MLX5X_GET(cap, MLX5X_CAP_XRC);
	c->log_max_msg = MLX5X_GET(cap, MLX5X_CAP_LOG_MAX_MSG);
	c->log_max_ra_req_qp = MLX5X_GET(cap, MLX5X_CAP_LOG_MAX_RA_REQ_QP);
	c->log_max_ra_res_qp = MLX5X_GET(cap, MLX5X_CAP_LOG_MAX_RA_RES_QP);
	c->log_pg_sz = MLX5X_GET(cap, MLX5X_CAP_LOG_PG_SZ);
	c->local_ca_ack_delay = MLX5X_GET(cap, MLX5X_CAP_LOCAL_CA_ACK_DELAY);
	c->max_wqe_sz_sq = MLX5X_GET(cap, MLX5X_CAP_MAX_WQE_SZ_SQ);
	c->max_wqe_sz_rq = MLX5X_GET(cap, MLX5X_CAP_MAX_WQE_SZ_RQ);
	c->gid_table_size = MLX5X_GET(cap, MLX5X_CAP_GID_TABLE_SIZE);
	c->pkey_table_size = MLX5X_GET(cap, MLX5X_CAP_PKEY_TABLE_SIZE);
	c->num_ports = MLX5X_GET(cap, MLX5X_CAP_NUM_PORTS);
	c->port_type = MLX5X_GET(cap, MLX5X_CAP_PORT_TYPE);
	c->cqe_version = MLX5X_GET(cap, MLX5X_CAP_CQE_VERSION);
	c->cq_resize = MLX5X_GET(cap, MLX5X_CAP_CQ_RESIZE);
	c->block_lb_mc = MLX5X_GET(cap, MLX5X_CAP_BLOCK_LB_MC);
	c->pkv = MLX5X_GET(cap, MLX5X_CAP_PKV);
	c->qkv = MLX5X_GET(cap, MLX5X_CAP_QKV);
	c->ib_virt = MLX5X_GET(cap, MLX5X_CAP_IB_VIRT);
	c->umr_atomic_disabled =
		MLX5X_GET(cap, MLX5X_CAP_UMR_MODIFY_ATOMIC_DISABLED);
	c->umr_entity_size_disabled =
		MLX5X_GET(cap, MLX5X_CAP_UMR_MODIFY_ENTITY_SIZE_DISABLED);
	c->log_max_klm_list_size =
		MLX5X_GET(cap, MLX5X_CAP_LOG_MAX_KLM_LIST_SIZE);
	c->umr_fence = MLX5X_GET(cap, MLX5X_CAP_UMR_FENCE);
	c->log_max_mcg = MLX5X_GET(cap, MLX5X_CAP_LOG_MAX_MCG);
	c->max_qp_mcg = MLX5X_GET(cap, MLX5X_CAP_MAX_QP_MCG);
	c->mw = MLX5X_GET(cap, MLX5X_CAP_IMAICL);
	c->device_frequency_khz = MLX5X_GET(cap, MLX5X_CAP_DEVICE_FREQUENCY_KHZ);
	c->stat_rate_support = MLX5X_GET(cap, MLX5X_CAP_STAT_RATE_SUPPORT);
	c->sq_ts_cap = MLX5X_GET(cap, MLX5X_CAP_SQ_TS_FORMAT);

	c->atomic = false;
	c->atomic_mode = 0;
	if (!atomic_cap || !MLX5X_GET(cap, MLX5X_CAP_ATOMIC))
		return;
	ops = MLX5X_GET(atomic_cap, MLX5X_ATOMIC_CAP_OPERATIONS);
	sizes = MLX5X_GET(atomic_cap, MLX5X_ATOMIC_CAP_SIZE_QP);
	c->atomic_mode = verbs_atomic_mode(ops, sizes);
	/*
	 * IB atomics (what query_device reports) need 8-byte compare-and-
	 * swap and fetch-and-add on RC QPs and a requester byte order set
	 * (mode 1, host order, after SET_HCA_CAP), as mlx5_ib checks.
	 */
	c->atomic = (ops & MLX5X_ATOMIC_OPS_CMP_SWAP) &&
		    (ops & MLX5X_ATOMIC_OPS_FETCH_ADD) &&
		    (sizes & MLX5X_ATOMIC_SIZE_8B) &&
		    MLX5X_GET(atomic_cap, MLX5X_ATOMIC_CAP_REQ_8B_ENDIANNESS);
}

/*
 * Current general caps, the atomic ones when the device has atomics and
 * the RoCE ones (only the QP timestamp format) when it has RoCE; without
 * RoCE caps mlx5_ib reads that format as 0, free running.
 */
int mlx5x_fw_query_verbs_caps(struct mlx5x_cmd *cmd,
			      struct mlx5x_verbs_caps *caps)
{
	void *cap, *other, *atomic = NULL;
	int err;

	cap = kzalloc(2 * MLX5X_HCA_CAP_LEN, GFP_KERNEL);
	if (!cap)
		return -ENOMEM;
	other = cap + MLX5X_HCA_CAP_LEN;
	err = mlx5x_fw_query_hca_cap(cmd, MLX5X_CAP_TYPE_GENERAL,
				     MLX5X_CAP_MODE_CUR, cap);
	if (err)
		goto out;
	if (MLX5X_GET(cap, MLX5X_CAP_ATOMIC)) {
		atomic = other;
		err = mlx5x_fw_query_hca_cap(cmd, MLX5X_CAP_TYPE_ATOMIC,
					     MLX5X_CAP_MODE_CUR, atomic);
		if (err)
			goto out;
	}
	mlx5x_verbs_caps_decode(cap, atomic, caps);
	caps->qp_ts_cap = MLX5X_TS_CAP_FREE_RUNNING;
	if (MLX5X_GET(cap, MLX5X_CAP_ROCE)) {
		err = mlx5x_fw_query_hca_cap(cmd, MLX5X_CAP_TYPE_ROCE,
					     MLX5X_CAP_MODE_CUR, other);
		if (!err)
			caps->qp_ts_cap = MLX5X_GET(other,
						    MLX5X_ROCE_CAP_QP_TS_FORMAT);
	}
out:
	kfree(cap);
	return err;
}

/*
 * ACCESS_REG of register @id (@op_mod: MLX5X_ACCESS_REG_READ or _WRITE):
 * @in_data (@len bytes, names the port) goes in; the register as the
 * device has it comes back in @out_data, if not NULL.
 */
static int fw_reg_access(struct mlx5x_cmd *cmd, u16 op_mod, u16 id,
			 const void *in_data, void *out_data, size_t len)
{
	size_t boxlen = MLX5X_ACCESS_REG_DATA_OFF + len;
	void *in, *out;
	int err;

	in = kzalloc(2 * boxlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	out = in + boxlen;
	mlx5x_cmd_in_hdr(in, MLX5X_CMD_OP_ACCESS_REG, op_mod);
	MLX5X_SET(in, MLX5X_ACCESS_REG_IN_REGISTER_ID, id);
	memcpy(in + MLX5X_ACCESS_REG_DATA_OFF, in_data, len);
	err = mlx5x_cmd_exec(cmd, in, boxlen, out, boxlen);
	if (!err && out_data)
		memcpy(out_data, out + MLX5X_ACCESS_REG_DATA_OFF, len);
	kfree(in);
	return err;
}

static int fw_reg_read(struct mlx5x_cmd *cmd, u16 id, const void *in_data,
		       void *out_data, size_t len)
{
	return fw_reg_access(cmd, MLX5X_ACCESS_REG_READ, id, in_data, out_data,
			     len);
}

/* The node description, NUL terminated into @desc (@len >= 65). */
int mlx5x_fw_query_node_desc(struct mlx5x_cmd *cmd, char *desc, size_t len)
{
	u8 reg[MLX5X_REG_NODE_DESC_LEN] = {};
	int err;

	err = fw_reg_read(cmd, MLX5X_REG_NODE_DESC, reg, reg, sizeof(reg));
	if (!err)
		strscpy(desc, reg, min(len, sizeof(reg) + 1));
	return err;
}

int mlx5x_fw_query_port_oper(struct mlx5x_cmd *cmd, u8 port,
			     struct mlx5x_port_oper *oper)
{
	__be32 reg[MLX5X_REG_PTYS_LEN / 4] = {};
	int err;

	MLX5X_SET(reg, MLX5X_PTYS_LOCAL_PORT, port);
	MLX5X_SET(reg, MLX5X_PTYS_PROTO_MASK, MLX5X_PTYS_PROTO_IB);
	err = fw_reg_read(cmd, MLX5X_REG_PTYS, reg, reg, MLX5X_REG_PTYS_LEN);
	if (err)
		return err;
	oper->width = MLX5X_GET(reg, MLX5X_PTYS_IB_LINK_WIDTH_OPER);
	oper->proto = MLX5X_GET(reg, MLX5X_PTYS_IB_PROTO_OPER);

	memset(reg, 0, sizeof(reg));
	MLX5X_SET(reg, MLX5X_PMTU_LOCAL_PORT, port);
	err = fw_reg_read(cmd, MLX5X_REG_PMTU, reg, reg, MLX5X_REG_PMTU_LEN);
	if (err)
		return err;
	oper->max_mtu = MLX5X_GET(reg, MLX5X_PMTU_MAX_MTU);
	oper->oper_mtu = MLX5X_GET(reg, MLX5X_PMTU_OPER_MTU);

	memset(reg, 0, sizeof(reg));
	MLX5X_SET(reg, MLX5X_PVLC_LOCAL_PORT, port);
	err = fw_reg_read(cmd, MLX5X_REG_PVLC, reg, reg, MLX5X_REG_PVLC_LEN);
	if (err)
		return err;
	oper->vl_hw_cap = MLX5X_GET(reg, MLX5X_PVLC_VL_HW_CAP);
	return 0;
}

void mlx5x_vport_ctx_decode(const void *hvc, struct mlx5x_vport_ctx *ctx)
{
	ctx->has_smi = MLX5X_GET(hvc, MLX5X_HVC_HAS_SMI);
	ctx->grh_required = MLX5X_GET(hvc, MLX5X_HVC_GRH_REQUIRED);
	ctx->phys_state = MLX5X_GET(hvc, MLX5X_HVC_PORT_PHYSICAL_STATE);
	ctx->port_state = MLX5X_GET(hvc, MLX5X_HVC_PORT_STATE);
	ctx->sys_image_guid = fw_get_be64(hvc, MLX5X_HVC_SYSTEM_IMAGE_GUID_OFF);
	ctx->port_guid = fw_get_be64(hvc, MLX5X_HVC_PORT_GUID_OFF);
	ctx->node_guid = fw_get_be64(hvc, MLX5X_HVC_NODE_GUID_OFF);
	ctx->cap_mask1 = MLX5X_GET(hvc, MLX5X_HVC_CAP_MASK1);
	ctx->cap_mask1_perm = MLX5X_GET(hvc, MLX5X_HVC_CAP_MASK1_FIELD_SELECT);
	ctx->cap_mask2 = MLX5X_GET(hvc, MLX5X_HVC_CAP_MASK2);
	ctx->lid = MLX5X_GET(hvc, MLX5X_HVC_LID);
	ctx->init_type_reply = MLX5X_GET(hvc, MLX5X_HVC_INIT_TYPE_REPLY);
	ctx->lmc = MLX5X_GET(hvc, MLX5X_HVC_LMC);
	ctx->subnet_timeout = MLX5X_GET(hvc, MLX5X_HVC_SUBNET_TIMEOUT);
	ctx->sm_lid = MLX5X_GET(hvc, MLX5X_HVC_SM_LID);
	ctx->sm_sl = MLX5X_GET(hvc, MLX5X_HVC_SM_SL);
	ctx->qkey_viol = MLX5X_GET(hvc, MLX5X_HVC_QKEY_VIOLATION_COUNTER);
	ctx->pkey_viol = MLX5X_GET(hvc, MLX5X_HVC_PKEY_VIOLATION_COUNTER);
}

/* @port 0 means "the only port" (single-port devices). */
static void fw_vport_in(void *in, u16 opcode, u8 port, u16 index)
{
	mlx5x_cmd_in_hdr(in, opcode, 0);
	MLX5X_SET(in, MLX5X_HCA_VPORT_IN_PORT_NUM, port);
	MLX5X_SET(in, MLX5X_HCA_VPORT_IN_INDEX, index);
}

int mlx5x_fw_query_vport_ctx(struct mlx5x_cmd *cmd, u8 port,
			     struct mlx5x_vport_ctx *ctx)
{
	__be32 in[MLX5X_QUERY_HCA_VPORT_CONTEXT_IN_LEN / 4] = {};
	void *out;
	int err;

	out = kzalloc(MLX5X_QUERY_HCA_VPORT_CONTEXT_OUT_LEN, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	fw_vport_in(in, MLX5X_CMD_OP_QUERY_HCA_VPORT_CONTEXT, port, 0);
	err = mlx5x_cmd_exec(cmd, in, sizeof(in), out,
			     MLX5X_QUERY_HCA_VPORT_CONTEXT_OUT_LEN);
	if (!err)
		mlx5x_vport_ctx_decode(out + MLX5X_HCA_VPORT_CONTEXT_OFF, ctx);
	kfree(out);
	return err;
}

int mlx5x_fw_query_vport_gid(struct mlx5x_cmd *cmd, u8 port, u16 index,
			     u8 *gid)
{
	__be32 out[(MLX5X_QUERY_HCA_VPORT_GID_OUT_LEN + MLX5X_GID_LEN) / 4] = {};
	__be32 in[MLX5X_CMD_HDR_IN_LEN / 4] = {};
	int err;

	fw_vport_in(in, MLX5X_CMD_OP_QUERY_HCA_VPORT_GID, port, index);
	err = mlx5x_cmd_exec(cmd, in, sizeof(in), out, sizeof(out));
	if (!err)
		memcpy(gid, (u8 *)out + MLX5X_QUERY_HCA_VPORT_GID_OUT_GID_OFF,
		       MLX5X_GID_LEN);
	return err;
}

int mlx5x_fw_query_vport_pkey(struct mlx5x_cmd *cmd, u8 port, u16 index,
			      u16 *pkey)
{
	__be32 out[(MLX5X_QUERY_HCA_VPORT_PKEY_OUT_LEN +
		    MLX5X_PKEY_ENTRY_LEN) / 4] = {};
	__be32 in[MLX5X_CMD_HDR_IN_LEN / 4] = {};
	int err;

	fw_vport_in(in, MLX5X_CMD_OP_QUERY_HCA_VPORT_PKEY, port, index);
	err = mlx5x_cmd_exec(cmd, in, sizeof(in), out, sizeof(out));
	if (!err)
		*pkey = be32_get_bits(out[MLX5X_QUERY_HCA_VPORT_PKEY_OUT_PKEY_OFF / 4],
				      MLX5X_PKEY_ENTRY_PKEY_MASK);
	return err;
}

/* one {packets, octets} pair of QUERY_VPORT_COUNTER's output */
static void fw_traffic_pair(const void *out, size_t off, u64 *pkts,
			    u64 *octets)
{
	*pkts = be64_to_cpu(fw_get_be64(out, off));
	*octets = be64_to_cpu(fw_get_be64(out, off + 8));
}

/*
 * The port's traffic as the device counts it.  As mlx5_core asks: the
 * port is named only on a dual-port device (its input header is the
 * HCA vport commands' one); the counters are not cleared.
 */
int mlx5x_fw_query_vport_counters(struct mlx5x_cmd *cmd, u8 port,
				  bool dual_port,
				  struct mlx5x_vport_counters *c)
{
	__be32 in[MLX5X_QUERY_VPORT_COUNTER_IN_LEN / 4] = {};
	void *out;
	int err;

	out = kzalloc(MLX5X_QUERY_VPORT_COUNTER_OUT_LEN, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	mlx5x_cmd_in_hdr(in, MLX5X_CMD_OP_QUERY_VPORT_COUNTER, 0);
	if (dual_port)
		MLX5X_SET(in, MLX5X_HCA_VPORT_IN_PORT_NUM, port);
	err = mlx5x_cmd_exec(cmd, in, sizeof(in), out,
			     MLX5X_QUERY_VPORT_COUNTER_OUT_LEN);
	if (!err) {
		fw_traffic_pair(out, MLX5X_VPORT_COUNTER_RX_IB_UNICAST_OFF,
				&c->rx_ucast_pkts, &c->rx_ucast_bytes);
		fw_traffic_pair(out, MLX5X_VPORT_COUNTER_TX_IB_UNICAST_OFF,
				&c->tx_ucast_pkts, &c->tx_ucast_bytes);
		fw_traffic_pair(out, MLX5X_VPORT_COUNTER_RX_IB_MULTICAST_OFF,
				&c->rx_mcast_pkts, &c->rx_mcast_bytes);
		fw_traffic_pair(out, MLX5X_VPORT_COUNTER_TX_IB_MULTICAST_OFF,
				&c->tx_mcast_pkts, &c->tx_mcast_bytes);
	}
	kfree(out);
	return err;
}

/* ---- the management path: MAD_IFC, port capabilities, multicast ---- */

/**
 * mlx5x_mad_ifc_encode() - fill a MAD_IFC input box
 * @in: MLX5X_MAD_IFC_IN_LEN bytes, zeroed
 * @op_mod: MLX5X_MAD_IFC_IGNORE_* bits
 * @port: the IB port the MAD arrived on (1-based)
 * @mad: the 256-byte request MAD, copied verbatim
 *
 * remote_lid stays 0 as mlx5_ib leaves it: the firmware is not told
 * where a key-violation trap would go, which is why a MAD without a
 * receive completion must ignore the keys.
 */
void mlx5x_mad_ifc_encode(void *in, u8 op_mod, u8 port, const void *mad)
{
	mlx5x_cmd_in_hdr(in, MLX5X_CMD_OP_MAD_IFC, op_mod);
	MLX5X_SET(in, MLX5X_MAD_IFC_IN_PORT, port);
	memcpy(in + MLX5X_MAD_IFC_IN_MAD_OFF, mad, MLX5X_MAD_LEN);
}

/**
 * mlx5x_fw_mad_ifc() - have the firmware's SMA/PMA process a MAD
 * @cmd: command engine
 * @op_mod: MLX5X_MAD_IFC_IGNORE_* bits
 * @port: IB port number
 * @mad: the 256-byte request
 * @resp: 256 bytes for the response MAD, written only on success
 *
 * Return: 0, or the command's error (nothing is to be sent then).
 */
int mlx5x_fw_mad_ifc(struct mlx5x_cmd *cmd, u8 op_mod, u8 port,
		     const void *mad, void *resp)
{
	void *in, *out;
	int err;

	in = kzalloc(MLX5X_MAD_IFC_IN_LEN + MLX5X_MAD_IFC_OUT_LEN, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	out = in + MLX5X_MAD_IFC_IN_LEN;
	mlx5x_mad_ifc_encode(in, op_mod, port, mad);
	err = mlx5x_cmd_exec(cmd, in, MLX5X_MAD_IFC_IN_LEN, out,
			     MLX5X_MAD_IFC_OUT_LEN);
	if (!err)
		memcpy(resp, out + MLX5X_MAD_IFC_OUT_MAD_OFF, MLX5X_MAD_LEN);
	kfree(in);
	return err;
}

/**
 * mlx5x_fw_set_port_caps() - write the PCAP register
 * @cmd: command engine
 * @port: IB port number
 * @caps: the whole PortInfo.CapabilityMask the host asks for; the
 *	firmware keeps its own value of the bits the host may not change
 *
 * How a device without ib_virt takes IsSM, IsCM and the like (mlx5_core's
 * mlx5_set_port_caps()).
 */
int mlx5x_fw_set_port_caps(struct mlx5x_cmd *cmd, u8 port, u32 caps)
{
	__be32 reg[MLX5X_REG_PCAP_LEN / 4] = {};

	MLX5X_SET(reg, MLX5X_PCAP_LOCAL_PORT, port);
	MLX5X_SET(reg, MLX5X_PCAP_CAP_MASK0, caps);
	return fw_reg_access(cmd, MLX5X_ACCESS_REG_WRITE, MLX5X_REG_PCAP, reg,
			     NULL, sizeof(reg));
}

/**
 * mlx5x_vport_caps_encode() - MODIFY_HCA_VPORT_CONTEXT of cap_mask1 only
 * @in: MLX5X_MODIFY_HCA_VPORT_CONTEXT_IN_LEN bytes, zeroed
 * @port: vport port selector (0 on single-port devices)
 * @mask: the bits to change (cap_mask1_field_select)
 * @value: their new values (other bits are ignored by the firmware)
 *
 * field_select stays 0: no GUID or state policy changes.
 */
void mlx5x_vport_caps_encode(void *in, u8 port, u32 mask, u32 value)
{
	void *hvc = in + MLX5X_HCA_VPORT_CONTEXT_OFF;

	fw_vport_in(in, MLX5X_CMD_OP_MODIFY_HCA_VPORT_CONTEXT, port, 0);
	MLX5X_SET(hvc, MLX5X_HVC_CAP_MASK1, value);
	MLX5X_SET(hvc, MLX5X_HVC_CAP_MASK1_FIELD_SELECT, mask);
}

/**
 * mlx5x_fw_modify_vport_caps() - change host bits of the CapabilityMask
 * @cmd: command engine
 * @port: vport port selector (0 on single-port devices)
 * @mask: the bits to change; all must be in the context's cap_mask1_perm
 * @value: their new values
 *
 * The ib_virt form (mlx5_ib's set_port_caps_atomic()): the firmware
 * applies the masked write itself, so no read-modify-write race exists.
 */
int mlx5x_fw_modify_vport_caps(struct mlx5x_cmd *cmd, u8 port, u32 mask,
			       u32 value)
{
	void *in;
	int err;

	in = kzalloc(MLX5X_MODIFY_HCA_VPORT_CONTEXT_IN_LEN, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	mlx5x_vport_caps_encode(in, port, mask, value);
	err = mlx5x_cmd_exec_in(cmd, in, MLX5X_MODIFY_HCA_VPORT_CONTEXT_IN_LEN);
	kfree(in);
	return err;
}

/**
 * mlx5x_mcg_encode() - fill an ATTACH_TO_MCG / DETACH_FROM_MCG input
 * @in: MLX5X_MCG_IN_LEN bytes, zeroed
 * @attach: attach (else detach)
 * @qpn: the firmware number of a UD QP
 * @mgid: the 16-byte multicast GID (the firmware matches by MGID only:
 *	there is no MLID field)
 */
void mlx5x_mcg_encode(void *in, bool attach, u32 qpn, const u8 *mgid)
{
	mlx5x_cmd_in_hdr(in, attach ? MLX5X_CMD_OP_ATTACH_TO_MCG :
				      MLX5X_CMD_OP_DETACH_FROM_MCG, 0);
	MLX5X_SET(in, MLX5X_MCG_IN_QPN, qpn);
	memcpy(in + MLX5X_MCG_IN_MGID_OFF, mgid, MLX5X_GID_LEN);
}

int mlx5x_fw_mcg(struct mlx5x_cmd *cmd, bool attach, u32 qpn,
		 const u8 *mgid)
{
	__be32 in[MLX5X_MCG_IN_LEN / 4] = {};

	mlx5x_mcg_encode(in, attach, qpn, mgid);
	return mlx5x_cmd_exec_in(cmd, in, sizeof(in));
}

/* ---- protection domains ---- */

int mlx5x_fw_alloc_pd(struct mlx5x_cmd *cmd, u32 *pdn)
{
	return mlx5x_fw_alloc_id(cmd, MLX5X_CMD_OP_ALLOC_PD, pdn);
}

int mlx5x_fw_dealloc_pd(struct mlx5x_cmd *cmd, u32 pdn)
{
	return mlx5x_fw_exec_id(cmd, MLX5X_CMD_OP_DEALLOC_PD, pdn);
}

/* ---- page lists ---- */

/* Input length: @base bytes of box, then one 8-byte entry per page. */
size_t mlx5x_pas_inlen(size_t base, const struct mlx5x_pas *pas)
{
	return base + pas->n * MLX5X_PAS_LEN;
}

static void fw_fill_pas(__be64 *out, const struct mlx5x_pas *pas)
{
	struct ib_block_iter biter;
	size_t i = 0;

	if (!pas->umem) {
		for (i = 0; pas->dma && i < pas->n; i++)
			out[i] = cpu_to_be64(pas->dma + i * pas->pgsz);
		return;
	}
	rdma_umem_for_each_dma_block(pas->umem, &biter, pas->pgsz) {
		if (i == pas->n)
			break;
		out[i++] = cpu_to_be64(rdma_block_iter_dma_address(&biter));
	}
}

/* ---- memory keys ---- */

/*
 * A memory window is created free (no valid translation) in KLM mode,
 * with room for its KLMs and local read only: a bind by UMR brings the
 * range, the rights and the key's new tag.
 */
static void mkc_window_encode(void *mkc, const struct mlx5x_mkey_params *p)
{
	MLX5X_SET(mkc, MLX5X_MKC_FREE, 1);
	MLX5X_SET(mkc, MLX5X_MKC_ACCESS_MODE_1_0, MLX5X_MKC_ACCESS_MODE_KLMS);
	MLX5X_SET(mkc, MLX5X_MKC_LR, 1);
	MLX5X_SET(mkc, MLX5X_MKC_UMR_EN, 1);
	MLX5X_SET(mkc, MLX5X_MKC_EN_RINVAL, p->en_rinval);
	MLX5X_SET(mkc, MLX5X_MKC_TRANSLATIONS_OCTWORD_SIZE, p->window_klms);
}

void mlx5x_mkc_encode(void *mkc, const struct mlx5x_mkey_params *p)
{
	MLX5X_SET(mkc, MLX5X_MKC_QPN, MLX5X_MKC_QPN_NONE);
	MLX5X_SET(mkc, MLX5X_MKC_MKEY_7_0, p->variant);
	MLX5X_SET(mkc, MLX5X_MKC_PD, p->pdn);
	if (p->window_klms) {
		mkc_window_encode(mkc, p);
		return;
	}
	/* a PA key translates nothing: it spans all of memory (length64) */
	MLX5X_SET(mkc, MLX5X_MKC_ACCESS_MODE_1_0,
		  p->pa ? MLX5X_MKC_ACCESS_MODE_PA : MLX5X_MKC_ACCESS_MODE_MTT);
	MLX5X_SET(mkc, MLX5X_MKC_LENGTH64, p->pa);
	MLX5X_SET(mkc, MLX5X_MKC_LR, !!(p->access & MLX5X_MKEY_LR));
	MLX5X_SET(mkc, MLX5X_MKC_LW, !!(p->access & MLX5X_MKEY_LW));
	MLX5X_SET(mkc, MLX5X_MKC_RR, !!(p->access & MLX5X_MKEY_RR));
	MLX5X_SET(mkc, MLX5X_MKC_RW, !!(p->access & MLX5X_MKEY_RW));
	MLX5X_SET(mkc, MLX5X_MKC_A, !!(p->access & MLX5X_MKEY_A));
	MLX5X_SET(mkc, MLX5X_MKC_UMR_EN, p->umr_en);
	fw_set64(mkc, MLX5X_MKC_START_ADDR_OFF, p->iova);
	fw_set64(mkc, MLX5X_MKC_LEN_OFF, p->len);
	/* MTT entries are 8 bytes, counted in 16-byte octwords */
	MLX5X_SET(mkc, MLX5X_MKC_TRANSLATIONS_OCTWORD_SIZE,
		  DIV_ROUND_UP(p->pas.n, 2));
	MLX5X_SET(mkc, MLX5X_MKC_LOG_PAGE_SIZE,
		  p->pas.pgsz ? ilog2(p->pas.pgsz) : 0);
	/* no valid translation until a REG_MR WQE brings one */
	if (p->frwr_octwords) {
		MLX5X_SET(mkc, MLX5X_MKC_FREE, 1);
		MLX5X_SET(mkc, MLX5X_MKC_TRANSLATIONS_OCTWORD_SIZE,
			  p->frwr_octwords);
	}
}

/*
 * CREATE_MKEY/CQ/QP (and fw_srq.c's creates) share one box shape:
 * header, a context the caller encodes, then @nslots page entries at
 * @pas_off filled from @pas.
 */
static void *fw_pas_box(u16 opcode, size_t base, unsigned int pas_off,
			const struct mlx5x_pas *pas, size_t nslots, size_t *inlen)
{
	const struct mlx5x_pas slots = { .n = nslots };
	void *in;

	*inlen = mlx5x_pas_inlen(base, &slots);
	in = kvzalloc(*inlen, GFP_KERNEL);
	if (!in)
		return NULL;
	mlx5x_cmd_in_hdr(in, opcode, 0);
	fw_fill_pas(in + pas_off, pas);
	return in;
}

int mlx5x_fw_create_mkey(struct mlx5x_cmd *cmd,
			 const struct mlx5x_mkey_params *p, u32 *index)
{
	size_t inlen;
	void *in;
	int err;

	/* an even number of entries fills whole octwords */
	in = fw_pas_box(MLX5X_CMD_OP_CREATE_MKEY, MLX5X_CREATE_MKEY_IN_LEN,
			MLX5X_CREATE_MKEY_IN_MTT_OFF, &p->pas,
			round_up(p->pas.n, 2), &inlen);
	if (!in)
		return -ENOMEM;
	mlx5x_mkc_encode(in + MLX5X_CREATE_MKEY_IN_MKC_OFF, p);
	*(__be32 *)(in + MLX5X_CREATE_MKEY_IN_TRANSLATIONS_ACTUAL_OFF) =
		cpu_to_be32(DIV_ROUND_UP(p->pas.n, 2));
	err = mlx5x_fw_exec_new_id(cmd, in, inlen, index);
	kvfree(in);
	return err;
}

int mlx5x_fw_destroy_mkey(struct mlx5x_cmd *cmd, u32 index)
{
	return mlx5x_fw_exec_id(cmd, MLX5X_CMD_OP_DESTROY_MKEY, index);
}

/* ---- completion queues ---- */

/* Queue buffers count their page size from 4 KiB: 0 = 4 KiB pages. */
static u8 fw_log_page_size(unsigned long pgsz)
{
	return pgsz ? ilog2(pgsz) - MLX5X_ADAPTER_PAGE_SHIFT : 0;
}

void mlx5x_cqc_encode(void *cqc, const struct mlx5x_cq_params *p)
{
	MLX5X_SET(cqc, MLX5X_CQC_CQE_SZ,
		  p->cqe_128 ? MLX5X_CQE_SIZE_128 : MLX5X_CQE_SIZE_64);
	MLX5X_SET(cqc, MLX5X_CQC_LOG_CQ_SIZE, p->log_size);
	MLX5X_SET(cqc, MLX5X_CQC_UAR_PAGE, p->uar);
	MLX5X_SET(cqc, MLX5X_CQC_C_EQN, p->eqn);
	MLX5X_SET(cqc, MLX5X_CQC_LOG_PAGE_SIZE, fw_log_page_size(p->pas.pgsz));
	MLX5X_SET(cqc, MLX5X_CQC_PAGE_OFFSET, p->pas.page_offset);
	fw_set64(cqc, MLX5X_CQC_DBR_ADDR_OFF, p->dbr);
}

int mlx5x_fw_create_cq(struct mlx5x_cmd *cmd,
		       const struct mlx5x_cq_params *p, u32 *cqn)
{
	size_t inlen;
	void *in;
	int err;

	in = fw_pas_box(MLX5X_CMD_OP_CREATE_CQ, MLX5X_CREATE_CQ_IN_LEN,
			MLX5X_CREATE_CQ_IN_PAS_OFF, &p->pas, p->pas.n, &inlen);
	if (!in)
		return -ENOMEM;
	mlx5x_cqc_encode(in + MLX5X_CREATE_CQ_IN_CQC_OFF, p);
	err = mlx5x_fw_exec_new_id(cmd, in, inlen, cqn);
	kvfree(in);
	return err;
}

/*
 * MODIFY_CQ op_mod RESIZE, past the header: the CQ, the fields the new
 * ring takes (size, CQE size, page size and offset) and, in the caller's
 * box, its pages.  The device writes a RESIZE entry in the old ring,
 * where libmlx5 stops copying the entries it has not polled yet.
 */
void mlx5x_cqc_resize_encode(void *in, u32 cqn,
			     const struct mlx5x_cq_params *p)
{
	u8 *cqc = (u8 *)in + MLX5X_MODIFY_CQ_IN_CQC_OFF;

	MLX5X_SET(in, MLX5X_CQ_IN_CQN, cqn);
	*(__be32 *)((u8 *)in + MLX5X_MODIFY_CQ_IN_FIELD_SELECT_OFF) =
		cpu_to_be32(MLX5X_MODIFY_CQ_RESIZE_LOG_SIZE |
			    MLX5X_MODIFY_CQ_RESIZE_PG_OFFSET |
			    MLX5X_MODIFY_CQ_RESIZE_PG_SIZE);
	MLX5X_SET(cqc, MLX5X_CQC_CQE_SZ,
		  p->cqe_128 ? MLX5X_CQE_SIZE_128 : MLX5X_CQE_SIZE_64);
	MLX5X_SET(cqc, MLX5X_CQC_LOG_CQ_SIZE, p->log_size);
	MLX5X_SET(cqc, MLX5X_CQC_LOG_PAGE_SIZE, fw_log_page_size(p->pas.pgsz));
	MLX5X_SET(cqc, MLX5X_CQC_PAGE_OFFSET, p->pas.page_offset);
}

/*
 * Quiet: the device refuses a ring too small for the entries not yet
 * polled, an ordinary outcome the caller reports (-EINVAL).
 */
int mlx5x_fw_resize_cq(struct mlx5x_cmd *cmd, u32 cqn,
		       const struct mlx5x_cq_params *p)
{
	__be32 out[MLX5X_CMD_HDR_OUT_LEN / 4] = {};
	size_t inlen;
	void *in;
	int err;

	in = fw_pas_box(MLX5X_CMD_OP_MODIFY_CQ, MLX5X_CREATE_CQ_IN_LEN,
			MLX5X_MODIFY_CQ_IN_PAS_OFF, &p->pas, p->pas.n, &inlen);
	if (!in)
		return -ENOMEM;
	mlx5x_cmd_in_hdr(in, MLX5X_CMD_OP_MODIFY_CQ,
			 MLX5X_MODIFY_CQ_OPMOD_RESIZE);
	mlx5x_cqc_resize_encode(in, cqn, p);
	err = mlx5x_cmd_exec_flags(cmd, in, inlen, out, sizeof(out),
				   MLX5X_CMD_F_QUIET);
	kvfree(in);
	return err;
}

/* ---- queue pairs ---- */

void mlx5x_qpc_create_encode(void *qpc, const struct mlx5x_qp_params *p)
{
	MLX5X_SET(qpc, MLX5X_QPC_STATE, MLX5X_QP_STATE_RST);
	MLX5X_SET(qpc, MLX5X_QPC_ST, p->st);
	MLX5X_SET(qpc, MLX5X_QPC_PM_STATE, MLX5X_QP_PM_STATE_MIGRATED);
	MLX5X_SET(qpc, MLX5X_QPC_PD, p->pdn);
	MLX5X_SET(qpc, MLX5X_QPC_LATENCY_SENSITIVE, p->latency_sensitive);
	MLX5X_SET(qpc, MLX5X_QPC_BLOCK_LB_MC, p->block_lb_mc);
	MLX5X_SET(qpc, MLX5X_QPC_TS_FORMAT, p->ts_format);
	MLX5X_SET(qpc, MLX5X_QPC_FRE, p->kernel);
	MLX5X_SET(qpc, MLX5X_QPC_RLKY, p->kernel);
	MLX5X_SET(qpc, MLX5X_QPC_RQ_TYPE, p->rq_type);
	if (p->rq_type == MLX5X_QP_RQ_NON_ZERO) {
		MLX5X_SET(qpc, MLX5X_QPC_LOG_RQ_SIZE, p->log_rq_size);
		/* the stride counts from 16 bytes */
		MLX5X_SET(qpc, MLX5X_QPC_LOG_RQ_STRIDE, p->rq_wqe_shift - 4);
	}
	MLX5X_SET(qpc, MLX5X_QPC_SRQN_RMPN_XRQN, p->srqn);
	MLX5X_SET(qpc, MLX5X_QPC_XRCD, p->xrcd);
	if (p->has_sq)
		MLX5X_SET(qpc, MLX5X_QPC_LOG_SQ_SIZE, p->log_sq_size);
	else
		MLX5X_SET(qpc, MLX5X_QPC_NO_SQ, 1);
	MLX5X_SET(qpc, MLX5X_QPC_UAR_PAGE, p->uar);
	MLX5X_SET(qpc, MLX5X_QPC_USER_INDEX, p->user_index);
	MLX5X_SET(qpc, MLX5X_QPC_LOG_PAGE_SIZE, fw_log_page_size(p->pas.pgsz));
	MLX5X_SET(qpc, MLX5X_QPC_PAGE_OFFSET, p->pas.page_offset);
	MLX5X_SET(qpc, MLX5X_QPC_CQN_SND, p->cqn_snd);
	MLX5X_SET(qpc, MLX5X_QPC_CQN_RCV, p->cqn_rcv);
	fw_set64(qpc, MLX5X_QPC_DBR_ADDR_OFF, p->dbr);
}

int mlx5x_fw_create_qp(struct mlx5x_cmd *cmd,
		       const struct mlx5x_qp_params *p, u32 *qpn)
{
	size_t inlen;
	void *in;
	int err;

	in = fw_pas_box(MLX5X_CMD_OP_CREATE_QP, MLX5X_CREATE_QP_IN_LEN,
			MLX5X_CREATE_QP_IN_PAS_OFF, &p->pas, p->pas.n, &inlen);
	if (!in)
		return -ENOMEM;
	mlx5x_qpc_create_encode(in + MLX5X_QP_IN_QPC_OFF, p);
	err = mlx5x_fw_exec_new_id(cmd, in, inlen, qpn);
	kvfree(in);
	return err;
}

#define ADS(qpc)	((u8 *)(qpc) + MLX5X_QPC_PRI_PATH_OFF)

/* The address vector names its port, as mlx5_ib's path always does. */
static void qpc_av_encode(void *ads, const struct mlx5x_qp_path *path)
{
	MLX5X_SET(ads, MLX5X_ADS_VHCA_PORT_NUM, path->port);
	MLX5X_SET(ads, MLX5X_ADS_RLID, path->rlid);
	MLX5X_SET(ads, MLX5X_ADS_MLID, path->path_bits);
	MLX5X_SET(ads, MLX5X_ADS_STAT_RATE, path->stat_rate);
	MLX5X_SET(ads, MLX5X_ADS_SL, path->sl);
	MLX5X_SET(ads, MLX5X_ADS_GRH, path->grh);
	if (!path->grh)
		return;
	MLX5X_SET(ads, MLX5X_ADS_SRC_ADDR_INDEX, path->sgid_index);
	MLX5X_SET(ads, MLX5X_ADS_HOP_LIMIT, path->hop_limit);
	MLX5X_SET(ads, MLX5X_ADS_TCLASS, path->tclass);
	MLX5X_SET(ads, MLX5X_ADS_FLOW_LABEL, path->flow_label);
	memcpy((u8 *)ads + MLX5X_ADS_RGID_RIP_OFF, path->rgid,
	       sizeof(path->rgid));
}

static void qpc_path_encode(void *qpc, const struct mlx5x_qp_mod *m)
{
	void *ads = ADS(qpc);

	if (m->fields & MLX5X_QPM_PKEY)
		MLX5X_SET(ads, MLX5X_ADS_PKEY_INDEX, m->path.pkey_index);
	if (m->fields & MLX5X_QPM_PORT)
		MLX5X_SET(ads, MLX5X_ADS_VHCA_PORT_NUM, m->path.port);
	if (m->fields & MLX5X_QPM_AV)
		qpc_av_encode(ads, &m->path);
	if (m->fields & MLX5X_QPM_ACK_TIMEOUT)
		MLX5X_SET(ads, MLX5X_ADS_ACK_TIMEOUT, m->path.ack_timeout);
}

/* Writes the fields of @m named by m->fields, and nothing else. */
void mlx5x_qpc_mod_encode(void *qpc, const struct mlx5x_qp_mod *m)
{
	u32 f = m->fields;

	if (f & MLX5X_QPM_QP) {
		MLX5X_SET(qpc, MLX5X_QPC_ST, m->st);
		MLX5X_SET(qpc, MLX5X_QPC_PM_STATE, MLX5X_QP_PM_STATE_MIGRATED);
		MLX5X_SET(qpc, MLX5X_QPC_PD, m->pdn);
		MLX5X_SET(qpc, MLX5X_QPC_LOG_ACK_REQ_FREQ,
			  MLX5X_QP_LOG_ACK_REQ_FREQ);
	}
	if (f & MLX5X_QPM_CQ_SND)
		MLX5X_SET(qpc, MLX5X_QPC_CQN_SND, m->cqn_snd);
	if (f & MLX5X_QPM_CQ_RCV)
		MLX5X_SET(qpc, MLX5X_QPC_CQN_RCV, m->cqn_rcv);
	if (f & MLX5X_QPM_RLKY)
		MLX5X_SET(qpc, MLX5X_QPC_RLKY, 1);
	if (f & MLX5X_QPM_ACCESS) {
		MLX5X_SET(qpc, MLX5X_QPC_RRE, m->rre);
		MLX5X_SET(qpc, MLX5X_QPC_RWE, m->rwe);
		MLX5X_SET(qpc, MLX5X_QPC_RAE, m->rae);
		if (m->rae)
			MLX5X_SET(qpc, MLX5X_QPC_ATOMIC_MODE, m->atomic_mode);
	}
	qpc_path_encode(qpc, m);
	if (f & MLX5X_QPM_MTU) {
		MLX5X_SET(qpc, MLX5X_QPC_MTU, m->mtu);
		MLX5X_SET(qpc, MLX5X_QPC_LOG_MSG_MAX, m->log_msg_max);
	}
	if (f & MLX5X_QPM_RQPN)
		MLX5X_SET(qpc, MLX5X_QPC_REMOTE_QPN, m->remote_qpn);
	if (f & MLX5X_QPM_RQ_PSN)
		MLX5X_SET(qpc, MLX5X_QPC_NEXT_RCV_PSN, m->rq_psn);
	if (f & MLX5X_QPM_RRA)
		MLX5X_SET(qpc, MLX5X_QPC_LOG_RRA_MAX, m->log_rra_max);
	if (f & MLX5X_QPM_RNR_TIMER)
		MLX5X_SET(qpc, MLX5X_QPC_MIN_RNR_NAK, m->min_rnr_nak);
	if (f & MLX5X_QPM_SQ_PSN)
		MLX5X_SET(qpc, MLX5X_QPC_NEXT_SEND_PSN, m->sq_psn);
	if (f & MLX5X_QPM_RETRY)
		MLX5X_SET(qpc, MLX5X_QPC_RETRY_COUNT, m->retry_count);
	if (f & MLX5X_QPM_RNR_RETRY)
		MLX5X_SET(qpc, MLX5X_QPC_RNR_RETRY, m->rnr_retry);
	if (f & MLX5X_QPM_SRA)
		MLX5X_SET(qpc, MLX5X_QPC_LOG_SRA_MAX, m->log_sra_max);
	if (f & MLX5X_QPM_QKEY)
		MLX5X_SET(qpc, MLX5X_QPC_Q_KEY, m->qkey);
}

static void qpc_path_decode(const void *qpc, struct mlx5x_qp_path *path)
{
	const u8 *ads = (const u8 *)qpc + MLX5X_QPC_PRI_PATH_OFF;

	path->pkey_index = MLX5X_GET(ads, MLX5X_ADS_PKEY_INDEX);
	path->port = MLX5X_GET(ads, MLX5X_ADS_VHCA_PORT_NUM);
	path->rlid = MLX5X_GET(ads, MLX5X_ADS_RLID);
	path->path_bits = MLX5X_GET(ads, MLX5X_ADS_MLID);
	path->stat_rate = MLX5X_GET(ads, MLX5X_ADS_STAT_RATE);
	path->sl = MLX5X_GET(ads, MLX5X_ADS_SL);
	path->ack_timeout = MLX5X_GET(ads, MLX5X_ADS_ACK_TIMEOUT);
	path->grh = MLX5X_GET(ads, MLX5X_ADS_GRH);
	path->sgid_index = MLX5X_GET(ads, MLX5X_ADS_SRC_ADDR_INDEX);
	path->hop_limit = MLX5X_GET(ads, MLX5X_ADS_HOP_LIMIT);
	path->tclass = MLX5X_GET(ads, MLX5X_ADS_TCLASS);
	path->flow_label = MLX5X_GET(ads, MLX5X_ADS_FLOW_LABEL);
	memcpy(path->rgid, ads + MLX5X_ADS_RGID_RIP_OFF, sizeof(path->rgid));
}

/* Every field QUERY_QP reports; m->fields names them all. */
void mlx5x_qpc_decode(const void *qpc, struct mlx5x_qp_mod *m)
{
	m->fields = MLX5X_QPM_ACCESS | MLX5X_QPM_PKEY | MLX5X_QPM_PORT |
		    MLX5X_QPM_AV | MLX5X_QPM_ACK_TIMEOUT | MLX5X_QPM_MTU |
		    MLX5X_QPM_RQPN | MLX5X_QPM_RQ_PSN | MLX5X_QPM_RRA |
		    MLX5X_QPM_RNR_TIMER | MLX5X_QPM_SQ_PSN | MLX5X_QPM_RETRY |
		    MLX5X_QPM_RNR_RETRY | MLX5X_QPM_SRA | MLX5X_QPM_QKEY;
	m->state = MLX5X_GET(qpc, MLX5X_QPC_STATE);
	m->pm_state = MLX5X_GET(qpc, MLX5X_QPC_PM_STATE);
	m->rre = MLX5X_GET(qpc, MLX5X_QPC_RRE);
	m->rwe = MLX5X_GET(qpc, MLX5X_QPC_RWE);
	m->rae = MLX5X_GET(qpc, MLX5X_QPC_RAE);
	qpc_path_decode(qpc, &m->path);
	m->mtu = MLX5X_GET(qpc, MLX5X_QPC_MTU);
	m->log_msg_max = MLX5X_GET(qpc, MLX5X_QPC_LOG_MSG_MAX);
	m->remote_qpn = MLX5X_GET(qpc, MLX5X_QPC_REMOTE_QPN);
	m->rq_psn = MLX5X_GET(qpc, MLX5X_QPC_NEXT_RCV_PSN);
	m->log_rra_max = MLX5X_GET(qpc, MLX5X_QPC_LOG_RRA_MAX);
	m->min_rnr_nak = MLX5X_GET(qpc, MLX5X_QPC_MIN_RNR_NAK);
	m->sq_psn = MLX5X_GET(qpc, MLX5X_QPC_NEXT_SEND_PSN);
	m->retry_count = MLX5X_GET(qpc, MLX5X_QPC_RETRY_COUNT);
	m->rnr_retry = MLX5X_GET(qpc, MLX5X_QPC_RNR_RETRY);
	m->log_sra_max = MLX5X_GET(qpc, MLX5X_QPC_LOG_SRA_MAX);
	m->qkey = MLX5X_GET(qpc, MLX5X_QPC_Q_KEY);
}

/*
 * One state transition.  @m is NULL for the transitions that carry no
 * context (2RST, 2ERR): their input is just the header and the QPN.
 */
int mlx5x_fw_modify_qp(struct mlx5x_cmd *cmd, u16 opcode, u32 qpn,
		       u32 optpar, const struct mlx5x_qp_mod *m)
{
	size_t inlen = m ? MLX5X_QP_MODIFY_IN_LEN : MLX5X_CMD_HDR_IN_LEN;
	void *in;
	int err;

	in = kzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	mlx5x_cmd_in_hdr(in, opcode, 0);
	MLX5X_SET(in, MLX5X_QP_IN_QPN, qpn);
	if (m) {
		*(__be32 *)(in + MLX5X_QP_IN_OPT_PARAM_MASK_OFF) =
			cpu_to_be32(optpar);
		mlx5x_qpc_mod_encode(in + MLX5X_QP_IN_QPC_OFF, m);
	}
	err = mlx5x_cmd_exec_in(cmd, in, inlen);
	kfree(in);
	return err;
}

int mlx5x_fw_query_qp(struct mlx5x_cmd *cmd, u32 qpn, struct mlx5x_qp_mod *m)
{
	__be32 in[MLX5X_CMD_HDR_IN_LEN / 4] = {};
	void *out;
	int err;

	out = kzalloc(MLX5X_QUERY_QP_OUT_LEN, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	mlx5x_cmd_in_hdr(in, MLX5X_CMD_OP_QUERY_QP, 0);
	MLX5X_SET(in, MLX5X_QP_IN_QPN, qpn);
	err = mlx5x_cmd_exec(cmd, in, sizeof(in), out, MLX5X_QUERY_QP_OUT_LEN);
	if (!err)
		mlx5x_qpc_decode(out + MLX5X_QUERY_QP_OUT_QPC_OFF, m);
	kfree(out);
	return err;
}

int mlx5x_fw_destroy_qp(struct mlx5x_cmd *cmd, u32 qpn)
{
	return mlx5x_fw_exec_id(cmd, MLX5X_CMD_OP_DESTROY_QP, qpn);
}

/* ---- box helpers for fw_srq.c ---- */

void mlx5x_fw_set64(void *buf, size_t off, u64 v)
{
	fw_set64(buf, off, v);
}

void *mlx5x_fw_pas_box(u16 opcode, size_t base, unsigned int pas_off,
		       const struct mlx5x_pas *pas, size_t nslots,
		       size_t *inlen)
{
	return fw_pas_box(opcode, base, pas_off, pas, nslots, inlen);
}

u8 mlx5x_fw_log_page_size(unsigned long pgsz)
{
	return fw_log_page_size(pgsz);
}

/* ---- XRC domains ---- */

int mlx5x_fw_alloc_xrcd(struct mlx5x_cmd *cmd, u32 *xrcdn)
{
	return mlx5x_fw_alloc_id(cmd, MLX5X_CMD_OP_ALLOC_XRCD, xrcdn);
}

int mlx5x_fw_dealloc_xrcd(struct mlx5x_cmd *cmd, u32 xrcdn)
{
	return mlx5x_fw_exec_id(cmd, MLX5X_CMD_OP_DEALLOC_XRCD, xrcdn);
}
