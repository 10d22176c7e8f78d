/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The transport engine of the emulated ConnectX: what the device does
 * with the WQEs, doorbells and doorbell records software writes.
 *
 *   doorbells (uar_write, socket thread)  ->  eng_sq_doorbell / eng_cq_arm
 *   engine thread: SQs with work -> WQEs -> packets -> wire -> QPs
 *                  -> receive WQEs, memory keys, guest memory -> CQEs
 *                  -> CQ arm -> EQE -> MSI-X
 *
 * Execution.  A doorbell only marks the QP and kicks the engine thread;
 * the thread does the work under emu.lock in bounded steps (one QP at a
 * time, round robin) and sleeps on eng.kick_cond when there is nothing
 * to do, with a deadline when a timer (RNR wait, ACK timeout) is set.
 * Per QP everything runs in order, as RC requires.
 *
 * The wire.  Packets leave a port through struct wire; the loopback wire
 * hands them back to the same device, a link wire to the device at the
 * other end (or back to this one, for its own LID).  The receiving side
 * is the same code either way: eng_deliver() queues the packet on the
 * destination device's inbox (eng.kick_lock, a leaf lock) and kicks its
 * engine thread, which routes it to a QP under its own emu.lock.
 *
 * Lock order: emu.lock -> gm.lock / irq.lock / eng.kick_lock (leaves).
 */
#ifndef EMU_ENGINE_H
#define EMU_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include <mlx5x/prm_cqe.h>
#include <mlx5x/prm_wqe.h>

#include "cmd.h"
#include "emu.h"
#include "util.h"

#define ALIGN_UP(x, a) (((x) + (a) - 1) / (a) * (a))

/* ---- engine.c: life cycle and hooks for the rest of the device ---- */
int eng_init(struct emu *e);
void eng_fini(struct emu *e);
int eng_start(struct emu *e);		/* the engine thread */
void eng_stop(struct emu *e);
void eng_reset(struct emu *e);		/* device reset (emu.lock held) */
/* run due work once at time now (ns); returns the next deadline or 0 */
uint64_t eng_run_locked(struct emu *e, uint64_t now);
/* tests: run until idle at a fixed time (emu.lock not held) */
void eng_drain(struct emu *e, uint64_t now);
uint64_t eng_now(struct emu *e);
uint64_t eng_real_clock(void *arg);	/* the default clock: monotonic ns */
void eng_kick(struct emu *e);
void eng_report(struct emu *e, FILE *fp);	/* emu.lock held */
/* QUERY_HCA_CAP type ATOMIC: what the engine executes, in req_mode */
void eng_atomic_caps(uint8_t *cap, uint8_t req_mode);

/* UAR writes at the send doorbell / BlueFlame offsets (emu.lock held) */
void eng_uar_send(struct emu *e, uint32_t uar, uint32_t off,
		  const uint8_t *data, uint32_t len);
/* CQ arm doorbell, the arm word of UAR + 0x20 (emu.lock held) */
void eng_cq_arm(struct emu *e, struct emu_cq *cq, uint32_t word);
/* QP state changed by a modify command (emu.lock held) */
void eng_qp_modified(struct emu *e, struct emu_qp *qp, uint8_t from);
/* object about to be freed (destroy command, teardown, reset) */
void eng_qp_release(struct emu *e, struct emu_qp *qp);
/* ARM_RQ: the SRQ limit event, armed with the lwm of the command input */
void eng_arm_rq(struct emu *e, struct emu_srq *srq, uint16_t lwm);

/* ---- internal: scheduling ---- */
void eng_qp_ready(struct emu *e, struct emu_qp *qp);
void eng_qp_timer(struct emu *e, struct emu_qp *qp, uint64_t at);
void eng_err_add(struct emu *e, struct emu_qp *qp);
struct emu_qp *eng_qp_by_num(struct emu *e, uint32_t qpn);

/* ---- mkey_xlate.c: memory keys ---- */
enum {
	ACC_LR = 1 << 0,	/* local read */
	ACC_LW = 1 << 1,	/* local write */
	ACC_RR = 1 << 2,	/* remote read */
	ACC_RW = 1 << 3,	/* remote write */
	ACC_RA = 1 << 4,	/* remote atomic */
};

enum mk_err {
	MK_OK = 0,
	MK_BAD_KEY,		/* no such key, wrong variant, or free */
	MK_PD,			/* key of another protection domain */
	MK_ACCESS,		/* right not granted */
	MK_BOUNDS,		/* outside the region */
	MK_DMA,			/* translation hit memory the device can't reach */
	MK_QP,			/* type 2 window bound to another QP */
};

/* mkey_check_qp: no QP to match a type 2 window against (local use) */
#define MKEY_ANY_QP	0xffffffffu

struct sge {
	uint32_t lkey;
	uint32_t len;
	uint64_t addr;
};

struct emu_mkey *mkey_lookup(struct emu *e, uint32_t key);
enum mk_err mkey_check(struct emu *e, uint32_t key, const struct emu_pd *pd,
		       uint64_t va, uint64_t len, unsigned int acc,
		       struct emu_mkey **out);
/* the same, used through QP qpn (a type 2 window answers only to it) */
enum mk_err mkey_check_qp(struct emu *e, uint32_t key,
			  const struct emu_pd *pd, uint32_t qpn, uint64_t va,
			  uint64_t len, unsigned int acc, struct emu_mkey **out);
bool mkey_in_bounds(const struct emu_mkey *mk, uint64_t va, uint64_t len);
enum mk_err mkey_dma(struct emu *e, const struct emu_mkey *mk, uint64_t va,
		     void *buf, uint64_t len, bool to_guest);
/* len bytes at byte offset off of an SGE list: gather into buf / scatter */
enum mk_err sg_copy(struct emu *e, const struct emu_pd *pd,
		    const struct sge *sg, uint32_t n, uint64_t off, void *buf,
		    uint64_t len, bool to_guest);
const char *mk_err_name(enum mk_err err);

/* ---- wqe.c: work queue entries ---- */
enum {
	SWQE_MAX_SGE = 64,	/* 1 KiB WQE */
	SWQE_MAX_INLINE = 1024,
	RWQE_MAX_SGE = 64,
};

struct ud_av {
	uint32_t qkey;
	uint32_t dqpn;
	uint16_t dlid;
	uint8_t sl;
	bool grh;
	uint8_t sgid_index;
	uint8_t tclass, hop_limit;
	uint32_t flow_label;
	uint8_t dgid[16];
};

struct swqe {
	uint16_t idx;		/* WQEBB counter */
	uint8_t nbb, ds;
	uint8_t opcode, opmod, fence, ce;
	bool se;
	uint32_t qpn;
	uint8_t imm[4];		/* as in the WQE (network order) */
	uint64_t raddr;
	uint32_t rkey;
	uint64_t swap_add, compare;
	uint32_t xrc_srqn;
	struct ud_av av;
	uint32_t nsge;
	struct sge sge[SWQE_MAX_SGE];
	bool inl;
	uint32_t inl_len;
	uint64_t len;		/* message length */
	/* UMR: control segment and mkey context, raw */
	uint8_t umr[MLX5X_WQE_UMR_CTRL_LEN + MLX5X_WQE_UMR_MKEY_LEN];
	bool umr_data;		/* a translation list follows (umr_sge) */
	struct sge umr_sge;
	uint8_t inl_data[SWQE_MAX_INLINE];
};

struct rwqe {
	uint16_t idx;		/* RQ counter or SRQ WQE index */
	uint32_t nsge;
	uint64_t cap;		/* bytes the scatter list holds */
	struct sge sge[RWQE_MAX_SGE];
};

/* send queue geometry */
static inline uint32_t sq_wqebbs(const struct emu_qp *qp)
{
	return (uint32_t)(qp->sq_len >> MLX5X_SEND_WQEBB_SHIFT);
}

/* the WQE starting at WQEBB counter idx; 0 or a CQE syndrome */
int sq_fetch(struct emu *e, struct emu_qp *qp, uint16_t idx, struct swqe *w);
void sq_peek(struct emu *e, struct emu_qp *qp, uint16_t idx, uint8_t *opcode,
	     uint8_t *nbb);
/* SQ producer counter from the doorbell record */
int sq_producer(struct emu *e, struct emu_qp *qp, uint16_t *pi);
/* RQ: WQEs posted and not taken; read the one at counter idx */
int rq_avail(struct emu *e, struct emu_qp *qp, uint32_t *n);
int rq_read(struct emu *e, struct emu_qp *qp, uint16_t idx, struct rwqe *w);
/* SRQ: the same, and take the next one */
int srq_avail(struct emu *e, struct emu_srq *srq, uint32_t *n);
int srq_read(struct emu *e, struct emu_srq *srq, uint16_t idx,
	     struct rwqe *w);
int srq_take(struct emu *e, struct emu_srq *srq, uint16_t *idx);

/* ---- umr.c: memory key updates posted on the UMR QP ---- */
int umr_exec(struct emu *e, struct emu_qp *qp, const struct swqe *w);
/* SEND with Invalidate received on QP qpn: 0, or -1 if refused */
int mw_remote_inval(struct emu *e, const struct emu_pd *pd, uint32_t qpn,
		    uint32_t rkey);

/* ---- cqe.c: completions ---- */
struct cqe_info {
	uint8_t opcode;		/* MLX5X_CQE_* */
	uint8_t wqe_opcode;	/* requester: MLX5X_OPCODE_* */
	uint8_t syndrome, vendor;	/* errors */
	bool se;		/* solicited */
	uint16_t wqe_counter;
	uint32_t byte_cnt;
	uint8_t imm[4];
	bool imm_valid;
	uint32_t rqpn;		/* responder: source QP */
	uint16_t slid;
	uint8_t sl;
	bool grh;
	uint16_t pkey_index;
	uint32_t srqn;		/* cqe v0 SRQ receive */
	bool uidx_valid;	/* XRC SRQ receive: its user index, not the QP's */
	uint32_t uidx;
};

/* write one CQE for qp (requester: its send CQ, else its receive CQ) */
int cq_post(struct emu *e, struct emu_cq *cq, struct emu_qp *qp,
	    const struct cqe_info *ci);
void cq_error_event(struct emu *e, struct emu_cq *cq, uint8_t synd);
/* MODIFY_CQ op_mod RESIZE (the command's CQ checked by the caller) */
int eng_modify_cq_resize(struct cmd_ctx *c, struct emu_cq *cq);

/* ---- cq_arm.c: one-shot CQ notification ---- */
void cq_arm_doorbell(struct emu *e, struct emu_cq *cq, uint32_t word);
/* after a CQE: raise the event if the arm condition holds */
void cq_arm_check(struct emu *e, struct emu_cq *cq);

/* ---- async events ---- */
void eng_qp_event(struct emu *e, struct emu_qp *qp, uint8_t type);
void eng_srq_event(struct emu *e, struct emu_srq *srq, uint8_t type);

/* ---- rc.c / ud.c: transports ---- */
struct wire_pkt;
bool qp_step(struct emu *e, struct emu_qp *qp, uint64_t now);
void qp_timer_fired(struct emu *e, struct emu_qp *qp, uint64_t now);
void qp_to_err(struct emu *e, struct emu_qp *qp);
void qp_flush(struct emu *e, struct emu_qp *qp);
void qp_start(struct emu *e, struct emu_qp *qp);	/* counters from qpc */
void qp_rx(struct emu *e, struct emu_qp *qp, struct wire_pkt *p);
void qp_free_rt(struct emu_qp *qp);
bool qp_is_ud(const struct emu_qp *qp);
int ud_send(struct emu *e, struct emu_qp *qp, const struct swqe *w,
	    uint64_t now);
void ud_recv(struct emu *e, struct emu_qp *qp, struct wire_pkt *p);

/* the QP's context fields the engine uses */
static inline uint32_t qpc_get(const struct emu_qp *qp, uint32_t off,
			       uint32_t mask)
{
	return prm_get(qp->qpc, off, mask);
}
#define QPC(qp, f) qpc_get((qp), f##_OFF, f##_MASK)
#define QPC_PATH(qp, f) qpc_get((qp), MLX5X_QPC_PRI_PATH_OFF + f##_OFF, \
				f##_MASK)

/* 24-bit PSN arithmetic: a - b as a signed distance */
static inline int32_t psn_diff(uint32_t a, uint32_t b)
{
	return (int32_t)((a - b) << 8) >> 8;
}

static inline uint32_t psn_add(uint32_t a, uint32_t n)
{
	return (a + n) & 0xffffff;
}

/*
 * Path MTU of the QP in bytes (qpc.mtu), 256..4096.  INIT2RTR refuses any
 * other mtu (rule qp_mtu, qp_check.c), so a QP that sends has a valid
 * one; the clamp only keeps a QP that never reached RTR well defined.
 */
static inline uint32_t qp_mtu(const struct emu_qp *qp)
{
	uint32_t m = QPC(qp, MLX5X_QPC_MTU);

	if (m < MLX5X_QPC_MTU_256 || m > MLX5X_QPC_MTU_4K)
		m = MLX5X_QPC_MTU_256;
	return 128u << m;
}

static inline uint32_t msg_pkts(uint64_t len, uint32_t mtu)
{
	return len ? (uint32_t)DIV_ROUND_UP(len, mtu) : 1;
}

#endif /* EMU_ENGINE_H */
