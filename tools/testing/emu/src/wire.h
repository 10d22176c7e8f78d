/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wire between ports, and the packets on it.
 *
 * A packet carries the headers of an InfiniBand packet as plain fields
 * (LRH/GRH addressing, BTH, RETH, AtomicETH, DETH, XRCETH, AETH,
 * AtomicAckETH, immediate) and the payload of one message segment: up to
 * WIRE_SEG_MAX bytes, i.e. a run of MTU-sized packets with consecutive
 * PSNs (npkt of them).  Segmenting at 64 KiB instead of the MTU keeps
 * the copy count low; PSNs, ACKs, NAKs and retries still count MTU
 * packets, so a retry can restart inside a message at any PSN.
 *
 * A wire moves packets between ports.  wire_xmit() takes ownership of
 * the packet: it is delivered to the destination device's inbox or
 * freed.  Transmission happens with the sender's emu.lock held and never
 * takes another device's emu.lock.
 */
#ifndef EMU_WIRE_H
#define EMU_WIRE_H

#include <stdbool.h>
#include <stdint.h>

struct emu;

enum {
	WIRE_SEG_MAX = 64 * 1024,
};

/* BTH operation (the transport opcode without first/middle/last) */
enum pkt_op {
	PKT_SEND = 1,
	PKT_WRITE,
	PKT_READ_REQ,
	PKT_CMP_SWAP,
	PKT_FETCH_ADD,
	PKT_READ_RESP,
	PKT_ACK,		/* ACK or NAK, per aeth */
	PKT_ATOMIC_ACK,
};

/* transport (BTH opcode high bits) */
enum pkt_tp {
	TP_RC = 0,
	TP_UC = 1,
	TP_UD = 3,
	TP_XRC = 5,
};

/* AETH syndrome: bits 7:5 type, 4:0 value */
enum {
	AETH_ACK	= 0x00,
	AETH_RNR_NAK	= 0x20,	/* | RNR timer code */
	AETH_NAK	= 0x60,	/* | NAK code */
	AETH_TYPE_MASK	= 0xe0,
	AETH_VAL_MASK	= 0x1f,
	NAK_PSN_SEQ	= 0,
	NAK_INVALID_REQ	= 1,
	NAK_REMOTE_ACCESS = 2,
	NAK_REMOTE_OP	= 3,
};

struct wire_pkt {
	struct wire_pkt *next;
	/* the sending device (multicast loopback); never dereferenced */
	const struct emu *src;
	bool block_lb;		/* sender's qpc.block_lb_mc */
	/* LRH / GRH */
	uint16_t slid, dlid;
	uint8_t sl;
	bool grh;
	uint8_t tclass, hop_limit;
	uint32_t flow_label;
	uint8_t sgid[16], dgid[16];
	/* BTH */
	uint8_t tp;		/* enum pkt_tp */
	uint8_t op;		/* enum pkt_op */
	bool first, last;	/* message segment position */
	bool se;		/* solicited event */
	bool has_imm;
	bool inv;		/* SEND with Invalidate: imm is the rkey */
	uint32_t dqpn;
	uint32_t sqpn;		/* DETH source QP (UD); informative otherwise */
	uint16_t pkey;		/* BTH P_Key (UD: QP1 reports it in the CQE) */
	uint32_t psn;
	uint32_t npkt;		/* MTU packets in this segment (PSNs) */
	/* extension headers */
	uint8_t imm[4];
	uint64_t va;		/* RETH */
	uint32_t rkey;
	uint32_t dma_len;
	uint64_t swap_add, compare;	/* AtomicETH */
	uint32_t qkey;		/* DETH */
	uint32_t xrc_srqn;	/* XRCETH */
	uint8_t aeth;		/* AETH syndrome */
	uint64_t orig;		/* AtomicAckETH */
	/* payload */
	uint32_t len;
	uint8_t data[];
};

struct wire_pkt *pkt_alloc(uint32_t len);
void pkt_free(struct wire_pkt *p);
void pkt_free_list(struct wire_pkt *p);

/* a wire joins ports; the port of a device is its emu */
struct wire_ops {
	/* deliver p (owned) from port src; false if nobody has dlid */
	bool (*xmit)(struct wire *w, struct emu *src, struct wire_pkt *p);
};

struct wire {
	const struct wire_ops *ops;
	struct emu *end[2];	/* ports on this wire (end[1] NULL: loopback) */
	uint64_t delivered, dropped;	/* atomics */
};

void wire_init_loopback(struct wire *w, struct emu *e);
/* join two devices; both must have distinct LIDs */
void wire_init_link(struct wire *w, struct emu *a, struct emu *b);
struct wire_pkt *pkt_clone(const struct wire_pkt *p);
bool wire_xmit(struct emu *src, struct wire_pkt *p);

/* engine.c: queue a packet on dst's inbox and kick its engine */
void eng_deliver(struct emu *dst, struct wire_pkt *p);
/* mcg.c: a multicast packet (owned) to the attached QPs (emu.lock held) */
unsigned int mcg_deliver(struct emu *e, struct wire_pkt *p);

#endif /* EMU_WIRE_H */
