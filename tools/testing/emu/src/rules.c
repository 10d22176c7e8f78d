// SPDX-License-Identifier: GPL-2.0
/*
 * Firmware rules a driver can break, as the PRM states them and upstream
 * mlx5 (mlx5_core + mlx5_ib) relies on them.  A command that breaks one
 * is refused with the status firmware returns and a syndrome naming the
 * rule (EMU_RULE_SYND); a doorbell that breaks one is dropped.  Either
 * way the rule's counter goes up and shows in the report as
 * viol_<name>; the e2e lanes fail on any non-zero counter, so every rule
 * here must hold for the upstream driver.
 *
 * Where each rule comes from is said at its check (qp.c, qp_check.c,
 * res.c, cq.c, hca.c, engine.c, rc_resp.c, cq_arm.c, reserved.c); the
 * table only names them.
 */
#include <inttypes.h>
#include <stdarg.h>

#include "cmd.h"
#include "log.h"

static const struct {
	const char *name;
	uint8_t status;		/* for command refusals */
} rules[R_NUM] = {
	[R_QP_OPTPAR]		= { "qp_opt_param", MLX5X_CMD_STAT_BAD_PARAM },
	[R_QP_MTU]		= { "qp_mtu", MLX5X_CMD_STAT_BAD_PARAM },
	[R_QP_MSG_MAX]		= { "qp_log_msg_max", MLX5X_CMD_STAT_BAD_PARAM },
	[R_QP_PORT]		= { "qp_port", MLX5X_CMD_STAT_BAD_PARAM },
	[R_QP_PKEY_INDEX]	= { "qp_pkey_index", MLX5X_CMD_STAT_BAD_PARAM },
	[R_QP_RLID]		= { "qp_rlid", MLX5X_CMD_STAT_BAD_PARAM },
	[R_QP_SGID_INDEX]	= { "qp_sgid_index", MLX5X_CMD_STAT_BAD_PARAM },
	[R_QP_STAT_RATE]	= { "qp_stat_rate", MLX5X_CMD_STAT_BAD_PARAM },
	[R_QP_SRA]		= { "qp_log_sra_max", MLX5X_CMD_STAT_BAD_PARAM },
	[R_QP_RRA]		= { "qp_log_rra_max", MLX5X_CMD_STAT_BAD_PARAM },
	[R_QP_ATOMIC_MODE]	= { "qp_atomic_mode", MLX5X_CMD_STAT_BAD_PARAM },
	[R_QP_TS_FORMAT]	= { "qp_ts_format", MLX5X_CMD_STAT_BAD_PARAM },
	[R_QP_UMR_FRE]		= { "qp_umr_fre", MLX5X_CMD_STAT_BAD_PARAM },
	[R_QP_PD]		= { "qp_pd", MLX5X_CMD_STAT_BAD_RES },
	[R_QP_CQ]		= { "qp_cqn", MLX5X_CMD_STAT_BAD_RES },
	[R_QP_SRQ]		= { "qp_srqn", MLX5X_CMD_STAT_BAD_RES },
	[R_QP_XRCD]		= { "qp_xrcd", MLX5X_CMD_STAT_BAD_RES },
	[R_QP_UAR]		= { "qp_uar_page", MLX5X_CMD_STAT_BAD_RES },
	[R_CQ_TS_FORMAT]	= { "cq_ts_format", MLX5X_CMD_STAT_BAD_PARAM },
	[R_SET_CAP_ATOMIC]	= { "set_hca_cap_atomic",
				    MLX5X_CMD_STAT_BAD_PARAM },
	[R_SQ_DB_FOREIGN_UAR]	= { "sq_doorbell_foreign_uar", 0 },
	[R_CQ_ARM_FOREIGN_UAR]	= { "cq_arm_foreign_uar", 0 },
	[R_CQ_ARM_DBR_MISMATCH]	= { "cq_arm_dbr_mismatch", 0 },
	[R_ATOMIC_NO_MODE]	= { "atomic_mode_unset", 0 },
	/* counted, not refused: see reserved.c */
	[R_RESERVED_NONZERO]	= { "reserved_nonzero", 0 },
};

static void vhit(struct emu *e, enum emu_rule r, const char *fmt, va_list ap)
{
	char msg[160];

	e->viol[r]++;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	emu_warn("firmware rule %s broken: %s", rules[r].name, msg);
}

void rule_hit(struct emu *e, enum emu_rule r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vhit(e, r, fmt, ap);
	va_end(ap);
}

int cmd_rule(struct cmd_ctx *c, enum emu_rule r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vhit(c->e, r, fmt, ap);
	va_end(ap);
	c->status = rules[r].status;
	c->syndrome = EMU_RULE_SYND(r);
	cmd_detail(c, "rule %s", rules[r].name);
	return c->status;
}

uint64_t rules_total(const struct emu *e)
{
	uint64_t n = 0;
	unsigned int r;

	for (r = 0; r < R_NUM; r++)
		n += e->viol[r];
	return n;
}

/* every rule, also the clean ones: the report lists what was checked */
void rules_report(struct emu *e, FILE *fp)
{
	unsigned int r;

	for (r = 0; r < R_NUM; r++)
		fprintf(fp, "viol_%s=%" PRIu64 "\n", rules[r].name, e->viol[r]);
	fprintf(fp, "violations=%" PRIu64 "\n", rules_total(e));
}
