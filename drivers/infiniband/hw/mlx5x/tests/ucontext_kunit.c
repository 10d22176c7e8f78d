// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the user context's lock order (suite mlx5x_ucontext):
 * a UAR is freed on a vma close, under mmap_lock, and takes the context
 * lock there; mapping a doorbell record pins a user page, which takes
 * mmap_lock.  Lockdep (on in the KUnit build) must see no cycle.  The
 * device is a killed command engine: DEALLOC_UAR completes locally.
 */
#include <kunit/test.h>
#include <linux/debug_locks.h>
#include <linux/kthread.h>
#include <linux/mmap_lock.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "../cmd.h"
#include "../ib.h"

static struct mlx5x_ib_ucontext *fake_uctx(struct kunit *test)
{
	struct mlx5x_ib_dev *dev = kunit_kzalloc(test, sizeof(*dev), GFP_KERNEL);
	struct mlx5x_ib_ucontext *uctx;
	struct mlx5x_cmd *cmd;

	uctx = kunit_kzalloc(test, sizeof(*uctx), GFP_KERNEL);
	cmd = kunit_kzalloc(test, sizeof(*cmd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_ASSERT_NOT_NULL(test, uctx);
	KUNIT_ASSERT_NOT_NULL(test, cmd);
	mlx5x_cmd_sw_init(cmd, 2);
	cmd->state = MLX5X_CMD_KILLED;
	dev->cmd = cmd;
	uctx->ibuc.device = &dev->ibdev;
	mutex_init(&uctx->lock);
	INIT_LIST_HEAD(&uctx->db_pages);
	INIT_LIST_HEAD(&uctx->uars);
	return uctx;
}

static void db_map_pins_outside_context_lock(struct kunit *test)
{
	struct mlx5x_ib_ucontext *uctx = fake_uctx(test);
	struct mlx5x_ib_dev *dev = to_mibdev(uctx->ibuc.device);
	struct mlx5x_uar_entry *uar;
	struct mlx5x_db db = {};
	struct mm_struct *mm;
	int err;

	if (!debug_locks)
		kunit_skip(test, "lockdep is off (an earlier report)");
	uar = kzalloc(sizeof(*uar), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, uar);
	uar->rdma.ucontext = &uctx->ibuc;
	list_add(&uar->node, &uctx->uars);
	mm = mm_alloc();
	KUNIT_ASSERT_NOT_NULL(test, mm);

	/* The UAR's last reference goes on a vma close: under mmap_lock. */
	mmap_write_lock(mm);
	mlx5x_ib_mmap_free(&uar->rdma);
	mmap_write_unlock(mm);
	KUNIT_EXPECT_TRUE(test, list_empty(&uctx->uars));

	/* A doorbell record in a page that is not mapped: the pin fails. */
	kthread_use_mm(mm);
	err = mlx5x_db_map(dev, uctx, 0x10000, &db);
	kthread_unuse_mm(mm);
	mmput(mm);
	KUNIT_EXPECT_LT(test, err, 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&uctx->db_pages));
	KUNIT_EXPECT_TRUE_MSG(test, debug_locks,
			      "lockdep reported a lock order problem (see the log)");
}

static struct kunit_case mlx5x_ucontext_cases[] = {
	KUNIT_CASE(db_map_pins_outside_context_lock),
	{}
};

static struct kunit_suite mlx5x_ucontext_suite = {
	.name = "mlx5x_ucontext",
	.test_cases = mlx5x_ucontext_cases,
};

kunit_test_suite(mlx5x_ucontext_suite);
