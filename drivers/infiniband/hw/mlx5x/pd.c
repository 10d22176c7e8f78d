// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protection domains, user memory regions and memory windows.
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
 *
 * A memory window (type 1 or 2B, when the device has imaicl) is a free
 * KLM-mode key of the PD.  libmlx5 binds and invalidates it itself with
 * UMR WQEs on its RC/UC send queues; the kernel only creates and
 * destroys the key.  MRs may then be registered with IB_ACCESS_MW_BIND,
 * which the device does not check (mlx5_ib does not pass it either).
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
 * @caps: device capabilities (atomics, memory windows)
 * @mkey_access: MLX5X_MKEY_* rights
 *
 * Optional flags (relaxed ordering, ...) are hints and ignored, and so is
 * IB_ACCESS_MW_BIND where windows exist: the key has no such right.
 * Return: 0, or -EOPNOTSUPP for a right the key cannot give (zero-based
 * or on-demand MRs; atomics or window binding without device support).
 */
int mlx5x_mr_access(int ib_access, const struct mlx5x_verbs_caps *caps,
		    u8 *mkey_access)
{
	int supported = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
			IB_ACCESS_REMOTE_READ | IB_ACCESS_OPTIONAL;

	if (caps->atomic)
		supported |= IB_ACCESS_REMOTE_ATOMIC;
	if (caps->mw)
		supported |= IB_ACCESS_MW_BIND;
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

	err = mlx5x_mr_access(access, &dev->caps, &mkey_access);
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
 * mlx5x_ib_get_dma_mr() - a key over all of memory, for a kernel PD
 * @ibpd: the PD
 * @access: IB access flags (local write, remote read/write)
 *
 * As mlx5_ib: a physical-address key (addresses are bus addresses, the
 * device translates nothing) of length64, with the rights asked for.
 * ib_alloc_pd() asks for one (mlx5x has no reserved local DMA lkey) and
 * gives its lkey to every kernel consumer; dereg_mr destroys it.
 *
 * Return: the MR, or ERR_PTR(-EOPNOTSUPP) for rights it cannot give.
 */
struct ib_mr *mlx5x_ib_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibpd->device);
	struct mlx5x_mkey_params p = {
		.pdn = to_mpd(ibpd)->pdn,
		.variant = (u8)atomic_inc_return(&dev->mkey_variant),
		.pa = true,
	};
	struct mlx5x_ib_mr *mr;
	u32 key;
	int err;

	err = mlx5x_mr_access(access, &dev->caps, &p.access);
	if (err)
		goto err_out;
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr) {
		err = -ENOMEM;
		goto err_out;
	}
	err = mlx5x_fw_create_mkey(dev->cmd, &p, &mr->index);
	if (err) {
		kfree(mr);
		goto err_out;
	}
	key = mr->index << MLX5X_MKEY_INDEX_SHIFT | p.variant;
	mr->ibmr.lkey = key;
	mr->ibmr.rkey = key;
	mr->access = access;
	return &mr->ibmr;

err_out:
	ibdev_dbg(ibpd->device, "get_dma_mr (access 0x%x): %d\n", access, err);
	atomic64_inc(&dev->stats.mr_err);
	return ERR_PTR(err);
}

/**
 * mlx5x_mr_rereg_args() - the registration a re-registration amounts to
 * @flags: IB_MR_REREG_* of the request
 * @old: the MR's registration (pd, access, start, length, iova)
 * @req: the request's values; on success, every field the request does
 *	not change is taken from @old
 *
 * Without a new range the pages pinned for @old are kept, so a new
 * access may not ask for writes to memory pinned read-only (possibly a
 * read-only file mapping): the device would write pages the process may
 * not, as mlx5_ib refuses it too.
 *
 * Return: 0, -EOPNOTSUPP for an unknown flag, -EACCES for write access
 * over a read-only pin.
 */
int mlx5x_mr_rereg_args(int flags, const struct mlx5x_mr_reg *old,
			struct mlx5x_mr_reg *req)
{
	if (flags & ~(IB_MR_REREG_TRANS | IB_MR_REREG_PD | IB_MR_REREG_ACCESS))
		return -EOPNOTSUPP;
	if ((flags & IB_MR_REREG_ACCESS) && !(flags & IB_MR_REREG_TRANS) &&
	    ib_access_writable(req->access) && !old->writable)
		return -EACCES;
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

	err = mlx5x_mr_access(req->access, &dev->caps, &mkey_access);
	if (err)
		goto err_out;
	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen)) {
		err = -EINVAL;
		goto err_out;
	}
	err = mlx5x_umr_rereg_pd_access(dev, mr->ibmr.lkey,
					to_mpd(req->pd)->pdn, mkey_access);
	if (err)
		goto err_out;
	mr->access = req->access;
	return NULL;

err_out:
	ibdev_dbg(&dev->ibdev, "rereg of mkey 0x%x in place: %d\n",
		  mr->ibmr.lkey, err);
	atomic64_inc(&dev->stats.mr_err);
	return ERR_PTR(err);
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
		.iova = ibmr->iova, .writable = mr->umem->writable,
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

/* KLM room of a window: mlx5_ib's, num_klms rounded up to 4 (at least 4) */
#define MLX5X_MW_KLM_ALIGN	4

/**
 * mlx5x_mw_check_req() - the driver part of an alloc_mw request
 * @req: the request (zero where the user sent less; libmlx5 sends none)
 * @type: window type, checked by ib_core too
 * @klms: KLM entries to make room for in the window's key
 *
 * num_klms is a u8, so any value fits a key's translation size.
 * Return: 0; -EINVAL for a type other than 1 and 2; -EOPNOTSUPP for a
 * comp_mask or non-zero reserved fields (nothing optional is defined).
 */
int mlx5x_mw_check_req(const struct mlx5_ib_alloc_mw *req,
		       enum ib_mw_type type, u16 *klms)
{
	if (type != IB_MW_TYPE_1 && type != IB_MW_TYPE_2)
		return -EINVAL;
	if (req->comp_mask || req->reserved1 || req->reserved2)
		return -EOPNOTSUPP;
	*klms = round_up(max_t(u16, req->num_klms, 1), MLX5X_MW_KLM_ALIGN);
	return 0;
}

/*
 * The request: what the user sent, up to our structure; anything beyond
 * it must be zero (a newer field we do not know).
 */
static int mw_read_req(struct ib_udata *udata, struct mlx5_ib_alloc_mw *req)
{
	int err;

	err = ib_copy_from_udata(req, udata, min(udata->inlen, sizeof(*req)));
	if (err)
		return err;
	if (udata->inlen > sizeof(*req) &&
	    !ib_is_udata_cleared(udata, sizeof(*req),
				 udata->inlen - sizeof(*req)))
		return -EOPNOTSUPP;
	return 0;
}

/* comp_mask and response_length, as much of them as the user takes. */
static int mw_write_resp(struct ib_udata *udata)
{
	struct {
		__u32 comp_mask;
		__u32 response_length;
	} resp = {};

	resp.response_length = min_t(size_t, sizeof(resp), udata->outlen);
	if (!resp.response_length)
		return 0;
	return ib_copy_to_udata(udata, &resp, resp.response_length);
}

int mlx5x_ib_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibmw->device);
	struct mlx5x_ib_mw *mw = to_mmw(ibmw);
	struct mlx5_ib_alloc_mw req = {};
	struct mlx5x_mkey_params p = {
		.pdn = to_mpd(ibmw->pd)->pdn,
		.variant = (u8)atomic_inc_return(&dev->mkey_variant),
		.umr_en = true,
		.en_rinval = ibmw->type == IB_MW_TYPE_2,
	};
	int err;

	err = mw_read_req(udata, &req);
	if (err)
		goto err_out;
	err = mlx5x_mw_check_req(&req, ibmw->type, &p.window_klms);
	if (err)
		goto err_out;
	err = mlx5x_fw_create_mkey(dev->cmd, &p, &mw->index);
	if (err)
		goto err_out;
	ibmw->rkey = mw->index << MLX5X_MKEY_INDEX_SHIFT | p.variant;
	err = mw_write_resp(udata);
	if (!err)
		return 0;
	mlx5x_fw_destroy_mkey(dev->cmd, mw->index);
err_out:
	ibdev_dbg(ibmw->device, "alloc_mw of type %d: %d\n", ibmw->type, err);
	atomic64_inc(&dev->stats.mw_err);
	return err;
}

int mlx5x_ib_dealloc_mw(struct ib_mw *ibmw)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibmw->device);

	return mlx5x_fw_destroy_mkey(dev->cmd, to_mmw(ibmw)->index);
}
