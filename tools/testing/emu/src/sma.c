// SPDX-License-Identifier: GPL-2.0
/*
 * The subnet management agent of the firmware: the SMP attributes a
 * channel adapter answers (IBTA vol. 1 §14.2.5), read from and written to
 * the port state that the vport commands and access registers report too
 * (port.c), so that what opensm sets through MAD_IFC is what mlx5_ib reads
 * back either way.
 *
 * Implemented: NodeDescription, NodeInfo, GUIDInfo, PortInfo, P_KeyTable,
 * SLtoVLMappingTable and VLArbitrationTable (Get and, where IBTA lets the
 * SM write them, Set), Notice TrapRepress (no response), and the Mellanox
 * ExtendedPortInfo (all zeros: no FDR10) that opensm and mlx5_ib ask a
 * ConnectX for.  SMInfo belongs to an SM, not to the SMA: a CA without
 * an SM answers it "unsupported" (mlx5_ib never passes SMInfo to the
 * firmware; the host's opensm answers it).  The M_Key is stored and
 * reported but not enforced: opensm leaves it 0, where IBTA §14.2.4 has
 * every check pass.
 */
#include "cmd.h"
#include "log.h"
#include "mad.h"

/* NodeInfo constants (IBTA §14.2.5.3) of the emulated ConnectX-5 */
enum {
	NODE_TYPE_CA		= 1,
	NODE_DEVICE_ID		= 0x1017,
	NODE_VENDOR_ID		= 0x0002c9,
	GUID_BLOCK		= 8,	/* GUIDInfo: GUIDs per block */
	PKEY_BLOCK		= 32,	/* P_KeyTable: P_Keys per block */
	VLARB_BLOCKS		= 4,
	VLARB_CAP		= 8,	/* entries in each priority table */
};

/* PortInfo byte offsets in the SMP data (IBTA §14.2.5.6) */
enum {
	PI_MKEY = 0, PI_GID_PREFIX = 8, PI_LID = 16, PI_SM_LID = 18,
	PI_CAP_MASK = 20, PI_MKEY_LEASE = 26, PI_LOCAL_PORT = 28,
	PI_WIDTH_ENABLED = 29, PI_WIDTH_SUPPORTED = 30, PI_WIDTH_ACTIVE = 31,
	PI_SPEED_STATE = 32, PI_PHYS = 33, PI_MKEY_PROT_LMC = 34,
	PI_SPEED_ACT_EN = 35, PI_NMTU_SMSL = 36, PI_VLCAP_INIT = 37,
	PI_VL_HIGH_LIMIT = 38, PI_VLARB_HIGH_CAP = 39, PI_VLARB_LOW_CAP = 40,
	PI_MTU_CAP = 41, PI_STALL_HOQ = 42, PI_OPVLS = 43, PI_MKEY_VIOL = 44,
	PI_PKEY_VIOL = 46, PI_QKEY_VIOL = 48, PI_GUID_CAP = 50,
	PI_REREG_TIMEOUT = 51, PI_RESP_TIME = 52, PI_ERR_THRESH = 53,
	PI_EXT_SPEED = 62, PI_EXT_SPEED_EN = 63,
};

/* what the link offers: 1X/4X, SDR..QDR plus FDR/EDR, 4X EDR active */
enum {
	WIDTH_SUPPORTED	= 0x03,
	WIDTH_ACTIVE	= 0x02,	/* 4X */
	SPEED_SUPPORTED	= 0x07,	/* SDR, DDR, QDR */
	SPEED_ACTIVE	= 0x04,	/* QDR: the extended field says EDR */
	EXT_SUPPORTED	= 0x03,	/* FDR, EDR */
	EXT_ACTIVE	= 0x02,	/* EDR, as PTYS reports */
	MTU_CAP_4096	= 5,
	RESP_TIME_VALUE	= 8,
};

static uint16_t mad_status(uint8_t *out, uint16_t st)
{
	put_be16(out + MAD_STATUS_OFF, st);
	return st;
}

static uint8_t *sdata(uint8_t *mad)
{
	return mad + SMP_DATA_OFF;
}

static const uint8_t *sdata_in(const uint8_t *mad)
{
	return mad + SMP_DATA_OFF;
}

static void node_info(struct emu *e, uint8_t *d)
{
	struct emu_port *p = &e->port;

	d[0] = 1;			/* BaseVersion */
	d[1] = 1;			/* ClassVersion */
	d[2] = NODE_TYPE_CA;
	d[3] = 1;			/* NumPorts */
	put_be64(d + 4, p->sys_guid);
	put_be64(d + 12, p->node_guid);
	put_be64(d + 20, p->port_guid);
	put_be16(d + 28, EMU_NUM_PKEYS);	/* PartitionCap */
	put_be16(d + 30, NODE_DEVICE_ID);
	put_be32(d + 32, 0);			/* Revision */
	put_be32(d + 36, 1u << 24 | NODE_VENDOR_ID);	/* LocalPortNum */
}

static void port_info(struct emu *e, uint8_t *d)
{
	struct emu_port *p = &e->port;

	put_be64(d + PI_MKEY, p->mkey);
	memcpy(d + PI_GID_PREFIX, p->gids[0], 8);
	put_be16(d + PI_LID, p->lid);
	put_be16(d + PI_SM_LID, p->sm_lid);
	put_be32(d + PI_CAP_MASK, p->cap_mask1);
	put_be16(d + PI_MKEY_LEASE, p->mkey_lease);
	d[PI_LOCAL_PORT] = 1;
	d[PI_WIDTH_ENABLED] = p->width_enabled;
	d[PI_WIDTH_SUPPORTED] = WIDTH_SUPPORTED;
	d[PI_WIDTH_ACTIVE] = WIDTH_ACTIVE;
	d[PI_SPEED_STATE] = SPEED_SUPPORTED << 4 | (p->state & 0xf);
	d[PI_PHYS] = (uint8_t)(p->phys_state << 4 | (p->link_down_default & 0xf));
	d[PI_MKEY_PROT_LMC] = (uint8_t)(p->mkey_protect << 6 | (p->lmc & 7));
	d[PI_SPEED_ACT_EN] = SPEED_ACTIVE << 4 | (p->speed_enabled & 0xf);
	d[PI_NMTU_SMSL] = (uint8_t)(p->neighbor_mtu << 4 | (p->sm_sl & 0xf));
	d[PI_VLCAP_INIT] = (uint8_t)(p->vl_cap << 4);
	d[PI_VL_HIGH_LIMIT] = p->vl_high_limit;
	d[PI_VLARB_HIGH_CAP] = VLARB_CAP;
	d[PI_VLARB_LOW_CAP] = VLARB_CAP;
	d[PI_MTU_CAP] = MTU_CAP_4096;
	d[PI_STALL_HOQ] = (uint8_t)(p->vl_stall << 5 | (p->hoq_life & 0x1f));
	d[PI_OPVLS] = (uint8_t)(p->op_vls << 4);
	put_be16(d + PI_MKEY_VIOL, (uint16_t)MIN(p->mkey_viol, 0xffff));
	put_be16(d + PI_PKEY_VIOL, (uint16_t)MIN(p->pkey_viol, 0xffff));
	put_be16(d + PI_QKEY_VIOL, (uint16_t)MIN(p->qkey_viol, 0xffff));
	d[PI_GUID_CAP] = EMU_NUM_GIDS;
	/* ClientReregister reads back as 0: it is a one-shot request */
	d[PI_REREG_TIMEOUT] = p->subnet_timeout & 0x1f;
	d[PI_RESP_TIME] = RESP_TIME_VALUE;
	d[PI_ERR_THRESH] = p->err_thresholds;
	d[PI_EXT_SPEED] = EXT_ACTIVE << 4 | EXT_SUPPORTED;
	d[PI_EXT_SPEED_EN] = p->speed_ext_enabled & 0x1f;
}

/*
 * PortState of a PortInfo Set (IBTA §14.2.5.6, the PortState row): 0 is
 * no change, DOWN restarts the link, INIT -> ARMED -> ACTIVE go one step
 * at a time; the current state (a Set copied from a Get) changes nothing;
 * anything else is an invalid value.
 */
static bool state_ok(uint8_t cur, uint8_t req)
{
	if (req == cur)
		return true;
	switch (req) {
	case 0:
	case MLX5X_PORT_STATE_DOWN:
		return true;
	case MLX5X_PORT_STATE_ARMED:
		return cur == MLX5X_PORT_STATE_INIT ||
		       cur == MLX5X_PORT_STATE_ARMED;
	case MLX5X_PORT_STATE_ACTIVE:
		return cur == MLX5X_PORT_STATE_ARMED ||
		       cur == MLX5X_PORT_STATE_ACTIVE;
	default:
		return false;
	}
}

/* the checks of a PortInfo Set, before anything is applied */
static bool port_info_set_ok(struct emu *e, const uint8_t *d)
{
	struct emu_port *p = &e->port;
	uint16_t lid = get_be16(d + PI_LID);
	uint8_t nmtu = d[PI_NMTU_SMSL] >> 4, opvls = d[PI_OPVLS] >> 4;

	if (lid_is_mcast(lid) || lid == LID_PERMISSIVE)
		return false;
	if (!state_ok(p->state, d[PI_SPEED_STATE] & 0xf))
		return false;
	/* NeighborMTU within 256..MTUCap; OperationalVLs 0 or <= VLCap */
	if (nmtu < 1 || nmtu > MTU_CAP_4096 || opvls > p->vl_cap)
		return false;
	return true;
}

/*
 * A link width/speed "enabled" field: 0 keeps it, all-ones means "set to
 * supported"; LinkSpeedExtEnabled 30 disables the extended speeds.
 */
static uint8_t enabled_field(uint8_t req, uint8_t all, uint8_t supported,
			     uint8_t cur)
{
	if (!req)
		return cur;
	if (req == all)
		return supported;
	if (all == 0x1f && req == 0x1e)
		return 0;
	return req & supported ? req & supported : cur;
}

/*
 * PortPhysicalState Set: Disabled takes the link down until a local Set
 * of Polling; Polling retrains it (the neighbour is always there), the
 * port coming back INIT.  0 (what opensm writes) and the read-only
 * states a Set copied from a Get carries change nothing.
 */
static void phys_set(struct emu *e, uint8_t phys)
{
	struct emu_port *p = &e->port;

	if (phys == MLX5X_PORT_PHYS_DISABLED) {
		p->phys_state = MLX5X_PORT_PHYS_DISABLED;
		port_set_state(e, MLX5X_PORT_STATE_DOWN);
	} else if (phys == MLX5X_PORT_PHYS_POLLING) {
		p->phys_state = MLX5X_PORT_PHYS_LINK_UP;
		if (p->state == MLX5X_PORT_STATE_DOWN)
			port_set_state(e, MLX5X_PORT_STATE_INIT);
		else
			port_set_state(e, MLX5X_PORT_STATE_DOWN);
	}
}

static void set_gid_prefix(struct emu *e, const uint8_t *prefix)
{
	static const uint8_t zero[8];
	unsigned int i;

	for (i = 0; i < EMU_NUM_GIDS; i++)
		if (memcmp(e->port.gids[i] + 8, zero, 8))
			memcpy(e->port.gids[i], prefix, 8);
}

/*
 * Apply a PortInfo Set (IBTA §14.2.5.6: the fields marked RW) and raise
 * the events mlx5 firmware reports for them (PORT_CHANGE sub types of
 * mlx5_ib's handle_port_change): LID for LID, LMC, MasterSMLID or
 * MasterSMSL, GUID for the GID prefix, CLIENT_REREG for
 * ClientReregister, and the state events of port_set_state().
 */
static void port_info_set(struct emu *e, const uint8_t *d)
{
	struct emu_port *p = &e->port;
	uint16_t lid = get_be16(d + PI_LID), sm_lid = get_be16(d + PI_SM_LID);
	uint8_t lmc = d[PI_MKEY_PROT_LMC] & 7, sm_sl = d[PI_NMTU_SMSL] & 0xf;
	uint8_t state = d[PI_SPEED_STATE] & 0xf;
	bool lid_ev, gid_ev;

	lid_ev = lid != p->lid || sm_lid != p->sm_lid || lmc != p->lmc ||
		 sm_sl != p->sm_sl;
	gid_ev = memcmp(p->gids[0], d + PI_GID_PREFIX, 8) != 0;
	p->mkey = get_be64(d + PI_MKEY);
	set_gid_prefix(e, d + PI_GID_PREFIX);
	p->lid = lid;
	p->sm_lid = sm_lid;
	p->mkey_lease = get_be16(d + PI_MKEY_LEASE);
	p->width_enabled = enabled_field(d[PI_WIDTH_ENABLED], 0xff,
					 WIDTH_SUPPORTED, p->width_enabled);
	if (d[PI_PHYS] & 0xf)
		p->link_down_default = d[PI_PHYS] & 0xf;
	p->mkey_protect = d[PI_MKEY_PROT_LMC] >> 6;
	p->lmc = lmc;
	p->speed_enabled = enabled_field(d[PI_SPEED_ACT_EN] & 0xf, 0xf,
					 SPEED_SUPPORTED, p->speed_enabled);
	p->neighbor_mtu = d[PI_NMTU_SMSL] >> 4;
	p->sm_sl = sm_sl;
	p->vl_high_limit = d[PI_VL_HIGH_LIMIT];
	p->vl_stall = d[PI_STALL_HOQ] >> 5;
	p->hoq_life = d[PI_STALL_HOQ] & 0x1f;
	if (d[PI_OPVLS] >> 4)
		p->op_vls = d[PI_OPVLS] >> 4;
	p->subnet_timeout = d[PI_REREG_TIMEOUT] & 0x1f;
	p->err_thresholds = d[PI_ERR_THRESH];
	p->speed_ext_enabled = enabled_field(d[PI_EXT_SPEED_EN] & 0x1f, 0x1f,
					     EXT_SUPPORTED,
					     p->speed_ext_enabled);
	/* the active MTU follows the neighbour's (PMTU oper_mtu) */
	p->oper_mtu = (uint16_t)MIN(p->max_mtu, 128u << p->neighbor_mtu);
	if (lid_ev)
		port_event(e, MLX5X_PORT_CHANGE_LID);
	if (gid_ev)
		port_event(e, MLX5X_PORT_CHANGE_GUID);
	if (d[PI_REREG_TIMEOUT] & 0x80)
		port_event(e, MLX5X_PORT_CHANGE_CLIENT_REREG);
	if (state)
		port_set_state(e, state);
	phys_set(e, d[PI_PHYS] >> 4);
}

static uint16_t sma_port_info(struct emu *e, const uint8_t *in, uint8_t *out,
			      bool set)
{
	uint32_t mod = get_be32(in + MAD_ATTR_MOD_OFF);

	/* the port number (bit 31: the SM knows extended speeds); a CA
	 * answers for its own port, 0 naming the receiving one */
	if ((mod & 0x7fffffffu) > 1)
		return MAD_STATUS_BAD_VALUE;
	if (set) {
		if (!port_info_set_ok(e, sdata_in(in))) {
			port_info(e, sdata(out));
			return MAD_STATUS_BAD_VALUE;
		}
		port_info_set(e, sdata_in(in));
	}
	port_info(e, sdata(out));
	return 0;
}

static uint16_t sma_pkeys(struct emu *e, const uint8_t *in, uint8_t *out,
			  bool set)
{
	uint32_t block = get_be32(in + MAD_ATTR_MOD_OFF) & 0xffff;
	uint16_t *pk = e->port.pkeys;
	bool changed = false;
	unsigned int i;

	/* IBTA §14.2.5.7: bits 15:0 the block of 32 P_Keys */
	if (block >= EMU_NUM_PKEYS / PKEY_BLOCK)
		return MAD_STATUS_BAD_VALUE;
	pk += block * PKEY_BLOCK;
	for (i = 0; set && i < PKEY_BLOCK; i++) {
		uint16_t v = get_be16(sdata_in(in) + 2 * i);

		changed |= v != pk[i];
		pk[i] = v;
	}
	for (i = 0; i < PKEY_BLOCK; i++)
		put_be16(sdata(out) + 2 * i, pk[i]);
	if (changed)
		port_event(e, MLX5X_PORT_CHANGE_PKEY);
	return 0;
}

static uint16_t sma_guids(struct emu *e, const uint8_t *in, uint8_t *out,
			  bool set)
{
	uint32_t block = get_be32(in + MAD_ATTR_MOD_OFF);
	bool changed = false;
	unsigned int i;

	/* IBTA §14.2.5.5: 8 GUIDs per block; GUID 0 is the port GUID,
	 * which the SM cannot change */
	if (block >= EMU_NUM_GIDS / GUID_BLOCK)
		return MAD_STATUS_BAD_VALUE;
	for (i = 1; set && i < GUID_BLOCK; i++) {
		const uint8_t *g = sdata_in(in) + 8 * i;
		uint8_t *gid = e->port.gids[i];

		if (memcmp(gid + 8, g, 8)) {
			changed = true;
			memcpy(gid, e->port.gids[0], 8);
			memcpy(gid + 8, g, 8);
		}
	}
	for (i = 0; i < GUID_BLOCK; i++)
		memcpy(sdata(out) + 8 * i, e->port.gids[i] + 8, 8);
	if (changed)
		port_event(e, MLX5X_PORT_CHANGE_GUID);
	return 0;
}

static uint16_t sma_vlarb(struct emu *e, const uint8_t *in, uint8_t *out,
			  bool set)
{
	uint32_t block = get_be32(in + MAD_ATTR_MOD_OFF) >> 16;

	/* IBTA §14.2.5.9: bits 31:16 name the table: 1, 2 low priority,
	 * 3, 4 high priority (32 entries of VL, weight each) */
	if (block < 1 || block > VLARB_BLOCKS)
		return MAD_STATUS_BAD_VALUE;
	if (set)
		memcpy(e->port.vlarb[block - 1], sdata_in(in), SMP_DATA_LEN);
	memcpy(sdata(out), e->port.vlarb[block - 1], SMP_DATA_LEN);
	return 0;
}

static uint16_t sma_sl2vl(struct emu *e, const uint8_t *in, uint8_t *out,
			  bool set)
{
	/* IBTA §14.2.5.8: 16 SLs, 4 bits each; a CA has one table */
	if (set)
		memcpy(e->port.sl2vl, sdata_in(in), sizeof(e->port.sl2vl));
	memcpy(sdata(out), e->port.sl2vl, sizeof(e->port.sl2vl));
	return 0;
}

/* Get-only attributes refuse Set with "method/attribute unsupported" */
static uint16_t sma_attr(struct emu *e, const uint8_t *in, uint8_t *out,
			 bool set)
{
	switch (get_be16(in + MAD_ATTR_ID_OFF)) {
	case SMP_ATTR_NODE_DESC:
		if (set)
			return MAD_STATUS_BAD_ATTR;
		memcpy(sdata(out), e->port.node_desc, SMP_DATA_LEN);
		return 0;
	case SMP_ATTR_NODE_INFO:
		if (set)
			return MAD_STATUS_BAD_ATTR;
		node_info(e, sdata(out));
		return 0;
	case SMP_ATTR_PORT_INFO:
		return sma_port_info(e, in, out, set);
	case SMP_ATTR_PKEY_TABLE:
		return sma_pkeys(e, in, out, set);
	case SMP_ATTR_GUID_INFO:
		return sma_guids(e, in, out, set);
	case SMP_ATTR_SL2VL:
		return sma_sl2vl(e, in, out, set);
	case SMP_ATTR_VL_ARB:
		return sma_vlarb(e, in, out, set);
	case SMP_ATTR_MLNX_EPI:
		return 0;	/* no FDR10: all fields 0 */
	default:
		/* SMInfo, switch attributes, unknown ones */
		return MAD_STATUS_BAD_ATTR;
	}
}

void sma_process(struct emu *e, const uint8_t *in, uint8_t *out)
{
	uint8_t method = in[MAD_METHOD_OFF];
	uint16_t st;

	if (in[MAD_CLASS_VERSION_OFF] != 1) {
		mad_status(out, MAD_STATUS_BAD_VERSION);
		return;
	}
	if (method != MAD_METHOD_GET && method != MAD_METHOD_SET) {
		mad_status(out, MAD_STATUS_BAD_METHOD);
		return;
	}
	/* the response data is the attribute, never the request's data */
	memset(sdata(out), 0, SMP_DATA_LEN);
	st = sma_attr(e, in, out, method == MAD_METHOD_SET);
	if (st == MAD_STATUS_BAD_ATTR)
		memset(sdata(out), 0, SMP_DATA_LEN);
	emu_dbg("SMA %s attr 0x%04x mod 0x%x: status 0x%04x",
		method == MAD_METHOD_SET ? "Set" : "Get",
		get_be16(in + MAD_ATTR_ID_OFF), get_be32(in + MAD_ATTR_MOD_OFF),
		st);
	mad_status(out, st);
}
