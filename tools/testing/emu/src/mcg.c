// SPDX-License-Identifier: GPL-2.0
/*
 * Multicast groups: ATTACH_TO_MCG / DETACH_FROM_MCG (PRM; mlx5_ib's
 * mlx5_ib_mcg_attach/detach, which pass the QP and the MGID and drop the
 * MLID) and the delivery of a multicast datagram to every QP attached to
 * its group.
 *
 * A multicast packet (LRH DLID 0xc000..0xfffe and destination QP
 * 0xffffff, IBTA vol. 1 ch. 4 addressing and the UD multicast rules of
 * ch. 10/11) is matched by the MGID in its GRH, as mlx5 firmware matches
 * attachments by MGID only; without a GRH it reaches nobody.  Each
 * attached QP gets its own copy, on every HCA of the link.  The sending
 * HCA gets a copy too unless the sending QP has qpc.block_lb_mc (PRM; the
 * HCA capability block_lb_mc, which IPoIB asks for with
 * IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK).
 */
#include <stdlib.h>

#include "cmd.h"
#include "engine.h"
#include "log.h"
#include "mad.h"
#include "wire.h"

#define EMU_FILE_ID FILE_MCG

#define MCAST_QPN 0xffffffu

static bool mgid_ok(const uint8_t *mgid)
{
	return mgid[0] == 0xff;		/* IBTA ch. 4: multicast GIDs ff::/8 */
}

static unsigned int count(struct emu *e, const uint8_t *mgid,
			  unsigned int *groups)
{
	struct emu_mcg *m, *n;
	unsigned int qps = 0;

	*groups = 0;
	for (m = e->mcg; m; m = m->next) {
		if (!memcmp(m->mgid, mgid, MLX5X_GID_LEN))
			qps++;
		/* a group counts once: at its first attachment in the list */
		for (n = e->mcg; n != m; n = n->next)
			if (!memcmp(n->mgid, m->mgid, MLX5X_GID_LEN))
				break;
		if (n == m)
			(*groups)++;
	}
	return qps;
}

static struct emu_mcg **find(struct emu *e, const uint8_t *mgid, uint32_t qpn)
{
	struct emu_mcg **pp;

	for (pp = &e->mcg; *pp; pp = &(*pp)->next)
		if ((*pp)->qpn == qpn &&
		    !memcmp((*pp)->mgid, mgid, MLX5X_GID_LEN))
			return pp;
	return NULL;
}

/* the checks both commands share: a UD QP of this function, a MGID */
static int mcg_args(struct cmd_ctx *c, uint32_t *qpn, const uint8_t **mgid)
{
	struct emu_qp *qp;

	*qpn = PGET(c->in, MLX5X_MCG_IN_QPN);
	*mgid = c->in + MLX5X_MCG_IN_MGID_OFF;
	if (c->op_mod || c->inlen < MLX5X_MCG_IN_LEN)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	qp = objtab_get(&c->e->obj[OBJ_QP], *qpn);
	if (!qp)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_RES);
	if (qp->st != MLX5X_QP_ST_UD || !mgid_ok(*mgid))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	return 0;
}

int h_attach_to_mcg(struct cmd_ctx *c)
{
	struct emu *e = c->e;
	unsigned int groups, qps;
	const uint8_t *mgid;
	struct emu_mcg *m;
	uint32_t qpn;

	if (mcg_args(c, &qpn, &mgid))
		return c->status;
	if (find(e, mgid, qpn))
		return 0;	/* already attached: nothing changes */
	qps = count(e, mgid, &groups);
	/* log_max_mcg groups, max_qp_mcg QPs in each */
	if ((!qps && groups >= 1u << CAP(e, MLX5X_CAP_LOG_MAX_MCG)) ||
	    qps >= CAP(e, MLX5X_CAP_MAX_QP_MCG))
		return CMD_FAIL(c, MLX5X_CMD_STAT_NO_RES);
	m = calloc(1, sizeof(*m));
	if (!m)
		return CMD_FAIL(c, MLX5X_CMD_STAT_NO_RES);
	memcpy(m->mgid, mgid, MLX5X_GID_LEN);
	m->qpn = qpn;
	m->next = e->mcg;
	e->mcg = m;
	cmd_detail(c, "qpn=0x%x groups=%u", qpn, groups + !qps);
	return 0;
}

int h_detach_from_mcg(struct cmd_ctx *c)
{
	struct emu_mcg **pp, *m;
	const uint8_t *mgid;
	uint32_t qpn;

	if (mcg_args(c, &qpn, &mgid))
		return c->status;
	pp = find(c->e, mgid, qpn);
	if (!pp)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	m = *pp;
	*pp = m->next;
	free(m);
	cmd_detail(c, "qpn=0x%x", qpn);
	return 0;
}

/* a destroyed QP leaves its groups (the verbs layer detaches first) */
void mcg_qp_gone(struct emu *e, uint32_t qpn)
{
	struct emu_mcg **pp = &e->mcg;

	while (*pp) {
		struct emu_mcg *m = *pp;

		if (m->qpn == qpn) {
			*pp = m->next;
			free(m);
		} else {
			pp = &m->next;
		}
	}
}

void mcg_free_all(struct emu *e)
{
	while (e->mcg) {
		struct emu_mcg *m = e->mcg;

		e->mcg = m->next;
		free(m);
	}
}

/*
 * Deliver multicast packet p (owned) to every attached QP of this device.
 * Returns the number of QPs that got a copy.
 */
unsigned int mcg_deliver(struct emu *e, struct wire_pkt *p)
{
	struct emu_mcg *m;
	unsigned int n = 0;

	if (!p->grh || p->tp != TP_UD || p->dqpn != MCAST_QPN ||
	    (p->src == e && p->block_lb)) {
		pkt_free(p);
		return 0;
	}
	for (m = e->mcg; m; m = m->next) {
		struct emu_qp *qp;
		struct wire_pkt *c;

		if (memcmp(m->mgid, p->dgid, MLX5X_GID_LEN))
			continue;
		qp = objtab_get(&e->obj[OBJ_QP], m->qpn);
		c = qp ? pkt_clone(p) : NULL;
		if (!c)
			continue;
		c->dqpn = qp->qpn;
		qp_rx(e, qp, c);
		n++;
	}
	pkt_free(p);
	return n;
}
