/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MLX5X_H
#define MLX5X_H

#include <linux/pci.h>
#include <linux/types.h>

#include "compat.h"
#include "hca.h"
#include "hw.h"
#include "iseg.h"

struct mlx5x_dev;
struct mlx5x_ib_dev;

/**
 * struct mlx5x_stage - one step of bringing a function up
 * @name: for messages
 * @init: does it; 0 or a negative errno
 * @fini: undoes it, or NULL
 * @reset: the last stage a slot reset (PCI error recovery) brings back
 *	by itself; the stages after it come back on resume
 */
struct mlx5x_stage {
	const char *name;
	int (*init)(struct mlx5x_dev *mdev);
	void (*fini)(struct mlx5x_dev *mdev);
	bool reset;
};

/**
 * struct mlx5x_dev - one ConnectX PCI function driven by mlx5x
 * @pdev: the PCI function
 * @iseg: BAR0 mapping of the initialization segment (MLX5X_ISEG_LEN bytes)
 * @fw: firmware version read from the init segment
 * @cmdif_rev: command interface revision read from the init segment
 * @stages: the stage table (the driver's, or a test's)
 * @nr_stage_tbl: number of entries in @stages
 * @nr_stages: probe stages completed so far; teardown undoes exactly these
 * @recovering: between PCI error_detected and resume: the PCI state
 *	stage restores the configuration saved at probe
 * @hca: state of the HCA bring-up stages (hca.c)
 * @ib: the registered RDMA device (ib_main.c), NULL outside the "ibdev"
 *	stage (events reach it through the HCA core's listener, not this)
 *
 * Written only by probe, remove, shutdown, the PCI error handlers and
 * the recovery work, all under the device lock (the driver core and the
 * PCI core take it for theirs), so no other lock is needed.
 */
struct mlx5x_dev {
	struct pci_dev *pdev;
	void __iomem *iseg;
	struct mlx5x_fw_ver fw;
	u16 cmdif_rev;
	const struct mlx5x_stage *stages;
	unsigned int nr_stage_tbl;
	unsigned int nr_stages;
	bool recovering;
	struct mlx5x_hca hca;
	struct mlx5x_ib_dev *ib;
};

static inline struct device *mlx5x_to_dev(const struct mlx5x_dev *mdev)
{
	return &mdev->pdev->dev;
}

/* PCI lifecycle beyond probe/remove (main.c); shared with KUnit. */
int mlx5x_probe_check_id(struct pci_dev *pdev);
pci_ers_result_t mlx5x_err_detected(struct mlx5x_dev *mdev,
				    pci_channel_state_t state);
pci_ers_result_t mlx5x_err_slot_reset(struct mlx5x_dev *mdev);
void mlx5x_err_resume(struct mlx5x_dev *mdev);
void mlx5x_quiesce(struct mlx5x_dev *mdev);
void mlx5x_recover_schedule(struct mlx5x_dev *mdev);

#endif /* MLX5X_H */
