// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for firmware page accounting (suite mlx5x_pages): host
 * pages are lent in 4 KiB pieces, all to one function; pieces are
 * tracked by bus address, a reclaim is checked against what was lent and
 * a host page becomes idle only when its last piece is back.  No DMA:
 * fake addresses and no pages.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "../hw.h"
#include "../pages.h"

/* Pretend 64 KiB host pages whatever the test kernel's page size. */
#define PIECES		16
#define HOST(i)		(0x40000000ULL + (u64)(i) * PIECES * MLX5X_FW_PAGE_SIZE)

static struct mlx5x_pages *acct(struct kunit *test)
{
	struct mlx5x_pages *pg = kunit_kzalloc(test, sizeof(*pg), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, pg);
	mlx5x_pages_acct_init(pg);
	KUNIT_EXPECT_EQ(test, pg->per_host, PAGE_SIZE / MLX5X_FW_PAGE_SIZE);
	pg->per_host = PIECES;
	return pg;
}

static struct mlx5x_host_page *host(struct kunit *test, u64 dma)
{
	struct mlx5x_host_page *hp = kunit_kzalloc(test, sizeof(*hp),
						   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, hp);
	hp->dma = dma;
	return hp;
}

/* Lend @n pieces to @func, adding fake host pages as the driver would. */
static void lend(struct kunit *test, struct mlx5x_pages *pg, u16 func,
		 unsigned int n, u64 *next_host, dma_addr_t *out)
{
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		err = mlx5x_pages_lend(pg, func, &out[i]);
		if (err == -ENOSPC) {
			struct mlx5x_host_page *hp = host(test, HOST(*next_host));

			KUNIT_ASSERT_EQ(test, mlx5x_pages_add_host(pg, hp, func), 0);
			(*next_host)++;
			err = mlx5x_pages_lend(pg, func, &out[i]);
		}
		KUNIT_ASSERT_EQ(test, err, 0);
	}
}

/* Untrack everything still lent so the xarrays can be destroyed. */
static void drain(struct mlx5x_pages *pg)
{
	struct mlx5x_host_page *hp, *tmp;
	unsigned long key;

	xa_for_each(&pg->pages, key, hp)
		mlx5x_pages_untrack(pg, hp->func_id, key << MLX5X_FW_PAGE_SHIFT);
	list_for_each_entry_safe(hp, tmp, &pg->free, free_link)
		mlx5x_pages_forget_host(pg, hp);
}

static void done(struct mlx5x_pages *pg)
{
	drain(pg);
	mutex_unlock(&pg->lock);
	mlx5x_pages_acct_destroy(pg);
}

/* A host page yields PAGE_SIZE / 4 KiB distinct, contiguous pieces. */
static void host_page_split_into_pieces(struct kunit *test)
{
	struct mlx5x_pages *pg = acct(test);
	dma_addr_t d[2 * PIECES + 1];
	u64 next = 0;
	unsigned int i;

	mutex_lock(&pg->lock);
	lend(test, pg, 0, PIECES, &next, d);
	KUNIT_EXPECT_EQ(test, next, 1);
	KUNIT_EXPECT_EQ(test, pg->host_pages, 1);
	for (i = 0; i < PIECES; i++)
		KUNIT_EXPECT_EQ(test, d[i], HOST(0) + i * MLX5X_FW_PAGE_SIZE);
	/* a full host page is off the free list: the next piece needs a new one */
	KUNIT_EXPECT_TRUE(test, list_empty(&pg->free));
	lend(test, pg, 0, 1, &next, d);
	KUNIT_EXPECT_EQ(test, next, 2);
	KUNIT_EXPECT_EQ(test, d[0], HOST(1));
	KUNIT_EXPECT_EQ(test, pg->total, PIECES + 1);
	KUNIT_EXPECT_EQ(test, mlx5x_pages_count(pg, 0), PIECES + 1);
	done(pg);
}

/* Pieces of one host page never go to two functions. */
static void host_page_belongs_to_one_function(struct kunit *test)
{
	struct mlx5x_pages *pg = acct(test);
	dma_addr_t a, b;
	u64 next = 0;

	mutex_lock(&pg->lock);
	lend(test, pg, 0, 1, &next, &a);
	lend(test, pg, 3, 1, &next, &b);
	KUNIT_EXPECT_EQ(test, next, 2);
	KUNIT_EXPECT_EQ(test, a, HOST(0));
	KUNIT_EXPECT_EQ(test, b, HOST(1));
	KUNIT_EXPECT_EQ(test, mlx5x_pages_count(pg, 0), 1);
	KUNIT_EXPECT_EQ(test, mlx5x_pages_count(pg, 3), 1);
	KUNIT_EXPECT_EQ(test, mlx5x_pages_count(pg, 1), 0);
	KUNIT_EXPECT_PTR_EQ(test, mlx5x_pages_untrack(pg, 0, b),
			    ERR_PTR(-EPERM));
	done(pg);
}

/*
 * Reclaim accounting: a host page is idle only when its last piece is
 * back; a returned piece is lent again before a new host page is taken.
 */
static void host_page_idle_after_last_piece(struct kunit *test)
{
	struct mlx5x_pages *pg = acct(test);
	struct mlx5x_host_page *hp;
	dma_addr_t d[PIECES], again;
	u64 next = 0;
	unsigned int i;

	mutex_lock(&pg->lock);
	lend(test, pg, 0, PIECES, &next, d);
	for (i = 0; i + 1 < PIECES; i++) {
		hp = mlx5x_pages_untrack(pg, 0, d[i]);
		KUNIT_ASSERT_FALSE(test, IS_ERR(hp));
		KUNIT_EXPECT_FALSE(test, mlx5x_host_page_idle(pg, hp));
	}
	KUNIT_EXPECT_EQ(test, pg->total, 1);
	/* back on the free list: reused, no new host page */
	lend(test, pg, 0, 1, &next, &again);
	KUNIT_EXPECT_EQ(test, next, 1);
	KUNIT_EXPECT_EQ(test, again, d[0]);
	KUNIT_EXPECT_FALSE(test, IS_ERR(mlx5x_pages_untrack(pg, 0, again)));
	hp = mlx5x_pages_untrack(pg, 0, d[PIECES - 1]);
	KUNIT_ASSERT_FALSE(test, IS_ERR(hp));
	KUNIT_EXPECT_TRUE(test, mlx5x_host_page_idle(pg, hp));
	KUNIT_EXPECT_EQ(test, pg->total, 0);
	KUNIT_EXPECT_EQ(test, mlx5x_pages_count(pg, 0), 0);
	mlx5x_pages_forget_host(pg, hp);
	KUNIT_EXPECT_EQ(test, pg->host_pages, 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&pg->free));
	done(pg);
}

static void reclaim_of_unknown_piece_refused(struct kunit *test)
{
	struct mlx5x_pages *pg = acct(test);
	dma_addr_t d;
	u64 next = 0;

	mutex_lock(&pg->lock);
	lend(test, pg, 0, 1, &next, &d);
	/* never lent */
	KUNIT_EXPECT_PTR_EQ(test, mlx5x_pages_untrack(pg, 0, HOST(9)),
			    ERR_PTR(-ENOENT));
	/* inside a lent piece but not its start */
	KUNIT_EXPECT_PTR_EQ(test, mlx5x_pages_untrack(pg, 0, d + 8),
			    ERR_PTR(-ENOENT));
	/* a piece of a lent host page that was not lent itself */
	KUNIT_EXPECT_PTR_EQ(test, mlx5x_pages_untrack(pg, 0,
						      d + MLX5X_FW_PAGE_SIZE),
			    ERR_PTR(-ENOENT));
	/* twice */
	KUNIT_EXPECT_FALSE(test, IS_ERR(mlx5x_pages_untrack(pg, 0, d)));
	KUNIT_EXPECT_PTR_EQ(test, mlx5x_pages_untrack(pg, 0, d),
			    ERR_PTR(-ENOENT));
	KUNIT_EXPECT_EQ(test, pg->total, 0);
	done(pg);
}

static void misaligned_host_page_refused(struct kunit *test)
{
	struct mlx5x_pages *pg = acct(test);

	mutex_lock(&pg->lock);
	KUNIT_EXPECT_EQ(test, mlx5x_pages_add_host(pg, host(test, HOST(1) + 512),
						   0), -EINVAL);
	KUNIT_EXPECT_EQ(test, pg->host_pages, 0);
	done(pg);
}

/* PAGE_REQUEST EQEs as the device writes them: big-endian, signed. */
static void page_request_eqe_decoded(struct kunit *test)
{
	struct mlx5x_eqe eqe = {};
	u16 func;
	s32 n;

	eqe.type = MLX5X_EVENT_PAGE_REQUEST;
	MLX5X_SET(&eqe, MLX5X_EQE_PAGES_FUNC_ID, 5);
	MLX5X_SET(&eqe, MLX5X_EQE_PAGES_NUM_PAGES, 64);
	mlx5x_pages_eqe_decode(&eqe, &func, &n);
	KUNIT_EXPECT_EQ(test, func, 5);
	KUNIT_EXPECT_EQ(test, n, 64);
	MLX5X_SET(&eqe, MLX5X_EQE_PAGES_NUM_PAGES, (u32)-16);
	/* the embedded-CPU bit is not part of the function number */
	MLX5X_SET(&eqe, MLX5X_EQE_PAGES_EC_FUNCTION, 1);
	mlx5x_pages_eqe_decode(&eqe, &func, &n);
	KUNIT_EXPECT_EQ(test, func, 5);
	KUNIT_EXPECT_EQ(test, n, -16);
	KUNIT_EXPECT_EQ(test, ((u8 *)&eqe)[0x24], 0xff);
}

static struct kunit_case mlx5x_pages_cases[] = {
	KUNIT_CASE(host_page_split_into_pieces),
	KUNIT_CASE(host_page_belongs_to_one_function),
	KUNIT_CASE(host_page_idle_after_last_piece),
	KUNIT_CASE(reclaim_of_unknown_piece_refused),
	KUNIT_CASE(misaligned_host_page_refused),
	KUNIT_CASE(page_request_eqe_decoded),
	{}
};

static struct kunit_suite mlx5x_pages_suite = {
	.name = "mlx5x_pages",
	.test_cases = mlx5x_pages_cases,
};

kunit_test_suite(mlx5x_pages_suite);
