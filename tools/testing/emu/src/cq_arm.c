// SPDX-License-Identifier: GPL-2.0
/*
 * One-shot CQ notification.
 *
 * Software arms a CQ by writing the arm word (sn << 28 | cmd << 24 | ci)
 * to the doorbell record and then {arm word, cqn} to UAR + 0x20:
 *   ci   the consumer counter at arm time: a CQE at or beyond it is "new";
 *   cmd  0: the next CQE; 1: the next solicited (or error) CQE;
 *   sn   the arm sequence number, 2 bits, which software advances each
 *        time it reads an event.
 * The device raises one event per arm: when the CQ is armed and a CQE
 * of the requested kind exists that is new (at or beyond ci) and not yet
 * announced by an event (at or beyond the producer count of the last
 * event, cqc.last_notified_index), whether it was written after the arm
 * or was already there when the arm arrived.  It then writes one EQE
 * (type COMP, with the CQN) to the CQ's EQ, which fires the EQ's MSI-X
 * vector if the EQ is armed, and disarms the CQ.  Further CQEs raise
 * nothing until the next arm.  Because announced CQEs do not count, the
 * usual event loop (read the event, re-arm with the old ci, then poll)
 * gets exactly one event per batch of completions.  An arm request
 * carrying the sequence number of the arm that already produced an event
 * is stale (software has not yet seen that event) and is ignored; an arm
 * while armed keeps one arm, for the next CQE if either request asked
 * for it.
 */
#include "engine.h"
#include "log.h"

/* is the 24-bit counter a strictly after b? */
static bool after(uint32_t a, uint32_t b)
{
	uint32_t d = (a - b) & MLX5X_CQ_DB_CI_MASK;

	return d && d < (MLX5X_CQ_DB_CI_MASK >> 1);
}

static void raise_event(struct emu *e, struct emu_cq *cq)
{
	uint8_t data[28] = { 0 };

	cq->armed = false;
	cq->eng.fired = true;
	cq->eng.fired_sn = cq->arm_sn;
	cq->eng.notified = cq->prod;
	PSET(cq->cqc, MLX5X_CQC_LAST_NOTIFIED_INDEX,
	     cq->prod & MLX5X_CQ_DB_CI_MASK);
	put_be32(data + MLX5X_EQE_COMP_CQN_OFF - MLX5X_EQE_DATA_OFF,
		 cq->cqn & MLX5X_EQE_COMP_CQN_MASK);
	if (eq_post(e, cq->eq, MLX5X_EVENT_COMP, 0, data))
		return;
	cq->eng.events++;
	e->eng.st.cq_events++;
}

void cq_arm_check(struct emu *e, struct emu_cq *cq)
{
	uint32_t mark, from;

	if (!cq->armed || cq->eng.error)
		return;
	/* the first CQE that is both unconsumed and unannounced */
	from = after(cq->arm_ci, cq->eng.notified) ? cq->arm_ci :
						      cq->eng.notified;
	mark = cq->arm_cmd == MLX5X_CQ_DB_CMD_ARM_SOLICITED ?
	       cq->eng.sol_prod : cq->prod;
	if (after(mark, from))
		raise_event(e, cq);
}

/*
 * Software writes the arm word to the CQ doorbell record, then rings the
 * doorbell (mlx5_cq_arm, libmlx5 mlx5_arm_cq, in that order).  The device
 * reads the record later, by which time the driver may have armed again
 * (IPoIB re-arms from its poll loop at once), so a record holding a later
 * arm is normal; only a record behind the doorbell (the previous arm
 * sequence number, or the same one with an older consumer index) shows
 * the record was not written first.
 */
static bool arm_record_behind(uint32_t rec, uint32_t word)
{
	uint32_t rsn = (rec & MLX5X_CQ_DB_SN_MASK) >> 28;
	uint32_t wsn = (word & MLX5X_CQ_DB_SN_MASK) >> 28;

	if (rsn != wsn)
		return rsn == ((wsn - 1) & 3);
	return after(word & MLX5X_CQ_DB_CI_MASK, rec & MLX5X_CQ_DB_CI_MASK);
}

void cq_arm_doorbell(struct emu *e, struct emu_cq *cq, uint32_t word)
{
	uint8_t sn = (uint8_t)((word & MLX5X_CQ_DB_SN_MASK) >> 28);
	uint8_t cmd = (uint8_t)((word & MLX5X_CQ_DB_CMD_MASK) >> 24);
	uint8_t rec[4];

	/* a record behind its doorbell: counted; the doorbell is obeyed */
	if (!gm_read(&e->gm, cq->dbr + MLX5X_CQ_DBR_ARM_OFF, rec, sizeof(rec)) &&
	    arm_record_behind(get_be32(rec), word)) {
		cq->eng.dbr_mismatch++;
		rule_hit(e, R_CQ_ARM_DBR_MISMATCH,
			 "CQ %u: arm 0x%08x, record 0x%08x", cq->cqn, word,
			 get_be32(rec));
	}
	if (cq->eng.error)
		return;
	if (!cq->armed && cq->eng.fired && sn == cq->eng.fired_sn) {
		cq->eng.stale_arms++;
		return;
	}
	if (cmd > MLX5X_CQ_DB_CMD_ARM_SOLICITED)
		emu_warn("CQ %u: arm command %u treated as next", cq->cqn, cmd);
	if (cmd != MLX5X_CQ_DB_CMD_ARM_SOLICITED ||
	    (cq->armed && cq->arm_cmd == MLX5X_CQ_DB_CMD_ARM_NEXT))
		cmd = MLX5X_CQ_DB_CMD_ARM_NEXT;
	cq->armed = true;
	cq->arm_cmd = cmd;
	cq->arm_sn = sn;
	cq->arm_ci = word & MLX5X_CQ_DB_CI_MASK;
	cq->eng.fired = false;
	cq_arm_check(e, cq);
}
