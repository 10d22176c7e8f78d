// SPDX-License-Identifier: GPL-2.0-only
/*
 * HAVE_RESIZE_USER_CQ: ib_device_ops.resize_cq became resize_user_cq,
 * with an unsigned size (7.x).
 */
#include <linux/build_bug.h>
#include <rdma/ib_verbs.h>

typedef int (*mlx5x_conftest_resize_fn)(struct ib_cq *cq, unsigned int cqe,
					struct ib_udata *udata);
#define MLX5X_CONFTEST_OPS ((const struct ib_device_ops *)0)
static_assert(__builtin_types_compatible_p(mlx5x_conftest_resize_fn,
					   typeof(MLX5X_CONFTEST_OPS->resize_user_cq)));
