// SPDX-License-Identifier: GPL-2.0
/*
 * The dispatch table: one entry per opcode the emulated firmware knows,
 * with the minimum input and output lengths and when it may run.  The
 * generic checks made here, in this order, mirror firmware: unknown
 * opcode (BAD_OP), input too short (BAD_INP_LEN), output too short
 * (BAD_OUTP_LEN), a uid without user contexts (BAD_PARAM), wrong HCA
 * state (BAD_SYS_STATE).  Handlers then check their own fields.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "log.h"

#define EMU_FILE_ID FILE_TABLE

#define C(op_, fn_, in_, out_, gate_) \
	{ MLX5X_CMD_OP_##op_, #op_, fn_, in_, out_, gate_ }

/*
 * Lengths the table names often: an input of the header words alone
 * (opcode, op_mod and, for most, one object number), an output of
 * status and syndrome alone, of those and the object number a
 * CREATE/ALLOC returns, and of the full header.
 */
#define HDR_IN	MLX5X_CMD_HDR_IN_LEN
#define MIN_OUT	MLX5X_CMD_MIN_OUT_LEN
#define NUM_OUT	0x0c
#define HDR_OUT	MLX5X_CMD_HDR_OUT_LEN

static const struct cmd_desc table[] = {
	C(QUERY_HCA_CAP, h_query_hca_cap, HDR_IN, MLX5X_QUERY_HCA_CAP_OUT_LEN, GATE_ENABLED),
	C(QUERY_ADAPTER, h_query_adapter, HDR_IN, MLX5X_QUERY_ADAPTER_OUT_LEN, GATE_ENABLED),
	C(INIT_HCA, h_init_hca, HDR_IN, MIN_OUT, GATE_PRE_INIT),
	C(TEARDOWN_HCA, h_teardown_hca, HDR_IN, HDR_OUT, GATE_INIT),
	C(ENABLE_HCA, h_enable_hca, HDR_IN, MIN_OUT, GATE_ANY),
	C(DISABLE_HCA, h_disable_hca, HDR_IN, MIN_OUT, GATE_ENABLED),
	C(QUERY_PAGES, h_query_pages, HDR_IN, MLX5X_QUERY_PAGES_OUT_LEN, GATE_ENABLED),
	C(MANAGE_PAGES, h_manage_pages, MLX5X_MANAGE_PAGES_IN_LEN, MLX5X_MANAGE_PAGES_OUT_LEN, GATE_ENABLED),
	C(SET_HCA_CAP, h_set_hca_cap, MLX5X_SET_HCA_CAP_IN_LEN, MIN_OUT, GATE_PRE_INIT),
	C(QUERY_ISSI, h_query_issi, HDR_IN, MLX5X_QUERY_ISSI_OUT_LEN, GATE_ENABLED),
	C(SET_ISSI, h_set_issi, HDR_IN, MIN_OUT, GATE_ENABLED),
	C(SET_DRIVER_VERSION, h_set_driver_version, MLX5X_SET_DRIVER_VERSION_IN_LEN, MIN_OUT, GATE_INIT),
	C(CREATE_MKEY, h_create_mkey, MLX5X_CREATE_MKEY_IN_LEN, NUM_OUT, GATE_INIT),
	C(QUERY_MKEY, h_query_mkey, HDR_IN, MLX5X_QUERY_MKEY_OUT_LEN, GATE_INIT),
	C(DESTROY_MKEY, h_destroy_mkey, HDR_IN, MIN_OUT, GATE_INIT),
	C(QUERY_SPECIAL_CONTEXTS, h_query_special_contexts, HDR_IN, MLX5X_QUERY_SPECIAL_CONTEXTS_OUT_LEN, GATE_INIT),
	C(CREATE_EQ, h_create_eq, MLX5X_CREATE_EQ_IN_LEN, MLX5X_CREATE_EQ_OUT_LEN, GATE_INIT),
	C(DESTROY_EQ, h_destroy_eq, HDR_IN, MIN_OUT, GATE_INIT),
	C(QUERY_EQ, h_query_eq, HDR_IN, MLX5X_QUERY_EQ_OUT_LEN, GATE_INIT),
	C(CREATE_CQ, h_create_cq, MLX5X_CREATE_CQ_IN_LEN, NUM_OUT, GATE_INIT),
	C(DESTROY_CQ, h_destroy_cq, HDR_IN, MIN_OUT, GATE_INIT),
	C(QUERY_CQ, h_query_cq, HDR_IN, MLX5X_QUERY_CQ_OUT_LEN, GATE_INIT),
	C(MODIFY_CQ, h_modify_cq, MLX5X_CREATE_CQ_IN_LEN, MIN_OUT, GATE_INIT),
	C(CREATE_QP, h_create_qp, MLX5X_CREATE_QP_IN_LEN, MLX5X_CREATE_QP_OUT_LEN, GATE_INIT),
	C(DESTROY_QP, h_destroy_qp, HDR_IN, MIN_OUT, GATE_INIT),
	C(RST2INIT_QP, h_modify_qp, MLX5X_QP_MODIFY_IN_LEN, MIN_OUT, GATE_INIT),
	C(INIT2RTR_QP, h_modify_qp, MLX5X_QP_MODIFY_IN_LEN, MIN_OUT, GATE_INIT),
	C(RTR2RTS_QP, h_modify_qp, MLX5X_QP_MODIFY_IN_LEN, MIN_OUT, GATE_INIT),
	C(RTS2RTS_QP, h_modify_qp, MLX5X_QP_MODIFY_IN_LEN, MIN_OUT, GATE_INIT),
	C(SQERR2RTS_QP, h_modify_qp, MLX5X_QP_MODIFY_IN_LEN, MIN_OUT, GATE_INIT),
	C(SQD_RTS_QP, h_modify_qp, MLX5X_QP_MODIFY_IN_LEN, MIN_OUT, GATE_INIT),
	C(INIT2INIT_QP, h_modify_qp, MLX5X_QP_MODIFY_IN_LEN, MIN_OUT, GATE_INIT),
	C(2ERR_QP, h_modify_qp, HDR_IN, MIN_OUT, GATE_INIT),
	C(2RST_QP, h_modify_qp, HDR_IN, MIN_OUT, GATE_INIT),
	C(QUERY_QP, h_query_qp, HDR_IN, MLX5X_QUERY_QP_OUT_LEN, GATE_INIT),
	C(CREATE_SRQ, h_create_srq, MLX5X_CREATE_SRQ_IN_LEN, NUM_OUT, GATE_INIT),
	C(DESTROY_SRQ, h_destroy_srq, HDR_IN, MIN_OUT, GATE_INIT),
	C(QUERY_SRQ, h_query_srq, HDR_IN, MLX5X_QUERY_SRQ_OUT_LEN, GATE_INIT),
	C(ARM_RQ, h_arm_rq, HDR_IN, MIN_OUT, GATE_INIT),
	C(CREATE_XRC_SRQ, h_create_xrc_srq, MLX5X_CREATE_SRQ_IN_LEN, NUM_OUT, GATE_INIT),
	C(DESTROY_XRC_SRQ, h_destroy_srq, HDR_IN, MIN_OUT, GATE_INIT),
	C(QUERY_XRC_SRQ, h_query_srq, HDR_IN, MLX5X_QUERY_SRQ_OUT_LEN, GATE_INIT),
	C(ARM_XRC_SRQ, h_arm_xrc_srq, HDR_IN, MIN_OUT, GATE_INIT),
	C(CREATE_RMP, h_create_rmp, MLX5X_CREATE_RMP_IN_LEN, NUM_OUT, GATE_INIT),
	C(DESTROY_RMP, h_destroy_srq, HDR_IN, MIN_OUT, GATE_INIT),
	C(QUERY_RMP, h_query_srq, HDR_IN, MLX5X_QUERY_RMP_OUT_LEN, GATE_INIT),
	C(MODIFY_RMP, h_modify_rmp, MLX5X_MODIFY_RMP_IN_LEN, MIN_OUT, GATE_INIT),
	C(QUERY_HCA_VPORT_CONTEXT, h_query_hca_vport_context, HDR_IN, MLX5X_QUERY_HCA_VPORT_CONTEXT_OUT_LEN, GATE_INIT),
	C(MODIFY_HCA_VPORT_CONTEXT, h_modify_hca_vport_context, MLX5X_MODIFY_HCA_VPORT_CONTEXT_IN_LEN, MIN_OUT, GATE_INIT),
	C(QUERY_HCA_VPORT_GID, h_query_hca_vport_gid, HDR_IN, MLX5X_QUERY_HCA_VPORT_GID_OUT_LEN + MLX5X_GID_LEN, GATE_INIT),
	C(QUERY_HCA_VPORT_PKEY, h_query_hca_vport_pkey, HDR_IN, MLX5X_QUERY_HCA_VPORT_PKEY_OUT_LEN + MLX5X_PKEY_ENTRY_LEN, GATE_INIT),
	C(QUERY_VPORT_COUNTER, h_query_vport_counter, MLX5X_QUERY_VPORT_COUNTER_IN_LEN, MLX5X_QUERY_VPORT_COUNTER_OUT_LEN, GATE_INIT),
	C(MAD_IFC, h_mad_ifc, MLX5X_MAD_IFC_IN_LEN, MLX5X_MAD_IFC_OUT_LEN, GATE_INIT),
	C(ATTACH_TO_MCG, h_attach_to_mcg, MLX5X_MCG_IN_LEN, MIN_OUT, GATE_INIT),
	C(DETACH_FROM_MCG, h_detach_from_mcg, MLX5X_MCG_IN_LEN, MIN_OUT, GATE_INIT),
	C(ALLOC_PD, h_alloc_pd, HDR_IN, NUM_OUT, GATE_INIT),
	C(DEALLOC_PD, h_dealloc_pd, HDR_IN, MIN_OUT, GATE_INIT),
	C(ALLOC_UAR, h_alloc_uar, HDR_IN, NUM_OUT, GATE_INIT),
	C(DEALLOC_UAR, h_dealloc_uar, HDR_IN, MIN_OUT, GATE_INIT),
	C(ACCESS_REG, h_access_reg, MLX5X_ACCESS_REG_HDR_LEN, MLX5X_ACCESS_REG_HDR_LEN, GATE_ENABLED),
	C(NOP, h_nop, HDR_IN, MIN_OUT, GATE_ENABLED),
	C(ALLOC_XRCD, h_alloc_xrcd, HDR_IN, NUM_OUT, GATE_INIT),
	C(DEALLOC_XRCD, h_dealloc_xrcd, HDR_IN, MIN_OUT, GATE_INIT),
};

/* opcodes we only name (trace) but do not implement: BAD_OP */
static const struct { uint16_t op; const char *name; } names[] = {
	{ MLX5X_CMD_OP_GEN_EQE, "GEN_EQE" },
	{ MLX5X_CMD_OP_QUERY_VPORT_STATE, "QUERY_VPORT_STATE" },
	{ MLX5X_CMD_OP_QUERY_NIC_VPORT_CONTEXT, "QUERY_NIC_VPORT_CONTEXT" },
	{ MLX5X_CMD_OP_MODIFY_NIC_VPORT_CONTEXT, "MODIFY_NIC_VPORT_CONTEXT" },
	{ MLX5X_CMD_OP_ALLOC_Q_COUNTER, "ALLOC_Q_COUNTER" },
	{ MLX5X_CMD_OP_DEALLOC_Q_COUNTER, "DEALLOC_Q_COUNTER" },
	{ MLX5X_CMD_OP_QUERY_Q_COUNTER, "QUERY_Q_COUNTER" },
	{ MLX5X_CMD_OP_ALLOC_TRANSPORT_DOMAIN, "ALLOC_TRANSPORT_DOMAIN" },
	{ MLX5X_CMD_OP_DEALLOC_TRANSPORT_DOMAIN, "DEALLOC_TRANSPORT_DOMAIN" },
	{ MLX5X_CMD_OP_CREATE_GENERAL_OBJECT, "CREATE_GENERAL_OBJECT" },
	{ MLX5X_CMD_OP_CREATE_UCTX, "CREATE_UCTX" },
	{ MLX5X_CMD_OP_DESTROY_UCTX, "DESTROY_UCTX" },
};

unsigned int cmd_table_size(void)
{
	return ARRAY_SIZE(table);
}

const struct cmd_desc *cmd_table_entry(unsigned int idx)
{
	return idx < ARRAY_SIZE(table) ? &table[idx] : NULL;
}

const struct cmd_desc *cmd_lookup(uint16_t op, unsigned int *idx)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(table); i++) {
		if (table[i].op == op) {
			if (idx)
				*idx = i;
			return &table[i];
		}
	}
	return NULL;
}

const char *cmd_op_name(uint16_t op)
{
	const struct cmd_desc *d = cmd_lookup(op, NULL);
	unsigned int i;

	if (d)
		return d->name;
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].op == op)
			return names[i].name;
	return "UNKNOWN";
}

const char *cmd_status_name(uint8_t status)
{
	switch (status) {
	case MLX5X_CMD_STAT_OK: return "OK";
	case MLX5X_CMD_STAT_INT_ERR: return "INT_ERR";
	case MLX5X_CMD_STAT_BAD_OP: return "BAD_OP";
	case MLX5X_CMD_STAT_BAD_PARAM: return "BAD_PARAM";
	case MLX5X_CMD_STAT_BAD_SYS_STATE: return "BAD_SYS_STATE";
	case MLX5X_CMD_STAT_BAD_RES: return "BAD_RES";
	case MLX5X_CMD_STAT_RES_BUSY: return "RES_BUSY";
	case MLX5X_CMD_STAT_NOT_READY: return "NOT_READY";
	case MLX5X_CMD_STAT_LIM: return "LIM";
	case MLX5X_CMD_STAT_BAD_RES_STATE: return "BAD_RES_STATE";
	case MLX5X_CMD_STAT_IX: return "IX";
	case MLX5X_CMD_STAT_NO_RES: return "NO_RES";
	case MLX5X_CMD_STAT_BAD_QP_STATE: return "BAD_QP_STATE";
	case MLX5X_CMD_STAT_BAD_INP_LEN: return "BAD_INP_LEN";
	case MLX5X_CMD_STAT_BAD_OUTP_LEN: return "BAD_OUTP_LEN";
	default: return "?";
	}
}

/* OPCODE as a name (CREATE_QP) or a number (0x500); *end after it */
int cmd_parse_opcode(const char *s, char **end)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(table); i++) {
		size_t n = strlen(table[i].name);

		if (!strncmp(s, table[i].name, n) && (s[n] == 0 || s[n] == ':')) {
			*end = (char *)s + n;
			return table[i].op;
		}
	}
	return (int)strtoul(s, end, 0);
}

int cmd_fail(struct cmd_ctx *c, uint8_t status, unsigned int file,
	     unsigned int line)
{
	c->status = status;
	c->syndrome = 0x5e000000u | (file & 0xff) << 16 | (line & 0xffff);
	return status;
}

void cmd_detail(struct cmd_ctx *c, const char *fmt, ...)
{
	size_t n = strlen(c->detail);
	va_list ap;

	if (n >= sizeof(c->detail) - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(c->detail + n, sizeof(c->detail) - n, fmt, ap);
	va_end(ap);
}

static bool gate_ok(struct emu *e, enum cmd_gate gate)
{
	switch (gate) {
	case GATE_ANY:
		return true;
	case GATE_ENABLED:
		return e->hca.enabled;
	case GATE_PRE_INIT:
		return e->hca.enabled && !e->hca.initialized;
	case GATE_INIT:
		return e->hca.enabled && e->hca.initialized;
	}
	return false;
}

static int check_and_run(struct cmd_ctx *c, const struct cmd_desc *d)
{
	if (c->inlen < d->min_in)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_INP_LEN);
	if (c->outlen < d->min_out)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_OUTP_LEN);
	/* counted, not refused (reserved.c) */
	reserved_check(c);
	/* no user contexts (log_max_uctx = 0): only uid 0 exists */
	if (c->uid)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (!gate_ok(c->e, d->gate))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_SYS_STATE);
	return d->fn(c);
}

void cmd_dispatch(struct cmd_ctx *c)
{
	struct emu *e = c->e;
	const struct cmd_desc *d;
	unsigned int idx = 0;

	e->stats.cmds++;
	d = cmd_lookup(c->op, &idx);
	if (!d) {
		e->unknown_ops++;
		CMD_FAIL(c, MLX5X_CMD_STAT_BAD_OP);
	} else {
		e->cmd_count[idx]++;
		c->status = 0;
		c->syndrome = 0;
		check_and_run(c, d);
		if (c->status)
			e->cmd_fail[idx]++;
	}
	if (c->status) {
		e->stats.cmd_failed++;
		/* a failed command returns only status and syndrome */
		memset(c->out, 0, c->outlen);
	}
	PSET(c->out, MLX5X_CMD_OUT_STATUS, c->status);
	PSET(c->out, MLX5X_CMD_OUT_SYNDROME, c->syndrome);
}
