// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory keys for kernel consumers (kmr.h).
 */
#include "ib.h"
#include "kmr.h"

/**
 * mlx5x_kmr_reg_segs() - the segments of an IB_WR_REG_MR WQE
 * @dev: the device
 * @wr: the work request
 * @segs: where the segments go, MLX5X_KMR_SEGS_MAX bytes, contiguous
 *
 * Return: bytes written (a multiple of 16), or a negative errno for a
 * request the device cannot execute.
 */
int mlx5x_kmr_reg_segs(struct mlx5x_ib_dev *dev, const struct ib_reg_wr *wr,
		       void *segs)
{
	return -EOPNOTSUPP;
}

/**
 * mlx5x_kmr_linv_segs() - the segments of an IB_WR_LOCAL_INV WQE
 * @dev: the device
 * @segs: where the segments go, MLX5X_KMR_SEGS_MAX bytes, contiguous
 *
 * Return: bytes written (a multiple of 16), or a negative errno.
 */
int mlx5x_kmr_linv_segs(struct mlx5x_ib_dev *dev, void *segs)
{
	return -EOPNOTSUPP;
}
