// SPDX-License-Identifier: GPL-2.0
/*
 * The performance management agent of the firmware (IBTA vol. 1 §16.1):
 * ClassPortInfo, PortCounters and PortCountersExtended, fed by the
 * packets the transport engine really moves through the port (counted at
 * the wire, pma_count_xmit/rcv), and the same counters for
 * QUERY_VPORT_COUNTER (port.c).
 *
 * Octet counters count the payload plus the headers of each MTU packet
 * (LRH, BTH, the transport's extension header, ICRC, VCRC and the GRH
 * when present): the engine moves whole message segments, so the header
 * bytes are derived from the packet count.
 */
#include "cmd.h"
#include "engine.h"
#include "mad.h"
#include "wire.h"

/* ClassPortInfo.CapabilityMask of the PMA (IBTA vol. 1 §16.1.2) */
enum {
	PMA_CAP_EXT_WIDTH	= 1 << 9,	/* PortCountersExtended */
	PMA_CAP_XMIT_WAIT	= 1 << 12,
	PMA_RESP_TIME_VALUE	= 18,
};

/* LRH 8 + BTH 12 + ICRC 4 + VCRC 2, the largest extension header 16 */
#define PKT_HDR_BYTES(p) (26u + ((p)->tp == TP_UD ? 8u : 16u) + \
			  ((p)->grh ? 40u : 0u))

static uint64_t pkt_octets(const struct wire_pkt *p)
{
	uint32_t n = p->npkt ? p->npkt : 1;

	return p->len + (uint64_t)n * PKT_HDR_BYTES(p);
}

static void traffic_count(struct emu_traffic *t, const struct wire_pkt *p)
{
	uint32_t n = p->npkt ? p->npkt : 1;

	t->pkts += n;
	t->data += pkt_octets(p);
	if (lid_is_mcast(p->dlid))
		t->mcast += n;
	else
		t->ucast += n;
}

void pma_count_xmit(struct emu *e, const struct wire_pkt *p)
{
	traffic_count(&e->port.cnt.xmit, p);
}

void pma_count_rcv(struct emu *e, const struct wire_pkt *p)
{
	traffic_count(&e->port.cnt.rcv, p);
}

static uint32_t sat32(uint64_t v)
{
	return v > 0xffffffffull ? 0xffffffffu : (uint32_t)v;
}

static uint16_t sat16(uint64_t v)
{
	return v > 0xffff ? 0xffff : (uint16_t)v;
}

/* PortSelect: this CA has port 1 (0 is taken as "this port") */
static bool port_ok(const uint8_t *d)
{
	return d[1] <= 1;
}

/*
 * PortCounters (IBTA §16.1.3.5): 16/8-bit error counters, 32-bit data
 * counters in units of 4 octets, all saturating.  A Set resets the
 * counters its CounterSelect names (bit 3 PortRcvErrors, 6 XmitDiscards,
 * 11 VL15Dropped, 12..15 XmitData, RcvData, XmitPkts, RcvPkts).
 */
static uint16_t port_counters(struct emu *e, const uint8_t *in, uint8_t *d,
			      bool set)
{
	struct emu_port_cnt *c = &e->port.cnt;
	uint16_t sel = get_be16(in + PMA_DATA_OFF + 2);

	if (!port_ok(in + PMA_DATA_OFF))
		return MAD_STATUS_BAD_VALUE;
	if (set) {
		if (sel & 1u << 3)
			c->rcv_errors = 0;
		if (sel & 1u << 6)
			c->xmit_discards = 0;
		if (sel & 1u << 11)
			c->vl15_dropped = 0;
		if (sel & 1u << 12)
			c->xmit.data = 0;
		if (sel & 1u << 13)
			c->rcv.data = 0;
		if (sel & 1u << 14)
			c->xmit.pkts = 0;
		if (sel & 1u << 15)
			c->rcv.pkts = 0;
	}
	d[1] = in[PMA_DATA_OFF + 1];
	put_be16(d + 2, sel);
	put_be16(d + 8, sat16(c->rcv_errors));
	put_be16(d + 14, sat16(c->xmit_discards));
	put_be16(d + 22, sat16(c->vl15_dropped));
	put_be32(d + 24, sat32(c->xmit.data / 4));
	put_be32(d + 28, sat32(c->rcv.data / 4));
	put_be32(d + 32, sat32(c->xmit.pkts));
	put_be32(d + 36, sat32(c->rcv.pkts));
	return 0;
}

/*
 * PortCountersExtended (IBTA §16.1.4, optional): 64-bit data (units of
 * 4 octets) and packet counters, unicast and multicast packets.  A Set
 * resets those CounterSelect bits 0..7 name.
 */
static uint16_t port_counters_ext(struct emu *e, const uint8_t *in,
				  uint8_t *d, bool set)
{
	struct emu_port_cnt *c = &e->port.cnt;
	uint16_t sel = get_be16(in + PMA_DATA_OFF + 2);
	uint64_t *f[8] = {
		&c->xmit.data, &c->rcv.data, &c->xmit.pkts, &c->rcv.pkts,
		&c->xmit.ucast, &c->rcv.ucast, &c->xmit.mcast, &c->rcv.mcast,
	};
	unsigned int i;

	if (!port_ok(in + PMA_DATA_OFF))
		return MAD_STATUS_BAD_VALUE;
	for (i = 0; set && i < 8; i++)
		if (sel & 1u << i)
			*f[i] = 0;
	d[1] = in[PMA_DATA_OFF + 1];
	put_be16(d + 2, sel);
	for (i = 0; i < 8; i++)
		put_be64(d + 8 + 8 * i, i < 2 ? *f[i] / 4 : *f[i]);
	return 0;
}

void pma_process(struct emu *e, const uint8_t *in, uint8_t *out)
{
	uint8_t method = in[MAD_METHOD_OFF], *d = out + PMA_DATA_OFF;
	bool set = method == MAD_METHOD_SET;
	uint16_t st;

	memset(d, 0, PMA_DATA_LEN);
	if (in[MAD_CLASS_VERSION_OFF] != 1) {
		put_be16(out + MAD_STATUS_OFF, MAD_STATUS_BAD_VERSION);
		return;
	}
	if (method != MAD_METHOD_GET && !set) {
		put_be16(out + MAD_STATUS_OFF, MAD_STATUS_BAD_METHOD);
		return;
	}
	switch (get_be16(in + MAD_ATTR_ID_OFF)) {
	case PMA_ATTR_CLASS_PORT_INFO:
		/* IBTA §13.4.8.1; read-only here */
		st = set ? MAD_STATUS_BAD_ATTR : 0;
		if (!set) {
			d[0] = 1;	/* BaseVersion */
			d[1] = 1;	/* ClassVersion */
			put_be16(d + 2, PMA_CAP_EXT_WIDTH | PMA_CAP_XMIT_WAIT);
			put_be32(d + 4, PMA_RESP_TIME_VALUE);
		}
		break;
	case PMA_ATTR_PORT_COUNTERS:
		st = port_counters(e, in, d, set);
		break;
	case PMA_ATTR_PORT_COUNTERS_EXT:
		st = port_counters_ext(e, in, d, set);
		break;
	default:
		st = MAD_STATUS_BAD_ATTR;
		break;
	}
	if (st)
		memset(d, 0, PMA_DATA_LEN);
	put_be16(out + MAD_STATUS_OFF, st);
}
