// SPDX-License-Identifier: GPL-2.0-only
/*
 * Completion queues: user CQs here, kernel CQs' rings and polling in
 * kcq.c; both are created and destroyed here, through the CQ core.
 *
 * libmlx5 owns the CQE ring and the doorbell record and arms the CQ
 * itself through its UAR; the kernel creates the CQ on the completion
 * EQ of the requested vector and turns each completion EQE into a call
 * of ibcq->comp_handler (from the EQ's interrupt, or its bottom half in
 * a burst, cq_table.c), and each CQ error EQE into an IB_EVENT_CQ_ERR.
 *
 * Destroy is fenced (cq_core.c): out of the table, DESTROY_CQ (back
 * in the table if the device refuses), then mlx5x_cq_quiesce() waits out
 * the interrupt handler, drops a queued notification and waits for a
 * running one, so no handler can touch the CQ once the core frees it.
 *
 * Resize hands the device a new ring libmlx5 allocated; the device
 * writes a RESIZE entry into the old one, up to which libmlx5 copies
 * what it has not polled, and goes on in the new ring.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/sizes.h>
#include <rdma/ib_umem.h>

#include "ib.h"
#include "kverbs.h"
#include "mlx5x.h"

/* CQ rings are page aligned (no page offset); 4 KiB .. 1 GiB pages. */
#define MLX5X_CQ_PGSZ_BITMAP	GENMASK_ULL(30, MLX5X_ADAPTER_PAGE_SHIFT)
#define MLX5X_CQE_SIZE_SMALL	64
#define MLX5X_CQE_SIZE_LARGE	128

/**
 * mlx5x_cq_check_req() - validate a user CQ request
 * @ucmd: libmlx5's request
 * @caps: device limits
 * @cqe: CQEs asked for (ib_cq_init_attr.cqe)
 * @flags: ib_cq_init_attr.flags
 * @entries: ring size on success (a power of two > @cqe)
 *
 * Return: 0, -EINVAL for a bad size or a missing UAR, -EOPNOTSUPP for
 * features mlx5x does not offer (timestamps, CQE compression, padding).
 */
int mlx5x_cq_check_req(const struct mlx5_ib_create_cq *ucmd,
		       const struct mlx5x_verbs_caps *caps, int cqe,
		       u32 flags, u32 *entries)
{
	u32 max = 1U << caps->log_max_cq_sz;

	if (flags)
		return -EOPNOTSUPP;
	if (ucmd->cqe_comp_en || ucmd->cqe_comp_res_format ||
	    ucmd->flags & ~MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX)
		return -EOPNOTSUPP;
	/* dynamic UARs: the CQ names the UAR that arms it */
	if (!(ucmd->flags & MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX))
		return -EINVAL;
	if (ucmd->reserved0 || ucmd->reserved1)
		return -EINVAL;
	if (ucmd->cqe_size != MLX5X_CQE_SIZE_SMALL &&
	    ucmd->cqe_size != MLX5X_CQE_SIZE_LARGE)
		return -EINVAL;
	if (!ucmd->buf_addr || !PAGE_ALIGNED(ucmd->buf_addr))
		return -EINVAL;
	if (cqe < 1 || (u32)cqe >= max)
		return -EINVAL;
	*entries = roundup_pow_of_two((u32)cqe + 1);
	return 0;
}

/**
 * mlx5x_cq_resize_check() - validate a user CQ resize request
 * @ucmd: libmlx5's request (struct mlx5_ib_resize_cq)
 * @caps: device limits
 * @cqe: CQEs asked for
 * @cqe_size: CQE size of the CQ as created
 * @entries: new ring size on success (a power of two > @cqe)
 *
 * The CQE size stays what it was (libmlx5 never changes it, and its
 * poll loop assumes one size); the ring is page aligned, as at creation.
 *
 * Return: 0, -EINVAL for a bad size, address or reserved field, and
 * -EOPNOTSUPP when the device cannot resize.
 */
int mlx5x_cq_resize_check(const struct mlx5_ib_resize_cq *ucmd,
			  const struct mlx5x_verbs_caps *caps, int cqe,
			  u16 cqe_size, u32 *entries)
{
	if (!caps->cq_resize)
		return -EOPNOTSUPP;
	if (ucmd->reserved0 || ucmd->reserved1 || ucmd->cqe_size != cqe_size)
		return -EINVAL;
	if (!ucmd->buf_addr || !PAGE_ALIGNED(ucmd->buf_addr))
		return -EINVAL;
	if (cqe < 1 || (u32)cqe >= 1U << caps->log_max_cq_sz)
		return -EINVAL;
	*entries = roundup_pow_of_two((u32)cqe + 1);
	return 0;
}

/*
 * Hard-IRQ or bottom-half context: a completion EQE named this CQ.
 * ib_uverbs' handler only queues an event and wakes the channel (with
 * interrupts saved), as mlx4 calls it from its interrupt handler too.
 */
static void cq_comp(struct mlx5x_core_cq *mcq)
{
	struct mlx5x_ib_cq *cq = container_of(mcq, struct mlx5x_ib_cq, mcq);
	struct ib_cq *ibcq = &cq->ibcq;

	if (cq->kcq)
		mlx5x_kcq_event(cq);
	if (ibcq->comp_handler)
		ibcq->comp_handler(ibcq, ibcq->cq_context);
}

/* Hard-IRQ context: a CQ error EQE (overrun, access error). */
static void cq_event(struct mlx5x_core_cq *mcq, u8 type, u8 syndrome)
{
	struct mlx5x_ib_cq *cq = container_of(mcq, struct mlx5x_ib_cq, mcq);
	struct ib_cq *ibcq = &cq->ibcq;
	struct ib_event ev = {
		.device = ibcq->device,
		.event = IB_EVENT_CQ_ERR,
		.element.cq = ibcq,
	};

	if (ibcq->event_handler)
		ibcq->event_handler(&ev, ibcq->cq_context);
}

static int cq_read_req(struct ib_udata *udata, struct mlx5_ib_create_cq *ucmd)
{
	/* the UAR page index is mandatory with dynamic UARs */
	size_t min = offsetofend(struct mlx5_ib_create_cq, uar_page_index);

	if (udata->outlen < sizeof_field(struct mlx5_ib_create_cq_resp, cqn))
		return -EINVAL;
	return mlx5x_ib_udata_in(udata, ucmd, min, sizeof(*ucmd));
}

/* Pin the ring and the doorbell record; fill @p's buffer fields. */
static int cq_pin(struct mlx5x_ib_dev *dev, struct mlx5x_ib_ucontext *uctx,
		  struct mlx5x_ib_cq *cq, const struct mlx5_ib_create_cq *ucmd,
		  u32 entries, struct mlx5x_cq_params *p)
{
	size_t bytes = (size_t)entries * ucmd->cqe_size;
	int err;

	/* the device writes CQEs: the ring is pinned writable */
	err = mlx5x_uq_pin(dev, uctx, ucmd->buf_addr, bytes,
			   IB_ACCESS_LOCAL_WRITE, ucmd->db_addr, &cq->uq);
	if (err)
		return err;
	p->pas.umem = cq->uq.umem;
	p->pas.pgsz = ib_umem_find_best_pgoff(cq->uq.umem, MLX5X_CQ_PGSZ_BITMAP,
					      0);
	if (!p->pas.pgsz) {
		mlx5x_uq_unpin(uctx, &cq->uq);
		return -EINVAL;
	}
	p->pas.n = ib_umem_num_dma_blocks(cq->uq.umem, p->pas.pgsz);
	p->dbr = cq->uq.db.dma;
	return 0;
}

static void cq_unpin(struct mlx5x_ib_ucontext *uctx, struct mlx5x_ib_cq *cq)
{
	mlx5x_uq_unpin(uctx, &cq->uq);
}

/* CREATE_CQ and publication in the CQ table for the event path. */
static int cq_create_hw(struct mlx5x_ib_dev *dev, struct mlx5x_ib_cq *cq,
			struct mlx5x_cq_params *p)
{
	/* a kernel CQ's parameters name the kernel UAR already */
	if (cq->uar)
		p->uar = cq->uar->index;
	cq->mcq.comp = cq_comp;
	cq->mcq.event = cq_event;
	return mlx5x_core_cq_create(dev->cmd, &dev->mdev->hca.cqs, cq->eq, p,
				    &cq->mcq);
}

/*
 * The fenced destroy of cq_core.c; also the undo of cq_create_hw().  A
 * refused DESTROY_CQ leaves the CQ as it was, in the table: the device
 * may still write the ring and raise its events.  ib_uverbs keeps a
 * user CQ for another attempt; a caller whose CQ is freed anyway takes
 * it out of the table itself.
 */
static int cq_destroy_hw(struct mlx5x_ib_dev *dev, struct mlx5x_ib_cq *cq)
{
	int err;

	err = mlx5x_core_cq_destroy(dev->cmd, &dev->mdev->hca.cqs, &cq->mcq);
	if (err)
		ibdev_warn(&dev->ibdev, "DESTROY_CQ 0x%x: %d\n", cq->mcq.cqn,
			   err);
	return err;
}

/* A CQ of a kernel consumer: rings in kernel memory (kcq.c). */
static int cq_create_kernel(struct mlx5x_ib_dev *dev, struct mlx5x_ib_cq *cq,
			    const struct ib_cq_init_attr *attr)
{
	struct mlx5x_cq_params p = {};
	int err;

	err = mlx5x_kcq_alloc(dev, cq, attr, &p);
	if (err)
		goto out;
	err = cq_create_hw(dev, cq, &p);
	if (err)
		mlx5x_kcq_free(dev, cq);
out:
	if (err) {
		ibdev_dbg(&dev->ibdev, "create kernel CQ (cqe %u, vector %u): %d\n",
			  attr->cqe, attr->comp_vector, err);
		atomic64_inc(&dev->stats.cq_err);
	}
	return err;
}

int mlx5x_ib_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		       struct mlx5x_create_cq_arg *arg)
{
	struct ib_udata *udata = mlx5x_create_cq_udata(arg);
	struct mlx5x_ib_dev *dev = to_mibdev(ibcq->device);
	struct mlx5_ib_create_cq_resp resp = {};
	struct mlx5x_ib_cq *cq = to_mcq(ibcq);
	struct mlx5x_cq_params p = {};
	struct mlx5x_ib_ucontext *uctx;
	struct mlx5_ib_create_cq ucmd;
	u32 entries;
	int err;

	if (!udata)
		return cq_create_kernel(dev, cq, attr);
	uctx = rdma_udata_to_drv_context(udata, struct mlx5x_ib_ucontext, ibuc);
	/* set up before the CQ number reaches the event path */
	mutex_init(&cq->resize_lock);
	err = cq_read_req(udata, &ucmd);
	if (err)
		goto err_out;
	err = mlx5x_cq_check_req(&ucmd, &dev->caps, attr->cqe, attr->flags,
				 &entries);
	if (err)
		goto err_out;
	cq->uctx = uctx;
	cq->uar = mlx5x_uar_get(uctx, ucmd.uar_page_index);
	if (!cq->uar) {
		err = -EINVAL;
		goto err_out;
	}
	cq->eq = mlx5x_ib_comp_eq(dev, attr->comp_vector);
	p.log_size = ilog2(entries);
	p.cqe_128 = ucmd.cqe_size == MLX5X_CQE_SIZE_LARGE;
	err = cq_pin(dev, uctx, cq, &ucmd, entries, &p);
	if (err)
		goto err_uar;
	err = cq_create_hw(dev, cq, &p);
	if (err)
		goto err_unpin;
	resp.cqn = cq->mcq.cqn;
	err = ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)));
	if (err)
		goto err_destroy;
	ibcq->cqe = entries - 1;
	cq->cqe_size = ucmd.cqe_size;
	return 0;

err_destroy:
	/* the core frees @cq: the table may not keep it, whatever happens */
	if (cq_destroy_hw(dev, cq)) {
		mlx5x_cq_table_remove(&dev->mdev->hca.cqs, &cq->mcq);
		mlx5x_cq_quiesce(&cq->mcq);
	}
err_unpin:
	cq_unpin(uctx, cq);
err_uar:
	mlx5x_uar_put(cq->uar);
err_out:
	ibdev_dbg(ibcq->device, "create_cq (cqe %d, vector %u): %d\n",
		  attr->cqe, attr->comp_vector, err);
	atomic64_inc(&dev->stats.cq_err);
	mutex_destroy(&cq->resize_lock);
	return err;
}

int mlx5x_ib_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibcq->device);
	struct mlx5x_ib_cq *cq = to_mcq(ibcq);
	int err;

	err = cq_destroy_hw(dev, cq);
	if (err && cq->kcq) {
		/*
		 * ib_free_cq() frees @cq whatever this returns: it may not
		 * stay in the table, and the ring and doorbell record the
		 * device may still write are leaked.
		 */
		mlx5x_cq_table_remove(&dev->mdev->hca.cqs, &cq->mcq);
		mlx5x_cq_quiesce(&cq->mcq);
		mlx5x_kcq_leak(cq);
		return err;
	}
	if (err)
		return err;
	if (cq->kcq) {
		mlx5x_kcq_free(dev, cq);
		return 0;
	}
	cq_unpin(cq->uctx, cq);
	mlx5x_uar_put(cq->uar);
	mutex_destroy(&cq->resize_lock);
	return 0;
}

/* Pin the new ring; fill @p's buffer fields. */
static struct ib_umem *cq_resize_pin(struct mlx5x_ib_dev *dev, u64 addr,
				     size_t bytes, struct mlx5x_cq_params *p)
{
	struct ib_umem *umem;

	umem = ib_umem_get_va(&dev->ibdev, addr, bytes, IB_ACCESS_LOCAL_WRITE);
	if (IS_ERR(umem))
		return umem;
	p->pas.umem = umem;
	p->pas.pgsz = ib_umem_find_best_pgoff(umem, MLX5X_CQ_PGSZ_BITMAP, 0);
	if (!p->pas.pgsz) {
		ib_umem_release(umem);
		return ERR_PTR(-EINVAL);
	}
	p->pas.n = ib_umem_num_dma_blocks(umem, p->pas.pgsz);
	return umem;
}

static int cq_resize_locked(struct mlx5x_ib_dev *dev, struct mlx5x_ib_cq *cq,
			    const struct mlx5_ib_resize_cq *ucmd, u32 entries)
{
	struct mlx5x_cq_params p = {
		.log_size = ilog2(entries),
		.cqe_128 = cq->cqe_size == MLX5X_CQE_SIZE_LARGE,
	};
	struct ib_umem *umem;
	int err;

	lockdep_assert_held(&cq->resize_lock);
	umem = cq_resize_pin(dev, ucmd->buf_addr,
			     (size_t)entries * cq->cqe_size, &p);
	if (IS_ERR(umem))
		return PTR_ERR(umem);
	err = mlx5x_fw_resize_cq(dev->cmd, cq->mcq.cqn, &p);
	if (err) {
		ib_umem_release(umem);
		return err;
	}
	/* the device has left the old ring: it may go */
	ib_umem_release(cq->uq.umem);
	cq->uq.umem = umem;
	cq->ibcq.cqe = entries - 1;
	return 0;
}

int mlx5x_ib_resize_cq(struct ib_cq *ibcq, mlx5x_resize_cqe_t cqe,
		       struct ib_udata *udata)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibcq->device);
	struct mlx5x_ib_cq *cq = to_mcq(ibcq);
	struct mlx5_ib_resize_cq ucmd;
	u32 entries;
	int err;

	if (!udata)
		return -EOPNOTSUPP;
	/* negative (an int on older kernels) or beyond any CQ */
	if ((u64)cqe > INT_MAX)
		return -EINVAL;
	err = mlx5x_ib_udata_in(udata, &ucmd, sizeof(ucmd), sizeof(ucmd));
	if (err)
		goto out;
	err = mlx5x_cq_resize_check(&ucmd, &dev->caps, (int)cqe, cq->cqe_size,
				    &entries);
	if (err)
		goto out;
	mutex_lock(&cq->resize_lock);
	/* the same ring size: nothing to hand over (libmlx5 checks too) */
	if (entries != (u32)ibcq->cqe + 1)
		err = cq_resize_locked(dev, cq, &ucmd, entries);
	mutex_unlock(&cq->resize_lock);
out:
	/* a ring smaller than what is not yet polled is refused: not rare */
	if (err)
		ibdev_dbg(ibcq->device, "resize_cq 0x%x to %d: %d\n",
			  cq->mcq.cqn, (int)cqe, err);
	return err;
}
