// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel rings shared with the device (ring.h): allocation and the page
 * list the create commands carry.
 */
#include <linux/dma-mapping.h>
#include <linux/math.h>
#include <linux/sizes.h>

#include "fw_verbs.h"
#include "ring.h"

/* An empty ring on @buf at bus address @dma, counter 0. */
void mlx5x_ring_init(struct mlx5x_ring *r, void *buf, dma_addr_t dma,
		     u8 log_n, u8 log_stride)
{
	r->buf = buf;
	r->dma = dma;
	r->log_n = log_n;
	r->log_stride = log_stride;
	r->ctr = 0;
}

/*
 * Coherent memory is page aligned, so the ring starts on a device page
 * and its page list needs no offset.
 */
int mlx5x_ring_alloc(struct device *dma_dev, struct mlx5x_ring *r, u8 log_n,
		     u8 log_stride)
{
	dma_addr_t dma;
	void *buf;

	buf = dma_alloc_coherent(dma_dev, (size_t)1 << (log_n + log_stride),
				 &dma, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	mlx5x_ring_init(r, buf, dma, log_n, log_stride);
	return 0;
}

void mlx5x_ring_free(struct device *dma_dev, struct mlx5x_ring *r)
{
	dma_free_coherent(dma_dev, mlx5x_ring_bytes(r), r->buf, r->dma);
	r->buf = NULL;
}

/* The ring as the page list of a CREATE command: 4 KiB pages, no offset. */
void mlx5x_ring_pas(const struct mlx5x_ring *r, struct mlx5x_pas *pas)
{
	*pas = (struct mlx5x_pas) {
		.dma = r->dma,
		.pgsz = SZ_4K,
		.n = DIV_ROUND_UP(mlx5x_ring_bytes(r), SZ_4K),
	};
}
