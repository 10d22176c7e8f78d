// SPDX-License-Identifier: GPL-2.0
/*
 * The port of a subnet (--port sm): link and logical state, the firmware
 * SMA and PMA through MAD_IFC, PORT_CHANGE events, PCAP, MADs on the wire
 * answered by the firmware or handed to the driver's QP0, P_Keys, and
 * multicast groups across a link of two devices.
 */
#include <stdio.h>

#include "eng_th.h"
#include "mad.h"

#define GUID_A 0x0002c90300aa0001ull
#define GUID_B 0x0002c90300bb0002ull

static uint64_t tid = 0x1000;

/* a device in SM mode (or not) up to INIT_HCA, EQs that take port events */
static void fx_setup(struct te *x, uint64_t guid, uint8_t mode)
{
	struct emu_opts o;

	memset(x, 0, sizeof(*x));
	th_default_opts(&o);
	o.guid = guid;
	o.port_mode = mode;
	th_setup_opts(&x->t, &o);
	th_init_hca(&x->t);
	x->t.e.eng.clock = te_clock;
	x->t.e.eng.clock_arg = &x->now;
	x->now = 1000000000ull;
	x->va_next = TE_VA_BASE;
	x->log_eq = 6;
	x->async_eqn = th_create_eq(&x->t, x->log_eq, te_async_mask() |
				    1ull << MLX5X_EVENT_PORT_CHANGE, 0,
				    &x->async_ring);
	x->comp_eqn = th_create_eq(&x->t, x->log_eq, 0, 1, &x->comp_ring);
}

static void mad_hdr(uint8_t *m, uint8_t cls, uint8_t method, uint16_t attr,
		    uint32_t mod)
{
	memset(m, 0, MAD_LEN);
	m[MAD_BASE_VERSION_OFF] = 1;
	m[MAD_MGMT_CLASS_OFF] = cls;
	m[MAD_CLASS_VERSION_OFF] = 1;
	m[MAD_METHOD_OFF] = method;
	put_be64(m + MAD_TID_OFF, tid++);
	put_be16(m + MAD_ATTR_ID_OFF, attr);
	put_be32(m + MAD_ATTR_MOD_OFF, mod);
	if (cls == MGMT_CLASS_SUBN_DR) {
		put_be16(m + SMP_DR_SLID_OFF, LID_PERMISSIVE);
		put_be16(m + SMP_DR_DLID_OFF, LID_PERMISSIVE);
	}
}

/* MAD_IFC with op_mod and port; the command status */
static unsigned int mad_ifc_cmd(struct te *x, uint16_t op_mod, uint8_t port,
				const uint8_t *mad, uint8_t *resp)
{
	uint8_t in[MLX5X_MAD_IFC_IN_LEN] = { 0 };
	uint8_t out[MLX5X_MAD_IFC_OUT_LEN] = { 0 };
	unsigned int st;

	th_hdr(in, MLX5X_CMD_OP_MAD_IFC, op_mod);
	PSET(in, MLX5X_MAD_IFC_IN_PORT, port);
	memcpy(in + MLX5X_MAD_IFC_IN_MAD_OFF, mad, MAD_LEN);
	st = th_status(&x->t, in, sizeof(in), out, sizeof(out));
	memcpy(resp, out + MLX5X_MAD_IFC_OUT_MAD_OFF, MAD_LEN);
	return st;
}

/* one SMP/PMA through MAD_IFC as mlx5_ib sends its own queries */
static uint16_t mad(struct te *x, uint8_t cls, uint8_t method, uint16_t attr,
		    uint32_t mod, const uint8_t *data, uint8_t *resp)
{
	uint8_t m[MAD_LEN];

	mad_hdr(m, cls, method, attr, mod);
	if (data)
		memcpy(m + SMP_DATA_OFF, data, SMP_DATA_LEN);
	if (mad_ifc_cmd(x, 3, 1, m, resp))
		return 0xffff;
	return get_be16(resp + MAD_STATUS_OFF);
}

static uint16_t smp_get(struct te *x, uint16_t attr, uint32_t mod,
			uint8_t *resp)
{
	return mad(x, MGMT_CLASS_SUBN_LID, MAD_METHOD_GET, attr, mod, NULL,
		   resp);
}

static uint16_t smp_set(struct te *x, uint16_t attr, uint32_t mod,
			const uint8_t *data, uint8_t *resp)
{
	return mad(x, MGMT_CLASS_SUBN_LID, MAD_METHOD_SET, attr, mod, data,
		   resp);
}

/* PORT_CHANGE sub types posted since the last call, in order */
static unsigned int port_events(struct te *x, uint8_t *sub, unsigned int max)
{
	unsigned int n = 0;
	uint8_t d[64];
	int t;

	while ((t = te_eqe(x, x->async_ring, &x->async_ci, d)) >= 0) {
		if (t != MLX5X_EVENT_PORT_CHANGE || n == max)
			continue;
		if (d[MLX5X_EQE_PORT_OFF] != 0x10)
			sub[n++] = 0xee;	/* port 1 in bits 7:4 */
		else
			sub[n++] = d[MLX5X_EQE_SUB_TYPE_OFF];
	}
	return n;
}

static unsigned int vport_ctx(struct te *x, uint8_t *ctx)
{
	uint8_t in[16] = { 0 }, out[MLX5X_QUERY_HCA_VPORT_CONTEXT_OUT_LEN];

	th_hdr(in, MLX5X_CMD_OP_QUERY_HCA_VPORT_CONTEXT, 0);
	PSET(in, MLX5X_HCA_VPORT_IN_PORT_NUM, 1);
	if (th_status(&x->t, in, sizeof(in), out, sizeof(out)))
		return 1;
	memcpy(ctx, out + MLX5X_HCA_VPORT_CONTEXT_OFF, MLX5X_HVC_LEN);
	return 0;
}

/* the SM's PortInfo Set: the current attribute with LID/SM LID/state */
static uint16_t pi_set(struct te *x, uint16_t lid, uint16_t sm_lid,
		       uint8_t state, bool rereg, uint8_t *resp)
{
	uint8_t r[MAD_LEN], d[SMP_DATA_LEN];

	if (smp_get(x, SMP_ATTR_PORT_INFO, 1, r))
		return 0xfffe;
	memcpy(d, r + SMP_DATA_OFF, SMP_DATA_LEN);
	put_be16(d + 16, lid);
	put_be16(d + 18, sm_lid);
	d[32] = (uint8_t)((d[32] & 0xf0) | state);
	d[33] = 0;				/* PortPhysicalState: no change */
	d[51] = (uint8_t)((rereg ? 0x80 : 0) | 18);
	return smp_set(x, SMP_ATTR_PORT_INFO, 1, d, resp);
}

static void activate(struct te *x, uint16_t lid, uint16_t sm_lid)
{
	uint8_t r[MAD_LEN], ev[8];

	if (pi_set(x, lid, sm_lid, 0, false, r) ||
	    pi_set(x, lid, sm_lid, MLX5X_PORT_STATE_ARMED, false, r) ||
	    pi_set(x, lid, sm_lid, MLX5X_PORT_STATE_ACTIVE, false, r))
		abort();
	port_events(x, ev, 8);
}

static uint32_t cap_of(struct te *x, uint32_t off, uint32_t mask)
{
	return cap_cur(&x->t.e, off, mask);
}

static void t_link_states(void)
{
	struct emu_opts o;
	struct th t;
	uint8_t ctx[MLX5X_HVC_LEN];
	struct te x;

	th_default_opts(&o);
	o.port_mode = EMU_PORT_SM;
	th_setup_opts(&t, &o);
	is_u(t.e.port.state, MLX5X_PORT_STATE_DOWN, "sm: DOWN before INIT_HCA");
	is_u(t.e.port.phys_state, MLX5X_PORT_PHYS_POLLING,
	     "sm: physical Polling before INIT_HCA");
	th_teardown(&t);

	fx_setup(&x, GUID_A, EMU_PORT_SM);
	ok(!vport_ctx(&x, ctx), "sm: QUERY_HCA_VPORT_CONTEXT");
	is_u(PGET(ctx, MLX5X_HVC_PORT_STATE), MLX5X_PORT_STATE_INIT,
	     "sm: INIT after INIT_HCA");
	is_u(PGET(ctx, MLX5X_HVC_PORT_PHYSICAL_STATE), MLX5X_PORT_PHYS_LINK_UP,
	     "sm: physical LinkUp after INIT_HCA");
	is_u(PGET(ctx, MLX5X_HVC_LID), 0, "sm: LID 0 until an SM assigns one");
	is_u(PGET(ctx, MLX5X_HVC_SM_LID), 0, "sm: no SM LID");
	is_u(cap_of(&x, MLX5X_CAP_IB_VIRT_OFF, MLX5X_CAP_IB_VIRT_MASK), 0,
	     "sm: ib_virt 0 (mlx5_ib uses MAD_IFC)");
	is_u(cap_of(&x, MLX5X_CAP_VPORT_COUNTERS_OFF,
		    MLX5X_CAP_VPORT_COUNTERS_MASK), 0,
	     "sm: vport_counters 0 (the firmware PMA answers)");
	ok(cap_of(&x, MLX5X_CAP_LOG_MAX_MCG_OFF, MLX5X_CAP_LOG_MAX_MCG_MASK) &&
	   cap_of(&x, MLX5X_CAP_MAX_QP_MCG_OFF, MLX5X_CAP_MAX_QP_MCG_MASK),
	   "sm: multicast groups offered");
	te_teardown(&x);

	fx_setup(&x, GUID_A, EMU_PORT_SELF);
	ok(!vport_ctx(&x, ctx) &&
	   PGET(ctx, MLX5X_HVC_PORT_STATE) == MLX5X_PORT_STATE_ACTIVE &&
	   PGET(ctx, MLX5X_HVC_LID) != 0 &&
	   cap_of(&x, MLX5X_CAP_IB_VIRT_OFF, MLX5X_CAP_IB_VIRT_MASK) == 1,
	   "default: ACTIVE with a LID, ib_virt 1 (unchanged)");
	te_teardown(&x);
}

static void t_sma_get(void)
{
	uint8_t r[MAD_LEN], m[MAD_LEN], *d = r + SMP_DATA_OFF;
	struct te x;

	fx_setup(&x, GUID_A, EMU_PORT_SM);
	is_u(smp_get(&x, SMP_ATTR_NODE_INFO, 0, r), 0, "NodeInfo: status 0");
	ok(r[MAD_METHOD_OFF] == MAD_METHOD_GET_RESP &&
	   get_be64(r + MAD_TID_OFF) == tid - 1 &&
	   get_be16(r + MAD_ATTR_ID_OFF) == SMP_ATTR_NODE_INFO,
	   "NodeInfo: GetResp with the request's TID and attribute");
	ok(d[0] == 1 && d[1] == 1 && d[2] == 1 && d[3] == 1,
	   "NodeInfo: versions 1, a CA with one port");
	ok(get_be64(d + 12) == GUID_A && get_be64(d + 20) == GUID_A &&
	   get_be64(d + 4) == GUID_A, "NodeInfo: node, port, system GUIDs");
	is_u(get_be16(d + 28), EMU_NUM_PKEYS, "NodeInfo: PartitionCap");
	is_u(get_be32(d + 36) & 0xffff, 0x02c9,
	     "NodeInfo: vendor id as mlx5_ib reads it");
	is_u(d[36], 1, "NodeInfo: LocalPortNum 1");

	is_u(smp_get(&x, SMP_ATTR_NODE_DESC, 0, r), 0, "NodeDescription");
	ok(!memcmp(d, x.t.e.port.node_desc, 64), "... the NODE_DESC register");

	is_u(smp_get(&x, SMP_ATTR_PORT_INFO, 1, r), 0, "PortInfo: status 0");
	ok(get_be16(d + 16) == 0 && (d[32] & 0xf) == MLX5X_PORT_STATE_INIT &&
	   d[33] >> 4 == MLX5X_PORT_PHYS_LINK_UP,
	   "PortInfo: LID 0, INIT, LinkUp");
	ok((d[41] & 0xf) == 5 && d[50] == EMU_NUM_GIDS && d[28] == 1 &&
	   d[31] == 2 && d[62] >> 4 == 2,
	   "PortInfo: MTUCap 4096, GUIDCap, port 1, 4X EDR");
	ok(get_be32(d + 20) & (1u << 25 | 1u << 14),
	   "PortInfo: client reregistration and extended speeds");
	ok(d[8] == 0xfe && d[9] == 0x80, "PortInfo: GID prefix fe80::");
	is_u(smp_get(&x, SMP_ATTR_PORT_INFO, 0, r), 0,
	     "PortInfo: modifier 0 (the receiving port)");
	is_u(smp_get(&x, SMP_ATTR_PORT_INFO, 2, r), MAD_STATUS_BAD_VALUE,
	     "PortInfo: port 2 is an invalid modifier");

	is_u(smp_get(&x, SMP_ATTR_GUID_INFO, 0, r), 0, "GUIDInfo block 0");
	is_u(get_be64(d), GUID_A, "... GUID 0 is the port GUID");
	is_u(smp_get(&x, SMP_ATTR_GUID_INFO, 1, r), MAD_STATUS_BAD_VALUE,
	     "GUIDInfo block 1: beyond GUIDCap");
	is_u(smp_get(&x, SMP_ATTR_PKEY_TABLE, 0, r), 0, "P_KeyTable block 0");
	ok(get_be16(d) == 0xffff && get_be16(d + 2) == 0,
	   "... index 0 the default P_Key");
	is_u(smp_get(&x, SMP_ATTR_PKEY_TABLE, 4, r), MAD_STATUS_BAD_VALUE,
	     "P_KeyTable block 4: beyond PartitionCap");
	is_u(smp_get(&x, SMP_ATTR_SM_INFO, 0, r), MAD_STATUS_BAD_ATTR,
	     "SMInfo: not the SMA's (no SM here)");
	is_u(smp_get(&x, 0x0019, 0, r), MAD_STATUS_BAD_ATTR,
	     "LinearForwardingTable: a switch attribute");
	is_u(smp_get(&x, SMP_ATTR_MLNX_EPI, 1, r), 0,
	     "Mellanox ExtendedPortInfo answered");
	is_u(smp_set(&x, SMP_ATTR_NODE_INFO, 0, NULL, r), MAD_STATUS_BAD_ATTR,
	     "NodeInfo Set: unsupported");
	is_u(mad(&x, MGMT_CLASS_SUBN_LID, 0x03, SMP_ATTR_NODE_INFO, 0, NULL,
		 r), MAD_STATUS_BAD_METHOD, "Send method: unsupported");
	is_u(mad(&x, MGMT_CLASS_SUBN_DR, MAD_METHOD_GET, SMP_ATTR_NODE_INFO,
		 0, NULL, r), 0, "directed route NodeInfo through MAD_IFC");
	ok(!(get_be16(r + MAD_STATUS_OFF) & MAD_STATUS_DR_D) &&
	   get_be16(r + SMP_DR_SLID_OFF) == LID_PERMISSIVE,
	   "... the D bit left to the driver, DR fields kept");
	mad_hdr(m, MGMT_CLASS_SUBN_LID, MAD_METHOD_GET, SMP_ATTR_NODE_INFO, 0);
	m[MAD_CLASS_VERSION_OFF] = 2;
	ok(!mad_ifc_cmd(&x, 3, 1, m, r) &&
	   get_be16(r + MAD_STATUS_OFF) == MAD_STATUS_BAD_VERSION,
	   "class version 2: bad version");
	mad_hdr(m, 0x21, MAD_METHOD_GET, 1, 0);
	ok(!mad_ifc_cmd(&x, 3, 1, m, r) &&
	   get_be16(r + MAD_STATUS_OFF) == MAD_STATUS_BAD_VERSION,
	   "a class the firmware has no agent for");
	mad_hdr(m, MGMT_CLASS_SUBN_LID, MAD_METHOD_TRAP_REPRESS,
		SMP_ATTR_NOTICE, 0);
	memset(r, 0x55, sizeof(r));
	ok(!mad_ifc_cmd(&x, 3, 1, m, r) && !r[MAD_METHOD_OFF],
	   "TrapRepress: no response");
	mad_hdr(m, MGMT_CLASS_SUBN_LID, MAD_METHOD_GET, SMP_ATTR_NODE_INFO, 0);
	is_u(mad_ifc_cmd(&x, 3, 2, m, r), MLX5X_CMD_STAT_BAD_PARAM,
	     "MAD_IFC port 2: bad parameter");
	is_u(mad_ifc_cmd(&x, 4, 1, m, r), MLX5X_CMD_STAT_BAD_PARAM,
	     "MAD_IFC op_mod 4: bad parameter");
	te_teardown(&x);
}

static void t_sma_set(void)
{
	uint8_t r[MAD_LEN], ctx[MLX5X_HVC_LEN], ev[16], d[SMP_DATA_LEN];
	uint8_t in[16] = { 0 }, out[0x20];
	unsigned int n;
	struct te x;

	fx_setup(&x, GUID_A, EMU_PORT_SM);
	is_u(pi_set(&x, 0x12, 0x1, 0, true, r), 0,
	     "PortInfo Set: LID 0x12, SM LID 1, client reregister");
	ok(get_be16(r + SMP_DATA_OFF + 16) == 0x12 &&
	   !(r[SMP_DATA_OFF + 51] & 0x80),
	   "... SetResp: the new attribute, ClientReregister reads 0");
	n = port_events(&x, ev, 16);
	ok(n == 2 && ev[0] == MLX5X_PORT_CHANGE_LID &&
	   ev[1] == MLX5X_PORT_CHANGE_CLIENT_REREG,
	   "... events LID and CLIENT_REREG on port 1 (%u events)", n);
	ok(!vport_ctx(&x, ctx) && PGET(ctx, MLX5X_HVC_LID) == 0x12 &&
	   PGET(ctx, MLX5X_HVC_SM_LID) == 1 &&
	   PGET(ctx, MLX5X_HVC_PORT_STATE) == MLX5X_PORT_STATE_INIT,
	   "... the vport context reports the same port");
	is_u(pi_set(&x, 0x12, 0x1, MLX5X_PORT_STATE_ACTIVE, false, r),
	     MAD_STATUS_BAD_VALUE, "INIT -> ACTIVE: invalid");
	ok((r[SMP_DATA_OFF + 32] & 0xf) == MLX5X_PORT_STATE_INIT,
	   "... the port stays INIT");
	is_u(pi_set(&x, 0x12, 0x1, MLX5X_PORT_STATE_ARMED, false, r), 0,
	     "INIT -> ARMED");
	is_u(port_events(&x, ev, 16), 0, "... no event for ARMED");
	is_u(pi_set(&x, 0x12, 0x1, MLX5X_PORT_STATE_ACTIVE, false, r), 0,
	     "ARMED -> ACTIVE");
	ok(port_events(&x, ev, 16) == 1 && ev[0] == MLX5X_PORT_CHANGE_ACTIVE,
	   "... event ACTIVE");
	ok(!vport_ctx(&x, ctx) &&
	   PGET(ctx, MLX5X_HVC_PORT_STATE) == MLX5X_PORT_STATE_ACTIVE,
	   "... vport context ACTIVE");
	is_u(pi_set(&x, 0x12, 0x1, 0, false, r), 0, "a Set changing nothing");
	is_u(port_events(&x, ev, 16), 0, "... raises no event");
	/* a bad NeighborMTU: nothing of the Set applies */
	smp_get(&x, SMP_ATTR_PORT_INFO, 1, r);
	memcpy(d, r + SMP_DATA_OFF, SMP_DATA_LEN);
	put_be16(d + 16, 0x77);
	d[36] = (uint8_t)(6 << 4);
	is_u(smp_set(&x, SMP_ATTR_PORT_INFO, 1, d, r), MAD_STATUS_BAD_VALUE,
	     "NeighborMTU 6: invalid value");
	is_u(get_be16(r + SMP_DATA_OFF + 16), 0x12, "... LID not changed");
	d[36] = (uint8_t)(3 << 4);
	put_be16(d + 16, 0x12);
	is_u(smp_set(&x, SMP_ATTR_PORT_INFO, 1, d, r), 0, "NeighborMTU 1024");
	{
		uint8_t reg[MLX5X_ACCESS_REG_HDR_LEN + MLX5X_REG_PMTU_LEN] = { 0 };
		uint8_t ro[MLX5X_ACCESS_REG_HDR_LEN + MLX5X_REG_PMTU_LEN];

		th_hdr(reg, MLX5X_CMD_OP_ACCESS_REG, MLX5X_ACCESS_REG_READ);
		PSET(reg, MLX5X_ACCESS_REG_IN_REGISTER_ID, MLX5X_REG_PMTU);
		PSET(reg + MLX5X_ACCESS_REG_DATA_OFF, MLX5X_PMTU_LOCAL_PORT, 1);
		ok(!th_status(&x.t, reg, sizeof(reg), ro, sizeof(ro)) &&
		   PGET(ro + MLX5X_ACCESS_REG_DATA_OFF, MLX5X_PMTU_OPER_MTU) ==
		   1024, "... PMTU oper_mtu follows (1024)");
	}
	put_be16(d + 16, 0xc001);
	is_u(smp_set(&x, SMP_ATTR_PORT_INFO, 1, d, r), MAD_STATUS_BAD_VALUE,
	     "a multicast LID: invalid");
	is_u(pi_set(&x, 0x12, 0x1, MLX5X_PORT_STATE_DOWN, false, r), 0,
	     "Set DOWN: the link restarts");
	n = port_events(&x, ev, 16);
	ok(n == 2 && ev[0] == MLX5X_PORT_CHANGE_DOWN &&
	   ev[1] == MLX5X_PORT_CHANGE_INITIALIZED,
	   "... events DOWN, INITIALIZED (%u)", n);
	is_u(x.t.e.port.state, MLX5X_PORT_STATE_INIT, "... back in INIT");
	smp_get(&x, SMP_ATTR_PORT_INFO, 1, r);
	memcpy(d, r + SMP_DATA_OFF, SMP_DATA_LEN);
	d[32] &= 0xf0;				/* PortState: no change */
	d[33] = MLX5X_PORT_PHYS_DISABLED << 4;
	ok(!smp_set(&x, SMP_ATTR_PORT_INFO, 1, d, r) &&
	   r[SMP_DATA_OFF + 33] >> 4 == MLX5X_PORT_PHYS_DISABLED &&
	   (r[SMP_DATA_OFF + 32] & 0xf) == MLX5X_PORT_STATE_DOWN,
	   "PortPhysicalState Disabled: link down, port DOWN");
	ok(port_events(&x, ev, 16) == 1 && ev[0] == MLX5X_PORT_CHANGE_DOWN,
	   "... event DOWN");
	d[33] = MLX5X_PORT_PHYS_POLLING << 4;
	ok(!smp_set(&x, SMP_ATTR_PORT_INFO, 1, d, r) &&
	   r[SMP_DATA_OFF + 33] >> 4 == MLX5X_PORT_PHYS_LINK_UP &&
	   (r[SMP_DATA_OFF + 32] & 0xf) == MLX5X_PORT_STATE_INIT,
	   "PortPhysicalState Polling: the link retrains, INIT");
	ok(port_events(&x, ev, 16) == 1 &&
	   ev[0] == MLX5X_PORT_CHANGE_INITIALIZED, "... event INITIALIZED");
	d[33] = MLX5X_PORT_PHYS_LINK_UP << 4;
	ok(!smp_set(&x, SMP_ATTR_PORT_INFO, 1, d, r) &&
	   !port_events(&x, ev, 16), "PortPhysicalState LinkUp: no change");
	d[33] = 0;
	d[63] = 0x1e;
	ok(!smp_set(&x, SMP_ATTR_PORT_INFO, 1, d, r) &&
	   !(r[SMP_DATA_OFF + 63] & 0x1f),
	   "LinkSpeedExtEnabled 30: extended speeds disabled");
	d[63] = 0x1f;
	ok(!smp_set(&x, SMP_ATTR_PORT_INFO, 1, d, r) &&
	   (r[SMP_DATA_OFF + 63] & 0x1f) == 3,
	   "... 31: set to supported (FDR, EDR)");

	/* P_KeyTable, GUIDInfo, SL2VL, VLArbitration */
	memset(d, 0, sizeof(d));
	put_be16(d, 0xffff);
	put_be16(d + 2, 0x8001);
	is_u(smp_set(&x, SMP_ATTR_PKEY_TABLE, 0, d, r), 0, "P_KeyTable Set");
	ok(port_events(&x, ev, 16) == 1 && ev[0] == MLX5X_PORT_CHANGE_PKEY,
	   "... event PKEY");
	th_hdr(in, MLX5X_CMD_OP_QUERY_HCA_VPORT_PKEY, 0);
	PSET(in, MLX5X_HCA_VPORT_IN_INDEX, 1);
	ok(!th_status(&x.t, in, sizeof(in), out, sizeof(out)) &&
	   get_be16(out + 0x12) == 0x8001,
	   "... QUERY_HCA_VPORT_PKEY index 1 reads it");
	is_u(smp_set(&x, SMP_ATTR_PKEY_TABLE, 0, d, r), 0, "the same again");
	is_u(port_events(&x, ev, 16), 0, "... no event");
	memset(d, 0, sizeof(d));
	put_be64(d, 0x1111);			/* GUID 0: read-only */
	put_be64(d + 8, 0x0002c903000a11a5ull);
	is_u(smp_set(&x, SMP_ATTR_GUID_INFO, 0, d, r), 0, "GUIDInfo Set");
	ok(get_be64(r + SMP_DATA_OFF) == GUID_A &&
	   get_be64(r + SMP_DATA_OFF + 8) == 0x0002c903000a11a5ull,
	   "... alias GUID 1 set, GUID 0 kept");
	ok(port_events(&x, ev, 16) == 1 && ev[0] == MLX5X_PORT_CHANGE_GUID,
	   "... event GUID");
	memset(d, 0, sizeof(d));
	d[0] = 0x01;
	d[7] = 0x23;
	ok(!smp_set(&x, SMP_ATTR_SL2VL, 0, d, r) &&
	   !smp_get(&x, SMP_ATTR_SL2VL, 0, r) && r[SMP_DATA_OFF] == 0x01 &&
	   r[SMP_DATA_OFF + 7] == 0x23, "SLtoVLMappingTable Set and Get");
	d[0] = 0x02;
	d[1] = 0x40;
	ok(!smp_set(&x, SMP_ATTR_VL_ARB, 3u << 16, d, r) &&
	   !smp_get(&x, SMP_ATTR_VL_ARB, 3u << 16, r) &&
	   r[SMP_DATA_OFF] == 0x02 && r[SMP_DATA_OFF + 1] == 0x40 &&
	   !smp_get(&x, SMP_ATTR_VL_ARB, 1u << 16, r) && !r[SMP_DATA_OFF],
	   "VLArbitrationTable block 3 Set and Get, block 1 apart");
	is_u(smp_get(&x, SMP_ATTR_VL_ARB, 0, r), MAD_STATUS_BAD_VALUE,
	     "VLArbitrationTable block 0: invalid");
	te_teardown(&x);
}

static void t_pcap(void)
{
	uint8_t reg[MLX5X_ACCESS_REG_HDR_LEN + MLX5X_REG_PCAP_LEN] = { 0 };
	uint8_t ro[sizeof(reg)], r[MAD_LEN];
	uint8_t *rd = reg + MLX5X_ACCESS_REG_DATA_OFF;
	uint32_t before;
	struct te x;

	fx_setup(&x, GUID_A, EMU_PORT_SM);
	smp_get(&x, SMP_ATTR_PORT_INFO, 1, r);
	before = get_be32(r + SMP_DATA_OFF + 20);
	/* what mlx5_set_port_caps writes: the queried mask | IsSM | CM */
	th_hdr(reg, MLX5X_CMD_OP_ACCESS_REG, MLX5X_ACCESS_REG_WRITE);
	PSET(reg, MLX5X_ACCESS_REG_IN_REGISTER_ID, MLX5X_REG_PCAP);
	PSET(rd, MLX5X_PCAP_LOCAL_PORT, 1);
	PSET(rd, MLX5X_PCAP_CAP_MASK0, (before | 1u << 1 | 1u << 16) &
	     ~(1u << 3));
	is_u(th_status(&x.t, reg, sizeof(reg), ro, sizeof(ro)), 0,
	     "PCAP write");
	smp_get(&x, SMP_ATTR_PORT_INFO, 1, r);
	is_u(get_be32(r + SMP_DATA_OFF + 20), before | 1u << 1 | 1u << 16,
	     "... IsSM and CM set, firmware bits (IsTrap) kept");
	PSET(rd, MLX5X_PCAP_LOCAL_PORT, 2);
	is_u(th_status(&x.t, reg, sizeof(reg), ro, sizeof(ro)),
	     MLX5X_CMD_STAT_BAD_PARAM, "PCAP port 2: bad parameter");
	te_teardown(&x);
}

/* ---- on the wire ---- */

struct fnode {
	struct te x;
	struct tcq cq;
	struct tmr mr;
};

static void fx_link(struct fnode *a, struct fnode *b, struct wire *w)
{
	fx_setup(&a->x, GUID_A, EMU_PORT_SM);
	fx_setup(&b->x, GUID_B, EMU_PORT_SM);
	b->x.now = a->x.now;
	wire_init_link(w, &a->x.t.e, &b->x.t.e);
	a->x.t.e.eng.wire = w;
	b->x.t.e.eng.wire = w;
	te_cq(&a->x, &a->cq, 6);
	te_cq(&b->x, &b->cq, 6);
	a->mr = te_mr(&a->x, 65536, TMR_ALL);
	b->mr = te_mr(&b->x, 65536, TMR_ALL);
}

static void fx_run(struct fnode *a, struct fnode *b)
{
	unsigned int i;

	for (i = 0; i < 3; i++) {
		te_run(&a->x);
		te_run(&b->x);
	}
}

static void fx_qp(struct fnode *n, struct tqp *qp, uint8_t st)
{
	te_qp_type(&n->x, qp, st, &n->cq, &n->cq, 4, 4, 0);
	if (te_connect(&n->x, qp, NULL, true))
		abort();
}

/* a receive of 40 + 256 bytes at offset off of the node's MR */
static void fx_recv(struct fnode *n, struct tqp *qp, uint32_t off)
{
	struct tsge s = te_sge(&n->mr, off, MLX5X_GRH_LEN + MAD_LEN);

	te_recv(&n->x, qp, &s, 1);
}

static void fx_send_mad(struct fnode *n, struct tqp *qp, const uint8_t *m,
			uint16_t dlid, uint32_t dqpn, uint32_t qkey)
{
	struct tsge s = te_sge(&n->mr, 32768, MAD_LEN);

	memcpy(n->mr.host + 32768, m, MAD_LEN);
	te_send(&n->x, qp, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND,
		.flags = TE_SIGNALED, .sg = &s, .nsge = 1, .dlid = dlid,
		.dqpn = dqpn, .qkey = qkey });
}

/* the next receive completion of the node's CQ (send CQEs skipped) */
static bool fx_rcqe(struct fnode *n, struct tcqe *e)
{
	while (te_poll(&n->x, &n->cq, e))
		if (e->opcode != MLX5X_CQE_REQ)
			return true;
	return false;
}

/* opensm's hop-1 NodeInfo: as ib_mad sends it (hop_ptr advanced) */
static void dr_hop1(uint8_t *m, uint16_t attr, uint32_t mod)
{
	mad_hdr(m, MGMT_CLASS_SUBN_DR, MAD_METHOD_GET, attr, mod);
	m[MAD_HOP_CNT_OFF] = 1;
	m[MAD_HOP_PTR_OFF] = 1;
	m[SMP_INITIAL_PATH_OFF + 1] = 1;
}

static void t_wire_sma(void)
{
	struct fnode a, b;
	struct tqp a0, b0, a1;
	struct tcqe e;
	struct wire w;
	uint8_t m[MAD_LEN], *r;

	fx_link(&a, &b, &w);
	fx_qp(&a, &a0, MLX5X_QP_ST_QP0);
	fx_recv(&a, &a0, 0);
	dr_hop1(m, SMP_ATTR_NODE_INFO, 0);
	fx_send_mad(&a, &a0, m, LID_PERMISSIVE, 0, 0);
	fx_run(&a, &b);
	r = a.mr.host + MLX5X_GRH_LEN;
	ok(fx_rcqe(&a, &e) && e.opcode == MLX5X_CQE_RESP_SEND &&
	   e.byte_cnt == MLX5X_GRH_LEN + MAD_LEN && e.rqpn == 0 &&
	   e.slid == LID_PERMISSIVE,
	   "DR SMP over the link (ports INIT, LID 0): answered from QP0, "
	   "permissive SLID");
	ok(r[MAD_METHOD_OFF] == MAD_METHOD_GET_RESP &&
	   get_be16(r + MAD_STATUS_OFF) == MAD_STATUS_DR_D &&
	   get_be64(r + MAD_TID_OFF) == get_be64(m + MAD_TID_OFF),
	   "... GetResp, D bit, status 0, the TID");
	ok(r[MAD_HOP_PTR_OFF] == 1 && r[MAD_HOP_CNT_OFF] == 1 &&
	   r[SMP_RETURN_PATH_OFF + 1] == 1,
	   "... hop pointer at the hop count, ReturnPath[1] = port 1");
	is_u(get_be64(r + SMP_DATA_OFF + 12), GUID_B,
	     "... the neighbour's firmware SMA: its node GUID");
	is_u(b.x.t.e.port.cnt.rcv.pkts, 1, "... B counted one packet in");

	/* hop_ptr 0 with hop_cnt 1: the sender did not advance it */
	dr_hop1(m, SMP_ATTR_NODE_INFO, 0);
	m[MAD_HOP_PTR_OFF] = 0;
	fx_recv(&a, &a0, 0);
	fx_send_mad(&a, &a0, m, LID_PERMISSIVE, 0, 0);
	fx_run(&a, &b);
	ok(!fx_rcqe(&a, &e) && b.x.t.e.port.cnt.vl15_dropped == 1,
	   "DR SMP with hop pointer 0 on the wire: dropped (C14-9:1)");

	/* once B's driver has QP0, SMPs are for it */
	fx_qp(&b, &b0, MLX5X_QP_ST_QP0);
	fx_recv(&b, &b0, 0);
	dr_hop1(m, SMP_ATTR_PORT_INFO, 1);
	fx_send_mad(&a, &a0, m, LID_PERMISSIVE, 0, 0);
	fx_run(&a, &b);
	ok(fx_rcqe(&b, &e) && e.rqpn == 0 && e.slid == LID_PERMISSIVE &&
	   !memcmp(b.mr.host + MLX5X_GRH_LEN, m, MAD_LEN),
	   "with B's QP0 open the SMP reaches B's driver untouched");
	ok(!fx_rcqe(&a, &e), "... and the firmware did not answer");

	/* ports not ACTIVE: only QP0 moves */
	fx_qp(&a, &a1, MLX5X_QP_ST_QP1);
	mad_hdr(m, MGMT_CLASS_PERF, MAD_METHOD_GET, PMA_ATTR_PORT_COUNTERS, 0);
	fx_send_mad(&a, &a1, m, 0x22, 1, MLX5X_GSI_QKEY);
	fx_run(&a, &b);
	ok(a.x.t.e.port.cnt.xmit_discards == 1 && !fx_rcqe(&a, &e),
	   "port INIT: a GMP from QP1 is discarded, counted");

	/* the SM disables B's link: nothing reaches it */
	{
		uint8_t d[SMP_DATA_LEN], rr[MAD_LEN];

		smp_get(&b.x, SMP_ATTR_PORT_INFO, 1, rr);
		memcpy(d, rr + SMP_DATA_OFF, SMP_DATA_LEN);
		d[32] &= 0xf0;		/* PortState: no change */
		d[33] = MLX5X_PORT_PHYS_DISABLED << 4;
		is_u(smp_set(&b.x, SMP_ATTR_PORT_INFO, 1, d, rr), 0,
		     "B's link disabled");
		fx_recv(&a, &a0, 0);
		dr_hop1(m, SMP_ATTR_NODE_INFO, 0);
		fx_send_mad(&a, &a0, m, LID_PERMISSIVE, 0, 0);
		fx_run(&a, &b);
		ok(!fx_rcqe(&a, &e) && !fx_rcqe(&b, &e),
		   "... a DR SMP to it gets no answer");
		d[33] = MLX5X_PORT_PHYS_POLLING << 4;
		is_u(smp_set(&b.x, SMP_ATTR_PORT_INFO, 1, d, rr), 0,
		     "B's link enabled again (Polling)");
	}
	/* TEARDOWN_HCA on B: the port stays, its firmware answers again */
	{
		uint8_t in[16] = { 0 }, out[16];

		th_hdr(in, MLX5X_CMD_OP_TEARDOWN_HCA, 0);
		PSET(in, MLX5X_TEARDOWN_HCA_IN_PROFILE, MLX5X_TEARDOWN_GRACEFUL);
		is_u(th_status(&b.x.t, in, 16, out, 16), 0, "TEARDOWN_HCA on B");
	}
	ok(b.x.t.e.port.state == MLX5X_PORT_STATE_INIT &&
	   b.x.t.e.port.phys_state == MLX5X_PORT_PHYS_LINK_UP,
	   "... B's port stays up (INIT, LinkUp)");
	dr_hop1(m, SMP_ATTR_NODE_INFO, 0);
	fx_send_mad(&a, &a0, m, LID_PERMISSIVE, 0, 0);
	fx_run(&a, &b);
	ok(fx_rcqe(&a, &e) && get_be64(a.mr.host + MLX5X_GRH_LEN +
				       SMP_DATA_OFF + 12) == GUID_B,
	   "... and B's firmware SMA answers without a driver");
	te_teardown(&a.x);
	te_teardown(&b.x);
}

/*
 * What opensm on A does to B's port when B has no driver: directed-route
 * Sets over the link (LID and SM LID, then ARMED, then ACTIVE), then a
 * LID-routed Get once both ends have LIDs.
 */
static void t_wire_sweep(void)
{
	struct fnode a, b;
	struct tqp a0;
	struct tcqe e;
	struct wire w;
	uint8_t m[MAD_LEN], r[MAD_LEN], d[SMP_DATA_LEN], ev[8], *rm;
	static const uint8_t states[] = { 0, MLX5X_PORT_STATE_ARMED,
					  MLX5X_PORT_STATE_ACTIVE };
	unsigned int i, good = 0;

	fx_link(&a, &b, &w);
	activate(&a.x, 0x11, 0x11);	/* the SM's own port, by MAD_IFC */
	fx_qp(&a, &a0, MLX5X_QP_ST_QP0);
	rm = a.mr.host + MLX5X_GRH_LEN;
	smp_get(&b.x, SMP_ATTR_PORT_INFO, 1, r);
	port_events(&b.x, ev, 8);
	memcpy(d, r + SMP_DATA_OFF, SMP_DATA_LEN);
	put_be16(d + 16, 0x22);
	put_be16(d + 18, 0x11);
	d[33] = 0;
	for (i = 0; i < ARRAY_SIZE(states); i++) {
		d[32] = (uint8_t)((d[32] & 0xf0) | states[i]);
		dr_hop1(m, SMP_ATTR_PORT_INFO, 1);
		m[MAD_METHOD_OFF] = MAD_METHOD_SET;
		memcpy(m + SMP_DATA_OFF, d, SMP_DATA_LEN);
		fx_recv(&a, &a0, 0);
		fx_send_mad(&a, &a0, m, LID_PERMISSIVE, 0, 0);
		fx_run(&a, &b);
		if (fx_rcqe(&a, &e) &&
		    get_be16(rm + MAD_STATUS_OFF) == MAD_STATUS_DR_D &&
		    get_be16(rm + SMP_DATA_OFF + 16) == 0x22 &&
		    (rm[SMP_DATA_OFF + 32] & 0xf) ==
		    (states[i] ? states[i] : MLX5X_PORT_STATE_INIT))
			good++;
	}
	is_u(good, 3, "directed-route PortInfo Sets over the link: LID, "
	     "ARMED, ACTIVE, each SetResp with the new port");
	ok(port_events(&b.x, ev, 8) == 2 && ev[0] == MLX5X_PORT_CHANGE_LID &&
	   ev[1] == MLX5X_PORT_CHANGE_ACTIVE,
	   "... B's firmware raised LID, then ACTIVE");
	ok(b.x.t.e.port.state == MLX5X_PORT_STATE_ACTIVE &&
	   b.x.t.e.port.lid == 0x22 && b.x.t.e.port.sm_lid == 0x11,
	   "... B is ACTIVE, LID 0x22, SM LID 0x11");
	mad_hdr(m, MGMT_CLASS_SUBN_LID, MAD_METHOD_GET, SMP_ATTR_NODE_DESC, 0);
	fx_recv(&a, &a0, 0);
	fx_send_mad(&a, &a0, m, 0x22, 0, 0);
	fx_run(&a, &b);
	ok(fx_rcqe(&a, &e) && e.slid == 0x22 &&
	   !get_be16(rm + MAD_STATUS_OFF) &&
	   !memcmp(rm + SMP_DATA_OFF, b.x.t.e.port.node_desc, 64),
	   "LID-routed NodeDescription Get A -> LID 0x22: B's description");
	te_teardown(&a.x);
	te_teardown(&b.x);
}

static void t_wire_pma(void)
{
	struct fnode a, b;
	struct tqp a1, au, bu;
	uint8_t m[MAD_LEN], *r, *d;
	uint64_t xmit;
	struct tcqe e;
	struct wire w;
	struct tsge s;
	unsigned int i;

	fx_link(&a, &b, &w);
	activate(&a.x, 0x11, 0x11);
	activate(&b.x, 0x22, 0x11);
	/* some traffic first: 3 UD datagrams of 100 bytes A -> B */
	te_qp_type(&a.x, &au, MLX5X_QP_ST_UD, &a.cq, &a.cq, 4, 4, 0);
	te_qp_type(&b.x, &bu, MLX5X_QP_ST_UD, &b.cq, &b.cq, 4, 4, 0);
	te_connect(&a.x, &au, NULL, true);
	te_connect(&b.x, &bu, NULL, true);
	for (i = 0; i < 3; i++) {
		s = te_sge(&b.mr, 4096 * i, 4096);
		te_recv(&b.x, &bu, &s, 1);
		s = te_sge(&a.mr, 0, 100);
		te_send(&a.x, &au, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND,
			.flags = TE_SIGNALED, .sg = &s, .nsge = 1,
			.dlid = 0x22, .dqpn = bu.qpn, .qkey = 0x1111 });
	}
	fx_run(&a, &b);
	for (i = 0; fx_rcqe(&b, &e); i++)
		;
	is_u(i, 3, "3 datagrams between ACTIVE ports");
	ok(b.x.t.e.port.cnt.rcv.pkts == 3 && a.x.t.e.port.cnt.xmit.pkts == 3,
	   "... counted at both ends");
	/* the QP1 CQE carries the P_Key; PMA of B by LID, B has no QP1 */
	fx_qp(&a, &a1, MLX5X_QP_ST_QP1);
	fx_recv(&a, &a1, 0);
	mad_hdr(m, MGMT_CLASS_PERF, MAD_METHOD_GET, PMA_ATTR_PORT_COUNTERS, 0);
	m[PMA_DATA_OFF + 1] = 1;
	fx_send_mad(&a, &a1, m, 0x22, 1, MLX5X_GSI_QKEY);
	fx_run(&a, &b);
	r = a.mr.host + MLX5X_GRH_LEN;
	d = r + PMA_DATA_OFF;
	ok(fx_rcqe(&a, &e) && e.rqpn == 1 && e.slid == 0x22 &&
	   get_be32(e.imm) == 0xffff,
	   "PMA over the wire: B's firmware answers from QP1, LID 0x22, "
	   "P_Key 0xffff in the QP1 CQE");
	ok(r[MAD_METHOD_OFF] == MAD_METHOD_GET_RESP &&
	   !get_be16(r + MAD_STATUS_OFF) && d[1] == 1,
	   "... PortCounters GetResp, status 0, PortSelect 1");
	is_u(get_be32(d + 36), 4, "... PortRcvPkts 4 (3 datagrams + this)");
	is_u(get_be32(d + 28), (3 * (100 + 34) + MAD_LEN + 34) / 4,
	     "... PortRcvData in 4-octet words (payload + headers)");

	/* through MAD_IFC: ClassPortInfo, extended, reset */
	xmit = a.x.t.e.port.cnt.xmit.pkts;
	ok(!mad(&a.x, MGMT_CLASS_PERF, MAD_METHOD_GET,
		PMA_ATTR_CLASS_PORT_INFO, 0, NULL, m) &&
	   get_be16(m + PMA_DATA_OFF + 2) == (1u << 9 | 1u << 12),
	   "PMA ClassPortInfo: extended counters, XmitWait");
	ok(!mad(&a.x, MGMT_CLASS_PERF, MAD_METHOD_GET,
		PMA_ATTR_PORT_COUNTERS_EXT, 0, NULL, m) &&
	   get_be64(m + PMA_DATA_OFF + 24) == xmit &&
	   get_be64(m + PMA_DATA_OFF + 40) == xmit &&
	   !get_be64(m + PMA_DATA_OFF + 56),
	   "PortCountersExtended: %llu packets out, all unicast",
	   (unsigned long long)xmit);
	memset(m, 0, sizeof(m));
	put_be16(m + 2, 1u << 14);		/* PortXmitPkts */
	ok(!mad(&a.x, MGMT_CLASS_PERF, MAD_METHOD_SET,
		PMA_ATTR_PORT_COUNTERS, 0, m, r) &&
	   !get_be32(r + PMA_DATA_OFF + 32) && get_be32(r + PMA_DATA_OFF + 24),
	   "PortCounters Set: PortXmitPkts reset, PortXmitData kept");
	ok(mad(&a.x, MGMT_CLASS_PERF, MAD_METHOD_GET, 0x0013, 0, NULL, m) ==
	   MAD_STATUS_BAD_ATTR, "PortRcvErrorDetails: unsupported");
	{
		size_t len = 0;
		char *buf = NULL;
		FILE *fp = open_memstream(&buf, &len);

		emu_report(&b.x.t.e, fp);
		fclose(fp);
		ok(strstr(buf, "port_mode=sm\nport_state=4\n") &&
		   strstr(buf, "port_lid=0x22\nport_sm_lid=0x11\n") &&
		   strstr(buf, "port_rcv_pkts=4\n"),
		   "exit report: mode, state, LIDs, packets");
		free(buf);
	}
	te_teardown(&a.x);
	te_teardown(&b.x);
}

/*
 * An ARMED port that receives a non-SMP packet becomes ACTIVE; a port
 * answers to its whole LID range (LMC); LID 0 is nobody's.
 */
static void t_armed_lmc(void)
{
	struct fnode a, b;
	struct tqp au, bu;
	uint8_t r[MAD_LEN], d[SMP_DATA_LEN], ev[8];
	struct tcqe e;
	struct wire w;
	struct tsge s;
	unsigned int i;

	fx_link(&a, &b, &w);
	activate(&a.x, 0x11, 0x11);
	pi_set(&b.x, 0x20, 0x11, 0, false, r);
	pi_set(&b.x, 0x20, 0x11, MLX5X_PORT_STATE_ARMED, false, r);
	port_events(&b.x, ev, 8);
	/* LMC 2: B answers to 0x20..0x23 */
	smp_get(&b.x, SMP_ATTR_PORT_INFO, 1, r);
	memcpy(d, r + SMP_DATA_OFF, SMP_DATA_LEN);
	d[34] = 2;
	is_u(smp_set(&b.x, SMP_ATTR_PORT_INFO, 1, d, r), 0, "LMC 2 on B");
	ok(port_events(&b.x, ev, 8) == 1 && ev[0] == MLX5X_PORT_CHANGE_LID,
	   "... an LMC change is a LID event");
	te_qp_type(&a.x, &au, MLX5X_QP_ST_UD, &a.cq, &a.cq, 4, 4, 0);
	te_qp_type(&b.x, &bu, MLX5X_QP_ST_UD, &b.cq, &b.cq, 4, 4, 0);
	te_connect(&a.x, &au, NULL, true);
	te_connect(&b.x, &bu, NULL, true);
	for (i = 0; i < 4; i++) {
		s = te_sge(&b.mr, 4096 * i, 4096);
		te_recv(&b.x, &bu, &s, 1);
	}
	s = te_sge(&a.mr, 0, 64);
	te_send(&a.x, &au, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND,
		.flags = TE_SIGNALED, .sg = &s, .nsge = 1, .dlid = 0x23,
		.dqpn = bu.qpn, .qkey = 0x1111 });
	fx_run(&a, &b);
	ok(fx_rcqe(&b, &e) && e.slid == 0x11,
	   "a datagram to LID 0x23 (base 0x20, LMC 2) reaches B");
	is_u(b.x.t.e.port.state, MLX5X_PORT_STATE_ACTIVE,
	     "... and moved B from ARMED to ACTIVE");
	ok(port_events(&b.x, ev, 8) == 1 && ev[0] == MLX5X_PORT_CHANGE_ACTIVE,
	   "... with the ACTIVE event");
	te_send(&a.x, &au, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND,
		.flags = TE_SIGNALED, .sg = &s, .nsge = 1, .dlid = 0x24,
		.dqpn = bu.qpn, .qkey = 0x1111 });
	te_send(&a.x, &au, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND,
		.flags = TE_SIGNALED, .sg = &s, .nsge = 1, .dlid = 0,
		.dqpn = bu.qpn, .qkey = 0x1111 });
	fx_run(&a, &b);
	ok(!fx_rcqe(&b, &e) && w.dropped == 2,
	   "LID 0x24 (outside the range) and LID 0: nobody's");
	/* P_Key: B's UD QP on a limited-member P_Key of another partition */
	memset(d, 0, sizeof(d));
	put_be16(d, 0xffff);
	put_be16(d + 2, 0x0005);
	smp_set(&b.x, SMP_ATTR_PKEY_TABLE, 0, d, r);
	{
		uint8_t qpc[MLX5X_QPC_LEN] = { 0 };

		is_u(te_modify(&b.x, &bu, MLX5X_CMD_OP_2RST_QP, NULL, 0), 0,
		     "B's UD QP back to RESET");
		PSET(qpc + MLX5X_QPC_PRI_PATH_OFF, MLX5X_ADS_PKEY_INDEX, 1);
		PSET(qpc, MLX5X_QPC_Q_KEY, 0x1111);
		PSET(qpc + MLX5X_QPC_PRI_PATH_OFF, MLX5X_ADS_VHCA_PORT_NUM, 1);
		ok(!te_modify(&b.x, &bu, MLX5X_CMD_OP_RST2INIT_QP, qpc, 0),
		   "... and to INIT on P_Key index 1 (0x0005)");
		/* a UD QP's RTR carries mtu and log_msg_max, as mlx5_ib's */
		memset(qpc, 0, sizeof(qpc));
		PSET(qpc, MLX5X_QPC_MTU, MLX5X_QPC_MTU_4K);
		PSET(qpc, MLX5X_QPC_LOG_MSG_MAX, 12);
		ok(!te_modify(&b.x, &bu, MLX5X_CMD_OP_INIT2RTR_QP, qpc, 0),
		   "... and to RTR");
		bu.rq_pi = 0;	/* a reset QP starts its queues anew */
	}
	s = te_sge(&b.mr, 0, 4096);
	te_recv(&b.x, &bu, &s, 1);
	s = te_sge(&a.mr, 0, 64);
	te_send(&a.x, &au, &(struct tsend){ .opcode = MLX5X_OPCODE_SEND,
		.flags = TE_SIGNALED, .sg = &s, .nsge = 1, .dlid = 0x20,
		.dqpn = bu.qpn, .qkey = 0x1111 });
	fx_run(&a, &b);
	ok(!fx_rcqe(&b, &e) && b.x.t.e.port.pkey_viol == 1,
	   "P_Key 0xffff against 0x0005: dropped, a P_Key violation");
	te_teardown(&a.x);
	te_teardown(&b.x);
}

/* the IPoIB broadcast MGID of the default partition */
static const uint8_t mgid[16] = {
	0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0,
	0xff, 0xff, 0xff, 0xff,
};

static unsigned int mcg_cmd(struct te *x, uint16_t op, uint32_t qpn,
			    const uint8_t *gid)
{
	uint8_t in[MLX5X_MCG_IN_LEN] = { 0 }, out[16];

	th_hdr(in, op, 0);
	PSET(in, MLX5X_MCG_IN_QPN, qpn);
	memcpy(in + MLX5X_MCG_IN_MGID_OFF, gid, 16);
	return th_status(&x->t, in, sizeof(in), out, sizeof(out));
}

static void ud_qp(struct fnode *n, struct tqp *qp, bool block_lb)
{
	te_qp_type(&n->x, qp, MLX5X_QP_ST_UD, &n->cq, &n->cq, 4, 4, 0);
	if (block_lb)
		PSET(te_emu_qp(&n->x, qp)->qpc, MLX5X_QPC_BLOCK_LB_MC, 1);
	te_connect(&n->x, qp, NULL, true);
}

static void mc_send(struct fnode *n, struct tqp *qp)
{
	struct tsge s = te_sge(&n->mr, 60000, 64);
	struct tsend t = { .opcode = MLX5X_OPCODE_SEND, .flags = TE_SIGNALED,
			   .sg = &s, .nsge = 1, .dlid = 0xc001,
			   .dqpn = 0xffffff, .qkey = 0x1111, .grh = true };

	memcpy(t.dgid, mgid, 16);
	te_send(&n->x, qp, &t);
}

static unsigned int rcqes(struct fnode *n, uint32_t qpn)
{
	struct tcqe e;
	unsigned int k = 0;

	while (fx_rcqe(n, &e))
		if (e.qpn == qpn && e.opcode == MLX5X_CQE_RESP_SEND &&
		    e.byte_cnt == MLX5X_GRH_LEN + 64)
			k++;
	return k;
}

static void t_multicast(void)
{
	struct fnode a, b;
	struct tqp as, ab, am, bm, rc;
	struct wire w;
	struct tsge s;
	uint8_t bad[16] = { 0xfe, 0x80 };
	unsigned int i;

	fx_link(&a, &b, &w);
	activate(&a.x, 0x11, 0x11);
	activate(&b.x, 0x22, 0x11);
	ud_qp(&a, &as, false);		/* sender, loops back */
	ud_qp(&a, &ab, true);		/* sender with block_lb_mc */
	ud_qp(&a, &am, false);		/* member on A */
	ud_qp(&b, &bm, false);		/* member on B */
	is_u(mcg_cmd(&a.x, MLX5X_CMD_OP_ATTACH_TO_MCG, am.qpn, mgid), 0,
	     "ATTACH_TO_MCG on A");
	is_u(mcg_cmd(&b.x, MLX5X_CMD_OP_ATTACH_TO_MCG, bm.qpn, mgid), 0,
	     "ATTACH_TO_MCG on B");
	is_u(mcg_cmd(&a.x, MLX5X_CMD_OP_ATTACH_TO_MCG, am.qpn, mgid), 0,
	     "attaching twice changes nothing");
	is_u(mcg_cmd(&a.x, MLX5X_CMD_OP_ATTACH_TO_MCG, am.qpn, bad),
	     MLX5X_CMD_STAT_BAD_PARAM, "a unicast GID: bad parameter");
	is_u(mcg_cmd(&a.x, MLX5X_CMD_OP_ATTACH_TO_MCG, 0xabcd, mgid),
	     MLX5X_CMD_STAT_BAD_RES, "no such QP: bad resource");
	te_qp(&a.x, &rc, &a.cq, &a.cq);
	is_u(mcg_cmd(&a.x, MLX5X_CMD_OP_ATTACH_TO_MCG, rc.qpn, mgid),
	     MLX5X_CMD_STAT_BAD_PARAM, "an RC QP: bad parameter");
	is_u(mcg_cmd(&a.x, MLX5X_CMD_OP_DETACH_FROM_MCG, as.qpn, mgid),
	     MLX5X_CMD_STAT_BAD_PARAM, "detaching a QP not attached");
	for (i = 0; i < 4; i++) {
		s = te_sge(&a.mr, 4096 * i, 4096);
		te_recv(&a.x, &am, &s, 1);
		s = te_sge(&b.mr, 4096 * i, 4096);
		te_recv(&b.x, &bm, &s, 1);
	}
	mc_send(&a, &as);
	fx_run(&a, &b);
	is_u(rcqes(&b, bm.qpn), 1, "multicast reaches the member on B");
	is_u(rcqes(&a, am.qpn), 1, "... and the member on the sender's HCA");
	ok(b.x.t.e.port.cnt.rcv.mcast == 1 && a.x.t.e.port.cnt.xmit.mcast == 1,
	   "... counted as multicast");
	mc_send(&a, &ab);
	fx_run(&a, &b);
	is_u(rcqes(&b, bm.qpn), 1, "block_lb_mc sender: B's member gets it");
	is_u(rcqes(&a, am.qpn), 0, "... the sender's HCA does not");
	is_u(mcg_cmd(&b.x, MLX5X_CMD_OP_DETACH_FROM_MCG, bm.qpn, mgid), 0,
	     "DETACH_FROM_MCG on B");
	mc_send(&a, &as);
	fx_run(&a, &b);
	ok(rcqes(&b, bm.qpn) == 0 && rcqes(&a, am.qpn) == 1,
	   "after the detach only A's member gets it");
	/* a destroyed QP leaves its group */
	{
		uint8_t in[16] = { 0 }, out[16];

		th_hdr(in, MLX5X_CMD_OP_DESTROY_QP, 0);
		PSET(in, MLX5X_QP_IN_QPN, am.qpn);
		is_u(th_status(&a.x.t, in, 16, out, 16), 0,
		     "destroy an attached QP");
		ok(!a.x.t.e.mcg, "... its attachment is gone");
	}
	te_teardown(&a.x);
	te_teardown(&b.x);
}

int main(void)
{
	t_link_states();
	t_sma_get();
	t_sma_set();
	t_pcap();
	t_wire_sma();
	t_wire_sweep();
	t_wire_pma();
	t_armed_lmc();
	t_multicast();
	return tap_done();
}
