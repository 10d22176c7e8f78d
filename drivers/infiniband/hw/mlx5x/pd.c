// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protection domains and user memory regions.
 *
 * A user MR is pinned with ib_umem and described to the device as an
 * MTT-mode memory key: one translation entry per device page, the
 * largest page size the pinned memory allows.  lkey = rkey = the key.
 *
 * Re-registration that changes only the PD and/or access rights patches
 * the key in place with a UMR WQE (umr.c) when the key allows it
 * (umr_en), so lkey and rkey stay.  Anything else builds a new key (and
 * pins again when the range changes) and hands the core a new MR, which
 * then retires the old one: what mlx5_ib does when it cannot use UMR.
 */
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/sizes.h>
#include <rdma/ib_umem.h>

#include "ib.h"
#include "umr.h"

/*
 * Page sizes an mkey translates (mkc log_page_size): 4 KiB up to 1 GiB;
 * larger blocks are split, which costs only translation entries.
 */
#define MLX5X_MKEY_PGSZ_BITMAP	GENMASK_ULL(30, MLX5X_ADAPTER_PAGE_SHIFT)

int mlx5x_ib_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibpd->device);
	struct mlx5_ib_alloc_pd_resp resp = {};
	struct mlx5x_ib_pd *pd = to_mpd(ibpd);
	int err;

	/* libmlx5 keeps pdn (dv, mkeys): it must always be written */
	if (udata && udata->outlen < sizeof(resp)) {
		atomic64_inc(&dev->stats.pd_err);
		return -EINVAL;
	}
	err = mlx5x_fw_alloc_pd(dev->cmd, &pd->pdn);
	if (err) {
		atomic64_inc(&dev->stats.pd_err);
		return err;
	}
	if (!udata)
		return 0;
	resp.pdn = pd->pdn;
	err = ib_copy_to_udata(udata, &resp, sizeof(resp));
	if (err) {
		mlx5x_fw_dealloc_pd(dev->cmd, pd->pdn);
		atomic64_inc(&dev->stats.pd_err);
	}
	return err;
}

int mlx5x_ib_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibpd->device);

	return mlx5x_fw_dealloc_pd(dev->cmd, to_mpd(ibpd)->pdn);
}

/**
 * mlx5x_mr_access() - IB access flags to mkey rights
 * @ib_access: IB_ACCESS_* of the registration (checked by ib_core for
 *	consistency, e.g. remote write needs local write)
 * @atomic: the device executes IB atomics
 * @mkey_access: MLX5X_MKEY_* rights
 *
 * Optional flags (relaxed ordering, ...) are hints and ignored.
 * Return: 0, or -EOPNOTSUPP for a right the key cannot give (memory
 * windows, zero-based or on-demand MRs, atomics without device support).
 */
int mlx5x_mr_access(int ib_access, bool atomic, u8 *mkey_access)
{
	int supported = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
			IB_ACCESS_REMOTE_READ | IB_ACCESS_OPTIONAL;

	if (atomic)
		supported |= IB_ACCESS_REMOTE_ATOMIC;
	if (ib_access & ~supported)
		return -EOPNOTSUPP;
	*mkey_access = MLX5X_MKEY_LR;
	if (ib_access & IB_ACCESS_LOCAL_WRITE)
		*mkey_access |= MLX5X_MKEY_LW;
	if (ib_access & IB_ACCESS_REMOTE_READ)
		*mkey_access |= MLX5X_MKEY_RR;
	if (ib_access & IB_ACCESS_REMOTE_WRITE)
		*mkey_access |= MLX5X_MKEY_RW;
	if (ib_access & IB_ACCESS_REMOTE_ATOMIC)
		*mkey_access |= MLX5X_MKEY_A;
	return 0;
}

/* CREATE_MKEY over @umem; fills @mr->index and the keys. */
static int mr_create_mkey(struct mlx5x_ib_dev *dev, struct mlx5x_ib_pd *pd,
			  struct mlx5x_ib_mr *mr, u64 iova, u64 length,
			  u8 access)
{
	struct mlx5x_mkey_params p = {
		.pdn = pd->pdn,
		.access = access,
		.variant = (u8)atomic_inc_return(&dev->mkey_variant),
		.umr_en = mlx5x_umr_usable(dev),
		.iova = iova,
		.len = length,
		.pas.umem = mr->umem,
	};
	u32 key;
	int err;

	p.pas.pgsz = ib_umem_find_best_pgsz(mr->umem, MLX5X_MKEY_PGSZ_BITMAP,
					    iova);
	if (!p.pas.pgsz)
		return -EINVAL;
	p.pas.n = ib_umem_num_dma_blocks(mr->umem, p.pas.pgsz);
	err = mlx5x_fw_create_mkey(dev->cmd, &p, &mr->index);
	if (err)
		return err;
	key = mr->index << MLX5X_MKEY_INDEX_SHIFT | p.variant;
	mr->umr_en = p.umr_en;
	mr->ibmr.lkey = key;
	mr->ibmr.rkey = key;
	return 0;
}

static struct ib_mr *mr_reg(struct ib_pd *ibpd, u64 start, u64 length,
			    u64 virt_addr, int access, struct ib_udata *udata)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibpd->device);
	struct mlx5x_ib_mr *mr;
	u8 mkey_access;
	int err;

	err = mlx5x_mr_access(access, dev->caps.atomic, &mkey_access);
	if (!err && udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen))
		err = -EINVAL;
	if (!err && !length)
		err = -EINVAL;
	if (err)
		goto err_out;
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr) {
		err = -ENOMEM;
		goto err_out;
	}
	mr->umem = ib_umem_get_va(ibpd->device, start, length, access);
	if (IS_ERR(mr->umem)) {
		err = PTR_ERR(mr->umem);
		goto err_free;
	}
	err = mr_create_mkey(dev, to_mpd(ibpd), mr, virt_addr, length,
			     mkey_access);
	if (err)
		goto err_umem;
	mr->access = access;
	/* rereg without a new range reads them back */
	mr->ibmr.iova = virt_addr;
	mr->ibmr.length = length;
	return &mr->ibmr;

err_umem:
	ib_umem_release(mr->umem);
err_free:
	kfree(mr);
err_out:
	ibdev_dbg(ibpd->device, "reg_mr of %llu bytes, access 0x%x: %d\n",
		  length, access, err);
	atomic64_inc(&dev->stats.mr_err);
	return ERR_PTR(err);
}

struct ib_mr *mlx5x_ib_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
				   u64 virt_addr, int access,
				   MLX5X_REG_USER_MR_DMAH_ARG
				   struct ib_udata *udata)
{
	return mr_reg(ibpd, start, length, virt_addr, access, udata);
}

/**
 * mlx5x_mr_rereg_args() - the registration a re-registration amounts to
 * @flags: IB_MR_REREG_* of the request
 * @old: the MR's registration (pd, access, start, length, iova)
 * @req: the request's values; on success, every field the request does
 *	not change is taken from @old
 *
 * Return: 0, or -EOPNOTSUPP for an unknown flag.
 */
int mlx5x_mr_rereg_args(int flags, const struct mlx5x_mr_reg *old,
			struct mlx5x_mr_reg *req)
{
	if (flags & ~(IB_MR_REREG_TRANS | IB_MR_REREG_PD | IB_MR_REREG_ACCESS))
		return -EOPNOTSUPP;
	if (!(flags & IB_MR_REREG_PD))
		req->pd = old->pd;
	if (!(flags & IB_MR_REREG_ACCESS))
		req->access = old->access;
	if (!(flags & IB_MR_REREG_TRANS)) {
		req->start = old->start;
		req->length = old->length;
		req->iova = old->iova;
	}
	return 0;
}

/*
 * PD and access by UMR: the core keeps the same ib_mr (NULL) and moves
 * its PD reference itself.  A failure leaves the MR registered; its
 * rights are then those of before or, if the device died, moot.
 */
static struct ib_mr *mr_rereg_in_place(struct mlx5x_ib_mr *mr,
				       const struct mlx5x_mr_reg *req,
				       struct ib_udata *udata)
{
	struct mlx5x_ib_dev *dev = to_mibdev(mr->ibmr.device);
	u8 mkey_access;
	int err;

	err = mlx5x_mr_access(req->access, dev->caps.atomic, &mkey_access);
	if (!err && udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen))
		err = -EINVAL;
	if (!err)
		err = mlx5x_umr_rereg_pd_access(dev, mr->ibmr.lkey,
						to_mpd(req->pd)->pdn,
						mkey_access);
	if (err) {
		ibdev_dbg(&dev->ibdev, "rereg of mkey 0x%x in place: %d\n",
			  mr->ibmr.lkey, err);
		atomic64_inc(&dev->stats.mr_err);
		return ERR_PTR(err);
	}
	mr->access = req->access;
	return NULL;
}

/*
 * In place when only PD and access change and UMR may do it; else a new
 * MR: the core puts it in the old one's place and deregisters the old
 * one, so a failure leaves the old MR as it was.
 */
struct ib_mr *mlx5x_ib_rereg_user_mr(struct ib_mr *ibmr, int flags, u64 start,
				     u64 length, u64 virt_addr, int access,
				     struct ib_pd *pd, struct ib_udata *udata)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibmr->device);
	struct mlx5x_ib_mr *mr = to_mmr(ibmr);
	struct mlx5x_mr_reg old = {
		.pd = ibmr->pd, .access = mr->access,
		.start = mr->umem->address, .length = ibmr->length,
		.iova = ibmr->iova,
	};
	struct mlx5x_mr_reg req = {
		.pd = pd, .access = access, .start = start, .length = length,
		.iova = virt_addr,
	};
	int err;

	err = mlx5x_mr_rereg_args(flags, &old, &req);
	if (err)
		return ERR_PTR(err);
	if (mr->umr_en && mlx5x_umr_usable(dev) &&
	    mlx5x_umr_can_rereg(flags, mr->access, req.access, &dev->caps))
		return mr_rereg_in_place(mr, &req, udata);
	return mr_reg(req.pd, req.start, req.length, req.iova, req.access,
		      udata);
}

/* The key goes first: the device must stop using the pages it names. */
int mlx5x_ib_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibmr->device);
	struct mlx5x_ib_mr *mr = to_mmr(ibmr);
	int err;

	err = mlx5x_fw_destroy_mkey(dev->cmd, mr->index);
	if (err)
		return err;
	ib_umem_release(mr->umem);
	kfree(mr);
	return 0;
}
