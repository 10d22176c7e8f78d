// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5x: PCI driver for ConnectX (mlx5 family) physical functions.
 *
 * Probe is an ordered list of stages; each stage has an optional undo.
 * A failed probe undoes the completed stages in reverse order and remove
 * undoes all of them the same way, so adding a stage is one table line
 * and the two paths can never drift apart.
 */
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "ib.h"
#include "mlx5x.h"

struct mlx5x_stage {
	const char *name;
	int (*init)(struct mlx5x_dev *mdev);
	void (*fini)(struct mlx5x_dev *mdev);
};

static int mlx5x_pci_enable(struct mlx5x_dev *mdev)
{
	int err;

	err = pci_enable_device_mem(mdev->pdev);
	if (err)
		dev_err(mlx5x_to_dev(mdev), "cannot enable PCI device: %d\n",
			err);
	return err;
}

static void mlx5x_pci_disable(struct mlx5x_dev *mdev)
{
	pci_disable_device(mdev->pdev);
}

/*
 * The init segment sits at the start of BAR0.  A function whose BAR0 is
 * not memory, or too small to hold the segment, is not a ConnectX PF we
 * can drive (or the BAR was not assigned), so refuse it before mapping.
 */
static int mlx5x_bar_map(struct mlx5x_dev *mdev)
{
	struct device *dev = mlx5x_to_dev(mdev);
	struct pci_dev *pdev = mdev->pdev;
	resource_size_t len;
	int err;

	if (!(pci_resource_flags(pdev, 0) & IORESOURCE_MEM)) {
		dev_err(dev, "BAR0 is not a memory BAR\n");
		return -ENODEV;
	}
	len = pci_resource_len(pdev, 0);
	if (len < MLX5X_ISEG_LEN) {
		dev_err(dev, "BAR0 is %pa bytes, need at least %#x\n", &len,
			MLX5X_ISEG_LEN);
		return -ENODEV;
	}

	err = pci_request_region(pdev, 0, KBUILD_MODNAME);
	if (err) {
		dev_err(dev, "cannot claim BAR0: %d\n", err);
		return err;
	}
	mdev->iseg = pci_iomap(pdev, 0, MLX5X_ISEG_LEN);
	if (!mdev->iseg) {
		dev_err(dev, "cannot map the init segment\n");
		pci_release_region(pdev, 0);
		return -ENOMEM;
	}
	return 0;
}

static void mlx5x_bar_unmap(struct mlx5x_dev *mdev)
{
	pci_iounmap(mdev->pdev, mdev->iseg);
	mdev->iseg = NULL;
	pci_release_region(mdev->pdev, 0);
}

/*
 * Command queue, mailboxes, EQs and firmware pages may be placed anywhere
 * in host memory; the device masters 64-bit addresses.
 */
static int mlx5x_dma_enable(struct mlx5x_dev *mdev)
{
	int err;

	err = dma_set_mask_and_coherent(mlx5x_to_dev(mdev), DMA_BIT_MASK(64));
	if (err) {
		dev_err(mlx5x_to_dev(mdev), "no usable 64-bit DMA: %d\n", err);
		return err;
	}
	pci_set_master(mdev->pdev);
	return 0;
}

static void mlx5x_dma_disable(struct mlx5x_dev *mdev)
{
	pci_clear_master(mdev->pdev);
}

/* Probe order; teardown runs it backwards. */
static const struct mlx5x_stage mlx5x_stages[] = {
	{ "pci",  mlx5x_pci_enable, mlx5x_pci_disable },
	{ "bar0", mlx5x_bar_map,    mlx5x_bar_unmap },
	{ "dma",  mlx5x_dma_enable, mlx5x_dma_disable },
	{ "iseg", mlx5x_iseg_init,  NULL },
	{ "cmdq",   mlx5x_hca_cmdq_init,   mlx5x_hca_cmdq_fini },
	{ "health", mlx5x_hca_health_init, mlx5x_hca_health_fini },
	{ "enable", mlx5x_hca_enable,      mlx5x_hca_disable },
	{ "issi",   mlx5x_hca_issi,        NULL },
	{ "bootpg", mlx5x_hca_boot_pages,  mlx5x_hca_reclaim_pages },
	{ "caps",   mlx5x_hca_set_caps,    NULL },
	{ "initpg", mlx5x_hca_init_pages,  NULL },
	{ "init",   mlx5x_hca_init,        mlx5x_hca_teardown },
	{ "query",  mlx5x_hca_query,       NULL },
	{ "uar",    mlx5x_hca_uar_init,    mlx5x_hca_uar_fini },
	{ "eqs",    mlx5x_hca_eqs_init,    mlx5x_hca_eqs_fini },
	{ "ready",  mlx5x_hca_ready,       NULL },
	{ "ibdev",  mlx5x_ib_init,         mlx5x_ib_fini },
};

static void mlx5x_stages_unwind(struct mlx5x_dev *mdev)
{
	const struct mlx5x_stage *stage;

	while (mdev->nr_stages) {
		stage = &mlx5x_stages[--mdev->nr_stages];
		if (stage->fini)
			stage->fini(mdev);
	}
}

static int mlx5x_stages_run(struct mlx5x_dev *mdev)
{
	const struct mlx5x_stage *stage;
	int err;

	while (mdev->nr_stages < ARRAY_SIZE(mlx5x_stages)) {
		stage = &mlx5x_stages[mdev->nr_stages];
		err = stage->init(mdev);
		if (err) {
			dev_err(mlx5x_to_dev(mdev), "probe stage %s failed: %d\n",
				stage->name, err);
			mlx5x_stages_unwind(mdev);
			return err;
		}
		mdev->nr_stages++;
	}
	return 0;
}

static int mlx5x_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct mlx5x_dev *mdev;
	int err;

	mdev = kzalloc(sizeof(*mdev), GFP_KERNEL);
	if (!mdev)
		return -ENOMEM;
	mdev->pdev = pdev;
	pci_set_drvdata(pdev, mdev);

	err = mlx5x_stages_run(mdev);
	if (err) {
		pci_set_drvdata(pdev, NULL);
		kfree(mdev);
	}
	return err;
}

static void mlx5x_remove(struct pci_dev *pdev)
{
	struct mlx5x_dev *mdev = pci_get_drvdata(pdev);

	mlx5x_stages_unwind(mdev);
	pci_set_drvdata(pdev, NULL);
	kfree(mdev);
}

/*
 * ConnectX-4 ... ConnectX-7 physical functions; VFs are not supported.
 *
 * These are mlx5_core's IDs too, so there is deliberately no
 * MODULE_DEVICE_TABLE(): its modalias would make udev load mlx5x for
 * every ConnectX at boot, racing mlx5_core for the functions.  mlx5x is
 * loaded only when asked (modprobe/insmod) and then binds the listed
 * functions that no driver holds; to move a function over from
 * mlx5_core, use driver_override (README.rst).
 */
static const struct pci_device_id mlx5x_pci_table[] = {
	{ PCI_VDEVICE(MELLANOX, 0x1013) },	/* ConnectX-4 */
	{ PCI_VDEVICE(MELLANOX, 0x1015) },	/* ConnectX-4 Lx */
	{ PCI_VDEVICE(MELLANOX, 0x1017) },	/* ConnectX-5 */
	{ PCI_VDEVICE(MELLANOX, 0x1019) },	/* ConnectX-5 Ex */
	{ PCI_VDEVICE(MELLANOX, 0x101b) },	/* ConnectX-6 */
	{ PCI_VDEVICE(MELLANOX, 0x101d) },	/* ConnectX-6 Dx */
	{ PCI_VDEVICE(MELLANOX, 0x101f) },	/* ConnectX-6 Lx */
	{ PCI_VDEVICE(MELLANOX, 0x1021) },	/* ConnectX-7 */
	{ }
};

static struct pci_driver mlx5x_pci_driver = {
	.name = KBUILD_MODNAME,
	.id_table = mlx5x_pci_table,
	.probe = mlx5x_probe,
	.remove = mlx5x_remove,
};
module_pci_driver(mlx5x_pci_driver);

MODULE_DESCRIPTION("RDMA driver for NVIDIA/Mellanox ConnectX (mlx5 family) HCAs");
MODULE_LICENSE("GPL");
