// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the CQ table and the completion bottom half (suite
 * mlx5x_cq_table), driven with fake CQs, and the table side of a destroy
 * the device may refuse (mlx5x_res_destroy(), shared with QPs and
 * SRQs).  The bottom half's "kick" is
 * replaced by a counter and runs are made by calling mlx5x_cq_bh_run()
 * directly, so every interleaving is deterministic.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "../cq_table.h"

struct fake_cq {
	struct mlx5x_core_cq mcq;
	unsigned int comps;
	struct mlx5x_cq_bh *requeue_on;	/* re-add itself from comp */
	unsigned int *irq_during_comp;	/* an IRQ for the next CQ from comp */
	struct mlx5x_cq_table *tbl;
};

#define MLX5X_TEST_DIRECT	4

/* A budget run never exhausts (jiffies + LONG_MAX is never reached). */
#define UNLIMITED	LONG_MAX

static unsigned int kicks;

static void count_kick(struct mlx5x_cq_bh *cqbh)
{
	kicks++;
}

static void fake_comp(struct mlx5x_core_cq *mcq)
{
	struct fake_cq *cq = container_of(mcq, struct fake_cq, mcq);

	cq->comps++;
	if (cq->irq_during_comp) {
		unsigned int *direct = cq->irq_during_comp;
		struct mlx5x_core_cq *next;

		cq->irq_during_comp = NULL;
		next = mlx5x_cq_table_get(cq->tbl, mcq->cqn + 1);
		if (next)
			mlx5x_cq_irq_notify(mcq->bh, next, direct);
	}
	if (cq->requeue_on) {
		struct mlx5x_core_cq *again;

		cq->requeue_on = NULL;
		again = mlx5x_cq_table_get(cq->tbl, mcq->cqn);
		if (again)
			mlx5x_cq_bh_add(mcq->bh, again);
	}
}

struct env {
	struct mlx5x_cq_table tbl;
	struct mlx5x_cq_bh bh;
	struct fake_cq cq[3];
};

static struct env *env_init(struct kunit *test, unsigned long budget)
{
	struct env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, e);
	mlx5x_cq_table_init(&e->tbl);
	mlx5x_cq_bh_init(&e->bh, 2000);
	e->bh.budget = budget;
	e->bh.kick = count_kick;
	kicks = 0;
	for (i = 0; i < ARRAY_SIZE(e->cq); i++) {
		e->cq[i].mcq.cqn = 0x40 + i;
		e->cq[i].mcq.bh = &e->bh;
		e->cq[i].mcq.irqn = -1;
		e->cq[i].mcq.comp = fake_comp;
		e->cq[i].tbl = &e->tbl;
		KUNIT_ASSERT_EQ(test, mlx5x_cq_table_insert(&e->tbl,
							    &e->cq[i].mcq), 0);
	}
	return e;
}

static void env_fini(struct env *e)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(e->cq); i++) {
		mlx5x_cq_table_remove(&e->tbl, &e->cq[i].mcq);
		mlx5x_cq_quiesce(&e->cq[i].mcq);
	}
	mlx5x_cq_table_destroy(&e->tbl);
}

/* What the EQ interrupt handler does for one completion EQE. */
static bool eqe(struct env *e, u32 cqn)
{
	struct mlx5x_core_cq *cq = mlx5x_cq_table_get(&e->tbl, cqn);

	if (!cq)
		return false;
	mlx5x_cq_bh_add(cq->bh, cq);
	return true;
}

/* What the EQ interrupt handler does, with @direct notifications left. */
static bool eqe_irq(struct env *e, u32 cqn, unsigned int *direct)
{
	struct mlx5x_core_cq *cq = mlx5x_cq_table_get(&e->tbl, cqn);

	if (!cq)
		return false;
	mlx5x_cq_irq_notify(cq->bh, cq, direct);
	return true;
}

static void lookup_takes_reference(struct kunit *test)
{
	struct env *e = env_init(test, UNLIMITED);
	struct mlx5x_core_cq *cq, *dup;

	cq = mlx5x_cq_table_get(&e->tbl, 0x41);
	KUNIT_ASSERT_PTR_EQ(test, cq, &e->cq[1].mcq);
	KUNIT_EXPECT_EQ(test, refcount_read(&cq->res.refcount), 2);
	mlx5x_cq_put(cq);
	KUNIT_EXPECT_EQ(test, refcount_read(&cq->res.refcount), 1);
	KUNIT_EXPECT_NULL(test, mlx5x_cq_table_get(&e->tbl, 0x99));
	/* A CQ number can be published only once. */
	dup = kunit_kzalloc(test, sizeof(*dup), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dup);
	dup->cqn = 0x41;
	KUNIT_EXPECT_EQ(test, mlx5x_cq_table_insert(&e->tbl, dup), -EBUSY);
	KUNIT_EXPECT_PTR_EQ(test, mlx5x_cq_table_get(&e->tbl, 0x41), cq);
	mlx5x_cq_put(cq);
	env_fini(e);
}

static void kick_only_on_empty_to_nonempty(struct kunit *test)
{
	struct env *e = env_init(test, UNLIMITED);

	KUNIT_EXPECT_TRUE(test, eqe(e, 0x40));
	KUNIT_EXPECT_EQ(test, kicks, 1);
	KUNIT_EXPECT_TRUE(test, eqe(e, 0x41));
	KUNIT_EXPECT_TRUE(test, eqe(e, 0x42));
	KUNIT_EXPECT_EQ(test, kicks, 1);
	KUNIT_EXPECT_FALSE(test, mlx5x_cq_bh_run(&e->bh));
	KUNIT_EXPECT_EQ(test, e->cq[0].comps, 1);
	KUNIT_EXPECT_EQ(test, e->cq[2].comps, 1);
	/* Empty again: the next event kicks again. */
	KUNIT_EXPECT_TRUE(test, eqe(e, 0x41));
	KUNIT_EXPECT_EQ(test, kicks, 2);
	mlx5x_cq_bh_run(&e->bh);
	KUNIT_EXPECT_EQ(test, e->cq[1].comps, 2);
	env_fini(e);
}

static void burst_for_one_cq_coalesced(struct kunit *test)
{
	struct env *e = env_init(test, UNLIMITED);
	unsigned int i;

	for (i = 0; i < 5; i++)
		eqe(e, 0x40);
	/* Queued once, holding one reference beyond the table's. */
	KUNIT_EXPECT_EQ(test, refcount_read(&e->cq[0].mcq.res.refcount), 2);
	mlx5x_cq_bh_run(&e->bh);
	KUNIT_EXPECT_EQ(test, e->cq[0].comps, 1);
	KUNIT_EXPECT_EQ(test, refcount_read(&e->cq[0].mcq.res.refcount), 1);
	env_fini(e);
}

static void budget_spreads_over_runs(struct kunit *test)
{
	struct env *e = env_init(test, 0);	/* one CQ per run */

	eqe(e, 0x40);
	eqe(e, 0x41);
	eqe(e, 0x42);
	KUNIT_EXPECT_EQ(test, kicks, 1);
	KUNIT_EXPECT_TRUE(test, mlx5x_cq_bh_run(&e->bh));
	/* Leftovers went back on an empty list: the run kicked itself. */
	KUNIT_EXPECT_EQ(test, kicks, 2);
	KUNIT_EXPECT_EQ(test, e->cq[0].comps, 1);
	KUNIT_EXPECT_EQ(test, e->cq[1].comps, 0);
	KUNIT_EXPECT_TRUE(test, mlx5x_cq_bh_run(&e->bh));
	KUNIT_EXPECT_FALSE(test, mlx5x_cq_bh_run(&e->bh));
	/* Arrival order is kept across runs. */
	KUNIT_EXPECT_EQ(test, e->cq[1].comps, 1);
	KUNIT_EXPECT_EQ(test, e->cq[2].comps, 1);
	KUNIT_EXPECT_EQ(test, e->bh.resched, 2);
	env_fini(e);
}

static void event_during_handler_requeues(struct kunit *test)
{
	struct env *e = env_init(test, UNLIMITED);

	e->cq[0].requeue_on = &e->bh;
	eqe(e, 0x40);
	/* The handler saw a new event: it must be delivered again. */
	KUNIT_EXPECT_FALSE(test, mlx5x_cq_bh_run(&e->bh));
	KUNIT_EXPECT_EQ(test, e->cq[0].comps, 1);
	KUNIT_EXPECT_EQ(test, kicks, 2);
	mlx5x_cq_bh_run(&e->bh);
	KUNIT_EXPECT_EQ(test, e->cq[0].comps, 2);
	env_fini(e);
}

static void destroy_with_event_pending(struct kunit *test)
{
	struct env *e = env_init(test, UNLIMITED);
	struct mlx5x_core_cq *cq = &e->cq[1].mcq;

	eqe(e, 0x40);
	eqe(e, 0x41);
	/* Destroy CQ 0x41 while its notification is still queued. */
	mlx5x_cq_table_remove(&e->tbl, cq);
	KUNIT_EXPECT_FALSE(test, eqe(e, 0x41));
	/* Returns (does not wait forever) once the queued reference is gone. */
	mlx5x_cq_quiesce(cq);
	KUNIT_EXPECT_EQ(test, refcount_read(&cq->res.refcount), 0);
	/* The other CQ is still delivered; the destroyed one never is. */
	mlx5x_cq_bh_run(&e->bh);
	KUNIT_EXPECT_EQ(test, e->cq[0].comps, 1);
	KUNIT_EXPECT_EQ(test, e->cq[1].comps, 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&e->bh.pending));

	mlx5x_cq_table_remove(&e->tbl, &e->cq[0].mcq);
	mlx5x_cq_quiesce(&e->cq[0].mcq);
	mlx5x_cq_table_remove(&e->tbl, &e->cq[2].mcq);
	mlx5x_cq_quiesce(&e->cq[2].mcq);
	mlx5x_cq_table_destroy(&e->tbl);
}

static void destroy_idle_cq(struct kunit *test)
{
	struct env *e = env_init(test, UNLIMITED);
	struct mlx5x_core_cq *cq = &e->cq[2].mcq;

	mlx5x_cq_table_remove(&e->tbl, cq);
	mlx5x_cq_quiesce(cq);
	KUNIT_EXPECT_EQ(test, refcount_read(&cq->res.refcount), 0);
	KUNIT_EXPECT_EQ(test, kicks, 0);
	mlx5x_cq_table_remove(&e->tbl, &e->cq[0].mcq);
	mlx5x_cq_quiesce(&e->cq[0].mcq);
	mlx5x_cq_table_remove(&e->tbl, &e->cq[1].mcq);
	mlx5x_cq_quiesce(&e->cq[1].mcq);
	mlx5x_cq_table_destroy(&e->tbl);
}

/* An idle bottom half: the interrupt delivers itself, within its budget. */
static void irq_delivers_while_idle(struct kunit *test)
{
	struct env *e = env_init(test, UNLIMITED);
	unsigned int direct = 2;

	KUNIT_EXPECT_TRUE(test, eqe_irq(e, 0x40, &direct));
	KUNIT_EXPECT_EQ(test, e->cq[0].comps, 1);
	KUNIT_EXPECT_EQ(test, direct, 1);
	KUNIT_EXPECT_EQ(test, kicks, 0);
	/* the lookup's reference went with the call */
	KUNIT_EXPECT_EQ(test, refcount_read(&e->cq[0].mcq.res.refcount), 1);
	KUNIT_EXPECT_TRUE(test, eqe_irq(e, 0x41, &direct));
	KUNIT_EXPECT_EQ(test, direct, 0);
	/* budget spent: the third goes to the bottom half */
	KUNIT_EXPECT_TRUE(test, eqe_irq(e, 0x42, &direct));
	KUNIT_EXPECT_EQ(test, e->cq[2].comps, 0);
	KUNIT_EXPECT_EQ(test, kicks, 1);
	KUNIT_EXPECT_EQ(test, e->bh.direct, 2);
	mlx5x_cq_bh_run(&e->bh);
	KUNIT_EXPECT_EQ(test, e->cq[1].comps, 1);
	KUNIT_EXPECT_EQ(test, e->cq[2].comps, 1);
	env_fini(e);
}

/* Queued work is never overtaken: a later event joins it. */
static void irq_queues_behind_pending(struct kunit *test)
{
	struct env *e = env_init(test, UNLIMITED);
	unsigned int direct = 0;

	eqe_irq(e, 0x40, &direct);
	direct = MLX5X_TEST_DIRECT;
	KUNIT_EXPECT_TRUE(test, eqe_irq(e, 0x41, &direct));
	KUNIT_EXPECT_TRUE(test, eqe_irq(e, 0x40, &direct));
	KUNIT_EXPECT_EQ(test, direct, MLX5X_TEST_DIRECT);
	KUNIT_EXPECT_EQ(test, e->cq[0].comps, 0);
	KUNIT_EXPECT_EQ(test, e->cq[1].comps, 0);
	KUNIT_EXPECT_EQ(test, kicks, 1);
	mlx5x_cq_bh_run(&e->bh);
	/* the burst for 0x40 folded into its queued notification */
	KUNIT_EXPECT_EQ(test, e->cq[0].comps, 1);
	KUNIT_EXPECT_EQ(test, e->cq[1].comps, 1);
	/* idle again: direct once more */
	KUNIT_EXPECT_TRUE(test, eqe_irq(e, 0x41, &direct));
	KUNIT_EXPECT_EQ(test, e->cq[1].comps, 2);
	env_fini(e);
}

/* While a run delivers, its CQs' handlers are not called from the IRQ. */
static void irq_defers_while_bh_runs(struct kunit *test)
{
	struct env *e = env_init(test, UNLIMITED);
	unsigned int direct = 0;

	e->cq[0].irq_during_comp = &direct;
	eqe_irq(e, 0x40, &direct);
	direct = MLX5X_TEST_DIRECT;
	/* cq 0's handler takes an "interrupt" for cq 1 while it runs */
	KUNIT_EXPECT_FALSE(test, mlx5x_cq_bh_run(&e->bh));
	KUNIT_EXPECT_EQ(test, e->cq[0].comps, 1);
	KUNIT_EXPECT_EQ(test, e->cq[1].comps, 0);
	KUNIT_EXPECT_EQ(test, direct, MLX5X_TEST_DIRECT);
	KUNIT_EXPECT_EQ(test, kicks, 2);
	mlx5x_cq_bh_run(&e->bh);
	KUNIT_EXPECT_EQ(test, e->cq[1].comps, 1);
	env_fini(e);
}

/* What a DESTROY command sees of the table, and what it answers. */
struct destroy_probe {
	struct env *e;
	u32 cqn;
	bool found;
	int ret;
};

static int probe_destroy(void *arg)
{
	struct destroy_probe *p = arg;
	struct mlx5x_core_cq *cq = mlx5x_cq_table_get(&p->e->tbl, p->cqn);

	p->found = cq;
	if (cq)
		mlx5x_cq_put(cq);
	return p->ret;
}

/*
 * The object is out of the table while DESTROY runs (the number may be
 * the device's to reuse as soon as it returns), and back in it, events
 * flowing, when the device refuses.
 */
static void table_destroy_order(struct kunit *test)
{
	struct env *e = env_init(test, UNLIMITED);
	struct mlx5x_core_cq *cq = &e->cq[1].mcq;
	struct destroy_probe p = { .e = e, .cqn = cq->cqn, .ret = -EIO };

	KUNIT_EXPECT_EQ(test, mlx5x_res_destroy(&e->tbl.res, cq->cqn, &cq->res,
						probe_destroy, &p), -EIO);
	KUNIT_EXPECT_FALSE(test, p.found);
	KUNIT_EXPECT_TRUE(test, eqe(e, cq->cqn));
	mlx5x_cq_bh_run(&e->bh);
	KUNIT_EXPECT_EQ(test, e->cq[1].comps, 1);

	p.ret = 0;
	KUNIT_EXPECT_EQ(test, mlx5x_res_destroy(&e->tbl.res, cq->cqn, &cq->res,
						probe_destroy, &p), 0);
	KUNIT_EXPECT_FALSE(test, p.found);
	KUNIT_EXPECT_FALSE(test, eqe(e, cq->cqn));
	/* the number is free for a new CQ at once */
	KUNIT_EXPECT_EQ(test, xa_insert_irq(&e->tbl.res.xa, cq->cqn,
					    &e->cq[0].mcq.res, GFP_KERNEL), 0);
	xa_erase_irq(&e->tbl.res.xa, cq->cqn);
	mlx5x_cq_quiesce(cq);
	KUNIT_EXPECT_EQ(test, refcount_read(&cq->res.refcount), 0);
	mlx5x_cq_table_remove(&e->tbl, &e->cq[0].mcq);
	mlx5x_cq_quiesce(&e->cq[0].mcq);
	mlx5x_cq_table_remove(&e->tbl, &e->cq[2].mcq);
	mlx5x_cq_quiesce(&e->cq[2].mcq);
	mlx5x_cq_table_destroy(&e->tbl);
}

static struct kunit_case mlx5x_cq_table_cases[] = {
	KUNIT_CASE(lookup_takes_reference),
	KUNIT_CASE(kick_only_on_empty_to_nonempty),
	KUNIT_CASE(burst_for_one_cq_coalesced),
	KUNIT_CASE(budget_spreads_over_runs),
	KUNIT_CASE(event_during_handler_requeues),
	KUNIT_CASE(destroy_with_event_pending),
	KUNIT_CASE(destroy_idle_cq),
	KUNIT_CASE(table_destroy_order),
	KUNIT_CASE(irq_delivers_while_idle),
	KUNIT_CASE(irq_queues_behind_pending),
	KUNIT_CASE(irq_defers_while_bh_runs),
	{}
};

static struct kunit_suite mlx5x_cq_table_suite = {
	.name = "mlx5x_cq_table",
	.test_cases = mlx5x_cq_table_cases,
};

kunit_test_suite(mlx5x_cq_table_suite);
