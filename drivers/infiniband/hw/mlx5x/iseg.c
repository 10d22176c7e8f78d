// SPDX-License-Identifier: GPL-2.0-only
/*
 * Initialization segment: the first registers the driver reads from a
 * ConnectX function, before any command can be sent.
 */
#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/io.h>
#include <linux/jiffies.h>

#include "mlx5x.h"

/*
 * Firmware may still be booting when probe runs (e.g. right after a
 * reset); mlx5 firmware documents up to two minutes for that.
 */
#define MLX5X_FW_INIT_TIMEOUT_MS	120000
#define MLX5X_FW_INIT_POLL_MS		2

/* A function that fell off the bus reads all ones. */
#define MLX5X_ISEG_DEAD			cpu_to_be32(U32_MAX)

/*
 * The register accessors return and take the raw big-endian word.  The
 * swap to CPU order and back costs nothing at this rate and keeps every
 * decoder explicit about the byte order of what it reads.
 */
__be32 mlx5x_iseg_rd(void __iomem *iseg, unsigned int off)
{
	return cpu_to_be32(ioread32be(iseg + off));
}

void mlx5x_iseg_wr(void __iomem *iseg, unsigned int off, __be32 val)
{
	iowrite32be(be32_to_cpu(val), iseg + off);
}

void mlx5x_iseg_fw_ver(__be32 fw_rev, __be32 cmdif_rev_fw_sub,
		       struct mlx5x_fw_ver *ver)
{
	ver->major = be32_get_bits(fw_rev, MLX5X_ISEG_FW_REV_MAJOR_MASK);
	ver->minor = be32_get_bits(fw_rev, MLX5X_ISEG_FW_REV_MINOR_MASK);
	ver->sub = be32_get_bits(cmdif_rev_fw_sub, MLX5X_ISEG_FW_REV_SUB_MASK);
}

u16 mlx5x_iseg_cmdif_rev(__be32 cmdif_rev_fw_sub)
{
	return be32_get_bits(cmdif_rev_fw_sub, MLX5X_ISEG_CMDIF_REV_MASK);
}

/*
 * The command layout (descriptor, mailboxes, signatures) changed between
 * interface revisions; speaking rev 5 to anything else would corrupt
 * commands, so refuse instead of guessing.
 */
int mlx5x_iseg_check_cmdif(u16 cmdif_rev)
{
	return cmdif_rev == MLX5X_CMDIF_REV ? 0 : -EOPNOTSUPP;
}

bool mlx5x_iseg_fw_initializing(__be32 initializing)
{
	return be32_get_bits(initializing, MLX5X_ISEG_INITIALIZING_MASK);
}

/*
 * Decode the command queue geometry the device offers.  The queue is one
 * 4 KiB page: slots * stride must fit in it, a slot must hold a 64-byte
 * descriptor, and at least two slots are needed because the last one is
 * reserved for page requests (one slot would leave none for commands).
 * The 32-slot limit comes from the 32-bit doorbell register.  Both fields
 * are 4 bits wide, so the shifts below cannot overflow.
 */
int mlx5x_iseg_cmdq_geom(__be32 cmdq_addr_l_sz, struct mlx5x_cmdq_geom *geom)
{
	u8 log_sz = be32_get_bits(cmdq_addr_l_sz, MLX5X_ISEG_CMDQ_LOG_SZ_MASK);
	u8 log_stride = be32_get_bits(cmdq_addr_l_sz,
				      MLX5X_ISEG_CMDQ_LOG_STRIDE_MASK);

	if (log_sz < 1 || BIT(log_sz) > MLX5X_CMD_MAX_SLOTS)
		return -EINVAL;
	if (BIT(log_stride) < MLX5X_CMD_LAY_LEN)
		return -EINVAL;
	if (BIT(log_sz + log_stride) > MLX5X_CMDQ_LEN)
		return -EINVAL;

	geom->log_sz = log_sz;
	geom->log_stride = log_stride;
	return 0;
}

static int mlx5x_iseg_wait_fw_ready(struct mlx5x_dev *mdev)
{
	unsigned long end = jiffies + msecs_to_jiffies(MLX5X_FW_INIT_TIMEOUT_MS);
	__be32 reg;

	for (;;) {
		reg = mlx5x_iseg_rd(mdev->iseg, MLX5X_ISEG_INITIALIZING_OFF);
		if (reg == MLX5X_ISEG_DEAD) {
			dev_err(mlx5x_to_dev(mdev),
				"init segment reads all ones: device not responding\n");
			return -ENODEV;
		}
		if (!mlx5x_iseg_fw_initializing(reg))
			return 0;
		if (time_after(jiffies, end)) {
			dev_err(mlx5x_to_dev(mdev),
				"firmware still initializing after %u s\n",
				MLX5X_FW_INIT_TIMEOUT_MS / 1000);
			return -ETIMEDOUT;
		}
		msleep(MLX5X_FW_INIT_POLL_MS);
	}
}

/**
 * mlx5x_iseg_init() - probe stage: read and check the init segment
 * @mdev: device with @mdev->iseg mapped
 *
 * Waits for firmware to finish initializing, records the firmware version
 * and command interface revision, and refuses revisions the driver does
 * not speak.  Nothing to undo.
 *
 * Return: 0, or a negative errno (the reason is logged).
 */
int mlx5x_iseg_init(struct mlx5x_dev *mdev)
{
	struct device *dev = mlx5x_to_dev(mdev);
	__be32 fw_rev, cmdif;
	int err;

	err = mlx5x_iseg_wait_fw_ready(mdev);
	if (err)
		return err;

	fw_rev = mlx5x_iseg_rd(mdev->iseg, MLX5X_ISEG_FW_REV_OFF);
	cmdif = mlx5x_iseg_rd(mdev->iseg, MLX5X_ISEG_CMDIF_REV_OFF);
	mlx5x_iseg_fw_ver(fw_rev, cmdif, &mdev->fw);
	mdev->cmdif_rev = mlx5x_iseg_cmdif_rev(cmdif);

	err = mlx5x_iseg_check_cmdif(mdev->cmdif_rev);
	if (err) {
		dev_err(dev,
			"firmware %u.%u.%u uses command interface rev %u; mlx5x supports only rev %u\n",
			mdev->fw.major, mdev->fw.minor, mdev->fw.sub,
			mdev->cmdif_rev, MLX5X_CMDIF_REV);
		return err;
	}

	dev_info(dev, "firmware %u.%u.%u, command interface rev %u\n",
		 mdev->fw.major, mdev->fw.minor, mdev->fw.sub, mdev->cmdif_rev);
	return 0;
}
