// SPDX-License-Identifier: GPL-2.0-only
/* HAVE_IB_EVENT_DEVICE_SPEED_CHANGE: the device-wide speed event (7.x). */
#include <rdma/ib_verbs.h>

int mlx5x_conftest(void);
int mlx5x_conftest(void)
{
	return IB_EVENT_DEVICE_SPEED_CHANGE;
}
