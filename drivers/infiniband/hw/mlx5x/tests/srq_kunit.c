// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for shared receive queues and XRC (suite mlx5x_verbs_srq):
 * the firmware form chosen by ISSI, the geometry libmlx5 lays out, what
 * of its request is refused, the SRQ and RMP contexts, the QP context of
 * a QP on an SRQ or in an XRC domain, and the SRQ async events.
 */
#include <kunit/test.h>
#include <linux/sizes.h>

#include "../ib.h"

/* The emulated ConnectX-5's receive limits. */
static const struct mlx5x_verbs_caps srq_cx5 = {
	.log_max_srq_sz = 15,
	.log_max_srq = 16,
	.max_wqe_sz_rq = 512,
	.cqe_version = 1,
	.xrc = true,
};

static void srq_form_by_issi(struct kunit *test)
{
	enum mlx5x_srq_form f;

	KUNIT_EXPECT_EQ(test, mlx5x_srq_form(0, IB_SRQT_BASIC, 1, &f), 0);
	KUNIT_EXPECT_EQ(test, f, MLX5X_SRQ_FORM_SRQ);
	KUNIT_EXPECT_EQ(test, mlx5x_srq_form(1, IB_SRQT_BASIC, 1, &f), 0);
	KUNIT_EXPECT_EQ(test, f, MLX5X_SRQ_FORM_RMP);
	KUNIT_EXPECT_EQ(test, mlx5x_srq_form(1, IB_SRQT_XRC, 1, &f), 0);
	KUNIT_EXPECT_EQ(test, f, MLX5X_SRQ_FORM_XRC_SRQ);
	/* CREATE_SRQ has no user index: no XRC SRQ for version 1 CQEs */
	KUNIT_EXPECT_EQ(test, mlx5x_srq_form(0, IB_SRQT_XRC, 1, &f),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mlx5x_srq_form(0, IB_SRQT_XRC, 0, &f), 0);
	KUNIT_EXPECT_EQ(test, f, MLX5X_SRQ_FORM_SRQ);
	KUNIT_EXPECT_EQ(test, mlx5x_srq_form(0, IB_SRQT_BASIC, 0, &f), 0);
	KUNIT_EXPECT_EQ(test, mlx5x_srq_form(1, IB_SRQT_XRC, 0, &f), 0);
	KUNIT_EXPECT_EQ(test, f, MLX5X_SRQ_FORM_XRC_SRQ);
	/* tag matching is not offered at any ISSI */
	KUNIT_EXPECT_EQ(test, mlx5x_srq_form(0, IB_SRQT_TM, 1, &f),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mlx5x_srq_form(1, IB_SRQT_TM, 1, &f),
			-EOPNOTSUPP);
}

static void srq_sizes_libmlx5(struct kunit *test)
{
	struct ib_srq_attr a = { .max_wr = 1, .max_sge = 1 };
	struct mlx5x_srq_sizes sz;

	/* libmlx5 sends max_wr = its WQE count - 1 */
	KUNIT_ASSERT_EQ(test, mlx5x_srq_sizes(&a, &srq_cx5, &sz), 0);
	KUNIT_EXPECT_EQ(test, sz.wqe_cnt, 2);
	KUNIT_EXPECT_EQ(test, sz.wqe_shift, 5);	/* 32-byte minimum */
	KUNIT_EXPECT_EQ(test, sz.max_gs, 1);
	KUNIT_EXPECT_EQ(test, sz.buf_size, 64);

	a.max_wr = 255;
	a.max_sge = 2;		/* 16 + 32 = 48 -> 64 bytes, 3 entries */
	KUNIT_ASSERT_EQ(test, mlx5x_srq_sizes(&a, &srq_cx5, &sz), 0);
	KUNIT_EXPECT_EQ(test, sz.wqe_cnt, 256);
	KUNIT_EXPECT_EQ(test, sz.wqe_shift, 6);
	KUNIT_EXPECT_EQ(test, sz.max_gs, 3);
	KUNIT_EXPECT_EQ(test, sz.buf_size, 256 * 64);

	a.max_wr = 0;
	a.max_sge = 31;		/* the whole 512-byte receive WQE */
	KUNIT_ASSERT_EQ(test, mlx5x_srq_sizes(&a, &srq_cx5, &sz), 0);
	KUNIT_EXPECT_EQ(test, sz.wqe_cnt, 1);
	KUNIT_EXPECT_EQ(test, sz.wqe_shift, 9);
	KUNIT_EXPECT_EQ(test, sz.max_gs, 31);
}

static void srq_sizes_refusals(struct kunit *test)
{
	struct ib_srq_attr a = { .max_wr = BIT(15), .max_sge = 1 };
	struct mlx5x_srq_sizes sz;

	/* max_wr + 1 WQEs must fit the device's largest SRQ */
	KUNIT_EXPECT_EQ(test, mlx5x_srq_sizes(&a, &srq_cx5, &sz), -EINVAL);
	a.max_wr = BIT(15) - 1;
	KUNIT_EXPECT_EQ(test, mlx5x_srq_sizes(&a, &srq_cx5, &sz), 0);
	/* the next segment leaves room for 31 entries, not 32 */
	a.max_wr = 16;
	a.max_sge = 32;
	KUNIT_EXPECT_EQ(test, mlx5x_srq_sizes(&a, &srq_cx5, &sz), -EINVAL);
	a.max_sge = U32_MAX;
	KUNIT_EXPECT_EQ(test, mlx5x_srq_sizes(&a, &srq_cx5, &sz), -EINVAL);
}

static struct mlx5_ib_create_srq srq_req(void)
{
	struct mlx5_ib_create_srq r = {
		.buf_addr = 0x7f0000000000ULL,
		.db_addr = 0x7f0000100000ULL,
	};

	return r;
}

static void srq_request_basic(struct kunit *test)
{
	struct mlx5_ib_create_srq r = srq_req();
	size_t len = sizeof(r);
	u32 uidx;

	/* libmlx5's basic SRQ: uidx left zero, and ignored */
	KUNIT_EXPECT_EQ(test, mlx5x_srq_check_req(&r, len, false, 1, &uidx), 0);
	KUNIT_EXPECT_EQ(test, uidx, 0xffffff);
	KUNIT_EXPECT_EQ(test, mlx5x_srq_check_req(&r, len, false, 0, &uidx), 0);
	r.flags = MLX5_SRQ_FLAG_SIGNATURE;
	KUNIT_EXPECT_EQ(test, mlx5x_srq_check_req(&r, len, false, 1, &uidx),
			-EOPNOTSUPP);
	r.flags = BIT(5);
	KUNIT_EXPECT_EQ(test, mlx5x_srq_check_req(&r, len, false, 1, &uidx),
			-EINVAL);
	r = srq_req();
	r.reserved0 = 1;
	KUNIT_EXPECT_EQ(test, mlx5x_srq_check_req(&r, len, false, 1, &uidx),
			-EINVAL);
	r = srq_req();
	r.reserved1 = 1;
	KUNIT_EXPECT_EQ(test, mlx5x_srq_check_req(&r, len, false, 1, &uidx),
			-EINVAL);
	r = srq_req();
	r.buf_addr = 0;
	KUNIT_EXPECT_EQ(test, mlx5x_srq_check_req(&r, len, false, 1, &uidx),
			-EINVAL);
	r = srq_req();
	r.db_addr = 0;
	KUNIT_EXPECT_EQ(test, mlx5x_srq_check_req(&r, len, false, 1, &uidx),
			-EINVAL);
}

static void srq_request_xrc_uidx(struct kunit *test)
{
	size_t short_len = offsetof(struct mlx5_ib_create_srq, uidx);
	struct mlx5_ib_create_srq r = srq_req();
	size_t len = sizeof(r);
	u32 uidx;

	/* CQE version 1: the index libmlx5 picked, below 0xffffff */
	r.uidx = 5;
	KUNIT_EXPECT_EQ(test, mlx5x_srq_check_req(&r, len, true, 1, &uidx), 0);
	KUNIT_EXPECT_EQ(test, uidx, 5);
	r.uidx = 0xffffff;
	KUNIT_EXPECT_EQ(test, mlx5x_srq_check_req(&r, len, true, 1, &uidx),
			-EINVAL);
	r.uidx = 5;
	KUNIT_EXPECT_EQ(test, mlx5x_srq_check_req(&r, short_len, true, 1,
						  &uidx), -EINVAL);
	/* CQE version 0: "none", or no index at all */
	r.uidx = 0xffffff;
	KUNIT_EXPECT_EQ(test, mlx5x_srq_check_req(&r, len, true, 0, &uidx), 0);
	KUNIT_EXPECT_EQ(test, uidx, 0xffffff);
	KUNIT_EXPECT_EQ(test, mlx5x_srq_check_req(&r, short_len, true, 0,
						  &uidx), 0);
	r.uidx = 3;
	KUNIT_EXPECT_EQ(test, mlx5x_srq_check_req(&r, len, true, 0, &uidx),
			-EINVAL);
}

static void srq_contexts(struct kunit *test)
{
	struct mlx5x_srq_params p = {
		.log_size = 6, .wqe_shift = 6, .pdn = 3, .xrcd = 4, .cqn = 5,
		.dbr = 0x1234000,
		.pas = { .pgsz = SZ_8K, .page_offset = 17 },
	};
	__be32 srqc[MLX5X_SRQC_LEN / 4] = {};
	__be32 wq[MLX5X_WQ_LEN / 4] = {};

	mlx5x_srqc_encode(srqc, &p);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(srqc, MLX5X_SRQC_LOG_SRQ_SIZE), 6);
	/* the SRQ context counts the stride in 16-byte units */
	KUNIT_EXPECT_EQ(test, MLX5X_GET(srqc, MLX5X_SRQC_LOG_RQ_STRIDE), 2);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(srqc, MLX5X_SRQC_LOG_PAGE_SIZE), 1);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(srqc, MLX5X_SRQC_PAGE_OFFSET), 17);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(srqc, MLX5X_SRQC_PD), 3);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(srqc, MLX5X_SRQC_XRCD), 4);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(srqc, MLX5X_SRQC_CQN), 5);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(srqc, MLX5X_SRQC_LWM), 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(*(__be64 *)((u8 *)srqc +
					  MLX5X_SRQC_DBR_ADDR_OFF)), 0x1234000);

	mlx5x_rmp_wq_encode(wq, &p);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(wq, MLX5X_WQ_TYPE),
			MLX5X_WQ_TYPE_LINKED_LIST);
	/* a work queue counts it in bytes */
	KUNIT_EXPECT_EQ(test, MLX5X_GET(wq, MLX5X_WQ_LOG_STRIDE), 6);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(wq, MLX5X_WQ_LOG_SZ), 6);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(wq, MLX5X_WQ_LOG_PG_SZ), 1);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(wq, MLX5X_WQ_PAGE_OFFSET), 17);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(wq, MLX5X_WQ_PD), 3);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(wq, MLX5X_WQ_UMEM_VALID), 0);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(*(__be64 *)((u8 *)wq +
					  MLX5X_WQ_DBR_ADDR_OFF)), 0x1234000);
}

static void srq_qp_contexts(struct kunit *test)
{
	const struct mlx5x_devr devr = {
		.xrcdn0 = 0x10, .xrcdn1 = 0x11, .pdn = 0x20, .cqn = 0x30,
		.s0 = { .srqn = 0x40 }, .s1 = { .srqn = 0x41 },
	};
	struct mlx5x_qp_params p = {
		.st = MLX5X_QP_ST_RC, .pdn = 3, .uar = 9, .cqn_snd = 0x11,
		.cqn_rcv = 0x12, .has_sq = true,
		.log_sq_size = 4, .pas = { .pgsz = SZ_4K },
	};
	__be32 qpc[MLX5X_QPC_LEN / 4] = {};
	const u32 srqn = 0x21;

	/* an RC QP on an SRQ: receives from the SRQ, no RQ of its own */
	mlx5x_qp_rq_names(&devr, false, &srqn, false, &p);
	mlx5x_qpc_create_encode(qpc, &p);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_RQ_TYPE),
			MLX5X_QP_RQ_SRQ);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_SRQN_RMPN_XRQN), 0x21);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_LOG_RQ_SIZE), 0);
	/* with the reserved XRC domain 0, as mlx5_ib */
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_XRCD), 0x10);
}

static void srq_qp_init_attr(struct kunit *test)
{
	struct ib_qp_init_attr attr = {
		.qp_type = IB_QPT_RC, .send_cq = (struct ib_cq *)1,
		.recv_cq = (struct ib_cq *)1, .srq = (struct ib_srq *)1,
	};

	/* an RC QP on an SRQ */
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_init_attr(&attr, &srq_cx5), 0);
	/* only RC QPs take an SRQ */
	attr.qp_type = IB_QPT_UD;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_init_attr(&attr, &srq_cx5),
			-EOPNOTSUPP);
	attr.qp_type = IB_QPT_XRC_INI;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_init_attr(&attr, &srq_cx5),
			-EOPNOTSUPP);
	/* an XRC initiator: a send CQ, nothing to receive with */
	attr.srq = NULL;
	attr.recv_cq = NULL;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_init_attr(&attr, &srq_cx5), 0);
	attr.send_cq = NULL;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_init_attr(&attr, &srq_cx5),
			-EINVAL);
	/* an XRC target: its domain, and nothing else needed */
	attr.qp_type = IB_QPT_XRC_TGT;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_init_attr(&attr, &srq_cx5),
			-EINVAL);
	attr.xrcd = (struct ib_xrcd *)1;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_init_attr(&attr, &srq_cx5), 0);
	/* a domain on any other QP is not offered */
	attr.qp_type = IB_QPT_RC;
	attr.send_cq = (struct ib_cq *)1;
	attr.recv_cq = (struct ib_cq *)1;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_init_attr(&attr, &srq_cx5),
			-EOPNOTSUPP);
}

static void srq_events(struct kunit *test)
{
	enum ib_event_type ev;
	bool known;

	KUNIT_EXPECT_TRUE(test, mlx5x_srq_event_to_ib(MLX5X_EVENT_SRQ_RQ_LIMIT,
						      &ev));
	KUNIT_EXPECT_EQ(test, ev, IB_EVENT_SRQ_LIMIT_REACHED);
	KUNIT_EXPECT_TRUE(test,
			  mlx5x_srq_event_to_ib(MLX5X_EVENT_SRQ_CATAS_ERROR,
						&ev));
	KUNIT_EXPECT_EQ(test, ev, IB_EVENT_SRQ_ERR);
	/* last WQE reached is the QP's event, not the SRQ's */
	KUNIT_EXPECT_FALSE(test, mlx5x_srq_event_to_ib(MLX5X_EVENT_SRQ_LAST_WQE,
						       &ev));
	KUNIT_EXPECT_FALSE(test, mlx5x_srq_event_to_ib(MLX5X_EVENT_COMM_EST,
						       &ev));
	/* and the SRQ's events are not taken for a QP's */
	mlx5x_qp_event_to_ib(MLX5X_EVENT_SRQ_RQ_LIMIT, &known);
	KUNIT_EXPECT_FALSE(test, known);
	mlx5x_qp_event_to_ib(MLX5X_EVENT_SRQ_CATAS_ERROR, &known);
	KUNIT_EXPECT_FALSE(test, known);
}

static struct kunit_case srq_cases[] = {
	KUNIT_CASE(srq_form_by_issi),
	KUNIT_CASE(srq_sizes_libmlx5),
	KUNIT_CASE(srq_sizes_refusals),
	KUNIT_CASE(srq_request_basic),
	KUNIT_CASE(srq_request_xrc_uidx),
	KUNIT_CASE(srq_contexts),
	KUNIT_CASE(srq_qp_contexts),
	KUNIT_CASE(srq_qp_init_attr),
	KUNIT_CASE(srq_events),
	{}
};

static struct kunit_suite srq_suite = {
	.name = "mlx5x_verbs_srq",
	.test_cases = srq_cases,
};

kunit_test_suite(srq_suite);
