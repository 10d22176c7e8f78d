/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Queue pairs inside the command handlers: the groups of context fields
 * a transition takes (qp.c) and the firmware checks of those fields and
 * of CREATE_QP (qp_check.c).
 */
#ifndef EMU_QP_INT_H
#define EMU_QP_INT_H

#include "cmd.h"

/* groups of context fields a transition may take */
enum {
	F_ACCESS	= 1u << 0,
	F_PKEY		= 1u << 1,
	F_PORT		= 1u << 2,
	F_QKEY		= 1u << 3,
	F_PATH		= 1u << 4,
	F_ALT_PATH	= 1u << 5,
	F_MTU		= 1u << 6,
	F_RQPN		= 1u << 7,
	F_RPSN		= 1u << 8,
	F_RRA		= 1u << 9,
	F_RNR		= 1u << 10,
	F_SPSN		= 1u << 11,
	F_RETRY		= 1u << 12,
	F_RNR_RETRY	= 1u << 13,
	F_SRA		= 1u << 14,
	F_ACK_TO	= 1u << 15,
	F_COUNTER	= 1u << 16,
	F_PM		= 1u << 17,
	F_LAG		= 1u << 18,
	F_RRE		= 1u << 19,
	F_RWE		= 1u << 20,
	F_RAE		= 1u << 21,
};

/* RC, UC, XRC: the QP types with a remote peer and an address path */
bool qp_st_connected(uint8_t st);
/* opt_param_mask bits the transition (modify opcode) allows for st */
uint32_t qp_optpar_allowed(uint16_t op, uint8_t st);
/* the fields of groups in the command's context, before they are taken */
int qp_check_fields(struct cmd_ctx *c, const struct emu_qp *qp,
		    const uint8_t *qpc, uint32_t groups);
/* a QP or CQ timestamp format the device offers */
bool ts_format_ok(struct emu *e, uint32_t ts);
/* CREATE_QP: the context fields that are not object numbers */
int qp_check_create_ctx(struct cmd_ctx *c, const uint8_t *qpc);

#endif /* EMU_QP_INT_H */
