/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The command engine: the only code that builds command descriptors and
 * mailbox chains.  Callers hand it a typed request (an input box built by
 * a wrapper in fw_cmds.c) and get the output box and an errno back.
 */
#ifndef MLX5X_CMD_H
#define MLX5X_CMD_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/semaphore.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "hw.h"

struct dma_pool;

/* How the engine learns that the device finished a descriptor. */
enum mlx5x_cmd_mode {
	MLX5X_CMD_MODE_POLLING,	/* spin on the owner bit (no EQ yet) */
	MLX5X_CMD_MODE_EVENTS,	/* wait for a CMD EQE on the async EQ */
};

/*
 * Fail-stop state.  Once KILLED the engine never touches the device
 * again: its DMA is stopped first (mlx5x_cmd_kill()), then commands
 * complete locally, creates fail with -ENODEV and destroys succeed, so
 * teardown after a device error can neither hang nor free memory the
 * device still writes.
 */
enum mlx5x_cmd_state {
	MLX5X_CMD_ACTIVE,	/* submitting commands to the device */
	MLX5X_CMD_KILLED,	/* not submitting, completed locally */
};

/* mlx5x_cmd_exec_flags() flags */
#define MLX5X_CMD_F_QUIET	BIT(0)	/* caller handles a bad status */
#define MLX5X_CMD_F_QUIET_BAD_OP BIT(1)	/* ... only "bad opcode", logs others */

/**
 * struct mlx5x_cmd_mbox - one DMA mailbox of a chain
 * @blk: CPU address
 * @dma: bus address
 */
struct mlx5x_cmd_mbox {
	struct mlx5x_cmd_block *blk;
	dma_addr_t dma;
};

/**
 * struct mlx5x_cmd_msg - the mailbox chain carrying bytes past the inline 16
 * @len: total message length in bytes (inline part included)
 * @nblocks: number of entries in @mbox
 * @mbox: the chain, in order
 */
struct mlx5x_cmd_msg {
	size_t len;
	unsigned int nblocks;
	struct mlx5x_cmd_mbox mbox[];
};

/**
 * struct mlx5x_cmd_ent - one command in flight on a slot
 * @done: completed by a CMD EQE or the watchdog once the device gave the
 *	descriptor back (owner bit clear), or by kill once DMA is stopped
 * @in: input chain, or NULL if the input fits inline
 * @out: output chain, or NULL if the output fits inline
 * @opcode: for messages
 * @slot: descriptor index
 * @token: value written into the descriptor and every mailbox
 * @quarantined: the caller gave up waiting; the device may still own the
 *	slot, so its mailboxes stay allocated until the device lets go
 * @killed: completed locally by mlx5x_cmd_kill()
 * @wd_seen: the watchdog found it done but not woken once already
 */
struct mlx5x_cmd_ent {
	struct completion done;
	struct mlx5x_cmd_msg *in;
	struct mlx5x_cmd_msg *out;
	u16 opcode;
	u8 slot;
	u8 token;
	bool quarantined;
	bool killed;
	bool wd_seen;
};

/**
 * struct mlx5x_cmd_stats - engine counters; atomic64 only (read locklessly)
 * @issued: descriptors handed to the device
 * @failed: commands that returned an error to their caller
 * @timeouts: commands that got no completion in time
 * @recovered: completions found by the missed-event watchdog
 * @late: completions that arrived after their command timed out
 * @stale: CMD events for an idle or device-owned slot (ignored)
 */
struct mlx5x_cmd_stats {
	atomic64_t issued;
	atomic64_t failed;
	atomic64_t timeouts;
	atomic64_t recovered;
	atomic64_t late;
	atomic64_t stale;
};

/**
 * struct mlx5x_cmd - command interface of one PCI function
 * @dev: for DMA and messages
 * @iseg: init segment (doorbell, queue address)
 * @queue: the descriptor page (CPU address)
 * @queue_dma: the descriptor page (bus address)
 * @log_sz: log2 of the number of slots
 * @log_stride: log2 of the descriptor stride
 * @max_reg: regular slots 0..max_reg-1; slot max_reg is MANAGE_PAGES only
 * @pool: mailbox allocator
 * @credits: one per free regular slot; down() before taking a slot
 * @pages_credit: the MANAGE_PAGES slot (binary)
 * @mode_sem: held for read by every command, for write to change @mode,
 *	so a mode switch never races an in-flight command
 * @mode: polling or events; written under @mode_sem for write
 * @lock: protects @free_slots, @ent, @token, @state, @quarantined
 * @free_slots: bit set = regular slot free
 * @ent: command occupying each slot, NULL if idle
 * @token: last token handed out
 * @state: ACTIVE or KILLED
 * @quarantined: number of regular slots lost to timeouts
 * @timeout_ms: per-command completion timeout
 * @watchdog_ms: period of @watchdog
 * @recover: polls the EQ carrying CMD events once (missed-interrupt
 *	check); returns the number of EQEs consumed.  Set with the events
 *	mode, called only under @mode_sem (read) so it never outlives the EQ.
 * @recover_ctx: argument for @recover
 * @watchdog: while commands are outstanding in events mode, looks for
 *	descriptors the device gave back without an event reaching us
 *	(found so at two looks in a row)
 * @stop_dma: stops the function's DMA; called once by @kill_work before
 *	anything in flight completes locally
 * @kill_work: stops DMA, then completes the commands in flight (killed)
 * @stats: counters
 */
struct mlx5x_cmd {
	struct device *dev;
	void __iomem *iseg;
	void *queue;
	dma_addr_t queue_dma;
	u8 log_sz;
	u8 log_stride;
	u8 max_reg;
	struct dma_pool *pool;
	struct semaphore credits;
	struct semaphore pages_credit;
	struct rw_semaphore mode_sem;
	enum mlx5x_cmd_mode mode;
	spinlock_t lock; /* slots, tokens, state; taken from hard IRQ */
	unsigned long free_slots;
	struct mlx5x_cmd_ent *ent[MLX5X_CMD_MAX_SLOTS];
	u8 token;
	enum mlx5x_cmd_state state;
	unsigned int quarantined;
	unsigned int timeout_ms;
	unsigned int watchdog_ms;
	int (*recover)(void *ctx);
	void *recover_ctx;
	struct delayed_work watchdog;
	void (*stop_dma)(struct mlx5x_cmd *cmd);
	struct work_struct kill_work;
	struct mlx5x_cmd_stats stats;
};

void mlx5x_cmd_sw_init(struct mlx5x_cmd *cmd, u8 log_sz);
int mlx5x_cmd_init(struct mlx5x_cmd *cmd, struct device *dev,
		   void __iomem *iseg, u8 log_sz, u8 log_stride);
void mlx5x_cmd_cleanup(struct mlx5x_cmd *cmd);

int mlx5x_cmd_exec_flags(struct mlx5x_cmd *cmd, const void *in, size_t inlen,
			 void *out, size_t outlen, unsigned int flags);

static inline int mlx5x_cmd_exec(struct mlx5x_cmd *cmd, const void *in,
				 size_t inlen, void *out, size_t outlen)
{
	return mlx5x_cmd_exec_flags(cmd, in, inlen, out, outlen, 0);
}

/* A command whose output is the status only (the 16-byte header). */
static inline int mlx5x_cmd_exec_in(struct mlx5x_cmd *cmd, const void *in,
				    size_t inlen)
{
	__be32 out[MLX5X_CMD_HDR_OUT_LEN / 4] = {};

	return mlx5x_cmd_exec(cmd, in, inlen, out, sizeof(out));
}

void mlx5x_cmd_use_events(struct mlx5x_cmd *cmd, int (*recover)(void *ctx),
			  void *ctx);
void mlx5x_cmd_use_polling(struct mlx5x_cmd *cmd);
void mlx5x_cmd_comp_handler(struct mlx5x_cmd *cmd, u32 vector);
void mlx5x_cmd_kill(struct mlx5x_cmd *cmd);
bool mlx5x_cmd_killed(struct mlx5x_cmd *cmd);
void mlx5x_cmd_watchdog_check(struct mlx5x_cmd *cmd, bool now);

/* Pure helpers, shared with the KUnit suites. */
const char *mlx5x_cmd_opcode_str(u16 opcode);
const char *mlx5x_cmd_status_str(u8 status);
int mlx5x_cmd_status_to_errno(u8 status);
int mlx5x_cmd_delivery_to_errno(u8 delivery);
unsigned int mlx5x_cmd_nblocks(size_t len);
void mlx5x_cmd_msg_link(struct mlx5x_cmd_msg *msg, u8 token);
void mlx5x_cmd_msg_write(struct mlx5x_cmd_layout *lay,
			 struct mlx5x_cmd_msg *msg, const void *in,
			 size_t inlen);
void mlx5x_cmd_msg_read(const struct mlx5x_cmd_layout *lay,
			const struct mlx5x_cmd_msg *msg, void *out,
			size_t outlen);
void mlx5x_cmd_layout_fill(struct mlx5x_cmd_layout *lay,
			   const struct mlx5x_cmd_msg *in, size_t inlen,
			   const struct mlx5x_cmd_msg *out, size_t outlen,
			   u8 token);
bool mlx5x_cmd_local_ok(u16 opcode, u16 op_mod);
u8 mlx5x_cmd_next_token(u8 token);

/* Fill the common input header every command box starts with. */
static inline void mlx5x_cmd_in_hdr(void *in, u16 opcode, u16 op_mod)
{
	MLX5X_SET(in, MLX5X_CMD_IN_OPCODE, opcode);
	MLX5X_SET(in, MLX5X_CMD_IN_OP_MOD, op_mod);
}

static inline u16 mlx5x_cmd_in_opcode(const void *in)
{
	return MLX5X_GET(in, MLX5X_CMD_IN_OPCODE);
}

static inline u16 mlx5x_cmd_in_op_mod(const void *in)
{
	return MLX5X_GET(in, MLX5X_CMD_IN_OP_MOD);
}

#endif /* MLX5X_CMD_H */
