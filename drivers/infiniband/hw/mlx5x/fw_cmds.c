// SPDX-License-Identifier: GPL-2.0-only
/*
 * Typed firmware commands.  Each wrapper builds its input box from typed
 * arguments, runs it through the command engine and decodes the output.
 * Small boxes live on the stack; anything past a few dozen bytes is
 * allocated (caps are 4 KiB).
 */
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "cmd.h"
#include "fw_cmds.h"

/*
 * Every destroy and dealloc command names its object in bits 23:0 of
 * its input's third dword (the 8-bit EQ number in its low bits), and
 * every create and alloc command returns the new object's number at the
 * same place of its output.
 */
#define FW_OBJ_ID_OFF		0x008
#define FW_OBJ_ID_MASK		0x00ffffffU
#define FW_OBJ_ID_AT(fld)						\
	static_assert((fld##_OFF) == FW_OBJ_ID_OFF && !(fld##_MASK & ~FW_OBJ_ID_MASK))
FW_OBJ_ID_AT(MLX5X_ALLOC_UAR_OUT_UAR);
FW_OBJ_ID_AT(MLX5X_ALLOC_PD_OUT_PD);
FW_OBJ_ID_AT(MLX5X_ALLOC_XRCD_OUT_XRCD);
FW_OBJ_ID_AT(MLX5X_CREATE_MKEY_OUT_MKEY_INDEX);
FW_OBJ_ID_AT(MLX5X_CREATE_CQ_OUT_CQN);
FW_OBJ_ID_AT(MLX5X_CREATE_QP_OUT_QPN);
FW_OBJ_ID_AT(MLX5X_CREATE_SRQ_OUT_SRQN);
FW_OBJ_ID_AT(MLX5X_CREATE_RMP_OUT_RMPN);
FW_OBJ_ID_AT(MLX5X_DEALLOC_UAR_IN_UAR);
FW_OBJ_ID_AT(MLX5X_DESTROY_EQ_IN_EQ_NUMBER);
FW_OBJ_ID_AT(MLX5X_CQ_IN_CQN);
FW_OBJ_ID_AT(MLX5X_DEALLOC_PD_IN_PD);
FW_OBJ_ID_AT(MLX5X_DESTROY_MKEY_IN_MKEY_INDEX);
FW_OBJ_ID_AT(MLX5X_QP_IN_QPN);
FW_OBJ_ID_AT(MLX5X_DEALLOC_XRCD_IN_XRCD);
FW_OBJ_ID_AT(MLX5X_SRQ_IN_SRQN);
FW_OBJ_ID_AT(MLX5X_RMP_IN_RMPN);

/**
 * mlx5x_fw_exec_id() - a command of the header and an object number only
 * @cmd: command engine
 * @opcode: a destroy or dealloc command (or one without the number: 0)
 * @id: the object's number
 *
 * Return: the command's result; its output is the status only.
 */
int mlx5x_fw_exec_id(struct mlx5x_cmd *cmd, u16 opcode, u32 id)
{
	__be32 in[MLX5X_CMD_HDR_IN_LEN / 4] = {};

	mlx5x_cmd_in_hdr(in, opcode, 0);
	MLX5X_SET(in, FW_OBJ_ID, id);
	return mlx5x_cmd_exec_in(cmd, in, sizeof(in));
}

/**
 * mlx5x_fw_exec_new_id() - a create or alloc command, for the number
 * @cmd: command engine
 * @in: the input box
 * @inlen: its length
 * @id: the new object's number, on success
 *
 * Return: the command's result.
 */
int mlx5x_fw_exec_new_id(struct mlx5x_cmd *cmd, const void *in, size_t inlen,
			 u32 *id)
{
	__be32 out[MLX5X_CMD_HDR_OUT_LEN / 4] = {};
	int err;

	err = mlx5x_cmd_exec(cmd, in, inlen, out, sizeof(out));
	if (!err)
		*id = MLX5X_GET(out, FW_OBJ_ID);
	return err;
}

/* An alloc command of the header only (UAR, PD, XRC domain). */
int mlx5x_fw_alloc_id(struct mlx5x_cmd *cmd, u16 opcode, u32 *id)
{
	__be32 in[MLX5X_CMD_HDR_IN_LEN / 4] = {};

	mlx5x_cmd_in_hdr(in, opcode, 0);
	return mlx5x_fw_exec_new_id(cmd, in, sizeof(in), id);
}

int mlx5x_fw_enable_hca(struct mlx5x_cmd *cmd)
{
	/* function_id 0: this PF; embedded_cpu_function 0: host side. */
	return mlx5x_fw_exec_id(cmd, MLX5X_CMD_OP_ENABLE_HCA, 0);
}

int mlx5x_fw_disable_hca(struct mlx5x_cmd *cmd)
{
	return mlx5x_fw_exec_id(cmd, MLX5X_CMD_OP_DISABLE_HCA, 0);
}

/*
 * Returns the supported-ISSI bitmap.  Old firmware does not know the
 * command: "bad opcode" only means ISSI 0, so it is quiet and -EOPNOTSUPP;
 * any other status is a failure, logged, as mlx5_core_set_issi() takes it.
 */
int mlx5x_fw_query_issi(struct mlx5x_cmd *cmd, u32 *supported)
{
	__be32 in[MLX5X_CMD_HDR_IN_LEN / 4] = {};
	void *out;
	int err;

	out = kzalloc(MLX5X_QUERY_ISSI_OUT_LEN, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	mlx5x_cmd_in_hdr(in, MLX5X_CMD_OP_QUERY_ISSI, 0);
	err = mlx5x_cmd_exec_flags(cmd, in, sizeof(in), out,
				   MLX5X_QUERY_ISSI_OUT_LEN,
				   MLX5X_CMD_F_QUIET_BAD_OP);
	if (!err)
		*supported = MLX5X_GET(out, MLX5X_QUERY_ISSI_OUT_SUPPORTED_ISSI_DW0);
	else if (MLX5X_GET(out, MLX5X_CMD_OUT_STATUS) == MLX5X_CMD_STAT_BAD_OP)
		err = -EOPNOTSUPP;
	kfree(out);
	return err;
}

int mlx5x_fw_set_issi(struct mlx5x_cmd *cmd, u16 issi)
{
	__be32 in[MLX5X_CMD_HDR_IN_LEN / 4] = {};

	mlx5x_cmd_in_hdr(in, MLX5X_CMD_OP_SET_ISSI, 0);
	MLX5X_SET(in, MLX5X_SET_ISSI_IN_CURRENT_ISSI, issi);
	return mlx5x_cmd_exec_in(cmd, in, sizeof(in));
}

int mlx5x_fw_query_pages(struct mlx5x_cmd *cmd, u16 op_mod, u16 *func_id,
			 s32 *npages)
{
	__be32 out[MLX5X_CMD_HDR_IN_LEN / 4] = {};
	__be32 in[MLX5X_CMD_HDR_IN_LEN / 4] = {};
	int err;

	mlx5x_cmd_in_hdr(in, MLX5X_CMD_OP_QUERY_PAGES, op_mod);
	err = mlx5x_cmd_exec(cmd, in, sizeof(in), out, sizeof(out));
	if (err)
		return err;
	*func_id = MLX5X_GET(out, MLX5X_QUERY_PAGES_OUT_FUNCTION_ID);
	*npages = (s32)MLX5X_GET(out, MLX5X_QUERY_PAGES_OUT_NUM_PAGES);
	return 0;
}

/* The input header of a give or a take of @n pages. */
static void fw_manage_pages_in(void *in, u16 op_mod, u16 func_id, u32 n)
{
	mlx5x_cmd_in_hdr(in, MLX5X_CMD_OP_MANAGE_PAGES, op_mod);
	MLX5X_SET(in, MLX5X_PAGES_IN_FUNCTION_ID, func_id);
	MLX5X_SET(in, MLX5X_PAGES_IN_INPUT_NUM_ENTRIES, n);
}

int mlx5x_fw_give_pages(struct mlx5x_cmd *cmd, u16 func_id,
			const dma_addr_t *pas, u32 n)
{
	size_t inlen = MLX5X_PAGES_IN_PAS_OFF + n * sizeof(__be64);
	__be64 *in_pas;
	void *in;
	u32 i;
	int err;

	if (!n || n > MLX5X_MANAGE_PAGES_MAX)
		return -EINVAL;
	in = kzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	fw_manage_pages_in(in, MLX5X_PAGES_GIVE, func_id, n);
	in_pas = in + MLX5X_PAGES_IN_PAS_OFF;
	for (i = 0; i < n; i++)
		in_pas[i] = cpu_to_be64(pas[i]);
	err = mlx5x_cmd_exec_in(cmd, in, inlen);
	kfree(in);
	return err;
}

/* Tell the firmware a PAGE_REQUEST cannot be satisfied. */
int mlx5x_fw_cant_give_pages(struct mlx5x_cmd *cmd, u16 func_id)
{
	__be32 in[MLX5X_CMD_HDR_IN_LEN / 4] = {};

	mlx5x_cmd_in_hdr(in, MLX5X_CMD_OP_MANAGE_PAGES, MLX5X_PAGES_CANT_GIVE);
	MLX5X_SET(in, MLX5X_PAGES_IN_FUNCTION_ID, func_id);
	return mlx5x_cmd_exec_in(cmd, in, sizeof(in));
}

/*
 * Ask for up to @n pages back; *nout is how many the firmware returned,
 * their addresses in @pas.  A count above @n is a firmware bug and
 * rejected before anything is read.
 */
int mlx5x_fw_take_pages(struct mlx5x_cmd *cmd, u16 func_id, u32 n,
			dma_addr_t *pas, u32 *nout)
{
	size_t outlen = MLX5X_MANAGE_PAGES_OUT_PAS_OFF + n * sizeof(__be64);
	__be32 in[MLX5X_CMD_HDR_IN_LEN / 4] = {};
	__be64 *out_pas;
	void *out;
	u32 i, got;
	int err;

	if (!n || n > MLX5X_MANAGE_PAGES_MAX)
		return -EINVAL;
	out = kzalloc(outlen, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	fw_manage_pages_in(in, MLX5X_PAGES_TAKE, func_id, n);
	err = mlx5x_cmd_exec(cmd, in, sizeof(in), out, outlen);
	if (err)
		goto out;
	got = MLX5X_GET(out, MLX5X_MANAGE_PAGES_OUT_OUTPUT_NUM_ENTRIES);
	if (got > n) {
		err = -EPROTO;
		goto out;
	}
	out_pas = out + MLX5X_MANAGE_PAGES_OUT_PAS_OFF;
	for (i = 0; i < got; i++)
		pas[i] = be64_to_cpu(out_pas[i]);
	*nout = got;
out:
	kfree(out);
	return err;
}

/* HOST_ENDIANNESS: he = 0 means a little-endian host. */
int mlx5x_fw_set_host_endianness(struct mlx5x_cmd *cmd)
{
	size_t len = MLX5X_ACCESS_REG_DATA_OFF + MLX5X_REG_HOST_ENDIANNESS_LEN;
	__be32 out[(MLX5X_ACCESS_REG_DATA_OFF + MLX5X_REG_HOST_ENDIANNESS_LEN) / 4] = {};
	__be32 in[(MLX5X_ACCESS_REG_DATA_OFF + MLX5X_REG_HOST_ENDIANNESS_LEN) / 4] = {};
	void *data = (u8 *)in + MLX5X_ACCESS_REG_DATA_OFF;

	mlx5x_cmd_in_hdr(in, MLX5X_CMD_OP_ACCESS_REG, MLX5X_ACCESS_REG_WRITE);
	MLX5X_SET(in, MLX5X_ACCESS_REG_IN_REGISTER_ID, MLX5X_REG_HOST_ENDIANNESS);
	MLX5X_SET(data, MLX5X_HOST_ENDIANNESS_HE,
		  IS_ENABLED(CONFIG_CPU_BIG_ENDIAN));
	return mlx5x_cmd_exec(cmd, in, len, out, len);
}

/* @cap receives MLX5X_HCA_CAP_LEN bytes. */
int mlx5x_fw_query_hca_cap(struct mlx5x_cmd *cmd, u8 type, u8 mode,
			   void *cap)
{
	size_t outlen = MLX5X_QUERY_HCA_CAP_OUT_LEN;
	__be32 in[MLX5X_CMD_HDR_IN_LEN / 4] = {};
	void *out;
	int err;

	out = kzalloc(outlen, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	mlx5x_cmd_in_hdr(in, MLX5X_CMD_OP_QUERY_HCA_CAP, (type << 1) | (mode & 1));
	err = mlx5x_cmd_exec(cmd, in, sizeof(in), out, outlen);
	if (!err)
		memcpy(cap, out + MLX5X_QUERY_HCA_CAP_OUT_CAP_OFF, MLX5X_HCA_CAP_LEN);
	kfree(out);
	return err;
}

int mlx5x_fw_set_hca_cap(struct mlx5x_cmd *cmd, u8 type, const void *cap)
{
	size_t inlen = MLX5X_SET_HCA_CAP_IN_LEN;
	void *in;
	int err;

	in = kzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	mlx5x_cmd_in_hdr(in, MLX5X_CMD_OP_SET_HCA_CAP, type << 1);
	memcpy(in + MLX5X_SET_HCA_CAP_IN_CAP_OFF, cap, MLX5X_HCA_CAP_LEN);
	err = mlx5x_cmd_exec_in(cmd, in, inlen);
	kfree(in);
	return err;
}

int mlx5x_fw_init_hca(struct mlx5x_cmd *cmd)
{
	__be32 in[MLX5X_INIT_HCA_IN_LEN / 4] = {};

	mlx5x_cmd_in_hdr(in, MLX5X_CMD_OP_INIT_HCA, 0);
	return mlx5x_cmd_exec_in(cmd, in, sizeof(in));
}

/* Graceful teardown (profile 0). */
int mlx5x_fw_teardown_hca(struct mlx5x_cmd *cmd)
{
	return mlx5x_fw_exec_id(cmd, MLX5X_CMD_OP_TEARDOWN_HCA, 0);
}

/*
 * The board id, NUL terminated into @psid (at least 17 bytes), and the
 * IEEE vendor id into @vendor_id.
 */
int mlx5x_fw_query_adapter_psid(struct mlx5x_cmd *cmd, char *psid,
				size_t len, u32 *vendor_id)
{
	__be32 in[MLX5X_CMD_HDR_IN_LEN / 4] = {};
	void *out;
	int err;

	out = kzalloc(MLX5X_QUERY_ADAPTER_OUT_LEN, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	mlx5x_cmd_in_hdr(in, MLX5X_CMD_OP_QUERY_ADAPTER, 0);
	err = mlx5x_cmd_exec(cmd, in, sizeof(in), out,
			     MLX5X_QUERY_ADAPTER_OUT_LEN);
	if (!err) {
		strscpy(psid, out + MLX5X_QUERY_ADAPTER_OUT_PSID_OFF,
			min_t(size_t, len, MLX5X_QUERY_ADAPTER_PSID_LEN + 1));
		*vendor_id = MLX5X_GET(out, MLX5X_QUERY_ADAPTER_OUT_IEEE_VENDOR_ID);
	}
	kfree(out);
	return err;
}

int mlx5x_fw_alloc_uar(struct mlx5x_cmd *cmd, u32 *index)
{
	return mlx5x_fw_alloc_id(cmd, MLX5X_CMD_OP_ALLOC_UAR, index);
}

int mlx5x_fw_dealloc_uar(struct mlx5x_cmd *cmd, u32 index)
{
	return mlx5x_fw_exec_id(cmd, MLX5X_CMD_OP_DEALLOC_UAR, index);
}

/* One PAS entry per 4 KiB page of the ring. */
size_t mlx5x_fw_create_eq_inlen(u8 log_nent)
{
	size_t bytes = (size_t)MLX5X_EQE_LEN << log_nent;

	return MLX5X_CREATE_EQ_IN_PAS_OFF +
	       DIV_ROUND_UP(bytes, MLX5X_FW_PAGE_SIZE) * sizeof(__be64);
}

void mlx5x_fw_create_eq_encode(void *in, const struct mlx5x_eq_params *p)
{
	size_t npages = (mlx5x_fw_create_eq_inlen(p->log_nent) -
			 MLX5X_CREATE_EQ_IN_PAS_OFF) / sizeof(__be64);
	__be64 *pas = in + MLX5X_CREATE_EQ_IN_PAS_OFF;
	/* The first of the four bitmask words holds event types 0..63. */
	__be64 *mask = in + MLX5X_CREATE_EQ_IN_EVENT_BITMASK_OFF;
	size_t i;

	mlx5x_cmd_in_hdr(in, MLX5X_CMD_OP_CREATE_EQ, 0);
	MLX5X_SET_AT(in, MLX5X_CREATE_EQ_IN_EQC_OFF, MLX5X_EQC_LOG_EQ_SIZE,
		     p->log_nent);
	MLX5X_SET_AT(in, MLX5X_CREATE_EQ_IN_EQC_OFF, MLX5X_EQC_UAR_PAGE, p->uar);
	MLX5X_SET_AT(in, MLX5X_CREATE_EQ_IN_EQC_OFF, MLX5X_EQC_INTR, p->intr);
	/* log_page_size counts in 4 KiB units: 0 = 4 KiB pages. */
	MLX5X_SET_AT(in, MLX5X_CREATE_EQ_IN_EQC_OFF, MLX5X_EQC_LOG_PAGE_SIZE, 0);
	*mask = cpu_to_be64(p->event_mask);
	for (i = 0; i < npages; i++)
		pas[i] = cpu_to_be64(p->buf_dma + i * MLX5X_FW_PAGE_SIZE);
}

int mlx5x_fw_create_eq(struct mlx5x_cmd *cmd,
		       const struct mlx5x_eq_params *p, u8 *eqn)
{
	size_t inlen = mlx5x_fw_create_eq_inlen(p->log_nent);
	__be32 out[MLX5X_CMD_HDR_IN_LEN / 4] = {};
	void *in;
	int err;

	in = kzalloc(inlen, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	mlx5x_fw_create_eq_encode(in, p);
	err = mlx5x_cmd_exec(cmd, in, inlen, out, sizeof(out));
	if (!err)
		*eqn = MLX5X_GET(out, MLX5X_CREATE_EQ_OUT_EQ_NUMBER);
	kfree(in);
	return err;
}

int mlx5x_fw_destroy_eq(struct mlx5x_cmd *cmd, u8 eqn)
{
	return mlx5x_fw_exec_id(cmd, MLX5X_CMD_OP_DESTROY_EQ, eqn);
}

int mlx5x_fw_destroy_cq(struct mlx5x_cmd *cmd, u32 cqn)
{
	return mlx5x_fw_exec_id(cmd, MLX5X_CMD_OP_DESTROY_CQ, cqn);
}

void mlx5x_caps_decode(const void *cap, struct mlx5x_caps *caps)
{
	caps->log_max_eq = MLX5X_GET(cap, MLX5X_CAP_LOG_MAX_EQ);
	caps->max_num_eqs = MLX5X_GET(cap, MLX5X_CAP_MAX_NUM_EQS);
	caps->log_max_eq_sz = MLX5X_GET(cap, MLX5X_CAP_LOG_MAX_EQ_SZ);
	caps->log_max_cq = MLX5X_GET(cap, MLX5X_CAP_LOG_MAX_CQ);
	caps->log_max_qp = MLX5X_GET(cap, MLX5X_CAP_LOG_MAX_QP);
	caps->num_ports = MLX5X_GET(cap, MLX5X_CAP_NUM_PORTS);
	caps->port_type = MLX5X_GET(cap, MLX5X_CAP_PORT_TYPE);
	caps->uar_4k = MLX5X_GET(cap, MLX5X_CAP_UAR_4K);
	caps->log_uar_page_sz = MLX5X_GET(cap, MLX5X_CAP_LOG_UAR_PAGE_SZ);
}

unsigned int mlx5x_caps_max_eqs(const struct mlx5x_caps *caps)
{
	return caps->max_num_eqs ?: 1U << caps->log_max_eq;
}

/* UAR pages smaller than host pages only matter on such hosts. */
static bool caps_host_pages_above_4k(void)
{
	return PAGE_SIZE != SZ_4K;
}

/* The driver's QP limit, whatever the device could do. */
#define MLX5X_LOG_MAX_QP	18

/*
 * Turn a copy of the current general caps into the SET_HCA_CAP payload:
 * no command checksums (the engine does not compute them), UAR pages as
 * large as host pages (one mapping per UAR), 4 KiB UAR indices only where
 * host pages are larger, the default P_Key table, a bounded QP count.
 */
void mlx5x_caps_prepare_set(void *cur, const void *max)
{
	u8 max_qp = MLX5X_GET(max, MLX5X_CAP_LOG_MAX_QP);

	MLX5X_SET(cur, MLX5X_CAP_CMDIF_CHECKSUM, 0);
	MLX5X_SET(cur, MLX5X_CAP_LOG_UAR_PAGE_SZ, PAGE_SHIFT - 12);
	MLX5X_SET(cur, MLX5X_CAP_PKEY_TABLE_SIZE, 0);
	MLX5X_SET(cur, MLX5X_CAP_LOG_MAX_QP, min_t(u8, max_qp,
						   MLX5X_LOG_MAX_QP));
	if (caps_host_pages_above_4k() && MLX5X_GET(max, MLX5X_CAP_UAR_4K))
		MLX5X_SET(cur, MLX5X_CAP_UAR_4K, 1);
}

/**
 * mlx5x_caps_atomic_prepare_set() - SET_HCA_CAP payload of the atomic caps
 * @cur: current atomic capabilities (QUERY_HCA_CAP type ATOMIC)
 * @set: MLX5X_HCA_CAP_LEN bytes, zeroed by the caller
 *
 * Firmware may boot answering 8-byte atomics in big-endian order; IB
 * atomics want host order (requester mode 1), which it switches to when
 * asked and able.  As mlx5_core does: only when it says it can, with a
 * payload of zeros but that mode.
 *
 * Return: true if @set holds a payload to send.
 */
bool mlx5x_caps_atomic_prepare_set(const void *cur, void *set)
{
	if (!MLX5X_GET(cur, MLX5X_ATOMIC_CAP_SUPP_8B_ENDIANNESS_1))
		return false;
	MLX5X_SET(set, MLX5X_ATOMIC_CAP_REQ_8B_ENDIANNESS,
		  MLX5X_ATOMIC_REQ_MODE_HOST);
	return true;
}
