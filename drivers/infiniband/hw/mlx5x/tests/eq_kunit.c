// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the EQ consumer (suite mlx5x_eq): ownership across
 * passes, wrap-around, doorbell encoding and ring sizing.  A tiny device
 * model writes entries the way the hardware does: owner = pass parity
 * of the producer index, 0 on the first pass.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "../eq.h"

struct fake_eq {
	struct mlx5x_ring ring;
	u32 pi;		/* device producer index */
};

static struct fake_eq *fake_eq(struct kunit *test, u8 log_nent)
{
	struct fake_eq *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	void *buf;

	KUNIT_ASSERT_NOT_NULL(test, f);
	buf = kunit_kzalloc(test, MLX5X_EQE_LEN << log_nent, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	mlx5x_ring_init(&f->ring, buf, 0, log_nent, MLX5X_EQE_LOG_LEN);
	mlx5x_eq_ring_init(&f->ring);
	return f;
}

/* The device writes one entry tagged with @tag (in the CQN field). */
static void produce(struct fake_eq *f, u32 tag)
{
	struct mlx5x_eqe *eqe = f->ring.buf;

	eqe += f->pi & (BIT(f->ring.log_n) - 1);

	eqe->type = MLX5X_EVENT_COMP;
	MLX5X_SET(eqe, MLX5X_EQE_COMP_CQN, tag);
	eqe->owner = (f->pi >> f->ring.log_n) & 1;
	f->pi++;
}

/* Consume everything software owns; returns the count, checks order. */
static unsigned int consume(struct kunit *test, struct fake_eq *f,
			    u32 *next_tag)
{
	struct mlx5x_eqe *eqe;
	unsigned int n = 0;

	while ((eqe = mlx5x_eq_ring_peek(&f->ring))) {
		KUNIT_EXPECT_EQ(test, MLX5X_GET(eqe, MLX5X_EQE_COMP_CQN),
				*next_tag);
		(*next_tag)++;
		f->ring.ctr++;
		n++;
	}
	return n;
}

static void fresh_ring_is_empty(struct kunit *test)
{
	struct fake_eq *f = fake_eq(test, 3);
	struct mlx5x_eqe *eqe = f->ring.buf;
	unsigned int i;

	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, eqe[i].owner, 1);
	KUNIT_EXPECT_NULL(test, mlx5x_eq_ring_peek(&f->ring));
}

static void consume_in_order_then_stop(struct kunit *test)
{
	struct fake_eq *f = fake_eq(test, 3);
	u32 tag = 100;

	produce(f, 100);
	produce(f, 101);
	produce(f, 102);
	KUNIT_EXPECT_EQ(test, consume(test, f, &tag), 3);
	KUNIT_EXPECT_EQ(test, f->ring.ctr, 3);
	KUNIT_EXPECT_NULL(test, mlx5x_eq_ring_peek(&f->ring));
}

static void owner_wraps_each_pass(struct kunit *test)
{
	struct fake_eq *f = fake_eq(test, 2);	/* 4 entries */
	u32 tag = 0, t = 0;
	unsigned int pass;

	/* Five passes in bursts of 3: every wrap flips the expected owner. */
	for (pass = 0; pass < 7; pass++) {
		produce(f, t++);
		produce(f, t++);
		produce(f, t++);
		KUNIT_EXPECT_EQ(test, consume(test, f, &tag), 3);
	}
	KUNIT_EXPECT_EQ(test, f->ring.ctr, 21);
	KUNIT_EXPECT_EQ(test, tag, 21);
}

static void stale_entry_from_previous_pass_ignored(struct kunit *test)
{
	struct fake_eq *f = fake_eq(test, 2);
	u32 tag = 0;

	produce(f, 0);
	produce(f, 1);
	produce(f, 2);
	produce(f, 3);
	KUNIT_EXPECT_EQ(test, consume(test, f, &tag), 4);
	/* Second pass: slot 0 still holds pass-0 data until rewritten. */
	KUNIT_EXPECT_NULL(test, mlx5x_eq_ring_peek(&f->ring));
	produce(f, 4);
	KUNIT_EXPECT_EQ(test, consume(test, f, &tag), 1);
	KUNIT_EXPECT_NULL(test, mlx5x_eq_ring_peek(&f->ring));
}

static void full_ring_consumed_exactly(struct kunit *test)
{
	struct fake_eq *f = fake_eq(test, 2);
	u32 tag = 0;

	produce(f, 0);
	produce(f, 1);
	produce(f, 2);
	produce(f, 3);
	KUNIT_EXPECT_EQ(test, consume(test, f, &tag), 4);
	KUNIT_EXPECT_EQ(test, f->ring.ctr, 4);
}

static void doorbell_word(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mlx5x_eq_doorbell(5, 0x10), 0x05000010);
	/* The CI is 24 bits on the wire; higher bits are dropped. */
	KUNIT_EXPECT_EQ(test, mlx5x_eq_doorbell(0xff, 0x1234567), 0xff234567);
}

static void ring_sizing(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mlx5x_eq_log_nent(MLX5X_ASYNC_EQ_NENT, 0), 9);
	KUNIT_EXPECT_EQ(test, mlx5x_eq_log_nent(MLX5X_COMP_EQ_NENT, 0), 11);
	KUNIT_EXPECT_EQ(test, mlx5x_eq_log_nent(MLX5X_COMP_EQ_NENT, 10), 10);
	KUNIT_EXPECT_EQ(test, mlx5x_eq_log_nent(256, 13), 8);
	/* The budget never exceeds the spare entries (overrun margin). */
	KUNIT_EXPECT_LE(test, MLX5X_EQ_POLL_BUDGET, MLX5X_NUM_SPARE_EQE);
}

static struct kunit_case mlx5x_eq_cases[] = {
	KUNIT_CASE(fresh_ring_is_empty),
	KUNIT_CASE(consume_in_order_then_stop),
	KUNIT_CASE(owner_wraps_each_pass),
	KUNIT_CASE(stale_entry_from_previous_pass_ignored),
	KUNIT_CASE(full_ring_consumed_exactly),
	KUNIT_CASE(doorbell_word),
	KUNIT_CASE(ring_sizing),
	{}
};

static struct kunit_suite mlx5x_eq_suite = {
	.name = "mlx5x_eq",
	.test_cases = mlx5x_eq_cases,
};

kunit_test_suite(mlx5x_eq_suite);
