// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the health verdicts (suite mlx5x_health): what one
 * poll of the init segment concludes, without any register access.
 */
#include <kunit/test.h>

#include "../health.h"
#include "../hw.h"

static struct mlx5x_health_sample ok_sample(u32 counter)
{
	struct mlx5x_health_sample s = {
		.counter = counter,
		.fw_ver = 0x10231000,
	};

	return s;
}

static void counter_progress_is_ok(struct kunit *test)
{
	struct mlx5x_health h = {};
	struct mlx5x_health_sample s;
	u32 i;

	for (i = 1; i < 10; i++) {
		s = ok_sample(i);
		KUNIT_EXPECT_EQ(test, mlx5x_health_judge(&h, &s), MLX5X_HEALTH_OK);
	}
}

static void stuck_counter_reported_once(struct kunit *test)
{
	struct mlx5x_health h = { .prev_counter = 7 };
	struct mlx5x_health_sample s = ok_sample(7);

	KUNIT_EXPECT_EQ(test, mlx5x_health_judge(&h, &s), MLX5X_HEALTH_OK);
	KUNIT_EXPECT_EQ(test, mlx5x_health_judge(&h, &s), MLX5X_HEALTH_OK);
	KUNIT_EXPECT_EQ(test, mlx5x_health_judge(&h, &s), MLX5X_HEALTH_STUCK);
	KUNIT_EXPECT_EQ(test, mlx5x_health_judge(&h, &s), MLX5X_HEALTH_OK);
	/* Progress resets the streak. */
	s = ok_sample(8);
	KUNIT_EXPECT_EQ(test, mlx5x_health_judge(&h, &s), MLX5X_HEALTH_OK);
	KUNIT_EXPECT_EQ(test, h.miss, 0);
}

static void syndrome_with_rfr_is_fatal(struct kunit *test)
{
	struct mlx5x_health h = {};
	struct mlx5x_health_sample s = ok_sample(1);

	s.synd_word = FIELD_PREP(MLX5X_ISEG_HEALTH_SYND_MASK, 0x07);
	s.rfr_word = MLX5X_ISEG_HEALTH_RFR_MASK;
	KUNIT_EXPECT_EQ(test, mlx5x_health_judge(&h, &s), MLX5X_HEALTH_FATAL);
	KUNIT_EXPECT_STREQ(test, mlx5x_health_synd_str(0x07),
			   "irisc not responding");
	/* The request bit alone, without a syndrome, is not fatal. */
	s = ok_sample(2);
	s.rfr_word = MLX5X_ISEG_HEALTH_RFR_MASK;
	KUNIT_EXPECT_EQ(test, mlx5x_health_judge(&h, &s), MLX5X_HEALTH_OK);
}

static void syndrome_without_rfr_is_reported(struct kunit *test)
{
	struct mlx5x_health h = {};
	struct mlx5x_health_sample s = ok_sample(1);

	s.synd_word = FIELD_PREP(MLX5X_ISEG_HEALTH_SYND_MASK, 0x10);
	KUNIT_EXPECT_EQ(test, mlx5x_health_judge(&h, &s), MLX5X_HEALTH_REPORT);
	/* an EQ overrun is one of these: firmware sets no RFR for it */
	KUNIT_EXPECT_STREQ(test, mlx5x_health_synd_str(0x0c),
			   "async EQ buffer overrun");
	/* Once per value: the same syndrome again is business as usual. */
	s.counter = 2;
	KUNIT_EXPECT_EQ(test, mlx5x_health_judge(&h, &s), MLX5X_HEALTH_OK);
	s.counter = 3;
	s.synd_word = FIELD_PREP(MLX5X_ISEG_HEALTH_SYND_MASK, 0x0f);
	KUNIT_EXPECT_EQ(test, mlx5x_health_judge(&h, &s), MLX5X_HEALTH_REPORT);
	/* Cleared, then raised again: a new report. */
	s = ok_sample(4);
	KUNIT_EXPECT_EQ(test, mlx5x_health_judge(&h, &s), MLX5X_HEALTH_OK);
	s.counter = 5;
	s.synd_word = FIELD_PREP(MLX5X_ISEG_HEALTH_SYND_MASK, 0x0f);
	KUNIT_EXPECT_EQ(test, mlx5x_health_judge(&h, &s), MLX5X_HEALTH_REPORT);
	/* An extended syndrome alone is no syndrome. */
	s = ok_sample(6);
	KUNIT_EXPECT_EQ(test, mlx5x_health_judge(&h, &s), MLX5X_HEALTH_OK);
	s.counter = 7;
	s.synd_word = FIELD_PREP(MLX5X_ISEG_HEALTH_EXT_SYND_MASK, 0x1234);
	KUNIT_EXPECT_EQ(test, mlx5x_health_judge(&h, &s), MLX5X_HEALTH_OK);
}

static void dead_device_is_fatal(struct kunit *test)
{
	struct mlx5x_health h = {};
	struct mlx5x_health_sample s = ok_sample(1);

	s.fw_ver = U32_MAX;
	KUNIT_EXPECT_EQ(test, mlx5x_health_judge(&h, &s), MLX5X_HEALTH_FATAL);
	s = ok_sample(2);
	s.nic_if = MLX5X_NIC_IFC_DISABLED;
	KUNIT_EXPECT_EQ(test, mlx5x_health_judge(&h, &s), MLX5X_HEALTH_FATAL);
	s.nic_if = MLX5X_NIC_IFC_SW_RESET;
	KUNIT_EXPECT_EQ(test, mlx5x_health_judge(&h, &s), MLX5X_HEALTH_FATAL);
}

static struct kunit_case mlx5x_health_cases[] = {
	KUNIT_CASE(counter_progress_is_ok),
	KUNIT_CASE(stuck_counter_reported_once),
	KUNIT_CASE(syndrome_with_rfr_is_fatal),
	KUNIT_CASE(syndrome_without_rfr_is_reported),
	KUNIT_CASE(dead_device_is_fatal),
	{}
};

static struct kunit_suite mlx5x_health_suite = {
	.name = "mlx5x_health",
	.test_cases = mlx5x_health_cases,
};

kunit_test_suite(mlx5x_health_suite);
