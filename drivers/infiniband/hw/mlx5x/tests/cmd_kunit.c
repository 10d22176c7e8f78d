// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the command engine's pure parts (suite mlx5x_cmd):
 * descriptor and mailbox-chain encoding/decoding, status and delivery
 * errors, the fail-stop state, and the typed encoders of fw_cmds.c.
 * Mailboxes are plain kernel memory with made-up bus addresses.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../cmd.h"
#include "../fw_cmds.h"

#define FAKE_DMA(i)	(0x10000000ULL + (i) * MLX5X_MBOX_ALIGN)

static struct mlx5x_cmd_layout *fake_lay(struct mlx5x_cmd *cmd,
					 unsigned int slot)
{
	return cmd->queue + (slot << cmd->log_stride);
}

static struct mlx5x_cmd_msg *fake_msg(struct kunit *test, size_t len)
{
	unsigned int i, n = mlx5x_cmd_nblocks(len);
	struct mlx5x_cmd_msg *msg;

	msg = kunit_kzalloc(test, struct_size(msg, mbox, n), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	msg->len = len;
	msg->nblocks = n;
	for (i = 0; i < n; i++) {
		msg->mbox[i].blk = kunit_kzalloc(test, sizeof(*msg->mbox[i].blk),
						 GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, msg->mbox[i].blk);
		msg->mbox[i].dma = FAKE_DMA(i);
	}
	return msg;
}

static void status_to_errno(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_status_to_errno(MLX5X_CMD_STAT_OK), 0);
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_status_to_errno(MLX5X_CMD_STAT_BAD_OP),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_status_to_errno(MLX5X_CMD_STAT_BAD_PARAM),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_status_to_errno(MLX5X_CMD_STAT_RES_BUSY),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_status_to_errno(MLX5X_CMD_STAT_NOT_READY),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_status_to_errno(MLX5X_CMD_STAT_NO_RES),
			-ENOMEM);
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_status_to_errno(MLX5X_CMD_STAT_LIM),
			-ENOMEM);
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_status_to_errno(MLX5X_CMD_STAT_BAD_INP_LEN),
			-EMSGSIZE);
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_status_to_errno(MLX5X_CMD_STAT_INT_ERR),
			-EIO);
	/* Anything the table does not know is an I/O error, never success. */
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_status_to_errno(0x77), -EIO);
	KUNIT_EXPECT_STREQ(test, mlx5x_cmd_status_str(0x77), "unknown status");
}

static void delivery_to_errno(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_delivery_to_errno(MLX5X_CMD_DELIV_OK), 0);
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_delivery_to_errno(MLX5X_CMD_DELIV_TOKEN),
			-EBADR);
	KUNIT_EXPECT_EQ(test,
			mlx5x_cmd_delivery_to_errno(MLX5X_CMD_DELIV_IN_PTR_ALIGN),
			-EFAULT);
	KUNIT_EXPECT_EQ(test,
			mlx5x_cmd_delivery_to_errno(MLX5X_CMD_DELIV_OUT_LENGTH),
			-ENOMSG);
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_delivery_to_errno(MLX5X_CMD_DELIV_BAD_DESC),
			-EIO);
}

static void opcode_names(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, mlx5x_cmd_opcode_str(MLX5X_CMD_OP_INIT_HCA),
			   "INIT_HCA");
	KUNIT_EXPECT_STREQ(test, mlx5x_cmd_opcode_str(MLX5X_CMD_OP_MANAGE_PAGES),
			   "MANAGE_PAGES");
	KUNIT_EXPECT_STREQ(test, mlx5x_cmd_opcode_str(MLX5X_CMD_OP_CREATE_RMP),
			   "CREATE_RMP");
	KUNIT_EXPECT_STREQ(test, mlx5x_cmd_opcode_str(0xfff), "UNKNOWN");
}

static void nblocks(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_nblocks(0), 0);
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_nblocks(16), 0);
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_nblocks(17), 1);
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_nblocks(16 + 512), 1);
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_nblocks(16 + 513), 2);
	/* QUERY_HCA_CAP output: 16 inline + 0x1000 in 8 blocks. */
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_nblocks(MLX5X_QUERY_HCA_CAP_OUT_LEN), 8);
}

static void token_never_zero(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_next_token(0), 1);
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_next_token(41), 42);
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_next_token(255), 1);
}

static void chain_link(struct kunit *test)
{
	struct mlx5x_cmd_msg *msg = fake_msg(test, 16 + 3 * 512);
	unsigned int i;

	KUNIT_ASSERT_EQ(test, msg->nblocks, 3);
	mlx5x_cmd_msg_link(msg, 0x5a);
	for (i = 0; i < 3; i++) {
		struct mlx5x_cmd_block *blk = msg->mbox[i].blk;
		u64 next = be64_to_cpu(blk->next);

		KUNIT_EXPECT_EQ(test, be32_to_cpu(blk->block_num), i);
		KUNIT_EXPECT_EQ(test, blk->token, 0x5a);
		KUNIT_EXPECT_EQ(test, next, i < 2 ? FAKE_DMA(i + 1) : 0);
	}
}

static void input_spread_over_chain(struct kunit *test)
{
	size_t len = 1000, i;
	struct mlx5x_cmd_layout lay = {};
	struct mlx5x_cmd_msg *msg = fake_msg(test, len);
	u8 *in = kunit_kzalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, in);
	for (i = 0; i < len; i++)
		in[i] = i * 7 + 1;
	mlx5x_cmd_layout_fill(&lay, msg, len, NULL, 16, 9);
	mlx5x_cmd_msg_write(&lay, msg, in, len);

	KUNIT_EXPECT_EQ(test, lay.type, MLX5X_CMD_TYPE_PCI);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(lay.inlen), len);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(lay.outlen), 16);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(lay.in_ptr), FAKE_DMA(0));
	KUNIT_EXPECT_EQ(test, be64_to_cpu(lay.out_ptr), 0);
	KUNIT_EXPECT_EQ(test, lay.token, 9);
	KUNIT_EXPECT_EQ(test, lay.status_own, 0);
	KUNIT_EXPECT_EQ(test, memcmp(lay.in, in, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(msg->mbox[0].blk->data, in + 16, 512), 0);
	KUNIT_EXPECT_EQ(test, memcmp(msg->mbox[1].blk->data, in + 528, 472), 0);
	/* Nothing is written past the input. */
	KUNIT_EXPECT_EQ(test, msg->mbox[1].blk->data[472], 0);
}

static void output_gathered_from_chain(struct kunit *test)
{
	size_t len = MLX5X_QUERY_HCA_CAP_OUT_LEN, i;
	struct mlx5x_cmd_msg *msg = fake_msg(test, len);
	struct mlx5x_cmd_layout lay = {};
	u8 *out = kunit_kzalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, out);
	/* What the device writes: inline bytes then each block's data. */
	for (i = 0; i < 16; i++)
		lay.out[i] = 0xa0 + i;
	for (i = 0; i < msg->nblocks; i++)
		memset(msg->mbox[i].blk->data, i + 1, 512);
	mlx5x_cmd_msg_read(&lay, msg, out, len);

	KUNIT_EXPECT_EQ(test, out[0], 0xa0);
	KUNIT_EXPECT_EQ(test, out[15], 0xaf);
	KUNIT_EXPECT_EQ(test, out[16], 1);
	KUNIT_EXPECT_EQ(test, out[16 + 511], 1);
	KUNIT_EXPECT_EQ(test, out[16 + 512], 2);
	KUNIT_EXPECT_EQ(test, out[len - 1], 8);
}

static void output_short_chain_zero_filled(struct kunit *test)
{
	struct mlx5x_cmd_msg *msg = fake_msg(test, 100);
	struct mlx5x_cmd_layout lay = {};
	u8 out[700];

	memset(out, 0xee, sizeof(out));
	memset(msg->mbox[0].blk->data, 0x11, 512);
	mlx5x_cmd_msg_read(&lay, msg, out, sizeof(out));
	KUNIT_EXPECT_EQ(test, out[16 + 511], 0x11);
	/* Past the chain: zeroes, never stale buffer contents. */
	KUNIT_EXPECT_EQ(test, out[16 + 512], 0);
	KUNIT_EXPECT_EQ(test, out[sizeof(out) - 1], 0);
}

static void header_fields(struct kunit *test)
{
	__be32 in[4] = {};
	u8 *b = (u8 *)in;

	MLX5X_SET(in, MLX5X_CMD_IN_OPCODE, MLX5X_CMD_OP_MANAGE_PAGES);
	MLX5X_SET(in, MLX5X_CMD_IN_OP_MOD, MLX5X_PAGES_TAKE);
	/* Big-endian on the wire whatever the host. */
	KUNIT_EXPECT_EQ(test, b[0], 0x01);
	KUNIT_EXPECT_EQ(test, b[1], 0x08);
	KUNIT_EXPECT_EQ(test, b[7], MLX5X_PAGES_TAKE);
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_in_opcode(in), MLX5X_CMD_OP_MANAGE_PAGES);
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_in_op_mod(in), MLX5X_PAGES_TAKE);
}

static void local_results(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, mlx5x_cmd_local_ok(MLX5X_CMD_OP_DESTROY_CQ, 0));
	KUNIT_EXPECT_TRUE(test, mlx5x_cmd_local_ok(MLX5X_CMD_OP_TEARDOWN_HCA, 0));
	KUNIT_EXPECT_TRUE(test, mlx5x_cmd_local_ok(MLX5X_CMD_OP_DEALLOC_UAR, 0));
	/* every SRQ form goes away with a dead device */
	KUNIT_EXPECT_TRUE(test, mlx5x_cmd_local_ok(MLX5X_CMD_OP_DESTROY_RMP, 0));
	KUNIT_EXPECT_TRUE(test,
			  mlx5x_cmd_local_ok(MLX5X_CMD_OP_DESTROY_XRC_SRQ, 0));
	KUNIT_EXPECT_TRUE(test, mlx5x_cmd_local_ok(MLX5X_CMD_OP_MANAGE_PAGES,
						   MLX5X_PAGES_TAKE));
	KUNIT_EXPECT_FALSE(test, mlx5x_cmd_local_ok(MLX5X_CMD_OP_MANAGE_PAGES,
						    MLX5X_PAGES_GIVE));
	KUNIT_EXPECT_FALSE(test, mlx5x_cmd_local_ok(MLX5X_CMD_OP_CREATE_CQ, 0));
	KUNIT_EXPECT_FALSE(test, mlx5x_cmd_local_ok(MLX5X_CMD_OP_INIT_HCA, 0));
}

/*
 * An engine with slots and a descriptor page but no device: enough for
 * events, the watchdog and kill.  Every slot starts device-owned.
 */
static struct mlx5x_cmd *fake_engine(struct kunit *test)
{
	struct mlx5x_cmd *cmd = kunit_kzalloc(test, sizeof(*cmd), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, cmd);
	mlx5x_cmd_sw_init(cmd, 2);
	cmd->log_stride = 6;
	cmd->queue = kunit_kzalloc(test, MLX5X_CMDQ_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cmd->queue);
	for (i = 0; i <= cmd->max_reg; i++)
		fake_lay(cmd, i)->status_own = MLX5X_CMD_OWNER_MASK;
	return cmd;
}

/* The device is done with slot @i: owner bit back to software. */
static void fake_hw_done(struct mlx5x_cmd *cmd, unsigned int i)
{
	fake_lay(cmd, i)->status_own = 0;
}

static void event_completes_only_its_slot(struct kunit *test)
{
	struct mlx5x_cmd *cmd = fake_engine(test);
	struct mlx5x_cmd_ent a = {}, b = {};

	init_completion(&a.done);
	init_completion(&b.done);
	cmd->ent[0] = &a;
	cmd->ent[2] = &b;
	fake_hw_done(cmd, 0);
	fake_hw_done(cmd, 2);
	mlx5x_cmd_comp_handler(cmd, BIT(2));
	KUNIT_EXPECT_FALSE(test, completion_done(&a.done));
	KUNIT_EXPECT_TRUE(test, completion_done(&b.done));
	/* Idle or out-of-range slots are counted, not dereferenced. */
	mlx5x_cmd_comp_handler(cmd, BIT(1) | BIT(30));
	KUNIT_EXPECT_FALSE(test, completion_done(&a.done));
	KUNIT_EXPECT_EQ(test, atomic64_read(&cmd->stats.stale), 1);
}

/*
 * A late or repeated event for a slot the device owns again (a new
 * command on it) must not wake that command: its mailboxes would go back
 * to the pool while the device may still write them.
 */
static void stale_event_ignored_while_device_owns_slot(struct kunit *test)
{
	struct mlx5x_cmd *cmd = fake_engine(test);
	struct mlx5x_cmd_ent a = {};

	init_completion(&a.done);
	cmd->ent[0] = &a;
	mlx5x_cmd_comp_handler(cmd, BIT(0));
	KUNIT_EXPECT_FALSE(test, completion_done(&a.done));
	KUNIT_EXPECT_EQ(test, atomic64_read(&cmd->stats.stale), 1);
	/* Coalesced: one event for several slots, one of them not done. */
	fake_hw_done(cmd, 1);
	cmd->ent[1] = kunit_kzalloc(test, sizeof(a), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cmd->ent[1]);
	init_completion(&cmd->ent[1]->done);
	mlx5x_cmd_comp_handler(cmd, BIT(0) | BIT(1));
	KUNIT_EXPECT_FALSE(test, completion_done(&a.done));
	KUNIT_EXPECT_TRUE(test, completion_done(&cmd->ent[1]->done));
	/* The device's own completion, then the event: now it counts. */
	fake_hw_done(cmd, 0);
	mlx5x_cmd_comp_handler(cmd, BIT(0));
	KUNIT_EXPECT_TRUE(test, completion_done(&a.done));
}

struct fake_eq {
	struct mlx5x_cmd *cmd;
	u32 pending;		/* CMD EQEs sitting in the EQ, unsignalled */
	unsigned int polls;
};

static int fake_recover(void *ctx)
{
	struct fake_eq *eq = ctx;

	eq->polls++;
	if (eq->pending)
		mlx5x_cmd_comp_handler(eq->cmd, eq->pending);
	eq->pending = 0;
	return 1;
}

/*
 * The async interrupt was lost with two commands done: the periodic
 * watchdog leaves them one period (their event may be on its way), then
 * polls the EQ once and wakes both; a command the device still owns is
 * left waiting.  A check with nothing lost does not poll.
 */
static void watchdog_recovers_lost_interrupt_once(struct kunit *test)
{
	struct mlx5x_cmd *cmd = fake_engine(test);
	struct mlx5x_cmd_ent a = {}, b = {}, c = {};
	struct fake_eq eq = { .cmd = cmd };

	init_completion(&a.done);
	init_completion(&b.done);
	init_completion(&c.done);
	cmd->ent[0] = &a;
	cmd->ent[1] = &b;
	cmd->ent[2] = &c;
	cmd->recover = fake_recover;
	cmd->recover_ctx = &eq;

	mlx5x_cmd_watchdog_check(cmd, false);
	KUNIT_EXPECT_EQ(test, eq.polls, 0);

	fake_hw_done(cmd, 0);
	fake_hw_done(cmd, 1);
	eq.pending = BIT(0) | BIT(1);
	mlx5x_cmd_watchdog_check(cmd, false);
	KUNIT_EXPECT_EQ(test, eq.polls, 0);
	KUNIT_EXPECT_FALSE(test, completion_done(&a.done));
	mlx5x_cmd_watchdog_check(cmd, false);
	KUNIT_EXPECT_EQ(test, eq.polls, 1);
	KUNIT_EXPECT_TRUE(test, completion_done(&a.done));
	KUNIT_EXPECT_TRUE(test, completion_done(&b.done));
	KUNIT_EXPECT_FALSE(test, completion_done(&c.done));
	KUNIT_EXPECT_EQ(test, atomic64_read(&cmd->stats.recovered), 2);

	/* Lost event (no EQE at all), at a command's timeout: at once. */
	fake_hw_done(cmd, 2);
	mlx5x_cmd_watchdog_check(cmd, true);
	KUNIT_EXPECT_EQ(test, eq.polls, 2);
	KUNIT_EXPECT_TRUE(test, completion_done(&c.done));
}

struct fake_stop {
	struct mlx5x_cmd_ent *ent;
	unsigned int calls;
	bool completed_before;
};

static struct fake_stop fake_stop;

static void fake_stop_dma(struct mlx5x_cmd *cmd)
{
	fake_stop.calls++;
	fake_stop.completed_before |= completion_done(&fake_stop.ent->done);
}

static void kill_completes_pending_and_fails_stop(struct kunit *test)
{
	struct mlx5x_cmd *cmd = fake_engine(test);
	struct mlx5x_cmd_ent a = {}, q = {};
	__be32 in[4] = {}, out[4];

	init_completion(&a.done);
	init_completion(&q.done);
	q.quarantined = true;
	cmd->ent[0] = &a;
	cmd->ent[1] = &q;
	fake_stop = (struct fake_stop){ .ent = &a };
	cmd->stop_dma = fake_stop_dma;
	mlx5x_cmd_kill(cmd);
	mlx5x_cmd_kill(cmd);
	KUNIT_EXPECT_TRUE(test, mlx5x_cmd_killed(cmd));
	flush_work(&cmd->kill_work);
	/* DMA stopped once, before anything completed locally. */
	KUNIT_EXPECT_EQ(test, fake_stop.calls, 1);
	KUNIT_EXPECT_FALSE(test, fake_stop.completed_before);
	KUNIT_EXPECT_TRUE(test, a.killed);
	KUNIT_EXPECT_TRUE(test, completion_done(&a.done));
	/* A quarantined slot still belongs to the device: left alone. */
	KUNIT_EXPECT_FALSE(test, q.killed);

	/* Destroys succeed locally with a zeroed output... */
	memset(out, 0xff, sizeof(out));
	MLX5X_SET(in, MLX5X_CMD_IN_OPCODE, MLX5X_CMD_OP_DESTROY_EQ);
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_exec(cmd, in, sizeof(in), out,
					     sizeof(out)), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(out, MLX5X_CMD_OUT_STATUS), 0);
	/* ...creates fail, and nothing touched the (absent) device. */
	MLX5X_SET(in, MLX5X_CMD_IN_OPCODE, MLX5X_CMD_OP_CREATE_EQ);
	KUNIT_EXPECT_EQ(test, mlx5x_cmd_exec(cmd, in, sizeof(in), out,
					     sizeof(out)), -ENODEV);
}

/*
 * Concurrent callers: a fake device that answers nothing until it holds
 * every command at once (each regular slot and the MANAGE_PAGES slot),
 * so an engine that issued them one at a time could only fail here.
 * The device echoes each caller's tag (input bytes 8..11) into its
 * output, which tells that every caller got its own slot's answer.
 */
#define CONC_CALLERS	4	/* log_sz 2: three regular slots + pages */

struct conc_dev {
	struct mlx5x_cmd *cmd;
	unsigned int max_owned;
	unsigned int answered;
};

struct conc_caller {
	struct mlx5x_cmd *cmd;
	struct completion done;
	u16 opcode;
	u32 tag;
	u32 echo;
	int err;
};

static unsigned long conc_owned(struct mlx5x_cmd *cmd)
{
	unsigned long owned = 0;
	unsigned int i;

	for (i = 0; i <= cmd->max_reg; i++)
		if (READ_ONCE(fake_lay(cmd, i)->status_own) & MLX5X_CMD_OWNER_MASK)
			__set_bit(i, &owned);
	return owned;
}

/* Answer what the device owns: status OK, the tag echoed, owner back. */
static void conc_answer(struct conc_dev *d, unsigned long owned)
{
	unsigned int i;

	for_each_set_bit(i, &owned, MLX5X_CMD_MAX_SLOTS) {
		struct mlx5x_cmd_layout *lay = fake_lay(d->cmd, i);

		memset(lay->out, 0, sizeof(lay->out));
		memcpy(lay->out + 8, lay->in + 8, 4);
		smp_wmb(); /* output before the owner bit, as DMA orders it */
		WRITE_ONCE(lay->status_own, 0);
		d->answered++;
	}
}

/*
 * Waits (bounded, so a serializing engine fails instead of hanging) for
 * all commands at once, then answers everything until all are done.
 */
static int conc_dev_thread(void *arg)
{
	struct conc_dev *d = arg;
	unsigned long end = jiffies + 10 * HZ, owned;

	while (d->answered < CONC_CALLERS && time_before(jiffies, end)) {
		owned = conc_owned(d->cmd);
		d->max_owned = max_t(unsigned int, d->max_owned,
				     hweight_long(owned));
		if (d->max_owned == CONC_CALLERS ||
		    time_after(jiffies, end - 5 * HZ))
			conc_answer(d, owned);
		usleep_range(100, 200);
	}
	while (!kthread_should_stop())
		usleep_range(1000, 2000);
	return 0;
}

static int conc_caller_thread(void *arg)
{
	struct conc_caller *c = arg;
	__be32 in[4] = {}, out[4] = {};

	MLX5X_SET(in, MLX5X_CMD_IN_OPCODE, c->opcode);
	in[2] = cpu_to_be32(c->tag);
	c->err = mlx5x_cmd_exec(c->cmd, in, sizeof(in), out, sizeof(out));
	c->echo = be32_to_cpu(out[2]);
	complete(&c->done);
	return 0;
}

static void concurrent_callers_use_every_slot(struct kunit *test)
{
	struct mlx5x_cmd *cmd = fake_engine(test);
	struct conc_caller c[CONC_CALLERS] = {};
	struct conc_dev d = { .cmd = cmd };
	struct task_struct *dev;
	unsigned int i;

	/* every slot software-owned; doorbells land in a plain page */
	for (i = 0; i <= cmd->max_reg; i++)
		fake_hw_done(cmd, i);
	cmd->iseg = (void __iomem __force *)kunit_kzalloc(test, PAGE_SIZE,
							  GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, (void __force *)cmd->iseg);
	dev = kthread_run(conc_dev_thread, &d, "mlx5x-fake-dev");
	KUNIT_ASSERT_FALSE(test, IS_ERR(dev));
	for (i = 0; i < CONC_CALLERS; i++) {
		c[i].cmd = cmd;
		c[i].tag = 0x5a5a0000 + i;
		c[i].opcode = i ? MLX5X_CMD_OP_QUERY_ADAPTER :
				  MLX5X_CMD_OP_MANAGE_PAGES;
		init_completion(&c[i].done);
		kthread_run(conc_caller_thread, &c[i], "mlx5x-caller%u", i);
	}
	for (i = 0; i < CONC_CALLERS; i++) {
		wait_for_completion(&c[i].done);
		KUNIT_EXPECT_EQ(test, c[i].err, 0);
		KUNIT_EXPECT_EQ(test, c[i].echo, c[i].tag);
	}
	kthread_stop(dev);
	KUNIT_EXPECT_EQ(test, d.max_owned, CONC_CALLERS);
	KUNIT_EXPECT_EQ(test, cmd->free_slots, GENMASK(cmd->max_reg - 1, 0));
	KUNIT_EXPECT_EQ(test, atomic64_read(&cmd->stats.issued), CONC_CALLERS);
}

static void caps_decode_and_prepare(struct kunit *test)
{
	u8 *cur = kunit_kzalloc(test, MLX5X_HCA_CAP_LEN, GFP_KERNEL);
	u8 *max = kunit_kzalloc(test, MLX5X_HCA_CAP_LEN, GFP_KERNEL);
	struct mlx5x_caps caps;

	KUNIT_ASSERT_NOT_NULL(test, cur);
	KUNIT_ASSERT_NOT_NULL(test, max);
	MLX5X_SET(cur, MLX5X_CAP_LOG_MAX_EQ, 5);
	MLX5X_SET(cur, MLX5X_CAP_NUM_PORTS, 1);
	MLX5X_SET(cur, MLX5X_CAP_PORT_TYPE, MLX5X_CAP_PORT_TYPE_IB);
	MLX5X_SET(cur, MLX5X_CAP_LOG_MAX_EQ_SZ, 13);
	MLX5X_SET(cur, MLX5X_CAP_CMDIF_CHECKSUM, 3);
	MLX5X_SET(cur, MLX5X_CAP_PKEY_TABLE_SIZE, 4);
	MLX5X_SET(max, MLX5X_CAP_LOG_MAX_QP, 24);

	mlx5x_caps_decode(cur, &caps);
	KUNIT_EXPECT_EQ(test, caps.num_ports, 1);
	KUNIT_EXPECT_EQ(test, caps.log_max_eq_sz, 13);
	KUNIT_EXPECT_EQ(test, mlx5x_caps_max_eqs(&caps), 32);
	caps.max_num_eqs = 7;
	KUNIT_EXPECT_EQ(test, mlx5x_caps_max_eqs(&caps), 7);

	mlx5x_caps_prepare_set(cur, max);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(cur, MLX5X_CAP_CMDIF_CHECKSUM), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(cur, MLX5X_CAP_PKEY_TABLE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(cur, MLX5X_CAP_LOG_UAR_PAGE_SZ),
			PAGE_SHIFT - 12);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(cur, MLX5X_CAP_LOG_MAX_QP), 18);
	/* Fields the driver does not own are left as the device set them. */
	KUNIT_EXPECT_EQ(test, MLX5X_GET(cur, MLX5X_CAP_LOG_MAX_EQ_SZ), 13);
}

/* SET_HCA_CAP(ATOMIC) as mlx5_core sends it, only when offered. */
static void caps_atomic_set(struct kunit *test)
{
	u8 *cur = kunit_kzalloc(test, MLX5X_HCA_CAP_LEN, GFP_KERNEL);
	u8 *set = kunit_kzalloc(test, MLX5X_HCA_CAP_LEN, GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, cur);
	KUNIT_ASSERT_NOT_NULL(test, set);
	MLX5X_SET(cur, MLX5X_ATOMIC_CAP_OPERATIONS,
		  MLX5X_ATOMIC_OPS_CMP_SWAP | MLX5X_ATOMIC_OPS_FETCH_ADD);
	MLX5X_SET(cur, MLX5X_ATOMIC_CAP_SIZE_QP, MLX5X_ATOMIC_SIZE_8B);
	/* host byte order not offered: nothing to send */
	KUNIT_EXPECT_FALSE(test, mlx5x_caps_atomic_prepare_set(cur, set));
	KUNIT_EXPECT_EQ(test, MLX5X_GET(set, MLX5X_ATOMIC_CAP_REQ_8B_ENDIANNESS),
			0);
	/* offered (booting in mode 0): all zeros but requester mode 1 */
	MLX5X_SET(cur, MLX5X_ATOMIC_CAP_SUPP_8B_ENDIANNESS_1, 1);
	KUNIT_EXPECT_TRUE(test, mlx5x_caps_atomic_prepare_set(cur, set));
	KUNIT_EXPECT_EQ(test, MLX5X_GET(set, MLX5X_ATOMIC_CAP_REQ_8B_ENDIANNESS),
			MLX5X_ATOMIC_REQ_MODE_HOST);
	MLX5X_SET(set, MLX5X_ATOMIC_CAP_REQ_8B_ENDIANNESS, 0);
	for (i = 0; i < MLX5X_HCA_CAP_LEN; i++)
		KUNIT_EXPECT_EQ(test, set[i], 0);
}

static void create_eq_encoding(struct kunit *test)
{
	struct mlx5x_eq_params p = {
		.log_nent = 9,		/* 512 x 64 B = 8 pages */
		.uar = 0x123,
		.intr = 2,
		.event_mask = BIT_ULL(MLX5X_EVENT_CMD),
		.buf_dma = 0x7654000,
	};
	size_t inlen = mlx5x_fw_create_eq_inlen(p.log_nent);
	u8 *in, *eqc;
	__be64 *pas;

	KUNIT_EXPECT_EQ(test, inlen, MLX5X_CREATE_EQ_IN_LEN + 8 * 8);
	in = kunit_kzalloc(test, inlen, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, in);
	mlx5x_fw_create_eq_encode(in, &p);
	eqc = in + MLX5X_CREATE_EQ_IN_EQC_OFF;
	pas = (__be64 *)(in + MLX5X_CREATE_EQ_IN_PAS_OFF);

	KUNIT_EXPECT_EQ(test, mlx5x_cmd_in_opcode(in), MLX5X_CMD_OP_CREATE_EQ);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(eqc, MLX5X_EQC_LOG_EQ_SIZE), 9);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(eqc, MLX5X_EQC_UAR_PAGE), 0x123);
	KUNIT_EXPECT_EQ(test, MLX5X_GET(eqc, MLX5X_EQC_INTR), 2);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(pas[0]), 0x7654000);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(pas[7]), 0x7654000 + 7 * 4096);
	/* Event types 0..63 live in the first of the four mask words. */
	KUNIT_EXPECT_EQ(test, in[MLX5X_CREATE_EQ_IN_EVENT_BITMASK_OFF + 6],
			BIT(MLX5X_EVENT_CMD - 8));
	KUNIT_EXPECT_EQ(test, in[MLX5X_CREATE_EQ_IN_EVENT_BITMASK_OFF + 24 + 6],
			0);
}

static struct kunit_case mlx5x_cmd_cases[] = {
	KUNIT_CASE(status_to_errno),
	KUNIT_CASE(delivery_to_errno),
	KUNIT_CASE(opcode_names),
	KUNIT_CASE(nblocks),
	KUNIT_CASE(token_never_zero),
	KUNIT_CASE(chain_link),
	KUNIT_CASE(input_spread_over_chain),
	KUNIT_CASE(output_gathered_from_chain),
	KUNIT_CASE(output_short_chain_zero_filled),
	KUNIT_CASE(header_fields),
	KUNIT_CASE(local_results),
	KUNIT_CASE(event_completes_only_its_slot),
	KUNIT_CASE(stale_event_ignored_while_device_owns_slot),
	KUNIT_CASE(watchdog_recovers_lost_interrupt_once),
	KUNIT_CASE(kill_completes_pending_and_fails_stop),
	KUNIT_CASE(concurrent_callers_use_every_slot),
	KUNIT_CASE(caps_decode_and_prepare),
	KUNIT_CASE(caps_atomic_set),
	KUNIT_CASE(create_eq_encoding),
	{}
};

static struct kunit_suite mlx5x_cmd_suite = {
	.name = "mlx5x_cmd",
	.test_cases = mlx5x_cmd_cases,
};

kunit_test_suite(mlx5x_cmd_suite);
