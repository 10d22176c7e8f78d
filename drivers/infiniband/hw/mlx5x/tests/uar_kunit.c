// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the UAR index math (suite mlx5x_uar): BAR offsets,
 * pfns and in-page offsets with and without uar_4k, for 4 KiB and
 * 64 KiB host pages, and the init-segment / BAR-end checks.
 */
#include <kunit/test.h>

#include "../hw.h"
#include "../uar.h"

#define BAR	0xf0000000ULL

static const struct mlx5x_uar_geom g4k = {
	.bar_len = 32 << 20, .uar_4k = false, .page_shift = 12,
};

static const struct mlx5x_uar_geom g64k = {
	.bar_len = 32 << 20, .uar_4k = false, .page_shift = 16,
};

static const struct mlx5x_uar_geom g64k_4k = {
	.bar_len = 32 << 20, .uar_4k = true, .page_shift = 16,
};

static void offsets_4k_host(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mlx5x_uar_size(&g4k), 4096);
	KUNIT_EXPECT_EQ(test, mlx5x_uar_offset(&g4k, 3), 0x3000);
	KUNIT_EXPECT_EQ(test, mlx5x_uar_pfn(&g4k, BAR, 3), (BAR + 0x3000) >> 12);
	KUNIT_EXPECT_EQ(test, mlx5x_uar_page_offset(&g4k, 3), 0);
	KUNIT_EXPECT_EQ(test, mlx5x_uars_per_page(&g4k), 1);
}

static void offsets_64k_host(struct kunit *test)
{
	/* Without uar_4k a UAR is one host page. */
	KUNIT_EXPECT_EQ(test, mlx5x_uar_offset(&g64k, 3), 0x30000);
	KUNIT_EXPECT_EQ(test, mlx5x_uar_page_offset(&g64k, 3), 0);
	/* With uar_4k sixteen UARs share a host page. */
	KUNIT_EXPECT_EQ(test, mlx5x_uar_offset(&g64k_4k, 17), 0x11000);
	KUNIT_EXPECT_EQ(test, mlx5x_uar_pfn(&g64k_4k, BAR, 17),
			(BAR + 0x10000) >> 16);
	KUNIT_EXPECT_EQ(test, mlx5x_uar_page_offset(&g64k_4k, 17), 0x1000);
	KUNIT_EXPECT_EQ(test, mlx5x_uars_per_page(&g64k_4k), 16);
}

static void init_segment_pages_refused(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mlx5x_uar_check(&g4k, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_uar_check(&g4k, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_uar_check(&g4k, MLX5X_ISEG_PAGES), 0);
	/* 64 KiB UAR pages: index 0 is the init segment, 1 is past it. */
	KUNIT_EXPECT_EQ(test, mlx5x_uar_check(&g64k, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_uar_check(&g64k, 1), 0);
}

static void beyond_bar_refused(struct kunit *test)
{
	u32 last = (32 << 20) / 4096 - 1;

	KUNIT_EXPECT_EQ(test, mlx5x_uar_check(&g4k, last), 0);
	KUNIT_EXPECT_EQ(test, mlx5x_uar_check(&g4k, last + 1), -ERANGE);
	KUNIT_EXPECT_EQ(test, mlx5x_uar_check(&g4k, 0xffffff), -ERANGE);
}

static struct kunit_case mlx5x_uar_cases[] = {
	KUNIT_CASE(offsets_4k_host),
	KUNIT_CASE(offsets_64k_host),
	KUNIT_CASE(init_segment_pages_refused),
	KUNIT_CASE(beyond_bar_refused),
	{}
};

static struct kunit_suite mlx5x_uar_suite = {
	.name = "mlx5x_uar",
	.test_cases = mlx5x_uar_cases,
};

kunit_test_suite(mlx5x_uar_suite);
