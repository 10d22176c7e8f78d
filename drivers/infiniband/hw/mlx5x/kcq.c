// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel CQs (kverbs.h): a ring of 64-byte CQEs in coherent memory, a
 * doorbell record from the device's pool, the kernel UAR for arming.
 * cq.c creates and destroys them through the one CQ core (cq_core.c)
 * like user CQs; this file owns their memory, polling and arming.
 *
 * Also here: the device-wide resources of the kernel data path (the
 * kernel UAR and the doorbell record pool), set up before registration.
 */
#include <linux/dma-mapping.h>
#include <linux/dmapool.h>
#include <linux/io.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>

#include "ib.h"
#include "kverbs.h"
#include "kwqe.h"
#include "mlx5x.h"

/* a doorbell record pool block: one cache line, records never share it */
#define MLX5X_KDB_LEN		64

/* ---- device-wide ---- */

/**
 * mlx5x_kverbs_init() - the kernel data path's UAR and doorbell pool
 * @dev: the device, before registration
 *
 * Return: 0, or the error of ALLOC_UAR or of the pool.
 */
int mlx5x_kverbs_init(struct mlx5x_ib_dev *dev)
{
	struct pci_dev *pdev = dev->mdev->pdev;
	int err;

	err = mlx5x_uar_alloc(dev->cmd, pdev, &dev->uar_geom, &dev->kuar);
	if (err)
		return err;
	dev->kdb_pool = dma_pool_create("mlx5x_kdb", &pdev->dev,
					MLX5X_KDB_LEN, MLX5X_KDB_LEN, 0);
	if (!dev->kdb_pool) {
		mlx5x_uar_free(dev->cmd, &dev->kuar);
		return -ENOMEM;
	}
	dev->umr_fence = mlx5x_kwqe_umr_fence(dev->caps.umr_fence);
	return 0;
}

/**
 * mlx5x_kverbs_fini() - undo mlx5x_kverbs_init()
 * @dev: the device, after unregistration: every kernel CQ and QP is gone
 */
void mlx5x_kverbs_fini(struct mlx5x_ib_dev *dev)
{
	dma_pool_destroy(dev->kdb_pool);
	mlx5x_uar_free(dev->cmd, &dev->kuar);
}

/* ---- arming ---- */

/**
 * mlx5x_cq_arm_ring() - arm a kernel-owned CQ
 * @dbr_arm: the arm word of its doorbell record
 * @uar: the UAR page it was created with
 * @cqn: the CQ
 * @sn: arm sequence number
 * @solicited: only for a solicited (or error) CQE
 * @ci: consumer counter
 *
 * Record first, then the doorbell: the device checks the record against
 * the doorbell.  One 64-bit store, so CQs may share the UAR unlocked.
 */
void mlx5x_cq_arm_ring(__be32 *dbr_arm, void __iomem *uar, u32 cqn, u8 sn,
		       bool solicited, u32 ci)
{
	__be32 db[2] __aligned(8) = {
		cpu_to_be32(mlx5x_cq_arm_word(sn, solicited, ci)),
		cpu_to_be32(cqn),
	};

	*dbr_arm = db[0];
	/* the device checks the record against the doorbell */
	wmb();
	__iowrite64_copy(uar + MLX5X_UAR_CQ_DB_OFF, db, 1);
}

/* ---- creation ---- */

/**
 * mlx5x_kcq_alloc() - memory and CREATE_CQ parameters of a kernel CQ
 * @dev: the device
 * @cq: the CQ being created; @cq->kcq and @cq->eq are set
 * @attr: the consumer's request
 * @p: the buffer, doorbell record and UAR fields are set
 *
 * Return: 0, -EOPNOTSUPP for flags (timestamps), -EINVAL for a size
 * outside the device's, -ENOMEM.
 */
int mlx5x_kcq_alloc(struct mlx5x_ib_dev *dev, struct mlx5x_ib_cq *cq,
		    const struct ib_cq_init_attr *attr,
		    struct mlx5x_cq_params *p)
{
	struct device *dma_dev = &dev->mdev->pdev->dev;
	struct mlx5x_kcq *kcq;
	u32 entries;
	int err;

	if (attr->flags)
		return -EOPNOTSUPP;
	if (attr->cqe < 1 || attr->cqe >= 1U << dev->caps.log_max_cq_sz)
		return -EINVAL;
	entries = roundup_pow_of_two(attr->cqe + 1);
	kcq = kzalloc(sizeof(*kcq), GFP_KERNEL);
	if (!kcq)
		return -ENOMEM;
	spin_lock_init(&kcq->lock);
	err = mlx5x_ring_alloc(dma_dev, &kcq->ring, ilog2(entries),
			       MLX5X_CQE_LOG_LEN);
	if (err)
		goto err_free;
	mlx5x_cq_ring_invalidate(&kcq->ring);
	kcq->dbr = dma_pool_zalloc(dev->kdb_pool, GFP_KERNEL, &kcq->dbr_dma);
	if (!kcq->dbr) {
		err = -ENOMEM;
		goto err_ring;
	}
	cq->kcq = kcq;
	cq->eq = mlx5x_ib_comp_eq(dev, attr->comp_vector);
	cq->cqe_size = MLX5X_CQE_LEN;
	cq->ibcq.cqe = entries - 1;
	p->log_size = kcq->ring.log_n;
	p->uar = dev->kuar.index;
	p->dbr = kcq->dbr_dma;
	mlx5x_ring_pas(&kcq->ring, &p->pas);
	return 0;

err_ring:
	mlx5x_ring_free(dma_dev, &kcq->ring);
err_free:
	kfree(kcq);
	return err;
}

/**
 * mlx5x_kcq_free() - free a kernel CQ's memory
 * @dev: the device
 * @cq: the CQ, destroyed by the CQ core: the device writes no more
 */
void mlx5x_kcq_free(struct mlx5x_ib_dev *dev, struct mlx5x_ib_cq *cq)
{
	struct mlx5x_kcq *kcq = cq->kcq;

	dma_pool_free(dev->kdb_pool, kcq->dbr, kcq->dbr_dma);
	mlx5x_ring_free(&dev->mdev->pdev->dev, &kcq->ring);
	kfree(kcq);
	cq->kcq = NULL;
}

/**
 * mlx5x_kcq_leak() - forget a kernel CQ the device refused to destroy
 * @cq: the CQ, out of the CQ table and quiesced
 *
 * The device may still write the ring and the doorbell record: both
 * stay allocated for good; only the bookkeeping is freed.
 */
void mlx5x_kcq_leak(struct mlx5x_ib_cq *cq)
{
	kfree(cq->kcq);
	cq->kcq = NULL;
}

/**
 * mlx5x_kcq_event() - a completion event of a kernel CQ came
 * @cq: the CQ
 *
 * From its completion handler: the event consumed the arm, the next one
 * takes the next sequence number.  The handler is the only writer of
 * @arm_sn and never runs concurrently with itself for one CQ, so its
 * plain read of its own value is exact; the store is WRITE_ONCE for
 * req_notify_cq, which reads it (READ_ONCE) under the CQ lock.
 */
void mlx5x_kcq_event(struct mlx5x_ib_cq *cq)
{
	WRITE_ONCE(cq->kcq->arm_sn, cq->kcq->arm_sn + 1);
}

/* ---- polling ---- */

/* The CQE at counter @ctr if software owns it, else NULL. */
static void *kcq_owned(struct mlx5x_kcq *kcq, u32 ctr)
{
	void *cqe = mlx5x_ring_entry(&kcq->ring, ctr);

	return mlx5x_cqe_sw_owns(cqe, ctr, kcq->ring.log_n) ? cqe : NULL;
}

static void kcq_set_ci(struct mlx5x_kcq *kcq)
{
	kcq->dbr[MLX5X_CQ_DBR_CI_OFF / 4] =
		cpu_to_be32(kcq->ring.ctr & MLX5X_CQ_DBR_CI_MASK);
}

/**
 * mlx5x_ksq_complete() - retire send WQEs up to the one a CQE names
 * @rec: the send queue's records
 * @log_n: log2 of its WQEBBs
 * @tail: counter of the oldest WQE not yet completed
 * @counter: the CQE's wqe_counter (first WQEBB of the completed WQE)
 * @wr_id: its id
 * @op: its completion opcode
 *
 * Unsignalled WQEs before it complete with it, silently.
 * Return: the new tail.
 */
u32 mlx5x_ksq_complete(struct mlx5x_ksq_rec *rec, u8 log_n, u32 tail,
		       u16 counter, u64 *wr_id, enum ib_wc_opcode *op)
{
	const struct mlx5x_ksq_rec *r = &rec[counter & ((1U << log_n) - 1)];

	*wr_id = r->wr_id;
	*op = r->wc_op;
	return tail + (u16)(counter - (u16)tail) + r->nbb;
}

static void kcq_send_done(struct mlx5x_kqp *kqp, const void *cqe,
			  bool err, struct ib_wc *wc)
{
	enum ib_wc_opcode op;
	u32 tail;

	tail = mlx5x_ksq_complete(kqp->sq_rec, kqp->sq.log_n, kqp->sq_tail,
				  mlx5x_cqe_wqe_counter(cqe), &wc->wr_id, &op);
	/* the records are read: post_send may reuse them (pairs with acquire) */
	smp_store_release(&kqp->sq_tail, tail);
	if (err) {
		mlx5x_cqe_err_to_wc(cqe, wc);
		wc->opcode = op;
	} else {
		mlx5x_cqe_req_to_wc(cqe, op, wc);
	}
}

static void kcq_recv_done(struct mlx5x_ib_dev *dev, struct mlx5x_ib_qp *qp,
			  const void *cqe, bool err, struct ib_wc *wc)
{
	struct mlx5x_kqp *kqp = qp->kqp;
	u32 tail = kqp->rq_tail;
	u16 pkey;

	if (qp->ibqp.srq) {
		/* an SRQ names the WQE; it goes back on the SRQ's list */
		wc->wr_id = mlx5x_ksrq_done(to_msrq(qp->ibqp.srq),
					    mlx5x_cqe_wqe_counter(cqe));
	} else {
		wc->wr_id = kqp->rq_wrid[tail & ((1U << kqp->rq.log_n) - 1)];
		/* the id is read: post_recv may reuse the slot (pairs with acquire) */
		smp_store_release(&kqp->rq_tail, tail + 1);
	}
	if (err) {
		mlx5x_cqe_err_to_wc(cqe, wc);
		wc->opcode = IB_WC_RECV;
		return;
	}
	mlx5x_cqe_resp_to_wc(cqe, wc);
	wc->port_num = kqp->port;
	if (qp->ibqp.qp_type != IB_QPT_GSI)
		return;
	/* QP1's CQE carries the P_Key itself: the consumer wants its index */
	pkey = be32_to_cpu(*(const __be32 *)((const u8 *)cqe +
					     MLX5X_CQE_IMM_INVAL_PKEY_OFF));
	if (ib_find_cached_pkey(&dev->ibdev, kqp->port, pkey, &wc->pkey_index))
		wc->pkey_index = 0;
}

/*
 * One CQE into @wc.  @qp caches the QP of the previous CQE (a reference
 * held).  Return: false for a CQE that gives no completion (its QP is
 * gone, or not a kernel QP, or a kind mlx5x does not use).
 */
static bool kcq_poll_one(struct mlx5x_ib_dev *dev, const void *cqe,
			 struct mlx5x_ib_qp **qp, struct ib_wc *wc)
{
	u8 opcode = mlx5x_cqe_opcode(cqe);
	u32 qpn = mlx5x_cqe_qpn(cqe);

	if (!*qp || (*qp)->qpn != qpn) {
		if (*qp)
			mlx5x_qp_put(*qp);
		*qp = mlx5x_qp_get(dev, qpn);
	}
	if (!*qp || !(*qp)->kqp)
		return false;
	memset(wc, 0, sizeof(*wc));
	wc->qp = &(*qp)->ibqp;
	switch (opcode) {
	case MLX5X_CQE_REQ:
	case MLX5X_CQE_REQ_ERR:
		kcq_send_done((*qp)->kqp, cqe, opcode == MLX5X_CQE_REQ_ERR, wc);
		return true;
	case MLX5X_CQE_RESP_WR_IMM:
	case MLX5X_CQE_RESP_SEND:
	case MLX5X_CQE_RESP_SEND_IMM:
	case MLX5X_CQE_RESP_SEND_INV:
	case MLX5X_CQE_RESP_ERR:
		if (!(*qp)->kqp->rq_wrid && !(*qp)->ibqp.srq)
			return false;
		kcq_recv_done(dev, *qp, cqe, opcode == MLX5X_CQE_RESP_ERR, wc);
		return true;
	default:
		return false;
	}
}

/**
 * mlx5x_ib_poll_cq() - poll_cq of a kernel CQ
 * @ibcq: the CQ
 * @num_entries: room in @wc
 * @wc: the completions
 *
 * CQEs of QPs that are gone (or are user QPs) are consumed without a
 * completion.  Any context; under the CQ lock.
 *
 * Return: completions written, 0 when none is ready, -EOPNOTSUPP for a
 * user CQ (its consumer polls in user space).
 */
int mlx5x_ib_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibcq->device);
	struct mlx5x_kcq *kcq = to_mcq(ibcq)->kcq;
	struct mlx5x_ib_qp *qp = NULL;
	unsigned long flags;
	u32 start;
	int n = 0;
	void *cqe;

	if (!kcq)
		return -EOPNOTSUPP;
	spin_lock_irqsave(&kcq->lock, flags);
	start = kcq->ring.ctr;
	while (n < num_entries &&
	       (cqe = kcq_owned(kcq, kcq->ring.ctr))) {
		/* the rest of the CQE was written before op_own */
		dma_rmb();
		kcq->ring.ctr++;
		if (kcq_poll_one(dev, cqe, &qp, &wc[n]))
			n++;
	}
	if (kcq->ring.ctr != start)
		kcq_set_ci(kcq);
	spin_unlock_irqrestore(&kcq->lock, flags);
	if (qp)
		mlx5x_qp_put(qp);
	return n;
}

/**
 * mlx5x_ib_req_notify_cq() - arm a kernel CQ
 * @ibcq: the CQ
 * @flags: IB_CQ_SOLICITED or IB_CQ_NEXT_COMP, and
 *	IB_CQ_REPORT_MISSED_EVENTS
 *
 * Return: 0; 1 if IB_CQ_REPORT_MISSED_EVENTS was asked and a CQE is
 * already ready (the consumer polls again rather than wait for an
 * event); -EOPNOTSUPP for a user CQ.
 */
int mlx5x_ib_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibcq->device);
	struct mlx5x_ib_cq *cq = to_mcq(ibcq);
	struct mlx5x_kcq *kcq = cq->kcq;
	unsigned long irqflags;
	int ret = 0;

	if (!kcq)
		return -EOPNOTSUPP;
	spin_lock_irqsave(&kcq->lock, irqflags);
	mlx5x_cq_arm_ring(&kcq->dbr[MLX5X_CQ_DBR_ARM_OFF / 4], dev->kuar.map,
			  cq->mcq.cqn, READ_ONCE(kcq->arm_sn),
			  (flags & IB_CQ_SOLICITED_MASK) == IB_CQ_SOLICITED,
			  kcq->ring.ctr);
	if (flags & IB_CQ_REPORT_MISSED_EVENTS &&
	    kcq_owned(kcq, kcq->ring.ctr))
		ret = 1;
	spin_unlock_irqrestore(&kcq->lock, irqflags);
	return ret;
}

/* A responder CQE (good or error), which consumed a receive WQE. */
static bool kcq_is_recv(const void *cqe)
{
	u8 op = mlx5x_cqe_opcode(cqe);

	return op != MLX5X_CQE_REQ && op != MLX5X_CQE_REQ_ERR;
}

/**
 * mlx5x_kcq_compact() - drop one QP's CQEs from a CQ ring
 * @r: a ring of 64-byte CQEs; @r->ctr, the consumer counter, moves past
 *	the CQEs freed
 * @qpn: the QP's firmware number; the device writes no new CQE for it
 * @recv_drop: called with the wqe_counter of each responder CQE dropped
 *	(an SRQ WQE to give back), or NULL
 * @arg: its first argument
 *
 * The CQEs software owns from the consumer counter on are scanned from
 * the newest back; those of other QPs move up over the dropped ones,
 * keeping their order, with the owner bit of their new slot's pass.
 * The caller serializes with polling and publishes the new counter.
 *
 * Return: the CQEs dropped.
 */
u32 mlx5x_kcq_compact(struct mlx5x_ring *r, u32 qpn,
		      void (*recv_drop)(void *arg, u16 wqe_counter), void *arg)
{
	u32 prod = r->ctr, nfreed = 0;
	u8 *cqe, *dest;

	while (prod - r->ctr < (1U << r->log_n) &&
	       mlx5x_cqe_sw_owns(mlx5x_ring_entry(r, prod), prod, r->log_n))
		prod++;
	/* the rest of each CQE was written before its op_own */
	dma_rmb();
	while (prod != r->ctr) {
		prod--;
		cqe = mlx5x_ring_entry(r, prod);
		if (mlx5x_cqe_qpn(cqe) == qpn) {
			if (recv_drop && kcq_is_recv(cqe))
				recv_drop(arg, mlx5x_cqe_wqe_counter(cqe));
			nfreed++;
		} else if (nfreed) {
			dest = mlx5x_ring_entry(r, prod + nfreed);
			memcpy(dest, cqe, MLX5X_CQE_LEN);
			dest[MLX5X_CQE_OP_OWN_OFF] =
				(dest[MLX5X_CQE_OP_OWN_OFF] &
				 ~MLX5X_CQE_OWNER_MASK) |
				mlx5x_ring_pass(prod + nfreed, r->log_n);
		}
	}
	r->ctr += nfreed;
	return nfreed;
}

/* A dropped receive of a QP on an SRQ: its WQE goes back on the list. */
static void kcq_srq_return(void *srq, u16 wqe_counter)
{
	mlx5x_ksrq_done(srq, wqe_counter);
}

/**
 * mlx5x_kcq_clean() - drop the CQEs of a QP from a kernel CQ
 * @cq: the CQ
 * @qpn: the QP's firmware number; the QP is reset, so the device writes
 *	no new CQE for it
 * @srq: the QP's SRQ, or NULL: the receives dropped give their WQEs back
 *
 * poll_cq never sees a CQE of the QP after this (mlx5x_kcq_compact()).
 */
void mlx5x_kcq_clean(struct mlx5x_ib_cq *cq, u32 qpn, struct mlx5x_ib_srq *srq)
{
	struct mlx5x_kcq *kcq = cq->kcq;
	unsigned long flags;

	if (!kcq)
		return;
	spin_lock_irqsave(&kcq->lock, flags);
	if (mlx5x_kcq_compact(&kcq->ring, qpn, srq ? kcq_srq_return : NULL,
			      srq)) {
		/* the moves are done before the device may reuse the slots */
		wmb();
		kcq_set_ci(kcq);
	}
	spin_unlock_irqrestore(&kcq->lock, flags);
}
