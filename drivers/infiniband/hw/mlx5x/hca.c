// SPDX-License-Identifier: GPL-2.0-only
/*
 * HCA bring-up stages.  Probe order (main.c runs them, remove undoes them
 * backwards):
 *
 *   cmdq      command queue handed to the device, second FW-ready wait
 *   health    health poll (so a dead device is noticed during probe)
 *   enable    ENABLE_HCA                        / DISABLE_HCA
 *   issi      QUERY_ISSI (+ SET_ISSI 1)
 *   bootpg    QUERY_PAGES boot + MANAGE_PAGES    / reclaim every page
 *   caps      HOST_ENDIANNESS, QUERY/SET_HCA_CAP (general, atomic)
 *   initpg    QUERY_PAGES init + MANAGE_PAGES   (reclaimed by bootpg)
 *   init      INIT_HCA                          / TEARDOWN_HCA
 *   query     QUERY_HCA_CAP current
 *   uar       ALLOC_UAR + map                   / DEALLOC_UAR
 *   eqs       MSI-X, async EQ, events mode, completion EQs / reverse
 *   ready     QUERY_ADAPTER (events mode, not fatal), summary line
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/pci.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "hca.h"
#include "mlx5x.h"

/* Second wait for the firmware, once it has the command queue. */
#define MLX5X_FW_INIT_AFTER_CMDQ_MS	2000

static struct mlx5x_hca *to_hca(struct mlx5x_dev *mdev)
{
	return &mdev->hca;
}

static int hca_wait_fw(struct mlx5x_dev *mdev, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	while (mlx5x_iseg_fw_initializing(mlx5x_iseg_rd(mdev->iseg,
							MLX5X_ISEG_INITIALIZING_OFF))) {
		if (time_after(jiffies, end)) {
			dev_err(mlx5x_to_dev(mdev),
				"firmware did not finish initializing within %u ms of getting the command queue\n",
				ms);
			return -ETIMEDOUT;
		}
		usleep_range(1000, 2000);
	}
	return 0;
}

int mlx5x_hca_cmdq_init(struct mlx5x_dev *mdev)
{
	struct mlx5x_hca *hca = to_hca(mdev);
	struct mlx5x_cmdq_geom geom;
	int err;

	hca->t0 = ktime_get();
	err = mlx5x_iseg_cmdq_geom(mlx5x_iseg_rd(mdev->iseg,
						 MLX5X_ISEG_CMDQ_ADDR_L_SZ_OFF),
				   &geom);
	if (err) {
		dev_err(mlx5x_to_dev(mdev), "unusable command queue geometry\n");
		return err;
	}
	err = mlx5x_cmd_init(&hca->cmd, mlx5x_to_dev(mdev), mdev->iseg,
			     geom.log_sz, geom.log_stride);
	if (err)
		return err;
	err = hca_wait_fw(mdev, MLX5X_FW_INIT_AFTER_CMDQ_MS);
	if (err)
		mlx5x_cmd_cleanup(&hca->cmd);
	return err;
}

void mlx5x_hca_cmdq_fini(struct mlx5x_dev *mdev)
{
	mlx5x_cmd_cleanup(&to_hca(mdev)->cmd);
}

/*
 * ---- events to the layer above ----
 *
 * The EQ and health code report to the HCA core; the core passes each
 * event on to whoever listens (the verbs layer, once registered), so
 * the core needs to know nothing about that layer.
 */

/**
 * mlx5x_hca_listen() - have the HCA's events reported to @l
 * @hca: the HCA, brought up at least to the "eqs" stage
 * @l: the listener; must stay valid until mlx5x_hca_unlisten()
 */
void mlx5x_hca_listen(struct mlx5x_hca *hca, struct mlx5x_hca_listener *l)
{
	rcu_assign_pointer(hca->listener, l);
}

/**
 * mlx5x_hca_unlisten() - stop reporting events; may sleep
 * @hca: the HCA
 *
 * Returns once no event callback of the former listener runs any more.
 */
void mlx5x_hca_unlisten(struct mlx5x_hca *hca)
{
	RCU_INIT_POINTER(hca->listener, NULL);
	synchronize_rcu();
}

/* Hard-IRQ context: the async EQ. */
static void hca_port_change(void *ctx, u8 port, u8 sub_type)
{
	struct mlx5x_hca *hca = ctx;
	struct mlx5x_hca_listener *l;

	rcu_read_lock();
	l = rcu_dereference(hca->listener);
	if (l)
		l->ops->port_change(l->ctx, port, sub_type);
	rcu_read_unlock();
}

static void hca_qp_event(void *ctx, u8 type, u32 num)
{
	struct mlx5x_hca *hca = ctx;
	struct mlx5x_hca_listener *l;

	rcu_read_lock();
	l = rcu_dereference(hca->listener);
	if (l)
		l->ops->qp_event(l->ctx, type, num);
	rcu_read_unlock();
}

/*
 * Process context: the health poller's fatal verdict.  The users are
 * told first; the recovery work then takes the function down.
 */
static void hca_health_fatal(void *ctx)
{
	struct mlx5x_hca *hca = ctx;
	struct mlx5x_hca_listener *l;

	rcu_read_lock();
	l = rcu_dereference(hca->listener);
	if (l)
		l->ops->fatal(l->ctx);
	rcu_read_unlock();
	mlx5x_recover_schedule(container_of(hca, struct mlx5x_dev, hca));
}

int mlx5x_hca_health_init(struct mlx5x_dev *mdev)
{
	struct mlx5x_hca *hca = to_hca(mdev);

	hca->health.fatal_cb = hca_health_fatal;
	hca->health.cb_ctx = hca;
	mlx5x_health_start(&hca->health, mlx5x_to_dev(mdev), mdev->iseg,
			   &hca->cmd);
	return 0;
}

void mlx5x_hca_health_fini(struct mlx5x_dev *mdev)
{
	mlx5x_health_stop(&to_hca(mdev)->health);
}

int mlx5x_hca_enable(struct mlx5x_dev *mdev)
{
	return mlx5x_fw_enable_hca(&to_hca(mdev)->cmd);
}

/* A teardown command: a failure leaves nothing to undo, only to report. */
static void hca_teardown_cmd(struct mlx5x_dev *mdev,
			     int (*fw)(struct mlx5x_cmd *cmd), const char *name)
{
	int err = fw(&to_hca(mdev)->cmd);

	if (err)
		dev_warn(mlx5x_to_dev(mdev), "%s failed: %d\n", name, err);
}

void mlx5x_hca_disable(struct mlx5x_dev *mdev)
{
	hca_teardown_cmd(mdev, mlx5x_fw_disable_hca, "DISABLE_HCA");
}

/* ISSI 1 if the firmware offers it, else 0 (also when it cannot say). */
int mlx5x_hca_issi(struct mlx5x_dev *mdev)
{
	struct mlx5x_hca *hca = to_hca(mdev);
	u32 supported = 0;
	int err;

	err = mlx5x_fw_query_issi(&hca->cmd, &supported);
	if (err == -EOPNOTSUPP) {
		hca->issi = 0;
		return 0;
	}
	if (err)
		return err;
	if (supported & BIT(1)) {
		err = mlx5x_fw_set_issi(&hca->cmd, 1);
		if (err)
			return err;
		hca->issi = 1;
		return 0;
	}
	if (supported & BIT(0) || !supported) {
		hca->issi = 0;
		return 0;
	}
	dev_err(mlx5x_to_dev(mdev), "firmware supports neither ISSI 0 nor 1 (0x%x)\n",
		supported);
	return -EOPNOTSUPP;
}

int mlx5x_hca_boot_pages(struct mlx5x_dev *mdev)
{
	struct mlx5x_hca *hca = to_hca(mdev);
	int err;

	err = mlx5x_pages_init(&hca->pages, mlx5x_to_dev(mdev), &hca->cmd);
	if (err)
		return err;
	err = mlx5x_pages_startup(&hca->pages, MLX5X_PAGES_BOOT);
	if (err) {
		mlx5x_pages_reclaim_all(&hca->pages);
		mlx5x_pages_cleanup(&hca->pages);
	}
	return err;
}

/* After TEARDOWN_HCA: every page given at boot, init or run time. */
void mlx5x_hca_reclaim_pages(struct mlx5x_dev *mdev)
{
	struct mlx5x_hca *hca = to_hca(mdev);
	int err;

	err = mlx5x_pages_reclaim_all(&hca->pages);
	if (err)
		dev_warn(mlx5x_to_dev(mdev), "page reclaim incomplete: %d\n",
			 err);
	mlx5x_pages_cleanup(&hca->pages);
}

/*
 * After the general caps: the atomic ones (mlx5_core reads them both
 * ways, current and maximum), and host byte order for 8-byte atomics
 * where the device offers the choice.  @buf: 2 * MLX5X_HCA_CAP_LEN.
 */
static int hca_set_atomic_caps(struct mlx5x_hca *hca, void *buf)
{
	void *cur = buf, *set = buf + MLX5X_HCA_CAP_LEN;
	int err;

	err = mlx5x_fw_query_hca_cap(&hca->cmd, MLX5X_CAP_TYPE_ATOMIC,
				     MLX5X_CAP_MODE_CUR, cur);
	if (err)
		return err;
	err = mlx5x_fw_query_hca_cap(&hca->cmd, MLX5X_CAP_TYPE_ATOMIC,
				     MLX5X_CAP_MODE_MAX, set);
	if (err)
		return err;
	memset(set, 0, MLX5X_HCA_CAP_LEN);
	if (!mlx5x_caps_atomic_prepare_set(cur, set))
		return 0;
	return mlx5x_fw_set_hca_cap(&hca->cmd, MLX5X_CAP_TYPE_ATOMIC, set);
}

/*
 * mlx5x drives InfiniBand ports only: a VPI adapter whose ports are set
 * to Ethernet is refused here, before INIT_HCA, instead of after the
 * whole bring-up when the verbs layer would find no IB port.
 */
static int hca_check_port_type(struct mlx5x_dev *mdev, const void *cur)
{
	u32 type = MLX5X_GET(cur, MLX5X_CAP_PORT_TYPE);

	if (type == MLX5X_CAP_PORT_TYPE_IB)
		return 0;
	dev_err(mlx5x_to_dev(mdev),
		"port type %s (%u): mlx5x drives InfiniBand ports only (no RoCE); set the adapter's link type to IB or use mlx5_core\n",
		type == MLX5X_CAP_PORT_TYPE_ETH ? "Ethernet" : "unknown", type);
	return -EOPNOTSUPP;
}

/* @cur and @max: room for the general caps, current and maximum. */
static int hca_set_general_caps(struct mlx5x_dev *mdev, void *cur, void *max)
{
	struct mlx5x_hca *hca = to_hca(mdev);
	bool atomic;
	int err;

	err = mlx5x_fw_query_hca_cap(&hca->cmd, MLX5X_CAP_TYPE_GENERAL,
				     MLX5X_CAP_MODE_CUR, cur);
	if (err)
		return err;
	err = hca_check_port_type(mdev, cur);
	if (err)
		return err;
	err = mlx5x_fw_query_hca_cap(&hca->cmd, MLX5X_CAP_TYPE_GENERAL,
				     MLX5X_CAP_MODE_MAX, max);
	if (err)
		return err;
	atomic = MLX5X_GET(cur, MLX5X_CAP_ATOMIC);
	mlx5x_caps_prepare_set(cur, max);
	err = mlx5x_fw_set_hca_cap(&hca->cmd, MLX5X_CAP_TYPE_GENERAL, cur);
	if (err || !atomic)
		return err;
	return hca_set_atomic_caps(hca, cur);
}

int mlx5x_hca_set_caps(struct mlx5x_dev *mdev)
{
	void *cur;
	int err;

	err = mlx5x_fw_set_host_endianness(&to_hca(mdev)->cmd);
	if (err)
		return err;
	cur = kzalloc(2 * MLX5X_HCA_CAP_LEN, GFP_KERNEL);
	if (!cur)
		return -ENOMEM;
	err = hca_set_general_caps(mdev, cur, cur + MLX5X_HCA_CAP_LEN);
	kfree(cur);
	return err;
}

int mlx5x_hca_init_pages(struct mlx5x_dev *mdev)
{
	return mlx5x_pages_startup(&to_hca(mdev)->pages, MLX5X_PAGES_INIT);
}

int mlx5x_hca_init(struct mlx5x_dev *mdev)
{
	return mlx5x_fw_init_hca(&to_hca(mdev)->cmd);
}

void mlx5x_hca_teardown(struct mlx5x_dev *mdev)
{
	struct mlx5x_cmd *cmd = &to_hca(mdev)->cmd;

	/*
	 * A function left initialized refuses the next driver's SET_ISSI and
	 * INIT_HCA until it is reset: a refused close is asked for once more.
	 */
	if (mlx5x_fw_teardown_hca(cmd) && !mlx5x_cmd_killed(cmd))
		hca_teardown_cmd(mdev, mlx5x_fw_teardown_hca, "TEARDOWN_HCA");
}

/* What the rest of the driver sizes itself from. */
int mlx5x_hca_query(struct mlx5x_dev *mdev)
{
	struct mlx5x_hca *hca = to_hca(mdev);
	void *cap;
	int err;

	cap = kzalloc(MLX5X_HCA_CAP_LEN, GFP_KERNEL);
	if (!cap)
		return -ENOMEM;
	err = mlx5x_fw_query_hca_cap(&hca->cmd, MLX5X_CAP_TYPE_GENERAL,
				     MLX5X_CAP_MODE_CUR, cap);
	if (!err)
		mlx5x_caps_decode(cap, &hca->caps);
	kfree(cap);
	return err;
}

int mlx5x_hca_uar_init(struct mlx5x_dev *mdev)
{
	struct mlx5x_hca *hca = to_hca(mdev);

	hca->uar_geom.bar_len = pci_resource_len(mdev->pdev, 0);
	hca->uar_geom.uar_4k = hca->caps.uar_4k;
	hca->uar_geom.page_shift = PAGE_SHIFT;
	return mlx5x_uar_alloc(&hca->cmd, mdev->pdev, &hca->uar_geom,
			       &hca->uar);
}

void mlx5x_hca_uar_fini(struct mlx5x_dev *mdev)
{
	mlx5x_uar_free(&to_hca(mdev)->cmd, &to_hca(mdev)->uar);
}

int mlx5x_hca_eqs_init(struct mlx5x_dev *mdev)
{
	struct mlx5x_hca *hca = to_hca(mdev);
	struct mlx5x_eq_table *tbl = &hca->eqs;

	hca->events.port_change = hca_port_change;
	hca->events.qp_event = hca_qp_event;
	hca->events.ctx = hca;
	mlx5x_cq_table_init(&hca->cqs);
	tbl->pdev = mdev->pdev;
	tbl->cmd = &hca->cmd;
	tbl->pages = &hca->pages;
	tbl->cqs = &hca->cqs;
	tbl->uar = &hca->uar;
	tbl->events = &hca->events;
	return mlx5x_eq_table_create(tbl, mlx5x_caps_max_eqs(&hca->caps),
				     hca->caps.log_max_eq_sz);
}

void mlx5x_hca_eqs_fini(struct mlx5x_dev *mdev)
{
	struct mlx5x_hca *hca = to_hca(mdev);

	mlx5x_eq_table_destroy(&hca->eqs);
	mlx5x_cq_table_destroy(&hca->cqs);
}

/*
 * The board id is only printed, so losing it (a command that fails or
 * never completes) must not fail the probe: the engine reports the error
 * and stays usable.
 */
static void hca_board_id(struct mlx5x_dev *mdev)
{
	struct mlx5x_hca *hca = to_hca(mdev);
	int err;

	err = mlx5x_fw_query_adapter_psid(&hca->cmd, hca->psid,
					  sizeof(hca->psid), &hca->vendor_id);
	if (err) {
		hca->psid[0] = 0;
		dev_warn(mlx5x_to_dev(mdev), "no board id (QUERY_ADAPTER: %d)\n",
			 err);
	}
}

/*
 * An EQ's counters are plain u64s written by its interrupt handler only,
 * and the page count is written under the page lock: a reader that takes
 * part in neither reads each once and may see it a few events behind,
 * which is all a statistic needs.
 */
static void hca_add_eq_stats(const struct mlx5x_eq *eq,
			     struct mlx5x_hca_stats *s)
{
	s->eq_irqs += READ_ONCE(eq->stats.irqs);
	s->eq_eqes += READ_ONCE(eq->stats.eqes);
	s->eq_empty += READ_ONCE(eq->stats.empty);
	s->eq_budget_hits += READ_ONCE(eq->stats.budget_hits);
	s->eq_bogus += READ_ONCE(eq->stats.bogus);
}

/**
 * mlx5x_hca_read_stats() - the HCA core's counters, for the verbs layer
 * @mdev: the function, brought up to the "ready" stage (the EQs exist
 *	until the verbs layer is gone)
 * @s: filled in
 */
void mlx5x_hca_read_stats(struct mlx5x_dev *mdev, struct mlx5x_hca_stats *s)
{
	struct mlx5x_hca *hca = to_hca(mdev);
	const struct mlx5x_cmd_stats *cs = &hca->cmd.stats;
	const struct mlx5x_eq_table *tbl = &hca->eqs;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->cmd_issued = atomic64_read(&cs->issued);
	s->cmd_failed = atomic64_read(&cs->failed);
	s->cmd_timeouts = atomic64_read(&cs->timeouts);
	s->cmd_recovered = atomic64_read(&cs->recovered);
	s->cmd_late = atomic64_read(&cs->late);
	s->cmd_stale = atomic64_read(&cs->stale);
	hca_add_eq_stats(&tbl->async, s);
	if (tbl->pages_eq_live)
		hca_add_eq_stats(&tbl->pages_eq, s);
	for (i = 0; i < tbl->ncomp; i++)
		hca_add_eq_stats(&tbl->comp[i], s);
	s->fw_pages = READ_ONCE(hca->pages.total);
}

int mlx5x_hca_ready(struct mlx5x_dev *mdev)
{
	struct mlx5x_hca *hca = to_hca(mdev);

	hca_board_id(mdev);
	dev_info(mlx5x_to_dev(mdev),
		 "ready: fw %u.%u.%u, board %s, %u port(s) (%s), ISSI %u, %u EQs (async, pages + %u comp) on %u MSI-X vectors, %u fw pages, %lld commands, %lld ms\n",
		 mdev->fw.major, mdev->fw.minor, mdev->fw.sub,
		 hca->psid[0] ? hca->psid : "-", hca->caps.num_ports,
		 hca->caps.port_type == MLX5X_CAP_PORT_TYPE_IB ? "IB" : "Eth",
		 hca->issi, 2 + hca->eqs.ncomp, hca->eqs.ncomp, hca->eqs.nvec,
		 hca->pages.total,
		 (long long)atomic64_read(&hca->cmd.stats.issued),
		 ktime_ms_delta(ktime_get(), hca->t0));
	return 0;
}
