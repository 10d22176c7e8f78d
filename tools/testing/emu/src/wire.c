// SPDX-License-Identifier: GPL-2.0
/*
 * Wires: the loopback wire of a single device, and a link that joins the
 * ports of two devices.  A wire only picks the destination device by the
 * packet's DLID (the permissive LID reaches the sender itself); the
 * receiving engine checks the rest (GID, QP, P_Key/Q_Key) under its own
 * lock.
 */
#include <stdlib.h>
#include <string.h>

#include "emu.h"
#include "wire.h"

#define PERMISSIVE_LID 0xffff

struct wire_pkt *pkt_alloc(uint32_t len)
{
	struct wire_pkt *p = calloc(1, sizeof(*p) + len);

	if (p)
		p->len = len;
	return p;
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

static uint16_t port_lid(struct emu *e)
{
	/* written under that device's lock at port init; a plain load */
	return __atomic_load_n(&e->port.lid, __ATOMIC_RELAXED);
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

	if (p->dlid == PERMISSIVE_LID || p->dlid == port_lid(src))
		dst = src;
	return deliver(w, dst, p);
}

static bool link_xmit(struct wire *w, struct emu *src, struct wire_pkt *p)
{
	struct emu *peer = w->end[0] == src ? w->end[1] : w->end[0];
	struct emu *dst = NULL;

	if (p->dlid == PERMISSIVE_LID || p->dlid == port_lid(src))
		dst = src;
	else if (peer && p->dlid == port_lid(peer))
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

bool wire_xmit(struct emu *src, struct wire_pkt *p)
{
	struct wire *w = src->eng.wire;

	if (!w) {
		pkt_free(p);
		return false;
	}
	return w->ops->xmit(w, src, p);
}
