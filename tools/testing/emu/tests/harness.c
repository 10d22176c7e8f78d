// SPDX-License-Identifier: GPL-2.0
/* Test harness for the emulator's unit tests. */
#include <stdlib.h>

#include "harness.h"
#include "log.h"

void th_default_opts(struct emu_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->socket_path = "unused";
	o->guid = 0x0002c90300001234ull;
	o->msix = 9;
	o->fw_major = 16;
	o->fw_minor = 35;
	o->fw_sub = 4030;
	o->boot_pages = 4;
	o->init_pages = 6;
	o->max_issi = 1;
	o->fault.timeout_op = -1;
	o->fault.status_op = -1;
	o->fault.health_synd = -1;
}

void th_setup_opts(struct th *t, const struct emu_opts *o)
{
	uint8_t v[4];

	memset(t, 0, sizeof(*t));
	log_set_level(getenv("EMU_TEST_LOG") ? LOG_DEBUG : LOG_QUIET);
	if (emu_create(&t->e, o))
		abort();
	t->mem = aligned_alloc(4096, TH_MEM_SIZE);
	if (!t->mem)
		abort();
	memset(t->mem, 0, TH_MEM_SIZE);
	gm_map_host(&t->e.gm, TH_MEM_BASE, TH_MEM_SIZE, t->mem,
		    GM_PROT_READ | GM_PROT_WRITE);
	t->next = TH_MEM_BASE;
	t->token = 1;
	t->cmdq = th_alloc(t, 4096, 4096);
	/* program the command queue through BAR0, as a driver does */
	put_be32(v, (uint32_t)(t->cmdq >> 32));
	emu_bar0_write(&t->e, MLX5X_ISEG_CMDQ_ADDR_H_OFF, v, 4);
	put_be32(v, (uint32_t)t->cmdq);
	emu_bar0_write(&t->e, MLX5X_ISEG_CMDQ_ADDR_L_SZ_OFF, v, 4);
}

void th_setup(struct th *t)
{
	struct emu_opts o;

	th_default_opts(&o);
	th_setup_opts(t, &o);
}

void th_teardown(struct th *t)
{
	emu_destroy(&t->e);
	free(t->mem);
}

uint64_t th_alloc(struct th *t, uint64_t size, uint64_t align)
{
	uint64_t a = (t->next + align - 1) & ~(align - 1);

	if (a + size > TH_MEM_BASE + TH_MEM_SIZE)
		abort();
	t->next = a + size;
	memset(t->mem + (a - TH_MEM_BASE), 0, size);
	return a;
}

void *th_host(struct th *t, uint64_t iova)
{
	return t->mem + (iova - TH_MEM_BASE);
}

static unsigned int blocks(uint32_t len)
{
	return len > 16 ? (len - 16 + 511) / 512 : 0;
}

/* a chain of n blocks, each 1 KiB aligned, numbered, with the token */
static void chain(struct th *t, uint64_t *blk, unsigned int n, uint8_t tok,
		  const uint8_t *data, uint32_t len)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		blk[i] = th_alloc(t, MLX5X_MBOX_LEN, MLX5X_MBOX_ALIGN);
	for (i = 0; i < n; i++) {
		uint8_t *b = th_host(t, blk[i]);
		uint32_t chunk = len > 512 ? 512 : len;

		if (data) {
			memcpy(b, data, chunk);
			data += chunk;
			len -= chunk;
		}
		put_be64(b + MLX5X_MBOX_NEXT_OFF, i + 1 < n ? blk[i + 1] : 0);
		put_be32(b + MLX5X_MBOX_BLOCK_NUM_OFF, i);
		b[MLX5X_MBOX_TOKEN_OFF] = tok;
	}
}

void th_build(struct th *t, int slot, const void *in, uint32_t inlen,
	      uint32_t outlen, struct th_cmd *c)
{
	uint8_t *lay;

	memset(c, 0, sizeof(*c));
	c->slot = slot;
	c->inlen = inlen;
	c->outlen = outlen;
	c->desc = t->cmdq + (uint64_t)slot * MLX5X_CMD_LAY_LEN;
	c->n_in = blocks(inlen);
	c->n_out = blocks(outlen);
	if (c->n_in > 64 || c->n_out > 64)
		abort();
	if (++t->token == 0)
		t->token = 1;
	chain(t, c->in_blk, c->n_in, t->token, (const uint8_t *)in + 16,
	      inlen > 16 ? inlen - 16 : 0);
	chain(t, c->out_blk, c->n_out, t->token, NULL, 0);
	lay = th_host(t, c->desc);
	memset(lay, 0, MLX5X_CMD_LAY_LEN);
	lay[MLX5X_CMD_LAY_TYPE_OFF] = MLX5X_CMD_TYPE_PCI;
	put_be32(lay + MLX5X_CMD_LAY_INLEN_OFF, inlen);
	put_be32(lay + MLX5X_CMD_LAY_OUTLEN_OFF, outlen);
	memcpy(lay + MLX5X_CMD_LAY_IN_OFF, in, inlen < 16 ? inlen : 16);
	if (c->n_in)
		put_be64(lay + MLX5X_CMD_LAY_IN_PTR_OFF, c->in_blk[0]);
	if (c->n_out)
		put_be64(lay + MLX5X_CMD_LAY_OUT_PTR_OFF, c->out_blk[0]);
	lay[MLX5X_CMD_LAY_TOKEN_OFF] = t->token;
	lay[MLX5X_CMD_LAY_STATUS_OWN_OFF] = MLX5X_CMD_OWNER_MASK;
}

int th_ring(struct th *t, struct th_cmd *c)
{
	uint8_t *lay = th_host(t, c->desc);
	uint8_t v[4];

	put_be32(v, 1u << c->slot);
	emu_bar0_write(&t->e, MLX5X_ISEG_CMD_DBELL_OFF, v, 4);
	emu_run_pending(&t->e);
	if (lay[MLX5X_CMD_LAY_STATUS_OWN_OFF] & MLX5X_CMD_OWNER_MASK)
		return -1;
	return lay[MLX5X_CMD_LAY_STATUS_OWN_OFF] >> 1;
}

void th_read_out(struct th *t, struct th_cmd *c, void *out)
{
	uint8_t *o = out, *lay = th_host(t, c->desc);
	uint32_t off = 16, i;

	memcpy(o, lay + MLX5X_CMD_LAY_OUT_OFF, c->outlen < 16 ? c->outlen : 16);
	for (i = 0; i < c->n_out; i++) {
		uint32_t n = c->outlen - off > 512 ? 512 : c->outlen - off;

		memcpy(o + off, th_host(t, c->out_blk[i]), n);
		off += n;
	}
}

int th_exec_slot(struct th *t, int slot, const void *in, uint32_t inlen,
		 void *out, uint32_t outlen)
{
	struct th_cmd c;
	int d;

	th_build(t, slot, in, inlen, outlen, &c);
	d = th_ring(t, &c);
	if (d == 0 && out)
		th_read_out(t, &c, out);
	return d;
}

int th_exec(struct th *t, const void *in, uint32_t inlen, void *out,
	    uint32_t outlen)
{
	return th_exec_slot(t, 0, in, inlen, out, outlen);
}

unsigned int th_status(struct th *t, const void *in, uint32_t inlen,
		       void *out, uint32_t outlen)
{
	int d = th_exec(t, in, inlen, out, outlen);

	if (d)
		return 0x100 + (unsigned int)d;
	return PGET(out, MLX5X_CMD_OUT_STATUS);
}

uint32_t th_syndrome(const void *out)
{
	return PGET(out, MLX5X_CMD_OUT_SYNDROME);
}

void th_hdr(void *in, uint16_t op, uint16_t op_mod)
{
	PSET(in, MLX5X_CMD_IN_OPCODE, op);
	PSET(in, MLX5X_CMD_IN_OP_MOD, op_mod);
}

static void must(struct th *t, const void *in, uint32_t inlen, void *out,
		 uint32_t outlen, const char *what)
{
	unsigned int st = th_status(t, in, inlen, out, outlen);

	if (st) {
		diag("setup step %s failed: status 0x%x syndrome 0x%x", what,
		     st, th_syndrome(out));
		abort();
	}
}

void th_enable_hca(struct th *t)
{
	uint8_t in[16] = { 0 }, out[16];

	th_hdr(in, MLX5X_CMD_OP_ENABLE_HCA, 0);
	must(t, in, 16, out, 16, "ENABLE_HCA");
}

static void give_pages(struct th *t, uint16_t mode)
{
	uint8_t in[16] = { 0 }, out[16];
	uint32_t n, i;
	uint8_t *gin;

	th_hdr(in, MLX5X_CMD_OP_QUERY_PAGES, mode);
	must(t, in, 16, out, 16, "QUERY_PAGES");
	n = get_be32(out + MLX5X_QUERY_PAGES_OUT_NUM_PAGES_OFF);
	if (!n)
		return;
	gin = calloc(1, 16 + 8 * n);
	th_hdr(gin, MLX5X_CMD_OP_MANAGE_PAGES, MLX5X_PAGES_GIVE);
	put_be32(gin + MLX5X_PAGES_IN_INPUT_NUM_ENTRIES_OFF, n);
	for (i = 0; i < n; i++)
		put_be64(gin + 16 + 8 * i, th_alloc(t, 4096, 4096));
	must(t, gin, 16 + 8 * n, out, 16, "MANAGE_PAGES");
	free(gin);
}

/* SET_HCA_CAP(ATOMIC) as mlx5_core sends it: host-order replies */
void th_set_atomic_cap(struct th *t)
{
	uint8_t in[MLX5X_SET_HCA_CAP_IN_LEN] = { 0 }, out[16];

	th_hdr(in, MLX5X_CMD_OP_SET_HCA_CAP, MLX5X_CAP_TYPE_ATOMIC << 1);
	PSET(in + MLX5X_SET_HCA_CAP_IN_CAP_OFF,
	     MLX5X_ATOMIC_CAP_REQ_8B_ENDIANNESS, MLX5X_ATOMIC_REQ_MODE_HOST);
	must(t, in, sizeof(in), out, 16, "SET_HCA_CAP(ATOMIC)");
}

void th_init_hca(struct th *t)
{
	uint8_t in[32] = { 0 }, out[16];

	th_enable_hca(t);
	give_pages(t, MLX5X_PAGES_BOOT);
	give_pages(t, MLX5X_PAGES_INIT);
	th_set_atomic_cap(t);
	th_hdr(in, MLX5X_CMD_OP_INIT_HCA, 0);
	must(t, in, 32, out, 16, "INIT_HCA");
	t->uar = th_alloc_num(t, MLX5X_CMD_OP_ALLOC_UAR);
	t->pd = th_alloc_num(t, MLX5X_CMD_OP_ALLOC_PD);
}

uint32_t th_alloc_num(struct th *t, uint16_t op)
{
	uint8_t in[16] = { 0 }, out[16];

	th_hdr(in, op, 0);
	must(t, in, 16, out, 16, cmd_op_name(op));
	return get_be32(out + 8) & 0xffffff;
}

uint32_t th_create_eq(struct th *t, unsigned int log_size, uint64_t mask,
		      unsigned int intr, uint64_t *ring)
{
	uint32_t bytes = 64u << log_size;
	uint32_t npages = (bytes + 4095) / 4096, i;
	uint32_t inlen = MLX5X_CREATE_EQ_IN_LEN + 8 * npages;
	uint8_t *in = calloc(1, inlen), out[16];
	uint8_t *eqc = in + MLX5X_CREATE_EQ_IN_EQC_OFF;
	uint64_t buf = th_alloc(t, npages * 4096ull, 4096);

	th_hdr(in, MLX5X_CMD_OP_CREATE_EQ, 0);
	PSET(eqc, MLX5X_EQC_LOG_EQ_SIZE, log_size);
	PSET(eqc, MLX5X_EQC_UAR_PAGE, t->uar);
	PSET(eqc, MLX5X_EQC_INTR, intr);
	put_be64(in + MLX5X_CREATE_EQ_IN_EVENT_BITMASK_OFF, mask);
	for (i = 0; i < npages; i++)
		put_be64(in + MLX5X_CREATE_EQ_IN_PAS_OFF + 8 * i, buf + 4096ull * i);
	/* like the driver: every entry starts owned by software (owner 1) */
	for (i = 0; i < (1u << log_size); i++)
		((uint8_t *)th_host(t, buf))[64 * i + MLX5X_EQE_OWNER_OFF] = 1;
	must(t, in, inlen, out, 16, "CREATE_EQ");
	free(in);
	if (ring)
		*ring = buf;
	return PGET(out, MLX5X_CREATE_EQ_OUT_EQ_NUMBER);
}

uint32_t th_create_cq(struct th *t, unsigned int log_size, uint32_t eqn)
{
	uint32_t bytes = 64u << log_size;
	uint32_t npages = (bytes + 4095) / 4096, i;
	uint32_t inlen = MLX5X_CREATE_CQ_IN_LEN + 8 * npages;
	uint8_t *in = calloc(1, inlen), out[16];
	uint8_t *cqc = in + MLX5X_CREATE_CQ_IN_CQC_OFF;
	uint64_t buf = th_alloc(t, npages * 4096ull, 4096);

	th_hdr(in, MLX5X_CMD_OP_CREATE_CQ, 0);
	PSET(cqc, MLX5X_CQC_LOG_CQ_SIZE, log_size);
	PSET(cqc, MLX5X_CQC_UAR_PAGE, t->uar);
	PSET(cqc, MLX5X_CQC_C_EQN, eqn);
	put_be64(cqc + MLX5X_CQC_DBR_ADDR_OFF, th_alloc(t, 64, 64));
	for (i = 0; i < npages; i++)
		put_be64(in + MLX5X_CREATE_CQ_IN_PAS_OFF + 8 * i, buf + 4096ull * i);
	must(t, in, inlen, out, 16, "CREATE_CQ");
	free(in);
	return PGET(out, MLX5X_CREATE_CQ_OUT_CQN);
}

void th_reserved(struct th *t, uint32_t eqn)
{
	uint8_t in[MLX5X_CREATE_SRQ_IN_LEN + 8] = { 0 }, out[16];
	uint8_t *srqc = in + MLX5X_CREATE_SRQ_IN_SRQC_OFF;

	if (t->rsv_srqn)
		return;
	t->rsv_xrcd = th_alloc_num(t, MLX5X_CMD_OP_ALLOC_XRCD);
	t->rsv_cqn = th_create_cq(t, 0, eqn);
	th_hdr(in, MLX5X_CMD_OP_CREATE_SRQ, 0);
	PSET(srqc, MLX5X_SRQC_LOG_SRQ_SIZE, 0);
	PSET(srqc, MLX5X_SRQC_LOG_RQ_STRIDE, 0);
	PSET(srqc, MLX5X_SRQC_PD, t->pd);
	PSET(srqc, MLX5X_SRQC_XRCD, t->rsv_xrcd);
	PSET(srqc, MLX5X_SRQC_CQN, t->rsv_cqn);
	put_be64(srqc + MLX5X_SRQC_DBR_ADDR_OFF, th_alloc(t, 64, 64));
	put_be64(in + MLX5X_CREATE_SRQ_IN_PAS_OFF, th_alloc(t, 4096, 4096));
	must(t, in, sizeof(in), out, 16, "CREATE_SRQ (reserved)");
	t->rsv_srqn = PGET(out, MLX5X_CREATE_SRQ_OUT_SRQN);
}
