// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the kernel data path's pure parts: send WQE segments
 * and a WQE across the ring end (mlx5x_kwqe), CQE -> ib_wc and the send
 * queue's completion bookkeeping (mlx5x_kcqe), the CQ arm word, address
 * vectors and queue geometry (mlx5x_kgeom).
 */
#include <kunit/test.h>

#include "../cq_table.h"
#include "../ib.h"
#include "../kmr.h"
#include "../kverbs.h"
#include "../kwqe.h"

static u32 be32_at(const void *buf, unsigned int off)
{
	return be32_to_cpu(*(const __be32 *)((const u8 *)buf + off));
}

static u64 be64_at(const void *buf, unsigned int off)
{
	return be64_to_cpu(*(const __be64 *)((const u8 *)buf + off));
}

/* ---- WQE segments ---- */

static void ctrl_segment(struct kunit *test)
{
	struct mlx5x_kwqe_ctrl c = {
		.index = 0xbeef, .opcode = MLX5X_OPCODE_SEND_IMM,
		.qpn = 0x123456, .ds = 5, .fence = MLX5X_WQE_FENCE_FENCE,
		.signaled = true, .solicited = true,
		.imm = cpu_to_be32(0xcafe0001),
	};
	u8 seg[16] = {};

	mlx5x_kwqe_ctrl(seg, &c);
	/* opmod_idx_opcode, qpn_ds, fm_ce_se, imm as the PRM lays them out */
	KUNIT_EXPECT_EQ(test, be32_at(seg, 0), 0x00beef0bU);
	KUNIT_EXPECT_EQ(test, be32_at(seg, 4), 0x12345605U);
	KUNIT_EXPECT_EQ(test, seg[11], (2 << 5) | (2 << 2) | 2);
	KUNIT_EXPECT_EQ(test, be32_at(seg, 12), 0xcafe0001U);

	/* unsignalled: a CQE on error only */
	c.signaled = false;
	c.solicited = false;
	c.fence = 0;
	mlx5x_kwqe_ctrl(seg, &c);
	KUNIT_EXPECT_EQ(test, seg[11], 0);
}

static void raddr_atomic_data(struct kunit *test)
{
	u8 seg[16];

	memset(seg, 0xff, sizeof(seg));
	mlx5x_kwqe_raddr(seg, 0x1122334455667788ULL, 0xabcdef01);
	KUNIT_EXPECT_EQ(test, be64_at(seg, 0), 0x1122334455667788ULL);
	KUNIT_EXPECT_EQ(test, be32_at(seg, 8), 0xabcdef01U);
	KUNIT_EXPECT_EQ(test, be32_at(seg, 12), 0U);

	mlx5x_kwqe_atomic(seg, 5, 7);
	KUNIT_EXPECT_EQ(test, be64_at(seg, 0), 5ULL);
	KUNIT_EXPECT_EQ(test, be64_at(seg, 8), 7ULL);

	memset(seg, 0xff, sizeof(seg));
	mlx5x_kwqe_data(seg, 4096, 0x300, 0xdead0000ULL);
	KUNIT_EXPECT_EQ(test, be32_at(seg, 0), 4096U);
	KUNIT_EXPECT_EQ(test, be32_at(seg, 4), 0x300U);
	KUNIT_EXPECT_EQ(test, be64_at(seg, 8), 0xdead0000ULL);
}

static void datagram_segment(struct kunit *test)
{
	u8 av[MLX5X_WQE_AV_LEN], seg[MLX5X_WQE_AV_LEN];

	memset(av, 0, sizeof(av));
	av[0x0f] = 0x42;		/* low byte of the RLID */
	av[0x20] = 0xfe;		/* first byte of the RGID */
	mlx5x_kwqe_dgram(seg, av, 0x000001, MLX5X_GSI_QKEY);
	KUNIT_EXPECT_EQ(test, be32_at(seg, 0), MLX5X_GSI_QKEY);
	/* the extended AV bit and the destination QP */
	KUNIT_EXPECT_EQ(test, be32_at(seg, 8), 0x80000001U);
	KUNIT_EXPECT_EQ(test, seg[0x0f], 0x42);
	KUNIT_EXPECT_EQ(test, seg[0x20], 0xfe);
}

static void inline_segment(struct kunit *test)
{
	static const char a[] = "hello", b[] = "worlds!";
	struct ib_sge sg[2] = {
		{ .addr = (uintptr_t)a, .length = 5 },
		{ .addr = (uintptr_t)b, .length = 7 },
	};
	u8 seg[64];
	unsigned int len;

	memset(seg, 0xaa, sizeof(seg));
	KUNIT_ASSERT_EQ(test, mlx5x_kwqe_inline(seg, sg, 2, 32, &len), 0);
	KUNIT_EXPECT_EQ(test, be32_at(seg, 0), 0x80000000U | 12);
	KUNIT_EXPECT_EQ(test, len, 16U);
	KUNIT_EXPECT_EQ(test, memcmp(seg + 4, "helloworlds!", 12), 0);

	/* more than the QP's inline size: refused as mlx5_ib does */
	KUNIT_EXPECT_EQ(test, mlx5x_kwqe_inline(seg, sg, 2, 11, &len), -ENOMEM);
	/* an empty payload writes no segment at all (as mlx5_ib) */
	memset(seg, 0xaa, sizeof(seg));
	len = 99;
	KUNIT_ASSERT_EQ(test, mlx5x_kwqe_inline(seg, sg, 0, 32, &len), 0);
	KUNIT_EXPECT_EQ(test, len, 0U);
	KUNIT_EXPECT_EQ(test, be32_at(seg, 0), 0xaaaaaaaaU);
	/* nor do entries that are all empty */
	sg[0].length = 0;
	sg[1].length = 0;
	KUNIT_ASSERT_EQ(test, mlx5x_kwqe_inline(seg, sg, 2, 32, &len), 0);
	KUNIT_EXPECT_EQ(test, len, 0U);
	KUNIT_EXPECT_EQ(test, be32_at(seg, 0), 0xaaaaaaaaU);
}

static void wqe_wraps(struct kunit *test)
{
	u8 *ring = kunit_kzalloc(test, 4 * 64, GFP_KERNEL);
	u8 wqe[3 * 64];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, ring);
	for (i = 0; i < sizeof(wqe); i++)
		wqe[i] = i / 64 + 1;
	/* counter 7 on a 4-block ring: slot 3, then slots 0 and 1 */
	mlx5x_kwqe_copy(ring, 2, 7, wqe, 3);
	KUNIT_EXPECT_EQ(test, ring[3 * 64], 1);
	KUNIT_EXPECT_EQ(test, ring[3 * 64 + 63], 1);
	KUNIT_EXPECT_EQ(test, ring[0], 2);
	KUNIT_EXPECT_EQ(test, ring[64], 3);
	KUNIT_EXPECT_EQ(test, ring[2 * 64], 0);
}

static void opcodes(struct kunit *test)
{
	enum ib_wc_opcode wc;
	u8 op;

	KUNIT_EXPECT_EQ(test, mlx5x_kwqe_opcode(IB_WR_SEND, &op, &wc), 0);
	KUNIT_EXPECT_EQ(test, op, MLX5X_OPCODE_SEND);
	KUNIT_EXPECT_EQ(test, wc, IB_WC_SEND);
	KUNIT_EXPECT_EQ(test, mlx5x_kwqe_opcode(IB_WR_SEND_WITH_INV, &op, &wc),
			0);
	KUNIT_EXPECT_EQ(test, op, MLX5X_OPCODE_SEND_INVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_kwqe_opcode(IB_WR_RDMA_READ, &op, &wc), 0);
	KUNIT_EXPECT_EQ(test, wc, IB_WC_RDMA_READ);
	KUNIT_EXPECT_EQ(test,
			mlx5x_kwqe_opcode(IB_WR_ATOMIC_FETCH_AND_ADD, &op, &wc),
			0);
	KUNIT_EXPECT_EQ(test, op, MLX5X_OPCODE_ATOMIC_FA);
	KUNIT_EXPECT_EQ(test, wc, IB_WC_FETCH_ADD);
	KUNIT_EXPECT_EQ(test, mlx5x_kwqe_opcode(IB_WR_REG_MR, &op, &wc), 0);
	KUNIT_EXPECT_EQ(test, op, MLX5X_OPCODE_UMR);
	KUNIT_EXPECT_EQ(test, wc, IB_WC_REG_MR);
	KUNIT_EXPECT_EQ(test, mlx5x_kwqe_opcode(IB_WR_LOCAL_INV, &op, &wc), 0);
	KUNIT_EXPECT_EQ(test, wc, IB_WC_LOCAL_INV);
	/* LSO and masked atomics are not offered */
	KUNIT_EXPECT_EQ(test, mlx5x_kwqe_opcode(IB_WR_LSO, &op, &wc), -EINVAL);
	KUNIT_EXPECT_EQ(test,
			mlx5x_kwqe_opcode(IB_WR_MASKED_ATOMIC_CMP_AND_SWP,
					  &op, &wc), -EINVAL);
}

static void fences(struct kunit *test)
{
	u8 strong = mlx5x_kwqe_umr_fence(MLX5X_CAP_UMR_FENCE_STRONG);

	KUNIT_EXPECT_EQ(test, strong, MLX5X_WQE_FENCE_STRONG_ORDERING);
	KUNIT_EXPECT_EQ(test, mlx5x_kwqe_umr_fence(MLX5X_CAP_UMR_FENCE_SMALL),
			MLX5X_WQE_FENCE_INITIATOR_SMALL);
	KUNIT_EXPECT_EQ(test, mlx5x_kwqe_umr_fence(MLX5X_CAP_UMR_FENCE_NONE),
			MLX5X_WQE_FENCE_NONE);
	/* a UMR takes the device's fence whatever came before */
	KUNIT_EXPECT_EQ(test, mlx5x_kwqe_fence(true, false, 0, strong), strong);
	KUNIT_EXPECT_EQ(test, mlx5x_kwqe_fence(true, true,
					       MLX5X_WQE_FENCE_INITIATOR_SMALL,
					       strong), strong);
	/* the WQE after a UMR: initiator-small, plus the fence if asked */
	KUNIT_EXPECT_EQ(test,
			mlx5x_kwqe_fence(false, false,
					 MLX5X_WQE_FENCE_INITIATOR_SMALL, strong),
			MLX5X_WQE_FENCE_INITIATOR_SMALL);
	KUNIT_EXPECT_EQ(test,
			mlx5x_kwqe_fence(false, true,
					 MLX5X_WQE_FENCE_INITIATOR_SMALL, strong),
			MLX5X_WQE_FENCE_FENCE_AND_INITIATOR_SMALL);
	KUNIT_EXPECT_EQ(test, mlx5x_kwqe_fence(false, true, 0, strong),
			MLX5X_WQE_FENCE_FENCE);
	KUNIT_EXPECT_EQ(test, mlx5x_kwqe_fence(false, false, 0, strong), 0);
}

static void recv_wqe(struct kunit *test)
{
	struct ib_sge sg[2] = {
		{ .addr = 0x1000, .length = 256, .lkey = 7 },
		{ .addr = 0x2000, .length = 64, .lkey = 8 },
	};
	u8 wqe[4 * 16];

	memset(wqe, 0xff, sizeof(wqe));
	/* two of four: the list ends with the invalid lkey */
	KUNIT_EXPECT_EQ(test, mlx5x_krecv_build(wqe, 4, sg, 2), 3U);
	KUNIT_EXPECT_EQ(test, be32_at(wqe, 16), 64U);
	KUNIT_EXPECT_EQ(test, be32_at(wqe, 32), 0U);
	KUNIT_EXPECT_EQ(test, be32_at(wqe, 36), MLX5X_INVALID_LKEY);
	/* a full slot needs no terminator */
	KUNIT_EXPECT_EQ(test, mlx5x_krecv_build(wqe, 2, sg, 2), 2U);
	/* no entry at all (ib_drain_rq): the terminator alone */
	KUNIT_EXPECT_EQ(test, mlx5x_krecv_build(wqe, 1, sg, 0), 1U);
	KUNIT_EXPECT_EQ(test, be32_at(wqe, 4), MLX5X_INVALID_LKEY);
}

static struct kunit_case kwqe_cases[] = {
	KUNIT_CASE(ctrl_segment),
	KUNIT_CASE(raddr_atomic_data),
	KUNIT_CASE(datagram_segment),
	KUNIT_CASE(inline_segment),
	KUNIT_CASE(wqe_wraps),
	KUNIT_CASE(opcodes),
	KUNIT_CASE(fences),
	KUNIT_CASE(recv_wqe),
	{}
};

static struct kunit_suite kwqe_suite = {
	.name = "mlx5x_kwqe",
	.test_cases = kwqe_cases,
};

/* ---- completions ---- */

static void cqe_init(u8 *cqe, u8 opcode)
{
	memset(cqe, 0, MLX5X_CQE_LEN);
	cqe[MLX5X_CQE_OP_OWN_OFF] = opcode << MLX5X_CQE_OPCODE_SHIFT;
}

static void arm_word(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mlx5x_cq_arm_word(0, false, 0), 0U);
	/* sn in bits 29:28 (two bits kept), cmd 24, ci 23:0 */
	KUNIT_EXPECT_EQ(test, mlx5x_cq_arm_word(5, false, 0x1234567),
			0x10234567U);
	KUNIT_EXPECT_EQ(test, mlx5x_cq_arm_word(3, true, 7), 0x31000007U);
}

static void cqe_requester(struct kunit *test)
{
	struct ib_wc wc = {};
	u8 cqe[MLX5X_CQE_LEN];

	cqe_init(cqe, MLX5X_CQE_REQ);
	MLX5X_SET(cqe, MLX5X_CQE_SOP_DROP, MLX5X_OPCODE_RDMA_READ);
	MLX5X_SET(cqe, MLX5X_CQE_BYTE_CNT, 1000);
	MLX5X_SET(cqe, MLX5X_CQE_QPN, 0xabc);
	MLX5X_SET(cqe, MLX5X_CQE_WQE_COUNTER, 0x1234);
	KUNIT_EXPECT_EQ(test, mlx5x_cqe_opcode(cqe), MLX5X_CQE_REQ);
	KUNIT_EXPECT_EQ(test, mlx5x_cqe_qpn(cqe), 0xabcU);
	KUNIT_EXPECT_EQ(test, mlx5x_cqe_wqe_counter(cqe), 0x1234);
	mlx5x_cqe_req_to_wc(cqe, IB_WC_RDMA_READ, &wc);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RDMA_READ);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 1000U);

	MLX5X_SET(cqe, MLX5X_CQE_SOP_DROP, MLX5X_OPCODE_ATOMIC_CS);
	mlx5x_cqe_req_to_wc(cqe, IB_WC_COMP_SWAP, &wc);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 8U);

	MLX5X_SET(cqe, MLX5X_CQE_SOP_DROP, MLX5X_OPCODE_SEND_IMM);
	mlx5x_cqe_req_to_wc(cqe, IB_WC_SEND, &wc);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 0U);
	KUNIT_EXPECT_TRUE(test, wc.wc_flags & IB_WC_WITH_IMM);
}

static void cqe_responder(struct kunit *test)
{
	__be32 *imm;
	struct ib_wc wc = {};
	u8 cqe[MLX5X_CQE_LEN];

	cqe_init(cqe, MLX5X_CQE_RESP_SEND_IMM);
	imm = (__be32 *)(cqe + MLX5X_CQE_IMM_INVAL_PKEY_OFF);
	*imm = cpu_to_be32(0x01020304);
	MLX5X_SET(cqe, MLX5X_CQE_BYTE_CNT, 296);
	MLX5X_SET(cqe, MLX5X_CQE_RQPN, 0x000001);
	MLX5X_SET(cqe, MLX5X_CQE_SL, 3);
	MLX5X_SET(cqe, MLX5X_CQE_GRH, 1);
	MLX5X_SET(cqe, MLX5X_CQE_SLID, 0x17);
	MLX5X_SET(cqe, MLX5X_CQE_ML_PATH, 2);
	mlx5x_cqe_resp_to_wc(cqe, &wc);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 296U);
	KUNIT_EXPECT_EQ(test, wc.wc_flags, IB_WC_WITH_IMM | IB_WC_GRH);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(wc.ex.imm_data), 0x01020304U);
	KUNIT_EXPECT_EQ(test, wc.src_qp, 1U);
	KUNIT_EXPECT_EQ(test, wc.sl, 3);
	KUNIT_EXPECT_EQ(test, wc.slid, 0x17);
	KUNIT_EXPECT_EQ(test, wc.dlid_path_bits, 2);

	cqe_init(cqe, MLX5X_CQE_RESP_SEND_INV);
	*imm = cpu_to_be32(0x5566);
	mlx5x_cqe_resp_to_wc(cqe, &wc);
	KUNIT_EXPECT_EQ(test, wc.wc_flags, IB_WC_WITH_INVALIDATE);
	KUNIT_EXPECT_EQ(test, wc.ex.invalidate_rkey, 0x5566U);

	cqe_init(cqe, MLX5X_CQE_RESP_WR_IMM);
	mlx5x_cqe_resp_to_wc(cqe, &wc);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RECV_RDMA_WITH_IMM);
	KUNIT_EXPECT_EQ(test, wc.wc_flags, IB_WC_WITH_IMM);

	cqe_init(cqe, MLX5X_CQE_RESP_SEND);
	mlx5x_cqe_resp_to_wc(cqe, &wc);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, wc.wc_flags, 0);
}

static void cqe_errors(struct kunit *test)
{
	static const struct {
		u8 synd;
		enum ib_wc_status status;
	} map[] = {
		{ MLX5X_CQE_SYND_LOCAL_LENGTH_ERR, IB_WC_LOC_LEN_ERR },
		{ MLX5X_CQE_SYND_LOCAL_QP_OP_ERR, IB_WC_LOC_QP_OP_ERR },
		{ MLX5X_CQE_SYND_LOCAL_PROT_ERR, IB_WC_LOC_PROT_ERR },
		{ MLX5X_CQE_SYND_WR_FLUSH_ERR, IB_WC_WR_FLUSH_ERR },
		{ MLX5X_CQE_SYND_MW_BIND_ERR, IB_WC_MW_BIND_ERR },
		{ MLX5X_CQE_SYND_BAD_RESP_ERR, IB_WC_BAD_RESP_ERR },
		{ MLX5X_CQE_SYND_LOCAL_ACCESS_ERR, IB_WC_LOC_ACCESS_ERR },
		{ MLX5X_CQE_SYND_REMOTE_INVAL_REQ_ERR, IB_WC_REM_INV_REQ_ERR },
		{ MLX5X_CQE_SYND_REMOTE_ACCESS_ERR, IB_WC_REM_ACCESS_ERR },
		{ MLX5X_CQE_SYND_REMOTE_OP_ERR, IB_WC_REM_OP_ERR },
		{ MLX5X_CQE_SYND_TRANSPORT_RETRY_EXC_ERR, IB_WC_RETRY_EXC_ERR },
		{ MLX5X_CQE_SYND_RNR_RETRY_EXC_ERR, IB_WC_RNR_RETRY_EXC_ERR },
		{ MLX5X_CQE_SYND_REMOTE_ABORTED_ERR, IB_WC_REM_ABORT_ERR },
		{ 0x7f, IB_WC_GENERAL_ERR },
	};
	struct ib_wc wc = {};
	u8 cqe[MLX5X_CQE_LEN];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		KUNIT_EXPECT_EQ(test, mlx5x_cqe_syndrome_to_wc(map[i].synd),
				map[i].status);
	/* a flush, as a QP in error completes what was posted */
	cqe_init(cqe, MLX5X_CQE_REQ_ERR);
	MLX5X_SET(cqe, MLX5X_ERR_CQE_SYNDROME, MLX5X_CQE_SYND_WR_FLUSH_ERR);
	MLX5X_SET(cqe, MLX5X_ERR_CQE_VENDOR_SYND, 0xf9);
	mlx5x_cqe_err_to_wc(cqe, &wc);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, wc.vendor_err, 0xf9U);
}

static void send_bookkeeping(struct kunit *test)
{
	struct mlx5x_ksq_rec rec[8] = {};
	enum ib_wc_opcode op;
	u64 wr_id;
	u32 tail;

	/* an unsignalled 1-block WQE at 6, a signalled 2-block one at 7 */
	rec[6] = (struct mlx5x_ksq_rec){ .wr_id = 60, .wc_op = IB_WC_SEND,
					 .nbb = 1 };
	rec[7] = (struct mlx5x_ksq_rec){ .wr_id = 70,
					 .wc_op = IB_WC_RDMA_WRITE, .nbb = 2 };
	tail = mlx5x_ksq_complete(rec, 3, 0x1fffe, 0xffff, &wr_id, &op);
	/* both retire; the counters run on past 16 bits */
	KUNIT_EXPECT_EQ(test, tail, 0x20001U);
	KUNIT_EXPECT_EQ(test, wr_id, 70ULL);
	KUNIT_EXPECT_EQ(test, op, IB_WC_RDMA_WRITE);
}

/* What the compaction handed back for the SRQ, newest first. */
struct compact_drops {
	u16 ctr[8];
	unsigned int n;
};

static void compact_drop(void *arg, u16 wqe_counter)
{
	struct compact_drops *d = arg;

	if (d->n < ARRAY_SIZE(d->ctr))
		d->ctr[d->n] = wqe_counter;
	d->n++;
}

/* A CQE the device wrote at counter @ctr of a ring of 1 << @log_n. */
static void compact_put(struct mlx5x_ring *r, u32 ctr, u8 opcode, u32 qpn,
			u16 wqe_counter)
{
	u8 *cqe = mlx5x_ring_entry(r, ctr);

	cqe_init(cqe, opcode);
	MLX5X_SET(cqe, MLX5X_CQE_QPN, qpn);
	MLX5X_SET(cqe, MLX5X_CQE_WQE_COUNTER, wqe_counter);
	cqe[MLX5X_CQE_OP_OWN_OFF] |= mlx5x_ring_pass(ctr, r->log_n);
}

static void cq_compact(struct kunit *test)
{
	struct compact_drops d = {};
	struct mlx5x_ring r;
	void *buf;
	u32 i;

	buf = kunit_kzalloc(test, 8 * MLX5X_CQE_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	mlx5x_ring_init(&r, buf, 0, 3, MLX5X_CQE_LOG_LEN);
	mlx5x_cq_ring_invalidate(&r);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_FALSE(test, mlx5x_cqe_sw_owns(buf + i * 64, i, 3));

	/* counters 4..9 cross the ring end: QP 0xa's interleaved with 0xb's */
	r.ctr = 4;
	compact_put(&r, 4, MLX5X_CQE_REQ, 0xa, 1);
	compact_put(&r, 5, MLX5X_CQE_REQ, 0xb, 2);
	compact_put(&r, 6, MLX5X_CQE_RESP_SEND, 0xa, 5);
	compact_put(&r, 7, MLX5X_CQE_RESP_ERR, 0xb, 3);
	compact_put(&r, 8, MLX5X_CQE_RESP_ERR, 0xa, 7);
	compact_put(&r, 9, MLX5X_CQE_RESP_SEND, 0xb, 4);

	/* a QP with no CQE: nothing moves */
	KUNIT_EXPECT_EQ(test, mlx5x_kcq_compact(&r, 0xc, compact_drop, &d), 0U);
	KUNIT_EXPECT_EQ(test, r.ctr, 4U);
	KUNIT_EXPECT_EQ(test, d.n, 0U);

	KUNIT_EXPECT_EQ(test, mlx5x_kcq_compact(&r, 0xa, compact_drop, &d), 3U);
	KUNIT_EXPECT_EQ(test, r.ctr, 7U);
	/* the receives give their SRQ WQEs back, the send does not */
	KUNIT_ASSERT_EQ(test, d.n, 2U);
	KUNIT_EXPECT_EQ(test, d.ctr[0], 7);
	KUNIT_EXPECT_EQ(test, d.ctr[1], 5);
	/* the survivors, in order, owned on the pass of their new slot */
	for (i = 0; i < 3; i++) {
		void *cqe = mlx5x_ring_entry(&r, 7 + i);

		KUNIT_EXPECT_TRUE(test, mlx5x_cqe_sw_owns(cqe, 7 + i, 3));
		KUNIT_EXPECT_EQ(test, mlx5x_cqe_qpn(cqe), 0xbU);
		KUNIT_EXPECT_EQ(test, mlx5x_cqe_wqe_counter(cqe), 2 + i);
	}
	KUNIT_EXPECT_EQ(test, mlx5x_cqe_opcode(mlx5x_ring_entry(&r, 7)),
			MLX5X_CQE_REQ);
	KUNIT_EXPECT_EQ(test, mlx5x_cqe_opcode(mlx5x_ring_entry(&r, 8)),
			MLX5X_CQE_RESP_ERR);
	/* slot 0 now holds counter 8: the owner bit went from 0 to 1 */
	KUNIT_EXPECT_EQ(test, *((u8 *)buf + MLX5X_CQE_OP_OWN_OFF) & 1, 1);
	KUNIT_EXPECT_FALSE(test,
			   mlx5x_cqe_sw_owns(mlx5x_ring_entry(&r, 10), 10, 3));

	/* a full ring is scanned once, without a callback for a send QP */
	for (i = 0; i < 8; i++)
		compact_put(&r, 16 + i, MLX5X_CQE_RESP_SEND, i & 1 ? 0xb : 0xa,
			    i);
	r.ctr = 16;
	KUNIT_EXPECT_EQ(test, mlx5x_kcq_compact(&r, 0xa, NULL, NULL), 4U);
	KUNIT_EXPECT_EQ(test, r.ctr, 20U);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test,
				mlx5x_cqe_wqe_counter(mlx5x_ring_entry(&r, 20 + i)),
				2 * i + 1);
}

static struct kunit_case kcqe_cases[] = {
	KUNIT_CASE(arm_word),
	KUNIT_CASE(cqe_requester),
	KUNIT_CASE(cqe_responder),
	KUNIT_CASE(cqe_errors),
	KUNIT_CASE(send_bookkeeping),
	KUNIT_CASE(cq_compact),
	{}
};

static struct kunit_suite kcqe_suite = {
	.name = "mlx5x_kcqe",
	.test_cases = kcqe_cases,
};

/* ---- address vectors and geometry ---- */

static const struct mlx5x_verbs_caps kcaps = {
	.log_max_qp_sz = 15,
	.max_wqe_sz_sq = 1024,
	.max_wqe_sz_rq = 512,
	.stat_rate_support = 0xffff,
};

static void av_plain(struct kunit *test)
{
	struct rdma_ah_attr ah = { .type = RDMA_AH_ATTR_TYPE_IB };
	u8 av[MLX5X_WQE_AV_LEN];

	rdma_ah_set_dlid(&ah, 0xffff);		/* permissive: QP0 DR SMPs */
	rdma_ah_set_sl(&ah, 5);
	rdma_ah_set_path_bits(&ah, 3);
	rdma_ah_set_static_rate(&ah, IB_RATE_10_GBPS);
	KUNIT_ASSERT_EQ(test, mlx5x_av_build(&ah, &kcaps, 8, av), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(av, MLX5X_WQE_AV_RLID), 0xffffU);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(av, MLX5X_WQE_AV_SL), 5U);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(av, MLX5X_WQE_AV_MLID), 3U);
	/* IB rate 10 Gb/s (3) is device code 8 */
	KUNIT_EXPECT_EQ(test, MLX5X_GET(av, MLX5X_WQE_AV_STAT_RATE), 8U);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(av, MLX5X_WQE_AV_GRH), 0U);
	{
		struct rdma_ah_attr back = { .type = RDMA_AH_ATTR_TYPE_IB };

		mlx5x_av_to_attr(av, &back);
		KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&back), 0xffffU);
		KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&back), 5);
		KUNIT_EXPECT_EQ(test, rdma_ah_get_path_bits(&back), 3);
		KUNIT_EXPECT_EQ(test, rdma_ah_get_static_rate(&back),
				IB_RATE_10_GBPS);
	}

	rdma_ah_set_dlid(&ah, 0xc001);		/* multicast */
	rdma_ah_set_static_rate(&ah, IB_RATE_PORT_CURRENT);
	KUNIT_ASSERT_EQ(test, mlx5x_av_build(&ah, &kcaps, 8, av), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(av, MLX5X_WQE_AV_RLID), 0xc001U);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(av, MLX5X_WQE_AV_STAT_RATE), 0U);
}

static void av_grh(struct kunit *test)
{
	struct rdma_ah_attr ah = { .type = RDMA_AH_ATTR_TYPE_IB };
	union ib_gid dgid = { .raw = { 0xff, 0x12, 0x40, 0x1b } };
	u8 av[MLX5X_WQE_AV_LEN];

	rdma_ah_set_dlid(&ah, 0xc000);
	rdma_ah_set_grh(&ah, &dgid, 0x12345, 2, 64, 0x20);
	KUNIT_ASSERT_EQ(test, mlx5x_av_build(&ah, &kcaps, 8, av), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(av, MLX5X_WQE_AV_GRH), 1U);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(av, MLX5X_WQE_AV_SGID_INDEX), 2U);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(av, MLX5X_WQE_AV_FLOW_LABEL), 0x12345U);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(av, MLX5X_WQE_AV_HOP_LIMIT), 64U);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(av, MLX5X_WQE_AV_TCLASS), 0x20U);
	KUNIT_EXPECT_EQ(test, memcmp(av + MLX5X_WQE_AV_RGID_OFF, dgid.raw, 16),
			0);
	/* read back as query_ah reports it */
	{
		struct rdma_ah_attr back = { .type = RDMA_AH_ATTR_TYPE_IB };

		mlx5x_av_to_attr(av, &back);
		KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&back), 0xc000U);
		KUNIT_EXPECT_TRUE(test, rdma_ah_get_ah_flags(&back) & IB_AH_GRH);
		KUNIT_EXPECT_EQ(test, rdma_ah_read_grh(&back)->sgid_index, 2);
		KUNIT_EXPECT_EQ(test, rdma_ah_read_grh(&back)->flow_label,
				0x12345U);
		KUNIT_EXPECT_EQ(test, memcmp(rdma_ah_read_grh(&back)->dgid.raw,
					     dgid.raw, 16), 0);
	}
	/* a source GID beyond the table */
	rdma_ah_set_grh(&ah, &dgid, 0, 8, 64, 0);
	KUNIT_EXPECT_EQ(test, mlx5x_av_build(&ah, &kcaps, 8, av), -EINVAL);
}

static void geometry(struct kunit *test)
{
	struct ib_qp_cap cap = {
		.max_send_wr = 128, .max_recv_wr = 500,
		.max_send_sge = 2, .max_recv_sge = 1,
	};
	struct mlx5x_kqp_geom g;

	/* QP1 as ib_mad asks: 16 + 48 + 32 bytes, 2 blocks per WQE */
	KUNIT_ASSERT_EQ(test, mlx5x_kqp_geometry(IB_QPT_GSI, &cap, &kcaps, &g),
			0);
	KUNIT_EXPECT_EQ(test, g.max_wqe_bbs, 2);
	KUNIT_EXPECT_EQ(test, g.sq_log_n, 8);
	KUNIT_EXPECT_EQ(test, g.rq_n, 512U);
	KUNIT_EXPECT_EQ(test, g.rq_max_gs, 1U);
	KUNIT_EXPECT_EQ(test, g.rq_shift, 4);

	/* a connected QP has room for a fast registration WQE */
	KUNIT_EXPECT_EQ(test, mlx5x_ksq_send_len(IB_QPT_RC, 1, 0),
			16U + MLX5X_KMR_SEGS_MAX);
	KUNIT_EXPECT_EQ(test, mlx5x_ksq_send_len(IB_QPT_RC, 16, 0),
			16U + 32 + 256);
	/* inline data takes its header */
	KUNIT_EXPECT_EQ(test, mlx5x_ksq_send_len(IB_QPT_UD, 1, 60), 128U);

	/* three receive entries round up to a slot of four */
	cap.max_recv_sge = 3;
	KUNIT_ASSERT_EQ(test, mlx5x_kqp_geometry(IB_QPT_RC, &cap, &kcaps, &g),
			0);
	KUNIT_EXPECT_EQ(test, g.rq_max_gs, 4U);
	KUNIT_EXPECT_EQ(test, g.rq_shift, 6);

	/*
	 * the entries query_device reports fit an RC QP (nvmet-rdma asks
	 * for them), with room for an atomic beside them
	 */
	cap.max_send_sge = 30;
	KUNIT_EXPECT_EQ(test, mlx5x_kqp_geometry(IB_QPT_RC, &cap, &kcaps, &g),
			0);
	KUNIT_EXPECT_EQ(test, g.max_wqe_bbs, 9);
	/* beyond 63 data segments: 16 + 48 + 60 * 16 bytes */
	cap.max_send_sge = 60;
	KUNIT_EXPECT_EQ(test, mlx5x_kqp_geometry(IB_QPT_UD, &cap, &kcaps, &g),
			-EINVAL);
	cap.max_send_sge = 59;
	KUNIT_EXPECT_EQ(test, mlx5x_kqp_geometry(IB_QPT_UD, &cap, &kcaps, &g),
			0);
	cap.max_recv_sge = 33;
	KUNIT_EXPECT_EQ(test, mlx5x_kqp_geometry(IB_QPT_UD, &cap, &kcaps, &g),
			-EINVAL);
	cap.max_recv_sge = 1;
	cap.max_send_wr = 1 << 15;
	KUNIT_EXPECT_EQ(test, mlx5x_kqp_geometry(IB_QPT_UD, &cap, &kcaps, &g),
			-EINVAL);
	/* a gather count whose bytes would overflow */
	cap.max_send_wr = 1;
	cap.max_send_sge = 0x10000001;
	KUNIT_EXPECT_EQ(test, mlx5x_kqp_geometry(IB_QPT_UD, &cap, &kcaps, &g),
			-EINVAL);
}

/* The receive queue is at least one 64-byte WQEBB. */
static void geometry_rq_min(struct kunit *test)
{
	struct ib_qp_cap cap = {
		.max_send_wr = 1, .max_recv_wr = 1,
		.max_send_sge = 1, .max_recv_sge = 1,
	};
	struct mlx5x_kqp_geom g;

	/* one 16-byte slot: raised to four */
	KUNIT_ASSERT_EQ(test, mlx5x_kqp_geometry(IB_QPT_RC, &cap, &kcaps, &g),
			0);
	KUNIT_EXPECT_EQ(test, g.rq_shift, 4);
	KUNIT_EXPECT_EQ(test, g.rq_n, 4U);
	KUNIT_EXPECT_EQ(test, g.rq_log_n, 2);
	/* two 32-byte slots already fill a block */
	cap.max_recv_wr = 2;
	cap.max_recv_sge = 2;
	KUNIT_ASSERT_EQ(test, mlx5x_kqp_geometry(IB_QPT_RC, &cap, &kcaps, &g),
			0);
	KUNIT_EXPECT_EQ(test, g.rq_n, 2U);
	KUNIT_EXPECT_EQ(test, g.rq_log_n, 1);
	/* one 64-byte slot is enough */
	cap.max_recv_wr = 1;
	cap.max_recv_sge = 4;
	KUNIT_ASSERT_EQ(test, mlx5x_kqp_geometry(IB_QPT_RC, &cap, &kcaps, &g),
			0);
	KUNIT_EXPECT_EQ(test, g.rq_n, 1U);
	KUNIT_EXPECT_EQ(test, g.rq_log_n, 0);
	/* no receive queue stays none */
	cap.max_recv_wr = 0;
	KUNIT_ASSERT_EQ(test, mlx5x_kqp_geometry(IB_QPT_RC, &cap, &kcaps, &g),
			0);
	KUNIT_EXPECT_EQ(test, g.rq_n, 0U);
}

/* Which opcodes each QP type posts (mlx5_ib's post_send). */
static void opcodes_per_type(struct kunit *test)
{
	static const enum ib_wr_opcode rc_only[] = {
		IB_WR_RDMA_READ, IB_WR_ATOMIC_CMP_AND_SWP,
		IB_WR_ATOMIC_FETCH_AND_ADD, IB_WR_REG_MR, IB_WR_LOCAL_INV,
		IB_WR_SEND_WITH_INV,
	};
	static const enum ib_wr_opcode uc_ok[] = {
		IB_WR_SEND, IB_WR_SEND_WITH_IMM, IB_WR_RDMA_WRITE,
		IB_WR_RDMA_WRITE_WITH_IMM,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rc_only); i++) {
		KUNIT_EXPECT_TRUE(test, mlx5x_ksq_op_ok(IB_QPT_RC, rc_only[i]));
		KUNIT_EXPECT_FALSE(test, mlx5x_ksq_op_ok(IB_QPT_UC, rc_only[i]));
		KUNIT_EXPECT_FALSE(test, mlx5x_ksq_op_ok(IB_QPT_UD, rc_only[i]));
	}
	for (i = 0; i < ARRAY_SIZE(uc_ok); i++) {
		KUNIT_EXPECT_TRUE(test, mlx5x_ksq_op_ok(IB_QPT_RC, uc_ok[i]));
		KUNIT_EXPECT_TRUE(test, mlx5x_ksq_op_ok(IB_QPT_UC, uc_ok[i]));
	}
	KUNIT_EXPECT_TRUE(test, mlx5x_ksq_op_ok(IB_QPT_GSI, IB_WR_SEND));
	KUNIT_EXPECT_FALSE(test, mlx5x_ksq_op_ok(IB_QPT_UD, IB_WR_RDMA_WRITE));
	/* UC WQEs need no room for a fast registration */
	KUNIT_EXPECT_EQ(test, mlx5x_ksq_send_len(IB_QPT_UC, 1, 0), 48U);
}

static void special_qps(struct kunit *test)
{
	u8 st = 0xff;

	KUNIT_EXPECT_EQ(test, mlx5x_kqp_type_to_st(IB_QPT_SMI, &st), 0);
	KUNIT_EXPECT_EQ(test, st, MLX5X_QP_ST_QP0);
	KUNIT_EXPECT_EQ(test, mlx5x_kqp_type_to_st(IB_QPT_GSI, &st), 0);
	KUNIT_EXPECT_EQ(test, st, MLX5X_QP_ST_QP1);
	KUNIT_EXPECT_EQ(test, mlx5x_kqp_type_to_st(IB_QPT_UD, &st), 0);
	KUNIT_EXPECT_EQ(test, st, MLX5X_QP_ST_UD);
	KUNIT_EXPECT_EQ(test, mlx5x_kqp_type_to_st(IB_QPT_RAW_PACKET, &st),
			-EOPNOTSUPP);
	KUNIT_EXPECT_TRUE(test, mlx5x_kqp_special(IB_QPT_GSI));
	KUNIT_EXPECT_FALSE(test, mlx5x_kqp_special(IB_QPT_UD));
}

static struct kunit_case kgeom_cases[] = {
	KUNIT_CASE(av_plain),
	KUNIT_CASE(av_grh),
	KUNIT_CASE(geometry),
	KUNIT_CASE(geometry_rq_min),
	KUNIT_CASE(opcodes_per_type),
	KUNIT_CASE(special_qps),
	{}
};

static struct kunit_suite kgeom_suite = {
	.name = "mlx5x_kgeom",
	.test_cases = kgeom_cases,
};

kunit_test_suites(&kwqe_suite, &kcqe_suite, &kgeom_suite);
