// SPDX-License-Identifier: GPL-2.0
/*
 * HCA life cycle, capabilities, firmware pages, vport and registers:
 * each handler's good path and its error paths.
 */
#include <stdlib.h>

#include "harness.h"

static unsigned int run(struct th *t, uint8_t *in, uint32_t inlen,
			uint8_t *out, uint32_t outlen)
{
	return th_status(t, in, inlen, out, outlen);
}

static void test_enable(void)
{
	uint8_t in[16] = { 0 }, out[16];
	struct th t;

	th_setup(&t);
	th_hdr(in, MLX5X_CMD_OP_ENABLE_HCA, 0);
	PSET(in, MLX5X_ENABLE_HCA_IN_FUNCTION_ID, 3);
	is_u(run(&t, in, 16, out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "ENABLE_HCA of another function -> BAD_PARAM");
	ok(!t.e.hca.enabled, "... and the HCA stays disabled");
	PSET(in, MLX5X_ENABLE_HCA_IN_FUNCTION_ID, 0);
	PSET(in, MLX5X_CMD_IN_OP_MOD, 1);
	is_u(run(&t, in, 16, out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "ENABLE_HCA with op_mod 1 -> BAD_PARAM");
	PSET(in, MLX5X_CMD_IN_OP_MOD, 0);
	is_u(run(&t, in, 16, out, 12), 0,
	     "ENABLE_HCA with the 12-byte output the driver passes");
	memset(in, 0, 16);
	th_hdr(in, MLX5X_CMD_OP_ALLOC_PD, 0);
	is_u(run(&t, in, 16, out, 16), MLX5X_CMD_STAT_BAD_SYS_STATE,
	     "ALLOC_PD before INIT_HCA -> BAD_SYS_STATE");
	th_teardown(&t);
}

static void issi_case(unsigned int max_issi)
{
	uint8_t in[16] = { 0 }, out[MLX5X_QUERY_ISSI_OUT_LEN];
	struct emu_opts o;
	struct th t;

	th_default_opts(&o);
	o.max_issi = max_issi;
	th_setup_opts(&t, &o);
	th_enable_hca(&t);
	th_hdr(in, MLX5X_CMD_OP_QUERY_ISSI, 0);
	is_u(run(&t, in, 16, out, sizeof(out)), 0, "QUERY_ISSI");
	is_u(get_be32(out + MLX5X_QUERY_ISSI_OUT_SUPPORTED_ISSI_DW0_OFF),
	     max_issi ? 3 : 1, max_issi ? "... offers ISSI 0 and 1" :
	     "... --max-issi 0 offers ISSI 0 only");
	th_hdr(in, MLX5X_CMD_OP_SET_ISSI, 0);
	PSET(in, MLX5X_SET_ISSI_IN_CURRENT_ISSI, 2);
	is_u(run(&t, in, 16, out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "SET_ISSI 2 (not offered) -> BAD_PARAM");
	PSET(in, MLX5X_SET_ISSI_IN_CURRENT_ISSI, 1);
	is_u(run(&t, in, 16, out, 16), max_issi ? 0 : MLX5X_CMD_STAT_BAD_PARAM,
	     max_issi ? "SET_ISSI 1" : "SET_ISSI 1 when not offered -> BAD_PARAM");
	th_hdr(in, MLX5X_CMD_OP_QUERY_ISSI, 0);
	run(&t, in, 16, out, sizeof(out));
	is_u(PGET(out, MLX5X_QUERY_ISSI_OUT_CURRENT_ISSI), max_issi,
	     "QUERY_ISSI reports the step in use");
	th_hdr(in, MLX5X_CMD_OP_SET_ISSI, 0);
	PSET(in, MLX5X_SET_ISSI_IN_CURRENT_ISSI, 0);
	is_u(run(&t, in, 16, out, 16), 0, "SET_ISSI 0");
	th_teardown(&t);
}

static void test_issi(void)
{
	issi_case(1);
	issi_case(0);
}

static void test_caps(void)
{
	uint8_t in[MLX5X_SET_HCA_CAP_IN_LEN] = { 0 }, out[MLX5X_QUERY_HCA_CAP_OUT_LEN];
	uint8_t *cap = in + MLX5X_SET_HCA_CAP_IN_CAP_OFF;
	struct th t;

	th_setup(&t);
	th_enable_hca(&t);
	th_hdr(in, MLX5X_CMD_OP_QUERY_HCA_CAP, MLX5X_CAP_TYPE_ODP << 1 | 1);
	is_u(run(&t, in, 16, out, sizeof(out)), MLX5X_CMD_STAT_BAD_PARAM,
	     "QUERY_HCA_CAP of a type the device lacks (ODP) -> BAD_PARAM");
	th_hdr(in, MLX5X_CMD_OP_QUERY_HCA_CAP, 1);
	is_u(run(&t, in, 16, out, 0x100), MLX5X_CMD_STAT_BAD_OUTP_LEN,
	     "QUERY_HCA_CAP with a short output -> BAD_OUTP_LEN");
	PSET(in, MLX5X_QUERY_HCA_CAP_IN_FUNCTION_ID, 1);
	is_u(run(&t, in, 16, out, sizeof(out)), MLX5X_CMD_STAT_BAD_PARAM,
	     "QUERY_HCA_CAP of another function -> BAD_PARAM");

	memset(in, 0, sizeof(in));
	th_hdr(in, MLX5X_CMD_OP_SET_HCA_CAP, 0);
	memcpy(cap, t.e.hca.cap_cur, MLX5X_HCA_CAP_LEN);
	PSET(cap, MLX5X_CAP_LOG_MAX_QP, 20);
	PSET(cap, MLX5X_CAP_PKEY_TABLE_SIZE, 0);
	is_u(run(&t, in, sizeof(in), out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "SET_HCA_CAP log_max_qp above MAX -> BAD_PARAM");
	is_u(PGET(t.e.hca.cap_cur, MLX5X_CAP_LOG_MAX_QP), 16,
	     "... CUR unchanged");
	PSET(cap, MLX5X_CAP_LOG_MAX_QP, 10);
	PSET(cap, MLX5X_CAP_UAR_4K, 1);
	is_u(run(&t, in, sizeof(in), out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "SET_HCA_CAP uar_4k without the MAX bit -> BAD_PARAM");
	PSET(cap, MLX5X_CAP_UAR_4K, 0);
	PSET(cap, MLX5X_CAP_XRC, 0);	/* not settable: ignored */
	is_u(run(&t, in, sizeof(in), out, 16), 0, "SET_HCA_CAP log_max_qp 10");
	memset(in, 0, 16);
	th_hdr(in, MLX5X_CMD_OP_QUERY_HCA_CAP, MLX5X_CAP_MODE_CUR);
	run(&t, in, 16, out, sizeof(out));
	is_u(PGET(out + MLX5X_QUERY_HCA_CAP_OUT_CAP_OFF, MLX5X_CAP_LOG_MAX_QP), 10,
	     "QUERY_HCA_CAP CUR returns the value set");
	is_u(PGET(out + MLX5X_QUERY_HCA_CAP_OUT_CAP_OFF, MLX5X_CAP_XRC), 1,
	     "... a read-only field kept its value");
	th_hdr(in, MLX5X_CMD_OP_QUERY_HCA_CAP, MLX5X_CAP_MODE_MAX);
	run(&t, in, 16, out, sizeof(out));
	is_u(PGET(out + MLX5X_QUERY_HCA_CAP_OUT_CAP_OFF, MLX5X_CAP_LOG_MAX_QP), 16,
	     "QUERY_HCA_CAP MAX is unchanged");
	th_teardown(&t);
}

static uint32_t query_pages(struct th *t, uint16_t mode)
{
	uint8_t in[16] = { 0 }, out[16];

	th_hdr(in, MLX5X_CMD_OP_QUERY_PAGES, mode);
	if (run(t, in, 16, out, 16))
		return ~0u;
	return get_be32(out + MLX5X_QUERY_PAGES_OUT_NUM_PAGES_OFF);
}

static unsigned int manage(struct th *t, uint16_t mode, const uint64_t *pas,
			   uint32_t n, uint32_t nbuf, uint8_t *out, uint32_t outlen)
{
	uint32_t inlen = 16 + 8 * nbuf, i;
	uint8_t *in = calloc(1, inlen);
	unsigned int st;

	th_hdr(in, MLX5X_CMD_OP_MANAGE_PAGES, mode);
	put_be32(in + MLX5X_PAGES_IN_INPUT_NUM_ENTRIES_OFF, n);
	for (i = 0; pas && i < nbuf; i++)
		put_be64(in + 16 + 8 * i, pas[i]);
	st = th_exec_slot(t, 31, in, inlen, out, outlen);
	st = st ? 0x100 + st : PGET(out, MLX5X_CMD_OUT_STATUS);
	free(in);
	return st;
}

static void test_pages(void)
{
	uint8_t in[32] = { 0 }, out[16 + 8 * 16];
	uint64_t pg[16];
	struct th t;
	uint32_t i;

	th_setup(&t);
	th_enable_hca(&t);
	is_u(query_pages(&t, MLX5X_PAGES_BOOT), 4, "QUERY_PAGES boot asks for 4");
	is_u(query_pages(&t, 7), ~0u, "QUERY_PAGES op_mod 7 -> refused");
	for (i = 0; i < 16; i++)
		pg[i] = th_alloc(&t, 4096, 4096);
	th_hdr(in, MLX5X_CMD_OP_INIT_HCA, 0);
	is_u(run(&t, in, 32, out, 16), MLX5X_CMD_STAT_NO_RES,
	     "INIT_HCA before the pages were given -> NO_RES");

	pg[15] = pg[0] + 0x800;
	is_u(manage(&t, MLX5X_PAGES_GIVE, &pg[15], 1, 1, out, 16),
	     MLX5X_CMD_STAT_BAD_PARAM, "GIVE a misaligned page -> BAD_PARAM");
	pg[15] = 0x7000000000ull;
	is_u(manage(&t, MLX5X_PAGES_GIVE, &pg[15], 1, 1, out, 16),
	     MLX5X_CMD_STAT_BAD_PARAM, "GIVE a page outside guest memory -> BAD_PARAM");
	pg[15] = pg[1];
	is_u(manage(&t, MLX5X_PAGES_GIVE, &pg[14], 2, 2, out, 16), 0,
	     "GIVE two pages");
	is_u(manage(&t, MLX5X_PAGES_GIVE, &pg[15], 1, 1, out, 16),
	     MLX5X_CMD_STAT_BAD_PARAM, "GIVE a page already held -> BAD_PARAM");
	is_u(manage(&t, MLX5X_PAGES_GIVE, pg, 4, 2, out, 16),
	     MLX5X_CMD_STAT_BAD_INP_LEN,
	     "GIVE 4 entries with room for 2 -> BAD_INP_LEN");
	is_u(t.e.hca.npages, 2, "... failed GIVEs took no page");
	is_u(query_pages(&t, MLX5X_PAGES_BOOT), 2, "boot asks for 2 more");
	is_u(manage(&t, MLX5X_PAGES_GIVE, &pg[2], 8, 8, out, 16), 0, "GIVE 8");
	is_u(query_pages(&t, MLX5X_PAGES_INIT), 0, "init pages satisfied");
	is_u(run(&t, in, 32, out, 16), 0, "INIT_HCA");
	is_u(manage(&t, MLX5X_PAGES_TAKE, NULL, 4, 0, out, 16 + 32), 0,
	     "TAKE while initialized, nothing released");
	is_u(get_be32(out + MLX5X_MANAGE_PAGES_OUT_OUTPUT_NUM_ENTRIES_OFF), 0,
	     "... 0 pages come back");
	t.e.hca.releasable = 3;		/* a PAGE_REQUEST of -3 (test_eq) */
	is_u(manage(&t, MLX5X_PAGES_TAKE, NULL, 4, 0, out, 16 + 32), 0,
	     "TAKE 4 after firmware released 3");
	is_u(get_be32(out + MLX5X_MANAGE_PAGES_OUT_OUTPUT_NUM_ENTRIES_OFF), 3,
	     "... 3 come back: fewer than asked");
	is_u(t.e.hca.releasable, 0, "... nothing releasable left");
	is_u(t.e.hca.npages, 7, "... 7 still held");
	memset(in, 0, 16);
	th_hdr(in, MLX5X_CMD_OP_TEARDOWN_HCA, 0);
	is_u(run(&t, in, 16, out, 16), 0, "TEARDOWN_HCA");
	is_u(manage(&t, MLX5X_PAGES_TAKE, NULL, 4, 0, out, 16 + 16),
	     MLX5X_CMD_STAT_BAD_OUTP_LEN, "TAKE 4 into room for 2 -> BAD_OUTP_LEN");
	is_u(manage(&t, MLX5X_PAGES_TAKE, NULL, 3, 0, out, 16 + 48), 0,
	     "TAKE 3");
	is_u(get_be32(out + MLX5X_MANAGE_PAGES_OUT_OUTPUT_NUM_ENTRIES_OFF), 3,
	     "... 3 returned");
	is_u(manage(&t, MLX5X_PAGES_TAKE, NULL, 16, 0, out, sizeof(out)), 0,
	     "TAKE 16 when 4 are left");
	is_u(get_be32(out + MLX5X_MANAGE_PAGES_OUT_OUTPUT_NUM_ENTRIES_OFF), 4,
	     "... only 4 come back, never more than asked or held");
	is_u(t.e.hca.npages, 0, "all pages back");
	is_u(t.e.hca.pages_given, t.e.hca.pages_taken, "given == taken");
	memset(in, 0, 16);
	th_hdr(in, MLX5X_CMD_OP_DISABLE_HCA, 0);
	is_u(run(&t, in, 16, out, 12), 0, "DISABLE_HCA");
	th_teardown(&t);
}

static void test_teardown_state(void)
{
	uint8_t in[16] = { 0 }, out[16];
	struct th t;

	th_setup(&t);
	th_init_hca(&t);
	th_hdr(in, MLX5X_CMD_OP_DISABLE_HCA, 0);
	is_u(run(&t, in, 16, out, 16), MLX5X_CMD_STAT_BAD_SYS_STATE,
	     "DISABLE_HCA while initialized -> BAD_SYS_STATE");
	th_hdr(in, MLX5X_CMD_OP_TEARDOWN_HCA, 0);
	PSET(in, MLX5X_TEARDOWN_HCA_IN_PROFILE, MLX5X_TEARDOWN_PREPARE_FAST);
	is_u(run(&t, in, 16, out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "fast teardown without the capability -> BAD_PARAM");
	PSET(in, MLX5X_TEARDOWN_HCA_IN_PROFILE, 0);
	is_u(run(&t, in, 16, out, 16), 0, "TEARDOWN_HCA with a UAR and PD alive");
	is_u(emu_live_objects(&t.e), 2, "... they still count as live (dropped)");
	is_u(run(&t, in, 16, out, 16), MLX5X_CMD_STAT_BAD_SYS_STATE,
	     "TEARDOWN_HCA twice -> BAD_SYS_STATE");
	th_teardown(&t);
}

static void vport_in(uint8_t *in, uint16_t op, uint16_t idx)
{
	memset(in, 0, 16);
	th_hdr(in, op, 0);
	PSET(in, MLX5X_HCA_VPORT_IN_INDEX, idx);
}

static void test_vport(void)
{
	uint8_t in[MLX5X_MODIFY_HCA_VPORT_CONTEXT_IN_LEN] = { 0 };
	uint8_t out[MLX5X_QUERY_HCA_VPORT_CONTEXT_OUT_LEN];
	uint8_t *ctx = out + MLX5X_HCA_VPORT_CONTEXT_OFF;
	uint8_t *mctx = in + MLX5X_HCA_VPORT_CONTEXT_OFF;
	struct th t;

	th_setup(&t);
	th_init_hca(&t);
	th_hdr(in, MLX5X_CMD_OP_QUERY_HCA_VPORT_CONTEXT, 0);
	is_u(run(&t, in, 16, out, sizeof(out)), 0, "QUERY_HCA_VPORT_CONTEXT");
	is_u(PGET(ctx, MLX5X_HVC_VPORT_STATE), MLX5X_PORT_STATE_ACTIVE,
	     "... port ACTIVE");
	is_u(PGET(ctx, MLX5X_HVC_PORT_PHYSICAL_STATE), MLX5X_PORT_PHYS_LINK_UP,
	     "... LinkUp");
	ok(PGET(ctx, MLX5X_HVC_LID) != 0, "... a LID");
	is_u(get_be64(ctx + MLX5X_HVC_NODE_GUID_OFF), 0x0002c90300001234ull,
	     "... node GUID from --guid");
	PSET(in, MLX5X_HCA_VPORT_IN_OTHER_VPORT, 1);
	is_u(run(&t, in, 16, out, sizeof(out)), MLX5X_CMD_STAT_BAD_PARAM,
	     "another vport -> BAD_PARAM");
	PSET(in, MLX5X_HCA_VPORT_IN_OTHER_VPORT, 0);
	PSET(in, MLX5X_HCA_VPORT_IN_PORT_NUM, 2);
	is_u(run(&t, in, 16, out, sizeof(out)), MLX5X_CMD_STAT_BAD_PARAM,
	     "port 2 of a one-port device -> BAD_PARAM");

	memset(in, 0, sizeof(in));
	th_hdr(in, MLX5X_CMD_OP_MODIFY_HCA_VPORT_CONTEXT, 0);
	PSET(mctx, MLX5X_HVC_CAP_MASK1, 1u << 16);
	PSET(mctx, MLX5X_HVC_CAP_MASK1_FIELD_SELECT, 1u << 16);
	is_u(run(&t, in, sizeof(in), out, 16), 0,
	     "MODIFY_HCA_VPORT_CONTEXT sets CM_SUP");
	ok(t.e.port.cap_mask1 & (1u << 16), "... cap_mask1 has CM_SUP");
	PSET(mctx, MLX5X_HVC_CAP_MASK1_FIELD_SELECT, 1u << 3);
	is_u(run(&t, in, sizeof(in), out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "changing a bit outside the permitted mask -> BAD_PARAM");
	PSET(mctx, MLX5X_HVC_CAP_MASK1_FIELD_SELECT, 0);
	PSET(mctx, MLX5X_HVC_FIELD_SELECT, MLX5X_HVC_SEL_NODE_GUID);
	is_u(run(&t, in, sizeof(in), out, 16), MLX5X_CMD_STAT_BAD_PARAM,
	     "changing the node GUID (not group manager) -> BAD_PARAM");

	vport_in(in, MLX5X_CMD_OP_QUERY_HCA_VPORT_GID, 0);
	is_u(run(&t, in, 16, out, 0x20), 0, "QUERY_HCA_VPORT_GID 0");
	is_u(get_be64(out + 0x10), 0xfe80000000000000ull, "... subnet prefix");
	is_u(get_be64(out + 0x18), 0x0002c90300001234ull, "... port GUID");
	vport_in(in, MLX5X_CMD_OP_QUERY_HCA_VPORT_GID, 8);
	is_u(run(&t, in, 16, out, 0x20), MLX5X_CMD_STAT_BAD_PARAM,
	     "GID index 8 of 8 -> BAD_PARAM");
	vport_in(in, MLX5X_CMD_OP_QUERY_HCA_VPORT_GID, 0xffff);
	is_u(run(&t, in, 16, out, 0x20), MLX5X_CMD_STAT_BAD_OUTP_LEN,
	     "all GIDs into room for one -> BAD_OUTP_LEN");
	vport_in(in, MLX5X_CMD_OP_QUERY_HCA_VPORT_PKEY, 0);
	is_u(run(&t, in, 16, out, 0x14), 0, "QUERY_HCA_VPORT_PKEY 0");
	is_u(get_be16(out + 0x12), 0xffff, "... default P_Key");
	vport_in(in, MLX5X_CMD_OP_QUERY_HCA_VPORT_PKEY, 0xffff);
	is_u(run(&t, in, 16, out, sizeof(out)), 0, "all 128 P_Keys");
	is_u(get_be16(out + 0x12 + 4), 0, "... entry 1 is empty");
	vport_in(in, MLX5X_CMD_OP_QUERY_HCA_VPORT_PKEY, 128);
	is_u(run(&t, in, 16, out, 0x14), MLX5X_CMD_STAT_BAD_PARAM,
	     "P_Key index 128 -> BAD_PARAM");
	th_teardown(&t);
}

static unsigned int reg(struct th *t, uint16_t id, int write, uint8_t *data,
			uint32_t len, uint8_t *out)
{
	uint8_t in[0x110] = { 0 };

	th_hdr(in, MLX5X_CMD_OP_ACCESS_REG, write ? 0 : 1);
	PSET(in, MLX5X_ACCESS_REG_IN_REGISTER_ID, id);
	memcpy(in + 0x10, data, len);
	return run(t, in, 0x10 + len, out, 0x10 + len);
}

static void test_registers(void)
{
	uint8_t d[0x100] = { 0 }, out[0x110];
	struct th t;

	th_setup(&t);
	th_init_hca(&t);
	PSET(d, MLX5X_PTYS_LOCAL_PORT, 1);
	PSET(d, MLX5X_PTYS_PROTO_MASK, MLX5X_PTYS_PROTO_IB);
	is_u(reg(&t, MLX5X_REG_PTYS, 0, d, 0x40, out), 0, "PTYS read");
	is_u(PGET(out + 0x10, MLX5X_PTYS_IB_LINK_WIDTH_OPER), MLX5X_PTYS_WIDTH_4X,
	     "... 4X");
	is_u(PGET(out + 0x10, MLX5X_PTYS_IB_PROTO_OPER), MLX5X_PTYS_SPEED_EDR,
	     "... EDR");
	PSET(d, MLX5X_PTYS_LOCAL_PORT, 2);
	is_u(reg(&t, MLX5X_REG_PTYS, 0, d, 0x40, out), MLX5X_CMD_STAT_BAD_PARAM,
	     "PTYS of local port 2 -> BAD_PARAM");
	PSET(d, MLX5X_PTYS_LOCAL_PORT, 1);
	PSET(d, MLX5X_PTYS_PROTO_MASK, MLX5X_PTYS_PROTO_EN);
	is_u(reg(&t, MLX5X_REG_PTYS, 0, d, 0x40, out), MLX5X_CMD_STAT_BAD_PARAM,
	     "PTYS Ethernet protocol on an IB port -> BAD_PARAM");
	memset(d, 0, sizeof(d));
	PSET(d, MLX5X_PVLC_LOCAL_PORT, 1);
	is_u(reg(&t, MLX5X_REG_PVLC, 0, d, 0x10, out), 0, "PVLC read");
	is_u(PGET(out + 0x10, MLX5X_PVLC_VL_HW_CAP), 4, "... vl_hw_cap 4");
	memset(d, 0, sizeof(d));
	PSET(d, MLX5X_PMTU_LOCAL_PORT, 1);
	PSET(d, MLX5X_PMTU_ADMIN_MTU, 1000);
	is_u(reg(&t, MLX5X_REG_PMTU, 1, d, 0x10, out), MLX5X_CMD_STAT_BAD_PARAM,
	     "PMTU write of 1000 bytes -> BAD_PARAM");
	PSET(d, MLX5X_PMTU_ADMIN_MTU, 2048);
	is_u(reg(&t, MLX5X_REG_PMTU, 1, d, 0x10, out), 0, "PMTU write 2048");
	is_u(reg(&t, MLX5X_REG_PMTU, 0, d, 0x10, out), 0, "PMTU read");
	is_u(PGET(out + 0x10, MLX5X_PMTU_OPER_MTU), 2048, "... oper_mtu follows");
	is_u(PGET(out + 0x10, MLX5X_PMTU_MAX_MTU), 4096, "... max_mtu 4096");
	memset(d, 0, sizeof(d));
	memcpy(d, "node one", 8);
	is_u(reg(&t, MLX5X_REG_NODE_DESC, 1, d, 0x40, out), 0, "NODE_DESC write");
	memset(d, 0, sizeof(d));
	is_u(reg(&t, MLX5X_REG_NODE_DESC, 0, d, 0x40, out), 0, "NODE_DESC read");
	ok(!memcmp(out + 0x10, "node one", 9), "... reads back what was written");
	is_u(reg(&t, MLX5X_REG_NODE_DESC, 0, d, 0x20, out), MLX5X_CMD_STAT_BAD_PARAM,
	     "NODE_DESC with 32 bytes of room -> BAD_PARAM");
	is_u(reg(&t, MLX5X_REG_DTOR, 0, d, 0x40, out), MLX5X_CMD_STAT_BAD_PARAM,
	     "an unknown register (DTOR) -> BAD_PARAM");
	d[0] = 0x80;
	is_u(reg(&t, MLX5X_REG_HOST_ENDIANNESS, 1, d, 0x10, out), 0,
	     "HOST_ENDIANNESS write");
	is_u(t.e.hca.host_endianness, 0x80000000u, "... stored");
	th_teardown(&t);
}

static void test_adapter(void)
{
	uint8_t in[16] = { 0 }, out[MLX5X_QUERY_ADAPTER_OUT_LEN];
	struct th t;

	th_setup(&t);
	th_init_hca(&t);
	th_hdr(in, MLX5X_CMD_OP_QUERY_ADAPTER, 0);
	is_u(run(&t, in, 16, out, sizeof(out)), 0, "QUERY_ADAPTER");
	is_u(PGET(out, MLX5X_QUERY_ADAPTER_OUT_IEEE_VENDOR_ID), 0x02c9,
	     "... vendor 0x02c9");
	ok(!memcmp(out + MLX5X_QUERY_ADAPTER_OUT_PSID_OFF, "MLX5X_EMU", 9),
	   "... board id");
	th_teardown(&t);
}

int main(void)
{
	test_enable();
	test_issi();
	test_caps();
	test_pages();
	test_teardown_state();
	test_vport();
	test_registers();
	test_adapter();
	return tap_done();
}
