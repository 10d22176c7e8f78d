// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the health verdicts (suite mlx5x_health): what one
 * poll of the init segment concludes, without any register access, and
 * whether a function in the error state may be recovered.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>

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

/* Recovery: the first always, then at most one per interval. */
static void recovery_rate_limited(struct kunit *test)
{
	struct mlx5x_recover_limit rl = {};
	unsigned long t = 1000, iv = 60 * HZ;

	KUNIT_EXPECT_EQ(test, mlx5x_recover_decide(&rl, true, iv, t),
			MLX5X_RECOVER_GO);
	KUNIT_EXPECT_EQ(test, rl.count, 1);
	KUNIT_EXPECT_EQ(test, mlx5x_recover_decide(&rl, true, iv, t + iv - 1),
			MLX5X_RECOVER_TOO_SOON);
	/* a refusal does not move the window */
	KUNIT_EXPECT_EQ(test, rl.last, t);
	KUNIT_EXPECT_EQ(test, rl.count, 1);
	KUNIT_EXPECT_EQ(test, mlx5x_recover_decide(&rl, true, iv, t + iv),
			MLX5X_RECOVER_GO);
	KUNIT_EXPECT_EQ(test, rl.count, 2);
	KUNIT_EXPECT_EQ(test, rl.last, t + iv);
}

/* Switched off: never, and the history stays as it was. */
static void recovery_disabled(struct kunit *test)
{
	struct mlx5x_recover_limit rl = {};

	KUNIT_EXPECT_EQ(test, mlx5x_recover_decide(&rl, false, 0, 5),
			MLX5X_RECOVER_DISABLED);
	KUNIT_EXPECT_EQ(test, rl.count, 0);
	/* an interval of 0 does not limit */
	KUNIT_EXPECT_EQ(test, mlx5x_recover_decide(&rl, true, 0, 5),
			MLX5X_RECOVER_GO);
	KUNIT_EXPECT_EQ(test, mlx5x_recover_decide(&rl, true, 0, 5),
			MLX5X_RECOVER_GO);
	KUNIT_EXPECT_EQ(test, rl.count, 2);
}

/* jiffies wrap between two failures: still measured as elapsed time. */
static void recovery_limit_across_wrap(struct kunit *test)
{
	struct mlx5x_recover_limit rl = {};
	unsigned long t = ULONG_MAX - 10, iv = 100;

	KUNIT_EXPECT_EQ(test, mlx5x_recover_decide(&rl, true, iv, t),
			MLX5X_RECOVER_GO);
	KUNIT_EXPECT_EQ(test, mlx5x_recover_decide(&rl, true, iv, t + 50),
			MLX5X_RECOVER_TOO_SOON);
	KUNIT_EXPECT_EQ(test, mlx5x_recover_decide(&rl, true, iv, t + 100),
			MLX5X_RECOVER_GO);
}

static struct kunit_case mlx5x_health_cases[] = {
	KUNIT_CASE(counter_progress_is_ok),
	KUNIT_CASE(stuck_counter_reported_once),
	KUNIT_CASE(syndrome_with_rfr_is_fatal),
	KUNIT_CASE(syndrome_without_rfr_is_reported),
	KUNIT_CASE(dead_device_is_fatal),
	KUNIT_CASE(recovery_rate_limited),
	KUNIT_CASE(recovery_disabled),
	KUNIT_CASE(recovery_limit_across_wrap),
	{}
};

static struct kunit_suite mlx5x_health_suite = {
	.name = "mlx5x_health",
	.test_cases = mlx5x_health_cases,
};

kunit_test_suite(mlx5x_health_suite);
