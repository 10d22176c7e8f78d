/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel data path: CQs and QPs whose rings live in kernel memory,
 * for ib_mad, ib_cm, IPoIB, rdma_cm and NVMe over RDMA.
 *
 * kcq.c: CQ rings, poll_cq, req_notify_cq and the removal of a destroyed
 * QP's CQEs; kqp.c: QP rings, post_send and post_recv; kah.c: address
 * handles; kwqe.c: the pure builders both use.  Kernel CQs and QPs share
 * one UAR page of the device (dev->kuar) and take their doorbell records
 * from one DMA pool (dev->kdb_pool).
 *
 * Completion bookkeeping, as the device reports it: a requester CQE
 * names the producer counter of its WQE's first block, and completes
 * that WQE and every unsignalled one before it; a responder CQE
 * completes the oldest receive.  The send tail is written by the poll
 * of the send CQ, the receive tail by the poll of the receive CQ, each
 * under that CQ's lock; the posting side only reads them (acquire), so
 * a slot's record is rewritten only once its completion was read.
 */
#ifndef MLX5X_KVERBS_H
#define MLX5X_KVERBS_H

#include <linux/spinlock.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>

#include "ring.h"

/**
 * struct mlx5x_kcq - a kernel CQ
 * @lock: protects @ring (its consumer counter and entries) and the
 *	consumer word of the doorbell record; taken with interrupts off
 *	(consumers poll from their completion handlers)
 * @ring: 64-byte CQEs; the counter is the consumer counter
 * @dbr: doorbell record: consumer counter, then the last arm word
 * @dbr_dma: its bus address
 * @arm_sn: arm sequence number; its only writer is the completion
 *	handler (mlx5x_kcq_event(), WRITE_ONCE), for each event, never
 *	concurrently with itself; req_notify_cq reads it (READ_ONCE)
 */
struct mlx5x_kcq {
	spinlock_t lock; /* ring, dbr consumer word */
	struct mlx5x_ring ring;
	__be32 *dbr;
	dma_addr_t dbr_dma;
	u8 arm_sn; /* single writer: the completion handler */
};

/**
 * struct mlx5x_ksq_rec - what the send queue remembers of a WQE
 * @wr_id: the consumer's id
 * @wc_op: opcode its completion reports
 * @nbb: WQEBBs it takes
 *
 * Indexed by the WQE's first WQEBB.
 */
struct mlx5x_ksq_rec {
	u64 wr_id;
	enum ib_wc_opcode wc_op;
	u8 nbb;
};

/**
 * struct mlx5x_kqp - a kernel QP's queues
 * @mem: the work queue buffer: the receive queue, then the send queue
 * @rq: view of the receive queue in @mem; its counter is the producer
 * @sq: view of the send queue in @mem (WQEBBs); its counter is the
 *	producer
 * @dbr: doorbell record: receive counter, then send counter
 * @dbr_dma: its bus address
 * @sq_lock: serializes posting sends; protects @sq, @next_fence,
 *	@scratch and the records of slots not yet handed to the device
 * @rq_lock: serializes posting receives; protects @rq and @rq_wrid of
 *	free slots
 * @sq_tail: WQEBB counter of the oldest send WQE not completed (see
 *	the top of this file).  Written by poll_cq of the send CQ under
 *	that CQ's lock (release), and by mlx5x_kqp_reset() under @sq_lock
 *	once the QP is in RESET and its CQEs are cleaned, so no poll
 *	writes it then; read by post_send under @sq_lock (acquire)
 * @rq_tail: receives completed.  Written by poll_cq of the receive CQ
 *	under that CQ's lock (release), and by mlx5x_kqp_reset() under
 *	@rq_lock as @sq_tail is; read by post_recv under @rq_lock
 *	(acquire)
 * @sq_rec: per send WQEBB, the WQE starting there
 * @rq_wrid: per receive slot, the consumer's id
 * @scratch: a send WQE that runs past the ring end is built here, then
 *	copied block by block
 * @max_send_sge: gather entries a send WQE may carry
 * @max_inline: inline payload a send WQE may carry
 * @rq_max_gs: scatter entries a receive slot holds
 * @max_wqe_bbs: WQEBBs of the largest WQE (room check)
 * @next_fence: fence the next WQE starts from (after a UMR)
 * @port: the port of a special QP (wc.port_num, P_Key lookup)
 * @sig_all: every WQE asks for a completion (IB_SIGNAL_ALL_WR)
 */
struct mlx5x_kqp {
	struct mlx5x_ring mem;
	struct mlx5x_ring rq;
	struct mlx5x_ring sq;
	__be32 *dbr;
	dma_addr_t dbr_dma;
	spinlock_t sq_lock; /* sq, next_fence, scratch, free sq_rec slots */
	spinlock_t rq_lock; /* rq, free rq_wrid slots */
	u32 sq_tail; /* send CQ lock; sq_lock at reset */
	u32 rq_tail; /* receive CQ lock; rq_lock at reset */
	struct mlx5x_ksq_rec *sq_rec;
	u64 *rq_wrid;
	void *scratch;
	u32 max_send_sge;
	u32 max_inline;
	u32 rq_max_gs;
	u8 max_wqe_bbs;
	u8 next_fence;
	u8 port;
	bool sig_all;
};

/**
 * struct mlx5x_kqp_geom - the geometry of a kernel QP's queues
 * @rq_log_n: log2 of the receive slots (0 with @rq_n 0)
 * @rq_n: receive slots, 0 for none
 * @rq_shift: log2 of the receive slot size (16 << n bytes)
 * @rq_max_gs: scatter entries per slot
 * @sq_log_n: log2 of the send WQEBBs
 * @max_send_sge: gather entries per send WQE
 * @max_inline: inline bytes per send WQE
 * @max_wqe_bbs: WQEBBs of the largest send WQE
 */
struct mlx5x_kqp_geom {
	u8 rq_log_n;
	u32 rq_n;
	u8 rq_shift;
	u32 rq_max_gs;
	u8 sq_log_n;
	u32 max_send_sge;
	u32 max_inline;
	u8 max_wqe_bbs;
};

/**
 * struct mlx5x_ksrq - a kernel SRQ's WQE list
 * @lock: protects everything below but @ring.buf and @max_gs; taken with
 *	interrupts off (completions free WQEs from poll_cq)
 * @ring: the WQEs, each a next segment and @max_gs scatter entries
 * @dbr: doorbell record: WQEs posted
 * @dbr_dma: its bus address
 * @wrid: per WQE, the consumer's id
 * @head: the next free WQE to post
 * @tail: the last free WQE (never posted while it is the tail)
 * @wqe_ctr: WQEs posted
 * @max_gs: scatter entries per WQE
 */
struct mlx5x_ksrq {
	spinlock_t lock; /* head, tail, links, wrid, wqe_ctr, dbr */
	struct mlx5x_ring ring;
	__be32 *dbr;
	dma_addr_t dbr_dma;
	u64 *wrid;
	u32 head;
	u32 tail;
	u16 wqe_ctr;
	u32 max_gs;
};

struct mlx5x_verbs_caps;

int mlx5x_kqp_geometry(enum ib_qp_type type, const struct ib_qp_cap *cap,
		       const struct mlx5x_verbs_caps *caps,
		       struct mlx5x_kqp_geom *g);
bool mlx5x_ksq_op_ok(enum ib_qp_type type, enum ib_wr_opcode op);
unsigned int mlx5x_ksq_send_len(enum ib_qp_type type, u32 sge, u32 inl);
u32 mlx5x_kcq_compact(struct mlx5x_ring *r, u32 qpn,
		      void (*recv_drop)(void *arg, u16 wqe_counter), void *arg);
u32 mlx5x_ksq_complete(struct mlx5x_ksq_rec *rec, u8 log_n, u32 tail,
		       u16 counter, u64 *wr_id, enum ib_wc_opcode *op);

#endif /* MLX5X_KVERBS_H */
