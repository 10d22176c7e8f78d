// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for fast registration (kmr.c): which alloc_mr requests are
 * refused, the page list map_mr_sg builds, the CREATE_MKEY context of a
 * fast registration key, and the segment bytes of IB_WR_REG_MR and
 * IB_WR_LOCAL_INV WQEs, checked word by word against values computed by
 * hand from the PRM layouts.
 */
#include <kunit/test.h>
#include <linux/scatterlist.h>
#include <linux/sizes.h>

#include "../ib.h"
#include "../kmr.h"
#include "../umr.h"

/* the big-endian 32-bit word at byte @off of @buf */
static u32 word(const void *buf, unsigned int off)
{
	return be32_to_cpup((const __be32 *)((const u8 *)buf + off));
}

static u64 dword(const void *buf, unsigned int off)
{
	return be64_to_cpup((const __be64 *)((const u8 *)buf + off));
}

/* ---- alloc_mr requests ---- */

static void alloc_refused(struct kunit *test)
{
	struct mlx5x_verbs_caps caps = { .log_max_klm_list_size = 16 };
	u32 n = 0;

	KUNIT_EXPECT_EQ(test, mlx5x_kmr_descs(&caps, IB_MR_TYPE_SG_GAPS, 8, &n),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_descs(&caps, IB_MR_TYPE_INTEGRITY, 8,
					      &n), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_descs(&caps, IB_MR_TYPE_USER, 8, &n),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_descs(&caps, IB_MR_TYPE_DMA, 8, &n),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_descs(&caps, IB_MR_TYPE_MEM_REG, 0, &n),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_descs(&caps, IB_MR_TYPE_MEM_REG,
					      65537, &n), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_descs(&caps, IB_MR_TYPE_MEM_REG,
					      U32_MAX, &n), -EINVAL);
	KUNIT_EXPECT_EQ(test, n, 0U);
	caps.log_max_klm_list_size = 4;
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_descs(&caps, IB_MR_TYPE_MEM_REG, 17,
					      &n), -EINVAL);
}

static void alloc_rounding(struct kunit *test)
{
	struct mlx5x_verbs_caps caps = { .log_max_klm_list_size = 16 };
	u32 n;

	KUNIT_ASSERT_EQ(test, mlx5x_kmr_descs(&caps, IB_MR_TYPE_MEM_REG, 1,
					      &n), 0);
	KUNIT_EXPECT_EQ(test, n, 4U);
	KUNIT_ASSERT_EQ(test, mlx5x_kmr_descs(&caps, IB_MR_TYPE_MEM_REG, 4,
					      &n), 0);
	KUNIT_EXPECT_EQ(test, n, 4U);
	/* nvme-rdma: min(256, max - 1) + 1 pages */
	KUNIT_ASSERT_EQ(test, mlx5x_kmr_descs(&caps, IB_MR_TYPE_MEM_REG, 257,
					      &n), 0);
	KUNIT_EXPECT_EQ(test, n, 260U);
	KUNIT_ASSERT_EQ(test, mlx5x_kmr_descs(&caps, IB_MR_TYPE_MEM_REG,
					      65536, &n), 0);
	KUNIT_EXPECT_EQ(test, n, 65536U);
}

static void max_pages(struct kunit *test)
{
	struct mlx5x_verbs_caps caps = { .log_max_klm_list_size = 16 };

	KUNIT_EXPECT_EQ(test, mlx5x_kmr_max_pages(&caps), 65536U);
	caps.log_max_klm_list_size = 4;
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_max_pages(&caps), 16U);
	/* xlt_octowords is 16 bits: one WQE carries 2^16 entries at most */
	caps.log_max_klm_list_size = 20;
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_max_pages(&caps), 65536U);
}

/* CREATE_MKEY of a fast registration key (mlx5_ib's free UMR mkey). */
static void create_mkey_context(struct kunit *test)
{
	const struct mlx5x_mkey_params p = {
		.pdn = 0x12,
		.access = MLX5X_MKEY_LR,
		.variant = 0x5a,
		.umr_en = true,
		.pas.pgsz = SZ_4K,
		.frwr_octwords = 260,
	};
	u8 mkc[MLX5X_MKC_LEN] = {};

	mlx5x_mkc_encode(mkc, &p);
	/* free (bit 30), umr_en (15), lr (10), access mode MTT (bits 9:8) */
	KUNIT_EXPECT_EQ(test, word(mkc, 0x00), 0x40008500U);
	KUNIT_EXPECT_EQ(test, word(mkc, 0x04), 0xffffff5aU);
	KUNIT_EXPECT_EQ(test, word(mkc, 0x0c), 0x12U);
	KUNIT_EXPECT_EQ(test, dword(mkc, 0x10), 0ULL);
	KUNIT_EXPECT_EQ(test, dword(mkc, 0x18), 0ULL);
	KUNIT_EXPECT_EQ(test, word(mkc, 0x34), 260U);
	KUNIT_EXPECT_EQ(test, word(mkc, 0x38), 12U);
}

/* ---- map_mr_sg ---- */

struct kmr_fixture {
	struct mlx5x_ib_dev *dev;
	struct mlx5x_ib_mr *mr;
	struct ib_pd *pd;
};

/* an MR as alloc_mr leaves it, with a plain (unmapped) descriptor array */
static void fixture_init(struct kunit *test, struct kmr_fixture *f,
			 u32 max_descs)
{
	struct mlx5x_kmr *kmr;

	f->dev = kunit_kzalloc(test, sizeof(*f->dev), GFP_KERNEL);
	f->mr = kunit_kzalloc(test, sizeof(*f->mr), GFP_KERNEL);
	f->pd = kunit_kzalloc(test, sizeof(*f->pd), GFP_KERNEL);
	kmr = kunit_kzalloc(test, sizeof(*kmr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->dev);
	KUNIT_ASSERT_NOT_NULL(test, f->mr);
	KUNIT_ASSERT_NOT_NULL(test, f->pd);
	KUNIT_ASSERT_NOT_NULL(test, kmr);
	kmr->max_descs = max_descs;
	kmr->map_len = ALIGN(max_descs * 8, 64);
	kmr->descs = kunit_kzalloc(test, kmr->map_len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kmr->descs);
	/* stale entries of an earlier mapping */
	memset(kmr->descs, 0xee, kmr->map_len);
	kmr->desc_map = 0xabcd0800;
	f->pd->local_dma_lkey = 0x1234;
	f->mr->kmr = kmr;
	f->mr->index = 0x321;
	f->mr->umr_en = true;
	f->mr->ibmr.pd = f->pd;
	f->mr->ibmr.page_size = SZ_4K;
	f->dev->caps.log_max_klm_list_size = 16;
}

static void map_pages(struct kunit *test)
{
	struct kmr_fixture f;
	struct scatterlist sg[2];
	struct mlx5x_kmr *kmr;
	unsigned int i;

	fixture_init(test, &f, 8);
	kmr = f.mr->kmr;
	sg_init_table(sg, 2);
	/* starts 0x800 into a page, ends on a page boundary */
	sg_dma_address(&sg[0]) = 0x100800;
	sg_dma_len(&sg[0]) = 0x1800;
	sg_dma_address(&sg[1]) = 0x200000;
	sg_dma_len(&sg[1]) = 0x1000;

	KUNIT_EXPECT_EQ(test, mlx5x_kmr_map(&f.mr->ibmr, sg, 2, NULL), 2);
	KUNIT_EXPECT_EQ(test, kmr->ndescs, 3U);
	/* page addresses with read (bit 0) and write (bit 1) enabled */
	KUNIT_EXPECT_EQ(test, be64_to_cpu(kmr->descs[0]), 0x100003ULL);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(kmr->descs[1]), 0x101003ULL);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(kmr->descs[2]), 0x200003ULL);
	/* the rest of the 64-byte unit is cleared */
	for (i = 3; i < 8; i++)
		KUNIT_EXPECT_EQ(test, be64_to_cpu(kmr->descs[i]), 0ULL);
	KUNIT_EXPECT_EQ(test, f.mr->ibmr.iova, 0x100800ULL);
	KUNIT_EXPECT_EQ(test, f.mr->ibmr.length, 0x2800ULL);

	/* a later mapping starts over; an sg offset moves the start */
	i = 0x800;
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_map(&f.mr->ibmr, sg, 1, &i), 1);
	KUNIT_EXPECT_EQ(test, kmr->ndescs, 1U);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(kmr->descs[0]), 0x101003ULL);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(kmr->descs[1]), 0ULL);
	KUNIT_EXPECT_EQ(test, f.mr->ibmr.iova, 0x101000ULL);
	KUNIT_EXPECT_EQ(test, f.mr->ibmr.length, 0x1000ULL);
}

static void map_large_pages(struct kunit *test)
{
	struct kmr_fixture f;
	struct scatterlist sg;
	struct mlx5x_kmr *kmr;

	fixture_init(test, &f, 4);
	kmr = f.mr->kmr;
	f.mr->ibmr.page_size = SZ_64K;
	sg_init_table(&sg, 1);
	sg_dma_address(&sg) = 0x1230000;
	sg_dma_len(&sg) = 0x20000;
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_map(&f.mr->ibmr, &sg, 1, NULL), 1);
	KUNIT_EXPECT_EQ(test, kmr->ndescs, 2U);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(kmr->descs[0]), 0x1230003ULL);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(kmr->descs[1]), 0x1240003ULL);
}

static void map_too_many(struct kunit *test)
{
	struct kmr_fixture f;
	struct scatterlist sg[2];
	struct mlx5x_kmr *kmr;

	fixture_init(test, &f, 4);
	kmr = f.mr->kmr;
	sg_init_table(sg, 2);
	sg_dma_address(&sg[0]) = 0x400000;
	sg_dma_len(&sg[0]) = 3 * SZ_4K;
	sg_dma_address(&sg[1]) = 0x800000;
	sg_dma_len(&sg[1]) = 2 * SZ_4K;
	/* 5 pages, room for 4: the second entry is not mapped */
	KUNIT_EXPECT_LT(test, mlx5x_kmr_map(&f.mr->ibmr, sg, 2, NULL), 2);
	KUNIT_EXPECT_EQ(test, kmr->ndescs, 4U);
	/* one entry larger than the MR: nothing whole is mapped */
	sg_dma_len(&sg[0]) = 5 * SZ_4K;
	KUNIT_EXPECT_LT(test, mlx5x_kmr_map(&f.mr->ibmr, sg, 1, NULL), 1);
	KUNIT_EXPECT_EQ(test, kmr->ndescs, 4U);
}

/* ---- REG_MR and LOCAL_INV segments ---- */

#define UMR	0x00	/* UMR control segment */
#define MKC	0x30	/* mkey context */
#define XLT	0x70	/* translation: inline entries or a data segment */

/*
 * mask without A: LEN, PAGE_SIZE, START_ADDR, EN_RINVAL, KEY, LR..RW,
 * SMALL_FENCE, FREE (bits 0, 1, 6, 8, 13, 17-20, 23, 29)
 */
#define REG_MASK	0x209e2143ULL
#define REG_MASK_A	(REG_MASK | BIT_ULL(21))

static void reg_mask(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_reg_mask(false), REG_MASK);
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_reg_mask(true), REG_MASK_A);
}

static struct ib_reg_wr fast_reg_wr(struct kmr_fixture *f, u8 variant,
				    int access)
{
	struct ib_reg_wr wr = {
		.wr.opcode = IB_WR_REG_MR,
		.mr = &f->mr->ibmr,
		.key = f->mr->index << 8 | variant,
		.access = access,
	};

	return wr;
}

/* 20 pages from 0x7f0000001200: a list of 160 bytes, behind a pointer */
static void reg_segs_pointer(struct kunit *test)
{
	struct kmr_fixture f;
	struct ib_reg_wr wr;
	u8 *segs;

	fixture_init(test, &f, 32);
	segs = kunit_kzalloc(test, MLX5X_KMR_SEGS_MAX, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, segs);
	memset(segs, 0xcc, MLX5X_KMR_SEGS_MAX);
	f.mr->kmr->ndescs = 20;
	f.mr->ibmr.iova = 0x7f0000001200ULL;
	f.mr->ibmr.length = 19 * SZ_4K;
	wr = fast_reg_wr(&f, 0x7c, IB_ACCESS_LOCAL_WRITE |
			 IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_WRITE);

	KUNIT_ASSERT_EQ(test, mlx5x_kmr_reg_segs(f.dev, &wr, segs), 128);
	/* flags CHECK_NOT_FREE (1 << 5) in the top byte; 192 bytes = 12 */
	KUNIT_EXPECT_EQ(test, word(segs, UMR + 0x00), 0x20000000U);
	KUNIT_EXPECT_EQ(test, word(segs, UMR + 0x04), 0x000c0000U);
	KUNIT_EXPECT_EQ(test, dword(segs, UMR + 0x08), REG_MASK);
	KUNIT_EXPECT_EQ(test, word(segs, UMR + 0x10), 0U);
	/* umr_en, rw, rr, lw, lr, MTT: mlx5_ib's flags byte 0xbd */
	KUNIT_EXPECT_EQ(test, word(segs, MKC + 0x00), 0x0000bd00U);
	KUNIT_EXPECT_EQ(test, word(segs, MKC + 0x04), 0xffffff7cU);
	KUNIT_EXPECT_EQ(test, word(segs, MKC + 0x08), 0U);
	/* en_rinval (bit 24), no PD: the key keeps its own */
	KUNIT_EXPECT_EQ(test, word(segs, MKC + 0x0c), 0x01000000U);
	KUNIT_EXPECT_EQ(test, dword(segs, MKC + 0x10), 0x7f0000001200ULL);
	KUNIT_EXPECT_EQ(test, dword(segs, MKC + 0x18), 19ULL * SZ_4K);
	KUNIT_EXPECT_EQ(test, word(segs, MKC + 0x20), 0U);
	/* ALIGN(20, 8) / 2 octowords, log2 page size 12 */
	KUNIT_EXPECT_EQ(test, word(segs, MKC + 0x34), 12U);
	KUNIT_EXPECT_EQ(test, word(segs, MKC + 0x38), 12U);
	/* data segment: 192 bytes at the array, through the PD's DMA key */
	KUNIT_EXPECT_EQ(test, word(segs, XLT + 0x00), 192U);
	KUNIT_EXPECT_EQ(test, word(segs, XLT + 0x04), 0x1234U);
	KUNIT_EXPECT_EQ(test, dword(segs, XLT + 0x08), 0xabcd0800ULL);
}

/* up to 8 entries (64 bytes) travel inline, padded to 64 bytes */
static void reg_segs_inline(struct kunit *test)
{
	struct kmr_fixture f;
	struct scatterlist sg;
	struct ib_reg_wr wr;
	unsigned int i;
	u8 *segs;

	fixture_init(test, &f, 16);
	segs = kunit_kzalloc(test, MLX5X_KMR_SEGS_MAX, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, segs);
	memset(segs, 0xcc, MLX5X_KMR_SEGS_MAX);
	sg_init_table(&sg, 1);
	sg_dma_address(&sg) = 0x5000000;
	sg_dma_len(&sg) = 3 * SZ_4K;
	KUNIT_ASSERT_EQ(test, mlx5x_kmr_map(&f.mr->ibmr, &sg, 1, NULL), 1);
	wr = fast_reg_wr(&f, 0x01, 0);

	KUNIT_ASSERT_EQ(test, mlx5x_kmr_reg_segs(f.dev, &wr, segs),
			MLX5X_KMR_SEGS_MAX);
	/* CHECK_NOT_FREE | INLINE (1 << 7); 64 bytes = 4 octowords */
	KUNIT_EXPECT_EQ(test, word(segs, UMR + 0x00), 0xa0000000U);
	KUNIT_EXPECT_EQ(test, word(segs, UMR + 0x04), 0x00040000U);
	/* local read only */
	KUNIT_EXPECT_EQ(test, word(segs, MKC + 0x00), 0x00008500U);
	KUNIT_EXPECT_EQ(test, word(segs, MKC + 0x04), 0xffffff01U);
	KUNIT_EXPECT_EQ(test, dword(segs, MKC + 0x10), 0x5000000ULL);
	KUNIT_EXPECT_EQ(test, dword(segs, MKC + 0x18), 3ULL * SZ_4K);
	KUNIT_EXPECT_EQ(test, word(segs, MKC + 0x34), 4U);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, dword(segs, XLT + 8 * i),
				0x5000003ULL + i * SZ_4K);
	for (; i < 8; i++)
		KUNIT_EXPECT_EQ(test, dword(segs, XLT + 8 * i), 0ULL);

	/* 8 entries still inline, 9 not */
	f.mr->kmr->ndescs = 8;
	f.mr->ibmr.length = 8 * SZ_4K;
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_reg_segs(f.dev, &wr, segs),
			MLX5X_KMR_SEGS_MAX);
	f.mr->kmr->ndescs = 9;
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_reg_segs(f.dev, &wr, segs), 128);
	KUNIT_EXPECT_EQ(test, word(segs, UMR + 0x00), 0x20000000U);
	KUNIT_EXPECT_EQ(test, word(segs, UMR + 0x04), 0x00080000U);
	KUNIT_EXPECT_EQ(test, word(segs, XLT + 0x00), 128U);
}

static void reg_segs_atomic(struct kunit *test)
{
	struct kmr_fixture f;
	struct ib_reg_wr wr;
	u8 *segs;

	fixture_init(test, &f, 4);
	segs = kunit_kzalloc(test, MLX5X_KMR_SEGS_MAX, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, segs);
	f.mr->kmr->ndescs = 1;
	f.mr->ibmr.iova = 0x9000;
	f.mr->ibmr.length = 8;
	wr = fast_reg_wr(&f, 0x02, IB_ACCESS_LOCAL_WRITE |
			 IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC);

	/* no atomics on the device: a right the key cannot get */
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_reg_segs(f.dev, &wr, segs), -EINVAL);
	f.dev->caps.atomic = true;
	KUNIT_ASSERT_EQ(test, mlx5x_kmr_reg_segs(f.dev, &wr, segs),
			MLX5X_KMR_SEGS_MAX);
	KUNIT_EXPECT_EQ(test, dword(segs, UMR + 0x08), REG_MASK_A);
	/* a, rw, lw, lr, umr_en, MTT */
	KUNIT_EXPECT_EQ(test, word(segs, MKC + 0x00), 0x0000ed00U);
	/* the device forbids changing the atomic right by UMR */
	f.dev->caps.umr_atomic_disabled = true;
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_reg_segs(f.dev, &wr, segs), -EINVAL);
	/* ... which does not matter without it */
	wr.access &= ~IB_ACCESS_REMOTE_ATOMIC;
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_reg_segs(f.dev, &wr, segs),
			MLX5X_KMR_SEGS_MAX);
	KUNIT_EXPECT_EQ(test, dword(segs, UMR + 0x08), REG_MASK);
}

static void reg_segs_refused(struct kunit *test)
{
	struct mlx5x_ib_mr user_mr = {};
	struct kmr_fixture f;
	struct ib_reg_wr wr;
	u8 *segs;

	fixture_init(test, &f, 4);
	segs = kunit_kzalloc(test, MLX5X_KMR_SEGS_MAX, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, segs);
	f.mr->kmr->ndescs = 2;
	f.mr->ibmr.iova = 0x10ff0;
	f.mr->ibmr.length = 0x20;
	wr = fast_reg_wr(&f, 0x03, IB_ACCESS_LOCAL_WRITE);
	KUNIT_ASSERT_EQ(test, mlx5x_kmr_reg_segs(f.dev, &wr, segs),
			MLX5X_KMR_SEGS_MAX);

	/* the range needs more pages than were mapped */
	f.mr->ibmr.length = 0x1020;
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_reg_segs(f.dev, &wr, segs), -EINVAL);
	f.mr->ibmr.length = 0x20;
	/* an empty or overlong list */
	f.mr->kmr->ndescs = 0;
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_reg_segs(f.dev, &wr, segs), -EINVAL);
	f.mr->kmr->ndescs = 5;
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_reg_segs(f.dev, &wr, segs), -EINVAL);
	f.mr->kmr->ndescs = 2;
	/* a page size an mkey does not translate */
	f.mr->ibmr.page_size = SZ_2K;
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_reg_segs(f.dev, &wr, segs), -EINVAL);
	f.mr->ibmr.page_size = SZ_4K;
	/* another MR's key */
	wr.key = (f.mr->index + 1) << 8 | 0x03;
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_reg_segs(f.dev, &wr, segs), -EINVAL);
	wr.key = f.mr->index << 8 | 0x03;
	/* REG_MR cannot be inline */
	wr.wr.send_flags = IB_SEND_INLINE;
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_reg_segs(f.dev, &wr, segs), -EINVAL);
	wr.wr.send_flags = IB_SEND_SIGNALED;
	/* a right no key has */
	wr.access = IB_ACCESS_ON_DEMAND;
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_reg_segs(f.dev, &wr, segs), -EINVAL);
	wr.access = IB_ACCESS_LOCAL_WRITE;
	/* a device whose UMR may not set the page size */
	f.dev->caps.umr_entity_size_disabled = true;
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_reg_segs(f.dev, &wr, segs), -EINVAL);
	f.dev->caps.umr_entity_size_disabled = false;
	/* not a fast registration MR */
	user_mr.ibmr.pd = f.pd;
	user_mr.ibmr.page_size = SZ_4K;
	wr.mr = &user_mr.ibmr;
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_reg_segs(f.dev, &wr, segs), -EINVAL);
	wr.mr = &f.mr->ibmr;
	KUNIT_EXPECT_EQ(test, mlx5x_kmr_reg_segs(f.dev, &wr, segs),
			MLX5X_KMR_SEGS_MAX);
}

static void linv_segs(struct kunit *test)
{
	struct kmr_fixture f;
	unsigned int off;
	u8 *segs;

	fixture_init(test, &f, 4);
	segs = kunit_kzalloc(test, MLX5X_KMR_SEGS_MAX, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, segs);
	memset(segs, 0xcc, MLX5X_KMR_SEGS_MAX);

	KUNIT_ASSERT_EQ(test, mlx5x_kmr_linv_segs(f.dev, segs), 112);
	/* INLINE, no list, mask FREE (bit 29) only */
	KUNIT_EXPECT_EQ(test, word(segs, UMR + 0x00), 0x80000000U);
	KUNIT_EXPECT_EQ(test, word(segs, UMR + 0x04), 0U);
	KUNIT_EXPECT_EQ(test, dword(segs, UMR + 0x08), 0x20000000ULL);
	for (off = 0x10; off < 0x30; off += 4)
		KUNIT_EXPECT_EQ(test, word(segs, UMR + off), 0U);
	/* mkey context: status FREE (bit 30) and nothing else */
	KUNIT_EXPECT_EQ(test, word(segs, MKC + 0x00), 0x40000000U);
	for (off = 0x04; off < 0x40; off += 4)
		KUNIT_EXPECT_EQ(test, word(segs, MKC + off), 0U);
	/* nothing written past the two segments */
	KUNIT_EXPECT_EQ(test, word(segs, XLT), 0xccccccccU);
}

static struct kunit_case kmr_cases[] = {
	KUNIT_CASE(alloc_refused),
	KUNIT_CASE(alloc_rounding),
	KUNIT_CASE(max_pages),
	KUNIT_CASE(create_mkey_context),
	KUNIT_CASE(map_pages),
	KUNIT_CASE(map_large_pages),
	KUNIT_CASE(map_too_many),
	KUNIT_CASE(reg_mask),
	KUNIT_CASE(reg_segs_pointer),
	KUNIT_CASE(reg_segs_inline),
	KUNIT_CASE(reg_segs_atomic),
	KUNIT_CASE(reg_segs_refused),
	KUNIT_CASE(linv_segs),
	{}
};

static struct kunit_suite kmr_suite = {
	.name = "mlx5x_kmr",
	.test_cases = kmr_cases,
};

kunit_test_suite(kmr_suite);
