/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Event queues: on MSI-X vector 0 the async EQ (command completions, port
 * changes, CQ/QP errors) and the page-request EQ; one completion EQ per
 * remaining vector.
 */
#ifndef MLX5X_EQ_H
#define MLX5X_EQ_H

#include <linux/mutex.h>
#include <linux/types.h>

#include "cq_table.h"
#include "hw.h"
#include "ring.h"

struct mlx5x_cmd;
struct mlx5x_pages;
struct mlx5x_uar;
struct pci_dev;

/*
 * Entries beyond what the driver promises to consume between two CI
 * updates; the device never overruns an EQ whose CI lags by less.
 */
#define MLX5X_NUM_SPARE_EQE	128
/* EQEs consumed per interrupt before the CI update and re-arm. */
#define MLX5X_EQ_POLL_BUDGET	64
static_assert(MLX5X_EQ_POLL_BUDGET <= MLX5X_NUM_SPARE_EQE);

#define MLX5X_ASYNC_EQ_NENT	(256 + MLX5X_NUM_SPARE_EQE)
/* One outstanding request, as mlx5_core sizes its page-request EQ. */
#define MLX5X_PAGES_EQ_NENT	(1 + MLX5X_NUM_SPARE_EQE)
#define MLX5X_COMP_EQ_NENT	(1024 + MLX5X_NUM_SPARE_EQE)
/* Bottom-half time budget per run (mlx5 uses 2 ms). */
#define MLX5X_CQ_BH_BUDGET_US	2000
/*
 * Completion notifications one interrupt delivers itself before the rest
 * go to the bottom half: a waiter woken at once, a bound on the time
 * spent in hard-IRQ context when many CQs report together.
 */
#define MLX5X_CQ_IRQ_DIRECT	8

void mlx5x_eq_ring_init(struct mlx5x_ring *ring);
struct mlx5x_eqe *mlx5x_eq_ring_peek(const struct mlx5x_ring *ring);
u32 mlx5x_eq_doorbell(u8 eqn, u32 ci);
u8 mlx5x_eq_log_nent(unsigned int nent, u8 log_max_eq_sz);

/**
 * struct mlx5x_eq_stats - per-EQ counters, written by its IRQ handler only
 * @irqs: interrupts taken
 * @eqes: entries consumed
 * @empty: interrupts that found no entry (spurious, or an overrun that
 *	desynchronized the owner bits)
 * @budget_hits: interrupts that stopped on the budget
 * @bogus: completion events for unknown CQs
 */
struct mlx5x_eq_stats {
	u64 irqs;
	u64 eqes;
	u64 empty;
	u64 budget_hits;
	u64 bogus;
};

/**
 * struct mlx5x_eq - one EQ
 * @ring: the entries; its counter is the consumer index
 * @eqn: number returned by CREATE_EQ
 * @vec: MSI-X vector index
 * @irqn: Linux IRQ of @vec
 * @db: UAR mapping whose EQ doorbells arm this EQ
 * @tbl: owning table
 * @cqbh: completion bottom half (completion EQs only)
 * @direct: completion notifications the running interrupt may still
 *	deliver itself; set and used by the IRQ handler only
 * @stats: counters
 * @recover_lock: serializes polls of the ring outside the IRQ handler
 *	(async EQ: the command engine's missed-interrupt recovery)
 * @name: IRQ name shown in /proc/interrupts
 */
struct mlx5x_eq {
	struct mlx5x_ring ring;
	u8 eqn;
	u16 vec;
	int irqn;
	void __iomem *db;
	struct mlx5x_eq_table *tbl;
	struct mlx5x_cq_bh cqbh;
	unsigned int direct;
	struct mlx5x_eq_stats stats;
	struct mutex recover_lock; /* ring polls outside the IRQ handler */
	char name[48];
};

/**
 * struct mlx5x_eq_events - where asynchronous events go (ib events later)
 * @port_change: a PORT_CHANGE EQE; hard-IRQ context
 * @qp_event: a QP/SRQ async EQE (type, QP or SRQ number); hard-IRQ context
 * @ctx: argument of the callbacks
 */
struct mlx5x_eq_events {
	void (*port_change)(void *ctx, u8 port, u8 sub_type);
	void (*qp_event)(void *ctx, u8 type, u32 num);
	void *ctx;
};

/**
 * struct mlx5x_eq_table - all EQs of a function
 * @pdev: PCI function (MSI-X, IRQ names, DMA)
 * @cmd: command engine (switched to events once the async EQ is armed)
 * @pages: receives PAGE_REQUEST events
 * @cqs: resolves completion and CQ error events
 * @uar: kernel UAR for the EQ doorbells
 * @events: async event consumers, may be NULL
 * @async: the async EQ (vector 0)
 * @pages_eq: PAGE_REQUEST events only (vector 0, polled by the async EQ's
 *	handler): a storm of requests cannot overrun the EQ that carries
 *	command completions
 * @pages_eq_live: @pages_eq exists; read by the vector 0 handler
 * @comp: completion EQs (vectors 1..@ncomp)
 * @ncomp: number of completion EQs (= num_comp_vectors)
 * @nvec: MSI-X vectors allocated
 */
struct mlx5x_eq_table {
	struct pci_dev *pdev;
	struct mlx5x_cmd *cmd;
	struct mlx5x_pages *pages;
	struct mlx5x_cq_table *cqs;
	struct mlx5x_uar *uar;
	const struct mlx5x_eq_events *events;
	struct mlx5x_eq async;
	struct mlx5x_eq pages_eq;
	bool pages_eq_live;
	struct mlx5x_eq *comp;
	unsigned int ncomp;
	unsigned int nvec;
};

int mlx5x_eq_table_create(struct mlx5x_eq_table *tbl, unsigned int max_eqs,
			  u8 log_max_eq_sz);
void mlx5x_eq_table_destroy(struct mlx5x_eq_table *tbl);

#endif /* MLX5X_EQ_H */
