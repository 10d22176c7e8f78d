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
struct mlx5x_verbs_caps;

/*
 * Largest segment block mlx5x_kmr_reg_segs() and mlx5x_kmr_linv_segs()
 * write after the control segment: UMR control (48 bytes), mkey context
 * (64) and the translation (a 16-byte pointer, or up to 64 bytes of
 * inline entries).
 */
#define MLX5X_KMR_SEGS_MAX	(48 + 64 + 64)

/*
 * The device reads a translation list in 64-byte units; one of at most
 * this many bytes travels inline in the WQE (mlx5_ib's threshold).
 */
#define MLX5X_KMR_XLT_ALIGN	64
#define MLX5X_KMR_INLINE_MAX	64
/* descriptors of a key: a multiple of 4, as mlx5_ib rounds them */
#define MLX5X_KMR_DESC_ROUND	4
/*
 * Longest page list: the UMR control segment counts the list in 16-bit
 * xlt_octowords, so one WQE carries at most 2^16 entries (512 KiB),
 * whatever log_max_klm_list_size says beyond that.
 */
#define MLX5X_KMR_LOG_MAX_DESCS	16

/**
 * struct mlx5x_kmr - the descriptor list of a fast registration MR
 * @descs: big-endian MTT entries; streaming DMA towards the device, the
 *	CPU writes them only between the syncs of map_mr_sg
 * @descs_alloc: the allocation @descs is aligned in
 * @desc_map: bus address of @descs
 * @map_len: bytes mapped: @max_descs entries padded to 64 bytes, all
 *	a REG_MR WQE may make the device read
 * @max_descs: entries the key has room for
 * @ndescs: entries the last map_mr_sg() wrote
 *
 * No lock: as for any ib_mr, the consumer does not map an MR while a
 * REG_MR of it is being posted.
 */
struct mlx5x_kmr {
	__be64 *descs;
	void *descs_alloc;
	dma_addr_t desc_map;
	u32 map_len;
	u32 max_descs;
	u32 ndescs;
};

int mlx5x_kmr_reg_segs(struct mlx5x_ib_dev *dev, const struct ib_reg_wr *wr,
		       void *segs);
int mlx5x_kmr_linv_segs(struct mlx5x_ib_dev *dev, void *segs);

/* Pure helpers, shared with the KUnit suite. */
u32 mlx5x_kmr_max_pages(const struct mlx5x_verbs_caps *caps);
int mlx5x_kmr_descs(const struct mlx5x_verbs_caps *caps,
		    enum ib_mr_type type, u32 max_num_sg, u32 *ndescs);
u64 mlx5x_kmr_reg_mask(bool atomic);
int mlx5x_kmr_map(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset);

#endif /* MLX5X_KMR_H */
