// SPDX-License-Identifier: GPL-2.0
/*
 * uvfuzz: a fuzzer of the uverbs ABI of an mlx5 RDMA device, run in the
 * test VM.  It speaks to /dev/infiniband/uverbsN itself (write() commands
 * and RDMA_VERBS_IOCTL methods, no libibverbs), with the mlx5 driver data
 * libmlx5 sends, so the same binary drives mlx5x and the in-tree mlx5_ib.
 *
 *   uvfuzz [-s SEED] [-n OPS] [-p PROCS] [-k KILLS] [-t SECONDS] NODE
 *
 * Most of the work is scenarios that look like libmlx5's: context, UAR
 * object and its mapping, PD, MR, CQs, SRQ, QP driven RESET->INIT->RTR->
 * RTS, MW, AH, then teardown in a random order (or none: close, or the
 * process is killed).  In most scenarios one step has one field mutated:
 * a size, flag, comp_mask, address (unmapped, kernel, misaligned,
 * read-only), length (0, huge, wrapping), a handle of the other context
 * or of a destroyed object, or the command's framing (udata length,
 * response buffer).  Between the steps come random operations: stale
 * and foreign handles, QP transitions, garbage commands and ioctls, mmap
 * of random offsets and lengths.  PROCS workers run at once, each with
 * two contexts; some fork a sibling that uses the inherited contexts;
 * the parent SIGKILLs KILLS of them mid-sequence and starts new ones
 * until OPS system calls are done.  The run is a function of SEED,
 * except for where the kills land.
 *
 * Output on stdout, key=value lines:
 *   baseline=ok|fail STEP ERRNO  an unmutated scenario reached RTS
 *   ops= seconds= ops_per_s= procs= killed= crashed= hung= seed=
 *   depth_rts=N                  scenarios whose QP reached RTS
 *   errno CMD NAME COUNT         per command, per result (OK for success)
 *   unexpected CMD NAME COUNT    results outside the documented set
 * Exit status 0 when the baseline passed and no worker crashed or hung.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/mlx5-abi.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>
#include <rdma/rdma_user_ioctl.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define PAGE		4096UL
#define RDMA_DRIVER_MLX5 1

/* ib_qp_attr_mask and ib_qp_state: kernel enums, not in the uapi */
#define QP_STATE	(1U << 0)
#define QP_ACCESS	(1U << 3)
#define QP_PKEY		(1U << 4)
#define QP_PORT		(1U << 5)
#define QP_QKEY		(1U << 6)
#define QP_AV		(1U << 7)
#define QP_MTU		(1U << 8)
#define QP_TIMEOUT	(1U << 9)
#define QP_RETRY	(1U << 10)
#define QP_RNR_RETRY	(1U << 11)
#define QP_RQ_PSN	(1U << 12)
#define QP_RD_ATOMIC	(1U << 13)
#define QP_MIN_RNR	(1U << 15)
#define QP_SQ_PSN	(1U << 16)
#define QP_DEST_RD_AT	(1U << 17)
#define QP_DEST_QPN	(1U << 20)
enum { S_RESET, S_INIT, S_RTR, S_RTS, S_SQD, S_SQE, S_ERR };
enum { QPT_RC = 2, QPT_UC = 3, QPT_UD = 4 };

/* ---- what is counted ---- */

enum cmd {
	C_OPEN, C_GET_CONTEXT, C_GET_CONTEXT_IOCTL, C_QUERY_DEVICE,
	C_QUERY_DEVICE_EX, C_QUERY_PORT, C_QUERY_PORT_IOCTL, C_UAR_ALLOC,
	C_UAR_DESTROY, C_MMAP, C_MUNMAP, C_ALLOC_PD, C_DEALLOC_PD, C_REG_MR,
	C_REREG_MR, C_DEREG_MR, C_ALLOC_MW, C_DEALLOC_MW, C_COMP_CHANNEL,
	C_CREATE_CQ, C_CREATE_CQ_EX, C_CREATE_CQ_IOCTL, C_RESIZE_CQ,
	C_DESTROY_CQ, C_DESTROY_CQ_IOCTL, C_CREATE_SRQ, C_MODIFY_SRQ,
	C_QUERY_SRQ, C_DESTROY_SRQ, C_CREATE_QP, C_CREATE_QP_EX, C_MODIFY_QP,
	C_MODIFY_QP_EX, C_QUERY_QP, C_DESTROY_QP, C_CREATE_AH, C_DESTROY_AH,
	C_RAW_WRITE, C_RAW_IOCTL, NCMD
};

static const char *const cmd_name[NCMD] = {
	"open", "get_context", "get_context_ioctl", "query_device",
	"query_device_ex", "query_port", "query_port_ioctl", "uar_alloc",
	"uar_destroy", "mmap", "munmap", "alloc_pd", "dealloc_pd", "reg_mr",
	"rereg_mr", "dereg_mr", "alloc_mw", "dealloc_mw", "comp_channel",
	"create_cq", "create_cq_ex", "create_cq_ioctl", "resize_cq",
	"destroy_cq", "destroy_cq_ioctl", "create_srq", "modify_srq",
	"query_srq", "destroy_srq", "create_qp", "create_qp_ex", "modify_qp",
	"modify_qp_ex", "query_qp", "destroy_qp", "create_ah", "destroy_ah",
	"raw_write", "raw_ioctl",
};

/*
 * The refusals a caller of uverbs can expect: bad arguments (EINVAL,
 * EFAULT, ERANGE, E2BIG, EOVERFLOW), unsupported requests (EOPNOTSUPP,
 * ENOSYS, EPROTONOSUPPORT, ENOTTY for a foreign ioctl), missing or wrong
 * objects (ENOENT, EBADF, EEXIST), objects in use (EBUSY), no room
 * (ENOMEM, ENOSPC for a short response buffer, EAGAIN, EMFILE for fds),
 * permissions (EPERM, EACCES), a device that refused a command (EIO,
 * ENODEV, ENXIO).
 */
static const int errno_ok[] = {
	0, EPERM, ENOENT, EIO, ENXIO, E2BIG, EBADF, EAGAIN, ENOMEM, EACCES,
	EFAULT, EBUSY, EEXIST, ENODEV, EINVAL, EMFILE, ENOSPC, ERANGE, ENOSYS,
	ENOTTY, EOVERFLOW, EOPNOTSUPP, EPROTONOSUPPORT,
};

#define NERR		136	/* errno values counted; above: "other" */

struct shared {
	uint64_t count[NCMD][NERR];
	uint64_t ops;
	uint64_t rts;
	uint64_t sib_crashed;	/* siblings dead of a signal not SIGKILL */
	volatile int stop;
	struct {
		uint64_t ops;		/* progress, for the hang watch */
		pid_t pid;
	} w[64];
};

static struct shared *sh;
static int my_slot;

/* ---- random numbers (splitmix64: a seed is a whole run) ---- */

static uint64_t rng;

static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t below(uint32_t n)
{
	return n ? (uint32_t)(rnd() % n) : 0;
}

static int chance(unsigned int percent)
{
	return below(100) < percent;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Count one system call's result; returns its errno (0 on success). */
static int note(enum cmd c, long rc)
{
	int e = rc < 0 ? errno : 0;

	__atomic_fetch_add(&sh->count[c][e < NERR ? e : NERR - 1], 1,
			   __ATOMIC_RELAXED);
	__atomic_fetch_add(&sh->ops, 1, __ATOMIC_RELAXED);
	sh->w[my_slot].ops++;
	return e;
}

/* ---- worker state ---- */

enum otype { O_PD, O_MR, O_MW, O_CQ, O_SRQ, O_QP, O_AH, O_UAR, O_CHAN, NOTYPE };

struct obj {
	uint8_t type;
	uint8_t live;
	uint8_t qpt;		/* QP type */
	uint8_t state;		/* QP state */
	uint32_t handle;
	uint32_t id;		/* QPN, UAR page id, channel fd */
	uint64_t off;		/* UAR mmap offset */
};

#define MAXOBJ	96
#define NCTX	2

struct ctx {
	int fd;
	int async_fd;
	int has_ctx;
	int cqe_version;
	uint16_t lid;
	int nobj;
	struct obj obj[MAXOBJ];
};

struct map {
	void *addr;
	size_t len;
};

static struct ctx ctxs[NCTX];
/*
 * In a forked sibling: the core refuses write() commands on a file
 * opened under other credentials (fork made new ones), so the ioctl
 * methods are the sibling's way in.
 */
static int ioctl_only;
static struct map maps[32];
static const char *node;
static uint8_t *arena;		/* queue buffers, MR memory, doorbells */
static size_t arena_pages = 1024;
static size_t arena_next;
static uint8_t *ro_page;	/* read-only: a writable pin fails */
static uint8_t *none_page;	/* PROT_NONE */
/*
 * Unmapped, and never mapped later: this low, no mmap() without a hint
 * goes (a freed range could come back as a UAR mapping the kernel would
 * then write a response into).
 */
#define HOLE		0x4000UL

/* A fresh run of @n pages of the arena (wraps: old buffers get reused). */
static uint64_t arena_take(size_t n)
{
	uint64_t a;

	if (arena_next + n > arena_pages)
		arena_next = 0;
	a = (uint64_t)(uintptr_t)(arena + arena_next * PAGE);
	arena_next += n;
	return a;
}

/* A doorbell record: 8-byte aligned, in one of four shared pages. */
static uint64_t db_addr(void)
{
	return (uint64_t)(uintptr_t)arena + below(4) * PAGE + below(64) * 64;
}

static struct obj *obj_add(struct ctx *c, enum otype t, uint32_t handle)
{
	struct obj *o;
	int i;

	for (i = 0; i < c->nobj; i++)
		if (!c->obj[i].live && chance(50))
			break;
	if (i == c->nobj) {
		if (c->nobj == MAXOBJ)
			i = below(MAXOBJ);
		else
			c->nobj++;
	}
	o = &c->obj[i];
	memset(o, 0, sizeof(*o));
	o->type = t;
	o->live = 1;
	o->handle = handle;
	return o;
}

static int obj_count(struct ctx *c, enum otype t, int live)
{
	int i, n = 0;

	for (i = 0; i < c->nobj; i++)
		if (c->obj[i].type == t && c->obj[i].live == live)
			n++;
	return n;
}

/* A random object of type @t, live (or dead if @live is 0), or NULL. */
static struct obj *obj_pick(struct ctx *c, enum otype t, int live)
{
	int n = obj_count(c, t, live), k, i;

	if (!n)
		return NULL;
	k = below(n);
	for (i = 0; i < c->nobj; i++)
		if (c->obj[i].type == t && c->obj[i].live == live && !k--)
			return &c->obj[i];
	return NULL;
}

static struct ctx *other(struct ctx *c)
{
	return &ctxs[(c - ctxs + 1) % NCTX];
}

/*
 * A handle for a command on @c taking a @t: mostly a live one, else one
 * destroyed, one of the other context (the handles are per file, so it
 * names some other object or none here), or any number.
 */
static uint32_t handle_of(struct ctx *c, enum otype t, int valid)
{
	struct obj *o = NULL;

	if (valid || chance(70))
		o = obj_pick(c, t, 1);
	else if (chance(40))
		o = obj_pick(c, t, 0);
	else if (chance(60))
		o = obj_pick(other(c), t, chance(70));
	if (o)
		return o->handle;
	if (valid)
		return 0;
	switch (below(4)) {
	case 0:
		return 0;
	case 1:
		return ~0U;
	case 2:
		return below(64);
	default:
		return (uint32_t)rnd();
	}
}

/* ---- interesting values ---- */

static uint64_t bad_addr(void)
{
	static const uint64_t fixed[] = {
		0, 1, 8, 0xfff, 0xffff800000000000ULL, 0xffffffff81000000ULL,
		0xfffffffffffff000ULL, ~0ULL, 0x7ffffffff000ULL,
		0x800000000000ULL, 0x8000000000000000ULL,
	};

	switch (below(6)) {
	case 0:
		return HOLE + below(4) * PAGE;
	case 1:
		return (uint64_t)(uintptr_t)ro_page;
	case 2:
		return (uint64_t)(uintptr_t)none_page;
	case 3:	/* misaligned inside the arena */
		return arena_take(1) + 1 + below(63);
	case 4:	/* the program text */
		return (uint64_t)(uintptr_t)&bad_addr & ~(PAGE - 1);
	default:
		return fixed[below(ARRAY_SIZE(fixed))];
	}
}

static uint64_t bad_len(uint64_t len)
{
	static const uint64_t fixed[] = {
		0, 1, 7, 0x7fffffff, 0x80000000, 0xffffffff, 1ULL << 40,
		~0ULL, ~0ULL - PAGE + 2, 1ULL << 63,
	};

	switch (below(3)) {
	case 0:
		return len + 1 + below(2 * PAGE);
	case 1:
		return len ? len - 1 : 0;
	default:
		return fixed[below(ARRAY_SIZE(fixed))];
	}
}

static uint64_t interesting(unsigned int width, uint64_t old, struct ctx *c)
{
	static const uint64_t fixed[] = {
		0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 63, 64, 127, 128, 255, 256,
		4096, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0xffffff,
		0x1000000, 0x7fffffff, 0x80000000, 0xffffffff,
	};

	if (width == 8 && chance(60))
		return chance(70) ? bad_addr() : bad_len(old);
	switch (below(8)) {
	case 0:
		return old + 1;
	case 1:
		return old - 1;
	case 2:
		return old ^ (1ULL << below(width * 8));
	case 3:
		return old << 1;
	case 4:
		return rnd();
	case 5:
		if (width >= 4)
			return handle_of(c, (enum otype)below(NOTYPE), 0);
		return rnd();
	default:
		return fixed[below(ARRAY_SIZE(fixed))];
	}
}

/* Overwrite one naturally aligned field of @p (@len bytes). */
static void mutate_field(void *p, size_t len, struct ctx *c)
{
	static const unsigned int widths[] = { 1, 2, 4, 4, 4, 8, 8 };
	unsigned int w = widths[below(ARRAY_SIZE(widths))];
	uint64_t old = 0, v;
	size_t off;

	while (w > len)
		w /= 2;
	if (!w)
		return;
	off = below(len / w) * w;
	memcpy(&old, (uint8_t *)p + off, w);
	v = interesting(w, old, c);
	memcpy((uint8_t *)p + off, &v, w);
}

/* ---- write() commands ---- */

/* How one command's framing is broken (at most one way at a time). */
enum frame_mut {
	F_NONE, F_CORE, F_DRV, F_DRV_LEN, F_OUT_LEN, F_RESP_PTR, F_COUNT,
	F_WORDS, NFRAME
};

struct wcmd {
	uint32_t cmd;		/* IB_USER_VERBS_CMD_* */
	int ex;			/* extended header */
	int has_resp;		/* (non-ex) response pointer first in core */
	void *core;
	size_t core_len;
	void *drv;		/* mlx5 request */
	size_t drv_len;
	size_t resp_len;	/* core response */
	size_t drv_resp_len;	/* mlx5 response */
	enum frame_mut mut;
};

static uint8_t out[4096] __attribute__((aligned(64)));

/* Lengths a broken framing uses instead of @len (in @unit multiples). */
static size_t frame_len(size_t len, size_t unit)
{
	switch (below(4)) {
	case 0:
		return 0;
	case 1:
		return len >= unit ? len - unit : 0;
	case 2:
		return len + unit * (1 + below(8));
	default:
		return unit * below(64);
	}
}

/* The kernel wrote a response we can read the new object from. */
static int got_resp(const struct wcmd *w)
{
	return w->mut != F_RESP_PTR && w->mut != F_OUT_LEN;
}

static int wcmd_run(enum cmd id, int fd, struct wcmd *w, struct ctx *c);
static enum frame_mut pick_mut(int mutated, int has_drv);

/*
 * Run a creating command, mutated or not; on success the new object (its
 * handle is the first u32 of every create response) is recorded as a @t
 * and, if @made, returned there (NULL when the response is unknown).
 */
static int wcmd_create(enum cmd id, struct ctx *c, struct wcmd *w,
		       int mutated, enum otype t, struct obj **made)
{
	uint32_t handle;
	struct obj *o = NULL;
	int e;

	w->mut = pick_mut(mutated, w->drv_len != 0);
	e = wcmd_run(id, c->fd, w, c);
	if (!e && got_resp(w)) {
		memcpy(&handle, out, sizeof(handle));
		o = obj_add(c, t, handle);
	}
	if (made)
		*made = o;
	return e;
}

static void set_resp_ptr(struct wcmd *w, uint64_t p)
{
	if (w->has_resp)
		memcpy(w->core, &p, sizeof(p));
}

/*
 * Issue @w on @fd.  The response lands in out[]: core response first,
 * mlx5 response right behind it, as uverbs lays them out.
 */
static int wcmd_run(enum cmd id, int fd, struct wcmd *w, struct ctx *c)
{
	uint8_t buf[1024] __attribute__((aligned(8)));
	uint8_t drv[512] __attribute__((aligned(8)));
	size_t drv_len = w->drv_len, resp = w->resp_len;
	size_t dresp = w->drv_resp_len, hdrs, count, unit = w->ex ? 8 : 4;
	struct ib_uverbs_cmd_hdr *h = (void *)buf;
	uint64_t rptr = (uint64_t)(uintptr_t)out;

	memset(drv, 0, sizeof(drv));
	if (w->drv_len)
		memcpy(drv, w->drv, w->drv_len);
	switch (w->mut) {
	case F_CORE:
		mutate_field((uint8_t *)w->core + (w->has_resp ? 8 : 0),
			     w->core_len - (w->has_resp ? 8 : 0), c);
		break;
	case F_DRV:
		if (drv_len)
			mutate_field(drv, drv_len, c);
		break;
	case F_DRV_LEN:
		drv_len = frame_len(drv_len, unit);
		if (drv_len > w->drv_len && chance(50)) {
			size_t i;

			/* garbage where the kernel wants zeros */
			for (i = w->drv_len; i < drv_len && i < sizeof(drv); i++)
				drv[i] = (uint8_t)rnd();
		}
		break;
	case F_OUT_LEN:
		if (chance(50) || !dresp)
			resp = frame_len(resp, unit);
		else
			dresp = frame_len(dresp, unit);
		break;
	case F_RESP_PTR:
		rptr = bad_addr();
		break;
	default:
		break;
	}
	if (drv_len > sizeof(drv))
		drv_len = sizeof(drv);
	resp = resp > sizeof(out) / 2 ? sizeof(out) / 2 : resp;
	dresp = dresp > sizeof(out) / 2 ? sizeof(out) / 2 : dresp;
	memset(out, 0, resp + dresp);
	set_resp_ptr(w, rptr);
	hdrs = sizeof(*h);
	h->command = w->cmd;
	if (w->ex) {
		struct ib_uverbs_ex_cmd_hdr *x = (void *)(buf + sizeof(*h));

		h->command |= IB_USER_VERBS_CMD_FLAG_EXTENDED;
		hdrs += sizeof(*x);
		x->response = rptr;
		x->provider_in_words = drv_len / 8;
		x->provider_out_words = dresp / 8;
		x->cmd_hdr_reserved = 0;
		h->in_words = w->core_len / 8;
		h->out_words = resp / 8;
	} else {
		h->in_words = (hdrs + w->core_len + drv_len) / 4;
		h->out_words = (resp + dresp) / 4;
	}
	if (hdrs + w->core_len + drv_len > sizeof(buf))
		drv_len = sizeof(buf) - hdrs - w->core_len;
	memcpy(buf + hdrs, w->core, w->core_len);
	memcpy(buf + hdrs + w->core_len, drv, drv_len);
	count = hdrs + w->core_len + drv_len;
	if (w->mut == F_COUNT)
		count = chance(50) ? frame_len(count, 1) % sizeof(buf) :
			count - 1;
	else if (w->mut == F_WORDS)
		h->in_words = (uint16_t)interesting(2, h->in_words, c);
	return note(id, write(fd, buf, count));
}

/* One framing mutation for a step that is mutated, else none. */
static enum frame_mut pick_mut(int mutated, int has_drv)
{
	enum frame_mut m;

	if (!mutated)
		return F_NONE;
	/* mostly the fields, where the driver's checks are */
	if (chance(70))
		return has_drv && chance(65) ? F_DRV : F_CORE;
	m = (enum frame_mut)(F_DRV_LEN + below(NFRAME - F_DRV_LEN));
	return m;
}

/* ---- ioctl methods ---- */

/*
 * Room for the most attributes a mutated header names (num_attrs below
 * 16): the kernel writes back into every attribute it parsed.
 */
struct ioc {
	struct ib_uverbs_ioctl_hdr hdr;
	struct ib_uverbs_attr attrs[16];
	uint16_t ptrs;		/* attributes whose data is our address */
};

/*
 * Where a mutated pointer attribute points: the kernel writes (and
 * zero-fills) up to the attribute's length, which a mutation may make
 * 64 KiB, and nothing of ours may be under it.
 */
static uint8_t sink[128 * 1024] __attribute__((aligned(PAGE)));

static void ioc_init(struct ioc *q, uint16_t obj, uint16_t method)
{
	memset(q, 0, sizeof(*q));
	q->hdr.object_id = obj;
	q->hdr.method_id = method;
	q->hdr.driver_id = RDMA_DRIVER_MLX5;
}

static struct ib_uverbs_attr *ioc_add(struct ioc *q, uint16_t id,
				      uint16_t len, uint64_t data,
				      int mandatory)
{
	struct ib_uverbs_attr *a = &q->attrs[q->hdr.num_attrs++];

	a->attr_id = id;
	a->len = len;
	a->flags = mandatory ? UVERBS_ATTR_F_MANDATORY : 0;
	a->data = data;
	return a;
}

/* An attribute whose data points at our buffer @p. */
static struct ib_uverbs_attr *ioc_ptr(struct ioc *q, uint16_t id,
				      uint16_t len, uint64_t p, int mandatory)
{
	q->ptrs |= 1U << q->hdr.num_attrs;
	return ioc_add(q, id, len, p, mandatory);
}

static void ioc_mutate(struct ioc *q, struct ctx *c)
{
	struct ib_uverbs_attr *a;
	unsigned int k;

	if (!q->hdr.num_attrs || chance(15)) {
		switch (below(5)) {
		case 0:
			q->hdr.driver_id = (uint32_t)interesting(4, 1, c);
			break;
		case 1:
			q->hdr.reserved1 = rnd();
			break;
		case 2:
			q->hdr.num_attrs = (uint16_t)interesting(2, q->hdr.num_attrs, c) % 16;
			break;
		case 3:
			q->hdr.length = (uint16_t)interesting(2, 0, c);
			break;
		default:
			q->hdr.method_id = (uint16_t)interesting(2, q->hdr.method_id, c);
			break;
		}
		return;
	}
	k = below(q->hdr.num_attrs);
	a = &q->attrs[k];
	switch (below(7)) {
	case 0:
		a->len = (uint16_t)interesting(2, a->len, c);
		if (q->ptrs & (1U << k))
			a->data = (uintptr_t)(sink + 8 * below(1024));
		break;
	case 1:
		a->flags = (uint16_t)rnd();
		break;
	case 2:
		a->attr_id = chance(50) ? q->attrs[below(q->hdr.num_attrs)].attr_id :
			     (uint16_t)interesting(2, a->attr_id, c);
		break;
	case 3:
		a->attr_data.reserved = (uint16_t)rnd();
		break;
	case 4:		/* drop the last attribute */
		q->hdr.num_attrs--;
		break;
	default:
		/* a pointer near ours could land on our stack */
		if (q->ptrs & (1U << k))
			a->data = chance(50) ? bad_addr() :
				  (uintptr_t)(sink + 8 * below(1024));
		else
			a->data = interesting(8, a->data, c);
		break;
	}
}

static int ioc_run(enum cmd id, int fd, struct ioc *q, int mutated,
		   struct ctx *c)
{
	if (mutated)
		ioc_mutate(q, c);
	if (!q->hdr.length)
		q->hdr.length = sizeof(q->hdr) +
				q->hdr.num_attrs * sizeof(q->attrs[0]);
	return note(id, ioctl(fd, RDMA_VERBS_IOCTL, q));
}

/* ---- the steps ---- */

static void ctx_close(struct ctx *c)
{
	int i;

	for (i = 0; i < c->nobj; i++)
		if (c->obj[i].type == O_CHAN && c->obj[i].live)
			close((int)c->obj[i].id);
	if (c->async_fd >= 0)
		close(c->async_fd);
	if (c->fd >= 0)
		close(c->fd);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->async_fd = -1;
}

static int ctx_open(struct ctx *c)
{
	ctx_close(c);
	c->fd = open(node, O_RDWR | O_CLOEXEC);
	return note(C_OPEN, c->fd);
}

/* libmlx5's request: 16 bfregs, 4 low latency, CQE v1, 4K and dynamic UARs */
static void uctx_req(struct mlx5_ib_alloc_ucontext_req_v2 *r)
{
	memset(r, 0, sizeof(*r));
	r->total_num_bfregs = 16;
	r->num_low_latency_bfregs = 4;
	r->max_cqe_version = 1;
	r->lib_caps = MLX5_LIB_CAP_4K_UAR | MLX5_LIB_CAP_DYN_UAR;
}

static void uctx_took(struct ctx *c, const struct mlx5_ib_alloc_ucontext_resp *r)
{
	c->has_ctx = 1;
	c->cqe_version = r->cqe_version;
}

static int step_get_context(struct ctx *c, int mutated)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req;
	struct ib_uverbs_get_context cmd = { 0 };
	struct wcmd w = {
		.cmd = IB_USER_VERBS_CMD_GET_CONTEXT, .has_resp = 1,
		.core = &cmd, .core_len = sizeof(cmd),
		.drv = &req, .drv_len = sizeof(req),
		.resp_len = sizeof(struct ib_uverbs_get_context_resp),
		.drv_resp_len = sizeof(struct mlx5_ib_alloc_ucontext_resp),
	};
	int e;

	uctx_req(&req);
	w.mut = pick_mut(mutated, 1);
	e = wcmd_run(C_GET_CONTEXT, c->fd, &w, c);
	if (!e && got_resp(&w)) {
		struct ib_uverbs_get_context_resp *r = (void *)out;

		uctx_took(c, (void *)(out + sizeof(*r)));
		if (c->async_fd < 0)
			c->async_fd = (int)r->async_fd;
	}
	return e;
}

static int step_get_context_ioctl(struct ctx *c, int mutated)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req;
	struct mlx5_ib_alloc_ucontext_resp resp = { 0 };
	uint64_t core = 0;
	uint32_t ncomp = 0;
	struct ioc q;
	int e;

	uctx_req(&req);
	if (mutated && chance(60))
		mutate_field(&req, sizeof(req), c);
	ioc_init(&q, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT);
	ioc_ptr(&q, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, 4,
		(uintptr_t)&ncomp, 0);
	ioc_ptr(&q, UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT, 8, (uintptr_t)&core, 0);
	ioc_ptr(&q, UVERBS_ATTR_UHW_IN, sizeof(req), (uintptr_t)&req, 0);
	ioc_ptr(&q, UVERBS_ATTR_UHW_OUT, sizeof(resp), (uintptr_t)&resp, 0);
	e = ioc_run(C_GET_CONTEXT_IOCTL, c->fd, &q, mutated && chance(40), c);
	if (!e)
		uctx_took(c, &resp);
	return e;
}

static int step_query_device(struct ctx *c, int mutated)
{
	struct ib_uverbs_query_device cmd = { 0 };
	struct ib_uverbs_ex_query_device xcmd = { 0 };
	struct wcmd w = {
		.cmd = IB_USER_VERBS_CMD_QUERY_DEVICE, .has_resp = 1,
		.core = &cmd, .core_len = sizeof(cmd),
		.resp_len = sizeof(struct ib_uverbs_query_device_resp),
	};

	if (chance(50)) {
		w.ex = 1;
		w.has_resp = 0;
		w.core = &xcmd;
		w.core_len = sizeof(xcmd);
		w.resp_len = sizeof(struct ib_uverbs_ex_query_device_resp);
		/* mlx5_ib_query_device_resp: 104 or 112 bytes */
		w.drv_resp_len = chance(50) ? 104 : 112;
		w.mut = pick_mut(mutated, 0);
		return wcmd_run(C_QUERY_DEVICE_EX, c->fd, &w, c);
	}
	w.mut = pick_mut(mutated, 0);
	return wcmd_run(C_QUERY_DEVICE, c->fd, &w, c);
}

static int step_query_port(struct ctx *c, int mutated)
{
	struct ib_uverbs_query_port cmd = { .port_num = 1 };
	struct wcmd w = {
		.cmd = IB_USER_VERBS_CMD_QUERY_PORT, .has_resp = 1,
		.core = &cmd, .core_len = sizeof(cmd),
		.resp_len = sizeof(struct ib_uverbs_query_port_resp),
	};
	int e;

	if (ioctl_only || chance(30)) {
		/* an output attribute is exactly its struct, or refused */
		struct ib_uverbs_query_port_resp_ex resp = { 0 };
		struct ioc q;

		ioc_init(&q, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
		/* a constant attribute is a u64, whatever its type */
		ioc_add(&q, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 8,
			mutated && chance(50) ? below(4) : 1, 1);
		ioc_ptr(&q, UVERBS_ATTR_QUERY_PORT_RESP, sizeof(resp),
			(uintptr_t)&resp, 1);
		e = ioc_run(C_QUERY_PORT_IOCTL, c->fd, &q, mutated, c);
		/* the extended response starts with the legacy one */
		if (!e && !mutated)
			c->lid = resp.legacy_resp.lid;
		return e;
	}
	w.mut = pick_mut(mutated, 0);
	e = wcmd_run(C_QUERY_PORT, c->fd, &w, c);
	if (!e && !mutated)
		c->lid = ((struct ib_uverbs_query_port_resp *)out)->lid;
	return e;
}

static int step_uar_alloc(struct ctx *c, int mutated)
{
	uint32_t page_id = 0, len = 0;
	uint64_t off = 0;
	struct ib_uverbs_attr *ha;
	struct ioc q;
	struct obj *o;
	int e;

	ioc_init(&q, MLX5_IB_OBJECT_UAR, MLX5_IB_METHOD_UAR_OBJ_ALLOC);
	ha = ioc_add(&q, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE, 0, 0, 1);
	ioc_add(&q, MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE, 8,
		mutated && chance(30) ? below(3) : MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC, 1);
	ioc_ptr(&q, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET, 8, (uintptr_t)&off, 1);
	ioc_ptr(&q, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH, 4, (uintptr_t)&len, 1);
	ioc_ptr(&q, MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID, 4, (uintptr_t)&page_id, 1);
	e = ioc_run(C_UAR_ALLOC, c->fd, &q, mutated, c);
	if (!e) {
		o = obj_add(c, O_UAR, (uint32_t)ha->data);
		o->id = page_id;
		o->off = off;
	}
	return e;
}

static int step_uar_destroy(struct ctx *c, int valid)
{
	struct obj *o = obj_pick(c, O_UAR, 1);
	struct ioc q;
	int e;

	ioc_init(&q, MLX5_IB_OBJECT_UAR, MLX5_IB_METHOD_UAR_OBJ_DESTROY);
	ioc_add(&q, MLX5_IB_ATTR_UAR_OBJ_DESTROY_HANDLE, 0,
		valid && o ? o->handle : handle_of(c, O_UAR, 0), 1);
	e = ioc_run(C_UAR_DESTROY, c->fd, &q, !valid && chance(30), c);
	if (!e && valid && o)
		o->live = 0;
	return e;
}

static void map_keep(void *p, size_t len)
{
	struct map *m = &maps[below(ARRAY_SIZE(maps))];

	if (m->addr)
		note(C_MUNMAP, munmap(m->addr, m->len));
	m->addr = p;
	m->len = len;
}

/*
 * Map a UAR as libmlx5 does (shared, write-only use, one page), or with
 * one thing wrong: length, private, executable, a legacy or random
 * offset, the offset of a destroyed UAR or of the other context.  The
 * pages are never touched: a doorbell write is the device's business.
 */
static int step_mmap(struct ctx *c, int mutated)
{
	struct obj *o = obj_pick(c, O_UAR, 1);
	int prot = PROT_WRITE, flags = MAP_SHARED;
	uint64_t off = o ? o->off : 0;
	size_t len = PAGE;
	void *p;

	if (mutated || !o) {
		switch (below(8)) {
		case 0:
			len = chance(50) ? 2 * PAGE : bad_len(PAGE) & ~(PAGE - 1);
			break;
		case 1:
			flags = MAP_PRIVATE;
			break;
		case 2:
			prot |= PROT_EXEC;
			break;
		case 3:	/* legacy command pages: static UAR, clock, DM */
			off = (uint64_t)((below(10) << 8) | below(4)) * PAGE;
			break;
		case 4:
			o = obj_pick(c, O_UAR, 0);
			off = o ? o->off : rnd() & ~(PAGE - 1);
			break;
		case 5:
			o = obj_pick(other(c), O_UAR, 1);
			off = o ? o->off : 0;
			break;
		case 6:
			off = (rnd() & 0xffffffffULL) * PAGE;
			break;
		default:
			prot = PROT_READ | PROT_WRITE;
			off += PAGE * (1 + below(4));
			break;
		}
	}
	p = mmap(NULL, len, prot, flags, c->fd, (off_t)off);
	if (p == MAP_FAILED)
		return note(C_MMAP, -1);
	note(C_MMAP, 0);
	map_keep(p, len);
	return 0;
}

static int step_alloc_pd(struct ctx *c, int mutated)
{
	struct ib_uverbs_alloc_pd cmd = { 0 };
	struct wcmd w = {
		.cmd = IB_USER_VERBS_CMD_ALLOC_PD, .has_resp = 1,
		.core = &cmd, .core_len = sizeof(cmd),
		.resp_len = sizeof(struct ib_uverbs_alloc_pd_resp),
		.drv_resp_len = sizeof(struct mlx5_ib_alloc_pd_resp),
	};

	return wcmd_create(C_ALLOC_PD, c, &w, mutated, O_PD, NULL);
}

/* A destroy command that names its object by the first u32 of @core. */
static int destroy_simple(struct ctx *c, enum cmd id, uint32_t wcmd,
			  enum otype t, int valid, int has_resp,
			  size_t resp_len)
{
	struct { uint64_t response; uint32_t handle, reserved; } rcmd = { 0 };
	struct { uint32_t handle; } scmd;
	struct obj *o = valid ? obj_pick(c, t, 1) : NULL;
	struct wcmd w = {
		.cmd = wcmd, .has_resp = has_resp, .resp_len = resp_len,
	};
	uint32_t h = o ? o->handle : handle_of(c, t, 0);
	int e;

	if (has_resp) {
		rcmd.handle = h;
		w.core = &rcmd;
		w.core_len = sizeof(rcmd);
	} else {
		scmd.handle = h;
		w.core = &scmd;
		w.core_len = sizeof(scmd);
	}
	w.mut = pick_mut(!valid && chance(20), 0);
	e = wcmd_run(id, c->fd, &w, c);
	if (!e && o)
		o->live = 0;
	return e;
}

static int step_reg_mr(struct ctx *c, int mutated)
{
	size_t pages = 1 + below(16);
	struct ib_uverbs_reg_mr cmd = {
		.start = arena_take(pages + 1), .length = pages * PAGE,
		.pd_handle = handle_of(c, O_PD, 1),
		.access_flags = 1 | 2 | 4,
	};
	struct wcmd w = {
		.cmd = IB_USER_VERBS_CMD_REG_MR, .has_resp = 1,
		.core = &cmd, .core_len = sizeof(cmd),
		.resp_len = sizeof(struct ib_uverbs_reg_mr_resp),
	};

	/* not page aligned is fine, if the IOVA has the same page offset */
	if (chance(20))
		cmd.start += 64 * below(64);
	cmd.hca_va = cmd.start;
	return wcmd_create(C_REG_MR, c, &w, mutated, O_MR, NULL);
}

static int step_rereg_mr(struct ctx *c, int mutated)
{
	size_t pages = 1 + below(8);
	struct ib_uverbs_rereg_mr cmd = {
		.mr_handle = handle_of(c, O_MR, !mutated),
		.flags = 1 + below(7),	/* translation, PD, access */
		.start = arena_take(pages), .length = pages * PAGE,
		.pd_handle = handle_of(c, O_PD, 1), .access_flags = 1 | 4,
	};
	struct wcmd w = {
		.cmd = IB_USER_VERBS_CMD_REREG_MR, .has_resp = 1,
		.core = &cmd, .core_len = sizeof(cmd),
		.resp_len = sizeof(struct ib_uverbs_rereg_mr_resp),
	};

	cmd.hca_va = cmd.start;
	w.mut = pick_mut(mutated, 0);
	return wcmd_run(C_REREG_MR, c->fd, &w, c);
}

static int step_alloc_mw(struct ctx *c, int mutated)
{
	struct ib_uverbs_alloc_mw cmd = {
		.pd_handle = handle_of(c, O_PD, 1), .mw_type = 1 + below(2),
	};
	struct mlx5_ib_alloc_mw req = { .num_klms = chance(50) ? 4 : 0 };
	struct wcmd w = {
		.cmd = IB_USER_VERBS_CMD_ALLOC_MW, .has_resp = 1,
		.core = &cmd, .core_len = sizeof(cmd),
		.drv = &req, .drv_len = sizeof(req),
		.resp_len = sizeof(struct ib_uverbs_alloc_mw_resp),
	};

	return wcmd_create(C_ALLOC_MW, c, &w, mutated, O_MW, NULL);
}

static int step_comp_channel(struct ctx *c, int mutated)
{
	struct ib_uverbs_create_comp_channel cmd = { 0 };
	struct wcmd w = {
		.cmd = IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL, .has_resp = 1,
		.core = &cmd, .core_len = sizeof(cmd),
		.resp_len = sizeof(struct ib_uverbs_create_comp_channel_resp),
	};
	struct obj *o;
	int e;

	if (obj_count(c, O_CHAN, 1) >= 4)
		return 0;
	/* the fd is the handle: closed with the context */
	e = wcmd_create(C_COMP_CHANNEL, c, &w, mutated, O_CHAN, &o);
	if (o)
		o->id = o->handle;
	return e;
}

static int chan_fd(struct ctx *c)
{
	struct obj *o = chance(50) ? obj_pick(c, O_CHAN, 1) : NULL;

	return o ? (int)o->id : -1;
}

/* libmlx5's CQ request: a ring of @n CQEs of @cqe_size bytes. */
static void cq_req(struct ctx *c, struct mlx5_ib_create_cq *r, uint32_t n,
		   uint32_t cqe_size)
{
	struct obj *u = obj_pick(c, O_UAR, 1);

	memset(r, 0, sizeof(*r));
	r->buf_addr = arena_take((n * cqe_size + PAGE - 1) / PAGE);
	r->db_addr = db_addr();
	r->cqe_size = cqe_size;
	r->flags = MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX;
	r->uar_page_index = u ? u->id : 0;
}

static int step_create_cq(struct ctx *c, int mutated)
{
	uint32_t n = 1U << (1 + below(8)), cqe_size = chance(80) ? 64 : 128;
	struct mlx5_ib_create_cq req;
	struct ib_uverbs_create_cq cmd = {
		.user_handle = rnd(), .cqe = n - 1,
		.comp_channel = chan_fd(c),
	};
	struct ib_uverbs_ex_create_cq xcmd = {
		.user_handle = rnd(), .cqe = n - 1,
		.comp_channel = chan_fd(c),
	};
	struct wcmd w = {
		.cmd = IB_USER_VERBS_CMD_CREATE_CQ, .has_resp = 1,
		.core = &cmd, .core_len = sizeof(cmd),
		.drv = &req, .drv_len = sizeof(req),
		.resp_len = sizeof(struct ib_uverbs_create_cq_resp),
		.drv_resp_len = sizeof(struct mlx5_ib_create_cq_resp),
	};
	enum cmd id = C_CREATE_CQ;
	int e;

	cq_req(c, &req, n, cqe_size);
	if (ioctl_only || chance(35)) {
		uint32_t cqe = n - 1, handle = 0;
		struct mlx5_ib_create_cq_resp resp;
		struct ib_uverbs_attr *ha;
		uint64_t uh = rnd();
		struct ioc q;

		if (mutated && chance(50))
			mutate_field(&req, sizeof(req), c);
		ioc_init(&q, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
		ha = ioc_add(&q, UVERBS_ATTR_CREATE_CQ_HANDLE, 0, 0, 1);
		ioc_add(&q, UVERBS_ATTR_CREATE_CQ_CQE, 4, cqe, 1);
		ioc_add(&q, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 8, uh, 1);
		ioc_add(&q, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 4, 0, 1);
		ioc_ptr(&q, UVERBS_ATTR_CREATE_CQ_RESP_CQE, 4,
			(uintptr_t)&cqe, 1);
		ioc_ptr(&q, UVERBS_ATTR_UHW_IN, sizeof(req), (uintptr_t)&req, 0);
		ioc_ptr(&q, UVERBS_ATTR_UHW_OUT, sizeof(resp),
			(uintptr_t)&resp, 0);
		e = ioc_run(C_CREATE_CQ_IOCTL, c->fd, &q, mutated && chance(50), c);
		handle = (uint32_t)ha->data;
		if (!e)
			obj_add(c, O_CQ, handle);
		return e;
	}
	if (chance(40)) {
		w.ex = 1;
		w.has_resp = 0;
		w.core = &xcmd;
		w.core_len = sizeof(xcmd);
		w.resp_len = sizeof(struct ib_uverbs_ex_create_cq_resp);
		id = C_CREATE_CQ_EX;
	}
	return wcmd_create(id, c, &w, mutated, O_CQ, NULL);
}

static int step_resize_cq(struct ctx *c, int mutated)
{
	uint32_t n = 1U << (1 + below(9));
	struct ib_uverbs_resize_cq cmd = {
		.cq_handle = handle_of(c, O_CQ, !mutated), .cqe = n - 1,
	};
	struct mlx5_ib_resize_cq req = {
		.buf_addr = arena_take((n * 64 + PAGE - 1) / PAGE),
		.cqe_size = 64,
	};
	struct wcmd w = {
		.cmd = IB_USER_VERBS_CMD_RESIZE_CQ, .has_resp = 1,
		.core = &cmd, .core_len = sizeof(cmd),
		.drv = &req, .drv_len = sizeof(req),
		.resp_len = sizeof(struct ib_uverbs_resize_cq_resp),
	};

	w.mut = pick_mut(mutated, 1);
	return wcmd_run(C_RESIZE_CQ, c->fd, &w, c);
}

static int step_destroy_cq(struct ctx *c, int valid)
{
	struct obj *o = valid ? obj_pick(c, O_CQ, 1) : NULL;
	struct ib_uverbs_destroy_cq_resp resp;
	struct ioc q;
	int e;

	if (!ioctl_only && chance(60))
		return destroy_simple(c, C_DESTROY_CQ, IB_USER_VERBS_CMD_DESTROY_CQ,
				      O_CQ, valid, 1,
				      sizeof(struct ib_uverbs_destroy_cq_resp));
	ioc_init(&q, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY);
	ioc_add(&q, UVERBS_ATTR_DESTROY_CQ_HANDLE, 0,
		o ? o->handle : handle_of(c, O_CQ, 0), 1);
	ioc_ptr(&q, UVERBS_ATTR_DESTROY_CQ_RESP, sizeof(resp),
		(uintptr_t)&resp, 1);
	e = ioc_run(C_DESTROY_CQ_IOCTL, c->fd, &q, !valid && chance(30), c);
	if (!e && o)
		o->live = 0;
	return e;
}

static int step_create_srq(struct ctx *c, int mutated)
{
	uint32_t nwr = 1U << (2 + below(6)), sge = 1 + below(3);
	uint32_t desc = 32;
	struct ib_uverbs_create_srq cmd = {
		.user_handle = rnd(), .pd_handle = handle_of(c, O_PD, 1),
		.max_wr = nwr - 1, .max_sge = sge,
	};
	struct mlx5_ib_create_srq req = {
		.db_addr = db_addr(),
		.uidx = c->cqe_version ? below(0xffffff) : 0xffffff,
	};
	struct wcmd w = {
		.cmd = IB_USER_VERBS_CMD_CREATE_SRQ, .has_resp = 1,
		.core = &cmd, .core_len = sizeof(cmd),
		.drv = &req, .drv_len = sizeof(req),
		.resp_len = sizeof(struct ib_uverbs_create_srq_resp),
		.drv_resp_len = sizeof(struct mlx5_ib_create_srq_resp),
	};

	while (desc < 16 + 16 * sge)
		desc *= 2;
	req.buf_addr = arena_take((nwr * desc + PAGE - 1) / PAGE);
	/* version 0 CQEs: an old library sends no user index at all */
	if (!c->cqe_version && chance(30))
		w.drv_len = offsetof(struct mlx5_ib_create_srq, uidx);
	return wcmd_create(C_CREATE_SRQ, c, &w, mutated, O_SRQ, NULL);
}

static int step_modify_srq(struct ctx *c, int mutated)
{
	struct ib_uverbs_modify_srq cmd = {
		.srq_handle = handle_of(c, O_SRQ, !mutated),
		.attr_mask = 2,		/* IB_SRQ_LIMIT */
		.srq_limit = below(3),	/* below any SRQ's size */
	};
	struct wcmd w = {
		.cmd = IB_USER_VERBS_CMD_MODIFY_SRQ,
		.core = &cmd, .core_len = sizeof(cmd),
	};

	if (mutated && chance(50))
		cmd.attr_mask = below(4);	/* MAX_WR: resize, refused */
	w.mut = pick_mut(mutated, 0);
	return wcmd_run(C_MODIFY_SRQ, c->fd, &w, c);
}

static int step_query_srq(struct ctx *c, int mutated)
{
	struct ib_uverbs_query_srq cmd = {
		.srq_handle = handle_of(c, O_SRQ, !mutated),
	};
	struct wcmd w = {
		.cmd = IB_USER_VERBS_CMD_QUERY_SRQ, .has_resp = 1,
		.core = &cmd, .core_len = sizeof(cmd),
		.resp_len = sizeof(struct ib_uverbs_query_srq_resp),
	};

	w.mut = pick_mut(mutated, 0);
	return wcmd_run(C_QUERY_SRQ, c->fd, &w, c);
}

struct qp_shape {
	uint8_t type;
	int srq;
	uint32_t max_send_wr, max_recv_wr, sge;
};

/* libmlx5's QP request for @s: both rings in one buffer, RQ first. */
static void qp_req(struct ctx *c, const struct qp_shape *s,
		   struct mlx5_ib_create_qp *r)
{
	struct obj *u = obj_pick(c, O_UAR, 1);
	uint32_t rq_shift = 4, rq_cnt = 0, sq_cnt = 0;

	while ((1U << rq_shift) < 16 * s->sge)
		rq_shift++;
	if (s->max_recv_wr)
		for (rq_cnt = 1; rq_cnt < s->max_recv_wr; rq_cnt *= 2)
			;
	/* up to four 64-byte basic blocks per send WQE */
	for (sq_cnt = 1; sq_cnt < 4 * s->max_send_wr; sq_cnt *= 2)
		;
	memset(r, 0, sizeof(*r));
	r->sq_wqe_count = sq_cnt;
	r->rq_wqe_count = rq_cnt;
	r->rq_wqe_shift = rq_cnt ? rq_shift : 0;
	r->buf_addr = arena_take(((rq_cnt << rq_shift) + sq_cnt * 64 + PAGE - 1) /
				 PAGE);
	r->db_addr = db_addr();
	r->flags = MLX5_QP_FLAG_SCATTER_CQE | MLX5_QP_FLAG_UAR_PAGE_INDEX;
	r->uidx = c->cqe_version ? below(0xffffff) : 0xffffff;
	r->bfreg_index = u ? u->id : 0;
}

static int step_create_qp(struct ctx *c, int mutated)
{
	static const uint8_t types[] = { QPT_RC, QPT_RC, QPT_RC, QPT_UC, QPT_UD };
	struct qp_shape s = {
		.type = types[below(ARRAY_SIZE(types))],
		.max_send_wr = 1U << below(6), .sge = 1 + below(2),
	};
	struct ib_uverbs_create_qp cmd = { 0 };
	struct ib_uverbs_ex_create_qp xcmd = { 0 };
	struct mlx5_ib_create_qp req;
	struct wcmd w = {
		.cmd = IB_USER_VERBS_CMD_CREATE_QP, .has_resp = 1,
		.core = &cmd, .core_len = sizeof(cmd),
		.drv = &req, .drv_len = sizeof(req),
		.resp_len = sizeof(struct ib_uverbs_create_qp_resp),
		.drv_resp_len = sizeof(struct mlx5_ib_create_qp_resp),
	};
	enum cmd id = C_CREATE_QP;
	struct obj *o;
	uint32_t scq;
	int e;

	s.srq = s.type == QPT_RC && obj_count(c, O_SRQ, 1) && chance(30);
	s.max_recv_wr = s.srq ? 0 : 1U << below(6);
	qp_req(c, &s, &req);
	scq = handle_of(c, O_CQ, 1);
	cmd.user_handle = rnd();
	cmd.pd_handle = handle_of(c, O_PD, 1);
	cmd.send_cq_handle = scq;
	cmd.recv_cq_handle = chance(50) ? scq : handle_of(c, O_CQ, 1);
	cmd.srq_handle = s.srq ? handle_of(c, O_SRQ, 1) : 0;
	cmd.is_srq = s.srq;
	cmd.max_send_wr = s.max_send_wr;
	cmd.max_recv_wr = s.max_recv_wr;
	cmd.max_send_sge = s.sge;
	cmd.max_recv_sge = s.srq ? 0 : s.sge;
	cmd.qp_type = s.type;
	cmd.sq_sig_all = below(2);
	if (chance(30)) {
		memcpy(&xcmd, (uint8_t *)&cmd + 8, sizeof(cmd) - 8);
		w.ex = 1;
		w.has_resp = 0;
		w.core = &xcmd;
		w.core_len = sizeof(xcmd);
		w.resp_len = sizeof(struct ib_uverbs_ex_create_qp_resp);
		id = C_CREATE_QP_EX;
	}
	w.mut = pick_mut(mutated, 1);
	e = wcmd_run(id, c->fd, &w, c);
	if (!e && got_resp(&w)) {
		struct ib_uverbs_create_qp_resp *r = (void *)out;

		o = obj_add(c, O_QP, r->qp_handle);
		o->id = r->qpn;
		o->qpt = s.type;
	}
	return e;
}

/* The attributes libibverbs users pass for the next state of @o. */
static void qp_next_attrs(struct ctx *c, const struct obj *o, uint8_t to,
			  struct ib_uverbs_modify_qp *m)
{
	memset(m, 0, sizeof(*m));
	m->qp_handle = o->handle;
	m->qp_state = to;
	m->attr_mask = QP_STATE;
	switch (to) {
	case S_INIT:
		m->attr_mask |= QP_PKEY | QP_PORT;
		m->port_num = 1;
		if (o->qpt == QPT_UD) {
			m->attr_mask |= QP_QKEY;
			m->qkey = 0x11111111;
		} else {
			m->attr_mask |= QP_ACCESS;
			m->qp_access_flags = 1 | 2 | 4;
		}
		break;
	case S_RTR:
		if (o->qpt == QPT_UD)
			break;
		m->attr_mask |= QP_AV | QP_MTU | QP_DEST_QPN | QP_RQ_PSN;
		m->dest.dlid = c->lid;
		m->dest.port_num = 1;
		m->path_mtu = 1 + below(5);
		m->dest_qp_num = o->id;		/* loopback to itself */
		m->rq_psn = below(0xffffff);
		if (o->qpt == QPT_RC) {
			m->attr_mask |= QP_DEST_RD_AT | QP_MIN_RNR;
			m->max_dest_rd_atomic = 1 + below(4);
			m->min_rnr_timer = 12;
		}
		break;
	case S_RTS:
		m->attr_mask |= QP_SQ_PSN;
		m->sq_psn = below(0xffffff);
		if (o->qpt == QPT_RC) {
			m->attr_mask |= QP_TIMEOUT | QP_RETRY | QP_RNR_RETRY |
					QP_RD_ATOMIC;
			m->timeout = 14;
			m->retry_cnt = 7;
			m->rnr_retry = 7;
			m->max_rd_atomic = 1 + below(4);
		}
		break;
	default:
		break;
	}
}

/* Move @o to @to (through write or extended write); count an RTS. */
static int qp_modify(struct ctx *c, struct obj *o, uint8_t to, int mutated)
{
	struct ib_uverbs_ex_modify_qp x = { 0 };
	struct mlx5_ib_modify_qp req = { 0 };
	struct ib_uverbs_modify_qp *m = &x.base;
	struct wcmd w = {
		.cmd = IB_USER_VERBS_CMD_MODIFY_QP,
		.core = m, .core_len = sizeof(*m),
	};
	enum cmd id = C_MODIFY_QP;
	int e;

	qp_next_attrs(c, o, to, m);
	if (chance(30)) {
		w.ex = 1;
		w.core = &x;
		w.core_len = sizeof(x);
		w.resp_len = sizeof(struct ib_uverbs_ex_modify_qp_resp);
		w.drv = &req;
		w.drv_len = sizeof(req);
		w.drv_resp_len = sizeof(struct mlx5_ib_modify_qp_resp);
		id = C_MODIFY_QP_EX;
	}
	w.mut = pick_mut(mutated, w.ex);
	e = wcmd_run(id, c->fd, &w, c);
	if (!e && o->live && w.mut == F_NONE) {
		o->state = to;
		if (to == S_RTS)
			__atomic_fetch_add(&sh->rts, 1, __ATOMIC_RELAXED);
	}
	return e;
}

/* A transition at random: any state, any mask, any QP. */
static int step_modify_qp_random(struct ctx *c)
{
	struct obj *o = obj_pick(c, O_QP, chance(85));
	struct obj fake = { .type = O_QP, .qpt = QPT_RC };
	int e;

	if (!o) {
		fake.handle = handle_of(c, O_QP, 0);
		o = &fake;
	}
	if (chance(50)) {
		struct ib_uverbs_modify_qp m;
		struct wcmd w = {
			.cmd = IB_USER_VERBS_CMD_MODIFY_QP,
			.core = &m, .core_len = sizeof(m),
		};

		qp_next_attrs(c, o, below(8), &m);
		m.attr_mask = chance(50) ? (uint32_t)rnd() & 0x3fffff :
			      m.attr_mask ^ (1U << below(22));
		m.cur_qp_state = below(8);
		e = wcmd_run(C_MODIFY_QP, c->fd, &w, c);
		if (!e && o != &fake)
			o->state = m.qp_state;	/* a guess: queried later */
		return e;
	}
	return qp_modify(c, o, chance(50) ? (uint8_t)(o->state + 1) : (uint8_t)below(8),
			 chance(50));
}

static int step_query_qp(struct ctx *c, int mutated)
{
	struct ib_uverbs_query_qp cmd = {
		.qp_handle = handle_of(c, O_QP, !mutated),
		.attr_mask = chance(50) ? ~0U : (uint32_t)rnd(),
	};
	struct wcmd w = {
		.cmd = IB_USER_VERBS_CMD_QUERY_QP, .has_resp = 1,
		.core = &cmd, .core_len = sizeof(cmd),
		.resp_len = sizeof(struct ib_uverbs_query_qp_resp),
	};

	w.mut = pick_mut(mutated, 0);
	return wcmd_run(C_QUERY_QP, c->fd, &w, c);
}

static int step_create_ah(struct ctx *c, int mutated)
{
	struct ib_uverbs_create_ah cmd = {
		.user_handle = rnd(), .pd_handle = handle_of(c, O_PD, 1),
		.attr = { .dlid = c->lid, .port_num = 1, .sl = below(16) },
	};
	struct wcmd w = {
		.cmd = IB_USER_VERBS_CMD_CREATE_AH, .has_resp = 1,
		.core = &cmd, .core_len = sizeof(cmd),
		.resp_len = sizeof(struct ib_uverbs_create_ah_resp),
		.drv_resp_len = sizeof(struct mlx5_ib_create_ah_resp),
	};

	return wcmd_create(C_CREATE_AH, c, &w, mutated, O_AH, NULL);
}

/* Destroy one object of type @t (valid: a live one of this context). */
static int destroy(struct ctx *c, enum otype t, int valid)
{
	switch (t) {
	case O_PD:
		return destroy_simple(c, C_DEALLOC_PD, IB_USER_VERBS_CMD_DEALLOC_PD,
				      O_PD, valid, 0, 0);
	case O_MR:
		return destroy_simple(c, C_DEREG_MR, IB_USER_VERBS_CMD_DEREG_MR,
				      O_MR, valid, 0, 0);
	case O_MW:
		return destroy_simple(c, C_DEALLOC_MW, IB_USER_VERBS_CMD_DEALLOC_MW,
				      O_MW, valid, 0, 0);
	case O_AH:
		return destroy_simple(c, C_DESTROY_AH, IB_USER_VERBS_CMD_DESTROY_AH,
				      O_AH, valid, 0, 0);
	case O_CQ:
		return step_destroy_cq(c, valid);
	case O_SRQ:
		return destroy_simple(c, C_DESTROY_SRQ, IB_USER_VERBS_CMD_DESTROY_SRQ,
				      O_SRQ, valid, 1,
				      sizeof(struct ib_uverbs_destroy_srq_resp));
	case O_QP:
		return destroy_simple(c, C_DESTROY_QP, IB_USER_VERBS_CMD_DESTROY_QP,
				      O_QP, valid, 1,
				      sizeof(struct ib_uverbs_destroy_qp_resp));
	case O_UAR:
		return step_uar_destroy(c, valid);
	default:
		return 0;
	}
}

/* ---- garbage ---- */

static int raw_write(struct ctx *c)
{
	uint8_t buf[512] __attribute__((aligned(8)));
	struct ib_uverbs_cmd_hdr *h = (void *)buf;
	size_t len = 8 + below(sizeof(buf) - 8), i;

	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)rnd();
	h->command = chance(70) ? below(50) : (uint32_t)rnd();
	if (chance(30))
		h->command |= IB_USER_VERBS_CMD_FLAG_EXTENDED;
	if (chance(70))
		h->in_words = len / (h->command & IB_USER_VERBS_CMD_FLAG_EXTENDED ? 8 : 4);
	h->out_words = below(64);
	/* a response pointer that points somewhere writable, mostly */
	if (chance(70) && len >= 16) {
		uint64_t p = chance(80) ? (uint64_t)(uintptr_t)out : bad_addr();

		memcpy(buf + 8, &p, 8);
		if (h->command & IB_USER_VERBS_CMD_FLAG_EXTENDED && len >= 24) {
			h->out_words = below(8);
			buf[16] = below(4);
			buf[17] = 0;
			buf[18] = below(4);
			buf[19] = 0;
			memset(buf + 20, 0, 4);
		}
	}
	return note(C_RAW_WRITE, write(c->fd, buf, len));
}

static const uint16_t objs[] = {
	UVERBS_OBJECT_DEVICE, UVERBS_OBJECT_PD, UVERBS_OBJECT_COMP_CHANNEL,
	UVERBS_OBJECT_CQ, UVERBS_OBJECT_QP, UVERBS_OBJECT_SRQ,
	UVERBS_OBJECT_AH, UVERBS_OBJECT_MR, UVERBS_OBJECT_MW,
	UVERBS_OBJECT_FLOW, UVERBS_OBJECT_XRCD, UVERBS_OBJECT_ASYNC_EVENT,
	MLX5_IB_OBJECT_UAR, MLX5_IB_OBJECT_DEVX, MLX5_IB_OBJECT_VAR,
	MLX5_IB_OBJECT_PP, UVERBS_OBJECT_DM,
};

/* Any object, any method, attributes of any id, length and data. */
static int raw_ioctl(struct ctx *c)
{
	/* what the kernel reads, and may write back, stays in the sink */
	uint8_t *data = sink + sizeof(sink) / 2;
	unsigned int i, n = below(8);
	struct ioc q;

	memset(data, 0, 256);

	ioc_init(&q, chance(80) ? objs[below(ARRAY_SIZE(objs))] :
		 (uint16_t)rnd(), chance(50) ? below(16) :
		 (uint16_t)(0x1000 + below(16)));
	for (i = 0; i < n; i++) {
		uint16_t id = chance(50) ? below(12) : 0x1000 + below(12);
		uint16_t len = chance(40) ? below(9) : below(256);

		if (len <= 8 && chance(50))
			ioc_add(&q, id, len, chance(50) ?
				handle_of(c, (enum otype)below(NOTYPE), 0) : rnd(),
				chance(50));
		else
			ioc_ptr(&q, id, len, chance(85) ? (uintptr_t)data :
				bad_addr(), chance(50));
	}
	return ioc_run(C_RAW_IOCTL, c->fd, &q, chance(30), c);
}

/* ---- scenarios ---- */

enum step {
	ST_OPEN, ST_CTX, ST_QDEV, ST_QPORT, ST_UAR, ST_MMAP, ST_PD, ST_MR,
	ST_CHAN, ST_CQ1, ST_CQ2, ST_SRQ, ST_QP, ST_INIT, ST_RTR, ST_RTS,
	ST_QQP, ST_MW, ST_AH, ST_RESIZE, ST_QSRQ, ST_MSRQ, ST_REREG, NSTEP
};

static void chaos(struct ctx *c)
{
	switch (below(16)) {
	case 0:
	case 1:
		destroy(c, (enum otype)below(O_CHAN), 0);
		break;
	case 2:
	case 3:
		step_modify_qp_random(c);
		break;
	case 4:
		raw_write(c);
		break;
	case 5:
		raw_ioctl(c);
		break;
	case 6:
		step_mmap(c, 1);
		break;
	case 7: {
		struct map *m = &maps[below(ARRAY_SIZE(maps))];

		if (m->addr)
			note(C_MUNMAP, munmap(m->addr, m->len));
		m->addr = NULL;
		break;
	}
	case 8:
		step_query_qp(c, 1);
		break;
	case 9:
		if (chance(50))
			step_get_context(c, 0);	/* again: the core refuses */
		else
			step_query_srq(c, 1);
		break;
	case 10:
		step_resize_cq(c, 1);
		break;
	case 11:
		destroy(c, O_PD, 1);	/* busy while anything uses it */
		break;
	case 12:
		destroy(c, O_CQ, 1);	/* busy under a QP */
		break;
	case 13:
		step_modify_srq(c, 1);
		break;
	case 14:
		step_rereg_mr(c, 1);
		break;
	default:
		step_query_device(c, 1);
		break;
	}
}

/* The objects an unmutated step works on (0: none needed). */
static const uint8_t step_needs[NSTEP] = {
	[ST_QQP] = O_QP + 1, [ST_RESIZE] = O_CQ + 1, [ST_QSRQ] = O_SRQ + 1,
	[ST_MSRQ] = O_SRQ + 1, [ST_REREG] = O_MR + 1,
};

static int run_step(struct ctx *c, enum step s, int mutated)
{
	struct obj *qp;

	/* a valid step on an object this context lacks would be refused */
	if (!mutated && step_needs[s] &&
	    !obj_count(c, (enum otype)(step_needs[s] - 1), 1))
		return 0;
	switch (s) {
	case ST_OPEN:
		if (c->fd >= 0 && c->nobj < MAXOBJ / 2 && !mutated)
			return 0;
		return ctx_open(c);
	case ST_CTX:
		if (c->has_ctx)
			return 0;
		return chance(30) ? step_get_context_ioctl(c, mutated) :
		       step_get_context(c, mutated);
	case ST_QDEV:
		return step_query_device(c, mutated);
	case ST_QPORT:
		return step_query_port(c, mutated);
	case ST_UAR:
		return step_uar_alloc(c, mutated);
	case ST_MMAP:
		return step_mmap(c, mutated);
	case ST_PD:
		return step_alloc_pd(c, mutated);
	case ST_MR:
		return step_reg_mr(c, mutated);
	case ST_CHAN:
		return chance(30) ? step_comp_channel(c, mutated) : 0;
	case ST_CQ1:
	case ST_CQ2:
		return step_create_cq(c, mutated);
	case ST_SRQ:
		return chance(40) ? step_create_srq(c, mutated) : 0;
	case ST_QP:
		return step_create_qp(c, mutated);
	case ST_INIT:
	case ST_RTR:
	case ST_RTS:
		/* the QP of this scenario: the newest live one */
		qp = NULL;
		for (int i = 0; i < c->nobj; i++)
			if (c->obj[i].type == O_QP && c->obj[i].live &&
			    c->obj[i].state == s - ST_INIT)
				qp = &c->obj[i];
		if (!qp)
			return 0;
		return qp_modify(c, qp, s - ST_INIT + S_INIT, mutated);
	case ST_QQP:
		return step_query_qp(c, mutated);
	case ST_MW:
		return chance(40) ? step_alloc_mw(c, mutated) : 0;
	case ST_AH:
		return chance(30) ? step_create_ah(c, mutated) : 0;
	case ST_RESIZE:
		return chance(20) ? step_resize_cq(c, mutated) : 0;
	case ST_QSRQ:
		return chance(30) ? step_query_srq(c, mutated) : 0;
	case ST_MSRQ:
		return chance(30) ? step_modify_srq(c, mutated) : 0;
	case ST_REREG:
		return chance(20) ? step_rereg_mr(c, mutated) : 0;
	default:
		return 0;
	}
}

/* Destroy what the scenario made, dependents first, or in any order. */
static void teardown(struct ctx *c)
{
	static const enum otype order[] = {
		O_QP, O_SRQ, O_AH, O_MW, O_CQ, O_MR, O_PD, O_UAR,
	};
	unsigned int i, k;

	switch (below(5)) {
	case 0:		/* leave it all: a later close (or kill) frees it */
		return;
	case 1:
		ctx_close(c);
		return;
	case 2:		/* any order: EBUSY until the dependents are gone */
		for (k = 0; k < 24 && !sh->stop; k++)
			destroy(c, order[below(ARRAY_SIZE(order))], 1);
		return;
	default:
		for (i = 0; i < ARRAY_SIZE(order) && !sh->stop; i++)
			while (obj_pick(c, order[i], 1) && !sh->stop)
				if (destroy(c, order[i], 1) && chance(50))
					break;
		return;
	}
}

/*
 * One scenario on a context: every step in order, one of them (or none)
 * mutated, random operations in between.  Returns the first failing
 * unmutated step's errno (for the baseline), with *@at the step.
 */
static int scenario(struct ctx *c, int mutate_pct, int chaos_pct, int *at)
{
	int m = chance(mutate_pct) ? (int)below(NSTEP) : -1, s, e, first = 0;

	for (s = 0; s < NSTEP && !sh->stop; s++) {
		e = run_step(c, (enum step)s, s == m);
		if (e && s != m && !first) {
			first = e;
			*at = s;
		}
		while (chance(chaos_pct) && !sh->stop && c->fd >= 0)
			chaos(c);
		if (c->fd < 0)
			break;
	}
	if (!sh->stop)
		teardown(c);
	return first;
}

/*
 * A sibling shares the worker's open files (so its contexts) but not its
 * memory, and runs beside it: UARs, CQs (their rings and doorbell pages
 * pinned from another mm, at the same addresses), mappings and destroys
 * on the same contexts at the same time.
 */
static int raw_ioctl_op(struct ctx *c, int unused)
{
	(void)unused;
	return raw_ioctl(c);
}

/* What a sibling does, each with the chance (%) that it is mutated. */
static const struct {
	int (*fn)(struct ctx *c, int arg);
	unsigned int pct;
} sib_ops[] = {
	{ step_uar_alloc, 20 }, { step_create_cq, 20 }, { step_create_cq, 20 },
	{ step_destroy_cq, 70 }, { step_uar_destroy, 70 }, { step_mmap, 30 },
	{ step_query_port, 30 }, { raw_ioctl_op, 0 },
};

static void sibling_run(uint64_t seed)
{
	unsigned int i, n;

	rng = seed;
	ioctl_only = 1;
	/* a killed worker takes its sibling with it */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (n = 0; n < 40 && !sh->stop; n++) {
		struct ctx *c = &ctxs[below(NCTX)];

		if (c->fd < 0 || !c->has_ctx)
			continue;
		i = below(ARRAY_SIZE(sib_ops));
		sib_ops[i].fn(c, chance(sib_ops[i].pct));
	}
	_exit(0);
}

static pid_t sib_pid;

/* Reap the running sibling, if any, killing it first at times. */
static void sibling_end(int kill_it)
{
	int status;

	if (!sib_pid)
		return;
	if (kill_it)
		kill(sib_pid, SIGKILL);
	if (waitpid(sib_pid, &status, 0) == sib_pid &&
	    WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL) {
		fprintf(stderr, "uvfuzz: a sibling died of signal %d\n",
			WTERMSIG(status));
		__atomic_fetch_add(&sh->sib_crashed, 1, __ATOMIC_RELAXED);
	}
	sib_pid = 0;
}

static void sibling(uint64_t seed)
{
	pid_t pid;

	sibling_end(chance(30));
	pid = fork();
	if (!pid)
		sibling_run(seed);
	if (pid > 0)
		sib_pid = pid;
}

static void setup_memory(void)
{
	arena = mmap(NULL, arena_pages * PAGE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ro_page = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	none_page = mmap(NULL, PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED || ro_page == MAP_FAILED ||
	    none_page == MAP_FAILED) {
		perror("uvfuzz: mmap");
		exit(2);
	}
	memset(arena, 0, arena_pages * PAGE);
}

static void worker(int slot, uint64_t seed, uint64_t target)
{
	int i, at;

	my_slot = slot;
	rng = seed;
	setup_memory();
	for (i = 0; i < NCTX; i++) {
		memset(&ctxs[i], 0, sizeof(ctxs[i]));
		ctxs[i].fd = -1;
		ctxs[i].async_fd = -1;
	}
	while (!sh->stop && __atomic_load_n(&sh->ops, __ATOMIC_RELAXED) < target) {
		struct ctx *c = &ctxs[below(NCTX)];

		if (chance(5))
			sibling(rnd());
		scenario(c, 80, 30, &at);
	}
	sibling_end(0);
	_exit(0);
}

/* An unmutated scenario must get a QP to RTS and clean up after itself. */
static int baseline(const char **what, int *err)
{
	static const char *const names[NSTEP] = {
		"open", "get_context", "query_device", "query_port",
		"uar_alloc", "mmap", "alloc_pd", "reg_mr", "comp_channel",
		"create_cq", "create_cq", "create_srq", "create_qp", "INIT",
		"RTR", "RTS", "query_qp", "alloc_mw", "create_ah", "resize_cq",
		"query_srq", "modify_srq", "rereg_mr",
	};
	uint64_t rts = sh->rts;
	int at = -1, e, i;

	setup_memory();
	for (i = 0; i < NCTX; i++) {
		ctxs[i].fd = -1;
		ctxs[i].async_fd = -1;
	}
	for (i = 0; i < 8; i++) {
		e = scenario(&ctxs[0], 0, 0, &at);
		/* optional features a device may refuse */
		if (e == EOPNOTSUPP && at >= ST_MW)
			e = 0;
		if (e) {
			*what = names[at];
			*err = e;
			return 1;
		}
	}
	ctx_close(&ctxs[0]);
	for (i = 0; i < (int)ARRAY_SIZE(maps); i++)
		if (maps[i].addr)
			munmap(maps[i].addr, maps[i].len);
	memset(maps, 0, sizeof(maps));
	if (sh->rts == rts) {
		*what = "RTS";
		*err = 0;
		return 1;
	}
	return 0;
}

/* ---- the parent: workers, kills, the hang watch, the report ---- */

struct run {
	int procs, kills;
	uint64_t seed, target;
	double limit;
	int killed, crashed, hung, spawned;
	pid_t pid[64];
	uint64_t kill_at[64];	/* worker progress at which it is killed */
	uint64_t seen[64];
	double seen_t[64];
};

static void spawn(struct run *r, int i)
{
	uint64_t seed = r->seed * 1000003ULL + (uint64_t)r->spawned++ * 7919ULL;
	pid_t pid;

	sh->w[i].ops = 0;
	r->seen[i] = 0;
	r->seen_t[i] = now_s();
	/* a third of the workers die by SIGKILL somewhere in their run */
	r->kill_at[i] = r->killed < r->kills && chance(35) ? 50 + below(4000) : 0;
	pid = fork();
	if (pid < 0) {
		perror("uvfuzz: fork");
		exit(2);
	}
	if (!pid)
		worker(i, seed, r->target);
	r->pid[i] = pid;
	sh->w[i].pid = pid;
}

static void reap(struct run *r, int i, int status)
{
	int ours = r->kill_at[i] == ~0ULL;

	r->pid[i] = 0;
	if (WIFSIGNALED(status) && !(ours && WTERMSIG(status) == SIGKILL)) {
		fprintf(stderr, "uvfuzz: worker %d died of signal %d\n", i,
			WTERMSIG(status));
		r->crashed++;
	} else if (WIFEXITED(status) && WEXITSTATUS(status)) {
		fprintf(stderr, "uvfuzz: worker %d exited %d\n", i,
			WEXITSTATUS(status));
		r->crashed++;
	}
}

/* One pass of the parent: reap, kill, respawn, watch for hangs. */
static void supervise(struct run *r, int more)
{
	double t = now_s();
	int i, status;

	for (i = 0; i < r->procs; i++) {
		if (r->pid[i] && waitpid(r->pid[i], &status, WNOHANG) == r->pid[i])
			reap(r, i, status);
		if (!r->pid[i]) {
			if (more)
				spawn(r, i);
			continue;
		}
		if (r->kill_at[i] && r->kill_at[i] != ~0ULL &&
		    sh->w[i].ops >= r->kill_at[i]) {
			kill(r->pid[i], SIGKILL);
			r->kill_at[i] = ~0ULL;
			r->killed++;
		}
		if (sh->w[i].ops != r->seen[i]) {
			r->seen[i] = sh->w[i].ops;
			r->seen_t[i] = t;
		} else if (t - r->seen_t[i] > 120) {
			/* one system call for two minutes: a hang */
			fprintf(stderr, "uvfuzz: worker %d (pid %d) made no progress for 120 s\n",
				i, r->pid[i]);
			r->hung++;
			r->seen_t[i] = t + 1e9;
		}
	}
}

static void report(struct run *r, double secs)
{
	int c, e, k;

	printf("ops=%llu\nseconds=%.1f\nops_per_s=%.0f\nprocs=%d\nspawned=%d\nkilled=%d\ncrashed=%d\nhung=%d\nseed=%llu\ndepth_rts=%llu\n",
	       (unsigned long long)sh->ops, secs, sh->ops / (secs > 0 ? secs : 1),
	       r->procs, r->spawned, r->killed, r->crashed, r->hung,
	       (unsigned long long)r->seed, (unsigned long long)sh->rts);
	for (c = 0; c < NCMD; c++)
		for (e = 0; e < NERR; e++) {
			int ok = 0;

			if (!sh->count[c][e])
				continue;
			for (k = 0; k < (int)ARRAY_SIZE(errno_ok); k++)
				ok |= errno_ok[k] == e;
			printf("%s %s %s %llu\n", ok ? "errno" : "unexpected",
			       cmd_name[c], e ? strerrorname_np(e) ?: "other" : "OK",
			       (unsigned long long)sh->count[c][e]);
		}
}

static void usage(void)
{
	fprintf(stderr, "usage: uvfuzz [-s SEED] [-n OPS] [-p PROCS] [-k KILLS] [-t SECONDS] /dev/infiniband/uverbsN\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct run r = { .procs = 4, .kills = 8, .seed = 1, .target = 200000,
			 .limit = 600 };
	const char *what = NULL;
	int opt, i, status, err = 0, base;
	double t0;

	while ((opt = getopt(argc, argv, "s:n:p:k:t:")) != -1) {
		switch (opt) {
		case 's':
			r.seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			r.target = strtoull(optarg, NULL, 0);
			break;
		case 'p':
			r.procs = atoi(optarg);
			break;
		case 'k':
			r.kills = atoi(optarg);
			break;
		case 't':
			r.limit = atof(optarg);
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1 || r.procs < 1 || r.procs > 64 || r.limit <= 0)
		usage();
	node = argv[optind];
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("uvfuzz: mmap");
		return 2;
	}
	memset(sh, 0, sizeof(*sh));
	setvbuf(stdout, NULL, _IOLBF, 0);
	rng = r.seed;
	base = baseline(&what, &err);
	if (base)
		printf("baseline=fail %s %s\n", what, err ? strerrorname_np(err) : "never reached");
	else
		printf("baseline=ok\n");
	rng = r.seed ^ 0x5eed;
	t0 = now_s();
	while (__atomic_load_n(&sh->ops, __ATOMIC_RELAXED) < r.target &&
	       now_s() - t0 < r.limit) {
		supervise(&r, 1);
		usleep(20000);
	}
	sh->stop = 1;
	/* the last workers finish their system call and exit */
	for (;;) {
		int alive = 0;

		supervise(&r, 0);
		for (i = 0; i < r.procs; i++)
			alive += r.pid[i] != 0;
		if (!alive || r.hung)
			break;
		usleep(20000);
	}
	/* a hung worker may never die: wait for it a while only */
	for (i = 0; i < r.procs; i++) {
		int n;

		if (!r.pid[i])
			continue;
		kill(r.pid[i], SIGKILL);
		for (n = 0; n < 1500; n++) {
			if (waitpid(r.pid[i], &status, WNOHANG) == r.pid[i])
				break;
			usleep(20000);
		}
	}
	r.crashed += (int)sh->sib_crashed;
	report(&r, now_s() - t0);
	return base || r.crashed || r.hung ? 1 : 0;
}
