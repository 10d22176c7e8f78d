// SPDX-License-Identifier: GPL-2.0-only
/* HAVE_TIMER_CONTAINER_OF: timer_container_of() exists (6.16+). */
#include <linux/timer.h>

struct mlx5x_conftest_timer {
	struct timer_list t;
};

struct mlx5x_conftest_timer *mlx5x_conftest(struct timer_list *t);
struct mlx5x_conftest_timer *mlx5x_conftest(struct timer_list *t)
{
	struct mlx5x_conftest_timer *p = timer_container_of(p, t, t);

	return p;
}
