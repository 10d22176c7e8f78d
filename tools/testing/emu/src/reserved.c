// SPDX-License-Identifier: GPL-2.0
/*
 * Firmware rule reserved_nonzero: every bit of a command's input that no
 * field covers is zero.  The PRM writes it as a general rule (reserved
 * fields are written as zero, read as don't care); upstream mlx5 keeps
 * it by building every input from a zeroed mlx5_ifc layout, so a set bit
 * outside the fields the device knows is a driver bug: stale buffer
 * contents, a field at the wrong offset, a value overflowing its mask.
 *
 * The known bits come from the one field table of the field trace
 * (ftrace.c): the header (opcode, uid, op_mod), the command's fields and
 * the contexts it embeds, per op_mod where the layout depends on it, and
 * the data after the fields (PAS and MTT lists, MADs, register contents)
 * up to the length the command gives it.
 *
 * Counted, never refused: real ConnectX firmware ignores many reserved
 * bits rather than failing the command, so the emulator executes the
 * command as it would anyway.  It is a strictness violation all the
 * same: one count per input word with stray bits, and the e2e lanes fail
 * on any.  Each (opcode, offset) is logged once, with the stray bits and
 * the field before them, so the driver's developer can find the field.
 */
#include <stdlib.h>

#include "cmd.h"
#include "log.h"

/* logged already? else remember it (while there is room) */
static bool logged(struct emu_rsvd *r, uint16_t op, uint32_t off)
{
	unsigned int i;

	for (i = 0; i < r->nlogged; i++)
		if (r->logged[i].op == op && r->logged[i].off == off)
			return true;
	if (r->nlogged == EMU_RSVD_LOGGED)
		return true;
	r->logged[r->nlogged].op = op;
	r->logged[r->nlogged].off = off;
	if (++r->nlogged == EMU_RSVD_LOGGED)
		emu_warn("reserved_nonzero: %u places logged, no more",
			 EMU_RSVD_LOGGED);
	return false;
}

/* input bytes [off, off + 4) clipped to the input, as a big-endian word */
static uint32_t word(const uint8_t *p, uint32_t off, uint32_t len)
{
	uint32_t v = 0, b;

	for (b = 0; b < 4; b++)
		v = v << 8 | (off + b < len ? p[off + b] : 0);
	return v;
}

static void stray(const struct cmd_ctx *c, uint32_t off, uint32_t bits)
{
	struct emu *e = c->e;
	char near[64];

	if (logged(&e->rsvd, c->op, off)) {
		e->viol[R_RESERVED_NONZERO]++;
		return;
	}
	ftrace_field_near(c, off, near, sizeof(near));
	rule_hit(e, R_RESERVED_NONZERO,
		 "%s op_mod 0x%x: input offset 0x%x, reserved bits 0x%08x set (after %s)",
		 cmd_op_name(c->op), c->op_mod, off, bits, near);
}

void reserved_check(const struct cmd_ctx *c)
{
	uint32_t off, bits;
	uint8_t *known;

	known = malloc(c->inlen ? c->inlen : 1);
	if (!known) {
		emu_warn("reserved_nonzero: no memory, %s not checked",
			 cmd_op_name(c->op));
		return;
	}
	ftrace_known(c, known);
	c->e->rsvd.checked++;
	for (off = 0; off < c->inlen; off += 4) {
		bits = word(c->in, off, c->inlen) &
		       ~word(known, off, c->inlen);
		if (bits)
			stray(c, off, bits);
	}
	free(known);
}

void reserved_report(struct emu *e, FILE *fp)
{
	fprintf(fp, "cmds_checked_reserved=%llu\n",
		(unsigned long long)e->rsvd.checked);
}
