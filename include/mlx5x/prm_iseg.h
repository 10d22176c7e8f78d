/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlx5x PRM layouts: the initialization segment at the start of BAR0.
 *
 * All registers are big-endian 32-bit words.  See prm_cmd.h for the
 * naming convention.
 */
#ifndef MLX5X_PRM_ISEG_H
#define MLX5X_PRM_ISEG_H

#include <linux/types.h>

#define MLX5X_ISEG_FW_REV_OFF		0x0000
#define MLX5X_ISEG_FW_REV_MINOR_MASK	0xffff0000U
#define MLX5X_ISEG_FW_REV_MAJOR_MASK	0x0000ffffU
#define MLX5X_ISEG_CMDIF_REV_OFF	0x0004
#define MLX5X_ISEG_CMDIF_REV_MASK	0xffff0000U
#define MLX5X_ISEG_FW_REV_SUB_MASK	0x0000ffffU
/*
 * Command queue address.  Reads of the low word return the queue
 * geometry the device offers (log2 of the number of slots and of their
 * stride) and the NIC interface mode; the driver writes the low 32 bits
 * of the queue address there, with bits 11:0 clear.
 */
#define MLX5X_ISEG_CMDQ_ADDR_H_OFF	0x0010
#define MLX5X_ISEG_CMDQ_ADDR_L_SZ_OFF	0x0014
#define MLX5X_ISEG_CMDQ_ADDR_L_MASK	0xfffff000U	/* 4 KiB aligned */
#define MLX5X_ISEG_NIC_IFC_MASK		0x00000700U	/* enum mlx5x_nic_ifc */
#define MLX5X_ISEG_CMDQ_LOG_SZ_MASK	0x000000f0U	/* log2 of slots */
#define MLX5X_ISEG_CMDQ_LOG_STRIDE_MASK	0x0000000fU	/* log2 of stride */
#define MLX5X_ISEG_CMD_DBELL_OFF	0x0018	/* write 1 << slot */
#define MLX5X_ISEG_INITIALIZING_OFF	0x01fc
#define MLX5X_ISEG_INITIALIZING_MASK	0x80000000U	/* FW not ready yet */
#define MLX5X_ISEG_FW_RESET_SUP_MASK	0x40000000U
#define MLX5X_ISEG_EMBEDDED_CPU_MASK	0x00800000U	/* must read 0 */

/* Health buffer: 0x200..0x23f. */
#define MLX5X_ISEG_HEALTH_OFF		0x0200
#define MLX5X_ISEG_HEALTH_ASSERT_VAR_OFF 0x0200	/* 6 words */
#define MLX5X_ISEG_HEALTH_ASSERT_EXIT_PTR_OFF 0x0220
#define MLX5X_ISEG_HEALTH_ASSERT_CALLRA_OFF 0x0224
#define MLX5X_ISEG_HEALTH_TIME_OFF	0x022c
#define MLX5X_ISEG_HEALTH_FW_VER_OFF	0x0230	/* ~0 means "PCI dead" */
#define MLX5X_ISEG_HEALTH_HW_ID_OFF	0x0234
#define MLX5X_ISEG_HEALTH_RFR_SEV_OFF	0x0238
#define MLX5X_ISEG_HEALTH_RFR_MASK	0x80000000U	/* reset requested */
/* severity is 3 bits; the bit above it says whether it is valid */
#define MLX5X_ISEG_HEALTH_VALID_MASK	0x08000000U
#define MLX5X_ISEG_HEALTH_SEVERITY_MASK	0x07000000U
#define MLX5X_ISEG_HEALTH_SYND_OFF	0x023c
#define MLX5X_ISEG_HEALTH_IRISC_MASK	0xff000000U
#define MLX5X_ISEG_HEALTH_SYND_MASK	0x00ff0000U
#define MLX5X_ISEG_HEALTH_EXT_SYND_MASK	0x0000ffffU

#define MLX5X_ISEG_CMD_EXEC_TO_OFF	0x0ff8
#define MLX5X_ISEG_CMD_Q_INIT_TO_OFF	0x0ffc	/* 0: no DTOR register */
#define MLX5X_ISEG_INTERNAL_TIMER_H_OFF	0x1000
#define MLX5X_ISEG_INTERNAL_TIMER_L_OFF	0x1004
#define MLX5X_ISEG_HEALTH_COUNTER_OFF	0x1010	/* advances while alive */
#define MLX5X_ISEG_REAL_TIME_H_OFF	0x1040
#define MLX5X_ISEG_REAL_TIME_L_OFF	0x1044
#define MLX5X_ISEG_IEEE1588_CLK_OFF	0x2000
#define MLX5X_ISEG_CLR_INTX_OFF		0x200c

enum {
	/* bytes of BAR0 the driver maps as the initialization segment */
	MLX5X_ISEG_LEN			= 0x2010,
	/* UAR indices 0..2 are covered by the initialization segment */
	MLX5X_ISEG_PAGES		= 3,
	/*
	 * The command interface revision (the value of the
	 * MLX5X_ISEG_CMDIF_REV field) these layouts describe.
	 */
	MLX5X_CMDIF_REV			= 5,
	/*
	 * The command queue is one page of this size; slots (at most
	 * MLX5X_CMD_MAX_SLOTS, each at least MLX5X_CMD_LAY_LEN bytes
	 * apart) must fit in it.
	 */
	MLX5X_CMDQ_LEN			= 0x1000,
};

/* nic_interface field of cmdq_addr_l_sz */
enum mlx5x_nic_ifc {
	MLX5X_NIC_IFC_FULL_DRIVER	= 0,
	MLX5X_NIC_IFC_DISABLED		= 1,
	MLX5X_NIC_IFC_NO_DRAM_NIC	= 2,
	MLX5X_NIC_IFC_SW_RESET		= 7,
};

#endif /* MLX5X_PRM_ISEG_H */
