// SPDX-License-Identifier: GPL-2.0-only
/*
 * The InfiniBand management path: which MADs the firmware's agents answer
 * (process_mad, through MAD_IFC), the host's bits of the port's
 * CapabilityMask (modify_port: IsSM for opensm, IsCM for ib_cm) and the
 * multicast groups of UD QPs (attach_mcast/detach_mcast).
 *
 * The firmware holds the port's subnet management agent (SMA) and its
 * performance management agent (PMA); ib_mad owns QP0/QP1 and offers
 * every MAD it receives, and every directed-route SMP it turns around
 * locally, to process_mad first.  What the driver does not claim goes on
 * to the MAD agents the host registered (opensm, ib_sa, ib_cm, umad).
 *
 * PerfMgt MADs all go to the firmware PMA, Get and Set alike.  mlx5_ib
 * answers PerfMgt Get itself from QUERY_VPORT_COUNTER and PPCNT when the
 * device has vport_counters, but that path fills in only the counter
 * payload and not the response header, and reading port error counters
 * would need PPCNT groups mlx5x does not decode.  The firmware PMA is
 * available on every ConnectX PF and returns a complete response MAD that
 * is valid both on the wire (perfquery from another node) and for the
 * sysfs counters, so one path serves every caller.
 */
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>

#include "ib.h"
#include "mlx5x.h"

/* Mellanox vendor classes the firmware answers, as mlx5_ib forwards them */
#define MLX5X_MGMT_CLASS_VENDOR1	0x09
#define MLX5X_MGMT_CLASS_VENDOR2	0x0a

static bool mad_is_smp(u8 mgmt_class)
{
	return mgmt_class == IB_MGMT_CLASS_SUBN_LID_ROUTED ||
	       mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
}

/**
 * mlx5x_mad_action() - what process_mad does with a MAD
 * @hdr: the MAD's common header
 * @slid: the source LID of the receive completion, or the permissive
 *	LID when the MAD was not received (local SMPs, sysfs)
 *
 * Return: MLX5X_MAD_CONSUME for a trap from LID 0 (a local, meaningless
 * one), MLX5X_MAD_FW for the methods of the classes the firmware's agents
 * serve (SMP Get/Set/TrapRepress except SMInfo, which the host's SM
 * answers; PerfMgt, vendor and congestion Get/Set), MLX5X_MAD_PASS for
 * anything else: it goes on to the host's agents.
 */
enum mlx5x_mad_action mlx5x_mad_action(const struct ib_mad_hdr *hdr,
				       u16 slid)
{
	u8 method = hdr->method;

	if (method == IB_MGMT_METHOD_TRAP && !slid)
		return MLX5X_MAD_CONSUME;

	switch (hdr->mgmt_class) {
	case IB_MGMT_CLASS_SUBN_LID_ROUTED:
	case IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE:
		if (method != IB_MGMT_METHOD_GET &&
		    method != IB_MGMT_METHOD_SET &&
		    method != IB_MGMT_METHOD_TRAP_REPRESS)
			return MLX5X_MAD_PASS;
		if (hdr->attr_id == IB_SMP_ATTR_SM_INFO)
			return MLX5X_MAD_PASS;
		return MLX5X_MAD_FW;
	case IB_MGMT_CLASS_PERF_MGMT:
	case MLX5X_MGMT_CLASS_VENDOR1:
	case MLX5X_MGMT_CLASS_VENDOR2:
	case IB_MGMT_CLASS_CONG_MGMT:
		if (method != IB_MGMT_METHOD_GET &&
		    method != IB_MGMT_METHOD_SET)
			return MLX5X_MAD_PASS;
		return MLX5X_MAD_FW;
	default:
		return MLX5X_MAD_PASS;
	}
}

/**
 * mlx5x_mad_ifc_op_mod() - MAD_IFC's key-check bits
 * @mad_flags: process_mad's IB_MAD_IGNORE_* flags
 * @has_wc: the MAD came with a receive completion
 *
 * A key violation makes the firmware send a trap to the requester, which
 * it can only find through the receive completion: without one both
 * checks are off.
 */
u8 mlx5x_mad_ifc_op_mod(int mad_flags, bool has_wc)
{
	u8 op_mod = 0;

	if ((mad_flags & IB_MAD_IGNORE_MKEY) || !has_wc)
		op_mod |= MLX5X_MAD_IFC_IGNORE_MKEY;
	if ((mad_flags & IB_MAD_IGNORE_BKEY) || !has_wc)
		op_mod |= MLX5X_MAD_IFC_IGNORE_BKEY;
	return op_mod;
}

/**
 * mlx5x_mad_reply() - finish the firmware's response
 * @in: the request's header
 * @out: the response's header, as MAD_IFC returned it
 *
 * The firmware does no directed-route bookkeeping: the driver marks a
 * directed-route response as returning (D bit), ib_mad then sends it back
 * along the reversed path.  A TrapRepress has no response.
 *
 * Return: the IB_MAD_RESULT_* flags process_mad returns.
 */
int mlx5x_mad_reply(const struct ib_mad_hdr *in, struct ib_mad_hdr *out)
{
	if (in->mgmt_class == IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE)
		out->status |= IB_SMP_DIRECTION;
	if (in->method == IB_MGMT_METHOD_TRAP_REPRESS)
		return IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_CONSUMED;
	return IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY;
}

/**
 * mlx5x_ib_port_has_smi() - the port has a subnet management interface
 * @dev: the device
 * @port: IB port number
 *
 * Without ib_virt every IB port has one (the PF owns the port); with it,
 * the vport context says (a virtual function may have none).  Recorded by
 * get_port_immutable, before ib_core adds any client.
 */
bool mlx5x_ib_port_has_smi(struct mlx5x_ib_dev *dev, u32 port)
{
	return port < BITS_PER_TYPE(dev->smi_ports) &&
	       (dev->smi_ports & BIT(port));
}

/**
 * mlx5x_ib_process_mad() - the device's answer to a management datagram
 * @ibdev: the device
 * @mad_flags: IB_MAD_IGNORE_* (sysfs ignores the keys; ib_mad passes 0)
 * @port: the port the MAD arrived on
 * @in_wc: its receive completion, NULL for a MAD made locally
 * @in_grh: its GRH, if any (unused: MAD_IFC has no field for it)
 * @in: the request (256 bytes on an IB port)
 * @out: the response, filled when REPLY is returned
 * @out_mad_size: size of @out; kept (an IB MAD is always 256 bytes)
 * @out_mad_pkey_index: P_Key index of the response; ib_mad's default kept
 *
 * Context: process context; sleeps (firmware command).
 * Return: IB_MAD_RESULT_* flags; FAILURE when the firmware refused the
 * command, so that nothing is sent.
 */
int mlx5x_ib_process_mad(struct ib_device *ibdev, int mad_flags, u32 port,
			 const struct ib_wc *in_wc, const struct ib_grh *in_grh,
			 const struct ib_mad *in, struct ib_mad *out,
			 size_t *out_mad_size, u16 *out_mad_pkey_index)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibdev);
	u16 slid;
	int err;

	slid = in_wc ? ib_lid_cpu16(in_wc->slid) :
		       be16_to_cpu(IB_LID_PERMISSIVE);
	switch (mlx5x_mad_action(&in->mad_hdr, slid)) {
	case MLX5X_MAD_CONSUME:
		return IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_CONSUMED;
	case MLX5X_MAD_PASS:
		return IB_MAD_RESULT_SUCCESS;
	case MLX5X_MAD_FW:
		break;
	}
	if (*out_mad_size < sizeof(*out) || !rdma_is_port_valid(ibdev, port))
		return IB_MAD_RESULT_FAILURE;
	/* a port without SMI must not reach the SMA (mlx5_ib: -EPERM) */
	if (mad_is_smp(in->mad_hdr.mgmt_class) &&
	    !mlx5x_ib_port_has_smi(dev, port))
		return IB_MAD_RESULT_FAILURE;
	err = mlx5x_fw_mad_ifc(dev->cmd,
			       mlx5x_mad_ifc_op_mod(mad_flags, !!in_wc), port,
			       in, out);
	if (err) {
		ibdev_dbg(ibdev, "MAD_IFC class 0x%x method 0x%x attr 0x%x: %d\n",
			  in->mad_hdr.mgmt_class, in->mad_hdr.method,
			  be16_to_cpu(in->mad_hdr.attr_id), err);
		return IB_MAD_RESULT_FAILURE;
	}
	return mlx5x_mad_reply(&in->mad_hdr, &out->mad_hdr);
}

/**
 * mlx5x_port_caps_change() - the CapabilityMask write modify_port makes
 * @pm: the set and clear masks of the request
 * @ib_virt: the device takes a masked write (MODIFY_HCA_VPORT_CONTEXT)
 * @cur: the port's current CapabilityMask
 * @perm: the bits the host may change (vport context); used with ib_virt
 * @mask: the bits to write (with ib_virt; else all)
 * @value: the value to write
 *
 * With ib_virt the firmware changes only @mask and refuses bits outside
 * @perm, so they are refused here first, with a clear errno (what
 * mlx5_ib does).  Without it the whole mask is written to PCAP and the
 * firmware keeps the bits the host does not own.
 *
 * Return: 0, or -EINVAL for a bit the host may not change.
 */
int mlx5x_port_caps_change(const struct ib_port_modify *pm, bool ib_virt,
			   u32 cur, u32 perm, u32 *mask, u32 *value)
{
	if (ib_virt) {
		*mask = pm->set_port_cap_mask | pm->clr_port_cap_mask;
		*value = ~pm->clr_port_cap_mask | pm->set_port_cap_mask;
		return *mask & ~perm ? -EINVAL : 0;
	}
	*mask = U32_MAX;
	*value = (cur | pm->set_port_cap_mask) & ~pm->clr_port_cap_mask;
	return 0;
}

/**
 * mlx5x_ib_modify_port() - set or clear host bits of the CapabilityMask
 * @ibdev: the device
 * @port: IB port number
 * @mask: IB_PORT_* modifications besides the capability bits: none is
 *	supported (ib_cm and ib_umad's issm pass 0)
 * @pm: the capability bits to set and to clear
 *
 * Context: process context; sleeps.
 * Return: 0 or a negative errno; ib_cm does not use a device whose
 * IB_PORT_CM_SUP it cannot set.
 */
int mlx5x_ib_modify_port(struct ib_device *ibdev, u32 port, int mask,
			 struct ib_port_modify *pm)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibdev);
	struct mlx5x_vport_ctx ctx;
	u32 caps_mask, value;
	int err;

	/* shutdown, init type, Q_Key counter reset: no command does these */
	if (mask)
		return -EOPNOTSUPP;
	if (!rdma_is_port_valid(ibdev, port))
		return -EINVAL;

	/* read, compute and write as one step against other modify_port */
	mutex_lock(&dev->port_caps_lock);
	err = mlx5x_fw_query_vport_ctx(dev->cmd, mlx5x_ib_vport_port(dev, port),
				       &ctx);
	if (err)
		goto out;
	err = mlx5x_port_caps_change(pm, dev->caps.ib_virt, ctx.cap_mask1,
				     ctx.cap_mask1_perm, &caps_mask, &value);
	if (err) {
		ibdev_warn(ibdev, "port %u: capability bits 0x%x are not the host's (0x%x)\n",
			   port, caps_mask & ~ctx.cap_mask1_perm,
			   ctx.cap_mask1_perm);
		goto out;
	}
	if (dev->caps.ib_virt)
		err = mlx5x_fw_modify_vport_caps(dev->cmd,
						 mlx5x_ib_vport_port(dev, port),
						 caps_mask, value);
	else
		err = mlx5x_fw_set_port_caps(dev->cmd, port, value);
out:
	mutex_unlock(&dev->port_caps_lock);
	return err;
}

/**
 * mlx5x_mcast_check() - may this QP join this group
 * @type: the QP's type
 * @mgid: the group's GID
 *
 * Only UD QPs receive multicast; a multicast GID starts with 0xff.
 * uverbs passes both unchecked (ib_attach_mcast() checks for kernel
 * callers); the firmware would refuse them with a bad-parameter status,
 * which is this -EINVAL.
 */
int mlx5x_mcast_check(enum ib_qp_type type, const union ib_gid *mgid)
{
	if (type != IB_QPT_UD || mgid->raw[0] != 0xff)
		return -EINVAL;
	return 0;
}

static int ib_mcast(struct ib_qp *ibqp, union ib_gid *gid, bool attach)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibqp->device);
	int err;

	err = mlx5x_mcast_check(ibqp->qp_type, gid);
	if (err)
		return err;
	/* a UD QP's number is the firmware's; the MLID is not the device's */
	err = mlx5x_fw_mcg(dev->cmd, attach, ibqp->qp_num, gid->raw);
	if (err)
		ibdev_warn_ratelimited(&dev->ibdev, "%s QP 0x%x, MGID %pI6: %d\n",
				       attach ? "attaching" : "detaching",
				       ibqp->qp_num, gid->raw, err);
	return err;
}

/**
 * mlx5x_ib_attach_mcast() - deliver a multicast group's datagrams to a QP
 * @ibqp: a UD QP
 * @gid: the group's MGID
 * @lid: the group's MLID: unused, the firmware matches the MGID
 *
 * Context: process context; sleeps.
 * Return: 0 or a negative errno.
 */
int mlx5x_ib_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	return ib_mcast(ibqp, gid, true);
}

/**
 * mlx5x_ib_detach_mcast() - stop delivering a group's datagrams to a QP
 * @ibqp: a UD QP attached to the group
 * @gid: the group's MGID
 * @lid: unused
 *
 * Context: process context; sleeps.
 * Return: 0 or a negative errno.
 */
int mlx5x_ib_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	return ib_mcast(ibqp, gid, false);
}
