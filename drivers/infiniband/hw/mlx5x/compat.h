/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one place where kernel API differences are handled.  The HAVE_*
 * macros come from mlx5x_autoconf.h, which kbuild generates into the
 * object directory by compiling each probe in conftest/ against the
 * target kernel (see Kbuild).  Driver code uses the newest API; the
 * shims below provide it on older kernels.  Never test
 * LINUX_VERSION_CODE in driver files.
 */
#ifndef MLX5X_COMPAT_H
#define MLX5X_COMPAT_H

/*
 * Angle brackets: search the -I path, where the object directory comes
 * first, never this file's own directory, which may hold a header left
 * over from an in-place build for another kernel.
 */
#include <mlx5x_autoconf.h>

#include <linux/timer.h>
#include <rdma/ib_umem.h>

/* 6.16 renamed from_timer() to timer_container_of(). */
#ifndef HAVE_TIMER_CONTAINER_OF
#define timer_container_of(var, callback_timer, timer_fieldname) \
	from_timer(var, callback_timer, timer_fieldname)
#endif

/* 7.2 replaced ib_umem_get() with ib_umem_get_va() (same arguments). */
#ifndef HAVE_IB_UMEM_GET_VA
static inline struct ib_umem *ib_umem_get_va(struct ib_device *device,
					     unsigned long addr, size_t size,
					     int access)
{
	return ib_umem_get(device, addr, size, access);
}
#endif

#endif /* MLX5X_COMPAT_H */
