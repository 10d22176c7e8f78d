// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for UMR: which re-registrations may patch a key in place
 * (mlx5x_umr_rereg), the mkey mask and the UMR WQE a PD/access update
 * posts, how its CQE is read, and the UMR QP's contexts at creation and
 * at each transition (mlx5x_umr_wqe).
 */
#include <kunit/test.h>

#include "../ib.h"
#include "../umr.h"

static const struct mlx5x_verbs_caps atomics = { .atomic = true };
static const struct mlx5x_verbs_caps no_atomics = {};
static const struct mlx5x_verbs_caps atomic_locked = {
	.atomic = true,
	.umr_atomic_disabled = true,
};

#define LW	IB_ACCESS_LOCAL_WRITE
#define RW	IB_ACCESS_REMOTE_WRITE
#define RR	IB_ACCESS_REMOTE_READ
#define AT	IB_ACCESS_REMOTE_ATOMIC

static void rereg_in_place(struct kunit *test)
{
	/* PD only, access only, both */
	KUNIT_EXPECT_TRUE(test, mlx5x_umr_can_rereg(IB_MR_REREG_PD, LW, LW,
						    &atomics));
	KUNIT_EXPECT_TRUE(test, mlx5x_umr_can_rereg(IB_MR_REREG_ACCESS, LW,
						    LW | RW | RR, &atomics));
	KUNIT_EXPECT_TRUE(test, mlx5x_umr_can_rereg(IB_MR_REREG_ACCESS |
						    IB_MR_REREG_PD,
						    LW | RW, 0, &atomics));
	/* a kept window-binding right is no change (the key has none) */
	KUNIT_EXPECT_TRUE(test, mlx5x_umr_can_rereg(IB_MR_REREG_ACCESS,
						    LW | IB_ACCESS_MW_BIND,
						    LW | RW | IB_ACCESS_MW_BIND,
						    &atomics));
	/* relaxed ordering is a hint: toggling it is fine */
	KUNIT_EXPECT_TRUE(test, mlx5x_umr_can_rereg(IB_MR_REREG_ACCESS, LW,
						    LW |
						    IB_ACCESS_RELAXED_ORDERING,
						    &atomics));
	/* the atomic right, unless the device locks it against UMR */
	KUNIT_EXPECT_TRUE(test, mlx5x_umr_can_rereg(IB_MR_REREG_ACCESS, LW,
						    LW | RW | AT, &atomics));
	KUNIT_EXPECT_FALSE(test, mlx5x_umr_can_rereg(IB_MR_REREG_ACCESS, LW,
						     LW | RW | AT,
						     &atomic_locked));
	KUNIT_EXPECT_FALSE(test, mlx5x_umr_can_rereg(IB_MR_REREG_ACCESS,
						     LW | RW | AT, LW,
						     &atomic_locked));
	/* unchanged atomic right: the lock does not matter */
	KUNIT_EXPECT_TRUE(test, mlx5x_umr_can_rereg(IB_MR_REREG_PD, LW | AT,
						    LW | AT, &atomic_locked));
	/* without device atomics the mask leaves mkc.a alone */
	KUNIT_EXPECT_TRUE(test, mlx5x_umr_can_rereg(IB_MR_REREG_ACCESS, LW,
						    LW | AT, &no_atomics));
}

static void rereg_new_key(struct kunit *test)
{
	/* a new range, alone or with the rest, needs a new key */
	KUNIT_EXPECT_FALSE(test, mlx5x_umr_can_rereg(IB_MR_REREG_TRANS, LW, LW,
						     &atomics));
	KUNIT_EXPECT_FALSE(test, mlx5x_umr_can_rereg(IB_MR_REREG_TRANS |
						     IB_MR_REREG_PD |
						     IB_MR_REREG_ACCESS,
						     LW, LW, &atomics));
	/* nothing to do is not UMR's business either */
	KUNIT_EXPECT_FALSE(test, mlx5x_umr_can_rereg(0, LW, LW, &atomics));
	/* rights a UMR does not toggle (window binding: as mlx5_ib) */
	KUNIT_EXPECT_FALSE(test, mlx5x_umr_can_rereg(IB_MR_REREG_ACCESS, LW,
						     LW | IB_ACCESS_MW_BIND,
						     &atomics));
	KUNIT_EXPECT_FALSE(test, mlx5x_umr_can_rereg(IB_MR_REREG_ACCESS,
						     LW | IB_ACCESS_MW_BIND,
						     LW, &atomics));
	KUNIT_EXPECT_FALSE(test, mlx5x_umr_can_rereg(IB_MR_REREG_ACCESS, LW,
						     LW | IB_ZERO_BASED,
						     &atomics));
	KUNIT_EXPECT_FALSE(test, mlx5x_umr_can_rereg(IB_MR_REREG_ACCESS, LW,
						     LW | IB_ACCESS_ON_DEMAND,
						     &atomics));
}

static void mkey_mask(struct kunit *test)
{
	u64 base = MLX5X_MKEY_MASK_LR | MLX5X_MKEY_MASK_LW |
		   MLX5X_MKEY_MASK_RR | MLX5X_MKEY_MASK_RW | MLX5X_MKEY_MASK_PD;

	KUNIT_EXPECT_EQ(test, mlx5x_umr_mkey_mask(false), base);
	KUNIT_EXPECT_EQ(test, mlx5x_umr_mkey_mask(true),
			base | MLX5X_MKEY_MASK_A);
	/* never translation, size, key or free state */
	KUNIT_EXPECT_EQ(test, mlx5x_umr_mkey_mask(true) &
			(MLX5X_MKEY_MASK_LEN | MLX5X_MKEY_MASK_PAGE_SIZE |
			 MLX5X_MKEY_MASK_START_ADDR | MLX5X_MKEY_MASK_KEY |
			 MLX5X_MKEY_MASK_FREE), 0ULL);
}

static u32 be32_at(const u8 *buf, unsigned int off)
{
	return be32_to_cpup((const __be32 *)(buf + off));
}

static void wqe_build(struct kunit *test)
{
	const struct mlx5x_umr_update u = {
		.qpn = 0x1234,
		.wqe_index = 0x1a,
		.key = 0x00abcd42,
		.pdn = 7,
		.access = MLX5X_MKEY_LR | MLX5X_MKEY_RR | MLX5X_MKEY_A,
		.atomic = true,
	};
	u8 wqe[MLX5X_UMR_WQE_LEN] = {};
	const u8 *umr = wqe + MLX5X_WQE_DS_LEN;
	const u8 *mkc = umr + MLX5X_WQE_UMR_CTRL_LEN;

	mlx5x_umr_wqe_build(wqe, &u);
	/* control: opcode UMR at WQEBB 0x1a, 8 DSs on QP 0x1234 */
	KUNIT_EXPECT_EQ(test, be32_at(wqe, 0), 0x00001a00U | MLX5X_OPCODE_UMR);
	KUNIT_EXPECT_EQ(test, be32_at(wqe, 4), 0x1234U << 8 | 8);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(wqe, MLX5X_WQE_CTRL_CE),
			(u32)MLX5X_WQE_CE_ALWAYS);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(wqe, MLX5X_WQE_CTRL_FENCE),
			(u32)MLX5X_WQE_FENCE_INITIATOR_SMALL);
	KUNIT_EXPECT_EQ(test, be32_at(wqe, MLX5X_WQE_CTRL_IMM_OFF), u.key);
	/* the WQE fills exactly its blocks */
	KUNIT_EXPECT_EQ(test, MLX5X_WQE_DS_LEN + MLX5X_WQE_UMR_CTRL_LEN +
			MLX5X_WQE_UMR_MKEY_LEN, MLX5X_UMR_WQE_LEN);
	/* UMR control: inline, no translation, the PD/access mask */
	KUNIT_EXPECT_EQ(test, MLX5X_GET(umr, MLX5X_WQE_UMR_FLAGS),
			(u32)(MLX5X_UMR_CHECK_FREE | MLX5X_UMR_INLINE));
	KUNIT_EXPECT_EQ(test, MLX5X_GET(umr, MLX5X_WQE_UMR_XLT_OCTOWORDS), 0U);
	KUNIT_EXPECT_EQ(test, be64_to_cpup((const __be64 *)
					   (umr + MLX5X_WQE_UMR_MKEY_MASK_OFF)),
			mlx5x_umr_mkey_mask(true));
	/* mkey context: the new rights and PD, the key's variant */
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_LR), 1U);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_LW), 0U);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_RR), 1U);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_RW), 0U);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_A), 1U);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_PD), 7U);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_QPN),
			(u32)MLX5X_MKC_QPN_NONE);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_MKEY_7_0), 0x42U);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_UMR_EN), 0U);
}

static void wqe_build_no_atomics(struct kunit *test)
{
	const struct mlx5x_umr_update u = {
		.qpn = 1, .key = 0x100, .pdn = 3,
		.access = MLX5X_MKEY_LR | MLX5X_MKEY_LW | MLX5X_MKEY_RW,
	};
	u8 wqe[MLX5X_UMR_WQE_LEN] = {};
	const u8 *umr = wqe + MLX5X_WQE_DS_LEN;
	const u8 *mkc = umr + MLX5X_WQE_UMR_CTRL_LEN;

	mlx5x_umr_wqe_build(wqe, &u);
	KUNIT_EXPECT_EQ(test, be64_to_cpup((const __be64 *)
					   (umr + MLX5X_WQE_UMR_MKEY_MASK_OFF)),
			mlx5x_umr_mkey_mask(false));
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_LW), 1U);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_RW), 1U);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_RR), 0U);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_A), 0U);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_PD), 3U);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(mkc, MLX5X_MKC_MKEY_7_0), 0U);
}

static void set_op_own(u8 *cqe, u8 opcode, u8 owner)
{
	cqe[MLX5X_CQE_OP_OWN_OFF] = opcode << MLX5X_CQE_OPCODE_SHIFT | owner;
}

static void cqe_status(struct kunit *test)
{
	u8 cqe[MLX5X_CQE_LEN] = {};

	/* as initialised: not ours */
	set_op_own(cqe, MLX5X_CQE_INVALID, 0);
	KUNIT_EXPECT_EQ(test, mlx5x_umr_cqe_status(cqe, 0, 6), -EAGAIN);
	/* first pass: owner 0 */
	set_op_own(cqe, MLX5X_CQE_REQ, 0);
	KUNIT_EXPECT_EQ(test, mlx5x_umr_cqe_status(cqe, 0, 6), 0);
	KUNIT_EXPECT_EQ(test, mlx5x_umr_cqe_status(cqe, 63, 6), 0);
	/* second pass: an owner-0 entry is the old one */
	KUNIT_EXPECT_EQ(test, mlx5x_umr_cqe_status(cqe, 64, 6), -EAGAIN);
	set_op_own(cqe, MLX5X_CQE_REQ, 1);
	KUNIT_EXPECT_EQ(test, mlx5x_umr_cqe_status(cqe, 64, 6), 0);
	KUNIT_EXPECT_EQ(test, mlx5x_umr_cqe_status(cqe, 0, 6), -EAGAIN);
	/* an error completion, or anything but a send completion */
	set_op_own(cqe, MLX5X_CQE_REQ_ERR, 0);
	KUNIT_EXPECT_EQ(test, mlx5x_umr_cqe_status(cqe, 0, 6), -EIO);
	set_op_own(cqe, MLX5X_CQE_RESP_SEND, 0);
	KUNIT_EXPECT_EQ(test, mlx5x_umr_cqe_status(cqe, 0, 6), -EIO);
}

static struct kunit_case umr_rereg_cases[] = {
	KUNIT_CASE(rereg_in_place),
	KUNIT_CASE(rereg_new_key),
	{}
};

static struct kunit_suite umr_rereg_suite = {
	.name = "mlx5x_umr_rereg",
	.test_cases = umr_rereg_cases,
};

/* The UMR QP as mlx5_ib creates it: a kernel QP naming reserved objects. */
static void umr_qp_context(struct kunit *test)
{
	struct mlx5x_ib_dev *dev = kunit_kzalloc(test, sizeof(*dev),
						  GFP_KERNEL);
	struct mlx5x_umr *umr = kunit_kzalloc(test, sizeof(*umr), GFP_KERNEL);
	__be32 qpc[MLX5X_QPC_LEN / 4] = {};
	struct mlx5x_qp_params p;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_ASSERT_NOT_NULL(test, umr);
	dev->devr.xrcdn1 = 0x11;
	dev->devr.s1.srqn = 0x41;
	dev->caps.sq_ts_cap = MLX5X_TS_CAP_FREE_RUNNING_AND_REAL_TIME;
	umr->mcq.cqn = 0x33;
	umr->uar.index = 5;
	umr->sq.log_n = MLX5X_UMR_LOG_SQ;
	umr->sq.log_stride = 6;
	mlx5x_umr_qp_params(dev, umr, &p);
	mlx5x_qpc_create_encode(qpc, &p);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_ST), MLX5X_QP_ST_REG_UMR);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_FRE), 1);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_RLKY), 1);
	/* no PD until RST2INIT, the latency hint instead */
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_PD), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_LATENCY_SENSITIVE), 1);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_RQ_TYPE),
			MLX5X_QP_RQ_ZERO_LEN);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_SRQN_RMPN_XRQN), 0x41);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_XRCD), 0x11);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_CQN_SND), 0x33);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_TS_FORMAT),
			MLX5X_TS_FORMAT_DEFAULT);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_LOG_SQ_SIZE),
			MLX5X_UMR_LOG_SQ);
}

/* Its transitions: PD, CQ, 4 KiB MTU and messages on each; port at INIT. */
static void umr_qp_transitions(struct kunit *test)
{
	static const u16 ops[] = {
		MLX5X_CMD_OP_RST2INIT_QP, MLX5X_CMD_OP_INIT2RTR_QP,
		MLX5X_CMD_OP_RTR2RTS_QP,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		__be32 qpc[MLX5X_QPC_LEN / 4] = {};
		const u8 *ads = (const u8 *)qpc + MLX5X_QPC_PRI_PATH_OFF;
		bool init = ops[i] == MLX5X_CMD_OP_RST2INIT_QP;
		struct mlx5x_qp_mod m;

		mlx5x_umr_qp_mod(ops[i], 0x20, 0x33, &m);
		mlx5x_qpc_mod_encode(qpc, &m);
		KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_ST),
				MLX5X_QP_ST_REG_UMR);
		KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_PD), 0x20);
		KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_CQN_SND), 0x33);
		KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_MTU),
				MLX5X_QPC_MTU_4K);
		KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_LOG_MSG_MAX), 12);
		KUNIT_EXPECT_EQ(test, MLX5X_GET(qpc, MLX5X_QPC_RLKY), init);
		KUNIT_EXPECT_EQ(test, MLX5X_GET(ads, MLX5X_ADS_VHCA_PORT_NUM),
				init ? 1 : 0);
		KUNIT_EXPECT_EQ(test, MLX5X_GET(ads, MLX5X_ADS_PKEY_INDEX), 0);
	}
}

static struct kunit_case umr_wqe_cases[] = {
	KUNIT_CASE(mkey_mask),
	KUNIT_CASE(wqe_build),
	KUNIT_CASE(wqe_build_no_atomics),
	KUNIT_CASE(cqe_status),
	KUNIT_CASE(umr_qp_context),
	KUNIT_CASE(umr_qp_transitions),
	{}
};

static struct kunit_suite umr_wqe_suite = {
	.name = "mlx5x_umr_wqe",
	.test_cases = umr_wqe_cases,
};

kunit_test_suites(&umr_rereg_suite, &umr_wqe_suite);
