// SPDX-License-Identifier: GPL-2.0
/*
 * UMR: memory key updates posted as WQEs on the kernel's REG_UMR QP.
 *
 * mlx5_ib uses them to revoke an MR (make its key free) before it reuses
 * the pinned pages for another key (ibv_rereg_mr), and to change an MR's
 * PD and access rights in place.  The WQE names the key in the control
 * segment's immediate; mkey_mask selects the fields of the inline mkey
 * context that replace the key's current ones.  Translation updates
 * (XLT, used by the MR cache and ODP) are not advertised
 * (umr_modify_entity_size_disabled, no UMR translation caps) and are
 * refused.  A UMR is a local operation: it takes effect when the engine
 * takes the WQE and completes in order with the WQEs before it.
 */
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

int umr_exec(struct emu *e, struct emu_qp *qp, const struct swqe *w)
{
	const uint8_t *ctrl = w->umr;
	const uint8_t *mkc = w->umr + MLX5X_WQE_UMR_CTRL_LEN;
	uint32_t key = get_be32(w->imm);
	uint8_t flags = (uint8_t)PGET(ctrl, MLX5X_WQE_UMR_FLAGS);
	uint64_t mask = get_be64(ctrl + MLX5X_WQE_UMR_MKEY_MASK_OFF);
	struct emu_mkey *mk = objtab_get(&e->obj[OBJ_MKEY],
					 key >> MLX5X_MKEY_INDEX_SHIFT);

	if (!mk || (mk->key & MLX5X_MKEY_VARIANT_MASK) !=
		   (key & MLX5X_MKEY_VARIANT_MASK))
		return umr_fail(e, qp, key, "no such key");
	if (PGET(ctrl, MLX5X_WQE_UMR_XLT_OCTOWORDS))
		return umr_fail(e, qp, key, "translation update not supported");
	/*
	 * The free-state check (flags bits 6:5) is not enforced: its
	 * encoding is not certain enough here to refuse a WQE over it.
	 */
	(void)flags;
	if ((mask & MLX5X_MKEY_MASK_PD) &&
	    umr_set_pd(e, mk, PGET(mkc, MLX5X_MKC_PD)))
		return umr_fail(e, qp, key, "no such PD");
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
	umr_copy_mkc(mk, mkc, mask);
	emu_dbg("UMR mkey 0x%x mask 0x%llx: %s pd %u", key,
		(unsigned long long)mask, mk->free ? "free" : "valid",
		mk->pd ? mk->pd->pdn : 0);
	return 0;
}
