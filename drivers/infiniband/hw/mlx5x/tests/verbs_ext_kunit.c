// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the verbs beyond RC: what UC and UD QPs may be created
 * with and what each of their transitions writes (mlx5x_verbs_qp_types),
 * CQ resize requests and the MODIFY_CQ box (mlx5x_verbs_cq_resize), and
 * what a memory re-registration amounts to (mlx5x_verbs_rereg).
 */
#include <kunit/test.h>
#include <linux/sizes.h>

#include "../ib.h"

/* What the emulated ConnectX-5 reports. */
static const struct mlx5x_verbs_caps cx5 = {
	.log_max_qp = 16,
	.log_max_qp_sz = 15,
	.log_max_cq = 16,
	.log_max_cq_sz = 22,
	.log_max_msg = 30,
	.log_max_ra_req_qp = 4,
	.log_max_ra_res_qp = 4,
	.max_wqe_sz_sq = 1024,
	.max_wqe_sz_rq = 512,
	.pkey_table_size = 0,	/* 128 entries */
	.num_ports = 1,
	.cqe_version = 1,
	.cq_resize = true,
	.block_lb_mc = true,
	.atomic = true,
	.atomic_mode = MLX5X_QPC_ATOMIC_MODE_IB_COMP,
};

/* ---- mlx5x_verbs_qp_types ---- */

static void qp_types_created(struct kunit *test)
{
	struct ib_qp_init_attr attr = {
		.send_cq = (struct ib_cq *)1, .recv_cq = (struct ib_cq *)1,
	};
	struct mlx5x_verbs_caps no_lb = cx5;
	u8 st;

	KUNIT_EXPECT_EQ(test, mlx5x_qp_type_to_st(IB_QPT_RC, &st), 0);
	KUNIT_EXPECT_EQ(test, st, MLX5X_QP_ST_RC);
	KUNIT_EXPECT_EQ(test, mlx5x_qp_type_to_st(IB_QPT_UC, &st), 0);
	KUNIT_EXPECT_EQ(test, st, MLX5X_QP_ST_UC);
	KUNIT_EXPECT_EQ(test, mlx5x_qp_type_to_st(IB_QPT_UD, &st), 0);
	KUNIT_EXPECT_EQ(test, st, MLX5X_QP_ST_UD);
	/* not offered: skips in the rdma-core tests, never a wrong QP */
	KUNIT_EXPECT_EQ(test, mlx5x_qp_type_to_st(IB_QPT_RAW_PACKET, &st),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mlx5x_qp_type_to_st(IB_QPT_XRC_INI, &st), 0);
	KUNIT_EXPECT_EQ(test, st, MLX5X_QP_ST_XRC);
	KUNIT_EXPECT_EQ(test, mlx5x_qp_type_to_st(IB_QPT_XRC_TGT, &st), 0);
	KUNIT_EXPECT_EQ(test, st, MLX5X_QP_ST_XRC);
	KUNIT_EXPECT_EQ(test, mlx5x_qp_type_to_st(IB_QPT_GSI, &st),
			-EOPNOTSUPP);

	attr.qp_type = IB_QPT_UD;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_init_attr(&attr, &cx5), 0);
	attr.create_flags = IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_init_attr(&attr, &cx5), 0);
	no_lb.block_lb_mc = false;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_init_attr(&attr, &no_lb),
			-EOPNOTSUPP);
	attr.create_flags = IB_QP_CREATE_SOURCE_QPN;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_init_attr(&attr, &cx5),
			-EOPNOTSUPP);
	attr.create_flags = 0;
	attr.qp_type = IB_QPT_RAW_PACKET;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_init_attr(&attr, &cx5),
			-EOPNOTSUPP);
	attr.qp_type = IB_QPT_UC;
	attr.recv_cq = NULL;
	KUNIT_EXPECT_EQ(test, mlx5x_qp_check_init_attr(&attr, &cx5), -EINVAL);
}

/* UD RST2INIT takes P_Key index, port and Q_Key, all required. */
static void qp_ud_rst2init(struct kunit *test)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT, .pkey_index = 3, .port_num = 1,
		.qkey = 0x80000123, .qp_access_flags = IB_ACCESS_REMOTE_READ,
	};
	int mask = IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY;
	struct mlx5x_qp_mod m;
	u32 optpar;

	KUNIT_ASSERT_TRUE(test, ib_modify_qp_is_ok(IB_QPS_RESET, IB_QPS_INIT,
						   IB_QPT_UD, mask));
	KUNIT_ASSERT_EQ(test, mlx5x_qp_attr_to_mod(&attr, mask, IB_QPT_UD,
						   MLX5X_CMD_OP_RST2INIT_QP,
						   &cx5, NULL, &m, &optpar), 0);
	KUNIT_EXPECT_EQ(test, optpar, 0);
	KUNIT_EXPECT_EQ(test, m.fields, MLX5X_QPM_PKEY | MLX5X_QPM_PORT |
			MLX5X_QPM_QKEY | MLX5X_QPM_MTU);
	KUNIT_EXPECT_EQ(test, m.qkey, 0x80000123);
	KUNIT_EXPECT_EQ(test, m.path.pkey_index, 3);
	KUNIT_EXPECT_EQ(test, m.path.port, 1);
	/* a datagram is one 4 KiB MTU whatever the port says */
	KUNIT_EXPECT_EQ(test, m.mtu, IB_MTU_4096);
	KUNIT_EXPECT_EQ(test, m.log_msg_max, 12);
	/* no access rights on a UD QP */
	KUNIT_EXPECT_FALSE(test, m.rre);
	/* the core refuses access flags on UD, and a missing Q_Key */
	KUNIT_EXPECT_FALSE(test, ib_modify_qp_is_ok(IB_QPS_RESET, IB_QPS_INIT,
						    IB_QPT_UD,
						    mask | IB_QP_ACCESS_FLAGS));
	KUNIT_EXPECT_FALSE(test, ib_modify_qp_is_ok(IB_QPS_RESET, IB_QPS_INIT,
						    IB_QPT_UD,
						    mask & ~IB_QP_QKEY));
}

/* Later UD transitions: Q_Key and P_Key are optional, with their bits. */
static void qp_ud_optional(struct kunit *test)
{
	struct ib_qp_attr attr = {
		.qkey = 0x11, .pkey_index = 1, .sq_psn = 0x1000045,
	};
	struct mlx5x_qp_mod m;
	u32 optpar;

	KUNIT_ASSERT_EQ(test, mlx5x_qp_attr_to_mod(&attr, IB_QP_STATE,
						   IB_QPT_UD,
						   MLX5X_CMD_OP_INIT2RTR_QP,
						   &cx5, NULL, &m, &optpar), 0);
	KUNIT_EXPECT_EQ(test, optpar, 0);
	KUNIT_EXPECT_EQ(test, m.fields, MLX5X_QPM_MTU);
	KUNIT_ASSERT_EQ(test, mlx5x_qp_attr_to_mod(&attr, IB_QP_STATE |
						   IB_QP_QKEY | IB_QP_PKEY_INDEX,
						   IB_QPT_UD,
						   MLX5X_CMD_OP_INIT2RTR_QP,
						   &cx5, NULL, &m, &optpar), 0);
	KUNIT_EXPECT_EQ(test, optpar, MLX5X_QP_OPTPAR_Q_KEY |
			MLX5X_QP_OPTPAR_PKEY_INDEX);
	KUNIT_ASSERT_EQ(test, mlx5x_qp_attr_to_mod(&attr, IB_QP_STATE |
						   IB_QP_SQ_PSN,
						   IB_QPT_UD,
						   MLX5X_CMD_OP_RTR2RTS_QP,
						   &cx5, NULL, &m, &optpar), 0);
	KUNIT_EXPECT_EQ(test, optpar, 0);
	KUNIT_EXPECT_EQ(test, m.fields, MLX5X_QPM_SQ_PSN | MLX5X_QPM_MTU);
	KUNIT_EXPECT_EQ(test, m.sq_psn, 0x45);
	KUNIT_ASSERT_EQ(test, mlx5x_qp_attr_to_mod(&attr, IB_QP_STATE |
						   IB_QP_QKEY,
						   IB_QPT_UD,
						   MLX5X_CMD_OP_RTS2RTS_QP,
						   &cx5, NULL, &m, &optpar), 0);
	KUNIT_EXPECT_EQ(test, optpar, MLX5X_QP_OPTPAR_Q_KEY);
	/* RC has no Q_Key: an RC table never takes it */
	KUNIT_ASSERT_EQ(test, mlx5x_qp_attr_to_mod(&attr, IB_QP_STATE |
						   IB_QP_QKEY,
						   IB_QPT_RC,
						   MLX5X_CMD_OP_RTS2RTS_QP,
						   &cx5, NULL, &m, &optpar), 0);
	KUNIT_EXPECT_EQ(test, optpar, 0);
	KUNIT_EXPECT_EQ(test, m.fields, 0);
}

/* UC: the RC transitions without reads, atomics and their bits. */
static void qp_uc_transitions(struct kunit *test)
{
	struct ib_qp_attr attr = {
		.qp_access_flags = IB_ACCESS_REMOTE_WRITE |
				   IB_ACCESS_REMOTE_READ |
				   IB_ACCESS_REMOTE_ATOMIC,
		.path_mtu = IB_MTU_2048, .dest_qp_num = 0x77, .rq_psn = 5,
		.sq_psn = 6,
	};
	int mask = IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN |
		   IB_QP_RQ_PSN | IB_QP_ACCESS_FLAGS;
	struct mlx5x_qp_mod m;
	u32 optpar;

	attr.ah_attr.type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_dlid(&attr.ah_attr, 7);
	rdma_ah_set_port_num(&attr.ah_attr, 1);
	KUNIT_ASSERT_TRUE(test, ib_modify_qp_is_ok(IB_QPS_INIT, IB_QPS_RTR,
						   IB_QPT_UC, mask));
	KUNIT_ASSERT_EQ(test, mlx5x_qp_attr_to_mod(&attr, mask, IB_QPT_UC,
						   MLX5X_CMD_OP_INIT2RTR_QP,
						   &cx5, NULL, &m, &optpar), 0);
	/* access is optional here: only the remote-write bit exists on UC */
	KUNIT_EXPECT_EQ(test, optpar, MLX5X_QP_OPTPAR_RWE);
	KUNIT_EXPECT_TRUE(test, m.rwe);
	KUNIT_EXPECT_FALSE(test, m.rre);
	KUNIT_EXPECT_FALSE(test, m.rae);
	KUNIT_EXPECT_EQ(test, m.mtu, IB_MTU_2048);
	KUNIT_EXPECT_EQ(test, m.remote_qpn, 0x77);
	KUNIT_EXPECT_EQ(test, m.path.rlid, 7);
	/* the RC attributes UC lacks are the core's to refuse */
	KUNIT_EXPECT_FALSE(test, ib_modify_qp_is_ok(IB_QPS_INIT, IB_QPS_RTR,
						    IB_QPT_UC, mask |
						    IB_QP_MAX_DEST_RD_ATOMIC));
	KUNIT_EXPECT_FALSE(test, ib_modify_qp_is_ok(IB_QPS_RTR, IB_QPS_RTS,
						    IB_QPT_UC, IB_QP_STATE |
						    IB_QP_SQ_PSN |
						    IB_QP_RETRY_CNT));
	KUNIT_ASSERT_EQ(test, mlx5x_qp_attr_to_mod(&attr, IB_QP_STATE |
						   IB_QP_SQ_PSN, IB_QPT_UC,
						   MLX5X_CMD_OP_RTR2RTS_QP,
						   &cx5, NULL, &m, &optpar), 0);
	KUNIT_EXPECT_EQ(test, optpar, 0);
	KUNIT_EXPECT_EQ(test, m.fields, MLX5X_QPM_SQ_PSN);
}

/* The Q_Key written at a transition is what QUERY_QP reads back. */
static void qp_qkey_round_trip(struct kunit *test)
{
	__be32 qpc[MLX5X_QPC_LEN / 4] = {};
	struct mlx5x_qp_mod m = {
		.fields = MLX5X_QPM_QKEY, .qkey = 0xdeadbeef,
	}, back;

	mlx5x_qpc_mod_encode(qpc, &m);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_Q_KEY), 0xdeadbeef);
	mlx5x_qpc_decode(qpc, &back);
	KUNIT_EXPECT_EQ(test, back.qkey, 0xdeadbeef);
	KUNIT_EXPECT_TRUE(test, back.fields & MLX5X_QPM_QKEY);
	/* not named in m->fields: not written */
	memset(qpc, 0, sizeof(qpc));
	m.fields = 0;
	mlx5x_qpc_mod_encode(qpc, &m);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_Q_KEY), 0);
}

static void qp_create_block_lb(struct kunit *test)
{
	struct mlx5x_qp_params p = {
		.st = MLX5X_QP_ST_UD, .pdn = 3, .has_sq = true,
		.block_lb_mc = true, .pas = { .pgsz = SZ_4K },
	};
	__be32 qpc[MLX5X_QPC_LEN / 4] = {};

	mlx5x_qpc_create_encode(qpc, &p);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_ST), MLX5X_QP_ST_UD);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_BLOCK_LB_MC), 1);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_PD), 3);
}

static struct kunit_case qp_type_cases[] = {
	KUNIT_CASE(qp_types_created),
	KUNIT_CASE(qp_ud_rst2init),
	KUNIT_CASE(qp_ud_optional),
	KUNIT_CASE(qp_uc_transitions),
	KUNIT_CASE(qp_qkey_round_trip),
	KUNIT_CASE(qp_create_block_lb),
	{}
};

static struct kunit_suite qp_type_suite = {
	.name = "mlx5x_verbs_qp_types",
	.test_cases = qp_type_cases,
};

/* ---- mlx5x_verbs_cq_resize ---- */

static struct mlx5_ib_resize_cq libmlx5_resize(void)
{
	struct mlx5_ib_resize_cq ucmd = {
		.buf_addr = 0x7f1234580000ULL,
		.cqe_size = 64,
	};

	return ucmd;
}

static void cq_resize_request(struct kunit *test)
{
	struct mlx5_ib_resize_cq ucmd = libmlx5_resize();
	struct mlx5x_verbs_caps no_resize = cx5;
	u32 entries;

	/* libmlx5 asks ncqe - 1 for a ring of ncqe */
	KUNIT_EXPECT_EQ(test, mlx5x_cq_resize_check(&ucmd, &cx5, 7, 64,
						    &entries), 0);
	KUNIT_EXPECT_EQ(test, entries, 8);
	KUNIT_EXPECT_EQ(test, mlx5x_cq_resize_check(&ucmd, &cx5, 1, 64,
						    &entries), 0);
	KUNIT_EXPECT_EQ(test, entries, 2);
	KUNIT_EXPECT_EQ(test, mlx5x_cq_resize_check(&ucmd, &cx5, 0, 64,
						    &entries), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_cq_resize_check(&ucmd, &cx5, 1 << 22, 64,
						    &entries), -EINVAL);
	/* the CQE size is fixed at creation */
	KUNIT_EXPECT_EQ(test, mlx5x_cq_resize_check(&ucmd, &cx5, 7, 128,
						    &entries), -EINVAL);
	ucmd.reserved1 = 1;
	KUNIT_EXPECT_EQ(test, mlx5x_cq_resize_check(&ucmd, &cx5, 7, 64,
						    &entries), -EINVAL);
	ucmd = libmlx5_resize();
	ucmd.buf_addr += 64;
	KUNIT_EXPECT_EQ(test, mlx5x_cq_resize_check(&ucmd, &cx5, 7, 64,
						    &entries), -EINVAL);
	ucmd = libmlx5_resize();
	no_resize.cq_resize = false;
	KUNIT_EXPECT_EQ(test, mlx5x_cq_resize_check(&ucmd, &no_resize, 7, 64,
						    &entries), -EOPNOTSUPP);
}

static void cq_resize_box(struct kunit *test)
{
	struct mlx5x_cq_params p = {
		.log_size = 5, .cqe_128 = false,
		.pas = { .pgsz = SZ_8K, .n = 1 },
	};
	u8 *in = kunit_kzalloc(test, MLX5X_CREATE_CQ_IN_LEN + 8, GFP_KERNEL);
	u8 *cqc;

	KUNIT_ASSERT_NOT_NULL(test, in);
	cqc = in + MLX5X_MODIFY_CQ_IN_CQC_OFF;
	mlx5x_cqc_resize_encode(in, 0x42, &p);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(in, MLX5X_CQ_IN_CQN), 0x42);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(*(__be32 *)(in +
				MLX5X_MODIFY_CQ_IN_FIELD_SELECT_OFF)),
			MLX5X_MODIFY_CQ_RESIZE_LOG_SIZE |
			MLX5X_MODIFY_CQ_RESIZE_PG_OFFSET |
			MLX5X_MODIFY_CQ_RESIZE_PG_SIZE);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(cqc, MLX5X_CQC_LOG_CQ_SIZE), 5);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(cqc, MLX5X_CQC_CQE_SZ),
			MLX5X_CQE_SIZE_64);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(cqc, MLX5X_CQC_LOG_PAGE_SIZE), 1);
	/* the UAR, EQ and doorbell stay as created: not in the box */
	KUNIT_EXPECT_EQ(test, MLX5X_GET(cqc, MLX5X_CQC_UAR_PAGE), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(cqc, MLX5X_CQC_C_EQN), 0);
}

static struct kunit_case cq_resize_cases[] = {
	KUNIT_CASE(cq_resize_request),
	KUNIT_CASE(cq_resize_box),
	{}
};

static struct kunit_suite cq_resize_suite = {
	.name = "mlx5x_verbs_cq_resize",
	.test_cases = cq_resize_cases,
};

/* ---- mlx5x_verbs_rereg ---- */

static void rereg_args(struct kunit *test)
{
	struct ib_pd *pd_a = (struct ib_pd *)0x1000, *pd_b = (struct ib_pd *)0x2000;
	const struct mlx5x_mr_reg old = {
		.pd = pd_a, .access = IB_ACCESS_LOCAL_WRITE,
		.start = 0x10000, .length = 0x3000, .iova = 0x10000,
		.writable = true,
	};
	struct mlx5x_mr_reg req = {
		.pd = pd_b, .access = IB_ACCESS_REMOTE_WRITE,
		.start = 0x70000, .length = 0x1000, .iova = 0x90000,
	};

	/* access only: the range and the PD stay */
	KUNIT_ASSERT_EQ(test, mlx5x_mr_rereg_args(IB_MR_REREG_ACCESS, &old,
						  &req), 0);
	KUNIT_EXPECT_EQ(test, req.access, IB_ACCESS_REMOTE_WRITE);
	KUNIT_EXPECT_PTR_EQ(test, req.pd, pd_a);
	KUNIT_EXPECT_EQ(test, req.start, 0x10000);
	KUNIT_EXPECT_EQ(test, req.length, 0x3000);
	KUNIT_EXPECT_EQ(test, req.iova, 0x10000);

	req = (struct mlx5x_mr_reg){ .pd = pd_b, .start = 0x70000,
				     .length = 0x1000, .iova = 0x90000 };
	KUNIT_ASSERT_EQ(test, mlx5x_mr_rereg_args(IB_MR_REREG_TRANS |
						  IB_MR_REREG_PD, &old,
						  &req), 0);
	KUNIT_EXPECT_PTR_EQ(test, req.pd, pd_b);
	KUNIT_EXPECT_EQ(test, req.access, IB_ACCESS_LOCAL_WRITE);
	KUNIT_EXPECT_EQ(test, req.start, 0x70000);
	KUNIT_EXPECT_EQ(test, req.length, 0x1000);
	KUNIT_EXPECT_EQ(test, req.iova, 0x90000);

	KUNIT_EXPECT_EQ(test, mlx5x_mr_rereg_args(IB_MR_REREG_SUPPORTED << 1,
						  &old, &req), -EOPNOTSUPP);
}

/*
 * Memory pinned read-only (registered without write access) stays
 * read-only while its pin is kept: a rereg of the access alone may add
 * remote read, not local or remote write.  A new range is a new pin.
 */
static void rereg_no_write_over_readonly_pin(struct kunit *test)
{
	const struct mlx5x_mr_reg old = {
		.access = IB_ACCESS_REMOTE_READ,
		.start = 0x10000, .length = 0x1000, .iova = 0x10000,
	};
	struct mlx5x_mr_reg req;

	req = (struct mlx5x_mr_reg){ .access = IB_ACCESS_LOCAL_WRITE |
						IB_ACCESS_REMOTE_WRITE };
	KUNIT_EXPECT_EQ(test, mlx5x_mr_rereg_args(IB_MR_REREG_ACCESS, &old,
						  &req), -EACCES);
	req = (struct mlx5x_mr_reg){ .access = IB_ACCESS_REMOTE_WRITE };
	KUNIT_EXPECT_EQ(test, mlx5x_mr_rereg_args(IB_MR_REREG_ACCESS |
						  IB_MR_REREG_PD, &old,
						  &req), -EACCES);
	req = (struct mlx5x_mr_reg){ .access = IB_ACCESS_REMOTE_ATOMIC };
	KUNIT_EXPECT_EQ(test, mlx5x_mr_rereg_args(IB_MR_REREG_ACCESS, &old,
						  &req), -EACCES);
	req = (struct mlx5x_mr_reg){ .access = 0 };
	KUNIT_EXPECT_EQ(test, mlx5x_mr_rereg_args(IB_MR_REREG_ACCESS, &old,
						  &req), 0);
	req = (struct mlx5x_mr_reg){ .access = IB_ACCESS_LOCAL_WRITE,
				     .start = 0x20000, .length = 0x1000 };
	KUNIT_EXPECT_EQ(test, mlx5x_mr_rereg_args(IB_MR_REREG_ACCESS |
						  IB_MR_REREG_TRANS, &old,
						  &req), 0);
}

static struct kunit_case rereg_cases[] = {
	KUNIT_CASE(rereg_args),
	KUNIT_CASE(rereg_no_write_over_readonly_pin),
	{}
};

static struct kunit_suite rereg_suite = {
	.name = "mlx5x_verbs_rereg",
	.test_cases = rereg_cases,
};

kunit_test_suites(&qp_type_suite, &cq_resize_suite, &rereg_suite);
