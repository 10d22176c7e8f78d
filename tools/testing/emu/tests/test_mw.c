// SPDX-License-Identifier: GPL-2.0
/*
 * Memory windows: KLM mkeys created free (as mlx5_ib allocates them),
 * bound and invalidated by UMR WQEs on a user RC send queue (as libmlx5
 * builds them), used as rkeys by the peer.  What must be refused: a key
 * with a stale tag, access beyond the window or its rights, local use of
 * a window, a type 2 window used or invalidated through another QP, a
 * second bind of a bound type 2 window, a bind whose range leaves the MR
 * or that grants remote write over an MR without local write, a bind
 * onto a plain MR, remote invalidation of a type 1 window, and windows
 * that are not free/umr_en at creation.  (MW_BIND access of the MR is
 * not passed to the device by mlx5_ib, so it cannot be checked here.)
 */
#include "eng_th.h"

struct mwp {
	struct te x;
	struct tcq cqa, cqb;
	struct tqp a, b;	/* a: the peer, b: owns the window */
	struct tmr ma, mb;
	uint32_t mw;		/* window key as allocated */
};

enum { MW_LEN = 8192, MW_OFF = 256, MW_WIN = 4096 };

static uint32_t create_mw(struct te *x, bool type2, bool free, bool umr_en,
			  unsigned int *status)
{
	uint8_t in[MLX5X_CREATE_MKEY_IN_LEN] = { 0 }, out[16];
	uint8_t *mkc = in + MLX5X_CREATE_MKEY_IN_MKC_OFF;

	th_hdr(in, MLX5X_CMD_OP_CREATE_MKEY, 0);
	PSET(mkc, MLX5X_MKC_FREE, free);
	PSET(mkc, MLX5X_MKC_UMR_EN, umr_en);
	PSET(mkc, MLX5X_MKC_LR, 1);
	PSET(mkc, MLX5X_MKC_ACCESS_MODE_1_0, MLX5X_MKC_ACCESS_MODE_KLMS);
	PSET(mkc, MLX5X_MKC_EN_RINVAL, type2);
	PSET(mkc, MLX5X_MKC_QPN, 0xffffff);
	PSET(mkc, MLX5X_MKC_MKEY_7_0, 0x40);
	PSET(mkc, MLX5X_MKC_PD, x->t.pd);
	PSET(mkc, MLX5X_MKC_TRANSLATIONS_OCTWORD_SIZE, 4);
	*status = th_status(&x->t, in, sizeof(in), out, 16);
	return PGET(out, MLX5X_CREATE_MKEY_OUT_MKEY_INDEX) << 8 | 0x40;
}

static void mwp_setup(struct mwp *p, bool type2)
{
	unsigned int st;

	te_setup(&p->x);
	te_cq(&p->x, &p->cqa, 6);
	te_cq(&p->x, &p->cqb, 6);
	te_qp(&p->x, &p->a, &p->cqa, &p->cqa);
	te_qp(&p->x, &p->b, &p->cqb, &p->cqb);
	te_pair(&p->x, &p->a, &p->b);
	p->ma = te_mr(&p->x, MW_LEN, TMR_ALL);
	p->mb = te_mr(&p->x, MW_LEN, TMR_ALL);
	p->mw = create_mw(&p->x, type2, true, true, &st);
	if (st) {
		diag("CREATE_MKEY of a window: status 0x%x", st);
		abort();
	}
}

struct bind {
	uint32_t imm;		/* the window's key as the WQE names it */
	uint8_t tag;		/* new key tag */
	bool type2;
	uint32_t qpn;		/* type 2: the QP in the mkey context */
	uint32_t mr;
	uint64_t addr, len;
	unsigned int acc;	/* TMR_* */
	bool zero_based;
};

/* UMR WQE of a bind (len > 0) or invalidate (len 0), libmlx5 layout */
static uint16_t post_bind(struct te *x, struct tqp *qp, const struct bind *b)
{
	uint8_t w[192] = { 0 };
	uint8_t *ctrl = w + 16, *mkc = ctrl + MLX5X_WQE_UMR_CTRL_LEN;
	uint8_t *klm = mkc + MLX5X_WQE_UMR_MKEY_LEN;
	uint64_t mask = MLX5X_MKEY_MASK_FREE | MLX5X_MKEY_MASK_KEY;
	uint8_t flags = MLX5X_UMR_INLINE | MLX5X_UMR_TRANSLATION_OFFSET_EN;
	uint32_t len = b->len ? 192 : 128;
	uint16_t idx = qp->sq_pi;

	PSET(w, MLX5X_WQE_CTRL_WQE_INDEX, idx);
	PSET(w, MLX5X_WQE_CTRL_OPCODE, MLX5X_OPCODE_UMR);
	PSET(w, MLX5X_WQE_CTRL_QPN, qp->qpn);
	PSET(w, MLX5X_WQE_CTRL_DS, len / 16);
	w[11] = 0x08;
	put_be32(w + MLX5X_WQE_CTRL_IMM_OFF, b->imm);
	if (b->type2)
		mask |= MLX5X_MKEY_MASK_QPN;
	PSET(mkc, MLX5X_MKC_MKEY_7_0, b->tag);
	PSET(mkc, MLX5X_MKC_QPN, b->type2 && b->len ? b->qpn : 0xffffff);
	if (b->len) {
		mask |= MLX5X_MKEY_MASK_LEN | MLX5X_MKEY_MASK_START_ADDR |
			MLX5X_MKEY_MASK_LW | MLX5X_MKEY_MASK_RR |
			MLX5X_MKEY_MASK_RW | MLX5X_MKEY_MASK_A;
		if (b->type2)
			flags |= MLX5X_UMR_CHECK_NOT_FREE;
		PSET(ctrl, MLX5X_WQE_UMR_XLT_OCTOWORDS, 4);
		PSET(mkc, MLX5X_MKC_RR, !!(b->acc & TMR_RR));
		PSET(mkc, MLX5X_MKC_RW, !!(b->acc & TMR_RW));
		PSET(mkc, MLX5X_MKC_A, !!(b->acc & TMR_A));
		put_be64(mkc + MLX5X_MKC_START_ADDR_OFF,
			 b->zero_based ? 0 : b->addr);
		put_be64(mkc + MLX5X_MKC_LEN_OFF, b->len);
		put_be32(klm, (uint32_t)b->len);
		put_be32(klm + 4, b->mr);
		put_be64(klm + 8, b->addr);
	} else {
		PSET(mkc, MLX5X_MKC_FREE, 1);
		if (b->type2)
			flags |= MLX5X_UMR_CHECK_QPN;
	}
	PSET(ctrl, MLX5X_WQE_UMR_FLAGS, flags);
	put_be64(ctrl + MLX5X_WQE_UMR_MKEY_MASK_OFF, mask);
	te_sq_put(x, qp, idx, 0, w, len);
	qp->sq_pi += (uint16_t)(len / 64);
	te_ring(x, qp, idx);
	te_run(x);
	return idx;
}

/* bind b's window over mb at MW_OFF, MW_WIN bytes; returns the key */
static uint32_t bind_std(struct mwp *p, bool type2, unsigned int acc,
			 uint8_t tag)
{
	struct tcqe c = { 0 };
	uint16_t idx;

	idx = post_bind(&p->x, &p->b, &(struct bind){
		.imm = p->mw, .tag = tag, .type2 = type2, .qpn = p->b.qpn,
		.mr = p->mb.key, .addr = p->mb.va + MW_OFF, .len = MW_WIN,
		.acc = acc });
	ok(te_poll(&p->x, &p->cqb, &c) && c.opcode == MLX5X_CQE_REQ &&
	   c.wqe_op == MLX5X_OPCODE_UMR && c.wqe_counter == idx,
	   "type %d bind completes (op %u wqe op 0x%x synd 0x%x)",
	   type2 ? 2 : 1, c.opcode, c.wqe_op, c.syndrome);
	return (p->mw & ~0xffu) | tag;
}

/* RDMA WRITE of len bytes from a to raddr/rkey: the requester CQE */
static struct tcqe write_to(struct mwp *p, uint64_t raddr, uint32_t rkey,
			    uint32_t len)
{
	struct tsge s = te_sge(&p->ma, 0, len);
	struct tcqe c = { 0 };

	te_send(&p->x, &p->a, &(struct tsend){
		.opcode = MLX5X_OPCODE_RDMA_WRITE, .flags = TE_SIGNALED,
		.raddr = raddr, .rkey = rkey, .sg = &s, .nsge = 1 });
	te_run(&p->x);
	if (!te_poll(&p->x, &p->cqa, &c))
		c.opcode = MLX5X_CQE_INVALID;
	return c;
}

static bool remote_access_err(const struct tcqe *c)
{
	return c->opcode == MLX5X_CQE_REQ_ERR &&
	       c->syndrome == MLX5X_CQE_SYND_REMOTE_ACCESS_ERR;
}

static enum mk_err check(struct mwp *p, uint32_t key, uint32_t qpn,
			 uint64_t va, uint64_t len, unsigned int acc)
{
	return mkey_check_qp(&p->x.t.e, key, objtab_get(&p->x.t.e.obj[OBJ_PD],
							p->x.t.pd),
			     qpn, va, len, acc, NULL);
}

static void t_create(void)
{
	struct te x;
	unsigned int st;

	te_setup(&x);
	create_mw(&x, false, true, true, &st);
	is_u(st, 0, "create: free KLM mkey with umr_en (type 1)");
	create_mw(&x, true, true, true, &st);
	is_u(st, 0, "create: free KLM mkey with umr_en, en_rinval (type 2)");
	create_mw(&x, false, false, true, &st);
	is_u(st, MLX5X_CMD_STAT_BAD_PARAM, "create: a KLM mkey not free refused");
	create_mw(&x, false, true, false, &st);
	is_u(st, MLX5X_CMD_STAT_BAD_PARAM, "create: a KLM mkey without umr_en refused");
	te_teardown(&x);
}

static void t_type1(void)
{
	uint64_t wva;
	struct tcqe c = { 0 };
	struct mwp p;
	uint32_t key, key2;

	mwp_setup(&p, false);
	ok(check(&p, p.mw, MKEY_ANY_QP, p.mb.va, 1, ACC_RW) == MK_BAD_KEY,
	   "type 1: an unbound (free) window is refused");
	key = bind_std(&p, false, TMR_RW, 0x41);
	wva = p.mb.va + MW_OFF;
	memset(p.ma.host, 0x5c, 512);
	c = write_to(&p, wva + 100, key, 512);
	ok(c.opcode == MLX5X_CQE_REQ && p.mb.host[MW_OFF + 100] == 0x5c &&
	   p.mb.host[MW_OFF + 611] == 0x5c && p.mb.host[MW_OFF + 612] == 0,
	   "type 1: WRITE through the window lands in the MR");
	is_u(check(&p, key, p.b.qpn, wva, MW_WIN, ACC_RW), MK_OK,
	     "type 1: whole window, remote write");
	is_u(check(&p, key, p.a.qpn, wva, 8, ACC_RW), MK_OK,
	     "type 1: not bound to a QP");
	is_u(check(&p, p.mw, p.b.qpn, wva, 8, ACC_RW), MK_BAD_KEY,
	     "type 1: the key's old tag is refused");
	is_u(check(&p, key, p.b.qpn, wva - 1, 8, ACC_RW), MK_BOUNDS,
	     "type 1: below the window refused (the MR is larger)");
	is_u(check(&p, key, p.b.qpn, wva + MW_WIN - 4, 8, ACC_RW), MK_BOUNDS,
	     "type 1: past the window end refused");
	is_u(check(&p, key, p.b.qpn, wva, 8, ACC_RR), MK_ACCESS,
	     "type 1: remote read not granted by the window (MR has it)");
	is_u(check(&p, key, p.b.qpn, wva, 8, ACC_LR), MK_ACCESS,
	     "type 1: a window is no local key");
	/* rebind a bound type 1 window: allowed, new tag */
	key2 = (p.mw & ~0xffu) | 0x42;
	post_bind(&p.x, &p.b, &(struct bind){ .imm = key, .tag = 0x42,
		.mr = p.mb.key, .addr = p.mb.va, .len = 64, .acc = TMR_RR,
		.zero_based = true });
	ok(te_poll(&p.x, &p.cqb, &c) && c.opcode == MLX5X_CQE_REQ,
	   "type 1: rebind of a bound window completes");
	is_u(check(&p, key, p.b.qpn, wva, 8, ACC_RW), MK_BAD_KEY,
	     "type 1: rebind retires the previous key");
	is_u(check(&p, key2, p.b.qpn, 0, 64, ACC_RR), MK_OK,
	     "type 1: zero-based window from 0");
	/* invalidate by a zero-length bind */
	post_bind(&p.x, &p.b, &(struct bind){ .imm = key2, .tag = 0x43 });
	ok(te_poll(&p.x, &p.cqb, &c) && c.opcode == MLX5X_CQE_REQ,
	   "type 1: zero-length bind completes");
	is_u(check(&p, key2, p.b.qpn, 0, 8, ACC_RR), MK_BAD_KEY,
	     "type 1: zero-length bind invalidates the window");
	c = write_to(&p, wva, key, 8);
	ok(remote_access_err(&c),
	   "type 1: WRITE with a retired key: remote access error (synd 0x%x)",
	   c.syndrome);
	te_teardown(&p.x);
}

static void t_type1_refused(void)
{
	struct tcqe c = { 0 };
	struct mwp p;

	/* a WRITE beyond the window: remote access error */
	mwp_setup(&p, false);
	c = write_to(&p, p.mb.va + MW_OFF,
		     bind_std(&p, false, TMR_RW, 0x41) ^ 0x100, 8);
	ok(remote_access_err(&c), "type 1: WRITE with a wrong index refused");
	te_teardown(&p.x);

	mwp_setup(&p, false);
	c = write_to(&p, p.mb.va + MW_OFF + MW_WIN - 8,
		     bind_std(&p, false, TMR_RW, 0x41), 16);
	ok(remote_access_err(&c), "type 1: WRITE past the window end refused");
	te_teardown(&p.x);

	mwp_setup(&p, false);
	c = write_to(&p, p.mb.va + MW_OFF,
		     bind_std(&p, false, TMR_RR, 0x41), 16);
	ok(remote_access_err(&c), "type 1: WRITE through a read-only window refused");
	te_teardown(&p.x);

	/* local invalidate of a type 1 window: bind error */
	mwp_setup(&p, false);
	post_bind(&p.x, &p.b, &(struct bind){ .imm = p.mw, .type2 = true });
	ok(te_poll(&p.x, &p.cqb, &c) && c.opcode == MLX5X_CQE_REQ_ERR &&
	   c.syndrome == MLX5X_CQE_SYND_MW_BIND_ERR,
	   "type 1: local invalidate refused: MW bind error");
	te_teardown(&p.x);
}

static void bind_refused(bool type2, const struct bind *b, unsigned int mracc,
			 const char *what)
{
	struct bind bb = *b;
	struct tcqe c = { 0 };
	struct mwp p;
	struct tmr m;

	mwp_setup(&p, type2);
	m = te_mr(&p.x, 4096, mracc);
	bb.imm = p.mw;
	bb.type2 = type2;
	if (!bb.qpn)
		bb.qpn = p.b.qpn;
	if (!bb.mr) {
		bb.mr = m.key;
		bb.addr += m.va;
	} else if (bb.mr == 1) {
		bb.mr = p.mw;	/* a window onto a window */
	}
	post_bind(&p.x, &p.b, &bb);
	ok(te_poll(&p.x, &p.cqb, &c) && c.opcode == MLX5X_CQE_REQ_ERR &&
	   c.syndrome == MLX5X_CQE_SYND_MW_BIND_ERR &&
	   c.wqe_op == MLX5X_OPCODE_UMR,
	   "bind refused (MW bind error): %s", what);
	ok(check(&p, (p.mw & ~0xffu) | bb.tag, p.b.qpn, m.va, 8, ACC_RR) ==
	   MK_BAD_KEY, "... and the window stays free: %s", what);
	te_teardown(&p.x);
}

static void t_bind_refused(void)
{
	bind_refused(false, &(struct bind){ .tag = 1, .len = 8192,
		     .acc = TMR_RR }, TMR_ALL, "range beyond the MR");
	bind_refused(false, &(struct bind){ .tag = 1, .addr = 4000, .len = 200,
		     .acc = TMR_RR }, TMR_ALL, "range crossing the MR end");
	bind_refused(false, &(struct bind){ .tag = 1, .len = 64,
		     .acc = TMR_RW }, TMR_LR | TMR_RR,
		     "remote write over an MR without local write");
	bind_refused(false, &(struct bind){ .tag = 1, .len = 64,
		     .acc = TMR_A }, TMR_LR | TMR_RR,
		     "atomic over an MR without local write");
	bind_refused(false, &(struct bind){ .tag = 1, .len = 64, .mr = 1,
		     .acc = TMR_RR }, TMR_ALL, "KLM naming a window");
	bind_refused(true, &(struct bind){ .tag = 1, .len = 64, .qpn = 0x7777,
		     .acc = TMR_RR }, TMR_ALL, "type 2 bound to another QP");
}

static void t_bind_not_window(void)
{
	struct tcqe c = { 0 };
	struct mwp p;

	/* a UMR from a user QP may not touch a plain MR */
	mwp_setup(&p, false);
	post_bind(&p.x, &p.b, &(struct bind){ .imm = p.mb.key, .tag = 1,
		.mr = p.ma.key, .addr = p.ma.va, .len = 64, .acc = TMR_RR });
	ok(te_poll(&p.x, &p.cqb, &c) && c.opcode == MLX5X_CQE_REQ_ERR &&
	   c.syndrome == MLX5X_CQE_SYND_MW_BIND_ERR,
	   "UMR on an MR from a user QP: MW bind error");
	is_u(check(&p, p.mb.key, p.b.qpn, p.mb.va, 8, ACC_RW), MK_OK,
	     "... and the MR is untouched");
	te_teardown(&p.x);
}

static void t_type2(void)
{
	uint64_t wva;
	struct tcqe c = { 0 };
	struct mwp p;
	uint32_t key;

	mwp_setup(&p, true);
	key = bind_std(&p, true, TMR_RW | TMR_RR, 0x51);
	wva = p.mb.va + MW_OFF;
	memset(p.ma.host, 0x6d, 64);
	c = write_to(&p, wva, key, 64);
	ok(c.opcode == MLX5X_CQE_REQ && p.mb.host[MW_OFF] == 0x6d &&
	   p.mb.host[MW_OFF + 63] == 0x6d,
	   "type 2: WRITE through the window at its bound QP");
	is_u(check(&p, key, p.b.qpn, wva, 8, ACC_RR), MK_OK,
	     "type 2: usable through its QP");
	is_u(check(&p, key, p.a.qpn, wva, 8, ACC_RR), MK_QP,
	     "type 2: another QP may not use it");
	/* a second bind of a bound type 2 window */
	post_bind(&p.x, &p.b, &(struct bind){ .imm = p.mw, .tag = 0x52,
		.type2 = true, .qpn = p.b.qpn, .mr = p.mb.key,
		.addr = p.mb.va, .len = 64, .acc = TMR_RR });
	ok(te_poll(&p.x, &p.cqb, &c) && c.opcode == MLX5X_CQE_REQ_ERR &&
	   c.syndrome == MLX5X_CQE_SYND_MW_BIND_ERR,
	   "type 2: binding a bound window refused: MW bind error");
	is_u(check(&p, key, p.b.qpn, wva, 8, ACC_RR), MK_OK,
	     "type 2: ... and the first binding holds");
	te_teardown(&p.x);
}

static void t_type2_local_inval(void)
{
	struct tcqe c = { 0 };
	struct mwp p;
	uint32_t key;

	/* by another QP: refused */
	mwp_setup(&p, true);
	key = bind_std(&p, true, TMR_RW, 0x51);
	post_bind(&p.x, &p.a, &(struct bind){ .imm = key, .type2 = true });
	ok(te_poll(&p.x, &p.cqa, &c) && c.opcode == MLX5X_CQE_REQ_ERR &&
	   c.syndrome == MLX5X_CQE_SYND_MW_BIND_ERR,
	   "type 2: local invalidate from another QP: MW bind error");
	is_u(check(&p, key, p.b.qpn, p.mb.va + MW_OFF, 8, ACC_RW), MK_OK,
	     "type 2: ... the window stays bound");
	te_teardown(&p.x);

	/* with a stale key: refused */
	mwp_setup(&p, true);
	key = bind_std(&p, true, TMR_RW, 0x51);
	post_bind(&p.x, &p.b, &(struct bind){ .imm = p.mw, .type2 = true });
	ok(te_poll(&p.x, &p.cqb, &c) && c.opcode == MLX5X_CQE_REQ_ERR &&
	   c.syndrome == MLX5X_CQE_SYND_MW_BIND_ERR,
	   "type 2: local invalidate with the wrong tag: MW bind error");
	te_teardown(&p.x);

	/* by its QP */
	mwp_setup(&p, true);
	key = bind_std(&p, true, TMR_RW, 0x51);
	post_bind(&p.x, &p.b, &(struct bind){ .imm = key, .type2 = true });
	ok(te_poll(&p.x, &p.cqb, &c) && c.opcode == MLX5X_CQE_REQ &&
	   c.wqe_op == MLX5X_OPCODE_UMR, "type 2: local invalidate completes");
	is_u(check(&p, key, p.b.qpn, p.mb.va + MW_OFF, 8, ACC_RW), MK_BAD_KEY,
	     "type 2: invalidated window refused");
	c = write_to(&p, p.mb.va + MW_OFF, key, 8);
	ok(remote_access_err(&c),
	   "type 2: WRITE after local invalidate: remote access error");
	/* free again: it may be bound anew */
	te_teardown(&p.x);
}

static void t_type2_remote_inval(void)
{
	struct tcqe c = { 0 };
	struct tsge r;
	struct mwp p;
	uint32_t key;

	mwp_setup(&p, true);
	key = bind_std(&p, true, TMR_RW, 0x51);
	r = te_sge(&p.mb, 0, 64);
	te_recv(&p.x, &p.b, &r, 1);
	te_send(&p.x, &p.a, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND_INVAL,
		.flags = TE_SIGNALED, .imm = key });
	te_run(&p.x);
	ok(te_poll(&p.x, &p.cqb, &c) && c.opcode == MLX5X_CQE_RESP_SEND_INV &&
	   get_be32(c.imm) == key,
	   "type 2: SEND with Invalidate: receive CQE SEND_INV with the key (op %u)",
	   c.opcode);
	ok(te_poll(&p.x, &p.cqa, &c) && c.opcode == MLX5X_CQE_REQ &&
	   c.wqe_op == MLX5X_OPCODE_SEND_INVAL, "type 2: sender completes");
	is_u(check(&p, key, p.b.qpn, p.mb.va + MW_OFF, 8, ACC_RW), MK_BAD_KEY,
	     "type 2: remotely invalidated window refused");
	/* bound again after the invalidation */
	post_bind(&p.x, &p.b, &(struct bind){ .imm = p.mw, .tag = 0x60,
		.type2 = true, .qpn = p.b.qpn, .mr = p.mb.key,
		.addr = p.mb.va, .len = 64, .acc = TMR_RR });
	ok(te_poll(&p.x, &p.cqb, &c) && c.opcode == MLX5X_CQE_REQ,
	   "type 2: a free window binds again");
	is_u(check(&p, (p.mw & ~0xffu) | 0x60, p.b.qpn, p.mb.va, 64, ACC_RR),
	     MK_OK, "type 2: ... under its new key");
	te_teardown(&p.x);

	/* type 1 windows cannot be invalidated remotely */
	mwp_setup(&p, false);
	key = bind_std(&p, false, TMR_RW, 0x41);
	te_recv(&p.x, &p.b, &r, 1);
	te_send(&p.x, &p.a, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND_INVAL,
		.flags = TE_SIGNALED, .imm = key });
	te_run(&p.x);
	ok(te_poll(&p.x, &p.cqa, &c) && c.opcode == MLX5X_CQE_REQ_ERR &&
	   c.syndrome == MLX5X_CQE_SYND_REMOTE_INVAL_REQ_ERR,
	   "type 1: SEND with Invalidate refused: remote invalid request (synd 0x%x)",
	   c.syndrome);
	is_u(check(&p, key, p.b.qpn, p.mb.va + MW_OFF, 8, ACC_RW), MK_OK,
	     "type 1: ... the window stays bound");
	te_teardown(&p.x);
}

static void t_dealloc(void)
{
	struct tcqe c = { 0 };
	struct mwp p;
	uint32_t key;

	mwp_setup(&p, true);
	key = bind_std(&p, true, TMR_RW, 0x51);
	te_destroy_mkey(&p.x, p.mw);
	is_u(check(&p, key, p.b.qpn, p.mb.va + MW_OFF, 8, ACC_RW), MK_BAD_KEY,
	     "dealloc: the window's key is gone");
	c = write_to(&p, p.mb.va + MW_OFF, key, 8);
	ok(remote_access_err(&c), "dealloc: WRITE after dealloc refused");
	te_teardown(&p.x);

	/* the MR goes away under a bound window */
	mwp_setup(&p, false);
	key = bind_std(&p, false, TMR_RW, 0x41);
	te_destroy_mkey(&p.x, p.mb.key);
	is_u(check(&p, key, p.b.qpn, p.mb.va + MW_OFF, 8, ACC_RW), MK_BAD_KEY,
	     "dealloc: a window onto a deregistered MR leads nowhere");
	te_teardown(&p.x);
}

int main(void)
{
	t_create();
	t_type1();
	t_type1_refused();
	t_bind_refused();
	t_bind_not_window();
	t_type2();
	t_type2_local_inval();
	t_type2_remote_inval();
	t_dealloc();
	return tap_done();
}
