// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hardware counters, through the core's rdma_hw_stats.
 *
 * Device counters (sysfs hw_counters/ of the device): the HCA core's
 * command and event counts, the pages the firmware holds, and the verbs
 * that failed, all kept by the driver.  Port counters (`rdma statistic
 * show link <dev>/<port>`, and hw_counters/ of the port): the port's
 * traffic as the device counts it, read with QUERY_VPORT_COUNTER when
 * the core asks; the core keeps a read for its default lifespan, so a
 * busy reader costs at most one command per 10 ms.
 */
#include "hca.h"
#include "ib.h"
#include "mlx5x.h"

enum mlx5x_dev_stat {
	DS_CMD_ISSUED,
	DS_CMD_FAILED,
	DS_CMD_TIMEOUTS,
	DS_CMD_RECOVERED,
	DS_CMD_LATE,
	DS_CMD_STALE,
	DS_EQ_IRQS,
	DS_EQ_EQES,
	DS_EQ_EMPTY,
	DS_EQ_BUDGET_HITS,
	DS_EQ_BOGUS,
	DS_FW_PAGES,
	DS_UCONTEXT_ERR,
	DS_PD_ERR,
	DS_MR_ERR,
	DS_MW_ERR,
	DS_CQ_ERR,
	DS_QP_ERR,
	DS_MODIFY_QP_ERR,
	DS_SRQ_ERR,
	DS_MMAP_ERR,
	DS_NUM
};

static const struct rdma_stat_desc mlx5x_dev_stat_descs[] = {
	[DS_CMD_ISSUED] = { .name = "cmd_issued" },
	[DS_CMD_FAILED] = { .name = "cmd_failed" },
	[DS_CMD_TIMEOUTS] = { .name = "cmd_timeouts" },
	[DS_CMD_RECOVERED] = { .name = "cmd_recovered" },
	[DS_CMD_LATE] = { .name = "cmd_late" },
	[DS_CMD_STALE] = { .name = "cmd_stale" },
	[DS_EQ_IRQS] = { .name = "eq_irqs" },
	[DS_EQ_EQES] = { .name = "eq_eqes" },
	[DS_EQ_EMPTY] = { .name = "eq_empty_irqs" },
	[DS_EQ_BUDGET_HITS] = { .name = "eq_budget_hits" },
	[DS_EQ_BOGUS] = { .name = "eq_unknown_cq_events" },
	[DS_FW_PAGES] = { .name = "fw_pages" },
	[DS_UCONTEXT_ERR] = { .name = "ucontext_err" },
	[DS_PD_ERR] = { .name = "alloc_pd_err" },
	[DS_MR_ERR] = { .name = "reg_mr_err" },
	[DS_MW_ERR] = { .name = "alloc_mw_err" },
	[DS_CQ_ERR] = { .name = "create_cq_err" },
	[DS_QP_ERR] = { .name = "create_qp_err" },
	[DS_MODIFY_QP_ERR] = { .name = "modify_qp_err" },
	[DS_SRQ_ERR] = { .name = "srq_err" },
	[DS_MMAP_ERR] = { .name = "mmap_err" },
};

static_assert(ARRAY_SIZE(mlx5x_dev_stat_descs) == DS_NUM);

enum mlx5x_port_stat {
	PS_RX_UCAST_PKTS,
	PS_RX_UCAST_BYTES,
	PS_TX_UCAST_PKTS,
	PS_TX_UCAST_BYTES,
	PS_RX_MCAST_PKTS,
	PS_RX_MCAST_BYTES,
	PS_TX_MCAST_PKTS,
	PS_TX_MCAST_BYTES,
	PS_NUM
};

static const struct rdma_stat_desc mlx5x_port_stat_descs[] = {
	[PS_RX_UCAST_PKTS] = { .name = "rx_ucast_pkts" },
	[PS_RX_UCAST_BYTES] = { .name = "rx_ucast_bytes" },
	[PS_TX_UCAST_PKTS] = { .name = "tx_ucast_pkts" },
	[PS_TX_UCAST_BYTES] = { .name = "tx_ucast_bytes" },
	[PS_RX_MCAST_PKTS] = { .name = "rx_mcast_pkts" },
	[PS_RX_MCAST_BYTES] = { .name = "rx_mcast_bytes" },
	[PS_TX_MCAST_PKTS] = { .name = "tx_mcast_pkts" },
	[PS_TX_MCAST_BYTES] = { .name = "tx_mcast_bytes" },
};

static_assert(ARRAY_SIZE(mlx5x_port_stat_descs) == PS_NUM);

struct rdma_hw_stats *mlx5x_ib_alloc_device_stats(struct ib_device *ibdev)
{
	return rdma_alloc_hw_stats_struct(mlx5x_dev_stat_descs, DS_NUM,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

struct rdma_hw_stats *mlx5x_ib_alloc_port_stats(struct ib_device *ibdev,
						u32 port)
{
	return rdma_alloc_hw_stats_struct(mlx5x_port_stat_descs, PS_NUM,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

static int mlx5x_get_device_stats(struct mlx5x_ib_dev *dev, u64 *v)
{
	const struct mlx5x_ib_stats *vs = &dev->stats;
	struct mlx5x_hca_stats hs;

	mlx5x_hca_read_stats(dev->mdev, &hs);
	v[DS_CMD_ISSUED] = hs.cmd_issued;
	v[DS_CMD_FAILED] = hs.cmd_failed;
	v[DS_CMD_TIMEOUTS] = hs.cmd_timeouts;
	v[DS_CMD_RECOVERED] = hs.cmd_recovered;
	v[DS_CMD_LATE] = hs.cmd_late;
	v[DS_CMD_STALE] = hs.cmd_stale;
	v[DS_EQ_IRQS] = hs.eq_irqs;
	v[DS_EQ_EQES] = hs.eq_eqes;
	v[DS_EQ_EMPTY] = hs.eq_empty;
	v[DS_EQ_BUDGET_HITS] = hs.eq_budget_hits;
	v[DS_EQ_BOGUS] = hs.eq_bogus;
	v[DS_FW_PAGES] = hs.fw_pages;
	v[DS_UCONTEXT_ERR] = atomic64_read(&vs->ucontext_err);
	v[DS_PD_ERR] = atomic64_read(&vs->pd_err);
	v[DS_MR_ERR] = atomic64_read(&vs->mr_err);
	v[DS_MW_ERR] = atomic64_read(&vs->mw_err);
	v[DS_CQ_ERR] = atomic64_read(&vs->cq_err);
	v[DS_QP_ERR] = atomic64_read(&vs->qp_err);
	v[DS_MODIFY_QP_ERR] = atomic64_read(&vs->modify_qp_err);
	v[DS_SRQ_ERR] = atomic64_read(&vs->srq_err);
	v[DS_MMAP_ERR] = atomic64_read(&vs->mmap_err);
	return DS_NUM;
}

static int mlx5x_get_port_stats(struct mlx5x_ib_dev *dev, u32 port, u64 *v)
{
	struct mlx5x_vport_counters c;
	int err;

	err = mlx5x_fw_query_vport_counters(dev->cmd, port,
					    dev->caps.num_ports > 1, &c);
	if (err)
		return err;
	v[PS_RX_UCAST_PKTS] = c.rx_ucast_pkts;
	v[PS_RX_UCAST_BYTES] = c.rx_ucast_bytes;
	v[PS_TX_UCAST_PKTS] = c.tx_ucast_pkts;
	v[PS_TX_UCAST_BYTES] = c.tx_ucast_bytes;
	v[PS_RX_MCAST_PKTS] = c.rx_mcast_pkts;
	v[PS_RX_MCAST_BYTES] = c.rx_mcast_bytes;
	v[PS_TX_MCAST_PKTS] = c.tx_mcast_pkts;
	v[PS_TX_MCAST_BYTES] = c.tx_mcast_bytes;
	return PS_NUM;
}

/* Every counter at once: the core then keeps them for the lifespan. */
int mlx5x_ib_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
			  u32 port, int index)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibdev);

	if (!port)
		return mlx5x_get_device_stats(dev, stats->value);
	return mlx5x_get_port_stats(dev, port, stats->value);
}
