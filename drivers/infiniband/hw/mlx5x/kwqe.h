/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pure builders of the kernel data path (kqp.c, kcq.c, kah.c): send WQE
 * segments, receive scatter lists, the CQ arm word, CQE -> ib_wc and the
 * 48-byte address vector.  No device, no lock, no allocation: the KUnit
 * suite calls them on plain buffers.
 */
#ifndef MLX5X_KWQE_H
#define MLX5X_KWQE_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>

struct mlx5x_verbs_caps;

/*
 * Largest send WQE of a kernel QP, in bytes: 63 data segments, as many as
 * the control segment's 6-bit ds counts (the device's max_wqe_sz_sq may
 * lower it).  Not the 512 bytes query_device computes max_send_sge from,
 * as mlx5: an RC QP with that many entries also has room for an atomic
 * or a fast registration, which takes more.
 */
#define MLX5X_KWQE_MAX_LEN	1008
#define MLX5X_KWQE_CTRL_LEN	16
#define MLX5X_KWQE_RADDR_LEN	16
#define MLX5X_KWQE_ATOMIC_LEN	16

/**
 * struct mlx5x_kwqe_ctrl - what the control segment of a send WQE says
 * @index: producer counter (WQEBBs) at the WQE's first block
 * @opcode: MLX5X_OPCODE_*
 * @qpn: the QP (firmware number)
 * @ds: WQE size in 16-byte units
 * @fence: MLX5X_WQE_FENCE_*
 * @signaled: ask for a CQE (else one only on error)
 * @solicited: solicited event at the responder
 * @imm: immediate data or key, already big-endian
 */
struct mlx5x_kwqe_ctrl {
	u16 index;
	u8 opcode;
	u32 qpn;
	u8 ds;
	u8 fence;
	bool signaled;
	bool solicited;
	__be32 imm;
};

void mlx5x_kwqe_ctrl(void *seg, const struct mlx5x_kwqe_ctrl *c);
void mlx5x_kwqe_raddr(void *seg, u64 va, u32 rkey);
void mlx5x_kwqe_atomic(void *seg, u64 swap_add, u64 compare);
void mlx5x_kwqe_dgram(void *seg, const void *av, u32 dqpn, u32 qkey);
void mlx5x_kwqe_data(void *seg, u32 len, u32 lkey, u64 addr);
int mlx5x_kwqe_inline(void *seg, const struct ib_sge *sg, int n, u32 max,
		      unsigned int *len);
void mlx5x_kwqe_copy(void *ring, u8 log_n, u32 ctr, const void *wqe,
		     unsigned int nbb);
int mlx5x_kwqe_opcode(enum ib_wr_opcode op, u8 *opcode,
		      enum ib_wc_opcode *wc);
u8 mlx5x_kwqe_umr_fence(u8 cap);
u8 mlx5x_kwqe_fence(bool umr, bool fence_flag, u8 next_fence, u8 umr_fence);
unsigned int mlx5x_krecv_build(void *wqe, unsigned int max_gs,
			       const struct ib_sge *sg, int n);

u32 mlx5x_cq_arm_word(u8 sn, bool solicited, u32 ci);
enum ib_wc_status mlx5x_cqe_syndrome_to_wc(u8 syndrome);
void mlx5x_cqe_req_to_wc(const void *cqe, enum ib_wc_opcode op,
			 struct ib_wc *wc);
void mlx5x_cqe_resp_to_wc(const void *cqe, struct ib_wc *wc);
void mlx5x_cqe_err_to_wc(const void *cqe, struct ib_wc *wc);
u8 mlx5x_cqe_opcode(const void *cqe);
u32 mlx5x_cqe_qpn(const void *cqe);
u16 mlx5x_cqe_wqe_counter(const void *cqe);

void mlx5x_av_to_attr(const void *av, struct rdma_ah_attr *ah);
int mlx5x_av_build(const struct rdma_ah_attr *ah,
		   const struct mlx5x_verbs_caps *caps, u16 gid_tbl_len,
		   void *av);

#endif /* MLX5X_KWQE_H */
