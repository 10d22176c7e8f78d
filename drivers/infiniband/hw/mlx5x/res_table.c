// SPDX-License-Identifier: GPL-2.0-only
/*
 * Number -> object tables of the event path (res_table.h).
 */
#include <linux/bug.h>
#include <linux/printk.h>

#include "res_table.h"

void mlx5x_res_table_init(struct mlx5x_res_table *tbl)
{
	xa_init_flags(&tbl->xa, XA_FLAGS_LOCK_IRQ);
}

/* Every object must be out: a lookup could find a freed one otherwise. */
void mlx5x_res_table_destroy(struct mlx5x_res_table *tbl)
{
	WARN_ON(!xa_empty(&tbl->xa));
	xa_destroy(&tbl->xa);
}

/* Publish @res as @num; the table owns the initial reference. */
int mlx5x_res_insert(struct mlx5x_res_table *tbl, u32 num,
		     struct mlx5x_res *res)
{
	refcount_set(&res->refcount, 1);
	init_completion(&res->free);
	return xa_insert_irq(&tbl->xa, num, res, GFP_KERNEL);
}

/* First step of a destroy: no new lookup finds @num after this. */
void mlx5x_res_remove(struct mlx5x_res_table *tbl, u32 num)
{
	xa_erase_irq(&tbl->xa, num);
}

/**
 * mlx5x_res_get() - look an object up and take a reference
 * @tbl: the table
 * @num: its number, from an EQE
 *
 * Any context.  The reference is taken under the xarray lock, which
 * removal also takes, so an object is either not found or pinned.
 *
 * Return: the object (drop it with mlx5x_res_put()), or NULL.
 */
struct mlx5x_res *mlx5x_res_get(struct mlx5x_res_table *tbl, u32 num)
{
	struct mlx5x_res *res;
	unsigned long flags;

	xa_lock_irqsave(&tbl->xa, flags);
	res = xa_load(&tbl->xa, num);
	if (res)
		refcount_inc(&res->refcount);
	xa_unlock_irqrestore(&tbl->xa, flags);
	return res;
}

void mlx5x_res_put(struct mlx5x_res *res)
{
	if (refcount_dec_and_test(&res->refcount))
		complete(&res->free);
}

/**
 * mlx5x_res_destroy() - destroy an object a table names
 * @tbl: the table
 * @num: the object's number
 * @res: the object
 * @destroy: the DESTROY command, on @arg
 * @arg: its argument
 *
 * The object leaves the table before the command: once the device has
 * destroyed it, it may give the number to a new object at once, whose
 * insertion must find the slot free.  If the device refuses, the object
 * goes back, so its events keep flowing (the number is still the
 * device's: only memory can fail, and is reported).  The caller then
 * keeps the object; after success it calls mlx5x_res_release() (or, for
 * a CQ, mlx5x_cq_quiesce()).
 *
 * Return: the command's result.
 */
int mlx5x_res_destroy(struct mlx5x_res_table *tbl, u32 num,
		      struct mlx5x_res *res, int (*destroy)(void *arg),
		      void *arg)
{
	int err;

	mlx5x_res_remove(tbl, num);
	err = destroy(arg);
	if (err && xa_insert_irq(&tbl->xa, num, res, GFP_KERNEL))
		pr_warn_ratelimited("mlx5x: object 0x%x was not destroyed (%d) and no longer gets its events\n",
				    num, err);
	return err;
}

/*
 * Last step of a destroy, @res out of its table: put the table's
 * reference and wait until no lookup holds one.  Sleeps.
 */
void mlx5x_res_release(struct mlx5x_res *res)
{
	might_sleep();
	mlx5x_res_put(res);
	wait_for_completion(&res->free);
}
