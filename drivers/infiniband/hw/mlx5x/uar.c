// SPDX-License-Identifier: GPL-2.0-only
/*
 * UAR allocation and the UAR index math.
 *
 * UAR index n lives at BAR0 + n * (uar_4k ? 4 KiB : PAGE_SIZE); the
 * driver sets log_uar_page_sz so that without uar_4k a UAR is exactly one
 * host page.  With uar_4k on a host with larger pages several UARs share
 * one host page, which matters when user UARs are mmap()ed: the pfn is
 * that of the containing host page and the UAR sits at an offset in it.
 */
#include <linux/io.h>
#include <linux/pci.h>

#include "cmd.h"
#include "fw_cmds.h"
#include "uar.h"

u32 mlx5x_uar_size(const struct mlx5x_uar_geom *g)
{
	return g->uar_4k ? MLX5X_UAR_PAGE_LEN : 1U << g->page_shift;
}

u64 mlx5x_uar_offset(const struct mlx5x_uar_geom *g, u32 index)
{
	return (u64)index * mlx5x_uar_size(g);
}

/*
 * An index is usable if its page lies past the init segment (the first
 * three 4 KiB pages of BAR0) and entirely inside BAR0.
 */
int mlx5x_uar_check(const struct mlx5x_uar_geom *g, u32 index)
{
	u64 off = mlx5x_uar_offset(g, index);

	if (off < MLX5X_ISEG_PAGES * MLX5X_UAR_PAGE_LEN)
		return -EINVAL;
	if (off + mlx5x_uar_size(g) > g->bar_len)
		return -ERANGE;
	return 0;
}

/* Host page frame holding UAR @index, for remap_pfn_range() & co. */
unsigned long mlx5x_uar_pfn(const struct mlx5x_uar_geom *g, u64 bar_start,
			    u32 index)
{
	return (bar_start + mlx5x_uar_offset(g, index)) >> g->page_shift;
}

/* Byte offset of UAR @index inside its host page. */
unsigned int mlx5x_uar_page_offset(const struct mlx5x_uar_geom *g,
				   u32 index)
{
	return mlx5x_uar_offset(g, index) & ((1ULL << g->page_shift) - 1);
}

unsigned int mlx5x_uars_per_page(const struct mlx5x_uar_geom *g)
{
	return (1U << g->page_shift) / mlx5x_uar_size(g);
}

/**
 * mlx5x_uar_alloc() - ALLOC_UAR and map the page for kernel doorbells
 * @cmd: command engine
 * @pdev: the function (BAR0)
 * @g: UAR geometry
 * @uar: filled on success
 */
int mlx5x_uar_alloc(struct mlx5x_cmd *cmd, struct pci_dev *pdev,
		    const struct mlx5x_uar_geom *g, struct mlx5x_uar *uar)
{
	u64 bar = pci_resource_start(pdev, 0);
	int err;

	err = mlx5x_fw_alloc_uar(cmd, &uar->index);
	if (err)
		return err;
	err = mlx5x_uar_check(g, uar->index);
	if (err) {
		dev_err(&pdev->dev, "ALLOC_UAR returned unusable index %u (BAR0 %llu bytes)\n",
			uar->index, g->bar_len);
		goto err_dealloc;
	}
	uar->map = ioremap(bar + mlx5x_uar_offset(g, uar->index),
			   mlx5x_uar_size(g));
	if (!uar->map) {
		err = -ENOMEM;
		goto err_dealloc;
	}
	return 0;

err_dealloc:
	mlx5x_fw_dealloc_uar(cmd, uar->index);
	return err;
}

void mlx5x_uar_free(struct mlx5x_cmd *cmd, struct mlx5x_uar *uar)
{
	iounmap(uar->map);
	uar->map = NULL;
	mlx5x_fw_dealloc_uar(cmd, uar->index);
}
