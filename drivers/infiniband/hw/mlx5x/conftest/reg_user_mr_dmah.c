// SPDX-License-Identifier: GPL-2.0-only
/*
 * HAVE_REG_USER_MR_DMAH: ib_device_ops.reg_user_mr takes a DMA handle
 * before the udata (7.x).
 */
#include <linux/build_bug.h>
#include <rdma/ib_verbs.h>

struct ib_mr *mlx5x_conftest_reg_user_mr(struct ib_pd *pd, u64 start,
					 u64 length, u64 virt, int access,
					 struct ib_dmah *dmah,
					 struct ib_udata *udata);
static_assert(__builtin_types_compatible_p(typeof(mlx5x_conftest_reg_user_mr) *,
					   typeof(((const struct ib_device_ops *)0)->reg_user_mr)));
