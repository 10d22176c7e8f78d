/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * EQE -> CQ: the table that turns a CQ number from a completion EQE into
 * a CQ object, and the per-EQ bottom half that delivers the notification.
 *
 * The table is a res_table.h table: a lookup takes a reference under
 * the xarray lock, so a CQ found by the interrupt handler cannot be
 * freed under it; a CQ queued on a bottom-half list holds that
 * reference until its handler has run.  Every CQ is created and
 * destroyed through mlx5x_core_cq_create() and mlx5x_core_cq_destroy()
 * (cq_core.c).  Destroy is: mlx5x_res_destroy() (out of the table,
 * DESTROY_CQ, back in the table if the device refuses) ->
 * mlx5x_cq_quiesce() (synchronize_irq, drop a pending notification, put
 * the table's reference and wait for the last one).
 */
#ifndef MLX5X_CQ_TABLE_H
#define MLX5X_CQ_TABLE_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "compat.h"
#include "res_table.h"

struct mlx5x_cmd;
struct mlx5x_cq_bh;
struct mlx5x_cq_params;
struct mlx5x_eq;

/**
 * struct mlx5x_core_cq - what the event path knows about a CQ
 * @cqn: CQ number
 * @bh: bottom half of the completion EQ the CQ reports to
 * @irqn: that EQ's Linux IRQ, < 0 if none (tests)
 * @res: the table's view: references, one per lookup in flight or
 *	queued notification
 * @bh_node: on @bh's pending list while a notification is queued;
 *	protected by the bottom half's lock
 * @comp: completion notification, from the EQ's hard-IRQ handler or its
 *	bottom half, never from both at once
 * @event: asynchronous error (e.g. CQ overrun), hard-IRQ context; may be
 *	NULL
 */
struct mlx5x_core_cq {
	u32 cqn;
	struct mlx5x_cq_bh *bh;
	int irqn;
	struct mlx5x_res res;
	struct list_head bh_node;
	void (*comp)(struct mlx5x_core_cq *cq);
	void (*event)(struct mlx5x_core_cq *cq, u8 type, u8 syndrome);
};

/**
 * struct mlx5x_cq_table - CQ number -> CQ
 * @res: the table; its entries are the @res of struct mlx5x_core_cq
 */
struct mlx5x_cq_table {
	struct mlx5x_res_table res;
};

/**
 * struct mlx5x_cq_bh - one completion EQ's bottom half
 * @lock: protects @pending, @running and the bh_node of every CQ on
 *	@pending or on a batch being run; taken from hard IRQ
 * @pending: CQs with a notification to deliver, in arrival order
 * @running: a run took a batch and has not finished it
 * @bh: tasklet or BH work item running mlx5x_cq_bh_run()
 * @budget: time budget of one run, in jiffies; 0 = one CQ per run
 * @kick: schedules a run; the KUnit suite replaces it
 * @runs: runs so far (statistics)
 * @resched: runs that ended on the budget with CQs left
 * @direct: notifications the interrupt handler delivered itself; written
 *	by that handler only
 */
struct mlx5x_cq_bh {
	spinlock_t lock; /* pending list, running, bh_node of queued CQs */
	struct list_head pending;
	bool running;
	struct mlx5x_bh bh;
	unsigned long budget;
	void (*kick)(struct mlx5x_cq_bh *cqbh);
	u64 runs;
	u64 resched;
	u64 direct;
};

void mlx5x_cq_table_init(struct mlx5x_cq_table *tbl);
void mlx5x_cq_table_destroy(struct mlx5x_cq_table *tbl);
int mlx5x_cq_table_insert(struct mlx5x_cq_table *tbl,
			  struct mlx5x_core_cq *cq);
void mlx5x_cq_table_remove(struct mlx5x_cq_table *tbl,
			   struct mlx5x_core_cq *cq);
struct mlx5x_core_cq *mlx5x_cq_table_get(struct mlx5x_cq_table *tbl,
					 u32 cqn);
void mlx5x_cq_put(struct mlx5x_core_cq *cq);
void mlx5x_cq_quiesce(struct mlx5x_core_cq *cq);

struct mlx5x_ring;
bool mlx5x_cqe_sw_owns(const void *cqe, u32 ctr, u8 log_n);
void mlx5x_cq_ring_invalidate(struct mlx5x_ring *r);

int mlx5x_core_cq_create(struct mlx5x_cmd *cmd, struct mlx5x_cq_table *tbl,
			 struct mlx5x_eq *eq, struct mlx5x_cq_params *p,
			 struct mlx5x_core_cq *cq);
int mlx5x_core_cq_destroy(struct mlx5x_cmd *cmd, struct mlx5x_cq_table *tbl,
			  struct mlx5x_core_cq *cq);

void mlx5x_cq_bh_init(struct mlx5x_cq_bh *cqbh, unsigned int budget_us);
void mlx5x_cq_bh_cleanup(struct mlx5x_cq_bh *cqbh);
void mlx5x_cq_bh_add(struct mlx5x_cq_bh *cqbh, struct mlx5x_core_cq *cq);
void mlx5x_cq_irq_notify(struct mlx5x_cq_bh *cqbh, struct mlx5x_core_cq *cq,
			 unsigned int *direct);
bool mlx5x_cq_bh_run(struct mlx5x_cq_bh *cqbh);
void mlx5x_cq_bh_cancel(struct mlx5x_cq_bh *cqbh, struct mlx5x_core_cq *cq);

#endif /* MLX5X_CQ_TABLE_H */
