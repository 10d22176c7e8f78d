// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory keys for kernel consumers (kmr.h): fast registration MRs.
 *
 * alloc_mr creates the key free, with umr_en, in MTT mode with 4 KiB
 * pages and room for the descriptor list, and maps that list for the
 * device.  map_mr_sg writes one MTT entry per page of the consumer's
 * scatter list.  The REG_MR WQE then names the key's new variant, range,
 * page size and rights and carries the list, inline when it is short,
 * else as a pointer the device reads through the PD's DMA key; LOCAL_INV
 * (and a peer's SEND with Invalidate, en_rinval) frees the key again.
 * The UMR control segment and mkey context come from umr.c's encoder,
 * the one the UMR queue uses.
 */
#include <linux/dma-mapping.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/sizes.h>

#include "ib.h"
#include "kmr.h"
#include "umr.h"

/* mlx5_ib aligns UMR translation lists to 2 KiB (MLX5_UMR_ALIGN) */
#define MLX5X_KMR_DESC_ALIGN	2048
/* page sizes a REG_MR may name: what an mkey translates, 4 KiB to 1 GiB */
#define MLX5X_KMR_MAX_PAGE_SHIFT	30

/* ---- pure helpers ---- */

/**
 * mlx5x_kmr_max_pages() - longest page list of a fast registration
 * @caps: device capabilities
 *
 * Return: 1 << log_max_klm_list_size, as mlx5_ib reports it, up to
 * what one WQE can carry.
 */
u32 mlx5x_kmr_max_pages(const struct mlx5x_verbs_caps *caps)
{
	return 1U << min_t(u8, caps->log_max_klm_list_size,
			   MLX5X_KMR_LOG_MAX_DESCS);
}

/**
 * mlx5x_kmr_descs() - the descriptors of an alloc_mr request
 * @caps: device capabilities
 * @type: IB_MR_TYPE_* asked for
 * @max_num_sg: pages the consumer will map at most
 * @ndescs: descriptors to allocate, @max_num_sg rounded up to 4
 *
 * Return: 0; -EOPNOTSUPP for a type other than IB_MR_TYPE_MEM_REG (no
 * SG_GAPS or INTEGRITY MRs); -EINVAL for no pages or more than the
 * device's page list limit.
 */
int mlx5x_kmr_descs(const struct mlx5x_verbs_caps *caps,
		    enum ib_mr_type type, u32 max_num_sg, u32 *ndescs)
{
	if (type != IB_MR_TYPE_MEM_REG)
		return -EOPNOTSUPP;
	if (!max_num_sg || max_num_sg > mlx5x_kmr_max_pages(caps))
		return -EINVAL;
	*ndescs = round_up(max_num_sg, MLX5X_KMR_DESC_ROUND);
	return 0;
}

/**
 * mlx5x_kmr_reg_mask() - mkey context fields an IB_WR_REG_MR sets
 * @atomic: the registration grants remote atomics
 *
 * mlx5_ib's fast registration mask: range, page size, remote
 * invalidation, the new variant, the rights, the small fence and the
 * free state; the atomic right only when asked for, so a device that
 * forbids changing it by UMR still registers everything else.
 */
u64 mlx5x_kmr_reg_mask(bool atomic)
{
	u64 mask = MLX5X_MKEY_MASK_LEN | MLX5X_MKEY_MASK_PAGE_SIZE |
		   MLX5X_MKEY_MASK_START_ADDR | MLX5X_MKEY_MASK_EN_RINVAL |
		   MLX5X_MKEY_MASK_KEY | MLX5X_MKEY_MASK_LR |
		   MLX5X_MKEY_MASK_LW | MLX5X_MKEY_MASK_RR |
		   MLX5X_MKEY_MASK_RW | MLX5X_MKEY_MASK_SMALL_FENCE |
		   MLX5X_MKEY_MASK_FREE;

	if (atomic)
		mask |= MLX5X_MKEY_MASK_A;
	return mask;
}

/* ib_sg_to_pages() callback: one MTT entry per page, bounded by the room */
static int kmr_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct mlx5x_kmr *kmr = to_mmr(ibmr)->kmr;

	if (unlikely(kmr->ndescs == kmr->max_descs))
		return -ENOMEM;
	kmr->descs[kmr->ndescs++] =
		cpu_to_be64(addr | MLX5X_MTT_READ_EN | MLX5X_MTT_WRITE_EN);
	return 0;
}

/**
 * mlx5x_kmr_map() - the page list of a scatter list, without the syncs
 * @ibmr: a fast registration MR; ibmr->page_size set by ib_map_mr_sg()
 * @sg: DMA-mapped scatter list
 * @sg_nents: its entries
 * @sg_offset: byte offset into the first entry, or NULL
 *
 * Entries past the list up to the next 64 bytes are zeroed: a REG_MR
 * makes the device read (and store) whole 64-byte units.
 *
 * Return: as ib_sg_to_pages(): the entries mapped, fewer than
 * @sg_nents when the pages do not fit the MR.
 */
int mlx5x_kmr_map(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset)
{
	struct mlx5x_kmr *kmr = to_mmr(ibmr)->kmr;
	u32 end;
	int n;

	kmr->ndescs = 0;
	n = ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, kmr_set_page);
	end = round_up(kmr->ndescs, MLX5X_KMR_XLT_ALIGN / MLX5X_PAS_LEN);
	memset(kmr->descs + kmr->ndescs, 0,
	       (end - kmr->ndescs) * MLX5X_PAS_LEN);
	return n;
}

/* ---- the REG_MR and LOCAL_INV segments ---- */

/* Is @wr one this device can execute?  Fills the key's new rights. */
static int kmr_reg_check(struct mlx5x_ib_dev *dev, const struct ib_reg_wr *wr,
			 u8 *access)
{
	const struct mlx5x_verbs_caps *caps = &dev->caps;
	struct ib_mr *ibmr = wr->mr;
	struct mlx5x_kmr *kmr = to_mmr(ibmr)->kmr;
	u64 page = ibmr->page_size, pages;

	if (!kmr || (wr->wr.send_flags & IB_SEND_INLINE) ||
	    (wr->key >> MLX5X_MKEY_INDEX_SHIFT) != to_mmr(ibmr)->index)
		return -EINVAL;
	/* what mlx5_ib's UMR may not change on this device */
	if (caps->umr_entity_size_disabled ||
	    ((wr->access & IB_ACCESS_REMOTE_ATOMIC) &&
	     caps->umr_atomic_disabled))
		return -EINVAL;
	if (mlx5x_mr_access(wr->access, caps, access))
		return -EINVAL;
	if (!kmr->ndescs || kmr->ndescs > kmr->max_descs ||
	    !is_power_of_2(page) || page < SZ_4K ||
	    page > BIT_ULL(MLX5X_KMR_MAX_PAGE_SHIFT) ||
	    ibmr->iova + ibmr->length < ibmr->iova)
		return -EINVAL;
	pages = DIV_ROUND_UP((ibmr->iova & (page - 1)) + ibmr->length, page);
	return pages > kmr->ndescs ? -EINVAL : 0;
}

/**
 * mlx5x_kmr_reg_segs() - the segments of an IB_WR_REG_MR WQE
 * @dev: the device
 * @wr: the work request
 * @segs: where the segments go, MLX5X_KMR_SEGS_MAX bytes, contiguous
 *
 * UMR control (the key must be free: the previous registration was
 * invalidated), the mkey context and the list: inline when it fits 64
 * bytes (then padded to them, which ends the WQE on a 64-byte block),
 * else a data segment that points at it.  That pointer is read through
 * the MR's PD's local_dma_lkey (mlx5x: the PD's get_dma_mr key): mlx5_ib
 * takes the posting QP's PD, which must be the MR's PD for the
 * registration to be allowed at all.
 *
 * Return: bytes written (a multiple of 16), or -EINVAL for a request
 * the device cannot execute: not a fast registration MR, a key of
 * another MR, inline, rights the key cannot get, a page list that is
 * empty or does not cover the range.
 */
int mlx5x_kmr_reg_segs(struct mlx5x_ib_dev *dev, const struct ib_reg_wr *wr,
		       void *segs)
{
	struct ib_mr *ibmr = wr->mr;
	struct mlx5x_kmr *kmr = to_mmr(ibmr)->kmr;
	struct mlx5x_umr_segs s = {
		.mask = mlx5x_kmr_reg_mask(wr->access &
					   IB_ACCESS_REMOTE_ATOMIC),
		.key = wr->key,
		.mtt = true,
		.en_rinval = true,
		.iova = ibmr->iova,
		.len = ibmr->length,
	};
	u8 *xlt = (u8 *)segs + MLX5X_UMR_SEGS_LEN;
	u32 list, bytes;
	int err;

	/* either translation fits the block the caller makes room for */
	BUILD_BUG_ON(MLX5X_UMR_SEGS_LEN + MLX5X_KMR_INLINE_MAX >
		     MLX5X_KMR_SEGS_MAX);
	BUILD_BUG_ON(MLX5X_UMR_SEGS_LEN + MLX5X_WQE_DS_LEN >
		     MLX5X_KMR_SEGS_MAX);
	err = kmr_reg_check(dev, wr, &s.access);
	if (err)
		return err;
	list = kmr->ndescs * MLX5X_PAS_LEN;
	bytes = ALIGN(list, MLX5X_KMR_XLT_ALIGN);
	s.flags = MLX5X_UMR_CHECK_NOT_FREE;
	if (list <= MLX5X_KMR_INLINE_MAX)
		s.flags |= MLX5X_UMR_INLINE;
	s.xlt_octowords = bytes >> MLX5X_WQE_DS_SHIFT;
	/* the key's translation size in octowords of two entries */
	s.xlt_oct_size = ALIGN(kmr->ndescs, 8) / 2;
	s.log_page_size = ilog2(ibmr->page_size);
	mlx5x_umr_segs_build(segs, &s);

	if (s.flags & MLX5X_UMR_INLINE) {
		/* the CPU wrote them; the device only reads the array */
		memcpy(xlt, kmr->descs, bytes);
		return MLX5X_UMR_SEGS_LEN + bytes;
	}
	memset(xlt, 0, MLX5X_WQE_DS_LEN);
	MLX5X_SET(xlt, MLX5X_WQE_DATA_BYTE_COUNT, bytes);
	MLX5X_SET(xlt, MLX5X_WQE_DATA_LKEY, ibmr->pd->local_dma_lkey);
	mlx5x_fw_set64(xlt, MLX5X_WQE_DATA_ADDR_OFF, kmr->desc_map);
	return MLX5X_UMR_SEGS_LEN + MLX5X_WQE_DS_LEN;
}

/**
 * mlx5x_kmr_linv_segs() - the segments of an IB_WR_LOCAL_INV WQE
 * @dev: the device
 * @segs: where the segments go, MLX5X_KMR_SEGS_MAX bytes, contiguous
 *
 * As mlx5_ib: inline (no list), only the free state in the mask and the
 * mkey context; the key named in the control segment keeps everything
 * else until the next REG_MR.
 *
 * Return: bytes written (a multiple of 16).
 */
int mlx5x_kmr_linv_segs(struct mlx5x_ib_dev *dev, void *segs)
{
	static const struct mlx5x_umr_segs s = {
		.flags = MLX5X_UMR_INLINE,
		.mask = MLX5X_MKEY_MASK_FREE,
		.free = true,
	};

	mlx5x_umr_segs_build(segs, &s);
	return MLX5X_UMR_SEGS_LEN;
}

/* ---- verbs ---- */

/*
 * The list the device reads: a REG_MR reads whole 64-byte units, so the
 * mapping covers them; aligned as mlx5_ib aligns it.
 */
static int kmr_descs_alloc(struct ib_device *ibdev, struct mlx5x_kmr *kmr,
			   u32 ndescs)
{
	kmr->max_descs = ndescs;
	kmr->map_len = ALIGN(ndescs * MLX5X_PAS_LEN, MLX5X_KMR_XLT_ALIGN);
	kmr->descs_alloc = kzalloc(kmr->map_len + MLX5X_KMR_DESC_ALIGN - 1,
				   GFP_KERNEL);
	if (!kmr->descs_alloc)
		return -ENOMEM;
	kmr->descs = PTR_ALIGN(kmr->descs_alloc, MLX5X_KMR_DESC_ALIGN);
	kmr->desc_map = ib_dma_map_single(ibdev, kmr->descs, kmr->map_len,
					  DMA_TO_DEVICE);
	if (ib_dma_mapping_error(ibdev, kmr->desc_map)) {
		kfree(kmr->descs_alloc);
		return -ENOMEM;
	}
	return 0;
}

static void kmr_descs_free(struct ib_device *ibdev, struct mlx5x_kmr *kmr)
{
	ib_dma_unmap_single(ibdev, kmr->desc_map, kmr->map_len,
			    DMA_TO_DEVICE);
	kfree(kmr->descs_alloc);
}

/*
 * CREATE_MKEY as mlx5_ib's fast registration keys: free, umr_en, MTT
 * with 4 KiB pages, local read only, room for one octword per
 * descriptor (twice what MTTs need, as mlx5_ib counts it), no list.
 */
static int kmr_create_mkey(struct mlx5x_ib_dev *dev, struct mlx5x_ib_pd *pd,
			   struct mlx5x_ib_mr *mr)
{
	struct mlx5x_mkey_params p = {
		.pdn = pd->pdn,
		.access = MLX5X_MKEY_LR,
		.variant = (u8)atomic_inc_return(&dev->mkey_variant),
		.umr_en = true,
		.pas.pgsz = 1UL << MLX5X_ADAPTER_PAGE_SHIFT,
		.frwr_octwords = mr->kmr->max_descs,
	};
	u32 key;
	int err;

	err = mlx5x_fw_create_mkey(dev->cmd, &p, &mr->index);
	if (err)
		return err;
	key = mr->index << MLX5X_MKEY_INDEX_SHIFT | p.variant;
	mr->umr_en = true;
	mr->ibmr.lkey = key;
	mr->ibmr.rkey = key;
	return 0;
}

struct ib_mr *mlx5x_ib_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
				u32 max_num_sg)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibpd->device);
	struct mlx5x_ib_mr *mr;
	u32 ndescs;
	int err;

	err = mlx5x_kmr_descs(&dev->caps, type, max_num_sg, &ndescs);
	if (err)
		goto err_out;
	err = -ENOMEM;
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		goto err_out;
	mr->kmr = kzalloc(sizeof(*mr->kmr), GFP_KERNEL);
	if (!mr->kmr)
		goto err_mr;
	err = kmr_descs_alloc(ibpd->device, mr->kmr, ndescs);
	if (err)
		goto err_kmr;
	err = kmr_create_mkey(dev, to_mpd(ibpd), mr);
	if (err)
		goto err_descs;
	return &mr->ibmr;

err_descs:
	kmr_descs_free(ibpd->device, mr->kmr);
err_kmr:
	kfree(mr->kmr);
err_mr:
	kfree(mr);
err_out:
	ibdev_dbg(ibpd->device, "alloc_mr of type %d, %u pages: %d\n", type,
		  max_num_sg, err);
	atomic64_inc(&dev->stats.mr_err);
	return ERR_PTR(err);
}

int mlx5x_ib_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg,
		       int sg_nents, unsigned int *sg_offset)
{
	struct mlx5x_kmr *kmr = to_mmr(ibmr)->kmr;
	int n;

	if (!kmr)
		return -EINVAL;
	ib_dma_sync_single_for_cpu(ibmr->device, kmr->desc_map, kmr->map_len,
				   DMA_TO_DEVICE);
	n = mlx5x_kmr_map(ibmr, sg, sg_nents, sg_offset);
	/* the list is the device's before a REG_MR can name it */
	ib_dma_sync_single_for_device(ibmr->device, kmr->desc_map,
				      kmr->map_len, DMA_TO_DEVICE);
	return n;
}

/**
 * mlx5x_kmr_dereg() - deregister a fast registration MR
 * @dev: the device
 * @mr: the MR (mr->kmr set)
 *
 * The key goes first.  A key the device refuses to destroy may still
 * translate through the list: then the list stays mapped and allocated
 * (leaked) and the MR stays, as pd.c keeps a user MR's pages.
 *
 * Return: 0, or the DESTROY_MKEY error.
 */
int mlx5x_kmr_dereg(struct mlx5x_ib_dev *dev, struct mlx5x_ib_mr *mr)
{
	int err;

	err = mlx5x_fw_destroy_mkey(dev->cmd, mr->index);
	if (err)
		return err;
	kmr_descs_free(&dev->ibdev, mr->kmr);
	kfree(mr->kmr);
	kfree(mr);
	return 0;
}
