/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The verbs layer: the ib_device mlx5x registers and the objects the
 * stock rdma-core mlx5 provider (libmlx5) creates through it.  The
 * kernel <-> libmlx5 contract is <rdma/mlx5-abi.h>; every udata field is
 * checked here before anything reaches the device.
 *
 * Files: ib_main.c (registration, device/port queries, events), mad.c
 * (process_mad, modify_port, multicast attach),
 * ucontext.c (contexts, UAR objects, mmap, doorbell records, context
 * and PD import), pd.c (PDs, MRs and their re-registration, memory
 * windows), cq.c (CQs
 * and resize), qp.c (RC, UC, UD and XRC QPs), srq.c (SRQs, XRC SRQs and
 * XRC domains), umr.c (the kernel UMR QP that re-registration uses to
 * change an MR's PD and access in place).  None of them builds a
 * command: they fill the typed parameters of fw_verbs.h.
 */
#ifndef MLX5X_IB_H
#define MLX5X_IB_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include <rdma/mlx5-abi.h>

#include "compat.h"
#include "cq_table.h"
#include "fw_verbs.h"
#include "hca.h"
#include "hw.h"
#include "res_table.h"
#include "uar.h"

struct ib_mad;
struct ib_mad_hdr;
struct mlx5x_kmr;
struct dma_pool;
struct mlx5x_dev;
struct mlx5x_eq;
struct mlx5x_kcq;
struct mlx5x_kqp;
struct mlx5x_ksrq;
struct mlx5x_umr;

/*
 * libmlx5 derives the UAR model from tot_bfregs: 0 means "the kernel
 * allocates UARs dynamically" (MLX5_IB_OBJECT_UAR).  That is the only
 * model mlx5x implements.  Each UAR object is one rdma_user_mmap_entry;
 * its mmap offset lies in [MLX5X_MMAP_ENTRY_FIRST, _LAST], where the
 * mlx5 offset encoding (command in bits 15:8 of the page offset) has
 * commands 9..255, which libmlx5 never builds itself.
 */
#define MLX5X_MMAP_CMD_SHIFT		8
#define MLX5X_MMAP_CMD_MASK		0xff
#define MLX5X_MMAP_FIRST_ENTRY_CMD	9
#define MLX5X_MMAP_ENTRY_FIRST		(MLX5X_MMAP_FIRST_ENTRY_CMD << \
					 MLX5X_MMAP_CMD_SHIFT)
#define MLX5X_MMAP_ENTRY_LAST		0xffff

/* How an mmap() page offset is to be served. */
enum mlx5x_mmap_class {
	MLX5X_MMAP_ENTRY,	/* an rdma_user_mmap_entry offset */
	MLX5X_MMAP_LEGACY,	/* a static-UAR/clock command: not offered */
	MLX5X_MMAP_BAD,		/* no such offset */
};

/**
 * struct mlx5x_ib_stats - verb failures; atomic64 only (read locklessly)
 * @ucontext_err: alloc_ucontext refusals
 * @pd_err: alloc_pd failures
 * @mr_err: reg_user_mr and alloc_mr failures
 * @mw_err: alloc_mw failures
 * @cq_err: create_cq failures
 * @qp_err: create_qp failures
 * @modify_qp_err: modify_qp failures
 * @srq_err: create_srq and modify_srq failures
 * @mmap_err: refused mmap() calls
 */
struct mlx5x_ib_stats {
	atomic64_t ucontext_err;
	atomic64_t pd_err;
	atomic64_t mr_err;
	atomic64_t mw_err;
	atomic64_t cq_err;
	atomic64_t qp_err;
	atomic64_t modify_qp_err;
	atomic64_t srq_err;
	atomic64_t mmap_err;
};

/**
 * struct mlx5x_devr_srq - a reserved SRQ
 * @form: firmware command family it was created with
 * @srqn: its number
 */
struct mlx5x_devr_srq {
	enum mlx5x_srq_form form;
	u32 srqn;
};

/**
 * struct mlx5x_devr - kernel objects reserved for the device's lifetime
 * @xrcdn0: XRC domain of basic SRQs and of QPs attached to an SRQ
 * @xrcdn1: XRC domain of QPs without an SRQ and of XRC initiators
 * @pdn: PD of the reserved SRQs, the XRC target QPs and the UMR QP
 * @cqn: CQ of the reserved SRQs and of XRC target QPs, receive CQ of
 *	XRC initiators
 * @s0: XRC SRQ named by XRC initiator and target QPs
 * @s1: basic SRQ named by QPs that have no SRQ
 * @buf: their rings and doorbell records (devr.c), NULL when not created
 * @dma: bus address of @buf
 *
 * The roles are mlx5_ib's (its devr); written before registration,
 * read-only until unregistration.
 */
struct mlx5x_devr {
	u32 xrcdn0;
	u32 xrcdn1;
	u32 pdn;
	u32 cqn;
	struct mlx5x_devr_srq s0;
	struct mlx5x_devr_srq s1;
	void *buf;
	dma_addr_t dma;
};

/**
 * struct mlx5x_ib_dev - the registered RDMA device
 * @ibdev: the core's device; first member (ib_alloc_device)
 * @mdev: the PCI function underneath
 * @cmd: its command engine
 * @caps: capabilities read at registration
 * @uar_geom: UAR index <-> BAR0 math (from the HCA bring-up)
 * @bar_start: bus address of BAR0
 * @vendor_id: IEEE vendor id (QUERY_ADAPTER)
 * @gid_tbl_len: GID table entries per port
 * @pkey_tbl_len: P_Key table entries per port
 * @mkey_variant: low byte of the next memory key, so a freed and reused
 *	mkey index does not give the same lkey/rkey at once
 * @qps: QP number -> QP for async events (res_table.h)
 * @srqs: SRQ number -> SRQ for async events
 * @umr: the UMR queue (umr.h), NULL if it could not be created; set
 *	before registration, cleared after unregistration
 * @devr: reserved kernel objects (devr.c)
 * @listener: how the HCA core reports its events to this device (from
 *	registration until unregistration starts)
 * @kuar: UAR of the kernel data path: kernel CQ arms and kernel QP send
 *	doorbells (each a single 64-bit store, so no lock is needed)
 * @kdb_pool: doorbell records of kernel CQs and QPs
 * @umr_fence: fence of a UMR WQE on a kernel send queue (MLX5X_WQE_FENCE_*)
 * @smi_ports: bit p set: port p has an SMI (written by get_port_immutable
 *	during registration, read-only once ib_core adds its clients)
 * @port_caps_lock: makes modify_port's read-modify-write of the port
 *	CapabilityMask atomic against other modify_port calls
 * @stats: counters
 */
struct mlx5x_ib_dev {
	struct ib_device ibdev;
	struct mlx5x_dev *mdev;
	struct mlx5x_cmd *cmd;
	struct mlx5x_verbs_caps caps;
	struct mlx5x_uar_geom uar_geom;
	u64 bar_start;
	u32 vendor_id;
	u16 gid_tbl_len;
	u16 pkey_tbl_len;
	atomic_t mkey_variant;
	struct mlx5x_res_table qps;
	struct mlx5x_res_table srqs;
	struct mlx5x_umr *umr;
	struct mlx5x_devr devr;
	struct mlx5x_hca_listener listener;
	struct mlx5x_uar kuar;
	struct dma_pool *kdb_pool;
	u8 umr_fence;
	u32 smi_ports;
	struct mutex port_caps_lock; /* port CapabilityMask updates */
	struct mlx5x_ib_stats stats;
};

/**
 * struct mlx5x_ib_ucontext - one open device file of a process
 * @ibuc: core object; first member
 * @cqe_version: CQE format agreed with libmlx5 (0 or 1)
 * @lock: protects @db_pages and @uars; taken under mmap_lock (a UAR is
 *	freed on vma close), so never held across a pin, which takes mmap_lock
 * @db_pages: pinned doorbell-record pages (struct mlx5x_db_page)
 * @uars: live UAR objects (struct mlx5x_uar_entry)
 */
struct mlx5x_ib_ucontext {
	struct ib_ucontext ibuc;
	u8 cqe_version;
	struct mutex lock; /* db_pages, uars */
	struct list_head db_pages;
	struct list_head uars;
};

/**
 * struct mlx5x_uar_entry - a UAR page handed to user space
 * @rdma: core mmap entry; its refcount decides when the UAR is freed
 * @node: on the context's @uars list until the entry is freed
 * @index: UAR index (the page_id libmlx5 passes back in CQ/QP creation)
 * @address: bus address of the UAR page
 */
struct mlx5x_uar_entry {
	struct rdma_user_mmap_entry rdma;
	struct list_head node;
	u32 index;
	u64 address;
};

/**
 * struct mlx5x_db_page - one pinned user page of doorbell records
 * @node: on the context's @db_pages
 * @umem: the pinned page
 * @dma: bus address of the page
 * @user_virt: its user address
 * @mm: the address space @user_virt belongs to (held with mmgrab)
 * @refs: doorbell records mapped in it; under the context's @lock
 */
struct mlx5x_db_page {
	struct list_head node;
	struct ib_umem *umem;
	dma_addr_t dma;
	unsigned long user_virt;
	struct mm_struct *mm;
	unsigned int refs;
};

/**
 * struct mlx5x_db - a doorbell record mapped for the device
 * @page: the page it lives in
 * @dma: bus address of the record
 */
struct mlx5x_db {
	struct mlx5x_db_page *page;
	dma_addr_t dma;
};

/**
 * struct mlx5x_uq - a user work queue's pinned buffer and doorbell record
 * @umem: the queue buffer
 * @db: its doorbell record
 */
struct mlx5x_uq {
	struct ib_umem *umem;
	struct mlx5x_db db;
};

/**
 * struct mlx5x_ib_pd - protection domain
 * @ibpd: core object; first member
 * @pdn: PD number
 */
struct mlx5x_ib_pd {
	struct ib_pd ibpd;
	u32 pdn;
};

/**
 * struct mlx5x_ib_mr - user memory region
 * @ibmr: core object
 * @umem: the pinned memory
 * @index: mkey index
 * @access: IB access flags it was registered with (or re-registered
 *	with in place)
 * @umr_en: its key was created with umr_en: a UMR may change PD and access
 * @kmr: a fast registration MR's descriptor list (kmr.c), else NULL
 */
struct mlx5x_ib_mr {
	struct ib_mr ibmr;
	struct ib_umem *umem;
	u32 index;
	int access;
	bool umr_en;
	struct mlx5x_kmr *kmr;
};

/**
 * struct mlx5x_ib_mw - memory window (type 1 or 2B)
 * @ibmw: core object; rkey is the key the window was created with (a
 *	bind gives it a new tag, which libmlx5 tracks)
 * @index: mkey index
 */
struct mlx5x_ib_mw {
	struct ib_mw ibmw;
	u32 index;
};

/**
 * struct mlx5x_mr_reg - what a user MR registration names
 * @pd: protection domain
 * @access: IB access flags
 * @start: user address of the memory
 * @length: bytes
 * @iova: address the key translates from
 * @writable: the memory is pinned for writing (FOLL_WRITE); of an
 *	existing registration only
 */
struct mlx5x_mr_reg {
	struct ib_pd *pd;
	int access;
	u64 start;
	u64 length;
	u64 iova;
	bool writable;
};

/**
 * struct mlx5x_ib_cq - user or kernel CQ
 * @ibcq: core object; first member
 * @mcq: what the EQ interrupt handler and bottom half see
 * @uctx: the context it belongs to; NULL for a kernel CQ
 * @kcq: a kernel CQ's ring, doorbell record and poll state (kcq.c);
 *	NULL for a user CQ
 * @uq: the CQE ring and its doorbell record (user CQ)
 * @uar: the UAR whose doorbell arms it (reference held; user CQ)
 * @eq: completion EQ it reports to
 * @cqe_size: bytes per CQE (64 or 128), fixed at creation
 * @resize_lock: serializes resizes; protects @uq.umem and ibcq.cqe
 */
struct mlx5x_ib_cq {
	struct ib_cq ibcq;
	struct mlx5x_core_cq mcq;
	struct mlx5x_ib_ucontext *uctx;
	struct mlx5x_kcq *kcq;
	struct mlx5x_uq uq;
	struct mlx5x_uar_entry *uar;
	struct mlx5x_eq *eq;
	u16 cqe_size;
	struct mutex resize_lock; /* uq.umem, ibcq.cqe */
};

/**
 * struct mlx5x_qp_sizes - work queue geometry agreed with libmlx5
 * @rq_wqe_cnt: receive WQEs (power of two), 0 = no receive queue
 * @rq_wqe_shift: log2 of the receive WQE size
 * @rq_max_gs: scatter entries per receive WQE
 * @sq_wqe_cnt: send WQEBBs (power of two), 0 = no send queue
 * @buf_size: bytes of the buffer: receive queue, then send queue
 */
struct mlx5x_qp_sizes {
	u32 rq_wqe_cnt;
	u8 rq_wqe_shift;
	u32 rq_max_gs;
	u32 sq_wqe_cnt;
	size_t buf_size;
};

/**
 * struct mlx5x_qp_cur - a QP's settings that transitions combine with
 * @port: port given at RST2INIT, 0 before
 * @access: IB access flags last given (even those the depth withholds)
 * @resp_depth: max_dest_rd_atomic last given
 *
 * As mlx5_ib: the responder rights a transition writes come from the
 * access flags and the responder depth, each the one given now or the
 * one remembered; a depth of 0 withholds reads and atomics.  An address
 * without a port names the remembered one.
 */
struct mlx5x_qp_cur {
	u8 port;
	int access;
	u8 resp_depth;
};

/**
 * struct mlx5x_ib_qp - user RC, UC, UD or XRC QP, or kernel QP
 * @ibqp: core object; first member
 * @qpn: firmware QP number, the QP table's key; ibqp.qp_num is the same
 *	but for the special QPs, which report 0 and 1
 * @uctx: the context it belongs to (user QP)
 * @kqp: a kernel QP's queues and send/receive state (kqp.c); NULL for
 *	a user QP
 * @uq: the work queue buffer and its doorbell record (user QP)
 * @uar: the UAR of its send doorbell (reference held; user QP)
 * @sizes: work queue geometry
 * @cap: capabilities as created (query_qp reports them)
 * @sq_sig_type: signalling of the send queue, as created
 * @res: the QP table's view: one reference per async event in flight
 * @lock: serializes modify_qp and query_qp; protects @state and @cur
 * @state: state after the last successful transition
 * @cur: what earlier transitions set that later ones build on
 */
struct mlx5x_ib_qp {
	struct ib_qp ibqp;
	u32 qpn;
	struct mlx5x_ib_ucontext *uctx;
	struct mlx5x_kqp *kqp;
	struct mlx5x_uq uq;
	struct mlx5x_uar_entry *uar;
	struct mlx5x_qp_sizes sizes;
	struct ib_qp_cap cap;
	enum ib_sig_type sq_sig_type;
	struct mlx5x_res res;
	struct mutex lock; /* state, cur, transitions */
	enum ib_qp_state state;
	struct mlx5x_qp_cur cur;
};

/**
 * struct mlx5x_ib_xrcd - XRC domain
 * @ibxrcd: core object; first member
 * @xrcdn: XRC domain number
 */
struct mlx5x_ib_xrcd {
	struct ib_xrcd ibxrcd;
	u32 xrcdn;
};

/**
 * struct mlx5x_srq_sizes - SRQ geometry, as libmlx5 computes it too
 * @wqe_cnt: WQEs (power of two); one more than max_wr reported
 * @wqe_shift: log2 of the WQE stride in bytes
 * @max_gs: scatter entries per WQE (after the next-WQE segment)
 * @buf_size: bytes of the WQE buffer
 */
struct mlx5x_srq_sizes {
	u32 wqe_cnt;
	u8 wqe_shift;
	u32 max_gs;
	size_t buf_size;
};

/**
 * struct mlx5x_ib_srq - user SRQ (basic or XRC)
 * @ibsrq: core object; first member
 * @uctx: the context it belongs to
 * @uq: the WQE buffer and its doorbell record
 * @form: firmware command family it was created with
 * @srqn: SRQ (or RMP) number
 * @sizes: geometry
 * @res: the SRQ table's view: one reference per async event in flight
 * @lock: serializes arming the limit
 * @ksrq: a kernel SRQ's ring and list (srq.c); NULL for a user SRQ
 */
struct mlx5x_ib_srq {
	struct ib_srq ibsrq;
	struct mlx5x_ib_ucontext *uctx;
	struct mlx5x_uq uq;
	enum mlx5x_srq_form form;
	u32 srqn;
	struct mlx5x_srq_sizes sizes;
	struct mlx5x_res res;
	struct mutex lock; /* limit arming */
	struct mlx5x_ksrq *ksrq;
};

/**
 * struct mlx5x_ib_ah - kernel address handle
 * @ibah: core object; first member
 * @av: the address vector every send to it copies (mlx5x_av_build())
 * @port: the port it was created for (query_ah)
 */
struct mlx5x_ib_ah {
	struct ib_ah ibah;
	u8 av[MLX5X_WQE_AV_LEN];
	u32 port;
};

static inline struct mlx5x_ib_ah *to_mah(struct ib_ah *ibah)
{
	return container_of(ibah, struct mlx5x_ib_ah, ibah);
}

static inline struct mlx5x_ib_dev *to_mibdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct mlx5x_ib_dev, ibdev);
}

/* Vport commands name the port only on multi-port devices. */
static inline u8 mlx5x_ib_vport_port(struct mlx5x_ib_dev *dev, u32 port)
{
	return dev->caps.num_ports > 1 ? port : 0;
}

static inline struct mlx5x_ib_ucontext *to_muctx(struct ib_ucontext *ibuc)
{
	return container_of(ibuc, struct mlx5x_ib_ucontext, ibuc);
}

static inline struct mlx5x_ib_pd *to_mpd(struct ib_pd *ibpd)
{
	return container_of(ibpd, struct mlx5x_ib_pd, ibpd);
}

static inline struct mlx5x_ib_mr *to_mmr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct mlx5x_ib_mr, ibmr);
}

static inline struct mlx5x_ib_mw *to_mmw(struct ib_mw *ibmw)
{
	return container_of(ibmw, struct mlx5x_ib_mw, ibmw);
}

static inline struct mlx5x_ib_cq *to_mcq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct mlx5x_ib_cq, ibcq);
}

static inline struct mlx5x_ib_qp *to_mqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct mlx5x_ib_qp, ibqp);
}

static inline struct mlx5x_ib_srq *to_msrq(struct ib_srq *ibsrq)
{
	return container_of(ibsrq, struct mlx5x_ib_srq, ibsrq);
}

static inline struct mlx5x_ib_xrcd *to_mxrcd(struct ib_xrcd *ibxrcd)
{
	return container_of(ibxrcd, struct mlx5x_ib_xrcd, ibxrcd);
}

/* devr.c */
int mlx5x_devr_init(struct mlx5x_ib_dev *dev);
void mlx5x_devr_fini(struct mlx5x_ib_dev *dev);

/* ib_main.c */
int mlx5x_ib_init(struct mlx5x_dev *mdev);
void mlx5x_ib_fini(struct mlx5x_dev *mdev);
struct mlx5x_eq *mlx5x_ib_comp_eq(struct mlx5x_ib_dev *dev, u32 vector);
int mlx5x_ib_udata_in(struct ib_udata *udata, void *req, size_t min,
		      size_t size);

/* ucontext.c */
int mlx5x_ib_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata);
void mlx5x_ib_dealloc_ucontext(struct ib_ucontext *ibuc);
void mlx5x_ib_disassociate_ucontext(struct ib_ucontext *ibuc);
int mlx5x_ib_query_ucontext(struct ib_ucontext *ibuc,
			    struct uverbs_attr_bundle *attrs);
int mlx5x_ib_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma);
void mlx5x_ib_mmap_free(struct rdma_user_mmap_entry *entry);
struct mlx5x_uar_entry *mlx5x_uar_get(struct mlx5x_ib_ucontext *uctx,
				      u32 index);
void mlx5x_uar_put(struct mlx5x_uar_entry *uar);
int mlx5x_db_map(struct mlx5x_ib_dev *dev, struct mlx5x_ib_ucontext *uctx,
		 u64 virt, struct mlx5x_db *db);
void mlx5x_db_unmap(struct mlx5x_ib_ucontext *uctx, struct mlx5x_db *db);
int mlx5x_uq_pin(struct mlx5x_ib_dev *dev, struct mlx5x_ib_ucontext *uctx,
		 u64 buf, size_t size, int access, u64 db_addr,
		 struct mlx5x_uq *uq);
void mlx5x_uq_unpin(struct mlx5x_ib_ucontext *uctx, struct mlx5x_uq *uq);
int mlx5x_wq_pin(struct mlx5x_ib_dev *dev, struct mlx5x_ib_ucontext *uctx,
		 u64 buf, size_t size, u64 db_addr, unsigned int max_off,
		 struct mlx5x_uq *uq, struct mlx5x_pas *pas);
extern const struct uapi_definition mlx5x_ib_uapi_defs[];

/* pd.c */
int mlx5x_ib_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata);
int mlx5x_ib_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata);
struct ib_mr *mlx5x_ib_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
				   u64 virt_addr, int access,
				   MLX5X_REG_USER_MR_DMAH_ARG
				   struct ib_udata *udata);
int mlx5x_ib_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);
int mlx5x_ib_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata);
int mlx5x_ib_dealloc_mw(struct ib_mw *ibmw);
struct ib_mr *mlx5x_ib_rereg_user_mr(struct ib_mr *ibmr, int flags, u64 start,
				     u64 length, u64 virt_addr, int access,
				     struct ib_pd *pd, struct ib_udata *udata);

/* kmr.c */
struct ib_mr *mlx5x_ib_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
				u32 max_num_sg);
int mlx5x_ib_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg,
		       int sg_nents, unsigned int *sg_offset);
int mlx5x_kmr_dereg(struct mlx5x_ib_dev *dev, struct mlx5x_ib_mr *mr);

/* cq.c */
int mlx5x_ib_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		       struct mlx5x_create_cq_arg *arg);
int mlx5x_ib_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int mlx5x_ib_resize_cq(struct ib_cq *ibcq, mlx5x_resize_cqe_t cqe,
		       struct ib_udata *udata);

/* qp.c */
int mlx5x_ib_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr,
		       struct ib_udata *udata);
int mlx5x_ib_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		       int mask, struct ib_udata *udata);
int mlx5x_ib_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		      struct ib_qp_init_attr *init_attr);
int mlx5x_ib_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
struct mlx5x_ib_qp *mlx5x_qp_get(struct mlx5x_ib_dev *dev, u32 qpn);
void mlx5x_qp_put(struct mlx5x_ib_qp *qp);

/* srq.c */
int mlx5x_ib_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *attr,
			struct ib_udata *udata);
int mlx5x_ib_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
			enum ib_srq_attr_mask mask, struct ib_udata *udata);
int mlx5x_ib_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr);
int mlx5x_ib_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata);
int mlx5x_ib_alloc_xrcd(struct ib_xrcd *ibxrcd, struct ib_udata *udata);
int mlx5x_ib_dealloc_xrcd(struct ib_xrcd *ibxrcd, struct ib_udata *udata);
void mlx5x_ib_srq_event(struct mlx5x_ib_dev *dev, u8 type, u32 srqn);
int mlx5x_ib_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
			   const struct ib_recv_wr **bad_wr);
u64 mlx5x_ksrq_done(struct mlx5x_ib_srq *srq, u16 idx);

/* kcq.c: kernel CQs */
int mlx5x_kverbs_init(struct mlx5x_ib_dev *dev);
void mlx5x_kverbs_fini(struct mlx5x_ib_dev *dev);
int mlx5x_kcq_alloc(struct mlx5x_ib_dev *dev, struct mlx5x_ib_cq *cq,
		    const struct ib_cq_init_attr *attr,
		    struct mlx5x_cq_params *p);
void mlx5x_kcq_free(struct mlx5x_ib_dev *dev, struct mlx5x_ib_cq *cq);
void mlx5x_kcq_leak(struct mlx5x_ib_cq *cq);
void mlx5x_kcq_event(struct mlx5x_ib_cq *cq);
int mlx5x_ib_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc);
int mlx5x_ib_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);
void mlx5x_kcq_clean(struct mlx5x_ib_cq *cq, u32 qpn,
		     struct mlx5x_ib_srq *srq);
void mlx5x_sq_ring_db(__be32 *dbr_snd, void __iomem *uar, u32 pc,
		      const void *ctrl);
void mlx5x_cq_arm_ring(__be32 *dbr_arm, void __iomem *uar, u32 cqn, u8 sn,
		       bool solicited, u32 ci);

/* kqp.c: kernel QPs */
int mlx5x_kqp_create(struct mlx5x_ib_dev *dev, struct mlx5x_ib_qp *qp,
		     struct ib_qp_init_attr *attr);
void mlx5x_kqp_free(struct mlx5x_ib_dev *dev, struct mlx5x_ib_qp *qp);
void mlx5x_kqp_clean_cqs(struct mlx5x_ib_qp *qp);
void mlx5x_kqp_reset(struct mlx5x_ib_qp *qp);
void mlx5x_kqp_mod(const struct mlx5x_ib_qp *qp, u16 opcode,
		   struct mlx5x_qp_mod *m, u32 *optpar);
int mlx5x_ib_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		       const struct ib_send_wr **bad_wr);
int mlx5x_ib_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		       const struct ib_recv_wr **bad_wr);
bool mlx5x_kqp_special(enum ib_qp_type type);
int mlx5x_kqp_type_to_st(enum ib_qp_type type, u8 *st);

/* kah.c: kernel address handles */
int mlx5x_ib_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *attr,
		       struct ib_udata *udata);
int mlx5x_ib_destroy_ah(struct ib_ah *ibah, u32 flags);
int mlx5x_ib_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr);

/* pd.c */
struct ib_mr *mlx5x_ib_get_dma_mr(struct ib_pd *ibpd, int access);

/* stats.c */
struct rdma_hw_stats *mlx5x_ib_alloc_device_stats(struct ib_device *ibdev);
struct rdma_hw_stats *mlx5x_ib_alloc_port_stats(struct ib_device *ibdev,
						u32 port);
int mlx5x_ib_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
			  u32 port, int index);

/* restrack.c */
int mlx5x_ib_fill_res_qp(struct sk_buff *msg, struct ib_qp *ibqp);
int mlx5x_ib_fill_res_cq(struct sk_buff *msg, struct ib_cq *ibcq);
int mlx5x_ib_fill_res_mr(struct sk_buff *msg, struct ib_mr *ibmr);

/* Pure helpers, shared with the KUnit suites. */
int mlx5x_srq_form(u16 issi, enum ib_srq_type type, u8 cqe_version,
		   enum mlx5x_srq_form *form);
int mlx5x_srq_sizes(const struct ib_srq_attr *attr,
		    const struct mlx5x_verbs_caps *caps,
		    struct mlx5x_srq_sizes *sz);
int mlx5x_srq_check_req(const struct mlx5_ib_create_srq *ucmd, size_t inlen,
			bool xrc, u8 cqe_version, u32 *uidx);
bool mlx5x_srq_event_to_ib(u8 type, enum ib_event_type *event);
int mlx5x_uctx_check_req(const struct mlx5_ib_alloc_ucontext_req_v2 *req,
			 size_t inlen);
void mlx5x_uctx_fill_resp(const struct mlx5x_verbs_caps *caps,
			  const struct mlx5x_uar_geom *geom,
			  const struct mlx5_ib_alloc_ucontext_req_v2 *req,
			  size_t inlen, struct mlx5_ib_alloc_ucontext_resp *resp);
enum mlx5x_mmap_class mlx5x_mmap_classify(unsigned long pgoff);
int mlx5x_mr_access(int ib_access, const struct mlx5x_verbs_caps *caps,
		    u8 *mkey_access);
int mlx5x_mw_check_req(const struct mlx5_ib_alloc_mw *req,
		       enum ib_mw_type type, u16 *klms);
int mlx5x_cq_check_req(const struct mlx5_ib_create_cq *ucmd,
		       const struct mlx5x_verbs_caps *caps, int cqe,
		       u32 flags, u32 *entries);
int mlx5x_mr_rereg_args(int flags, const struct mlx5x_mr_reg *old,
			struct mlx5x_mr_reg *req);
int mlx5x_cq_resize_check(const struct mlx5_ib_resize_cq *ucmd,
			  const struct mlx5x_verbs_caps *caps, int cqe,
			  u16 cqe_size, u32 *entries);
int mlx5x_qp_user_sizes(const struct mlx5_ib_create_qp *ucmd,
			const struct ib_qp_cap *cap,
			const struct mlx5x_verbs_caps *caps,
			struct mlx5x_qp_sizes *sz);
int mlx5x_qp_check_flags(const struct mlx5_ib_create_qp *ucmd,
			 u8 cqe_version);
int mlx5x_qp_transition(enum ib_qp_state cur, enum ib_qp_state next,
			u16 *opcode);
int mlx5x_qp_attr_to_mod(const struct ib_qp_attr *attr, int mask,
			 enum ib_qp_type type, u16 opcode,
			 const struct mlx5x_verbs_caps *caps,
			 const struct mlx5x_qp_cur *cur,
			 struct mlx5x_qp_mod *m, u32 *optpar);
int mlx5x_qp_stat_rate(u8 rate, u16 support, u8 *code);
u8 mlx5x_qp_stat_rate_to_ib(u8 code);
u8 mlx5x_qp_ts_format(const struct mlx5x_verbs_caps *caps, bool kernel);
void mlx5x_qp_rq_names(const struct mlx5x_devr *devr, bool xrc_ini,
		       const u32 *srqn, bool has_rq, struct mlx5x_qp_params *p);
void mlx5x_qp_xrc_tgt_params(const struct mlx5x_devr *devr,
			     const struct mlx5x_verbs_caps *caps, u32 xrcdn,
			     struct mlx5x_qp_params *p);
int mlx5x_qp_type_to_st(enum ib_qp_type type, u8 *st);
int mlx5x_qp_check_init_attr(const struct ib_qp_init_attr *attr,
			     const struct mlx5x_verbs_caps *caps);
enum ib_qp_state mlx5x_qp_state_to_ib(u8 state);
bool mlx5x_page_offset_quantize(u64 dma_start, unsigned long pgsz,
				unsigned int *quant);
int mlx5x_wq_buf_pages(struct ib_umem *umem, unsigned int max_off,
		       struct mlx5x_pas *pas);
int mlx5x_port_width_to_ib(u16 width, u8 *ib_width);
int mlx5x_port_vl_to_ib(u8 vl_hw_cap, u8 *max_vl_num);
enum ib_event_type mlx5x_port_event_to_ib(u8 sub_type, bool *known);

/* mad.c: the management path */

/* what process_mad does with a MAD (mlx5x_mad_action()) */
enum mlx5x_mad_action {
	MLX5X_MAD_PASS,		/* not the device's: on to the host's agents */
	MLX5X_MAD_CONSUME,	/* dropped, no response */
	MLX5X_MAD_FW,		/* answered by the firmware (MAD_IFC) */
};

int mlx5x_ib_process_mad(struct ib_device *ibdev, int mad_flags, u32 port,
			 const struct ib_wc *in_wc, const struct ib_grh *in_grh,
			 const struct ib_mad *in, struct ib_mad *out,
			 size_t *out_mad_size, u16 *out_mad_pkey_index);
int mlx5x_ib_modify_port(struct ib_device *ibdev, u32 port, int mask,
			 struct ib_port_modify *pm);
int mlx5x_ib_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid);
int mlx5x_ib_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid);
bool mlx5x_ib_port_has_smi(struct mlx5x_ib_dev *dev, u32 port);
/* pure helpers, shared with the KUnit suite */
enum mlx5x_mad_action mlx5x_mad_action(const struct ib_mad_hdr *hdr,
				       u16 slid);
u8 mlx5x_mad_ifc_op_mod(int mad_flags, bool has_wc);
int mlx5x_mad_reply(const struct ib_mad_hdr *in, struct ib_mad_hdr *out);
int mlx5x_port_caps_change(const struct ib_port_modify *pm, bool ib_virt,
			   u32 cur, u32 perm, u32 *mask, u32 *value);
int mlx5x_mcast_check(enum ib_qp_type type, const union ib_gid *mgid);
enum ib_event_type mlx5x_qp_event_to_ib(u8 type, bool *known);

#endif /* MLX5X_IB_H */
