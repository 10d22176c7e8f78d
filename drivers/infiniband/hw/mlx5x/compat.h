/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one place where kernel API differences are handled.  The HAVE_*
 * macros come from mlx5x_autoconf.h, which kbuild generates into the
 * object directory by compiling each probe in conftest/ against the
 * target kernel (see Kbuild).  Driver code uses the newest API and the
 * shims below provide it on older kernels; where no single API exists
 * on every kernel (bottom halves), a small mlx5x_* wrapper picks one.
 * Never test HAVE_* or LINUX_VERSION_CODE in driver files.
 */
#ifndef MLX5X_COMPAT_H
#define MLX5X_COMPAT_H

/*
 * Angle brackets: search the -I path, where the object directory comes
 * first, never this file's own directory, which may hold a header left
 * over from an in-place build for another kernel.
 */
#include <mlx5x_autoconf.h>

#include <linux/interrupt.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>

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

/*
 * Verbs whose signature changed; the driver writes each op once, with
 * these in its parameter list.
 *
 * create_cq: newer kernels (6.12, not 6.1) pass the uverbs attribute
 * bundle, whose driver_udata is the udata (NULL bundle: kernel caller).
 * The op takes a struct mlx5x_create_cq_arg and gets the udata with
 * mlx5x_create_cq_udata().
 */
#ifdef HAVE_CREATE_CQ_ATTRS
#define mlx5x_create_cq_arg uverbs_attr_bundle
static inline struct ib_udata *
mlx5x_create_cq_udata(struct uverbs_attr_bundle *attrs)
{
	return attrs ? &attrs->driver_udata : NULL;
}
#else
#define mlx5x_create_cq_arg ib_udata
static inline struct ib_udata *mlx5x_create_cq_udata(struct ib_udata *udata)
{
	return udata;
}
#endif

/*
 * reg_user_mr: 7.x adds a DMA handle before the udata.  Only a device
 * with the alloc_dmah op hands out handles, so it is always NULL here.
 */
#ifdef HAVE_REG_USER_MR_DMAH
#define MLX5X_REG_USER_MR_DMAH_ARG	struct ib_dmah *dmah,
#else
#define MLX5X_REG_USER_MR_DMAH_ARG
#endif

/*
 * resize_cq: 7.x renames the op resize_user_cq (only user CQs resize)
 * and passes the size unsigned.  The driver's op takes a
 * mlx5x_resize_cqe_t and is installed as MLX5X_RESIZE_CQ_OP.
 */
#ifdef HAVE_RESIZE_USER_CQ
#define MLX5X_RESIZE_CQ_OP	resize_user_cq
#define mlx5x_resize_cqe_t	unsigned int
#else
#define MLX5X_RESIZE_CQ_OP	resize_cq
#define mlx5x_resize_cqe_t	int
#endif

/*
 * 7.x also tells users that a port's speed may have changed, with a
 * device event on every link up and down (as mlx5_ib raises it); older
 * kernels have no such event.  Any context (ib_dispatch_event() queues).
 */
#ifdef HAVE_IB_EVENT_DEVICE_SPEED_CHANGE
static inline void mlx5x_dispatch_speed_change(struct ib_device *ibdev)
{
	struct ib_event ev = {
		.device = ibdev,
		.event = IB_EVENT_DEVICE_SPEED_CHANGE,
	};

	ib_dispatch_event(&ev);
}
#else
static inline void mlx5x_dispatch_speed_change(struct ib_device *ibdev)
{
}
#endif

/*
 * Bottom halves.  6.9 added BH workqueues (system_bh_wq) to replace
 * tasklets; use one where the kernel has it, a tasklet otherwise.  Both
 * run in softirq context on the scheduling CPU, never concurrently with
 * themselves, and mlx5x_bh_kill() waits for a running instance and
 * discards a pending one (including one the handler queued for itself).
 */
struct mlx5x_bh;
typedef void (*mlx5x_bh_fn)(struct mlx5x_bh *bh);

#ifdef HAVE_WQ_BH

/**
 * struct mlx5x_bh - deferred softirq-context work
 * @work: item on system_bh_wq
 * @fn: what to run
 */
struct mlx5x_bh {
	struct work_struct work;
	mlx5x_bh_fn fn;
};

static inline void mlx5x_bh_work(struct work_struct *work)
{
	struct mlx5x_bh *bh = container_of(work, struct mlx5x_bh, work);

	bh->fn(bh);
}

static inline void mlx5x_bh_init(struct mlx5x_bh *bh, mlx5x_bh_fn fn)
{
	INIT_WORK(&bh->work, mlx5x_bh_work);
	bh->fn = fn;
}

static inline void mlx5x_bh_schedule(struct mlx5x_bh *bh)
{
	queue_work(system_bh_wq, &bh->work);
}

static inline void mlx5x_bh_kill(struct mlx5x_bh *bh)
{
	cancel_work_sync(&bh->work);
}

#else /* !HAVE_WQ_BH */

/**
 * struct mlx5x_bh - deferred softirq-context work
 * @tasklet: the tasklet
 * @fn: what to run
 */
struct mlx5x_bh {
	struct tasklet_struct tasklet;
	mlx5x_bh_fn fn;
};

static inline void mlx5x_bh_tasklet(struct tasklet_struct *t)
{
	struct mlx5x_bh *bh = from_tasklet(bh, t, tasklet);

	bh->fn(bh);
}

static inline void mlx5x_bh_init(struct mlx5x_bh *bh, mlx5x_bh_fn fn)
{
	tasklet_setup(&bh->tasklet, mlx5x_bh_tasklet);
	bh->fn = fn;
}

static inline void mlx5x_bh_schedule(struct mlx5x_bh *bh)
{
	tasklet_schedule(&bh->tasklet);
}

static inline void mlx5x_bh_kill(struct mlx5x_bh *bh)
{
	tasklet_kill(&bh->tasklet);
}

#endif /* HAVE_WQ_BH */

#endif /* MLX5X_COMPAT_H */
