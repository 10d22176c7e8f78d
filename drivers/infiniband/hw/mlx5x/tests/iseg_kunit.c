// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for the init segment decoders (suite mlx5x_iseg).
 *
 * Register values are written as the bytes the device presents on the
 * bus (big-endian), so a decoder that gets the byte order or a field
 * position wrong fails here on any host.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "../iseg.h"

/* One register as the four bytes read from BAR0, most significant first. */
static __be32 reg(u8 b0, u8 b1, u8 b2, u8 b3)
{
	const u8 bytes[4] = { b0, b1, b2, b3 };
	__be32 v;

	memcpy(&v, bytes, sizeof(v));
	return v;
}

static void fw_ver_decode(struct kunit *test)
{
	/* Firmware 16.35.2000: minor in the high half, major in the low. */
	__be32 fw_rev = reg(0x00, 0x23, 0x00, 0x10);
	__be32 cmdif = reg(0x00, 0x05, 0x07, 0xd0);
	struct mlx5x_fw_ver ver;

	mlx5x_iseg_fw_ver(fw_rev, cmdif, &ver);
	KUNIT_EXPECT_EQ(test, ver.major, 16);
	KUNIT_EXPECT_EQ(test, ver.minor, 35);
	KUNIT_EXPECT_EQ(test, ver.sub, 2000);
}

static void fw_ver_fields_are_independent(struct kunit *test)
{
	struct mlx5x_fw_ver ver;

	mlx5x_iseg_fw_ver(reg(0xff, 0xff, 0x00, 0x00),
			  reg(0xff, 0xff, 0x00, 0x00), &ver);
	KUNIT_EXPECT_EQ(test, ver.major, 0);
	KUNIT_EXPECT_EQ(test, ver.minor, 0xffff);
	KUNIT_EXPECT_EQ(test, ver.sub, 0);

	mlx5x_iseg_fw_ver(reg(0x00, 0x00, 0xff, 0xfe),
			  reg(0x00, 0x00, 0x12, 0x34), &ver);
	KUNIT_EXPECT_EQ(test, ver.major, 0xfffe);
	KUNIT_EXPECT_EQ(test, ver.minor, 0);
	KUNIT_EXPECT_EQ(test, ver.sub, 0x1234);
}

static void cmdif_rev_decode(struct kunit *test)
{
	u16 rev;

	/* The firmware sub-minor in bits 15:0 must not leak in. */
	rev = mlx5x_iseg_cmdif_rev(reg(0x00, 0x05, 0xff, 0xff));
	KUNIT_EXPECT_EQ(test, rev, 5);
	rev = mlx5x_iseg_cmdif_rev(reg(0x12, 0x34, 0x00, 0x05));
	KUNIT_EXPECT_EQ(test, rev, 0x1234);
}

static void cmdif_rev_5_accepted(struct kunit *test)
{
	u16 rev = mlx5x_iseg_cmdif_rev(reg(0x00, 0x05, 0x07, 0xd0));

	KUNIT_EXPECT_EQ(test, mlx5x_iseg_check_cmdif(rev), 0);
}

static const u16 bad_cmdif_revs[] = { 0, 1, 3, 4, 6, 0x105, 0xffff };

static void bad_cmdif_desc(const u16 *rev, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "cmdif rev %#x", *rev);
}

KUNIT_ARRAY_PARAM(bad_cmdif, bad_cmdif_revs, bad_cmdif_desc);

static void cmdif_rev_other_refused(struct kunit *test)
{
	const u16 *rev = test->param_value;

	KUNIT_EXPECT_EQ(test, mlx5x_iseg_check_cmdif(*rev), -EOPNOTSUPP);
}

static void initializing_bit(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, mlx5x_iseg_fw_initializing(reg(0x80, 0, 0, 0)));
	KUNIT_EXPECT_TRUE(test,
			  mlx5x_iseg_fw_initializing(reg(0xff, 0xff, 0xff, 0xff)));
	KUNIT_EXPECT_FALSE(test, mlx5x_iseg_fw_initializing(reg(0, 0, 0, 0)));
	/* Reset state, reset ACK, ECPF and friends are not "initializing". */
	KUNIT_EXPECT_FALSE(test,
			   mlx5x_iseg_fw_initializing(reg(0x7f, 0xff, 0xff, 0xff)));
	/* The bit is the top bit on the bus, not of the host word. */
	KUNIT_EXPECT_FALSE(test, mlx5x_iseg_fw_initializing(reg(0, 0, 0, 0x80)));
}

static void cmdq_geom_typical(struct kunit *test)
{
	struct mlx5x_cmdq_geom geom = {};

	/* 32 slots of 64 bytes: exactly one page. */
	KUNIT_ASSERT_EQ(test, mlx5x_iseg_cmdq_geom(reg(0, 0, 0, 0x56), &geom), 0);
	KUNIT_EXPECT_EQ(test, geom.log_sz, 5);
	KUNIT_EXPECT_EQ(test, geom.log_stride, 6);
}

static void cmdq_geom_ignores_addr_and_nic_if(struct kunit *test)
{
	struct mlx5x_cmdq_geom geom = {};

	/* Address bits 31:12 and nic_interface 10:8 all set. */
	KUNIT_ASSERT_EQ(test,
			mlx5x_iseg_cmdq_geom(reg(0xde, 0xad, 0xb7, 0x27), &geom),
			0);
	KUNIT_EXPECT_EQ(test, geom.log_sz, 2);
	KUNIT_EXPECT_EQ(test, geom.log_stride, 7);
}

struct geom_case {
	u8 log_sz;
	u8 log_stride;
	int err;
	const char *why;
};

static const struct geom_case geom_cases[] = {
	{ 1, 11, 0, "2 slots filling the page" },
	{ 5, 7, 0, "32 slots filling the page" },
	{ 3, 6, 0, "8 slots, half a page" },
	{ 0, 6, -EINVAL, "1 slot: none left for commands" },
	{ 6, 6, -EINVAL, "64 slots: more than the doorbell has bits" },
	{ 15, 0, -EINVAL, "log_sz 15" },
	{ 1, 5, -EINVAL, "32-byte stride: smaller than a descriptor" },
	{ 2, 0, -EINVAL, "1-byte stride" },
	{ 5, 8, -EINVAL, "32 x 256 bytes: larger than a page" },
	{ 2, 11, -EINVAL, "4 x 2 KiB: larger than a page" },
};

static void geom_desc(const struct geom_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "log_sz %u log_stride %u: %s",
		 c->log_sz, c->log_stride, c->why);
}

KUNIT_ARRAY_PARAM(geom, geom_cases, geom_desc);

static void cmdq_geom_limits(struct kunit *test)
{
	const struct geom_case *c = test->param_value;
	struct mlx5x_cmdq_geom geom = { .log_sz = 0xaa, .log_stride = 0xbb };
	int err;

	err = mlx5x_iseg_cmdq_geom(reg(0, 0, 0, c->log_sz << 4 | c->log_stride),
				   &geom);
	KUNIT_EXPECT_EQ(test, err, c->err);
	if (c->err) {
		/* A refused geometry leaves the output untouched. */
		KUNIT_EXPECT_EQ(test, geom.log_sz, 0xaa);
		KUNIT_EXPECT_EQ(test, geom.log_stride, 0xbb);
	} else {
		KUNIT_EXPECT_EQ(test, geom.log_sz, c->log_sz);
		KUNIT_EXPECT_EQ(test, geom.log_stride, c->log_stride);
	}
}

static struct kunit_case mlx5x_iseg_cases[] = {
	KUNIT_CASE(fw_ver_decode),
	KUNIT_CASE(fw_ver_fields_are_independent),
	KUNIT_CASE(cmdif_rev_decode),
	KUNIT_CASE(cmdif_rev_5_accepted),
	KUNIT_CASE_PARAM(cmdif_rev_other_refused, bad_cmdif_gen_params),
	KUNIT_CASE(initializing_bit),
	KUNIT_CASE(cmdq_geom_typical),
	KUNIT_CASE(cmdq_geom_ignores_addr_and_nic_if),
	KUNIT_CASE_PARAM(cmdq_geom_limits, geom_gen_params),
	{}
};

static struct kunit_suite mlx5x_iseg_suite = {
	.name = "mlx5x_iseg",
	.test_cases = mlx5x_iseg_cases,
};

kunit_test_suite(mlx5x_iseg_suite);
