// SPDX-License-Identifier: GPL-2.0-only
/*
 * User contexts, UAR objects, mmap() and doorbell records.
 *
 * UAR model: dynamic only.  alloc_ucontext answers tot_bfregs = 0, so
 * libmlx5 allocates every UAR it needs (one non-cached UAR for all its
 * doorbells, since bf_reg_size = 0 offers no BlueFlame) through the
 * driver object MLX5_IB_OBJECT_UAR, then maps it at the mmap offset the
 * allocation returned.  Each UAR is an rdma_user_mmap_entry: the core
 * counts the mappings, and the hardware UAR is freed (mmap_free) only
 * when the object is destroyed and no mapping, CQ or QP uses it any
 * more.  The static UAR pages of older providers (mmap commands 0-8)
 * are refused.
 *
 * Import (ibv_import_device, ibv_import_pd): another process adopts a
 * context through a shared command fd.  libmlx5 rebuilds its state from
 * the answer alloc_ucontext gave (QUERY_CONTEXT with the mlx5 response
 * attribute) and learns each imported PD's number (MLX5_IB_METHOD_PD_QUERY).
 */
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <rdma/ib_umem.h>
#include <rdma/iter.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>

#define UVERBS_MODULE_NAME mlx5x_ib
#include <rdma/uverbs_named_ioctl.h>

#include "ib.h"
#include "mlx5x.h"

/* Doorbell records are pairs of 32-bit counters, 8-byte aligned. */
#define MLX5X_DB_ALIGN		8

/* ---- context ---- */

/**
 * mlx5x_uctx_check_req() - validate libmlx5's context request
 * @req: the request, zero-filled past @inlen
 * @inlen: bytes user space sent
 *
 * Return: 0, -EINVAL for a malformed request, -EOPNOTSUPP for one asking
 * what mlx5x does not offer (DEVX, unknown flags or comp_mask bits, a
 * provider without dynamic UARs).  libmlx5 retries without DEVX.
 */
int mlx5x_uctx_check_req(const struct mlx5_ib_alloc_ucontext_req_v2 *req,
			 size_t inlen)
{
	if (inlen < offsetof(struct mlx5_ib_alloc_ucontext_req_v2,
			     max_cqe_version))
		return -EINVAL;
	if (req->flags || req->comp_mask)
		return -EOPNOTSUPP;
	if (req->reserved0 || req->reserved1 || req->reserved2)
		return -EINVAL;
	if (req->total_num_bfregs &&
	    req->num_low_latency_bfregs > req->total_num_bfregs - 1)
		return -EINVAL;
	if (!(req->lib_caps & MLX5_LIB_CAP_DYN_UAR))
		return -EOPNOTSUPP;
	return 0;
}

/*
 * Every field libmlx5 divides by or bounds QPs with gets a real value:
 * cache_line_size is the doorbell-record stride, num_uars_per_page a
 * divisor, the descriptor and WR limits bound its queue sizing.
 */
void mlx5x_uctx_fill_resp(const struct mlx5x_verbs_caps *caps,
			  const struct mlx5x_uar_geom *geom,
			  const struct mlx5_ib_alloc_ucontext_req_v2 *req,
			  size_t outlen, struct mlx5_ib_alloc_ucontext_resp *resp)
{
	memset(resp, 0, sizeof(*resp));
	resp->qp_tab_size = 1U << caps->log_max_qp;
	resp->bf_reg_size = 0;		/* no BlueFlame: no write combining */
	resp->tot_bfregs = 0;		/* dynamic UARs only */
	resp->cache_line_size = cache_line_size();
	resp->max_sq_desc_sz = caps->max_wqe_sz_sq;
	resp->max_rq_desc_sz = caps->max_wqe_sz_rq;
	resp->max_send_wqebb = 1U << caps->log_max_qp_sz;
	resp->max_recv_wr = 1U << caps->log_max_qp_sz;
	resp->max_srq_recv_wr = 1U << caps->log_max_srq_sz;
	resp->num_ports = caps->num_ports;
	resp->response_length = min(outlen, sizeof(*resp));
	resp->cqe_version = min(caps->cqe_version, req->max_cqe_version);
	resp->log_uar_size = ilog2(mlx5x_uar_size(geom));
	resp->num_uars_per_page = mlx5x_uars_per_page(geom);
}

static int uctx_read_req(struct ib_udata *udata,
			 struct mlx5_ib_alloc_ucontext_req_v2 *req)
{
	int err;

	err = mlx5x_ib_udata_in(udata, req, 0, sizeof(*req));
	if (err)
		return err;
	err = mlx5x_uctx_check_req(req, udata->inlen);
	if (err)
		return err;
	/* without log_uar_size/num_uars_per_page a provider cannot map UARs */
	if (udata->outlen <
	    offsetofend(struct mlx5_ib_alloc_ucontext_resp, num_uars_per_page))
		return -EINVAL;
	return 0;
}

int mlx5x_ib_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibuc->device);
	struct mlx5x_ib_ucontext *uctx = to_muctx(ibuc);
	struct mlx5_ib_alloc_ucontext_resp resp;
	struct mlx5_ib_alloc_ucontext_req_v2 req;
	int err;

	err = uctx_read_req(udata, &req);
	if (err) {
		ibdev_dbg(ibuc->device, "context request refused (in %zu, out %zu bytes, flags 0x%x, lib_caps 0x%llx): %d\n",
			  udata->inlen, udata->outlen, req.flags,
			  (unsigned long long)req.lib_caps, err);
		atomic64_inc(&dev->stats.ucontext_err);
		return err;
	}
	mlx5x_uctx_fill_resp(&dev->caps, &dev->uar_geom, &req, udata->outlen,
			     &resp);
	uctx->cqe_version = resp.cqe_version;
	mutex_init(&uctx->lock);
	INIT_LIST_HEAD(&uctx->db_pages);
	INIT_LIST_HEAD(&uctx->uars);
	err = ib_copy_to_udata(udata, &resp, resp.response_length);
	if (err)
		mutex_destroy(&uctx->lock);
	return err;
}

/* All objects are gone by now; UAR entries went with their last user. */
void mlx5x_ib_dealloc_ucontext(struct ib_ucontext *ibuc)
{
	struct mlx5x_ib_ucontext *uctx = to_muctx(ibuc);

	WARN_ON(!list_empty(&uctx->db_pages));
	WARN_ON(!list_empty(&uctx->uars));
	mutex_destroy(&uctx->lock);
}

/*
 * On unregistration with contexts still open the core zaps their UAR
 * mappings and destroys their objects through the destroy verbs; there
 * is nothing else of the device a process could still reach.
 */
void mlx5x_ib_disassociate_ucontext(struct ib_ucontext *ibuc)
{
}

/* ---- UAR objects ---- */

static struct mlx5x_uar_entry *to_muar(struct rdma_user_mmap_entry *e)
{
	return container_of(e, struct mlx5x_uar_entry, rdma);
}

static struct mlx5x_uar_entry *uar_entry_alloc(struct mlx5x_ib_dev *dev,
					       struct mlx5x_ib_ucontext *uctx)
{
	struct mlx5x_uar_entry *uar;
	int err;

	uar = kzalloc(sizeof(*uar), GFP_KERNEL);
	if (!uar)
		return ERR_PTR(-ENOMEM);
	err = mlx5x_fw_alloc_uar(dev->cmd, &uar->index);
	if (err)
		goto err_free;
	err = mlx5x_uar_check(&dev->uar_geom, uar->index);
	if (err) {
		ibdev_err_ratelimited(&dev->ibdev, "ALLOC_UAR returned unusable index %u\n",
				      uar->index);
		goto err_dealloc;
	}
	uar->address = dev->bar_start + mlx5x_uar_offset(&dev->uar_geom,
							 uar->index);
	err = rdma_user_mmap_entry_insert_range(&uctx->ibuc, &uar->rdma,
						PAGE_SIZE,
						MLX5X_MMAP_ENTRY_FIRST,
						MLX5X_MMAP_ENTRY_LAST);
	if (err)
		goto err_dealloc;
	mutex_lock(&uctx->lock);
	list_add(&uar->node, &uctx->uars);
	mutex_unlock(&uctx->lock);
	return uar;

err_dealloc:
	mlx5x_fw_dealloc_uar(dev->cmd, uar->index);
err_free:
	kfree(uar);
	return ERR_PTR(err);
}

/* The last reference to a UAR is gone: give the page back. */
void mlx5x_ib_mmap_free(struct rdma_user_mmap_entry *entry)
{
	struct mlx5x_ib_ucontext *uctx = to_muctx(entry->ucontext);
	struct mlx5x_ib_dev *dev = to_mibdev(entry->ucontext->device);
	struct mlx5x_uar_entry *uar = to_muar(entry);
	int err;

	mutex_lock(&uctx->lock);
	list_del(&uar->node);
	mutex_unlock(&uctx->lock);
	err = mlx5x_fw_dealloc_uar(dev->cmd, uar->index);
	if (err)
		ibdev_warn(&dev->ibdev, "DEALLOC_UAR %u: %d\n", uar->index, err);
	kfree(uar);
}

/**
 * mlx5x_uar_get() - a live UAR object of @uctx, referenced
 * @uctx: the context that must own it
 * @index: its UAR index (libmlx5's page_id)
 *
 * Return: the UAR, held until mlx5x_uar_put(), or NULL if the context
 * has no such (undestroyed) UAR.
 */
struct mlx5x_uar_entry *mlx5x_uar_get(struct mlx5x_ib_ucontext *uctx,
				      u32 index)
{
	struct rdma_user_mmap_entry *got = NULL;
	struct mlx5x_uar_entry *uar;

	mutex_lock(&uctx->lock);
	list_for_each_entry(uar, &uctx->uars, node) {
		if (uar->index != index)
			continue;
		/* fails once the object is destroyed (driver_removed) */
		got = rdma_user_mmap_entry_get_pgoff(&uctx->ibuc,
						     uar->rdma.start_pgoff);
		break;
	}
	mutex_unlock(&uctx->lock);
	if (!got)
		return NULL;
	/*
	 * The offset of an entry being freed may already be reused: such
	 * a new entry is in the mmap table, so this is not its last put.
	 */
	if (got != &uar->rdma) {
		rdma_user_mmap_entry_put(got);
		return NULL;
	}
	return uar;
}

void mlx5x_uar_put(struct mlx5x_uar_entry *uar)
{
	rdma_user_mmap_entry_put(&uar->rdma);
}

static int uar_obj_cleanup(struct ib_uobject *uobject,
			   enum rdma_remove_reason why,
			   struct uverbs_attr_bundle *attrs)
{
	struct mlx5x_uar_entry *uar = uobject->object;

	rdma_user_mmap_entry_remove(&uar->rdma);
	return 0;
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_UAR_OBJ_ALLOC)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj =
		uverbs_attr_get_uobject(attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE);
	enum mlx5_ib_uapi_uar_alloc_type type;
	struct mlx5x_ib_ucontext *uctx;
	struct ib_ucontext *ibuc;
	struct mlx5x_uar_entry *uar;
	u32 length = PAGE_SIZE;
	u64 offset;
	int err;

	ibuc = ib_uverbs_get_ucontext(attrs);
	if (IS_ERR(ibuc))
		return PTR_ERR(ibuc);
	uctx = to_muctx(ibuc);
	err = uverbs_get_const(&type, attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE);
	if (err)
		return err;
	/* BlueFlame UARs need write combining, which is not offered */
	if (type != MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC)
		return -EOPNOTSUPP;
	uar = uar_entry_alloc(to_mibdev(ibuc->device), uctx);
	if (IS_ERR(uar))
		return PTR_ERR(uar);
	uobj->object = uar;
	/* from here the object exists: a failed copy leaves it to cleanup */
	uverbs_finalize_uobj_create(attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE);
	offset = rdma_user_mmap_get_offset(&uar->rdma);
	err = uverbs_copy_to(attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET,
			     &offset, sizeof(offset));
	if (err)
		return err;
	err = uverbs_copy_to(attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID,
			     &uar->index, sizeof(uar->index));
	if (err)
		return err;
	return uverbs_copy_to(attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH,
			      &length, sizeof(length));
}

DECLARE_UVERBS_NAMED_METHOD(MLX5_IB_METHOD_UAR_OBJ_ALLOC,
			    UVERBS_ATTR_IDR(MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE,
					    MLX5_IB_OBJECT_UAR,
					    UVERBS_ACCESS_NEW, UA_MANDATORY),
			    UVERBS_ATTR_CONST_IN(MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE,
						 enum mlx5_ib_uapi_uar_alloc_type,
						 UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID,
						UVERBS_ATTR_TYPE(u32),
						UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH,
						UVERBS_ATTR_TYPE(u32),
						UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET,
						UVERBS_ATTR_TYPE(u64),
						UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(MLX5_IB_METHOD_UAR_OBJ_DESTROY,
				    UVERBS_ATTR_IDR(MLX5_IB_ATTR_UAR_OBJ_DESTROY_HANDLE,
						    MLX5_IB_OBJECT_UAR,
						    UVERBS_ACCESS_DESTROY,
						    UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(MLX5_IB_OBJECT_UAR,
			    UVERBS_TYPE_ALLOC_IDR(uar_obj_cleanup),
			    &UVERBS_METHOD(MLX5_IB_METHOD_UAR_OBJ_ALLOC),
			    &UVERBS_METHOD(MLX5_IB_METHOD_UAR_OBJ_DESTROY));

/* ---- import ---- */

/* The alloc_ucontext answer again, with the CQE format agreed then. */
int mlx5x_ib_query_ucontext(struct ib_ucontext *ibuc,
			    struct uverbs_attr_bundle *attrs)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = {
		.max_cqe_version = to_muctx(ibuc)->cqe_version,
	};
	struct mlx5x_ib_dev *dev = to_mibdev(ibuc->device);
	struct mlx5_ib_alloc_ucontext_resp resp;
	int len;

	len = uverbs_attr_get_len(attrs, MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX);
	if (len < 0)
		return len;
	mlx5x_uctx_fill_resp(&dev->caps, &dev->uar_geom, &req, len, &resp);
	return uverbs_copy_to_struct_or_zero(attrs,
					     MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX,
					     &resp, sizeof(resp));
}

/* libmlx5 56 knows the response up to dump_fill_mkey at least */
#define MLX5X_UCTX_RESP_ATTR \
	UVERBS_ATTR_STRUCT(struct mlx5_ib_alloc_ucontext_resp, dump_fill_mkey)

ADD_UVERBS_ATTRIBUTES_SIMPLE(mlx5x_ib_query_context, UVERBS_OBJECT_DEVICE,
			     UVERBS_METHOD_QUERY_CONTEXT,
			     UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX,
						 MLX5X_UCTX_RESP_ATTR, UA_MANDATORY));

static int UVERBS_HANDLER(MLX5_IB_METHOD_PD_QUERY)(struct uverbs_attr_bundle *attrs)
{
	struct ib_pd *pd = uverbs_attr_get_obj(attrs,
					       MLX5_IB_ATTR_QUERY_PD_HANDLE);

	return uverbs_copy_to(attrs, MLX5_IB_ATTR_QUERY_PD_RESP_PDN,
			      &to_mpd(pd)->pdn, sizeof(to_mpd(pd)->pdn));
}

DECLARE_UVERBS_NAMED_METHOD(MLX5_IB_METHOD_PD_QUERY,
			    UVERBS_ATTR_IDR(MLX5_IB_ATTR_QUERY_PD_HANDLE,
					    UVERBS_OBJECT_PD,
					    UVERBS_ACCESS_READ, UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_QUERY_PD_RESP_PDN,
						UVERBS_ATTR_TYPE(u32),
						UA_MANDATORY));

ADD_UVERBS_METHODS(mlx5x_ib_pd, UVERBS_OBJECT_PD,
		   &UVERBS_METHOD(MLX5_IB_METHOD_PD_QUERY));

const struct uapi_definition mlx5x_ib_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(MLX5_IB_OBJECT_UAR),
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_DEVICE, &mlx5x_ib_query_context),
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_PD, &mlx5x_ib_pd),
	{}
};

/* ---- mmap ---- */

/*
 * mlx5 page offsets carry a command in bits 15:8 (and an extended index
 * above): commands 0-8 are the static UAR, clock and device-memory pages
 * of the legacy model; entries live at commands 9 and up.
 */
enum mlx5x_mmap_class mlx5x_mmap_classify(unsigned long pgoff)
{
	unsigned long cmd = (pgoff >> MLX5X_MMAP_CMD_SHIFT) &
			    MLX5X_MMAP_CMD_MASK;

	if (cmd < MLX5X_MMAP_FIRST_ENTRY_CMD)
		return MLX5X_MMAP_LEGACY;
	if (pgoff < MLX5X_MMAP_ENTRY_FIRST || pgoff > MLX5X_MMAP_ENTRY_LAST)
		return MLX5X_MMAP_BAD;
	return MLX5X_MMAP_ENTRY;
}

static int mmap_refuse(struct mlx5x_ib_dev *dev, struct vm_area_struct *vma,
		       const char *why, int err)
{
	ibdev_dbg(&dev->ibdev, "mmap refused (offset page 0x%lx, %lu bytes): %s\n",
		  vma->vm_pgoff, vma->vm_end - vma->vm_start, why);
	atomic64_inc(&dev->stats.mmap_err);
	return err;
}

int mlx5x_ib_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibuc->device);
	struct rdma_user_mmap_entry *entry;
	struct mlx5x_uar_entry *uar;
	int err;

	switch (mlx5x_mmap_classify(vma->vm_pgoff)) {
	case MLX5X_MMAP_LEGACY:
		return mmap_refuse(dev, vma, "legacy page (dynamic UARs only)",
				   -EINVAL);
	case MLX5X_MMAP_BAD:
		return mmap_refuse(dev, vma, "offset out of range", -EINVAL);
	case MLX5X_MMAP_ENTRY:
		break;
	}
	if (vma->vm_flags & VM_EXEC)
		return mmap_refuse(dev, vma, "UAR pages are not executable",
				   -EPERM);
	/* NULL: no such entry, not MAP_SHARED, or not exactly its length */
	entry = rdma_user_mmap_entry_get(ibuc, vma);
	if (!entry)
		return mmap_refuse(dev, vma, "no such UAR, wrong length or private",
				   -EINVAL);
	uar = to_muar(entry);
	/* doorbells must reach the device in order, uncombined */
	err = rdma_user_mmap_io(ibuc, vma, PHYS_PFN(uar->address), PAGE_SIZE,
				pgprot_noncached(vma->vm_page_prot), entry);
	rdma_user_mmap_entry_put(entry);
	if (err)
		return mmap_refuse(dev, vma, "remap failed", err);
	return 0;
}

/* ---- doorbell records ---- */

static struct mlx5x_db_page *db_page_find(struct mlx5x_ib_ucontext *uctx,
					  unsigned long user_virt)
{
	struct mlx5x_db_page *page;

	lockdep_assert_held(&uctx->lock);
	list_for_each_entry(page, &uctx->db_pages, node)
		if (page->user_virt == user_virt && page->mm == current->mm)
			return page;
	return NULL;
}

static struct mlx5x_db_page *db_page_pin(struct mlx5x_ib_dev *dev,
					 unsigned long user_virt)
{
	struct mlx5x_db_page *page;
	struct ib_block_iter biter;

	page = kzalloc(sizeof(*page), GFP_KERNEL);
	if (!page)
		return ERR_PTR(-ENOMEM);
	page->umem = ib_umem_get_va(&dev->ibdev, user_virt, PAGE_SIZE, 0);
	if (IS_ERR(page->umem)) {
		int err = PTR_ERR(page->umem);

		kfree(page);
		return ERR_PTR(err);
	}
	rdma_umem_for_each_dma_block(page->umem, &biter, PAGE_SIZE) {
		page->dma = rdma_block_iter_dma_address(&biter);
		break;
	}
	page->user_virt = user_virt;
	page->mm = current->mm;
	mmgrab(page->mm);
	return page;
}

static void db_page_free(struct mlx5x_db_page *page)
{
	ib_umem_release(page->umem);
	mmdrop(page->mm);
	kfree(page);
}

/**
 * mlx5x_db_map() - map the doorbell record at user address @virt
 * @dev: device
 * @uctx: context of the calling process
 * @virt: user address of the record (8-byte aligned)
 * @db: filled on success; undo with mlx5x_db_unmap()
 *
 * libmlx5 packs the records of a context's CQs and QPs into shared
 * pages, so each page is pinned once and counted.
 *
 * Pinning takes mmap_lock, and the UAR free path takes @uctx->lock under
 * it (a vma close), so the page is pinned with @uctx->lock dropped and
 * inserted under it; a mapper that lost the race to another one for the
 * same page drops its own pin.
 */
int mlx5x_db_map(struct mlx5x_ib_dev *dev, struct mlx5x_ib_ucontext *uctx,
		 u64 virt, struct mlx5x_db *db)
{
	unsigned long user_virt = virt & PAGE_MASK;
	struct mlx5x_db_page *page, *pinned = NULL;

	if (!virt || !IS_ALIGNED(virt, MLX5X_DB_ALIGN))
		return -EINVAL;
	for (;;) {
		mutex_lock(&uctx->lock);
		page = db_page_find(uctx, user_virt);
		if (page || pinned)
			break;
		mutex_unlock(&uctx->lock);
		pinned = db_page_pin(dev, user_virt);
		if (IS_ERR(pinned))
			return PTR_ERR(pinned);
	}
	if (!page) {
		page = pinned;
		pinned = NULL;
		list_add(&page->node, &uctx->db_pages);
	}
	page->refs++;
	db->page = page;
	db->dma = page->dma + (virt & ~PAGE_MASK);
	mutex_unlock(&uctx->lock);
	if (pinned)
		db_page_free(pinned);
	return 0;
}

void mlx5x_db_unmap(struct mlx5x_ib_ucontext *uctx, struct mlx5x_db *db)
{
	struct mlx5x_db_page *page = db->page;
	bool last;

	mutex_lock(&uctx->lock);
	last = !--page->refs;
	if (last)
		list_del(&page->node);
	mutex_unlock(&uctx->lock);
	if (last)
		db_page_free(page);
	db->page = NULL;
}

/**
 * mlx5x_uq_pin() - pin a user queue: its buffer and its doorbell record
 * @dev: device
 * @uctx: context of the calling process
 * @buf: user address of the queue buffer
 * @size: its length in bytes
 * @access: IB_ACCESS_* for the pin (the device writes CQ rings)
 * @db_addr: user address of the queue's doorbell record
 * @uq: filled on success; undo with mlx5x_uq_unpin()
 *
 * How the buffer is described to the device (page size, offset) differs
 * per queue type and is the caller's, from @uq->umem.
 *
 * Return: 0, or a negative errno with nothing held.
 */
int mlx5x_uq_pin(struct mlx5x_ib_dev *dev, struct mlx5x_ib_ucontext *uctx,
		 u64 buf, size_t size, int access, u64 db_addr,
		 struct mlx5x_uq *uq)
{
	int err;

	uq->umem = ib_umem_get_va(&dev->ibdev, buf, size, access);
	if (IS_ERR(uq->umem))
		return PTR_ERR(uq->umem);
	err = mlx5x_db_map(dev, uctx, db_addr, &uq->db);
	if (err)
		ib_umem_release(uq->umem);
	return err;
}

void mlx5x_uq_unpin(struct mlx5x_ib_ucontext *uctx, struct mlx5x_uq *uq)
{
	mlx5x_db_unmap(uctx, &uq->db);
	ib_umem_release(uq->umem);
}
