// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the kernel ring (suite mlx5x_ring): where a counter
 * lands, the pass parity an owner bit is checked against, both across
 * the ring end and across the u32 wrap of the counter, and the page list
 * a create command gets.
 */
#include <kunit/test.h>
#include <linux/sizes.h>

#include "../fw_verbs.h"
#include "../ring.h"

#define RING_BUF	((void *)0x100000UL)	/* never dereferenced */
#define RING_DMA	0x80000000ULL

static void entry_wraps_at_ring_end(struct kunit *test)
{
	struct mlx5x_ring r;

	mlx5x_ring_init(&r, RING_BUF, RING_DMA, 3, 6);	/* 8 x 64 bytes */
	KUNIT_EXPECT_EQ(test, mlx5x_ring_bytes(&r), 512);
	KUNIT_EXPECT_PTR_EQ(test, mlx5x_ring_entry(&r, 0), RING_BUF);
	KUNIT_EXPECT_PTR_EQ(test, mlx5x_ring_entry(&r, 1), RING_BUF + 64);
	KUNIT_EXPECT_PTR_EQ(test, mlx5x_ring_entry(&r, 7), RING_BUF + 7 * 64);
	KUNIT_EXPECT_PTR_EQ(test, mlx5x_ring_entry(&r, 8), RING_BUF);
	KUNIT_EXPECT_PTR_EQ(test, mlx5x_ring_entry(&r, 8 * 5 + 3),
			    RING_BUF + 3 * 64);
	/* a larger stride: 128-byte entries */
	mlx5x_ring_init(&r, RING_BUF, RING_DMA, 2, 7);
	KUNIT_EXPECT_PTR_EQ(test, mlx5x_ring_entry(&r, 3), RING_BUF + 3 * 128);
	KUNIT_EXPECT_PTR_EQ(test, mlx5x_ring_entry(&r, 4), RING_BUF);
}

static void pass_parity_flips_each_pass(struct kunit *test)
{
	u32 ctr;

	for (ctr = 0; ctr < 8; ctr++)
		KUNIT_EXPECT_EQ(test, mlx5x_ring_pass(ctr, 3), 0);
	for (ctr = 8; ctr < 16; ctr++)
		KUNIT_EXPECT_EQ(test, mlx5x_ring_pass(ctr, 3), 1);
	KUNIT_EXPECT_EQ(test, mlx5x_ring_pass(16, 3), 0);
	KUNIT_EXPECT_EQ(test, mlx5x_ring_pass(24, 3), 1);
}

/* The counter wraps around u32 without a hiccup in entry or parity. */
static void counter_wraps_around_u32(struct kunit *test)
{
	struct mlx5x_ring r;

	mlx5x_ring_init(&r, RING_BUF, RING_DMA, 6, 6);
	r.ctr = U32_MAX;
	KUNIT_EXPECT_PTR_EQ(test, mlx5x_ring_entry(&r, r.ctr),
			    RING_BUF + 63 * 64);
	KUNIT_EXPECT_TRUE(test, mlx5x_ring_sw_owns(&r, 1));
	KUNIT_EXPECT_FALSE(test, mlx5x_ring_sw_owns(&r, 0));
	r.ctr++;
	KUNIT_EXPECT_EQ(test, r.ctr, 0);
	KUNIT_EXPECT_PTR_EQ(test, mlx5x_ring_entry(&r, r.ctr), RING_BUF);
	/* the next pass after an odd one is even, as from 0 */
	KUNIT_EXPECT_TRUE(test, mlx5x_ring_sw_owns(&r, 0));
	KUNIT_EXPECT_FALSE(test, mlx5x_ring_sw_owns(&r, 1));
}

/* Only bit 0 of the owner byte counts (CQEs share it with the opcode). */
static void owner_bit_only(struct kunit *test)
{
	struct mlx5x_ring r;

	mlx5x_ring_init(&r, RING_BUF, RING_DMA, 2, 6);
	KUNIT_EXPECT_TRUE(test, mlx5x_ring_sw_owns(&r, 0xf0));
	KUNIT_EXPECT_FALSE(test, mlx5x_ring_sw_owns(&r, 0xf1));
	r.ctr = 4;
	KUNIT_EXPECT_TRUE(test, mlx5x_ring_sw_owns(&r, 0x21));
	KUNIT_EXPECT_FALSE(test, mlx5x_ring_sw_owns(&r, 0x20));
}

static void page_list(struct kunit *test)
{
	struct mlx5x_pas pas;
	struct mlx5x_ring r;

	/* 64 x 64 bytes: one 4 KiB page */
	mlx5x_ring_init(&r, RING_BUF, RING_DMA, 6, 6);
	mlx5x_ring_pas(&r, &pas);
	KUNIT_EXPECT_NULL(test, pas.umem);
	KUNIT_EXPECT_EQ(test, pas.dma, RING_DMA);
	KUNIT_EXPECT_EQ(test, pas.pgsz, SZ_4K);
	KUNIT_EXPECT_EQ(test, pas.n, 1);
	KUNIT_EXPECT_EQ(test, pas.page_offset, 0);
	/* 1024 x 64 bytes: 16 pages */
	mlx5x_ring_init(&r, RING_BUF, RING_DMA, 10, 6);
	mlx5x_ring_pas(&r, &pas);
	KUNIT_EXPECT_EQ(test, pas.n, 16);
	/* smaller than a page: still one */
	mlx5x_ring_init(&r, RING_BUF, RING_DMA, 2, 6);
	mlx5x_ring_pas(&r, &pas);
	KUNIT_EXPECT_EQ(test, pas.n, 1);
}

static struct kunit_case mlx5x_ring_cases[] = {
	KUNIT_CASE(entry_wraps_at_ring_end),
	KUNIT_CASE(pass_parity_flips_each_pass),
	KUNIT_CASE(counter_wraps_around_u32),
	KUNIT_CASE(owner_bit_only),
	KUNIT_CASE(page_list),
	{}
};

static struct kunit_suite mlx5x_ring_suite = {
	.name = "mlx5x_ring",
	.test_cases = mlx5x_ring_cases,
};

kunit_test_suite(mlx5x_ring_suite);
