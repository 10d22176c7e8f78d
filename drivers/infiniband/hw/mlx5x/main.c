// SPDX-License-Identifier: GPL-2.0-only
/*
 * mlx5x: PCI driver for ConnectX (mlx5 family) physical functions.
 *
 * Probe is an ordered list of stages; each stage has an optional undo.
 * A failed probe undoes the completed stages in reverse order and remove
 * undoes all of them the same way, so adding a stage is one table line
 * and the two paths can never drift apart.  Shutdown (reboot, kexec) is
 * remove without freeing: the function must stop its DMA before the next
 * kernel owns the memory.  PCI error recovery is remove (with the command
 * interface killed: the device is unreachable) and probe again, split at
 * the slot reset as the PCI core asks.  Recovery after a fatal health
 * verdict is the same rebuild with a function reset in the middle, done
 * by a work item (see mlx5x_recover_work()).
 */
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "ib.h"
#include "mlx5x.h"

static bool recover = true;
module_param(recover, bool, 0644);
MODULE_PARM_DESC(recover,
		 "Reset and bring up again a function after a fatal error (default Y)");

static unsigned int recover_interval_s = 60;
module_param(recover_interval_s, uint, 0644);
MODULE_PARM_DESC(recover_interval_s,
		 "Minimum seconds between two recoveries of one function (default 60)");

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
 * in host memory; the device masters 64-bit addresses.  A translation
 * entry covers any run of memory, so the DMA segments of a pinned user
 * buffer need not stop at the PCI default of 64 KiB: without the bigger
 * limit (mlx5_core sets 2 GiB too) a huge-page-backed MR is pinned,
 * mapped and unpinned in 16 times as many pieces.
 */
static int mlx5x_dma_enable(struct mlx5x_dev *mdev)
{
	int err;

	err = dma_set_mask_and_coherent(mlx5x_to_dev(mdev), DMA_BIT_MASK(64));
	if (err) {
		dev_err(mlx5x_to_dev(mdev), "no usable 64-bit DMA: %d\n", err);
		return err;
	}
	dma_set_max_seg_size(mlx5x_to_dev(mdev), SZ_2G);
	pci_set_master(mdev->pdev);
	return 0;
}

static void mlx5x_dma_disable(struct mlx5x_dev *mdev)
{
	pci_clear_master(mdev->pdev);
}

/*
 * The configuration a slot reset loses (BARs, command register, MSI-X):
 * saved once the function is set up; after a slot reset, restored from
 * that and saved again for the next error.
 */
static int mlx5x_pci_state(struct mlx5x_dev *mdev)
{
	if (mdev->recovering)
		pci_restore_state(mdev->pdev);
	pci_save_state(mdev->pdev);
	return 0;
}

/* Probe order; teardown runs it backwards. */
static const struct mlx5x_stage mlx5x_stages[] = {
	{ "pci",  mlx5x_pci_enable, mlx5x_pci_disable },
	{ "bar0", mlx5x_bar_map,    mlx5x_bar_unmap },
	{ "dma",  mlx5x_dma_enable, mlx5x_dma_disable },
	{ "state", mlx5x_pci_state, NULL, .reset = true },
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
		stage = &mdev->stages[--mdev->nr_stages];
		if (stage->fini)
			stage->fini(mdev);
	}
}

/* Run the stages up to and excluding @end; on failure undo them all. */
static int mlx5x_stages_run_to(struct mlx5x_dev *mdev, unsigned int end)
{
	const struct mlx5x_stage *stage;
	int err;

	while (mdev->nr_stages < end) {
		stage = &mdev->stages[mdev->nr_stages];
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

static int mlx5x_stages_run(struct mlx5x_dev *mdev)
{
	return mlx5x_stages_run_to(mdev, mdev->nr_stage_tbl);
}

/* A fresh device state, as probe found it: the stage inits expect zeroes. */
static void mlx5x_dev_reset_sw(struct mlx5x_dev *mdev)
{
	*mdev = (struct mlx5x_dev){
		.pdev = mdev->pdev,
		.stages = mdev->stages,
		.nr_stage_tbl = mdev->nr_stage_tbl,
		.recovering = mdev->recovering,
	};
}

/**
 * struct mlx5x_pf - a function mlx5x probed
 * @mdev: its device state (reset to zeroes whenever it is rebuilt)
 * @recover_work: takes the function down after a fatal error, resets it
 *	and brings it up again (mlx5x_recover_work()), under the device lock
 * @limit: when it last did so
 * @removing: set under the device lock by remove, shutdown or a failed
 *	probe before they cancel @recover_work; the work, which cannot take
 *	the lock meanwhile, then gives up
 *
 * The recovery outlives the rebuilds of @mdev it makes, so it lives
 * beside it.
 */
struct mlx5x_pf {
	struct mlx5x_dev mdev;
	struct work_struct recover_work;
	struct mlx5x_recover_limit limit;
	bool removing;
};

static struct mlx5x_pf *to_pf(struct mlx5x_dev *mdev)
{
	return container_of(mdev, struct mlx5x_pf, mdev);
}

static bool mlx5x_cmdq_up(struct mlx5x_dev *mdev)
{
	unsigned int i;

	for (i = 0; i < mdev->nr_stages; i++)
		if (mdev->stages[i].init == mlx5x_hca_cmdq_init)
			return true;
	return false;
}

/**
 * mlx5x_probe_check_id() - refuse the functions mlx5x cannot drive
 * @pdev: the function being probed
 *
 * The Ethernet-only adapters (ConnectX-4 Lx, ConnectX-6 Dx and Lx) have
 * no InfiniBand port on any firmware, and mlx5x has no RoCE.  They are not
 * in the ID table, but driver_override binds any function, so probe says
 * why before anything touches the device.
 *
 * Return: 0, or -ENODEV for a function mlx5x does not drive.
 */
int mlx5x_probe_check_id(struct pci_dev *pdev)
{
	switch (pdev->device) {
	case 0x1015:	/* ConnectX-4 Lx */
	case 0x101d:	/* ConnectX-6 Dx */
	case 0x101f:	/* ConnectX-6 Lx */
		dev_info(&pdev->dev,
			 "device 0x%04x is an Ethernet-only ConnectX; mlx5x drives InfiniBand ports only (no RoCE): not binding\n",
			 pdev->device);
		return -ENODEV;
	}
	return 0;
}

/*
 * ---- recovery after a fatal error ----
 *
 * The health poller found the function failed: its command interface is
 * killed (DMA stopped, commands complete locally) and the users got
 * IBV_EVENT_DEVICE_FATAL.  The work takes every stage down (the RDMA
 * device is unregistered: user contexts are disassociated, their
 * mappings zapped, their later calls fail), resets the function and runs
 * the stages again, which registers a new RDMA device.  When recovery is
 * off or too soon after the last one, the function is left down instead,
 * until it is unbound and bound again.
 */
static void mlx5x_recover_locked(struct mlx5x_pf *pf)
{
	struct mlx5x_dev *mdev = &pf->mdev;
	struct device *dev = mlx5x_to_dev(mdev);
	enum mlx5x_recover_verdict v;
	ktime_t t0 = ktime_get();
	int err;

	/* PCI error recovery, or an earlier run, got there first */
	if (!mdev->nr_stages || !mlx5x_health_is_fatal(&mdev->hca.health))
		return;
	v = mlx5x_recover_decide(&pf->limit, READ_ONCE(recover),
				 READ_ONCE(recover_interval_s) * HZ, jiffies);
	dev_err(dev, "function in the error state: taking it down; %s\n",
		mlx5x_recover_verdict_str(v));
	mlx5x_stages_unwind(mdev);
	mlx5x_dev_reset_sw(mdev);
	if (v != MLX5X_RECOVER_GO) {
		dev_err(dev, "function left down: unbind and bind it to try again\n");
		return;
	}
	err = pci_reset_function_locked(mdev->pdev);
	if (err) {
		dev_err(dev, "recovery failed: function reset: %d, function left down\n",
			err);
		return;
	}
	err = mlx5x_stages_run(mdev);
	if (err) {
		dev_err(dev, "recovery failed: %d, function left down\n", err);
		mlx5x_dev_reset_sw(mdev);
		return;
	}
	dev_info(dev, "recovery done in %lld ms (recovery %u)\n",
		 ktime_ms_delta(ktime_get(), t0), pf->limit.count);
}

static void mlx5x_recover_work(struct work_struct *work)
{
	struct mlx5x_pf *pf = container_of(work, struct mlx5x_pf,
					   recover_work);
	struct device *dev = mlx5x_to_dev(&pf->mdev);

	/*
	 * Remove holds the device lock while it cancels this work: never
	 * block on the lock, look for the flag remove sets first.
	 */
	while (!device_trylock(dev)) {
		if (READ_ONCE(pf->removing))
			return;
		msleep(20);
	}
	if (!pf->removing)
		mlx5x_recover_locked(pf);
	device_unlock(dev);
}

/**
 * mlx5x_recover_schedule() - the function entered the error state
 * @mdev: the function; process context
 */
void mlx5x_recover_schedule(struct mlx5x_dev *mdev)
{
	queue_work(system_long_wq, &to_pf(mdev)->recover_work);
}

/*
 * Under the device lock, once the health poller is stopped (it schedules
 * the work): no recovery after this returns.
 */
static void mlx5x_recover_cancel(struct mlx5x_pf *pf)
{
	WRITE_ONCE(pf->removing, true);
	cancel_work_sync(&pf->recover_work);
}

static int mlx5x_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct mlx5x_dev *mdev;
	struct mlx5x_pf *pf;
	int err;

	err = mlx5x_probe_check_id(pdev);
	if (err)
		return err;
	pf = kzalloc(sizeof(*pf), GFP_KERNEL);
	if (!pf)
		return -ENOMEM;
	INIT_WORK(&pf->recover_work, mlx5x_recover_work);
	mdev = &pf->mdev;
	mdev->pdev = pdev;
	mdev->stages = mlx5x_stages;
	mdev->nr_stage_tbl = ARRAY_SIZE(mlx5x_stages);
	pci_set_drvdata(pdev, mdev);

	err = mlx5x_stages_run(mdev);
	if (err) {
		mlx5x_recover_cancel(pf);
		pci_set_drvdata(pdev, NULL);
		kfree(pf);
	}
	return err;
}

static bool mlx5x_pci_gone(struct mlx5x_dev *mdev)
{
	__be32 fw_ver = mlx5x_iseg_rd(mdev->iseg, MLX5X_ISEG_HEALTH_FW_VER_OFF);

	return pci_channel_offline(mdev->pdev) ||
	       !pci_device_is_present(mdev->pdev) ||
	       be32_to_cpu(fw_ver) == U32_MAX;
}

static void mlx5x_remove(struct pci_dev *pdev)
{
	struct mlx5x_dev *mdev = pci_get_drvdata(pdev);
	struct mlx5x_pf *pf = to_pf(mdev);

	/* a recovery waiting for the lock gives up from here on */
	WRITE_ONCE(pf->removing, true);
	/*
	 * Surprise removal: the function is gone (the PCI core marked it
	 * disconnected, config reads fail, or the health buffer reads
	 * all-ones before the health poll noticed) and nothing would answer
	 * a command, so the teardown completes locally, as mlx5_core's
	 * commands do once the channel is offline.
	 */
	if (mlx5x_cmdq_up(mdev) && mlx5x_pci_gone(mdev)) {
		dev_warn(mlx5x_to_dev(mdev), "function gone: tearing down without the device\n");
		mlx5x_cmd_kill(&mdev->hca.cmd);
	}
	mlx5x_stages_unwind(mdev);
	mlx5x_recover_cancel(pf);
	pci_set_drvdata(pdev, NULL);
	kfree(pf);
}

/**
 * mlx5x_quiesce() - bring the function down for a reboot or kexec
 * @mdev: the function
 *
 * The orderly teardown of remove (the firmware gives its pages back and
 * stops the queues; bus mastering goes off last), without freeing @mdev:
 * nothing may DMA into memory the next kernel owns.  With the command
 * interface killed the teardown completes locally, after the kill stopped
 * the DMA.
 */
void mlx5x_quiesce(struct mlx5x_dev *mdev)
{
	mlx5x_stages_unwind(mdev);
}

static void mlx5x_shutdown(struct pci_dev *pdev)
{
	struct mlx5x_dev *mdev = pci_get_drvdata(pdev);

	if (!mdev)
		return;
	WRITE_ONCE(to_pf(mdev)->removing, true);
	mlx5x_quiesce(mdev);
	mlx5x_recover_cancel(to_pf(mdev));
}

/**
 * mlx5x_err_detected() - the PCI core saw an error on the function's link
 * @mdev: the function
 * @state: frozen (a reset follows) or permanent failure
 *
 * The device is unreachable: kill the command interface so teardown
 * completes locally, take everything down and wait for the slot reset.
 */
pci_ers_result_t mlx5x_err_detected(struct mlx5x_dev *mdev,
				    pci_channel_state_t state)
{
	dev_err(mlx5x_to_dev(mdev), "PCI error detected (channel state %d), taking the function down\n",
		state);
	if (mlx5x_cmdq_up(mdev))
		mlx5x_cmd_kill(&mdev->hca.cmd);
	mlx5x_stages_unwind(mdev);
	mlx5x_dev_reset_sw(mdev);
	mdev->recovering = true;
	return state == pci_channel_io_perm_failure ?
	       PCI_ERS_RESULT_DISCONNECT : PCI_ERS_RESULT_NEED_RESET;
}

/**
 * mlx5x_err_slot_reset() - the slot was reset: is the function back?
 * @mdev: the function, all stages down
 *
 * Enables it again up to the reset stage (PCI, BAR, DMA, and the
 * configuration saved at probe restored); the rest comes on resume.
 */
pci_ers_result_t mlx5x_err_slot_reset(struct mlx5x_dev *mdev)
{
	unsigned int i;

	for (i = 0; i < mdev->nr_stage_tbl; i++)
		if (mdev->stages[i].reset)
			break;
	if (i == mdev->nr_stage_tbl ||
	    mlx5x_stages_run_to(mdev, i + 1)) {
		dev_err(mlx5x_to_dev(mdev), "PCI slot reset: function not usable\n");
		mlx5x_dev_reset_sw(mdev);
		mdev->recovering = false;
		return PCI_ERS_RESULT_DISCONNECT;
	}
	return PCI_ERS_RESULT_RECOVERED;
}

/* Traffic may flow again: bring the HCA and the RDMA device back. */
void mlx5x_err_resume(struct mlx5x_dev *mdev)
{
	int err;

	mdev->recovering = false;
	err = mlx5x_stages_run(mdev);
	if (err) {
		dev_err(mlx5x_to_dev(mdev), "PCI error recovery failed: %d, function left down\n",
			err);
		mlx5x_dev_reset_sw(mdev);
		return;
	}
	dev_info(mlx5x_to_dev(mdev), "PCI error recovery done\n");
}

static pci_ers_result_t mlx5x_pci_error_detected(struct pci_dev *pdev,
						 pci_channel_state_t state)
{
	return mlx5x_err_detected(pci_get_drvdata(pdev), state);
}

static pci_ers_result_t mlx5x_pci_slot_reset(struct pci_dev *pdev)
{
	return mlx5x_err_slot_reset(pci_get_drvdata(pdev));
}

static void mlx5x_pci_resume(struct pci_dev *pdev)
{
	mlx5x_err_resume(pci_get_drvdata(pdev));
}

static const struct pci_error_handlers mlx5x_err_handler = {
	.error_detected = mlx5x_pci_error_detected,
	.slot_reset = mlx5x_pci_slot_reset,
	.resume = mlx5x_pci_resume,
};

/*
 * ConnectX-4 ... ConnectX-7 physical functions with InfiniBand ports (the
 * VPI adapters; the Ethernet-only ones are refused, see
 * mlx5x_probe_check_id()); VFs are not supported.
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
	{ PCI_VDEVICE(MELLANOX, 0x1017) },	/* ConnectX-5 */
	{ PCI_VDEVICE(MELLANOX, 0x1019) },	/* ConnectX-5 Ex */
	{ PCI_VDEVICE(MELLANOX, 0x101b) },	/* ConnectX-6 */
	{ PCI_VDEVICE(MELLANOX, 0x1021) },	/* ConnectX-7 */
	{ }
};

static struct pci_driver mlx5x_pci_driver = {
	.name = KBUILD_MODNAME,
	.id_table = mlx5x_pci_table,
	.probe = mlx5x_probe,
	.remove = mlx5x_remove,
	.shutdown = mlx5x_shutdown,
	.err_handler = &mlx5x_err_handler,
};
module_pci_driver(mlx5x_pci_driver);

MODULE_DESCRIPTION("RDMA driver for NVIDIA/Mellanox ConnectX (mlx5 family) HCAs");
MODULE_LICENSE("GPL");
