/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * UMR: memory key updates the device executes from a work queue.
 *
 * The device owns one kernel REG_UMR QP, created before the ib_device
 * is registered and destroyed after it is unregistered.  A UMR WQE
 * names an mkey and carries the new values of the mkey context fields
 * its mask selects; mlx5x uses it for one thing, what mlx5_ib's
 * mlx5r_umr_rereg_pd_access() does: ibv_rereg_mr that changes only the
 * PD and/or the access rights patches the key in place, so lkey and
 * rkey stay what they were.  Translation updates are not used.
 *
 * The queue is synchronous: one WQE at a time, under @lock, waited for
 * with a timeout.  A dead device, a timeout or an error CQE marks the
 * queue dead; later re-registrations then take the new-MR path.  A QP
 * or CQ the device refuses to destroy leaks the whole queue: the device
 * may still use it.
 */
#ifndef MLX5X_UMR_H
#define MLX5X_UMR_H

#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "cq_table.h"
#include "ring.h"
#include "uar.h"

struct mlx5x_ib_dev;
struct mlx5x_qp_mod;
struct mlx5x_qp_params;
struct mlx5x_verbs_caps;

/*
 * Ring geometry: 64 send WQEBBs and 64 CQEs of 64 bytes, one 4 KiB
 * device page each.  A UMR WQE is 2 WQEBBs and the producer counter
 * always advances by 2, so a WQE never wraps around the ring end.
 */
#define MLX5X_UMR_LOG_SQ	6
#define MLX5X_UMR_LOG_CQ	6
#define MLX5X_UMR_WQEBBS	2
#define MLX5X_UMR_WQE_LEN	(MLX5X_UMR_WQEBBS * 64)
/* one local operation; generous for an emulated device under TCG */
#define MLX5X_UMR_TIMEOUT_MS	10000

/**
 * struct mlx5x_umr_update - what one UMR WQE does to an mkey
 * @qpn: the UMR QP
 * @wqe_index: producer counter (WQEBBs) at the WQE's first block
 * @key: the mkey (index and variant)
 * @pdn: new protection domain
 * @access: new MLX5X_MKEY_* rights
 * @atomic: the device has atomics, so the atomic right is in the mask
 */
struct mlx5x_umr_update {
	u32 qpn;
	u16 wqe_index;
	u32 key;
	u32 pdn;
	u8 access;
	bool atomic;
};

/**
 * struct mlx5x_umr_segs - UMR control segment and mkey context of a WQE
 * @flags: MLX5X_UMR_* (free-state check, inline translation)
 * @xlt_octowords: translation octowords the WQE carries (0: none)
 * @mask: MLX5X_MKEY_MASK_* of the mkey context fields that change
 * @free: make the key free; such a context carries nothing else
 * @key: the mkey (index and variant): the variant is mkey_7_0
 * @access: MLX5X_MKEY_* rights
 * @pdn: protection domain (selected by MLX5X_MKEY_MASK_PD)
 * @mtt: the context names the key's kind, umr_en and MTT access mode
 *	(fast registration, as mlx5_ib writes it)
 * @en_rinval: SEND with Invalidate may free the key
 * @iova: first virtual address of the key
 * @len: bytes the key covers
 * @xlt_oct_size: octowords of the key's translation
 * @log_page_size: log2 of the translation's page size
 *
 * Used by the UMR queue (PD/access updates) and by the send path's fast
 * registration and local invalidation (kmr.c).
 */
struct mlx5x_umr_segs {
	u8 flags;
	u16 xlt_octowords;
	u64 mask;
	bool free;
	u32 key;
	u8 access;
	u32 pdn;
	bool mtt;
	bool en_rinval;
	u64 iova;
	u64 len;
	u32 xlt_oct_size;
	u8 log_page_size;
};

/* UMR control segment then mkey context: what mlx5x_umr_segs_build writes */
#define MLX5X_UMR_SEGS_LEN	(MLX5X_WQE_UMR_CTRL_LEN + MLX5X_WQE_UMR_MKEY_LEN)

/**
 * struct mlx5x_umr - the device's UMR queue
 * @lock: one WQE in flight: serializes posting and polling; protects
 *	@sq, @cq, @arm_sn, @dead and @done
 * @uar: own UAR page: the send doorbell and the CQ arm doorbell
 * @sq: send ring; its counter is the producer, in WQEBBs
 * @cq: completion ring; its counter is the consumer
 * @dbr: doorbell records: the QP's (receive, send counters) then the
 *	CQ's (consumer counter, arm word), DMA coherent
 * @dbr_dma: bus address of @dbr
 * @mcq: the CQ as the EQ dispatch knows it
 * @qpn: the REG_UMR QP
 * @arm_sn: CQ arm sequence number, advanced after each event
 * @dead: no WQE may be posted any more (device error, timeout, error CQE);
 *	set under @lock, read without it (READ_ONCE) by mlx5x_umr_usable()
 * @done: completed by the CQ's completion event
 */
struct mlx5x_umr {
	struct mutex lock; /* sq, cq, arm_sn, dead, done */
	struct mlx5x_uar uar;
	struct mlx5x_ring sq;
	struct mlx5x_ring cq;
	__be32 *dbr;
	dma_addr_t dbr_dma;
	struct mlx5x_core_cq mcq;
	u32 qpn;
	u8 arm_sn;
	bool dead;
	struct completion done;
};

int mlx5x_umr_init(struct mlx5x_ib_dev *dev);
void mlx5x_umr_fini(struct mlx5x_ib_dev *dev);
bool mlx5x_umr_usable(struct mlx5x_ib_dev *dev);
int mlx5x_umr_rereg_pd_access(struct mlx5x_ib_dev *dev, u32 key, u32 pdn,
			      u8 access);

/* Pure helpers, shared with the KUnit suites. */
bool mlx5x_umr_can_rereg(int flags, int cur_access, int new_access,
			 const struct mlx5x_verbs_caps *caps);
u64 mlx5x_umr_mkey_mask(bool atomic);
void mlx5x_umr_segs_build(void *seg, const struct mlx5x_umr_segs *s);
void mlx5x_umr_wqe_build(void *wqe, const struct mlx5x_umr_update *u);
int mlx5x_umr_cqe_status(const void *cqe, u32 ci, u8 log_n);
void mlx5x_umr_qp_params(const struct mlx5x_ib_dev *dev,
			 const struct mlx5x_umr *umr,
			 struct mlx5x_qp_params *p);
void mlx5x_umr_qp_mod(u16 opcode, u32 pdn, u32 cqn, struct mlx5x_qp_mod *m);

#endif /* MLX5X_UMR_H */
