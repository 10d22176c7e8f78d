/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Runtime state of the transport engine, embedded in the device objects
 * of emu.h (struct emu_cq, emu_srq, emu_qp, emu).  Everything here is
 * protected by emu.lock unless a member says otherwise; only engine.c,
 * rc.c, ud.c, cqe.c, cq_arm.c, wqe.c, mkey_xlate.c and wire.c touch it.
 */
#ifndef EMU_ENG_TYPES_H
#define EMU_ENG_TYPES_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct wire;
struct wire_pkt;

/* intrusive doubly-linked list */
struct eng_link {
	struct eng_link *next, *prev;
};

struct eng_cq {
	/* producer count just after the last solicited or error CQE */
	uint32_t sol_prod;
	/* producer count when the last event was raised: CQEs before it
	 * were announced (cqc.last_notified_index) */
	uint32_t notified;
	/* arm_sn of the arm request that raised the last event */
	uint8_t fired_sn;
	bool fired;		/* an event was raised, no arm since */
	bool error;		/* overrun or DMA error: the CQ is stopped */
	uint64_t cqes, events, stale_arms, dbr_mismatch, overruns;
};

struct eng_srq {
	uint16_t head;		/* next WQE (the free list is linked) */
	uint16_t count;		/* WQEs taken so far */
	uint16_t lwm;		/* armed limit (ARM_RQ), 0: not armed */
	uint64_t taken;
	/* XRC SRQ: user index for CQEs (cqe v1), when the create gave one */
	uint32_t uidx;
	bool has_uidx;
};

/* a send WQE the requester started and has not completed */
struct sq_ent {
	uint16_t idx;		/* WQEBB counter of the WQE */
	uint8_t nbb;		/* WQEBBs it spans */
	uint8_t opcode;
	uint8_t flags;		/* SQE_* (rc.c) */
	uint8_t synd;		/* error to report when it is completed */
	uint32_t psn;		/* first PSN */
	uint32_t npkt;		/* PSNs it uses (0: local operation) */
	uint64_t len;		/* message length */
	uint64_t sent;		/* bytes transmitted (since the last rewind) */
	uint64_t rcvd;		/* READ: response bytes placed */
};

/* read responses the responder still has to send */
struct rd_resp {
	bool active;
	uint32_t psn;		/* PSN of the next response packet */
	uint64_t va;
	uint32_t rkey;
	uint32_t len, off;
};

struct eng_qp {
	struct eng_link ready;	/* on eng.ready: has work */
	struct eng_link timer;	/* on eng.timers: timer_at set */
	struct eng_link err;	/* on eng.errs: in the error state */
	bool on_ready, on_timer, on_err;
	uint64_t timer_at;	/* ns; 0: none */
	bool db;		/* SQ doorbell not looked at yet */
	bool started;		/* counters loaded from the QP context */

	/* requester */
	uint16_t sq_head;	/* WQEBB counter of the next WQE to start */
	struct sq_ent *ring;	/* started WQEs, oldest first */
	uint32_t ring_cap, ring_first, ring_n;
	uint32_t tx;		/* ring position of the next to transmit */
	uint32_t npsn;		/* next PSN for a new WQE */
	uint32_t last_acked;	/* PSN of the last acknowledged packet */
	uint8_t retry_left, rnr_left;
	bool rnr_wait;		/* waiting out an RNR NAK */
	bool wait_ack;		/* retransmission timer armed */
	bool err_pending;	/* an entry waits to be completed in error */
	uint64_t last_tx_ns;

	/* responder */
	uint32_t epsn;		/* expected PSN */
	bool nak_sent;		/* a sequence NAK is outstanding */
	uint16_t rq_ci;		/* RQ WQEs taken */
	uint8_t cur_op;		/* message in progress: RXM_* (rc.c) */
	bool cur_drop;		/* UC: discard the rest of the message */
	uint16_t cur_wqe;	/* its receive WQE (RQ or SRQ index) */
	uint32_t cur_srqn;	/* XRC target: the SRQ the message names */
	bool cur_has_wqe;
	uint64_t cur_off;	/* bytes of it placed so far */
	uint64_t cur_va;	/* WRITE: next address */
	uint32_t cur_rkey;
	uint64_t cur_left;	/* WRITE: bytes still allowed */
	struct rd_resp rd;
	uint32_t atomic_psn;	/* last atomic, for a retried request */
	uint64_t atomic_orig;
	bool atomic_valid;
	bool comm_est;		/* first request seen (COMM_EST sent) */

	/* packets routed to this QP, oldest first */
	struct wire_pkt *rxq_req, *rxq_req_tail;	/* requests */
	struct wire_pkt *rxq_rsp, *rxq_rsp_tail;	/* responses */

	uint64_t tx_pkts, rx_pkts, wqes, cqes, rnr_naks, retries, drops;
};

struct eng_stats {
	uint64_t sq_doorbells, bf_writes, bf_wqes, db_bad, db_stale;
	uint64_t pkts, pkts_dropped, naks, rnr_naks, timeouts, rra_naks;
	uint64_t cqes, cq_events, async_events, flushed;
	uint64_t mkey_faults, dma_faults, wqe_faults;
	uint64_t runs, busy_runs, sleeps;
	uint64_t err_polls;	/* looks at the RQs of QPs in error */
};

struct eng {
	/* kick_lock is a leaf lock: it protects kick, stop and inbox only */
	pthread_mutex_t kick_lock;
	pthread_cond_t kick_cond;	/* the engine thread sleeps here */
	bool kick;
	bool stop;
	struct wire_pkt *inbox, *inbox_tail;	/* delivered by the wire */

	pthread_t thread;
	bool running;
	/* clock in ns; tests install a virtual one */
	uint64_t (*clock)(void *arg);
	void *clock_arg;

	/* under emu.lock */
	struct eng_link ready;	/* QPs with work, round robin */
	struct eng_link timers;	/* QPs with timer_at */
	struct wire *wire;	/* the link the port is attached to */
	struct wire *own_wire;	/* the loopback wire, allocated here */
	void *scratch;		/* one parsed send WQE (struct swqe) */
	struct eng_link errs;	/* QPs in the error state */
	/* next look at their RQ doorbell records, and the interval to it */
	uint64_t err_poll_at, err_poll_ns;
	struct eng_stats st;
};

#endif /* EMU_ENG_TYPES_H */
