/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Firmware pages: host memory the device asks for (boot, init, and at
 * run time through PAGE_REQUEST events) and must give back before the
 * function is disabled.
 */
#ifndef MLX5X_PAGES_H
#define MLX5X_PAGES_H

#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/xarray.h>

struct device;
struct mlx5x_cmd;
struct page;
struct workqueue_struct;

/**
 * struct mlx5x_fw_page - one 4 KiB firmware page lent to the device
 * @page: backing host page (a whole host page per firmware page)
 * @dma: its bus address, the key in mlx5x_pages.pages
 * @func_id: function the page was given to
 */
struct mlx5x_fw_page {
	struct page *page;
	dma_addr_t dma;
	u16 func_id;
};

/**
 * struct mlx5x_pages - firmware page accounting of one PCI function
 * @dev: for DMA mapping and messages
 * @cmd: command engine
 * @pages: dma >> 12 -> struct mlx5x_fw_page; internal xa_lock
 * @funcs: func_id -> number of pages held (xa value entries); @lock
 * @lock: serializes give/reclaim (probe, teardown, request work) and
 *	the per-function counts in @funcs
 * @total: pages currently held by the device; @lock
 * @wq: ordered queue for PAGE_REQUEST work
 * @accepting: PAGE_REQUEST events are queued only while set
 */
struct mlx5x_pages {
	struct device *dev;
	struct mlx5x_cmd *cmd;
	struct xarray pages;
	struct xarray funcs;
	struct mutex lock; /* give/reclaim, counts */
	u32 total;
	struct workqueue_struct *wq;
	bool accepting;
};

/* Accounting only (no DMA, no commands): shared with the KUnit suite. */
void mlx5x_pages_acct_init(struct mlx5x_pages *pg);
void mlx5x_pages_acct_destroy(struct mlx5x_pages *pg);
int mlx5x_pages_track(struct mlx5x_pages *pg, struct mlx5x_fw_page *fp);
struct mlx5x_fw_page *mlx5x_pages_untrack(struct mlx5x_pages *pg,
					  u16 func_id, dma_addr_t dma);
u32 mlx5x_pages_count(struct mlx5x_pages *pg, u16 func_id);

int mlx5x_pages_init(struct mlx5x_pages *pg, struct device *dev,
		     struct mlx5x_cmd *cmd);
void mlx5x_pages_cleanup(struct mlx5x_pages *pg);
int mlx5x_pages_startup(struct mlx5x_pages *pg, u16 op_mod);
int mlx5x_pages_reclaim_all(struct mlx5x_pages *pg);
void mlx5x_pages_request(struct mlx5x_pages *pg, u16 func_id, s32 npages);
void mlx5x_pages_stop_requests(struct mlx5x_pages *pg);

#endif /* MLX5X_PAGES_H */
