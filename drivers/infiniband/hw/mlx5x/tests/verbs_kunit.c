// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the verbs layer's pure logic: the libmlx5 context
 * request and response (suite mlx5x_verbs_uctx), mmap offset decoding
 * (mlx5x_verbs_mmap), MR access translation, the mkey context and the
 * memory window request and key (mlx5x_verbs_mr), CQ requests and the
 * CQ context (mlx5x_verbs_cq), QP sizes, flags, transitions and QP
 * context encoding (mlx5x_verbs_qp), and the port/event/caps
 * translations (mlx5x_verbs_port).
 */
#include <kunit/test.h>
#include <linux/log2.h>
#include <linux/sizes.h>

#include "../ib.h"

/* What the emulated ConnectX-5 reports, the reference for sizes. */
static const struct mlx5x_verbs_caps cx5 = {
	.log_max_qp = 16,
	.log_max_qp_sz = 15,
	.log_max_cq = 16,
	.log_max_cq_sz = 22,
	.log_max_srq_sz = 15,
	.log_max_msg = 30,
	.log_max_ra_req_qp = 4,
	.log_max_ra_res_qp = 4,
	.max_wqe_sz_sq = 1024,
	.max_wqe_sz_rq = 512,
	.num_ports = 1,
	.cqe_version = 1,
	.atomic = true,
	.atomic_mode = MLX5X_QPC_ATOMIC_MODE_IB_COMP,
	.mw = true,
};

/* A device without atomics or memory windows. */
static const struct mlx5x_verbs_caps bare = {
	.max_wqe_sz_sq = 1024,
	.num_ports = 1,
};

/* ---- mlx5x_verbs_uctx ---- */

/* What rdma-core 56 libmlx5 sends when DEVX is refused. */
static struct mlx5_ib_alloc_ucontext_req_v2 libmlx5_req(void)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = {
		.total_num_bfregs = 16,
		.num_low_latency_bfregs = 4,
		.max_cqe_version = 1,
		.lib_caps = MLX5_LIB_CAP_4K_UAR | MLX5_LIB_CAP_DYN_UAR,
	};

	return req;
}

static void uctx_libmlx5_request_accepted(struct kunit *test)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = libmlx5_req();

	KUNIT_EXPECT_EQ(test, mlx5x_uctx_check_req(&req, sizeof(req)), 0);
	/* no bfregs requested at all is fine too (dynamic model) */
	req.total_num_bfregs = 0;
	req.num_low_latency_bfregs = 0;
	KUNIT_EXPECT_EQ(test, mlx5x_uctx_check_req(&req, sizeof(req)), 0);
}

static void uctx_devx_and_unknown_refused(struct kunit *test)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = libmlx5_req();

	/* libmlx5 retries without DEVX on EOPNOTSUPP */
	req.flags = MLX5_IB_ALLOC_UCTX_DEVX;
	KUNIT_EXPECT_EQ(test, mlx5x_uctx_check_req(&req, sizeof(req)),
			-EOPNOTSUPP);
	req.flags = BIT(7);
	KUNIT_EXPECT_EQ(test, mlx5x_uctx_check_req(&req, sizeof(req)),
			-EOPNOTSUPP);
	req = libmlx5_req();
	req.comp_mask = 1;
	KUNIT_EXPECT_EQ(test, mlx5x_uctx_check_req(&req, sizeof(req)),
			-EOPNOTSUPP);
	req = libmlx5_req();
	req.reserved2 = 1;
	KUNIT_EXPECT_EQ(test, mlx5x_uctx_check_req(&req, sizeof(req)),
			-EINVAL);
}

static void uctx_malformed_refused(struct kunit *test)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = libmlx5_req();

	/* the v0 request (8 bytes) predates dynamic UARs */
	KUNIT_EXPECT_EQ(test, mlx5x_uctx_check_req(&req, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_uctx_check_req(&req, 15), -EINVAL);
	req.num_low_latency_bfregs = 16;
	KUNIT_EXPECT_EQ(test, mlx5x_uctx_check_req(&req, sizeof(req)),
			-EINVAL);
}

static void uctx_static_uar_provider_refused(struct kunit *test)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = libmlx5_req();

	req.lib_caps = MLX5_LIB_CAP_4K_UAR;
	KUNIT_EXPECT_EQ(test, mlx5x_uctx_check_req(&req, sizeof(req)),
			-EOPNOTSUPP);
	/* 24 bytes: no lib_caps, so no dynamic UARs either */
	req = libmlx5_req();
	req.lib_caps = 0;
	KUNIT_EXPECT_EQ(test, mlx5x_uctx_check_req(&req, 24), -EOPNOTSUPP);
}

static void uctx_response_fields(struct kunit *test)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = libmlx5_req();
	struct mlx5x_uar_geom g = { .bar_len = SZ_32M, .page_shift = 12 };
	struct mlx5_ib_alloc_ucontext_resp resp;

	mlx5x_uctx_fill_resp(&cx5, &g, &req, sizeof(resp), &resp);
	KUNIT_EXPECT_EQ(test, resp.tot_bfregs, 0);
	KUNIT_EXPECT_EQ(test, resp.bf_reg_size, 0);
	/* divisors and bounds of libmlx5 are never zero */
	KUNIT_EXPECT_GT(test, resp.cache_line_size, 0);
	KUNIT_EXPECT_EQ(test, resp.num_uars_per_page, 1);
	KUNIT_EXPECT_EQ(test, resp.log_uar_size, 12);
	KUNIT_EXPECT_EQ(test, resp.max_sq_desc_sz, 1024);
	KUNIT_EXPECT_EQ(test, resp.max_rq_desc_sz, 512);
	KUNIT_EXPECT_EQ(test, resp.max_send_wqebb, 1 << 15);
	KUNIT_EXPECT_EQ(test, resp.max_recv_wr, 1 << 15);
	KUNIT_EXPECT_EQ(test, resp.qp_tab_size, 1 << 16);
	KUNIT_EXPECT_EQ(test, resp.num_ports, 1);
	KUNIT_EXPECT_EQ(test, resp.cqe_version, 1);
	KUNIT_EXPECT_EQ(test, resp.comp_mask, 0);
	KUNIT_EXPECT_EQ(test, resp.response_length, sizeof(resp));
}

static void uctx_response_negotiation(struct kunit *test)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = libmlx5_req();
	struct mlx5x_uar_geom g = { .bar_len = SZ_32M, .uar_4k = true,
				    .page_shift = 16 };
	struct mlx5_ib_alloc_ucontext_resp resp;

	/* an old provider asking CQE version 0 gets it */
	req.max_cqe_version = 0;
	mlx5x_uctx_fill_resp(&cx5, &g, &req, 64, &resp);
	KUNIT_EXPECT_EQ(test, resp.cqe_version, 0);
	KUNIT_EXPECT_EQ(test, resp.response_length, 64);
	/* 64 KiB host pages with 4 KiB UARs: 16 per page */
	KUNIT_EXPECT_EQ(test, resp.log_uar_size, 12);
	KUNIT_EXPECT_EQ(test, resp.num_uars_per_page, 16);
}

static struct kunit_case uctx_cases[] = {
	KUNIT_CASE(uctx_libmlx5_request_accepted),
	KUNIT_CASE(uctx_devx_and_unknown_refused),
	KUNIT_CASE(uctx_malformed_refused),
	KUNIT_CASE(uctx_static_uar_provider_refused),
	KUNIT_CASE(uctx_response_fields),
	KUNIT_CASE(uctx_response_negotiation),
	{}
};

static struct kunit_suite uctx_suite = {
	.name = "mlx5x_verbs_uctx",
	.test_cases = uctx_cases,
};

/* ---- mlx5x_verbs_mmap ---- */

/* libmlx5's encoding: (index >> 8) << 16 | cmd << 8 | (index & 0xff) */
static unsigned long mlx5_pgoff(unsigned int cmd, unsigned int index)
{
	return (index >> 8) << 16 | cmd << 8 | (index & 0xff);
}

static void mmap_legacy_commands_refused(struct kunit *test)
{
	unsigned int cmd;

	for (cmd = 0; cmd <= 8; cmd++) {
		KUNIT_EXPECT_EQ(test, mlx5x_mmap_classify(mlx5_pgoff(cmd, 0)),
				MLX5X_MMAP_LEGACY);
		KUNIT_EXPECT_EQ(test, mlx5x_mmap_classify(mlx5_pgoff(cmd, 300)),
				MLX5X_MMAP_LEGACY);
	}
}

static void mmap_entry_range(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mlx5x_mmap_classify(MLX5X_MMAP_ENTRY_FIRST),
			MLX5X_MMAP_ENTRY);
	KUNIT_EXPECT_EQ(test, mlx5x_mmap_classify(MLX5X_MMAP_ENTRY_LAST),
			MLX5X_MMAP_ENTRY);
	KUNIT_EXPECT_EQ(test, mlx5x_mmap_classify(mlx5_pgoff(9, 0)),
			MLX5X_MMAP_ENTRY);
	KUNIT_EXPECT_EQ(test, mlx5x_mmap_classify(mlx5_pgoff(255, 255)),
			MLX5X_MMAP_ENTRY);
	/* an entry command with an extended index is past every entry */
	KUNIT_EXPECT_EQ(test, mlx5x_mmap_classify(mlx5_pgoff(9, 256)),
			MLX5X_MMAP_BAD);
	KUNIT_EXPECT_EQ(test, mlx5x_mmap_classify(ULONG_MAX), MLX5X_MMAP_BAD);
}

static struct kunit_case mmap_cases[] = {
	KUNIT_CASE(mmap_legacy_commands_refused),
	KUNIT_CASE(mmap_entry_range),
	{}
};

static struct kunit_suite mmap_suite = {
	.name = "mlx5x_verbs_mmap",
	.test_cases = mmap_cases,
};

/* ---- mlx5x_verbs_mr ---- */

static void mr_access_translation(struct kunit *test)
{
	u8 acc;

	KUNIT_EXPECT_EQ(test, mlx5x_mr_access(0, &cx5, &acc), 0);
	KUNIT_EXPECT_EQ(test, acc, MLX5X_MKEY_LR);
	KUNIT_EXPECT_EQ(test, mlx5x_mr_access(IB_ACCESS_LOCAL_WRITE |
					      IB_ACCESS_REMOTE_READ |
					      IB_ACCESS_REMOTE_WRITE,
					      &bare, &acc), 0);
	KUNIT_EXPECT_EQ(test, acc, MLX5X_MKEY_LR | MLX5X_MKEY_LW |
			MLX5X_MKEY_RR | MLX5X_MKEY_RW);
	KUNIT_EXPECT_EQ(test, mlx5x_mr_access(IB_ACCESS_LOCAL_WRITE |
					      IB_ACCESS_REMOTE_ATOMIC,
					      &cx5, &acc), 0);
	KUNIT_EXPECT_EQ(test, acc, MLX5X_MKEY_LR | MLX5X_MKEY_LW |
			MLX5X_MKEY_A);
	/* with windows, MW_BIND is accepted and gives the key no right */
	KUNIT_EXPECT_EQ(test, mlx5x_mr_access(IB_ACCESS_LOCAL_WRITE |
					      IB_ACCESS_MW_BIND,
					      &cx5, &acc), 0);
	KUNIT_EXPECT_EQ(test, acc, MLX5X_MKEY_LR | MLX5X_MKEY_LW);
}

static void mr_access_refusals(struct kunit *test)
{
	u8 acc;

	/* atomics and window binding need device support */
	KUNIT_EXPECT_EQ(test, mlx5x_mr_access(IB_ACCESS_LOCAL_WRITE |
					      IB_ACCESS_REMOTE_ATOMIC,
					      &bare, &acc), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mlx5x_mr_access(IB_ACCESS_MW_BIND, &bare, &acc),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mlx5x_mr_access(IB_ZERO_BASED, &cx5, &acc),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mlx5x_mr_access(IB_ACCESS_ON_DEMAND, &cx5, &acc),
			-EOPNOTSUPP);
	/* optional flags are hints (perftest sets relaxed ordering) */
	KUNIT_EXPECT_EQ(test, mlx5x_mr_access(IB_ACCESS_LOCAL_WRITE |
					      IB_ACCESS_RELAXED_ORDERING,
					      &bare, &acc), 0);
	KUNIT_EXPECT_EQ(test, acc, MLX5X_MKEY_LR | MLX5X_MKEY_LW);
}

static void mr_mkey_context(struct kunit *test)
{
	struct mlx5x_mkey_params p = {
		.pdn = 0x12,
		.access = MLX5X_MKEY_LR | MLX5X_MKEY_RW,
		.variant = 0xab,
		.iova = 0x7f0000001000ULL,
		.len = 5 * SZ_4K + 7,
		.pas = { .pgsz = SZ_4K, .n = 7 },
	};
	__be32 mkc[MLX5X_MKC_LEN / 4] = {};

	mlx5x_mkc_encode(mkc, &p);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_ACCESS_MODE_1_0),
			MLX5X_MKC_ACCESS_MODE_MTT);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_ACCESS_MODE_4_2), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_LR), 1);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_LW), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_RR), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_RW), 1);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_A), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_QPN), 0xffffff);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_MKEY_7_0), 0xab);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_PD), 0x12);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(*(__be64 *)((u8 *)mkc +
						      MLX5X_MKC_START_ADDR_OFF)),
			0x7f0000001000ULL);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(*(__be64 *)((u8 *)mkc +
						      MLX5X_MKC_LEN_OFF)),
			5 * SZ_4K + 7);
	/* 7 entries of 8 bytes fill 4 octwords */
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_TRANSLATIONS_OCTWORD_SIZE),
			4);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_LOG_PAGE_SIZE), 12);
	/* an MR's key is never free and never remotely invalidated */
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_FREE), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_EN_RINVAL), 0);
}

/* What libmlx5 sends (nothing) and what mlx5_ib makes room for. */
static void mw_request(struct kunit *test)
{
	struct mlx5_ib_alloc_mw req = {};
	u16 klms = 0;

	KUNIT_EXPECT_EQ(test, mlx5x_mw_check_req(&req, IB_MW_TYPE_1, &klms),
			0);
	KUNIT_EXPECT_EQ(test, klms, 4);
	req.num_klms = 5;
	KUNIT_EXPECT_EQ(test, mlx5x_mw_check_req(&req, IB_MW_TYPE_2, &klms),
			0);
	KUNIT_EXPECT_EQ(test, klms, 8);
	req.num_klms = 255;
	KUNIT_EXPECT_EQ(test, mlx5x_mw_check_req(&req, IB_MW_TYPE_2, &klms),
			0);
	KUNIT_EXPECT_EQ(test, klms, 256);
}

static void mw_request_refusals(struct kunit *test)
{
	struct mlx5_ib_alloc_mw req = {};
	u16 klms = 0;

	KUNIT_EXPECT_EQ(test, mlx5x_mw_check_req(&req, 3, &klms), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_mw_check_req(&req, 0, &klms), -EINVAL);
	req.comp_mask = 1;
	KUNIT_EXPECT_EQ(test, mlx5x_mw_check_req(&req, IB_MW_TYPE_1, &klms),
			-EOPNOTSUPP);
	req.comp_mask = 0;
	req.reserved1 = 1;
	KUNIT_EXPECT_EQ(test, mlx5x_mw_check_req(&req, IB_MW_TYPE_1, &klms),
			-EOPNOTSUPP);
	req.reserved1 = 0;
	req.reserved2 = 0x100;
	KUNIT_EXPECT_EQ(test, mlx5x_mw_check_req(&req, IB_MW_TYPE_2, &klms),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, klms, 0);
}

/* A window's key: free, KLM mode, umr_en, local read only, no range. */
static void mw_mkey_context(struct kunit *test)
{
	struct mlx5x_mkey_params p = {
		.pdn = 0x34,
		.access = MLX5X_MKEY_RW,	/* ignored for a window */
		.variant = 0x5c,
		.iova = 0x1000,			/* ignored too */
		.len = SZ_4K,
		.window_klms = 4,
	};
	__be32 mkc[MLX5X_MKC_LEN / 4] = {};

	mlx5x_mkc_encode(mkc, &p);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_FREE), 1);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_ACCESS_MODE_1_0),
			MLX5X_MKC_ACCESS_MODE_KLMS);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_ACCESS_MODE_4_2), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_UMR_EN), 1);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_LR), 1);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_LW), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_RW), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_EN_RINVAL), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_QPN), 0xffffff);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_MKEY_7_0), 0x5c);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_PD), 0x34);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(*(__be64 *)((u8 *)mkc +
						      MLX5X_MKC_START_ADDR_OFF)),
			0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(*(__be64 *)((u8 *)mkc +
						      MLX5X_MKC_LEN_OFF)),
			0);
	/* one KLM per octword */
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_TRANSLATIONS_OCTWORD_SIZE),
			4);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_LOG_PAGE_SIZE), 0);
	/* type 2: remote invalidation */
	memset(mkc, 0, sizeof(mkc));
	p.en_rinval = true;
	mlx5x_mkc_encode(mkc, &p);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_EN_RINVAL), 1);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_FREE), 1);
}

static struct kunit_case mr_cases[] = {
	KUNIT_CASE(mr_access_translation),
	KUNIT_CASE(mr_access_refusals),
	KUNIT_CASE(mr_mkey_context),
	KUNIT_CASE(mw_request),
	KUNIT_CASE(mw_request_refusals),
	KUNIT_CASE(mw_mkey_context),
	{}
};

static struct kunit_suite mr_suite = {
	.name = "mlx5x_verbs_mr",
	.test_cases = mr_cases,
};

/* ---- mlx5x_verbs_cq ---- */

static struct mlx5_ib_create_cq libmlx5_cq(void)
{
	struct mlx5_ib_create_cq ucmd = {
		.buf_addr = 0x7f1234560000ULL,
		.db_addr = 0x7f1234570040ULL,
		.cqe_size = 64,
		.flags = MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX,
		.uar_page_index = 9,
	};

	return ucmd;
}

static void cq_request_sizes(struct kunit *test)
{
	struct mlx5_ib_create_cq ucmd = libmlx5_cq();
	u32 entries;

	/* libmlx5 asks ncqe - 1 for a ring of ncqe (a power of two) */
	KUNIT_EXPECT_EQ(test, mlx5x_cq_check_req(&ucmd, &cx5, 255, 0, &entries),
			0);
	KUNIT_EXPECT_EQ(test, entries, 256);
	KUNIT_EXPECT_EQ(test, mlx5x_cq_check_req(&ucmd, &cx5, 1, 0, &entries),
			0);
	KUNIT_EXPECT_EQ(test, entries, 2);
	KUNIT_EXPECT_EQ(test, mlx5x_cq_check_req(&ucmd, &cx5, (1 << 22) - 1, 0,
						 &entries), 0);
	KUNIT_EXPECT_EQ(test, entries, 1 << 22);
	/* max_cqe + 1 is EINVAL (rdma-core test_create_cq_bad_flow) */
	KUNIT_EXPECT_EQ(test, mlx5x_cq_check_req(&ucmd, &cx5, 1 << 22, 0,
						 &entries), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_cq_check_req(&ucmd, &cx5, 0, 0, &entries),
			-EINVAL);
	ucmd.cqe_size = 128;
	KUNIT_EXPECT_EQ(test, mlx5x_cq_check_req(&ucmd, &cx5, 7, 0, &entries),
			0);
	ucmd.cqe_size = 32;
	KUNIT_EXPECT_EQ(test, mlx5x_cq_check_req(&ucmd, &cx5, 7, 0, &entries),
			-EINVAL);
}

static void cq_request_refusals(struct kunit *test)
{
	struct mlx5_ib_create_cq ucmd = libmlx5_cq();
	u32 entries;

	KUNIT_EXPECT_EQ(test, mlx5x_cq_check_req(&ucmd, &cx5, 7,
						 IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION,
						 &entries), -EOPNOTSUPP);
	ucmd.cqe_comp_en = 1;
	KUNIT_EXPECT_EQ(test, mlx5x_cq_check_req(&ucmd, &cx5, 7, 0, &entries),
			-EOPNOTSUPP);
	ucmd = libmlx5_cq();
	ucmd.flags |= MLX5_IB_CREATE_CQ_FLAGS_CQE_128B_PAD;
	KUNIT_EXPECT_EQ(test, mlx5x_cq_check_req(&ucmd, &cx5, 7, 0, &entries),
			-EOPNOTSUPP);
	/* no UAR named: with dynamic UARs nothing could arm the CQ */
	ucmd = libmlx5_cq();
	ucmd.flags = 0;
	KUNIT_EXPECT_EQ(test, mlx5x_cq_check_req(&ucmd, &cx5, 7, 0, &entries),
			-EINVAL);
	ucmd = libmlx5_cq();
	ucmd.reserved1 = 1;
	KUNIT_EXPECT_EQ(test, mlx5x_cq_check_req(&ucmd, &cx5, 7, 0, &entries),
			-EINVAL);
	ucmd = libmlx5_cq();
	ucmd.buf_addr += 64;
	KUNIT_EXPECT_EQ(test, mlx5x_cq_check_req(&ucmd, &cx5, 7, 0, &entries),
			-EINVAL);
}

static void cq_context(struct kunit *test)
{
	struct mlx5x_cq_params p = {
		.log_size = 8,
		.cqe_128 = true,
		.uar = 0x21,
		.eqn = 3,
		.dbr = 0x123456780040ULL,
		.pas = { .pgsz = SZ_64K, .n = 1 },
	};
	__be32 cqc[MLX5X_CQC_LEN / 4] = {};

	mlx5x_cqc_encode(cqc, &p);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(cqc, MLX5X_CQC_CQE_SZ),
			MLX5X_CQE_SIZE_128);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(cqc, MLX5X_CQC_LOG_CQ_SIZE), 8);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(cqc, MLX5X_CQC_UAR_PAGE), 0x21);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(cqc, MLX5X_CQC_C_EQN), 3);
	/* page sizes count from 4 KiB */
	KUNIT_EXPECT_EQ(test, MLX5X_GET(cqc, MLX5X_CQC_LOG_PAGE_SIZE), 4);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(cqc, MLX5X_CQC_PAGE_OFFSET), 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(*(__be64 *)((u8 *)cqc +
						      MLX5X_CQC_DBR_ADDR_OFF)),
			0x123456780040ULL);
	KUNIT_EXPECT_EQ(test, mlx5x_pas_inlen(MLX5X_CREATE_CQ_IN_LEN, &p.pas),
			MLX5X_CREATE_CQ_IN_LEN + 8);
}

static struct kunit_case cq_cases[] = {
	KUNIT_CASE(cq_request_sizes),
	KUNIT_CASE(cq_request_refusals),
	KUNIT_CASE(cq_context),
	{}
};

static struct kunit_suite cq_suite = {
	.name = "mlx5x_verbs_cq",
	.test_cases = cq_cases,
};

/* ---- mlx5x_verbs_qp ---- */

/*
 * libmlx5 for rc_pingpong (rx_depth 500, one send WR, one SGE): 512
 * receive WQEs of 16 bytes, one 64-byte send WQEBB rounded up.
 */
static struct mlx5_ib_create_qp libmlx5_qp(void)
{
	struct mlx5_ib_create_qp ucmd = {
		.buf_addr = 0x7f0000100000ULL,
		.db_addr = 0x7f0000200080ULL,
		.sq_wqe_count = 1,
		.rq_wqe_count = 512,
		.rq_wqe_shift = 4,
		.flags = MLX5_QP_FLAG_SCATTER_CQE | MLX5_QP_FLAG_UAR_PAGE_INDEX,
		.uidx = 7,
		.bfreg_index = 9,
	};

	return ucmd;
}

static const struct ib_qp_cap pingpong_cap = {
	.max_send_wr = 1, .max_recv_wr = 500,
	.max_send_sge = 1, .max_recv_sge = 1,
};

static void qp_sizes_libmlx5(struct kunit *test)
{
	struct mlx5_ib_create_qp ucmd = libmlx5_qp();
	struct mlx5x_qp_sizes sz;

	KUNIT_ASSERT_EQ(test, mlx5x_qp_user_sizes(&ucmd, &pingpong_cap, &cx5,
						  &sz), 0);
	KUNIT_EXPECT_EQ(test, sz.rq_wqe_cnt, 512);
	KUNIT_EXPECT_EQ(test, sz.rq_wqe_shift, 4);
	KUNIT_EXPECT_EQ(test, sz.rq_max_gs, 1);
	KUNIT_EXPECT_EQ(test, sz.sq_wqe_cnt, 1);
	/* receive queue first, then the send queue */
	KUNIT_EXPECT_EQ(test, sz.buf_size, 512 * 16 + 64);
}

static void qp_sizes_without_queues(struct kunit *test)
{
	struct mlx5_ib_create_qp ucmd = libmlx5_qp();
	struct ib_qp_cap cap = pingpong_cap;
	struct mlx5x_qp_sizes sz;

	/* no receive WRs: no receive queue, and libmlx5 says so */
	cap.max_recv_wr = 0;
	cap.max_recv_sge = 0;
	ucmd.rq_wqe_count = 0;
	ucmd.rq_wqe_shift = 0;
	KUNIT_ASSERT_EQ(test, mlx5x_qp_user_sizes(&ucmd, &cap, &cx5, &sz), 0);
	KUNIT_EXPECT_EQ(test, sz.rq_wqe_cnt, 0);
	KUNIT_EXPECT_EQ(test, sz.buf_size, 64);
	ucmd.rq_wqe_count = 4;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_user_sizes(&ucmd, &cap, &cx5, &sz),
			-EINVAL);
	/* no queue at all leaves nothing to map */
	ucmd.rq_wqe_count = 0;
	ucmd.sq_wqe_count = 0;
	cap.max_send_wr = 0;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_user_sizes(&ucmd, &cap, &cx5, &sz),
			-EINVAL);
}

static void qp_sizes_refusals(struct kunit *test)
{
	struct mlx5_ib_create_qp ucmd = libmlx5_qp();
	struct ib_qp_cap cap = pingpong_cap;
	struct mlx5x_qp_sizes sz;

	ucmd.rq_wqe_count = 500;	/* not a power of two */
	KUNIT_EXPECT_EQ(test, mlx5x_qp_user_sizes(&ucmd, &cap, &cx5, &sz),
			-EINVAL);
	ucmd = libmlx5_qp();
	ucmd.rq_wqe_count = 256;	/* fewer than asked */
	KUNIT_EXPECT_EQ(test, mlx5x_qp_user_sizes(&ucmd, &cap, &cx5, &sz),
			-EINVAL);
	ucmd = libmlx5_qp();
	ucmd.sq_wqe_count = 1 << 16;	/* beyond log_max_qp_sz */
	KUNIT_EXPECT_EQ(test, mlx5x_qp_user_sizes(&ucmd, &cap, &cx5, &sz),
			-EINVAL);
	ucmd = libmlx5_qp();
	ucmd.rq_wqe_shift = 3;		/* below one data segment */
	KUNIT_EXPECT_EQ(test, mlx5x_qp_user_sizes(&ucmd, &cap, &cx5, &sz),
			-EINVAL);
	ucmd.rq_wqe_shift = 10;		/* beyond max_wqe_sz_rq (512) */
	KUNIT_EXPECT_EQ(test, mlx5x_qp_user_sizes(&ucmd, &cap, &cx5, &sz),
			-EINVAL);
	ucmd = libmlx5_qp();
	cap.max_recv_sge = 2;		/* one 16-byte WQE holds one SGE */
	KUNIT_EXPECT_EQ(test, mlx5x_qp_user_sizes(&ucmd, &cap, &cx5, &sz),
			-EINVAL);
}

static void qp_flags(struct kunit *test)
{
	struct mlx5_ib_create_qp ucmd = libmlx5_qp();

	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_flags(&ucmd, 1), 0);
	/* version 0 CQEs: the user index must be "none" */
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_flags(&ucmd, 0), -EINVAL);
	ucmd.uidx = 0xffffff;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_flags(&ucmd, 0), 0);
	ucmd.uidx = 0x1000000;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_flags(&ucmd, 1), -EINVAL);
	ucmd = libmlx5_qp();
	ucmd.flags |= MLX5_QP_FLAG_SIGNATURE;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_flags(&ucmd, 1), -EOPNOTSUPP);
	ucmd = libmlx5_qp();
	ucmd.flags = MLX5_QP_FLAG_BFREG_INDEX;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_flags(&ucmd, 1), -EOPNOTSUPP);
	ucmd.flags = MLX5_QP_FLAG_SCATTER_CQE;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_flags(&ucmd, 1), -EINVAL);
	ucmd = libmlx5_qp();
	ucmd.ece_options = 0x10000000;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_flags(&ucmd, 1), -EOPNOTSUPP);
	ucmd = libmlx5_qp();
	ucmd.sq_buf_addr = 0x1000;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_flags(&ucmd, 1), -EINVAL);
}

static void qp_page_offset(struct kunit *test)
{
	unsigned int q;

	KUNIT_EXPECT_TRUE(test, mlx5x_page_offset_quantize(0x10000, SZ_4K, &q));
	KUNIT_EXPECT_EQ(test, q, 0);
	/* 4 KiB pages: units of 64 bytes */
	KUNIT_EXPECT_TRUE(test, mlx5x_page_offset_quantize(0x10fc0, SZ_4K, &q));
	KUNIT_EXPECT_EQ(test, q, 63);
	KUNIT_EXPECT_FALSE(test, mlx5x_page_offset_quantize(0x10020, SZ_4K, &q));
	/* 64 KiB pages: units of 1 KiB */
	KUNIT_EXPECT_TRUE(test, mlx5x_page_offset_quantize(0x2400, SZ_64K, &q));
	KUNIT_EXPECT_EQ(test, q, 9);
	KUNIT_EXPECT_FALSE(test, mlx5x_page_offset_quantize(0x2040, SZ_64K, &q));
}

static void qp_transitions(struct kunit *test)
{
	static const struct {
		enum ib_qp_state cur, next;
		int err;
		u16 opcode;
	} t[] = {
		{ IB_QPS_RESET, IB_QPS_INIT, 0, MLX5X_CMD_OP_RST2INIT_QP },
		{ IB_QPS_INIT, IB_QPS_INIT, 0, MLX5X_CMD_OP_INIT2INIT_QP },
		{ IB_QPS_INIT, IB_QPS_RTR, 0, MLX5X_CMD_OP_INIT2RTR_QP },
		{ IB_QPS_RTR, IB_QPS_RTS, 0, MLX5X_CMD_OP_RTR2RTS_QP },
		{ IB_QPS_RTS, IB_QPS_RTS, 0, MLX5X_CMD_OP_RTS2RTS_QP },
		{ IB_QPS_SQE, IB_QPS_RTS, 0, MLX5X_CMD_OP_SQERR2RTS_QP },
		{ IB_QPS_RTS, IB_QPS_ERR, 0, MLX5X_CMD_OP_2ERR_QP },
		{ IB_QPS_ERR, IB_QPS_RESET, 0, MLX5X_CMD_OP_2RST_QP },
		{ IB_QPS_RTR, IB_QPS_RESET, 0, MLX5X_CMD_OP_2RST_QP },
		{ IB_QPS_RESET, IB_QPS_RESET, 0, 0 },
		{ IB_QPS_RTS, IB_QPS_SQD, -EOPNOTSUPP, 0 },
	};
	unsigned int i;
	u16 op;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		op = 0;
		KUNIT_EXPECT_EQ(test, mlx5x_qp_transition(t[i].cur, t[i].next,
							  &op), t[i].err);
		KUNIT_EXPECT_EQ(test, op, t[i].opcode);
	}
}

/* INIT->RTR as ibv_rc_pingpong sets it, with a GRH and a P_Key index. */
static void rtr_attr(struct ib_qp_attr *attr, int *mask)
{
	union ib_gid dgid = { .raw = { 0xfe, 0x80, [15] = 0x42 } };

	memset(attr, 0, sizeof(*attr));
	attr->qp_state = IB_QPS_RTR;
	attr->path_mtu = IB_MTU_1024;
	attr->dest_qp_num = 0x1234;
	attr->rq_psn = 0xabcdef;
	attr->max_dest_rd_atomic = 3;
	attr->min_rnr_timer = 12;
	attr->pkey_index = 5;
	attr->ah_attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_dlid(&attr->ah_attr, 0x32c4);
	rdma_ah_set_sl(&attr->ah_attr, 2);
	rdma_ah_set_port_num(&attr->ah_attr, 1);
	rdma_ah_set_grh(&attr->ah_attr, &dgid, 0x12345, 1, 64, 0x20);
	*mask = IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN |
		IB_QP_RQ_PSN | IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER |
		IB_QP_PKEY_INDEX;
}

static void qp_mod_init2rtr(struct kunit *test)
{
	struct mlx5x_qp_mod m;
	struct ib_qp_attr attr;
	u32 optpar;
	int mask;

	rtr_attr(&attr, &mask);
	KUNIT_ASSERT_EQ(test, mlx5x_qp_attr_to_mod(&attr, mask, IB_QPT_RC,
						   MLX5X_CMD_OP_INIT2RTR_QP,
						   &cx5, NULL, &m, &optpar), 0);
	/* the responder depth rewrites the rights too, as mlx5_ib */
	KUNIT_EXPECT_EQ(test, m.fields, MLX5X_QPM_AV | MLX5X_QPM_MTU |
			MLX5X_QPM_RQPN | MLX5X_QPM_RQ_PSN | MLX5X_QPM_RRA |
			MLX5X_QPM_RNR_TIMER | MLX5X_QPM_PKEY |
			MLX5X_QPM_ACCESS);
	/* the P_Key index is optional at INIT2RTR: it sets its bit */
	KUNIT_EXPECT_EQ(test, optpar, MLX5X_QP_OPTPAR_PKEY_INDEX |
			MLX5X_QP_OPTPAR_RRE | MLX5X_QP_OPTPAR_RWE |
			MLX5X_QP_OPTPAR_RAE);
	KUNIT_EXPECT_EQ(test, m.log_rra_max, 2);	/* 3 rounds up to 4 */
	KUNIT_EXPECT_EQ(test, m.path.rlid, 0x32c4);
	KUNIT_EXPECT_TRUE(test, m.path.grh);
	KUNIT_EXPECT_EQ(test, m.path.sgid_index, 1);
	KUNIT_EXPECT_EQ(test, m.path.flow_label, 0x12345);
	KUNIT_EXPECT_EQ(test, m.log_msg_max, 30);
}

static void qp_mod_rtr2rts_and_rst2init(struct kunit *test)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_RTS, .timeout = 14, .retry_cnt = 7,
		.rnr_retry = 7, .sq_psn = 0x1000001, .max_rd_atomic = 1,
		.min_rnr_timer = 12,
		.qp_access_flags = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC |
				   BIT(8) /* FLUSH_GLOBAL */,
		.pkey_index = 0, .port_num = 1,
	};
	struct mlx5x_qp_mod m;
	u32 optpar;
	int mask = IB_QP_STATE | IB_QP_TIMEOUT | IB_QP_RETRY_CNT |
		   IB_QP_RNR_RETRY | IB_QP_SQ_PSN | IB_QP_MAX_QP_RD_ATOMIC |
		   IB_QP_MIN_RNR_TIMER;

	KUNIT_ASSERT_EQ(test, mlx5x_qp_attr_to_mod(&attr, mask, IB_QPT_RC,
						   MLX5X_CMD_OP_RTR2RTS_QP,
						   &cx5, NULL, &m, &optpar), 0);
	KUNIT_EXPECT_EQ(test, optpar, MLX5X_QP_OPTPAR_RNR_TIMEOUT);
	KUNIT_EXPECT_EQ(test, m.sq_psn, 1);	/* 24 bits */
	KUNIT_EXPECT_EQ(test, m.log_sra_max, 0);
	KUNIT_EXPECT_EQ(test, m.path.ack_timeout, 14);

	mask = IB_QP_STATE | IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX | IB_QP_PORT;
	KUNIT_ASSERT_EQ(test, mlx5x_qp_attr_to_mod(&attr, mask, IB_QPT_RC,
						   MLX5X_CMD_OP_RST2INIT_QP,
						   &cx5, NULL, &m, &optpar), 0);
	KUNIT_EXPECT_EQ(test, optpar, 0);
	KUNIT_EXPECT_EQ(test, m.fields, MLX5X_QPM_ACCESS | MLX5X_QPM_PKEY |
			MLX5X_QPM_PORT);
	/* unknown access bits (FLUSH) are ignored */
	KUNIT_EXPECT_FALSE(test, m.rre);
	KUNIT_EXPECT_TRUE(test, m.rwe);
	/* no responder depth yet: atomics wait for INIT2RTR */
	KUNIT_EXPECT_FALSE(test, m.rae);
	KUNIT_EXPECT_EQ(test, m.path.port, 1);
}

/*
 * mlx5_ib's rights: access flags and responder depth, each given or
 * remembered; depth 0 leaves remote writes only; atomics carry the mode.
 */
static void qp_rights_follow_depth(struct kunit *test)
{
	struct mlx5x_qp_cur cur = {
		.port = 1, .access = IB_ACCESS_REMOTE_READ |
			IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC,
	};
	__be32 qpc[MLX5X_QPC_LEN / 4] = {};
	struct mlx5x_qp_mod m;
	struct ib_qp_attr attr;
	u32 optpar;
	int mask;

	/* INIT2RTR with a depth: the remembered rights, with their bits */
	rtr_attr(&attr, &mask);
	KUNIT_ASSERT_EQ(test, mlx5x_qp_attr_to_mod(&attr, mask, IB_QPT_RC,
						   MLX5X_CMD_OP_INIT2RTR_QP,
						   &cx5, &cur, &m, &optpar), 0);
	KUNIT_EXPECT_TRUE(test, m.fields & MLX5X_QPM_ACCESS);
	KUNIT_EXPECT_EQ(test, optpar, MLX5X_QP_OPTPAR_PKEY_INDEX |
			MLX5X_QP_OPTPAR_RRE | MLX5X_QP_OPTPAR_RWE |
			MLX5X_QP_OPTPAR_RAE);
	KUNIT_EXPECT_TRUE(test, m.rre);
	KUNIT_EXPECT_TRUE(test, m.rwe);
	KUNIT_EXPECT_TRUE(test, m.rae);
	mlx5x_qpc_mod_encode(qpc, &m);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_RAE), 1);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_ATOMIC_MODE),
			MLX5X_QPC_ATOMIC_MODE_IB_COMP);

	/* depth 0: reads and atomics cleared, writes kept, no mode */
	attr.max_dest_rd_atomic = 0;
	KUNIT_ASSERT_EQ(test, mlx5x_qp_attr_to_mod(&attr, mask, IB_QPT_RC,
						   MLX5X_CMD_OP_INIT2RTR_QP,
						   &cx5, &cur, &m, &optpar), 0);
	KUNIT_EXPECT_FALSE(test, m.rre);
	KUNIT_EXPECT_TRUE(test, m.rwe);
	KUNIT_EXPECT_FALSE(test, m.rae);
	memset(qpc, 0, sizeof(qpc));
	mlx5x_qpc_mod_encode(qpc, &m);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_RRE), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_ATOMIC_MODE), 0);

	/* new access flags at RTS2RTS combine with the remembered depth */
	cur.resp_depth = 4;
	memset(&attr, 0, sizeof(attr));
	attr.qp_access_flags = IB_ACCESS_REMOTE_READ;
	KUNIT_ASSERT_EQ(test, mlx5x_qp_attr_to_mod(&attr, IB_QP_STATE |
						   IB_QP_ACCESS_FLAGS, IB_QPT_RC,
						   MLX5X_CMD_OP_RTS2RTS_QP,
						   &cx5, &cur, &m, &optpar), 0);
	KUNIT_EXPECT_TRUE(test, m.rre);
	KUNIT_EXPECT_FALSE(test, m.rwe);
	KUNIT_EXPECT_FALSE(test, m.rae);

	/* remote atomics on a device without an atomic mode: refused */
	attr.qp_access_flags = IB_ACCESS_REMOTE_ATOMIC;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_attr_to_mod(&attr, IB_QP_STATE |
						   IB_QP_ACCESS_FLAGS, IB_QPT_RC,
						   MLX5X_CMD_OP_RTS2RTS_QP,
						   &bare, &cur, &m, &optpar),
			-EOPNOTSUPP);
}

/* An address names its port, the remembered one without IB_QP_PORT. */
static void qp_av_names_port(struct kunit *test)
{
	const struct mlx5x_qp_cur cur = { .port = 1 };
	__be32 qpc[MLX5X_QPC_LEN / 4] = {};
	const u8 *ads = (const u8 *)qpc + MLX5X_QPC_PRI_PATH_OFF;
	struct mlx5x_qp_mod m;
	struct ib_qp_attr attr;
	u32 optpar;
	int mask;

	rtr_attr(&attr, &mask);
	KUNIT_ASSERT_FALSE(test, mask & IB_QP_PORT);
	KUNIT_ASSERT_EQ(test, mlx5x_qp_attr_to_mod(&attr, mask, IB_QPT_RC,
						   MLX5X_CMD_OP_INIT2RTR_QP,
						   &cx5, &cur, &m, &optpar), 0);
	mlx5x_qpc_mod_encode(qpc, &m);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(ads, MLX5X_ADS_VHCA_PORT_NUM), 1);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(ads, MLX5X_ADS_RLID), 0x32c4);
}

/* Only a unicast remote LID reaches the firmware. */
static void qp_av_unicast_lid(struct kunit *test)
{
	static const u32 bad[] = { 0, 0xc000, 0xfffe, 0xffff };
	const struct mlx5x_qp_cur cur = { .port = 1 };
	struct mlx5x_qp_mod m;
	struct ib_qp_attr attr;
	int mask, i, err;
	u32 optpar;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		rtr_attr(&attr, &mask);
		rdma_ah_set_dlid(&attr.ah_attr, bad[i]);
		err = mlx5x_qp_attr_to_mod(&attr, mask, IB_QPT_RC,
					   MLX5X_CMD_OP_INIT2RTR_QP, &cx5, &cur,
					   &m, &optpar);
		KUNIT_EXPECT_EQ_MSG(test, err, -EINVAL, "dlid 0x%x", bad[i]);
	}
	rtr_attr(&attr, &mask);
	rdma_ah_set_dlid(&attr.ah_attr, 0xbfff);
	KUNIT_EXPECT_EQ(test, mlx5x_qp_attr_to_mod(&attr, mask, IB_QPT_RC,
						   MLX5X_CMD_OP_INIT2RTR_QP,
						   &cx5, &cur, &m, &optpar), 0);
	KUNIT_EXPECT_EQ(test, m.path.rlid, 0xbfff);
}

/* mlx5_ib's static rates: codes, and stepping down the ib_rate values. */
static void qp_stat_rate_step_down(struct kunit *test)
{
	u16 all = GENMASK(15, 0);
	u8 code;

	KUNIT_EXPECT_EQ(test, mlx5x_qp_stat_rate(IB_RATE_PORT_CURRENT, all,
						 &code), 0);
	KUNIT_EXPECT_EQ(test, code, 0);
	KUNIT_EXPECT_EQ(test, mlx5x_qp_stat_rate(IB_RATE_10_GBPS, all, &code),
			0);
	KUNIT_EXPECT_EQ(test, code, 8);
	KUNIT_EXPECT_EQ(test, mlx5x_qp_stat_rate(IB_RATE_25_GBPS, all, &code),
			0);
	KUNIT_EXPECT_EQ(test, code, 2);
	KUNIT_EXPECT_EQ(test, mlx5x_qp_stat_rate(IB_RATE_400_GBPS, all,
						 &code), 0);
	KUNIT_EXPECT_EQ(test, code, 6);
	/* 14 Gb/s has no code: it steps down to 120 Gb/s (code 15) */
	KUNIT_EXPECT_EQ(test, mlx5x_qp_stat_rate(IB_RATE_14_GBPS, all, &code),
			0);
	KUNIT_EXPECT_EQ(test, code, 15);
	/* 25 Gb/s unsupported: 168, 112 (no codes), then 56 Gb/s */
	KUNIT_EXPECT_EQ(test, mlx5x_qp_stat_rate(IB_RATE_25_GBPS, all & ~BIT(2),
						 &code), 0);
	KUNIT_EXPECT_EQ(test, code, 1);
	/* nothing supported: the port's rate */
	KUNIT_EXPECT_EQ(test, mlx5x_qp_stat_rate(IB_RATE_40_GBPS, 0, &code),
			0);
	KUNIT_EXPECT_EQ(test, code, 0);
	KUNIT_EXPECT_EQ(test, mlx5x_qp_stat_rate(23 /* 800 Gb/s */, all,
						 &code), 0);
	KUNIT_EXPECT_EQ(test, code, 0);
	/* not a rate */
	KUNIT_EXPECT_EQ(test, mlx5x_qp_stat_rate(1, all, &code), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_qp_stat_rate(25, all, &code), -EINVAL);
	/* and back, for QUERY_QP */
	KUNIT_EXPECT_EQ(test, mlx5x_qp_stat_rate_to_ib(0), IB_RATE_PORT_CURRENT);
	KUNIT_EXPECT_EQ(test, mlx5x_qp_stat_rate_to_ib(2), IB_RATE_25_GBPS);
	KUNIT_EXPECT_EQ(test, mlx5x_qp_stat_rate_to_ib(8), IB_RATE_10_GBPS);
	KUNIT_EXPECT_EQ(test, mlx5x_qp_stat_rate_to_ib(15), IB_RATE_120_GBPS);
}

/* The reserved objects a QP context names instead of 0. */
static const struct mlx5x_devr devr = {
	.xrcdn0 = 0x10, .xrcdn1 = 0x11, .pdn = 0x20, .cqn = 0x30,
	.s0 = { .srqn = 0x40 }, .s1 = { .srqn = 0x41 },
};

static void qp_rq_names(struct kunit *test)
{
	const u32 srqn = 0x77;
	struct mlx5x_qp_params p = {};
	__be32 qpc[MLX5X_QPC_LEN / 4] = {};

	/* own receive queue: the basic reserved SRQ, domain 1 */
	mlx5x_qp_rq_names(&devr, false, NULL, true, &p);
	KUNIT_EXPECT_EQ(test, p.rq_type, MLX5X_QP_RQ_NON_ZERO);
	KUNIT_EXPECT_EQ(test, p.srqn, 0x41);
	KUNIT_EXPECT_EQ(test, p.xrcd, 0x11);
	/* no receive queue: the same names */
	mlx5x_qp_rq_names(&devr, false, NULL, false, &p);
	KUNIT_EXPECT_EQ(test, p.rq_type, MLX5X_QP_RQ_ZERO_LEN);
	KUNIT_EXPECT_EQ(test, p.srqn, 0x41);
	KUNIT_EXPECT_EQ(test, p.xrcd, 0x11);
	/* on an SRQ: that SRQ, domain 0 */
	mlx5x_qp_rq_names(&devr, false, &srqn, false, &p);
	KUNIT_EXPECT_EQ(test, p.rq_type, MLX5X_QP_RQ_SRQ);
	KUNIT_EXPECT_EQ(test, p.srqn, 0x77);
	KUNIT_EXPECT_EQ(test, p.xrcd, 0x10);
	/* an XRC initiator: the reserved XRC SRQ, domain 1 */
	mlx5x_qp_rq_names(&devr, true, NULL, false, &p);
	KUNIT_EXPECT_EQ(test, p.rq_type, MLX5X_QP_RQ_SRQ);
	KUNIT_EXPECT_EQ(test, p.srqn, 0x40);
	KUNIT_EXPECT_EQ(test, p.xrcd, 0x11);
	mlx5x_qpc_create_encode(qpc, &p);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_RQ_TYPE),
			MLX5X_QP_RQ_SRQ);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_SRQN_RMPN_XRQN), 0x40);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_XRCD), 0x11);
}

/* An XRC target names the reserved PD, CQ and XRC SRQ, and its domain. */
static void qp_xrc_tgt_names(struct kunit *test)
{
	__be32 qpc[MLX5X_QPC_LEN / 4] = {};
	struct mlx5x_qp_params p;

	mlx5x_qp_xrc_tgt_params(&devr, &cx5, 0x99, &p);
	mlx5x_qpc_create_encode(qpc, &p);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_ST), MLX5X_QP_ST_XRC);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_PD), 0x20);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_CQN_SND), 0x30);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_CQN_RCV), 0x30);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_RQ_TYPE),
			MLX5X_QP_RQ_SRQ);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_SRQN_RMPN_XRQN), 0x40);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_XRCD), 0x99);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_NO_SQ), 1);
}

/* qpc.ts_format from the caps, as mlx5_ib picks it. */
static void qp_ts_format(struct kunit *test)
{
	struct mlx5x_verbs_caps c = cx5;

	/* free running offered (the zero value): user QPs take it */
	KUNIT_EXPECT_EQ(test, mlx5x_qp_ts_format(&c, false),
			MLX5X_TS_FORMAT_FREE_RUNNING);
	KUNIT_EXPECT_EQ(test, mlx5x_qp_ts_format(&c, true),
			MLX5X_TS_FORMAT_FREE_RUNNING);
	c.qp_ts_cap = MLX5X_TS_CAP_REAL_TIME;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_ts_format(&c, false),
			MLX5X_TS_FORMAT_DEFAULT);
	c.qp_ts_cap = MLX5X_TS_CAP_FREE_RUNNING_AND_REAL_TIME;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_ts_format(&c, false),
			MLX5X_TS_FORMAT_FREE_RUNNING);
	/* kernel QPs: the default unless send queues only run free */
	c.sq_ts_cap = MLX5X_TS_CAP_FREE_RUNNING_AND_REAL_TIME;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_ts_format(&c, true),
			MLX5X_TS_FORMAT_DEFAULT);
}

static void qp_mod_range_checks(struct kunit *test)
{
	struct mlx5x_qp_mod m;
	struct ib_qp_attr attr;
	u32 optpar;
	int mask;

	rtr_attr(&attr, &mask);
	attr.path_mtu = 0;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_attr_to_mod(&attr, mask, IB_QPT_RC,
						   MLX5X_CMD_OP_INIT2RTR_QP,
						   &cx5, NULL, &m, &optpar), -EINVAL);
	rtr_attr(&attr, &mask);
	attr.max_dest_rd_atomic = 17;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_attr_to_mod(&attr, mask, IB_QPT_RC,
						   MLX5X_CMD_OP_INIT2RTR_QP,
						   &cx5, NULL, &m, &optpar), -EINVAL);
	rtr_attr(&attr, &mask);
	attr.pkey_index = 128;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_attr_to_mod(&attr, mask, IB_QPT_RC,
						   MLX5X_CMD_OP_INIT2RTR_QP,
						   &cx5, NULL, &m, &optpar), -EINVAL);
	rtr_attr(&attr, &mask);
	attr.ah_attr.grh.sgid_index = 8;	/* 8 GIDs */
	KUNIT_EXPECT_EQ(test, mlx5x_qp_attr_to_mod(&attr, mask, IB_QPT_RC,
						   MLX5X_CMD_OP_INIT2RTR_QP,
						   &cx5, NULL, &m, &optpar), -EINVAL);
	rtr_attr(&attr, &mask);
	attr.min_rnr_timer = 32;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_attr_to_mod(&attr, mask, IB_QPT_RC,
						   MLX5X_CMD_OP_INIT2RTR_QP,
						   &cx5, NULL, &m, &optpar), -EINVAL);
}

/* What a transition writes is what QUERY_QP reads back. */
static void qp_context_round_trip(struct kunit *test)
{
	__be32 qpc[MLX5X_QPC_LEN / 4] = {};
	struct mlx5x_qp_mod m, back;
	struct ib_qp_attr attr;
	u32 optpar;
	int mask;

	rtr_attr(&attr, &mask);
	KUNIT_ASSERT_EQ(test, mlx5x_qp_attr_to_mod(&attr, mask, IB_QPT_RC,
						   MLX5X_CMD_OP_INIT2RTR_QP,
						   &cx5, NULL, &m, &optpar), 0);
	mlx5x_qpc_mod_encode(qpc, &m);
	MLX5X_SET(qpc, MLX5X_QPC_STATE, MLX5X_QP_STATE_RTR);
	mlx5x_qpc_decode(qpc, &back);
	KUNIT_EXPECT_EQ(test, mlx5x_qp_state_to_ib(back.state), IB_QPS_RTR);
	KUNIT_EXPECT_EQ(test, back.mtu, IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, back.remote_qpn, 0x1234);
	KUNIT_EXPECT_EQ(test, back.rq_psn, 0xabcdef);
	KUNIT_EXPECT_EQ(test, back.log_rra_max, 2);
	KUNIT_EXPECT_EQ(test, back.min_rnr_nak, 12);
	KUNIT_EXPECT_EQ(test, back.path.pkey_index, 5);
	KUNIT_EXPECT_EQ(test, back.path.rlid, 0x32c4);
	KUNIT_EXPECT_EQ(test, back.path.sl, 2);
	KUNIT_EXPECT_TRUE(test, back.path.grh);
	KUNIT_EXPECT_EQ(test, back.path.hop_limit, 64);
	KUNIT_EXPECT_EQ(test, back.path.tclass, 0x20);
	KUNIT_EXPECT_EQ(test, back.path.flow_label, 0x12345);
	KUNIT_EXPECT_MEMEQ(test, back.path.rgid, attr.ah_attr.grh.dgid.raw, 16);
	/* fields this transition does not carry stay untouched */
	KUNIT_EXPECT_EQ(test, back.sq_psn, 0);
	KUNIT_EXPECT_EQ(test, back.path.port, 0);
}

static void qp_create_context(struct kunit *test)
{
	struct mlx5x_qp_params p = {
		.st = MLX5X_QP_ST_RC, .pdn = 3, .uar = 9, .user_index = 7,
		.cqn_snd = 0x11, .cqn_rcv = 0x12,
		.rq_type = MLX5X_QP_RQ_ZERO_LEN, .srqn = 0x41, .xrcd = 0x11,
		.has_sq = true, .log_sq_size = 6, .dbr = 0xabc000,
		.ts_format = MLX5X_TS_FORMAT_DEFAULT,
		.pas = { .pgsz = SZ_4K, .page_offset = 2 },
	};
	__be32 qpc[MLX5X_QPC_LEN / 4] = {};

	mlx5x_qpc_create_encode(qpc, &p);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_STATE),
			MLX5X_QP_STATE_RST);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_ST), MLX5X_QP_ST_RC);
	/* no receive WRs: a zero-length receive queue */
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_RQ_TYPE),
			MLX5X_QP_RQ_ZERO_LEN);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_LOG_SQ_SIZE), 6);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_NO_SQ), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_UAR_PAGE), 9);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_USER_INDEX), 7);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_PAGE_OFFSET), 2);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_CQN_SND), 0x11);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_CQN_RCV), 0x12);
	/* the reserved SRQ and domain are named even without receives */
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_SRQN_RMPN_XRQN), 0x41);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_XRCD), 0x11);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_TS_FORMAT),
			MLX5X_TS_FORMAT_DEFAULT);
	/* a user QP: no fast registration, no reserved lkey */
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_FRE), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_RLKY), 0);

	memset(qpc, 0, sizeof(qpc));
	p.rq_type = MLX5X_QP_RQ_NON_ZERO;
	p.rq_wqe_shift = 5;
	p.log_rq_size = 9;
	p.has_sq = false;
	mlx5x_qpc_create_encode(qpc, &p);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_RQ_TYPE),
			MLX5X_QP_RQ_NON_ZERO);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_LOG_RQ_SIZE), 9);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_LOG_RQ_STRIDE), 1);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_NO_SQ), 1);
}

static struct kunit_case qp_cases[] = {
	KUNIT_CASE(qp_sizes_libmlx5),
	KUNIT_CASE(qp_sizes_without_queues),
	KUNIT_CASE(qp_sizes_refusals),
	KUNIT_CASE(qp_flags),
	KUNIT_CASE(qp_page_offset),
	KUNIT_CASE(qp_transitions),
	KUNIT_CASE(qp_mod_init2rtr),
	KUNIT_CASE(qp_mod_rtr2rts_and_rst2init),
	KUNIT_CASE(qp_mod_range_checks),
	KUNIT_CASE(qp_context_round_trip),
	KUNIT_CASE(qp_create_context),
	KUNIT_CASE(qp_rights_follow_depth),
	KUNIT_CASE(qp_av_names_port),
	KUNIT_CASE(qp_av_unicast_lid),
	KUNIT_CASE(qp_stat_rate_step_down),
	KUNIT_CASE(qp_rq_names),
	KUNIT_CASE(qp_xrc_tgt_names),
	KUNIT_CASE(qp_ts_format),
	{}
};

static struct kunit_suite qp_suite = {
	.name = "mlx5x_verbs_qp",
	.test_cases = qp_cases,
};

/* ---- mlx5x_verbs_port ---- */

static void port_translations(struct kunit *test)
{
	u8 v;

	KUNIT_EXPECT_EQ(test, mlx5x_port_width_to_ib(MLX5X_PTYS_WIDTH_4X, &v), 0);
	KUNIT_EXPECT_EQ(test, v, IB_WIDTH_4X);
	KUNIT_EXPECT_EQ(test, mlx5x_port_width_to_ib(MLX5X_PTYS_WIDTH_12X, &v),
			0);
	KUNIT_EXPECT_EQ(test, v, IB_WIDTH_12X);
	KUNIT_EXPECT_EQ(test, mlx5x_port_width_to_ib(0x3, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_port_vl_to_ib(4, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 3);
	KUNIT_EXPECT_EQ(test, mlx5x_port_vl_to_ib(15, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 5);
	/* anything else would fail registration: it must be refused */
	KUNIT_EXPECT_EQ(test, mlx5x_port_vl_to_ib(3, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_port_vl_to_ib(0, &v), -EINVAL);
}

static void port_and_qp_events(struct kunit *test)
{
	bool known;

	KUNIT_EXPECT_EQ(test, mlx5x_port_event_to_ib(MLX5X_PORT_CHANGE_ACTIVE,
						     &known), IB_EVENT_PORT_ACTIVE);
	KUNIT_EXPECT_TRUE(test, known);
	KUNIT_EXPECT_EQ(test, mlx5x_port_event_to_ib(MLX5X_PORT_CHANGE_DOWN,
						     &known), IB_EVENT_PORT_ERR);
	KUNIT_EXPECT_EQ(test, mlx5x_port_event_to_ib(MLX5X_PORT_CHANGE_LID,
						     &known), IB_EVENT_LID_CHANGE);
	mlx5x_port_event_to_ib(0x42, &known);
	KUNIT_EXPECT_FALSE(test, known);
	KUNIT_EXPECT_EQ(test, mlx5x_qp_event_to_ib(MLX5X_EVENT_WQ_CATAS_ERROR,
						   &known), IB_EVENT_QP_FATAL);
	KUNIT_EXPECT_TRUE(test, known);
	KUNIT_EXPECT_EQ(test, mlx5x_qp_event_to_ib(MLX5X_EVENT_COMM_EST,
						   &known), IB_EVENT_COMM_EST);
	KUNIT_EXPECT_EQ(test, mlx5x_qp_event_to_ib(MLX5X_EVENT_WQ_ACCESS_ERROR,
						   &known),
			IB_EVENT_QP_ACCESS_ERR);
	/* SRQ events name an SRQ, not a QP: not dispatched to QPs */
	mlx5x_qp_event_to_ib(MLX5X_EVENT_SRQ_RQ_LIMIT, &known);
	KUNIT_EXPECT_FALSE(test, known);
	mlx5x_qp_event_to_ib(MLX5X_EVENT_SRQ_CATAS_ERROR, &known);
	KUNIT_EXPECT_FALSE(test, known);
}

static void caps_decode(struct kunit *test)
{
	struct mlx5x_verbs_caps c;
	__be32 *cap, *atomic;

	cap = kunit_kzalloc(test, 2 * MLX5X_HCA_CAP_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cap);
	atomic = cap + MLX5X_HCA_CAP_LEN / 4;
	MLX5X_SET(cap, MLX5X_CAP_LOG_MAX_QP_SZ, 15);
	MLX5X_SET(cap, MLX5X_CAP_MAX_WQE_SZ_SQ, 1024);
	MLX5X_SET(cap, MLX5X_CAP_CQE_VERSION, 1);
	MLX5X_SET(cap, MLX5X_CAP_NUM_PORTS, 1);
	MLX5X_SET(cap, MLX5X_CAP_ATOMIC, 1);
	MLX5X_SET(atomic, MLX5X_ATOMIC_CAP_OPERATIONS,
		  MLX5X_ATOMIC_OPS_CMP_SWAP | MLX5X_ATOMIC_OPS_FETCH_ADD);
	MLX5X_SET(atomic, MLX5X_ATOMIC_CAP_SIZE_QP, MLX5X_ATOMIC_SIZE_8B);
	MLX5X_SET(atomic, MLX5X_ATOMIC_CAP_REQ_8B_ENDIANNESS,
		  MLX5X_ATOMIC_REQ_MODE_HOST);
	MLX5X_SET(cap, MLX5X_CAP_STAT_RATE_SUPPORT, 0x8104);
	mlx5x_verbs_caps_decode(cap, atomic, &c);
	KUNIT_EXPECT_EQ(test, c.log_max_qp_sz, 15);
	KUNIT_EXPECT_EQ(test, c.max_wqe_sz_sq, 1024);
	KUNIT_EXPECT_EQ(test, c.cqe_version, 1);
	KUNIT_EXPECT_EQ(test, c.stat_rate_support, 0x8104);
	KUNIT_EXPECT_TRUE(test, c.atomic);
	/* the two standard operations: IB-compatible responder mode */
	KUNIT_EXPECT_EQ(test, c.atomic_mode, MLX5X_QPC_ATOMIC_MODE_IB_COMP);
	KUNIT_EXPECT_FALSE(test, c.mw);
	MLX5X_SET(cap, MLX5X_CAP_IMAICL, 1);
	mlx5x_verbs_caps_decode(cap, atomic, &c);
	KUNIT_EXPECT_TRUE(test, c.mw);
	/* extended atomics: the largest operand, at least 8 bytes */
	MLX5X_SET(atomic, MLX5X_ATOMIC_CAP_OPERATIONS,
		  MLX5X_ATOMIC_OPS_CMP_SWAP | MLX5X_ATOMIC_OPS_FETCH_ADD |
		  MLX5X_ATOMIC_OPS_EXT_CMP_SWAP);
	mlx5x_verbs_caps_decode(cap, atomic, &c);
	KUNIT_EXPECT_EQ(test, c.atomic_mode, MLX5X_QPC_ATOMIC_MODE_8B);
	MLX5X_SET(atomic, MLX5X_ATOMIC_CAP_SIZE_QP,
		  MLX5X_ATOMIC_SIZE_8B | BIT(5));
	mlx5x_verbs_caps_decode(cap, atomic, &c);
	KUNIT_EXPECT_EQ(test, c.atomic_mode, 5);	/* 32 bytes */
	/* no requester byte order set (boot value): not IB atomics */
	MLX5X_SET(atomic, MLX5X_ATOMIC_CAP_REQ_8B_ENDIANNESS, 0);
	mlx5x_verbs_caps_decode(cap, atomic, &c);
	KUNIT_EXPECT_FALSE(test, c.atomic);
	/* yet the responder mode stands, as mlx5_ib derives it */
	KUNIT_EXPECT_EQ(test, c.atomic_mode, 5);
	/* no fetch-and-add, or no atomic caps at all */
	MLX5X_SET(atomic, MLX5X_ATOMIC_CAP_REQ_8B_ENDIANNESS,
		  MLX5X_ATOMIC_REQ_MODE_HOST);
	MLX5X_SET(atomic, MLX5X_ATOMIC_CAP_OPERATIONS,
		  MLX5X_ATOMIC_OPS_CMP_SWAP);
	mlx5x_verbs_caps_decode(cap, atomic, &c);
	KUNIT_EXPECT_FALSE(test, c.atomic);
	mlx5x_verbs_caps_decode(cap, NULL, &c);
	KUNIT_EXPECT_FALSE(test, c.atomic);
	KUNIT_EXPECT_EQ(test, c.atomic_mode, 0);
}

static void vport_decode(struct kunit *test)
{
	struct mlx5x_vport_ctx ctx;
	__be32 *hvc;
	u8 *b;

	hvc = kunit_kzalloc(test, MLX5X_HVC_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hvc);
	b = (u8 *)hvc;
	MLX5X_SET(hvc, MLX5X_HVC_PORT_STATE, MLX5X_PORT_STATE_ACTIVE);
	MLX5X_SET(hvc, MLX5X_HVC_PORT_PHYSICAL_STATE, MLX5X_PORT_PHYS_LINK_UP);
	MLX5X_SET(hvc, MLX5X_HVC_LID, 0x32c4);
	MLX5X_SET(hvc, MLX5X_HVC_GRH_REQUIRED, 1);
	b[MLX5X_HVC_NODE_GUID_OFF] = 0x00;
	b[MLX5X_HVC_NODE_GUID_OFF + 1] = 0x02;
	b[MLX5X_HVC_NODE_GUID_OFF + 7] = 0x42;
	mlx5x_vport_ctx_decode(hvc, &ctx);
	KUNIT_EXPECT_EQ(test, ctx.port_state, IB_PORT_ACTIVE);
	KUNIT_EXPECT_EQ(test, ctx.phys_state, IB_PORT_PHYS_STATE_LINK_UP);
	KUNIT_EXPECT_EQ(test, ctx.lid, 0x32c4);
	KUNIT_EXPECT_TRUE(test, ctx.grh_required);
	/* GUIDs stay in device (big-endian) order, as ib_device wants */
	KUNIT_EXPECT_EQ(test, be64_to_cpu(ctx.node_guid), 0x0002000000000042ULL);
}

static struct kunit_case port_cases[] = {
	KUNIT_CASE(port_translations),
	KUNIT_CASE(port_and_qp_events),
	KUNIT_CASE(caps_decode),
	KUNIT_CASE(vport_decode),
	{}
};

static struct kunit_suite port_suite = {
	.name = "mlx5x_verbs_port",
	.test_cases = port_cases,
};

kunit_test_suites(&uctx_suite, &mmap_suite, &mr_suite, &cq_suite, &qp_suite,
		  &port_suite);
