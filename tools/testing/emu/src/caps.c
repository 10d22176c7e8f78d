// SPDX-License-Identifier: GPL-2.0
/*
 * General capabilities of the emulated ConnectX-5: an InfiniBand port and
 * the minimal feature set that keeps the driver off
 * Ethernet, eswitch, flow steering, DEVX, ODP, UMR translation and
 * counter paths.
 * MAX holds what the device can do, CUR what is in effect; SET_HCA_CAP
 * changes CUR within MAX.
 */
#include "cmd.h"

struct cap_val {
	uint32_t off, mask, val;
};

#define V(f, v) { f##_OFF, f##_MASK, v }

static const struct cap_val defaults[] = {
	V(MLX5X_CAP_PORT_TYPE, MLX5X_CAP_PORT_TYPE_IB),
	V(MLX5X_CAP_NUM_PORTS, 1),
	V(MLX5X_CAP_IB_VIRT, 1),		/* vport commands, no MAD_IFC */
	V(MLX5X_CAP_RC, 1),
	V(MLX5X_CAP_UC, 1),
	V(MLX5X_CAP_UD, 1),
	V(MLX5X_CAP_XRC, 1),			/* mlx5_ib needs it */
	V(MLX5X_CAP_LOG_MAX_QP, 16),
	V(MLX5X_CAP_LOG_MAX_QP_SZ, 15),
	V(MLX5X_CAP_LOG_MAX_CQ, 16),
	V(MLX5X_CAP_LOG_MAX_CQ_SZ, 22),
	V(MLX5X_CAP_LOG_MAX_EQ, 5),		/* 32 EQs */
	V(MLX5X_CAP_LOG_MAX_EQ_SZ, 22),
	V(MLX5X_CAP_LOG_MAX_MKEY, 16),
	V(MLX5X_CAP_LOG_MAX_PD, 16),
	V(MLX5X_CAP_LOG_MAX_XRCD, 16),
	V(MLX5X_CAP_LOG_MAX_SRQ, 16),
	V(MLX5X_CAP_LOG_MAX_SRQ_SZ, 15),
	V(MLX5X_CAP_LOG_MAX_MSG, 30),
	V(MLX5X_CAP_LOG_PG_SZ, 12),
	V(MLX5X_CAP_LOG_MAX_RA_REQ_QP, 4),
	V(MLX5X_CAP_LOG_MAX_RA_RES_QP, 4),
	V(MLX5X_CAP_LOCAL_CA_ACK_DELAY, 16),
	V(MLX5X_CAP_MAX_WQE_SZ_SQ, 1024),
	V(MLX5X_CAP_MAX_WQE_SZ_RQ, 512),
	V(MLX5X_CAP_GID_TABLE_SIZE, 0),		/* 8 GIDs */
	V(MLX5X_CAP_PKEY_TABLE_SIZE, 0),	/* 128 P_Keys */
	V(MLX5X_CAP_CQE_VERSION, 1),
	V(MLX5X_CAP_ATOMIC, 1),			/* 8-byte CS/FA (engine) */
	/*
	 * Static rates (ads.stat_rate codes, mlx5_ib mlx5r_ib_rate): the IB
	 * rates up to the 100 Gb/s of a ConnectX-5 EDR port: 56G (1), 25G
	 * (2), 100G (3), 50G (5), 2.5G (7), 10G (8), 30G (9), 5G (10), 20G
	 * (11), 40G (12), 60G (13), 80G (14); not 200G, 400G or 120G.
	 */
	V(MLX5X_CAP_STAT_RATE_SUPPORT, 0x7fae),
	V(MLX5X_CAP_CQ_RESIZE, 1),		/* MODIFY_CQ resize (engine) */
	/*
	 * qpc.block_lb_mc, as ConnectX-5: multicast sent by such a QP is
	 * not looped back to this HCA's QPs (mcg.c).
	 */
	V(MLX5X_CAP_BLOCK_LB_MC, 1),
	/* PMA counters by command, not by MAD_IFC (no SMA in firmware) */
	V(MLX5X_CAP_VPORT_COUNTERS, 1),
	/*
	 * UMR may rewrite an mkey's translation (MTT list, page size,
	 * start, length), as on ConnectX-5: mlx5_ib then offers fast
	 * registration (IB_DEVICE_MEM_MGT_EXTENSIONS), loads user MRs by
	 * UMR and keeps an MR cache (umr.c)
	 */
	V(MLX5X_CAP_UMR_MODIFY_ENTITY_SIZE_DISABLED, 0),
	/*
	 * the longest page list of a fast registration, as ConnectX-5
	 * (mlx5_ib: max_fast_reg_page_list_len; nvme-rdma sizes its MRs
	 * and I/O by it)
	 */
	V(MLX5X_CAP_LOG_MAX_KLM_LIST_SIZE, 16),
	/*
	 * memory windows type 1 and 2B (mlx5_ib: IB_DEVICE_MEM_WINDOW):
	 * KLM mkeys created free, bound and invalidated by UMR WQEs on the
	 * user's RC/UC send queue (umr.c)
	 */
	V(MLX5X_CAP_IMAICL, 1),
	V(MLX5X_CAP_LOG_BF_REG_SIZE, 9),	/* bf = 0: NC doorbells */
	/* internal_timer counts nanoseconds */
	V(MLX5X_CAP_DEVICE_FREQUENCY_KHZ, 1000000),
	V(MLX5X_CAP_DEVICE_FREQUENCY_MHZ, 1000),
};

/*
 * --port sm: the capabilities of a ConnectX PF on a subnet.  No ib_virt:
 * mlx5_ib reads the port through MAD_IFC (the firmware SMA) and writes
 * its capability bits with PCAP.  No vport_counters: every PerfMgt MAD
 * goes to the firmware PMA, which answers with a whole MAD (mlx5_ib's own
 * PMA fills only the payload).  Multicast groups for IPoIB and rdma_cm.
 */
static const struct cap_val port_sm[] = {
	V(MLX5X_CAP_IB_VIRT, 0),
	V(MLX5X_CAP_VPORT_COUNTERS, 0),
	V(MLX5X_CAP_LOG_MAX_MCG, 12),
	V(MLX5X_CAP_MAX_QP_MCG, 256),
};

static void caps_apply(uint8_t *cap, const struct cap_val *v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		prm_set(cap, v[i].off, v[i].mask, v[i].val);
}

void caps_init(struct emu *e)
{
	memset(e->hca.cap_max, 0, sizeof(e->hca.cap_max));
	caps_apply(e->hca.cap_max, defaults, ARRAY_SIZE(defaults));
	if (e->opt.port_mode == EMU_PORT_SM)
		caps_apply(e->hca.cap_max, port_sm, ARRAY_SIZE(port_sm));
	memcpy(e->hca.cap_cur, e->hca.cap_max, sizeof(e->hca.cap_cur));
	/* big-endian atomic replies until SET_HCA_CAP(ATOMIC) (engine.c) */
	e->hca.atomic_req_mode = 0;
}
