// SPDX-License-Identifier: GPL-2.0
/*
 * The command queue engine: descriptors, mailbox chains, delivery status,
 * completion by owner bit and, once an EQ subscribed to command events
 * exists, by command-completion EQE.  How those EQEs arrive is an option
 * (--cmd-completion): the PRM only orders a command's EQE after the return
 * of its descriptor, so they may come late, for several slots at once, in
 * any slot order, or again after the driver already took the completion
 * from the owner bit (its own timeout or missed-event path) and rang the
 * slot anew.  mlx5_core copes with each: it reads the owner bit, not the
 * event, as the end of a command.
 *
 * Called with emu.lock held, on the device thread (or a test).
 */
#include <errno.h>
#include <stdlib.h>

#include "cmd.h"
#include "log.h"

#define EMU_FILE_ID FILE_CMDQ

struct chain {
	uint64_t *ptr;		/* guest address of each block */
	uint32_t n;
};

static uint32_t nslots(void)
{
	return 1u << EMU_CMDQ_LOG_SZ;
}

static uint32_t page_slot(void)
{
	return nslots() - 1;
}

void cmdq_doorbell(struct emu *e, uint32_t bits)
{
	e->cmdq.doorbells++;
	bits &= (uint32_t)((1ull << nslots()) - 1);
	if (!e->iseg.cmdq_addr) {
		e->cmdq.spurious++;
		emu_warn("command doorbell 0x%x before the queue was set up",
			 bits);
		return;
	}
	e->cmdq.pending |= bits;
	pthread_cond_signal(&e->wake);
}

static uint32_t blocks_for(uint32_t len)
{
	return len > MLX5X_CMD_INLINE_LEN ?
	       DIV_ROUND_UP(len - MLX5X_CMD_INLINE_LEN, MLX5X_MBOX_DATA_LEN) : 0;
}

/*
 * Walk a mailbox chain of n blocks starting at first; for an input chain
 * gather its data into dst (len bytes after the inline part).  Returns a
 * delivery status.
 */
static uint8_t walk_chain(struct emu *e, uint64_t first, uint32_t n,
			  uint8_t token, bool input, uint8_t *dst,
			  uint32_t len, struct chain *ch)
{
	uint8_t blk[MLX5X_MBOX_LEN];
	uint64_t ptr = first;
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint32_t chunk = MIN(len, (uint32_t)MLX5X_MBOX_DATA_LEN);

		if (!ptr)
			return input ? MLX5X_CMD_DELIV_IN_LENGTH :
				       MLX5X_CMD_DELIV_OUT_LENGTH;
		if (ptr & (MLX5X_MBOX_ALIGN - 1))
			return input ? MLX5X_CMD_DELIV_IN_PTR_ALIGN :
				       MLX5X_CMD_DELIV_OUT_PTR_ALIGN;
		if (gm_read(&e->gm, ptr, blk, sizeof(blk))) {
			e->cmdq.dma_errors++;
			return MLX5X_CMD_DELIV_FW_ERR;
		}
		/* block numbers rise by one: also what breaks any cycle */
		if (get_be32(blk + MLX5X_MBOX_BLOCK_NUM_OFF) != i)
			return MLX5X_CMD_DELIV_BAD_BLOCK;
		if (blk[MLX5X_MBOX_TOKEN_OFF] != token)
			return MLX5X_CMD_DELIV_TOKEN;
		if (input) {
			memcpy(dst, blk + MLX5X_MBOX_DATA_OFF, chunk);
			dst += chunk;
			len -= chunk;
		} else {
			ch->ptr[i] = ptr;
		}
		ptr = get_be64(blk + MLX5X_MBOX_NEXT_OFF);
	}
	return MLX5X_CMD_DELIV_OK;
}

/* validate the descriptor and both chains; gather the input */
static uint8_t fetch(struct emu *e, const uint8_t *lay, struct cmd_ctx *c,
		     uint8_t **inbuf, struct chain *out)
{
	uint8_t token = lay[MLX5X_CMD_LAY_TOKEN_OFF];
	uint32_t inlen = get_be32(lay + MLX5X_CMD_LAY_INLEN_OFF);
	uint32_t outlen = get_be32(lay + MLX5X_CMD_LAY_OUTLEN_OFF);
	uint8_t st;

	if (lay[MLX5X_CMD_LAY_TYPE_OFF] != MLX5X_CMD_TYPE_PCI)
		return MLX5X_CMD_DELIV_BAD_DESC;
	if (inlen < MLX5X_CMD_MIN_IN_LEN || inlen > EMU_CMD_MAX_LEN)
		return MLX5X_CMD_DELIV_IN_LENGTH;
	if (outlen < MLX5X_CMD_MIN_OUT_LEN || outlen > EMU_CMD_MAX_LEN)
		return MLX5X_CMD_DELIV_OUT_LENGTH;

	*inbuf = calloc(1, MAX(inlen, (uint32_t)MLX5X_CMD_INLINE_LEN));
	c->out = calloc(1, MAX(outlen, (uint32_t)MLX5X_CMD_INLINE_LEN));
	out->n = blocks_for(outlen);
	out->ptr = calloc(out->n + 1, sizeof(*out->ptr));
	if (!*inbuf || !c->out || !out->ptr)
		return MLX5X_CMD_DELIV_FW_ERR;
	memcpy(*inbuf, lay + MLX5X_CMD_LAY_IN_OFF, MLX5X_CMD_INLINE_LEN);
	st = walk_chain(e, get_be64(lay + MLX5X_CMD_LAY_IN_PTR_OFF),
			blocks_for(inlen), token, true,
			*inbuf + MLX5X_CMD_INLINE_LEN,
			inlen > MLX5X_CMD_INLINE_LEN ?
			inlen - MLX5X_CMD_INLINE_LEN : 0, NULL);
	if (st)
		return st;
	st = walk_chain(e, get_be64(lay + MLX5X_CMD_LAY_OUT_PTR_OFF), out->n,
			token, false, NULL, 0, out);
	if (st)
		return st;
	c->in = *inbuf;
	c->inlen = inlen;
	c->outlen = outlen;
	return MLX5X_CMD_DELIV_OK;
}

/* write the output back: mailbox data, inline part, then status_own */
static void complete(struct emu *e, uint64_t da, struct cmd_ctx *c,
		     const struct chain *out, uint8_t deliv)
{
	uint8_t status_own = (uint8_t)(deliv << MLX5X_CMD_DELIVERY_SHIFT);
	uint32_t i, off;

	if (!deliv) {
		for (i = 0, off = MLX5X_CMD_INLINE_LEN; i < out->n; i++) {
			uint32_t n = MIN(c->outlen - off,
					 (uint32_t)MLX5X_MBOX_DATA_LEN);

			if (gm_write(&e->gm, out->ptr[i] + MLX5X_MBOX_DATA_OFF,
				     c->out + off, n))
				e->cmdq.dma_errors++;
			off += n;
		}
		if (gm_write(&e->gm, da + MLX5X_CMD_LAY_OUT_OFF, c->out,
			     MLX5X_CMD_INLINE_LEN))
			e->cmdq.dma_errors++;
	}
	/* the owner bit flips last: the output must be visible first */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	if (gm_write(&e->gm, da + MLX5X_CMD_LAY_STATUS_OWN_OFF, &status_own, 1))
		e->cmdq.dma_errors++;
}

/*
 * A completion EQE is posted only if an EQ subscribed to command events
 * existed before this command started: never for the CREATE_EQ that
 * makes the command EQ, whose completion the driver polls, and never
 * once that EQ is gone (the PRM's command interface: events go to the
 * EQ mapped to command completions while it exists).
 */
static struct emu_eq *cmd_eq(struct emu *e)
{
	return eq_find_for_event(e, MLX5X_EVENT_CMD);
}

static uint64_t ms_ns(uint32_t ms)
{
	return (uint64_t)ms * 1000000ull;
}

/* One CMD EQE with a slot vector (bit n = slot n completed). */
static void post_cmd_eqe(struct emu *e, uint32_t vec)
{
	uint8_t data[28] = { 0 };
	struct emu_eq *eq = cmd_eq(e);

	if (!eq)
		return;
	if (e->opt.fault.cmd_irq_drop && eq->armed) {
		/* sent and lost on the way: the EQ is disarmed all the same */
		e->opt.fault.cmd_irq_drop--;
		eq->armed = false;
		eq->irqs++;
		e->cmdq.irqs_lost++;
		emu_info("fault: interrupt for the CMD EQE of slots 0x%x lost",
			 vec);
	}
	put_be32(data, vec);
	if (eq_post(e, eq, MLX5X_EVENT_CMD, 0, data))
		return;
	e->cmdq.eqes++;
	if (vec & (vec - 1))
		e->cmdq.eqes_merged++;
}

/* slot's descriptor went back to the driver: its EQE, per the mode */
static void report_eqe(struct emu *e, uint32_t slot)
{
	struct emu_cmdq *q = &e->cmdq;

	switch (e->opt.cmd_eqe.mode) {
	case CMD_EQE_DELAY:
	case CMD_EQE_COALESCE:
		if (!q->late_vec)
			q->late_at_ns = now_ns() + ms_ns(e->opt.cmd_eqe.ms);
		q->late_vec |= 1u << slot;
		q->eqes_late++;
		return;
	case CMD_EQE_DUPLICATE:
		q->dup_vec |= 1u << slot;
		break;
	default:
		break;
	}
	post_cmd_eqe(e, 1u << slot);
}

/* held EQEs whose time came: one for all slots (coalesce) or one each */
static void flush_late(struct emu *e, uint64_t now)
{
	struct emu_cmdq *q = &e->cmdq;
	uint32_t vec = q->late_vec;

	if (!vec || now < q->late_at_ns)
		return;
	q->late_vec = 0;
	if (e->opt.cmd_eqe.mode == CMD_EQE_COALESCE) {
		if (vec & (vec - 1))
			q->coalesced += (uint64_t)__builtin_popcount(vec);
		post_cmd_eqe(e, vec);
		return;
	}
	while (vec) {
		uint32_t bit = vec & -vec;

		vec &= ~bit;
		q->delayed++;
		post_cmd_eqe(e, bit);
	}
}

static void trace(struct emu *e, struct cmd_ctx *c, uint8_t deliv,
		  uint64_t t0)
{
	if (!e->opt.trace)
		return;
	if (deliv) {
		log_msg(LOG_INFO, "cmd slot=%d delivery=0x%x (%s) op=%s(0x%x)",
			c->slot, deliv, "descriptor/mailbox rejected",
			cmd_op_name(c->op), c->op);
		return;
	}
	log_msg(LOG_INFO,
		"cmd slot=%d op=%s(0x%x) op_mod=0x%x in=0x%x out=0x%x status=%s(0x%x) synd=0x%08x %uus%s%s",
		c->slot, cmd_op_name(c->op), c->op, c->op_mod, c->inlen,
		c->outlen, cmd_status_name(c->status), c->status, c->syndrome,
		(unsigned int)((now_ns() - t0) / 1000), c->detail[0] ? " " : "",
		c->detail);
}

/* fault injection: should this command hang? (fail: fault.c) */
static bool fault_hang(struct emu *e, uint16_t op)
{
	return e->opt.fault.timeout_op == op;
}

static void exec_slot(struct emu *e, uint32_t slot)
{
	uint64_t da = e->iseg.cmdq_addr + ((uint64_t)slot << EMU_CMDQ_LOG_STRIDE);
	struct cmd_ctx c = { .e = e, .slot = (int)slot };
	uint8_t lay[MLX5X_CMD_LAY_LEN];
	struct chain out = { 0 };
	uint8_t *inbuf = NULL;
	uint64_t t0 = now_ns();
	bool by_eqe;
	uint8_t deliv;

	if (gm_read(&e->gm, da, lay, sizeof(lay))) {
		e->cmdq.dma_errors++;
		emu_warn("command slot %u: descriptor at 0x%llx unreadable",
			 slot, (unsigned long long)da);
		return;
	}
	if (!(lay[MLX5X_CMD_LAY_STATUS_OWN_OFF] & MLX5X_CMD_OWNER_MASK)) {
		e->cmdq.spurious++;
		return;
	}
	c.op = (uint16_t)PGET(lay + MLX5X_CMD_LAY_IN_OFF, MLX5X_CMD_IN_OPCODE);
	by_eqe = cmd_eq(e) != NULL;
	deliv = fetch(e, lay, &c, &inbuf, &out);
	/* the last slot carries MANAGE_PAGES and nothing else */
	if (!deliv && slot == page_slot() && c.op != MLX5X_CMD_OP_MANAGE_PAGES)
		deliv = MLX5X_CMD_DELIV_BAD_DESC;
	if (!deliv && fault_hang(e, c.op)) {
		e->cmdq.hung++;
		emu_info("fault: command %s in slot %u left pending",
			 cmd_op_name(c.op), slot);
		goto out;
	}
	if (deliv) {
		e->cmdq.delivery_errors++;
	} else {
		c.op_mod = (uint16_t)PGET(c.in, MLX5X_CMD_IN_OP_MOD);
		c.uid = (uint16_t)PGET(c.in, MLX5X_CMD_IN_UID);
		ftrace_cmd(e, &c);
		if (!fault_cmd_status(e, &c))
			cmd_dispatch(&c);
		e->cmdq.executed++;
	}
	trace(e, &c, deliv, t0);
	complete(e, da, &c, &out, deliv);
	if (by_eqe)
		report_eqe(e, slot);
out:
	free(inbuf);
	free(c.out);
	free(out.ptr);
}

/* next slot to execute: lowest first, highest first when reordering */
static uint32_t next_slot(struct emu *e)
{
	uint32_t p = e->cmdq.pending;

	if (e->opt.cmd_eqe.mode == CMD_EQE_REORDER)
		return 31u - (uint32_t)__builtin_clz(p);
	return (uint32_t)__builtin_ctz(p);
}

/*
 * Duplicate mode: the repeated EQE of a slot goes out when the driver
 * rings that slot again, and the new command is held for a while, so the
 * repeat meets a descriptor the device owns.
 */
static void repeat_eqes(struct emu *e, uint64_t now)
{
	struct emu_cmdq *q = &e->cmdq;
	uint32_t stale = q->dup_vec & q->pending;

	if (e->opt.cmd_eqe.mode != CMD_EQE_DUPLICATE || !stale || !cmd_eq(e))
		return;
	q->dup_vec &= ~stale;
	post_cmd_eqe(e, stale);
	q->eqes_dup++;
	q->exec_at_ns = now + ms_ns(e->opt.cmd_eqe.ms);
}

void cmdq_run_at(struct emu *e, uint64_t now)
{
	struct emu_cmdq *q = &e->cmdq;

	flush_late(e, now);
	if (!q->pending)
		return;
	repeat_eqes(e, now);
	/* reorder: gather what is rung within the window first */
	if (e->opt.cmd_eqe.mode == CMD_EQE_REORDER && !q->exec_at_ns)
		q->exec_at_ns = now + ms_ns(e->opt.cmd_eqe.ms);
	if (now < q->exec_at_ns)
		return;
	q->exec_at_ns = 0;
	while (q->pending) {
		uint32_t slot = next_slot(e);

		q->pending &= ~(1u << slot);
		/* a lower slot rung with it still waits: run out of order */
		if (q->pending & ((1u << slot) - 1))
			q->reordered++;
		exec_slot(e, slot);
	}
}

void cmdq_run(struct emu *e)
{
	cmdq_run_at(e, now_ns());
}

/* when the device thread is next due here; 0: nothing until a doorbell */
uint64_t cmdq_wake_at(const struct emu *e)
{
	const struct emu_cmdq *q = &e->cmdq;
	uint64_t at = 0;

	if (q->pending)
		at = q->exec_at_ns ? q->exec_at_ns : 1;
	if (q->late_vec && (!at || q->late_at_ns < at))
		at = q->late_at_ns;
	return at;
}

/* function reset: nothing pending, nothing held back */
void cmdq_reset(struct emu *e)
{
	struct emu_cmdq *q = &e->cmdq;

	q->pending = 0;
	q->exec_at_ns = 0;
	q->late_vec = 0;
	q->dup_vec = 0;
}

static const char *const mode_names[] = {
	[CMD_EQE_PROMPT] = "prompt", [CMD_EQE_DELAY] = "delay",
	[CMD_EQE_REORDER] = "reorder", [CMD_EQE_COALESCE] = "coalesce",
	[CMD_EQE_DUPLICATE] = "duplicate",
};

const char *cmdq_completion_name(enum cmd_eqe_mode mode)
{
	return (unsigned int)mode < ARRAY_SIZE(mode_names) ?
	       mode_names[mode] : "?";
}

/* MODE[:MS] (--cmd-completion, the cmd-completion request); MS: 5 */
int cmdq_parse_completion(struct cmd_eqe_cfg *c, const char *s)
{
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	char *end = (char *)"";
	unsigned long ms = 5;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mode_names); i++)
		if (strlen(mode_names[i]) == n && !strncmp(s, mode_names[i], n))
			break;
	if (i == ARRAY_SIZE(mode_names))
		return -1;
	if (colon) {
		if (!colon[1])
			return -1;
		ms = strtoul(colon + 1, &end, 0);
	}
	if (*end || ms > CMD_EQE_MAX_MS)
		return -1;
	c->mode = (enum cmd_eqe_mode)i;
	c->ms = (uint32_t)ms;
	return 0;
}

/*
 * A new completion mode while the device runs (the cmd-completion
 * request).  EQEs already held keep their time and go out under the new
 * mode's rule; the commands the reorder window holds still wait for it.
 * Only the repeats duplicate mode owed are dropped with that mode.
 */
void cmdq_set_completion(struct emu *e, const struct cmd_eqe_cfg *c)
{
	if (c->mode != CMD_EQE_DUPLICATE)
		e->cmdq.dup_vec = 0;
	e->opt.cmd_eqe = *c;
}
