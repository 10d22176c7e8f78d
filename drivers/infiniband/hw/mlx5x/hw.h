/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ConnectX (mlx5 family) hardware interface as seen by mlx5x: the
 * initialization segment at the start of BAR0.  Every register is a
 * big-endian 32-bit word; fields are described by GENMASK() masks and
 * extracted with be32_get_bits() so the byte order is never implicit.
 */
#ifndef MLX5X_HW_H
#define MLX5X_HW_H

#include <linux/bits.h>
#include <linux/types.h>

/* Register offsets inside the initialization segment (BAR0). */
#define MLX5X_ISEG_FW_REV		0x000
#define MLX5X_ISEG_CMDIF_REV_FW_SUB	0x004
#define MLX5X_ISEG_CMDQ_ADDR_H		0x010
#define MLX5X_ISEG_CMDQ_ADDR_L_SZ	0x014
#define MLX5X_ISEG_CMD_DBELL		0x018
#define MLX5X_ISEG_INITIALIZING	0x1fc

/*
 * Bytes the driver maps at probe: the init segment up to and including
 * the clock/INTx registers (0x2000-0x200f).  BAR0 must be at least this
 * large; the UAR pages behind it are checked when they are mapped.
 */
#define MLX5X_ISEG_SIZE		0x2010

/* fw_rev (0x000) */
#define MLX5X_FW_REV_MINOR		GENMASK(31, 16)
#define MLX5X_FW_REV_MAJOR		GENMASK(15, 0)

/* cmdif_rev_fw_sub (0x004) */
#define MLX5X_CMDIF_REV			GENMASK(31, 16)
#define MLX5X_FW_REV_SUB		GENMASK(15, 0)

/* The only command interface revision the driver speaks. */
#define MLX5X_CMDIF_REV_SUPPORTED	5

/*
 * cmdq_addr_l_sz (0x014).  Reads return the queue geometry in bits 7:0;
 * bits 10:8 are the NIC interface mode (health sensor); the driver writes
 * the low 32 bits of the 4 KiB aligned queue address with bits 11:0 clear.
 */
#define MLX5X_CMDQ_ADDR_L		GENMASK(31, 12)
#define MLX5X_CMDQ_NIC_IF		GENMASK(10, 8)
#define MLX5X_CMDQ_LOG_SZ		GENMASK(7, 4)
#define MLX5X_CMDQ_LOG_STRIDE		GENMASK(3, 0)

/* Command queue geometry limits (one 4 KiB page of 64-byte descriptors). */
#define MLX5X_CMDQ_PAGE_SHIFT		12
#define MLX5X_CMDQ_MAX_LOG_SZ		5	/* at most 32 slots */
#define MLX5X_CMDQ_MIN_LOG_STRIDE	6	/* descriptor is 64 bytes */

/* initializing (0x1fc) */
#define MLX5X_INITIALIZING_BUSY		BIT(31)

#endif /* MLX5X_HW_H */
