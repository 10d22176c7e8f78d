// SPDX-License-Identifier: GPL-2.0
/*
 * Transport engine, data path: memory key translation and refusals, every
 * RC operation between two QPs with its CQEs, segments larger than the
 * wire segment, selective signaling, send queue wrap-around, BlueFlame,
 * 64/128-byte CQEs and the owner bit per lap, UD and the GSI QP, SRQs,
 * two devices joined by a link, and the engine thread.
 */
#include <unistd.h>

#include "eng_th.h"

static void fill(uint8_t *p, uint32_t len, uint32_t seed)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 8));
}

/* ---- memory keys ---- */

static void t_mkey(void)
{
	struct te x;
	struct tmr m, ro;
	struct emu *e;
	struct emu_mkey *mk;
	struct emu_pd *pd;
	uint8_t buf[64];
	uint32_t other_pd, pa;

	te_setup(&x);
	e = &x.t.e;
	m = te_mr(&x, 10000, TMR_LR | TMR_LW);
	ro = te_mr(&x, 100, TMR_LR);
	pd = objtab_get(&e->obj[OBJ_PD], x.t.pd);
	other_pd = th_alloc_num(&x.t, MLX5X_CMD_OP_ALLOC_PD);

	is_u(mkey_check(e, m.key, pd, m.va, 10000, ACC_LR | ACC_LW, &mk),
	     MK_OK, "mkey: whole region, local read/write");
	fill(m.host, 10000, 1);
	ok(!mkey_dma(e, mk, m.va + 4000, buf, 64, false) &&
	   !memcmp(buf, m.host + 4000, 64),
	   "mkey: MTT translation crosses pages (va 0x%llx != bus 0x%llx)",
	   (unsigned long long)m.va, (unsigned long long)m.iova);
	is_u(mkey_check(e, m.key ^ 1, pd, m.va, 1, ACC_LR, NULL), MK_BAD_KEY,
	     "mkey: wrong variant refused");
	is_u(mkey_check(e, m.key + 0x100, pd, m.va, 1, ACC_LR, NULL),
	     MK_BAD_KEY, "mkey: unknown index refused");
	is_u(mkey_check(e, m.key, objtab_get(&e->obj[OBJ_PD], other_pd), m.va,
			1, ACC_LR, NULL), MK_PD, "mkey: other PD refused");
	is_u(mkey_check(e, m.key, pd, m.va, 1, ACC_RW, NULL), MK_ACCESS,
	     "mkey: remote write not granted");
	is_u(mkey_check(e, ro.key, pd, ro.va, 1, ACC_LW, NULL), MK_ACCESS,
	     "mkey: local write not granted");
	is_u(mkey_check(e, m.key, pd, m.va - 1, 2, ACC_LR, NULL), MK_BOUNDS,
	     "mkey: below the region refused");
	is_u(mkey_check(e, m.key, pd, m.va + 9999, 2, ACC_LR, NULL), MK_BOUNDS,
	     "mkey: past the end refused");
	is_u(mkey_check(e, m.key, pd, m.va + 10000, 0, ACC_LR, NULL), MK_OK,
	     "mkey: empty range at the end is in bounds");
	pa = te_pa_mkey(&x, x.t.pd);
	is_u(mkey_check(e, pa, pd, m.iova, 4096, ACC_LR | ACC_LW, &mk), MK_OK,
	     "mkey: PA mode, length64 covers any address");
	ok(!mkey_dma(e, mk, m.iova + 0x123, buf, 16, false) &&
	   !memcmp(buf, m.host, 16), "mkey: PA mode is the bus address");
	ok(mkey_dma(e, mk, 0x1000, buf, 16, false) == MK_DMA,
	   "mkey: unmapped bus address refused by the DMA table");
	te_destroy_mkey(&x, ro.key);
	is_u(mkey_check(e, ro.key, pd, ro.va, 1, ACC_LR, NULL), MK_BAD_KEY,
	     "mkey: destroyed key refused");
	te_teardown(&x);
}

/* ---- SEND / RECV ---- */

struct pair {
	struct te x;
	struct tcq cqa, cqb;
	struct tqp a, b;
	struct tmr ma, mb;
};

static void pair_setup(struct pair *p, uint64_t mr_len)
{
	te_setup(&p->x);
	te_cq(&p->x, &p->cqa, 6);
	te_cq(&p->x, &p->cqb, 6);
	te_qp(&p->x, &p->a, &p->cqa, &p->cqa);
	te_qp(&p->x, &p->b, &p->cqb, &p->cqb);
	te_pair(&p->x, &p->a, &p->b);
	p->ma = te_mr(&p->x, mr_len, TMR_ALL);
	p->mb = te_mr(&p->x, mr_len, TMR_ALL);
}

static void send_recv(uint32_t len)
{
	struct pair p;
	struct tcqe c = { 0 };
	struct tsge s, r;
	uint16_t idx;
	int got;

	pair_setup(&p, len + 64);
	fill(p.ma.host, len, len);
	memset(p.mb.host, 0, len + 64);
	r = te_sge(&p.mb, 0, len + 64);
	te_recv(&p.x, &p.b, &r, 1);
	s = te_sge(&p.ma, 0, len);
	idx = te_send(&p.x, &p.a, &(struct tsend){
		.opcode = MLX5X_OPCODE_SEND, .flags = TE_SIGNALED,
		.sg = &s, .nsge = 1 });
	te_run(&p.x);
	got = te_poll(&p.x, &p.cqb, &c);
	ok(got && c.opcode == MLX5X_CQE_RESP_SEND &&
	   c.byte_cnt == len && c.wqe_counter == 0 && c.qpn == p.b.qpn &&
	   c.uidx == te_uidx(&p.x, &p.b, 0),
	   "send %u B: receive CQE (op %u, %u bytes, counter %u, uidx 0x%x)",
	   len, c.opcode, c.byte_cnt, c.wqe_counter, c.uidx);
	ok(!memcmp(p.ma.host, p.mb.host, len) && p.mb.host[len] == 0,
	   "send %u B: payload placed, nothing beyond", len);
	got = te_poll(&p.x, &p.cqa, &c);
	ok(got && c.opcode == MLX5X_CQE_REQ &&
	   c.wqe_op == MLX5X_OPCODE_SEND && c.wqe_counter == idx &&
	   c.uidx == te_uidx(&p.x, &p.a, 0),
	   "send %u B: requester CQE (op %u, wqe op 0x%x, counter %u)", len,
	   c.opcode, c.wqe_op, c.wqe_counter);
	ok(!te_poll(&p.x, &p.cqa, &c) && !te_poll(&p.x, &p.cqb, &c),
	   "send %u B: one CQE each", len);
	te_teardown(&p.x);
}

static void t_send_imm_inline_scatter(void)
{
	struct pair p;
	struct tcqe c = { 0 };
	struct tsge r[3];
	static const char msg[] = "inline payload crossing three SGEs!";
	uint32_t n = sizeof(msg);

	pair_setup(&p, 4096);
	r[0] = te_sge(&p.mb, 0, 5);
	r[1] = te_sge(&p.mb, 100, 7);
	r[2] = te_sge(&p.mb, 200, 100);
	te_recv(&p.x, &p.b, r, 3);
	te_send(&p.x, &p.a, &(struct tsend){
		.opcode = MLX5X_OPCODE_SEND_IMM,
		.flags = TE_SIGNALED | TE_INLINE, .imm = 0xdeadbeef,
		.inl = msg, .inl_len = n });
	te_run(&p.x);
	te_poll(&p.x, &p.cqb, &c);
	ok(c.opcode == MLX5X_CQE_RESP_SEND_IMM &&
	   get_be32(c.imm) == 0xdeadbeef && c.byte_cnt == n,
	   "send imm inline: CQE opcode %u imm 0x%x len %u", c.opcode,
	   get_be32(c.imm), c.byte_cnt);
	ok(!memcmp(p.mb.host, msg, 5) && !memcmp(p.mb.host + 100, msg + 5, 7) &&
	   !memcmp(p.mb.host + 200, msg + 12, n - 12),
	   "send imm inline: scattered over three SGEs");
	ok(te_poll(&p.x, &p.cqa, &c) && c.wqe_op == MLX5X_OPCODE_SEND_IMM,
	   "send imm inline: requester CQE");
	te_teardown(&p.x);
}

static void t_zero_length(void)
{
	struct pair p;
	struct tcqe c = { 0 };
	struct tsge s;

	pair_setup(&p, 4096);
	/* zero-SGE receive: only the terminator */
	te_recv(&p.x, &p.b, NULL, 0);
	te_send(&p.x, &p.a, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND_IMM,
		.flags = TE_SIGNALED, .imm = 7 });
	te_run(&p.x);
	ok(te_poll(&p.x, &p.cqb, &c) && c.opcode == MLX5X_CQE_RESP_SEND_IMM &&
	   c.byte_cnt == 0 && get_be32(c.imm) == 7,
	   "zero-length send imm into a zero-SGE receive");
	ok(te_poll(&p.x, &p.cqa, &c) && c.opcode == MLX5X_CQE_REQ,
	   "zero-length send completes");
	/* zero-length WRITE and READ: no key is checked */
	te_send(&p.x, &p.a, &(struct tsend){ .opcode = MLX5X_OPCODE_RDMA_WRITE,
		.flags = TE_SIGNALED, .raddr = 0x1234, .rkey = 0xbad00 });
	s = te_sge(&p.ma, 0, 0);
	te_send(&p.x, &p.a, &(struct tsend){ .opcode = MLX5X_OPCODE_RDMA_READ,
		.flags = TE_SIGNALED, .raddr = 0x5678, .rkey = 0xbad00,
		.sg = &s, .nsge = 1 });
	te_run(&p.x);
	ok(te_poll(&p.x, &p.cqa, &c) && c.opcode == MLX5X_CQE_REQ &&
	   c.wqe_op == MLX5X_OPCODE_RDMA_WRITE, "zero-length write succeeds");
	ok(te_poll(&p.x, &p.cqa, &c) && c.opcode == MLX5X_CQE_REQ &&
	   c.wqe_op == MLX5X_OPCODE_RDMA_READ && c.byte_cnt == 0,
	   "zero-length read succeeds");
	/* a zero-SGE receive cannot take a payload: local length error */
	te_recv(&p.x, &p.b, NULL, 0);
	s = te_sge(&p.ma, 0, 1);
	te_send(&p.x, &p.a, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND,
		.flags = TE_SIGNALED, .sg = &s, .nsge = 1 });
	te_run(&p.x);
	te_poll(&p.x, &p.cqb, &c);
	ok(c.opcode == MLX5X_CQE_RESP_ERR &&
	   c.syndrome == MLX5X_CQE_SYND_LOCAL_LENGTH_ERR,
	   "1 byte into a zero-SGE receive: local length error (0x%x)",
	   c.syndrome);
	te_poll(&p.x, &p.cqa, &c);
	ok(c.opcode == MLX5X_CQE_REQ_ERR &&
	   c.syndrome == MLX5X_CQE_SYND_REMOTE_INVAL_REQ_ERR,
	   "... the sender sees remote invalid request (0x%x)", c.syndrome);
	te_teardown(&p.x);
}

static void t_rdma(void)
{
	const uint32_t len = 200000;	/* four wire segments */
	struct pair p;
	struct tcqe c = { 0 };
	struct tsge s, r;
	uint64_t v, aoff;

	pair_setup(&p, len);
	fill(p.ma.host, len, 3);
	s = te_sge(&p.ma, 0, len);
	te_send(&p.x, &p.a, &(struct tsend){ .opcode = MLX5X_OPCODE_RDMA_WRITE,
		.flags = TE_SIGNALED, .raddr = p.mb.va, .rkey = p.mb.key,
		.sg = &s, .nsge = 1 });
	te_run(&p.x);
	ok(te_poll(&p.x, &p.cqa, &c) && c.opcode == MLX5X_CQE_REQ &&
	   !memcmp(p.ma.host, p.mb.host, len),
	   "rdma write %u B lands in the remote MR", len);
	ok(!te_poll(&p.x, &p.cqb, &c), "rdma write: no receive CQE");

	/* WRITE with immediate consumes a (zero-SGE) receive */
	fill(p.ma.host, 100, 4);
	te_recv(&p.x, &p.b, NULL, 0);
	s = te_sge(&p.ma, 0, 100);
	te_send(&p.x, &p.a, &(struct tsend){
		.opcode = MLX5X_OPCODE_RDMA_WRITE_IMM, .flags = TE_SIGNALED,
		.imm = 0x01020304, .raddr = p.mb.va + 1000, .rkey = p.mb.key,
		.sg = &s, .nsge = 1 });
	te_run(&p.x);
	ok(te_poll(&p.x, &p.cqb, &c) && c.opcode == MLX5X_CQE_RESP_WR_IMM &&
	   get_be32(c.imm) == 0x01020304 && c.byte_cnt == 100 &&
	   !memcmp(p.mb.host + 1000, p.ma.host, 100),
	   "write imm: data at raddr, receive CQE with imm and length");
	ok(te_poll(&p.x, &p.cqa, &c) &&
	   c.wqe_op == MLX5X_OPCODE_RDMA_WRITE_IMM, "write imm: requester CQE");

	/* READ, multi-segment */
	fill(p.mb.host, len, 5);
	memset(p.ma.host, 0, len);
	r = te_sge(&p.ma, 0, len);
	te_send(&p.x, &p.a, &(struct tsend){ .opcode = MLX5X_OPCODE_RDMA_READ,
		.flags = TE_SIGNALED, .raddr = p.mb.va, .rkey = p.mb.key,
		.sg = &r, .nsge = 1 });
	te_run(&p.x);
	te_poll(&p.x, &p.cqa, &c);
	ok(c.wqe_op == MLX5X_OPCODE_RDMA_READ &&
	   c.byte_cnt == len && !memcmp(p.ma.host, p.mb.host, len),
	   "rdma read %u B (byte_cnt %u)", len, c.byte_cnt);

	/* atomics on host-order memory, at an 8-byte aligned address */
	aoff = 64 + ((8 - (p.mb.va & 7)) & 7);
	v = 41;
	memcpy(p.mb.host + aoff, &v, 8);
	r = te_sge(&p.ma, 8, 8);
	te_send(&p.x, &p.a, &(struct tsend){ .opcode = MLX5X_OPCODE_ATOMIC_FA,
		.flags = TE_SIGNALED, .raddr = p.mb.va + aoff, .rkey = p.mb.key,
		.swap_add = 1, .sg = &r, .nsge = 1 });
	te_run(&p.x);
	memcpy(&v, p.mb.host + aoff, 8);
	ok(te_poll(&p.x, &p.cqa, &c) && c.wqe_op == MLX5X_OPCODE_ATOMIC_FA &&
	   v == 42, "fetch&add: remote 41 -> %llu", (unsigned long long)v);
	memcpy(&v, p.ma.host + 8, 8);
	is_u(v, 41, "fetch&add: original value returned");
	te_send(&p.x, &p.a, &(struct tsend){ .opcode = MLX5X_OPCODE_ATOMIC_CS,
		.flags = TE_SIGNALED, .raddr = p.mb.va + aoff, .rkey = p.mb.key,
		.compare = 42, .swap_add = 7, .sg = &r, .nsge = 1 });
	te_send(&p.x, &p.a, &(struct tsend){ .opcode = MLX5X_OPCODE_ATOMIC_CS,
		.flags = TE_SIGNALED, .raddr = p.mb.va + aoff, .rkey = p.mb.key,
		.compare = 42, .swap_add = 9, .sg = &r, .nsge = 1 });
	te_run(&p.x);
	memcpy(&v, p.mb.host + aoff, 8);
	ok(te_poll(&p.x, &p.cqa, &c) && te_poll(&p.x, &p.cqa, &c) && v == 7,
	   "cmp&swap: swapped once (42 -> 7), second compare failed");
	memcpy(&v, p.ma.host + 8, 8);
	is_u(v, 7, "cmp&swap: second returned the current value");
	te_teardown(&p.x);
}

static void t_signaling_and_wrap(void)
{
	struct pair p;
	struct tcqe c[64];
	struct tsge s, r;
	uint16_t last = 0;
	int i, n, total = 0, rx = 0;

	pair_setup(&p, 4096);
	s = te_sge(&p.ma, 0, 16);
	r = te_sge(&p.mb, 0, 64);
	/* 40 sends through a 16-WQEBB SQ: it wraps twice; every 4th signaled */
	for (i = 0; i < 40; i++) {
		if (i % 8 == 0) {
			int k;

			for (k = 0; k < 8; k++)
				te_recv(&p.x, &p.b, &r, 1);
		}
		last = te_send(&p.x, &p.a, &(struct tsend){
			.opcode = MLX5X_OPCODE_SEND,
			.flags = i % 4 == 3 ? TE_SIGNALED : 0,
			.sg = &s, .nsge = 1 });
		if (i % 8 == 7) {
			te_run(&p.x);
			n = te_poll_n(&p.x, &p.cqa, c, 64);
			total += n;
			rx += te_poll_n(&p.x, &p.cqb, c, 64);
		}
	}
	is_u(total, 10, "selective signaling: 10 CQEs for 40 sends");
	is_u(rx, 40, "selective signaling: every receive completes");
	is_u(last, 39, "sq wrapped: 40 WQEs in a 16-WQEBB queue");
	te_teardown(&p.x);
}

static void t_bigwqe_wrap(void)
{
	struct pair p;
	struct tcqe c = { 0 };
	struct tsge s[4], r[4];
	uint8_t inl[200];
	int i, good = 0;

	pair_setup(&p, 8192);
	fill(inl, sizeof(inl), 9);
	for (i = 0; i < 4; i++) {
		s[i] = te_sge(&p.ma, 100 * i, 50);
		r[i] = te_sge(&p.mb, 1000 * i, 1000);
	}
	fill(p.ma.host, 400, 8);
	/* 2-WQEBB WQEs at odd positions wrap over the end of the SQ */
	for (i = 0; i < 20; i++) {
		te_recv(&p.x, &p.b, r, 1);
		if (i % 2)
			te_send(&p.x, &p.a, &(struct tsend){
				.opcode = MLX5X_OPCODE_SEND,
				.flags = TE_SIGNALED | TE_INLINE,
				.inl = inl, .inl_len = sizeof(inl) });
		else
			te_send(&p.x, &p.a, &(struct tsend){
				.opcode = MLX5X_OPCODE_SEND,
				.flags = TE_SIGNALED, .sg = s, .nsge = 4 });
		te_run(&p.x);
		if (te_poll(&p.x, &p.cqb, &c) && te_poll(&p.x, &p.cqa, &c)) {
			bool same = i % 2 ? !memcmp(p.mb.host, inl, 200) :
				!memcmp(p.mb.host, p.ma.host, 50) &&
				!memcmp(p.mb.host + 150, p.ma.host + 300, 50);

			good += same && c.opcode == MLX5X_CQE_REQ;
		}
	}
	is_u(good, 20, "multi-WQEBB WQEs (4 SGEs, 200 B inline) across the wrap");
	te_teardown(&p.x);
}

static void t_blueflame(void)
{
	struct pair p;
	struct tcqe c = { 0 };
	struct tsge s, r;
	uint16_t idx;
	uint8_t *ctrl;
	uint64_t base;
	int i, k;

	pair_setup(&p, 4096);
	s = te_sge(&p.ma, 0, 8);
	r = te_sge(&p.mb, 0, 64);
	for (k = 0; k < 4; k++) {
		te_recv(&p.x, &p.b, &r, 1);
		idx = te_post(&p.x, &p.a, &(struct tsend){
			.opcode = MLX5X_OPCODE_SEND, .flags = TE_SIGNALED,
			.sg = &s, .nsge = 1 });
		put_be32(th_host(&p.x.t, p.a.dbr) + 4, p.a.sq_pi);
		/* the WQE as 8 ordered 8-byte writes, alternating halves */
		ctrl = te_sq_bb(&p.x, &p.a, idx);
		base = (uint64_t)p.x.t.uar * EMU_PAGE_SIZE + MLX5X_UAR_BF_OFF +
		       (k % 2) * MLX5X_UAR_BF_BUF_LEN;
		for (i = 0; i < 8; i++)
			emu_bar0_write(&p.x.t.e, base + 8 * i, ctrl + 8 * i, 8);
		te_run(&p.x);
		ok(te_poll(&p.x, &p.cqa, &c) && c.wqe_counter == idx &&
		   te_poll(&p.x, &p.cqb, &c),
		   "BlueFlame copy %d (buffer %d) executes the WQE", k, k % 2);
	}
	is_u(p.x.t.e.eng.st.bf_writes, 28, "BlueFlame: 7 data writes per copy");
	te_teardown(&p.x);
}

static void t_cqe_size_and_owner(void)
{
	struct te x;
	struct tcq cq, cq128;
	struct tqp a, b;
	struct tmr m;
	struct tcqe c = { 0 };
	struct tsge s, r;
	int i, good = 0, good128 = 0;
	uint8_t *raw;

	te_setup(&x);
	te_cq(&x, &cq, 2);			/* 4 entries */
	te_cq_opts(&x, &cq128, 2, 128, false);
	te_qp(&x, &a, &cq, &cq);
	te_qp(&x, &b, &cq128, &cq128);
	te_pair(&x, &a, &b);
	m = te_mr(&x, 4096, TMR_ALL);
	s = te_sge(&m, 0, 4);
	r = te_sge(&m, 1000, 4);
	for (i = 0; i < 10; i++) {
		te_recv(&x, &b, &r, 1);
		te_send(&x, &a, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND,
			.flags = TE_SIGNALED, .sg = &s, .nsge = 1 });
		te_run(&x);
		raw = th_host(&x.t, cq.buf) + 64 * (cq.ci & 3);
		good += (raw[63] & 1) == ((cq.ci >> 2) & 1) &&
			te_poll(&x, &cq, &c) && c.opcode == MLX5X_CQE_REQ;
		raw = th_host(&x.t, cq128.buf) + 128 * (cq128.ci & 3);
		good128 += raw[63] == 0 && te_poll(&x, &cq128, &c) &&
			   c.opcode == MLX5X_CQE_RESP_SEND;
	}
	is_u(good, 10, "64-byte CQEs: owner bit flips per lap over 10 entries");
	is_u(good128, 10, "128-byte CQEs: entry in the second half, per lap");
	te_teardown(&x);
}

static void t_ud_and_gsi(void)
{
	struct te x;
	struct tcq cq;
	struct tqp u1, u2, gsi;
	struct tmr m;
	struct tcqe c = { 0 };
	struct tsge s, r;
	struct emu_qp *eq;
	int n;

	te_setup(&x);
	te_cq(&x, &cq, 5);
	te_qp_type(&x, &u1, MLX5X_QP_ST_UD, &cq, &cq, 4, 4, 0);
	te_qp_type(&x, &u2, MLX5X_QP_ST_UD, &cq, &cq, 4, 4, 0);
	te_qp_type(&x, &gsi, MLX5X_QP_ST_QP1, &cq, &cq, 4, 4, 0);
	te_connect(&x, &u1, NULL, true);
	te_connect(&x, &u2, NULL, true);
	te_connect(&x, &gsi, NULL, true);
	m = te_mr(&x, 4096, TMR_ALL);
	fill(m.host, 100, 2);
	r = te_sge(&m, 1000, 200);
	te_recv(&x, &u2, &r, 1);
	s = te_sge(&m, 0, 100);
	te_send(&x, &u1, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND,
		.flags = TE_SIGNALED, .sg = &s, .nsge = 1, .dqpn = u2.qpn,
		.qkey = 0x1111, .dlid = x.t.e.port.lid });
	te_run(&x);
	ok(te_poll(&x, &cq, &c) && te_poll(&x, &cq, &c), "UD: two CQEs");
	ok(c.opcode == MLX5X_CQE_RESP_SEND || c.opcode == MLX5X_CQE_REQ,
	   "UD: send and receive completed");
	ok(!memcmp(m.host + 1000 + 40, m.host, 100),
	   "UD: payload after the 40-byte GRH space");
	/* wrong Q_Key: dropped, sender still completes */
	te_recv(&x, &u2, &r, 1);
	te_send(&x, &u1, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND,
		.flags = TE_SIGNALED, .sg = &s, .nsge = 1, .dqpn = u2.qpn,
		.qkey = 0x2222, .dlid = x.t.e.port.lid });
	te_run(&x);
	ok(te_poll(&x, &cq, &c) && c.opcode == MLX5X_CQE_REQ &&
	   !te_poll(&x, &cq, &c), "UD: wrong Q_Key dropped at the receiver");
	/* a MAD to QP1 (of this port) reaches the GSI QP */
	te_recv(&x, &gsi, &r, 1);
	te_send(&x, &gsi, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND,
		.flags = TE_SIGNALED, .sg = &s, .nsge = 1, .dqpn = 1,
		.qkey = MLX5X_GSI_QKEY, .dlid = x.t.e.port.lid });
	te_run(&x);
	eq = te_emu_qp(&x, &gsi);
	n = 0;
	while (te_poll(&x, &cq, &c))
		n += c.qpn == gsi.qpn && (c.opcode == MLX5X_CQE_REQ ||
					  (c.opcode == MLX5X_CQE_RESP_SEND &&
					   c.rqpn == 1 && c.byte_cnt == 140));
	ok(n == 2 && eq->eng.rx_pkts == 1,
	   "GSI: a datagram to QPN 1 lands on the QP1 QP, source QPN 1");
	/* GSI sends complete (ib_mad must not stall) */
	te_send(&x, &gsi, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND,
		.flags = TE_SIGNALED, .sg = &s, .nsge = 1, .dqpn = 1,
		.qkey = MLX5X_GSI_QKEY, .dlid = 0x4321 });
	te_run(&x);
	ok(te_poll(&x, &cq, &c) && c.opcode == MLX5X_CQE_REQ &&
	   c.qpn == gsi.qpn, "GSI: a send to an absent LID still completes");
	te_teardown(&x);
}

/* 16 linked 64-byte receive WQEs of one 64-byte buffer each, in a page */
static uint64_t srq_ring(struct te *x, struct tmr *m)
{
	uint64_t buf = th_alloc(&x->t, 4096, 4096);
	uint8_t *w;
	uint32_t i;

	for (i = 0; i < 16; i++) {
		w = th_host(&x->t, buf) + 64 * i;
		put_be16(w + 2, (uint16_t)((i + 1) % 16));
		put_be32(w + 16, 64);
		put_be32(w + 20, m->key);
		put_be64(w + 24, m->va + 64 * i);
		put_be32(w + 36, MLX5X_INVALID_LKEY);
	}
	return buf;
}

static void t_srq(void)
{
	struct te x;
	struct tcq cq;
	struct tqp a, b;
	struct tmr m;
	struct tcqe c = { 0 };
	struct tsge s;
	uint8_t in[MLX5X_CREATE_SRQ_IN_LEN + 8] = { 0 }, out[16];
	uint8_t *srqc = in + MLX5X_CREATE_SRQ_IN_SRQC_OFF;
	uint64_t buf, dbr;
	uint32_t srqn, i;
	int got = 0;

	te_setup(&x);
	te_cq(&x, &cq, 5);
	m = te_mr(&x, 4096, TMR_ALL);
	/* 16 WQEs of 64 bytes, linked as libmlx5 links them */
	buf = srq_ring(&x, &m);
	dbr = th_alloc(&x.t, 64, 64);
	th_hdr(in, MLX5X_CMD_OP_CREATE_SRQ, 0);
	PSET(srqc, MLX5X_SRQC_LOG_SRQ_SIZE, 4);
	PSET(srqc, MLX5X_SRQC_LOG_RQ_STRIDE, 2);
	PSET(srqc, MLX5X_SRQC_PD, x.t.pd);
	put_be64(srqc + MLX5X_SRQC_DBR_ADDR_OFF, dbr);
	put_be64(in + MLX5X_CREATE_SRQ_IN_PAS_OFF, buf);
	te_must(&x, in, sizeof(in), out, 16, "CREATE_SRQ");
	srqn = PGET(out, MLX5X_CREATE_SRQ_OUT_SRQN);
	te_qp(&x, &a, &cq, &cq);
	te_qp_type(&x, &b, MLX5X_QP_ST_RC, &cq, &cq, 0, 4, srqn);
	te_pair(&x, &a, &b);
	put_be32(th_host(&x.t, dbr), 10);	/* 10 WQEs posted */
	/* arm the limit at 8 */
	memset(in, 0, 16);
	th_hdr(in, MLX5X_CMD_OP_ARM_RQ, 1);
	PSET(in, MLX5X_SRQ_IN_SRQN, srqn);
	put_be32(in + 0x0c, 8);
	te_must(&x, in, 16, out, 16, "ARM_RQ");
	s = te_sge(&m, 2048, 8);
	for (i = 0; i < 4; i++) {
		te_send(&x, &a, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND,
			.flags = TE_SIGNALED, .sg = &s, .nsge = 1 });
		te_run(&x);
		while (te_poll(&x, &cq, &c))
			if (c.opcode == MLX5X_CQE_RESP_SEND && c.wqe_counter == i &&
			    c.uidx == te_uidx(&x, &b, srqn))
				got++;
	}
	is_u(got, 4, "SRQ: receives take SRQ WQEs 0..3 along the list");
	is_u(te_async_events(&x, MLX5X_EVENT_SRQ_RQ_LIMIT, srqn), 1,
	     "SRQ: one limit event when fewer than 8 remain");
	te_teardown(&x);
}

static unsigned int resize_cq(struct te *x, struct tcq *cq, unsigned int log,
			      uint64_t *buf)
{
	uint32_t bytes = 64u << log, npages = (bytes + 4095) / 4096, i;
	uint32_t inlen = MLX5X_CREATE_CQ_IN_LEN + 8 * npages;
	uint8_t *in = calloc(1, inlen), out[16];
	uint8_t *cqc = in + MLX5X_MODIFY_CQ_IN_CQC_OFF;
	unsigned int st;

	*buf = th_alloc(&x->t, npages * 4096ull, 4096);
	for (i = 0; i < (1u << log); i++)
		((uint8_t *)th_host(&x->t, *buf))[64 * i + 63] =
			MLX5X_CQE_INVALID << 4;
	th_hdr(in, MLX5X_CMD_OP_MODIFY_CQ, MLX5X_MODIFY_CQ_OPMOD_RESIZE);
	PSET(in, MLX5X_CQ_IN_CQN, cq->cqn);
	put_be32(in + MLX5X_MODIFY_CQ_IN_FIELD_SELECT_OFF, 7);
	PSET(cqc, MLX5X_CQC_LOG_CQ_SIZE, log);
	for (i = 0; i < npages; i++)
		put_be64(in + MLX5X_MODIFY_CQ_IN_PAS_OFF + 8 * i,
			 *buf + 4096ull * i);
	st = th_status(&x->t, in, inlen, out, 16);
	free(in);
	return st;
}

/* MODIFY_CQ resize: the RESIZE entry, then the new ring, as libmlx5 expects */
static void t_cq_resize(void)
{
	struct pair p;
	struct tcqe c = { 0 };
	struct tsge s, r;
	uint64_t nbuf;
	uint8_t *old, *nw;
	uint32_t i;

	pair_setup(&p, 4096);
	s = te_sge(&p.ma, 0, 8);
	r = te_sge(&p.mb, 0, 64);
	for (i = 0; i < 2; i++) {
		te_recv(&p.x, &p.b, &r, 1);
		te_send(&p.x, &p.a, &(struct tsend){
			.opcode = MLX5X_OPCODE_SEND, .flags = TE_SIGNALED,
			.sg = &s, .nsge = 1 });
	}
	te_run(&p.x);
	ok(te_poll(&p.x, &p.cqb, &c), "resize: one of two receive CQEs polled");
	ok(resize_cq(&p.x, &p.cqb, 0, &nbuf) != 0,
	   "resize: a ring smaller than the outstanding CQEs is refused");
	is_u(resize_cq(&p.x, &p.cqb, 4, &nbuf), 0, "resize 64 -> 16 entries");
	old = th_host(&p.x.t, p.cqb.buf);
	ok((old[64 * 2 + 63] >> 4) == MLX5X_CQE_RESIZE_CQ,
	   "resize: RESIZE_CQ entry at the producer index of the old ring");
	/* libmlx5: copy CQE 1 to slot 2 of the new ring, consume RESIZE */
	nw = th_host(&p.x.t, nbuf);
	memcpy(nw + 64 * 2, old + 64 * 1, 64);
	p.cqb.buf = nbuf;
	p.cqb.log_size = 4;
	p.cqb.ci = 2;
	put_be32(th_host(&p.x.t, p.cqb.dbr), 2);
	ok(te_poll(&p.x, &p.cqb, &c) && c.opcode == MLX5X_CQE_RESP_SEND,
	   "resize: the copied CQE is polled from the new ring");
	te_recv(&p.x, &p.b, &r, 1);
	te_send(&p.x, &p.a, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND,
		.flags = TE_SIGNALED, .sg = &s, .nsge = 1 });
	te_run(&p.x);
	ok(te_poll(&p.x, &p.cqb, &c) && c.opcode == MLX5X_CQE_RESP_SEND &&
	   c.wqe_counter == 2,
	   "resize: the next CQE lands in the new ring at the next index");
	te_teardown(&p.x);
}

/* a UMR WQE on the REG_UMR QP, as mlx5_ib posts it */
static uint16_t post_umr(struct te *x, struct tqp *qp, uint32_t key,
			 uint64_t mask, const uint8_t *mkc)
{
	uint8_t w[128] = { 0 };
	uint16_t idx = qp->sq_pi;

	PSET(w, MLX5X_WQE_CTRL_WQE_INDEX, idx);
	PSET(w, MLX5X_WQE_CTRL_OPCODE, MLX5X_OPCODE_UMR);
	PSET(w, MLX5X_WQE_CTRL_QPN, qp->qpn);
	PSET(w, MLX5X_WQE_CTRL_DS, 8);
	w[11] = 0x08 | 0x20;		/* signaled, small fence */
	put_be32(w + MLX5X_WQE_CTRL_IMM_OFF, key);
	PSET(w + 16, MLX5X_WQE_UMR_FLAGS, MLX5X_UMR_INLINE);
	put_be64(w + 16 + MLX5X_WQE_UMR_MKEY_MASK_OFF, mask);
	memcpy(w + 16 + MLX5X_WQE_UMR_CTRL_LEN, mkc, MLX5X_WQE_UMR_MKEY_LEN);
	te_sq_put(x, qp, idx, 0, w, 128);
	qp->sq_pi += 2;
	return idx;
}

static void t_umr(void)
{
	struct te x;
	struct tcq cq;
	struct tqp umr;
	struct tmr m;
	struct tcqe c = { 0 };
	struct emu_pd *pd;
	uint8_t mkc[64] = { 0 };
	uint32_t pd2;
	uint16_t idx;

	te_setup(&x);
	te_cq(&x, &cq, 4);
	/* mlx5_ib leaves the UMR QP's PD 0 */
	te_qp_type_pd(&x, &umr, MLX5X_QP_ST_REG_UMR, &cq, &cq, 0, 4, 0, 0, 0);
	ok(umr.qpn != 0, "UMR QP created without a PD");
	te_connect(&x, &umr, NULL, true);
	m = te_mr(&x, 4096, TMR_LR | TMR_LW);
	pd = objtab_get(&x.t.e.obj[OBJ_PD], x.t.pd);
	pd2 = th_alloc_num(&x.t, MLX5X_CMD_OP_ALLOC_PD);
	/* change access and PD in place */
	PSET(mkc, MLX5X_MKC_LR, 1);
	PSET(mkc, MLX5X_MKC_LW, 1);
	PSET(mkc, MLX5X_MKC_RW, 1);
	PSET(mkc, MLX5X_MKC_PD, pd2);
	idx = post_umr(&x, &umr, m.key, MLX5X_MKEY_MASK_LR | MLX5X_MKEY_MASK_LW |
		       MLX5X_MKEY_MASK_RR | MLX5X_MKEY_MASK_RW |
		       MLX5X_MKEY_MASK_A | MLX5X_MKEY_MASK_PD, mkc);
	/* the fourth BlueFlame register of the page, second buffer */
	te_ring_at(&x, &umr, idx, 0xf00);
	te_run(&x);
	ok(te_poll(&x, &cq, &c) && c.opcode == MLX5X_CQE_REQ &&
	   c.wqe_op == MLX5X_OPCODE_UMR && c.wqe_counter == idx,
	   "UMR: access/PD update completes (doorbell at +0xf00)");
	is_u(mkey_check(&x.t.e, m.key, objtab_get(&x.t.e.obj[OBJ_PD], pd2),
			m.va, 8, ACC_RW, NULL), MK_OK,
	     "UMR: the key now grants remote write, in the new PD");
	is_u(mkey_check(&x.t.e, m.key, pd, m.va, 8, ACC_LR, NULL), MK_PD,
	     "UMR: ... and no longer belongs to the old PD");
	/* revoke: free, back to the first PD */
	memset(mkc, 0, sizeof(mkc));
	PSET(mkc, MLX5X_MKC_FREE, 1);
	PSET(mkc, MLX5X_MKC_PD, x.t.pd);
	PSET(mkc, MLX5X_MKC_MKEY_7_0, m.key & 0xff);
	idx = post_umr(&x, &umr, m.key, MLX5X_MKEY_MASK_FREE | MLX5X_MKEY_MASK_PD,
		       mkc);
	te_ring(&x, &umr, idx);
	te_run(&x);
	ok(te_poll(&x, &cq, &c) && c.opcode == MLX5X_CQE_REQ,
	   "UMR: revoke completes");
	is_u(mkey_check(&x.t.e, m.key, pd, m.va, 8, ACC_LR, NULL), MK_BAD_KEY,
	     "UMR: a revoked (free) key is refused");
	te_destroy_mkey(&x, m.key);
	{
		uint8_t in[16] = { 0 }, out[16];

		th_hdr(in, MLX5X_CMD_OP_DEALLOC_PD, 0);
		PSET(in, MLX5X_DEALLOC_PD_IN_PD, pd2);
		is_u(th_status(&x.t, in, 16, out, 16), 0,
		     "UMR: PD references moved with the key");
	}
	/* an unknown key: error completion */
	idx = post_umr(&x, &umr, 0xabcd00, MLX5X_MKEY_MASK_FREE, mkc);
	te_ring(&x, &umr, idx);
	te_run(&x);
	ok(te_poll(&x, &cq, &c) && c.opcode == MLX5X_CQE_REQ_ERR &&
	   c.syndrome == MLX5X_CQE_SYND_LOCAL_QP_OP_ERR,
	   "UMR on an unknown key: LOCAL_QP_OP_ERR");
	te_teardown(&x);
}

static uint32_t make_srq(struct te *x, uint32_t xrcd, uint32_t cqn,
			 struct tmr *m, uint64_t *dbr)
{
	uint8_t in[MLX5X_CREATE_SRQ_IN_LEN + 8] = { 0 }, out[16];
	uint8_t *srqc = in + MLX5X_CREATE_SRQ_IN_SRQC_OFF;
	uint64_t buf = srq_ring(x, m);

	*dbr = th_alloc(&x->t, 64, 64);
	th_hdr(in, MLX5X_CMD_OP_CREATE_SRQ, 0);
	PSET(srqc, MLX5X_SRQC_LOG_SRQ_SIZE, 4);
	PSET(srqc, MLX5X_SRQC_LOG_RQ_STRIDE, 2);
	PSET(srqc, MLX5X_SRQC_PD, x->t.pd);
	PSET(srqc, MLX5X_SRQC_XRCD, xrcd);
	PSET(srqc, MLX5X_SRQC_CQN, cqn);
	put_be64(srqc + MLX5X_SRQC_DBR_ADDR_OFF, *dbr);
	put_be64(in + MLX5X_CREATE_SRQ_IN_PAS_OFF, buf);
	te_must(x, in, sizeof(in), out, 16, "CREATE_SRQ");
	return PGET(out, MLX5X_CREATE_SRQ_OUT_SRQN);
}

/* XRC: the initiator names the SRQ; the target completes on its CQ */
static void t_xrc(void)
{
	struct te x;
	struct tcq cqi, cqs, cqt;
	struct tqp ini, tgt;
	struct tmr m;
	struct tcqe c = { 0 };
	struct te_conn cn;
	struct tsge s;
	uint64_t dbr1, dbr2;
	uint32_t xrcd, xrcd2, srq1, srq2;

	te_setup(&x);
	te_cq(&x, &cqi, 4);
	te_cq(&x, &cqs, 4);
	te_cq(&x, &cqt, 4);
	m = te_mr(&x, 4096, TMR_ALL);
	xrcd = th_alloc_num(&x.t, MLX5X_CMD_OP_ALLOC_XRCD);
	xrcd2 = th_alloc_num(&x.t, MLX5X_CMD_OP_ALLOC_XRCD);
	srq1 = make_srq(&x, xrcd, cqs.cqn, &m, &dbr1);
	srq2 = make_srq(&x, xrcd2, cqs.cqn, &m, &dbr2);
	put_be32(th_host(&x.t, dbr1), 4);
	put_be32(th_host(&x.t, dbr2), 4);
	te_qp_type(&x, &ini, MLX5X_QP_ST_XRC, &cqi, &cqi, 0, 4, 0);
	/* the target QP's PD is not the SRQ's: keys are checked in the SRQ's */
	te_qp_type_pd(&x, &tgt, MLX5X_QP_ST_XRC, &cqt, &cqt, 0, 0, srq1,
		      th_alloc_num(&x.t, MLX5X_CMD_OP_ALLOC_PD), xrcd);
	cn = te_conn_default(&x, &tgt);
	te_connect(&x, &ini, &cn, true);
	cn = te_conn_default(&x, &ini);
	te_connect(&x, &tgt, &cn, false);	/* a target stays in RTR */
	fill(m.host + 2048, 32, 21);
	s = te_sge(&m, 2048, 32);
	te_send(&x, &ini, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND_IMM,
		.flags = TE_SIGNALED, .imm = 99, .sg = &s, .nsge = 1,
		.xrc_srqn = srq1 });
	te_run(&x);
	ok(te_poll(&x, &cqi, &c) && c.opcode == MLX5X_CQE_REQ,
	   "XRC: the initiator's send completes");
	ok(te_poll(&x, &cqs, &c) && c.opcode == MLX5X_CQE_RESP_SEND_IMM &&
	   c.byte_cnt == 32 && c.qpn == tgt.qpn && c.uidx == srq1 &&
	   !memcmp(m.host, m.host + 2048, 32),
	   "XRC: received into the named SRQ, completed on its CQ");
	ok(!te_poll(&x, &cqt, &c), "XRC: nothing on the target QP's CQs");
	/* an RDMA write names the SRQ too: its PD holds the rkey */
	te_send(&x, &ini, &(struct tsend){ .opcode = MLX5X_OPCODE_RDMA_WRITE,
		.flags = TE_SIGNALED, .sg = &s, .nsge = 1, .xrc_srqn = srq1,
		.raddr = m.va + 1024, .rkey = m.key });
	te_run(&x);
	ok(te_poll(&x, &cqi, &c) && c.opcode == MLX5X_CQE_REQ &&
	   !memcmp(m.host + 1024, m.host + 2048, 32),
	   "XRC: RDMA write checked against the named SRQ's PD");
	te_send(&x, &ini, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND,
		.flags = TE_SIGNALED, .sg = &s, .nsge = 1, .xrc_srqn = srq2 });
	te_run(&x);
	ok(te_poll(&x, &cqi, &c) && c.opcode == MLX5X_CQE_REQ_ERR &&
	   c.syndrome == MLX5X_CQE_SYND_REMOTE_INVAL_REQ_ERR,
	   "XRC: an SRQ of another XRC domain is an invalid request");
	te_teardown(&x);
}

/* the ISSI 1 form of a basic SRQ, as mlx5_ib makes it: an RMP */
static uint32_t make_rmp(struct te *x, struct tmr *m, uint64_t *dbr)
{
	uint8_t in[MLX5X_CREATE_RMP_IN_LEN + 8] = { 0 }, out[16];
	uint8_t *rmpc = in + MLX5X_RMP_CMD_RMPC_OFF;
	uint8_t *wq = rmpc + MLX5X_RMPC_WQ_OFF;

	*dbr = th_alloc(&x->t, 64, 64);
	th_hdr(in, MLX5X_CMD_OP_CREATE_RMP, 0);
	PSET(rmpc, MLX5X_RMPC_STATE, MLX5X_RMPC_STATE_RDY);
	PSET(wq, MLX5X_WQ_LOG_SZ, 4);
	PSET(wq, MLX5X_WQ_LOG_STRIDE, 6);
	PSET(wq, MLX5X_WQ_PD, x->t.pd);
	put_be64(wq + MLX5X_WQ_DBR_ADDR_OFF, *dbr);
	put_be64(in + MLX5X_CREATE_RMP_IN_PAS_OFF, srq_ring(x, m));
	te_must(x, in, sizeof(in), out, 16, "CREATE_RMP");
	return PGET(out, MLX5X_CREATE_RMP_OUT_RMPN);
}

/* ... and of an XRC SRQ, with the user index CQE v1 reports */
static uint32_t make_xrc_srq(struct te *x, uint32_t xrcd, uint32_t cqn,
			     uint32_t uidx, struct tmr *m, uint64_t *dbr)
{
	uint8_t in[MLX5X_CREATE_SRQ_IN_LEN + 8] = { 0 }, out[16];
	uint8_t *srqc = in + MLX5X_CREATE_SRQ_IN_SRQC_OFF;

	*dbr = th_alloc(&x->t, 64, 64);
	th_hdr(in, MLX5X_CMD_OP_CREATE_XRC_SRQ, 0);
	PSET(srqc, MLX5X_SRQC_LOG_SRQ_SIZE, 4);
	PSET(srqc, MLX5X_SRQC_LOG_RQ_STRIDE, 2);
	PSET(srqc, MLX5X_SRQC_PD, x->t.pd);
	PSET(srqc, MLX5X_SRQC_XRCD, xrcd);
	PSET(srqc, MLX5X_SRQC_CQN, cqn);
	PSET(srqc, MLX5X_XRC_SRQC_USER_INDEX, uidx);
	put_be64(srqc + MLX5X_SRQC_DBR_ADDR_OFF, *dbr);
	put_be64(in + MLX5X_CREATE_SRQ_IN_PAS_OFF, srq_ring(x, m));
	te_must(x, in, sizeof(in), out, 16, "CREATE_XRC_SRQ");
	return PGET(out, MLX5X_CREATE_SRQ_OUT_SRQN);
}

static void arm_rmp(struct te *x, uint32_t rmpn, uint16_t lwm)
{
	uint8_t in[MLX5X_MODIFY_RMP_IN_LEN] = { 0 }, out[16];
	uint8_t *rmpc = in + MLX5X_RMP_CMD_RMPC_OFF;

	th_hdr(in, MLX5X_CMD_OP_MODIFY_RMP, 0);
	PSET(in, MLX5X_RMP_IN_RMPN, rmpn);
	PSET(in, MLX5X_MODIFY_RMP_IN_STATE, MLX5X_RMPC_STATE_RDY);
	put_be64(in + MLX5X_MODIFY_RMP_IN_BITMASK_OFF,
		 MLX5X_MODIFY_RMP_IN_BITMASK_LWM);
	PSET(rmpc, MLX5X_RMPC_STATE, MLX5X_RMPC_STATE_RDY);
	PSET(rmpc + MLX5X_RMPC_WQ_OFF, MLX5X_WQ_LWM, lwm);
	te_must(x, in, sizeof(in), out, 16, "MODIFY_RMP lwm");
}

/* RMP: receives walk its list, complete on the QP's CQ, limit event */
static void t_rmp(void)
{
	struct tcqe c = { 0 };
	struct tqp a, b;
	uint32_t rmpn, i;
	struct tcq cq;
	struct tmr m;
	struct tsge s;
	uint64_t dbr;
	struct te x;
	int got = 0;

	te_setup(&x);
	te_cq(&x, &cq, 5);
	m = te_mr(&x, 4096, TMR_ALL);
	rmpn = make_rmp(&x, &m, &dbr);
	te_qp(&x, &a, &cq, &cq);
	te_qp_type(&x, &b, MLX5X_QP_ST_RC, &cq, &cq, 0, 4, rmpn);
	te_pair(&x, &a, &b);
	put_be32(th_host(&x.t, dbr), 10);
	arm_rmp(&x, rmpn, 8);
	s = te_sge(&m, 2048, 8);
	for (i = 0; i < 4; i++) {
		te_send(&x, &a, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND,
			.flags = TE_SIGNALED, .sg = &s, .nsge = 1 });
		te_run(&x);
		while (te_poll(&x, &cq, &c))
			if (c.opcode == MLX5X_CQE_RESP_SEND && c.wqe_counter == i &&
			    c.qpn == b.qpn && c.uidx == te_uidx(&x, &b, rmpn))
				got++;
	}
	is_u(got, 4, "RMP: receives take its WQEs 0..3, complete on the QP's CQ");
	is_u(te_async_events(&x, MLX5X_EVENT_SRQ_RQ_LIMIT, rmpn), 1,
	     "RMP: one limit event (armed by MODIFY_RMP) when fewer than 8 remain");
	te_teardown(&x);
}

/* XRC SRQ of CREATE_XRC_SRQ: CQE v1 carries its user index, not its number */
static void t_xrc_uidx(void)
{
	struct tcq cqi, cqs, cqt;
	struct tcqe c = { 0 };
	uint32_t xrcd, srqn;
	struct tqp ini, tgt;
	struct te_conn cn;
	struct tmr m;
	struct tsge s;
	uint64_t dbr;
	struct te x;

	te_setup(&x);
	te_cq(&x, &cqi, 4);
	te_cq(&x, &cqs, 4);
	te_cq(&x, &cqt, 4);
	m = te_mr(&x, 4096, TMR_ALL);
	xrcd = th_alloc_num(&x.t, MLX5X_CMD_OP_ALLOC_XRCD);
	srqn = make_xrc_srq(&x, xrcd, cqs.cqn, 0x4321, &m, &dbr);
	put_be32(th_host(&x.t, dbr), 4);
	te_qp_type(&x, &ini, MLX5X_QP_ST_XRC, &cqi, &cqi, 0, 4, 0);
	te_qp_type_pd(&x, &tgt, MLX5X_QP_ST_XRC, &cqt, &cqt, 0, 0, srqn,
		      x.t.pd, xrcd);
	cn = te_conn_default(&x, &tgt);
	te_connect(&x, &ini, &cn, true);
	cn = te_conn_default(&x, &ini);
	te_connect(&x, &tgt, &cn, false);
	s = te_sge(&m, 2048, 16);
	te_send(&x, &ini, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND,
		.flags = TE_SIGNALED, .sg = &s, .nsge = 1, .xrc_srqn = srqn });
	te_run(&x);
	ok(te_poll(&x, &cqi, &c) && c.opcode == MLX5X_CQE_REQ,
	   "XRC SRQ (ISSI 1): the initiator's send completes");
	ok(te_poll(&x, &cqs, &c) && c.opcode == MLX5X_CQE_RESP_SEND &&
	   c.byte_cnt == 16 && c.qpn == tgt.qpn &&
	   c.uidx == (CAP(&x.t.e, MLX5X_CAP_CQE_VERSION) == 1 ? 0x4321 : srqn),
	   "XRC SRQ (ISSI 1): the receive CQE names the SRQ by its user index");
	te_teardown(&x);
}

/* two devices joined by a link: the same engine, another wire */
static void t_two_hcas(void)
{
	struct te x, y;
	struct tcq cx, cy;
	struct tqp qx, qy;
	struct tmr mx, my;
	struct te_conn c;
	struct tcqe e = { 0 };
	struct tsge s, r;
	struct wire link;
	struct emu_opts o;

	te_setup(&x);
	/* a second device with another GUID, hence another LID */
	memset(&y, 0, sizeof(y));
	th_default_opts(&o);
	o.guid ^= 0x55;
	th_setup_opts(&y.t, &o);
	th_init_hca(&y.t);
	y.t.e.eng.clock = te_clock;
	y.t.e.eng.clock_arg = &y.now;
	y.now = x.now;
	y.va_next = TE_VA_BASE;
	y.log_eq = 6;
	y.async_eqn = th_create_eq(&y.t, 6, te_async_mask(), 0, &y.async_ring);
	y.comp_eqn = th_create_eq(&y.t, 6, 0, 1, &y.comp_ring);
	ok(emu_link(&link, &x.t.e, &y.t.e) == 0, "link: emu_link joins the ports");
	ok(x.t.e.port.lid != y.t.e.port.lid, "link: LIDs %u and %u",
	   x.t.e.port.lid, y.t.e.port.lid);
	te_cq(&x, &cx, 5);
	te_cq(&y, &cy, 5);
	te_qp(&x, &qx, &cx, &cx);
	te_qp(&y, &qy, &cy, &cy);
	c = te_conn_default(&x, &qy);
	c.dlid = y.t.e.port.lid;
	te_connect(&x, &qx, &c, true);
	c = te_conn_default(&y, &qx);
	c.dlid = x.t.e.port.lid;
	te_connect(&y, &qy, &c, true);
	mx = te_mr(&x, 100000, TMR_ALL);
	my = te_mr(&y, 100000, TMR_ALL);
	fill(mx.host, 100000, 11);
	fill(my.host, 100000, 12);
	r = te_sge(&my, 0, 100000);
	te_recv(&y, &qy, &r, 1);
	s = te_sge(&mx, 0, 100000);
	te_send(&x, &qx, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND,
		.flags = TE_SIGNALED, .sg = &s, .nsge = 1 });
	te_run(&x);
	te_run(&y);
	te_run(&x);
	ok(te_poll(&y, &cy, &e) && e.byte_cnt == 100000 &&
	   !memcmp(mx.host, my.host, 100000) && te_poll(&x, &cx, &e) &&
	   e.opcode == MLX5X_CQE_REQ, "link: SEND of 100000 B across devices");
	fill(my.host, 100000, 13);
	r = te_sge(&mx, 0, 100000);
	te_send(&x, &qx, &(struct tsend){ .opcode = MLX5X_OPCODE_RDMA_READ,
		.flags = TE_SIGNALED, .raddr = my.va, .rkey = my.key,
		.sg = &r, .nsge = 1 });
	te_run(&x);
	te_run(&y);
	te_run(&x);
	ok(te_poll(&x, &cx, &e) && e.wqe_op == MLX5X_OPCODE_RDMA_READ &&
	   !memcmp(mx.host, my.host, 100000), "link: READ across devices");
	x.t.e.eng.wire = x.t.e.eng.own_wire;
	y.t.e.eng.wire = y.t.e.eng.own_wire;
	te_teardown(&y);
	te_teardown(&x);
}

/* the engine thread: a doorbell returns at once, the thread does it */
static void t_thread(void)
{
	struct pair p;
	struct tcqe c = { 0 };
	struct tsge s, r;
	int i, tries, done = 0;

	pair_setup(&p, 65536);
	p.x.t.e.eng.clock = eng_real_clock;
	ok(!eng_start(&p.x.t.e), "thread: started");
	s = te_sge(&p.ma, 0, 65536);
	r = te_sge(&p.mb, 0, 65536);
	for (i = 0; i < 50; i++) {
		te_recv(&p.x, &p.b, &r, 1);
		te_send(&p.x, &p.a, &(struct tsend){
			.opcode = MLX5X_OPCODE_SEND, .flags = TE_SIGNALED,
			.sg = &s, .nsge = 1 });
		for (tries = 0; tries < 20000; tries++) {
			if (te_poll(&p.x, &p.cqb, &c))
				break;
			usleep(100);
		}
		while (!te_poll(&p.x, &p.cqa, &c) && tries++ < 40000)
			usleep(100);
		done += tries < 40000;
	}
	is_u(done, 50, "thread: 50 x 64 KiB ping completed by the engine thread");
	eng_stop(&p.x.t.e);
	te_teardown(&p.x);
}

int main(void)
{
	t_mkey();
	send_recv(1);
	send_recv(4096);
	send_recv(65536);
	send_recv(100000);
	t_send_imm_inline_scatter();
	t_zero_length();
	t_rdma();
	t_signaling_and_wrap();
	t_bigwqe_wrap();
	t_blueflame();
	t_cqe_size_and_owner();
	t_ud_and_gsi();
	t_srq();
	t_xrc();
	t_rmp();
	t_xrc_uidx();
	t_cq_resize();
	t_umr();
	t_two_hcas();
	t_thread();
	return tap_done();
}
