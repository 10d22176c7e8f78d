// SPDX-License-Identifier: GPL-2.0-only
/*
 * User shared receive queues (basic and XRC) and XRC domains.
 *
 * libmlx5 lays out the WQE buffer (a linked list of receive WQEs, each a
 * 16-byte next segment and the scatter entries) and the doorbell record,
 * and sends their addresses in struct mlx5_ib_create_srq; the geometry
 * follows from max_wr and max_sge exactly as libmlx5 computes it, so the
 * kernel recomputes it rather than trusting a size.  The firmware form
 * depends on the ISSI negotiated at probe (see fw_srq.c): SRQ commands
 * at ISSI 0; RMPs for basic and XRC SRQ commands for XRC SRQs at ISSI 1.
 *
 * Kernel SRQs (basic only) keep the same list in a coherent ring of
 * their own (struct mlx5x_ksrq): post_srq_recv takes the head, a
 * completion gives its WQE back at the tail.
 *
 * Tag-matching SRQs and resizing are not offered, nor XRC SRQs at ISSI 0
 * for contexts with version 1 CQEs (see mlx5x_srq_form()).
 */
#include <linux/dmapool.h>
#include <linux/log2.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <rdma/ib_umem.h>

#include "ib.h"
#include "kverbs.h"
#include "kwqe.h"
#include "mlx5x.h"

#define MLX5X_SRQC_PGOFF_MAX	63	/* 6-bit srqc.page_offset */
#define MLX5X_WQ_PGOFF_MAX	31	/* 5-bit wq.page_offset */
#define MLX5X_SRQ_NEXT_SEG_LEN	16	/* next-WQE segment */
#define MLX5X_SRQ_DATA_SEG_LEN	16
#define MLX5X_SRQ_WQE_MIN	32	/* libmlx5's smallest stride */
#define MLX5X_SRQ_WQE_SHIFT_MAX	11	/* 3-bit srqc.log_rq_stride + 4 */
#define MLX5X_SRQ_LOG_SIZE_MAX	15	/* 4-bit srqc.log_srq_size */
#define MLX5X_SRQ_UIDX_NONE	0xffffff

/* ---- pure checks ---- */

/**
 * mlx5x_srq_form() - the firmware form of an SRQ
 * @issi: interface step sequence id in use
 * @type: SRQ type
 * @cqe_version: CQE format of the context creating it
 * @form: the form on success
 *
 * Version 1 CQEs name an XRC SRQ by its user index, which only
 * CREATE_XRC_SRQ (ISSI 1) carries: at ISSI 0 such an SRQ's receives
 * could not be matched to it, so it is not offered.
 *
 * Return: 0, or -EOPNOTSUPP for tag-matching SRQs (and any other type)
 * and for XRC SRQs at ISSI 0 with version 1 CQEs.
 */
int mlx5x_srq_form(u16 issi, enum ib_srq_type type, u8 cqe_version,
		   enum mlx5x_srq_form *form)
{
	if (type != IB_SRQT_BASIC && type != IB_SRQT_XRC)
		return -EOPNOTSUPP;
	if (!issi && type == IB_SRQT_XRC && cqe_version)
		return -EOPNOTSUPP;
	if (!issi)
		*form = MLX5X_SRQ_FORM_SRQ;
	else if (type == IB_SRQT_XRC)
		*form = MLX5X_SRQ_FORM_XRC_SRQ;
	else
		*form = MLX5X_SRQ_FORM_RMP;
	return 0;
}

/**
 * mlx5x_srq_sizes() - the SRQ geometry for the attributes asked
 * @attr: max_wr and max_sge asked for
 * @caps: device limits
 * @sz: the geometry on success
 *
 * One WQE more than max_wr, rounded up to a power of two; a stride of the
 * next segment plus max_sge scatter entries, rounded up to a power of two
 * of at least 32 bytes (libmlx5 lays out its buffer by the same rule).
 *
 * Return: 0, or -EINVAL for sizes beyond the device's.
 */
int mlx5x_srq_sizes(const struct ib_srq_attr *attr,
		    const struct mlx5x_verbs_caps *caps,
		    struct mlx5x_srq_sizes *sz)
{
	u32 max_sge = caps->max_wqe_sz_rq / MLX5X_SRQ_DATA_SEG_LEN;
	u8 log_max = min_t(u8, caps->log_max_srq_sz, MLX5X_SRQ_LOG_SIZE_MAX);
	u32 desc;

	memset(sz, 0, sizeof(*sz));
	if (attr->max_wr >= BIT(log_max) || attr->max_sge >= max_sge)
		return -EINVAL;
	desc = MLX5X_SRQ_NEXT_SEG_LEN + attr->max_sge * MLX5X_SRQ_DATA_SEG_LEN;
	desc = max_t(u32, MLX5X_SRQ_WQE_MIN, roundup_pow_of_two(desc));
	if (desc > caps->max_wqe_sz_rq || ilog2(desc) > MLX5X_SRQ_WQE_SHIFT_MAX)
		return -EINVAL;
	sz->wqe_cnt = roundup_pow_of_two(attr->max_wr + 1);
	sz->wqe_shift = ilog2(desc);
	sz->max_gs = (desc - MLX5X_SRQ_NEXT_SEG_LEN) / MLX5X_SRQ_DATA_SEG_LEN;
	sz->buf_size = (size_t)sz->wqe_cnt << sz->wqe_shift;
	return 0;
}

/**
 * mlx5x_srq_check_req() - validate libmlx5's request
 * @ucmd: the request
 * @inlen: bytes of it user space sent
 * @xrc: an XRC SRQ (only those report a user index in their CQEs)
 * @cqe_version: CQE format agreed for the context
 * @uidx: the user index for the device on success
 *
 * Version 1 CQEs name an XRC SRQ by the 24-bit user index libmlx5 picked;
 * version 0 CQEs by its number, so the request carries "none" (or, from
 * an old library, no index at all).  A basic SRQ's receives report the
 * QP's index: libmlx5 leaves the field zero and it is ignored.  WQE
 * signatures are not offered.
 *
 * Return: 0, -EOPNOTSUPP for WQE signatures, -EINVAL for anything else
 * the request gets wrong.
 */
int mlx5x_srq_check_req(const struct mlx5_ib_create_srq *ucmd, size_t inlen,
			bool xrc, u8 cqe_version, u32 *uidx)
{
	bool has_uidx = inlen >= offsetofend(struct mlx5_ib_create_srq, uidx);

	*uidx = MLX5X_SRQ_UIDX_NONE;
	if (ucmd->reserved0 || ucmd->reserved1)
		return -EINVAL;
	if (ucmd->flags & MLX5_SRQ_FLAG_SIGNATURE)
		return -EOPNOTSUPP;
	if (ucmd->flags)
		return -EINVAL;
	if (!ucmd->buf_addr || !ucmd->db_addr)
		return -EINVAL;
	if (!xrc)
		return 0;
	if (!cqe_version)
		return has_uidx && ucmd->uidx != MLX5X_SRQ_UIDX_NONE ?
		       -EINVAL : 0;
	if (!has_uidx || ucmd->uidx >= MLX5X_SRQ_UIDX_NONE)
		return -EINVAL;
	*uidx = ucmd->uidx;
	return 0;
}

/* SRQ_RQ_LIMIT and SRQ_CATAS_ERROR are the SRQ's; the rest a QP's. */
bool mlx5x_srq_event_to_ib(u8 type, enum ib_event_type *event)
{
	switch (type) {
	case MLX5X_EVENT_SRQ_RQ_LIMIT:
		*event = IB_EVENT_SRQ_LIMIT_REACHED;
		return true;
	case MLX5X_EVENT_SRQ_CATAS_ERROR:
		*event = IB_EVENT_SRQ_ERR;
		return true;
	default:
		return false;
	}
}

/* ---- SRQ table for async events ---- */

static struct mlx5x_ib_srq *srq_get(struct mlx5x_ib_dev *dev, u32 srqn)
{
	struct mlx5x_res *res = mlx5x_res_get(&dev->srqs, srqn);

	return res ? container_of(res, struct mlx5x_ib_srq, res) : NULL;
}

/* EQ interrupt context; the caller holds the RCU read lock on @dev. */
void mlx5x_ib_srq_event(struct mlx5x_ib_dev *dev, u8 type, u32 srqn)
{
	struct mlx5x_ib_srq *srq;
	struct ib_event ev = {};

	if (!mlx5x_srq_event_to_ib(type, &ev.event))
		return;
	srq = srq_get(dev, srqn);
	if (!srq) {
		ibdev_dbg(&dev->ibdev, "event %d for unknown SRQ 0x%x\n",
			  ev.event, srqn);
		return;
	}
	if (srq->ibsrq.event_handler) {
		ev.device = &dev->ibdev;
		ev.element.srq = &srq->ibsrq;
		srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
	}
	mlx5x_res_put(&srq->res);
}

static int srq_fw_destroy(void *arg)
{
	struct mlx5x_ib_srq *srq = arg;

	return mlx5x_fw_srq_destroy(to_mibdev(srq->ibsrq.device)->cmd,
				    srq->form, srq->srqn);
}

/*
 * Out of the event table before DESTROY (as mlx5_ib's SRQ table), back
 * in it if the device refuses.
 */
static int srq_destroy_hw(struct mlx5x_ib_dev *dev, struct mlx5x_ib_srq *srq)
{
	int err;

	err = mlx5x_res_destroy(&dev->srqs, srq->srqn, &srq->res,
				srq_fw_destroy, srq);
	if (!err)
		mlx5x_res_release(&srq->res);
	return err;
}

/* ---- creation ---- */

static int srq_pin(struct mlx5x_ib_dev *dev, struct mlx5x_ib_srq *srq,
		   const struct mlx5_ib_create_srq *ucmd, struct mlx5x_pas *pas)
{
	unsigned int max_off = srq->form == MLX5X_SRQ_FORM_RMP ?
			       MLX5X_WQ_PGOFF_MAX : MLX5X_SRQC_PGOFF_MAX;

	return mlx5x_wq_pin(dev, srq->uctx, ucmd->buf_addr,
			    srq->sizes.buf_size, ucmd->db_addr, max_off,
			    &srq->uq, pas);
}

static void srq_unpin(struct mlx5x_ib_srq *srq)
{
	mlx5x_uq_unpin(srq->uctx, &srq->uq);
}

static int srq_create_hw(struct mlx5x_ib_dev *dev, struct mlx5x_ib_srq *srq,
			 const struct ib_srq_init_attr *attr, u32 uidx,
			 dma_addr_t dbr, const struct mlx5x_pas *pas)
{
	bool xrc = attr->srq_type == IB_SRQT_XRC;
	struct mlx5x_srq_params p = {
		.log_size = ilog2(srq->sizes.wqe_cnt),
		.wqe_shift = srq->sizes.wqe_shift,
		.pdn = to_mpd(srq->ibsrq.pd)->pdn,
		/* a basic SRQ names the reserved domain and CQ, as mlx5_ib */
		.xrcd = xrc ? to_mxrcd(attr->ext.xrc.xrcd)->xrcdn :
			      dev->devr.xrcdn0,
		.cqn = xrc ? to_mcq(attr->ext.cq)->mcq.cqn : dev->devr.cqn,
		.user_index = uidx,
		.dbr = dbr,
		.pas = *pas,
	};
	int err;

	err = mlx5x_fw_srq_create(dev->cmd, srq->form, &p, &srq->srqn);
	if (err)
		return err;
	err = mlx5x_res_insert(&dev->srqs, srq->srqn, &srq->res);
	if (err)
		srq_fw_destroy(srq);
	return err;
}

static int srq_read_req(struct ib_udata *udata, bool xrc, u8 cqe_version,
			u32 *uidx, struct mlx5_ib_create_srq *ucmd)
{
	size_t min = offsetof(struct mlx5_ib_create_srq, uidx);
	int err;

	err = mlx5x_ib_udata_in(udata, ucmd, min, sizeof(*ucmd));
	if (err)
		return err;
	return mlx5x_srq_check_req(ucmd, udata->inlen, xrc, cqe_version, uidx);
}

static int srq_check_attr(struct mlx5x_ib_dev *dev,
			  const struct ib_srq_init_attr *attr)
{
	if (attr->srq_type == IB_SRQT_XRC &&
	    (!dev->caps.xrc || !attr->ext.xrc.xrcd || !attr->ext.cq))
		return -EINVAL;
	return 0;
}

static int srq_respond(struct mlx5x_ib_srq *srq, struct ib_udata *udata)
{
	struct mlx5_ib_create_srq_resp resp = { .srqn = srq->srqn };

	return ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
}

static int srq_create_user(struct mlx5x_ib_dev *dev, struct mlx5x_ib_srq *srq,
			   struct ib_srq_init_attr *attr, struct ib_udata *udata)
{
	struct mlx5_ib_create_srq ucmd;
	struct mlx5x_pas pas = {};
	u32 uidx;
	int err;

	srq->uctx = rdma_udata_to_drv_context(udata, struct mlx5x_ib_ucontext,
					      ibuc);
	err = mlx5x_srq_form(dev->mdev->hca.issi, attr->srq_type,
			     srq->uctx->cqe_version, &srq->form);
	if (err)
		return err;
	err = srq_read_req(udata, attr->srq_type == IB_SRQT_XRC,
			   srq->uctx->cqe_version, &uidx, &ucmd);
	if (err)
		return err;
	err = mlx5x_srq_sizes(&attr->attr, &dev->caps, &srq->sizes);
	if (err)
		return err;
	err = srq_pin(dev, srq, &ucmd, &pas);
	if (err)
		return err;
	err = srq_create_hw(dev, srq, attr, uidx, srq->uq.db.dma, &pas);
	if (err)
		goto err_unpin;
	err = srq_respond(srq, udata);
	if (err)
		goto err_destroy;
	return 0;

err_destroy:
	/* the core frees @srq: the table may not keep it, whatever happens */
	if (srq_destroy_hw(dev, srq)) {
		mlx5x_res_remove(&dev->srqs, srq->srqn);
		mlx5x_res_release(&srq->res);
	}
err_unpin:
	srq_unpin(srq);
	return err;
}

/* ---- kernel SRQs ---- */

static void ksrq_free(struct mlx5x_ib_dev *dev, struct mlx5x_ksrq *ksrq)
{
	kfree(ksrq->wrid);
	if (ksrq->dbr)
		dma_pool_free(dev->kdb_pool, ksrq->dbr, ksrq->dbr_dma);
	if (ksrq->ring.buf)
		mlx5x_ring_free(&dev->mdev->pdev->dev, &ksrq->ring);
	kfree(ksrq);
}

/* Every WQE on the free list, in ring order, the last one the tail. */
static void ksrq_link(struct mlx5x_ksrq *ksrq)
{
	u32 i, n = BIT(ksrq->ring.log_n);

	for (i = 0; i < n; i++)
		MLX5X_SET(mlx5x_ring_entry(&ksrq->ring, i),
			  MLX5X_WQE_SRQ_NEXT_INDEX, (i + 1) & (n - 1));
	ksrq->head = 0;
	ksrq->tail = n - 1;
}

static int ksrq_alloc(struct mlx5x_ib_dev *dev, struct mlx5x_ib_srq *srq)
{
	struct mlx5x_ksrq *ksrq;
	int err = -ENOMEM;

	ksrq = kzalloc(sizeof(*ksrq), GFP_KERNEL);
	if (!ksrq)
		return -ENOMEM;
	spin_lock_init(&ksrq->lock);
	ksrq->max_gs = srq->sizes.max_gs;
	if (mlx5x_ring_alloc(&dev->mdev->pdev->dev, &ksrq->ring,
			     ilog2(srq->sizes.wqe_cnt), srq->sizes.wqe_shift))
		goto err;
	ksrq->dbr = dma_pool_zalloc(dev->kdb_pool, GFP_KERNEL, &ksrq->dbr_dma);
	ksrq->wrid = kcalloc(srq->sizes.wqe_cnt, sizeof(u64), GFP_KERNEL);
	if (!ksrq->dbr || !ksrq->wrid)
		goto err;
	ksrq_link(ksrq);
	srq->ksrq = ksrq;
	return 0;

err:
	ksrq_free(dev, ksrq);
	return err;
}

/* A basic SRQ for a kernel consumer (the device's CQE version). */
static int srq_create_kernel(struct mlx5x_ib_dev *dev,
			     struct mlx5x_ib_srq *srq,
			     struct ib_srq_init_attr *attr)
{
	struct mlx5x_pas pas;
	int err;

	if (attr->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	err = mlx5x_srq_form(dev->mdev->hca.issi, attr->srq_type,
			     dev->caps.cqe_version, &srq->form);
	if (!err)
		err = mlx5x_srq_sizes(&attr->attr, &dev->caps, &srq->sizes);
	if (!err)
		err = ksrq_alloc(dev, srq);
	if (err)
		return err;
	mlx5x_ring_pas(&srq->ksrq->ring, &pas);
	err = srq_create_hw(dev, srq, attr, MLX5X_SRQ_UIDX_NONE,
			    srq->ksrq->dbr_dma, &pas);
	if (err) {
		ksrq_free(dev, srq->ksrq);
		srq->ksrq = NULL;
	}
	return err;
}

/**
 * mlx5x_ksrq_done() - a receive of a kernel SRQ completed
 * @srq: the SRQ
 * @idx: the CQE's wqe_counter, the WQE's index
 *
 * The WQE goes back on the free list, at its tail.
 * Return: the consumer's id of the receive.
 */
u64 mlx5x_ksrq_done(struct mlx5x_ib_srq *srq, u16 idx)
{
	struct mlx5x_ksrq *ksrq = srq->ksrq;
	unsigned long flags;
	u64 wr_id;

	idx &= BIT(ksrq->ring.log_n) - 1;
	spin_lock_irqsave(&ksrq->lock, flags);
	wr_id = ksrq->wrid[idx];
	MLX5X_SET(mlx5x_ring_entry(&ksrq->ring, ksrq->tail),
		  MLX5X_WQE_SRQ_NEXT_INDEX, idx);
	ksrq->tail = idx;
	spin_unlock_irqrestore(&ksrq->lock, flags);
	return wr_id;
}

/**
 * mlx5x_ib_post_srq_recv() - post_srq_recv of a kernel SRQ
 * @ibsrq: the SRQ
 * @wr: the work requests
 * @bad_wr: the first one not posted, on error
 *
 * Each takes the head of the free list; the list's tail stays, as the
 * device needs its link.
 *
 * Return: 0; -ENOMEM when no free WQE is left, -EINVAL for too many
 * scatter entries, -EOPNOTSUPP for a user SRQ.
 */
int mlx5x_ib_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
			   const struct ib_recv_wr **bad_wr)
{
	struct mlx5x_ksrq *ksrq = to_msrq(ibsrq)->ksrq;
	unsigned long flags;
	int n = 0, err = 0;
	void *wqe;

	if (!ksrq) {
		*bad_wr = wr;
		return -EOPNOTSUPP;
	}
	spin_lock_irqsave(&ksrq->lock, flags);
	for (; wr; wr = wr->next, n++) {
		/* the tail WQE stays on the list: the device needs its link */
		if (ksrq->head == ksrq->tail)
			err = -ENOMEM;
		else if (wr->num_sge < 0 || (u32)wr->num_sge > ksrq->max_gs)
			err = -EINVAL;
		if (err) {
			*bad_wr = wr;
			break;
		}
		wqe = mlx5x_ring_entry(&ksrq->ring, ksrq->head);
		ksrq->wrid[ksrq->head] = wr->wr_id;
		mlx5x_krecv_build(wqe + MLX5X_SRQ_NEXT_SEG_LEN, ksrq->max_gs,
				  wr->sg_list, wr->num_sge);
		ksrq->head = MLX5X_GET(wqe, MLX5X_WQE_SRQ_NEXT_INDEX);
		ksrq->wqe_ctr++;
	}
	if (n) {
		/* the WQEs are visible before the counter that hands them over */
		wmb();
		ksrq->dbr[MLX5X_SRQ_DBR_COUNTER_OFF / 4] =
			cpu_to_be32(ksrq->wqe_ctr & MLX5X_SRQ_DBR_COUNTER_MASK);
	}
	spin_unlock_irqrestore(&ksrq->lock, flags);
	return err;
}

int mlx5x_ib_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *attr,
			struct ib_udata *udata)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibsrq->device);
	struct mlx5x_ib_srq *srq = to_msrq(ibsrq);
	int err;

	/* set up before the SRQ number reaches the event path */
	mutex_init(&srq->lock);
	err = srq_check_attr(dev, attr);
	if (err)
		goto err_out;
	err = udata ? srq_create_user(dev, srq, attr, udata) :
		      srq_create_kernel(dev, srq, attr);
	if (err)
		goto err_out;
	ibsrq->ext.xrc.srq_num = srq->srqn;
	attr->attr.max_wr = srq->sizes.wqe_cnt - 1;
	attr->attr.max_sge = srq->sizes.max_gs;
	return 0;

err_out:
	ibdev_dbg(ibsrq->device, "create_srq (type %d, wr %u, sge %u): %d\n",
		  attr->srq_type, attr->attr.max_wr, attr->attr.max_sge, err);
	atomic64_inc(&dev->stats.srq_err);
	mutex_destroy(&srq->lock);
	return err;
}

int mlx5x_ib_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibsrq->device);
	struct mlx5x_ib_srq *srq = to_msrq(ibsrq);
	int err;

	err = srq_destroy_hw(dev, srq);
	if (err) {
		ibdev_warn(&dev->ibdev, "destroy SRQ 0x%x: %d\n", srq->srqn,
			   err);
		return err;
	}
	if (srq->ksrq) {
		ksrq_free(dev, srq->ksrq);
		srq->ksrq = NULL;
	} else {
		srq_unpin(srq);
	}
	mutex_destroy(&srq->lock);
	return 0;
}

/* ---- limit and query ---- */

/* Resizing is not offered (-EINVAL, as mlx5); the limit arms the event. */
int mlx5x_ib_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
			enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibsrq->device);
	struct mlx5x_ib_srq *srq = to_msrq(ibsrq);
	int err = 0;

	if (udata && udata->inlen && !ib_is_udata_cleared(udata, 0, udata->inlen))
		err = -EOPNOTSUPP;
	else if (mask & ~(IB_SRQ_MAX_WR | IB_SRQ_LIMIT))
		err = -EOPNOTSUPP;
	else if (mask & IB_SRQ_MAX_WR)
		err = -EINVAL;
	else if (mask & IB_SRQ_LIMIT && attr->srq_limit >= srq->sizes.wqe_cnt)
		err = -EINVAL;
	if (!err && mask & IB_SRQ_LIMIT) {
		mutex_lock(&srq->lock);
		err = mlx5x_fw_srq_arm(dev->cmd, srq->form, srq->srqn,
				       attr->srq_limit);
		mutex_unlock(&srq->lock);
	}
	if (err) {
		ibdev_dbg(ibsrq->device, "modify_srq 0x%x (mask 0x%x): %d\n",
			  srq->srqn, mask, err);
		atomic64_inc(&dev->stats.srq_err);
	}
	return err;
}

int mlx5x_ib_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibsrq->device);
	struct mlx5x_ib_srq *srq = to_msrq(ibsrq);
	struct mlx5x_srq_state st;
	int err;

	err = mlx5x_fw_srq_query(dev->cmd, srq->form, srq->srqn, &st);
	if (err)
		return err;
	attr->srq_limit = st.lwm;
	attr->max_wr = srq->sizes.wqe_cnt - 1;
	attr->max_sge = srq->sizes.max_gs;
	return 0;
}

/* ---- XRC domains ---- */

int mlx5x_ib_alloc_xrcd(struct ib_xrcd *ibxrcd, struct ib_udata *udata)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibxrcd->device);
	struct mlx5x_ib_xrcd *xrcd = to_mxrcd(ibxrcd);

	if (!dev->caps.xrc)
		return -EOPNOTSUPP;
	/* libmlx5 sends no driver data for an XRC domain */
	if (udata && udata->inlen && !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EOPNOTSUPP;
	return mlx5x_fw_alloc_xrcd(dev->cmd, &xrcd->xrcdn);
}

int mlx5x_ib_dealloc_xrcd(struct ib_xrcd *ibxrcd, struct ib_udata *udata)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibxrcd->device);
	struct mlx5x_ib_xrcd *xrcd = to_mxrcd(ibxrcd);
	int err;

	err = mlx5x_fw_dealloc_xrcd(dev->cmd, xrcd->xrcdn);
	if (err)
		ibdev_warn(&dev->ibdev, "dealloc XRCD %u: %d\n", xrcd->xrcdn,
			   err);
	/*
	 * ib_core calls this only once nothing uses the domain, so a refusal
	 * is the firmware's failure, and ib_core cannot take it: for a domain
	 * opened without a file it counts the domain in use again, so every
	 * later dealloc, the one at context cleanup too, fails -EBUSY without
	 * asking us.  The domain number stays with the firmware until
	 * TEARDOWN_HCA; the domain itself goes.
	 */
	return 0;
}
