// SPDX-License-Identifier: GPL-2.0
/*
 * Every entry of the dispatch table against the same malformed inputs:
 * input shorter than its structure, output too short for the answer, an
 * op_mod no command defines, and (for commands naming an object) an
 * object that does not exist.  Each must fail with its status and a
 * syndrome, and none may change the device's object counts.
 */
#include <stdlib.h>

#include "harness.h"

/* commands whose input word 2 names an object */
static const uint16_t by_number[] = {
	MLX5X_CMD_OP_DESTROY_MKEY, MLX5X_CMD_OP_QUERY_MKEY,
	MLX5X_CMD_OP_DESTROY_EQ, MLX5X_CMD_OP_QUERY_EQ,
	MLX5X_CMD_OP_DESTROY_CQ, MLX5X_CMD_OP_QUERY_CQ,
	MLX5X_CMD_OP_DESTROY_QP, MLX5X_CMD_OP_RST2INIT_QP,
	MLX5X_CMD_OP_INIT2RTR_QP, MLX5X_CMD_OP_RTR2RTS_QP,
	MLX5X_CMD_OP_RTS2RTS_QP, MLX5X_CMD_OP_SQERR2RTS_QP,
	MLX5X_CMD_OP_SQD_RTS_QP, MLX5X_CMD_OP_INIT2INIT_QP,
	MLX5X_CMD_OP_2ERR_QP, MLX5X_CMD_OP_2RST_QP, MLX5X_CMD_OP_QUERY_QP,
	MLX5X_CMD_OP_DESTROY_SRQ, MLX5X_CMD_OP_QUERY_SRQ, MLX5X_CMD_OP_ARM_RQ,
	MLX5X_CMD_OP_MODIFY_CQ,
	MLX5X_CMD_OP_DEALLOC_PD, MLX5X_CMD_OP_DEALLOC_UAR,
	MLX5X_CMD_OP_DEALLOC_XRCD,
};

/* op_mod values each command accepts: the sweep uses one outside */
static uint16_t bad_op_mod(uint16_t op)
{
	switch (op) {
	case MLX5X_CMD_OP_QUERY_HCA_CAP:	/* type << 1 | mode: type 0x3ff */
	case MLX5X_CMD_OP_SET_HCA_CAP:
		return 0x7fe;
	case MLX5X_CMD_OP_ARM_RQ:
		return 7;
	default:
		return 0x7ff0;
	}
}

static bool needs_object(uint16_t op)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(by_number); i++)
		if (by_number[i] == op)
			return true;
	return false;
}

static uint64_t live(struct th *t)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < OBJ_NTYPES; i++)
		n += t->e.obj[i].live;
	return n;
}

/* a device in the state the command's gate asks for */
static void ready(struct th *t, const struct cmd_desc *d)
{
	th_setup(t);
	if (d->gate == GATE_PRE_INIT)
		th_enable_hca(t);
	else
		th_init_hca(t);
}

static void sweep(const struct cmd_desc *d)
{
	uint32_t inlen = d->min_in + 4096, outlen = d->min_out + 4096;
	uint8_t *in = calloc(1, inlen), *out = calloc(1, outlen);
	unsigned int st;
	struct th t;
	uint64_t n0;

	ready(&t, d);
	n0 = live(&t);
	th_hdr(in, d->op, 0);
	if (d->min_in > MLX5X_CMD_MIN_IN_LEN)
		is_u(th_status(&t, in, MLX5X_CMD_MIN_IN_LEN, out, outlen),
		     MLX5X_CMD_STAT_BAD_INP_LEN, "%s: 8-byte input -> BAD_INP_LEN",
		     d->name);
	if (d->min_out > MLX5X_CMD_MIN_OUT_LEN)
		is_u(th_status(&t, in, inlen, out, MLX5X_CMD_MIN_OUT_LEN),
		     MLX5X_CMD_STAT_BAD_OUTP_LEN, "%s: 8-byte output -> BAD_OUTP_LEN",
		     d->name);
	th_hdr(in, d->op, bad_op_mod(d->op));
	st = th_status(&t, in, inlen, out, outlen);
	is_u(st, MLX5X_CMD_STAT_BAD_PARAM, "%s: op_mod 0x%x -> BAD_PARAM", d->name,
	     bad_op_mod(d->op));
	ok(st != 0 && th_syndrome(out) != 0, "%s: ... with a syndrome", d->name);
	if (needs_object(d->op)) {
		th_hdr(in, d->op, d->op == MLX5X_CMD_OP_ARM_RQ ?
		       MLX5X_ARM_RQ_OPMOD_SRQ : 0);
		put_be32(in + 8, 0x00fffffe);
		is_u(th_status(&t, in, inlen, out, outlen), MLX5X_CMD_STAT_BAD_RES,
		     "%s: object 0xfffffe -> BAD_RES", d->name);
	}
	is_u(live(&t), n0, "%s: the failures created and destroyed nothing",
	     d->name);
	th_teardown(&t);
	free(in);
	free(out);
}

int main(void)
{
	unsigned int i;

	for (i = 0; i < cmd_table_size(); i++)
		sweep(cmd_table_entry(i));
	return tap_done();
}
