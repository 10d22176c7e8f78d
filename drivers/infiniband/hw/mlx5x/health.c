// SPDX-License-Identifier: GPL-2.0-only
/*
 * Health.  A delayed work item reads the heartbeat counter, the health
 * syndrome, the health buffer's fw_ver (all ones once the function fell
 * off the bus) and the NIC interface mode.  A fatal reading puts the
 * function into the error state once: the command engine is killed so
 * creates fail and destroys complete locally, and remove still works.
 * A syndrome is fatal only with the recovery-flow-required bit, as the
 * PRM says and mlx5_core reads it; without it the syndrome is reported
 * (logged once per new value, counted) and the function stays in
 * service.  A counter that stops moving is reported but is not fatal by
 * itself.
 */
#include <linux/device.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/module.h>

#include "cmd.h"
#include "health.h"
#include "hw.h"

static unsigned int health_poll_ms = 2000;
module_param(health_poll_ms, uint, 0444);
MODULE_PARM_DESC(health_poll_ms, "Health poll interval in ms (default 2000)");

/* Polls without counter progress before "stuck" is reported. */
#define MLX5X_HEALTH_MISS_LIMIT	3

const char *mlx5x_health_synd_str(u8 synd)
{
	switch (synd) {
	case 0x01: return "firmware internal error";
	case 0x07: return "irisc not responding";
	case 0x08: return "unrecoverable hardware error";
	case 0x09: return "firmware CRC error";
	case 0x0a: return "ICM fetch PCI error";
	case 0x0b: return "HW fatal error";
	case 0x0c: return "async EQ buffer overrun";
	case 0x0d: return "EQ error";
	case 0x0e: return "invalid EQ referenced";
	case 0x0f: return "FFSER error";
	case 0x10: return "high temperature";
	case 0x12: return "ICM PCI poisoned error";
	default:   return "unknown syndrome";
	}
}

/**
 * mlx5x_health_judge() - turn one sample into a verdict
 * @h: poller state (counter history is updated)
 * @s: the sample
 *
 * Pure logic, no register access.  Fatal: the function reads all ones,
 * its NIC interface is disabled or in software reset, or a syndrome
 * comes with the recovery-flow-required bit.  A syndrome without it is
 * reported once per new value.
 */
enum mlx5x_health_verdict mlx5x_health_judge(struct mlx5x_health *h,
					     const struct mlx5x_health_sample *s)
{
	u8 synd = FIELD_GET(MLX5X_ISEG_HEALTH_SYND_MASK, s->synd_word);
	bool rfr = s->rfr_word & MLX5X_ISEG_HEALTH_RFR_MASK;
	bool stuck = false;

	if (s->fw_ver == U32_MAX || (synd && rfr) ||
	    s->nic_if == MLX5X_NIC_IFC_DISABLED ||
	    s->nic_if == MLX5X_NIC_IFC_SW_RESET)
		return MLX5X_HEALTH_FATAL;

	if (s->counter == h->prev_counter)
		stuck = ++h->miss == MLX5X_HEALTH_MISS_LIMIT;
	else
		h->miss = 0;
	h->prev_counter = s->counter;
	if (synd != h->syndrome) {
		h->syndrome = synd;
		if (synd)
			return MLX5X_HEALTH_REPORT;
	}
	return stuck ? MLX5X_HEALTH_STUCK : MLX5X_HEALTH_OK;
}

/**
 * mlx5x_recover_decide() - may a function in the error state be recovered?
 * @rl: its history (updated when the answer is yes)
 * @enabled: recovery is switched on
 * @min_interval: jiffies that must pass between two recoveries
 * @now: jiffies
 *
 * A function that fails again soon after a recovery is likely to keep
 * failing: resetting it over and over only hides that (mlx5_core's
 * firmware-fatal reporter has the same grace period).  Pure logic.
 */
enum mlx5x_recover_verdict mlx5x_recover_decide(struct mlx5x_recover_limit *rl,
						bool enabled,
						unsigned long min_interval,
						unsigned long now)
{
	if (!enabled)
		return MLX5X_RECOVER_DISABLED;
	if (rl->count && time_before(now, rl->last + min_interval))
		return MLX5X_RECOVER_TOO_SOON;
	rl->last = now;
	rl->count++;
	return MLX5X_RECOVER_GO;
}

const char *mlx5x_recover_verdict_str(enum mlx5x_recover_verdict v)
{
	switch (v) {
	case MLX5X_RECOVER_GO:
		return "recovering";
	case MLX5X_RECOVER_DISABLED:
		return "recovery disabled (module parameter recover)";
	case MLX5X_RECOVER_TOO_SOON:
		return "not recovering: the last recovery was less than recover_interval_s ago";
	}
	return "?";
}

static u32 health_rd(struct mlx5x_health *h, unsigned int off)
{
	return ioread32be(h->iseg + off);
}

static void health_sample(struct mlx5x_health *h,
			  struct mlx5x_health_sample *s)
{
	s->counter = health_rd(h, MLX5X_ISEG_HEALTH_COUNTER_OFF);
	s->synd_word = health_rd(h, MLX5X_ISEG_HEALTH_SYND_OFF);
	s->rfr_word = health_rd(h, MLX5X_ISEG_HEALTH_RFR_SEV_OFF);
	s->fw_ver = health_rd(h, MLX5X_ISEG_HEALTH_FW_VER_OFF);
	s->nic_if = FIELD_GET(MLX5X_ISEG_NIC_IFC_MASK,
			      health_rd(h, MLX5X_ISEG_CMDQ_ADDR_L_SZ_OFF));
}

static void health_enter_error(struct mlx5x_health *h,
			       const struct mlx5x_health_sample *s)
{
	u8 synd = FIELD_GET(MLX5X_ISEG_HEALTH_SYND_MASK, s->synd_word);

	h->syndrome = synd;
	WRITE_ONCE(h->fatal, true);
	if (s->fw_ver == U32_MAX)
		dev_err(h->dev, "health: device not responding (reads all ones), entering error state\n");
	else if (synd)
		dev_err(h->dev, "health: fatal syndrome 0x%x (%s), ext 0x%x, rfr %u, entering error state\n",
			synd, mlx5x_health_synd_str(synd),
			(u32)FIELD_GET(MLX5X_ISEG_HEALTH_EXT_SYND_MASK, s->synd_word),
			!!(s->rfr_word & MLX5X_ISEG_HEALTH_RFR_MASK));
	else
		dev_err(h->dev, "health: NIC interface mode %u, entering error state\n",
			s->nic_if);
	mlx5x_cmd_kill(h->cmd);
	if (h->fatal_cb)
		h->fatal_cb(h->cb_ctx);
}

static void health_work(struct work_struct *work)
{
	struct mlx5x_health *h = container_of(to_delayed_work(work),
					      struct mlx5x_health, work);
	struct mlx5x_health_sample s;

	health_sample(h, &s);
	switch (mlx5x_health_judge(h, &s)) {
	case MLX5X_HEALTH_FATAL:
		/* Logged once; the error state is final, stop polling. */
		health_enter_error(h, &s);
		return;
	case MLX5X_HEALTH_REPORT:
		h->reported++;
		dev_err(h->dev, "health: syndrome 0x%x (%s), ext 0x%x, no recovery flow requested: reported, device kept in service\n",
			h->syndrome, mlx5x_health_synd_str(h->syndrome),
			(u32)FIELD_GET(MLX5X_ISEG_HEALTH_EXT_SYND_MASK, s.synd_word));
		break;
	case MLX5X_HEALTH_STUCK:
		dev_warn(h->dev, "health: counter stuck at %u for %u polls\n",
			 s.counter, MLX5X_HEALTH_MISS_LIMIT);
		break;
	case MLX5X_HEALTH_OK:
		break;
	}
	if (!READ_ONCE(h->stopping))
		schedule_delayed_work(&h->work, msecs_to_jiffies(health_poll_ms));
}

void mlx5x_health_start(struct mlx5x_health *h, struct device *dev,
			void __iomem *iseg, struct mlx5x_cmd *cmd)
{
	h->dev = dev;
	h->iseg = iseg;
	h->cmd = cmd;
	h->prev_counter = ioread32be(iseg + MLX5X_ISEG_HEALTH_COUNTER_OFF);
	h->miss = 0;
	h->syndrome = 0;
	h->reported = 0;
	h->fatal = false;
	h->stopping = false;
	INIT_DELAYED_WORK(&h->work, health_work);
	schedule_delayed_work(&h->work, msecs_to_jiffies(health_poll_ms));
}

void mlx5x_health_stop(struct mlx5x_health *h)
{
	WRITE_ONCE(h->stopping, true);
	cancel_delayed_work_sync(&h->work);
}

bool mlx5x_health_is_fatal(struct mlx5x_health *h)
{
	return READ_ONCE(h->fatal);
}
