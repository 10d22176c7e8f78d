// SPDX-License-Identifier: GPL-2.0
/*
 * Completion queue entries and the asynchronous events of the engine.
 *
 * A CQE goes to the slot of the producer counter, 64 or 128 bytes (the
 * 64-byte entry is the second half of a 128-byte slot), body first and
 * the opcode/owner byte last.  Before writing, the device reads the
 * consumer counter software keeps in the CQ doorbell record: a full CQ is
 * an overrun, which stops the CQ and raises a CQ error event, unless the
 * CQ was created to ignore overruns (oi).  After writing, the arm
 * condition is checked (cq_arm.c).
 */
#include <errno.h>

#include "engine.h"
#include "log.h"

/* syndrome id of this file in failed commands (cmd.h numbers its own) */
#define EMU_FILE_ID 0x40

void cq_error_event(struct emu *e, struct emu_cq *cq, uint8_t synd)
{
	struct emu_eq *eq = eq_find_for_event(e, MLX5X_EVENT_CQ_ERROR);
	uint8_t data[28] = { 0 };

	cq->eng.error = true;
	PSET(cq->cqc, MLX5X_CQC_STATUS, synd == MLX5X_CQ_ERR_SYND_OVERRUN ?
	     0x9 : 0xa);
	emu_warn("CQ %u: %s, CQ stopped", cq->cqn,
		 synd == MLX5X_CQ_ERR_SYND_OVERRUN ? "overrun" : "access error");
	if (!eq)
		return;
	put_be32(data + MLX5X_EQE_CQ_ERR_CQN_OFF - MLX5X_EQE_DATA_OFF,
		 cq->cqn & MLX5X_EQE_CQ_ERR_CQN_MASK);
	data[MLX5X_EQE_CQ_ERR_SYNDROME_OFF - MLX5X_EQE_DATA_OFF] = synd;
	if (!eq_post(e, eq, MLX5X_EVENT_CQ_ERROR, 0, data))
		e->eng.st.async_events++;
}

static void async_event(struct emu *e, uint8_t type, uint8_t qtype,
			uint32_t num)
{
	struct emu_eq *eq = eq_find_for_event(e, type);
	uint8_t data[28] = { 0 };

	if (!eq)
		return;
	data[MLX5X_EQE_QP_SRQ_TYPE_OFF - MLX5X_EQE_DATA_OFF] = qtype;
	put_be32(data + MLX5X_EQE_QP_SRQ_NUM_OFF - MLX5X_EQE_DATA_OFF,
		 num & MLX5X_EQE_QP_SRQ_NUM_MASK);
	if (!eq_post(e, eq, type, 0, data))
		e->eng.st.async_events++;
}

void eng_qp_event(struct emu *e, struct emu_qp *qp, uint8_t type)
{
	async_event(e, type, MLX5X_EVENT_QUEUE_TYPE_QP, qp->qpn);
}

void eng_srq_event(struct emu *e, struct emu_srq *srq, uint8_t type)
{
	async_event(e, type, MLX5X_EVENT_QUEUE_TYPE_QP, srq->srqn);
}

static uint32_t cq_slots(const struct emu_cq *cq)
{
	return 1u << cq->log_size;
}

/* does the CQ have room?  Reads the consumer counter software keeps */
static int cq_room(struct emu *e, struct emu_cq *cq)
{
	uint8_t b[4];
	uint32_t ci;

	if (gm_read(&e->gm, cq->dbr + MLX5X_CQ_DBR_CI_OFF, b, sizeof(b))) {
		cq_error_event(e, cq, MLX5X_CQ_ERR_SYND_ACCESS);
		return -EFAULT;
	}
	ci = get_be32(b) & MLX5X_CQ_DBR_CI_MASK;
	if (cq->oi || ((cq->prod - ci) & MLX5X_CQ_DBR_CI_MASK) < cq_slots(cq))
		return 0;
	cq->eng.overruns++;
	cq_error_event(e, cq, MLX5X_CQ_ERR_SYND_OVERRUN);
	return -ENOSPC;
}

static bool is_error(uint8_t opcode)
{
	return opcode == MLX5X_CQE_REQ_ERR || opcode == MLX5X_CQE_RESP_ERR;
}

static void fill(struct emu *e, struct emu_qp *qp, const struct cqe_info *ci,
		 uint8_t *c)
{
	uint32_t uidx = ci->srqn;

	if (ci->uidx_valid)
		uidx = ci->uidx;
	else if (qp && CAP(e, MLX5X_CAP_CQE_VERSION) == 1)
		uidx = QPC(qp, MLX5X_QPC_USER_INDEX);
	PSET(c, MLX5X_CQE_SRQN_UIDX, uidx);
	PSET(c, MLX5X_CQE_QPN, qp ? qp->qpn : 0);
	PSET(c, MLX5X_CQE_WQE_COUNTER, ci->wqe_counter);
	put_be64(c + MLX5X_CQE_TIMESTAMP_OFF, now_ns() - e->iseg.t0_ns);
	if (is_error(ci->opcode)) {
		PSET(c, MLX5X_ERR_CQE_SYNDROME, ci->syndrome);
		PSET(c, MLX5X_ERR_CQE_VENDOR_SYND, ci->vendor);
		PSET(c, MLX5X_ERR_CQE_WQE_OPCODE, ci->wqe_opcode);
		return;
	}
	PSET(c, MLX5X_CQE_BYTE_CNT, ci->byte_cnt);
	if (ci->opcode == MLX5X_CQE_REQ) {
		PSET(c, MLX5X_CQE_SOP_DROP, ci->wqe_opcode);
		return;
	}
	/* responder */
	if (ci->imm_valid)
		memcpy(c + MLX5X_CQE_IMM_INVAL_PKEY_OFF, ci->imm, 4);
	else
		put_be32(c + MLX5X_CQE_IMM_INVAL_PKEY_OFF, ci->pkey_index);
	PSET(c, MLX5X_CQE_RQPN, ci->rqpn);
	PSET(c, MLX5X_CQE_SL, ci->sl);
	PSET(c, MLX5X_CQE_GRH, ci->grh ? 1 : 0);
	PSET(c, MLX5X_CQE_SLID, ci->slid);
}

/*
 * Write the slot of the producer counter: the body, then the byte that
 * hands the entry to software, with the owner bit of this lap.
 */
static int cq_store(struct emu *e, struct emu_cq *cq, uint8_t *slot,
		    uint8_t op_se)
{
	uint32_t len = 1u << cq->log_cqe_size;
	uint64_t off = (uint64_t)(cq->prod & (cq_slots(cq) - 1)) << cq->log_cqe_size;

	slot[len - 1] = op_se | ((cq->prod >> cq->log_size) & 1);
	if (pas_write(e, &cq->pas, off, slot, len - 1))
		return -EFAULT;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	if (pas_write(e, &cq->pas, off + len - 1, slot + len - 1, 1))
		return -EFAULT;
	cq->prod++;
	return 0;
}

int cq_post(struct emu *e, struct emu_cq *cq, struct emu_qp *qp,
	    const struct cqe_info *ci)
{
	uint32_t len = 1u << cq->log_cqe_size;
	uint8_t slot[128] = { 0 };
	uint8_t *c = slot + len - MLX5X_CQE_LEN;

	if (cq->eng.error || cq_room(e, cq))
		return -EIO;
	fill(e, qp, ci, c);
	if (cq_store(e, cq, slot, (uint8_t)(ci->opcode << MLX5X_CQE_OPCODE_SHIFT) |
		     (ci->se ? MLX5X_CQE_SE_MASK : 0)))
		goto fault;
	if (ci->se || is_error(ci->opcode)) {
		cq->eng.sol_prod = cq->prod;
		PSET(cq->cqc, MLX5X_CQC_LAST_SOLICIT_INDEX,
		     (cq->prod - 1) & MLX5X_CQ_DBR_CI_MASK);
	}
	cq->eng.cqes++;
	e->eng.st.cqes++;
	cq_arm_check(e, cq);
	return 0;
fault:
	cq_error_event(e, cq, MLX5X_CQ_ERR_SYND_ACCESS);
	return -EFAULT;
}

/* MODIFY_CQ resize: fields of the command the new ring takes */
#define RESIZE_SEL_LOG_SIZE	(1u << 0)
#define RESIZE_SEL_PG_OFFSET	(1u << 1)
#define RESIZE_SEL_PG_SIZE	(1u << 2)

/*
 * Resize: the device writes a RESIZE_CQ entry at the producer counter of
 * the old ring and goes on at the next counter in the new ring (owner
 * bits by the new size).  Software copies the entries it has not polled
 * into the new ring, one slot further, up to that entry.  The new ring
 * must hold them: shrinking below what is outstanding is refused.
 */
int eng_modify_cq_resize(struct cmd_ctx *c, struct emu_cq *cq)
{
	const uint8_t *cqc = c->in + MLX5X_MODIFY_CQ_IN_CQC_OFF;
	uint32_t sel = get_be32(c->in + MLX5X_MODIFY_CQ_IN_FIELD_SELECT_OFF);
	uint32_t log_size = PGET(cqc, MLX5X_CQC_LOG_CQ_SIZE);
	uint32_t cqe_sz = PGET(cqc, MLX5X_CQC_CQE_SZ);
	struct emu *e = c->e;
	uint8_t slot[128] = { 0 }, b[4];
	struct pas p;
	uint32_t ci;

	if (!(sel & RESIZE_SEL_LOG_SIZE) || cqe_sz > MLX5X_CQE_SIZE_128 ||
	    log_size > CAP(e, MLX5X_CAP_LOG_MAX_CQ_SZ))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (cq->eng.error)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES_STATE);
	if (gm_read(&e->gm, cq->dbr + MLX5X_CQ_DBR_CI_OFF, b, sizeof(b)))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	ci = get_be32(b) & MLX5X_CQ_DBR_CI_MASK;
	if (((cq->prod - ci) & MLX5X_CQ_DBR_CI_MASK) + 1 > (1u << log_size))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (CMD_GET_PAS(c, MLX5X_MODIFY_CQ_IN_PAS_OFF,
			sel & RESIZE_SEL_PG_SIZE ?
			PGET(cqc, MLX5X_CQC_LOG_PAGE_SIZE) : 0,
			sel & RESIZE_SEL_PG_OFFSET ?
			PGET(cqc, MLX5X_CQC_PAGE_OFFSET) : 0,
			(uint64_t)1 << (log_size + 6 + cqe_sz), &p))
		return c->status;
	if (cq_store(e, cq, slot, MLX5X_CQE_RESIZE_CQ << MLX5X_CQE_OPCODE_SHIFT))
		emu_warn("CQ %u: resize entry not written", cq->cqn);
	pas_free(&cq->pas);
	cq->pas = p;
	cq->log_size = (uint8_t)log_size;
	cq->log_cqe_size = (uint8_t)(6 + cqe_sz);
	PSET(cq->cqc, MLX5X_CQC_LOG_CQ_SIZE, log_size);
	PSET(cq->cqc, MLX5X_CQC_CQE_SZ, cqe_sz);
	PSET(cq->cqc, MLX5X_CQC_LOG_PAGE_SIZE, PGET(cqc, MLX5X_CQC_LOG_PAGE_SIZE));
	PSET(cq->cqc, MLX5X_CQC_PAGE_OFFSET, PGET(cqc, MLX5X_CQC_PAGE_OFFSET));
	cmd_detail(c, "cqn=%u resized to %u entries", cq->cqn, 1u << log_size);
	return 0;
}
