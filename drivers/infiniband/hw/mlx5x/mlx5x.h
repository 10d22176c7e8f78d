/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MLX5X_H
#define MLX5X_H

#include <linux/pci.h>
#include <linux/types.h>

#include "compat.h"
#include "hca.h"
#include "hw.h"
#include "iseg.h"

struct mlx5x_ib_dev;

/**
 * struct mlx5x_dev - one ConnectX PCI function driven by mlx5x
 * @pdev: the PCI function
 * @iseg: BAR0 mapping of the initialization segment (MLX5X_ISEG_LEN bytes)
 * @fw: firmware version read from the init segment
 * @cmdif_rev: command interface revision read from the init segment
 * @nr_stages: probe stages completed so far; teardown undoes exactly these
 * @hca: state of the HCA bring-up stages (hca.c)
 * @ib: the registered RDMA device (ib_main.c), NULL outside the "ibdev"
 *	stage; RCU: event handlers (async EQ interrupt, health work) read
 *	it under rcu_read_lock(), unregistration waits for them
 *
 * Written only by probe and remove, which the driver core serializes, so
 * no lock is needed yet.
 */
struct mlx5x_dev {
	struct pci_dev *pdev;
	void __iomem *iseg;
	struct mlx5x_fw_ver fw;
	u16 cmdif_rev;
	unsigned int nr_stages;
	struct mlx5x_hca hca;
	struct mlx5x_ib_dev __rcu *ib;
};

static inline struct device *mlx5x_to_dev(const struct mlx5x_dev *mdev)
{
	return &mdev->pdev->dev;
}

#endif /* MLX5X_H */
