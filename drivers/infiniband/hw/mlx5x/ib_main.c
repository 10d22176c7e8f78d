// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RDMA device: registration (the "ibdev" probe stage, after the EQs
 * and before nothing: it is undone first), the ops table, device, port,
 * GID and P_Key queries, and the translation of the HCA's async events
 * into ib events.
 *
 * Kernel verbs (kcq.c, kqp.c, kah.c) make it a provider for the kernel's
 * own clients too: ib_core attaches ib_mad, ib_cm, IPoIB and rdma_cm.
 * The port is either configured by the device itself (the HCA vport
 * reports it ACTIVE with a LID) or, on a subnet, by a subnet manager
 * through the firmware's SMA (mad.c); every port query asks the device,
 * so what the SM set is what the next query returns, and the PORT_CHANGE
 * events tell ib_core to refresh its cache.
 */
#include <linux/log2.h>
#include <linux/pci.h>
#include <linux/sysfs.h>
#include <rdma/ib_mad.h>
#include <rdma/uverbs_ioctl.h>

#include "ib.h"
#include "kmr.h"
#include "umr.h"
#include "mlx5x.h"

/* Largest send WQE the device limits are computed for (as mlx5 does). */
#define MLX5X_MAX_SQ_DESC	512
/*
 * Control and remote address segments of a send WQE, as mlx5_ib counts
 * max_send_sge and max_sge_rd.  A type with more overhead (UD's
 * datagram segment) cannot take that many: its QP creation refuses a
 * request whose largest WQE exceeds the device's, as mlx5_ib does.
 */
#define MLX5X_SQ_WQE_OVERHEAD	(16 + 16)
#define MLX5X_WQE_DATA_SEG_LEN	16

/* IEEE OUI of Mellanox, the vendor of every ConnectX */
#define MLX5X_MELLANOX_OUI	0x02c9

/* 8 << n GIDs and 128 << n P_Keys per port (n = the caps encoding). */
#define MLX5X_GID_TABLE_MIN	8
#define MLX5X_PKEY_TABLE_MIN	128
#define MLX5X_TABLE_LOG_MAX	4

static struct mlx5x_dev *ib_mdev(struct mlx5x_ib_dev *dev)
{
	return dev->mdev;
}

/*
 * Copy a driver request of at least @min bytes into @req (@size bytes,
 * zero-filled first).  Bytes past @size must be zero: they would be
 * fields of a newer ABI this driver does not know.
 */
int mlx5x_ib_udata_in(struct ib_udata *udata, void *req, size_t min,
		      size_t size)
{
	memset(req, 0, size);
	if (udata->inlen < min)
		return -EINVAL;
	if (udata->inlen > size &&
	    !ib_is_udata_cleared(udata, size, udata->inlen - size))
		return -EOPNOTSUPP;
	return ib_copy_from_udata(req, udata, min(udata->inlen, size));
}

struct mlx5x_eq *mlx5x_ib_comp_eq(struct mlx5x_ib_dev *dev, u32 vector)
{
	struct mlx5x_eq_table *eqs = &ib_mdev(dev)->hca.eqs;

	return &eqs->comp[vector % eqs->ncomp];
}

/* ---- device and port queries ---- */

static int mlx5x_ib_query_device(struct ib_device *ibdev,
				 struct ib_device_attr *props,
				 struct ib_udata *uhw)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibdev);
	const struct mlx5x_verbs_caps *c = &dev->caps;
	struct mlx5x_dev *mdev = ib_mdev(dev);
	u32 sq_desc = min_t(u32, c->max_wqe_sz_sq, MLX5X_MAX_SQ_DESC);
	u32 send_sge, recv_sge;

	/* no driver-specific query: libmlx5 sends none (cmds_supp_uhw 0) */
	if (uhw && uhw->inlen && !ib_is_udata_cleared(uhw, 0, uhw->inlen))
		return -EINVAL;

	send_sge = (sq_desc - MLX5X_SQ_WQE_OVERHEAD) / MLX5X_WQE_DATA_SEG_LEN;
	recv_sge = c->max_wqe_sz_rq / MLX5X_WQE_DATA_SEG_LEN;
	memset(props, 0, sizeof(*props));
	props->fw_ver = (u64)mdev->fw.major << 32 | (u64)mdev->fw.minor << 16 |
			mdev->fw.sub;
	props->sys_image_guid = ibdev->node_guid;
	props->max_mr_size = ~0ULL;
	props->page_size_cap = ~((1UL << c->log_pg_sz) - 1);
	props->vendor_id = dev->vendor_id;
	props->vendor_part_id = mdev->pdev->device;
	props->hw_ver = mdev->pdev->revision;
	props->max_qp = 1 << c->log_max_qp;
	props->max_qp_wr = 1 << c->log_max_qp_sz;
	props->device_cap_flags = IB_DEVICE_PORT_ACTIVE_EVENT |
				  IB_DEVICE_SYS_IMAGE_GUID |
				  IB_DEVICE_RC_RNR_NAK_GEN;
	if (c->pkv)
		props->device_cap_flags |= IB_DEVICE_BAD_PKEY_CNTR;
	if (c->qkv)
		props->device_cap_flags |= IB_DEVICE_BAD_QKEY_CNTR;
	props->max_send_sge = send_sge;
	props->max_recv_sge = recv_sge;
	props->max_sge_rd = send_sge;
	props->max_cq = 1 << c->log_max_cq;
	props->max_cqe = (1 << c->log_max_cq_sz) - 1;
	props->max_mr = 1 << c->log_max_mkey;
	props->max_pd = 1 << c->log_max_pd;
	props->max_srq = 1 << c->log_max_srq;
	props->max_srq_wr = (1 << c->log_max_srq_sz) - 1;
	/* the first 16 bytes of an SRQ WQE are its next-WQE segment */
	props->max_srq_sge = recv_sge - 1;
	if (c->xrc)
		props->device_cap_flags |= IB_DEVICE_XRC;
	if (c->mw) {
		props->device_cap_flags |= IB_DEVICE_MEM_WINDOW |
					   IB_DEVICE_MEM_WINDOW_TYPE_2B;
		props->max_mw = 1 << c->log_max_mkey;
	}
	/* IB_WR_REG_MR always changes the page size by UMR */
	if (!c->umr_entity_size_disabled) {
		props->device_cap_flags |= IB_DEVICE_MEM_MGT_EXTENSIONS;
		props->max_fast_reg_page_list_len = mlx5x_kmr_max_pages(c);
	}
	props->max_qp_rd_atom = 1 << c->log_max_ra_res_qp;
	props->max_qp_init_rd_atom = 1 << c->log_max_ra_req_qp;
	props->max_res_rd_atom = props->max_qp_rd_atom * props->max_qp;
	props->atomic_cap = c->atomic ? IB_ATOMIC_HCA : IB_ATOMIC_NONE;
	props->max_pkeys = dev->pkey_tbl_len;
	/* ATTACH_TO_MCG's limits (user space reads them to offer multicast) */
	props->max_mcast_grp = 1 << c->log_max_mcg;
	props->max_mcast_qp_attach = c->max_qp_mcg;
	props->max_total_mcast_qp_attach = props->max_mcast_qp_attach *
					   props->max_mcast_grp;
	props->local_ca_ack_delay = c->local_ca_ack_delay;
	props->hca_core_clock = c->device_frequency_khz;
	return 0;
}

int mlx5x_port_width_to_ib(u16 width, u8 *ib_width)
{
	switch (width) {
	case MLX5X_PTYS_WIDTH_1X:
		*ib_width = IB_WIDTH_1X;
		return 0;
	case MLX5X_PTYS_WIDTH_2X:
		*ib_width = IB_WIDTH_2X;
		return 0;
	case MLX5X_PTYS_WIDTH_4X:
		*ib_width = IB_WIDTH_4X;
		return 0;
	case MLX5X_PTYS_WIDTH_8X:
		*ib_width = IB_WIDTH_8X;
		return 0;
	case MLX5X_PTYS_WIDTH_12X:
		*ib_width = IB_WIDTH_12X;
		return 0;
	default:
		return -EINVAL;
	}
}

/* PVLC vl_hw_cap (data VLs) to the PortInfo VLCap code. */
int mlx5x_port_vl_to_ib(u8 vl_hw_cap, u8 *max_vl_num)
{
	switch (vl_hw_cap) {
	case 1:
		*max_vl_num = 1;
		return 0;
	case 2:
		*max_vl_num = 2;
		return 0;
	case 4:
		*max_vl_num = 3;
		return 0;
	case 8:
		*max_vl_num = 4;
		return 0;
	case 15:
		*max_vl_num = 5;
		return 0;
	default:
		return -EINVAL;
	}
}

/* The PTYS IB speed bits are the ib_port_speed values (SDR 1 .. HDR 64). */
static u16 port_speed_to_ib(u16 proto)
{
	return is_power_of_2(proto) && proto <= IB_SPEED_HDR ? proto :
								IB_SPEED_SDR;
}

static int port_oper_to_attr(struct mlx5x_ib_dev *dev,
			     const struct mlx5x_port_oper *oper,
			     struct ib_port_attr *props)
{
	if (mlx5x_port_vl_to_ib(oper->vl_hw_cap, &props->max_vl_num)) {
		ibdev_err_ratelimited(&dev->ibdev, "port reports %u data VLs, not 1, 2, 4, 8 or 15\n",
				      oper->vl_hw_cap);
		return -EINVAL;
	}
	if (mlx5x_port_width_to_ib(oper->width, &props->active_width))
		props->active_width = IB_WIDTH_4X;
	props->active_speed = port_speed_to_ib(oper->proto);
	props->max_mtu = ib_mtu_int_to_enum(oper->max_mtu);
	props->active_mtu = ib_mtu_int_to_enum(oper->oper_mtu);
	return 0;
}

static int mlx5x_ib_query_port(struct ib_device *ibdev, u32 port,
			       struct ib_port_attr *props)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibdev);
	struct mlx5x_port_oper oper;
	struct mlx5x_vport_ctx ctx;
	int err;

	err = mlx5x_fw_query_vport_ctx(dev->cmd, mlx5x_ib_vport_port(dev, port),
				       &ctx);
	if (err)
		return err;
	err = mlx5x_fw_query_port_oper(dev->cmd, port, &oper);
	if (err)
		return err;
	props->state = ctx.port_state;
	props->phys_state = ctx.phys_state;
	props->lid = ctx.lid;
	props->lmc = ctx.lmc;
	props->sm_lid = ctx.sm_lid;
	props->sm_sl = ctx.sm_sl;
	props->subnet_timeout = ctx.subnet_timeout;
	props->init_type_reply = ctx.init_type_reply;
	props->port_cap_flags = ctx.cap_mask1;
	props->port_cap_flags2 = ctx.cap_mask2;
	props->bad_pkey_cntr = ctx.pkey_viol;
	props->qkey_viol_cntr = ctx.qkey_viol;
	props->gid_tbl_len = dev->gid_tbl_len;
	props->pkey_tbl_len = dev->pkey_tbl_len;
	props->max_msg_sz = 1U << dev->caps.log_max_msg;
	return port_oper_to_attr(dev, &oper, props);
}

static int mlx5x_ib_query_gid(struct ib_device *ibdev, u32 port, int index,
			      union ib_gid *gid)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibdev);

	if (index < 0 || index >= dev->gid_tbl_len)
		return -EINVAL;
	return mlx5x_fw_query_vport_gid(dev->cmd, mlx5x_ib_vport_port(dev, port),
					index, gid->raw);
}

static int mlx5x_ib_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			       u16 *pkey)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibdev);

	if (index >= dev->pkey_tbl_len)
		return -EINVAL;
	return mlx5x_fw_query_vport_pkey(dev->cmd, mlx5x_ib_vport_port(dev, port),
					 index, pkey);
}

static int mlx5x_ib_port_immutable(struct ib_device *ibdev, u32 port,
				   struct ib_port_immutable *immutable)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibdev);
	struct mlx5x_vport_ctx ctx;
	int err;

	err = mlx5x_fw_query_vport_ctx(dev->cmd, mlx5x_ib_vport_port(dev, port),
				       &ctx);
	if (err)
		return err;
	/* without ib_virt the PF owns the port's SMI (mlx5_ib's has_smi) */
	if (!dev->caps.ib_virt || ctx.has_smi)
		dev->smi_ports |= BIT(port);
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_IB;
	if (ctx.grh_required)
		immutable->core_cap_flags |= RDMA_CORE_PORT_IB_GRH_REQUIRED;
	immutable->gid_tbl_len = dev->gid_tbl_len;
	immutable->pkey_tbl_len = dev->pkey_tbl_len;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

/* libmlx5 and ibv_devinfo print it as major.minor.subminor */
static void mlx5x_ib_fw_str(struct ib_device *ibdev, char *str)
{
	struct mlx5x_dev *mdev = to_mibdev(ibdev)->mdev;

	snprintf(str, IB_FW_VERSION_NAME_MAX, "%u.%u.%04u", mdev->fw.major,
		 mdev->fw.minor, mdev->fw.sub);
}

static ssize_t board_id_show(struct device *device,
			     struct device_attribute *attr, char *buf)
{
	struct mlx5x_ib_dev *dev =
		rdma_device_to_drv_device(device, struct mlx5x_ib_dev, ibdev);

	return sysfs_emit(buf, "%s\n", dev->mdev->hca.psid);
}
static DEVICE_ATTR_RO(board_id);

static ssize_t hca_type_show(struct device *device,
			     struct device_attribute *attr, char *buf)
{
	struct mlx5x_ib_dev *dev =
		rdma_device_to_drv_device(device, struct mlx5x_ib_dev, ibdev);

	return sysfs_emit(buf, "MT%d\n", dev->mdev->pdev->device);
}
static DEVICE_ATTR_RO(hca_type);

static ssize_t hw_rev_show(struct device *device,
			   struct device_attribute *attr, char *buf)
{
	struct mlx5x_ib_dev *dev =
		rdma_device_to_drv_device(device, struct mlx5x_ib_dev, ibdev);

	return sysfs_emit(buf, "%x\n", dev->mdev->pdev->revision);
}
static DEVICE_ATTR_RO(hw_rev);

static struct attribute *mlx5x_ib_attrs[] = {
	&dev_attr_board_id.attr,
	&dev_attr_hca_type.attr,
	&dev_attr_hw_rev.attr,
	NULL
};

static const struct attribute_group mlx5x_ib_attr_group = {
	.attrs = mlx5x_ib_attrs,
};

/*
 * ---- async events ----
 *
 * The HCA core reports them while the device is registered (it listens
 * from registration until mlx5x_ib_fini() stops it, which waits for the
 * callbacks): port and QP/SRQ events from the async EQ's interrupt
 * handler, the fatal one from the health poller's work item.
 * ib_dispatch_event() only queues work, with GFP_ATOMIC.
 */

/*
 * The PORT_CHANGE sub-types, as mlx5_ib maps them.  An SM's changes of
 * the LID, LMC or SM LID come as LID changes and its re-registration
 * request as CLIENT_REREG: the device has no sub-type of its own for an
 * SM change, so IB_EVENT_SM_CHANGE never comes from here (ib_sa rebuilds
 * its SM address on LID_CHANGE and CLIENT_REREGISTER too).  Each event
 * makes ib_core re-read the port through query_port, which asks the
 * device every time: nothing in the driver caches port attributes.
 */
enum ib_event_type mlx5x_port_event_to_ib(u8 sub_type, bool *known)
{
	*known = true;
	switch (sub_type) {
	case MLX5X_PORT_CHANGE_ACTIVE:
		return IB_EVENT_PORT_ACTIVE;
	case MLX5X_PORT_CHANGE_DOWN:
	case MLX5X_PORT_CHANGE_INITIALIZED:
		return IB_EVENT_PORT_ERR;
	case MLX5X_PORT_CHANGE_LID:
		return IB_EVENT_LID_CHANGE;
	case MLX5X_PORT_CHANGE_PKEY:
		return IB_EVENT_PKEY_CHANGE;
	case MLX5X_PORT_CHANGE_GUID:
		return IB_EVENT_GID_CHANGE;
	case MLX5X_PORT_CHANGE_CLIENT_REREG:
		return IB_EVENT_CLIENT_REREGISTER;
	default:
		*known = false;
		return IB_EVENT_PORT_ERR;
	}
}

/* @ctx: the device whose HCA's async EQ saw the event. */
static void ib_port_event(void *ctx, u8 port, u8 sub_type)
{
	struct mlx5x_ib_dev *dev = ctx;
	struct ib_event ev = {};
	bool known;

	ev.event = mlx5x_port_event_to_ib(sub_type, &known);
	if (!known || !rdma_is_port_valid(&dev->ibdev, port))
		return;
	/* the link went up or down: its speed may be another now */
	if (ev.event == IB_EVENT_PORT_ACTIVE || ev.event == IB_EVENT_PORT_ERR)
		mlx5x_dispatch_speed_change(&dev->ibdev);
	ev.device = &dev->ibdev;
	ev.element.port_num = port;
	ib_dispatch_event(&ev);
}

/* The HCA is in the error state: tell the users. */
static void ib_fatal_event(void *ctx)
{
	struct mlx5x_ib_dev *dev = ctx;
	struct ib_event ev = {
		.device = &dev->ibdev,
		.event = IB_EVENT_DEVICE_FATAL,
		.element.port_num = 1,
	};

	ib_dispatch_event(&ev);
}

enum ib_event_type mlx5x_qp_event_to_ib(u8 type, bool *known)
{
	*known = true;
	switch (type) {
	case MLX5X_EVENT_PATH_MIG:
		return IB_EVENT_PATH_MIG;
	case MLX5X_EVENT_COMM_EST:
		return IB_EVENT_COMM_EST;
	case MLX5X_EVENT_SQ_DRAINED:
		return IB_EVENT_SQ_DRAINED;
	case MLX5X_EVENT_SRQ_LAST_WQE:
		return IB_EVENT_QP_LAST_WQE_REACHED;
	case MLX5X_EVENT_WQ_CATAS_ERROR:
		return IB_EVENT_QP_FATAL;
	case MLX5X_EVENT_PATH_MIG_FAILED:
		return IB_EVENT_PATH_MIG_ERR;
	case MLX5X_EVENT_WQ_INVAL_REQ_ERROR:
		return IB_EVENT_QP_REQ_ERR;
	case MLX5X_EVENT_WQ_ACCESS_ERROR:
		return IB_EVENT_QP_ACCESS_ERR;
	default:
		*known = false;
		return IB_EVENT_QP_FATAL;
	}
}

static void ib_qp_event(struct mlx5x_ib_dev *dev, struct ib_event *ev,
			u32 qpn)
{
	struct mlx5x_ib_qp *qp;

	qp = mlx5x_qp_get(dev, qpn);
	if (!qp) {
		ibdev_dbg(&dev->ibdev, "event %d for unknown QP 0x%x\n",
			  ev->event, qpn);
		return;
	}
	if (qp->ibqp.event_handler) {
		ev->device = &dev->ibdev;
		ev->element.qp = &qp->ibqp;
		qp->ibqp.event_handler(ev, qp->ibqp.qp_context);
	}
	mlx5x_qp_put(qp);
}

/* @ctx: the device; @type: EQE type; @qpn: the QP (or SRQ) it names. */
static void ib_qp_async_event(void *ctx, u8 type, u32 qpn)
{
	struct mlx5x_ib_dev *dev = ctx;
	struct ib_event ev = {};
	bool known;

	ev.event = mlx5x_qp_event_to_ib(type, &known);
	if (known)
		ib_qp_event(dev, &ev, qpn);
	else
		mlx5x_ib_srq_event(dev, type, qpn);
}

static const struct mlx5x_hca_events mlx5x_ib_hca_events = {
	.port_change = ib_port_event,
	.qp_event = ib_qp_async_event,
	.fatal = ib_fatal_event,
};

/* ---- registration ---- */

static const struct ib_device_ops mlx5x_ib_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_MLX5,
	.uverbs_abi_ver = MLX5_IB_UVERBS_ABI_VERSION,

	.query_device = mlx5x_ib_query_device,
	.query_port = mlx5x_ib_query_port,
	.query_gid = mlx5x_ib_query_gid,
	.query_pkey = mlx5x_ib_query_pkey,
	.get_port_immutable = mlx5x_ib_port_immutable,
	.modify_port = mlx5x_ib_modify_port,
	.process_mad = mlx5x_ib_process_mad,
	.get_dev_fw_str = mlx5x_ib_fw_str,
	.device_group = &mlx5x_ib_attr_group,
	.alloc_hw_device_stats = mlx5x_ib_alloc_device_stats,
	.alloc_hw_port_stats = mlx5x_ib_alloc_port_stats,
	.get_hw_stats = mlx5x_ib_get_hw_stats,
	.fill_res_qp_entry = mlx5x_ib_fill_res_qp,
	.fill_res_cq_entry = mlx5x_ib_fill_res_cq,
	.fill_res_mr_entry = mlx5x_ib_fill_res_mr,

	.alloc_ucontext = mlx5x_ib_alloc_ucontext,
	.dealloc_ucontext = mlx5x_ib_dealloc_ucontext,
	.query_ucontext = mlx5x_ib_query_ucontext,
	.disassociate_ucontext = mlx5x_ib_disassociate_ucontext,
	.mmap = mlx5x_ib_mmap,
	.mmap_free = mlx5x_ib_mmap_free,

	.alloc_pd = mlx5x_ib_alloc_pd,
	.dealloc_pd = mlx5x_ib_dealloc_pd,
	.get_dma_mr = mlx5x_ib_get_dma_mr,
	.reg_user_mr = mlx5x_ib_reg_user_mr,
	.rereg_user_mr = mlx5x_ib_rereg_user_mr,
	.dereg_mr = mlx5x_ib_dereg_mr,
	.alloc_mr = mlx5x_ib_alloc_mr,
	.map_mr_sg = mlx5x_ib_map_mr_sg,
	.create_cq = mlx5x_ib_create_cq,
	.destroy_cq = mlx5x_ib_destroy_cq,
	.MLX5X_RESIZE_CQ_OP = mlx5x_ib_resize_cq,
	.poll_cq = mlx5x_ib_poll_cq,
	.req_notify_cq = mlx5x_ib_req_notify_cq,
	.create_qp = mlx5x_ib_create_qp,
	.modify_qp = mlx5x_ib_modify_qp,
	.query_qp = mlx5x_ib_query_qp,
	.destroy_qp = mlx5x_ib_destroy_qp,
	.post_send = mlx5x_ib_post_send,
	.post_recv = mlx5x_ib_post_recv,
	.create_ah = mlx5x_ib_create_ah,
	.destroy_ah = mlx5x_ib_destroy_ah,
	.query_ah = mlx5x_ib_query_ah,
	.create_srq = mlx5x_ib_create_srq,
	.modify_srq = mlx5x_ib_modify_srq,
	.query_srq = mlx5x_ib_query_srq,
	.destroy_srq = mlx5x_ib_destroy_srq,
	.post_srq_recv = mlx5x_ib_post_srq_recv,
	.attach_mcast = mlx5x_ib_attach_mcast,
	.detach_mcast = mlx5x_ib_detach_mcast,

	INIT_RDMA_OBJ_SIZE(ib_ucontext, mlx5x_ib_ucontext, ibuc),
	INIT_RDMA_OBJ_SIZE(ib_pd, mlx5x_ib_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_ah, mlx5x_ib_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, mlx5x_ib_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_qp, mlx5x_ib_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, mlx5x_ib_srq, ibsrq),
};

/* Only on devices with the XRC capability. */
static const struct ib_device_ops mlx5x_ib_xrc_ops = {
	.alloc_xrcd = mlx5x_ib_alloc_xrcd,
	.dealloc_xrcd = mlx5x_ib_dealloc_xrcd,

	INIT_RDMA_OBJ_SIZE(ib_xrcd, mlx5x_ib_xrcd, ibxrcd),
};

/* Only on devices with memory windows (imaicl). */
static const struct ib_device_ops mlx5x_ib_mw_ops = {
	.alloc_mw = mlx5x_ib_alloc_mw,
	.dealloc_mw = mlx5x_ib_dealloc_mw,

	INIT_RDMA_OBJ_SIZE(ib_mw, mlx5x_ib_mw, ibmw),
};

/* Capabilities, identity and node data, read once before registering. */
static int ib_query_identity(struct mlx5x_ib_dev *dev)
{
	struct mlx5x_vport_ctx ctx;
	int err;

	err = mlx5x_fw_query_verbs_caps(dev->cmd, &dev->caps);
	if (err)
		return err;
	if (dev->caps.port_type != MLX5X_CAP_PORT_TYPE_IB ||
	    !dev->caps.num_ports) {
		dev_err(&dev->mdev->pdev->dev, "verbs: only InfiniBand ports are supported (port type %u, %u ports)\n",
			dev->caps.port_type, dev->caps.num_ports);
		return -EOPNOTSUPP;
	}
	if (dev->caps.gid_table_size > MLX5X_TABLE_LOG_MAX ||
	    dev->caps.pkey_table_size > MLX5X_TABLE_LOG_MAX)
		return -EINVAL;
	dev->gid_tbl_len = MLX5X_GID_TABLE_MIN << dev->caps.gid_table_size;
	dev->pkey_tbl_len = MLX5X_PKEY_TABLE_MIN << dev->caps.pkey_table_size;
	/*
	 * From the "ready" stage's QUERY_ADAPTER, which may have failed
	 * without failing the probe; every function mlx5x binds is a
	 * Mellanox one.
	 */
	dev->vendor_id = dev->mdev->hca.vendor_id ?: MLX5X_MELLANOX_OUI;
	err = mlx5x_fw_query_vport_ctx(dev->cmd, mlx5x_ib_vport_port(dev, 1), &ctx);
	if (err)
		return err;
	dev->ibdev.node_guid = ctx.node_guid;
	/* the description is cosmetic (sysfs node_desc): keep a default */
	if (mlx5x_fw_query_node_desc(dev->cmd, dev->ibdev.node_desc,
				     sizeof(dev->ibdev.node_desc)))
		strscpy(dev->ibdev.node_desc, "mlx5x",
			sizeof(dev->ibdev.node_desc));
	return 0;
}

static void ib_setup_device(struct mlx5x_ib_dev *dev)
{
	struct mlx5x_dev *mdev = dev->mdev;
	struct ib_device *ibdev = &dev->ibdev;

	ibdev->node_type = RDMA_NODE_IB_CA;
	ibdev->phys_port_cnt = dev->caps.num_ports;
	ibdev->num_comp_vectors = mdev->hca.eqs.ncomp;
	ibdev->dev.parent = &mdev->pdev->dev;
	ibdev->driver_def = mlx5x_ib_uapi_defs;
	ib_set_device_ops(ibdev, &mlx5x_ib_ops);
	if (dev->caps.xrc)
		ib_set_device_ops(ibdev, &mlx5x_ib_xrc_ops);
	if (dev->caps.mw)
		ib_set_device_ops(ibdev, &mlx5x_ib_mw_ops);
	dev->uar_geom = mdev->hca.uar_geom;
	dev->bar_start = pci_resource_start(mdev->pdev, 0);
	mlx5x_res_table_init(&dev->qps);
	mlx5x_res_table_init(&dev->srqs);
	mutex_init(&dev->port_caps_lock);
}

/**
 * mlx5x_ib_init() - probe stage "ibdev": register the RDMA device
 * @mdev: a function whose EQs are up
 */
int mlx5x_ib_init(struct mlx5x_dev *mdev)
{
	struct mlx5x_ib_dev *dev;
	int err;

	dev = ib_alloc_device(mlx5x_ib_dev, ibdev);
	if (!dev)
		return -ENOMEM;
	dev->mdev = mdev;
	dev->cmd = &mdev->hca.cmd;
	err = ib_query_identity(dev);
	if (err)
		goto err_dealloc;
	ib_setup_device(dev);
	/* before the UMR QP and any user QP or SRQ, which name them */
	err = mlx5x_devr_init(dev);
	if (err)
		goto err_dealloc;
	/* ib_mad attaches at registration and creates kernel CQs and QPs */
	err = mlx5x_kverbs_init(dev);
	if (err)
		goto err_devr;
	/* optional: without it re-registration always builds a new key */
	err = mlx5x_umr_init(dev);
	if (err)
		dev_warn(&mdev->pdev->dev, "no UMR QP (%d): rereg makes new keys\n",
			 err);
	err = ib_register_device(&dev->ibdev, "mlx5x_%d", &mdev->pdev->dev);
	if (err) {
		dev_err(&mdev->pdev->dev, "ib_register_device: %d\n", err);
		goto err_umr;
	}
	dev->listener.ops = &mlx5x_ib_hca_events;
	dev->listener.ctx = dev;
	mlx5x_hca_listen(&mdev->hca, &dev->listener);
	mdev->ib = dev;
	dev_info(&mdev->pdev->dev, "registered %s: node GUID %016llx, %u port(s), %u completion vector(s), CQE version %u, atomics %s\n",
		 dev_name(&dev->ibdev.dev), be64_to_cpu(dev->ibdev.node_guid),
		 dev->ibdev.phys_port_cnt, dev->ibdev.num_comp_vectors,
		 dev->caps.cqe_version, dev->caps.atomic ? "yes" : "no");
	return 0;

err_umr:
	mlx5x_umr_fini(dev);
	mlx5x_kverbs_fini(dev);
err_devr:
	mlx5x_devr_fini(dev);
err_dealloc:
	ib_dealloc_device(&dev->ibdev);
	return err;
}

/*
 * Before the EQs go: stop the HCA's events (waits for a callback that
 * may still use the device), then unregister (which destroys what user
 * space left behind, through the destroy verbs).
 */
void mlx5x_ib_fini(struct mlx5x_dev *mdev)
{
	struct mlx5x_ib_dev *dev = mdev->ib;

	mlx5x_hca_unlisten(&mdev->hca);
	mdev->ib = NULL;
	ib_unregister_device(&dev->ibdev);
	mlx5x_umr_fini(dev);
	mlx5x_kverbs_fini(dev);
	mlx5x_devr_fini(dev);
	mlx5x_res_table_destroy(&dev->qps);
	mlx5x_res_table_destroy(&dev->srqs);
	mutex_destroy(&dev->port_caps_lock);
	ib_dealloc_device(&dev->ibdev);
}
