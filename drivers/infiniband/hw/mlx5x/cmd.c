// SPDX-License-Identifier: GPL-2.0-only
/*
 * Command engine.
 *
 * One 4 KiB page of descriptors; slots 0..max_reg-1 carry regular
 * commands (a counting semaphore hands out credits), slot max_reg is
 * reserved for MANAGE_PAGES so a page request can always be answered even
 * when every regular slot waits for the firmware.  Inputs and outputs
 * longer than 16 bytes travel in mailbox chains from a DMA pool.
 *
 * Completion is polled (owner bit) until the async EQ exists, then
 * signalled by CMD EQEs.  The owner bit is the device's word that it let
 * go of a descriptor; an event is only a hint: one for a slot the device
 * still owns (a late or repeated EQE from an earlier command on that
 * slot) is ignored, so a slot and its mailboxes are never reused or freed
 * while the device may still write them.  A watchdog looks at the owner
 * bits while commands are outstanding and polls the EQ for a completion
 * it found unsignalled at two looks in a row, so a lost interrupt or
 * event costs two watchdog periods at most, not the command timeout.  A command the
 * device still owns at its timeout gets -ETIMEDOUT and its slot is
 * quarantined (mailboxes kept) until the owner bit comes back.  Losing
 * every slot, or a fatal health syndrome, kills the engine (fail-stop,
 * see mlx5x_cmd_state).
 */
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/dmapool.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "cmd.h"
#include "hw.h"
#include "iseg.h"
#include "mlx5x_trace.h"

static unsigned int cmd_timeout_ms = 60000;
module_param(cmd_timeout_ms, uint, 0444);
MODULE_PARM_DESC(cmd_timeout_ms,
		 "Per-command completion timeout in ms (default 60000)");

static unsigned int cmd_watchdog_ms = 1000;
module_param(cmd_watchdog_ms, uint, 0444);
MODULE_PARM_DESC(cmd_watchdog_ms,
		 "Missed command event check period in ms (default 1000)");

/* Internal: the engine was killed while this command was in flight. */
#define MLX5X_CMD_ERR_KILLED	(-ESHUTDOWN)

const char *mlx5x_cmd_opcode_str(u16 opcode)
{
	switch (opcode) {
	case MLX5X_CMD_OP_QUERY_HCA_CAP:	return "QUERY_HCA_CAP";
	case MLX5X_CMD_OP_QUERY_ADAPTER:	return "QUERY_ADAPTER";
	case MLX5X_CMD_OP_INIT_HCA:		return "INIT_HCA";
	case MLX5X_CMD_OP_TEARDOWN_HCA:		return "TEARDOWN_HCA";
	case MLX5X_CMD_OP_ENABLE_HCA:		return "ENABLE_HCA";
	case MLX5X_CMD_OP_DISABLE_HCA:		return "DISABLE_HCA";
	case MLX5X_CMD_OP_QUERY_PAGES:		return "QUERY_PAGES";
	case MLX5X_CMD_OP_MANAGE_PAGES:		return "MANAGE_PAGES";
	case MLX5X_CMD_OP_SET_HCA_CAP:		return "SET_HCA_CAP";
	case MLX5X_CMD_OP_QUERY_ISSI:		return "QUERY_ISSI";
	case MLX5X_CMD_OP_SET_ISSI:		return "SET_ISSI";
	case MLX5X_CMD_OP_SET_DRIVER_VERSION:	return "SET_DRIVER_VERSION";
	case MLX5X_CMD_OP_CREATE_MKEY:		return "CREATE_MKEY";
	case MLX5X_CMD_OP_QUERY_MKEY:		return "QUERY_MKEY";
	case MLX5X_CMD_OP_DESTROY_MKEY:		return "DESTROY_MKEY";
	case MLX5X_CMD_OP_QUERY_SPECIAL_CONTEXTS: return "QUERY_SPECIAL_CONTEXTS";
	case MLX5X_CMD_OP_CREATE_EQ:		return "CREATE_EQ";
	case MLX5X_CMD_OP_DESTROY_EQ:		return "DESTROY_EQ";
	case MLX5X_CMD_OP_QUERY_EQ:		return "QUERY_EQ";
	case MLX5X_CMD_OP_CREATE_CQ:		return "CREATE_CQ";
	case MLX5X_CMD_OP_DESTROY_CQ:		return "DESTROY_CQ";
	case MLX5X_CMD_OP_QUERY_CQ:		return "QUERY_CQ";
	case MLX5X_CMD_OP_MODIFY_CQ:		return "MODIFY_CQ";
	case MLX5X_CMD_OP_CREATE_QP:		return "CREATE_QP";
	case MLX5X_CMD_OP_DESTROY_QP:		return "DESTROY_QP";
	case MLX5X_CMD_OP_RST2INIT_QP:		return "RST2INIT_QP";
	case MLX5X_CMD_OP_INIT2RTR_QP:		return "INIT2RTR_QP";
	case MLX5X_CMD_OP_RTR2RTS_QP:		return "RTR2RTS_QP";
	case MLX5X_CMD_OP_RTS2RTS_QP:		return "RTS2RTS_QP";
	case MLX5X_CMD_OP_SQERR2RTS_QP:		return "SQERR2RTS_QP";
	case MLX5X_CMD_OP_2ERR_QP:		return "2ERR_QP";
	case MLX5X_CMD_OP_2RST_QP:		return "2RST_QP";
	case MLX5X_CMD_OP_QUERY_QP:		return "QUERY_QP";
	case MLX5X_CMD_OP_INIT2INIT_QP:		return "INIT2INIT_QP";
	case MLX5X_CMD_OP_CREATE_SRQ:		return "CREATE_SRQ";
	case MLX5X_CMD_OP_DESTROY_SRQ:		return "DESTROY_SRQ";
	case MLX5X_CMD_OP_QUERY_SRQ:		return "QUERY_SRQ";
	case MLX5X_CMD_OP_ARM_RQ:		return "ARM_RQ";
	case MLX5X_CMD_OP_CREATE_XRC_SRQ:	return "CREATE_XRC_SRQ";
	case MLX5X_CMD_OP_DESTROY_XRC_SRQ:	return "DESTROY_XRC_SRQ";
	case MLX5X_CMD_OP_QUERY_XRC_SRQ:	return "QUERY_XRC_SRQ";
	case MLX5X_CMD_OP_ARM_XRC_SRQ:		return "ARM_XRC_SRQ";
	case MLX5X_CMD_OP_CREATE_RMP:		return "CREATE_RMP";
	case MLX5X_CMD_OP_MODIFY_RMP:		return "MODIFY_RMP";
	case MLX5X_CMD_OP_DESTROY_RMP:		return "DESTROY_RMP";
	case MLX5X_CMD_OP_QUERY_RMP:		return "QUERY_RMP";
	case MLX5X_CMD_OP_QUERY_HCA_VPORT_CONTEXT: return "QUERY_HCA_VPORT_CONTEXT";
	case MLX5X_CMD_OP_MODIFY_HCA_VPORT_CONTEXT: return "MODIFY_HCA_VPORT_CONTEXT";
	case MLX5X_CMD_OP_QUERY_HCA_VPORT_GID:	return "QUERY_HCA_VPORT_GID";
	case MLX5X_CMD_OP_QUERY_HCA_VPORT_PKEY:	return "QUERY_HCA_VPORT_PKEY";
	case MLX5X_CMD_OP_ALLOC_PD:		return "ALLOC_PD";
	case MLX5X_CMD_OP_DEALLOC_PD:		return "DEALLOC_PD";
	case MLX5X_CMD_OP_ALLOC_UAR:		return "ALLOC_UAR";
	case MLX5X_CMD_OP_DEALLOC_UAR:		return "DEALLOC_UAR";
	case MLX5X_CMD_OP_ACCESS_REG:		return "ACCESS_REG";
	case MLX5X_CMD_OP_NOP:			return "NOP";
	case MLX5X_CMD_OP_ALLOC_XRCD:		return "ALLOC_XRCD";
	case MLX5X_CMD_OP_DEALLOC_XRCD:		return "DEALLOC_XRCD";
	default:				return "UNKNOWN";
	}
}

const char *mlx5x_cmd_status_str(u8 status)
{
	switch (status) {
	case MLX5X_CMD_STAT_OK:			return "OK";
	case MLX5X_CMD_STAT_INT_ERR:		return "internal error";
	case MLX5X_CMD_STAT_BAD_OP:		return "bad operation";
	case MLX5X_CMD_STAT_BAD_PARAM:	return "bad parameter";
	case MLX5X_CMD_STAT_BAD_SYS_STATE:	return "bad system state";
	case MLX5X_CMD_STAT_BAD_RES:	return "bad resource";
	case MLX5X_CMD_STAT_RES_BUSY:		return "resource busy";
	case MLX5X_CMD_STAT_NOT_READY:		return "not ready";
	case MLX5X_CMD_STAT_LIM:		return "limits exceeded";
	case MLX5X_CMD_STAT_BAD_RES_STATE:	return "bad resource state";
	case MLX5X_CMD_STAT_IX:		return "bad index";
	case MLX5X_CMD_STAT_NO_RES:		return "no resources";
	case MLX5X_CMD_STAT_BAD_QP_STATE:	return "bad QP state";
	case MLX5X_CMD_STAT_BAD_PKT:	return "bad packet";
	case MLX5X_CMD_STAT_BAD_SIZE_OUTS_CQES: return "bad size, too many outstanding CQEs";
	case MLX5X_CMD_STAT_BAD_INP_LEN:	return "bad input length";
	case MLX5X_CMD_STAT_BAD_OUTP_LEN:	return "bad output length";
	default:				return "unknown status";
	}
}

/* The one place that turns a firmware status into an errno. */
int mlx5x_cmd_status_to_errno(u8 status)
{
	switch (status) {
	case MLX5X_CMD_STAT_OK:			return 0;
	case MLX5X_CMD_STAT_BAD_OP:		return -EOPNOTSUPP;
	case MLX5X_CMD_STAT_BAD_PARAM:
	case MLX5X_CMD_STAT_BAD_RES:
	case MLX5X_CMD_STAT_BAD_RES_STATE:
	case MLX5X_CMD_STAT_IX:
	case MLX5X_CMD_STAT_BAD_QP_STATE:
	case MLX5X_CMD_STAT_BAD_PKT:
	case MLX5X_CMD_STAT_BAD_SIZE_OUTS_CQES: return -EINVAL;
	case MLX5X_CMD_STAT_RES_BUSY:		return -EBUSY;
	case MLX5X_CMD_STAT_NOT_READY:		return -EAGAIN;
	case MLX5X_CMD_STAT_LIM:
	case MLX5X_CMD_STAT_NO_RES:		return -ENOMEM;
	case MLX5X_CMD_STAT_BAD_INP_LEN:
	case MLX5X_CMD_STAT_BAD_OUTP_LEN:	return -EMSGSIZE;
	case MLX5X_CMD_STAT_INT_ERR:
	case MLX5X_CMD_STAT_BAD_SYS_STATE:
	default:				return -EIO;
	}
}

/* Delivery status: the transport, not the command, failed. */
int mlx5x_cmd_delivery_to_errno(u8 delivery)
{
	switch (delivery) {
	case MLX5X_CMD_DELIV_OK:		return 0;
	case MLX5X_CMD_DELIV_SIGNATURE:
	case MLX5X_CMD_DELIV_TOKEN:
	case MLX5X_CMD_DELIV_BAD_BLOCK:	return -EBADR;
	case MLX5X_CMD_DELIV_OUT_PTR_ALIGN:
	case MLX5X_CMD_DELIV_IN_PTR_ALIGN: return -EFAULT;
	case MLX5X_CMD_DELIV_IN_LENGTH:
	case MLX5X_CMD_DELIV_OUT_LENGTH:	return -ENOMSG;
	default:				return -EIO;
	}
}

/*
 * Commands that must "succeed" once the device is gone so teardown can
 * release host resources: the device state they would destroy is lost
 * anyway.  MANAGE_PAGES TAKE returns no pages; the page layer then frees
 * its pages locally.
 */
bool mlx5x_cmd_local_ok(u16 opcode, u16 op_mod)
{
	switch (opcode) {
	case MLX5X_CMD_OP_TEARDOWN_HCA:
	case MLX5X_CMD_OP_DISABLE_HCA:
	case MLX5X_CMD_OP_DESTROY_EQ:
	case MLX5X_CMD_OP_DESTROY_CQ:
	case MLX5X_CMD_OP_DESTROY_QP:
	case MLX5X_CMD_OP_2RST_QP:
	case MLX5X_CMD_OP_2ERR_QP:
	case MLX5X_CMD_OP_DESTROY_MKEY:
	case MLX5X_CMD_OP_DESTROY_SRQ:
	case MLX5X_CMD_OP_DESTROY_XRC_SRQ:
	case MLX5X_CMD_OP_DESTROY_RMP:
	case MLX5X_CMD_OP_DEALLOC_PD:
	case MLX5X_CMD_OP_DEALLOC_UAR:
	case MLX5X_CMD_OP_DEALLOC_XRCD:
		return true;
	case MLX5X_CMD_OP_MANAGE_PAGES:
		return op_mod == MLX5X_PAGES_TAKE;
	default:
		return false;
	}
}

u8 mlx5x_cmd_next_token(u8 token)
{
	/* 0 is never used so a zeroed descriptor never matches. */
	return token == U8_MAX ? 1 : token + 1;
}

unsigned int mlx5x_cmd_nblocks(size_t len)
{
	if (len <= MLX5X_CMD_INLINE_LEN)
		return 0;
	return DIV_ROUND_UP(len - MLX5X_CMD_INLINE_LEN, MLX5X_MBOX_DATA_LEN);
}

/* Chain the mailboxes: next pointers, block numbers and the token. */
void mlx5x_cmd_msg_link(struct mlx5x_cmd_msg *msg, u8 token)
{
	unsigned int i;

	for (i = 0; i < msg->nblocks; i++) {
		struct mlx5x_cmd_block *blk = msg->mbox[i].blk;

		blk->next = i + 1 < msg->nblocks ?
			    cpu_to_be64(msg->mbox[i + 1].dma) : 0;
		blk->block_num = cpu_to_be32(i);
		blk->token = token;
	}
}

/* Spread an input box over the descriptor and the input chain. */
void mlx5x_cmd_msg_write(struct mlx5x_cmd_layout *lay,
			 struct mlx5x_cmd_msg *msg, const void *in,
			 size_t inlen)
{
	size_t n = min_t(size_t, inlen, MLX5X_CMD_INLINE_LEN);
	const u8 *src = in;
	unsigned int i;

	memcpy(lay->in, src, n);
	src += n;
	inlen -= n;
	for (i = 0; inlen && msg && i < msg->nblocks; i++) {
		n = min_t(size_t, inlen, MLX5X_MBOX_DATA_LEN);
		memcpy(msg->mbox[i].blk->data, src, n);
		src += n;
		inlen -= n;
	}
}

/* Gather an output box from the descriptor and the output chain. */
void mlx5x_cmd_msg_read(const struct mlx5x_cmd_layout *lay,
			const struct mlx5x_cmd_msg *msg, void *out,
			size_t outlen)
{
	size_t n = min_t(size_t, outlen, MLX5X_CMD_INLINE_LEN);
	u8 *dst = out;
	unsigned int i;

	memcpy(dst, lay->out, n);
	dst += n;
	outlen -= n;
	for (i = 0; outlen && msg && i < msg->nblocks; i++) {
		n = min_t(size_t, outlen, MLX5X_MBOX_DATA_LEN);
		memcpy(dst, msg->mbox[i].blk->data, n);
		dst += n;
		outlen -= n;
	}
	/* A chain shorter than outlen cannot happen; never leak stale data. */
	memset(dst, 0, outlen);
}

/* Everything of the descriptor except the input bytes and the owner bit. */
void mlx5x_cmd_layout_fill(struct mlx5x_cmd_layout *lay,
			   const struct mlx5x_cmd_msg *in, size_t inlen,
			   const struct mlx5x_cmd_msg *out, size_t outlen,
			   u8 token)
{
	memset(lay, 0, sizeof(*lay));
	lay->type = MLX5X_CMD_TYPE_PCI;
	lay->inlen = cpu_to_be32(inlen);
	lay->in_ptr = in ? cpu_to_be64(in->mbox[0].dma) : 0;
	lay->outlen = cpu_to_be32(outlen);
	lay->out_ptr = out ? cpu_to_be64(out->mbox[0].dma) : 0;
	lay->token = token;
}

static struct mlx5x_cmd_layout *cmd_layout(struct mlx5x_cmd *cmd, u8 slot)
{
	return cmd->queue + ((size_t)slot << cmd->log_stride);
}

/* The device gave the descriptor back: the only proof a command is done. */
static bool cmd_hw_done(struct mlx5x_cmd_layout *lay)
{
	return !(READ_ONCE(lay->status_own) & MLX5X_CMD_OWNER_MASK);
}

static void cmd_msg_free(struct mlx5x_cmd *cmd, struct mlx5x_cmd_msg *msg)
{
	unsigned int i;

	if (!msg)
		return;
	for (i = 0; i < msg->nblocks; i++)
		if (msg->mbox[i].blk)
			dma_pool_free(cmd->pool, msg->mbox[i].blk,
				      msg->mbox[i].dma);
	kfree(msg);
}

/* Returns NULL when @len fits inline, an ERR_PTR on allocation failure. */
static struct mlx5x_cmd_msg *cmd_msg_alloc(struct mlx5x_cmd *cmd, size_t len)
{
	unsigned int i, n = mlx5x_cmd_nblocks(len);
	struct mlx5x_cmd_msg *msg;

	if (!n)
		return NULL;
	msg = kzalloc(struct_size(msg, mbox, n), GFP_KERNEL);
	if (!msg)
		return ERR_PTR(-ENOMEM);
	msg->len = len;
	msg->nblocks = n;
	for (i = 0; i < n; i++) {
		msg->mbox[i].blk = dma_pool_zalloc(cmd->pool, GFP_KERNEL,
						   &msg->mbox[i].dma);
		if (!msg->mbox[i].blk) {
			cmd_msg_free(cmd, msg);
			return ERR_PTR(-ENOMEM);
		}
	}
	return msg;
}

static void cmd_ent_free(struct mlx5x_cmd *cmd, struct mlx5x_cmd_ent *ent)
{
	cmd_msg_free(cmd, ent->in);
	cmd_msg_free(cmd, ent->out);
	kfree(ent);
}

static struct mlx5x_cmd_ent *cmd_ent_alloc(struct mlx5x_cmd *cmd, u16 opcode,
					   size_t inlen, size_t outlen)
{
	struct mlx5x_cmd_ent *ent;

	ent = kzalloc(sizeof(*ent), GFP_KERNEL);
	if (!ent)
		return ERR_PTR(-ENOMEM);
	init_completion(&ent->done);
	ent->opcode = opcode;
	ent->in = cmd_msg_alloc(cmd, inlen);
	ent->out = cmd_msg_alloc(cmd, outlen);
	if (IS_ERR(ent->in) || IS_ERR(ent->out)) {
		if (IS_ERR(ent->in))
			ent->in = NULL;
		if (IS_ERR(ent->out))
			ent->out = NULL;
		cmd_ent_free(cmd, ent);
		return ERR_PTR(-ENOMEM);
	}
	return ent;
}

bool mlx5x_cmd_killed(struct mlx5x_cmd *cmd)
{
	return READ_ONCE(cmd->state) == MLX5X_CMD_KILLED;
}

/*
 * The result of a command the engine completes without the device.  A
 * "successful" destroy lets the caller free what the object used, so
 * wait until the device's DMA is stopped.
 */
static int cmd_local_result(struct mlx5x_cmd *cmd, u16 opcode, u16 op_mod,
			    void *out, size_t outlen)
{
	flush_work(&cmd->kill_work);
	memset(out, 0, outlen);
	return mlx5x_cmd_local_ok(opcode, op_mod) ? 0 : -ENODEV;
}

/*
 * Release quarantined slots the device has let go of since.  Only the
 * owner bit says so: an event alone may be stale.
 */
static void cmd_reap(struct mlx5x_cmd *cmd)
{
	struct mlx5x_cmd_ent *done[MLX5X_CMD_MAX_SLOTS];
	unsigned int i, n = 0;
	unsigned long flags;

	if (!READ_ONCE(cmd->quarantined))
		return;
	spin_lock_irqsave(&cmd->lock, flags);
	for (i = 0; i < cmd->max_reg; i++) {
		struct mlx5x_cmd_ent *ent = cmd->ent[i];

		if (!ent || !ent->quarantined)
			continue;
		if (!cmd_hw_done(cmd_layout(cmd, i)))
			continue;
		cmd->ent[i] = NULL;
		__set_bit(i, &cmd->free_slots);
		cmd->quarantined--;
		done[n++] = ent;
	}
	spin_unlock_irqrestore(&cmd->lock, flags);

	for (i = 0; i < n; i++) {
		dev_warn(cmd->dev,
			 "cmd %s(0x%x): completion arrived after timeout, slot %u reclaimed\n",
			 mlx5x_cmd_opcode_str(done[i]->opcode),
			 done[i]->opcode, done[i]->slot);
		atomic64_inc(&cmd->stats.late);
		cmd_ent_free(cmd, done[i]);
		up(&cmd->credits);
	}
}

static int cmd_get_slot(struct mlx5x_cmd *cmd, struct mlx5x_cmd_ent *ent)
{
	bool pages = ent->opcode == MLX5X_CMD_OP_MANAGE_PAGES;
	struct semaphore *sem = pages ? &cmd->pages_credit : &cmd->credits;
	unsigned long flags;

	if (down_timeout(sem, msecs_to_jiffies(cmd->timeout_ms))) {
		dev_err_ratelimited(cmd->dev,
				    "cmd %s(0x%x): no free command slot\n",
				    mlx5x_cmd_opcode_str(ent->opcode),
				    ent->opcode);
		return -EBUSY;
	}

	spin_lock_irqsave(&cmd->lock, flags);
	if (cmd->state == MLX5X_CMD_KILLED) {
		spin_unlock_irqrestore(&cmd->lock, flags);
		up(sem);
		return MLX5X_CMD_ERR_KILLED;
	}
	if (pages) {
		ent->slot = cmd->max_reg;
	} else {
		ent->slot = find_first_bit(&cmd->free_slots, cmd->max_reg);
		__clear_bit(ent->slot, &cmd->free_slots);
	}
	cmd->token = mlx5x_cmd_next_token(cmd->token);
	ent->token = cmd->token;
	cmd->ent[ent->slot] = ent;
	spin_unlock_irqrestore(&cmd->lock, flags);
	return 0;
}

static void cmd_put_slot(struct mlx5x_cmd *cmd, struct mlx5x_cmd_ent *ent)
{
	bool pages = ent->slot == cmd->max_reg;
	unsigned long flags;

	spin_lock_irqsave(&cmd->lock, flags);
	cmd->ent[ent->slot] = NULL;
	if (!pages)
		__set_bit(ent->slot, &cmd->free_slots);
	spin_unlock_irqrestore(&cmd->lock, flags);
	up(pages ? &cmd->pages_credit : &cmd->credits);
}

/*
 * Keep a timed-out command's slot and mailboxes: the device may still
 * complete it and write into them.  cmd_reap() or cleanup frees them.
 */
static void cmd_quarantine(struct mlx5x_cmd *cmd, struct mlx5x_cmd_ent *ent)
{
	bool pages = ent->slot == cmd->max_reg;
	bool all_lost = false;
	unsigned long flags;

	spin_lock_irqsave(&cmd->lock, flags);
	ent->quarantined = true;
	if (!pages) {
		cmd->quarantined++;
		all_lost = cmd->quarantined == cmd->max_reg;
	}
	spin_unlock_irqrestore(&cmd->lock, flags);

	if (pages) {
		/* The page slot is single: never leave it blocked. */
		dev_err(cmd->dev, "MANAGE_PAGES slot lost to a timeout\n");
		all_lost = true;
	}
	if (all_lost) {
		dev_err(cmd->dev,
			"no usable command slot left, command interface stopped\n");
		mlx5x_cmd_kill(cmd);
	}
}

static void cmd_post(struct mlx5x_cmd *cmd, struct mlx5x_cmd_layout *lay,
		     u8 slot)
{
	WRITE_ONCE(lay->status_own, MLX5X_CMD_OWNER_MASK);
	/*
	 * iowrite32be() orders the descriptor and mailbox stores above
	 * before the doorbell reaches the device.
	 */
	iowrite32be(BIT(slot), cmd->iseg + MLX5X_ISEG_CMD_DBELL_OFF);
	atomic64_inc(&cmd->stats.issued);
}

static int cmd_wait_polling(struct mlx5x_cmd *cmd, struct mlx5x_cmd_ent *ent,
			    struct mlx5x_cmd_layout *lay)
{
	unsigned long end = jiffies + msecs_to_jiffies(cmd->timeout_ms);
	unsigned int spins = 0;

	for (;;) {
		if (cmd_hw_done(lay))
			return 0;
		if (READ_ONCE(ent->killed))
			return MLX5X_CMD_ERR_KILLED;
		if (time_after(jiffies, end))
			break;
		/* Most commands finish in microseconds: spin a little first. */
		if (++spins < 64)
			cpu_relax();
		else
			usleep_range(20, 100);
	}
	return cmd_hw_done(lay) ? 0 : -ETIMEDOUT;
}

/*
 * Wait for the device to give the descriptor back.  An event wakes us,
 * but only the owner bit ends the wait: a stale event (one the handler
 * let through between the descriptor fill and the doorbell) sends us back
 * to sleep.  The completion is re-armed before the owner bit is read
 * again so a real event in between is not lost.
 */
static int cmd_wait_events(struct mlx5x_cmd *cmd, struct mlx5x_cmd_ent *ent,
			   struct mlx5x_cmd_layout *lay)
{
	unsigned long end = jiffies + msecs_to_jiffies(cmd->timeout_ms);
	long left;

	for (;;) {
		left = (long)(end - jiffies);
		if (left <= 0 || !wait_for_completion_timeout(&ent->done, left))
			break;
		if (READ_ONCE(ent->killed))
			return MLX5X_CMD_ERR_KILLED;
		if (cmd_hw_done(lay))
			return 0;
		reinit_completion(&ent->done);
		smp_mb(); /* re-arm before reading the owner bit and kill flag */
		if (READ_ONCE(ent->killed))
			return MLX5X_CMD_ERR_KILLED;
		if (cmd_hw_done(lay))
			return 0;
	}

	/* Last look: what the watchdog would find now. */
	mlx5x_cmd_watchdog_check(cmd, true);
	if (READ_ONCE(ent->killed))
		return MLX5X_CMD_ERR_KILLED;
	return cmd_hw_done(lay) ? 0 : -ETIMEDOUT;
}

/* Fetch the result: delivery status, then the output box. */
static int cmd_collect(struct mlx5x_cmd *cmd, struct mlx5x_cmd_ent *ent,
		       struct mlx5x_cmd_layout *lay, void *out, size_t outlen)
{
	u8 delivery;

	/* Read the descriptor and mailboxes only after the owner bit. */
	dma_rmb();
	delivery = FIELD_GET(MLX5X_CMD_DELIVERY_MASK, READ_ONCE(lay->status_own));
	if (delivery) {
		dev_err_ratelimited(cmd->dev,
				    "cmd %s(0x%x): delivery status 0x%x\n",
				    mlx5x_cmd_opcode_str(ent->opcode),
				    ent->opcode, delivery);
		return mlx5x_cmd_delivery_to_errno(delivery);
	}
	mlx5x_cmd_msg_read(lay, ent->out, out, outlen);
	return 0;
}

static int cmd_run(struct mlx5x_cmd *cmd, const void *in, size_t inlen,
		   void *out, size_t outlen)
{
	struct mlx5x_cmd_layout *lay;
	struct mlx5x_cmd_ent *ent;
	int err;

	cmd_reap(cmd);
	ent = cmd_ent_alloc(cmd, mlx5x_cmd_in_opcode(in), inlen, outlen);
	if (IS_ERR(ent))
		return PTR_ERR(ent);
	err = cmd_get_slot(cmd, ent);
	if (err) {
		cmd_ent_free(cmd, ent);
		return err;
	}

	lay = cmd_layout(cmd, ent->slot);
	mlx5x_cmd_layout_fill(lay, ent->in, inlen, ent->out, outlen,
			      ent->token);
	if (ent->in)
		mlx5x_cmd_msg_link(ent->in, ent->token);
	if (ent->out)
		mlx5x_cmd_msg_link(ent->out, ent->token);
	mlx5x_cmd_msg_write(lay, ent->in, in, inlen);
	cmd_post(cmd, lay, ent->slot);
	trace_mlx5x_cmd_issue(cmd->dev, ent->opcode, mlx5x_cmd_in_op_mod(in),
			      ent->slot);

	if (cmd->mode == MLX5X_CMD_MODE_EVENTS) {
		/* no-op while armed: one check covers every slot */
		queue_delayed_work(system_wq, &cmd->watchdog,
				   msecs_to_jiffies(cmd->watchdog_ms));
		err = cmd_wait_events(cmd, ent, lay);
	} else {
		err = cmd_wait_polling(cmd, ent, lay);
	}

	if (err == -ETIMEDOUT) {
		dev_err(cmd->dev,
			"cmd %s(0x%x) op_mod 0x%x: no completion after %u ms (%s mode), slot %u quarantined\n",
			mlx5x_cmd_opcode_str(ent->opcode), ent->opcode,
			mlx5x_cmd_in_op_mod(in), cmd->timeout_ms,
			cmd->mode == MLX5X_CMD_MODE_EVENTS ? "events" : "polling",
			ent->slot);
		atomic64_inc(&cmd->stats.timeouts);
		cmd_quarantine(cmd, ent);
		return err;
	}
	if (!err)
		err = cmd_collect(cmd, ent, lay, out, outlen);
	cmd_put_slot(cmd, ent);
	cmd_ent_free(cmd, ent);
	return err;
}

static int cmd_check_status(struct mlx5x_cmd *cmd, const void *in,
			    const void *out, unsigned int flags)
{
	u8 status = MLX5X_GET(out, MLX5X_CMD_OUT_STATUS);
	u16 opcode = mlx5x_cmd_in_opcode(in);

	if (status == MLX5X_CMD_STAT_OK)
		return 0;
	if (status == MLX5X_CMD_STAT_BAD_OP && (flags & MLX5X_CMD_F_QUIET_BAD_OP))
		flags |= MLX5X_CMD_F_QUIET;
	if (!(flags & MLX5X_CMD_F_QUIET))
		dev_err_ratelimited(cmd->dev,
				    "cmd %s(0x%x) op_mod 0x%x failed: status %s(0x%x), syndrome 0x%08x\n",
				    mlx5x_cmd_opcode_str(opcode), opcode,
				    mlx5x_cmd_in_op_mod(in),
				    mlx5x_cmd_status_str(status), status,
				    MLX5X_GET(out, MLX5X_CMD_OUT_SYNDROME));
	return mlx5x_cmd_status_to_errno(status);
}

/* @out: the device's answer, NULL when it gave none */
static void cmd_trace_done(struct mlx5x_cmd *cmd, const void *in,
			   const void *out, int err, ktime_t t0)
{
	trace_mlx5x_cmd_done(cmd->dev, mlx5x_cmd_in_opcode(in),
			     mlx5x_cmd_in_op_mod(in),
			     out ? MLX5X_GET(out, MLX5X_CMD_OUT_STATUS) : 0,
			     out ? MLX5X_GET(out, MLX5X_CMD_OUT_SYNDROME) : 0,
			     err, ktime_us_delta(ktime_get(), t0));
}

/**
 * mlx5x_cmd_exec_flags() - run one command and wait for it
 * @cmd: the engine
 * @in: input box, starting with the opcode header
 * @inlen: its length in bytes (at least 16)
 * @out: output box, receives status, syndrome and payload
 * @outlen: its length in bytes (at least 16)
 * @flags: MLX5X_CMD_F_*
 *
 * Sleeps.  Returns 0, the errno for a bad firmware status (the output
 * box then holds status and syndrome), or a transport error.  Once the
 * engine is killed nothing reaches the device: destroy-type commands
 * return 0 and everything else -ENODEV.
 */
int mlx5x_cmd_exec_flags(struct mlx5x_cmd *cmd, const void *in, size_t inlen,
			 void *out, size_t outlen, unsigned int flags)
{
	ktime_t t0 = ktime_get();
	u16 opcode, op_mod;
	bool answered;
	int err;

	might_sleep();
	if (WARN_ON(inlen < MLX5X_CMD_HDR_IN_LEN || outlen < MLX5X_CMD_HDR_IN_LEN))
		return -EINVAL;
	opcode = mlx5x_cmd_in_opcode(in);
	op_mod = mlx5x_cmd_in_op_mod(in);
	if (mlx5x_cmd_killed(cmd))
		return cmd_local_result(cmd, opcode, op_mod, out, outlen);

	down_read(&cmd->mode_sem);
	err = cmd_run(cmd, in, inlen, out, outlen);
	up_read(&cmd->mode_sem);

	if (err == MLX5X_CMD_ERR_KILLED)
		return cmd_local_result(cmd, opcode, op_mod, out, outlen);
	answered = !err;
	if (!err)
		err = cmd_check_status(cmd, in, out, flags);
	if (err)
		atomic64_inc(&cmd->stats.failed);
	if (trace_mlx5x_cmd_done_enabled())
		cmd_trace_done(cmd, in, answered ? out : NULL, err, t0);
	return err;
}

/**
 * mlx5x_cmd_comp_handler() - a CMD EQE arrived
 * @cmd: the engine
 * @vector: bit n set = slot n completed
 *
 * Called from the async EQ's interrupt handler.
 */
void mlx5x_cmd_comp_handler(struct mlx5x_cmd *cmd, u32 vector)
{
	unsigned long bits = vector;
	unsigned long flags;
	unsigned int i;

	bits &= GENMASK(cmd->max_reg, 0);
	if (bits != vector)
		dev_warn_ratelimited(cmd->dev,
				     "CMD event for slots 0x%x beyond the queue\n",
				     vector);

	spin_lock_irqsave(&cmd->lock, flags);
	for_each_set_bit(i, &bits, MLX5X_CMD_MAX_SLOTS) {
		struct mlx5x_cmd_ent *ent = cmd->ent[i];

		/*
		 * A late or repeated event of an earlier command on this
		 * slot, which the owner bit already completed: the slot is
		 * idle, or busy again with a descriptor the device owns, and
		 * waking that waiter would free mailboxes the device may
		 * still write.
		 */
		if (!ent || !cmd_hw_done(cmd_layout(cmd, i))) {
			atomic64_inc(&cmd->stats.stale);
			dev_dbg_ratelimited(cmd->dev,
					    "stale CMD event for slot %u (%s), ignored\n",
					    i, ent ? "owned by the device" : "idle");
			continue;
		}
		/* A quarantined entry is freed by cmd_reap() later. */
		complete(&ent->done);
	}
	spin_unlock_irqrestore(&cmd->lock, flags);
}

/*
 * Stop the function's DMA: bus mastering off, and a function level reset
 * where the function offers one (the device then also forgets its keys
 * and queues).  The state saved with bus mastering off is restored after
 * the reset so the BARs stay usable for the rest of the teardown.
 */
static void cmd_stop_dma_pci(struct mlx5x_cmd *cmd)
{
	struct pci_dev *pdev = to_pci_dev(cmd->dev);

	/* The platform already isolates a frozen link; a slot reset follows. */
	if (pci_channel_offline(pdev))
		return;
	pci_clear_master(pdev);
	if (pcie_reset_flr(pdev, PCI_RESET_PROBE))
		return;
	pci_save_state(pdev);
	if (pcie_reset_flr(pdev, PCI_RESET_DO_RESET))
		dev_warn(cmd->dev, "function level reset failed\n");
	pci_restore_state(pdev);
}

/* Process context: DMA first, then what is in flight completes locally. */
static void cmd_kill_work(struct work_struct *work)
{
	struct mlx5x_cmd *cmd = container_of(work, struct mlx5x_cmd,
					     kill_work);
	unsigned long flags;
	unsigned int i;

	if (cmd->stop_dma)
		cmd->stop_dma(cmd);
	spin_lock_irqsave(&cmd->lock, flags);
	for (i = 0; i <= cmd->max_reg; i++) {
		struct mlx5x_cmd_ent *ent = cmd->ent[i];

		if (!ent || ent->quarantined)
			continue;
		WRITE_ONCE(ent->killed, true);
		complete(&ent->done);
	}
	spin_unlock_irqrestore(&cmd->lock, flags);
	dev_err(cmd->dev, "command interface killed: DMA stopped, commands complete locally from now on\n");
}

/**
 * mlx5x_cmd_kill() - stop using the device for commands (fail-stop)
 * @cmd: the engine
 *
 * Called on a fatal health syndrome or event, or when no slot is left;
 * any context.  No command reaches the device from now on.  The device's
 * DMA is stopped in process context before commands in flight (and any
 * later one) complete locally: a destroy that "succeeds" lets its caller
 * free memory the device could otherwise still write.  Idempotent.
 */
void mlx5x_cmd_kill(struct mlx5x_cmd *cmd)
{
	unsigned long flags;

	spin_lock_irqsave(&cmd->lock, flags);
	if (cmd->state == MLX5X_CMD_KILLED) {
		spin_unlock_irqrestore(&cmd->lock, flags);
		return;
	}
	WRITE_ONCE(cmd->state, MLX5X_CMD_KILLED);
	/* Queued under the lock: whoever sees KILLED can flush it. */
	schedule_work(&cmd->kill_work);
	spin_unlock_irqrestore(&cmd->lock, flags);
}

/*
 * Slots with a waiter the device is done with but nobody woke.  With
 * @second_look, only those found so at the previous look too: the event
 * of a just finished command may simply be on its way.
 */
static unsigned long cmd_missed(struct mlx5x_cmd *cmd, bool second_look)
{
	unsigned long flags, missed = 0;
	unsigned int i;

	spin_lock_irqsave(&cmd->lock, flags);
	for (i = 0; i <= cmd->max_reg; i++) {
		struct mlx5x_cmd_ent *ent = cmd->ent[i];

		if (!ent || ent->quarantined || completion_done(&ent->done) ||
		    !cmd_hw_done(cmd_layout(cmd, i)))
			continue;
		if (second_look && !ent->wd_seen) {
			ent->wd_seen = true;
			continue;
		}
		__set_bit(i, &missed);
	}
	spin_unlock_irqrestore(&cmd->lock, flags);
	return missed;
}

/* Wake the waiters of @missed the EQ poll did not wake; count them. */
static unsigned int cmd_complete_missed(struct mlx5x_cmd *cmd,
					unsigned long missed)
{
	unsigned int i, n = 0;
	unsigned long flags;

	spin_lock_irqsave(&cmd->lock, flags);
	for_each_set_bit(i, &missed, MLX5X_CMD_MAX_SLOTS) {
		struct mlx5x_cmd_ent *ent = cmd->ent[i];

		if (!ent || completion_done(&ent->done))
			continue;
		complete(&ent->done);
		n++;
	}
	spin_unlock_irqrestore(&cmd->lock, flags);
	return n;
}

/**
 * mlx5x_cmd_watchdog_check() - find completions whose wake-up was lost
 * @cmd: the engine, in events mode, @mode_sem held for read
 * @now: act on what is missed now; else (the periodic watchdog) only on
 *	what was already missed at the previous check
 *
 * A descriptor the device gave back without its waiter being woken means
 * a lost interrupt (the EQE sits in the EQ: one serialized poll of the EQ
 * delivers it, and every other one waiting there) or a lost event (the
 * waiter is woken here).  Cheap when nothing was lost: owner bits only.
 */
void mlx5x_cmd_watchdog_check(struct mlx5x_cmd *cmd, bool now)
{
	unsigned long missed = cmd_missed(cmd, !now);
	unsigned int n_irq, n_ev;
	int eqes = 0;

	if (!missed)
		return;
	if (cmd->recover)
		eqes = cmd->recover(cmd->recover_ctx);
	n_ev = cmd_complete_missed(cmd, cmd_missed(cmd, false) & missed);
	n_irq = hweight_long(missed) - n_ev;
	atomic64_add(hweight_long(missed), &cmd->stats.recovered);
	dev_warn_ratelimited(cmd->dev,
			     "command watchdog: %u completions by a missed interrupt (%d EQEs polled), %u without an event\n",
			     n_irq, eqes, n_ev);
}

static bool cmd_busy(struct mlx5x_cmd *cmd)
{
	unsigned long flags;
	unsigned int i;
	bool busy = false;

	spin_lock_irqsave(&cmd->lock, flags);
	for (i = 0; i <= cmd->max_reg && !busy; i++)
		busy = cmd->ent[i] && !cmd->ent[i]->quarantined;
	spin_unlock_irqrestore(&cmd->lock, flags);
	return busy;
}

/* Re-armed while commands are outstanding; armed by each events command. */
static void cmd_watchdog_work(struct work_struct *work)
{
	struct mlx5x_cmd *cmd = container_of(to_delayed_work(work),
					     struct mlx5x_cmd, watchdog);

	/* A mode switch waits for commands: never block it, retry later. */
	if (down_read_trylock(&cmd->mode_sem)) {
		if (cmd->mode == MLX5X_CMD_MODE_EVENTS && !mlx5x_cmd_killed(cmd))
			mlx5x_cmd_watchdog_check(cmd, false);
		up_read(&cmd->mode_sem);
	}
	if (cmd_busy(cmd))
		queue_delayed_work(system_wq, &cmd->watchdog,
				   msecs_to_jiffies(cmd->watchdog_ms));
}

/**
 * mlx5x_cmd_use_events() - switch to CMD EQE completion
 * @cmd: the engine
 * @recover: polls the EQ carrying CMD events once, for missed interrupts
 * @ctx: its argument
 *
 * Call only after an armed EQ with the CMD event in its mask exists:
 * the device posts CMD EQEs only for commands rung after that.
 */
void mlx5x_cmd_use_events(struct mlx5x_cmd *cmd, int (*recover)(void *ctx),
			  void *ctx)
{
	down_write(&cmd->mode_sem);
	cmd->recover = recover;
	cmd->recover_ctx = ctx;
	cmd->mode = MLX5X_CMD_MODE_EVENTS;
	up_write(&cmd->mode_sem);
}

/* Back to polling, before the EQ carrying CMD events is destroyed. */
void mlx5x_cmd_use_polling(struct mlx5x_cmd *cmd)
{
	down_write(&cmd->mode_sem);
	cmd->mode = MLX5X_CMD_MODE_POLLING;
	cmd->recover = NULL;
	cmd->recover_ctx = NULL;
	up_write(&cmd->mode_sem);
}

/**
 * mlx5x_cmd_sw_init() - the engine's host-side state (no device, no DMA)
 * @cmd: zeroed engine
 * @log_sz: number of slots (log2)
 *
 * Polling mode, all regular slots free, not killed.
 */
void mlx5x_cmd_sw_init(struct mlx5x_cmd *cmd, u8 log_sz)
{
	cmd->log_sz = log_sz;
	cmd->max_reg = (1U << log_sz) - 1;
	cmd->free_slots = GENMASK(cmd->max_reg - 1, 0);
	cmd->timeout_ms = max(cmd_timeout_ms, 100U);
	cmd->watchdog_ms = max(cmd_watchdog_ms, 10U);
	cmd->mode = MLX5X_CMD_MODE_POLLING;
	cmd->state = MLX5X_CMD_ACTIVE;
	sema_init(&cmd->credits, cmd->max_reg);
	sema_init(&cmd->pages_credit, 1);
	init_rwsem(&cmd->mode_sem);
	spin_lock_init(&cmd->lock);
	INIT_DELAYED_WORK(&cmd->watchdog, cmd_watchdog_work);
	INIT_WORK(&cmd->kill_work, cmd_kill_work);
}

/**
 * mlx5x_cmd_init() - allocate the command queue and hand it to the device
 * @cmd: the engine to set up (zeroed by the caller)
 * @dev: the PCI device
 * @iseg: init segment mapping
 * @log_sz: number of slots (log2), checked by mlx5x_iseg_cmdq_geom()
 * @log_stride: descriptor stride (log2), checked likewise
 *
 * Starts in polling mode.
 */
int mlx5x_cmd_init(struct mlx5x_cmd *cmd, struct device *dev,
		   void __iomem *iseg, u8 log_sz, u8 log_stride)
{
	cmd->dev = dev;
	cmd->iseg = iseg;
	cmd->log_stride = log_stride;
	cmd->stop_dma = dev_is_pci(dev) ? cmd_stop_dma_pci : NULL;
	mlx5x_cmd_sw_init(cmd, log_sz);

	cmd->pool = dma_pool_create("mlx5x_cmd", dev, MLX5X_MBOX_ALIGN,
				    MLX5X_MBOX_ALIGN, 0);
	if (!cmd->pool)
		return -ENOMEM;
	/* One page, page aligned: the queue address register keeps 11:0. */
	cmd->queue = dma_alloc_coherent(dev, MLX5X_CMDQ_LEN,
					&cmd->queue_dma, GFP_KERNEL);
	if (!cmd->queue) {
		dma_pool_destroy(cmd->pool);
		return -ENOMEM;
	}

	mlx5x_iseg_wr(iseg, MLX5X_ISEG_CMDQ_ADDR_H_OFF,
		      cpu_to_be32(upper_32_bits(cmd->queue_dma)));
	mlx5x_iseg_wr(iseg, MLX5X_ISEG_CMDQ_ADDR_L_SZ_OFF,
		      cpu_to_be32(lower_32_bits(cmd->queue_dma)));
	return 0;
}

/**
 * mlx5x_cmd_cleanup() - free the queue; the device must no longer use it
 * @cmd: the engine
 *
 * Called after DISABLE_HCA (or with the device dead), when no command is
 * in flight; frees quarantined slots too.
 */
void mlx5x_cmd_cleanup(struct mlx5x_cmd *cmd)
{
	unsigned int i;

	cancel_delayed_work_sync(&cmd->watchdog);
	flush_work(&cmd->kill_work);

	for (i = 0; i <= cmd->max_reg; i++) {
		if (cmd->ent[i]) {
			cmd_ent_free(cmd, cmd->ent[i]);
			cmd->ent[i] = NULL;
		}
	}
	dma_free_coherent(cmd->dev, MLX5X_CMDQ_LEN, cmd->queue,
			  cmd->queue_dma);
	dma_pool_destroy(cmd->pool);
}
