// SPDX-License-Identifier: GPL-2.0-only
/*
 * Event queues, MSI-X vectors and their interrupt handlers.
 *
 * Vector 0 carries the async EQ: command completions (once the command
 * engine is in events mode), port changes and CQ/QP errors; and, polled
 * by the same handler, the page-request EQ, kept apart as mlx5_core does
 * so that a burst of page requests cannot overrun the EQ that command
 * completions need.  Vectors 1..n carry one completion EQ each, n = min(online
 * CPUs, vectors - 1, EQs - 1), spread over the CPUs of the device's node.
 *
 * Consumer: an entry is software-owned when its owner bit equals the
 * parity of the pass the consumer index is on (the device writes 0 on the
 * first pass).  The handler consumes at most MLX5X_EQ_POLL_BUDGET entries,
 * then writes the consumer index and re-arms; an armed EQ that still holds
 * entries interrupts again at once, so the budget only bounds the time
 * spent per interrupt.  Because the budget is below the number of spare
 * entries the CI the device sees never lags enough to overrun the ring.
 */
#include <linux/cpumask.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/log2.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "cmd.h"
#include "eq.h"
#include "fw_cmds.h"
#include "mlx5x_trace.h"
#include "pages.h"
#include "uar.h"

#define MLX5X_ASYNC_EVENT_MASK					\
	(BIT_ULL(MLX5X_EVENT_CMD) |				\
	 BIT_ULL(MLX5X_EVENT_PORT_CHANGE) |			\
	 BIT_ULL(MLX5X_EVENT_CQ_ERROR) |			\
	 BIT_ULL(MLX5X_EVENT_PATH_MIG) |			\
	 BIT_ULL(MLX5X_EVENT_COMM_EST) |			\
	 BIT_ULL(MLX5X_EVENT_SQ_DRAINED) |			\
	 BIT_ULL(MLX5X_EVENT_WQ_CATAS_ERROR) |			\
	 BIT_ULL(MLX5X_EVENT_PATH_MIG_FAILED) |			\
	 BIT_ULL(MLX5X_EVENT_WQ_INVAL_REQ_ERROR) |		\
	 BIT_ULL(MLX5X_EVENT_WQ_ACCESS_ERROR) |			\
	 BIT_ULL(MLX5X_EVENT_SRQ_CATAS_ERROR) |			\
	 BIT_ULL(MLX5X_EVENT_SRQ_LAST_WQE) |			\
	 BIT_ULL(MLX5X_EVENT_SRQ_RQ_LIMIT))

/*
 * INTERNAL_ERROR (0x8) is not asked for, as mlx5_core does not: a
 * firmware failure is found by the health poll (syndrome with the
 * recover-flow request), which reports it once.
 */

/* Consecutive empty interrupts before the overrun warning. */
#define MLX5X_EQ_EMPTY_WARN	8

/* Every entry device-owned: owner 1 is "not written" on the first pass. */
void mlx5x_eq_ring_init(struct mlx5x_ring *ring)
{
	struct mlx5x_eqe *eqe = ring->buf;
	u32 i;

	for (i = 0; i < BIT(ring->log_n); i++)
		eqe[i].owner = 1;
}

/**
 * mlx5x_eq_ring_peek() - the entry at the consumer index, if software owns it
 * @ring: the EQ's ring
 *
 * The caller must dma_rmb() before reading anything else of the entry.
 */
struct mlx5x_eqe *mlx5x_eq_ring_peek(const struct mlx5x_ring *ring)
{
	struct mlx5x_eqe *eqe = mlx5x_ring_entry(ring, ring->ctr);

	return mlx5x_ring_sw_owns(ring, READ_ONCE(eqe->owner)) ? eqe : NULL;
}

/* Doorbell word: EQ number in 31:24, consumer index in 23:0. */
u32 mlx5x_eq_doorbell(u8 eqn, u32 ci)
{
	return FIELD_PREP(MLX5X_EQ_DB_EQN_MASK, eqn) |
	       FIELD_PREP(MLX5X_EQ_DB_CI_MASK, ci & MLX5X_EQ_DB_CI_MASK);
}

/* Ring size for @nent entries (spare included), within the device limit. */
u8 mlx5x_eq_log_nent(unsigned int nent, u8 log_max_eq_sz)
{
	u8 log = order_base_2(nent);

	if (log_max_eq_sz && log > log_max_eq_sz)
		log = log_max_eq_sz;
	return log;
}

static struct device *eq_dev(struct mlx5x_eq *eq)
{
	return &eq->tbl->pdev->dev;
}

/* Publish the consumer index and ask for the next interrupt. */
static void eq_arm(struct mlx5x_eq *eq)
{
	iowrite32be(mlx5x_eq_doorbell(eq->eqn, eq->ring.ctr),
		    eq->db + MLX5X_UAR_EQ_ARM_OFF);
}

static int eq_poll(struct mlx5x_eq *eq, unsigned int budget,
		   void (*handle)(struct mlx5x_eq *eq,
				  const struct mlx5x_eqe *eqe))
{
	struct mlx5x_eqe *eqe;
	unsigned int n = 0;

	while (n < budget && (eqe = mlx5x_eq_ring_peek(&eq->ring))) {
		/* Read the entry only after seeing its owner bit. */
		dma_rmb();
		trace_mlx5x_eqe(eq_dev(eq), eq->eqn, eqe->type, eqe->sub_type);
		handle(eq, eqe);
		eq->ring.ctr++;
		n++;
	}
	return n;
}

/*
 * Bookkeeping after a pass: overrun and budget diagnostics.  @any: entries
 * found by this interrupt on every EQ of the vector.
 */
static void eq_account(struct mlx5x_eq *eq, unsigned int n, unsigned int any)
{
	eq->stats.irqs++;
	eq->stats.eqes += n;
	if (n == MLX5X_EQ_POLL_BUDGET)
		eq->stats.budget_hits++;
	if (any) {
		eq->stats.empty = 0;
		return;
	}
	/*
	 * An armed EQ interrupts only after writing an entry.  Repeated
	 * interrupts with nothing at the consumer index mean the owner
	 * bits no longer match our pass: the ring was overrun.
	 */
	if (++eq->stats.empty == MLX5X_EQ_EMPTY_WARN)
		dev_err_ratelimited(eq_dev(eq),
				    "EQ %u: %u interrupts without an entry at ci %u, overrun suspected\n",
				    eq->eqn, MLX5X_EQ_EMPTY_WARN, eq->ring.ctr);
}

static void eq_port_change(struct mlx5x_eq *eq, const struct mlx5x_eqe *eqe)
{
	const struct mlx5x_eq_events *ev = eq->tbl->events;
	u8 port = MLX5X_GET(eqe, MLX5X_EQE_PORT);

	dev_info_ratelimited(eq_dev(eq), "port %u: change event, sub type %u\n",
			     port, eqe->sub_type);
	if (ev && ev->port_change)
		ev->port_change(ev->ctx, port, eqe->sub_type);
}

static void eq_cq_error(struct mlx5x_eq *eq, const struct mlx5x_eqe *eqe)
{
	u32 cqn = MLX5X_GET(eqe, MLX5X_EQE_CQ_ERR_CQN);
	u8 synd = MLX5X_GET(eqe, MLX5X_EQE_CQ_ERR_SYND);
	struct mlx5x_core_cq *cq;

	dev_err_ratelimited(eq_dev(eq), "CQ error on CQN 0x%x, syndrome 0x%x%s\n",
			    cqn, synd,
			    synd == MLX5X_CQ_ERR_SYND_OVERRUN ? " (overrun)" : "");
	cq = mlx5x_cq_table_get(eq->tbl->cqs, cqn);
	if (!cq)
		return;
	if (cq->event)
		cq->event(cq, eqe->type, synd);
	mlx5x_cq_put(cq);
}

static void eq_async_eqe(struct mlx5x_eq *eq, const struct mlx5x_eqe *eqe)
{
	struct mlx5x_eq_table *tbl = eq->tbl;

	switch (eqe->type) {
	case MLX5X_EVENT_CMD:
		mlx5x_cmd_comp_handler(tbl->cmd,
				       MLX5X_GET(eqe, MLX5X_EQE_CMD_VECTOR));
		break;
	case MLX5X_EVENT_PAGE_REQUEST:
		mlx5x_pages_request_eqe(tbl->pages, eqe);
		break;
	case MLX5X_EVENT_PORT_CHANGE:
		eq_port_change(eq, eqe);
		break;
	case MLX5X_EVENT_CQ_ERROR:
		eq_cq_error(eq, eqe);
		break;
	case MLX5X_EVENT_PATH_MIG:
	case MLX5X_EVENT_COMM_EST:
	case MLX5X_EVENT_SQ_DRAINED:
	case MLX5X_EVENT_WQ_CATAS_ERROR:
	case MLX5X_EVENT_PATH_MIG_FAILED:
	case MLX5X_EVENT_WQ_INVAL_REQ_ERROR:
	case MLX5X_EVENT_WQ_ACCESS_ERROR:
	case MLX5X_EVENT_SRQ_CATAS_ERROR:
	case MLX5X_EVENT_SRQ_LAST_WQE:
	case MLX5X_EVENT_SRQ_RQ_LIMIT:
		dev_dbg_ratelimited(eq_dev(eq), "QP/SRQ event 0x%x on 0x%x\n",
				    eqe->type,
				    MLX5X_GET(eqe, MLX5X_EQE_QP_SRQ_NUM));
		if (tbl->events && tbl->events->qp_event)
			tbl->events->qp_event(tbl->events->ctx, eqe->type,
					      MLX5X_GET(eqe, MLX5X_EQE_QP_SRQ_NUM));
		break;
	default:
		dev_warn_ratelimited(eq_dev(eq), "unexpected event type 0x%x on the async EQ\n",
				     eqe->type);
		break;
	}
}

static void eq_comp_eqe(struct mlx5x_eq *eq, const struct mlx5x_eqe *eqe)
{
	u32 cqn = MLX5X_GET(eqe, MLX5X_EQE_COMP_CQN);
	struct mlx5x_core_cq *cq;

	if (unlikely(eqe->type != MLX5X_EVENT_COMP)) {
		dev_warn_ratelimited(eq_dev(eq), "EQ %u: event type 0x%x on a completion EQ\n",
				     eq->eqn, eqe->type);
		return;
	}
	cq = mlx5x_cq_table_get(eq->tbl->cqs, cqn);
	if (unlikely(!cq)) {
		eq->stats.bogus++;
		dev_dbg_ratelimited(eq_dev(eq), "completion event for bogus CQ 0x%x\n",
				    cqn);
		return;
	}
	/* The reference goes with the notification. */
	mlx5x_cq_irq_notify(cq->bh ?: &eq->cqbh, cq, &eq->direct);
}

/*
 * Vector 0: the async EQ and, once it exists, the page-request EQ.  An
 * EQ is disarmed only by the interrupt it raises, after writing the
 * entry that raised it (the entry is visible before the interrupt), so
 * a page-request EQ found empty is still armed: re-arming it would cost
 * every command completion one more doorbell write for nothing.  One
 * that fires after the look raises vector 0 again.
 */
static irqreturn_t eq_async_irq(int irq, void *data)
{
	struct mlx5x_eq *eq = data;
	struct mlx5x_eq_table *tbl = eq->tbl;
	unsigned int n, np = 0;

	n = eq_poll(eq, MLX5X_EQ_POLL_BUDGET, eq_async_eqe);
	if (READ_ONCE(tbl->pages_eq_live)) {
		np = eq_poll(&tbl->pages_eq, MLX5X_EQ_POLL_BUDGET, eq_async_eqe);
		eq_account(&tbl->pages_eq, np, n + np);
		if (np)
			eq_arm(&tbl->pages_eq);
	}
	eq_account(eq, n, n + np);
	eq_arm(eq);
	return IRQ_HANDLED;
}

static irqreturn_t eq_comp_irq(int irq, void *data)
{
	struct mlx5x_eq *eq = data;
	unsigned int n;

	eq->direct = MLX5X_CQ_IRQ_DIRECT;
	n = eq_poll(eq, MLX5X_EQ_POLL_BUDGET, eq_comp_eqe);

	eq_account(eq, n, n);
	eq_arm(eq);
	return IRQ_HANDLED;
}

/*
 * Missed-interrupt check for the command engine: with the IRQ masked
 * (and any running handler finished), consume what the async EQ holds.
 * disable_irq() only keeps the handler out; two commands timing out
 * together (or one and the watchdog) would still poll the ring at once,
 * so the pollers take turns on recover_lock.
 */
static int eq_async_recover(void *ctx)
{
	struct mlx5x_eq *eq = ctx;
	int n;

	mutex_lock(&eq->recover_lock);
	disable_irq(eq->irqn);
	n = eq_poll(eq, BIT(eq->ring.log_n), eq_async_eqe);
	eq->stats.eqes += n;
	eq_arm(eq);
	enable_irq(eq->irqn);
	mutex_unlock(&eq->recover_lock);
	return n;
}

static int eq_alloc_ring(struct mlx5x_eq *eq, u8 log_nent)
{
	int err;

	err = mlx5x_ring_alloc(eq_dev(eq), &eq->ring, log_nent,
			       MLX5X_EQE_LOG_LEN);
	if (err)
		return err;
	mlx5x_eq_ring_init(&eq->ring);
	return 0;
}

/*
 * Ring, CREATE_EQ, IRQ, arm.  The device interrupts only for an armed
 * EQ, so requesting the IRQ after CREATE_EQ loses nothing.  Without a
 * @handler the EQ rides on a vector whose handler polls it (the caller
 * arms it once that handler knows it).
 */
static int eq_create(struct mlx5x_eq_table *tbl, struct mlx5x_eq *eq,
		     u8 log_nent, u64 mask, irq_handler_t handler)
{
	struct mlx5x_eq_params p = {
		.log_nent = log_nent,
		.uar = tbl->uar->index,
		.intr = eq->vec,
		.event_mask = mask,
	};
	int err;

	eq->tbl = tbl;
	eq->db = tbl->uar->map;
	eq->irqn = pci_irq_vector(tbl->pdev, eq->vec);
	if (eq->irqn < 0)
		return eq->irqn;
	err = eq_alloc_ring(eq, log_nent);
	if (err)
		return err;
	p.buf_dma = eq->ring.dma;
	err = mlx5x_fw_create_eq(tbl->cmd, &p, &eq->eqn);
	if (err)
		goto err_ring;
	if (!handler)
		return 0;
	err = request_irq(eq->irqn, handler, 0, eq->name, eq);
	if (err)
		goto err_destroy;
	eq_arm(eq);
	return 0;

err_destroy:
	mlx5x_fw_destroy_eq(tbl->cmd, eq->eqn);
err_ring:
	mlx5x_ring_free(eq_dev(eq), &eq->ring);
	return err;
}

/*
 * DESTROY_EQ stops the device; free_irq() then waits for the handler.  An
 * EQ without its own handler (@own_irq false) must be out of its
 * vector's handler already.
 */
static void eq_destroy(struct mlx5x_eq *eq, bool own_irq)
{
	int err;

	err = mlx5x_fw_destroy_eq(eq->tbl->cmd, eq->eqn);
	if (err)
		dev_warn(eq_dev(eq), "DESTROY_EQ %u failed: %d\n", eq->eqn, err);
	if (own_irq)
		free_irq(eq->irqn, eq);
	mlx5x_ring_free(eq_dev(eq), &eq->ring);
}

/* The page-request EQ, polled by the async EQ's handler on vector 0. */
static int eq_create_pages(struct mlx5x_eq_table *tbl, u8 log_max_eq_sz)
{
	struct mlx5x_eq *eq = &tbl->pages_eq;
	int err;

	eq->vec = 0;
	err = eq_create(tbl, eq, mlx5x_eq_log_nent(MLX5X_PAGES_EQ_NENT,
						   log_max_eq_sz),
			BIT_ULL(MLX5X_EVENT_PAGE_REQUEST), NULL);
	if (err)
		return err;
	WRITE_ONCE(tbl->pages_eq_live, true);
	eq_arm(eq);
	return 0;
}

static void eq_destroy_pages(struct mlx5x_eq_table *tbl)
{
	/* out of the vector 0 handler before the ring goes */
	WRITE_ONCE(tbl->pages_eq_live, false);
	synchronize_irq(tbl->pages_eq.irqn);
	eq_destroy(&tbl->pages_eq, false);
}

static int eq_create_async(struct mlx5x_eq_table *tbl, u8 log_max_eq_sz)
{
	struct mlx5x_eq *eq = &tbl->async;
	int err;

	eq->vec = 0;
	mutex_init(&eq->recover_lock);
	snprintf(eq->name, sizeof(eq->name), "mlx5x_async@pci:%s",
		 pci_name(tbl->pdev));
	/* Created while the engine still polls: its own CREATE_EQ too. */
	err = eq_create(tbl, eq, mlx5x_eq_log_nent(MLX5X_ASYNC_EQ_NENT,
						   log_max_eq_sz),
			MLX5X_ASYNC_EVENT_MASK, eq_async_irq);
	if (err)
		return err;
	mlx5x_cmd_use_events(tbl->cmd, eq_async_recover, eq);
	err = eq_create_pages(tbl, log_max_eq_sz);
	if (err) {
		mlx5x_cmd_use_polling(tbl->cmd);
		eq_destroy(eq, true);
	}
	return err;
}

static void eq_destroy_async(struct mlx5x_eq_table *tbl)
{
	/* Page requests need commands; CMD events need the async EQ. */
	mlx5x_pages_stop_requests(tbl->pages);
	eq_destroy_pages(tbl);
	mlx5x_cmd_use_polling(tbl->cmd);
	eq_destroy(&tbl->async, true);
}

static void eq_set_affinity(struct mlx5x_eq *eq, unsigned int i)
{
	int node = dev_to_node(&eq->tbl->pdev->dev);
	unsigned int cpu = cpumask_local_spread(i, node);
	int err;

	err = irq_set_affinity_and_hint(eq->irqn, cpumask_of(cpu));
	if (err)
		dev_dbg(eq_dev(eq), "comp vector %u: affinity to CPU %u: %d\n",
			i, cpu, err);
}

static int eq_create_comp(struct mlx5x_eq_table *tbl, unsigned int i,
			  u8 log_max_eq_sz)
{
	struct mlx5x_eq *eq = &tbl->comp[i];
	int err;

	eq->vec = i + 1;
	snprintf(eq->name, sizeof(eq->name), "mlx5x_comp%u@pci:%s", i,
		 pci_name(tbl->pdev));
	mlx5x_cq_bh_init(&eq->cqbh, MLX5X_CQ_BH_BUDGET_US);
	/* Completion events are not masked: the mask stays 0. */
	err = eq_create(tbl, eq, mlx5x_eq_log_nent(MLX5X_COMP_EQ_NENT,
						   log_max_eq_sz),
			0, eq_comp_irq);
	if (err)
		return err;
	eq_set_affinity(eq, i);
	return 0;
}

static void eq_destroy_comp(struct mlx5x_eq *eq)
{
	irq_update_affinity_hint(eq->irqn, NULL);
	eq_destroy(eq, true);
	mlx5x_cq_bh_cleanup(&eq->cqbh);
}

static void eq_destroy_comps(struct mlx5x_eq_table *tbl, unsigned int n)
{
	while (n--)
		eq_destroy_comp(&tbl->comp[n]);
	kfree(tbl->comp);
	tbl->comp = NULL;
	tbl->ncomp = 0;
}

static int eq_create_comps(struct mlx5x_eq_table *tbl, unsigned int n,
			   u8 log_max_eq_sz)
{
	unsigned int i;
	int err;

	tbl->comp = kcalloc(n, sizeof(*tbl->comp), GFP_KERNEL);
	if (!tbl->comp)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		err = eq_create_comp(tbl, i, log_max_eq_sz);
		if (err) {
			eq_destroy_comps(tbl, i);
			return err;
		}
	}
	tbl->ncomp = n;
	return 0;
}

/*
 * One vector for the async and page-request EQs plus one per completion
 * EQ, bounded by CPUs and EQs.
 */
static int eq_alloc_vectors(struct mlx5x_eq_table *tbl, unsigned int max_eqs)
{
	unsigned int want;
	int nvec;

	if (max_eqs < 3) {
		dev_err(&tbl->pdev->dev, "device supports %u EQs, need 3\n",
			max_eqs);
		return -EOPNOTSUPP;
	}
	want = 1 + min(num_online_cpus(), max_eqs - 2);
	nvec = pci_alloc_irq_vectors(tbl->pdev, 2, want, PCI_IRQ_MSIX);
	if (nvec < 0) {
		dev_err(&tbl->pdev->dev, "cannot get 2..%u MSI-X vectors: %d\n",
			want, nvec);
		return nvec;
	}
	tbl->nvec = nvec;
	return 0;
}

/**
 * mlx5x_eq_table_create() - MSI-X vectors, async EQ, events mode, comp EQs
 * @tbl: table with pdev, cmd, pages, cqs and uar set
 * @max_eqs: EQs the device supports
 * @log_max_eq_sz: largest EQ the device supports (log2), 0 = no limit
 */
int mlx5x_eq_table_create(struct mlx5x_eq_table *tbl, unsigned int max_eqs,
			  u8 log_max_eq_sz)
{
	int err;

	err = eq_alloc_vectors(tbl, max_eqs);
	if (err)
		return err;
	err = eq_create_async(tbl, log_max_eq_sz);
	if (err)
		goto err_vectors;
	err = eq_create_comps(tbl, tbl->nvec - 1, log_max_eq_sz);
	if (err)
		goto err_async;
	return 0;

err_async:
	eq_destroy_async(tbl);
err_vectors:
	pci_free_irq_vectors(tbl->pdev);
	return err;
}

void mlx5x_eq_table_destroy(struct mlx5x_eq_table *tbl)
{
	eq_destroy_comps(tbl, tbl->ncomp);
	eq_destroy_async(tbl);
	pci_free_irq_vectors(tbl->pdev);
}
