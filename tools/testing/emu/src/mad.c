// SPDX-License-Identifier: GPL-2.0
/*
 * The firmware's MAD agents behind their two doors:
 *
 * MAD_IFC (PRM; mlx5_ib's mlx5_MAD_IFC): the driver passes a 256-byte
 * MAD it received on QP0/QP1 (or made itself, for queries) and sends back
 * the response MAD the command returns.  The SMP's hop pointer, paths and
 * D bit are the driver's business here (Linux ib_mad does the directed
 * route bookkeeping and mlx5_ib sets the D bit).
 *
 * The wire: an SMP for QP0, or a PerfMgt MAD for QP1, that arrives while
 * the driver has not opened that QP (no driver loaded, or not yet) is
 * answered by the firmware itself, as an HCA is seen by the subnet
 * manager before its host driver runs.  Then the firmware does what
 * ib_mad would: the directed-route rules of a CA (IBTA vol. 1 §14.2.2.2,
 * C14-9 on receipt, C14-13 for the response) and the response on the
 * wire.  Once the driver's special QP is ready, such MADs go to it.
 */
#include <stdlib.h>

#include "cmd.h"
#include "engine.h"
#include "log.h"
#include "mad.h"
#include "wire.h"

#define EMU_FILE_ID FILE_MAD

bool mad_process(struct emu *e, const uint8_t *in, uint8_t *out,
		 bool ignore_mkey)
{
	uint8_t method = in[MAD_METHOD_OFF];
	uint8_t cls = in[MAD_MGMT_CLASS_OFF];

	(void)ignore_mkey;	/* M_Key not enforced (sma.c) */
	memcpy(out, in, MAD_LEN);
	/* responses and TrapRepress get none (IBTA vol. 1 §13.4, methods) */
	if (method & 0x80 || method == MAD_METHOD_TRAP_REPRESS)
		return false;
	out[MAD_METHOD_OFF] = MAD_METHOD_GET_RESP;
	put_be16(out + MAD_STATUS_OFF, 0);
	if (in[MAD_BASE_VERSION_OFF] != 1) {
		put_be16(out + MAD_STATUS_OFF, MAD_STATUS_BAD_VERSION);
		return true;
	}
	switch (cls) {
	case MGMT_CLASS_SUBN_LID:
	case MGMT_CLASS_SUBN_DR:
		sma_process(e, in, out);
		break;
	case MGMT_CLASS_PERF:
		pma_process(e, in, out);
		break;
	default:
		/* class not supported: the "bad version" code */
		put_be16(out + MAD_STATUS_OFF, MAD_STATUS_BAD_VERSION);
		break;
	}
	return true;
}

/*
 * MAD_IFC: op_mod bits 0/1 ignore the M_Key/B_Key checks; the port is 1
 * (mlx5_core_mad_ifc), no plane (the multi-plane SMI device is not
 * modelled).  A MAD without response (TrapRepress) returns zeros.
 */
int h_mad_ifc(struct cmd_ctx *c)
{
	const uint8_t *in = c->in + MLX5X_MAD_IFC_IN_MAD_OFF;
	uint8_t *out = c->out + MLX5X_MAD_IFC_OUT_MAD_OFF;

	if (c->op_mod & ~(MLX5X_MAD_IFC_IGNORE_MKEY | MLX5X_MAD_IFC_IGNORE_BKEY))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (PGET(c->in, MLX5X_MAD_IFC_IN_PORT) != 1 ||
	    PGET(c->in, MLX5X_MAD_IFC_IN_PLANE_INDEX))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (!mad_process(c->e, in, out,
			 c->op_mod & MLX5X_MAD_IFC_IGNORE_MKEY))
		memset(out, 0, MLX5X_MAD_LEN);
	cmd_detail(c, "class=0x%02x method=0x%02x attr=0x%04x status=0x%04x",
		   in[MAD_MGMT_CLASS_OFF], in[MAD_METHOD_OFF],
		   get_be16(in + MAD_ATTR_ID_OFF), get_be16(out + MAD_STATUS_OFF));
	return 0;
}

/*
 * A directed-route SMP arriving at this CA, outbound (D = 0): C14-9.
 * The sender advanced hop_ptr; at the end of the directed part the
 * receiving port goes into ReturnPath[hop_ptr] and, as ib_mad does
 * before handing it to the SMA, hop_ptr moves past the end (hop_cnt + 1).
 * A CA forwards nothing.  Returns false to discard.
 */
static bool dr_recv(uint8_t *m)
{
	uint8_t ptr = m[MAD_HOP_PTR_OFF], cnt = m[MAD_HOP_CNT_OFF];

	if (get_be16(m + MAD_STATUS_OFF) & MAD_STATUS_DR_D)
		return false;	/* a response: for an SM, none runs here */
	if (cnt > MAD_DR_MAX_HOPS)
		return false;
	if (ptr == cnt) {
		if (get_be16(m + SMP_DR_DLID_OFF) != LID_PERMISSIVE)
			return false;	/* a LID-routed part: switches only */
		if (cnt)
			m[SMP_RETURN_PATH_OFF + ptr] = 1;
		m[MAD_HOP_PTR_OFF] = ptr + 1;
		return true;
	}
	return ptr == cnt + 1;	/* C14-9:4; else C14-9:1, :2, :5 */
}

/*
 * The response of a directed-route SMP, returning (D = 1): C14-13 as a
 * CA sends it.  Sets the LRH DLID: permissive while the directed part
 * continues or leads straight to the SM, else DrSLID (a LID-routed part
 * back to the SM).  Returns false to discard.
 */
static bool dr_respond(uint8_t *m, uint16_t *dlid)
{
	uint8_t ptr = m[MAD_HOP_PTR_OFF], cnt = m[MAD_HOP_CNT_OFF];
	uint16_t dr_slid = get_be16(m + SMP_DR_SLID_OFF);

	put_be16(m + MAD_STATUS_OFF,
		 get_be16(m + MAD_STATUS_OFF) | MAD_STATUS_DR_D);
	if (cnt && ptr == cnt + 1)
		m[MAD_HOP_PTR_OFF] = --ptr;		/* C14-13:1 */
	else if (ptr == 1 && dr_slid == LID_PERMISSIVE)
		m[MAD_HOP_PTR_OFF] = --ptr;		/* C14-13:3 */
	else if (ptr != 0)
		return false;				/* C14-13:2, :5 */
	*dlid = ptr || dr_slid == LID_PERMISSIVE ? LID_PERMISSIVE : dr_slid;
	return true;
}

static bool special_qp_ready(struct emu *e, uint32_t qpn)
{
	struct emu_qp *qp = eng_qp_by_num(e, qpn);

	return qp && (qp->state == MLX5X_QP_STATE_RTR ||
		      qp->state == MLX5X_QP_STATE_RTS);
}

/* which MADs the firmware takes from the wire (see the file comment) */
static bool fw_takes(struct emu *e, const struct wire_pkt *p)
{
	uint8_t cls;

	if (p->tp != TP_UD || p->dqpn > 1 || p->len < MAD_LEN)
		return false;
	if (special_qp_ready(e, p->dqpn))
		return false;
	cls = p->data[MAD_MGMT_CLASS_OFF];
	if (p->dqpn == 0)
		return cls == MGMT_CLASS_SUBN_LID || cls == MGMT_CLASS_SUBN_DR;
	return cls == MGMT_CLASS_PERF && p->qkey == MLX5X_GSI_QKEY;
}

bool mad_wire_rx(struct emu *e, struct wire_pkt *p)
{
	uint8_t in[MAD_LEN];
	struct wire_pkt *r;
	uint16_t dlid = p->slid;
	bool dr;

	if (!fw_takes(e, p))
		return false;
	memcpy(in, p->data, MAD_LEN);
	dr = in[MAD_MGMT_CLASS_OFF] == MGMT_CLASS_SUBN_DR;
	r = pkt_alloc(MAD_LEN);
	if (!r || (dr && !dr_recv(in)) ||
	    !mad_process(e, in, r->data, false) ||
	    (dr && !dr_respond(r->data, &dlid))) {
		if (p->dqpn == 0)
			e->port.cnt.vl15_dropped++;
		pkt_free(r);
		pkt_free(p);
		return true;
	}
	/* a DR SMP on its directed part: permissive LIDs (IBTA §14.2.2) */
	r->slid = dlid == LID_PERMISSIVE && p->dqpn == 0 ? LID_PERMISSIVE :
							    e->port.lid;
	r->dlid = dlid;
	r->sl = p->sl;
	r->tp = TP_UD;
	r->op = PKT_SEND;
	r->first = r->last = true;
	r->npkt = 1;
	r->dqpn = p->sqpn;
	r->sqpn = p->dqpn;
	r->qkey = p->dqpn ? MLX5X_GSI_QKEY : 0;
	r->pkey = p->pkey;
	r->src = e;
	if (p->grh) {
		/* answer a GRH with a GRH, the addresses swapped */
		r->grh = true;
		r->hop_limit = p->hop_limit;
		r->tclass = p->tclass;
		r->flow_label = p->flow_label;
		memcpy(r->sgid, p->dgid, 16);
		memcpy(r->dgid, p->sgid, 16);
	}
	emu_dbg("firmware answered a MAD for QP%u from LID 0x%x", p->dqpn,
		p->slid);
	pkt_free(p);
	wire_xmit(e, r);
	return true;
}
