// SPDX-License-Identifier: GPL-2.0-only
/*
 * CQ table and completion delivery.
 *
 * The completion EQ's interrupt handler looks each CQ number up (taking a
 * reference) and delivers the notification itself while the EQ's bottom
 * half is idle and the interrupt's direct budget lasts: a lone event, the
 * usual case of a process waiting on its completion channel, wakes its
 * waiter with no bottom-half hop (a hop softirq load defers to ksoftirqd)
 * and before the interrupt's EQ doorbell write.  Anything beyond goes to
 * the bottom half: the CQ is queued on its EQ's pending list; a CQ
 * already queued is not queued twice, so a burst of EQEs for one CQ
 * costs one notification.  The bottom half is scheduled only when the
 * list goes from empty to non-empty: while it is queued or running, new
 * CQs just join the list.  A run delivers notifications until its time
 * budget is spent, puts the rest back at the head of the list and
 * schedules itself again, so one busy EQ cannot monopolize the CPU.
 */
#include <linux/interrupt.h>
#include <linux/jiffies.h>

#include "cq_table.h"
#include "mlx5x_trace.h"

void mlx5x_cq_table_init(struct mlx5x_cq_table *tbl)
{
	mlx5x_res_table_init(&tbl->res);
}

void mlx5x_cq_table_destroy(struct mlx5x_cq_table *tbl)
{
	mlx5x_res_table_destroy(&tbl->res);
}

/* Publish @cq; the table owns the initial reference. */
int mlx5x_cq_table_insert(struct mlx5x_cq_table *tbl,
			  struct mlx5x_core_cq *cq)
{
	INIT_LIST_HEAD(&cq->bh_node);
	return mlx5x_res_insert(&tbl->res, cq->cqn, &cq->res);
}

/* First step of destroy: no new lookup can find @cq after this. */
void mlx5x_cq_table_remove(struct mlx5x_cq_table *tbl,
			   struct mlx5x_core_cq *cq)
{
	mlx5x_res_remove(&tbl->res, cq->cqn);
}

/*
 * Any context.  Return: the CQ with a reference (drop it with
 * mlx5x_cq_put()), or NULL.
 */
struct mlx5x_core_cq *mlx5x_cq_table_get(struct mlx5x_cq_table *tbl, u32 cqn)
{
	struct mlx5x_res *res = mlx5x_res_get(&tbl->res, cqn);

	return res ? container_of(res, struct mlx5x_core_cq, res) : NULL;
}

void mlx5x_cq_put(struct mlx5x_core_cq *cq)
{
	mlx5x_res_put(&cq->res);
}

static void cq_bh_kick(struct mlx5x_cq_bh *cqbh)
{
	mlx5x_bh_schedule(&cqbh->bh);
}

static void cq_bh_fn(struct mlx5x_bh *bh)
{
	mlx5x_cq_bh_run(container_of(bh, struct mlx5x_cq_bh, bh));
}

/* @budget_us: time budget of one run. */
void mlx5x_cq_bh_init(struct mlx5x_cq_bh *cqbh, unsigned int budget_us)
{
	spin_lock_init(&cqbh->lock);
	INIT_LIST_HEAD(&cqbh->pending);
	mlx5x_bh_init(&cqbh->bh, cq_bh_fn);
	cqbh->budget = usecs_to_jiffies(budget_us);
	cqbh->kick = cq_bh_kick;
	cqbh->running = false;
	cqbh->runs = 0;
	cqbh->resched = 0;
	cqbh->direct = 0;
}

/* After the EQ's IRQ is freed: nothing can queue any more. */
void mlx5x_cq_bh_cleanup(struct mlx5x_cq_bh *cqbh)
{
	mlx5x_bh_kill(&cqbh->bh);
	WARN_ON(!list_empty(&cqbh->pending));
}

/**
 * mlx5x_cq_bh_add() - queue a notification for @cq
 * @cqbh: bottom half of the EQ
 * @cq: CQ with a reference from mlx5x_cq_table_get(), consumed here
 *
 * Hard-IRQ context.  Schedules the bottom half only on the empty to
 * non-empty transition of the pending list.
 */
void mlx5x_cq_bh_add(struct mlx5x_cq_bh *cqbh, struct mlx5x_core_cq *cq)
{
	bool queued = false, kick = false;
	unsigned long flags;

	spin_lock_irqsave(&cqbh->lock, flags);
	if (list_empty(&cq->bh_node)) {
		kick = list_empty(&cqbh->pending);
		list_add_tail(&cq->bh_node, &cqbh->pending);
		queued = true;
	}
	spin_unlock_irqrestore(&cqbh->lock, flags);

	/* Already queued: that entry's reference covers this event too. */
	if (!queued)
		mlx5x_cq_put(cq);
	if (kick)
		cqbh->kick(cqbh);
}

/* The CQ's handler, traced alike from the interrupt and the bottom half. */
static void cq_notify(struct mlx5x_core_cq *cq)
{
	trace_mlx5x_cq_notify(cq->cqn);
	cq->comp(cq);
}

/* Nothing queued and no run under way: a direct call overtakes nobody. */
static bool cq_bh_idle(struct mlx5x_cq_bh *cqbh)
{
	unsigned long flags;
	bool idle;

	spin_lock_irqsave(&cqbh->lock, flags);
	idle = !cqbh->running && list_empty(&cqbh->pending);
	spin_unlock_irqrestore(&cqbh->lock, flags);
	return idle;
}

/**
 * mlx5x_cq_irq_notify() - deliver a notification from the EQ interrupt
 * @cqbh: bottom half of the EQ
 * @cq: CQ with a reference from mlx5x_cq_table_get(), consumed here
 * @direct: notifications this interrupt may still deliver itself;
 *	decremented for each it does
 *
 * Hard-IRQ context, the EQ's own handler: the only one that queues on
 * @cqbh, so the bottom half found idle stays idle during the call.  Only
 * an idle bottom half lets the handler run here: a CQ queued or being
 * delivered there is never overtaken nor notified twice at once.
 */
void mlx5x_cq_irq_notify(struct mlx5x_cq_bh *cqbh, struct mlx5x_core_cq *cq,
			 unsigned int *direct)
{
	if (!*direct || !cq_bh_idle(cqbh)) {
		mlx5x_cq_bh_add(cqbh, cq);
		return;
	}
	(*direct)--;
	cqbh->direct++;
	cq_notify(cq);
	mlx5x_cq_put(cq);
}

static struct mlx5x_core_cq *cq_bh_next(struct mlx5x_cq_bh *cqbh,
					struct list_head *batch)
{
	struct mlx5x_core_cq *cq;
	unsigned long flags;

	/*
	 * Unlink before the handler runs: an event arriving from now on
	 * queues the CQ again instead of being folded into this call.
	 */
	spin_lock_irqsave(&cqbh->lock, flags);
	cq = list_first_entry_or_null(batch, struct mlx5x_core_cq, bh_node);
	if (cq)
		list_del_init(&cq->bh_node);
	spin_unlock_irqrestore(&cqbh->lock, flags);
	return cq;
}

/**
 * mlx5x_cq_bh_run() - deliver queued notifications within the budget
 * @cqbh: bottom half
 *
 * Bottom-half context (or a test).  Return: true if CQs were left for
 * another run.
 */
bool mlx5x_cq_bh_run(struct mlx5x_cq_bh *cqbh)
{
	unsigned long end = jiffies + cqbh->budget;
	bool more, kick = false;
	struct mlx5x_core_cq *cq;
	unsigned long flags;
	LIST_HEAD(batch);

	spin_lock_irqsave(&cqbh->lock, flags);
	list_splice_init(&cqbh->pending, &batch);
	cqbh->running = true;
	spin_unlock_irqrestore(&cqbh->lock, flags);
	cqbh->runs++;

	while ((cq = cq_bh_next(cqbh, &batch))) {
		cq_notify(cq);
		mlx5x_cq_put(cq);
		if (time_after_eq(jiffies, end))
			break;
	}

	/* Leftovers go back in front; kick if nobody else will. */
	spin_lock_irqsave(&cqbh->lock, flags);
	more = !list_empty(&batch);
	if (more) {
		kick = list_empty(&cqbh->pending);
		list_splice(&batch, &cqbh->pending);
	}
	cqbh->running = false;
	spin_unlock_irqrestore(&cqbh->lock, flags);
	if (more)
		cqbh->resched++;
	if (kick)
		cqbh->kick(cqbh);
	return more;
}

/* Drop @cq's queued notification, if any (destroy path). */
void mlx5x_cq_bh_cancel(struct mlx5x_cq_bh *cqbh, struct mlx5x_core_cq *cq)
{
	bool dropped = false;
	unsigned long flags;

	spin_lock_irqsave(&cqbh->lock, flags);
	if (!list_empty(&cq->bh_node)) {
		list_del_init(&cq->bh_node);
		dropped = true;
	}
	spin_unlock_irqrestore(&cqbh->lock, flags);
	if (dropped)
		mlx5x_cq_put(cq);
}

/**
 * mlx5x_cq_quiesce() - last step of destroy, after DESTROY_CQ
 * @cq: a CQ already removed from its table
 *
 * Waits out the EQ interrupt handler (it may hold a reference from a
 * lookup that raced with the removal), drops a notification still
 * queued, and waits until a handler still running on @cq returns.
 * Sleeps.  @cq may be freed afterwards.
 */
void mlx5x_cq_quiesce(struct mlx5x_core_cq *cq)
{
	might_sleep();
	if (cq->irqn >= 0)
		synchronize_irq(cq->irqn);
	if (cq->bh)
		mlx5x_cq_bh_cancel(cq->bh, cq);
	mlx5x_res_release(&cq->res);
}
