// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pure builders of the kernel data path (kwqe.h).  Every field goes
 * through the PRM layouts of include/mlx5x; the callers own the rings.
 */
#include <linux/bitfield.h>
#include <linux/string.h>

#include "fw_verbs.h"
#include "hw.h"
#include "ib.h"
#include "kwqe.h"

/* ---- send WQE segments ---- */

/**
 * mlx5x_kwqe_ctrl() - write the control segment of a send WQE
 * @seg: the first 16 bytes of the WQE, zeroed by the caller
 * @c: what it says
 */
void mlx5x_kwqe_ctrl(void *seg, const struct mlx5x_kwqe_ctrl *c)
{
	MLX5X_SET(seg, MLX5X_WQE_CTRL_WQE_INDEX, c->index);
	MLX5X_SET(seg, MLX5X_WQE_CTRL_OPCODE, c->opcode);
	MLX5X_SET(seg, MLX5X_WQE_CTRL_QPN, c->qpn);
	MLX5X_SET(seg, MLX5X_WQE_CTRL_DS, c->ds);
	MLX5X_SET(seg, MLX5X_WQE_CTRL_FENCE, c->fence);
	MLX5X_SET(seg, MLX5X_WQE_CTRL_CE, c->signaled ? MLX5X_WQE_CE_ALWAYS :
						       MLX5X_WQE_CE_ERROR_ONLY);
	MLX5X_SET(seg, MLX5X_WQE_CTRL_SE, c->solicited);
	*(__be32 *)((u8 *)seg + MLX5X_WQE_CTRL_IMM_OFF) = c->imm;
}

/**
 * mlx5x_kwqe_raddr() - the remote address segment of RDMA and atomic WQEs
 * @seg: MLX5X_KWQE_RADDR_LEN bytes
 * @va: remote address
 * @rkey: remote key
 */
void mlx5x_kwqe_raddr(void *seg, u64 va, u32 rkey)
{
	*(__be64 *)((u8 *)seg + MLX5X_WQE_RADDR_VA_OFF) = cpu_to_be64(va);
	MLX5X_SET(seg, MLX5X_WQE_RADDR_RKEY, rkey);
	/* the last 4 bytes are reserved */
	*(__be32 *)((u8 *)seg + MLX5X_WQE_RADDR_RKEY_OFF + 4) = 0;
}

/**
 * mlx5x_kwqe_atomic() - the atomic segment
 * @seg: MLX5X_KWQE_ATOMIC_LEN bytes
 * @swap_add: the swap (or add) operand
 * @compare: the compare operand
 */
void mlx5x_kwqe_atomic(void *seg, u64 swap_add, u64 compare)
{
	*(__be64 *)((u8 *)seg + MLX5X_WQE_ATOMIC_SWAP_ADD_OFF) =
		cpu_to_be64(swap_add);
	*(__be64 *)((u8 *)seg + MLX5X_WQE_ATOMIC_COMPARE_OFF) =
		cpu_to_be64(compare);
}

/**
 * mlx5x_kwqe_dgram() - the datagram segment of a UD, QP0 or QP1 send
 * @seg: MLX5X_WQE_AV_LEN bytes
 * @av: the address handle's vector (mlx5x_av_build())
 * @dqpn: destination QP
 * @qkey: Q_Key; with bit 31 set the device takes the QP's own
 *
 * The vector is always the extended 48-byte one.
 */
void mlx5x_kwqe_dgram(void *seg, const void *av, u32 dqpn, u32 qkey)
{
	memcpy(seg, av, MLX5X_WQE_AV_LEN);
	MLX5X_SET(seg, MLX5X_WQE_AV_QKEY, qkey);
	MLX5X_SET(seg, MLX5X_WQE_AV_EXT, 1);
	MLX5X_SET(seg, MLX5X_WQE_AV_DQPN, dqpn);
}

/**
 * mlx5x_kwqe_data() - a data (pointer) segment
 * @seg: MLX5X_WQE_DS_LEN bytes
 * @len: byte count
 * @lkey: local key
 * @addr: address
 *
 * Gather in a send WQE, scatter in a receive.  Whole words: the ring
 * slot may hold an old inline header, whose inline bit must not survive.
 */
void mlx5x_kwqe_data(void *seg, u32 len, u32 lkey, u64 addr)
{
	*(__be32 *)((u8 *)seg + MLX5X_WQE_DATA_BYTE_COUNT_OFF) =
		cpu_to_be32(len & MLX5X_WQE_DATA_BYTE_COUNT_MASK);
	*(__be32 *)((u8 *)seg + MLX5X_WQE_DATA_LKEY_OFF) = cpu_to_be32(lkey);
	*(__be64 *)((u8 *)seg + MLX5X_WQE_DATA_ADDR_OFF) = cpu_to_be64(addr);
}

/**
 * mlx5x_kwqe_inline() - copy the gather list into an inline segment
 * @seg: where the segment starts, room for @max bytes plus its header
 *	rounded up to 16
 * @sg: gather list; the addresses are kernel virtual addresses
 * @n: entries
 * @max: largest inline payload the QP was created for
 * @len: bytes the segment takes, header and padding included; 0 for an
 *	empty payload, which gets no segment at all (as mlx5_ib)
 *
 * Return: 0, or -ENOMEM when the payload exceeds @max (as mlx5_ib).
 */
int mlx5x_kwqe_inline(void *seg, const struct ib_sge *sg, int n, u32 max,
		      unsigned int *len)
{
	u8 *data = (u8 *)seg + MLX5X_WQE_INLINE_HDR_LEN;
	u32 total = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (sg[i].length > max - total)
			return -ENOMEM;
		memcpy(data + total, (void *)(uintptr_t)sg[i].addr,
		       sg[i].length);
		total += sg[i].length;
	}
	*len = 0;
	if (!total)
		return 0;
	*(__be32 *)seg = 0;
	MLX5X_SET(seg, MLX5X_WQE_DATA_INLINE, 1);
	MLX5X_SET(seg, MLX5X_WQE_DATA_BYTE_COUNT, total);
	*len = ALIGN(MLX5X_WQE_INLINE_HDR_LEN + total, MLX5X_WQE_DS_LEN);
	/* the padding is the device's to ignore, but keep it defined */
	memset(data + total, 0, *len - MLX5X_WQE_INLINE_HDR_LEN - total);
	return 0;
}

/**
 * mlx5x_kwqe_copy() - copy a WQE built elsewhere into the send ring
 * @ring: the ring buffer, 1 << @log_n WQEBBs
 * @log_n: log2 of its WQEBBs
 * @ctr: producer counter of the WQE's first block
 * @wqe: the WQE, @nbb whole WQEBBs
 * @nbb: its size in WQEBBs
 *
 * Block by block, so a WQE that runs past the ring end goes on at its
 * start, as the device reads it.
 */
void mlx5x_kwqe_copy(void *ring, u8 log_n, u32 ctr, const void *wqe,
		     unsigned int nbb)
{
	u32 mask = (1U << log_n) - 1;
	unsigned int i;

	for (i = 0; i < nbb; i++)
		memcpy((u8 *)ring + (((ctr + i) & mask) << MLX5X_SEND_WQEBB_SHIFT),
		       (const u8 *)wqe + (i << MLX5X_SEND_WQEBB_SHIFT),
		       MLX5X_SEND_WQEBB_LEN);
}

/**
 * mlx5x_kwqe_opcode() - device opcode and completion opcode of a WR
 * @op: the work request's opcode
 * @opcode: MLX5X_OPCODE_* on success
 * @wc: what its completion reports
 *
 * Return: 0, or -EINVAL for an opcode mlx5x does not post.
 */
int mlx5x_kwqe_opcode(enum ib_wr_opcode op, u8 *opcode, enum ib_wc_opcode *wc)
{
	static const struct {
		enum ib_wr_opcode wr;
		u8 opcode;
		enum ib_wc_opcode wc;
	} tbl[] = {
		{ IB_WR_SEND, MLX5X_OPCODE_SEND, IB_WC_SEND },
		{ IB_WR_SEND_WITH_IMM, MLX5X_OPCODE_SEND_IMM, IB_WC_SEND },
		{ IB_WR_SEND_WITH_INV, MLX5X_OPCODE_SEND_INVAL, IB_WC_SEND },
		{ IB_WR_RDMA_WRITE, MLX5X_OPCODE_RDMA_WRITE, IB_WC_RDMA_WRITE },
		{ IB_WR_RDMA_WRITE_WITH_IMM, MLX5X_OPCODE_RDMA_WRITE_IMM,
		  IB_WC_RDMA_WRITE },
		{ IB_WR_RDMA_READ, MLX5X_OPCODE_RDMA_READ, IB_WC_RDMA_READ },
		{ IB_WR_ATOMIC_CMP_AND_SWP, MLX5X_OPCODE_ATOMIC_CS,
		  IB_WC_COMP_SWAP },
		{ IB_WR_ATOMIC_FETCH_AND_ADD, MLX5X_OPCODE_ATOMIC_FA,
		  IB_WC_FETCH_ADD },
		{ IB_WR_REG_MR, MLX5X_OPCODE_UMR, IB_WC_REG_MR },
		{ IB_WR_LOCAL_INV, MLX5X_OPCODE_UMR, IB_WC_LOCAL_INV },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tbl); i++) {
		if (tbl[i].wr == op) {
			*opcode = tbl[i].opcode;
			*wc = tbl[i].wc;
			return 0;
		}
	}
	return -EINVAL;
}

/**
 * mlx5x_kwqe_umr_fence() - the fence a UMR WQE on a send queue gets
 * @cap: the umr_fence capability
 *
 * Return: the WQE fence mode (as mlx5_ib's get_umr_fence).
 */
u8 mlx5x_kwqe_umr_fence(u8 cap)
{
	switch (cap) {
	case MLX5X_CAP_UMR_FENCE_NONE:
		return MLX5X_WQE_FENCE_NONE;
	case MLX5X_CAP_UMR_FENCE_SMALL:
		return MLX5X_WQE_FENCE_INITIATOR_SMALL;
	default:
		return MLX5X_WQE_FENCE_STRONG_ORDERING;
	}
}

/**
 * mlx5x_kwqe_fence() - the fence mode of one send WQE, as mlx5_ib picks it
 * @umr: the WQE is a UMR (REG_MR or LOCAL_INV)
 * @fence_flag: the WR asked for IB_SEND_FENCE
 * @next_fence: what the previous WQE left for this one (initiator-small
 *	after a UMR: later WQEs may use the key only once it is updated)
 * @umr_fence: the device's fence for UMR WQEs (mlx5x_kwqe_umr_fence())
 *
 * Return: the fence mode for the WQE's control segment.
 */
u8 mlx5x_kwqe_fence(bool umr, bool fence_flag, u8 next_fence, u8 umr_fence)
{
	if (umr)
		return umr_fence;
	if (fence_flag)
		return next_fence ? MLX5X_WQE_FENCE_FENCE_AND_INITIATOR_SMALL :
				    MLX5X_WQE_FENCE_FENCE;
	return next_fence;
}

/**
 * mlx5x_krecv_build() - a receive WQE
 * @wqe: its slot, @max_gs data segments
 * @max_gs: scatter entries a slot holds
 * @sg: the scatter list, at most @max_gs entries
 * @n: entries
 *
 * A list shorter than the slot ends with an entry of the invalid lkey.
 * Return: segments written.
 */
unsigned int mlx5x_krecv_build(void *wqe, unsigned int max_gs,
			       const struct ib_sge *sg, int n)
{
	u8 *seg = wqe;
	int i;

	for (i = 0; i < n; i++, seg += MLX5X_WQE_DS_LEN)
		mlx5x_kwqe_data(seg, sg[i].length, sg[i].lkey, sg[i].addr);
	if ((unsigned int)n < max_gs) {
		mlx5x_kwqe_data(seg, 0, MLX5X_INVALID_LKEY, 0);
		n++;
	}
	return n;
}

/* ---- completions ---- */

/**
 * mlx5x_cq_arm_word() - the arm word of a CQ doorbell
 * @sn: arm sequence number (advanced per completion event; 2 bits used)
 * @solicited: only a solicited (or error) CQE should raise the event
 * @ci: consumer counter at the arm
 *
 * The same word goes to the doorbell record and, with the CQ number
 * after it, to the UAR's CQ doorbell.
 *
 * Return: the word, CPU order.
 */
u32 mlx5x_cq_arm_word(u8 sn, bool solicited, u32 ci)
{
	return FIELD_PREP(MLX5X_CQ_DB_SN_MASK, sn & 3) |
	       FIELD_PREP(MLX5X_CQ_DB_CMD_MASK,
			  solicited ? MLX5X_CQ_DB_CMD_ARM_SOLICITED :
				      MLX5X_CQ_DB_CMD_ARM_NEXT) |
	       (ci & MLX5X_CQ_DB_CI_MASK);
}

/**
 * mlx5x_cqe_syndrome_to_wc() - an error CQE's work completion status
 * @syndrome: the CQE's error syndrome
 *
 * Return: the status of mlx5_ib's table, IB_WC_GENERAL_ERR for a
 * syndrome it does not name.
 */
enum ib_wc_status mlx5x_cqe_syndrome_to_wc(u8 syndrome)
{
	switch (syndrome) {
	case MLX5X_CQE_SYND_LOCAL_LENGTH_ERR:
		return IB_WC_LOC_LEN_ERR;
	case MLX5X_CQE_SYND_LOCAL_QP_OP_ERR:
		return IB_WC_LOC_QP_OP_ERR;
	case MLX5X_CQE_SYND_LOCAL_PROT_ERR:
		return IB_WC_LOC_PROT_ERR;
	case MLX5X_CQE_SYND_WR_FLUSH_ERR:
		return IB_WC_WR_FLUSH_ERR;
	case MLX5X_CQE_SYND_MW_BIND_ERR:
		return IB_WC_MW_BIND_ERR;
	case MLX5X_CQE_SYND_BAD_RESP_ERR:
		return IB_WC_BAD_RESP_ERR;
	case MLX5X_CQE_SYND_LOCAL_ACCESS_ERR:
		return IB_WC_LOC_ACCESS_ERR;
	case MLX5X_CQE_SYND_REMOTE_INVAL_REQ_ERR:
		return IB_WC_REM_INV_REQ_ERR;
	case MLX5X_CQE_SYND_REMOTE_ACCESS_ERR:
		return IB_WC_REM_ACCESS_ERR;
	case MLX5X_CQE_SYND_REMOTE_OP_ERR:
		return IB_WC_REM_OP_ERR;
	case MLX5X_CQE_SYND_TRANSPORT_RETRY_EXC_ERR:
		return IB_WC_RETRY_EXC_ERR;
	case MLX5X_CQE_SYND_RNR_RETRY_EXC_ERR:
		return IB_WC_RNR_RETRY_EXC_ERR;
	case MLX5X_CQE_SYND_REMOTE_ABORTED_ERR:
		return IB_WC_REM_ABORT_ERR;
	default:
		return IB_WC_GENERAL_ERR;
	}
}

/**
 * mlx5x_cqe_opcode() - a CQE's opcode
 * @cqe: the CQE, owned by software
 *
 * Return: the opcode (MLX5X_CQE_REQ, ...).
 */
u8 mlx5x_cqe_opcode(const void *cqe)
{
	return *((const u8 *)cqe + MLX5X_CQE_OP_OWN_OFF) >>
	       MLX5X_CQE_OPCODE_SHIFT;
}

/**
 * mlx5x_cqe_qpn() - the QP a CQE is of
 * @cqe: the CQE
 *
 * Return: the QP's firmware number.
 */
u32 mlx5x_cqe_qpn(const void *cqe)
{
	return MLX5X_GET(cqe, MLX5X_CQE_QPN);
}

/**
 * mlx5x_cqe_wqe_counter() - the WQE a CQE completes
 * @cqe: the CQE
 *
 * Return: the send WQE's first WQEBB counter, or an SRQ WQE's index.
 */
u16 mlx5x_cqe_wqe_counter(const void *cqe)
{
	return MLX5X_GET(cqe, MLX5X_CQE_WQE_COUNTER);
}

/**
 * mlx5x_cqe_req_to_wc() - a good requester CQE
 * @cqe: the CQE
 * @op: the completion opcode the WQE was posted with
 * @wc: status, opcode, byte_len and flags are set
 *
 * byte_len means something for reads (bytes read) and atomics (the 8
 * bytes returned) only.
 */
void mlx5x_cqe_req_to_wc(const void *cqe, enum ib_wc_opcode op,
			 struct ib_wc *wc)
{
	u8 sop = MLX5X_GET(cqe, MLX5X_CQE_SOP_DROP);

	wc->status = IB_WC_SUCCESS;
	wc->opcode = op;
	wc->wc_flags = 0;
	wc->byte_len = 0;
	if (sop == MLX5X_OPCODE_SEND_IMM || sop == MLX5X_OPCODE_RDMA_WRITE_IMM)
		wc->wc_flags |= IB_WC_WITH_IMM;
	if (op == IB_WC_RDMA_READ)
		wc->byte_len = MLX5X_GET(cqe, MLX5X_CQE_BYTE_CNT);
	else if (op == IB_WC_COMP_SWAP || op == IB_WC_FETCH_ADD)
		wc->byte_len = 8;
}

/**
 * mlx5x_cqe_resp_to_wc() - a good responder CQE
 * @cqe: the CQE
 * @wc: status, opcode, byte_len, flags, immediate or invalidated key,
 *	source QP, LID, SL and path bits are set; pkey_index is 0 (the
 *	caller looks it up for QP1)
 */
void mlx5x_cqe_resp_to_wc(const void *cqe, struct ib_wc *wc)
{
	const __be32 *imm = (const __be32 *)((const u8 *)cqe +
					      MLX5X_CQE_IMM_INVAL_PKEY_OFF);

	wc->status = IB_WC_SUCCESS;
	wc->byte_len = MLX5X_GET(cqe, MLX5X_CQE_BYTE_CNT);
	wc->wc_flags = 0;
	wc->opcode = IB_WC_RECV;
	switch (mlx5x_cqe_opcode(cqe)) {
	case MLX5X_CQE_RESP_WR_IMM:
		wc->opcode = IB_WC_RECV_RDMA_WITH_IMM;
		wc->wc_flags = IB_WC_WITH_IMM;
		wc->ex.imm_data = *imm;
		break;
	case MLX5X_CQE_RESP_SEND_IMM:
		wc->wc_flags = IB_WC_WITH_IMM;
		wc->ex.imm_data = *imm;
		break;
	case MLX5X_CQE_RESP_SEND_INV:
		wc->wc_flags = IB_WC_WITH_INVALIDATE;
		wc->ex.invalidate_rkey = be32_to_cpu(*imm);
		break;
	default:
		break;
	}
	wc->src_qp = MLX5X_GET(cqe, MLX5X_CQE_RQPN);
	wc->slid = MLX5X_GET(cqe, MLX5X_CQE_SLID);
	wc->sl = MLX5X_GET(cqe, MLX5X_CQE_SL);
	wc->dlid_path_bits = MLX5X_GET(cqe, MLX5X_CQE_ML_PATH);
	if (MLX5X_GET(cqe, MLX5X_CQE_GRH))
		wc->wc_flags |= IB_WC_GRH;
	wc->pkey_index = 0;
}

/**
 * mlx5x_cqe_err_to_wc() - an error CQE, requester or responder
 * @cqe: the CQE
 * @wc: status and vendor_err are set, flags and byte_len cleared; the
 *	caller sets the opcode
 */
void mlx5x_cqe_err_to_wc(const void *cqe, struct ib_wc *wc)
{
	wc->status = mlx5x_cqe_syndrome_to_wc(MLX5X_GET(cqe,
							MLX5X_ERR_CQE_SYNDROME));
	wc->vendor_err = MLX5X_GET(cqe, MLX5X_ERR_CQE_VENDOR_SYND);
	wc->wc_flags = 0;
	wc->byte_len = 0;
}

/* ---- address vectors ---- */

/**
 * mlx5x_av_to_attr() - read an address vector back (query_ah)
 * @av: the vector mlx5x_av_build() wrote
 * @ah: DLID, SL, path bits, static rate and GRH are set; the caller
 *	clears it and sets its type (IB) first, which the setters need
 *
 * ib_mad matches a response to its request by the request's address
 * (path bits, GID): what query_ah reports must be what was built.
 */
void mlx5x_av_to_attr(const void *av, struct rdma_ah_attr *ah)
{
	u8 rate = MLX5X_GET(av, MLX5X_WQE_AV_STAT_RATE);
	union ib_gid dgid;

	rdma_ah_set_dlid(ah, MLX5X_GET(av, MLX5X_WQE_AV_RLID));
	rdma_ah_set_sl(ah, MLX5X_GET(av, MLX5X_WQE_AV_SL));
	rdma_ah_set_path_bits(ah, MLX5X_GET(av, MLX5X_WQE_AV_MLID));
	rdma_ah_set_static_rate(ah, mlx5x_qp_stat_rate_to_ib(rate));
	if (!MLX5X_GET(av, MLX5X_WQE_AV_GRH))
		return;
	memcpy(dgid.raw, (const u8 *)av + MLX5X_WQE_AV_RGID_OFF,
	       sizeof(dgid.raw));
	rdma_ah_set_grh(ah, &dgid, MLX5X_GET(av, MLX5X_WQE_AV_FLOW_LABEL),
			MLX5X_GET(av, MLX5X_WQE_AV_SGID_INDEX),
			MLX5X_GET(av, MLX5X_WQE_AV_HOP_LIMIT),
			MLX5X_GET(av, MLX5X_WQE_AV_TCLASS));
}

/**
 * mlx5x_av_build() - the 48-byte address vector of an IB address handle
 * @ah: the address
 * @caps: device capabilities (static rates)
 * @gid_tbl_len: GID table entries of the port
 * @av: MLX5X_WQE_AV_LEN bytes, written whole
 *
 * Any DLID is taken: unicast, multicast (0xc000-0xfffe) and the
 * permissive LID of directed-route SMPs.  The Q_Key and destination QP
 * come with each WQE (mlx5x_kwqe_dgram()).
 *
 * Return: 0, or -EINVAL for a source GID index beyond the table or a
 * static rate that is no rate.
 */
int mlx5x_av_build(const struct rdma_ah_attr *ah,
		   const struct mlx5x_verbs_caps *caps, u16 gid_tbl_len,
		   void *av)
{
	const struct ib_global_route *grh;
	u8 rate;
	int err;

	memset(av, 0, MLX5X_WQE_AV_LEN);
	err = mlx5x_qp_stat_rate(rdma_ah_get_static_rate(ah),
				 caps->stat_rate_support, &rate);
	if (err)
		return err;
	MLX5X_SET(av, MLX5X_WQE_AV_STAT_RATE, rate);
	MLX5X_SET(av, MLX5X_WQE_AV_SL, rdma_ah_get_sl(ah));
	MLX5X_SET(av, MLX5X_WQE_AV_MLID, rdma_ah_get_path_bits(ah));
	MLX5X_SET(av, MLX5X_WQE_AV_RLID, rdma_ah_get_dlid(ah));
	if (!(rdma_ah_get_ah_flags(ah) & IB_AH_GRH))
		return 0;
	grh = rdma_ah_read_grh(ah);
	if (grh->sgid_index >= gid_tbl_len)
		return -EINVAL;
	MLX5X_SET(av, MLX5X_WQE_AV_TCLASS, grh->traffic_class);
	MLX5X_SET(av, MLX5X_WQE_AV_HOP_LIMIT, grh->hop_limit);
	MLX5X_SET(av, MLX5X_WQE_AV_GRH, 1);
	MLX5X_SET(av, MLX5X_WQE_AV_SGID_INDEX, grh->sgid_index);
	MLX5X_SET(av, MLX5X_WQE_AV_FLOW_LABEL, grh->flow_label);
	memcpy((u8 *)av + MLX5X_WQE_AV_RGID_OFF, grh->dgid.raw,
	       sizeof(grh->dgid.raw));
	return 0;
}
