// SPDX-License-Identifier: GPL-2.0
/*
 * Object tables (numbered device objects with live counters) and PAS
 * lists (the pages behind a queue).  Callers hold emu.lock.
 */
#include <errno.h>
#include <stdlib.h>

#include "cmd.h"
#include "engine.h"
#include "log.h"

#define EMU_FILE_ID FILE_RES

void objtab_init(struct objtab *t, const char *name, uint32_t base,
		 uint32_t limit)
{
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->base = base;
	t->limit = limit;
	t->next = base;
}

void objtab_free(struct objtab *t)
{
	free(t->slot);
	t->slot = NULL;
	t->cap = 0;
}

static int grow(struct objtab *t, uint32_t need)
{
	uint32_t cap = t->cap ? t->cap : 64;
	void **s;

	while (cap < need)
		cap *= 2;
	cap = MIN(cap, t->limit);
	s = realloc(t->slot, cap * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memset(s + t->cap, 0, (cap - t->cap) * sizeof(*s));
	t->slot = s;
	t->cap = cap;
	return 0;
}

/* ids are handed out round-robin so a stale id is not reused at once */
int objtab_add(struct objtab *t, void *obj, uint32_t *id)
{
	uint32_t span = t->limit - t->base, i;

	if (t->live >= span)
		return -ENOSPC;
	for (i = 0; i < span; i++) {
		uint32_t cand = t->next;

		t->next = cand + 1 >= t->limit ? t->base : cand + 1;
		if (cand >= t->cap && grow(t, cand + 1))
			return -ENOMEM;
		if (!t->slot[cand]) {
			t->slot[cand] = obj;
			t->live++;
			t->created++;
			*id = cand;
			return 0;
		}
	}
	return -ENOSPC;
}

void *objtab_get(struct objtab *t, uint32_t id)
{
	if (id < t->base || id >= t->cap)
		return NULL;
	return t->slot[id];
}

void *objtab_del(struct objtab *t, uint32_t id)
{
	void *obj = objtab_get(t, id);

	if (obj) {
		t->slot[id] = NULL;
		t->live--;
		t->destroyed++;
	}
	return obj;
}

void objs_init(struct emu *e)
{
	static const char *const name[OBJ_NTYPES] = {
		"uar", "pd", "xrcd", "mkey", "eq", "cq", "srq", "qp",
	};
	unsigned int t;

	for (t = 0; t < OBJ_NTYPES; t++)
		objtab_init(&e->obj[t], name[t], 1, 1u << 16);
	/* UAR indices are BAR0 pages between the init segment and MSI-X */
	objtab_init(&e->obj[OBJ_UAR], name[OBJ_UAR], EMU_UAR_FIRST,
		    EMU_UAR_LIMIT);
	/* EQ numbers travel in 8 bits of the EQ doorbell */
	objtab_init(&e->obj[OBJ_EQ], name[OBJ_EQ], 1,
		    1u << PGET(e->hca.cap_max, MLX5X_CAP_LOG_MAX_EQ));
	/* QP numbers 0 and 1 are the special QPs' */
	objtab_init(&e->obj[OBJ_QP], name[OBJ_QP], 2, 1u << 16);
}

static void obj_release(enum obj_type type, void *obj)
{
	switch (type) {
	case OBJ_MKEY:
		free(((struct emu_mkey *)obj)->mtt);
		break;
	case OBJ_EQ:
		uar_put(((struct emu_eq *)obj)->uar);
		pas_free(&((struct emu_eq *)obj)->pas);
		break;
	case OBJ_CQ:
		uar_put(((struct emu_cq *)obj)->uar);
		pas_free(&((struct emu_cq *)obj)->pas);
		break;
	case OBJ_SRQ:
		pas_free(&((struct emu_srq *)obj)->pas);
		break;
	case OBJ_QP:
		if (((struct emu_qp *)obj)->uar)
			uar_put(((struct emu_qp *)obj)->uar);
		pas_free(&((struct emu_qp *)obj)->pas);
		qp_free_rt(obj);
		break;
	default:
		break;
	}
	free(obj);
}

/*
 * TEARDOWN_HCA or a device reset with objects still alive: firmware
 * drops them.  They are counted as "dropped" so the exit report still
 * shows that the driver never destroyed them.
 */
void objs_drop_all(struct emu *e)
{
	unsigned int t;
	uint32_t id;

	eng_reset(e);
	mcg_free_all(e);
	/* users before what they use: EQs, CQs and QPs put their UAR */
	for (t = OBJ_NTYPES; t-- > 0;) {
		struct objtab *tab = &e->obj[t];

		if (tab->live)
			emu_warn("%u %s object(s) still alive: dropped",
				 tab->live, tab->name);
		for (id = 0; id < tab->cap; id++) {
			if (tab->slot[id]) {
				obj_release(t, tab->slot[id]);
				tab->slot[id] = NULL;
				tab->dropped++;
			}
		}
		tab->live = 0;
	}
}

void objs_free(struct emu *e)
{
	unsigned int t;

	objs_drop_all(e);
	for (t = 0; t < OBJ_NTYPES; t++)
		objtab_free(&e->obj[t]);
}

void pas_free(struct pas *p)
{
	free(p->addr);
	p->addr = NULL;
	p->n = 0;
}

uint64_t pas_addr(const struct pas *p, uint64_t off)
{
	uint64_t o = off + p->page_offset;
	uint64_t pg = o >> p->log_page_size;

	if (pg >= p->n)
		return 0;
	return p->addr[pg] + (o & ((1ull << p->log_page_size) - 1));
}

static int pas_copy(struct emu *e, const struct pas *p, uint64_t off,
		    void *buf, uint32_t len, bool write)
{
	uint64_t psz = 1ull << p->log_page_size;
	uint8_t *b = buf;

	if (off + len > p->len || off + len < off)
		return -EFAULT;
	while (len) {
		uint64_t o = off + p->page_offset;
		uint32_t n = (uint32_t)MIN((uint64_t)len, psz - (o & (psz - 1)));
		uint64_t a = pas_addr(p, off);
		int ret;

		ret = write ? gm_write(&e->gm, a, b, n) :
			      gm_read(&e->gm, a, b, n);
		if (ret)
			return ret;
		b += n;
		off += n;
		len -= n;
	}
	return 0;
}

int pas_read(struct emu *e, const struct pas *p, uint64_t off, void *buf,
	     uint32_t len)
{
	return pas_copy(e, p, off, buf, len, false);
}

int pas_write(struct emu *e, const struct pas *p, uint64_t off,
	      const void *buf, uint32_t len)
{
	return pas_copy(e, p, off, (void *)buf, len, true);
}

/*
 * PAS list of a create command: log_page_size and page_offset come from
 * the context, the list itself must hold enough pages for len bytes
 * after page_offset, every page aligned and in guest memory.
 */
int cmd_get_pas(struct cmd_ctx *c, uint32_t pas_off, uint32_t log_pg_field,
		uint32_t page_offset_field, uint64_t len, struct pas *p,
		unsigned int file, unsigned int line)
{
	uint32_t shift = log_pg_field + MLX5X_ADAPTER_PAGE_SHIFT, i;
	uint64_t psz, need;

	memset(p, 0, sizeof(*p));
	if (shift > 30)
		return cmd_fail(c, MLX5X_CMD_STAT_BAD_PARAM, file, line);
	psz = 1ull << shift;
	p->log_page_size = (uint8_t)shift;
	p->page_offset = page_offset_field *
			 (uint32_t)(psz >> MLX5X_PAGE_OFFSET_QUANTA_SHIFT);
	p->len = len;
	need = DIV_ROUND_UP(len + p->page_offset, psz);
	if (need > (c->inlen - MIN(c->inlen, pas_off)) / MLX5X_PAS_LEN)
		return cmd_fail(c, MLX5X_CMD_STAT_BAD_INP_LEN, file, line);
	p->addr = calloc(need ? need : 1, sizeof(*p->addr));
	if (!p->addr)
		return cmd_fail(c, MLX5X_CMD_STAT_NO_RES, file, line);
	p->n = (uint32_t)need;
	for (i = 0; i < p->n; i++) {
		uint64_t a = get_be64(c->in + pas_off + i * MLX5X_PAS_LEN);

		p->addr[i] = a;
		if ((a & (psz - 1)) ||
		    !gm_check(&c->e->gm, a, psz, GM_PROT_READ | GM_PROT_WRITE)) {
			pas_free(p);
			return cmd_fail(c, MLX5X_CMD_STAT_BAD_PARAM, file, line);
		}
	}
	return 0;
}

uint32_t cap_cur(struct emu *e, uint32_t off, uint32_t mask)
{
	return prm_get(e->hca.cap_cur, off, mask);
}
