// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel QPs (kverbs.h): RC, UC and UD QPs of kernel consumers and the
 * special QPs, QP0 (SMI) and QP1 (GSI), each one hardware QP of its
 * type (st QP0/QP1) on its port.  qp.c creates, modifies, queries and
 * destroys them as it does user QPs; this file owns their memory, the
 * context fields only kernel QPs have, and posting.
 *
 * The work queue buffer is one coherent allocation laid out as libmlx5
 * lays out a user QP's: the receive queue, then the send queue.  A send
 * WQE is built where it goes, or, when it would run past the ring end,
 * in a scratch buffer copied block by block.  Doorbells: WQE stores,
 * wmb(), doorbell record, wmb(), one 64-bit store of the last control
 * segment's first 8 bytes to the kernel UAR.
 */
#include <linux/dmapool.h>
#include <linux/log2.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "ib.h"
#include "kmr.h"
#include "kverbs.h"
#include "kwqe.h"
#include "mlx5x.h"

/* the special QPs' fixed path MTU and message size (as mlx5_ib: 256 / 8) */
#define MLX5X_SQP_LOG_MSG_MAX	8
#define MLX5X_KQP_UIDX_NONE	0xffffff
#define MLX5X_KQP_LOG_WQ_MAX	15	/* 4-bit log_rq_size/log_sq_size */

/**
 * mlx5x_kqp_special() - is a QP type QP0 or QP1
 * @type: the QP type
 *
 * Return: true for IB_QPT_SMI and IB_QPT_GSI.
 */
bool mlx5x_kqp_special(enum ib_qp_type type)
{
	return type == IB_QPT_SMI || type == IB_QPT_GSI;
}

/**
 * mlx5x_kqp_type_to_st() - service type of a QP, the special ones too
 * @type: the QP type
 * @st: qpc.st on success
 *
 * Return: 0, or -EOPNOTSUPP.
 */
int mlx5x_kqp_type_to_st(enum ib_qp_type type, u8 *st)
{
	switch (type) {
	case IB_QPT_SMI:
		*st = MLX5X_QP_ST_QP0;
		return 0;
	case IB_QPT_GSI:
		*st = MLX5X_QP_ST_QP1;
		return 0;
	default:
		return mlx5x_qp_type_to_st(type, st);
	}
}

/* ---- geometry ---- */

/* Bytes of the segments between the control segment and the data. */
static unsigned int ksq_overhead(enum ib_qp_type type)
{
	switch (type) {
	case IB_QPT_UD:
	case IB_QPT_GSI:
	case IB_QPT_SMI:
		return MLX5X_WQE_AV_LEN;
	case IB_QPT_RC:
		return MLX5X_KWQE_RADDR_LEN + MLX5X_KWQE_ATOMIC_LEN;
	default:
		return MLX5X_KWQE_RADDR_LEN;
	}
}

/**
 * mlx5x_ksq_send_len() - bytes of the largest send WQE of a QP
 * @type: the QP type
 * @sge: gather entries a WQE may carry
 * @inl: inline bytes a WQE may carry
 *
 * RC QPs also post fast-registration and invalidation WQEs (a control
 * segment and what kmr.h writes after it).
 *
 * Return: the bytes, control segment included.
 */
unsigned int mlx5x_ksq_send_len(enum ib_qp_type type, u32 sge, u32 inl)
{
	unsigned int data = max_t(unsigned int, sge * MLX5X_WQE_DS_LEN,
				  inl ? ALIGN(MLX5X_WQE_INLINE_HDR_LEN + inl,
					      MLX5X_WQE_DS_LEN) : 0);
	unsigned int len = MLX5X_KWQE_CTRL_LEN + ksq_overhead(type) + data;

	if (type == IB_QPT_RC)
		len = max_t(unsigned int, len,
			    MLX5X_KWQE_CTRL_LEN + MLX5X_KMR_SEGS_MAX);
	return len;
}

static int kqp_rq_geometry(const struct ib_qp_cap *cap,
			   const struct mlx5x_verbs_caps *caps, u32 max_wr,
			   struct mlx5x_kqp_geom *g)
{
	u32 slot;

	if (!cap->max_recv_wr)
		return 0;
	if (cap->max_recv_wr > max_wr)
		return -EINVAL;
	g->rq_max_gs = roundup_pow_of_two(max_t(u32, cap->max_recv_sge, 1));
	slot = g->rq_max_gs * MLX5X_WQE_DS_LEN;
	if (cap->max_recv_sge > caps->max_wqe_sz_rq / MLX5X_WQE_DS_LEN ||
	    slot > caps->max_wqe_sz_rq)
		return -EINVAL;
	g->rq_shift = ilog2(slot);
	g->rq_n = roundup_pow_of_two(cap->max_recv_wr);
	/* the device takes no queue smaller than one WQEBB (as mlx5_ib) */
	while (g->rq_n << g->rq_shift < MLX5X_SEND_WQEBB_LEN)
		g->rq_n <<= 1;
	g->rq_log_n = ilog2(g->rq_n);
	return 0;
}

/**
 * mlx5x_kqp_geometry() - queue sizes of a kernel QP
 * @type: the QP type
 * @cap: what the consumer asked for
 * @caps: device limits
 * @g: the geometry on success
 *
 * The send queue holds max_send_wr WQEs of the largest size, so a full
 * queue is max_send_wr WQEs whatever their kinds; a receive slot holds
 * max_recv_sge entries (and the terminator when they do not fill it),
 * and the receive queue has at least one WQEBB of slots, so it may hold
 * more than max_recv_wr (what the QP reports).
 *
 * Return: 0, or -EINVAL for a request beyond the device's limits.
 */
int mlx5x_kqp_geometry(enum ib_qp_type type, const struct ib_qp_cap *cap,
		       const struct mlx5x_verbs_caps *caps,
		       struct mlx5x_kqp_geom *g)
{
	u32 max_wr = BIT(min_t(u8, caps->log_max_qp_sz, MLX5X_KQP_LOG_WQ_MAX));
	u32 max_len = min_t(u32, caps->max_wqe_sz_sq, MLX5X_KWQE_MAX_LEN);
	unsigned int len;
	u32 bbs;

	memset(g, 0, sizeof(*g));
	/* bounds the sizes below, which would overflow otherwise */
	if (cap->max_send_wr > max_wr ||
	    cap->max_send_sge > max_len / MLX5X_WQE_DS_LEN ||
	    cap->max_inline_data > max_len)
		return -EINVAL;
	len = mlx5x_ksq_send_len(type, cap->max_send_sge,
				 cap->max_inline_data);
	if (len > max_len)
		return -EINVAL;
	g->max_send_sge = cap->max_send_sge;
	g->max_inline = cap->max_inline_data;
	g->max_wqe_bbs = DIV_ROUND_UP(len, MLX5X_SEND_WQEBB_LEN);
	bbs = roundup_pow_of_two(max_t(u32, cap->max_send_wr, 1) *
				 g->max_wqe_bbs);
	if (bbs > max_wr)
		return -EINVAL;
	g->sq_log_n = ilog2(bbs);
	return kqp_rq_geometry(cap, caps, max_wr, g);
}

/* ---- creation ---- */

static int kqp_check_attr(const struct ib_qp_init_attr *attr)
{
	switch (attr->qp_type) {
	case IB_QPT_RC:
	case IB_QPT_UC:
	case IB_QPT_UD:
	case IB_QPT_GSI:
	case IB_QPT_SMI:
		break;
	default:
		return -EOPNOTSUPP;
	}
	/* no offload is advertised; receives from a kernel SRQ only */
	if (attr->create_flags || attr->xrcd || attr->rwq_ind_tbl ||
	    (attr->srq && !to_msrq(attr->srq)->ksrq))
		return -EOPNOTSUPP;
	if (!attr->send_cq || !attr->recv_cq ||
	    !to_mcq(attr->send_cq)->kcq || !to_mcq(attr->recv_cq)->kcq)
		return -EINVAL;
	if (attr->sq_sig_type != IB_SIGNAL_ALL_WR &&
	    attr->sq_sig_type != IB_SIGNAL_REQ_WR)
		return -EINVAL;
	return 0;
}

static void kqp_mem_free(struct mlx5x_ib_dev *dev, struct mlx5x_kqp *kqp)
{
	kfree(kqp->scratch);
	kfree(kqp->rq_wrid);
	kfree(kqp->sq_rec);
	if (kqp->dbr)
		dma_pool_free(dev->kdb_pool, kqp->dbr, kqp->dbr_dma);
	if (kqp->mem.buf)
		mlx5x_ring_free(&dev->mdev->pdev->dev, &kqp->mem);
	kfree(kqp);
}

/* The buffer (receive queue, then send queue) and the bookkeeping. */
static int kqp_mem_alloc(struct mlx5x_ib_dev *dev, struct mlx5x_kqp *kqp,
			 const struct mlx5x_kqp_geom *g)
{
	size_t rq_bytes = (size_t)g->rq_n << g->rq_shift;
	size_t sq_bytes = (size_t)1 << (g->sq_log_n + MLX5X_SEND_WQEBB_SHIFT);
	size_t bbs = DIV_ROUND_UP(rq_bytes + sq_bytes, MLX5X_SEND_WQEBB_LEN);
	int err;

	err = mlx5x_ring_alloc(&dev->mdev->pdev->dev, &kqp->mem,
			       order_base_2(bbs), MLX5X_SEND_WQEBB_SHIFT);
	if (err)
		return err;
	mlx5x_ring_init(&kqp->rq, kqp->mem.buf, kqp->mem.dma, g->rq_log_n,
			g->rq_shift);
	mlx5x_ring_init(&kqp->sq, kqp->mem.buf + rq_bytes,
			kqp->mem.dma + rq_bytes, g->sq_log_n,
			MLX5X_SEND_WQEBB_SHIFT);
	kqp->dbr = dma_pool_zalloc(dev->kdb_pool, GFP_KERNEL, &kqp->dbr_dma);
	kqp->sq_rec = kcalloc(BIT(g->sq_log_n), sizeof(*kqp->sq_rec),
			      GFP_KERNEL);
	/* copied whole blocks at a time */
	kqp->scratch = kzalloc(ALIGN(MLX5X_KWQE_MAX_LEN, MLX5X_SEND_WQEBB_LEN),
			       GFP_KERNEL);
	if (g->rq_n)
		kqp->rq_wrid = kcalloc(g->rq_n, sizeof(u64), GFP_KERNEL);
	if (!kqp->dbr || !kqp->sq_rec || !kqp->scratch ||
	    (g->rq_n && !kqp->rq_wrid))
		return -ENOMEM;
	return 0;
}

static void kqp_fill_params(struct mlx5x_ib_dev *dev, struct mlx5x_ib_qp *qp,
			    const struct ib_qp_init_attr *attr,
			    const struct mlx5x_kqp_geom *g,
			    struct mlx5x_qp_params *p)
{
	struct mlx5x_kqp *kqp = qp->kqp;
	size_t bytes = ((size_t)g->rq_n << g->rq_shift) +
		       ((size_t)1 << (g->sq_log_n + MLX5X_SEND_WQEBB_SHIFT));

	memset(p, 0, sizeof(*p));
	mlx5x_kqp_type_to_st(attr->qp_type, &p->st);
	p->pdn = to_mpd(qp->ibqp.pd)->pdn;
	p->uar = dev->kuar.index;
	p->user_index = MLX5X_KQP_UIDX_NONE;
	p->cqn_snd = to_mcq(attr->send_cq)->mcq.cqn;
	p->cqn_rcv = to_mcq(attr->recv_cq)->mcq.cqn;
	p->log_rq_size = g->rq_log_n;
	p->rq_wqe_shift = g->rq_n ? g->rq_shift : 0;
	p->has_sq = true;
	p->log_sq_size = g->sq_log_n;
	p->ts_format = mlx5x_qp_ts_format(&dev->caps, true);
	p->kernel = true;
	p->dbr = kqp->dbr_dma;
	mlx5x_ring_pas(&kqp->mem, &p->pas);
	/* the pages the queues use, not the allocation's power-of-two tail */
	p->pas.n = DIV_ROUND_UP(bytes, SZ_4K);
	mlx5x_qp_rq_names(&dev->devr, false,
			  attr->srq ? &to_msrq(attr->srq)->srqn : NULL,
			  g->rq_n, p);
}

static void kqp_set_caps(struct mlx5x_ib_qp *qp, struct ib_qp_init_attr *attr,
			 const struct mlx5x_kqp_geom *g)
{
	attr->cap.max_send_wr = BIT(g->sq_log_n) / g->max_wqe_bbs;
	attr->cap.max_recv_wr = g->rq_n;
	attr->cap.max_recv_sge = g->rq_max_gs;
	qp->cap = attr->cap;
	qp->sq_sig_type = attr->sq_sig_type;
	qp->sizes.sq_wqe_cnt = BIT(g->sq_log_n);
	qp->sizes.rq_wqe_cnt = g->rq_n;
	qp->sizes.rq_wqe_shift = g->rq_shift;
	qp->sizes.rq_max_gs = g->rq_max_gs;
}

static int kqp_alloc(struct mlx5x_ib_dev *dev, struct mlx5x_ib_qp *qp,
		     const struct ib_qp_init_attr *attr,
		     const struct mlx5x_kqp_geom *g)
{
	struct mlx5x_kqp *kqp;
	int err;

	kqp = kzalloc(sizeof(*kqp), GFP_KERNEL);
	if (!kqp)
		return -ENOMEM;
	spin_lock_init(&kqp->sq_lock);
	spin_lock_init(&kqp->rq_lock);
	err = kqp_mem_alloc(dev, kqp, g);
	if (err) {
		kqp_mem_free(dev, kqp);
		return err;
	}
	kqp->max_send_sge = g->max_send_sge;
	kqp->max_inline = g->max_inline;
	kqp->rq_max_gs = g->rq_max_gs;
	kqp->max_wqe_bbs = g->max_wqe_bbs;
	kqp->port = attr->port_num;
	kqp->sig_all = attr->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->kqp = kqp;
	return 0;
}

/**
 * mlx5x_kqp_create() - create a QP for a kernel consumer
 * @dev: the device
 * @qp: the QP; on success @qp->kqp, @qp->qpn and ibqp.qp_num are set
 *	and the QP is in the QP table (@qp->qpn)
 * @attr: the request; its capabilities are updated to what was created
 *
 * Return: 0, -EOPNOTSUPP for a type or feature not offered, -EINVAL for
 * sizes beyond the device's or CQs that are not kernel CQs, -ENOMEM, or
 * the error of CREATE_QP.
 */
int mlx5x_kqp_create(struct mlx5x_ib_dev *dev, struct mlx5x_ib_qp *qp,
		     struct ib_qp_init_attr *attr)
{
	struct mlx5x_qp_params p;
	struct mlx5x_kqp_geom g;
	int err;

	err = kqp_check_attr(attr);
	/* a QP on an SRQ has no receive queue of its own */
	if (!err && attr->srq) {
		attr->cap.max_recv_wr = 0;
		attr->cap.max_recv_sge = 0;
	}
	if (!err)
		err = mlx5x_kqp_geometry(attr->qp_type, &attr->cap, &dev->caps,
					 &g);
	if (!err)
		err = kqp_alloc(dev, qp, attr, &g);
	if (err)
		return err;
	kqp_fill_params(dev, qp, attr, &g, &p);
	err = mlx5x_fw_create_qp(dev->cmd, &p, &qp->qpn);
	if (err)
		goto err_free;
	/* the special QPs are 0 and 1 to the consumer, whatever the device's */
	qp->ibqp.qp_num = attr->qp_type == IB_QPT_SMI ? 0 :
			  attr->qp_type == IB_QPT_GSI ? 1 : qp->qpn;
	err = mlx5x_res_insert(&dev->qps, qp->qpn, &qp->res);
	if (err && mlx5x_fw_destroy_qp(dev->cmd, qp->qpn)) {
		/* the device may still use the queues: leak them */
		ibdev_warn(&dev->ibdev, "DESTROY_QP 0x%x refused, its memory is leaked\n",
			   qp->qpn);
		qp->kqp = NULL;
		return err;
	}
	if (err)
		goto err_free;
	kqp_set_caps(qp, attr, &g);
	return 0;

err_free:
	kqp_mem_free(dev, qp->kqp);
	qp->kqp = NULL;
	return err;
}

/**
 * mlx5x_kqp_clean_cqs() - drop a kernel QP's CQEs from its CQs
 * @qp: the QP, in RESET (the device writes no new CQE for it) and still
 *	in the QP table
 *
 * The receives dropped give their WQEs back to the QP's SRQ.
 */
void mlx5x_kqp_clean_cqs(struct mlx5x_ib_qp *qp)
{
	struct mlx5x_ib_srq *srq = qp->ibqp.srq ? to_msrq(qp->ibqp.srq) : NULL;

	mlx5x_kcq_clean(to_mcq(qp->ibqp.send_cq), qp->qpn, srq);
	if (qp->ibqp.recv_cq != qp->ibqp.send_cq)
		mlx5x_kcq_clean(to_mcq(qp->ibqp.recv_cq), qp->qpn, srq);
}

/**
 * mlx5x_kqp_free() - free a kernel QP's queues
 * @dev: the device
 * @qp: the QP, its CQs cleaned and DESTROY_QP done (qp.c): the device
 *	uses the queues no more
 */
void mlx5x_kqp_free(struct mlx5x_ib_dev *dev, struct mlx5x_ib_qp *qp)
{
	kqp_mem_free(dev, qp->kqp);
	qp->kqp = NULL;
}

/**
 * mlx5x_kqp_reset() - forget a kernel QP's queues after a move to RESET
 * @qp: the QP, in RESET
 *
 * The device forgot the queues, so does the driver (as mlx5_ib): the
 * CQEs are dropped first, so no poll_cq writes the tails any more, then
 * the counters and the record are zeroed under the posting locks.
 */
void mlx5x_kqp_reset(struct mlx5x_ib_qp *qp)
{
	struct mlx5x_kqp *kqp = qp->kqp;
	unsigned long flags;

	mlx5x_kqp_clean_cqs(qp);
	spin_lock_irqsave(&kqp->sq_lock, flags);
	kqp->sq.ctr = 0;
	kqp->sq_tail = 0;
	kqp->next_fence = 0;
	kqp->dbr[MLX5X_QP_DBR_SND_OFF / 4] = 0;
	spin_unlock_irqrestore(&kqp->sq_lock, flags);
	spin_lock_irqsave(&kqp->rq_lock, flags);
	kqp->rq.ctr = 0;
	kqp->rq_tail = 0;
	kqp->dbr[MLX5X_QP_DBR_RCV_OFF / 4] = 0;
	spin_unlock_irqrestore(&kqp->rq_lock, flags);
}

/**
 * mlx5x_kqp_mod() - the context fields of a transition only kernel QPs have
 * @qp: a kernel QP
 * @opcode: the transition
 * @m: the fields qp.c built; amended
 * @optpar: its opt_param_mask; amended
 *
 * Every kernel QP names the reserved lkey at RST2INIT (rlky).  The
 * special QPs carry a 256-byte MTU with 256-byte messages and their
 * port on every transition, and no optional parameter (mlx5_ib sends
 * mask 0 for st QP0/QP1): a P_Key index or Q_Key they are given is
 * taken as a required field.
 */
void mlx5x_kqp_mod(const struct mlx5x_ib_qp *qp, u16 opcode,
		   struct mlx5x_qp_mod *m, u32 *optpar)
{
	if (opcode == MLX5X_CMD_OP_RST2INIT_QP)
		m->fields |= MLX5X_QPM_RLKY;
	if (!mlx5x_kqp_special(qp->ibqp.qp_type))
		return;
	*optpar = 0;
	m->fields |= MLX5X_QPM_MTU | MLX5X_QPM_PORT;
	m->mtu = IB_MTU_256;
	m->log_msg_max = MLX5X_SQP_LOG_MSG_MAX;
	m->path.port = qp->kqp->port;
}

/* ---- posting sends ---- */

/**
 * mlx5x_ksq_op_ok() - may a kernel QP of a type post an opcode
 * @type: the QP type
 * @op: the work request's opcode
 *
 * As mlx5_ib: memory registration, invalidation and SEND_WITH_INV only
 * on RC (handle_qpt_rc); UC sends and writes; datagrams send.
 *
 * Return: true if the opcode is one the type takes.
 */
bool mlx5x_ksq_op_ok(enum ib_qp_type type, enum ib_wr_opcode op)
{
	switch (type) {
	case IB_QPT_RC:
		return true;
	case IB_QPT_UC:
		return op == IB_WR_SEND || op == IB_WR_SEND_WITH_IMM ||
		       op == IB_WR_RDMA_WRITE ||
		       op == IB_WR_RDMA_WRITE_WITH_IMM;
	default:
		return op == IB_WR_SEND || op == IB_WR_SEND_WITH_IMM;
	}
}

static __be32 ksq_imm(const struct ib_send_wr *wr)
{
	switch (wr->opcode) {
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return wr->ex.imm_data;
	case IB_WR_SEND_WITH_INV:
	case IB_WR_LOCAL_INV:
		return cpu_to_be32(wr->ex.invalidate_rkey);
	case IB_WR_REG_MR:
		return cpu_to_be32(reg_wr(wr)->key);
	default:
		return 0;
	}
}

/* The UMR segments (kmr.c) of REG_MR and LOCAL_INV after the control. */
static int ksq_umr_segs(struct mlx5x_ib_dev *dev, const struct ib_send_wr *wr,
			u8 *seg)
{
	/*
	 * Straight into the WQE: a ring slot or the scratch WQE, contiguous
	 * for the largest WQE of an RC QP, which has room for the largest
	 * block (mlx5x_ksq_send_len(); kmr.c checks its side).
	 */
	BUILD_BUG_ON(MLX5X_KWQE_CTRL_LEN + MLX5X_KMR_SEGS_MAX >
		     MLX5X_KWQE_MAX_LEN);
	if (wr->opcode == IB_WR_REG_MR)
		return mlx5x_kmr_reg_segs(dev, reg_wr(wr), seg);
	return mlx5x_kmr_linv_segs(dev, seg);
}

/* Gather list or inline data. */
static int ksq_data(const struct mlx5x_kqp *kqp, const struct ib_send_wr *wr,
		    u8 *seg)
{
	unsigned int len = 0;
	int i, err;

	if (wr->send_flags & IB_SEND_INLINE &&
	    (wr->opcode == IB_WR_SEND || wr->opcode == IB_WR_SEND_WITH_IMM ||
	     wr->opcode == IB_WR_SEND_WITH_INV ||
	     wr->opcode == IB_WR_RDMA_WRITE ||
	     wr->opcode == IB_WR_RDMA_WRITE_WITH_IMM)) {
		err = mlx5x_kwqe_inline(seg, wr->sg_list, wr->num_sge,
					kqp->max_inline, &len);
		return err ?: len;
	}
	if (wr->num_sge > kqp->max_send_sge)
		return -EINVAL;
	for (i = 0; i < wr->num_sge; i++) {
		/* as mlx5_ib: an empty entry is left out */
		if (!wr->sg_list[i].length)
			continue;
		mlx5x_kwqe_data(seg + len, wr->sg_list[i].length,
				wr->sg_list[i].lkey, wr->sg_list[i].addr);
		len += MLX5X_WQE_DS_LEN;
	}
	return len;
}

/* Segments after the control segment; return their bytes. */
static int ksq_segs(struct mlx5x_ib_dev *dev, const struct mlx5x_ib_qp *qp,
		    const struct ib_send_wr *wr, u8 *seg)
{
	u8 *start = seg;
	int len;

	switch (wr->opcode) {
	case IB_WR_REG_MR:
	case IB_WR_LOCAL_INV:
		return ksq_umr_segs(dev, wr, seg);
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		mlx5x_kwqe_raddr(seg, rdma_wr(wr)->remote_addr,
				 rdma_wr(wr)->rkey);
		seg += MLX5X_KWQE_RADDR_LEN;
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		mlx5x_kwqe_raddr(seg, atomic_wr(wr)->remote_addr,
				 atomic_wr(wr)->rkey);
		seg += MLX5X_KWQE_RADDR_LEN;
		/* fetch-and-add: the operand is compare_add, as mlx5_ib */
		if (wr->opcode == IB_WR_ATOMIC_CMP_AND_SWP)
			mlx5x_kwqe_atomic(seg, atomic_wr(wr)->swap,
					  atomic_wr(wr)->compare_add);
		else
			mlx5x_kwqe_atomic(seg, atomic_wr(wr)->compare_add, 0);
		seg += MLX5X_KWQE_ATOMIC_LEN;
		break;
	default:
		if (!mlx5x_kqp_special(qp->ibqp.qp_type) &&
		    qp->ibqp.qp_type != IB_QPT_UD)
			break;
		mlx5x_kwqe_dgram(seg, to_mah(ud_wr(wr)->ah)->av,
				 ud_wr(wr)->remote_qpn, ud_wr(wr)->remote_qkey);
		seg += MLX5X_WQE_AV_LEN;
		break;
	}
	len = ksq_data(qp->kqp, wr, seg);
	return len < 0 ? len : seg - start + len;
}

/* Room for the largest WQE?  The tail moves under the send CQ's lock. */
static bool ksq_full(const struct mlx5x_kqp *kqp)
{
	/* pairs with the poll's release: freed records are read */
	u32 used = kqp->sq.ctr - smp_load_acquire(&kqp->sq_tail);

	return used + kqp->max_wqe_bbs > BIT(kqp->sq.log_n);
}

/* One WR at the producer; @ctrl8 gets its doorbell word. */
static int ksq_post_one(struct mlx5x_ib_dev *dev, struct mlx5x_ib_qp *qp,
			const struct ib_send_wr *wr, u64 *ctrl8)
{
	struct mlx5x_kqp *kqp = qp->kqp;
	u32 idx = kqp->sq.ctr & (BIT(kqp->sq.log_n) - 1);
	bool wraps = idx + kqp->max_wqe_bbs > BIT(kqp->sq.log_n);
	u8 *wqe = wraps ? kqp->scratch : mlx5x_ring_entry(&kqp->sq, kqp->sq.ctr);
	struct mlx5x_kwqe_ctrl c = {};
	enum ib_wc_opcode wc_op;
	unsigned int nbb;
	int len;

	if (mlx5x_kwqe_opcode(wr->opcode, &c.opcode, &wc_op) ||
	    !mlx5x_ksq_op_ok(qp->ibqp.qp_type, wr->opcode))
		return -EINVAL;
	if (ksq_full(kqp))
		return -ENOMEM;
	len = ksq_segs(dev, qp, wr, wqe + MLX5X_KWQE_CTRL_LEN);
	if (len < 0)
		return len;
	len += MLX5X_KWQE_CTRL_LEN;
	nbb = DIV_ROUND_UP(len, MLX5X_SEND_WQEBB_LEN);
	c.index = (u16)kqp->sq.ctr;
	c.qpn = qp->qpn;
	c.ds = len / MLX5X_WQE_DS_LEN;
	c.fence = mlx5x_kwqe_fence(c.opcode == MLX5X_OPCODE_UMR,
				   wr->send_flags & IB_SEND_FENCE,
				   kqp->next_fence, dev->umr_fence);
	c.signaled = kqp->sig_all || wr->send_flags & IB_SEND_SIGNALED;
	c.solicited = wr->send_flags & IB_SEND_SOLICITED;
	c.imm = ksq_imm(wr);
	memset(wqe, 0, MLX5X_KWQE_CTRL_LEN);
	mlx5x_kwqe_ctrl(wqe, &c);
	kqp->next_fence = c.opcode == MLX5X_OPCODE_UMR ?
			  MLX5X_WQE_FENCE_INITIATOR_SMALL : 0;
	kqp->sq_rec[idx] = (struct mlx5x_ksq_rec) {
		.wr_id = wr->wr_id, .wc_op = wc_op, .nbb = nbb,
	};
	if (wraps)
		mlx5x_kwqe_copy(kqp->sq.buf, kqp->sq.log_n, kqp->sq.ctr, wqe,
				nbb);
	memcpy(ctrl8, wqe, sizeof(*ctrl8));
	kqp->sq.ctr += nbb;
	return 0;
}

/**
 * mlx5x_sq_ring_db() - hand send WQEs to the device
 * @dbr_snd: the send counter word of the QP's doorbell record
 * @uar: the UAR page the QP was created with
 * @pc: the producer counter after the last WQE, in WQEBBs
 * @ctrl: the first 8 bytes of the last WQE (its control segment)
 *
 * The barriers of mlx5_ib's post_send: the WQEs are in memory before
 * the record that hands them over, and the record before the doorbell
 * that makes the device read it.  The caller serializes the rings of
 * one QP; QPs may share the UAR (one 64-bit store).
 */
void mlx5x_sq_ring_db(__be32 *dbr_snd, void __iomem *uar, u32 pc,
		      const void *ctrl)
{
	/* the WQEs are visible before the counter that hands them over */
	wmb();
	*dbr_snd = cpu_to_be32(pc & MLX5X_QP_DBR_COUNTER_MASK);
	/* the record is visible before the doorbell that makes it read */
	wmb();
	__iowrite64_copy(uar + MLX5X_UAR_BF_OFF, ctrl, 1);
}

/**
 * mlx5x_ib_post_send() - post_send of a kernel QP
 * @ibqp: the QP
 * @wr: the work requests
 * @bad_wr: the first one not posted, on error
 *
 * One doorbell for the WQEs posted, also when a later one fails.
 *
 * Return: 0; -EINVAL for an opcode the QP type does not take or a
 * request beyond the QP's sizes, -ENOMEM for a full send queue or
 * inline data beyond max_inline_data, -EOPNOTSUPP for a user QP.
 */
int mlx5x_ib_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		       const struct ib_send_wr **bad_wr)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibqp->device);
	struct mlx5x_ib_qp *qp = to_mqp(ibqp);
	struct mlx5x_kqp *kqp = qp->kqp;
	unsigned long flags;
	u64 ctrl8 = 0;
	int n = 0, err = 0;

	if (!kqp) {
		*bad_wr = wr;
		return -EOPNOTSUPP;
	}
	spin_lock_irqsave(&kqp->sq_lock, flags);
	for (; wr; wr = wr->next, n++) {
		err = ksq_post_one(dev, qp, wr, &ctrl8);
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	if (n)
		mlx5x_sq_ring_db(&kqp->dbr[MLX5X_QP_DBR_SND_OFF / 4],
				 dev->kuar.map, kqp->sq.ctr, &ctrl8);
	spin_unlock_irqrestore(&kqp->sq_lock, flags);
	return err;
}

/* ---- posting receives ---- */

/**
 * mlx5x_ib_post_recv() - post_recv of a kernel QP
 * @ibqp: the QP
 * @wr: the work requests
 * @bad_wr: the first one not posted, on error
 *
 * Return: 0; -ENOMEM for a full receive queue, -EINVAL for too many
 * scatter entries or a QP without a receive queue (on an SRQ),
 * -EOPNOTSUPP for a user QP.
 */
int mlx5x_ib_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		       const struct ib_recv_wr **bad_wr)
{
	struct mlx5x_kqp *kqp = to_mqp(ibqp)->kqp;
	unsigned long flags;
	int n = 0, err = 0;

	if (!kqp || !kqp->rq_wrid) {
		*bad_wr = wr;
		return kqp ? -EINVAL : -EOPNOTSUPP;
	}
	spin_lock_irqsave(&kqp->rq_lock, flags);
	for (; wr; wr = wr->next, n++) {
		/* pairs with the poll's release: freed ids are read */
		if (kqp->rq.ctr - smp_load_acquire(&kqp->rq_tail) >=
		    BIT(kqp->rq.log_n)) {
			err = -ENOMEM;
		} else if (wr->num_sge < 0 ||
			   (u32)wr->num_sge > kqp->rq_max_gs) {
			err = -EINVAL;
		}
		if (err) {
			*bad_wr = wr;
			break;
		}
		mlx5x_krecv_build(mlx5x_ring_entry(&kqp->rq, kqp->rq.ctr),
				  kqp->rq_max_gs, wr->sg_list, wr->num_sge);
		kqp->rq_wrid[kqp->rq.ctr & (BIT(kqp->rq.log_n) - 1)] = wr->wr_id;
		kqp->rq.ctr++;
	}
	if (n) {
		/* the WQEs are visible before the counter that hands them over */
		wmb();
		kqp->dbr[MLX5X_QP_DBR_RCV_OFF / 4] =
			cpu_to_be32(kqp->rq.ctr & MLX5X_QP_DBR_COUNTER_MASK);
	}
	spin_unlock_irqrestore(&kqp->rq_lock, flags);
	return err;
}
