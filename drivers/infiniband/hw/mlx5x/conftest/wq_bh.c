// SPDX-License-Identifier: GPL-2.0-only
/* HAVE_WQ_BH: BH workqueues, system_bh_wq (6.9+); tasklets before that. */
#include <linux/workqueue.h>

bool mlx5x_conftest(struct work_struct *w);
bool mlx5x_conftest(struct work_struct *w)
{
	return queue_work(system_bh_wq, w);
}
