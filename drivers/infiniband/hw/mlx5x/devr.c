// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device's reserved kernel objects (struct mlx5x_devr), mlx5_ib's
 * "device resources": two XRC domains, a PD, a CQ, an XRC SRQ and a basic
 * SRQ.  Firmware checks that every object a QP or SRQ context names
 * exists; where a context has a field for an object the QP does not use
 * (the SRQ of a QP with its own receive queue, the CQs of an XRC target
 * QP, the XRC domain of a non-XRC QP), mlx5_ib names one of these rather
 * than 0, and so does mlx5x (qp.c, srq.c, umr.c).
 *
 * Created before the ib_device is registered, in the order mlx5_ib uses
 * them (XRC domains, PD, CQ, XRC SRQ, basic SRQ), destroyed after it is
 * unregistered in reverse.  Their rings and doorbell records share one
 * DMA-coherent buffer; nothing is ever posted to the SRQs and the CQ is
 * never armed, so the rings only need to be well-formed.
 */
#include <linux/dma-mapping.h>
#include <linux/sizes.h>

#include "ib.h"
#include "mlx5x.h"

/* The buffer: one 4 KiB device page per ring, then the doorbell records. */
enum {
	DEVR_CQ_PAGE,
	DEVR_S0_PAGE,
	DEVR_S1_PAGE,
	DEVR_DBR_PAGE,
	DEVR_PAGES,
};

#define DEVR_CQ_DBR_OFF		0x00
#define DEVR_S0_DBR_OFF		0x40
#define DEVR_S1_DBR_OFF		0x80
/* mlx5_ib's sizes: a CQ of 1 CQE (a ring of 2), SRQs of 1 WR and 1 SGE */
#define DEVR_LOG_CQ_SIZE	1
#define DEVR_LOG_SRQ_SIZE	1
#define DEVR_SRQ_WQE_SHIFT	5	/* next segment + one data segment */
#define DEVR_SRQ_NEXT_OFF	2	/* next_wqe_index, big endian */
#define DEVR_UIDX_NONE		0xffffff

/* Creation stages: the last object created. */
enum devr_stage {
	DEVR_NONE,
	DEVR_XRCD0,
	DEVR_XRCD1,
	DEVR_PD,
	DEVR_CQ,
	DEVR_S0,
	DEVR_ALL,
};

static size_t devr_len(void)
{
	return DEVR_PAGES * SZ_4K;
}

static void *devr_page(struct mlx5x_devr *r, unsigned int page)
{
	return (u8 *)r->buf + page * SZ_4K;
}

static struct mlx5x_pas devr_pas(struct mlx5x_devr *r, unsigned int page)
{
	struct mlx5x_pas pas = {
		.dma = r->dma + page * SZ_4K,
		.pgsz = SZ_4K,
		.n = 1,
	};

	return pas;
}

/* No CQE belongs to software before the device writes one. */
static int devr_cq_create(struct mlx5x_ib_dev *dev, struct mlx5x_devr *r)
{
	struct mlx5x_cq_params p = {
		.log_size = DEVR_LOG_CQ_SIZE,
		.uar = dev->mdev->hca.uar.index,
		.eqn = mlx5x_ib_comp_eq(dev, 0)->eqn,
		.dbr = r->dma + DEVR_DBR_PAGE * SZ_4K + DEVR_CQ_DBR_OFF,
		.pas = devr_pas(r, DEVR_CQ_PAGE),
	};
	u8 *ring = devr_page(r, DEVR_CQ_PAGE);
	unsigned int i;

	for (i = 0; i < BIT(DEVR_LOG_CQ_SIZE); i++)
		ring[(i << MLX5X_CQE_LOG_LEN) + MLX5X_CQE_OP_OWN_OFF] =
			MLX5X_CQE_INVALID << MLX5X_CQE_OPCODE_SHIFT;
	return mlx5x_fw_create_cq(dev->cmd, &p, &r->cqn);
}

/* A linked list of WQEs, each pointing at the next, as mlx5_ib builds it. */
static void devr_srq_ring_init(u8 *ring)
{
	unsigned int i, n = BIT(DEVR_LOG_SRQ_SIZE);

	for (i = 0; i < n; i++)
		*(__be16 *)(ring + (i << DEVR_SRQ_WQE_SHIFT) +
			    DEVR_SRQ_NEXT_OFF) = cpu_to_be16((i + 1) % n);
}

/* Both SRQs: PD p0, XRC domain 0, CQ c0 (an XRC SRQ needs one). */
static int devr_srq_create(struct mlx5x_ib_dev *dev, struct mlx5x_devr *r,
			   enum ib_srq_type type, unsigned int page,
			   unsigned int dbr_off, struct mlx5x_devr_srq *srq)
{
	struct mlx5x_srq_params p = {
		.log_size = DEVR_LOG_SRQ_SIZE,
		.wqe_shift = DEVR_SRQ_WQE_SHIFT,
		.pdn = r->pdn,
		.xrcd = r->xrcdn0,
		.cqn = r->cqn,
		.user_index = dev->caps.cqe_version ? DEVR_UIDX_NONE : 0,
		.dbr = r->dma + DEVR_DBR_PAGE * SZ_4K + dbr_off,
		.pas = devr_pas(r, page),
	};
	int err;

	/* kernel SRQs report no user index: the CQE version does not matter */
	err = mlx5x_srq_form(dev->mdev->hca.issi, type, 0, &srq->form);
	if (err)
		return err;
	devr_srq_ring_init(devr_page(r, page));
	return mlx5x_fw_srq_create(dev->cmd, srq->form, &p, &srq->srqn);
}

static void devr_warn(struct mlx5x_ib_dev *dev, const char *what, u32 n,
		      int err)
{
	if (err)
		dev_warn(&dev->mdev->pdev->dev, "reserved %s 0x%x: %d\n", what,
			 n, err);
}

/*
 * Undo in reverse what was created up to @stage (the last object made).
 * Returns the first error of a queue's destroy: the device may then still
 * use the buffer.
 */
static int devr_undo(struct mlx5x_ib_dev *dev, struct mlx5x_devr *r,
		     enum devr_stage stage)
{
	int err = 0, e;

	if (stage >= DEVR_ALL) {
		e = mlx5x_fw_srq_destroy(dev->cmd, r->s1.form, r->s1.srqn);
		devr_warn(dev, "SRQ", r->s1.srqn, e);
		err = err ?: e;
	}
	if (stage >= DEVR_S0) {
		e = mlx5x_fw_srq_destroy(dev->cmd, r->s0.form, r->s0.srqn);
		devr_warn(dev, "XRC SRQ", r->s0.srqn, e);
		err = err ?: e;
	}
	if (stage >= DEVR_CQ) {
		e = mlx5x_fw_destroy_cq(dev->cmd, r->cqn);
		devr_warn(dev, "CQ", r->cqn, e);
		err = err ?: e;
	}
	if (stage >= DEVR_PD)
		devr_warn(dev, "PD", r->pdn,
			  mlx5x_fw_dealloc_pd(dev->cmd, r->pdn));
	if (stage >= DEVR_XRCD1)
		devr_warn(dev, "XRCD", r->xrcdn1,
			  mlx5x_fw_dealloc_xrcd(dev->cmd, r->xrcdn1));
	if (stage >= DEVR_XRCD0)
		devr_warn(dev, "XRCD", r->xrcdn0,
			  mlx5x_fw_dealloc_xrcd(dev->cmd, r->xrcdn0));
	return err;
}

static int devr_create(struct mlx5x_ib_dev *dev, struct mlx5x_devr *r,
		       enum devr_stage *stage)
{
	int err;

	*stage = DEVR_NONE;
	err = mlx5x_fw_alloc_xrcd(dev->cmd, &r->xrcdn0);
	if (err)
		return err;
	*stage = DEVR_XRCD0;
	err = mlx5x_fw_alloc_xrcd(dev->cmd, &r->xrcdn1);
	if (err)
		return err;
	*stage = DEVR_XRCD1;
	err = mlx5x_fw_alloc_pd(dev->cmd, &r->pdn);
	if (err)
		return err;
	*stage = DEVR_PD;
	err = devr_cq_create(dev, r);
	if (err)
		return err;
	*stage = DEVR_CQ;
	err = devr_srq_create(dev, r, IB_SRQT_XRC, DEVR_S0_PAGE,
			      DEVR_S0_DBR_OFF, &r->s0);
	if (err)
		return err;
	*stage = DEVR_S0;
	err = devr_srq_create(dev, r, IB_SRQT_BASIC, DEVR_S1_PAGE,
			      DEVR_S1_DBR_OFF, &r->s1);
	if (err)
		return err;
	*stage = DEVR_ALL;
	return 0;
}

/**
 * mlx5x_devr_init() - create the reserved objects of a device
 * @dev: the device, set up but not yet registered
 *
 * Return: 0, -EOPNOTSUPP without XRC (the XRC domains and SRQ need it;
 * mlx5_ib does not register such a device either), or the error of the
 * command that failed, everything created before it undone.
 */
int mlx5x_devr_init(struct mlx5x_ib_dev *dev)
{
	struct device *dma_dev = &dev->mdev->pdev->dev;
	struct mlx5x_devr *r = &dev->devr;
	enum devr_stage stage;
	int err;

	if (!dev->caps.xrc) {
		dev_err(dma_dev, "verbs: the device has no XRC, which its reserved objects need\n");
		return -EOPNOTSUPP;
	}
	r->buf = dma_alloc_coherent(dma_dev, devr_len(), &r->dma, GFP_KERNEL);
	if (!r->buf)
		return -ENOMEM;
	err = devr_create(dev, r, &stage);
	if (!err)
		return 0;
	dev_err(dma_dev, "reserved objects (stage %d): %d\n", stage, err);
	if (!devr_undo(dev, r, stage))
		dma_free_coherent(dma_dev, devr_len(), r->buf, r->dma);
	r->buf = NULL;
	return err;
}

/**
 * mlx5x_devr_fini() - destroy the reserved objects
 * @dev: the device, unregistered (no QP or SRQ names them any more)
 */
void mlx5x_devr_fini(struct mlx5x_ib_dev *dev)
{
	struct device *dma_dev = &dev->mdev->pdev->dev;
	struct mlx5x_devr *r = &dev->devr;

	if (!r->buf)
		return;
	/* if the device may still write the rings, they stay allocated */
	if (!devr_undo(dev, r, DEVR_ALL))
		dma_free_coherent(dma_dev, devr_len(), r->buf, r->dma);
	r->buf = NULL;
}
