// SPDX-License-Identifier: GPL-2.0-only
/*
 * Firmware pages.
 *
 * Boot and init pages are given synchronously during probe; later the
 * firmware asks for more (or offers some back) with PAGE_REQUEST EQEs,
 * which are turned into work on an ordered queue because the answer is a
 * sleeping command.  Every page is tracked by bus address and function so
 * a reclaim can be checked against what was given, and teardown returns
 * all of them.
 *
 * Firmware pages are 4 KiB whatever the host's page size: a host page is
 * mapped once and lent in PAGE_SIZE / 4 KiB pieces, all to one function,
 * as mlx5_core does; it is unmapped and freed when its last piece comes
 * back.  Host pages with pieces left are used first, so a 64 KiB-page
 * host spends no more memory than the device asked for, plus at most one
 * partly lent host page per function.
 */
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "cmd.h"
#include "fw_cmds.h"
#include "hw.h"
#include "mlx5x_trace.h"
#include "pages.h"

/**
 * struct mlx5x_pages_req - a PAGE_REQUEST event waiting for the workqueue
 * @work: queued on mlx5x_pages.wq
 * @pg: owner
 * @func_id: requesting function
 * @npages: > 0 give, < 0 take back
 */
struct mlx5x_pages_req {
	struct work_struct work;
	struct mlx5x_pages *pg;
	u16 func_id;
	s32 npages;
};

static unsigned long pages_key(dma_addr_t dma)
{
	return dma >> MLX5X_FW_PAGE_SHIFT;
}

void mlx5x_pages_acct_init(struct mlx5x_pages *pg)
{
	xa_init(&pg->pages);
	xa_init(&pg->funcs);
	INIT_LIST_HEAD(&pg->free);
	mutex_init(&pg->lock);
	pg->total = 0;
	pg->host_pages = 0;
	pg->per_host = MLX5X_FW_PAGES_PER_HOST;
}

void mlx5x_pages_acct_destroy(struct mlx5x_pages *pg)
{
	xa_destroy(&pg->pages);
	xa_destroy(&pg->funcs);
	mutex_destroy(&pg->lock);
}

u32 mlx5x_pages_count(struct mlx5x_pages *pg, u16 func_id)
{
	void *v = xa_load(&pg->funcs, func_id);

	return v ? xa_to_value(v) : 0;
}

static int pages_count_add(struct mlx5x_pages *pg, u16 func_id, int delta)
{
	u32 n = mlx5x_pages_count(pg, func_id) + delta;

	if (!n) {
		xa_erase(&pg->funcs, func_id);
		return 0;
	}
	return xa_err(xa_store(&pg->funcs, func_id, xa_mk_value(n),
			       GFP_KERNEL));
}

static_assert(MLX5X_FW_PAGES_PER_HOST <= MLX5X_FW_PAGES_MAX_PER_HOST);

bool mlx5x_host_page_idle(const struct mlx5x_pages *pg,
			  const struct mlx5x_host_page *hp)
{
	return bitmap_full(hp->free, pg->per_host);
}

/*
 * A newly mapped host page (@hp->dma set) joins the free list of
 * @func_id with every piece free.  Caller holds @pg->lock.
 */
int mlx5x_pages_add_host(struct mlx5x_pages *pg, struct mlx5x_host_page *hp,
			 u16 func_id)
{
	lockdep_assert_held(&pg->lock);
	if (hp->dma & (MLX5X_FW_PAGE_SIZE - 1))
		return -EINVAL;
	hp->func_id = func_id;
	bitmap_zero(hp->free, MLX5X_FW_PAGES_MAX_PER_HOST);
	bitmap_fill(hp->free, pg->per_host);
	list_add(&hp->free_link, &pg->free);
	pg->host_pages++;
	return 0;
}

/* An idle host page leaves the bookkeeping; the caller frees it. */
void mlx5x_pages_forget_host(struct mlx5x_pages *pg,
			     struct mlx5x_host_page *hp)
{
	lockdep_assert_held(&pg->lock);
	list_del(&hp->free_link);
	pg->host_pages--;
}

/*
 * Lend one free 4 KiB piece of a host page of @func_id: its bus address
 * in @dma.  -ENOSPC when no host page of @func_id has one (the caller
 * adds a host page and tries again).  Caller holds @pg->lock.
 */
int mlx5x_pages_lend(struct mlx5x_pages *pg, u16 func_id, dma_addr_t *dma)
{
	struct mlx5x_host_page *hp;
	unsigned int i;
	int err;

	lockdep_assert_held(&pg->lock);
	list_for_each_entry(hp, &pg->free, free_link) {
		if (hp->func_id == func_id)
			goto found;
	}
	return -ENOSPC;

found:
	i = find_first_bit(hp->free, pg->per_host);
	*dma = hp->dma + ((dma_addr_t)i << MLX5X_FW_PAGE_SHIFT);
	err = xa_insert(&pg->pages, pages_key(*dma), hp, GFP_KERNEL);
	if (err)
		return err;
	err = pages_count_add(pg, func_id, 1);
	if (err) {
		xa_erase(&pg->pages, pages_key(*dma));
		return err;
	}
	clear_bit(i, hp->free);
	if (bitmap_empty(hp->free, pg->per_host))
		list_del_init(&hp->free_link);
	pg->total++;
	return 0;
}

/*
 * The device returned @dma for @func_id: find its host page and mark the
 * piece free.  An address never lent, or lent to another function, is
 * refused.  The host page is returned; if it is now idle it has left the
 * free list and the caller frees it (mlx5x_pages_forget_host() first).
 * Caller holds @pg->lock.
 */
struct mlx5x_host_page *mlx5x_pages_untrack(struct mlx5x_pages *pg,
					    u16 func_id, dma_addr_t dma)
{
	struct mlx5x_host_page *hp;
	unsigned int i;

	lockdep_assert_held(&pg->lock);
	hp = xa_load(&pg->pages, pages_key(dma));
	if (!hp || dma & (MLX5X_FW_PAGE_SIZE - 1))
		return ERR_PTR(-ENOENT);
	if (hp->func_id != func_id)
		return ERR_PTR(-EPERM);
	i = (dma - hp->dma) >> MLX5X_FW_PAGE_SHIFT;
	xa_erase(&pg->pages, pages_key(dma));
	pages_count_add(pg, func_id, -1);
	pg->total--;
	if (bitmap_empty(hp->free, pg->per_host))
		list_add(&hp->free_link, &pg->free);
	set_bit(i, hp->free);
	return hp;
}

static void pages_free_host(struct mlx5x_pages *pg, struct mlx5x_host_page *hp)
{
	mlx5x_pages_forget_host(pg, hp);
	dma_unmap_page(pg->dev, hp->dma, PAGE_SIZE, DMA_BIDIRECTIONAL);
	__free_page(hp->page);
	kfree(hp);
}

/* Return one piece; its host page goes once it is idle. */
static int pages_return(struct mlx5x_pages *pg, u16 func_id, dma_addr_t dma)
{
	struct mlx5x_host_page *hp = mlx5x_pages_untrack(pg, func_id, dma);

	if (IS_ERR(hp))
		return PTR_ERR(hp);
	if (mlx5x_host_page_idle(pg, hp))
		pages_free_host(pg, hp);
	return 0;
}

static int pages_alloc_host(struct mlx5x_pages *pg, u16 func_id)
{
	struct mlx5x_host_page *hp;
	int err = -ENOMEM;

	hp = kzalloc(sizeof(*hp), GFP_KERNEL);
	if (!hp)
		return -ENOMEM;
	hp->page = alloc_page(GFP_HIGHUSER | __GFP_NOWARN);
	if (!hp->page)
		goto err_free;
	hp->dma = dma_map_page(pg->dev, hp->page, 0, PAGE_SIZE,
			       DMA_BIDIRECTIONAL);
	if (dma_mapping_error(pg->dev, hp->dma))
		goto err_page;
	err = mlx5x_pages_add_host(pg, hp, func_id);
	if (err)
		goto err_unmap;
	return 0;

err_unmap:
	dma_unmap_page(pg->dev, hp->dma, PAGE_SIZE, DMA_BIDIRECTIONAL);
err_page:
	__free_page(hp->page);
err_free:
	kfree(hp);
	return err;
}

/* One 4 KiB piece for @func_id, from a new host page if need be. */
static int pages_get_one(struct mlx5x_pages *pg, u16 func_id, dma_addr_t *dma)
{
	int err = mlx5x_pages_lend(pg, func_id, dma);

	if (err != -ENOSPC)
		return err;
	err = pages_alloc_host(pg, func_id);
	return err ?: mlx5x_pages_lend(pg, func_id, dma);
}

/* Undo the first @n pages of a failed give. */
static void pages_unwind(struct mlx5x_pages *pg, u16 func_id,
			 dma_addr_t *pas, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		pages_return(pg, func_id, pas[i]);
}

/* Give one batch of at most MLX5X_MANAGE_PAGES_MAX pages. */
static int pages_give_batch(struct mlx5x_pages *pg, u16 func_id,
			    dma_addr_t *pas, u32 n)
{
	u32 i;
	int err;

	for (i = 0; i < n; i++) {
		err = pages_get_one(pg, func_id, &pas[i]);
		if (err)
			goto err_unwind;
	}
	err = mlx5x_fw_give_pages(pg->cmd, func_id, pas, n);
	if (err)
		goto err_unwind;
	return 0;

err_unwind:
	pages_unwind(pg, func_id, pas, i);
	return err;
}

static int pages_give(struct mlx5x_pages *pg, u16 func_id, u32 npages)
{
	dma_addr_t *pas;
	u32 n;
	int err = 0;

	pas = kcalloc(MLX5X_MANAGE_PAGES_MAX, sizeof(*pas), GFP_KERNEL);
	if (!pas)
		return -ENOMEM;
	mutex_lock(&pg->lock);
	while (npages) {
		n = min_t(u32, npages, MLX5X_MANAGE_PAGES_MAX);
		err = pages_give_batch(pg, func_id, pas, n);
		if (err)
			break;
		npages -= n;
	}
	mutex_unlock(&pg->lock);
	kfree(pas);
	/* a killed engine already said why (health, timeouts) */
	if (err && !mlx5x_cmd_killed(pg->cmd))
		dev_err(pg->dev, "giving %u pages to function %u failed: %d\n",
			npages, func_id, err);
	return err;
}

/* Free what the device returned; count addresses it should not have. */
static u32 pages_release(struct mlx5x_pages *pg, u16 func_id,
			 const dma_addr_t *pas, u32 n)
{
	u32 i, bad = 0;

	for (i = 0; i < n; i++) {
		if (pages_return(pg, func_id, pas[i])) {
			dev_err_ratelimited(pg->dev,
					    "firmware returned page %pad it does not hold for function %u\n",
					    &pas[i], func_id);
			bad++;
		}
	}
	return bad;
}

/* Ask for @npages back; returns the number actually reclaimed. */
static int pages_reclaim(struct mlx5x_pages *pg, u16 func_id, u32 npages)
{
	u32 n, got, done = 0;
	dma_addr_t *pas;
	int err = 0;

	pas = kcalloc(MLX5X_MANAGE_PAGES_MAX, sizeof(*pas), GFP_KERNEL);
	if (!pas)
		return -ENOMEM;
	mutex_lock(&pg->lock);
	while (done < npages) {
		n = min_t(u32, npages - done, MLX5X_MANAGE_PAGES_MAX);
		err = mlx5x_fw_take_pages(pg->cmd, func_id, n, pas, &got);
		if (err || !got)
			break;
		if (pages_release(pg, func_id, pas, got)) {
			err = -EPROTO;
			break;
		}
		done += got;
	}
	mutex_unlock(&pg->lock);
	kfree(pas);
	return err ?: done;
}

static void pages_req_work(struct work_struct *work)
{
	struct mlx5x_pages_req *req =
		container_of(work, struct mlx5x_pages_req, work);
	struct mlx5x_pages *pg = req->pg;
	int err;

	/*
	 * A dead function answers nothing: requests still queued when the
	 * command engine was killed are dropped (teardown frees the pages).
	 */
	if (mlx5x_cmd_killed(pg->cmd)) {
		kfree(req);
		return;
	}
	if (req->npages > 0) {
		err = pages_give(pg, req->func_id, req->npages);
		/* The firmware waits for an answer either way. */
		if (err && !mlx5x_cmd_killed(pg->cmd))
			mlx5x_fw_cant_give_pages(pg->cmd, req->func_id);
	} else {
		err = pages_reclaim(pg, req->func_id, -req->npages);
		if (err < 0 && !mlx5x_cmd_killed(pg->cmd))
			dev_warn(pg->dev, "reclaiming %d pages of function %u failed: %d\n",
				 -req->npages, req->func_id, err);
	}
	kfree(req);
}

/**
 * mlx5x_pages_request() - a PAGE_REQUEST EQE arrived
 * @pg: page accounting
 * @func_id: requesting function
 * @npages: > 0 the device wants pages, < 0 it returns some
 *
 * Called from the async EQ interrupt handler: queue the answer.
 */
void mlx5x_pages_request(struct mlx5x_pages *pg, u16 func_id, s32 npages)
{
	struct mlx5x_pages_req *req;

	if (!READ_ONCE(pg->accepting) || !npages)
		return;
	req = kzalloc(sizeof(*req), GFP_ATOMIC);
	if (!req) {
		dev_warn_ratelimited(pg->dev, "dropping a page request of %d pages\n",
				     npages);
		return;
	}
	INIT_WORK(&req->work, pages_req_work);
	req->pg = pg;
	req->func_id = func_id;
	req->npages = npages;
	queue_work(pg->wq, &req->work);
}

/*
 * A PAGE_REQUEST EQE: the requesting function and a signed page count
 * (> 0 give, < 0 the device releases pages to take back).
 */
void mlx5x_pages_eqe_decode(const struct mlx5x_eqe *eqe, u16 *func_id,
			    s32 *npages)
{
	*func_id = MLX5X_GET(eqe, MLX5X_EQE_PAGES_FUNC_ID);
	*npages = (s32)MLX5X_GET(eqe, MLX5X_EQE_PAGES_NUM_PAGES);
}

/* From the async EQ interrupt handler. */
void mlx5x_pages_request_eqe(struct mlx5x_pages *pg,
			     const struct mlx5x_eqe *eqe)
{
	u16 func_id;
	s32 npages;

	mlx5x_pages_eqe_decode(eqe, &func_id, &npages);
	trace_mlx5x_page_request(pg->dev, func_id, npages);
	mlx5x_pages_request(pg, func_id, npages);
}

/* No more PAGE_REQUEST work: before the async EQ goes away. */
void mlx5x_pages_stop_requests(struct mlx5x_pages *pg)
{
	WRITE_ONCE(pg->accepting, false);
	flush_workqueue(pg->wq);
}

/**
 * mlx5x_pages_startup() - satisfy the boot or init page request
 * @pg: page accounting
 * @op_mod: MLX5X_PAGES_BOOT or MLX5X_PAGES_INIT
 */
int mlx5x_pages_startup(struct mlx5x_pages *pg, u16 op_mod)
{
	u16 func_id;
	s32 npages;
	int err;

	err = mlx5x_fw_query_pages(pg->cmd, op_mod, &func_id, &npages);
	if (err)
		return err;
	if (npages <= 0)
		return 0;
	return pages_give(pg, func_id, npages);
}

/*
 * Free every lent piece without asking the device (it is gone), then the
 * host pages, all idle by then.
 */
static void pages_drop_all(struct mlx5x_pages *pg)
{
	struct mlx5x_host_page *hp, *tmp;
	unsigned long key;

	mutex_lock(&pg->lock);
	xa_for_each(&pg->pages, key, hp)
		pages_return(pg, hp->func_id, (dma_addr_t)key << MLX5X_FW_PAGE_SHIFT);
	list_for_each_entry_safe(hp, tmp, &pg->free, free_link)
		pages_free_host(pg, hp);
	mutex_unlock(&pg->lock);
}

/*
 * Rounds of MANAGE_PAGES TAKE over the functions before what the device
 * still holds is freed locally: a refused reclaim is asked again, since
 * the device keeps the pages it did not return (the next driver's
 * ENABLE_HCA finds them still lent) while the host reuses them.
 */
#define MLX5X_RECLAIM_ROUNDS	3

/* One round over the functions; the first error. */
static int pages_reclaim_round(struct mlx5x_pages *pg)
{
	unsigned long func;
	int err = 0, ret;
	void *v;

	xa_for_each(&pg->funcs, func, v) {
		if (mlx5x_cmd_killed(pg->cmd))
			break;
		ret = pages_reclaim(pg, func, xa_to_value(v));
		if (ret < 0 && !err)
			err = ret;
	}
	return err;
}

/**
 * mlx5x_pages_reclaim_all() - take every page back (teardown)
 * @pg: page accounting
 *
 * After TEARDOWN_HCA.  If the device does not return everything in
 * MLX5X_RECLAIM_ROUNDS rounds (or the command interface is dead) the rest
 * is freed locally: the function is about to be disabled and will not
 * touch host memory again.
 *
 * Return: 0 if the device returned every page, else a negative errno.
 */
int mlx5x_pages_reclaim_all(struct mlx5x_pages *pg)
{
	unsigned int round;
	int err = 0;

	for (round = 0; round < MLX5X_RECLAIM_ROUNDS && pg->total &&
	     !mlx5x_cmd_killed(pg->cmd); round++)
		err = pages_reclaim_round(pg);
	if (pg->total) {
		dev_warn(pg->dev, "%u firmware pages not returned, freeing them locally\n",
			 pg->total);
		pages_drop_all(pg);
		err = err ?: -EIO;
	}
	return err;
}

int mlx5x_pages_init(struct mlx5x_pages *pg, struct device *dev,
		     struct mlx5x_cmd *cmd)
{
	pg->dev = dev;
	pg->cmd = cmd;
	mlx5x_pages_acct_init(pg);
	pg->wq = alloc_ordered_workqueue("mlx5x_pages", 0);
	if (!pg->wq) {
		mlx5x_pages_acct_destroy(pg);
		return -ENOMEM;
	}
	WRITE_ONCE(pg->accepting, true);
	return 0;
}

void mlx5x_pages_cleanup(struct mlx5x_pages *pg)
{
	WRITE_ONCE(pg->accepting, false);
	destroy_workqueue(pg->wq);
	WARN_ON(pg->total);
	pages_drop_all(pg);
	mlx5x_pages_acct_destroy(pg);
}
