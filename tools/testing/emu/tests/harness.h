/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test harness: a device with a block of "guest memory" (host memory in
 * the DMA map table), a driver-side command builder that lays out
 * descriptors and mailbox chains exactly like a driver, and helpers for
 * the bring-up steps most tests need.  Commands run synchronously: the
 * doorbell is written through BAR0, then the pending work is run.
 */
#ifndef EMU_HARNESS_H
#define EMU_HARNESS_H

#include <stdint.h>

#include "cmd.h"
#include "emu.h"
#include "tap.h"

#define TH_MEM_BASE	0x40000000ull
#define TH_MEM_SIZE	(16u << 20)

struct th {
	struct emu e;
	uint8_t *mem;
	uint64_t next;		/* bump allocator in guest memory */
	uint64_t cmdq;		/* command queue page */
	uint8_t token;
	uint32_t uar;		/* after th_init_hca() */
	uint32_t pd, eqn;
	/* th_reserved(): what mlx5_ib names for a QP without SRQ/XRCD */
	uint32_t rsv_xrcd, rsv_cqn, rsv_srqn;
};

/* a command laid out in guest memory, for tests that tamper with it */
struct th_cmd {
	int slot;
	uint64_t desc;
	uint64_t in_blk[64], out_blk[64];
	unsigned int n_in, n_out;
	uint32_t inlen, outlen;
};

void th_setup(struct th *t);
void th_setup_opts(struct th *t, const struct emu_opts *o);
void th_teardown(struct th *t);
void th_default_opts(struct emu_opts *o);
uint64_t th_alloc(struct th *t, uint64_t size, uint64_t align);
void *th_host(struct th *t, uint64_t iova);

/* lay out, ring, run; the descriptor's delivery status or -1 if still
 * owned by the device */
void th_build(struct th *t, int slot, const void *in, uint32_t inlen,
	      uint32_t outlen, struct th_cmd *c);
int th_ring(struct th *t, struct th_cmd *c);
void th_read_out(struct th *t, struct th_cmd *c, void *out);
int th_exec_slot(struct th *t, int slot, const void *in, uint32_t inlen,
		 void *out, uint32_t outlen);
int th_exec(struct th *t, const void *in, uint32_t inlen, void *out,
	    uint32_t outlen);

/* command status of a well-delivered command (or 0x100 + delivery) */
unsigned int th_status(struct th *t, const void *in, uint32_t inlen,
		       void *out, uint32_t outlen);
uint32_t th_syndrome(const void *out);

/* input builders */
void th_hdr(void *in, uint16_t op, uint16_t op_mod);
/* ENABLE_HCA .. INIT_HCA with the pages asked for */
void th_enable_hca(struct th *t);
void th_init_hca(struct th *t);	/* with th_set_atomic_cap() */
void th_set_atomic_cap(struct th *t);
/* ALLOC_UAR, ALLOC_PD, an EQ with event mask (log_size entries) */
uint32_t th_alloc_num(struct th *t, uint16_t op);
uint32_t th_create_eq(struct th *t, unsigned int log_size, uint64_t mask,
		      unsigned int intr, uint64_t *ring);
uint32_t th_create_cq(struct th *t, unsigned int log_size, uint32_t eqn);
/*
 * Once per device, the reserved objects mlx5_ib names in every QP that
 * has no SRQ or XRC domain of its own (devr xrcdn1 and s1, with the CQ
 * c0 on EQ eqn); firmware has no object 0 to mean "none".
 */
void th_reserved(struct th *t, uint32_t eqn);

#endif /* EMU_HARNESS_H */
