// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the management path (suite mlx5x_mad): which MADs
 * process_mad hands to the firmware, consumes or leaves to the host's
 * agents; the MAD_IFC key-check bits and input box; the D bit and result
 * of a response; what a failed MAD_IFC returns; the CapabilityMask write
 * of modify_port in both firmware forms; the multicast command boxes and
 * checks; the PORT_CHANGE sub-type to ib_event mapping.
 *
 * The verbs run against a device whose command engine is in the killed
 * state: every command other than a destroy fails locally, without a
 * device, which is what a firmware refusing it looks like to the caller.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_smi.h>

#include "../cmd.h"
#include "../ib.h"

#define PERMISSIVE	0xffff
#define VENDOR1		0x09
#define VENDOR2		0x0a

struct mad_case {
	u8 mgmt_class;
	u8 method;
	__be16 attr_id;
	u16 slid;
	enum mlx5x_mad_action action;
};

/* the class x method x attribute table of mlx5_ib's filter */
static const struct mad_case mad_cases[] = {
	/* a trap from LID 0, whatever the class: dropped */
	{ IB_MGMT_CLASS_SUBN_LID_ROUTED, IB_MGMT_METHOD_TRAP, 0, 0,
	  MLX5X_MAD_CONSUME },
	{ IB_MGMT_CLASS_SUBN_ADM, IB_MGMT_METHOD_TRAP, 0, 0,
	  MLX5X_MAD_CONSUME },
	/* ...from a real LID it is an SM's business */
	{ IB_MGMT_CLASS_SUBN_LID_ROUTED, IB_MGMT_METHOD_TRAP, 0, 5,
	  MLX5X_MAD_PASS },
	/* SMA: Get, Set, TrapRepress of both SMP classes */
	{ IB_MGMT_CLASS_SUBN_LID_ROUTED, IB_MGMT_METHOD_GET,
	  IB_SMP_ATTR_NODE_INFO, 3, MLX5X_MAD_FW },
	{ IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, IB_MGMT_METHOD_GET,
	  IB_SMP_ATTR_NODE_INFO, PERMISSIVE, MLX5X_MAD_FW },
	{ IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, IB_MGMT_METHOD_SET,
	  IB_SMP_ATTR_PORT_INFO, PERMISSIVE, MLX5X_MAD_FW },
	{ IB_MGMT_CLASS_SUBN_LID_ROUTED, IB_MGMT_METHOD_SET,
	  IB_SMP_ATTR_PKEY_TABLE, 1, MLX5X_MAD_FW },
	{ IB_MGMT_CLASS_SUBN_LID_ROUTED, IB_MGMT_METHOD_TRAP_REPRESS,
	  IB_SMP_ATTR_NOTICE, 1, MLX5X_MAD_FW },
	/* SMInfo belongs to the host's SM (opensm), any method */
	{ IB_MGMT_CLASS_SUBN_LID_ROUTED, IB_MGMT_METHOD_GET,
	  IB_SMP_ATTR_SM_INFO, 1, MLX5X_MAD_PASS },
	{ IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, IB_MGMT_METHOD_SET,
	  IB_SMP_ATTR_SM_INFO, PERMISSIVE, MLX5X_MAD_PASS },
	/* responses and other methods: to the agents (opensm's replies) */
	{ IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, IB_MGMT_METHOD_GET_RESP,
	  IB_SMP_ATTR_NODE_INFO, PERMISSIVE, MLX5X_MAD_PASS },
	{ IB_MGMT_CLASS_SUBN_LID_ROUTED, IB_MGMT_METHOD_REPORT,
	  IB_SMP_ATTR_NOTICE, 1, MLX5X_MAD_PASS },
	/* PMA, vendor and congestion classes: Get and Set */
	{ IB_MGMT_CLASS_PERF_MGMT, IB_MGMT_METHOD_GET, 0, 1, MLX5X_MAD_FW },
	{ IB_MGMT_CLASS_PERF_MGMT, IB_MGMT_METHOD_SET, 0, 1, MLX5X_MAD_FW },
	{ IB_MGMT_CLASS_PERF_MGMT, IB_MGMT_METHOD_GET_RESP, 0, 1,
	  MLX5X_MAD_PASS },
	{ VENDOR1, IB_MGMT_METHOD_GET, 0, 1, MLX5X_MAD_FW },
	{ VENDOR2, IB_MGMT_METHOD_SET, 0, 1, MLX5X_MAD_FW },
	{ VENDOR2, IB_MGMT_METHOD_TRAP_REPRESS, 0, 1, MLX5X_MAD_PASS },
	{ IB_MGMT_CLASS_CONG_MGMT, IB_MGMT_METHOD_GET, 0, 1, MLX5X_MAD_FW },
	/* SA, CM, DevMgt, other vendor ranges: never the firmware's */
	{ IB_MGMT_CLASS_SUBN_ADM, IB_MGMT_METHOD_GET, 0, 1, MLX5X_MAD_PASS },
	{ IB_MGMT_CLASS_CM, IB_MGMT_METHOD_SEND, 0, 1, MLX5X_MAD_PASS },
	{ IB_MGMT_CLASS_DEVICE_MGMT, IB_MGMT_METHOD_GET, 0, 1,
	  MLX5X_MAD_PASS },
	{ IB_MGMT_CLASS_VENDOR_RANGE2_START, IB_MGMT_METHOD_GET, 0, 1,
	  MLX5X_MAD_PASS },
};

static void filter_table(struct kunit *test)
{
	struct ib_mad_hdr hdr = {};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mad_cases); i++) {
		const struct mad_case *c = &mad_cases[i];

		hdr.mgmt_class = c->mgmt_class;
		hdr.method = c->method;
		hdr.attr_id = c->attr_id;
		KUNIT_EXPECT_EQ_MSG(test, mlx5x_mad_action(&hdr, c->slid),
				    c->action,
				    "class 0x%x method 0x%x attr 0x%x slid %u",
				    c->mgmt_class, c->method,
				    be16_to_cpu(c->attr_id), c->slid);
	}
}

static void ifc_op_mod(struct kunit *test)
{
	/* from the wire: the firmware checks both keys */
	KUNIT_EXPECT_EQ(test, mlx5x_mad_ifc_op_mod(0, true), 0);
	KUNIT_EXPECT_EQ(test, mlx5x_mad_ifc_op_mod(IB_MAD_IGNORE_MKEY, true),
			MLX5X_MAD_IFC_IGNORE_MKEY);
	KUNIT_EXPECT_EQ(test, mlx5x_mad_ifc_op_mod(IB_MAD_IGNORE_BKEY, true),
			MLX5X_MAD_IFC_IGNORE_BKEY);
	KUNIT_EXPECT_EQ(test, mlx5x_mad_ifc_op_mod(IB_MAD_IGNORE_ALL, true),
			MLX5X_MAD_IFC_IGNORE_MKEY | MLX5X_MAD_IFC_IGNORE_BKEY);
	/* no completion, nobody to trap to: neither key */
	KUNIT_EXPECT_EQ(test, mlx5x_mad_ifc_op_mod(0, false), 3);
}

static void ifc_input_box(struct kunit *test)
{
	u8 *in = kunit_kzalloc(test, MLX5X_MAD_IFC_IN_LEN, GFP_KERNEL);
	u8 mad[MLX5X_MAD_LEN];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, in);
	for (i = 0; i < sizeof(mad); i++)
		mad[i] = i ^ 0x5a;
	mlx5x_mad_ifc_encode(in, MLX5X_MAD_IFC_IGNORE_BKEY, 1, mad);
	KUNIT_EXPECT_EQ(test, in[0], 0x05);		/* opcode 0x50d */
	KUNIT_EXPECT_EQ(test, in[1], 0x0d);
	KUNIT_EXPECT_EQ(test, in[2], 0);		/* uid */
	KUNIT_EXPECT_EQ(test, in[3], 0);
	KUNIT_EXPECT_EQ(test, in[6], 0);		/* op_mod 0x0002 */
	KUNIT_EXPECT_EQ(test, in[7], 2);
	KUNIT_EXPECT_EQ(test, in[8], 0);		/* remote_lid 0 */
	KUNIT_EXPECT_EQ(test, in[9], 0);
	KUNIT_EXPECT_EQ(test, in[0xa], 0);		/* plane_index */
	KUNIT_EXPECT_EQ(test, in[0xb], 1);		/* port */
	for (i = 0xc; i < 0x10; i++)
		KUNIT_EXPECT_EQ(test, in[i], 0);
	KUNIT_EXPECT_EQ(test, memcmp(in + 0x10, mad, sizeof(mad)), 0);
	KUNIT_EXPECT_EQ(test, MLX5X_MAD_IFC_IN_LEN, 0x10 + MLX5X_MAD_LEN);
}

static void reply_d_bit(struct kunit *test)
{
	struct ib_mad_hdr in = {}, out = {};

	/* DR: D bit ORed into whatever status the SMA returned */
	in.mgmt_class = IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
	in.method = IB_MGMT_METHOD_GET;
	out.status = cpu_to_be16(0x001c);
	KUNIT_EXPECT_EQ(test, mlx5x_mad_reply(&in, &out),
			IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(out.status), 0x801c);

	/* LID routed: status as the firmware set it */
	in.mgmt_class = IB_MGMT_CLASS_SUBN_LID_ROUTED;
	out.status = 0;
	KUNIT_EXPECT_EQ(test, mlx5x_mad_reply(&in, &out),
			IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(out.status), 0);

	/* PMA reply: no D bit either */
	in.mgmt_class = IB_MGMT_CLASS_PERF_MGMT;
	KUNIT_EXPECT_EQ(test, mlx5x_mad_reply(&in, &out),
			IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_REPLY);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(out.status), 0);

	/* TrapRepress: consumed, nothing sent */
	in.mgmt_class = IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE;
	in.method = IB_MGMT_METHOD_TRAP_REPRESS;
	KUNIT_EXPECT_EQ(test, mlx5x_mad_reply(&in, &out),
			IB_MAD_RESULT_SUCCESS | IB_MAD_RESULT_CONSUMED);
}

/* A one-port device whose commands all fail (the engine is killed). */
static struct mlx5x_ib_dev *dead_dev(struct kunit *test)
{
	struct mlx5x_ib_dev *dev = kunit_kzalloc(test, sizeof(*dev),
						 GFP_KERNEL);
	struct mlx5x_cmd *cmd = kunit_kzalloc(test, sizeof(*cmd), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_ASSERT_NOT_NULL(test, cmd);
	mlx5x_cmd_sw_init(cmd, 2);
	WRITE_ONCE(cmd->state, MLX5X_CMD_KILLED);
	dev->cmd = cmd;
	dev->caps.num_ports = 1;
	dev->ibdev.phys_port_cnt = 1;
	dev->smi_ports = BIT(1);
	mutex_init(&dev->port_caps_lock);
	return dev;
}

static int dead_mad(struct mlx5x_ib_dev *dev, u8 mgmt_class, u8 method,
		    struct ib_mad *out, size_t out_size)
{
	struct ib_mad in = {};
	struct ib_wc wc = { .slid = 7 };
	u16 pkey_index = 0;

	in.mad_hdr.base_version = IB_MGMT_BASE_VERSION;
	in.mad_hdr.mgmt_class = mgmt_class;
	in.mad_hdr.method = method;
	in.mad_hdr.attr_id = IB_SMP_ATTR_PORT_INFO;
	memset(out, 0xa5, sizeof(*out));
	return mlx5x_ib_process_mad(&dev->ibdev, 0, 1, &wc, NULL, &in, out,
				    &out_size, &pkey_index);
}

static void failed_ifc_sends_nothing(struct kunit *test)
{
	struct mlx5x_ib_dev *dev = dead_dev(test);
	struct ib_mad *out = kunit_kzalloc(test, sizeof(*out), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_EXPECT_EQ(test, dead_mad(dev, IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE,
				       IB_MGMT_METHOD_GET, out, sizeof(*out)),
			IB_MAD_RESULT_FAILURE);
	KUNIT_EXPECT_EQ(test, dead_mad(dev, IB_MGMT_CLASS_PERF_MGMT,
				       IB_MGMT_METHOD_SET, out, sizeof(*out)),
			IB_MAD_RESULT_FAILURE);
	/* the response buffer was left alone */
	for (i = 0; i < sizeof(*out); i++)
		KUNIT_EXPECT_EQ(test, ((u8 *)out)[i], 0xa5);
	/* what the driver does not claim never reaches the command engine */
	KUNIT_EXPECT_EQ(test, dead_mad(dev, IB_MGMT_CLASS_SUBN_ADM,
				       IB_MGMT_METHOD_GET, out, sizeof(*out)),
			IB_MAD_RESULT_SUCCESS);
	KUNIT_EXPECT_EQ(test, dead_mad(dev, IB_MGMT_CLASS_SUBN_LID_ROUTED,
				       IB_MGMT_METHOD_GET_RESP, out,
				       sizeof(*out)),
			IB_MAD_RESULT_SUCCESS);
	/* a response buffer smaller than an IB MAD */
	KUNIT_EXPECT_EQ(test, dead_mad(dev, IB_MGMT_CLASS_SUBN_LID_ROUTED,
				       IB_MGMT_METHOD_GET, out,
				       sizeof(*out) - 1),
			IB_MAD_RESULT_FAILURE);
}

static void smi_ports(struct kunit *test)
{
	struct mlx5x_ib_dev *dev = dead_dev(test);

	KUNIT_EXPECT_TRUE(test, mlx5x_ib_port_has_smi(dev, 1));
	KUNIT_EXPECT_FALSE(test, mlx5x_ib_port_has_smi(dev, 2));
	KUNIT_EXPECT_FALSE(test, mlx5x_ib_port_has_smi(dev, 64));
	dev->smi_ports = 0;
	KUNIT_EXPECT_FALSE(test, mlx5x_ib_port_has_smi(dev, 1));
}

static void caps_change_vport(struct kunit *test)
{
	struct ib_port_modify pm = { .set_port_cap_mask = IB_PORT_CM_SUP };
	u32 perm = IB_PORT_SM | IB_PORT_CM_SUP;
	u32 mask, value;

	/* ib_virt: a masked write of exactly the bits asked for */
	KUNIT_EXPECT_EQ(test, mlx5x_port_caps_change(&pm, true, 0, perm,
						     &mask, &value), 0);
	KUNIT_EXPECT_EQ(test, mask, IB_PORT_CM_SUP);
	KUNIT_EXPECT_TRUE(test, value & IB_PORT_CM_SUP);

	pm = (struct ib_port_modify){ .clr_port_cap_mask = IB_PORT_SM };
	KUNIT_EXPECT_EQ(test, mlx5x_port_caps_change(&pm, true, 0, perm,
						     &mask, &value), 0);
	KUNIT_EXPECT_EQ(test, mask, IB_PORT_SM);
	KUNIT_EXPECT_FALSE(test, value & IB_PORT_SM);

	/* a bit the firmware keeps for itself */
	pm = (struct ib_port_modify){ .set_port_cap_mask = IB_PORT_TRAP_SUP };
	KUNIT_EXPECT_EQ(test, mlx5x_port_caps_change(&pm, true, 0, perm,
						     &mask, &value), -EINVAL);
}

static void caps_change_pcap(struct kunit *test)
{
	u32 cur = IB_PORT_TRAP_SUP | IB_PORT_SYS_IMAGE_GUID_SUP;
	struct ib_port_modify pm = { .set_port_cap_mask = IB_PORT_SM };
	u32 mask, value;

	/* no ib_virt: the whole mask, from the current one */
	KUNIT_EXPECT_EQ(test, mlx5x_port_caps_change(&pm, false, cur, 0,
						     &mask, &value), 0);
	KUNIT_EXPECT_EQ(test, mask, U32_MAX);
	KUNIT_EXPECT_EQ(test, value, cur | IB_PORT_SM);

	pm = (struct ib_port_modify){ .set_port_cap_mask = IB_PORT_CM_SUP,
				      .clr_port_cap_mask = IB_PORT_TRAP_SUP };
	KUNIT_EXPECT_EQ(test, mlx5x_port_caps_change(&pm, false, cur, 0,
						     &mask, &value), 0);
	KUNIT_EXPECT_EQ(test, value,
			IB_PORT_SYS_IMAGE_GUID_SUP | IB_PORT_CM_SUP);
}

static void modify_port_refusals(struct kunit *test)
{
	struct mlx5x_ib_dev *dev = dead_dev(test);
	struct ib_port_modify pm = { .set_port_cap_mask = IB_PORT_CM_SUP };

	KUNIT_EXPECT_EQ(test, mlx5x_ib_modify_port(&dev->ibdev, 1,
						   IB_PORT_SHUTDOWN, &pm),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mlx5x_ib_modify_port(&dev->ibdev, 1,
						   IB_PORT_RESET_QKEY_CNTR,
						   &pm),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, mlx5x_ib_modify_port(&dev->ibdev, 2, 0, &pm),
			-EINVAL);
	/* the firmware's refusal reaches the caller (ib_cm then skips us) */
	KUNIT_EXPECT_LT(test, mlx5x_ib_modify_port(&dev->ibdev, 1, 0, &pm), 0);
	/* and the lock was released on that path */
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&dev->port_caps_lock));
}

static void mcg_boxes(struct kunit *test)
{
	u8 in[MLX5X_MCG_IN_LEN] = {};
	u8 mgid[16] = { 0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0,
			0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff };

	mlx5x_mcg_encode(in, true, 0x12345, mgid);
	KUNIT_EXPECT_EQ(test, in[0], 0x08);		/* ATTACH_TO_MCG */
	KUNIT_EXPECT_EQ(test, in[1], 0x06);
	KUNIT_EXPECT_EQ(test, in[6] | in[7], 0);	/* op_mod 0 */
	KUNIT_EXPECT_EQ(test, in[8], 0);
	KUNIT_EXPECT_EQ(test, in[9], 0x01);		/* qpn 0x012345 */
	KUNIT_EXPECT_EQ(test, in[10], 0x23);
	KUNIT_EXPECT_EQ(test, in[11], 0x45);
	KUNIT_EXPECT_EQ(test, memcmp(in + 0x10, mgid, sizeof(mgid)), 0);

	memset(in, 0, sizeof(in));
	mlx5x_mcg_encode(in, false, 0xabcdef, mgid);
	KUNIT_EXPECT_EQ(test, in[1], 0x07);		/* DETACH_FROM_MCG */
	KUNIT_EXPECT_EQ(test, in[9], 0xab);
	KUNIT_EXPECT_EQ(test, memcmp(in + 0x10, mgid, sizeof(mgid)), 0);
}

static void vport_caps_box(struct kunit *test)
{
	u8 *in = kunit_kzalloc(test, MLX5X_MODIFY_HCA_VPORT_CONTEXT_IN_LEN,
			       GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, in);
	mlx5x_vport_caps_encode(in, 0, IB_PORT_CM_SUP, ~0U);
	KUNIT_EXPECT_EQ(test, in[0], 0x07);		/* 0x763 */
	KUNIT_EXPECT_EQ(test, in[1], 0x63);
	KUNIT_EXPECT_EQ(test, in[0xa], 0);		/* port_num 0 */
	/* hca_vport_context at 0x10: field_select 0, cap_mask1 at +0x40 */
	KUNIT_EXPECT_EQ(test, in[0x10] | in[0x11] | in[0x12] | in[0x13], 0);
	KUNIT_EXPECT_EQ(test, in[0x50], 0xff);
	KUNIT_EXPECT_EQ(test, in[0x53], 0xff);
	KUNIT_EXPECT_EQ(test, in[0x54], 0x00);		/* field select */
	KUNIT_EXPECT_EQ(test, in[0x55], 0x01);		/* bit 16 */
	KUNIT_EXPECT_EQ(test, in[0x56] | in[0x57], 0);
}

static void mcast_checks(struct kunit *test)
{
	union ib_gid mgid = { .raw = { 0xff, 0x12 } };
	union ib_gid ucast = { .raw = { 0xfe, 0x80 } };
	struct mlx5x_ib_dev *dev = dead_dev(test);
	struct ib_qp qp = { .device = &dev->ibdev, .qp_num = 0x42 };

	KUNIT_EXPECT_EQ(test, mlx5x_mcast_check(IB_QPT_UD, &mgid), 0);
	KUNIT_EXPECT_EQ(test, mlx5x_mcast_check(IB_QPT_UD, &ucast), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_mcast_check(IB_QPT_RC, &mgid), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_mcast_check(IB_QPT_GSI, &mgid), -EINVAL);

	/* the verbs refuse before any command, then report the firmware's */
	qp.qp_type = IB_QPT_RC;
	KUNIT_EXPECT_EQ(test, mlx5x_ib_attach_mcast(&qp, &mgid, 0xc001),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, mlx5x_ib_detach_mcast(&qp, &mgid, 0xc001),
			-EINVAL);
	qp.qp_type = IB_QPT_UD;
	KUNIT_EXPECT_LT(test, mlx5x_ib_attach_mcast(&qp, &mgid, 0xc001), 0);
}

static void port_events(struct kunit *test)
{
	static const struct {
		u8 sub_type;
		enum ib_event_type event;
	} map[] = {
		{ MLX5X_PORT_CHANGE_DOWN, IB_EVENT_PORT_ERR },
		{ MLX5X_PORT_CHANGE_ACTIVE, IB_EVENT_PORT_ACTIVE },
		{ MLX5X_PORT_CHANGE_INITIALIZED, IB_EVENT_PORT_ERR },
		{ MLX5X_PORT_CHANGE_LID, IB_EVENT_LID_CHANGE },
		{ MLX5X_PORT_CHANGE_PKEY, IB_EVENT_PKEY_CHANGE },
		{ MLX5X_PORT_CHANGE_GUID, IB_EVENT_GID_CHANGE },
		{ MLX5X_PORT_CHANGE_CLIENT_REREG, IB_EVENT_CLIENT_REREGISTER },
	};
	static const u8 unknown[] = { 0, 2, 3, 10, 0xff };
	unsigned int i;
	bool known;

	for (i = 0; i < ARRAY_SIZE(map); i++) {
		known = false;
		KUNIT_EXPECT_EQ(test, mlx5x_port_event_to_ib(map[i].sub_type,
							     &known),
				map[i].event);
		KUNIT_EXPECT_TRUE(test, known);
	}
	for (i = 0; i < ARRAY_SIZE(unknown); i++) {
		known = true;
		mlx5x_port_event_to_ib(unknown[i], &known);
		KUNIT_EXPECT_FALSE_MSG(test, known, "sub_type %u", unknown[i]);
	}
}

static struct kunit_case mad_cases_list[] = {
	KUNIT_CASE(filter_table),
	KUNIT_CASE(ifc_op_mod),
	KUNIT_CASE(ifc_input_box),
	KUNIT_CASE(reply_d_bit),
	KUNIT_CASE(failed_ifc_sends_nothing),
	KUNIT_CASE(smi_ports),
	KUNIT_CASE(caps_change_vport),
	KUNIT_CASE(caps_change_pcap),
	KUNIT_CASE(modify_port_refusals),
	KUNIT_CASE(mcg_boxes),
	KUNIT_CASE(vport_caps_box),
	KUNIT_CASE(mcast_checks),
	KUNIT_CASE(port_events),
	{}
};

static struct kunit_suite mlx5x_mad_suite = {
	.name = "mlx5x_mad",
	.test_cases = mad_cases_list,
};

kunit_test_suite(mlx5x_mad_suite);
