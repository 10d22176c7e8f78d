/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HCA bring-up: the probe stages from the command queue to "ready", and
 * the state they create.  main.c lists the stages; each has its undo.
 */
#ifndef MLX5X_HCA_H
#define MLX5X_HCA_H

#include <linux/ktime.h>
#include <linux/types.h>

#include "cmd.h"
#include "cq_table.h"
#include "eq.h"
#include "fw_cmds.h"
#include "health.h"
#include "pages.h"
#include "uar.h"

struct mlx5x_dev;

/**
 * struct mlx5x_hca_events - what the HCA core reports to the layer above
 * @port_change: a PORT_CHANGE EQE (port, sub_type); hard-IRQ context
 * @qp_event: a QP or SRQ async EQE (EQE type, QP or SRQ number);
 *	hard-IRQ context
 * @fatal: the function entered the error state (health poll): its DMA is
 *	stopped and commands complete locally; process context
 *
 * Every callback is given the listener's @ctx and may not sleep (it runs
 * under rcu_read_lock()).
 */
struct mlx5x_hca_events {
	void (*port_change)(void *ctx, u8 port, u8 sub_type);
	void (*qp_event)(void *ctx, u8 type, u32 num);
	void (*fatal)(void *ctx);
};

/**
 * struct mlx5x_hca_listener - a consumer of the HCA's events
 * @ops: its callbacks
 * @ctx: their argument
 */
struct mlx5x_hca_listener {
	const struct mlx5x_hca_events *ops;
	void *ctx;
};

/**
 * struct mlx5x_hca - everything the bring-up stages own
 * @cmd: command engine
 * @health: health poller
 * @pages: firmware page accounting
 * @caps: decoded general capabilities (current, after INIT_HCA)
 * @uar_geom: how UAR indices map onto BAR0
 * @uar: the kernel UAR (EQ doorbells)
 * @cqs: CQ number -> CQ for the event path
 * @eqs: async and completion EQs
 * @events: async event consumers handed to @eqs (the HCA core's own,
 *	which pass the events on to @listener)
 * @listener: who the events go to, NULL when nobody listens.  RCU: the
 *	event paths (async EQ interrupt, health work) read it under
 *	rcu_read_lock(); mlx5x_hca_unlisten() waits for them
 * @psid: board id from QUERY_ADAPTER
 * @vendor_id: IEEE vendor id from QUERY_ADAPTER, 0 if unknown
 * @issi: interface step sequence id in use
 * @t0: probe start, for the "ready" line
 *
 * Written only by probe and remove (serialized by the driver core);
 * the members carry their own locking.
 */
struct mlx5x_hca {
	struct mlx5x_cmd cmd;
	struct mlx5x_health health;
	struct mlx5x_pages pages;
	struct mlx5x_caps caps;
	struct mlx5x_uar_geom uar_geom;
	struct mlx5x_uar uar;
	struct mlx5x_cq_table cqs;
	struct mlx5x_eq_table eqs;
	struct mlx5x_eq_events events;
	struct mlx5x_hca_listener __rcu *listener;
	char psid[MLX5X_QUERY_ADAPTER_PSID_LEN + 1];
	u32 vendor_id;
	u16 issi;
	ktime_t t0;
};

/**
 * struct mlx5x_hca_stats - a snapshot of the HCA core's counters
 * @cmd_issued: commands handed to the device
 * @cmd_failed: commands that returned an error
 * @cmd_timeouts: commands that got no completion in time
 * @cmd_recovered: completions found by the missed-event watchdog
 * @cmd_late: completions after their command timed out
 * @cmd_stale: command events for an idle slot
 * @eq_irqs: EQ interrupts taken, all EQs
 * @eq_eqes: EQ entries consumed, all EQs
 * @eq_empty: interrupts that found no entry
 * @eq_budget_hits: interrupts that stopped on the budget
 * @eq_bogus: completion events for unknown CQs
 * @fw_pages: pages the firmware holds now
 */
struct mlx5x_hca_stats {
	u64 cmd_issued;
	u64 cmd_failed;
	u64 cmd_timeouts;
	u64 cmd_recovered;
	u64 cmd_late;
	u64 cmd_stale;
	u64 eq_irqs;
	u64 eq_eqes;
	u64 eq_empty;
	u64 eq_budget_hits;
	u64 eq_bogus;
	u64 fw_pages;
};

void mlx5x_hca_listen(struct mlx5x_hca *hca, struct mlx5x_hca_listener *l);
void mlx5x_hca_unlisten(struct mlx5x_hca *hca);
void mlx5x_hca_read_stats(struct mlx5x_dev *mdev, struct mlx5x_hca_stats *s);
int mlx5x_hca_cmdq_init(struct mlx5x_dev *mdev);
void mlx5x_hca_cmdq_fini(struct mlx5x_dev *mdev);
int mlx5x_hca_health_init(struct mlx5x_dev *mdev);
void mlx5x_hca_health_fini(struct mlx5x_dev *mdev);
int mlx5x_hca_enable(struct mlx5x_dev *mdev);
void mlx5x_hca_disable(struct mlx5x_dev *mdev);
int mlx5x_hca_issi(struct mlx5x_dev *mdev);
int mlx5x_hca_boot_pages(struct mlx5x_dev *mdev);
void mlx5x_hca_reclaim_pages(struct mlx5x_dev *mdev);
int mlx5x_hca_set_caps(struct mlx5x_dev *mdev);
int mlx5x_hca_init_pages(struct mlx5x_dev *mdev);
int mlx5x_hca_init(struct mlx5x_dev *mdev);
void mlx5x_hca_teardown(struct mlx5x_dev *mdev);
int mlx5x_hca_query(struct mlx5x_dev *mdev);
int mlx5x_hca_uar_init(struct mlx5x_dev *mdev);
void mlx5x_hca_uar_fini(struct mlx5x_dev *mdev);
int mlx5x_hca_eqs_init(struct mlx5x_dev *mdev);
void mlx5x_hca_eqs_fini(struct mlx5x_dev *mdev);
int mlx5x_hca_ready(struct mlx5x_dev *mdev);

#endif /* MLX5X_HCA_H */
