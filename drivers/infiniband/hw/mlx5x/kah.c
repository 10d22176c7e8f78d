// SPDX-License-Identifier: GPL-2.0-only
/*
 * Address handles.  An address handle is the 48-byte address vector a
 * UD, QP0 or QP1 send copies into its datagram segment (kwqe.c builds
 * it); the device holds nothing, so creating and destroying one issues
 * no command.  libmlx5 builds its own vectors on an InfiniBand port, so
 * in practice only kernel consumers (ib_mad, ib_sa, IPoIB) get here.
 */
#include "ib.h"
#include "kwqe.h"

/**
 * mlx5x_ib_create_ah() - build an address handle's vector
 * @ibah: the AH
 * @attr: the address
 * @udata: unused: the provider builds its own vectors
 *
 * Return: 0, -EOPNOTSUPP for an address that is not InfiniBand's, or
 * mlx5x_av_build()'s -EINVAL.
 */
int mlx5x_ib_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *attr,
		       struct ib_udata *udata)
{
	struct mlx5x_ib_dev *dev = to_mibdev(ibah->device);
	const struct rdma_ah_attr *ah = attr->ah_attr;

	/* InfiniBand ports only: no RoCE, no OPA */
	if (ah->type != RDMA_AH_ATTR_TYPE_IB)
		return -EOPNOTSUPP;
	to_mah(ibah)->port = rdma_ah_get_port_num(ah);
	return mlx5x_av_build(ah, &dev->caps, dev->gid_tbl_len,
			      to_mah(ibah)->av);
}

/**
 * mlx5x_ib_query_ah() - the address an AH was built from
 * @ibah: the AH
 * @attr: the address, read back from the vector
 *
 * Return: 0.
 */
int mlx5x_ib_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = ibah->type;
	rdma_ah_set_port_num(attr, to_mah(ibah)->port);
	mlx5x_av_to_attr(to_mah(ibah)->av, attr);
	return 0;
}

/**
 * mlx5x_ib_destroy_ah() - destroy an AH
 * @ibah: the AH
 * @flags: RDMA_DESTROY_AH_SLEEPABLE or not; nothing here sleeps
 *
 * The device holds nothing of it: the core frees the memory.
 * Return: 0.
 */
int mlx5x_ib_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	return 0;
}
