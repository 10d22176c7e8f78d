/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command execution: the context a handler sees and the dispatch table.
 *
 * A handler gets the whole input (inline part and mailbox data joined)
 * and a zeroed output buffer of the length the driver asked for, both
 * already bounds-checked against the table's minimum lengths.  It returns
 * 0, or the command status from CMD_FAIL(), which also records a syndrome
 * that names the check that failed: 0x5e<file><line>.
 */
#ifndef EMU_CMD_H
#define EMU_CMD_H

#include <stdint.h>

#include "emu.h"
#include "util.h"

struct cmd_ctx {
	struct emu *e;
	int slot;
	uint16_t op, op_mod, uid;
	const uint8_t *in;
	uint32_t inlen;
	uint8_t *out;
	uint32_t outlen;
	uint8_t status;
	uint32_t syndrome;
	char detail[120];	/* for the trace line */
};

/* when a command may run, relative to the HCA life cycle */
enum cmd_gate {
	GATE_ANY,		/* command queue up */
	GATE_ENABLED,		/* after ENABLE_HCA */
	GATE_PRE_INIT,		/* after ENABLE_HCA, before INIT_HCA */
	GATE_INIT,		/* between INIT_HCA and TEARDOWN_HCA */
};

struct cmd_desc {
	uint16_t op;
	const char *name;
	int (*fn)(struct cmd_ctx *c);
	uint32_t min_in, min_out;
	enum cmd_gate gate;
};

/* syndrome ids of the source files */
enum {
	FILE_CMDQ = 1, FILE_TABLE, FILE_HCA, FILE_PAGES, FILE_EQ, FILE_RES,
	FILE_QP, FILE_PORT, FILE_MKEY, FILE_SRQ, FILE_MAD, FILE_MCG, FILE_CQ,
};

int cmd_fail(struct cmd_ctx *c, uint8_t status, unsigned int file,
	     unsigned int line);
#define CMD_FAIL(c, st) cmd_fail((c), (st), EMU_FILE_ID, __LINE__)
/*
 * Refuse a command for breaking firmware rule r (emu.h, rules.c): the
 * rule's status, syndrome EMU_RULE_SYND(r), and the rule's counter.
 */
#define EMU_RULE_SYND(r)	(0x5e800000u | (uint32_t)(r))
int cmd_rule(struct cmd_ctx *c, enum emu_rule r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void cmd_detail(struct cmd_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* dispatch: run one command (status/syndrome left in c and in c->out) */
void cmd_dispatch(struct cmd_ctx *c);
const struct cmd_desc *cmd_lookup(uint16_t op, unsigned int *idx);
unsigned int cmd_table_size(void);
const struct cmd_desc *cmd_table_entry(unsigned int idx);

/* handlers */
int h_enable_hca(struct cmd_ctx *c);
int h_disable_hca(struct cmd_ctx *c);
int h_query_issi(struct cmd_ctx *c);
int h_set_issi(struct cmd_ctx *c);
int h_query_hca_cap(struct cmd_ctx *c);
int h_set_hca_cap(struct cmd_ctx *c);
int h_init_hca(struct cmd_ctx *c);
int h_teardown_hca(struct cmd_ctx *c);
int h_query_adapter(struct cmd_ctx *c);
int h_set_driver_version(struct cmd_ctx *c);
int h_query_special_contexts(struct cmd_ctx *c);
int h_nop(struct cmd_ctx *c);
int h_query_pages(struct cmd_ctx *c);
int h_manage_pages(struct cmd_ctx *c);
int h_access_reg(struct cmd_ctx *c);
int h_query_hca_vport_context(struct cmd_ctx *c);
int h_modify_hca_vport_context(struct cmd_ctx *c);
int h_query_hca_vport_gid(struct cmd_ctx *c);
int h_query_hca_vport_pkey(struct cmd_ctx *c);
int h_query_vport_counter(struct cmd_ctx *c);
int h_mad_ifc(struct cmd_ctx *c);
int h_attach_to_mcg(struct cmd_ctx *c);
int h_detach_from_mcg(struct cmd_ctx *c);
int h_alloc_uar(struct cmd_ctx *c);
int h_dealloc_uar(struct cmd_ctx *c);
int h_alloc_pd(struct cmd_ctx *c);
int h_dealloc_pd(struct cmd_ctx *c);
int h_alloc_xrcd(struct cmd_ctx *c);
int h_dealloc_xrcd(struct cmd_ctx *c);
int h_create_eq(struct cmd_ctx *c);
int h_destroy_eq(struct cmd_ctx *c);
int h_query_eq(struct cmd_ctx *c);
int h_create_mkey(struct cmd_ctx *c);
int h_destroy_mkey(struct cmd_ctx *c);
int h_query_mkey(struct cmd_ctx *c);
int h_create_cq(struct cmd_ctx *c);
int h_destroy_cq(struct cmd_ctx *c);
int h_query_cq(struct cmd_ctx *c);
int h_modify_cq(struct cmd_ctx *c);
int h_create_srq(struct cmd_ctx *c);
int h_destroy_srq(struct cmd_ctx *c);
int h_query_srq(struct cmd_ctx *c);
int h_arm_rq(struct cmd_ctx *c);
int h_create_xrc_srq(struct cmd_ctx *c);
int h_arm_xrc_srq(struct cmd_ctx *c);
int h_create_rmp(struct cmd_ctx *c);
int h_modify_rmp(struct cmd_ctx *c);
int h_create_qp(struct cmd_ctx *c);
int h_destroy_qp(struct cmd_ctx *c);
int h_modify_qp(struct cmd_ctx *c);
int h_query_qp(struct cmd_ctx *c);

/* helpers for handlers */
/* parse a PAS list at in+pas_off covering len bytes of queue */
int cmd_get_pas(struct cmd_ctx *c, uint32_t pas_off, uint32_t log_pg_field,
		uint32_t page_offset_field, uint64_t len, struct pas *p,
		unsigned int file, unsigned int line);
#define CMD_GET_PAS(c, off, lps, po, len, p) \
	cmd_get_pas((c), (off), (lps), (po), (len), (p), EMU_FILE_ID, __LINE__)
uint32_t cap_cur(struct emu *e, uint32_t off, uint32_t mask);
#define CAP(e, f) cap_cur((e), f##_OFF, f##_MASK)

#endif /* EMU_CMD_H */
