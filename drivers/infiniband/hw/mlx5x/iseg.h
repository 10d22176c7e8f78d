/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Initialization segment access and decoding.  The decoders take the raw
 * big-endian register words so KUnit can feed them device images without
 * any MMIO; the accessors are the only place that touches the mapping.
 */
#ifndef MLX5X_ISEG_H
#define MLX5X_ISEG_H

#include <linux/compiler.h>
#include <linux/types.h>

struct mlx5x_dev;

struct mlx5x_fw_ver {
	u16 major;
	u16 minor;
	u16 sub;
};

struct mlx5x_cmdq_geom {
	u8 log_sz;	/* log2 of the number of descriptor slots */
	u8 log_stride;	/* log2 of the distance between slots, bytes */
};

__be32 mlx5x_iseg_rd(void __iomem *iseg, unsigned int off);
void mlx5x_iseg_wr(void __iomem *iseg, unsigned int off, __be32 val);

void mlx5x_iseg_fw_ver(__be32 fw_rev, __be32 cmdif_rev_fw_sub,
		       struct mlx5x_fw_ver *ver);
u16 mlx5x_iseg_cmdif_rev(__be32 cmdif_rev_fw_sub);
int mlx5x_iseg_check_cmdif(u16 cmdif_rev);
bool mlx5x_iseg_fw_initializing(__be32 initializing);
int mlx5x_iseg_cmdq_geom(__be32 cmdq_addr_l_sz, struct mlx5x_cmdq_geom *geom);

int mlx5x_iseg_init(struct mlx5x_dev *mdev);

#endif /* MLX5X_ISEG_H */
