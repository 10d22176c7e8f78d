/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Firmware pages: host memory the device asks for (boot, init, and at
 * run time through PAGE_REQUEST events) and must give back before the
 * function is disabled.
 */
#ifndef MLX5X_PAGES_H
#define MLX5X_PAGES_H

#include <linux/bitmap.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include <mlx5x/prm.h>

struct device;
struct mlx5x_cmd;
struct mlx5x_eqe;
struct page;
struct workqueue_struct;

/* 4 KiB firmware pages carved from one host page (16 on 64 KiB hosts). */
#define MLX5X_FW_PAGES_PER_HOST	(PAGE_SIZE >> MLX5X_FW_PAGE_SHIFT)
/* Room in struct mlx5x_host_page: up to 256 KiB host pages. */
#define MLX5X_FW_PAGES_MAX_PER_HOST	64

/**
 * struct mlx5x_host_page - a host page lent to the device in 4 KiB pieces
 * @page: the host page (NULL in KUnit tests)
 * @dma: bus address of its first byte; piece i is @dma + i * 4 KiB
 * @func_id: the function all its pieces are lent to
 * @free: pieces not lent (bits 0..mlx5x_pages.per_host - 1); all set
 *	when the page is idle
 * @free_link: on mlx5x_pages.free while a piece is free
 *
 * Lending the pieces of one host page to one function only keeps a
 * reclaim for that function from freeing memory another function uses.
 */
struct mlx5x_host_page {
	struct page *page;
	dma_addr_t dma;
	u16 func_id;
	DECLARE_BITMAP(free, MLX5X_FW_PAGES_MAX_PER_HOST);
	struct list_head free_link;
};

/**
 * struct mlx5x_pages - firmware page accounting of one PCI function
 * @dev: for DMA mapping and messages
 * @cmd: command engine
 * @pages: (4 KiB piece dma) >> 12 -> its struct mlx5x_host_page, for the
 *	pieces lent; internal xa_lock
 * @funcs: func_id -> number of pieces lent (xa value entries); @lock
 * @free: host pages with a piece not lent; @lock
 * @lock: serializes give/reclaim (probe, teardown, request work), the
 *	per-function counts in @funcs and @free
 * @total: pieces currently lent to the device; @lock
 * @host_pages: host pages allocated for the device; @lock
 * @per_host: 4 KiB pieces per host page (MLX5X_FW_PAGES_PER_HOST; KUnit
 *	tests pretend other page sizes)
 * @wq: ordered queue for PAGE_REQUEST work
 * @accepting: PAGE_REQUEST events are queued only while set
 */
struct mlx5x_pages {
	struct device *dev;
	struct mlx5x_cmd *cmd;
	struct xarray pages;
	struct xarray funcs;
	struct list_head free;
	struct mutex lock; /* give/reclaim, counts, free list */
	u32 total;
	u32 host_pages;
	unsigned int per_host;
	struct workqueue_struct *wq;
	bool accepting;
};

/* Accounting only (no DMA, no commands): shared with the KUnit suite. */
void mlx5x_pages_acct_init(struct mlx5x_pages *pg);
void mlx5x_pages_acct_destroy(struct mlx5x_pages *pg);
int mlx5x_pages_add_host(struct mlx5x_pages *pg, struct mlx5x_host_page *hp,
			 u16 func_id);
int mlx5x_pages_lend(struct mlx5x_pages *pg, u16 func_id, dma_addr_t *dma);
struct mlx5x_host_page *mlx5x_pages_untrack(struct mlx5x_pages *pg,
					    u16 func_id, dma_addr_t dma);
bool mlx5x_host_page_idle(const struct mlx5x_pages *pg,
			  const struct mlx5x_host_page *hp);
void mlx5x_pages_forget_host(struct mlx5x_pages *pg,
			     struct mlx5x_host_page *hp);
u32 mlx5x_pages_count(struct mlx5x_pages *pg, u16 func_id);

int mlx5x_pages_init(struct mlx5x_pages *pg, struct device *dev,
		     struct mlx5x_cmd *cmd);
void mlx5x_pages_cleanup(struct mlx5x_pages *pg);
int mlx5x_pages_startup(struct mlx5x_pages *pg, u16 op_mod);
int mlx5x_pages_reclaim_all(struct mlx5x_pages *pg);
void mlx5x_pages_request(struct mlx5x_pages *pg, u16 func_id, s32 npages);
void mlx5x_pages_eqe_decode(const struct mlx5x_eqe *eqe, u16 *func_id,
			    s32 *npages);
void mlx5x_pages_request_eqe(struct mlx5x_pages *pg,
			     const struct mlx5x_eqe *eqe);
void mlx5x_pages_stop_requests(struct mlx5x_pages *pg);

#endif /* MLX5X_PAGES_H */
