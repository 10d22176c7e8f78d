// SPDX-License-Identifier: GPL-2.0
/*
 * The InfiniBand port: HCA vport context, GID and P_Key tables, and the
 * access registers an IB port answers (HOST_ENDIANNESS, NODE_DESC, PCAP,
 * PTYS, PMTU, PVLC, PPCNT).  By default the port is ACTIVE with a LID
 * from the start: the device acts as its own subnet manager.  With
 * --port sm it is a port of a real subnet: down until INIT_HCA, then
 * INIT with LID 0 until a subnet manager configures it through the
 * firmware SMA (sma.c), with PORT_CHANGE events for what changes.
 */
#include <inttypes.h>
#include <stdio.h>

#include "cmd.h"
#include "log.h"

#define EMU_FILE_ID FILE_PORT

/* IB PortInfo CapabilityMask bits */
enum {
	IB_PORT_SM = 1u << 1,
	IB_PORT_TRAP_SUP = 1u << 3,
	IB_PORT_SL_MAP_SUP = 1u << 6,
	IB_PORT_SYS_IMAGE_GUID_SUP = 1u << 11,
	IB_PORT_EXTENDED_SPEEDS_SUP = 1u << 14,
	IB_PORT_PKEY_SW_EXT_PORT_TRAP_SUP = 1u << 12,
	IB_PORT_CM_SUP = 1u << 16,
	IB_PORT_SNMP_TUNNEL_SUP = 1u << 17,
	IB_PORT_DEVICE_MGMT_SUP = 1u << 19,
	IB_PORT_VENDOR_CLASS_SUP = 1u << 20,
	IB_PORT_BOOT_MGMT_SUP = 1u << 23,
	IB_PORT_CLIENT_REG_SUP = 1u << 25,
};

static void port_init_sm(struct emu_port *p);

static uint16_t lid_from_guid(uint64_t guid)
{
	/* a unicast LID (1..0xbfff) that differs between instances */
	return (uint16_t)(1 + (guid ^ (guid >> 16) ^ (guid >> 32)) % 0xbffe);
}

void port_init(struct emu *e)
{
	struct emu_port *p = &e->port;
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->node_guid = e->opt.guid;
	p->port_guid = e->opt.guid;
	p->sys_guid = e->opt.guid;
	p->lid = e->opt.lid ? e->opt.lid : lid_from_guid(e->opt.guid);
	p->sm_lid = p->lid;
	p->state = MLX5X_PORT_STATE_ACTIVE;
	p->phys_state = MLX5X_PORT_PHYS_LINK_UP;
	p->subnet_timeout = 18;
	p->cap_mask1 = IB_PORT_TRAP_SUP | IB_PORT_SYS_IMAGE_GUID_SUP |
		       IB_PORT_PKEY_SW_EXT_PORT_TRAP_SUP |
		       IB_PORT_DEVICE_MGMT_SUP | IB_PORT_VENDOR_CLASS_SUP;
	/* what ib_cm, opensm and friends may switch on and off */
	p->cap_mask1_perm = IB_PORT_SM | IB_PORT_CM_SUP |
			    IB_PORT_SNMP_TUNNEL_SUP | IB_PORT_DEVICE_MGMT_SUP |
			    IB_PORT_VENDOR_CLASS_SUP | IB_PORT_BOOT_MGMT_SUP;
	p->max_mtu = 4096;
	p->oper_mtu = 4096;
	p->vl_cap = 4;
	p->pkeys[0] = 0xffff;
	/* GID 0: default subnet prefix fe80::/64 and the port GUID */
	p->gids[0][0] = 0xfe;
	p->gids[0][1] = 0x80;
	put_be64(&p->gids[0][8], p->port_guid);
	for (i = 1; i < EMU_NUM_GIDS; i++)
		memset(p->gids[i], 0, MLX5X_GID_LEN);
	snprintf((char *)p->node_desc, sizeof(p->node_desc),
		 "mlx5x-emu %016llx", (unsigned long long)e->opt.guid);
	/* SMA defaults (IBTA vol. 1 §14.2.5.6): what the link offers */
	p->neighbor_mtu = 5;		/* 4096 */
	p->op_vls = p->vl_cap;
	p->link_down_default = MLX5X_PORT_PHYS_POLLING;
	p->width_enabled = 0x03;
	p->speed_enabled = 0x07;
	p->speed_ext_enabled = 0x03;
	if (e->opt.port_mode == EMU_PORT_SM)
		port_init_sm(p);
}

/*
 * A ConnectX port of a subnet: no link before INIT_HCA, no LID and no SM
 * until a subnet manager assigns them; the SMA capabilities a CA with
 * client reregistration and extended speeds (EDR) advertises.
 */
static void port_init_sm(struct emu_port *p)
{
	p->lid = 0;
	p->sm_lid = 0;
	p->state = MLX5X_PORT_STATE_DOWN;
	p->phys_state = MLX5X_PORT_PHYS_POLLING;
	p->cap_mask1 |= IB_PORT_SL_MAP_SUP | IB_PORT_EXTENDED_SPEEDS_SUP |
			IB_PORT_CLIENT_REG_SUP;
}

/*
 * The first INIT_HCA after power-on or a device reset: the link trains
 * with the neighbour (physical LinkUp, logical INIT, IBTA vol. 1 §7.2).
 * The port then belongs to the firmware: TEARDOWN_HCA and a driver reload
 * leave it and what the SM set as they are (its SMA still answers), so
 * the subnet does not have to be swept again.  A link the SM disabled
 * stays so.  The self-configured port never moves.
 */
void port_link_up(struct emu *e)
{
	if (e->opt.port_mode != EMU_PORT_SM ||
	    e->port.phys_state != MLX5X_PORT_PHYS_POLLING)
		return;
	e->port.phys_state = MLX5X_PORT_PHYS_LINK_UP;
	port_set_state(e, MLX5X_PORT_STATE_INIT);
}

/*
 * PORT_CHANGE EQE (PRM; mlx5_core's async EQ, decoded by mlx5_ib's
 * handle_port_change): the sub type, and the port number in bits 7:4 of
 * the byte at EQE 0x28.  Nothing is posted before INIT_HCA or when no EQ
 * asked for port events.
 */
void port_event(struct emu *e, uint8_t sub_type)
{
	uint8_t data[28] = { 0 };
	struct emu_eq *eq;

	if (!e->hca.initialized)
		return;
	eq = eq_find_for_event(e, MLX5X_EVENT_PORT_CHANGE);
	if (!eq)
		return;
	prm_set(data, MLX5X_EQE_PORT_OFF - MLX5X_EQE_DATA_OFF,
		MLX5X_EQE_PORT_MASK, 1);
	emu_dbg("PORT_CHANGE sub type %u", sub_type);
	eq_post(e, eq, MLX5X_EVENT_PORT_CHANGE, sub_type, data);
}

/*
 * A logical state change and the event mlx5 firmware reports for it:
 * ACTIVE on entering ACTIVE, DOWN on leaving it or on going DOWN,
 * INITIALIZED when a link comes back to INIT.  ARMED has no sub type.
 * A link the SM sets DOWN retrains at once (the neighbour is always
 * there), so DOWN is followed by INIT (IBTA vol. 1 §7.2).
 */
void port_set_state(struct emu *e, uint8_t state)
{
	struct emu_port *p = &e->port;
	uint8_t old = p->state;

	if (state == old)
		return;
	p->state = state;
	if (state == MLX5X_PORT_STATE_ACTIVE)
		port_event(e, MLX5X_PORT_CHANGE_ACTIVE);
	else if (old == MLX5X_PORT_STATE_ACTIVE ||
		 state == MLX5X_PORT_STATE_DOWN)
		port_event(e, MLX5X_PORT_CHANGE_DOWN);
	else if (state == MLX5X_PORT_STATE_INIT &&
		 old == MLX5X_PORT_STATE_DOWN)
		port_event(e, MLX5X_PORT_CHANGE_INITIALIZED);
	if (state == MLX5X_PORT_STATE_DOWN &&
	    p->phys_state == MLX5X_PORT_PHYS_LINK_UP) {
		p->state = MLX5X_PORT_STATE_INIT;
		port_event(e, MLX5X_PORT_CHANGE_INITIALIZED);
	}
}

/* the port lines of the exit report: where the SM left it, what moved */
void port_report(struct emu *e, FILE *fp)
{
	const struct emu_port *p = &e->port;
	const struct emu_port_cnt *c = &p->cnt;
	const struct emu_mcg *m;
	unsigned int n = 0;

	for (m = e->mcg; m; m = m->next)
		n++;
	fprintf(fp, "port_mode=%s\nport_state=%u\nport_phys_state=%u\n"
		"port_lid=0x%x\nport_sm_lid=0x%x\nport_lmc=%u\n",
		e->opt.port_mode == EMU_PORT_SM ? "sm" : "self", p->state,
		p->phys_state, p->lid, p->sm_lid, p->lmc);
	fprintf(fp, "port_xmit_pkts=%" PRIu64 "\nport_rcv_pkts=%" PRIu64
		"\nport_xmit_mcast=%" PRIu64 "\nport_rcv_mcast=%" PRIu64
		"\nport_xmit_discards=%" PRIu64 "\nport_rcv_errors=%" PRIu64
		"\nport_vl15_dropped=%" PRIu64 "\nport_pkey_viol=%u\n"
		"port_qkey_viol=%u\nmcg_attached=%u\n", c->xmit.pkts,
		c->rcv.pkts, c->xmit.mcast, c->rcv.mcast, c->xmit_discards,
		c->rcv_errors, c->vl15_dropped, p->pkey_viol, p->qkey_viol, n);
}

/*
 * op_mod 0, one port (port_num 0, the single-port default, or 1) and no
 * other vports.
 */
static int check_vport(struct cmd_ctx *c)
{
	uint32_t port = PGET(c->in, MLX5X_HCA_VPORT_IN_PORT_NUM);

	if (c->op_mod || PGET(c->in, MLX5X_HCA_VPORT_IN_OTHER_VPORT) ||
	    PGET(c->in, MLX5X_HCA_VPORT_IN_VPORT_NUMBER) || port > 1)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	return 0;
}

int h_query_hca_vport_context(struct cmd_ctx *c)
{
	uint8_t *ctx = c->out + MLX5X_HCA_VPORT_CONTEXT_OFF;
	struct emu_port *p = &c->e->port;

	if (check_vport(c))
		return c->status;
	PSET(ctx, MLX5X_HVC_HAS_SMI, 1);
	PSET(ctx, MLX5X_HVC_PORT_PHYSICAL_STATE, p->phys_state);
	PSET(ctx, MLX5X_HVC_PORT_STATE, p->state);
	PSET(ctx, MLX5X_HVC_VPORT_STATE, p->state);
	put_be64(ctx + MLX5X_HVC_SYSTEM_IMAGE_GUID_OFF, p->sys_guid);
	put_be64(ctx + MLX5X_HVC_PORT_GUID_OFF, p->port_guid);
	put_be64(ctx + MLX5X_HVC_NODE_GUID_OFF, p->node_guid);
	PSET(ctx, MLX5X_HVC_CAP_MASK1, p->cap_mask1);
	PSET(ctx, MLX5X_HVC_CAP_MASK1_FIELD_SELECT, p->cap_mask1_perm);
	PSET(ctx, MLX5X_HVC_LID, p->lid);
	PSET(ctx, MLX5X_HVC_LMC, p->lmc);
	PSET(ctx, MLX5X_HVC_SUBNET_TIMEOUT, p->subnet_timeout);
	PSET(ctx, MLX5X_HVC_SM_LID, p->sm_lid);
	PSET(ctx, MLX5X_HVC_SM_SL, p->sm_sl);
	PSET(ctx, MLX5X_HVC_QKEY_VIOLATION_COUNTER, p->qkey_viol);
	PSET(ctx, MLX5X_HVC_PKEY_VIOLATION_COUNTER, p->pkey_viol);
	return 0;
}

int h_modify_hca_vport_context(struct cmd_ctx *c)
{
	const uint8_t *ctx = c->in + MLX5X_HCA_VPORT_CONTEXT_OFF;
	struct emu_port *p = &c->e->port;
	uint32_t sel = PGET(ctx, MLX5X_HVC_FIELD_SELECT);
	uint32_t perm = PGET(ctx, MLX5X_HVC_CAP_MASK1_FIELD_SELECT);
	uint32_t val = PGET(ctx, MLX5X_HVC_CAP_MASK1);

	if (check_vport(c))
		return c->status;
	/* GUIDs and state policy belong to the vport group manager */
	if (sel & (MLX5X_HVC_SEL_PORT_GUID | MLX5X_HVC_SEL_NODE_GUID |
		   MLX5X_HVC_SEL_STATE_POLICY))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (perm & ~p->cap_mask1_perm)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	p->cap_mask1 = (p->cap_mask1 & ~perm) | (val & perm);
	cmd_detail(c, "cap_mask1=0x%08x", p->cap_mask1);
	return 0;
}

int h_query_hca_vport_gid(struct cmd_ctx *c)
{
	uint32_t idx = PGET(c->in, MLX5X_HCA_VPORT_IN_INDEX);
	uint32_t first = idx, n = 1, i;

	if (check_vport(c))
		return c->status;
	if (idx == MLX5X_HCA_VPORT_ALL_ENTRIES) {
		first = 0;
		n = EMU_NUM_GIDS;
	} else if (idx >= EMU_NUM_GIDS) {
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	}
	if (c->outlen < MLX5X_QUERY_HCA_VPORT_GID_OUT_LEN + n * MLX5X_GID_LEN)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_OUTP_LEN);
	PSET(c->out, MLX5X_QUERY_HCA_VPORT_GID_OUT_GIDS_NUM, n);
	for (i = 0; i < n; i++)
		memcpy(c->out + MLX5X_QUERY_HCA_VPORT_GID_OUT_GID_OFF +
		       i * MLX5X_GID_LEN, c->e->port.gids[first + i],
		       MLX5X_GID_LEN);
	cmd_detail(c, "index=%u", idx);
	return 0;
}

int h_query_hca_vport_pkey(struct cmd_ctx *c)
{
	uint32_t idx = PGET(c->in, MLX5X_HCA_VPORT_IN_INDEX);
	uint32_t first = idx, n = 1, i;

	if (check_vport(c))
		return c->status;
	if (idx == MLX5X_HCA_VPORT_ALL_ENTRIES) {
		first = 0;
		n = EMU_NUM_PKEYS;
	} else if (idx >= EMU_NUM_PKEYS) {
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	}
	if (c->outlen < MLX5X_QUERY_HCA_VPORT_PKEY_OUT_LEN +
			n * MLX5X_PKEY_ENTRY_LEN)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_OUTP_LEN);
	for (i = 0; i < n; i++)
		prm_set(c->out, MLX5X_QUERY_HCA_VPORT_PKEY_OUT_PKEY_OFF +
			i * MLX5X_PKEY_ENTRY_LEN, MLX5X_PKEY_ENTRY_PKEY_MASK,
			c->e->port.pkeys[first + i]);
	cmd_detail(c, "index=%u", idx);
	return 0;
}

/*
 * Traffic counters of the vport (mlx5_ib's PortCountersExtended when
 * vport_counters is set): the packets and octets the engine moved
 * through the port (pma.c counts them at the wire).
 */
/* @pkts of the direction @t, with their octets in proportion */
static void vport_pair(uint8_t *out, uint32_t off,
		       const struct emu_traffic *t, uint64_t pkts)
{
	put_be64(out + off, pkts);
	put_be64(out + off + 8, t->pkts ? t->data * pkts / t->pkts : 0);
}

int h_query_vport_counter(struct cmd_ctx *c)
{
	struct emu_port_cnt *n = &c->e->port.cnt;
	uint8_t *o = c->out;

	if (check_vport(c))
		return c->status;
	vport_pair(o, MLX5X_VPORT_COUNTER_RX_IB_UNICAST_OFF, &n->rcv,
		   n->rcv.ucast);
	vport_pair(o, MLX5X_VPORT_COUNTER_TX_IB_UNICAST_OFF, &n->xmit,
		   n->xmit.ucast);
	vport_pair(o, MLX5X_VPORT_COUNTER_RX_IB_MULTICAST_OFF, &n->rcv,
		   n->rcv.mcast);
	vport_pair(o, MLX5X_VPORT_COUNTER_TX_IB_MULTICAST_OFF, &n->xmit,
		   n->xmit.mcast);
	if (PGET(c->in, MLX5X_QUERY_VPORT_COUNTER_IN_CLEAR))
		memset(n, 0, sizeof(*n));
	return 0;
}

/* ---- access registers ---- */

struct reg_io {
	struct cmd_ctx *c;
	bool write;
	const uint8_t *in;	/* register data written by the driver */
	uint8_t *out;		/* register data returned */
	uint32_t len;		/* bytes available in both */
};

static int reg_host_endianness(struct reg_io *r)
{
	if (r->len < MLX5X_REG_HOST_ENDIANNESS_LEN)
		return CMD_FAIL(r->c, MLX5X_CMD_STAT_BAD_PARAM);
	if (r->write)
		r->c->e->hca.host_endianness = get_be32(r->in);
	put_be32(r->out, r->c->e->hca.host_endianness);
	return 0;
}

static int reg_node_desc(struct reg_io *r)
{
	struct emu_port *p = &r->c->e->port;

	if (r->len < MLX5X_REG_NODE_DESC_LEN)
		return CMD_FAIL(r->c, MLX5X_CMD_STAT_BAD_PARAM);
	if (r->write) {
		memcpy(p->node_desc, r->in, MLX5X_REG_NODE_DESC_LEN);
		cmd_detail(r->c, "node_desc=\"%.64s\"", (char *)p->node_desc);
	}
	memcpy(r->out, p->node_desc, MLX5X_REG_NODE_DESC_LEN);
	return 0;
}

/*
 * PCAP: the host's part of PortInfo.CapabilityMask (mlx5_core's
 * mlx5_set_port_caps, what mlx5_ib's modify_port writes without ib_virt:
 * ib_cm's IsCommunicationManagementSupported, opensm's IsSM).  Bits the
 * host may not change keep the firmware's value.
 */
static int reg_pcap(struct reg_io *r)
{
	struct emu_port *p = &r->c->e->port;

	if (r->len < MLX5X_REG_PCAP_LEN ||
	    PGET(r->in, MLX5X_PCAP_LOCAL_PORT) != 1)
		return CMD_FAIL(r->c, MLX5X_CMD_STAT_BAD_PARAM);
	if (r->write) {
		uint32_t v = PGET(r->in, MLX5X_PCAP_CAP_MASK0);

		p->cap_mask1 = (p->cap_mask1 & ~p->cap_mask1_perm) |
			       (v & p->cap_mask1_perm);
		cmd_detail(r->c, " cap_mask1=0x%08x", p->cap_mask1);
	}
	PSET(r->out, MLX5X_PCAP_LOCAL_PORT, 1);
	PSET(r->out, MLX5X_PCAP_CAP_MASK0, p->cap_mask1);
	return 0;
}

static int check_local_port(struct reg_io *r, uint32_t off, uint32_t mask,
			    uint32_t len)
{
	if (r->len < len || prm_get(r->in, off, mask) != 1)
		return CMD_FAIL(r->c, MLX5X_CMD_STAT_BAD_PARAM);
	prm_set(r->out, off, mask, 1);
	return 0;
}

static int reg_ptys(struct reg_io *r)
{
	uint8_t *o = r->out;

	if (check_local_port(r, MLX5X_PTYS_LOCAL_PORT_OFF,
			     MLX5X_PTYS_LOCAL_PORT_MASK, MLX5X_REG_PTYS_LEN))
		return r->c->status;
	/* an InfiniBand port: only the IB protocol fields exist */
	if (PGET(r->in, MLX5X_PTYS_PROTO_MASK) != MLX5X_PTYS_PROTO_IB)
		return CMD_FAIL(r->c, MLX5X_CMD_STAT_BAD_PARAM);
	if (r->write)
		return 0;	/* admin changes do not move the link */
	PSET(o, MLX5X_PTYS_PROTO_MASK, MLX5X_PTYS_PROTO_IB);
	PSET(o, MLX5X_PTYS_IB_LINK_WIDTH_CAPABILITY,
	     MLX5X_PTYS_WIDTH_1X | MLX5X_PTYS_WIDTH_4X);
	PSET(o, MLX5X_PTYS_IB_PROTO_CAPABILITY,
	     MLX5X_PTYS_SPEED_SDR | MLX5X_PTYS_SPEED_DDR |
	     MLX5X_PTYS_SPEED_QDR | MLX5X_PTYS_SPEED_FDR10 |
	     MLX5X_PTYS_SPEED_FDR | MLX5X_PTYS_SPEED_EDR);
	PSET(o, MLX5X_PTYS_IB_LINK_WIDTH_ADMIN,
	     MLX5X_PTYS_WIDTH_1X | MLX5X_PTYS_WIDTH_4X);
	PSET(o, MLX5X_PTYS_IB_PROTO_ADMIN, 0x3f);
	PSET(o, MLX5X_PTYS_IB_LINK_WIDTH_OPER, MLX5X_PTYS_WIDTH_4X);
	PSET(o, MLX5X_PTYS_IB_PROTO_OPER, MLX5X_PTYS_SPEED_EDR);
	return 0;
}

static bool valid_mtu(uint32_t mtu)
{
	return mtu >= 256 && mtu <= 4096 && is_pow2(mtu);
}

static int reg_pmtu(struct reg_io *r)
{
	struct emu_port *p = &r->c->e->port;

	if (check_local_port(r, MLX5X_PMTU_LOCAL_PORT_OFF,
			     MLX5X_PMTU_LOCAL_PORT_MASK, MLX5X_REG_PMTU_LEN))
		return r->c->status;
	if (r->write) {
		uint32_t mtu = PGET(r->in, MLX5X_PMTU_ADMIN_MTU);

		if (!valid_mtu(mtu) || mtu > p->max_mtu)
			return CMD_FAIL(r->c, MLX5X_CMD_STAT_BAD_PARAM);
		p->oper_mtu = (uint16_t)mtu;
	}
	PSET(r->out, MLX5X_PMTU_MAX_MTU, p->max_mtu);
	PSET(r->out, MLX5X_PMTU_ADMIN_MTU, p->oper_mtu);
	PSET(r->out, MLX5X_PMTU_OPER_MTU, p->oper_mtu);
	return 0;
}

static int reg_pvlc(struct reg_io *r)
{
	struct emu_port *p = &r->c->e->port;

	if (check_local_port(r, MLX5X_PVLC_LOCAL_PORT_OFF,
			     MLX5X_PVLC_LOCAL_PORT_MASK, MLX5X_REG_PVLC_LEN))
		return r->c->status;
	if (r->write)
		return CMD_FAIL(r->c, MLX5X_CMD_STAT_BAD_PARAM);
	PSET(r->out, MLX5X_PVLC_VL_HW_CAP, p->vl_cap);
	PSET(r->out, MLX5X_PVLC_VL_ADMIN, p->vl_cap);
	PSET(r->out, MLX5X_PVLC_VL_OPERATIONAL, p->vl_cap);
	return 0;
}

/* port counters: nothing is counted yet, every group reads as zeros */
static int reg_ppcnt(struct reg_io *r)
{
	if (r->len < MLX5X_PPCNT_COUNTER_SET_OFF ||
	    PGET(r->in, MLX5X_PPCNT_LOCAL_PORT) != 1)
		return CMD_FAIL(r->c, MLX5X_CMD_STAT_BAD_PARAM);
	if (r->write)
		return 0;
	memcpy(r->out, r->in, MLX5X_PPCNT_COUNTER_SET_OFF);
	return 0;
}

int h_access_reg(struct cmd_ctx *c)
{
	uint32_t id = PGET(c->in, MLX5X_ACCESS_REG_IN_REGISTER_ID);
	struct reg_io r = { .c = c, .write = c->op_mod == MLX5X_ACCESS_REG_WRITE };
	uint8_t zero[MLX5X_REG_PPCNT_LEN] = { 0 };
	uint32_t in_len = c->inlen - MLX5X_ACCESS_REG_HDR_LEN;
	uint32_t out_len = c->outlen - MLX5X_ACCESS_REG_HDR_LEN;

	if (c->op_mod > MLX5X_ACCESS_REG_READ)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	r.in = c->in + MLX5X_ACCESS_REG_DATA_OFF;
	r.out = c->out + MLX5X_ACCESS_REG_DATA_OFF;
	r.len = MIN(in_len, out_len);
	/* a read may come with less input than output: reads need no data */
	if (!r.write && in_len < out_len) {
		r.len = MIN(out_len, (uint32_t)sizeof(zero));
		if (in_len < r.len) {
			memcpy(zero, r.in, in_len);
			r.in = zero;
		}
	}
	cmd_detail(c, "reg=0x%04x %s", id, r.write ? "write" : "read");
	switch (id) {
	case MLX5X_REG_HOST_ENDIANNESS:
		return reg_host_endianness(&r);
	case MLX5X_REG_NODE_DESC:
		return reg_node_desc(&r);
	case MLX5X_REG_PCAP:
		return reg_pcap(&r);
	case MLX5X_REG_PTYS:
		return reg_ptys(&r);
	case MLX5X_REG_PMTU:
		return reg_pmtu(&r);
	case MLX5X_REG_PVLC:
		return reg_pvlc(&r);
	case MLX5X_REG_PPCNT:
		return reg_ppcnt(&r);
	default:
		/* DTOR, PCAM/MCAM/QCAM, ...: not on this device */
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	}
}
