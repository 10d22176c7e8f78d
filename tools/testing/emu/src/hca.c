// SPDX-License-Identifier: GPL-2.0
/*
 * HCA life cycle commands: ENABLE/DISABLE, ISSI, capabilities, INIT and
 * TEARDOWN, adapter query, driver version, special contexts, NOP.
 */
#include "cmd.h"
#include "engine.h"
#include "log.h"

#define EMU_FILE_ID FILE_HCA

/*
 * ISSI 0 and 1, as ConnectX-5 firmware (--max-issi 0 leaves ISSI 1 out).
 * The step changes which commands mlx5_ib uses for SRQs (srq.c).
 */
static uint32_t supported_issi(const struct emu *e)
{
	return (2u << e->opt.max_issi) - 1;
}

static int check_function(struct cmd_ctx *c)
{
	/* a PF sees function 0 of itself, never an embedded CPU */
	if (PGET(c->in, MLX5X_ENABLE_HCA_IN_EMBEDDED_CPU_FUNCTION) ||
	    PGET(c->in, MLX5X_ENABLE_HCA_IN_FUNCTION_ID))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	return 0;
}

int h_enable_hca(struct cmd_ctx *c)
{
	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (check_function(c))
		return c->status;
	c->e->hca.enabled = true;
	return 0;
}

int h_disable_hca(struct cmd_ctx *c)
{
	struct emu *e = c->e;

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (check_function(c))
		return c->status;
	if (e->hca.initialized)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_SYS_STATE);
	if (e->hca.npages)
		emu_warn("DISABLE_HCA with %u firmware pages still held",
			 e->hca.npages);
	e->hca.enabled = false;
	return 0;
}

int h_query_issi(struct cmd_ctx *c)
{
	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	PSET(c->out, MLX5X_QUERY_ISSI_OUT_CURRENT_ISSI, c->e->hca.issi);
	put_be32(c->out + MLX5X_QUERY_ISSI_OUT_SUPPORTED_ISSI_DW0_OFF,
		 supported_issi(c->e));
	return 0;
}

int h_set_issi(struct cmd_ctx *c)
{
	uint32_t issi = PGET(c->in, MLX5X_SET_ISSI_IN_CURRENT_ISSI);

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (issi >= 32 || !(supported_issi(c->e) & (1u << issi)))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (c->e->hca.initialized)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_SYS_STATE);
	c->e->hca.issi = (uint16_t)issi;
	return 0;
}

int h_query_hca_cap(struct cmd_ctx *c)
{
	uint32_t type = (c->op_mod & MLX5X_HCA_CAP_OPMOD_TYPE_MASK) >> 1;
	bool cur = c->op_mod & MLX5X_HCA_CAP_OPMOD_MODE_MASK;

	if (PGET(c->in, MLX5X_QUERY_HCA_CAP_IN_OTHER_FUNCTION) ||
	    PGET(c->in, MLX5X_QUERY_HCA_CAP_IN_FUNCTION_ID))
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	/* the atomic capabilities are the transport engine's (issue 4) */
	if (type == MLX5X_CAP_TYPE_ATOMIC && CAP(c->e, MLX5X_CAP_ATOMIC)) {
		eng_atomic_caps(c->out + MLX5X_QUERY_HCA_CAP_OUT_CAP_OFF);
		return 0;
	}
	/* only the general capabilities exist on this device */
	if (type != MLX5X_CAP_TYPE_GENERAL)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	memcpy(c->out + MLX5X_QUERY_HCA_CAP_OUT_CAP_OFF,
	       cur ? c->e->hca.cap_cur : c->e->hca.cap_max, MLX5X_HCA_CAP_LEN);
	cmd_detail(c, "type=%u %s", type, cur ? "cur" : "max");
	return 0;
}

/* fields the driver may set, and how they relate to MAX */
enum set_rule { LE_MAX, ONLY_IF_MAX };

static const struct {
	uint32_t off, mask;
	enum set_rule rule;
} settable[] = {
#define S(f, r) { f##_OFF, f##_MASK, r }
	S(MLX5X_CAP_LOG_MAX_QP, LE_MAX),
	S(MLX5X_CAP_PKEY_TABLE_SIZE, LE_MAX),
	S(MLX5X_CAP_CMDIF_CHECKSUM, LE_MAX),
	S(MLX5X_CAP_LOG_UAR_PAGE_SZ, LE_MAX),
	S(MLX5X_CAP_UAR_4K, ONLY_IF_MAX),
	S(MLX5X_CAP_CACHE_LINE_128BYTE, ONLY_IF_MAX),
	S(MLX5X_CAP_DCT, ONLY_IF_MAX),
	S(MLX5X_CAP_NUM_VHCA_PORTS, LE_MAX),
	S(MLX5X_CAP_RELEASE_ALL_PAGES, ONLY_IF_MAX),
	S(MLX5X_CAP_MKEY_BY_NAME, ONLY_IF_MAX),
	S(MLX5X_CAP_VHCA_STATE, ONLY_IF_MAX),
	S(MLX5X_CAP_ROCE, ONLY_IF_MAX),
	S(MLX5X_CAP_LOG_MAX_CURRENT_UC_LIST, LE_MAX),
	S(MLX5X_CAP_NUM_TOTAL_DYNAMIC_VF_MSIX, LE_MAX),
#undef S
};

int h_set_hca_cap(struct cmd_ctx *c)
{
	const uint8_t *cap = c->in + MLX5X_SET_HCA_CAP_IN_CAP_OFF;
	uint32_t type = (c->op_mod & MLX5X_HCA_CAP_OPMOD_TYPE_MASK) >> 1;
	struct emu_hca *h = &c->e->hca;
	unsigned int i;

	if (c->op_mod & MLX5X_HCA_CAP_OPMOD_MODE_MASK)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (type != MLX5X_CAP_TYPE_GENERAL)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	/* validate everything first: a refused SET changes nothing */
	for (i = 0; i < ARRAY_SIZE(settable); i++) {
		uint32_t v = prm_get(cap, settable[i].off, settable[i].mask);
		uint32_t max = prm_get(h->cap_max, settable[i].off,
				       settable[i].mask);

		if (v > max)
			return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	}
	for (i = 0; i < ARRAY_SIZE(settable); i++)
		prm_set(h->cap_cur, settable[i].off, settable[i].mask,
			prm_get(cap, settable[i].off, settable[i].mask));
	cmd_detail(c, "log_max_qp=%u", CAP(c->e, MLX5X_CAP_LOG_MAX_QP));
	return 0;
}

int h_init_hca(struct cmd_ctx *c)
{
	struct emu *e = c->e;

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	/* the boot and init pages asked for must have been given */
	if (e->hca.npages < e->hca.boot_pages + e->hca.init_pages)
		return CMD_FAIL(c, MLX5X_CMD_STAT_NO_RES);
	e->hca.initialized = true;
	port_link_up(e);
	if (e->opt.fault.health_synd >= 0)
		e->iseg.health_at_ns = now_ns() +
			(uint64_t)e->opt.fault.health_delay_ms * 1000000ull;
	return 0;
}

int h_teardown_hca(struct cmd_ctx *c)
{
	struct emu *e = c->e;
	uint32_t profile = PGET(c->in, MLX5X_TEARDOWN_HCA_IN_PROFILE);

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	if (profile != MLX5X_TEARDOWN_GRACEFUL &&
	    profile != MLX5X_TEARDOWN_FORCE_CLOSE)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	objs_drop_all(e);
	e->hca.initialized = false;
	/* pages stay with the device until MANAGE_PAGES TAKE */
	return 0;
}

int h_query_adapter(struct cmd_ctx *c)
{
	static const char psid[MLX5X_QUERY_ADAPTER_PSID_LEN] = "MLX5X_EMU_CX5";
	static const char vsd[] = "mlx5x emulated ConnectX-5";

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	PSET(c->out, MLX5X_QUERY_ADAPTER_OUT_IEEE_VENDOR_ID, 0x0002c9);
	PSET(c->out, MLX5X_QUERY_ADAPTER_OUT_VSD_VENDOR_ID, 0x15b3);
	memcpy(c->out + MLX5X_QUERY_ADAPTER_OUT_VSD_OFF, vsd, sizeof(vsd));
	memcpy(c->out + MLX5X_QUERY_ADAPTER_OUT_PSID_OFF, psid, sizeof(psid));
	return 0;
}

int h_set_driver_version(struct cmd_ctx *c)
{
	struct emu_hca *h = &c->e->hca;

	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	memcpy(h->driver_version, c->in + MLX5X_SET_DRIVER_VERSION_IN_VERSION_OFF,
	       64);
	h->driver_version[64] = 0;
	cmd_detail(c, "\"%s\"", h->driver_version);
	return 0;
}

int h_query_special_contexts(struct cmd_ctx *c)
{
	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	/* no special mkeys are advertised; the reserved lkey is fixed */
	put_be32(c->out + MLX5X_QUERY_SPECIAL_CONTEXTS_OUT_RESD_LKEY_OFF,
		 0x100);
	return 0;
}

int h_nop(struct cmd_ctx *c)
{
	if (c->op_mod)
		return CMD_FAIL(c, MLX5X_CMD_STAT_BAD_PARAM);
	return 0;
}
