/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Bottom-half shim: a BH workqueue item where the kernel has them
 * (HAVE_WQ_BH, 6.9+), a tasklet otherwise.  Both run in softirq context
 * on the scheduling CPU, never concurrently with themselves, and
 * mlx5x_bh_kill() waits for a running instance and discards a pending
 * one (including one the handler queued for itself).
 */
#ifndef MLX5X_BH_H
#define MLX5X_BH_H

#include "compat.h"

#include <linux/interrupt.h>
#include <linux/workqueue.h>

struct mlx5x_bh;
typedef void (*mlx5x_bh_fn)(struct mlx5x_bh *bh);

#ifdef HAVE_WQ_BH

/**
 * struct mlx5x_bh - deferred softirq-context work
 * @work: item on system_bh_wq
 * @fn: what to run
 */
struct mlx5x_bh {
	struct work_struct work;
	mlx5x_bh_fn fn;
};

static inline void mlx5x_bh_work(struct work_struct *work)
{
	struct mlx5x_bh *bh = container_of(work, struct mlx5x_bh, work);

	bh->fn(bh);
}

static inline void mlx5x_bh_init(struct mlx5x_bh *bh, mlx5x_bh_fn fn)
{
	INIT_WORK(&bh->work, mlx5x_bh_work);
	bh->fn = fn;
}

static inline void mlx5x_bh_schedule(struct mlx5x_bh *bh)
{
	queue_work(system_bh_wq, &bh->work);
}

static inline void mlx5x_bh_kill(struct mlx5x_bh *bh)
{
	cancel_work_sync(&bh->work);
}

#else /* !HAVE_WQ_BH */

struct mlx5x_bh {
	struct tasklet_struct tasklet;
	mlx5x_bh_fn fn;
};

static inline void mlx5x_bh_tasklet(struct tasklet_struct *t)
{
	struct mlx5x_bh *bh = from_tasklet(bh, t, tasklet);

	bh->fn(bh);
}

static inline void mlx5x_bh_init(struct mlx5x_bh *bh, mlx5x_bh_fn fn)
{
	tasklet_setup(&bh->tasklet, mlx5x_bh_tasklet);
	bh->fn = fn;
}

static inline void mlx5x_bh_schedule(struct mlx5x_bh *bh)
{
	tasklet_schedule(&bh->tasklet);
}

static inline void mlx5x_bh_kill(struct mlx5x_bh *bh)
{
	tasklet_kill(&bh->tasklet);
}

#endif /* HAVE_WQ_BH */

#endif /* MLX5X_BH_H */
