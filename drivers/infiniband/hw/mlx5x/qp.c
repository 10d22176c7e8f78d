// SPDX-License-Identifier: GPL-2.0-only
/*
 * User RC, UC and UD queue pairs.
 *
 * libmlx5 lays out the work queue buffer (receive queue first, send
 * queue after it) and the doorbell record and sends their geometry in
 * struct mlx5_ib_create_qp; the kernel checks it against the device
 * limits, pins the memory and creates the QP.  Every state transition
 * is one modify command (RST2INIT, INIT2RTR, ...) carrying the context
 * fields that transition takes, plus the optional ones the caller asked
 * for (opt_param_mask).  QUERY_QP is the truth about the state: the
 * device moves a QP to ERR on its own.
 *
 * UC is RC without reads, atomics and the acknowledgment machinery;
 * UD takes a Q_Key and no remote address (each send WQE carries one,
 * built by libmlx5: an InfiniBand address handle never reaches the
 * kernel).  The per-type differences are tables: which attributes each
 * transition takes (qp_trans_attrs_rc/_ud) and which opt_param_mask bits
 * the type has (qp_type_optpar()).
 *
 * An RC QP may take its receives from an SRQ (no receive queue of its
 * own).  XRC initiator QPs are send-only RC-like QPs; XRC target QPs
 * (at the end of this file) have no queues at all.
 *
 * Other QP types are -EOPNOTSUPP, which the rdma-core tests turn into
 * skips.  Kernel QPs (kqp.c) go through the same modify, query and
 * destroy; creation and their queues are kqp.c's.
 */
#include <linux/log2.h>
#include <linux/sizes.h>
#include <rdma/ib_umem.h>

#include "ib.h"
#include "mlx5x.h"

/* Work queue buffers: 4 KiB .. 1 GiB pages, 64-byte aligned start. */
#define MLX5X_QP_PGSZ_BITMAP	GENMASK_ULL(30, MLX5X_ADAPTER_PAGE_SHIFT)
#define MLX5X_QP_PGOFF_BITMASK	GENMASK_ULL(31, MLX5X_PAGE_OFFSET_QUANTA_SHIFT)
#define MLX5X_PAGE_OFFSET_MAX	63	/* 6-bit qpc.page_offset */
#define MLX5X_SEND_WQEBB_SHIFT	6	/* send queue basic block: 64 bytes */
#define MLX5X_RQ_WQE_SHIFT_MIN	4	/* log_rq_stride counts from 16 */
#define MLX5X_RQ_WQE_SHIFT_MAX	11	/* 3-bit log_rq_stride */
#define MLX5X_LOG_WQ_SZ_MAX	15	/* 4-bit log_rq_size/log_sq_size */
#define MLX5X_WQE_DATA_SEG_LEN	16
#define MLX5X_QPN_MASK		0xffffff
#define MLX5X_PSN_MASK		0xffffff
#define MLX5X_UIDX_NONE		0xffffff	/* CQE version 0 */
#define MLX5X_STAT_RATE_OFFSET	5	/* IB rate n is device rate n + 5 */
#define MLX5X_STAT_RATE_SPECIAL	7	/* codes below it: a table */
/* ib_rate values older kernels lack; the port's rate, for mlx5_ib too */
#define MLX5X_IB_RATE_800_GBPS	23
#define MLX5X_IB_RATE_1600_GBPS	24
#define MLX5X_INVALID_BFREG	BIT(31)		/* resp.bfreg_index: unused */
#define MLX5X_UD_LOG_MSG_MAX	12		/* a datagram is one 4 KiB MTU */

/* ---- QP table for async events ---- */

static int qp_table_insert(struct mlx5x_ib_dev *dev, struct mlx5x_ib_qp *qp)
{
	return mlx5x_res_insert(&dev->qps, qp->qpn, &qp->res);
}

/* Any context; the reference is taken under the lock removal takes. */
struct mlx5x_ib_qp *mlx5x_qp_get(struct mlx5x_ib_dev *dev, u32 qpn)
{
	struct mlx5x_res *res = mlx5x_res_get(&dev->qps, qpn);

	return res ? container_of(res, struct mlx5x_ib_qp, res) : NULL;
}

void mlx5x_qp_put(struct mlx5x_ib_qp *qp)
{
	mlx5x_res_put(&qp->res);
}

/* ---- creation ---- */

/**
 * mlx5x_qp_check_flags() - validate the flags and user index of a request
 * @ucmd: libmlx5's request
 * @cqe_version: CQE format agreed for the context
 *
 * SCATTER_CQE is a hint libmlx5 always sends and is ignored (no CQE
 * scatter); UAR_PAGE_INDEX is required (dynamic UARs).
 */
int mlx5x_qp_check_flags(const struct mlx5_ib_create_qp *ucmd, u8 cqe_version)
{
	u32 known = MLX5_QP_FLAG_SCATTER_CQE | MLX5_QP_FLAG_UAR_PAGE_INDEX;

	if (ucmd->flags & ~known)
		return -EOPNOTSUPP;
	if (!(ucmd->flags & MLX5_QP_FLAG_UAR_PAGE_INDEX))
		return -EINVAL;
	if (ucmd->sq_buf_addr)
		return -EINVAL;
	if (ucmd->ece_options)
		return -EOPNOTSUPP;
	/* version 0 CQEs carry the QPN; version 1 the 24-bit user index */
	if (cqe_version == 0 && ucmd->uidx != MLX5X_UIDX_NONE)
		return -EINVAL;
	if (ucmd->uidx > MLX5X_UIDX_NONE)
		return -EINVAL;
	return 0;
}

static int qp_rq_size(const struct mlx5_ib_create_qp *ucmd,
		      const struct ib_qp_cap *cap,
		      const struct mlx5x_verbs_caps *caps, u32 max_wr,
		      struct mlx5x_qp_sizes *sz)
{
	u32 shift = ucmd->rq_wqe_shift;

	if (!cap->max_recv_wr)
		return ucmd->rq_wqe_count ? -EINVAL : 0;
	if (!is_power_of_2(ucmd->rq_wqe_count) || ucmd->rq_wqe_count > max_wr ||
	    ucmd->rq_wqe_count < cap->max_recv_wr)
		return -EINVAL;
	if (shift < MLX5X_RQ_WQE_SHIFT_MIN || shift > MLX5X_RQ_WQE_SHIFT_MAX ||
	    BIT(shift) > caps->max_wqe_sz_rq)
		return -EINVAL;
	sz->rq_wqe_cnt = ucmd->rq_wqe_count;
	sz->rq_wqe_shift = shift;
	sz->rq_max_gs = BIT(shift) / MLX5X_WQE_DATA_SEG_LEN;
	if (sz->rq_max_gs < cap->max_recv_sge)
		return -EINVAL;
	return 0;
}

/**
 * mlx5x_qp_user_sizes() - check the work queue geometry libmlx5 computed
 * @ucmd: its request
 * @cap: the capabilities asked for
 * @caps: device limits
 * @sz: the geometry on success
 *
 * Both queues are powers of two within the device limit and no smaller
 * than asked; a queue is absent exactly when no WR was asked for it.
 */
int mlx5x_qp_user_sizes(const struct mlx5_ib_create_qp *ucmd,
			const struct ib_qp_cap *cap,
			const struct mlx5x_verbs_caps *caps,
			struct mlx5x_qp_sizes *sz)
{
	u32 max_wr = BIT(min_t(u8, caps->log_max_qp_sz, MLX5X_LOG_WQ_SZ_MAX));
	int err;

	memset(sz, 0, sizeof(*sz));
	if (cap->max_recv_wr > max_wr || cap->max_send_wr > max_wr)
		return -EINVAL;
	err = qp_rq_size(ucmd, cap, caps, max_wr, sz);
	if (err)
		return err;
	if (!cap->max_send_wr) {
		if (ucmd->sq_wqe_count)
			return -EINVAL;
	} else if (!is_power_of_2(ucmd->sq_wqe_count) ||
		   ucmd->sq_wqe_count > max_wr ||
		   ucmd->sq_wqe_count < cap->max_send_wr) {
		return -EINVAL;
	}
	sz->sq_wqe_cnt = ucmd->sq_wqe_count;
	sz->buf_size = ((size_t)sz->rq_wqe_cnt << sz->rq_wqe_shift) +
		       ((size_t)sz->sq_wqe_cnt << MLX5X_SEND_WQEBB_SHIFT);
	return sz->buf_size ? 0 : -EINVAL;
}

/*
 * qpc.page_offset counts pgsz / 64 units: is the buffer's offset in
 * its first page a whole number of them, below 64?
 */
bool mlx5x_page_offset_quantize(u64 dma_start, unsigned long pgsz,
				unsigned int *quant)
{
	unsigned long unit = pgsz >> MLX5X_PAGE_OFFSET_QUANTA_SHIFT;
	u64 offset = dma_start & (pgsz - 1);

	if (!unit || offset % unit || offset / unit > MLX5X_PAGE_OFFSET_MAX)
		return false;
	*quant = offset / unit;
	return true;
}

/**
 * mlx5x_wq_buf_pages() - describe a pinned work queue buffer to the device
 * @umem: the buffer
 * @max_off: largest page_offset the context field holds (63 for the
 *	6-bit QP and SRQ fields, 31 for the 5-bit WQ field of an RMP)
 * @pas: filled with the page list
 *
 * The largest page size whose offset of the buffer start the context can
 * express, in 1/64 page units.
 *
 * Return: 0, or -EINVAL when not even 4 KiB pages fit.
 */
int mlx5x_wq_buf_pages(struct ib_umem *umem, unsigned int max_off,
		       struct mlx5x_pas *pas)
{
	unsigned int quant = 0;
	unsigned long pgsz;

	pgsz = ib_umem_find_best_pgoff(umem, MLX5X_QP_PGSZ_BITMAP,
				       MLX5X_QP_PGOFF_BITMASK);
	while (pgsz >= SZ_4K &&
	       (!mlx5x_page_offset_quantize(ib_umem_dma_offset(umem, pgsz),
					    pgsz, &quant) || quant > max_off))
		pgsz >>= 1;
	if (pgsz < SZ_4K)
		return -EINVAL;
	pas->umem = umem;
	pas->pgsz = pgsz;
	pas->page_offset = quant;
	pas->n = ib_umem_num_dma_blocks(umem, pgsz);
	return 0;
}

/**
 * mlx5x_wq_pin() - pin a user work queue (QP or SRQ) and describe it
 * @dev: device
 * @uctx: context of the calling process
 * @buf: user address of the WQE buffer
 * @size: its length in bytes
 * @db_addr: user address of the doorbell record
 * @max_off: as for mlx5x_wq_buf_pages()
 * @uq: filled on success; undo with mlx5x_uq_unpin()
 * @pas: the buffer's page list on success
 *
 * Return: 0, or a negative errno with nothing held.
 */
int mlx5x_wq_pin(struct mlx5x_ib_dev *dev, struct mlx5x_ib_ucontext *uctx,
		 u64 buf, size_t size, u64 db_addr, unsigned int max_off,
		 struct mlx5x_uq *uq, struct mlx5x_pas *pas)
{
	int err;

	/* the device only reads WQEs: no write access */
	err = mlx5x_uq_pin(dev, uctx, buf, size, 0, db_addr, uq);
	if (err)
		return err;
	err = mlx5x_wq_buf_pages(uq->umem, max_off, pas);
	if (err)
		mlx5x_uq_unpin(uctx, uq);
	return err;
}

static int qp_read_req(struct ib_udata *udata, u8 cqe_version,
		       struct mlx5_ib_create_qp *ucmd)
{
	size_t min = offsetof(struct mlx5_ib_create_qp, ece_options);
	size_t tail = offsetofend(struct mlx5_ib_create_qp, ece_options);
	int err;

	err = mlx5x_ib_udata_in(udata, ucmd, min, sizeof(*ucmd));
	if (err)
		return err;
	/* DCI streams and the reserved word: DC only */
	if (memchr_inv((u8 *)ucmd + tail, 0, sizeof(*ucmd) - tail))
		return -EOPNOTSUPP;
	return mlx5x_qp_check_flags(ucmd, cqe_version);
}

/**
 * mlx5x_qp_type_to_st() - service type of an IB QP type
 * @type: the type asked for
 * @st: qpc.st on success
 *
 * Return: 0, or -EOPNOTSUPP for the types mlx5x does not create.
 */
int mlx5x_qp_type_to_st(enum ib_qp_type type, u8 *st)
{
	switch (type) {
	case IB_QPT_RC:
		*st = MLX5X_QP_ST_RC;
		return 0;
	case IB_QPT_UC:
		*st = MLX5X_QP_ST_UC;
		return 0;
	case IB_QPT_UD:
		*st = MLX5X_QP_ST_UD;
		return 0;
	case IB_QPT_XRC_INI:
	case IB_QPT_XRC_TGT:
		*st = MLX5X_QP_ST_XRC;
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

/**
 * mlx5x_qp_check_init_attr() - what of a QP request mlx5x can create
 * @attr: the request
 * @caps: device capabilities
 *
 * The only creation flag is blocking multicast loopback, when the device
 * has it (pyverbs asks for it at random on UD QPs of Mellanox devices).
 * Only RC QPs take their receives from an SRQ; an XRC initiator has a
 * send CQ only, an XRC target its domain only.
 *
 * Return: 0, -EOPNOTSUPP for a type or feature mlx5x does not offer,
 * -EINVAL without CQs (or domain).
 */
int mlx5x_qp_check_init_attr(const struct ib_qp_init_attr *attr,
			     const struct mlx5x_verbs_caps *caps)
{
	u32 flags = caps->block_lb_mc ? IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK : 0;
	u8 st;

	if (mlx5x_qp_type_to_st(attr->qp_type, &st) ||
	    attr->create_flags & ~flags || attr->rwq_ind_tbl)
		return -EOPNOTSUPP;
	if (attr->qp_type == IB_QPT_XRC_TGT)
		return attr->xrcd ? 0 : -EINVAL;
	if (attr->xrcd || (attr->srq && attr->qp_type != IB_QPT_RC))
		return -EOPNOTSUPP;
	if (attr->qp_type == IB_QPT_XRC_INI)
		return attr->send_cq ? 0 : -EINVAL;
	if (!attr->send_cq || !attr->recv_cq)
		return -EINVAL;
	return 0;
}

/*
 * A QP on an SRQ and an XRC initiator have no receive queue: whatever
 * receive capabilities the caller named, libmlx5 laid out none.
 */
static void qp_drop_rq_caps(struct ib_qp_init_attr *attr)
{
	if (attr->srq || attr->qp_type == IB_QPT_XRC_INI) {
		attr->cap.max_recv_wr = 0;
		attr->cap.max_recv_sge = 0;
	}
}

static int qp_create_xrc_tgt(struct mlx5x_ib_dev *dev, struct mlx5x_ib_qp *qp,
			     struct ib_qp_init_attr *attr);

static int qp_pin(struct mlx5x_ib_dev *dev, struct mlx5x_ib_qp *qp,
		  const struct mlx5_ib_create_qp *ucmd, struct mlx5x_pas *pas)
{
	return mlx5x_wq_pin(dev, qp->uctx, ucmd->buf_addr, qp->sizes.buf_size,
			    ucmd->db_addr, MLX5X_PAGE_OFFSET_MAX, &qp->uq, pas);
}

static void qp_unpin(struct mlx5x_ib_qp *qp)
{
	mlx5x_uq_unpin(qp->uctx, &qp->uq);
}

/**
 * mlx5x_qp_ts_format() - qpc.ts_format of a new QP, as mlx5_ib sets it
 * @caps: device capabilities
 * @kernel: a kernel QP (the UMR QP) or an XRC target QP
 *
 * User QPs run free when the QP capabilities offer it (no CQ of mlx5x
 * asks for timestamps).  Kernel and XRC target QPs take the default
 * unless send queues only run free; on an InfiniBand port (no RoCE
 * state) mlx5_ib reads the send queue capability for them.
 */
u8 mlx5x_qp_ts_format(const struct mlx5x_verbs_caps *caps, bool kernel)
{
	if (kernel)
		return caps->sq_ts_cap ? MLX5X_TS_FORMAT_DEFAULT :
					 MLX5X_TS_FORMAT_FREE_RUNNING;
	if (caps->qp_ts_cap == MLX5X_TS_CAP_FREE_RUNNING ||
	    caps->qp_ts_cap == MLX5X_TS_CAP_FREE_RUNNING_AND_REAL_TIME)
		return MLX5X_TS_FORMAT_FREE_RUNNING;
	return MLX5X_TS_FORMAT_DEFAULT;
}

/**
 * mlx5x_qp_rq_names() - the receive side of a new QP's context
 * @devr: the device's reserved objects
 * @xrc_ini: an XRC initiator QP
 * @srqn: the SRQ the QP was given, or NULL
 * @has_rq: the QP has a receive queue of its own
 * @p: rq_type, srqn and xrcd are set
 *
 * As mlx5_ib: a QP on an SRQ names it with XRC domain 0; an XRC
 * initiator the reserved XRC SRQ with domain 1; any other QP the
 * reserved basic SRQ with domain 1, whether it has a receive queue or
 * not.  No field names the object-less 0.
 */
void mlx5x_qp_rq_names(const struct mlx5x_devr *devr, bool xrc_ini,
		       const u32 *srqn, bool has_rq, struct mlx5x_qp_params *p)
{
	if (xrc_ini) {
		p->rq_type = MLX5X_QP_RQ_SRQ;
		p->srqn = devr->s0.srqn;
		p->xrcd = devr->xrcdn1;
	} else if (srqn) {
		p->rq_type = MLX5X_QP_RQ_SRQ;
		p->srqn = *srqn;
		p->xrcd = devr->xrcdn0;
	} else {
		p->rq_type = has_rq ? MLX5X_QP_RQ_NON_ZERO :
				      MLX5X_QP_RQ_ZERO_LEN;
		p->srqn = devr->s1.srqn;
		p->xrcd = devr->xrcdn1;
	}
}

static int qp_create_hw(struct mlx5x_ib_dev *dev, struct mlx5x_ib_qp *qp,
			const struct ib_qp_init_attr *attr,
			const struct mlx5_ib_create_qp *ucmd,
			const struct mlx5x_pas *pas)
{
	const struct mlx5x_qp_sizes *sz = &qp->sizes;
	struct mlx5x_qp_params p = {
		.pdn = to_mpd(qp->ibqp.pd)->pdn,
		.uar = qp->uar->index,
		.user_index = ucmd->uidx,
		.cqn_snd = to_mcq(attr->send_cq)->mcq.cqn,
		/* an XRC initiator receives nothing: the reserved CQ */
		.cqn_rcv = attr->recv_cq ? to_mcq(attr->recv_cq)->mcq.cqn :
					   dev->devr.cqn,
		.rq_wqe_shift = sz->rq_wqe_cnt ? sz->rq_wqe_shift : 0,
		.log_rq_size = sz->rq_wqe_cnt ? ilog2(sz->rq_wqe_cnt) : 0,
		.has_sq = sz->sq_wqe_cnt,
		.block_lb_mc = attr->create_flags &
			       IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK,
		.log_sq_size = sz->sq_wqe_cnt ? ilog2(sz->sq_wqe_cnt) : 0,
		.ts_format = mlx5x_qp_ts_format(&dev->caps, false),
		.dbr = qp->uq.db.dma,
		.pas = *pas,
	};
	u32 qpn;
	int err;

	mlx5x_qp_rq_names(&dev->devr, attr->qp_type == IB_QPT_XRC_INI,
			  attr->srq ? &to_msrq(attr->srq)->srqn : NULL,
			  sz->rq_wqe_cnt, &p);
	err = mlx5x_qp_type_to_st(attr->qp_type, &p.st);
	if (err)
		return err;
	err = mlx5x_fw_create_qp(dev->cmd, &p, &qpn);
	if (err)
		return err;
	qp->qpn = qpn;
	qp->ibqp.qp_num = qpn;
	err = qp_table_insert(dev, qp);
	if (err)
		mlx5x_fw_destroy_qp(dev->cmd, qpn);
	return err;
}

/* What the caller gets back, and query_qp reports. */
static void qp_set_caps(struct mlx5x_ib_qp *qp, struct ib_qp_init_attr *attr)
{
	attr->cap.max_recv_wr = qp->sizes.rq_wqe_cnt;
	attr->cap.max_recv_sge = qp->sizes.rq_max_gs;
	qp->cap = attr->cap;
	qp->sq_sig_type = attr->sq_sig_type;
}

static int qp_respond(struct ib_udata *udata)
{
	struct mlx5_ib_create_qp_resp resp = {
		/* the doorbell is the UAR libmlx5 named (UAR_PAGE_INDEX) */
		.bfreg_index = MLX5X_INVALID_BFREG,
	};

	return ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
}

static int qp_destroy_hw(struct mlx5x_ib_dev *dev, struct mlx5x_ib_qp *qp);

int mlx5x_ib_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr,
		       struct ib_udata *udata)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibqp->device);
	struct mlx5x_ib_qp *qp = to_mqp(ibqp);
	struct mlx5_ib_create_qp ucmd;
	struct mlx5x_pas pas = {};
	int err;

	/* set up before the QP number reaches the event path */
	mutex_init(&qp->lock);
	qp->state = IB_QPS_RESET;
	/* the core creates XRC target QPs without driver data, for users too */
	if (attr->qp_type == IB_QPT_XRC_TGT) {
		err = qp_create_xrc_tgt(dev, qp, attr);
		if (err)
			mutex_destroy(&qp->lock);
		return err;
	}
	if (!udata) {
		err = mlx5x_kqp_create(dev, qp, attr);
		if (err)
			goto err_out;
		return 0;
	}
	err = mlx5x_qp_check_init_attr(attr, &dev->caps);
	if (err)
		goto err_out;
	qp_drop_rq_caps(attr);
	qp->uctx = rdma_udata_to_drv_context(udata, struct mlx5x_ib_ucontext,
					     ibuc);
	err = qp_read_req(udata, qp->uctx->cqe_version, &ucmd);
	if (err)
		goto err_out;
	err = mlx5x_qp_user_sizes(&ucmd, &attr->cap, &dev->caps, &qp->sizes);
	if (err)
		goto err_out;
	qp->uar = mlx5x_uar_get(qp->uctx, ucmd.bfreg_index);
	if (!qp->uar) {
		err = -EINVAL;
		goto err_out;
	}
	err = qp_pin(dev, qp, &ucmd, &pas);
	if (err)
		goto err_uar;
	err = qp_create_hw(dev, qp, attr, &ucmd, &pas);
	if (err)
		goto err_unpin;
	err = qp_respond(udata);
	if (err)
		goto err_destroy;
	qp_set_caps(qp, attr);
	return 0;

err_destroy:
	/* the core frees @qp: the table may not keep it, whatever happens */
	if (qp_destroy_hw(dev, qp)) {
		mlx5x_res_remove(&dev->qps, qp->qpn);
		mlx5x_res_release(&qp->res);
	}
err_unpin:
	qp_unpin(qp);
err_uar:
	mlx5x_uar_put(qp->uar);
err_out:
	ibdev_dbg(ibqp->device, "create_qp (type %d, wr %u/%u, sge %u/%u): %d\n",
		  attr->qp_type, attr->cap.max_send_wr, attr->cap.max_recv_wr,
		  attr->cap.max_send_sge, attr->cap.max_recv_sge, err);
	atomic64_inc(&dev->stats.qp_err);
	mutex_destroy(&qp->lock);
	return err;
}

/* ---- destruction ---- */

static int qp_fw_destroy(void *arg)
{
	struct mlx5x_ib_qp *qp = arg;

	return mlx5x_fw_destroy_qp(to_mibdev(qp->ibqp.device)->cmd, qp->qpn);
}

/*
 * Reset first so the device stops touching the buffers whatever state
 * the QP is in, then drop a kernel QP's CQEs, then destroy: out of the
 * event table before DESTROY_QP (as mlx5_ib), back in it if the device
 * refuses.
 */
static int qp_destroy_hw(struct mlx5x_ib_dev *dev, struct mlx5x_ib_qp *qp)
{
	u32 qpn = qp->qpn;
	int err;

	mlx5x_fw_modify_qp(dev->cmd, MLX5X_CMD_OP_2RST_QP, qpn, 0, NULL);
	/*
	 * While poll_cq can still find the QP: a CQE it dropped for an
	 * unknown QP would keep its SRQ WQE from going back.
	 */
	if (qp->kqp)
		mlx5x_kqp_clean_cqs(qp);
	err = mlx5x_res_destroy(&dev->qps, qpn, &qp->res, qp_fw_destroy, qp);
	if (err) {
		ibdev_warn(&dev->ibdev, "DESTROY_QP 0x%x: %d\n", qpn, err);
		return err;
	}
	mlx5x_res_release(&qp->res);
	return 0;
}

int mlx5x_ib_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibqp->device);
	struct mlx5x_ib_qp *qp = to_mqp(ibqp);
	int err;

	err = qp_destroy_hw(dev, qp);
	if (err)
		return err;
	if (qp->kqp) {
		mlx5x_kqp_free(dev, qp);
	} else if (ibqp->qp_type != IB_QPT_XRC_TGT) {
		/* an XRC target QP holds no user memory and no UAR */
		qp_unpin(qp);
		mlx5x_uar_put(qp->uar);
	}
	mutex_destroy(&qp->lock);
	return 0;
}

/* ---- state transitions ---- */

enum ib_qp_state mlx5x_qp_state_to_ib(u8 state)
{
	switch (state) {
	case MLX5X_QP_STATE_RST:
		return IB_QPS_RESET;
	case MLX5X_QP_STATE_INIT:
		return IB_QPS_INIT;
	case MLX5X_QP_STATE_RTR:
		return IB_QPS_RTR;
	case MLX5X_QP_STATE_RTS:
		return IB_QPS_RTS;
	case MLX5X_QP_STATE_SQER:
		return IB_QPS_SQE;
	case MLX5X_QP_STATE_SQD:
		return IB_QPS_SQD;
	default:
		return IB_QPS_ERR;
	}
}

/**
 * mlx5x_qp_transition() - the command moving a QP from @cur to @next
 * @cur: current state
 * @next: requested state
 * @opcode: the modify command; 0 for RESET -> RESET, which is a no-op
 *
 * Return: 0, or -EOPNOTSUPP for a transition the device has no command
 * for (into SQD: draining is not offered).  The caller has checked the
 * transition is legal for an RC QP (ib_modify_qp_is_ok()).
 */
int mlx5x_qp_transition(enum ib_qp_state cur, enum ib_qp_state next,
			u16 *opcode)
{
	static const struct {
		enum ib_qp_state cur, next;
		u16 opcode;
	} tbl[] = {
		{ IB_QPS_RESET, IB_QPS_INIT, MLX5X_CMD_OP_RST2INIT_QP },
		{ IB_QPS_INIT, IB_QPS_INIT, MLX5X_CMD_OP_INIT2INIT_QP },
		{ IB_QPS_INIT, IB_QPS_RTR, MLX5X_CMD_OP_INIT2RTR_QP },
		{ IB_QPS_RTR, IB_QPS_RTS, MLX5X_CMD_OP_RTR2RTS_QP },
		{ IB_QPS_RTS, IB_QPS_RTS, MLX5X_CMD_OP_RTS2RTS_QP },
		{ IB_QPS_SQE, IB_QPS_RTS, MLX5X_CMD_OP_SQERR2RTS_QP },
		{ IB_QPS_SQD, IB_QPS_RTS, MLX5X_CMD_OP_SQD_RTS_QP },
	};
	unsigned int i;

	if (next == IB_QPS_RESET) {
		*opcode = cur == IB_QPS_RESET ? 0 : MLX5X_CMD_OP_2RST_QP;
		return 0;
	}
	if (next == IB_QPS_ERR) {
		*opcode = MLX5X_CMD_OP_2ERR_QP;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(tbl); i++) {
		if (tbl[i].cur == cur && tbl[i].next == next) {
			*opcode = tbl[i].opcode;
			return 0;
		}
	}
	return -EOPNOTSUPP;
}

/* Which IB attributes a transition always takes and which on request. */
struct qp_trans_attrs {
	u16 opcode;
	int required;
	int optional;
};

static const struct qp_trans_attrs qp_trans_attrs_rc[] = {
	{ MLX5X_CMD_OP_RST2INIT_QP,
	  IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX | IB_QP_PORT, 0 },
	{ MLX5X_CMD_OP_INIT2INIT_QP,
	  0, IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX | IB_QP_PORT },
	{ MLX5X_CMD_OP_INIT2RTR_QP,
	  IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
	  IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER,
	  IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX },
	{ MLX5X_CMD_OP_RTR2RTS_QP,
	  IB_QP_TIMEOUT | IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
	  IB_QP_MAX_QP_RD_ATOMIC,
	  IB_QP_ACCESS_FLAGS | IB_QP_MIN_RNR_TIMER },
	{ MLX5X_CMD_OP_RTS2RTS_QP,
	  0, IB_QP_ACCESS_FLAGS | IB_QP_MIN_RNR_TIMER },
	{ MLX5X_CMD_OP_SQERR2RTS_QP,
	  0, IB_QP_ACCESS_FLAGS | IB_QP_MIN_RNR_TIMER },
	{ MLX5X_CMD_OP_SQD_RTS_QP,
	  0, IB_QP_ACCESS_FLAGS | IB_QP_MIN_RNR_TIMER | IB_QP_AV |
	  IB_QP_TIMEOUT | IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
	  IB_QP_MAX_QP_RD_ATOMIC | IB_QP_MAX_DEST_RD_ATOMIC },
};

/* UD: a Q_Key instead of a remote end; RTR takes nothing of its own. */
static const struct qp_trans_attrs qp_trans_attrs_ud[] = {
	{ MLX5X_CMD_OP_RST2INIT_QP,
	  IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY, 0 },
	{ MLX5X_CMD_OP_INIT2INIT_QP,
	  0, IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY },
	{ MLX5X_CMD_OP_INIT2RTR_QP, 0, IB_QP_PKEY_INDEX | IB_QP_QKEY },
	{ MLX5X_CMD_OP_RTR2RTS_QP, IB_QP_SQ_PSN, IB_QP_QKEY },
	{ MLX5X_CMD_OP_RTS2RTS_QP, 0, IB_QP_QKEY },
	{ MLX5X_CMD_OP_SQERR2RTS_QP, 0, IB_QP_QKEY },
	{ MLX5X_CMD_OP_SQD_RTS_QP, 0, IB_QP_QKEY },
};

/*
 * The opt_param_mask bits a service type has (mlx5_ib's opt_mask, per
 * type): UC has only remote writes and no acknowledgment timers, UD
 * only P_Key index, port and Q_Key.  UC uses the RC table: the core's
 * ib_modify_qp_is_ok() has already refused the attributes UC lacks.
 */
static u32 qp_type_optpar(enum ib_qp_type type)
{
	switch (type) {
	case IB_QPT_UC:
		return MLX5X_QP_OPTPAR_RWE | MLX5X_QP_OPTPAR_PKEY_INDEX |
		       MLX5X_QP_OPTPAR_PRI_PORT |
		       MLX5X_QP_OPTPAR_PRIMARY_ADDR_PATH;
	case IB_QPT_UD:
		return MLX5X_QP_OPTPAR_PKEY_INDEX | MLX5X_QP_OPTPAR_PRI_PORT |
		       MLX5X_QP_OPTPAR_Q_KEY;
	default:
		return ~0U;
	}
}

static const struct qp_trans_attrs *qp_trans_find(enum ib_qp_type type,
						  u16 opcode)
{
	const struct qp_trans_attrs *tbl = qp_trans_attrs_rc;
	unsigned int i, n = ARRAY_SIZE(qp_trans_attrs_rc);

	if (type == IB_QPT_UD) {
		tbl = qp_trans_attrs_ud;
		n = ARRAY_SIZE(qp_trans_attrs_ud);
	}
	for (i = 0; i < n; i++)
		if (tbl[i].opcode == opcode)
			return &tbl[i];
	return NULL;	/* 2RST, 2ERR: no context */
}

/* IB attribute -> context field and, when optional, opt_param_mask bit. */
static const struct {
	int ib;
	u32 field;
	u32 optpar;
} qp_attr_fields[] = {
	{ IB_QP_ACCESS_FLAGS, MLX5X_QPM_ACCESS,
	  MLX5X_QP_OPTPAR_RRE | MLX5X_QP_OPTPAR_RWE | MLX5X_QP_OPTPAR_RAE },
	{ IB_QP_PKEY_INDEX, MLX5X_QPM_PKEY, MLX5X_QP_OPTPAR_PKEY_INDEX },
	{ IB_QP_PORT, MLX5X_QPM_PORT, MLX5X_QP_OPTPAR_PRI_PORT },
	{ IB_QP_AV, MLX5X_QPM_AV, MLX5X_QP_OPTPAR_PRIMARY_ADDR_PATH },
	{ IB_QP_PATH_MTU, MLX5X_QPM_MTU, 0 },
	{ IB_QP_DEST_QPN, MLX5X_QPM_RQPN, 0 },
	{ IB_QP_RQ_PSN, MLX5X_QPM_RQ_PSN, 0 },
	{ IB_QP_MAX_DEST_RD_ATOMIC, MLX5X_QPM_RRA, MLX5X_QP_OPTPAR_RRA_MAX },
	{ IB_QP_MIN_RNR_TIMER, MLX5X_QPM_RNR_TIMER,
	  MLX5X_QP_OPTPAR_RNR_TIMEOUT },
	{ IB_QP_SQ_PSN, MLX5X_QPM_SQ_PSN, 0 },
	{ IB_QP_TIMEOUT, MLX5X_QPM_ACK_TIMEOUT, MLX5X_QP_OPTPAR_ACK_TIMEOUT },
	{ IB_QP_RETRY_CNT, MLX5X_QPM_RETRY, MLX5X_QP_OPTPAR_RETRY_COUNT },
	{ IB_QP_RNR_RETRY, MLX5X_QPM_RNR_RETRY, MLX5X_QP_OPTPAR_RNR_RETRY },
	{ IB_QP_MAX_QP_RD_ATOMIC, MLX5X_QPM_SRA, MLX5X_QP_OPTPAR_SRA_MAX },
	{ IB_QP_QKEY, MLX5X_QPM_QKEY, MLX5X_QP_OPTPAR_Q_KEY },
};

/* IB static rate -> device code, mlx5_ib's map (codes 1..6 are newer rates) */
static u8 qp_rate_code(u8 rate)
{
	switch (rate) {
	case IB_RATE_PORT_CURRENT:
		return 0;
	case IB_RATE_56_GBPS:
		return 1;
	case IB_RATE_25_GBPS:
		return 2;
	case IB_RATE_100_GBPS:
		return 3;
	case IB_RATE_200_GBPS:
		return 4;
	case IB_RATE_50_GBPS:
		return 5;
	case IB_RATE_400_GBPS:
		return 6;
	default:
		return rate + MLX5X_STAT_RATE_OFFSET;
	}
}

/* Device code -> IB static rate (QUERY_QP). */
u8 mlx5x_qp_stat_rate_to_ib(u8 code)
{
	static const u8 special[MLX5X_STAT_RATE_SPECIAL] = {
		IB_RATE_PORT_CURRENT, IB_RATE_56_GBPS, IB_RATE_25_GBPS,
		IB_RATE_100_GBPS, IB_RATE_200_GBPS, IB_RATE_50_GBPS,
		IB_RATE_400_GBPS,
	};

	if (code < MLX5X_STAT_RATE_SPECIAL)
		return special[code];
	return code - MLX5X_STAT_RATE_OFFSET;
}

/**
 * mlx5x_qp_stat_rate() - the static rate code an address path carries
 * @rate: IB static rate (enum ib_rate)
 * @support: the device's stat_rate_support (bit n: code n)
 * @code: the code on success
 *
 * As mlx5_ib: the port's rate (and 800 Gb/s, 1600 Gb/s) is code 0; a
 * rate whose code the device lacks steps down the ib_rate values (not
 * the speeds) until one it has, or the port's rate.
 *
 * Return: 0, or -EINVAL for a value that is no rate.
 */
int mlx5x_qp_stat_rate(u8 rate, u16 support, u8 *code)
{
	if (rate == IB_RATE_PORT_CURRENT || rate == MLX5X_IB_RATE_800_GBPS ||
	    rate == MLX5X_IB_RATE_1600_GBPS) {
		*code = 0;
		return 0;
	}
	if (rate < IB_RATE_2_5_GBPS || rate > MLX5X_IB_RATE_800_GBPS)
		return -EINVAL;
	while (rate != IB_RATE_PORT_CURRENT &&
	       !(BIT_ULL(qp_rate_code(rate)) & support))
		rate--;
	*code = qp_rate_code(rate);
	return 0;
}

static int qp_av_to_path(const struct rdma_ah_attr *ah,
			 const struct mlx5x_verbs_caps *caps,
			 struct mlx5x_qp_path *path)
{
	u32 dlid = rdma_ah_get_dlid(ah);
	const struct ib_global_route *grh;
	int err;

	/*
	 * A connected QP's path ends at one port: a unicast LID, as the
	 * firmware requires (0 is reserved, 0xc000 and up are multicast and
	 * the permissive LID).  User space can ask for anything; it gets
	 * EINVAL, not a failed firmware command.
	 */
	if (!dlid || dlid >= be16_to_cpu(IB_MULTICAST_LID_BASE))
		return -EINVAL;
	path->rlid = dlid;
	path->sl = rdma_ah_get_sl(ah);
	path->path_bits = rdma_ah_get_path_bits(ah);
	err = mlx5x_qp_stat_rate(rdma_ah_get_static_rate(ah),
				 caps->stat_rate_support, &path->stat_rate);
	if (err)
		return err;
	path->grh = rdma_ah_get_ah_flags(ah) & IB_AH_GRH;
	if (!path->grh)
		return 0;
	grh = rdma_ah_read_grh(ah);
	if (grh->sgid_index >= (8U << caps->gid_table_size))
		return -EINVAL;
	path->sgid_index = grh->sgid_index;
	path->hop_limit = grh->hop_limit;
	path->tclass = grh->traffic_class;
	path->flow_label = grh->flow_label;
	memcpy(path->rgid, grh->dgid.raw, sizeof(path->rgid));
	return 0;
}

/*
 * The responder rights, as mlx5_ib writes them whenever the access flags
 * or the responder depth change: each is the one given now or the one
 * remembered (@cur); at depth 0 only remote writes remain (reads and
 * atomics would find no responder resources).  Remote atomics carry the
 * device's atomic mode; without one they are refused.
 */
static int qp_rights(const struct ib_qp_attr *attr, int mask,
		     const struct mlx5x_verbs_caps *caps,
		     const struct mlx5x_qp_cur *cur, struct mlx5x_qp_mod *m)
{
	int access = mask & IB_QP_ACCESS_FLAGS ? attr->qp_access_flags :
						 cur->access;
	u32 depth = mask & IB_QP_MAX_DEST_RD_ATOMIC ?
		    attr->max_dest_rd_atomic : cur->resp_depth;

	if (!depth)
		access &= IB_ACCESS_REMOTE_WRITE;
	/* unknown access bits (e.g. FLUSH) are ignored, as on mlx5 */
	m->rre = access & IB_ACCESS_REMOTE_READ;
	m->rwe = access & IB_ACCESS_REMOTE_WRITE;
	m->rae = access & IB_ACCESS_REMOTE_ATOMIC;
	if (m->rae && !caps->atomic_mode)
		return -EOPNOTSUPP;
	m->atomic_mode = m->rae ? caps->atomic_mode : 0;
	return 0;
}

/* Values of the link/transport attributes, range-checked. */
static int qp_attr_values(const struct ib_qp_attr *attr, int mask,
			  const struct mlx5x_verbs_caps *caps,
			  const struct mlx5x_qp_cur *cur,
			  struct mlx5x_qp_mod *m)
{
	int err;

	if (mask & IB_QP_PATH_MTU &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096))
		return -EINVAL;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC &&
	    attr->max_dest_rd_atomic > BIT(caps->log_max_ra_res_qp))
		return -EINVAL;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC &&
	    attr->max_rd_atomic > BIT(caps->log_max_ra_req_qp))
		return -EINVAL;
	if ((mask & IB_QP_RETRY_CNT && attr->retry_cnt > 7) ||
	    (mask & IB_QP_RNR_RETRY && attr->rnr_retry > 7) ||
	    (mask & IB_QP_TIMEOUT && attr->timeout > 31) ||
	    (mask & IB_QP_MIN_RNR_TIMER && attr->min_rnr_timer > 31))
		return -EINVAL;
	if (mask & IB_QP_PKEY_INDEX &&
	    attr->pkey_index >= (128U << caps->pkey_table_size))
		return -EINVAL;
	m->mtu = attr->path_mtu;
	m->log_msg_max = caps->log_max_msg;
	m->remote_qpn = attr->dest_qp_num & MLX5X_QPN_MASK;
	m->rq_psn = attr->rq_psn & MLX5X_PSN_MASK;
	m->sq_psn = attr->sq_psn & MLX5X_PSN_MASK;
	m->log_rra_max = order_base_2(attr->max_dest_rd_atomic);
	m->log_sra_max = order_base_2(attr->max_rd_atomic);
	m->min_rnr_nak = attr->min_rnr_timer;
	m->retry_count = attr->retry_cnt;
	m->rnr_retry = attr->rnr_retry;
	m->path.ack_timeout = attr->timeout;
	m->path.pkey_index = attr->pkey_index;
	/* an address without a port names the one the QP has */
	m->path.port = mask & IB_QP_PORT ? attr->port_num : cur->port;
	m->qkey = attr->qkey;
	if (m->fields & MLX5X_QPM_ACCESS) {
		err = qp_rights(attr, mask, caps, cur, m);
		if (err)
			return err;
	}
	if (mask & IB_QP_AV)
		return qp_av_to_path(&attr->ah_attr, caps, &m->path);
	return 0;
}

/*
 * What the service type cannot do, whatever was asked: UC has no reads
 * or atomics; a UD datagram is one 4 KiB MTU (as mlx5_ib sets it).
 */
static void qp_type_fixup(enum ib_qp_type type, struct mlx5x_qp_mod *m)
{
	if (type == IB_QPT_UC || type == IB_QPT_UD) {
		m->rre = false;
		m->rae = false;
	}
	if (type == IB_QPT_UD) {
		m->fields |= MLX5X_QPM_MTU;
		m->mtu = IB_MTU_4096;
		m->log_msg_max = MLX5X_UD_LOG_MSG_MAX;
	}
}

/**
 * mlx5x_qp_attr_to_mod() - the context fields of one transition
 * @attr: IB attributes
 * @mask: which of them the caller set
 * @type: the QP type (RC, UC or UD)
 * @opcode: the transition (mlx5x_qp_transition())
 * @caps: device limits
 * @cur: what earlier transitions set, or NULL for nothing (a new QP)
 * @m: fields to write, by m->fields
 * @optpar: opt_param_mask of the command
 *
 * Required attributes are always taken; optional ones add their
 * opt_param_mask bit; attributes the transition does not take are
 * ignored (ib_modify_qp_is_ok() has vetted the mask).  A responder depth
 * rewrites the rights too (qp_rights()), with their bits where the
 * transition takes them optionally.
 */
int mlx5x_qp_attr_to_mod(const struct ib_qp_attr *attr, int mask,
			 enum ib_qp_type type, u16 opcode,
			 const struct mlx5x_verbs_caps *caps,
			 const struct mlx5x_qp_cur *cur,
			 struct mlx5x_qp_mod *m, u32 *optpar)
{
	const struct qp_trans_attrs *t = qp_trans_find(type, opcode);
	static const struct mlx5x_qp_cur none;
	unsigned int i;
	int err;

	memset(m, 0, sizeof(*m));
	*optpar = 0;
	if (!t)
		return 0;
	for (i = 0; i < ARRAY_SIZE(qp_attr_fields); i++) {
		int ib = qp_attr_fields[i].ib;

		if (!(mask & ib))
			continue;
		if (t->required & ib) {
			m->fields |= qp_attr_fields[i].field;
		} else if (t->optional & ib) {
			m->fields |= qp_attr_fields[i].field;
			*optpar |= qp_attr_fields[i].optpar;
		}
	}
	if (m->fields & MLX5X_QPM_RRA) {
		m->fields |= MLX5X_QPM_ACCESS;
		if (t->optional & IB_QP_ACCESS_FLAGS)
			*optpar |= MLX5X_QP_OPTPAR_RRE | MLX5X_QP_OPTPAR_RWE |
				   MLX5X_QP_OPTPAR_RAE;
	}
	*optpar &= qp_type_optpar(type);
	err = qp_attr_values(attr, mask, caps, cur ?: &none, m);
	if (!err)
		qp_type_fixup(type, m);
	return err;
}

/* Attributes mlx5x cannot apply at all. */
static int qp_check_mask(const struct ib_qp_attr *attr, int mask)
{
	if (mask & (IB_QP_ALT_PATH | IB_QP_RATE_LIMIT | IB_QP_EN_SQD_ASYNC_NOTIFY))
		return -EOPNOTSUPP;
	/* without alternate paths the only migration state is "migrated" */
	if (mask & IB_QP_PATH_MIG_STATE && attr->path_mig_state != IB_MIG_MIGRATED)
		return -EOPNOTSUPP;
	return 0;
}

/*
 * What mlx5_ib writes into every context-carrying transition besides the
 * attributes: the service type, path migration state, PD (the reserved
 * one for an XRC target QP), the CQs the QP has (none for an XRC target,
 * no receive CQ for an XRC initiator) and the ACK request frequency.
 */
static void qp_mod_common(struct mlx5x_ib_dev *dev, struct mlx5x_ib_qp *qp,
			  struct mlx5x_qp_mod *m)
{
	struct ib_qp *ibqp = &qp->ibqp;

	m->fields |= MLX5X_QPM_QP;
	mlx5x_kqp_type_to_st(ibqp->qp_type, &m->st);
	m->pdn = ibqp->qp_type != IB_QPT_XRC_TGT && ibqp->pd ?
		 to_mpd(ibqp->pd)->pdn : dev->devr.pdn;
	if (ibqp->qp_type == IB_QPT_XRC_TGT)
		return;
	if (ibqp->send_cq) {
		m->fields |= MLX5X_QPM_CQ_SND;
		m->cqn_snd = to_mcq(ibqp->send_cq)->mcq.cqn;
	}
	if (ibqp->recv_cq && ibqp->qp_type != IB_QPT_XRC_INI) {
		m->fields |= MLX5X_QPM_CQ_RCV;
		m->cqn_rcv = to_mcq(ibqp->recv_cq)->mcq.cqn;
	}
}

/* After a transition: what later ones build on (mlx5_ib keeps the same). */
static void qp_cur_update(struct mlx5x_qp_cur *cur,
			  const struct ib_qp_attr *attr, int mask,
			  enum ib_qp_state next)
{
	if (mask & IB_QP_PORT)
		cur->port = attr->port_num;
	if (next == IB_QPS_RESET)
		cur->port = 0;
	if (mask & IB_QP_ACCESS_FLAGS)
		cur->access = attr->qp_access_flags;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		cur->resp_depth = attr->max_dest_rd_atomic;
}

/*
 * The current state picks the transition command, which the firmware
 * refuses unless the QP is in that state.  The device moves QPs to SQE
 * or ERR by itself, so a state the consumer names (IB_QP_CUR_STATE) that
 * is not the one last known is checked against the device's first: a
 * wrong one is EINVAL, not a failed firmware command.
 */
static int qp_cur_state(struct mlx5x_ib_dev *dev, struct mlx5x_ib_qp *qp,
			const struct ib_qp_attr *attr, int mask,
			enum ib_qp_state *cur)
{
	struct mlx5x_qp_mod m;
	int err;

	lockdep_assert_held(&qp->lock);
	*cur = qp->state;
	if (!(mask & IB_QP_CUR_STATE) || attr->cur_qp_state == qp->state)
		return 0;
	err = mlx5x_fw_query_qp(dev->cmd, qp->qpn, &m);
	if (err)
		return err;
	qp->state = mlx5x_qp_state_to_ib(m.state);
	*cur = qp->state;
	return attr->cur_qp_state == qp->state ? 0 : -EINVAL;
}

static int qp_modify_locked(struct mlx5x_ib_dev *dev, struct mlx5x_ib_qp *qp,
			    struct ib_qp_attr *attr, int mask)
{
	enum ib_qp_state cur, next;
	struct mlx5x_qp_mod m;
	bool has_ctx;
	u32 optpar;
	u16 opcode;
	int err;

	err = qp_cur_state(dev, qp, attr, mask, &cur);
	if (err)
		return err;
	next = mask & IB_QP_STATE ? attr->qp_state : cur;
	if (!ib_modify_qp_is_ok(cur, next, qp->ibqp.qp_type, mask))
		return -EINVAL;
	if (mask & IB_QP_AV &&
	    rdma_ah_get_port_num(&attr->ah_attr) !=
	    (mask & IB_QP_PORT ? attr->port_num : qp->cur.port))
		return -EINVAL;
	err = mlx5x_qp_transition(cur, next, &opcode);
	if (err || !opcode)
		return err;
	/* the special QPs take a UD QP's attributes */
	err = mlx5x_qp_attr_to_mod(attr, mask,
				   mlx5x_kqp_special(qp->ibqp.qp_type) ?
				   IB_QPT_UD : qp->ibqp.qp_type, opcode,
				   &dev->caps, &qp->cur, &m, &optpar);
	if (err)
		return err;
	/* 2RST and 2ERR carry no context */
	has_ctx = opcode != MLX5X_CMD_OP_2RST_QP &&
		  opcode != MLX5X_CMD_OP_2ERR_QP;
	if (has_ctx)
		qp_mod_common(dev, qp, &m);
	if (has_ctx && qp->kqp)
		mlx5x_kqp_mod(qp, opcode, &m, &optpar);
	err = mlx5x_fw_modify_qp(dev->cmd, opcode, qp->qpn, optpar,
				 has_ctx ? &m : NULL);
	if (err)
		return err;
	if (qp->kqp && next == IB_QPS_RESET)
		mlx5x_kqp_reset(qp);
	qp->state = next;
	qp_cur_update(&qp->cur, attr, mask, next);
	return 0;
}

int mlx5x_ib_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		       int mask, struct ib_udata *udata)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibqp->device);
	struct mlx5x_ib_qp *qp = to_mqp(ibqp);
	int err;

	/* the extended request (ECE, rate limit, OOO) is not offered */
	if (udata && udata->inlen && !ib_is_udata_cleared(udata, 0, udata->inlen))
		err = -EOPNOTSUPP;
	else
		err = qp_check_mask(attr, mask);
	if (!err) {
		mutex_lock(&qp->lock);
		err = qp_modify_locked(dev, qp, attr, mask);
		mutex_unlock(&qp->lock);
	}
	if (err) {
		ibdev_dbg(ibqp->device, "modify_qp 0x%x (mask 0x%x, state %d -> %d): %d\n",
			  ibqp->qp_num, mask, qp->state,
			  mask & IB_QP_STATE ? attr->qp_state : -1, err);
		atomic64_inc(&dev->stats.modify_qp_err);
	}
	return err;
}

/* ---- query ---- */

static void qp_path_to_ah(struct mlx5x_ib_dev *dev,
			  const struct mlx5x_qp_path *path,
			  struct rdma_ah_attr *ah)
{
	union ib_gid dgid;

	memset(ah, 0, sizeof(*ah));
	/* before RST2INIT there is no port, hence no address */
	if (!rdma_is_port_valid(&dev->ibdev, path->port))
		return;
	ah->type = rdma_ah_find_type(&dev->ibdev, path->port);
	rdma_ah_set_port_num(ah, path->port);
	rdma_ah_set_dlid(ah, path->rlid);
	rdma_ah_set_sl(ah, path->sl);
	rdma_ah_set_path_bits(ah, path->path_bits);
	rdma_ah_set_static_rate(ah, mlx5x_qp_stat_rate_to_ib(path->stat_rate));
	if (!path->grh)
		return;
	memcpy(dgid.raw, path->rgid, sizeof(dgid.raw));
	rdma_ah_set_grh(ah, &dgid, path->flow_label, path->sgid_index,
			path->hop_limit, path->tclass);
}

static void qp_mod_to_attr(struct mlx5x_ib_dev *dev, enum ib_qp_type type,
			   const struct mlx5x_qp_mod *m,
			   struct ib_qp_attr *attr)
{
	attr->qp_state = mlx5x_qp_state_to_ib(m->state);
	attr->cur_qp_state = attr->qp_state;
	attr->path_mtu = m->mtu;
	attr->path_mig_state = IB_MIG_MIGRATED;
	attr->rq_psn = m->rq_psn;
	attr->sq_psn = m->sq_psn;
	attr->dest_qp_num = m->remote_qpn;
	attr->qp_access_flags = (m->rre ? IB_ACCESS_REMOTE_READ : 0) |
				(m->rwe ? IB_ACCESS_REMOTE_WRITE : 0) |
				(m->rae ? IB_ACCESS_REMOTE_ATOMIC : 0);
	/* a UD QP has no remote address: each WQE carries its own */
	if (type != IB_QPT_UD)
		qp_path_to_ah(dev, &m->path, &attr->ah_attr);
	attr->qkey = m->qkey;
	attr->pkey_index = m->path.pkey_index;
	attr->port_num = m->path.port;
	attr->max_rd_atomic = 1 << m->log_sra_max;
	attr->max_dest_rd_atomic = 1 << m->log_rra_max;
	attr->min_rnr_timer = m->min_rnr_nak;
	attr->timeout = m->path.ack_timeout;
	attr->retry_cnt = m->retry_count;
	attr->rnr_retry = m->rnr_retry;
}

int mlx5x_ib_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		      struct ib_qp_init_attr *init_attr)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibqp->device);
	struct mlx5x_ib_qp *qp = to_mqp(ibqp);
	struct mlx5x_qp_mod m;
	int err;

	memset(attr, 0, sizeof(*attr));
	memset(init_attr, 0, sizeof(*init_attr));
	mutex_lock(&qp->lock);
	err = mlx5x_fw_query_qp(dev->cmd, qp->qpn, &m);
	if (!err) {
		/* the device moves QPs to ERR by itself: believe it */
		qp->state = mlx5x_qp_state_to_ib(m.state);
		qp_mod_to_attr(dev, ibqp->qp_type, &m, attr);
	}
	mutex_unlock(&qp->lock);
	if (err)
		return err;
	/* libmlx5 reports the send side itself; the receive side is ours */
	attr->cap.max_recv_wr = qp->sizes.rq_wqe_cnt;
	attr->cap.max_recv_sge = qp->sizes.rq_max_gs;
	if (qp->kqp)
		attr->cap = qp->cap;
	init_attr->cap = attr->cap;
	init_attr->qp_type = ibqp->qp_type;
	init_attr->send_cq = ibqp->send_cq;
	init_attr->recv_cq = ibqp->recv_cq;
	init_attr->sq_sig_type = qp->sq_sig_type;
	return 0;
}

/* ---- XRC target QPs ---- */

/*
 * An XRC target QP has no send queue, no receive queue, no UAR and no
 * doorbell record: each request names the XRC SRQ (of the QP's domain)
 * its receives and memory keys come from, and completions go to that
 * SRQ's CQ with its user index.  The core creates it without driver
 * data (it may be shared by several processes through the domain), so
 * it holds nothing of a user context.  As mlx5_ib, its context names the
 * reserved PD, the reserved CQ as both CQs and the reserved XRC SRQ
 * (receives from an SRQ), and no doorbell record (address 0: never
 * written).
 */
void mlx5x_qp_xrc_tgt_params(const struct mlx5x_devr *devr,
			     const struct mlx5x_verbs_caps *caps, u32 xrcdn,
			     struct mlx5x_qp_params *p)
{
	memset(p, 0, sizeof(*p));
	p->st = MLX5X_QP_ST_XRC;
	p->pdn = devr->pdn;
	p->user_index = MLX5X_UIDX_NONE;
	p->cqn_snd = devr->cqn;
	p->cqn_rcv = devr->cqn;
	p->rq_type = MLX5X_QP_RQ_SRQ;
	p->srqn = devr->s0.srqn;
	p->xrcd = xrcdn;
	p->ts_format = mlx5x_qp_ts_format(caps, true);
}

static int qp_create_xrc_tgt(struct mlx5x_ib_dev *dev, struct mlx5x_ib_qp *qp,
			     struct ib_qp_init_attr *attr)
{
	struct mlx5x_qp_params p;
	u32 qpn;
	int err;

	err = mlx5x_qp_check_init_attr(attr, &dev->caps);
	if (err)
		goto err_out;
	mlx5x_qp_xrc_tgt_params(&dev->devr, &dev->caps,
				to_mxrcd(attr->xrcd)->xrcdn, &p);
	err = mlx5x_fw_create_qp(dev->cmd, &p, &qpn);
	if (err)
		goto err_out;
	qp->qpn = qpn;
	qp->ibqp.qp_num = qpn;
	err = qp_table_insert(dev, qp);
	if (err) {
		mlx5x_fw_destroy_qp(dev->cmd, qpn);
		return err;
	}
	memset(&attr->cap, 0, sizeof(attr->cap));
	qp_set_caps(qp, attr);
	return 0;

err_out:
	ibdev_dbg(&dev->ibdev, "create XRC target QP: %d\n", err);
	atomic64_inc(&dev->stats.qp_err);
	return err;
}
