// SPDX-License-Identifier: GPL-2.0
/*
 * Wires: the loopback wire of a single device, and a link that joins the
 * ports of two devices.  A wire only picks the destination devices by
 * the packet's DLID; the receiving engine checks the rest (port state,
 * GID, QP, P_Key/Q_Key) under its own lock.
 *
 * DLIDs (IBTA vol. 1 ch. 4 and §7.11): a port answers to its LID range
 * (LID to LID + 2^LMC - 1), never to LID 0 (unassigned); the permissive
 * LID 0xffff is for the neighbour at the other end of the link (the
 * directed-route SMPs of a subnet manager; on the loopback wire, with no
 * neighbour, the sender itself); a multicast DLID reaches every port of
 * the link, the sender's included (mcg.c filters block_lb_mc).
 */
#include <stdlib.h>
#include <string.h>

#include "emu.h"
#include "mad.h"
#include "wire.h"

#define PERMISSIVE_LID 0xffff

struct wire_pkt *pkt_alloc(uint32_t len)
{
	struct wire_pkt *p = calloc(1, sizeof(*p) + len);

	if (p)
		p->len = len;
	return p;
}

struct wire_pkt *pkt_clone(const struct wire_pkt *p)
{
	struct wire_pkt *c = malloc(sizeof(*p) + p->len);

	if (c) {
		memcpy(c, p, sizeof(*p) + p->len);
		c->next = NULL;
	}
	return c;
}

void pkt_free(struct wire_pkt *p)
{
	free(p);
}

void pkt_free_list(struct wire_pkt *p)
{
	while (p) {
		struct wire_pkt *n = p->next;

		free(p);
		p = n;
	}
}

/*
 * Does e answer to dlid?  LID and LMC are written under that device's
 * lock (port init, the SMA); a plain load sees the old or the new value.
 */
static bool port_has_lid(struct emu *e, uint16_t dlid)
{
	uint16_t lid = __atomic_load_n(&e->port.lid, __ATOMIC_RELAXED);
	uint8_t lmc = __atomic_load_n(&e->port.lmc, __ATOMIC_RELAXED) & 7;

	return lid && dlid && (dlid & ~((1u << lmc) - 1)) == lid;
}

static bool deliver(struct wire *w, struct emu *dst, struct wire_pkt *p)
{
	if (!dst) {
		__atomic_add_fetch(&w->dropped, 1, __ATOMIC_RELAXED);
		pkt_free(p);
		return false;
	}
	__atomic_add_fetch(&w->delivered, 1, __ATOMIC_RELAXED);
	eng_deliver(dst, p);
	return true;
}

static bool loopback_xmit(struct wire *w, struct emu *src, struct wire_pkt *p)
{
	struct emu *dst = NULL;

	if (p->dlid == PERMISSIVE_LID || lid_is_mcast(p->dlid) ||
	    port_has_lid(src, p->dlid))
		dst = src;
	return deliver(w, dst, p);
}

static bool link_xmit(struct wire *w, struct emu *src, struct wire_pkt *p)
{
	struct emu *peer = w->end[0] == src ? w->end[1] : w->end[0];
	struct emu *dst = NULL;

	if (lid_is_mcast(p->dlid)) {
		struct wire_pkt *c = peer ? pkt_clone(p) : NULL;

		if (c)
			deliver(w, peer, c);
		return deliver(w, src, p);
	}
	if (p->dlid == PERMISSIVE_LID)
		dst = peer ? peer : src;
	else if (port_has_lid(src, p->dlid))
		dst = src;
	else if (peer && port_has_lid(peer, p->dlid))
		dst = peer;
	return deliver(w, dst, p);
}

static const struct wire_ops loopback_ops = { .xmit = loopback_xmit };
static const struct wire_ops link_ops = { .xmit = link_xmit };

void wire_init_loopback(struct wire *w, struct emu *e)
{
	memset(w, 0, sizeof(*w));
	w->ops = &loopback_ops;
	w->end[0] = e;
}

void wire_init_link(struct wire *w, struct emu *a, struct emu *b)
{
	memset(w, 0, sizeof(*w));
	w->ops = &link_ops;
	w->end[0] = a;
	w->end[1] = b;
}

/*
 * A port whose link is down sends nothing; one that is not ACTIVE sends
 * only subnet management packets (QP0 on VL15): IBTA vol. 1 §7.2 (the
 * Initialize and Armed states).  The rest is discarded and counted
 * (PortXmitDiscards).
 */
bool wire_xmit(struct emu *src, struct wire_pkt *p)
{
	struct wire *w = src->eng.wire;

	p->src = src;
	if (!w || src->port.phys_state != MLX5X_PORT_PHYS_LINK_UP ||
	    (src->port.state != MLX5X_PORT_STATE_ACTIVE && p->sqpn)) {
		src->port.cnt.xmit_discards++;
		pkt_free(p);
		return false;
	}
	pma_count_xmit(src, p);
	return w->ops->xmit(w, src, p);
}
