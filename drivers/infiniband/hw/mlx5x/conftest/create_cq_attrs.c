// SPDX-License-Identifier: GPL-2.0-only
/*
 * HAVE_CREATE_CQ_ATTRS: ib_device_ops.create_cq takes the uverbs
 * attribute bundle instead of the driver udata (6.12 does, 6.1 does not).
 * A type mismatch must be a hard error, not an incompatible-pointer
 * warning: hence the static assertion.
 */
#include <linux/build_bug.h>
#include <rdma/ib_verbs.h>

int mlx5x_conftest_create_cq(struct ib_cq *cq,
			     const struct ib_cq_init_attr *attr,
			     struct uverbs_attr_bundle *attrs);
static_assert(__builtin_types_compatible_p(typeof(mlx5x_conftest_create_cq) *,
					   typeof(((const struct ib_device_ops *)0)->create_cq)));
