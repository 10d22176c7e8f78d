// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for firmware page accounting (suite mlx5x_pages): pages
 * are tracked by bus address and function, a reclaim is checked against
 * what was given, counts follow.  No DMA: fake addresses and no pages.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "../hw.h"
#include "../pages.h"

#define ADDR(i)		(0x40000000ULL + (i) * MLX5X_FW_PAGE_SIZE)

static struct mlx5x_pages *acct(struct kunit *test)
{
	struct mlx5x_pages *pg = kunit_kzalloc(test, sizeof(*pg), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, pg);
	mlx5x_pages_acct_init(pg);
	return pg;
}

static struct mlx5x_fw_page *fp(struct kunit *test, u16 func, u64 dma)
{
	struct mlx5x_fw_page *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->func_id = func;
	p->dma = dma;
	return p;
}

static void give_and_count_per_function(struct kunit *test)
{
	struct mlx5x_pages *pg = acct(test);
	unsigned int i;

	mutex_lock(&pg->lock);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, mlx5x_pages_track(pg, fp(test, 0, ADDR(i))), 0);
	for (i = 5; i < 7; i++)
		KUNIT_EXPECT_EQ(test, mlx5x_pages_track(pg, fp(test, 3, ADDR(i))), 0);
	mutex_unlock(&pg->lock);
	KUNIT_EXPECT_EQ(test, mlx5x_pages_count(pg, 0), 5);
	KUNIT_EXPECT_EQ(test, mlx5x_pages_count(pg, 3), 2);
	KUNIT_EXPECT_EQ(test, mlx5x_pages_count(pg, 1), 0);
	KUNIT_EXPECT_EQ(test, pg->total, 7);
	mlx5x_pages_acct_destroy(pg);
}

static void reclaim_returns_page_and_counts_down(struct kunit *test)
{
	struct mlx5x_pages *pg = acct(test);
	struct mlx5x_fw_page *a = fp(test, 0, ADDR(1)), *r;

	mutex_lock(&pg->lock);
	KUNIT_ASSERT_EQ(test, mlx5x_pages_track(pg, a), 0);
	KUNIT_ASSERT_EQ(test, mlx5x_pages_track(pg, fp(test, 0, ADDR(2))), 0);
	r = mlx5x_pages_untrack(pg, 0, ADDR(1));
	mutex_unlock(&pg->lock);
	KUNIT_EXPECT_PTR_EQ(test, r, a);
	KUNIT_EXPECT_EQ(test, mlx5x_pages_count(pg, 0), 1);
	KUNIT_EXPECT_EQ(test, pg->total, 1);
	mlx5x_pages_acct_destroy(pg);
}

static void reclaim_of_unknown_page_refused(struct kunit *test)
{
	struct mlx5x_pages *pg = acct(test);
	struct mlx5x_fw_page *r;

	mutex_lock(&pg->lock);
	KUNIT_ASSERT_EQ(test, mlx5x_pages_track(pg, fp(test, 0, ADDR(1))), 0);
	/* Never given. */
	r = mlx5x_pages_untrack(pg, 0, ADDR(9));
	KUNIT_EXPECT_EQ(test, PTR_ERR(r), -ENOENT);
	/* Inside a given page but not its start. */
	r = mlx5x_pages_untrack(pg, 0, ADDR(1) + 8);
	KUNIT_EXPECT_EQ(test, PTR_ERR(r), -ENOENT);
	/* Given to another function. */
	r = mlx5x_pages_untrack(pg, 2, ADDR(1));
	KUNIT_EXPECT_EQ(test, PTR_ERR(r), -EPERM);
	/* Twice. */
	KUNIT_EXPECT_FALSE(test, IS_ERR(mlx5x_pages_untrack(pg, 0, ADDR(1))));
	r = mlx5x_pages_untrack(pg, 0, ADDR(1));
	KUNIT_EXPECT_EQ(test, PTR_ERR(r), -ENOENT);
	mutex_unlock(&pg->lock);
	KUNIT_EXPECT_EQ(test, pg->total, 0);
	KUNIT_EXPECT_EQ(test, mlx5x_pages_count(pg, 0), 0);
	mlx5x_pages_acct_destroy(pg);
}

static void bad_give_refused(struct kunit *test)
{
	struct mlx5x_pages *pg = acct(test);

	mutex_lock(&pg->lock);
	/* Firmware pages are 4 KiB aligned. */
	KUNIT_EXPECT_EQ(test, mlx5x_pages_track(pg, fp(test, 0, ADDR(1) + 512)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_pages_track(pg, fp(test, 0, ADDR(1))), 0);
	/* The same address twice is a bug, not a second page. */
	KUNIT_EXPECT_EQ(test, mlx5x_pages_track(pg, fp(test, 0, ADDR(1))), -EBUSY);
	mutex_unlock(&pg->lock);
	KUNIT_EXPECT_EQ(test, pg->total, 1);
	KUNIT_EXPECT_EQ(test, mlx5x_pages_count(pg, 0), 1);
	mutex_lock(&pg->lock);
	mlx5x_pages_untrack(pg, 0, ADDR(1));
	mutex_unlock(&pg->lock);
	mlx5x_pages_acct_destroy(pg);
}

static struct kunit_case mlx5x_pages_cases[] = {
	KUNIT_CASE(give_and_count_per_function),
	KUNIT_CASE(reclaim_returns_page_and_counts_down),
	KUNIT_CASE(reclaim_of_unknown_page_refused),
	KUNIT_CASE(bad_give_refused),
	{}
};

static struct kunit_suite mlx5x_pages_suite = {
	.name = "mlx5x_pages",
	.test_cases = mlx5x_pages_cases,
};

kunit_test_suite(mlx5x_pages_suite);
