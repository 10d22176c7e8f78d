// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel UMR queue (umr.h): a REG_UMR QP and its CQ in kernel
 * memory, and the one UMR mlx5x posts, the PD/access update of a
 * re-registration.
 *
 * Resources, created in this order and destroyed in reverse: a UAR page
 * of its own (send and CQ arm doorbells), the doorbell records, the
 * send and completion rings, the CQ on completion EQ 0 (published in
 * the CQ table, so completion EQEs reach mlx5x_umr's handler through
 * the EQ's bottom half like any user CQ), the QP, moved RST -> INIT ->
 * RTR -> RTS as mlx5_ib moves its UMR QP.
 *
 * Posting, under umr->lock: arm the CQ, write the WQE, ring the
 * doorbell, sleep until the completion event (or the timeout), then
 * poll the one CQE.  Doorbell order: WQE stores, dma_wmb(), doorbell
 * record, wmb(), UAR store; the CQ arm likewise writes its record
 * before the UAR.
 */
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/slab.h>

#include "cmd.h"
#include "ib.h"
#include "mlx5x.h"
#include "umr.h"

/* doorbell records: the QP's at 0, the CQ's in the next cache line */
#define MLX5X_UMR_QP_DBR_OFF	0x00
#define MLX5X_UMR_CQ_DBR_OFF	0x40
#define MLX5X_UMR_DBR_LEN	0x80
/* a kernel QP has no user index to report (CQE version 0 value) */
#define MLX5X_UMR_UIDX_NONE	0xffffff
/* port and P_Key index the QP is moved to INIT with (mlx5_ib: 1, 0) */
#define MLX5X_UMR_PORT		1
/* messages of a REG_UMR QP: one 4 KiB MTU (mlx5_ib's fixed value) */
#define MLX5X_UMR_LOG_MSG_MAX	12

/* ---- pure helpers ---- */

/**
 * mlx5x_umr_can_rereg() - can a re-registration patch the key in place
 * @flags: IB_MR_REREG_* of the request
 * @cur_access: the MR's IB access flags
 * @new_access: the access flags it asks for (@cur_access without
 *	IB_MR_REREG_ACCESS)
 * @caps: device capabilities
 *
 * In place means PD and access rights only, and only rights a UMR may
 * toggle: local/remote write, remote read, atomic unless the device
 * forbids changing it by UMR, relaxed ordering (a hint mlx5x does not
 * pass to the key).  Anything else (new range, memory windows, ...)
 * needs a new key.
 */
bool mlx5x_umr_can_rereg(int flags, int cur_access, int new_access,
			 const struct mlx5x_verbs_caps *caps)
{
	int diffs = cur_access ^ new_access;

	if (!flags || flags & ~(IB_MR_REREG_PD | IB_MR_REREG_ACCESS))
		return false;
	if (diffs & ~(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
		      IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC |
		      IB_ACCESS_RELAXED_ORDERING))
		return false;
	if ((diffs & IB_ACCESS_REMOTE_ATOMIC) && caps->atomic &&
	    caps->umr_atomic_disabled)
		return false;
	return true;
}

/**
 * mlx5x_umr_mkey_mask() - mkey context fields a PD/access update sets
 * @atomic: the device has atomics (else mkc.a is not touched)
 *
 * All rights and the PD, whichever of them changes, as mlx5_ib does.
 */
u64 mlx5x_umr_mkey_mask(bool atomic)
{
	u64 mask = MLX5X_MKEY_MASK_LR | MLX5X_MKEY_MASK_LW |
		   MLX5X_MKEY_MASK_RR | MLX5X_MKEY_MASK_RW |
		   MLX5X_MKEY_MASK_PD;

	if (atomic)
		mask |= MLX5X_MKEY_MASK_A;
	return mask;
}

/**
 * mlx5x_umr_segs_build() - UMR control segment and mkey context
 * @seg: MLX5X_UMR_SEGS_LEN bytes, the UMR control segment's start
 * @s: what the WQE does to the key
 *
 * The one encoder of these two segments, for the UMR queue and for fast
 * registration on kernel send queues.  The mkey context of a UMR that
 * frees the key carries only the free state, as mlx5_ib's local
 * invalidate; any other names the key's variant and no QP.
 */
void mlx5x_umr_segs_build(void *seg, const struct mlx5x_umr_segs *s)
{
	u8 *mkc = (u8 *)seg + MLX5X_WQE_UMR_CTRL_LEN;

	memset(seg, 0, MLX5X_UMR_SEGS_LEN);
	MLX5X_SET(seg, MLX5X_WQE_UMR_FLAGS, s->flags);
	MLX5X_SET(seg, MLX5X_WQE_UMR_XLT_OCTOWORDS, s->xlt_octowords);
	*(__be64 *)((u8 *)seg + MLX5X_WQE_UMR_MKEY_MASK_OFF) =
		cpu_to_be64(s->mask);

	if (s->free) {
		MLX5X_SET(mkc, MLX5X_MKC_FREE, 1);
		return;
	}
	MLX5X_SET(mkc, MLX5X_MKC_LR, !!(s->access & MLX5X_MKEY_LR));
	MLX5X_SET(mkc, MLX5X_MKC_LW, !!(s->access & MLX5X_MKEY_LW));
	MLX5X_SET(mkc, MLX5X_MKC_RR, !!(s->access & MLX5X_MKEY_RR));
	MLX5X_SET(mkc, MLX5X_MKC_RW, !!(s->access & MLX5X_MKEY_RW));
	MLX5X_SET(mkc, MLX5X_MKC_A, !!(s->access & MLX5X_MKEY_A));
	if (s->mtt) {
		MLX5X_SET(mkc, MLX5X_MKC_UMR_EN, 1);
		MLX5X_SET(mkc, MLX5X_MKC_ACCESS_MODE_1_0,
			  MLX5X_MKC_ACCESS_MODE_MTT);
	}
	MLX5X_SET(mkc, MLX5X_MKC_PD, s->pdn);
	MLX5X_SET(mkc, MLX5X_MKC_EN_RINVAL, s->en_rinval);
	MLX5X_SET(mkc, MLX5X_MKC_QPN, MLX5X_MKC_QPN_NONE);
	MLX5X_SET(mkc, MLX5X_MKC_MKEY_7_0, s->key & MLX5X_MKEY_VARIANT_MASK);
	mlx5x_fw_set64(mkc, MLX5X_MKC_START_ADDR_OFF, s->iova);
	mlx5x_fw_set64(mkc, MLX5X_MKC_LEN_OFF, s->len);
	MLX5X_SET(mkc, MLX5X_MKC_TRANSLATIONS_OCTWORD_SIZE, s->xlt_oct_size);
	MLX5X_SET(mkc, MLX5X_MKC_LOG_PAGE_SIZE, s->log_page_size);
}

/**
 * mlx5x_umr_wqe_build() - a PD/access UMR WQE
 * @wqe: MLX5X_UMR_WQE_LEN bytes, zeroed by the caller
 * @u: what to change
 *
 * Control segment (the key in the immediate, a completion always,
 * initiator-small fence so the update follows earlier WQEs), the UMR
 * control segment (inline, "check free" as mlx5_ib sets it, the mask)
 * and the mkey context with the new values.
 */
void mlx5x_umr_wqe_build(void *wqe, const struct mlx5x_umr_update *u)
{
	const struct mlx5x_umr_segs s = {
		.flags = MLX5X_UMR_CHECK_FREE | MLX5X_UMR_INLINE,
		.mask = mlx5x_umr_mkey_mask(u->atomic),
		.key = u->key,
		.access = u->access,
		.pdn = u->pdn,
	};

	MLX5X_SET(wqe, MLX5X_WQE_CTRL_WQE_INDEX, u->wqe_index);
	MLX5X_SET(wqe, MLX5X_WQE_CTRL_OPCODE, MLX5X_OPCODE_UMR);
	MLX5X_SET(wqe, MLX5X_WQE_CTRL_QPN, u->qpn);
	MLX5X_SET(wqe, MLX5X_WQE_CTRL_DS,
		  MLX5X_UMR_WQE_LEN >> MLX5X_WQE_DS_SHIFT);
	MLX5X_SET(wqe, MLX5X_WQE_CTRL_FENCE, MLX5X_WQE_FENCE_INITIATOR_SMALL);
	MLX5X_SET(wqe, MLX5X_WQE_CTRL_CE, MLX5X_WQE_CE_ALWAYS);
	*(__be32 *)((u8 *)wqe + MLX5X_WQE_CTRL_IMM_OFF) = cpu_to_be32(u->key);
	mlx5x_umr_segs_build((u8 *)wqe + MLX5X_WQE_DS_LEN, &s);
}

/**
 * mlx5x_umr_cqe_status() - the CQE at consumer counter @ci
 * @cqe: its 64 bytes
 * @ci: consumer counter
 * @log_n: log2 of the CQ size
 *
 * Return: -EAGAIN if software does not own it yet (invalid opcode, or
 * the owner bit of the previous pass), 0 for a good send completion,
 * -EIO for an error completion or anything else.
 */
int mlx5x_umr_cqe_status(const void *cqe, u32 ci, u8 log_n)
{
	u8 opcode;

	if (!mlx5x_cqe_sw_owns(cqe, ci, log_n))
		return -EAGAIN;
	/* the rest of the CQE was written before op_own */
	dma_rmb();
	opcode = *((const u8 *)cqe + MLX5X_CQE_OP_OWN_OFF) >>
		 MLX5X_CQE_OPCODE_SHIFT;
	return opcode == MLX5X_CQE_REQ ? 0 : -EIO;
}

/* ---- doorbells ---- */

static __be32 *umr_dbr(struct mlx5x_umr *umr, unsigned int off)
{
	return (__be32 *)((u8 *)umr->dbr + off);
}

/* Ask for one event on the next CQE (the one the next WQE produces). */
static void umr_cq_arm(struct mlx5x_umr *umr)
{
	__be32 *arm = umr_dbr(umr, MLX5X_UMR_CQ_DBR_OFF + MLX5X_CQ_DBR_ARM_OFF);

	mlx5x_cq_arm_ring(arm, umr->uar.map, umr->mcq.cqn, umr->arm_sn, false,
			  umr->cq.ctr);
}

/* @ctrl: the first 8 bytes of the WQE just written at the producer. */
static void umr_sq_ring(struct mlx5x_umr *umr, const void *ctrl)
{
	umr->sq.ctr += MLX5X_UMR_WQEBBS;
	mlx5x_sq_ring_db(umr_dbr(umr, MLX5X_UMR_QP_DBR_OFF +
				 MLX5X_QP_DBR_SND_OFF),
			 umr->uar.map, umr->sq.ctr, ctrl);
}

/* ---- CQ ---- */

/* Bottom-half context: the CQE of the WQE in flight has arrived. */
static void umr_cq_comp(struct mlx5x_core_cq *mcq)
{
	struct mlx5x_umr *umr = container_of(mcq, struct mlx5x_umr, mcq);

	complete(&umr->done);
}

static int umr_cq_create(struct mlx5x_ib_dev *dev, struct mlx5x_umr *umr)
{
	struct mlx5x_cq_params p = {
		.log_size = MLX5X_UMR_LOG_CQ,
		.uar = umr->uar.index,
		.dbr = umr->dbr_dma + MLX5X_UMR_CQ_DBR_OFF,
	};

	mlx5x_ring_pas(&umr->cq, &p.pas);
	mlx5x_cq_ring_invalidate(&umr->cq);
	umr->mcq.comp = umr_cq_comp;
	return mlx5x_core_cq_create(dev->cmd, &dev->mdev->hca.cqs,
				    mlx5x_ib_comp_eq(dev, 0), &p, &umr->mcq);
}

/* ---- QP ---- */

/**
 * mlx5x_umr_qp_mod() - the context of one UMR QP transition
 * @opcode: RST2INIT, INIT2RTR or RTR2RTS
 * @pdn: the QP's PD
 * @cqn: its CQ
 * @m: filled
 *
 * What mlx5_ib sends for its UMR QP: every transition the service type,
 * PD, send CQ and a 4 KiB MTU with 4 KiB messages (fixed for REG_UMR);
 * RST2INIT also P_Key index 0, port 1 and the reserved lkey (a kernel
 * QP).  A REG_UMR QP has no peer: no path, PSN or retry parameters, and
 * no optional parameter (mask 0).
 */
void mlx5x_umr_qp_mod(u16 opcode, u32 pdn, u32 cqn, struct mlx5x_qp_mod *m)
{
	memset(m, 0, sizeof(*m));
	m->fields = MLX5X_QPM_QP | MLX5X_QPM_CQ_SND | MLX5X_QPM_MTU;
	m->st = MLX5X_QP_ST_REG_UMR;
	m->pdn = pdn;
	m->cqn_snd = cqn;
	m->mtu = IB_MTU_4096;
	m->log_msg_max = MLX5X_UMR_LOG_MSG_MAX;
	if (opcode != MLX5X_CMD_OP_RST2INIT_QP)
		return;
	m->fields |= MLX5X_QPM_PKEY | MLX5X_QPM_PORT | MLX5X_QPM_RLKY;
	m->path.port = MLX5X_UMR_PORT;
}

static int umr_qp_rst2rts(struct mlx5x_ib_dev *dev, struct mlx5x_umr *umr)
{
	static const u16 ops[] = {
		MLX5X_CMD_OP_RST2INIT_QP, MLX5X_CMD_OP_INIT2RTR_QP,
		MLX5X_CMD_OP_RTR2RTS_QP,
	};
	struct mlx5x_qp_mod m;
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		mlx5x_umr_qp_mod(ops[i], dev->devr.pdn, umr->mcq.cqn, &m);
		err = mlx5x_fw_modify_qp(dev->cmd, ops[i], umr->qpn, 0, &m);
		if (err)
			return err;
	}
	return 0;
}

/**
 * mlx5x_umr_qp_params() - CREATE_QP of the UMR QP
 * @dev: the device (capabilities, reserved objects)
 * @umr: the queue: UAR, CQ, rings and doorbell records are set up
 * @p: filled
 *
 * As mlx5_ib creates its UMR QP: a kernel QP (fast registration and
 * the reserved lkey enabled), no PD yet but the latency-sensitive hint
 * (the PD comes with RST2INIT), a send queue only, the reserved basic
 * SRQ and XRC domain 1 as every QP without an SRQ, the kernel timestamp
 * format.
 */
void mlx5x_umr_qp_params(const struct mlx5x_ib_dev *dev,
			 const struct mlx5x_umr *umr,
			 struct mlx5x_qp_params *p)
{
	memset(p, 0, sizeof(*p));
	p->st = MLX5X_QP_ST_REG_UMR;
	p->uar = umr->uar.index;
	p->user_index = MLX5X_UMR_UIDX_NONE;
	p->cqn_snd = umr->mcq.cqn;
	p->cqn_rcv = umr->mcq.cqn;
	p->log_sq_size = MLX5X_UMR_LOG_SQ;
	p->has_sq = true;
	p->ts_format = mlx5x_qp_ts_format(&dev->caps, true);
	p->kernel = true;
	p->latency_sensitive = true;
	p->dbr = umr->dbr_dma + MLX5X_UMR_QP_DBR_OFF;
	mlx5x_ring_pas(&umr->sq, &p->pas);
	mlx5x_qp_rq_names(&dev->devr, false, NULL, false, p);
}

static int umr_qp_create(struct mlx5x_ib_dev *dev, struct mlx5x_umr *umr)
{
	struct mlx5x_qp_params p;
	int err;

	mlx5x_umr_qp_params(dev, umr, &p);
	err = mlx5x_fw_create_qp(dev->cmd, &p, &umr->qpn);
	if (err)
		return err;
	err = umr_qp_rst2rts(dev, umr);
	if (err)
		mlx5x_fw_destroy_qp(dev->cmd, umr->qpn);
	return err;
}

/* ---- setup and teardown ---- */

static int umr_mem_alloc(struct device *dma_dev, struct mlx5x_umr *umr)
{
	int err;

	umr->dbr = dma_alloc_coherent(dma_dev, MLX5X_UMR_DBR_LEN,
				      &umr->dbr_dma, GFP_KERNEL);
	if (!umr->dbr)
		return -ENOMEM;
	err = mlx5x_ring_alloc(dma_dev, &umr->sq, MLX5X_UMR_LOG_SQ,
			       MLX5X_SEND_WQEBB_SHIFT);
	if (err)
		goto err_dbr;
	err = mlx5x_ring_alloc(dma_dev, &umr->cq, MLX5X_UMR_LOG_CQ,
			       MLX5X_CQE_LOG_LEN);
	if (err)
		goto err_sq;
	return 0;

err_sq:
	mlx5x_ring_free(dma_dev, &umr->sq);
err_dbr:
	dma_free_coherent(dma_dev, MLX5X_UMR_DBR_LEN, umr->dbr, umr->dbr_dma);
	return err;
}

static void umr_mem_free(struct device *dma_dev, struct mlx5x_umr *umr)
{
	mlx5x_ring_free(dma_dev, &umr->cq);
	mlx5x_ring_free(dma_dev, &umr->sq);
	dma_free_coherent(dma_dev, MLX5X_UMR_DBR_LEN, umr->dbr, umr->dbr_dma);
}

/* UAR, rings and doorbell records, CQ: all of the queue but the QP. */
static int umr_create(struct mlx5x_ib_dev *dev, struct mlx5x_umr *umr)
{
	struct pci_dev *pdev = dev->mdev->pdev;
	int err;

	err = mlx5x_uar_alloc(dev->cmd, pdev, &dev->uar_geom, &umr->uar);
	if (err)
		return err;
	err = umr_mem_alloc(&pdev->dev, umr);
	if (err)
		goto err_uar;
	err = umr_cq_create(dev, umr);
	if (err)
		goto err_mem;
	return 0;

err_mem:
	umr_mem_free(&pdev->dev, umr);
err_uar:
	mlx5x_uar_free(dev->cmd, &umr->uar);
	return err;
}

/*
 * The QP (if @qp), then the CQ, then the memory and @umr itself.  What
 * the device refuses to destroy it may still use: a refused QP keeps the
 * CQ, a refused CQ stays published (cq_core.c) and its handler needs
 * @umr; either way nothing is freed, @umr included.
 */
static void umr_destroy(struct mlx5x_ib_dev *dev, struct mlx5x_umr *umr,
			bool qp)
{
	struct device *dma_dev = &dev->mdev->pdev->dev;
	int err;

	if (qp) {
		err = mlx5x_fw_destroy_qp(dev->cmd, umr->qpn);
		if (err)
			goto leak;
	}
	err = mlx5x_core_cq_destroy(dev->cmd, &dev->mdev->hca.cqs, &umr->mcq);
	if (err)
		goto leak;
	umr_mem_free(dma_dev, umr);
	mlx5x_uar_free(dev->cmd, &umr->uar);
	mutex_destroy(&umr->lock);
	kfree(umr);
	return;

leak:
	dev_warn(dma_dev, "UMR QP 0x%x CQ 0x%x teardown: %d, the queue is leaked\n",
		 umr->qpn, umr->mcq.cqn, err);
}

/**
 * mlx5x_umr_init() - create the UMR queue of a device being registered
 * @dev: the device, set up but not yet registered
 *
 * Optional: without it MRs are created without umr_en and every
 * re-registration builds a new key.
 *
 * Return: 0, or the error that left @dev without UMR.
 */
int mlx5x_umr_init(struct mlx5x_ib_dev *dev)
{
	struct mlx5x_umr *umr;
	int err;

	umr = kzalloc(sizeof(*umr), GFP_KERNEL);
	if (!umr)
		return -ENOMEM;
	mutex_init(&umr->lock);
	init_completion(&umr->done);
	err = umr_create(dev, umr);
	if (err) {
		mutex_destroy(&umr->lock);
		kfree(umr);
		return err;
	}
	err = umr_qp_create(dev, umr);
	if (err) {
		umr_destroy(dev, umr, false);
		return err;
	}
	dev->umr = umr;
	return 0;
}

/**
 * mlx5x_umr_fini() - destroy the UMR queue
 * @dev: the device, unregistered (no MR and no re-registration left)
 */
void mlx5x_umr_fini(struct mlx5x_ib_dev *dev)
{
	struct mlx5x_umr *umr = dev->umr;

	if (!umr)
		return;
	dev->umr = NULL;
	umr_destroy(dev, umr, true);
}

/* ---- posting ---- */

/**
 * mlx5x_umr_usable() - may new MRs be made modifiable by UMR
 * @dev: the device
 *
 * A hint, read without the lock: a queue that dies afterwards makes the
 * post fail with -EIO.
 */
bool mlx5x_umr_usable(struct mlx5x_ib_dev *dev)
{
	return dev->umr && !READ_ONCE(dev->umr->dead);
}

static bool umr_device_dead(struct mlx5x_ib_dev *dev)
{
	return mlx5x_cmd_killed(dev->cmd) ||
	       mlx5x_health_is_fatal(&dev->mdev->hca.health);
}

/* Poll the CQE of the WQE just completed; its CQ slot goes back. */
static int umr_poll_locked(struct mlx5x_ib_dev *dev, struct mlx5x_umr *umr)
{
	void *cqe = mlx5x_ring_entry(&umr->cq, umr->cq.ctr);
	int err;

	err = mlx5x_umr_cqe_status(cqe, umr->cq.ctr, umr->cq.log_n);
	if (err == -EAGAIN)
		return -EIO;	/* an event without its CQE */
	umr->cq.ctr++;
	*umr_dbr(umr, MLX5X_UMR_CQ_DBR_OFF + MLX5X_CQ_DBR_CI_OFF) =
		cpu_to_be32(umr->cq.ctr & MLX5X_CQ_DBR_CI_MASK);
	if (err)
		ibdev_warn_ratelimited(&dev->ibdev,
				       "UMR QP 0x%x: error CQE, opcode 0x%x, syndrome 0x%x\n",
				       umr->qpn,
				       *((u8 *)cqe + MLX5X_CQE_OP_OWN_OFF) >>
				       MLX5X_CQE_OPCODE_SHIFT,
				       (u32)MLX5X_GET(cqe, MLX5X_ERR_CQE_SYNDROME));
	return err;
}

static int umr_post_wait_locked(struct mlx5x_ib_dev *dev,
				struct mlx5x_umr *umr,
				struct mlx5x_umr_update *u)
{
	void *wqe = mlx5x_ring_entry(&umr->sq, umr->sq.ctr);
	unsigned long left;

	lockdep_assert_held(&umr->lock);
	u->qpn = umr->qpn;
	u->wqe_index = (u16)umr->sq.ctr;
	reinit_completion(&umr->done);
	umr_cq_arm(umr);
	memset(wqe, 0, MLX5X_UMR_WQE_LEN);
	mlx5x_umr_wqe_build(wqe, u);
	umr_sq_ring(umr, wqe);
	left = wait_for_completion_timeout(&umr->done,
					   msecs_to_jiffies(MLX5X_UMR_TIMEOUT_MS));
	if (!left) {
		ibdev_warn(&dev->ibdev, "UMR QP 0x%x: no completion in %u ms\n",
			   umr->qpn, MLX5X_UMR_TIMEOUT_MS);
		return -EIO;
	}
	/* the event consumed this arm: the next one is a new request */
	umr->arm_sn++;
	return umr_poll_locked(dev, umr);
}

/**
 * mlx5x_umr_rereg_pd_access() - give an mkey a new PD and access rights
 * @dev: the device; mlx5x_umr_usable() said yes
 * @key: the mkey (created with umr_en)
 * @pdn: new PD
 * @access: new MLX5X_MKEY_* rights
 *
 * Sleeps until the device has executed the update.
 * Return: 0, or -EIO (dead device, timeout, error completion; the
 * queue is then dead and the key unchanged or in an unknown state).
 */
int mlx5x_umr_rereg_pd_access(struct mlx5x_ib_dev *dev, u32 key, u32 pdn,
			      u8 access)
{
	struct mlx5x_umr_update u = {
		.key = key,
		.pdn = pdn,
		.access = access,
		.atomic = dev->caps.atomic,
	};
	struct mlx5x_umr *umr = dev->umr;
	int err = -EIO;

	mutex_lock(&umr->lock);
	if (!umr->dead && !umr_device_dead(dev))
		err = umr_post_wait_locked(dev, umr, &u);
	if (err)
		WRITE_ONCE(umr->dead, true);
	mutex_unlock(&umr->lock);
	return err;
}
