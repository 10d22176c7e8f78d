// SPDX-License-Identifier: GPL-2.0
/*
 * Event queues: EQEs written into the ring the driver gave (PAS list),
 * with the owner bit of the lap, and the bound MSI-X vector raised when
 * the EQ is armed.  The EQ doorbell (UAR + 0x40 arm, + 0x48 update)
 * carries the consumer counter; arming with entries still unconsumed
 * fires at once, as hardware does.
 */
#include <stdlib.h>

#include "cmd.h"
#include "log.h"

#define EMU_FILE_ID FILE_EQ

static uint32_t eq_size(const struct emu_eq *eq)
{
	return 1u << eq->log_size;
}

/* entries written and not yet consumed (24-bit counters) */
static uint32_t eq_outstanding(const struct emu_eq *eq)
{
	return (eq->prod - eq->cons) & MLX5X_EQ_DB_CI_MASK;
}

static bool eq_wants(const struct emu_eq *eq, uint8_t type)
{
	return eq->mask[type / 64] & (1ull << (type % 64));
}

/* lowest-numbered EQ subscribed to an asynchronous event type */
struct emu_eq *eq_find_for_event(struct emu *e, uint8_t type)
{
	struct objtab *t = &e->obj[OBJ_EQ];
	uint32_t id;

	for (id = t->base; id < t->cap; id++) {
		struct emu_eq *eq = t->slot[id];

		if (eq && eq_wants(eq, type))
			return eq;
	}
	return NULL;
}

static void eq_interrupt(struct emu *e, struct emu_eq *eq)
{
	eq->armed = false;
	eq->irqs++;
	irq_fire(&e->irq, eq->intr);
}

/* health syndromes of EQ failures (mlx5_ifc.h names) */
#define HEALTH_SYND_ASYNC_EQ_OVERRUN	0x0c
#define HEALTH_SYND_EQ_IN_ERR		0x0d

/*
 * A full EQ (oi clear) is an overrun: the event is lost, the EQ stops
 * (every later event for it is lost too) and firmware reports it in the
 * health buffer without requesting the recover flow: "async EQ buffer
 * overrun" for an EQ carrying asynchronous events, "EQ error" for a
 * completion EQ.  mlx5_core's health poll files that as a non-fatal
 * firmware report.  With oi set the EQ is never checked and old entries
 * are overwritten.
 */
static bool eq_overrun(struct emu *e, struct emu_eq *eq)
{
	bool async = eq->mask[0] || eq->mask[1] || eq->mask[2] || eq->mask[3];

	if (eq->overrun)
		return true;
	if (PGET(eq->eqc, MLX5X_EQC_OI) || eq_outstanding(eq) < eq_size(eq))
		return false;
	emu_warn("EQ %u overrun (%u entries unconsumed): EQ stopped", eq->eqn,
		 eq_outstanding(eq));
	eq->overrun = true;
	e->stats.eq_overruns++;
	iseg_health_raise(e, async ? HEALTH_SYND_ASYNC_EQ_OVERRUN :
			  HEALTH_SYND_EQ_IN_ERR, false);
	return true;
}

/* Post an EQE (lost if the EQ is overrun, see eq_overrun()). */
int eq_post(struct emu *e, struct emu_eq *eq, uint8_t type, uint8_t sub,
	    const uint8_t *data)
{
	uint8_t eqe[MLX5X_EQE_LEN] = { 0 };
	uint32_t slot = eq->prod & (eq_size(eq) - 1);
	uint64_t off = (uint64_t)slot << MLX5X_EQE_LOG_LEN;
	uint8_t owner = (eq->prod >> eq->log_size) & 1;

	if (eq_overrun(e, eq)) {
		eq->lost++;
		return -1;
	}
	eqe[MLX5X_EQE_TYPE_OFF] = type;
	eqe[MLX5X_EQE_SUB_TYPE_OFF] = sub;
	memcpy(eqe + MLX5X_EQE_DATA_OFF, data, 28);
	/* body first, then the owner byte that hands it to the driver */
	if (pas_write(e, &eq->pas, off, eqe, MLX5X_EQE_OWNER_OFF)) {
		e->stats.eqe_dma_errors++;
		return -1;
	}
	__atomic_thread_fence(__ATOMIC_RELEASE);
	eqe[MLX5X_EQE_OWNER_OFF] = owner;
	if (pas_write(e, &eq->pas, off + MLX5X_EQE_OWNER_OFF,
		      &eqe[MLX5X_EQE_OWNER_OFF], 1)) {
		e->stats.eqe_dma_errors++;
		return -1;
	}
	eq->prod++;
	eq->eqes++;
	if (eq->armed)
		eq_interrupt(e, eq);
	return 0;
}

void eq_doorbell(struct emu *e, uint32_t uar, uint32_t val, bool arm)
{
	uint32_t eqn = (val & MLX5X_EQ_DB_EQN_MASK) >> 24;
	struct emu_eq *eq = objtab_get(&e->obj[OBJ_EQ], eqn);

	if (!eq || eq->uar->index != uar) {
		e->stats.uar_bad++;
		emu_warn("EQ doorbell for EQ %u on UAR %u: no such EQ there",
			 eqn, uar);
		return;
	}
	eq->doorbells++;
	eq->cons = val & MLX5X_EQ_DB_CI_MASK;
	if (!arm)
		return;
	if (eq_outstanding(eq))
		eq_interrupt(e, eq);
	else
		eq->armed = true;
}

void eq_free(struct emu_eq *eq)
{
	pas_free(&eq->pas);
	free(eq);
}

int h_create_eq(struct cmd_ctx *c)
{
	const uint8_t *eqc = c->in + MLX5X_CREATE_EQ_IN_EQC_OFF;
	struct emu *e = c->e;
	struct emu_uar *uar;
	struct emu_eq *eq;
	uint32_t log_size, i;

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	log_size = PGET(eqc, MLX5X_EQC_LOG_EQ_SIZE);
	if (log_size > CAP(e, MLX5X_CAP_LOG_MAX_EQ_SZ))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (PGET(eqc, MLX5X_EQC_INTR) >= e->opt.msix)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	uar = objtab_get(&e->obj[OBJ_UAR], PGET(eqc, MLX5X_EQC_UAR_PAGE));
	if (!uar)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	eq = calloc(1, sizeof(*eq));
	if (!eq)
		return CMD_FAIL(c, MLX5X_CMD_STAT_NO_RES);
	if (CMD_GET_PAS(c, MLX5X_CREATE_EQ_IN_PAS_OFF,
			PGET(eqc, MLX5X_EQC_LOG_PAGE_SIZE),
			PGET(eqc, MLX5X_EQC_PAGE_OFFSET),
			(uint64_t)MLX5X_EQE_LEN << log_size, &eq->pas)) {
		free(eq);
		return c->status;
	}
	if (objtab_add(&e->obj[OBJ_EQ], eq, &eq->eqn)) {
		eq_free(eq);
		return CMD_FAIL(c, MLX5X_CMD_STAT_NO_RES);
	}
	eq->log_size = (uint8_t)log_size;
	eq->intr = (uint16_t)PGET(eqc, MLX5X_EQC_INTR);
	eq->uar = uar;
	uar->refs++;
	for (i = 0; i < MLX5X_EQ_EVENT_BITMASK_WORDS; i++)
		eq->mask[i] = get_be64(c->in + MLX5X_CREATE_EQ_IN_EVENT_BITMASK_OFF +
				       8 * i);
	memcpy(eq->eqc, eqc, MLX5X_EQC_LEN);
	PSET(c->out, MLX5X_CREATE_EQ_OUT_EQ_NUMBER, eq->eqn);
	cmd_detail(c, "eqn=%u log_size=%u intr=%u mask=0x%llx", eq->eqn,
		   log_size, eq->intr, (unsigned long long)eq->mask[0]);
	return 0;
}

int h_destroy_eq(struct cmd_ctx *c)
{
	uint32_t eqn = PGET(c->in, MLX5X_DESTROY_EQ_IN_EQ_NUMBER);
	struct emu *e = c->e;
	struct emu_eq *eq;

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	eq = objtab_get(&e->obj[OBJ_EQ], eqn);
	if (!eq)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	if (eq->refs)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES_STATE);
	objtab_del(&e->obj[OBJ_EQ], eqn);
	uar_put(eq->uar);
	cmd_detail(c, "eqn=%u eqes=%llu irqs=%llu", eqn,
		   (unsigned long long)eq->eqes, (unsigned long long)eq->irqs);
	eq_free(eq);
	return 0;
}

int h_query_eq(struct cmd_ctx *c)
{
	uint32_t eqn = PGET(c->in, MLX5X_QUERY_EQ_IN_EQ_NUMBER);
	struct emu_eq *eq = objtab_get(&c->e->obj[OBJ_EQ], eqn);
	uint8_t *eqc = c->out + MLX5X_QUERY_EQ_OUT_EQC_OFF;

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (!eq)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	memcpy(eqc, eq->eqc, MLX5X_EQC_LEN);
	PSET(eqc, MLX5X_EQC_CONSUMER_COUNTER, eq->cons);
	PSET(eqc, MLX5X_EQC_PRODUCER_COUNTER, eq->prod & MLX5X_EQ_DB_CI_MASK);
	PSET(eqc, MLX5X_EQC_ST, eq->armed ? 0x9 : 0xa);
	put_be64(c->out + MLX5X_QUERY_EQ_OUT_EVENT_BITMASK_OFF, eq->mask[0]);
	return 0;
}
