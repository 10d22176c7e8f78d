/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Typed firmware commands: one wrapper per command.  Nothing above this
 * layer builds an input box or parses an output box.
 */
#ifndef MLX5X_FW_CMDS_H
#define MLX5X_FW_CMDS_H

#include <linux/types.h>

struct mlx5x_cmd;

/**
 * struct mlx5x_caps - the general capabilities the driver uses, decoded
 * @log_max_eq: log2 of the number of EQs (used when @max_num_eqs is 0)
 * @max_num_eqs: number of EQs, 0 = use @log_max_eq
 * @log_max_eq_sz: log2 of the largest EQ
 * @log_max_cq: log2 of the number of CQs
 * @log_max_qp: log2 of the number of QPs
 * @num_ports: physical ports
 * @port_type: 0 = InfiniBand, 1 = Ethernet
 * @uar_4k: UAR indices count 4 KiB units rather than system pages
 * @log_uar_page_sz: UAR page size, log2 in 4 KiB units
 */
struct mlx5x_caps {
	u8 log_max_eq;
	u16 max_num_eqs;
	u8 log_max_eq_sz;
	u8 log_max_cq;
	u8 log_max_qp;
	u8 num_ports;
	u8 port_type;
	bool uar_4k;
	u16 log_uar_page_sz;
};

/**
 * struct mlx5x_eq_params - what CREATE_EQ needs
 * @log_nent: log2 of the number of 64-byte entries
 * @uar: UAR index whose doorbells arm the EQ
 * @intr: MSI-X vector the device fires
 * @event_mask: bit n = deliver event type n (types 0..63)
 * @buf_dma: bus address of the (contiguous) ring
 */
struct mlx5x_eq_params {
	u8 log_nent;
	u32 uar;
	u16 intr;
	u64 event_mask;
	dma_addr_t buf_dma;
};

/* The largest number of PAS entries one MANAGE_PAGES carries. */
#define MLX5X_MANAGE_PAGES_MAX	512

int mlx5x_fw_exec_id(struct mlx5x_cmd *cmd, u16 opcode, u32 id);
int mlx5x_fw_exec_new_id(struct mlx5x_cmd *cmd, const void *in, size_t inlen,
			 u32 *id);
int mlx5x_fw_alloc_id(struct mlx5x_cmd *cmd, u16 opcode, u32 *id);
int mlx5x_fw_enable_hca(struct mlx5x_cmd *cmd);
int mlx5x_fw_disable_hca(struct mlx5x_cmd *cmd);
int mlx5x_fw_query_issi(struct mlx5x_cmd *cmd, u32 *supported);
int mlx5x_fw_set_issi(struct mlx5x_cmd *cmd, u16 issi);
int mlx5x_fw_query_pages(struct mlx5x_cmd *cmd, u16 op_mod, u16 *func_id,
			 s32 *npages);
int mlx5x_fw_give_pages(struct mlx5x_cmd *cmd, u16 func_id,
			const dma_addr_t *pas, u32 n);
int mlx5x_fw_cant_give_pages(struct mlx5x_cmd *cmd, u16 func_id);
int mlx5x_fw_take_pages(struct mlx5x_cmd *cmd, u16 func_id, u32 n,
			dma_addr_t *pas, u32 *nout);
int mlx5x_fw_set_host_endianness(struct mlx5x_cmd *cmd);
int mlx5x_fw_query_hca_cap(struct mlx5x_cmd *cmd, u8 type, u8 mode,
			   void *cap);
int mlx5x_fw_set_hca_cap(struct mlx5x_cmd *cmd, u8 type, const void *cap);
int mlx5x_fw_init_hca(struct mlx5x_cmd *cmd);
int mlx5x_fw_teardown_hca(struct mlx5x_cmd *cmd);
int mlx5x_fw_query_adapter_psid(struct mlx5x_cmd *cmd, char *psid,
				size_t len, u32 *vendor_id);
int mlx5x_fw_alloc_uar(struct mlx5x_cmd *cmd, u32 *index);
int mlx5x_fw_dealloc_uar(struct mlx5x_cmd *cmd, u32 index);
int mlx5x_fw_create_eq(struct mlx5x_cmd *cmd,
		       const struct mlx5x_eq_params *p, u8 *eqn);
int mlx5x_fw_destroy_eq(struct mlx5x_cmd *cmd, u8 eqn);
int mlx5x_fw_destroy_cq(struct mlx5x_cmd *cmd, u32 cqn);

/* Pure helpers, shared with the KUnit suites. */
void mlx5x_caps_decode(const void *cap, struct mlx5x_caps *caps);
void mlx5x_caps_prepare_set(void *cur, const void *max);
bool mlx5x_caps_atomic_prepare_set(const void *cur, void *set);
unsigned int mlx5x_caps_max_eqs(const struct mlx5x_caps *caps);
size_t mlx5x_fw_create_eq_inlen(u8 log_nent);
void mlx5x_fw_create_eq_encode(void *in, const struct mlx5x_eq_params *p);

#endif /* MLX5X_FW_CMDS_H */
