// SPDX-License-Identifier: GPL-2.0
/*
 * Memory keys.  The translation is kept (mode, start, length, access,
 * PD, MTT list) for the transport engine, which checks every lkey/rkey
 * access against it.  Supported modes: PA (kernel DMA MRs, length64),
 * MTT (user MRs) and, for memory windows only, KLM: created free with
 * umr_en and bound later by a UMR WQE (umr.c).  KSM is not supported.
 */
#include <stdlib.h>

#include "cmd.h"
#include "log.h"

#define EMU_FILE_ID FILE_MKEY

/*
 * The key's translation list has room for translations_octword_size
 * octowords (what a UMR may later fill); the mailbox carries the first
 * translations_octword_actual_size of them.  mlx5_ib creates its MR cache
 * and fast registration keys free, with room and no list (actual 0):
 * such a free key takes the entries the mailbox holds; an enabled key
 * without an actual size must carry its whole list.
 */
static int parse_mtt(struct cmd_ctx *c, const uint8_t *mkc,
		     struct emu_mkey *mk)
{
	uint32_t octw = PGET(mkc, MLX5X_MKC_TRANSLATIONS_OCTWORD_SIZE);
	uint32_t actual = get_be32(c->in +
				   MLX5X_CREATE_MKEY_IN_TRANSLATIONS_ACTUAL_OFF);
	uint32_t avail = c->inlen > MLX5X_CREATE_MKEY_IN_MTT_OFF ?
			 (c->inlen - MLX5X_CREATE_MKEY_IN_MTT_OFF) /
			 MLX5X_PAS_LEN : 0;
	uint32_t n = 2 * octw, given = n, i;

	if (actual > octw)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (actual)
		given = 2 * actual;
	else if (mk->free)
		given = MIN(n, avail);
	if (mk->log_page_size < MLX5X_ADAPTER_PAGE_SHIFT ||
	    mk->log_page_size > 30)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (given > avail)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_INP_LEN);
	/* the MTT list must cover the region, page offset included */
	if (!mk->free &&
	    DIV_ROUND_UP((mk->start & ((1ull << mk->log_page_size) - 1)) +
			 mk->len, 1ull << mk->log_page_size) > given)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	mk->mtt = calloc(n ? n : 1, sizeof(*mk->mtt));
	if (!mk->mtt)
		return CMD_FAIL(c, MLX5X_CMD_STAT_NO_RES);
	mk->n_mtt = n;
	for (i = 0; i < given; i++)
		mk->mtt[i] = get_be64(c->in + MLX5X_CREATE_MKEY_IN_MTT_OFF +
				      i * MLX5X_PAS_LEN);
	return 0;
}

static int parse_mkc(struct cmd_ctx *c, const uint8_t *mkc,
		     struct emu_mkey *mk)
{
	mk->access_mode = (uint8_t)(PGET(mkc, MLX5X_MKC_ACCESS_MODE_4_2) << 2 |
				    PGET(mkc, MLX5X_MKC_ACCESS_MODE_1_0));
	mk->free = PGET(mkc, MLX5X_MKC_FREE);
	mk->umr_en = PGET(mkc, MLX5X_MKC_UMR_EN);
	mk->atomic = PGET(mkc, MLX5X_MKC_A);
	mk->rw = PGET(mkc, MLX5X_MKC_RW);
	mk->rr = PGET(mkc, MLX5X_MKC_RR);
	mk->lw = PGET(mkc, MLX5X_MKC_LW);
	mk->lr = PGET(mkc, MLX5X_MKC_LR);
	mk->length64 = PGET(mkc, MLX5X_MKC_LENGTH64);
	mk->qpn = PGET(mkc, MLX5X_MKC_QPN);
	mk->start = get_be64(mkc + MLX5X_MKC_START_ADDR_OFF);
	mk->len = get_be64(mkc + MLX5X_MKC_LEN_OFF);
	mk->log_page_size = (uint8_t)PGET(mkc, MLX5X_MKC_LOG_PAGE_SIZE);
	mk->key = PGET(mkc, MLX5X_MKC_MKEY_7_0);
	mk->pd = objtab_get(&c->e->obj[OBJ_PD], PGET(mkc, MLX5X_MKC_PD));
	if (!mk->pd)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	if (!mk->length64 && mk->start + mk->len < mk->start)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	switch (mk->access_mode) {
	case MLX5X_MKC_ACCESS_MODE_PA:
		return 0;
	case MLX5X_MKC_ACCESS_MODE_MTT:
		return parse_mtt(c, mkc, mk);
	case MLX5X_MKC_ACCESS_MODE_KLMS:
		/* a memory window: nothing to translate until it is bound */
		if (!CAP(c->e, MLX5X_CAP_IMAICL) || !mk->free || !mk->umr_en)
			return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
		mk->mw = true;
		mk->en_rinval = PGET(mkc, MLX5X_MKC_EN_RINVAL);
		return 0;
	default:
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	}
}

int h_create_mkey(struct cmd_ctx *c)
{
	const uint8_t *mkc = c->in + MLX5X_CREATE_MKEY_IN_MKC_OFF;
	struct emu *e = c->e;
	struct emu_mkey *mk;

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (PGET(c->in, MLX5X_CREATE_MKEY_IN_MKEY_UMEM_VALID) ||
	    PGET(c->in, MLX5X_CREATE_MKEY_IN_PG_ACCESS))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	mk = calloc(1, sizeof(*mk));
	if (!mk)
		return CMD_FAIL(c, MLX5X_CMD_STAT_NO_RES);
	if (parse_mkc(c, mkc, mk)) {
		free(mk->mtt);
		free(mk);
		return c->status;
	}
	if (objtab_add(&e->obj[OBJ_MKEY], mk, &mk->index)) {
		free(mk->mtt);
		free(mk);
		return CMD_FAIL(c, MLX5X_CMD_STAT_NO_RES);
	}
	mk->key |= mk->index << MLX5X_MKEY_INDEX_SHIFT;
	mk->pd->refs++;
	memcpy(mk->mkc, mkc, MLX5X_MKC_LEN);
	PSET(c->out, MLX5X_CREATE_MKEY_OUT_MKEY_INDEX, mk->index);
	cmd_detail(c, "mkey=0x%x mode=%u pd=%u start=0x%llx len=0x%llx%s mtt=%u acc=%s%s%s%s%s",
		   mk->key, mk->access_mode, mk->pd->pdn,
		   (unsigned long long)mk->start, (unsigned long long)mk->len,
		   mk->length64 ? "(64)" : "", mk->n_mtt, mk->lr ? "r" : "",
		   mk->lw ? "w" : "", mk->rr ? "R" : "", mk->rw ? "W" : "",
		   mk->atomic ? "A" : "");
	return 0;
}

static struct emu_mkey *get_mkey(struct cmd_ctx *c, uint32_t off,
				 uint32_t mask)
{
	return objtab_get(&c->e->obj[OBJ_MKEY], prm_get(c->in, off, mask));
}

int h_destroy_mkey(struct cmd_ctx *c)
{
	struct emu_mkey *mk = get_mkey(c, MLX5X_DESTROY_MKEY_IN_MKEY_INDEX_OFF,
				       MLX5X_DESTROY_MKEY_IN_MKEY_INDEX_MASK);

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (!mk)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	objtab_del(&c->e->obj[OBJ_MKEY], mk->index);
	mk->pd->refs--;
	cmd_detail(c, "mkey=0x%x", mk->key);
	free(mk->mtt);
	free(mk);
	return 0;
}

int h_query_mkey(struct cmd_ctx *c)
{
	struct emu_mkey *mk = get_mkey(c, MLX5X_QUERY_MKEY_IN_MKEY_INDEX_OFF,
				       MLX5X_QUERY_MKEY_IN_MKEY_INDEX_MASK);

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (!mk)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	memcpy(c->out + MLX5X_QUERY_MKEY_OUT_MKC_OFF, mk->mkc, MLX5X_MKC_LEN);
	return 0;
}
