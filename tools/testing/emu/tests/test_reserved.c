// SPDX-License-Identifier: GPL-2.0
/*
 * Firmware rule reserved_nonzero (reserved.c): a set bit outside every
 * known field of a command's input is counted (and the command still
 * runs); clean commands and the data after the fields (PAS lists, MADs,
 * register contents) are not; each place is logged once.
 */
#include <stdio.h>

#include "eng_th.h"

#define RSVD(x)	((x)->t.e.viol[R_RESERVED_NONZERO])

/* run a command; its status, and how many stray words it added */
static unsigned int run_count(struct te *x, const uint8_t *in, uint32_t inlen,
			      uint64_t *added)
{
	uint8_t out[MLX5X_QUERY_CQ_OUT_LEN];
	uint64_t before = RSVD(x);
	unsigned int st;

	st = th_status(&x->t, in, inlen, out, sizeof(out));
	*added = RSVD(x) - before;
	return st;
}

/* setup, EQs, CQs, a QP through RTS: mlx5_ib-like commands are clean */
static void t_clean(struct te *x, struct tqp *a, struct tqp *b)
{
	uint64_t checked = x->t.e.rsvd.checked;
	uint8_t in[16] = { 0 };
	uint64_t n;

	is_u(RSVD(x), 0,
	     "bring-up, EQs with PAS lists, CQs, QPs to RTS: nothing stray");
	ok(checked > 10, "... %llu commands checked",
	   (unsigned long long)checked);
	th_hdr(in, MLX5X_CMD_OP_ALLOC_PD, 0);
	is_u(run_count(x, in, 16, &n), 0, "ALLOC_PD");
	is_u(n, 0, "... a clean header is not counted");
	is_u(x->t.e.rsvd.checked, checked + 1, "... but checked");
	(void)a;
	(void)b;
}

static void t_header(struct te *x)
{
	uint8_t in[16] = { 0 };
	uint64_t n;

	th_hdr(in, MLX5X_CMD_OP_ALLOC_PD, 0);
	in[MLX5X_CMD_IN_OP_MOD_OFF] = 0x40;	/* above op_mod */
	is_u(run_count(x, in, 16, &n), 0,
	     "ALLOC_PD with a reserved header bit: executed, not refused");
	is_u(n, 1, "... the stray bit counted");
	in[0x0c] = 1;				/* nothing there at all */
	run_count(x, in, 16, &n);
	is_u(n, 2, "... two stray words: two counts");
}

/* a gap inside a command's own fields, and a value beyond its mask */
static void t_field_gap(struct te *x, struct tcq *cq)
{
	uint8_t in[16] = { 0 };
	uint64_t n;

	th_hdr(in, MLX5X_CMD_OP_QUERY_CQ, 0);
	PSET(in, MLX5X_CQ_IN_CQN, cq->cqn);
	is_u(run_count(x, in, 16, &n), 0, "QUERY_CQ");
	is_u(n, 0, "... clean");
	in[MLX5X_CQ_IN_CQN_OFF] = 0x80;		/* above the 24-bit cqn */
	is_u(run_count(x, in, 16, &n), 0, "QUERY_CQ, cqn overflowing its mask");
	is_u(n, 1, "... counted");
}

/* CREATE_CQ as th_create_cq() builds it, with a word of its cqc set */
static unsigned int create_cq(struct te *x, uint32_t cqc_off, uint32_t bits,
			      uint64_t *added)
{
	uint8_t in[MLX5X_CREATE_CQ_IN_LEN + 8] = { 0 };
	uint8_t *cqc = in + MLX5X_CREATE_CQ_IN_CQC_OFF;

	th_hdr(in, MLX5X_CMD_OP_CREATE_CQ, 0);
	PSET(cqc, MLX5X_CQC_LOG_CQ_SIZE, 6);
	PSET(cqc, MLX5X_CQC_UAR_PAGE, x->t.uar);
	PSET(cqc, MLX5X_CQC_C_EQN, x->comp_eqn);
	put_be64(cqc + MLX5X_CQC_DBR_ADDR_OFF, th_alloc(&x->t, 64, 64));
	put_be64(in + MLX5X_CREATE_CQ_IN_PAS_OFF, th_alloc(&x->t, 4096, 4096));
	put_be32(cqc + cqc_off, get_be32(cqc + cqc_off) | bits);
	return run_count(x, in, sizeof(in), added);
}

static void t_context(struct te *x, struct tqp *qp)
{
	uint8_t qpc[MLX5X_QPC_LEN] = { 0 };
	uint64_t before, n;

	is_u(create_cq(x, 0, 0, &n), 0, "CREATE_CQ");
	is_u(n, 0, "... clean");
	/* cqc word 1 is reserved */
	is_u(create_cq(x, 4, 0x100, &n), 0,
	     "CREATE_CQ with a reserved cqc bit: executed");
	is_u(n, 1, "... counted");

	/* qpc: bits 31:24 of the user_index word are reserved */
	before = RSVD(x);
	qpc[MLX5X_QPC_USER_INDEX_OFF] = 0x01;
	is_u(te_modify(x, qp, MLX5X_CMD_OP_RTS2RTS_QP, qpc, 0), 0,
	     "RTS2RTS with a reserved qpc bit: executed");
	is_u(RSVD(x) - before, 1, "... counted");
	memset(qpc, 0, sizeof(qpc));
	/* bits 29:16 of the alternate path's first word are reserved */
	qpc[MLX5X_QPC_ALT_PATH_OFF + 1] = 0x01;
	te_modify(x, qp, MLX5X_CMD_OP_RTS2RTS_QP, qpc, 0);
	is_u(RSVD(x) - before, 2, "... and one in the embedded address path");
}

/* data tails: PAS entries, register data, a MAD; and past their length */
static void t_data(struct te *x)
{
	uint8_t in[MLX5X_MAD_IFC_IN_LEN] = { 0 };
	uint8_t out[MLX5X_MAD_IFC_OUT_LEN];
	uint64_t n, before = RSVD(x);
	unsigned int i;

	th_create_cq(&x->t, 8, x->comp_eqn);	/* 4 pages of PAS */
	is_u(RSVD(x), before, "CREATE_CQ with a PAS list: not counted");

	th_hdr(in, MLX5X_CMD_OP_MAD_IFC, 0);
	PSET(in, MLX5X_MAD_IFC_IN_PORT, 1);
	for (i = 0; i < MLX5X_MAD_LEN; i++)
		in[MLX5X_MAD_IFC_IN_MAD_OFF + i] = (uint8_t)(i * 7 + 1);
	th_status(&x->t, in, sizeof(in), out, sizeof(out));
	is_u(RSVD(x), before, "MAD_IFC with a MAD full of bits: not counted");

	memset(in, 0, sizeof(in));
	th_hdr(in, MLX5X_CMD_OP_ACCESS_REG, MLX5X_ACCESS_REG_READ);
	PSET(in, MLX5X_ACCESS_REG_IN_REGISTER_ID, MLX5X_REG_PTYS);
	memset(in + MLX5X_ACCESS_REG_DATA_OFF, 0xa5, MLX5X_REG_PTYS_LEN);
	th_status(&x->t, in, MLX5X_ACCESS_REG_HDR_LEN + MLX5X_REG_PTYS_LEN,
		  out, MLX5X_ACCESS_REG_HDR_LEN + MLX5X_REG_PTYS_LEN);
	is_u(RSVD(x), before, "ACCESS_REG register data: not counted");

	/* MANAGE_PAGES: PAS entries known as far as input_num_entries */
	memset(in, 0, sizeof(in));
	th_hdr(in, MLX5X_CMD_OP_MANAGE_PAGES, MLX5X_PAGES_GIVE);
	PSET(in, MLX5X_PAGES_IN_INPUT_NUM_ENTRIES, 1);
	put_be64(in + MLX5X_PAGES_IN_PAS_OFF, th_alloc(&x->t, 4096, 4096));
	put_be64(in + MLX5X_PAGES_IN_PAS_OFF + 8, 0x1000);
	run_count(x, in, MLX5X_MANAGE_PAGES_IN_LEN + 16, &n);
	is_u(n, 1, "MANAGE_PAGES: an entry beyond input_num_entries counted");
}

/* each (opcode, offset) logged once, counted every time */
static void t_logged_once(struct te *x)
{
	unsigned int logged = x->t.e.rsvd.nlogged;
	uint8_t in[16] = { 0 };
	uint64_t n;

	th_hdr(in, MLX5X_CMD_OP_ALLOC_PD, 0);
	in[MLX5X_CMD_IN_OP_MOD_OFF] = 0x40;
	run_count(x, in, 16, &n);
	is_u(n, 1, "a place seen before: counted again");
	is_u(x->t.e.rsvd.nlogged, logged, "... not logged again");
	th_hdr(in, MLX5X_CMD_OP_ALLOC_UAR, 0);
	run_count(x, in, 16, &n);
	is_u(x->t.e.rsvd.nlogged, logged + 1,
	     "the same offset of another opcode: logged");
}

/*
 * mlx5_core's SET_HCA_CAP carries back the current capabilities it
 * queried: every capability the device reports must be a known field
 * (general and atomic), or the upstream driver would break the rule.
 */
static void t_set_caps_echo(void)
{
	static uint8_t in[MLX5X_SET_HCA_CAP_IN_LEN];
	static uint8_t out[MLX5X_QUERY_HCA_CAP_OUT_LEN];
	static const uint16_t types[] = {
		MLX5X_CAP_TYPE_GENERAL, MLX5X_CAP_TYPE_ATOMIC,
	};
	uint8_t q[16] = { 0 };
	unsigned int i;
	struct th t;

	th_setup(&t);
	th_enable_hca(&t);
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		th_hdr(q, MLX5X_CMD_OP_QUERY_HCA_CAP,
		       types[i] << 1 | MLX5X_CAP_MODE_CUR);
		th_status(&t, q, 16, out, sizeof(out));
		memset(in, 0, sizeof(in));
		th_hdr(in, MLX5X_CMD_OP_SET_HCA_CAP, types[i] << 1);
		memcpy(in + MLX5X_SET_HCA_CAP_IN_CAP_OFF,
		       out + MLX5X_QUERY_HCA_CAP_OUT_CAP_OFF, MLX5X_HCA_CAP_LEN);
		is_u(th_status(&t, in, sizeof(in), out, 16), 0,
		     "SET_HCA_CAP type 0x%x with the current caps", types[i]);
		is_u(t.e.viol[R_RESERVED_NONZERO], 0,
		     "... every capability reported is a known field");
	}
	/* a capability bit the field table does not know */
	in[MLX5X_SET_HCA_CAP_IN_CAP_OFF + 0x0c] = 0x01;
	th_status(&t, in, sizeof(in), out, 16);
	is_u(t.e.viol[R_RESERVED_NONZERO], 1, "... an unknown one is counted");
	th_teardown(&t);
}

static void t_report(struct te *x)
{
	char buf[16384], *p;
	FILE *fp = fmemopen(buf, sizeof(buf), "w");

	emu_report(&x->t.e, fp);
	fclose(fp);
	p = strstr(buf, "viol_reserved_nonzero=");
	ok(p && strtoull(p + 22, NULL, 10) == RSVD(x),
	   "report: viol_reserved_nonzero");
	ok(strstr(buf, "cmds_checked_reserved=") != NULL,
	   "report: cmds_checked_reserved");
}

int main(void)
{
	struct tqp a, b;
	struct tcq cq;
	struct te x;

	te_setup(&x);
	te_cq(&x, &cq, 4);
	te_qp(&x, &a, &cq, &cq);
	te_qp(&x, &b, &cq, &cq);
	te_pair(&x, &a, &b);
	t_clean(&x, &a, &b);
	t_header(&x);
	t_field_gap(&x, &cq);
	t_context(&x, &a);
	t_data(&x);
	t_logged_once(&x);
	t_report(&x);
	te_teardown(&x);
	t_set_caps_echo();
	return tap_done();
}
