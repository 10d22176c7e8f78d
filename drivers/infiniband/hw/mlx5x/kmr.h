/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory keys for kernel consumers: fast registration (FRWR).
 *
 * A fast-registration MR (alloc_mr with IB_MR_TYPE_MEM_REG) is a free
 * MTT-mode key with umr_en and a DMA-mapped descriptor array;
 * map_mr_sg() fills the array, and the consumer's IB_WR_REG_MR then
 * makes the key valid with a UMR WQE on its own send queue, as
 * IB_WR_LOCAL_INV makes it free again.  The send path (the kernel QP's
 * post_send) owns the control segment of those WQEs (opcode UMR, the
 * key in the immediate, the fence); this file fills what follows it.
 */
#ifndef MLX5X_KMR_H
#define MLX5X_KMR_H

#include <rdma/ib_verbs.h>

struct mlx5x_ib_dev;

/*
 * Largest segment block mlx5x_kmr_reg_segs() and mlx5x_kmr_linv_segs()
 * write after the control segment: UMR control (48 bytes), mkey context
 * (64) and the translation (a 16-byte pointer, or up to 64 bytes of
 * inline entries).
 */
#define MLX5X_KMR_SEGS_MAX	(48 + 64 + 64)

int mlx5x_kmr_reg_segs(struct mlx5x_ib_dev *dev, const struct ib_reg_wr *wr,
		       void *segs);
int mlx5x_kmr_linv_segs(struct mlx5x_ib_dev *dev, void *segs);

#endif /* MLX5X_KMR_H */
