/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Number -> object tables for the event path: CQs (completion and CQ
 * error EQEs), QPs and SRQs (their async EQEs).  The device names an
 * object by its number in an EQE, in interrupt context; the table turns
 * the number into the object and pins it with a reference.
 *
 * Lifetime: a lookup takes its reference under the xarray lock, which
 * removal takes too, so an object is either not found or pinned until
 * mlx5x_res_put().  Destroy is mlx5x_res_destroy() (out of the table,
 * the DESTROY command, back in the table if the device refuses) and,
 * after success, mlx5x_res_release(): the table's reference goes and the
 * caller waits for the last lookup to put its own.
 */
#ifndef MLX5X_RES_TABLE_H
#define MLX5X_RES_TABLE_H

#include <linux/completion.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/xarray.h>

/**
 * struct mlx5x_res - what a table knows of an object
 * @refcount: one for the table, one per lookup in flight (or, for a CQ,
 *	per notification queued)
 * @free: completed when @refcount drops to zero
 */
struct mlx5x_res {
	refcount_t refcount;
	struct completion free;
};

/**
 * struct mlx5x_res_table - number -> struct mlx5x_res
 * @xa: the map; its lock is taken with interrupts off because lookups
 *	run in the EQ interrupt handler
 */
struct mlx5x_res_table {
	struct xarray xa;
};

void mlx5x_res_table_init(struct mlx5x_res_table *tbl);
void mlx5x_res_table_destroy(struct mlx5x_res_table *tbl);
int mlx5x_res_insert(struct mlx5x_res_table *tbl, u32 num,
		     struct mlx5x_res *res);
void mlx5x_res_remove(struct mlx5x_res_table *tbl, u32 num);
struct mlx5x_res *mlx5x_res_get(struct mlx5x_res_table *tbl, u32 num);
void mlx5x_res_put(struct mlx5x_res *res);
int mlx5x_res_destroy(struct mlx5x_res_table *tbl, u32 num,
		      struct mlx5x_res *res, int (*destroy)(void *arg),
		      void *arg);
void mlx5x_res_release(struct mlx5x_res *res);

#endif /* MLX5X_RES_TABLE_H */
