/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the three parts of the connected transports share: rc.c (state,
 * send ring, packets, error state, a QP's turn), rc_req.c (the requester)
 * and rc_resp.c (the responder).  Callers outside them use engine.h.
 */
#ifndef EMU_RC_INT_H
#define EMU_RC_INT_H

#include "engine.h"

/* sq_ent.flags */
enum {
	SQE_SIGNALED	= 1 << 0,
	SQE_SENT	= 1 << 1,	/* every packet transmitted */
	SQE_DONE	= 1 << 2,	/* acknowledged / answered */
	SQE_ERROR	= 1 << 3,	/* complete with sq_ent.synd */
	SQE_FENCE	= 1 << 4,
	SQE_RDATOM	= 1 << 5,	/* READ or atomic */
};

/* responder message in progress */
enum { RXM_NONE, RXM_SEND, RXM_WRITE };

/* per step, at most this many packets sent or received per QP */
#define STEP_BUDGET 16

/* rc.c */
bool rc_reliable(const struct emu_qp *qp);	/* RC or XRC: ACKs */
void rc_free_queues(struct emu_qp *qp);
struct sq_ent *rc_ent(struct emu_qp *qp, uint32_t i);	/* i-th oldest */
int rc_ring_push(struct emu_qp *qp, struct sq_ent **out);
void rc_ring_pop(struct emu_qp *qp);
void rc_fill_path(struct emu *e, struct emu_qp *qp, struct wire_pkt *p);
void rc_xmit(struct emu *e, struct emu_qp *qp, struct wire_pkt *p,
	     uint64_t now);
void rc_send_ack(struct emu *e, struct emu_qp *qp, uint32_t psn,
		 uint8_t aeth, uint64_t now);

/* rc_req.c */
bool rc_req_step(struct emu *e, struct emu_qp *qp, uint64_t now);
void rc_req_rx_all(struct emu *e, struct emu_qp *qp, uint64_t now);

/* rc_resp.c */
struct emu_cq *rc_msg_cq(struct emu *e, struct emu_qp *qp);
bool rc_rx_state_ok(struct emu_qp *qp);
bool rc_resp_step(struct emu *e, struct emu_qp *qp, uint64_t now);
bool rc_rra_full(struct emu_qp *qp, const struct wire_pkt *p);

#endif
