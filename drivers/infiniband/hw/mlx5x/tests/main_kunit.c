// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the PCI lifecycle (suite mlx5x_main): which functions
 * probe refuses before touching them, and beyond probe and remove, PCI
 * error recovery (error_detected, slot_reset, resume) and shutdown, which
 * QEMU cannot inject into the VM rig, run on a table of recording stages
 * instead of the driver's.
 */
#include <kunit/test.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "../mlx5x.h"

#define LOG_LEN	64

static char stage_log[LOG_LEN];
static int fail_stage = -1;

static void note(char c)
{
	size_t n = strlen(stage_log);

	if (n + 1 < LOG_LEN)
		stage_log[n] = c;
}

/* Stage i logs 'A'+i when it comes up and 'a'+i when it goes down. */
static int fake_init(int i)
{
	if (fail_stage == i)
		return -EIO;
	note('A' + i);
	return 0;
}

static int fake_init0(struct mlx5x_dev *mdev)
{
	return fake_init(0);
}

static int fake_init1(struct mlx5x_dev *mdev)
{
	return fake_init(1);
}

static int fake_init2(struct mlx5x_dev *mdev)
{
	return fake_init(2);
}

static int fake_init3(struct mlx5x_dev *mdev)
{
	return fake_init(3);
}

static void fake_fini0(struct mlx5x_dev *mdev)
{
	note('a');
}

static void fake_fini1(struct mlx5x_dev *mdev)
{
	note('b');
}

static void fake_fini2(struct mlx5x_dev *mdev)
{
	note('c');
}

/* 0..1 come back with the slot reset (PCI, BAR/DMA), 2..3 on resume. */
static const struct mlx5x_stage fake_stages[] = {
	{ "pci", fake_init0, fake_fini0 },
	{ "dma", fake_init1, fake_fini1, .reset = true },
	{ "hca", fake_init2, fake_fini2 },
	{ "ib",  fake_init3, NULL },
};

/* pci_ers_result_t is __bitwise: compared with ==, not KUNIT_EXPECT_EQ. */
static struct mlx5x_dev *fake_up(struct kunit *test)
{
	struct mlx5x_dev *mdev = kunit_kzalloc(test, sizeof(*mdev), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, mdev);
	mdev->pdev = kunit_kzalloc(test, sizeof(*mdev->pdev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mdev->pdev);
	mdev->stages = fake_stages;
	mdev->nr_stage_tbl = ARRAY_SIZE(fake_stages);
	mdev->nr_stages = ARRAY_SIZE(fake_stages);
	mdev->fw.major = 16;
	memset(stage_log, 0, sizeof(stage_log));
	fail_stage = -1;
	return mdev;
}

static void error_recovery_rebuilds_in_order(struct kunit *test)
{
	struct mlx5x_dev *mdev = fake_up(test);

	KUNIT_EXPECT_TRUE(test, mlx5x_err_detected(mdev, pci_channel_io_frozen) ==
			  PCI_ERS_RESULT_NEED_RESET);
	KUNIT_EXPECT_STREQ(test, stage_log, "cba");
	KUNIT_EXPECT_EQ(test, mdev->nr_stages, 0);
	/* The device state starts over as probe found it. */
	KUNIT_EXPECT_EQ(test, mdev->fw.major, 0);
	KUNIT_EXPECT_PTR_EQ(test, mdev->stages, &fake_stages[0]);
	KUNIT_EXPECT_TRUE(test, mdev->recovering);

	KUNIT_EXPECT_TRUE(test, mlx5x_err_slot_reset(mdev) ==
			  PCI_ERS_RESULT_RECOVERED);
	KUNIT_EXPECT_STREQ(test, stage_log, "cbaAB");
	KUNIT_EXPECT_EQ(test, mdev->nr_stages, 2);

	mlx5x_err_resume(mdev);
	KUNIT_EXPECT_STREQ(test, stage_log, "cbaABCD");
	KUNIT_EXPECT_EQ(test, mdev->nr_stages, ARRAY_SIZE(fake_stages));
	KUNIT_EXPECT_FALSE(test, mdev->recovering);
}

static void permanent_failure_disconnects(struct kunit *test)
{
	struct mlx5x_dev *mdev = fake_up(test);
	pci_ers_result_t res;

	res = mlx5x_err_detected(mdev, pci_channel_io_perm_failure);
	KUNIT_EXPECT_TRUE(test, res == PCI_ERS_RESULT_DISCONNECT);
	KUNIT_EXPECT_EQ(test, mdev->nr_stages, 0);
}

static void failed_slot_reset_leaves_nothing_up(struct kunit *test)
{
	struct mlx5x_dev *mdev = fake_up(test);

	mlx5x_err_detected(mdev, pci_channel_io_frozen);
	fail_stage = 1;
	KUNIT_EXPECT_TRUE(test, mlx5x_err_slot_reset(mdev) ==
			  PCI_ERS_RESULT_DISCONNECT);
	KUNIT_EXPECT_STREQ(test, stage_log, "cbaAa");
	KUNIT_EXPECT_EQ(test, mdev->nr_stages, 0);
}

static void failed_resume_leaves_nothing_up(struct kunit *test)
{
	struct mlx5x_dev *mdev = fake_up(test);

	mlx5x_err_detected(mdev, pci_channel_io_frozen);
	mlx5x_err_slot_reset(mdev);
	fail_stage = 3;
	mlx5x_err_resume(mdev);
	KUNIT_EXPECT_STREQ(test, stage_log, "cbaABCcba");
	KUNIT_EXPECT_EQ(test, mdev->nr_stages, 0);
}

static void shutdown_takes_everything_down(struct kunit *test)
{
	struct mlx5x_dev *mdev = fake_up(test);

	mlx5x_quiesce(mdev);
	KUNIT_EXPECT_STREQ(test, stage_log, "cba");
	KUNIT_EXPECT_EQ(test, mdev->nr_stages, 0);
	/* A later remove finds nothing left to undo. */
	mlx5x_quiesce(mdev);
	KUNIT_EXPECT_STREQ(test, stage_log, "cba");
}

/* Ethernet-only adapters are refused by device ID; VPI ones go on. */
static void ethernet_only_adapters_refused(struct kunit *test)
{
	static const struct { u16 device; int err; } ids[] = {
		{ 0x1013, 0 }, { 0x1015, -ENODEV }, { 0x1017, 0 },
		{ 0x1019, 0 }, { 0x101b, 0 }, { 0x101d, -ENODEV },
		{ 0x101f, -ENODEV }, { 0x1021, 0 },
	};
	struct pci_dev *pdev = kunit_kzalloc(test, sizeof(*pdev), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, pdev);
	pdev->vendor = PCI_VENDOR_ID_MELLANOX;
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		pdev->device = ids[i].device;
		KUNIT_EXPECT_EQ_MSG(test, mlx5x_probe_check_id(pdev), ids[i].err,
				    "device 0x%04x", ids[i].device);
	}
}

static struct kunit_case mlx5x_main_cases[] = {
	KUNIT_CASE(ethernet_only_adapters_refused),
	KUNIT_CASE(error_recovery_rebuilds_in_order),
	KUNIT_CASE(permanent_failure_disconnects),
	KUNIT_CASE(failed_slot_reset_leaves_nothing_up),
	KUNIT_CASE(failed_resume_leaves_nothing_up),
	KUNIT_CASE(shutdown_takes_everything_down),
	{}
};

static struct kunit_suite mlx5x_main_suite = {
	.name = "mlx5x_main",
	.test_cases = mlx5x_main_cases,
};

kunit_test_suite(mlx5x_main_suite);
