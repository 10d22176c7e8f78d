// SPDX-License-Identifier: GPL-2.0
/*
 * UMR on MRs, in the forms mlx5_ib posts once the device can rewrite a
 * key's translation (umr_modify_entity_size_disabled = 0):
 *  - on the UMR QP: an MR cache key (created free with umr_en and room
 *    for its MTTs, no PAS) loaded with its MTT list by pointer, in
 *    chunks at xlt_offset, then enabled with its start, length, page
 *    size, rights and PD; an inline list;
 *  - on a kernel RC QP: fast registration (IB_WR_REG_MR, new tag, inline
 *    MTTs or by pointer), local invalidate, and remote invalidation by
 *    the peer's SEND with Invalidate.
 * What must be refused, leaving the key as it was: a list beyond the
 * key's translation size, a range its list cannot cover, an unreadable
 * list, a key of another PD on a send queue, a stale tag, a page size
 * change when the caps say it cannot be done, remote invalidation of a
 * key without en_rinval.
 */
#include "eng_th.h"

enum { NPG = 16 };	/* translation entries of the test keys */

/* a free MTT key with umr_en and room for n entries, as mlx5_ib's cache */
static uint32_t create_umr_mkey(struct te *x, uint32_t pd, uint32_t n,
				uint8_t tag)
{
	uint8_t in[MLX5X_CREATE_MKEY_IN_LEN] = { 0 }, out[16];
	uint8_t *mkc = in + MLX5X_CREATE_MKEY_IN_MKC_OFF;

	th_hdr(in, MLX5X_CMD_OP_CREATE_MKEY, 0);
	PSET(mkc, MLX5X_MKC_FREE, 1);
	PSET(mkc, MLX5X_MKC_UMR_EN, 1);
	PSET(mkc, MLX5X_MKC_LR, 1);
	PSET(mkc, MLX5X_MKC_ACCESS_MODE_1_0, MLX5X_MKC_ACCESS_MODE_MTT);
	PSET(mkc, MLX5X_MKC_QPN, 0xffffff);
	PSET(mkc, MLX5X_MKC_MKEY_7_0, tag);
	PSET(mkc, MLX5X_MKC_PD, pd);
	PSET(mkc, MLX5X_MKC_LOG_PAGE_SIZE, 12);
	PSET(mkc, MLX5X_MKC_TRANSLATIONS_OCTWORD_SIZE, n / 2);
	te_must(x, in, sizeof(in), out, 16, "CREATE_MKEY (UMR)");
	return PGET(out, MLX5X_CREATE_MKEY_OUT_MKEY_INDEX) << 8 | tag;
}

struct umr {
	uint32_t imm;		/* the key as the WQE names it */
	uint8_t flags;		/* MLX5X_UMR_* */
	uint64_t mask;
	const uint8_t *mkc;
	uint16_t octw;		/* xlt_octowords */
	uint64_t off;		/* xlt_offset, octowords */
	const uint64_t *inl;	/* inline MTT entries (2 * octw) */
	const struct tsge *ptr;	/* or the list by pointer */
};

/* a UMR WQE as mlx5_ib builds it (umr.c, wr.c); completes signaled */
static uint16_t post_umr(struct te *x, struct tqp *qp, const struct umr *u)
{
	uint8_t w[1024] = { 0 }, *ctrl = w + 16;
	uint32_t pos = 16 + MLX5X_WQE_UMR_CTRL_LEN + MLX5X_WQE_UMR_MKEY_LEN, i;
	uint16_t idx = qp->sq_pi;
	uint8_t flags = u->flags;

	PSET(w, MLX5X_WQE_CTRL_WQE_INDEX, idx);
	PSET(w, MLX5X_WQE_CTRL_OPCODE, MLX5X_OPCODE_UMR);
	PSET(w, MLX5X_WQE_CTRL_QPN, qp->qpn);
	w[11] = 0x08;
	put_be32(w + MLX5X_WQE_CTRL_IMM_OFF, u->imm);
	if (u->off)
		flags |= MLX5X_UMR_TRANSLATION_OFFSET_EN;
	if (u->inl)
		flags |= MLX5X_UMR_INLINE;
	PSET(ctrl, MLX5X_WQE_UMR_FLAGS, flags);
	PSET(ctrl, MLX5X_WQE_UMR_XLT_OCTOWORDS, u->octw);
	PSET(ctrl, MLX5X_WQE_UMR_XLT_OFFSET, (uint32_t)(u->off & 0xffff));
	PSET(ctrl, MLX5X_WQE_UMR_XLT_OFFSET_47_16, (uint32_t)(u->off >> 16));
	put_be64(ctrl + MLX5X_WQE_UMR_MKEY_MASK_OFF, u->mask);
	if (u->mkc)
		memcpy(ctrl + MLX5X_WQE_UMR_CTRL_LEN, u->mkc,
		       MLX5X_WQE_UMR_MKEY_LEN);
	if (u->inl) {
		for (i = 0; i < 2u * u->octw; i++)
			put_be64(w + pos + 8 * i, u->inl[i]);
		pos += (16u * u->octw + 63) & ~63u;
	} else if (u->ptr) {
		put_be32(w + pos, u->ptr->len);
		put_be32(w + pos + 4, u->ptr->lkey);
		put_be64(w + pos + 8, u->ptr->addr);
		pos += 16;
	}
	PSET(w, MLX5X_WQE_CTRL_DS, pos / 16);
	te_sq_put(x, qp, idx, 0, w, pos);
	qp->sq_pi += (uint16_t)((pos + 63) / 64);
	te_ring(x, qp, idx);
	te_run(x);
	return idx;
}

/* the completion of the UMR at idx: 0 if it succeeded, else the syndrome */
static int umr_done(struct te *x, struct tcq *cq, uint16_t idx)
{
	struct tcqe c = { 0 };

	if (!te_poll(x, cq, &c) || c.wqe_counter != idx)
		return -1;
	if (c.opcode == MLX5X_CQE_REQ)
		return 0;
	return c.opcode == MLX5X_CQE_REQ_ERR ? c.syndrome : -1;
}

/* the mkey context of an enable: rights, PD, range, page size, tag */
static void enable_mkc(uint8_t *mkc, uint32_t pd, uint64_t va, uint64_t len,
		       uint8_t tag)
{
	memset(mkc, 0, MLX5X_WQE_UMR_MKEY_LEN);
	PSET(mkc, MLX5X_MKC_LR, 1);
	PSET(mkc, MLX5X_MKC_LW, 1);
	PSET(mkc, MLX5X_MKC_RR, 1);
	PSET(mkc, MLX5X_MKC_RW, 1);
	PSET(mkc, MLX5X_MKC_PD, pd);
	PSET(mkc, MLX5X_MKC_QPN, 0xffffff);
	PSET(mkc, MLX5X_MKC_MKEY_7_0, tag);
	PSET(mkc, MLX5X_MKC_LOG_PAGE_SIZE, 12);
	put_be64(mkc + MLX5X_MKC_START_ADDR_OFF, va);
	put_be64(mkc + MLX5X_MKC_LEN_OFF, len);
}

#define ENABLE_MASK (MLX5X_MKEY_MASK_KEY | MLX5X_MKEY_MASK_FREE | \
		     MLX5X_MKEY_MASK_LR | MLX5X_MKEY_MASK_LW | \
		     MLX5X_MKEY_MASK_RR | MLX5X_MKEY_MASK_RW | \
		     MLX5X_MKEY_MASK_A | MLX5X_MKEY_MASK_PD | \
		     MLX5X_MKEY_MASK_LEN | MLX5X_MKEY_MASK_PAGE_SIZE | \
		     MLX5X_MKEY_MASK_START_ADDR)

/* FRWR mask (mlx5_ib's frwr_mkey_mask, no atomic) */
#define FRWR_MASK (MLX5X_MKEY_MASK_LEN | MLX5X_MKEY_MASK_PAGE_SIZE | \
		   MLX5X_MKEY_MASK_START_ADDR | MLX5X_MKEY_MASK_EN_RINVAL | \
		   MLX5X_MKEY_MASK_KEY | MLX5X_MKEY_MASK_LR | \
		   MLX5X_MKEY_MASK_LW | MLX5X_MKEY_MASK_RR | \
		   MLX5X_MKEY_MASK_RW | MLX5X_MKEY_MASK_SMALL_FENCE | \
		   MLX5X_MKEY_MASK_FREE)

struct up {
	struct te x;
	struct tcq cq, cqa, cqb;
	struct tqp umr, a, b;		/* a: the peer of b */
	struct emu_pd *pd;
	uint64_t pages;			/* NPG pages of bus memory */
	uint64_t list;			/* an MTT list in bus memory */
	uint32_t dma;			/* a PA key of the PD */
	uint32_t key;			/* a cache-style key */
};

static void up_setup(struct up *p)
{
	te_setup(&p->x);
	te_cq(&p->x, &p->cq, 5);
	te_cq(&p->x, &p->cqa, 5);
	te_cq(&p->x, &p->cqb, 5);
	te_qp_type_pd(&p->x, &p->umr, MLX5X_QP_ST_REG_UMR, &p->cq, &p->cq, 0,
		      5, 0, 0, 0);
	te_connect(&p->x, &p->umr, NULL, true);
	te_qp(&p->x, &p->a, &p->cqa, &p->cqa);
	te_qp(&p->x, &p->b, &p->cqb, &p->cqb);
	te_pair(&p->x, &p->a, &p->b);
	p->pd = objtab_get(&p->x.t.e.obj[OBJ_PD], p->x.t.pd);
	p->pages = th_alloc(&p->x.t, NPG * 4096ull, 4096);
	p->list = th_alloc(&p->x.t, 4096, 4096);
	p->dma = te_pa_mkey(&p->x, p->x.t.pd);
	p->key = create_umr_mkey(&p->x, p->x.t.pd, NPG, 0x21);
}

/* page i of the list is bus page NPG - 1 - i: translation is visible */
static uint64_t mtt_ent(const struct up *p, unsigned int i)
{
	return (p->pages + 4096ull * (NPG - 1 - i)) | 3;	/* R|W */
}

static void put_list(struct up *p, unsigned int from, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		put_be64((uint8_t *)th_host(&p->x.t, p->list) + 8 * i,
			 mtt_ent(p, from + i));
}

/* write 4 bytes through key at va; where did they land (bus page)? */
static int landed(struct up *p, uint32_t key, uint64_t va)
{
	struct emu_mkey *mk;
	uint32_t v = 0xa5a5a5a5, i;

	memset(th_host(&p->x.t, p->pages), 0, NPG * 4096);
	if (mkey_check(&p->x.t.e, key, p->pd, va, 4, ACC_LW, &mk) ||
	    mkey_dma(&p->x.t.e, mk, va, &v, 4, true))
		return -1;
	for (i = 0; i < NPG; i++)
		if (!memcmp((uint8_t *)th_host(&p->x.t, p->pages) + 4096 * i +
			    (va & 4095), &v, 4))
			return (int)i;
	return -2;
}

/* the MR cache's load: two chunks by pointer, then enable */
static void t_xlt_pointer(void)
{
	struct tsge s;
	uint8_t mkc[64] = { 0 };
	uint64_t va = TE_VA_BASE + 0x10000;
	uint32_t newkey;
	struct up p;
	uint16_t idx;

	up_setup(&p);
	/* first half, the key still free (mlx5_ib: CHECK_FREE, no mask) */
	put_list(&p, 0, 8);
	s = (struct tsge){ p.dma, p.list, 64 };
	idx = post_umr(&p.x, &p.umr, &(struct umr){ .imm = p.key,
		.flags = MLX5X_UMR_CHECK_FREE, .octw = 4, .mkc = mkc,
		.ptr = &s });
	is_u(umr_done(&p.x, &p.cq, idx), 0, "XLT by pointer: entries 0-7 load");
	/* second half at xlt_offset 4 octowords, and enable */
	put_list(&p, 8, 8);
	enable_mkc(mkc, p.x.t.pd, va, NPG * 4096ull, 0x22);
	idx = post_umr(&p.x, &p.umr, &(struct umr){ .imm = p.key,
		.flags = MLX5X_UMR_CHECK_NOT_FREE, .octw = 4, .off = 4,
		.mask = ENABLE_MASK, .mkc = mkc, .ptr = &s });
	is_u(umr_done(&p.x, &p.cq, idx), 0,
	     "XLT at xlt_offset 4 with enable completes");
	newkey = (p.key & ~0xffu) | 0x22;
	is_u(landed(&p, newkey, va), NPG - 1, "page 0 maps where entry 0 says");
	is_u(landed(&p, newkey, va + 9 * 4096 + 100), NPG - 1 - 9,
	     "page 9 (second chunk) maps where entry 9 says");
	is_u(landed(&p, p.key, va), -1, "the old tag is refused");
	is_u(landed(&p, newkey, va + NPG * 4096ull), -1,
	     "past the new length: refused");
	te_teardown(&p.x);
}

static void t_xlt_inline(void)
{
	uint64_t ents[4], va = TE_VA_BASE;
	uint8_t mkc[64];
	unsigned int i;
	struct up p;
	uint16_t idx;

	up_setup(&p);
	for (i = 0; i < 4; i++)
		ents[i] = mtt_ent(&p, i);
	enable_mkc(mkc, p.x.t.pd, va + 0x200, 3 * 4096, 0x21);
	idx = post_umr(&p.x, &p.umr, &(struct umr){ .imm = p.key,
		.octw = 2, .mask = ENABLE_MASK, .mkc = mkc, .inl = ents });
	is_u(umr_done(&p.x, &p.cq, idx), 0, "inline XLT with enable completes");
	is_u(landed(&p, p.key, va + 4096 + 0x300), NPG - 2,
	     "inline: page offset kept, page 1 where entry 1 says");
	te_teardown(&p.x);
}

/* a key with room for 2 entries takes a list padded to 64 bytes */
static void t_xlt_padded(void)
{
	uint64_t ents[8] = { 0 }, va = TE_VA_BASE + 0x5000;
	uint8_t mkc[64];
	uint32_t key;
	struct up p;
	uint16_t idx;

	up_setup(&p);
	key = create_umr_mkey(&p.x, p.x.t.pd, 2, 0x66);
	ents[0] = mtt_ent(&p, 0);
	ents[1] = mtt_ent(&p, 1);
	enable_mkc(mkc, p.x.t.pd, va, 2 * 4096, 0x66);
	idx = post_umr(&p.x, &p.umr, &(struct umr){ .imm = key, .octw = 4,
		.mask = ENABLE_MASK, .mkc = mkc, .inl = ents });
	is_u(umr_done(&p.x, &p.cq, idx), 0,
	     "2-entry key: a list padded to 64 bytes is taken");
	is_u(landed(&p, key, va + 4096), NPG - 2, "... and maps its 2 pages");
	enable_mkc(mkc, p.x.t.pd, va, 3 * 4096, 0x66);
	idx = post_umr(&p.x, &p.umr, &(struct umr){ .imm = key, .octw = 4,
		.mask = ENABLE_MASK, .mkc = mkc, .inl = ents });
	is_u(umr_done(&p.x, &p.cq, idx), MLX5X_CQE_SYND_LOCAL_QP_OP_ERR,
	     "2-entry key: a 3-page range is refused (padding is no room)");
	te_teardown(&p.x);
}

/* each refusal: error CQE, and the key as it was (free, no mapping) */
static void xlt_refused(const char *what, struct umr u, uint64_t len,
			bool bad_list, bool page_size_disabled)
{
	struct tsge s;
	uint8_t mkc[64];
	struct up p;
	uint16_t idx;

	up_setup(&p);
	if (page_size_disabled)
		PSET(p.x.t.e.hca.cap_cur,
		     MLX5X_CAP_UMR_MODIFY_ENTITY_SIZE_DISABLED, 1);
	put_list(&p, 0, 8);
	s = (struct tsge){ bad_list ? 0xdead00 : p.dma, p.list, 64 };
	enable_mkc(mkc, p.x.t.pd, TE_VA_BASE, len ? len : NPG * 4096ull, 0x21);
	u.mkc = mkc;
	/* imm: the bits of the key's tag to flip (a stale tag) */
	u.imm ^= p.key;
	u.ptr = &s;
	idx = post_umr(&p.x, &p.umr, &u);
	is_u(umr_done(&p.x, &p.cq, idx), MLX5X_CQE_SYND_LOCAL_QP_OP_ERR,
	     "refused (local QP operation error): %s", what);
	is_u(landed(&p, p.key, TE_VA_BASE), -1,
	     "... and the key stays free: %s", what);
	te_teardown(&p.x);
}

static void t_xlt_refused(void)
{
	xlt_refused("list beyond the key's translation size",
		    (struct umr){ .octw = 4, .off = 6, .mask = ENABLE_MASK },
		    0, false, false);
	xlt_refused("length beyond what the list can map",
		    (struct umr){ .octw = 4, .mask = ENABLE_MASK },
		    (NPG + 1) * 4096ull, false, false);
	xlt_refused("list behind an invalid key",
		    (struct umr){ .octw = 4, .mask = ENABLE_MASK }, 0, true,
		    false);
	xlt_refused("stale tag",
		    (struct umr){ .imm = 0x80, .octw = 4, .mask = ENABLE_MASK &
		    ~MLX5X_MKEY_MASK_KEY }, 0, false, false);
	xlt_refused("page size change with umr_modify_entity_size_disabled",
		    (struct umr){ .octw = 4, .mask = ENABLE_MASK }, 0, false,
		    true);
}

/* fast registration: a key of b's PD, registered on b's send queue */
static uint32_t frmr(struct up *p, uint8_t tag, uint64_t iova, bool inl,
		     int *res)
{
	uint64_t ents[8];
	uint8_t mkc[64];
	struct tsge s = { p->dma, p->list, 64 };
	unsigned int i;
	uint16_t idx;

	for (i = 0; i < 8; i++)
		ents[i] = mtt_ent(p, i);
	put_list(p, 0, 8);
	enable_mkc(mkc, 0, iova, 8 * 4096, tag);
	PSET(mkc, MLX5X_MKC_EN_RINVAL, 1);
	idx = post_umr(&p->x, &p->b, &(struct umr){ .imm = (p->key & ~0xffu) |
		tag, .flags = MLX5X_UMR_CHECK_NOT_FREE, .octw = 4,
		.mask = FRWR_MASK, .mkc = mkc, .inl = inl ? ents : NULL,
		.ptr = inl ? NULL : &s });
	*res = umr_done(&p->x, &p->cqb, idx);
	return (p->key & ~0xffu) | tag;
}

/* a's RDMA WRITE of 8 bytes to raddr/rkey: requester CQE opcode/synd */
static struct tcqe write_to(struct up *p, uint64_t raddr, uint32_t rkey)
{
	struct tmr m = te_mr(&p->x, 64, TMR_ALL);
	struct tsge s = te_sge(&m, 0, 8);
	struct tcqe c = { 0 };

	memset(m.host, 0x5a, 8);
	te_send(&p->x, &p->a, &(struct tsend){
		.opcode = MLX5X_OPCODE_RDMA_WRITE, .flags = TE_SIGNALED,
		.raddr = raddr, .rkey = rkey, .sg = &s, .nsge = 1 });
	te_run(&p->x);
	if (!te_poll(&p->x, &p->cqa, &c))
		c.opcode = MLX5X_CQE_INVALID;
	return c;
}

static void t_fast_reg(void)
{
	uint64_t iova = 0x1000000;
	struct tcqe c;
	uint32_t key;
	struct up p;
	int res;
	uint16_t idx;
	uint8_t mkc[64] = { 0 };

	up_setup(&p);
	key = frmr(&p, 0x30, iova, true, &res);
	is_u(res, 0, "REG_MR (inline MTTs) on an RC send queue completes");
	c = write_to(&p, iova + 2 * 4096 + 8, key);
	ok(c.opcode == MLX5X_CQE_REQ, "the peer's WRITE through the new key");
	ok(*(uint64_t *)((uint8_t *)th_host(&p.x.t, p.pages) +
			 4096 * (NPG - 3) + 8) != 0,
	   "... lands in the page entry 2 names");
	/* local invalidate (mlx5_ib set_linv_wr) */
	PSET(mkc, MLX5X_MKC_FREE, 1);
	idx = post_umr(&p.x, &p.b, &(struct umr){ .imm = key,
		.flags = MLX5X_UMR_INLINE, .mask = MLX5X_MKEY_MASK_FREE,
		.mkc = mkc });
	is_u(umr_done(&p.x, &p.cqb, idx), 0, "LOCAL_INV completes");
	is_u(landed(&p, key, iova), -1, "the invalidated key is refused");
	/* re-register by pointer with the next tag */
	key = frmr(&p, 0x31, iova, false, &res);
	is_u(res, 0, "REG_MR (MTTs by pointer) with a new tag completes");
	c = write_to(&p, iova, key);
	ok(c.opcode == MLX5X_CQE_REQ, "the peer's WRITE through tag 0x31");
	te_teardown(&p.x);
}

static void t_fast_reg_other_pd(void)
{
	struct up p;
	uint32_t pd2;
	int res;

	up_setup(&p);
	pd2 = th_alloc_num(&p.x.t, MLX5X_CMD_OP_ALLOC_PD);
	p.key = create_umr_mkey(&p.x, pd2, NPG, 0x21);
	frmr(&p, 0x30, 0x1000000, true, &res);
	is_u(res, MLX5X_CQE_SYND_LOCAL_QP_OP_ERR,
	     "REG_MR of a key of another PD: local QP operation error");
	is_u(landed(&p, (p.key & ~0xffu) | 0x30, 0x1000000), -1,
	     "... and the key stays free");
	te_teardown(&p.x);
}

/* a's SEND with Invalidate naming rkey into b's receive queue */
static struct tcqe send_inv(struct up *p, uint32_t rkey, struct tcqe *rc)
{
	struct tmr m = te_mr(&p->x, 64, TMR_ALL);
	struct tsge s = te_sge(&m, 0, 8);
	struct tcqe c = { 0 };

	te_recv(&p->x, &p->b, &s, 1);
	te_send(&p->x, &p->a, &(struct tsend){
		.opcode = MLX5X_OPCODE_SEND_INVAL, .flags = TE_SIGNALED,
		.imm = rkey, .sg = &s, .nsge = 1 });
	te_run(&p->x);
	if (!te_poll(&p->x, &p->cqa, &c))
		c.opcode = MLX5X_CQE_INVALID;
	if (!te_poll(&p->x, &p->cqb, rc))
		rc->opcode = MLX5X_CQE_INVALID;
	return c;
}

static void t_remote_inval(void)
{
	uint64_t iova = 0x2000000;
	struct tcqe c, r;
	struct tmr plain;
	struct up p;
	uint32_t key;
	int res;

	up_setup(&p);
	key = frmr(&p, 0x40, iova, true, &res);
	is_u(res, 0, "REG_MR with en_rinval completes");
	c = send_inv(&p, key, &r);
	ok(c.opcode == MLX5X_CQE_REQ && r.opcode == MLX5X_CQE_RESP_SEND_INV,
	   "SEND with Invalidate of the registered key: both sides complete");
	is_u(landed(&p, key, iova), -1, "the remotely invalidated key is refused");
	/* an MR without en_rinval (CREATE_MKEY) may not be invalidated */
	plain = te_mr(&p.x, 4096, TMR_ALL);
	c = send_inv(&p, plain.key, &r);
	ok(c.opcode == MLX5X_CQE_REQ_ERR &&
	   c.syndrome == MLX5X_CQE_SYND_REMOTE_INVAL_REQ_ERR,
	   "SEND with Invalidate of a key without en_rinval: invalid request");
	is_u(mkey_check(&p.x.t.e, plain.key, p.pd, plain.va, 8, ACC_RW, NULL),
	     MK_OK, "... and the key stays valid");
	te_teardown(&p.x);
}

int main(void)
{
	t_xlt_pointer();
	t_xlt_inline();
	t_xlt_padded();
	t_xlt_refused();
	t_fast_reg();
	t_fast_reg_other_pd();
	t_remote_inval();
	return tap_done();
}
