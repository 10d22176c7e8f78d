// SPDX-License-Identifier: GPL-2.0
/*
 * What firmware checks in the QP context of CREATE_QP and of the modify
 * commands, before it takes anything (rules.c counts each refusal).
 *
 * Every rule here is the PRM's as upstream mlx5 relies on it: mlx5_ib
 * (drivers/infiniband/hw/mlx5/qp.c) fills the fields from attributes
 * that ib_core and mlx5_ib have already range-checked, so firmware is
 * the last line only for a driver that skips those checks.
 */
#include "engine.h"
#include "log.h"
#include "qp_int.h"

#define PATH(o) (MLX5X_QPC_PRI_PATH_OFF + (o))
#define PGET_PATH(qpc, f) prm_get((qpc), PATH(f##_OFF), f##_MASK)

/* largest unicast LID (IBA 4.1.3: 0xc000 and up are multicast) */
#define IB_LID_UCAST_MAX	0xbfffu

bool qp_st_connected(uint8_t st)
{
	return st == MLX5X_QP_ST_RC || st == MLX5X_QP_ST_UC ||
	       st == MLX5X_QP_ST_XRC;
}

/*
 * The PRM's optional-parameter table per transition and QP type, as
 * mlx5_ib copies it (qp.c opt_mask[][][], MLX5_QP_OPTPAR_*): RC, UC, UD,
 * XRC.  Every other type (QP0, QP1, REG_UMR, DCI) takes no optional
 * parameter: mlx5_ib sends mask 0 for them.  COUNTER_SET_ID is allowed
 * on RTS2RTS for every type (mlx5_ib __mlx5_ib_qp_set_counter sends it
 * alone there).  A bit outside the cell is refused (BAD_PARAM), not
 * dropped: firmware does not guess what the driver meant.
 */
#define O(x) MLX5X_QP_OPTPAR_##x
#define ACC (O(RRE) | O(RAE) | O(RWE))
static const struct {
	uint16_t op;
	uint32_t st[4];		/* RC, UC, UD, XRC */
} optpar_table[] = {
	{ MLX5X_CMD_OP_INIT2INIT_QP,
	  { ACC | O(PKEY_INDEX) | O(PRI_PORT) | O(LAG_TX_AFF),
	    O(RWE) | O(PKEY_INDEX) | O(PRI_PORT) | O(LAG_TX_AFF),
	    O(PKEY_INDEX) | O(Q_KEY) | O(PRI_PORT),
	    ACC | O(PKEY_INDEX) | O(PRI_PORT) | O(LAG_TX_AFF) } },
	{ MLX5X_CMD_OP_INIT2RTR_QP,
	  { O(ALT_ADDR_PATH) | ACC | O(PKEY_INDEX) | O(LAG_TX_AFF),
	    O(ALT_ADDR_PATH) | O(RWE) | O(PKEY_INDEX) | O(LAG_TX_AFF),
	    O(PKEY_INDEX) | O(Q_KEY),
	    O(ALT_ADDR_PATH) | ACC | O(PKEY_INDEX) | O(LAG_TX_AFF) } },
	{ MLX5X_CMD_OP_RTR2RTS_QP,
	  { O(ALT_ADDR_PATH) | ACC | O(PM_STATE) | O(RNR_TIMEOUT),
	    O(ALT_ADDR_PATH) | O(RWE) | O(PM_STATE),
	    O(Q_KEY),
	    O(ALT_ADDR_PATH) | ACC | O(PM_STATE) | O(RNR_TIMEOUT) } },
	{ MLX5X_CMD_OP_RTS2RTS_QP,
	  { O(ALT_ADDR_PATH) | ACC | O(PM_STATE) | O(RNR_TIMEOUT),
	    O(ALT_ADDR_PATH) | O(RWE) | O(PM_STATE),
	    O(Q_KEY) | O(SRQN) | O(CQN_RCV),
	    O(ALT_ADDR_PATH) | ACC | O(PM_STATE) | O(RNR_TIMEOUT) } },
	{ MLX5X_CMD_OP_SQERR2RTS_QP,
	  { O(RNR_TIMEOUT) | ACC, O(RWE), O(Q_KEY),
	    O(RNR_TIMEOUT) | ACC } },
	{ MLX5X_CMD_OP_SQD_RTS_QP,
	  { O(RNR_TIMEOUT) | ACC, O(RWE), O(Q_KEY), 0 } },
};

uint32_t qp_optpar_allowed(uint16_t op, uint8_t st)
{
	uint32_t allowed = 0;
	unsigned int i;

	if (op == MLX5X_CMD_OP_RTS2RTS_QP)
		allowed |= O(COUNTER_SET_ID);
	if (st > MLX5X_QP_ST_XRC)
		return allowed;
	for (i = 0; i < ARRAY_SIZE(optpar_table); i++)
		if (optpar_table[i].op == op)
			allowed |= optpar_table[i].st[st];
	return allowed;
}
#undef ACC
#undef O

/* vhca_port_num names a port of this function (PRM: 1..num_ports) */
static int check_port(struct cmd_ctx *c, const uint8_t *qpc)
{
	uint32_t port = PGET_PATH(qpc, MLX5X_ADS_VHCA_PORT_NUM);

	if (port < 1 || port > CAP(c->e, MLX5X_CAP_NUM_PORTS))
		return cmd_rule(c, R_QP_PORT, "vhca_port_num %u", port);
	return 0;
}

/* a P_Key index inside the port's table (pkey_table_size: 128 here) */
static int check_pkey(struct cmd_ctx *c, const uint8_t *qpc)
{
	uint32_t idx = PGET_PATH(qpc, MLX5X_ADS_PKEY_INDEX);

	if (idx >= EMU_NUM_PKEYS)
		return cmd_rule(c, R_QP_PKEY_INDEX, "pkey_index %u", idx);
	return 0;
}

/*
 * mtu is 1 (256) .. 5 (4096) and no larger than the port's MTU (PAOS /
 * PMTU max_mtu); log_msg_max at most the log_max_msg capability.  mlx5_ib
 * sends 5/12 for UD and REG_UMR, 1/8 for QP0/QP1 and the path MTU with
 * log_max_msg for connected QPs, on every transition that carries them.
 */
static int check_mtu(struct cmd_ctx *c, const uint8_t *qpc)
{
	uint32_t mtu = PGET(qpc, MLX5X_QPC_MTU);
	uint32_t msg = PGET(qpc, MLX5X_QPC_LOG_MSG_MAX);

	if (mtu < MLX5X_QPC_MTU_256 || mtu > MLX5X_QPC_MTU_4K ||
	    (128u << mtu) > c->e->port.max_mtu)
		return cmd_rule(c, R_QP_MTU, "mtu %u", mtu);
	if (msg > CAP(c->e, MLX5X_CAP_LOG_MAX_MSG))
		return cmd_rule(c, R_QP_MSG_MAX, "log_msg_max %u", msg);
	return 0;
}

/*
 * The primary address path of a connected QP at INIT2RTR (and whenever
 * PRIMARY_ADDR_PATH is taken): a unicast remote LID, a source GID index
 * inside the GID table when a GRH is used, and a static rate that is 0
 * (port rate) or one stat_rate_support offers (mlx5_ib mlx5r_ib_rate
 * steps down until it finds one, so it never sends another).
 */
static int check_path(struct cmd_ctx *c, const uint8_t *qpc)
{
	uint32_t rlid = PGET_PATH(qpc, MLX5X_ADS_RLID);
	uint32_t rate = PGET_PATH(qpc, MLX5X_ADS_STAT_RATE);

	if (!rlid || rlid > IB_LID_UCAST_MAX)
		return cmd_rule(c, R_QP_RLID, "rlid 0x%x", rlid);
	if (PGET_PATH(qpc, MLX5X_ADS_GRH) &&
	    PGET_PATH(qpc, MLX5X_ADS_SRC_ADDR_INDEX) >= EMU_NUM_GIDS)
		return cmd_rule(c, R_QP_SGID_INDEX, "src_addr_index %u",
				PGET_PATH(qpc, MLX5X_ADS_SRC_ADDR_INDEX));
	if (rate && !(CAP(c->e, MLX5X_CAP_STAT_RATE_SUPPORT) & (1u << rate)))
		return cmd_rule(c, R_QP_STAT_RATE, "stat_rate %u", rate);
	return 0;
}

/*
 * READ/atomic depths within the capabilities as the PRM names them:
 * log_sra_max (requester) by log_max_ra_req_qp, log_rra_max (responder)
 * by log_max_ra_res_qp.  (mlx5_ib validate_rd_atomic pairs them the
 * other way round; both are 4 on this device, as on a ConnectX-5.)
 */
static int check_sra(struct cmd_ctx *c, const uint8_t *qpc)
{
	uint32_t v = PGET(qpc, MLX5X_QPC_LOG_SRA_MAX);

	if (v > CAP(c->e, MLX5X_CAP_LOG_MAX_RA_REQ_QP))
		return cmd_rule(c, R_QP_SRA, "log_sra_max %u", v);
	return 0;
}

static int check_rra(struct cmd_ctx *c, const uint8_t *qpc)
{
	uint32_t v = PGET(qpc, MLX5X_QPC_LOG_RRA_MAX);

	if (v > CAP(c->e, MLX5X_CAP_LOG_MAX_RA_RES_QP))
		return cmd_rule(c, R_QP_RRA, "log_rra_max %u", v);
	return 0;
}

/*
 * atomic_mode (taken with rae): 0 leaves atomics off, IB_COMP (1) needs
 * 8-byte compare-swap and fetch-add, n >= 3 needs an extended operation
 * and 2^n-byte operands in atomic_size_qp; what mlx5_ib get_atomic_mode
 * derives from the same capabilities.  CX (2) is not offered.
 */
static bool atomic_mode_ok(uint32_t mode)
{
	uint8_t cap[MLX5X_HCA_CAP_LEN];
	uint32_t ops, sizes;

	eng_atomic_caps(cap, MLX5X_ATOMIC_REQ_MODE_HOST);
	ops = PGET(cap, MLX5X_ATOMIC_CAP_OPERATIONS);
	sizes = PGET(cap, MLX5X_ATOMIC_CAP_SIZE_QP);
	if (!mode)
		return true;
	if (mode == MLX5X_QPC_ATOMIC_MODE_IB_COMP)
		return (ops & 3) == 3 && (sizes & MLX5X_ATOMIC_SIZE_8B);
	if (mode < MLX5X_QPC_ATOMIC_MODE_8B || mode > 8)
		return false;
	return (ops & 0xc) && (sizes & (1u << mode));
}

static int check_access(struct cmd_ctx *c, const uint8_t *qpc)
{
	uint32_t mode = PGET(qpc, MLX5X_QPC_ATOMIC_MODE);

	if (!atomic_mode_ok(mode))
		return cmd_rule(c, R_QP_ATOMIC_MODE, "atomic_mode %u", mode);
	return 0;
}

int qp_check_fields(struct cmd_ctx *c, const struct emu_qp *qp,
		    const uint8_t *qpc, uint32_t groups)
{
	if ((groups & F_PORT) && check_port(c, qpc))
		return c->status;
	if ((groups & F_PKEY) && check_pkey(c, qpc))
		return c->status;
	if ((groups & F_MTU) && check_mtu(c, qpc))
		return c->status;
	if ((groups & F_PATH) && qp_st_connected(qp->st) && check_path(c, qpc))
		return c->status;
	if ((groups & F_SRA) && check_sra(c, qpc))
		return c->status;
	if ((groups & F_RRA) && check_rra(c, qpc))
		return c->status;
	if ((groups & (F_ACCESS | F_RAE)) && check_access(c, qpc))
		return c->status;
	return 0;
}

/*
 * ts_format: FREE_RUNNING or DEFAULT; REAL_TIME only when the
 * sq_ts_format/rq_ts_format capabilities offer a real-time clock, which
 * a ConnectX-5 does not (cap 0: free running only; mlx5_ib
 * mlx5_get_qp_default_ts then sends FREE_RUNNING).  3 is reserved.
 */
bool ts_format_ok(struct emu *e, uint32_t ts)
{
	if (ts == MLX5X_TS_FORMAT_FREE_RUNNING || ts == MLX5X_TS_FORMAT_DEFAULT)
		return true;
	return ts == MLX5X_TS_FORMAT_REAL_TIME &&
	       CAP(e, MLX5X_CAP_SQ_TS_FORMAT) && CAP(e, MLX5X_CAP_RQ_TS_FORMAT);
}

int qp_check_create_ctx(struct cmd_ctx *c, const uint8_t *qpc)
{
	uint32_t ts = PGET(qpc, MLX5X_QPC_TS_FORMAT);

	if (!ts_format_ok(c->e, ts))
		return cmd_rule(c, R_QP_TS_FORMAT, "ts_format %u", ts);
	/*
	 * A REG_UMR QP exists to post UMR WQEs, which the PRM allows only
	 * on a QP with fre (fast register enable); mlx5_ib sets fre (and
	 * rlky) on every kernel QP (create_kernel_qp).
	 */
	if (PGET(qpc, MLX5X_QPC_ST) == MLX5X_QP_ST_REG_UMR &&
	    !PGET(qpc, MLX5X_QPC_FRE))
		return cmd_rule(c, R_QP_UMR_FRE, "REG_UMR QP without fre");
	return 0;
}
