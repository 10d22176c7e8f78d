/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * UARs: the doorbell pages in BAR0.  The index <-> BAR offset <-> pfn
 * math lives here only; the kernel UAR (EQ doorbells) and, later, the
 * user UAR pages handed to libmlx5 both go through it.
 */
#ifndef MLX5X_UAR_H
#define MLX5X_UAR_H

#include <linux/types.h>

struct mlx5x_cmd;
struct pci_dev;

/**
 * struct mlx5x_uar_geom - how UAR indices map onto BAR0
 * @bar_len: BAR0 length in bytes
 * @uar_4k: indices count 4 KiB units (else one index per host page)
 * @page_shift: host PAGE_SHIFT (a parameter so tests can vary it)
 */
struct mlx5x_uar_geom {
	u64 bar_len;
	bool uar_4k;
	u8 page_shift;
};

/**
 * struct mlx5x_uar - one UAR page mapped for the kernel
 * @index: as returned by ALLOC_UAR
 * @map: uncached mapping of the page
 */
struct mlx5x_uar {
	u32 index;
	void __iomem *map;
};

u64 mlx5x_uar_offset(const struct mlx5x_uar_geom *g, u32 index);
u32 mlx5x_uar_size(const struct mlx5x_uar_geom *g);
int mlx5x_uar_check(const struct mlx5x_uar_geom *g, u32 index);
unsigned long mlx5x_uar_pfn(const struct mlx5x_uar_geom *g, u64 bar_start,
			    u32 index);
unsigned int mlx5x_uar_page_offset(const struct mlx5x_uar_geom *g,
				   u32 index);
unsigned int mlx5x_uars_per_page(const struct mlx5x_uar_geom *g);

int mlx5x_uar_alloc(struct mlx5x_cmd *cmd, struct pci_dev *pdev,
		    const struct mlx5x_uar_geom *g, struct mlx5x_uar *uar);
void mlx5x_uar_free(struct mlx5x_cmd *cmd, struct mlx5x_uar *uar);

#endif /* MLX5X_UAR_H */
