/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Health polling: the firmware's heartbeat counter and health syndrome
 * in the init segment, read every couple of seconds.
 */
#ifndef MLX5X_HEALTH_H
#define MLX5X_HEALTH_H

#include <linux/types.h>
#include <linux/workqueue.h>

struct device;
struct mlx5x_cmd;

/* What one poll concluded. */
enum mlx5x_health_verdict {
	MLX5X_HEALTH_OK,
	MLX5X_HEALTH_STUCK,	/* counter did not move for a while */
	MLX5X_HEALTH_REPORT,	/* a new syndrome without recovery request */
	MLX5X_HEALTH_FATAL,	/* syndrome with recovery request, PCI dead
				 * or NIC interface down
				 */
};

/**
 * struct mlx5x_health_sample - init-segment words read by one poll
 * @counter: health counter
 * @synd_word: irisc index, syndrome, extended syndrome
 * @rfr_word: recovery-flow-required and severity
 * @fw_ver: health buffer fw_ver (all ones = device gone)
 * @nic_if: NIC interface mode from cmdq_addr_l_sz
 */
struct mlx5x_health_sample {
	u32 counter;
	u32 synd_word;
	u32 rfr_word;
	u32 fw_ver;
	u8 nic_if;
};

/**
 * struct mlx5x_health - health poller of one function
 * @dev: for messages
 * @iseg: init segment
 * @cmd: killed on a fatal verdict
 * @work: the poll, rescheduled every interval
 * @fatal_cb: told once about a fatal verdict (process context)
 * @cb_ctx: its argument
 * @prev_counter: counter at the previous poll
 * @miss: consecutive polls without counter progress
 * @fatal: set once, never cleared: the device is in the error state
 * @syndrome: syndrome seen at the last poll (the one that caused @fatal,
 *	once set)
 * @reported: syndromes reported without a recovery request
 * @stopping: set by mlx5x_health_stop(); the work does not re-arm
 *
 * All fields but @fatal and @stopping are used only by the work item.
 */
struct mlx5x_health {
	struct device *dev;
	void __iomem *iseg;
	struct mlx5x_cmd *cmd;
	struct delayed_work work;
	void (*fatal_cb)(void *ctx);
	void *cb_ctx;
	u32 prev_counter;
	unsigned int miss;
	bool fatal;
	u8 syndrome;
	unsigned int reported;
	bool stopping;
};

/**
 * struct mlx5x_recover_limit - how often a function may be recovered
 * @last: jiffies when the last recovery was allowed
 * @count: recoveries allowed so far (@last is valid once it is not 0)
 */
struct mlx5x_recover_limit {
	unsigned long last;
	unsigned int count;
};

/* What to do with a function in the error state. */
enum mlx5x_recover_verdict {
	MLX5X_RECOVER_GO,		/* reset it and bring it up again */
	MLX5X_RECOVER_DISABLED,		/* recovery switched off: leave it down */
	MLX5X_RECOVER_TOO_SOON,		/* the last one was too recent: ditto */
};

enum mlx5x_recover_verdict mlx5x_recover_decide(struct mlx5x_recover_limit *rl,
						bool enabled,
						unsigned long min_interval,
						unsigned long now);
const char *mlx5x_recover_verdict_str(enum mlx5x_recover_verdict v);

enum mlx5x_health_verdict mlx5x_health_judge(struct mlx5x_health *h,
					     const struct mlx5x_health_sample *s);
const char *mlx5x_health_synd_str(u8 synd);

void mlx5x_health_start(struct mlx5x_health *h, struct device *dev,
			void __iomem *iseg, struct mlx5x_cmd *cmd);
void mlx5x_health_stop(struct mlx5x_health *h);
bool mlx5x_health_is_fatal(struct mlx5x_health *h);

#endif /* MLX5X_HEALTH_H */
