// SPDX-License-Identifier: GPL-2.0-only
/* HAVE_IB_UMEM_GET_VA: ib_umem_get_va(dev, addr, size, access) (7.2+). */
#include <rdma/ib_umem.h>

struct ib_umem *mlx5x_conftest(struct ib_device *dev);
struct ib_umem *mlx5x_conftest(struct ib_device *dev)
{
	return ib_umem_get_va(dev, 0UL, 4096, 0);
}
