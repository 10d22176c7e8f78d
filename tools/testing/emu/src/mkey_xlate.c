// SPDX-License-Identifier: GPL-2.0
/*
 * Memory keys in the data path.  Every byte the engine moves to or from
 * guest memory on behalf of a WQE or a request goes through here: the
 * key must name a live mkey of the right variant, in the QP's protection
 * domain, granting the access, and the range must lie inside the region
 * (unless the mkey spans all of memory, length64).  Translation:
 *   PA   the address is the bus address (kernel DMA MRs);
 *   MTT  page (va >> ps) - (start >> ps) of the MTT list, plus the offset
 *        of va in its page (user MRs, any page size).
 * Then the bus address goes through the DMA map table (gm), which refuses
 * what QEMU did not map.
 *
 * A bound memory window is checked on its own: its tag (the key must be
 * the one the last bind gave it), its rights, its range, and for type 2
 * the QP it was bound to.  It is a remote key only.  Its KLM then leads
 * into the MR it is bound to, which must still be live and cover the
 * range (the MR may have been deregistered or changed since the bind).
 */
#include <errno.h>

#include "engine.h"
#include "log.h"

struct emu_mkey *mkey_lookup(struct emu *e, uint32_t key)
{
	struct emu_mkey *mk = objtab_get(&e->obj[OBJ_MKEY],
					 key >> MLX5X_MKEY_INDEX_SHIFT);

	if (!mk || mk->key != key || mk->free)
		return NULL;
	return mk;
}

bool mkey_in_bounds(const struct emu_mkey *mk, uint64_t va, uint64_t len)
{
	if (mk->length64)
		return true;
	if (va < mk->start || va + len < va)
		return false;
	return va - mk->start <= mk->len && len <= mk->len - (va - mk->start);
}

static bool granted(const struct emu_mkey *mk, unsigned int acc)
{
	if ((acc & ACC_LR) && !mk->lr)
		return false;
	if ((acc & ACC_LW) && !mk->lw)
		return false;
	if ((acc & ACC_RR) && !mk->rr)
		return false;
	if ((acc & ACC_RW) && !mk->rw)
		return false;
	if ((acc & ACC_RA) && !mk->atomic)
		return false;
	return true;
}

/* the MR a bound window leads to, and where in it va falls */
static const struct emu_mkey *mw_target(struct emu *e,
					const struct emu_mkey *mk,
					uint64_t *va)
{
	const struct emu_mkey *t = mkey_lookup(e, mk->klm_key);

	if (!t || t->mw || *va < mk->start)
		return NULL;
	*va = mk->klm_va + (*va - mk->start);
	return t;
}

/* a window: remote use only, by its QP (type 2), into a live MR */
static enum mk_err mw_check(struct emu *e, const struct emu_mkey *mk,
			    uint32_t qpn, uint64_t va, uint64_t len,
			    unsigned int acc)
{
	const struct emu_mkey *t;

	if (acc & (ACC_LR | ACC_LW))
		return MK_ACCESS;
	if (mk->qpn != MLX5X_MKC_QPN_NONE && mk->qpn != qpn)
		return MK_QP;
	t = mw_target(e, mk, &va);
	if (!t)
		return MK_BAD_KEY;
	return mkey_in_bounds(t, va, len) ? MK_OK : MK_BOUNDS;
}

enum mk_err mkey_check(struct emu *e, uint32_t key, const struct emu_pd *pd,
		       uint64_t va, uint64_t len, unsigned int acc,
		       struct emu_mkey **out)
{
	return mkey_check_qp(e, key, pd, MKEY_ANY_QP, va, len, acc, out);
}

enum mk_err mkey_check_qp(struct emu *e, uint32_t key,
			  const struct emu_pd *pd, uint32_t qpn, uint64_t va,
			  uint64_t len, unsigned int acc, struct emu_mkey **out)
{
	struct emu_mkey *mk = mkey_lookup(e, key);
	enum mk_err err = MK_OK;

	if (!mk)
		err = MK_BAD_KEY;
	else if (mk->pd != pd)
		err = MK_PD;
	else if (!granted(mk, acc))
		err = MK_ACCESS;
	else if (!mkey_in_bounds(mk, va, len))
		err = MK_BOUNDS;
	else if (mk->mw)
		err = mw_check(e, mk, qpn, va, len, acc);
	if (err) {
		e->eng.st.mkey_faults++;
		emu_dbg("mkey 0x%x: %s (va 0x%llx len 0x%llx acc 0x%x)", key,
			mk_err_name(err), (unsigned long long)va,
			(unsigned long long)len, acc);
		return err;
	}
	if (out)
		*out = mk;
	return MK_OK;
}

/* bus address of va and how many bytes from there are contiguous */
static bool xlate(const struct emu_mkey *mk, uint64_t va, uint64_t *pa,
		  uint64_t *contig)
{
	uint64_t psz, idx;

	if (mk->access_mode == MLX5X_MKC_ACCESS_MODE_PA) {
		*pa = va;
		*contig = ~0ull;
		return true;
	}
	if (mk->access_mode != MLX5X_MKC_ACCESS_MODE_MTT ||
	    mk->log_page_size > 63)
		return false;
	psz = 1ull << mk->log_page_size;
	idx = (va >> mk->log_page_size) - (mk->start >> mk->log_page_size);
	if (idx >= mk->n_mtt)
		return false;
	*pa = (mk->mtt[idx] & MLX5X_MTT_ADDR_MASK) + (va & (psz - 1));
	*contig = psz - (va & (psz - 1));
	return true;
}

enum mk_err mkey_dma(struct emu *e, const struct emu_mkey *mk, uint64_t va,
		     void *buf, uint64_t len, bool to_guest)
{
	uint8_t *b = buf;

	if (mk->mw) {
		mk = mw_target(e, mk, &va);
		if (!mk) {
			e->eng.st.dma_faults++;
			return MK_BAD_KEY;
		}
	}
	while (len) {
		uint64_t pa, contig, n;
		int ret;

		if (!xlate(mk, va, &pa, &contig))
			goto fault;
		n = MIN(len, contig);
		ret = to_guest ? gm_write(&e->gm, pa, b, n) :
				 gm_read(&e->gm, pa, b, n);
		if (ret)
			goto fault;
		b += n;
		va += n;
		len -= n;
	}
	return MK_OK;
fault:
	e->eng.st.dma_faults++;
	emu_warn("mkey 0x%x: DMA %s at va 0x%llx refused", mk->key,
		 to_guest ? "write" : "read", (unsigned long long)va);
	return MK_DMA;
}

enum mk_err sg_copy(struct emu *e, const struct emu_pd *pd,
		    const struct sge *sg, uint32_t n, uint64_t off, void *buf,
		    uint64_t len, bool to_guest)
{
	unsigned int acc = to_guest ? ACC_LW : ACC_LR;
	uint8_t *b = buf;
	uint32_t i;

	for (i = 0; i < n && len; i++) {
		struct emu_mkey *mk;
		enum mk_err err;
		uint64_t cnt;

		if (off >= sg[i].len) {
			off -= sg[i].len;
			continue;
		}
		cnt = MIN(len, sg[i].len - off);
		err = mkey_check(e, sg[i].lkey, pd, sg[i].addr + off, cnt, acc,
				 &mk);
		if (!err)
			err = mkey_dma(e, mk, sg[i].addr + off, b, cnt,
				       to_guest);
		if (err)
			return err;
		b += cnt;
		len -= cnt;
		off = 0;
	}
	/* the list is shorter than asked: a length error for the caller */
	return len ? MK_BOUNDS : MK_OK;
}

const char *mk_err_name(enum mk_err err)
{
	switch (err) {
	case MK_OK: return "ok";
	case MK_BAD_KEY: return "invalid key";
	case MK_PD: return "PD mismatch";
	case MK_ACCESS: return "access not granted";
	case MK_BOUNDS: return "out of bounds";
	case MK_DMA: return "DMA refused";
	case MK_QP: return "window bound to another QP";
	}
	return "?";
}
