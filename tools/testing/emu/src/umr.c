// SPDX-License-Identifier: GPL-2.0
/*
 * UMR: memory key updates posted as WQEs.
 *
 * On the kernel's REG_UMR QP mlx5_ib loads and enables the keys of its
 * MR cache (user MRs: the MTT list in chunks at xlt_offset, then start,
 * length, page size, rights, PD), revokes an MR (makes its key free)
 * and changes an MR's PD and access rights in place.  On a kernel RC/UC
 * send queue it fast-registers (IB_WR_REG_MR: new tag, MTTs, range,
 * rights, en_rinval) and locally invalidates (free) keys of the QP's PD
 * created free with umr_en.  The WQE names the key in the control
 * segment's immediate; mkey_mask selects the fields of the inline mkey
 * context that replace the key's current ones.  A UMR is a local
 * operation: it takes effect when the engine takes the WQE and completes
 * in order with the WQEs before it.
 *
 * On a user RC/UC send queue a UMR binds or invalidates a memory window
 * (libmlx5's ibv_bind_mw, IBV_WR_BIND_MW, IBV_WR_LOCAL_INV), or is
 * refused as a bind would be: the key must be a window of the QP's PD
 * (or an MR with umr_en, taken as above), and only the window's
 * tag, rights, range, QP and free state may change.  A bind points the
 * window's single inline KLM at an MR of the same PD that covers the
 * range; a type 2 window must be free to be bound and is bound to the
 * posting QP; only that QP may invalidate it.  Refusals complete with
 * the MW bind error syndrome.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "log.h"

static int umr_fail(struct emu *e, struct emu_qp *qp, uint32_t key,
		    const char *why)
{
	e->eng.st.wqe_faults++;
	emu_warn("QP 0x%x: UMR on mkey 0x%x refused: %s", qp->qpn, key, why);
	return MLX5X_CQE_SYND_LOCAL_QP_OP_ERR;
}

/* the PD an mkey belongs to changes: move the reference */
static int umr_set_pd(struct emu *e, struct emu_mkey *mk, uint32_t pdn)
{
	struct emu_pd *pd = objtab_get(&e->obj[OBJ_PD], pdn);

	if (!pd)
		return -1;
	mk->pd->refs--;
	pd->refs++;
	mk->pd = pd;
	return 0;
}

static void umr_set_access(struct emu_mkey *mk, const uint8_t *mkc,
			   uint64_t mask)
{
	if (mask & MLX5X_MKEY_MASK_LR)
		mk->lr = PGET(mkc, MLX5X_MKC_LR);
	if (mask & MLX5X_MKEY_MASK_LW)
		mk->lw = PGET(mkc, MLX5X_MKC_LW);
	if (mask & MLX5X_MKEY_MASK_RR)
		mk->rr = PGET(mkc, MLX5X_MKC_RR);
	if (mask & MLX5X_MKEY_MASK_RW)
		mk->rw = PGET(mkc, MLX5X_MKC_RW);
	if (mask & MLX5X_MKEY_MASK_A)
		mk->atomic = PGET(mkc, MLX5X_MKC_A);
}

/* the fields the mask selects, copied into the key's stored context */
static void umr_copy_mkc(struct emu_mkey *mk, const uint8_t *mkc,
			 uint64_t mask)
{
	static const struct {
		uint64_t bit;
		uint32_t off, field;
	} f[] = {
		{ MLX5X_MKEY_MASK_FREE, MLX5X_MKC_FREE_OFF, MLX5X_MKC_FREE_MASK },
		{ MLX5X_MKEY_MASK_LR, MLX5X_MKC_LR_OFF, MLX5X_MKC_LR_MASK },
		{ MLX5X_MKEY_MASK_LW, MLX5X_MKC_LW_OFF, MLX5X_MKC_LW_MASK },
		{ MLX5X_MKEY_MASK_RR, MLX5X_MKC_RR_OFF, MLX5X_MKC_RR_MASK },
		{ MLX5X_MKEY_MASK_RW, MLX5X_MKC_RW_OFF, MLX5X_MKC_RW_MASK },
		{ MLX5X_MKEY_MASK_A, MLX5X_MKC_A_OFF, MLX5X_MKC_A_MASK },
		{ MLX5X_MKEY_MASK_PD, MLX5X_MKC_PD_OFF, MLX5X_MKC_PD_MASK },
		{ MLX5X_MKEY_MASK_QPN, MLX5X_MKC_QPN_OFF, MLX5X_MKC_QPN_MASK },
		{ MLX5X_MKEY_MASK_KEY, MLX5X_MKC_MKEY_7_0_OFF,
		  MLX5X_MKC_MKEY_7_0_MASK },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(f); i++)
		if (mask & f[i].bit)
			prm_set(mk->mkc, f[i].off, f[i].field,
				prm_get(mkc, f[i].off, f[i].field));
	if (mask & MLX5X_MKEY_MASK_START_ADDR)
		memcpy(mk->mkc + MLX5X_MKC_START_ADDR_OFF,
		       mkc + MLX5X_MKC_START_ADDR_OFF, 8);
	if (mask & MLX5X_MKEY_MASK_LEN)
		memcpy(mk->mkc + MLX5X_MKC_LEN_OFF, mkc + MLX5X_MKC_LEN_OFF, 8);
}

/*
 * The PD the key of a translation list must belong to: the posting QP's,
 * except on the UMR QP (a kernel-only queue that serves every PD; mlx5_ib
 * names its own PD's DMA key there, whatever the QP context says).
 */
static const struct emu_pd *umr_list_pd(struct emu *e, const struct emu_qp *qp,
					const struct swqe *w)
{
	const struct emu_mkey *lk;

	if (qp->st != MLX5X_QP_ST_REG_UMR)
		return qp->pd;
	lk = mkey_lookup(e, w->umr_sge.lkey);
	return lk ? lk->pd : qp->pd;
}

/*
 * The translation list a UMR carries (xlt_octowords, two MTT entries an
 * octoword): inline after the mkey context, or read through the data
 * segment's key (the PD's DMA key), written at xlt_offset octowords into
 * the key's list.  The list was sized when the key was created
 * (translations_octword_size): a UMR cannot grow it.
 */
static const char *umr_read_xlt(struct emu *e, struct emu_qp *qp,
				const struct emu_mkey *mk, const struct swqe *w,
				uint64_t **out, uint64_t *first, uint32_t *n)
{
	const uint8_t *ctrl = w->umr;
	uint32_t octw = PGET(ctrl, MLX5X_WQE_UMR_XLT_OCTOWORDS), i;
	uint64_t off = 0, bytes = octw * 16ull, room;
	uint8_t *buf;

	*n = 0;
	if (!octw)
		return NULL;
	if (mk->mw || mk->access_mode != MLX5X_MKC_ACCESS_MODE_MTT)
		return "translation update of a key that is not MTT";
	if (PGET(ctrl, MLX5X_WQE_UMR_FLAGS) & MLX5X_UMR_TRANSLATION_OFFSET_EN)
		off = PGET(ctrl, MLX5X_WQE_UMR_XLT_OFFSET) |
		      (uint64_t)PGET(ctrl, MLX5X_WQE_UMR_XLT_OFFSET_47_16) << 16;
	/*
	 * The room is kept in 64-byte units (mlx5_ib pads every list to
	 * 64 bytes with zero entries, even for a key whose room is smaller):
	 * what lies past the room itself is not stored.
	 */
	room = DIV_ROUND_UP((uint64_t)mk->n_mtt, 8) * 8;
	if (off * 2 > room || 2ull * octw > room - off * 2)
		return "translation beyond the key's translation size";
	buf = malloc(bytes);
	if (!buf)
		return "out of memory";
	if (PGET(ctrl, MLX5X_WQE_UMR_FLAGS) & MLX5X_UMR_INLINE) {
		if (w->inl_len < bytes) {
			free(buf);
			return "inline translation shorter than xlt_octowords";
		}
		memcpy(buf, w->inl_data, bytes);
	} else if (!w->umr_data || w->umr_sge.len < bytes ||
		   sg_copy(e, umr_list_pd(e, qp, w), &w->umr_sge, 1, 0, buf,
			   bytes, false)) {
		free(buf);
		return "translation list not readable";
	}
	*out = malloc(bytes);
	if (!*out) {
		free(buf);
		return "out of memory";
	}
	for (i = 0; i < 2 * octw; i++)
		(*out)[i] = get_be64(buf + 8ull * i);
	free(buf);
	*first = off * 2;
	*n = (uint32_t)MIN(2ull * octw, mk->n_mtt > off * 2 ?
				     mk->n_mtt - off * 2 : 0);
	return NULL;
}

/* what the mask would change that the device or the key does not allow */
static const char *umr_check_mask(struct emu *e, const struct emu_mkey *mk,
				  const uint8_t *mkc, uint64_t mask)
{
	uint64_t start = mask & MLX5X_MKEY_MASK_START_ADDR ?
			 get_be64(mkc + MLX5X_MKC_START_ADDR_OFF) : mk->start;
	uint64_t len = mask & MLX5X_MKEY_MASK_LEN ?
		       get_be64(mkc + MLX5X_MKC_LEN_OFF) : mk->len;
	bool len64 = mask & MLX5X_MKEY_MASK_LEN ?
		     PGET(mkc, MLX5X_MKC_LENGTH64) : mk->length64;
	uint32_t ps = mask & MLX5X_MKEY_MASK_PAGE_SIZE ?
		      PGET(mkc, MLX5X_MKC_LOG_PAGE_SIZE) : mk->log_page_size;
	bool free_ = mask & MLX5X_MKEY_MASK_FREE ? PGET(mkc, MLX5X_MKC_FREE) :
		     mk->free;

	/* the caps mlx5_ib's umr_check_mkey_mask() reads */
	if ((mask & MLX5X_MKEY_MASK_PAGE_SIZE) &&
	    CAP(e, MLX5X_CAP_UMR_MODIFY_ENTITY_SIZE_DISABLED))
		return "page size change (umr_modify_entity_size_disabled)";
	if ((mask & MLX5X_MKEY_MASK_A) &&
	    CAP(e, MLX5X_CAP_UMR_MODIFY_ATOMIC_DISABLED))
		return "atomic change (umr_modify_atomic_disabled)";
	if (mk->mw || mk->access_mode != MLX5X_MKC_ACCESS_MODE_MTT ||
	    free_ || len64)
		return NULL;
	if (ps < MLX5X_ADAPTER_PAGE_SHIFT || ps > 30)
		return "page size out of range";
	if (start + len < start)
		return "range wraps";
	/* an enabled key's range must lie within its translation list */
	if (DIV_ROUND_UP((start & ((1ull << ps) - 1)) + len, 1ull << ps) >
	    mk->n_mtt)
		return "range beyond the key's translation size";
	return NULL;
}

static void umr_apply(struct emu_mkey *mk, const uint8_t *mkc, uint64_t mask)
{
	umr_set_access(mk, mkc, mask);
	if (mask & MLX5X_MKEY_MASK_FREE)
		mk->free = PGET(mkc, MLX5X_MKC_FREE);
	if (mask & MLX5X_MKEY_MASK_QPN)
		mk->qpn = PGET(mkc, MLX5X_MKC_QPN);
	if (mask & MLX5X_MKEY_MASK_KEY)
		mk->key = mk->index << MLX5X_MKEY_INDEX_SHIFT |
			  PGET(mkc, MLX5X_MKC_MKEY_7_0);
	if (mask & MLX5X_MKEY_MASK_START_ADDR)
		mk->start = get_be64(mkc + MLX5X_MKC_START_ADDR_OFF);
	if (mask & MLX5X_MKEY_MASK_LEN) {
		mk->len = get_be64(mkc + MLX5X_MKC_LEN_OFF);
		mk->length64 = PGET(mkc, MLX5X_MKC_LENGTH64);
	}
	if (mask & MLX5X_MKEY_MASK_PAGE_SIZE)
		mk->log_page_size = (uint8_t)PGET(mkc, MLX5X_MKC_LOG_PAGE_SIZE);
	if (mask & MLX5X_MKEY_MASK_EN_RINVAL)
		mk->en_rinval = PGET(mkc, MLX5X_MKC_EN_RINVAL);
	umr_copy_mkc(mk, mkc, mask);
}

/*
 * A UMR on an MR: on the UMR QP any key (mlx5_ib's MR cache, rereg,
 * revoke); on an RC/UC send queue (fast registration IB_WR_REG_MR, local
 * invalidate) only a key created with umr_en in the QP's PD.  The WQE
 * names the key by index in the immediate; unless it sets a new tag
 * (MKEY_MASK_KEY, as a fast registration does) the tag must be current.
 * Everything is checked before anything changes.
 */
static int mr_umr(struct emu *e, struct emu_qp *qp, struct emu_mkey *mk,
		  const struct swqe *w)
{
	const uint8_t *ctrl = w->umr;
	const uint8_t *mkc = w->umr + MLX5X_WQE_UMR_CTRL_LEN;
	uint32_t key = get_be32(w->imm), n;
	uint64_t mask = get_be64(ctrl + MLX5X_WQE_UMR_MKEY_MASK_OFF);
	uint64_t *xlt = NULL, first = 0;
	const char *why;

	if (!(mask & MLX5X_MKEY_MASK_KEY) &&
	    (mk->key & MLX5X_MKEY_VARIANT_MASK) !=
	    (key & MLX5X_MKEY_VARIANT_MASK))
		return umr_fail(e, qp, key, "no such key");
	if (qp->st != MLX5X_QP_ST_REG_UMR && mk->pd != qp->pd)
		return umr_fail(e, qp, key, "key of another PD");
	if ((mask & MLX5X_MKEY_MASK_PD) &&
	    !objtab_get(&e->obj[OBJ_PD], PGET(mkc, MLX5X_MKC_PD)))
		return umr_fail(e, qp, key, "no such PD");
	why = umr_check_mask(e, mk, mkc, mask);
	if (!why)
		why = umr_read_xlt(e, qp, mk, w, &xlt, &first, &n);
	if (why)
		return umr_fail(e, qp, key, why);
	/*
	 * The free-state check (flags bits 6:5) is not enforced: its
	 * encoding is not certain enough here to refuse a WQE over it.
	 */
	if (n)
		memcpy(mk->mtt + first, xlt, n * sizeof(*xlt));
	free(xlt);
	if (mask & MLX5X_MKEY_MASK_PD)
		umr_set_pd(e, mk, PGET(mkc, MLX5X_MKC_PD));
	umr_apply(mk, mkc, mask);
	emu_dbg("UMR mkey 0x%x mask 0x%llx xlt %u@%llu: %s pd %u", mk->key,
		(unsigned long long)mask, n, (unsigned long long)first,
		mk->free ? "free" : "valid", mk->pd ? mk->pd->pdn : 0);
	return 0;
}

/* ---- memory windows: UMR on a user send queue ---- */

#define MW_MASK (MLX5X_MKEY_MASK_LEN | MLX5X_MKEY_MASK_START_ADDR | \
		 MLX5X_MKEY_MASK_KEY | MLX5X_MKEY_MASK_QPN | \
		 MLX5X_MKEY_MASK_FREE | MLX5X_MKEY_MASK_LW | \
		 MLX5X_MKEY_MASK_RR | MLX5X_MKEY_MASK_RW | MLX5X_MKEY_MASK_A)

static int mw_fail(struct emu *e, struct emu_qp *qp, uint32_t key,
		   const char *why)
{
	e->eng.st.wqe_faults++;
	emu_warn("QP 0x%x: bind/invalidate of window 0x%x refused: %s",
		 qp->qpn, key, why);
	return MLX5X_CQE_SYND_MW_BIND_ERR;
}

/* the window's new tag, and its stored context for QUERY_MKEY */
static void mw_set_key(struct emu_mkey *mk, const uint8_t *mkc,
		       uint64_t mask)
{
	mk->key = mk->index << MLX5X_MKEY_INDEX_SHIFT |
		  PGET(mkc, MLX5X_MKC_MKEY_7_0);
	prm_set(mk->mkc, MLX5X_MKC_QPN_OFF, MLX5X_MKC_QPN_MASK, mk->qpn);
	umr_copy_mkc(mk, mkc, mask & ~MLX5X_MKEY_MASK_QPN);
}

static void mw_make_free(struct emu_mkey *mk)
{
	mk->free = true;
	mk->qpn = MLX5X_MKC_QPN_NONE;
	mk->klm_key = 0;
	mk->klm_va = 0;
	PSET(mk->mkc, MLX5X_MKC_FREE, 1);
}

/* zero-length bind (type 1) or local invalidate (type 2) */
static int mw_invalidate(struct emu *e, struct emu_qp *qp,
			 struct emu_mkey *mk, const struct swqe *w,
			 uint64_t mask)
{
	const uint8_t *mkc = w->umr + MLX5X_WQE_UMR_CTRL_LEN;
	uint32_t key = get_be32(w->imm);

	if (PGET(w->umr, MLX5X_WQE_UMR_XLT_OCTOWORDS))
		return mw_fail(e, qp, key, "KLM on an invalidate");
	if (key != mk->key)
		return mw_fail(e, qp, key, "stale key");
	if (mk->en_rinval) {
		if (mk->free)
			return mw_fail(e, qp, key, "type 2 window not bound");
		if (mk->qpn != qp->qpn)
			return mw_fail(e, qp, key, "bound to another QP");
	}
	mw_make_free(mk);
	mw_set_key(mk, mkc, mask & (MLX5X_MKEY_MASK_KEY | MLX5X_MKEY_MASK_FREE));
	emu_dbg("QP 0x%x: window 0x%x invalidated (now 0x%x)", qp->qpn, key,
		mk->key);
	return 0;
}

/* the MR the inline KLM names, checked against the window's new state */
static const char *mw_check_target(struct emu *e, const struct emu_mkey *mw,
				   const struct swqe *w, const uint8_t *mkc,
				   uint64_t len)
{
	/* a KLM's byte count of 0 means 2 GiB, the most a bind may cover */
	uint64_t klm_len = w->umr_sge.len ? w->umr_sge.len : 1ull << 31;
	uint32_t octw = PGET(w->umr, MLX5X_WQE_UMR_XLT_OCTOWORDS);
	const struct emu_mkey *mr;

	if (!(PGET(w->umr, MLX5X_WQE_UMR_FLAGS) & MLX5X_UMR_INLINE) ||
	    !w->umr_data || !octw ||
	    octw * 16u > (uint32_t)w->ds * MLX5X_WQE_DS_LEN)
		return "no inline KLM";
	mr = mkey_lookup(e, w->umr_sge.lkey);
	if (!mr || mr->mw)
		return "KLM key is not a valid MR";
	if (mr->pd != mw->pd)
		return "MR of another PD";
	if (klm_len < len || !mkey_in_bounds(mr, w->umr_sge.addr, len))
		return "range outside the MR";
	/* remote write or atomic through a window needs a writable MR */
	if ((PGET(mkc, MLX5X_MKC_RW) || PGET(mkc, MLX5X_MKC_A)) && !mr->lw)
		return "remote write/atomic on an MR without local write";
	return NULL;
}

static int mw_bind(struct emu *e, struct emu_qp *qp, struct emu_mkey *mk,
		   const struct swqe *w, uint64_t mask)
{
	const uint8_t *mkc = w->umr + MLX5X_WQE_UMR_CTRL_LEN;
	uint64_t len = get_be64(mkc + MLX5X_MKC_LEN_OFF);
	uint32_t key = get_be32(w->imm);
	const char *why;

	if ((mask & (MLX5X_MKEY_MASK_LEN | MLX5X_MKEY_MASK_START_ADDR)) !=
	    (MLX5X_MKEY_MASK_LEN | MLX5X_MKEY_MASK_START_ADDR) ||
	    PGET(mkc, MLX5X_MKC_LENGTH64) || !len || len > 1ull << 31)
		return mw_fail(e, qp, key, "bad range");
	if (mk->en_rinval) {
		if (!mk->free)
			return mw_fail(e, qp, key, "type 2 window is bound");
		if (PGET(mkc, MLX5X_MKC_QPN) != qp->qpn)
			return mw_fail(e, qp, key, "type 2 bound to another QP");
	}
	why = mw_check_target(e, mk, w, mkc, len);
	if (why)
		return mw_fail(e, qp, key, why);
	mk->klm_key = w->umr_sge.lkey;
	mk->klm_va = w->umr_sge.addr;
	mk->start = get_be64(mkc + MLX5X_MKC_START_ADDR_OFF);
	mk->len = len;
	mk->qpn = mk->en_rinval ? qp->qpn : MLX5X_MKC_QPN_NONE;
	umr_set_access(mk, mkc, mask);
	mk->free = false;
	mw_set_key(mk, mkc, mask);
	PSET(mk->mkc, MLX5X_MKC_FREE, 0);
	emu_dbg("QP 0x%x: window 0x%x bound as 0x%x to mkey 0x%x va 0x%llx len 0x%llx",
		qp->qpn, key, mk->key, mk->klm_key,
		(unsigned long long)mk->klm_va, (unsigned long long)len);
	return 0;
}

static int mw_umr(struct emu *e, struct emu_qp *qp, const struct swqe *w)
{
	const uint8_t *mkc = w->umr + MLX5X_WQE_UMR_CTRL_LEN;
	uint64_t mask = get_be64(w->umr + MLX5X_WQE_UMR_MKEY_MASK_OFF);
	uint32_t key = get_be32(w->imm);
	struct emu_mkey *mk = objtab_get(&e->obj[OBJ_MKEY],
					 key >> MLX5X_MKEY_INDEX_SHIFT);

	if (!mk || !mk->mw || !mk->umr_en)
		return mw_fail(e, qp, key, "not a memory window");
	if (mk->pd != qp->pd)
		return mw_fail(e, qp, key, "window of another PD");
	if ((mask & ~MW_MASK) || !(mask & MLX5X_MKEY_MASK_FREE) ||
	    !(mask & MLX5X_MKEY_MASK_KEY))
		return mw_fail(e, qp, key, "mkey mask beyond a window bind");
	/* a type 2 bind or invalidate names the QP; type 1 does not */
	if (!!(mask & MLX5X_MKEY_MASK_QPN) != mk->en_rinval)
		return mw_fail(e, qp, key, "window type");
	if (PGET(mkc, MLX5X_MKC_FREE))
		return mw_invalidate(e, qp, mk, w, mask);
	return mw_bind(e, qp, mk, w, mask);
}

int umr_exec(struct emu *e, struct emu_qp *qp, const struct swqe *w)
{
	uint32_t key = get_be32(w->imm);
	struct emu_mkey *mk = objtab_get(&e->obj[OBJ_MKEY],
					 key >> MLX5X_MKEY_INDEX_SHIFT);

	/*
	 * On a send queue, a key that UMR may not touch is refused as a
	 * window bind would be (MW bind error)
	 */
	if (qp->st != MLX5X_QP_ST_REG_UMR && (!mk || mk->mw || !mk->umr_en))
		return mw_umr(e, qp, w);
	if (!mk)
		return umr_fail(e, qp, key, "no such key");
	return mr_umr(e, qp, mk, w);
}

int mw_remote_inval(struct emu *e, const struct emu_pd *pd, uint32_t qpn,
		    uint32_t rkey)
{
	struct emu_mkey *mk = mkey_lookup(e, rkey);

	/*
	 * A type 2 window bound to this QP, or an MR of the QP's PD whose
	 * context allows remote invalidation (en_rinval, set by a fast
	 * registration) and UMR (so it can be enabled again).
	 */
	if (!mk || !mk->en_rinval || mk->pd != pd ||
	    (mk->mw && mk->qpn != qpn) || (!mk->mw && !mk->umr_en)) {
		e->eng.st.mkey_faults++;
		emu_warn("QP 0x%x: remote invalidate of 0x%x refused", qpn,
			 rkey);
		return -1;
	}
	if (mk->mw) {
		mw_make_free(mk);
	} else {
		mk->free = true;
		PSET(mk->mkc, MLX5X_MKC_FREE, 1);
	}
	emu_dbg("QP 0x%x: key 0x%x invalidated by the remote", qpn, rkey);
	return 0;
}
