/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Management datagrams (MADs) the firmware answers: the subnet management
 * agent (SMA, sma.c) and the performance management agent (PMA, pma.c),
 * reached by the MAD_IFC command and, when the driver has no special QP
 * open, by QP0/QP1 traffic from the wire (mad_wire_rx()).
 *
 * Layouts are those of the InfiniBand Architecture Specification, volume
 * 1 (IBTA): the common MAD header (§13.4.3), the SMP (§14.2.1.1 LID
 * routed, §14.2.1.2 directed route) and the PerfMgt MAD (§16.1.1); the
 * same offsets are in Linux include/rdma/ib_mad.h, ib_smi.h, ib_pma.h.
 */
#ifndef EMU_MAD_H
#define EMU_MAD_H

#include <stdbool.h>
#include <stdint.h>

struct emu;
struct wire_pkt;

/* common MAD header (IBTA §13.4.3) */
enum {
	MAD_BASE_VERSION_OFF	= 0,
	MAD_MGMT_CLASS_OFF	= 1,
	MAD_CLASS_VERSION_OFF	= 2,
	MAD_METHOD_OFF		= 3,
	MAD_STATUS_OFF		= 4,	/* 16 bits; SMP bit 15: D (direction) */
	MAD_HOP_PTR_OFF		= 6,	/* directed-route SMP */
	MAD_HOP_CNT_OFF		= 7,
	MAD_TID_OFF		= 8,
	MAD_ATTR_ID_OFF		= 16,
	MAD_ATTR_MOD_OFF	= 20,
	/* SMP (IBTA §14.2.1) */
	SMP_MKEY_OFF		= 24,
	SMP_DR_SLID_OFF		= 32,
	SMP_DR_DLID_OFF		= 34,
	SMP_DATA_OFF		= 64,	/* 64 bytes */
	SMP_DATA_LEN		= 64,
	SMP_INITIAL_PATH_OFF	= 128,
	SMP_RETURN_PATH_OFF	= 192,
	/* PerfMgt (IBTA §16.1.1): 40 reserved bytes after the header */
	PMA_DATA_OFF		= 64,
	PMA_DATA_LEN		= 192,
	MAD_LEN			= 256,
};

enum {
	MGMT_CLASS_SUBN_LID	= 0x01,
	MGMT_CLASS_PERF		= 0x04,
	MGMT_CLASS_SUBN_DR	= 0x81,
	MAD_METHOD_GET		= 0x01,
	MAD_METHOD_SET		= 0x02,
	MAD_METHOD_GET_RESP	= 0x81,
	MAD_METHOD_TRAP_REPRESS	= 0x07,
	MAD_STATUS_DR_D		= 0x8000,	/* SMP: returning */
	/* MAD status field, IBTA §13.4.7 (code in bits 4:2) */
	MAD_STATUS_BAD_VERSION	= 0x0004,
	MAD_STATUS_BAD_METHOD	= 0x0008,
	MAD_STATUS_BAD_ATTR	= 0x000c,	/* method/attribute unsupported */
	MAD_STATUS_BAD_VALUE	= 0x001c,	/* attribute or modifier value */
	LID_PERMISSIVE		= 0xffff,
	LID_MCAST_FIRST		= 0xc000,
	MAD_DR_MAX_HOPS		= 63,		/* IBTA §14.2.1.2 */
};

/* SMP attributes (IBTA §14.2.5) and a vendor one */
enum {
	SMP_ATTR_NOTICE		= 0x0002,
	SMP_ATTR_NODE_DESC	= 0x0010,
	SMP_ATTR_NODE_INFO	= 0x0011,
	SMP_ATTR_GUID_INFO	= 0x0014,
	SMP_ATTR_PORT_INFO	= 0x0015,
	SMP_ATTR_PKEY_TABLE	= 0x0016,
	SMP_ATTR_SL2VL		= 0x0017,
	SMP_ATTR_VL_ARB		= 0x0018,
	SMP_ATTR_SM_INFO	= 0x0020,
	/* Mellanox ExtendedPortInfo: opensm and mlx5_ib query it */
	SMP_ATTR_MLNX_EPI	= 0xff90,
};

/* PMA attributes (IBTA §16.1.2) */
enum {
	PMA_ATTR_CLASS_PORT_INFO	= 0x0001,
	PMA_ATTR_PORT_COUNTERS		= 0x0012,
	PMA_ATTR_PORT_COUNTERS_EXT	= 0x001d,
};

static inline bool lid_is_mcast(uint16_t lid)
{
	return lid >= LID_MCAST_FIRST && lid != LID_PERMISSIVE;
}

/*
 * Answer one MAD as the firmware does for MAD_IFC: out gets the complete
 * response (header copied, method GetResp, status, data).  Returns false
 * when the MAD gets no response (a TrapRepress, a response method).
 * (emu.lock held)
 */
bool mad_process(struct emu *e, const uint8_t *in, uint8_t *out,
		 bool ignore_mkey);
/* sma.c: one SMP (class 0x01 or 0x81) */
void sma_process(struct emu *e, const uint8_t *in, uint8_t *out);
/* pma.c: one PerfMgt MAD */
void pma_process(struct emu *e, const uint8_t *in, uint8_t *out);
/* pma.c: count a packet leaving / reaching the port */
void pma_count_xmit(struct emu *e, const struct wire_pkt *p);
void pma_count_rcv(struct emu *e, const struct wire_pkt *p);

/*
 * A MAD from the wire for QP0 or QP1 of a port whose driver has not opened
 * that QP: the firmware agent answers on the wire.  Returns false if the
 * packet is not for it (the caller drops it).  Takes ownership of p
 * when it returns true.
 */
bool mad_wire_rx(struct emu *e, struct wire_pkt *p);

#endif /* EMU_MAD_H */
