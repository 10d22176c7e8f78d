/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A ring of fixed-size entries the kernel owns and shares with the
 * device: the EQs, the UMR queue's send queue and CQ, and whatever
 * kernel queue comes next (a kernel CQ, QP or SRQ).
 *
 * The ring is one DMA-coherent buffer of 1 << log_n entries of
 * 1 << log_stride bytes, device-page aligned, which the device reads
 * through a page list of 4 KiB pages (mlx5x_ring_pas()).  Software keeps
 * one free-running counter per ring: the producer for a send queue (in
 * WQE basic blocks), the consumer for an EQ or a CQ.  The entry is the
 * counter modulo the size; the counter's bit log_n is the parity of the
 * pass it is on.  The owner bit of an EQE or CQE is that parity on the
 * pass the device wrote it in (0 on the first), so software owns the
 * entry at its counter when the two agree.  Since the size divides 2^32,
 * the counter wraps around u32 without breaking either rule.
 */
#ifndef MLX5X_RING_H
#define MLX5X_RING_H

#include <linux/types.h>

struct device;
struct mlx5x_pas;

/**
 * struct mlx5x_ring - a kernel ring of fixed-size entries
 * @buf: 1 << @log_n entries of 1 << @log_stride bytes
 * @dma: bus address of @buf
 * @log_n: log2 of the number of entries
 * @log_stride: log2 of the entry size
 * @ctr: free-running producer or consumer counter (see above)
 *
 * The owner of the ring serializes the uses of @ctr.
 */
struct mlx5x_ring {
	void *buf;
	dma_addr_t dma;
	u8 log_n;
	u8 log_stride;
	u32 ctr;
};

static inline size_t mlx5x_ring_bytes(const struct mlx5x_ring *r)
{
	return (size_t)1 << (r->log_n + r->log_stride);
}

/* The entry counter @ctr lands on. */
static inline void *mlx5x_ring_entry(const struct mlx5x_ring *r, u32 ctr)
{
	return r->buf + ((size_t)(ctr & ((1U << r->log_n) - 1)) << r->log_stride);
}

/* The owner value of an entry software owns at counter @ctr. */
static inline u8 mlx5x_ring_pass(u32 ctr, u8 log_n)
{
	return (ctr >> log_n) & 1;
}

/* Does software own the entry at the counter, whose owner bit is @owner? */
static inline bool mlx5x_ring_sw_owns(const struct mlx5x_ring *r, u8 owner)
{
	return (owner & 1) == mlx5x_ring_pass(r->ctr, r->log_n);
}

void mlx5x_ring_init(struct mlx5x_ring *r, void *buf, dma_addr_t dma,
		     u8 log_n, u8 log_stride);
int mlx5x_ring_alloc(struct device *dma_dev, struct mlx5x_ring *r, u8 log_n,
		     u8 log_stride);
void mlx5x_ring_free(struct device *dma_dev, struct mlx5x_ring *r);
void mlx5x_ring_pas(const struct mlx5x_ring *r, struct mlx5x_pas *pas);

#endif /* MLX5X_RING_H */
